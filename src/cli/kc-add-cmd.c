/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-add-cmd.c - karmactl add: host files (folders with -r) imported as
 * tracks, in one transaction committed once, so var/smalldb is rewritten
 * once however many files are added. The files are found by the import's
 * walk (km-import-walk.h), as the app finds them.
 *
 * Each file goes through the library's import (km_transaction_import, the
 * app's too): duplicates are skipped unless --force-duplicates; files that
 * are no playable tune are refused with the reason (kept as data with
 * --taxi); the room check says whether it fits with what the commit
 * writes, so a full player stops the command between files.
 *
 * Ctrl-C (SIGINT) stops at once: the file being copied is dropped (the
 * transaction removes what it wrote of it) and the files already copied
 * are committed, so the library is consistent and holds every file the
 * command said it added. The commit itself is not interrupted.
 */
#include "kc-library.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kc-progress.h"
#include "km-import-add.h"
#include "km-import-walk.h"

enum { ADD_EXIT_INTERRUPTED = 130 };

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
	{ NULL }
};

struct add_job {
	struct kc_ctx *ctx;
	GPtrArray *items;	/* KmWalkFile*: the files named and those in the folders named */
	uint64_t total_bytes;
	struct kc_library kl;
	KmTransaction *tx;
	GCancellable *cancellable;
	struct kc_progress progress;
	unsigned added, duplicates, refused;
	unsigned not_tried;	/* files after the one the job stopped at */
	bool failed;		/* a named file was refused, or an error stopped the job */
	/* KARMACTL_STATS: the files' loop (wall and CPU) and the commit, apart from the open */
	gint64 files_us, files_cpu_us, commit_us;
};

/* ---- SIGINT ---- */

/* KARMACTL_TEST_SIGINT_AFTER=N: a Ctrl-C after N files, for the tests. */
static void test_interrupt(const struct add_job *job)
{
	const char *after = g_getenv("KARMACTL_TEST_SIGINT_AFTER");

	if (after && strtoul(after, NULL, 10) == job->added)
		raise(SIGINT);
}

/* ---- the files ---- */

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

/* ---- adding ---- */

static void on_begin(const char *path, guint64 size, gpointer data)
{
	struct add_job *job = data;

	kc_progress_file_begin(&job->progress, path, size);
}

static void on_progress(guint64 done, guint64 total, gpointer data)
{
	struct add_job *job = data;

	kc_progress_file_update(&job->progress, done);
	if (kc_sigint_caught())
		g_cancellable_cancel(job->cancellable);
}

/* One file through the library's import (km_transaction_import); false stops the job. */
static bool add_one(struct add_job *job, const KmWalkFile *it)
{
	KmImportOptions options = {
		.flags = add_taxi ? KM_IMPORT_TAXI_FALLBACK : KM_IMPORT_FLAGS_NONE,
		.copy_duplicates = add_force_duplicates, .begin = on_begin,
		.progress = on_progress, .data = job, .cancellable = job->cancellable,
	};
	g_autoptr(GError) error = NULL;
	KmImportResult r;

	if (!km_transaction_import(job->tx, it->path, it->size, &options, &r, &error)) {
		kc_progress_finish(&job->progress);
		if (error->domain == KM_IMPORT_ERROR) {
			/* the message names the file */
			kc_failf(job->ctx, "not added: %s", error->message);
			job->refused++;
			job->failed |= it->is_root;
			return true;
		}
		if (!g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
			kc_fail_gerror(job->ctx, it->path, error);
			job->refused++;
			job->failed = true;
		}
		return false;
	}
	if (r.outcome == KM_IMPORT_DUPLICATE) {
		printf("skipped %s: the same track as fid %" G_GUINT32_FORMAT " (--force-duplicates "
		       "adds it anyway)\n", it->path, r.fid);
		job->duplicates++;
		return true;
	}
	if (r.outcome == KM_IMPORT_NO_ROOM) {
		kc_failf(job->ctx, "%s: the player is full: %" G_GUINT64_FORMAT " bytes free, "
			 "this file needs %" G_GUINT64_FORMAT " with the room the library's files "
			 "need; stopping", it->path, r.room.free_bytes, r.room.needed);
		job->refused++;
		job->failed = true;
		return false;
	}
	kc_progress_file_end(&job->progress);
	printf("added fid %" G_GUINT32_FORMAT ": %s\n", r.fid, it->path);
	job->added++;
	return true;
}

