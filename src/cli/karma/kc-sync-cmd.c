/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-sync-cmd.c - karmactl sync DIR...: the player gets every playable
 * track under the folders that it lacks; with --delete it loses the tunes
 * none of their files is; --dry-run prints the plan and changes nothing.
 * The plan is the library's (km_library_plan_sync(): a file is a tune with
 * its rid); removals are one transaction (playlists lose their entries, as
 * with rm-track), then the files go through add's import (kc_import()).
 */
#include "kc-library.h"

#include <limits.h>
#include <stdio.h>

#include "kc-convert-opts.h"
#include "km-import.h"
#include "km-sync.h"

static gboolean sync_dry_run;
static gboolean sync_delete;
static gboolean sync_progress;

static const GOptionEntry sync_options[] = {
	{ "dry-run", 'n', 0, G_OPTION_ARG_NONE, &sync_dry_run,
	  "Print what would be added and deleted, and the space after; change nothing", NULL },
	{ "delete", 0, 0, G_OPTION_ARG_NONE, &sync_delete,
	  "Delete the tracks that are not under the folders (their playlist entries too)", NULL },
	{ "progress", 0, 0, G_OPTION_ARG_NONE, &sync_progress,
	  "Show progress on standard error even when standard output is no terminal", NULL },
	KC_CONVERT_OPTIONS,
	{ NULL }
};

static void on_walk_problem(const char *path, guint root, gboolean is_root,
			    KmWalkProblem problem, const char *message, gpointer data)
{
	g_autofree char *shown = kc_shown(path);

	printf("left out %s: %s\n", shown, message ? message : "cannot be walked");
}

/* Music the player cannot take is said; other files (covers, lists, notes) are only counted. */
static void on_unplayable(const char *path, const GError *error, gpointer data)
{
	if (g_error_matches(error, KM_IMPORT_ERROR, KM_IMPORT_ERROR_NOT_AUDIO) ||
	    g_error_matches(error, KM_IMPORT_ERROR, KM_IMPORT_ERROR_TOO_SMALL))
		return;
	/* the message names the file */
	printf("left out: %s\n", error->message);
}

/* "Artist - Title" of a track, as printed. */
static char *track_line(const KmProperties *p)
{
	const char *artist = km_properties_get(p, "artist");
	const char *title = km_properties_get(p, "title");
	g_autofree char *line = g_strdup_printf("%s - %s", artist ? artist : "Unknown Artist",
						title ? title : "Untitled");

	return kc_shown(line);
}

static void print_plan(KmLibrary *lib, const KmSyncPlan *plan)
{
	KmLibrarySpace space = { 0 };
	g_autofree char *add = g_format_size(plan->add_bytes);
	g_autofree char *del = g_format_size(sync_delete ? plan->remove_bytes : 0);
	g_autofree char *after = NULL;
	gint64 free_after;

	for (guint i = 0; i < plan->add->len; i++) {
		const KmSyncFile *f = plan->add->pdata[i];
		g_autofree char *path = kc_shown(f->path);
		g_autofree char *line = NULL;

		if (f->conversion) {	/* its tags are read once it is converted */
			printf("add: %s (converted to %s)\n", path,
			       km_convert_format_name(f->conversion->format));
			continue;
		}
		line = track_line(f->props);
		printf("add: %s (%s)\n", line, path);
	}
	for (guint i = 0; sync_delete && i < plan->remove->len; i++) {
		guint32 fid = g_array_index(plan->remove, guint32, i);
		g_autofree char *line = track_line(km_library_lookup(lib, fid));

		printf("delete: %s (fid %" G_GUINT32_FORMAT ")\n", line, fid);
	}
	km_library_get_space(lib, &space, NULL);
	free_after = (gint64)space.free_bytes - (gint64)plan->add_bytes +
		     (sync_delete ? (gint64)plan->remove_bytes : 0);
	after = g_format_size((guint64)MAX(free_after, 0));
	printf("%u to add (%s), %u to delete (%s), %u there already; about %s%s free after\n",
	       plan->add->len, add, sync_delete ? plan->remove->len : 0, del, plan->n_present,
	       free_after < 0 ? "-" : "", after);
	if (plan->n_unplayable)
		printf(plan->n_unplayable == 1 ? "%u file is no music the player plays\n" :
		       "%u files are no music the player plays\n", plan->n_unplayable);
	if (!sync_delete && plan->remove->len)
		printf("%u tracks on the player are under none of the folders (--delete deletes "
		       "them)\n", plan->remove->len);
}

