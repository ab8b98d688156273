/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-add.c - the job that copies host files to the player.
 *
 * Folders are walked first (the import's walk, km-import-walk.h, as karmactl
 * add: progress knows the total), then each file goes through the library's
 * import (km_transaction_import, as karmactl add's: probed, checked for
 * duplicates and for room, copied) into an open transaction that is
 * committed every few files or seconds: tracks appear as they land, and a
 * failure loses at most the batch in flight. The
 * room check comes before any byte of the file is written, so a full player
 * stops the job with nothing half-written.
 */
#include "km-session-private.h"

#include <glib/gi18n.h>

#include "km-import-add.h"
#include "km-import-walk.h"

#define ADD_BATCH_FILES 8
#define ADD_BATCH_US (2 * G_USEC_PER_SEC)
/*
 * A commit rewrites smalldb, so it costs in proportion to the library, not
 * to the batch: a batch also holds at least an eighth of the library's
 * objects, so that the commits' share of the work stays the same however
 * big the library, and adding stays linear in the files (8 files a commit
 * into 20,000 tracks was quadratic: docs/PERFORMANCE.md, "Adding scales
 * linearly"). The time limit still bounds what a failure can lose.
 */
#define ADD_BATCH_LIBRARY_SHARE 8

typedef struct {
	GPtrArray *roots;	/* GFile* */
	GPtrArray *cancellables;	/* GCancellable* or NULL, one per root */
	KmAddFlags flags;

	/* worker */
	GPtrArray *files;	/* KmWalkFile*: the files below roots */
	GPtrArray *batch;	/* KmWalkFile* copied, not yet committed (owned by files) */
	gint64 batch_start;
	KmTransaction *tx;
	KmProgress progress;
	guint64 bytes_before;	/* bytes of the files copied before the current one */
	KmJob *job;
} AddJob;

/* An item without a cancellable holds NULL. */
static void unref_if_set(gpointer object)
{
	if (object)
		g_object_unref(object);
}

static void add_job_free(gpointer data)
{
	AddJob *add = data;

	g_ptr_array_unref(add->roots);
	g_ptr_array_unref(add->cancellables);
	g_clear_pointer(&add->files, g_ptr_array_unref);
	g_clear_pointer(&add->batch, g_ptr_array_unref);
	g_clear_object(&add->tx);
	g_free(add->progress.file_name);
	g_free(add);
}

/* Walking */

static void report_file(KmReport *report, const KmWalkFile *file, guint32 fid,
			KmItemOutcome outcome, const char *reason)
{
	g_autoptr(GFile) gfile = g_file_new_for_path(file->path);

	km_report_add(report, gfile, fid, outcome, reason);
}

static void on_walk_problem(const char *path, guint root, gboolean is_root,
			    KmWalkProblem problem, const char *message, gpointer data)
{
	g_autoptr(GFile) file = g_file_new_for_path(path);

	if (problem == KM_WALK_NOT_REGULAR)
		km_report_add(data, file, 0, KM_ITEM_UNSUPPORTED, _("Not a regular file"));
	else if (problem == KM_WALK_TOO_DEEP)
		km_report_add(data, file, 0, KM_ITEM_FAILED, _("Folders nested too deep"));
	else	/* unreadable (the walk is recursive: a folder is no problem) */
		km_report_add(data, file, 0, KM_ITEM_FAILED, message);
}

/*
 * The files below the roots. Only local files can be read (a drop from a
 * network share in the file manager may give others): those are reported.
 */
static GPtrArray *walk_roots(AddJob *add, KmReport *report)
{
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GArray) root_of = g_array_new(FALSE, FALSE, sizeof(guint));
	GPtrArray *files;

	for (guint i = 0; i < add->roots->len; i++) {
		char *path = g_file_get_path(add->roots->pdata[i]);

		if (!path) {
			km_report_add(report, add->roots->pdata[i], 0, KM_ITEM_UNSUPPORTED,
				      _("Not a local file"));
			continue;
		}
		g_ptr_array_add(paths, path);
		g_array_append_val(root_of, i);
	}
	files = km_import_walk((const char *const *)paths->pdata, paths->len, TRUE,
			       km_job_cancellable(add->job), on_walk_problem, report,
			       &add->progress.bytes_total);
	for (guint i = 0; i < files->len; i++) {
		KmWalkFile *file = files->pdata[i];

		file->root = g_array_index(root_of, guint, file->root);
	}
	return files;
}

/* Copying */

static GCancellable *item_cancellable(AddJob *add, const KmWalkFile *file)
{
	return add->cancellables->pdata[file->root];
}

static void copied_progress(guint64 done, guint64 total, gpointer user_data)
{
	AddJob *add = user_data;

	add->progress.file_bytes_done = done;
	add->progress.bytes_done = add->bytes_before + done;
	km_worker_report(add->job, &add->progress);
}

static void start_file(AddJob *add, guint index)
{
	KmWalkFile *file = add->files->pdata[index];

	g_free(add->progress.file_name);
	add->progress.file_name = g_filename_display_basename(file->path);
	add->progress.file_index = index;
	add->progress.file_bytes_done = 0;
	add->progress.file_bytes_total = file->size;
	add->progress.bytes_done = add->bytes_before;
	km_worker_report(add->job, &add->progress);
}

