/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-export.c - the job that copies tracks from the player into a
 * host folder: the library's export pipeline (km_library_export(), the one
 * karmactl export runs: template names, never overwriting, the length
 * checked, a file cut short removed) on the worker, with its progress and
 * one report item per track. A track that fails does not end the job. A
 * playlist's export (km_library_export_playlist()) also writes NAME.m3u8.
 */
#include "km-session-private.h"

#include <glib/gi18n.h>

#include "km-export.h"

typedef struct {
	GArray *fids;		/* guint32; a playlist's are found on the worker */
	guint32 playlist;	/* 0: the fids only */
	char *folder;
	char *template;
	KmProgress progress;
	KmJob *job;
	guint64 bytes_before;	/* of the tracks before the current one */
	guint n_done;		/* tracks reported */
} ExportJob;

static void export_job_free(gpointer data)
{
	ExportJob *export = data;

	g_array_unref(export->fids);
	g_free(export->folder);
	g_free(export->template);
	g_free(export->progress.file_name);
	g_free(export);
}

static void on_begin(guint32 fid, const KmProperties *props, const char *relative, guint64 size,
		     gpointer data)
{
	ExportJob *export = data;

	km_worker_report_file(export->job, &export->progress,
			      g_strdup(km_properties_get(props, "title")), export->n_done, size,
			      export->bytes_before);
}

static void on_progress(const KmLibraryProgress *p, gpointer data)
{
	ExportJob *export = data;

	km_worker_report_copied(export->job, &export->progress, export->bytes_before, p->done);
}

/* A track whose data the player's disk has lost: said in plain words, the reader's in brackets. */
static void km_report_add_damaged(KmReport *report, guint32 fid, const GError *error)
{
	g_autofree char *reason = g_strdup_printf(
		_("It could not be read: the player's disk is damaged where it is kept (%s)"),
		error->message);

	km_report_add(report, NULL, fid, KM_ITEM_FAILED, reason);
}

static void on_done(guint32 fid, const char *path, const GError *error, gpointer data)
{
	ExportJob *export = data;
	KmReport *report = export->job->report;
	g_autoptr(GFile) file = path ? g_file_new_for_path(path) : NULL;

	if (path)
		km_report_add(report, file, fid, KM_ITEM_DONE, NULL);
	else if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		km_report_add(report, NULL, fid, KM_ITEM_CANCELLED, _("Cancelled"));
	else if (g_error_matches(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_CORRUPT))
		km_report_add_damaged(report, fid, error);
	else
		km_report_add(report, NULL, fid, KM_ITEM_FAILED, error->message);
	export->bytes_before += export->progress.file_bytes_total;
	export->progress.file_bytes_total = 0;
	export->n_done++;
}

/* The tracks to export: those given, or the playlist's (empty when it cannot be read). */
static const guint32 *export_fids(ExportJob *export, KmLibrary *lib, guint *n_fids)
{
	guint n_dangling;

	if (export->playlist) {
		GArray *fids = km_library_playlist_tracks(lib, export->playlist, &n_dangling, NULL);

		if (fids) {
			g_array_unref(export->fids);
			export->fids = fids;
		}
	}
	*n_fids = export->fids->len;
	return (const guint32 *)(void *)export->fids->data;
}

static void export_run(KmJob *job)
{
	ExportJob *export = job->data;
	KmLibrary *lib = km_worker_library(job->session);
	guint n_fids;
	const guint32 *fids = export_fids(export, lib, &n_fids);
	KmExportOptions options = {
		.folder = export->folder, .template = export->template,
		.begin = on_begin, .progress = on_progress, .done = on_done, .data = export,
		.cancellable = km_job_cancellable(job),
	};
	GError *stop = NULL;
	gboolean done;

	export->job = job;
	job->report = km_report_new();
	export->progress.n_files = n_fids;
	export->progress.bytes_total = km_library_get_data_total(lib, fids, n_fids);
	done = export->playlist ?
	       km_library_export_playlist(lib, export->playlist, &options, NULL, &stop) :
	       km_library_export(lib, fids, n_fids, &options, &stop);
	if (!done)
		km_worker_check_device(job, stop);
	for (guint i = export->n_done; i < n_fids; i++)
		km_report_add(job->report, NULL, fids[i],
			      g_error_matches(stop, G_IO_ERROR, G_IO_ERROR_CANCELLED) ?
			      KM_ITEM_CANCELLED : KM_ITEM_NOT_DONE, stop->message);
	job->report->error = stop;
	export->progress.file_index = export->progress.n_files;
	km_worker_report(job, &export->progress);
	km_job_return_pointer(job, km_report_ref(job->report), (GDestroyNotify)km_report_unref);
}

/* The export of fids, or of playlist's tracks when it is not 0. */
static void queue_export(KmSession *session, guint32 playlist, const guint32 *fids, guint n_fids,
			 GFile *folder, const char *template, KmProgressCallback progress,
			 gpointer progress_data, GDestroyNotify progress_notify,
			 GCancellable *cancellable, GAsyncReadyCallback callback,
			 gpointer user_data)
{
	ExportJob *export;
	GTask *task;
	KmJob *job;

	g_return_if_fail(KM_IS_SESSION(session));
	g_return_if_fail(G_IS_FILE(folder));
	export = g_new0(ExportJob, 1);
	export->fids = g_array_new(FALSE, FALSE, sizeof(guint32));
	if (n_fids)
		g_array_append_vals(export->fids, fids, n_fids);
	export->playlist = playlist;
	export->folder = g_file_get_path(folder);
	export->template = g_strdup(template);
	task = g_task_new(session, cancellable, callback, user_data);
	/* one finish for both: km_session_export_finish() */
	g_task_set_source_tag(task, km_session_export_async);
	job = km_job_new(task, export_run, KM_JOB_NEEDS_LIBRARY);
	km_job_set_data(job, export, export_job_free);
	km_job_set_progress(job, progress, progress_data, progress_notify);
	km_session_queue(session, job);
}

void km_session_export_async(KmSession *session, const guint32 *fids, guint n_fids,
			     GFile *folder, const char *template, KmProgressCallback progress,
			     gpointer progress_data, GDestroyNotify progress_notify,
			     GCancellable *cancellable, GAsyncReadyCallback callback,
			     gpointer user_data)
{
	queue_export(session, 0, fids, n_fids, folder, template, progress, progress_data,
		     progress_notify, cancellable, callback, user_data);
}

void km_session_export_playlist_async(KmSession *session, guint32 playlist, GFile *folder,
				      const char *template, KmProgressCallback progress,
				      gpointer progress_data, GDestroyNotify progress_notify,
				      GCancellable *cancellable, GAsyncReadyCallback callback,
				      gpointer user_data)
{
	queue_export(session, playlist, NULL, 0, folder, template, progress, progress_data,
		     progress_notify, cancellable, callback, user_data);
}

KmReport *km_session_export_finish(KmSession *session, GAsyncResult *result, GError **error)
{
	return km_session_report_finish(session, result, km_session_export_async, error);
}
