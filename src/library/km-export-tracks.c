/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-export-tracks.c - the export pipeline both faces run (the app's export
 * job and drag-out, karmactl export): for each track its name by the
 * template, the file created without overwriting, the data copied and its
 * length checked against the data file's, and a file cut short removed, so
 * the folder never holds a truncated track.
 */
#include "km-export.h"
#include "km-export-private.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <unistd.h>

#define EXPORT_CHUNK (1u << 20)

typedef struct {
	KmLibrary *lib;
	const KmExportOptions *opts;
	guint8 *buf;
} Export;

gboolean km_export_write_all(int fd, const guint8 *data, gsize len, const char *path,
			     GError **error)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? errno : EIO;

			g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
				    _("Writing %s failed: %s"), path, g_strerror(err));
			return FALSE;
		}
		data += n;
		len -= (gsize)n;
	}
	return TRUE;
}

/* The data file of fid into fd: exactly size bytes, or an error. */
static gboolean copy_data(Export *ex, guint32 fid, guint64 size, int fd, const char *path,
			  GError **error)
{
	const KmExportOptions *opts = ex->opts;
	guint64 offset = 0;

	while (offset < size) {
		gssize n;

		if (g_cancellable_set_error_if_cancelled(opts->cancellable, error))
			return FALSE;
		n = km_library_read_data(ex->lib, fid, offset, ex->buf,
					 (gsize)MIN(EXPORT_CHUNK, size - offset), error);
		if (n < 0)
			return FALSE;
		if (n == 0) {
			g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_CORRUPT,
				    /* Translators: a track's file id, then two byte counts */
				    _("Track %08x ends after %llu of %llu bytes"), fid,
				    (unsigned long long)offset, (unsigned long long)size);
			return FALSE;
		}
		if (!km_export_write_all(fd, ex->buf, (gsize)n, path, error))
			return FALSE;
		offset += (guint64)n;
		km_progress_report(opts->progress, opts->data, KM_PHASE_COPYING, offset, size);
	}
	return TRUE;
}

/* One track: FALSE with error when it failed; *path gets the file made. */
static gboolean export_one(Export *ex, guint32 fid, char **path, GError **error)
{
	const KmExportOptions *opts = ex->opts;
	KmProperties *props = km_library_lookup(ex->lib, fid);
	g_autofree char *relative = NULL;
	guint64 size;
	gboolean ok;
	int fd;

	if (!props) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NOT_FOUND,
			    _("No track %08x on the player"), fid);
		return FALSE;
	}
	relative = km_export_relative_path(props, opts->template, error);
	if (!relative || !km_library_get_data_size(ex->lib, fid, &size, error))
		return FALSE;
	if (opts->begin)
		opts->begin(fid, props, relative, size, opts->data);
	fd = km_export_create_unique(opts->folder, relative, path, error);
	if (fd < 0)
		return FALSE;
	ok = copy_data(ex, fid, size, fd, *path, error);
	if (close(fd) != 0 && ok) {
		int err = errno;

		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
			    _("Writing %s failed: %s"), *path, g_strerror(err));
		ok = FALSE;
	}
	if (!ok) {
		g_unlink(*path);
		g_clear_pointer(path, g_free);
	}
	return ok;
}

/* Whether a track's failure ends the batch: every later one would fail the same way. */
static gboolean stops_the_batch(const GError *error)
{
	return g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
	       km_library_error_is_device(error);
}

/* The template is the same for every track: a bad one is said once, before any copy. */
static gboolean check_template(const char *template, GError **error)
{
	g_autoptr(KmProperties) empty = km_properties_new();
	g_autofree char *relative = km_export_relative_path(empty, template, error);

	return relative != NULL;
}

static gboolean make_folder(const char *folder, GError **error)
{
	int err;

	if (g_mkdir_with_parents(folder, 0755) == 0)
		return TRUE;
	err = errno;
	g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err), "%s: %s", folder,
		    g_strerror(err));
	return FALSE;
}

gboolean km_library_export(KmLibrary *lib, const guint32 *fids, guint n_fids,
			   const KmExportOptions *opts, GError **error)
{
	Export ex = { .lib = lib, .opts = opts };
	GError *stop = NULL;

	g_return_val_if_fail(KM_IS_LIBRARY(lib), FALSE);
	g_return_val_if_fail(opts && opts->folder && opts->done, FALSE);
	if (!check_template(opts->template, error) || !make_folder(opts->folder, error))
		return FALSE;
	ex.buf = g_malloc(EXPORT_CHUNK);
	for (guint i = 0; i < n_fids && !stop; i++) {
		g_autofree char *path = NULL;
		g_autoptr(GError) failed = NULL;

		if (export_one(&ex, fids[i], &path, &failed))
			opts->done(fids[i], path, NULL, opts->data);
		else
			opts->done(fids[i], NULL, failed, opts->data);
		if (failed && stops_the_batch(failed))
			stop = g_error_copy(failed);
	}
	g_free(ex.buf);
	if (!stop)
		return TRUE;
	g_propagate_error(error, stop);
	return FALSE;
}

guint64 km_library_get_data_total(KmLibrary *lib, const guint32 *fids, guint n_fids)
{
	guint64 total = 0, size;

	for (guint i = 0; i < n_fids; i++)
		if (km_library_get_data_size(lib, fids[i], &size, NULL))
			total += size;
	return total;
}