/* A file not copied: it no longer counts in the total. */
static void skip_file(AddJob *add, KmWalkFile *file, KmItemOutcome outcome, const char *reason)
{
	report_file(add->job->report, file, 0, outcome, reason);
	add->progress.bytes_total -= MIN(file->size, add->progress.bytes_total);
}

/* The library's room check said no: said as the app says it. */
static void set_full_error(AddJob *add, const KmRoom *room, GError **error)
{
	g_autofree char *need_text = g_format_size(room->needed);
	g_autofree char *free_text = g_format_size(room->free_bytes);

	g_set_error(error, KM_SESSION_ERROR, KM_SESSION_ERROR_FULL,
		    /* Translators: a track's name, then two sizes such as "4.2 MB" */
		    _("The player is full: “%s” needs %s, %s are free"),
		    add->progress.file_name, need_text, free_text);
}

/* The batch's files are now on the player for good. */
static gboolean commit_batch(AddJob *add, GError **error)
{
	g_autoptr(KmTransaction) tx = g_steal_pointer(&add->tx);

	/* nothing copied (refused, duplicates): dropping tx leaves smalldb as it is */
	if (!tx || add->batch->len == 0)
		return TRUE;
	if (!km_worker_commit(add->job, g_steal_pointer(&tx), error))
		return FALSE;
	for (guint i = 0; i < add->batch->len; i++) {
		KmWalkFile *file = add->batch->pdata[i];

		report_file(add->job->report, file, file->fid, KM_ITEM_DONE, NULL);
	}
	g_ptr_array_set_size(add->batch, 0);
	return TRUE;
}

static gboolean batch_is_due(AddJob *add)
{
	guint objects = km_library_get_n_objects(km_worker_library(add->job->session));

	return add->batch->len >= MAX(ADD_BATCH_FILES, objects / ADD_BATCH_LIBRARY_SHARE) ||
	       g_get_monotonic_time() - add->batch_start >= ADD_BATCH_US;
}

static void cancel_other(GCancellable *cancelled, gpointer other)
{
	g_cancellable_cancel(other);
}

/*
 * The library's import of one file into the open transaction
 * (km_transaction_import, karmactl add's too), stopping when its item or
 * the job is cancelled.
 */
static gboolean import_file(AddJob *add, KmWalkFile *file, KmImportResult *result,
			    GError **error)
{
	GCancellable *sources[2] = { km_job_cancellable(add->job), item_cancellable(add, file) };
	g_autoptr(GCancellable) cancellable = g_cancellable_new();
	KmImportOptions options = {
		.progress = copied_progress, .data = add, .cancellable = cancellable,
		.copy_duplicates = (add->flags & KM_ADD_COPY_DUPLICATES) != 0,
	};
	gulong handlers[2] = { 0, 0 };
	gboolean ok;

	for (guint i = 0; i < 2; i++)
		if (sources[i])
			handlers[i] = g_cancellable_connect(sources[i], G_CALLBACK(cancel_other),
							    cancellable, NULL);
	ok = km_transaction_import(add->tx, file->path, file->size, &options, result, error);
	for (guint i = 0; i < 2; i++)
		if (sources[i])
			g_cancellable_disconnect(sources[i], handlers[i]);
	return ok;
}

static char *duplicate_reason(AddJob *add, guint32 fid)
{
	KmProperties *existing = km_transaction_lookup(add->tx, fid);
	const char *title = existing ? km_properties_get(existing, "title") : NULL;

	return g_strdup_printf(_("Already on the player as “%s”"), title ? title : "?");
}

static gboolean open_batch(AddJob *add, GError **error)
{
	if (add->tx)
		return TRUE;
	add->tx = km_library_begin(km_worker_library(add->job->session), error);
	add->batch_start = g_get_monotonic_time();
	return add->tx != NULL;
}

/*
 * Copy one file, or report why not. FALSE (with error, the file reported)
 * stops the job: it was cancelled, the player is full or failed.
 */
