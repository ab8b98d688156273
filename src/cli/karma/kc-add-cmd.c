/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-add-cmd.c - karmactl add: host files (folders with -r) imported as
 * tracks by the library's import (km_library_import, the app's too: walk,
 * probe, duplicate and room checks, copy), committed once at the end, so
 * var/smalldb is rewritten once however many files are added. This file
 * says what happened to each file, shows the progress and turns Ctrl-C
 * into the import's cancellation.
 *
 * Duplicates are skipped unless --force-duplicates; files that are no
 * playable tune are refused with the reason (kept as data with --taxi); a
 * full player stops the command between files.
 *
 * Ctrl-C (SIGINT) stops at once: the file being copied is dropped (the
 * transaction removes what it wrote of it) and the files already copied
 * are committed, so the library is consistent and holds every file the
 * command said it added. The commit itself is not interrupted.
 */
#include "kc-library.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kc-convert-opts.h"
#include "kc-progress.h"

static gboolean add_recursive;
static gboolean add_force_duplicates;
static gboolean add_taxi;
static gboolean add_progress;

static const GOptionEntry add_options[] = {
	{ "recursive", 'r', 0, G_OPTION_ARG_NONE, &add_recursive,
	  "Add the files of folders, and of their folders", NULL },
	{ "force-duplicates", 0, 0, G_OPTION_ARG_NONE, &add_force_duplicates,
	  "Add a track even when the library has it already", NULL },
	{ "taxi", 0, 0, G_OPTION_ARG_NONE, &add_taxi,
	  "Keep files that are no playable tune as data (\"taxi\") objects", NULL },
	{ "progress", 0, 0, G_OPTION_ARG_NONE, &add_progress,
	  "Show progress on standard error even when standard output is no terminal", NULL },
	KC_CONVERT_OPTIONS,
	{ NULL }
};

struct add_job {
	struct kc_ctx *ctx;
	const struct kc_import_request *req;
	KmLibrary *lib;
	bool walked;		/* the walk ended: files are being imported */
	GCancellable *cancellable;
	struct kc_progress progress;
	unsigned added, duplicates, refused;
	unsigned not_tried;	/* files after the one the job stopped at */
	bool failed;		/* a named file was refused, or an error stopped the job */
	bool stop_said;		/* what stopped the job: said once, not for every file */
	/* KARMACTL_STATS: the files' loop (wall and CPU) and the commit, apart from the open */
	gint64 start_us, start_cpu_us, files_us, files_cpu_us;
};

/* ---- SIGINT ---- */

/* KARMACTL_TEST_SIGINT_AFTER=N: a Ctrl-C after N files, for the tests. */
static void test_interrupt(const struct add_job *job)
{
	const char *after = g_getenv("KARMACTL_TEST_SIGINT_AFTER");

	if (after && strtoul(after, NULL, 10) == job->added)
		raise(SIGINT);
}

static void check_sigint(struct add_job *job)
{
	if (kc_sigint_caught())
		g_cancellable_cancel(job->cancellable);
}

/* ---- the import's callbacks ---- */

static void refuse(struct add_job *job, const char *path, bool named, const char *why)
{
	kc_failf(job->ctx, "%s: %s", path, why);
	job->refused++;
	job->failed |= named;
}

static void on_walk_problem(const char *path, guint root, gboolean is_root,
			    KmWalkProblem problem, const char *message, gpointer data)
{
	static const char *const why[] = {
		[KM_WALK_UNREADABLE] = "cannot be read",
		[KM_WALK_NOT_REGULAR] = "not a regular file",
		[KM_WALK_FOLDER] = "a folder (-r adds the files in it)",
		[KM_WALK_TOO_DEEP] = "folders nested too deep",
	};

	refuse(data, path, is_root || problem == KM_WALK_TOO_DEEP, message ? message : why[problem]);
}

static void on_walked(GPtrArray *files, guint64 total, gpointer data)
{
	struct add_job *job = data;

	kc_progress_init(&job->progress, job->req->show_progress, files->len, total);
	job->walked = true;
	job->start_us = g_get_monotonic_time();
	job->start_cpu_us = kc_cpu_us();
}

static void on_begin(const KmWalkFile *file, guint index, gpointer data)
{
	struct add_job *job = data;

	test_interrupt(job);
	check_sigint(job);
	kc_progress_file_begin(&job->progress, file->path, file->size);
}