static void add_all(struct add_job *job)
{
	guint i;

	for (i = 0; i < job->items->len && !kc_sigint_caught(); i++) {
		test_interrupt(job);
		if (kc_sigint_caught())
			break;
		if (!add_one(job, job->items->pdata[i])) {
			i++;
			break;
		}
	}
	job->not_tried = job->items->len - i;
}

/* Commit what was added (a consistent library either way), or nothing when nothing was. */
static int finish(struct add_job *job)
{
	g_autoptr(GError) error = NULL;
	bool ok;

	if (job->added)
		ok = km_transaction_commit(job->tx, &error);
	else
		ok = km_transaction_rollback(job->tx, &error);
	if (!ok)
		return kc_fail_gerror(job->ctx, job->ctx->image, error);
	printf("%u added, %u duplicate%s skipped, %u not added", job->added, job->duplicates,
	       job->duplicates == 1 ? "" : "s", job->refused);
	if (job->not_tried)
		printf(", %u not tried", job->not_tried);
	printf("%s\n", kc_sigint_caught() ? " (interrupted: the tracks added so far are committed)"
					  : "");
	if (kc_sigint_caught())
		return ADD_EXIT_INTERRUPTED;
	return job->failed ? KC_EXIT_FAIL : KC_EXIT_OK;
}

static int run_job(struct add_job *job)
{
	g_autoptr(GError) error = NULL;
	struct sigaction old;
	gint64 start, start_cpu;
	int status;

	job->tx = km_library_begin(job->kl.lib, &error);
	if (!job->tx)
		return kc_fail_gerror(job->ctx, job->ctx->image, error);
	job->cancellable = g_cancellable_new();
	kc_progress_init(&job->progress, add_progress, job->items->len, job->total_bytes);
	kc_sigint_catch(&old);
	start = g_get_monotonic_time();
	start_cpu = kc_cpu_us();
	add_all(job);
	job->files_us = g_get_monotonic_time() - start;
	job->files_cpu_us = kc_cpu_us() - start_cpu;
	start = g_get_monotonic_time();
	status = finish(job);
	job->commit_us = g_get_monotonic_time() - start;
	sigaction(SIGINT, &old, NULL);
	g_clear_object(&job->cancellable);
	g_clear_object(&job->tx);
	return status;
}

/* What the benchmark of adds (tests/bench/add-bench.sh) needs beside the library's counters. */
static void print_stats(const struct add_job *job)
{
	if (kc_stats_wanted())
		fprintf(stderr, "karmactl: stats: add_files=%u add_files_us=%" G_GINT64_FORMAT
			" add_files_cpu_us=%" G_GINT64_FORMAT " add_commit_us=%" G_GINT64_FORMAT "\n",
			job->added, job->files_us, job->files_cpu_us, job->commit_us);
}

static int add_run(struct kc_ctx *ctx)
{
	struct add_job job = { .ctx = ctx };
	int status;

	job.items = km_import_walk((const char *const *)ctx->argv, (guint)ctx->argc, add_recursive,
				   NULL, on_walk_problem, &job, &job.total_bytes);
	status = kc_library_open(ctx, true, false, &job.kl);
	if (!status) {
		status = run_job(&job);
		print_stats(&job);
		status = kc_library_close(ctx, &job.kl, status);
	}
	g_ptr_array_unref(job.items);
	return status;
}

const struct kc_command kc_cmd_add = {
	.name = "add", .args = "FILE|DIR...",
	.summary = "Add tracks (MP3, Ogg Vorbis, FLAC, WAV, WMA); smalldb is rewritten once",
	.options = add_options, .min_args = 1, .max_args = INT_MAX, .access = KC_NO_VOLUME,
	.run = add_run,
};
