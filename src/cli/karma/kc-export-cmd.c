/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-export-cmd.c - karmactl export: tracks copied out of the library into
 * a host folder by the library's export pipeline (km_library_export(), the
 * app's too: template names, never overwriting, the length checked, a file
 * cut short removed). A track that fails is said and the next one tried;
 * the command then exits 1. --playlist adds NAME.m3u8 beside the tracks.
 */
#include "kc-library.h"

#include <limits.h>
#include <stdio.h>

#include "kc-progress.h"
#include "km-export.h"

static char *export_template;
static char *export_to;
static char *export_query;
static char *export_playlist;
static gboolean export_progress;

static const GOptionEntry export_options[] = {
	{ "to", 'o', 0, G_OPTION_ARG_FILENAME, &export_to,
	  "The host folder to copy into (made when missing)", "DIR" },
	{ "template", 't', 0, G_OPTION_ARG_STRING, &export_template,
	  "File names: %a artist, %s album, %t title, %g genre, %y year, %n track number, "
	  "%c extension, %f fid, %% (default " KM_EXPORT_DEFAULT_TEMPLATE ")", "T" },
	{ "query", 'q', 0, G_OPTION_ARG_STRING, &export_query,
	  "Only the tracks whose title, artist, album or genre holds QUERY", "QUERY" },
	{ "playlist", 'p', 0, G_OPTION_ARG_STRING, &export_playlist,
	  "A playlist's tracks, and NAME.m3u8 listing them in its order", "NAME|FID" },
	{ "progress", 0, 0, G_OPTION_ARG_NONE, &export_progress,
	  "Show progress on standard error even when standard output is no terminal", NULL },
	{ NULL }
};

struct export_job {
	struct kc_ctx *ctx;
	KmLibrary *lib;
	GArray *fids;		/* guint32: the tracks to export */
	guint32 playlist;	/* --playlist: its fid */
	guint n_dangling;	/* its entries whose track is gone */
	struct kc_progress progress;
	char *name;		/* the current track's, which the progress line shows */
	unsigned exported, failed;
};

/* The FIDs given, each of which must be there, or every track matching --query. */
static int select_fids(struct export_job *job)
{
	struct kc_ctx *ctx = job->ctx;
	g_autofree char *folded = NULL;
	g_autoptr(GPtrArray) all = NULL;

	if (export_playlist) {
		g_autoptr(GError) error = NULL;
		int status = kc_find_playlist(ctx, job->lib, export_playlist, &job->playlist);

		if (status)
			return status;
		job->fids = km_library_playlist_tracks(job->lib, job->playlist, &job->n_dangling,
						       &error);
		return job->fids ? KC_EXIT_OK : kc_fail_gerror(ctx, export_playlist, error);
	}
	job->fids = g_array_new(FALSE, FALSE, sizeof(guint32));
	for (int i = 0; i < ctx->argc; i++) {
		guint32 fid;
		int status = kc_parse_fid(ctx, ctx->argv[i], &fid);

		if (status)
			return status;
		if (!km_library_lookup(job->lib, fid))
			return kc_failf(ctx, "no object with fid %" G_GUINT32_FORMAT, fid);
		g_array_append_val(job->fids, fid);
	}
	if (ctx->argc)
		return KC_EXIT_OK;
	folded = export_query ? g_utf8_casefold(export_query, -1) : NULL;
	all = km_library_list(job->lib);
	for (guint i = 0; i < all->len; i++) {
		KmProperties *p = all->pdata[i];
		guint32 fid = km_properties_get_fid(p);

		/* a playlist's data is its list, not a file anyone would want out */
		if (km_properties_get_object_type(p) != KM_OBJECT_PLAYLIST &&
		    kc_library_matches(p, folded))
			g_array_append_val(job->fids, fid);
	}
	return KC_EXIT_OK;
}