/* The tunes none of the files is, in one transaction. */
static int delete_missing(struct kc_ctx *ctx, KmLibrary *lib, const GArray *fids)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmTransaction) tx = km_library_begin(lib, &error);
	g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; tx && i < fids->len; i++) {
		guint32 fid = g_array_index(fids, guint32, i);
		g_autofree char *line = track_line(km_library_lookup(lib, fid));

		g_ptr_array_add(lines, g_strdup_printf("deleted fid %" G_GUINT32_FORMAT ": %s", fid,
						       line));
		if (!km_transaction_remove(tx, fid, &error))
			break;
	}
	if (!tx || error || !km_transaction_commit(tx, &error))
		return kc_fail_gerror(ctx, "deleting", error);
	/* said once they are gone for good */
	for (guint i = 0; i < lines->len; i++)
		printf("%s\n", (const char *)lines->pdata[i]);
	return KC_EXIT_OK;
}

static int run_plan(struct kc_ctx *ctx, KmLibrary *lib, const KmSyncPlan *plan,
		    const KmConvertSettings *convert)
{
	g_autoptr(GPtrArray) roots = g_ptr_array_new();
	int status;

	if (sync_delete && plan->remove->len) {
		status = delete_missing(ctx, lib, plan->remove);
		if (status)
			return status;
	}
	if (!plan->add->len) {
		printf("nothing to add\n");
		return KC_EXIT_OK;
	}
	for (guint i = 0; i < plan->add->len; i++)
		g_ptr_array_add(roots, ((KmSyncFile *)plan->add->pdata[i])->path);
	return kc_import(ctx, lib, &(struct kc_import_request){
		.roots = (const char *const *)roots->pdata, .n_roots = roots->len,
		.show_progress = sync_progress, .convert = convert });
}

/* What the benchmark of syncs (tests/bench/sync-bench.sh) needs beside add's and the library's. */
static void print_plan_stats(gint64 plan_us)
{
	if (kc_stats_wanted())
		fprintf(stderr, "karmactl: stats: sync_plan_us=%" G_GINT64_FORMAT "\n", plan_us);
}

static int sync_run(struct kc_ctx *ctx)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmSyncPlan) plan = NULL;
	KmConvertSettings settings;
	const KmConvertSettings *convert;
	struct kc_library kl;
	gint64 plan_start;
	int status = kc_convert_settings(ctx, &settings, &convert);

	if (status)
		return status;
	for (int i = 0; i < ctx->argc; i++)
		if (!g_file_test(ctx->argv[i], G_FILE_TEST_IS_DIR))
			return kc_usage(ctx, "not a folder: '%s'", ctx->argv[i]);
	status = kc_library_open(ctx, !sync_dry_run, false, &kl);
	if (status)
		return status;
	plan_start = g_get_monotonic_time();
	plan = km_library_plan_sync(kl.lib, (const char *const *)ctx->argv, (guint)ctx->argc,
				    convert, NULL, on_walk_problem, on_unplayable, ctx, &error);
	print_plan_stats(g_get_monotonic_time() - plan_start);
	if (!plan)
		return kc_library_close(ctx, &kl, kc_fail_gerror(ctx, "sync", error));
	if (sync_dry_run)
		print_plan(kl.lib, plan);
	else
		status = run_plan(ctx, kl.lib, plan, convert);
	return kc_library_close(ctx, &kl, status);
}

const struct kc_command kc_cmd_sync = {
	.name = "sync",	/* its arguments and summary: ../kc-karma-commands.c */
	.options = sync_options,
	.description = "A file and a track on the player are the same when they have the same "
		       "audio (its rid), whatever tags were edited since: a second sync of an "
		       "unchanged folder does nothing. A file converted on its way to the "
		       "player is the same as the track it became (var/km-sources).",
	.min_args = 1, .max_args = INT_MAX, .access = KC_NO_VOLUME,
	.run = sync_run,
};
