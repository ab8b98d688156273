/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-export.c - the job that copies tracks from the player into a
 * host folder, each to the name the export template makes (km-export.h),
 * never overwriting a file. A file cancelled or failed half-way is removed,
 * so the folder never holds a truncated track.
 */
#include "km-session-private.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "km-export.h"

#define EXPORT_CHUNK (1u << 20)

typedef struct {
	GArray *fids;		/* guint32 */
	char *folder;
	char *template;
	KmProgress progress;
	guint8 *buf;
} ExportJob;

static void export_job_free(gpointer data)
{
	ExportJob *export = data;

	g_array_unref(export->fids);
	g_free(export->folder);
	g_free(export->template);
	g_free(export->progress.file_name);
	g_free(export->buf);
	g_free(export);
}

static gboolean write_all(int fd, const guint8 *data, gsize len, const char *path, GError **error)
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

/* The data file of fid into fd, chunk by chunk, with progress. */
static gboolean copy_data(KmJob *job, ExportJob *export, guint32 fid, guint64 size, int fd,
			  const char *path, GError **error)
{
	KmLibrary *lib = km_worker_library(job->session);
	guint64 before = export->progress.bytes_done;
	guint64 offset = 0;

	while (offset < size) {
		gssize n;

		if (g_cancellable_set_error_if_cancelled(km_job_cancellable(job), error))
			return FALSE;
		n = km_library_read_data(lib, fid, offset, export->buf,
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
		if (!write_all(fd, export->buf, (gsize)n, path, error))
			return FALSE;
		offset += (guint64)n;
		export->progress.file_bytes_done = offset;
		export->progress.bytes_done = before + offset;
		km_worker_report(job, &export->progress);
	}
	return TRUE;
}

/* One track: FALSE with error when it failed; *path gets the file made, if any. */
static gboolean export_one(KmJob *job, ExportJob *export, guint32 fid, char **path,
			   GError **error)
{
	KmProperties *props = km_library_lookup(km_worker_library(job->session), fid);
	g_autofree char *relative = NULL;
	guint64 size;
	int fd;
	gboolean ok;

	if (!props) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NOT_FOUND,
			    _("No track %08x on the player"), fid);
		return FALSE;
	}
	g_free(export->progress.file_name);
	export->progress.file_name = g_strdup(km_properties_get(props, "title"));
	relative = km_export_relative_path(props, export->template, error);
	if (!relative ||
	    !km_library_get_data_size(km_worker_library(job->session), fid, &size, error))
		return FALSE;
	export->progress.file_bytes_done = 0;
	export->progress.file_bytes_total = size;
	km_worker_report(job, &export->progress);
	fd = km_export_create_unique(export->folder, relative, path, error);
	if (fd < 0)
		return FALSE;
	ok = copy_data(job, export, fid, size, fd, *path, error);
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

static guint64 total_size(KmJob *job, ExportJob *export)
{
	guint64 total = 0;

	for (guint i = 0; i < export->fids->len; i++) {
		KmProperties *props = km_library_lookup(km_worker_library(job->session),
							g_array_index(export->fids, guint32, i));
		guint64 length;

		if (props && km_properties_get_uint(props, "length", &length))
			total += length;
	}
	return total;
}

static void export_run(KmJob *job)
{
	ExportJob *export = job->data;
	GError *stop = NULL;
	guint i;

	job->report = km_report_new();
	export->buf = g_malloc(EXPORT_CHUNK);
	if (g_mkdir_with_parents(export->folder, 0755) != 0) {
		int err = errno;

		stop = g_error_new(G_FILE_ERROR, g_file_error_from_errno(err), "%s: %s",
				   export->folder, g_strerror(err));
	}
	export->progress.n_files = export->fids->len;
	export->progress.bytes_total = total_size(job, export);
	for (i = 0; !stop && i < export->fids->len; i++) {
		guint32 fid = g_array_index(export->fids, guint32, i);
		g_autofree char *path = NULL;
		g_autoptr(GFile) file = NULL;
		GError *error = NULL;

		export->progress.file_index = i;
		if (export_one(job, export, fid, &path, &error)) {
			file = g_file_new_for_path(path);
			km_report_add(job->report, file, fid, KM_ITEM_DONE, NULL);
			continue;
		}
		if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
			km_report_add(job->report, NULL, fid, KM_ITEM_CANCELLED, _("Cancelled"));
			stop = error;
		} else if (g_error_matches(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_CORRUPT)) {
			/* this track's data is damaged: the others go on */
			g_autofree char *reason = g_strdup_printf(
				_("It could not be read: the player's disk is damaged where it is "
				  "kept (%s)"), error->message);

			km_report_add(job->report, NULL, fid, KM_ITEM_FAILED, reason);
			g_clear_error(&error);
		} else {
			km_report_add(job->report, NULL, fid, KM_ITEM_FAILED, error->message);
			if (km_worker_check_device(job, error))
				stop = error;
			else
				g_clear_error(&error);
		}
	}
	for (; i < export->fids->len; i++)
		km_report_add(job->report, NULL, g_array_index(export->fids, guint32, i),
			      g_error_matches(stop, G_IO_ERROR, G_IO_ERROR_CANCELLED) ?
			      KM_ITEM_CANCELLED : KM_ITEM_NOT_DONE, stop->message);
	job->report->error = stop;
	export->progress.file_index = export->progress.n_files;
	km_worker_report(job, &export->progress);
	km_job_return_pointer(job, km_report_ref(job->report), (GDestroyNotify)km_report_unref);
}

void km_session_export_async(KmSession *session, const guint32 *fids, guint n_fids,
			     GFile *folder, const char *template, KmProgressCallback progress,
			     gpointer progress_data, GDestroyNotify progress_notify,
			     GCancellable *cancellable, GAsyncReadyCallback callback,
			     gpointer user_data)
{
	ExportJob *export;

	g_return_if_fail(KM_IS_SESSION(session));
	g_return_if_fail(G_IS_FILE(folder));
	export = g_new0(ExportJob, 1);
	export->fids = g_array_new(FALSE, FALSE, sizeof(guint32));
	if (n_fids)
		g_array_append_vals(export->fids, fids, n_fids);
	export->folder = g_file_get_path(folder);
	export->template = g_strdup(template);
	km_session_queue(session, export_run, KM_JOB_NEEDS_LIBRARY, export, export_job_free,
			 progress, progress_data, progress_notify, cancellable, callback,
			 user_data, km_session_export_async);
}

KmReport *km_session_export_finish(KmSession *session, GAsyncResult *result, GError **error)
{
	return km_session_report_finish(session, result, km_session_export_async, error);
}