static void on_begin(guint32 fid, const KmProperties *props, const char *relative, guint64 size,
		     gpointer data)
{
	struct export_job *job = data;

	g_free(job->name);
	job->name = g_strdup(relative);
	kc_progress_file_begin(&job->progress, job->name, size);
}

static void on_progress(const KmLibraryProgress *p, gpointer data)
{
	struct export_job *job = data;

	kc_progress_file_update(&job->progress, p->done);
}

/* Each track: its file, or why not (and the next one is tried). */
static void on_done(guint32 fid, const char *path, const GError *error, gpointer data)
{
	struct export_job *job = data;
	g_autofree char *what = NULL;

	if (path) {
		kc_progress_file_end(&job->progress);
		printf("fid %" G_GUINT32_FORMAT " -> %s\n", fid, path);
		job->exported++;
		return;
	}
	kc_progress_finish(&job->progress);
	what = g_strdup_printf("fid %" G_GUINT32_FORMAT, fid);
	kc_fail_gerror(job->ctx, what, error);
	job->failed++;
}

static int export_all(struct export_job *job)
{
	KmExportOptions options = {
		.folder = export_to, .template = export_template, .begin = on_begin,
		.progress = on_progress, .done = on_done, .data = job,
	};
	const guint32 *fids = (const guint32 *)(void *)job->fids->data;
	g_autoptr(GError) error = NULL;
	g_autofree char *list = NULL;
	gboolean done;

	kc_progress_init(&job->progress, export_progress, job->fids->len,
			 km_library_get_data_total(job->lib, fids, job->fids->len));
	done = export_playlist ?
	       km_library_export_playlist(job->lib, job->playlist, &options, &list, &error) :
	       km_library_export(job->lib, fids, job->fids->len, &options, &error);
	if (!done) {
		if (g_error_matches(error, KM_EXPORT_ERROR, KM_EXPORT_ERROR_TEMPLATE))
			return kc_usage(job->ctx, "--template: %s", error->message);
		if (!job->failed)	/* not said yet: nothing was tried */
			return kc_fail_gerror(job->ctx, export_to, error);
	}
	printf("%u track%s exported to %s", job->exported, job->exported == 1 ? "" : "s",
	       export_to);
	if (job->failed || error)
		printf(" (%u failed%s)", job->failed,
		       error ? ", the rest not tried" : "");
	printf("\n");
	if (list)
		printf("playlist -> %s\n", list);
	if (job->n_dangling)
		printf(job->n_dangling == 1 ? "%u playlist entry left out: its track is gone\n" :
		       "%u playlist entries left out: their tracks are gone\n", job->n_dangling);
	return job->failed || error ? KC_EXIT_FAIL : KC_EXIT_OK;
}

static int export_run(struct kc_ctx *ctx)
{
	struct export_job job = { .ctx = ctx };
	struct kc_library kl;
	int status;

	if (!export_to)
		return kc_usage(ctx, "no folder given: use --to DIR");
	if (export_query && !g_utf8_validate(export_query, -1, NULL))
		return kc_usage(ctx, "--query is not valid UTF-8");
	if ((export_query != NULL) + (export_playlist != NULL) + (ctx->argc > 0) > 1)
		return kc_usage(ctx, "--query, --playlist and FIDs: give one of them");
	if (export_playlist && !g_utf8_validate(export_playlist, -1, NULL))
		return kc_usage(ctx, "--playlist is not valid UTF-8");
	status = kc_library_open(ctx, false, false, &kl);
	if (status)
		return status;
	job.lib = kl.lib;
	status = select_fids(&job);
	if (!status)
		status = export_all(&job);
	if (job.fids)
		g_array_unref(job.fids);
	g_free(job.name);
	return kc_library_close(ctx, &kl, status);
}

const struct kc_command kc_cmd_export = {
	.name = "export",	/* its arguments and summary: ../kc-karma-commands.c */
	.options = export_options, .min_args = 0, .max_args = INT_MAX, .access = KC_NO_VOLUME,
	.run = export_run,
};