static gboolean add_one(AddJob *add, KmWalkFile *file, guint index, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autofree char *reason = NULL;
	KmImportResult r;

	if (g_cancellable_is_cancelled(item_cancellable(add, file))) {
		skip_file(add, file, KM_ITEM_CANCELLED, _("Cancelled"));
		return TRUE;
	}
	start_file(add, index);
	if (!open_batch(add, &local))
		goto stop;
	if (!import_file(add, file, &r, &local)) {
		gboolean cancelled = g_error_matches(local, G_IO_ERROR, G_IO_ERROR_CANCELLED);
		gboolean refused = local->domain == KM_IMPORT_ERROR;

		if (km_worker_check_device(add->job, local) ||
		    (cancelled && g_cancellable_is_cancelled(km_job_cancellable(add->job))))
			goto stop;
		if (refused && !g_error_matches(local, KM_IMPORT_ERROR, KM_IMPORT_ERROR_READ))
			skip_file(add, file, KM_ITEM_UNSUPPORTED, local->message);
		else
			skip_file(add, file, cancelled ? KM_ITEM_CANCELLED : KM_ITEM_FAILED,
				  cancelled ? _("Cancelled") : local->message);
		return TRUE;
	}
	if (r.outcome == KM_IMPORT_DUPLICATE) {
		reason = duplicate_reason(add, r.fid);
		skip_file(add, file, KM_ITEM_DUPLICATE, reason);
		return TRUE;
	}
	if (r.outcome == KM_IMPORT_NO_ROOM) {
		set_full_error(add, &r.room, &local);
		goto stop;
	}
	file->fid = r.fid;
	add->bytes_before += file->size;
	km_worker_mark_dirty(add->job->session, file->fid);
	g_ptr_array_add(add->batch, file);
	/* A commit that fails: finish_stopped() reports the batch, this file in it. */
	if (batch_is_due(add))
		return commit_batch(add, error);
	return TRUE;

stop:
	if (g_error_matches(local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		skip_file(add, file, KM_ITEM_CANCELLED, _("Cancelled"));
	else if (g_error_matches(local, KM_SESSION_ERROR, KM_SESSION_ERROR_FULL))
		skip_file(add, file, KM_ITEM_NOT_DONE, local->message);
	else
		skip_file(add, file, KM_ITEM_FAILED, local->message);
	g_propagate_error(error, g_steal_pointer(&local));
	return FALSE;
}

/* After a stop: keep what was copied, unless the player failed; report the rest. */
static void finish_stopped(AddJob *add, guint next, GError **stop)
{
	KmReport *report = add->job->report;
	gboolean cancelled = g_error_matches(*stop, G_IO_ERROR, G_IO_ERROR_CANCELLED);
	GError *commit_error = NULL;
	g_autofree char *not_saved = NULL;

	if (add->job->session->worker.failed)
		g_clear_object(&add->tx);
	else if (!commit_batch(add, &commit_error)) {
		g_clear_error(stop);
		*stop = commit_error;
	}
	/* A commit cut short is finished or forgotten by the next open: we cannot say which. */
	not_saved = g_strdup_printf(_("Maybe not saved: %s"), (*stop)->message);
	for (guint i = 0; i < add->batch->len; i++) {
		KmWalkFile *file = add->batch->pdata[i];

		report_file(report, file, 0, KM_ITEM_FAILED, not_saved);
	}
	g_ptr_array_set_size(add->batch, 0);
	for (guint i = next; i < add->files->len; i++) {
		KmWalkFile *file = add->files->pdata[i];

		skip_file(add, file, cancelled ? KM_ITEM_CANCELLED : KM_ITEM_NOT_DONE,
			  cancelled ? _("Cancelled") : (*stop)->message);
	}
}

static void add_run(KmJob *job)
{
	AddJob *add = job->data;
	GError *stop = NULL;
	guint i;

	add->job = job;
	job->report = km_report_new();
	add->files = walk_roots(add, job->report);
	add->progress.n_files = add->files->len;
	for (i = 0; i < add->files->len && !stop; i++)
		add_one(add, add->files->pdata[i], i, &stop);
	if (!stop)
		commit_batch(add, &stop);
	if (stop)
		finish_stopped(add, i, &stop);
	job->report->error = stop;
	add->progress.file_index = add->progress.n_files;
	add->progress.file_bytes_done = add->progress.file_bytes_total;
	add->progress.bytes_done = add->bytes_before;
	km_worker_report(job, &add->progress);
	km_job_return_pointer(job, km_report_ref(job->report), (GDestroyNotify)km_report_unref);
}

void km_session_add_files_async(KmSession *session, GFile *const *files, guint n_files,
				GCancellable *const *item_cancellables, KmAddFlags flags,
				KmProgressCallback progress, gpointer progress_data,
				GDestroyNotify progress_notify, GCancellable *cancellable,
				GAsyncReadyCallback callback, gpointer user_data)
{
	GTask *task;
	KmJob *job;
	AddJob *add;

	g_return_if_fail(KM_IS_SESSION(session));
	add = g_new0(AddJob, 1);
	add->roots = g_ptr_array_new_with_free_func(g_object_unref);
	add->cancellables = g_ptr_array_new_with_free_func(unref_if_set);
	for (guint i = 0; i < n_files; i++) {
		GCancellable *item = item_cancellables ? item_cancellables[i] : NULL;

		g_ptr_array_add(add->roots, g_object_ref(files[i]));
		g_ptr_array_add(add->cancellables, item ? g_object_ref(item) : NULL);
	}
	add->flags = flags;
	add->batch = g_ptr_array_new();
	task = g_task_new(session, cancellable, callback, user_data);
	g_task_set_source_tag(task, km_session_add_files_async);
	job = km_job_new(task, add_run, KM_JOB_NEEDS_LIBRARY | KM_JOB_CHANGES);
	km_job_set_data(job, add, add_job_free);
	km_job_set_progress(job, progress, progress_data, progress_notify);
	km_session_queue(session, job);
}

KmReport *km_session_add_files_finish(KmSession *session, GAsyncResult *result, GError **error)
{
	return km_session_report_finish(session, result, km_session_add_files_async, error);
}