static void on_progress(const KmLibraryProgress *p, gpointer data)
{
	struct add_job *job = data;

	if (p->phase == KM_PHASE_COPYING)
		kc_progress_file_update(&job->progress, p->done);
	else if (p->phase == KM_PHASE_CONVERTING)	/* in ms of audio */
		kc_progress_file_converting(&job->progress, p->done, p->total, p->format);
	check_sigint(job);
}

/* A file the import did not take, for a reason of its own or one that stops it. */
static void say_failed(struct add_job *job, const KmImportFileResult *r)
{
	gboolean refused = r->error->domain == KM_IMPORT_ERROR;	/* no tune, unreadable */

	if (g_error_matches(r->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;	/* the summary says it was interrupted */
	if (refused)	/* the message names the file */
		kc_failf(job->ctx, "not added: %s", r->error->message);
	else
		kc_fail_gerror(job->ctx, r->file->path, r->error);
	job->refused++;
	job->failed |= !refused || r->file->is_root;
	job->stop_said |= r->stops;
}

static void on_done(const KmImportFileResult *r, gpointer data)
{
	struct add_job *job = data;

	if (r->outcome != KM_IMPORT_NOT_TRIED && r->outcome != KM_IMPORT_NOT_SAVED)
		kc_progress_file_end(&job->progress);
	switch (r->outcome) {
	case KM_IMPORT_ADDED:
		if (r->conversion)
			printf("added fid %" G_GUINT32_FORMAT ": %s (converted to %s)\n", r->fid,
			       r->file->path, km_convert_format_name(r->conversion->format));
		else
			printf("added fid %" G_GUINT32_FORMAT ": %s\n", r->fid, r->file->path);
		job->added++;
		break;
	case KM_IMPORT_DUPLICATE:
		if (job->req->playlist_file)
			printf("on the player already as fid %" G_GUINT32_FORMAT ": %s\n", r->fid,
			       r->file->path);
		else
			printf("skipped %s: the same track as fid %" G_GUINT32_FORMAT
			       " (--force-duplicates adds it anyway)\n", r->file->path, r->fid);
		job->duplicates++;
		break;
	case KM_IMPORT_NO_ROOM:
		kc_failf(job->ctx, "%s: the player is full: %" G_GUINT64_FORMAT " bytes free, "
			 "this file needs %" G_GUINT64_FORMAT " with the room the library's files "
			 "need; stopping", r->file->path, r->room.free_bytes, r->room.needed);
		job->refused++;
		job->failed = true;
		break;
	case KM_IMPORT_FAILED:
		say_failed(job, r);
		break;
	case KM_IMPORT_NOT_SAVED:
		/* said "added" before the commit failed: said once, with the commit's error */
		if (!job->stop_said)
			kc_fail_gerror(job->ctx, job->ctx->image, r->error);
		job->stop_said = true;
		job->added--;
		job->refused++;
		job->failed = true;
		break;
	case KM_IMPORT_NOT_TRIED:
		if (r->stops)	/* nothing could be begun */
			kc_fail_gerror(job->ctx, job->ctx->image, r->error);
		job->failed |= r->stops;
		job->not_tried++;
		break;
	default:
		g_assert_not_reached();
	}
	job->files_us = g_get_monotonic_time() - job->start_us;
	job->files_cpu_us = kc_cpu_us() - job->start_cpu_us;
}

/* ---- the command ---- */

static int summarize(struct add_job *job)
{
	if (job->req->playlist_file)
		printf("%u added, %u on the player already, %u not added", job->added,
		       job->duplicates, job->refused);
	else
		printf("%u added, %u duplicate%s skipped, %u not added", job->added,
		       job->duplicates, job->duplicates == 1 ? "" : "s", job->refused);
	if (job->not_tried)
		printf(", %u not tried", job->not_tried);
	printf("%s\n", kc_sigint_caught() ? " (interrupted: the tracks added so far are committed)"
					  : "");
	if (kc_sigint_caught())
		return KC_EXIT_INTERRUPTED;
	return job->failed ? KC_EXIT_FAIL : KC_EXIT_OK;
}

/* What the benchmark of adds (tests/bench/add-bench.sh) needs beside the library's counters. */
static void print_stats(const struct add_job *job, gint64 commit_us)
{
	if (kc_stats_wanted())
		fprintf(stderr, "karmactl: stats: add_files=%u add_files_us=%" G_GINT64_FORMAT
			" add_files_cpu_us=%" G_GINT64_FORMAT " add_commit_us=%" G_GINT64_FORMAT "\n",
			job->added, job->files_us, job->files_cpu_us, commit_us);
}

/* A list's entry that names no file here. */
static void on_skipped(const KmM3uEntry *entry, gpointer data)
{
	g_autofree char *text = kc_shown(entry->text);

	printf("skipped line %u: %s: %s\n", entry->line,
	       entry->path ? "no such file" : "not a local file", text);
}

/* After a playlist import: the playlist made, or why not when no file said it. */
static int say_playlist(struct add_job *job, const KmPlaylistImportResult *pl, gboolean made,
			const GError *error, int status)
{
	const char *file = job->req->playlist_file;
	g_autofree char *name = NULL;

	if (made) {
		name = kc_shown(km_properties_get(km_library_lookup(job->lib, pl->playlist),
						  "title"));
		printf("created playlist fid %" G_GUINT32_FORMAT ": %s, %u entries\n",
		       pl->playlist, name, pl->n_entries);
	} else if (!job->stop_said && !g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
		status = kc_fail_gerror(job->ctx, file, error);
	}
	if (pl->n_skipped)
		printf("%u entr%s of %s skipped\n", pl->n_skipped, pl->n_skipped == 1 ? "y" : "ies",
		       file);
	return status ? status : pl->n_skipped ? KC_EXIT_FAIL : KC_EXIT_OK;
}

int kc_import(struct kc_ctx *ctx, KmLibrary *lib, const struct kc_import_request *req)
{
	struct add_job job = { .ctx = ctx, .req = req, .lib = lib };
	KmLibraryImportOptions options = {
		.recursive = req->recursive, .flags = req->flags,
		.copy_duplicates = req->copy_duplicates, .convert = req->convert,
		.walk_problem = on_walk_problem, .walked = on_walked, .begin = on_begin,
		.progress = on_progress, .done = on_done, .data = &job,
	};
	g_autoptr(GError) error = NULL;
	KmPlaylistImportResult pl = { 0 };
	struct sigaction old;
	gboolean done;
	int status;

	job.cancellable = options.cancellable = g_cancellable_new();
	kc_sigint_catch(&old);
	/* What stops the import was said with the file that met it (on_done). */
	done = req->playlist_file ?
	       km_library_import_playlist(lib, req->playlist_file, req->playlist_name, &options,
					  on_skipped, &pl, &error) :
	       km_library_import(lib, req->roots, req->n_roots, &options, &error);
	sigaction(SIGINT, &old, NULL);
	kc_progress_finish(&job.progress);
	/* the files' time ends with the last file's outcome: what follows is the commit */
	print_stats(&job, g_get_monotonic_time() - job.start_us - job.files_us);
	/* a list refused before any file (unreadable, its name taken) has no summary */
	status = job.walked || !req->playlist_file ? summarize(&job) : KC_EXIT_OK;
	if (req->playlist_file)
		status = say_playlist(&job, &pl, done, error, status);
	g_object_unref(job.cancellable);
	return status;
}

static int add_run(struct kc_ctx *ctx)
{
	KmConvertSettings settings;
	const KmConvertSettings *convert;
	int status = kc_convert_settings(ctx, &settings, &convert);
	const struct kc_import_request req = {
		.roots = (const char *const *)ctx->argv, .n_roots = (guint)ctx->argc,
		.recursive = add_recursive,
		.flags = add_taxi ? KM_IMPORT_TAXI_FALLBACK : KM_IMPORT_FLAGS_NONE,
		.copy_duplicates = add_force_duplicates, .show_progress = add_progress,
		.convert = convert,
	};
	struct kc_library kl;

	if (status)
		return status;
	status = kc_library_open(ctx, true, false, &kl);
	if (status)
		return status;
	status = kc_import(ctx, kl.lib, &req);
	return kc_library_close(ctx, &kl, status);
}

const struct kc_command kc_cmd_add = {
	.name = "add",	/* its arguments and summary: ../kc-karma-commands.c */
	.options = add_options, .min_args = 1, .max_args = INT_MAX, .access = KC_NO_VOLUME,
	.run = add_run,
};
