/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-export-cmd.c - karmactl export: tracks copied out of the library into
 * a host folder, named by a template of their properties (km-export.h:
 * safe names, never overwriting a file that is there).
 */
#include "kc-library.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "kc-progress.h"
#include "km-export.h"

static char *export_template;
static char *export_to;
static char *export_query;
static gboolean export_progress;

static const GOptionEntry export_options[] = {
	{ "to", 'o', 0, G_OPTION_ARG_FILENAME, &export_to,
	  "The host folder to copy into (made when missing)", "DIR" },
	{ "template", 't', 0, G_OPTION_ARG_STRING, &export_template,
	  "File names: %a artist, %s album, %t title, %g genre, %y year, %n track number, "
	  "%c extension, %f fid, %% (default " KM_EXPORT_DEFAULT_TEMPLATE ")", "T" },
	{ "query", 'q', 0, G_OPTION_ARG_STRING, &export_query,
	  "Only the tracks whose title, artist, album or genre holds QUERY", "QUERY" },
	{ "progress", 0, 0, G_OPTION_ARG_NONE, &export_progress,
	  "Show progress on standard error even when standard output is no terminal", NULL },
	{ NULL }
};

struct export_job {
	struct kc_ctx *ctx;
	KmLibrary *lib;
	GPtrArray *objects;	/* KmProperties* to export */
	struct kc_progress progress;
	void *buf;
};

/* The FIDs given, each of which must be there, or every track matching --query. */
static int select_objects(struct export_job *job)
{
	struct kc_ctx *ctx = job->ctx;
	g_autofree char *folded = NULL;
	g_autoptr(GPtrArray) all = NULL;

	job->objects = g_ptr_array_new_with_free_func((GDestroyNotify)km_properties_unref);
	for (int i = 0; i < ctx->argc; i++) {
		KmProperties *p;
		guint32 fid;
		int status = kc_parse_fid(ctx, ctx->argv[i], &fid);

		if (status)
			return status;
		p = km_library_lookup(job->lib, fid);
		if (!p)
			return kc_failf(ctx, "no object with fid %" G_GUINT32_FORMAT, fid);
		g_ptr_array_add(job->objects, km_properties_ref(p));
	}
	if (ctx->argc)
		return KC_EXIT_OK;
	folded = export_query ? g_utf8_casefold(export_query, -1) : NULL;
	all = km_library_list(job->lib);
	for (guint i = 0; i < all->len; i++)
		/* a playlist's data is its list, not a file anyone would want out */
		if (km_properties_get_object_type(all->pdata[i]) != KM_OBJECT_PLAYLIST &&
		    kc_library_matches(all->pdata[i], folded))
			g_ptr_array_add(job->objects, km_properties_ref(all->pdata[i]));
	return KC_EXIT_OK;
}

static int copy_data(struct export_job *job, guint32 fid, int fd, const char *path)
{
	g_autoptr(GError) error = NULL;
	guint64 off = 0;

	for (;;) {
		gssize n = km_library_read_data(job->lib, fid, off, job->buf, KC_IO_SIZE, &error);
		int err;

		if (n < 0)
			return kc_fail_gerror(job->ctx, "reading the track", error);
		if (n == 0)
			return KC_EXIT_OK;
		err = kc_write_all(fd, job->buf, (size_t)n);
		if (err)
			return kc_fail_errno(job->ctx, path, err);
		off += (guint64)n;
		kc_progress_file_update(&job->progress, off);
	}
}

/* One track; a file left half-written is removed. */
static int export_one(struct export_job *job, KmProperties *p)
{
	guint32 fid = km_properties_get_fid(p);
	g_autoptr(GError) error = NULL;
	g_autofree char *rel = NULL;
	g_autofree char *path = NULL;
	guint64 size = 0;
	int fd, status;

	rel = km_export_relative_path(p, export_template, &error);
	if (!rel)
		return kc_usage(job->ctx, "--template: %s", error->message);
	if (!km_library_get_data_size(job->lib, fid, &size, &error))
		return kc_fail_gerror(job->ctx, "the track", error);
	fd = km_export_create_unique(export_to, rel, &path, &error);
	if (fd < 0)
		return kc_fail_gerror(job->ctx, export_to, error);
	kc_progress_file_begin(&job->progress, rel, size);
	status = copy_data(job, fid, fd, path);
	if (close(fd) < 0 && !status)
		status = kc_fail_errno(job->ctx, path, errno);
	if (status) {
		kc_progress_finish(&job->progress);
		g_unlink(path);
		return status;
	}
	kc_progress_file_end(&job->progress);
	printf("fid %" G_GUINT32_FORMAT " -> %s\n", fid, path);
	return KC_EXIT_OK;
}

static int export_all(struct export_job *job)
{
	g_autoptr(GError) error = NULL;
	guint64 total = 0, size;
	int status = KC_EXIT_OK;

	for (guint i = 0; i < job->objects->len; i++) {
		guint32 fid = km_properties_get_fid(job->objects->pdata[i]);

		if (km_library_get_data_size(job->lib, fid, &size, NULL))
			total += size;
	}
	kc_progress_init(&job->progress, export_progress, job->objects->len, total);
	for (guint i = 0; i < job->objects->len && !status; i++)
		status = export_one(job, job->objects->pdata[i]);
	if (!status)
		printf("%u track%s exported to %s\n", job->objects->len,
		       job->objects->len == 1 ? "" : "s", export_to);
	return status;
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
	if (export_query && ctx->argc)
		return kc_usage(ctx, "--query and FIDs: give one or the other");
	if (g_mkdir_with_parents(export_to, 0777) != 0)
		return kc_fail_errno(ctx, export_to, errno);
	status = kc_library_open(ctx, false, false, &kl);
	if (status)
		return status;
	job.lib = kl.lib;
	/* kc_io_buffer() belongs to the commands on a mounted volume */
	job.buf = g_malloc(KC_IO_SIZE);
	status = select_objects(&job);
	if (!status)
		status = export_all(&job);
	if (job.objects)
		g_ptr_array_unref(job.objects);
	g_free(job.buf);
	return kc_library_close(ctx, &kl, status);
}

const struct kc_command kc_cmd_export = {
	.name = "export", .args = "--to DIR [FID...]",
	.summary = "Copy tracks (every one when no FID is given) out into a folder",
	.options = export_options, .min_args = 0, .max_args = INT_MAX, .access = KC_NO_VOLUME,
	.run = export_run,
};
