/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-worker.c - what the session's worker does for every job: the
 * one way to the library, device failures, commits and the lists they
 * change, and the jobs that open and close the library.
 */
#include "km-session-private.h"

#include <glib/gi18n.h>

#include "km-playlist.h"

static void fail_session(KmJob *job, const GError *error);

/* The state, and `failed`, from the worker to the main context */

typedef struct {
	KmSession *session;
	KmSessionState state;
	GError *error;		/* failed only */
	KmReport *report;	/* failed only, may be NULL */
} StateChange;

static void state_change_free(gpointer data)
{
	StateChange *change = data;

	g_object_unref(change->session);
	g_clear_error(&change->error);
	g_clear_pointer(&change->report, km_report_unref);
	g_free(change);
}

static gboolean state_change_apply(gpointer data)
{
	StateChange *change = data;

	km_session_set_state(change->session, change->state);
	if (change->state == KM_SESSION_STATE_CLOSED)
		km_session_clear_lists(change->session);
	if (change->error)
		km_session_emit_failed(change->session, change->error, change->report);
	return G_SOURCE_REMOVE;
}

void km_session_post_state(KmSession *session, KmSessionState state, const GError *error,
		       KmReport *report)
{
	StateChange *change = g_new0(StateChange, 1);

	change->session = g_object_ref(session);
	change->state = state;
	change->error = error ? g_error_copy(error) : NULL;
	change->report = report ? km_report_ref(report) : NULL;
	km_session_post_to_main(session, state_change_apply, change, state_change_free);
}

KmLibrary *km_worker_library(KmSession *session)
{
	g_assert(g_thread_self() == session->worker.thread);
	g_atomic_int_inc(&session->library_calls);
	return session->worker.lib;
}

GCancellable *km_job_cancellable(KmJob *job)
{
	return g_task_get_cancellable(job->task);
}

void km_worker_report(KmJob *job, const KmProgress *progress)
{
	if (job->progress)
		km_progress_merger_report(job->progress, progress);
}

void km_worker_report_file(KmJob *job, KmProgress *progress, char *name, guint index,
			   guint64 size, guint64 bytes_before)
{
	g_free(progress->file_name);
	progress->file_name = name;
	progress->file_index = index;
	progress->file_bytes_done = 0;
	progress->file_bytes_total = size;
	progress->bytes_done = bytes_before;
	progress->converting = FALSE;
	km_worker_report(job, progress);
}

void km_worker_report_converting(KmJob *job, KmProgress *progress, guint64 done_ms,
				 guint64 total_ms, const char *format)
{
	progress->converting = TRUE;
	progress->convert_format = format;
	progress->convert_done_ms = done_ms;
	progress->convert_total_ms = total_ms;
	km_worker_report(job, progress);
}

void km_worker_report_copied(KmJob *job, KmProgress *progress, guint64 bytes_before,
			     guint64 done)
{
	progress->converting = FALSE;
	progress->file_bytes_done = done;
	progress->bytes_done = bytes_before + done;
	km_worker_report(job, progress);
}

void km_session_report_progress(KmSession *session, const KmProgress *progress)
{
	g_assert(g_thread_self() == session->worker.thread);
	if (session->worker.job)
		km_worker_report(session->worker.job, progress);
}

/* The library's words for "the device or the volume failed under us". */
gboolean km_worker_check_device(KmJob *job, const GError *error)
{
	if (!km_library_error_is_device(error))
		return FALSE;
	fail_session(job, error);
	return TRUE;
}

/* A playlist as the worker reads it: the main context finds the tracks. */
static KmListPlaylist *read_playlist(KmLibrary *lib, const KmProperties *props)
{
	KmListPlaylist *playlist = g_new0(KmListPlaylist, 1);
	g_autoptr(GArray) entries = km_playlist_from_properties(props, NULL);

	playlist->fid = km_properties_get_fid(props);
	playlist->name = g_strdup(km_properties_get(props, "title"));
	playlist->fids = g_array_new(FALSE, FALSE, sizeof(guint32));
	playlist->resolved = g_array_new(FALSE, FALSE, sizeof(gboolean));
	/* A playlist that does not parse shows empty; verify reports it. */
	for (guint i = 0; entries && i < entries->len; i++) {
		const KmPlaylistEntry *entry = &g_array_index(entries, KmPlaylistEntry, i);
		KmProperties *track = km_library_resolve(lib, entry->fid, entry->generation);
		gboolean resolved = km_properties_get_object_type(track) == KM_OBJECT_TUNE;

		g_array_append_val(playlist->fids, entry->fid);
		g_array_append_val(playlist->resolved, resolved);
	}
	return playlist;
}

static void read_capacity(KmLibrary *lib, KmListUpdate *update)
{
	KmLibrarySpace space;

	if (km_library_get_space(lib, &space, NULL)) {
		update->total_bytes = space.total_bytes;
		update->free_bytes = space.free_bytes;
	}
}

static gint compare_fids(gconstpointer a, gconstpointer b)
{
	guint32 x = GPOINTER_TO_UINT(*(gconstpointer *)a);
	guint32 y = GPOINTER_TO_UINT(*(gconstpointer *)b);

	return x < y ? -1 : x > y;
}

/* The dirty fids, ascending: the list is kept in fid order. */
static GPtrArray *take_dirty(KmWorker *worker)
{
	GPtrArray *fids = g_ptr_array_sized_new(g_hash_table_size(worker->dirty));
	GHashTableIter iter;
	gpointer fid;

	g_hash_table_iter_init(&iter, worker->dirty);
	while (g_hash_table_iter_next(&iter, &fid, NULL))
		g_ptr_array_add(fids, fid);
	g_hash_table_remove_all(worker->dirty);
	g_ptr_array_sort(fids, compare_fids);
	return fids;
}

static gboolean queue_update_on_main(gpointer data)
{
	KmListUpdate *update = data;

	km_session_queue_update(update->session, update);
	return G_SOURCE_REMOVE;
}

void km_worker_publish(KmSession *session, gboolean all)
{
	KmLibrary *lib = km_worker_library(session);
	KmListUpdate *update = km_list_update_new(session, all);
	g_autoptr(GPtrArray) objects = km_library_list(lib);
	g_autoptr(GPtrArray) dirty = take_dirty(&session->worker);

	for (guint i = 0; i < objects->len; i++) {
		const KmProperties *props = objects->pdata[i];

		if (all && km_properties_get_object_type(props) == KM_OBJECT_TUNE)
			g_ptr_array_add(update->tracks, km_track_new(props));
		if (km_properties_get_object_type(props) == KM_OBJECT_PLAYLIST)
			g_ptr_array_add(update->playlists, read_playlist(lib, props));
	}
	for (guint i = 0; !all && i < dirty->len; i++) {
		guint32 fid = GPOINTER_TO_UINT(dirty->pdata[i]);
		KmProperties *props = km_library_lookup(lib, fid);

		if (km_properties_get_object_type(props) == KM_OBJECT_TUNE)
			g_ptr_array_add(update->tracks, km_track_new(props));
		else
			g_array_append_val(update->removed, fid);
	}
	read_capacity(lib, update);
	km_session_post_to_main(session, queue_update_on_main, update,
				(GDestroyNotify)km_list_update_free);
}

void km_worker_mark_dirty(KmSession *session, guint32 fid)
{
	g_assert(g_thread_self() == session->worker.thread);
	g_hash_table_add(session->worker.dirty, GUINT_TO_POINTER(fid));
}

/*
 * A commit that fails leaves the library failed (km-transaction.h): so is the
 * session. `failed` is posted when the job is over (km-session.c run_job()),
 * with its report then complete, before its result.
 */
static void fail_session(KmJob *job, const GError *error)
{
	KmWorker *worker = &job->session->worker;

	if (!worker->failed) {
		worker->failed = TRUE;
		worker->fail_error = g_error_copy(error);
	}
}

gboolean km_worker_commit(KmJob *job, KmTransaction *tx, GError **error)
{
	GError *local = NULL;
	gboolean ok = km_transaction_commit(tx, &local);

	g_object_unref(tx);
	if (!ok) {
		fail_session(job, local);
		g_propagate_error(error, local);
		return FALSE;
	}
	km_worker_publish(job->session, FALSE);
	return TRUE;
}

void km_worker_run_edit(KmJob *job, KmEditFunc fn)
{
	KmTransaction *tx;
	GError *error = NULL;

	tx = km_library_begin(km_worker_library(job->session), &error);
	if (tx && !fn(job, tx, &error)) {
		/* Dropping an uncommitted transaction rolls it back. */
		g_clear_object(&tx);
		km_worker_check_device(job, error);
	}
	if (!tx || !km_worker_commit(job, tx, &error))
		km_job_return_error(job, error);
	else
		km_job_return_boolean(job, TRUE);
}

/* open and close: the jobs that make and end the library */

/*
 * Close the library and the source, whatever their state. A failed device
 * cannot be written back, nor be expected to take the goodbye (leave
 * storage mode): it is let go, and that is no error.
 */
static gboolean worker_release(KmWorker *worker, GError **error)
{
	gboolean failed = worker->failed;
	gboolean ok = TRUE;

	if (worker->lib && !failed)
		ok = km_library_close(worker->lib, error);
	g_clear_object(&worker->lib);
	if (worker->dev &&
	    !worker->funcs->close(worker->source, ok && !failed ? error : NULL) && !failed)
		ok = FALSE;
	worker->dev = NULL;
	return ok;
}

/* What finalize leaves to the worker: close what is still open, on its own thread. */
void km_worker_shutdown(KmSession *session)
{
	g_autoptr(GError) error = NULL;

	if (!worker_release(&session->worker, &error))
		g_warning("closing %s: %s", session->name, error->message);
}

static void open_run(KmJob *job)
{
	KmSession *session = job->session;
	KmWorker *worker = &session->worker;
	const KmLibraryOptions options = { .writable = TRUE };
	const struct omfs_blockdev *dev;
	GError *error = NULL;

	if (worker->lib || worker->dev) {
		km_job_return_error(job, g_error_new(KM_SESSION_ERROR, KM_SESSION_ERROR_NOT_OPEN,
						     _("The player is open already")));
		return;
	}
	dev = worker->funcs->open(worker->source, session, km_job_cancellable(job), &error);
	if (dev) {
		worker->dev = dev;
		worker->lib = km_library_open(dev, &options, &error);
	}
	if (!worker->lib) {
		/* The error says what failed; the device may well refuse the goodbye too. */
		worker_release(worker, NULL);
		km_session_post_state(session, KM_SESSION_STATE_CLOSED, NULL, NULL);
		km_job_return_error(job, error);
		return;
	}
	km_worker_publish(session, TRUE);
	km_session_post_state(session, KM_SESSION_STATE_OPEN, NULL, NULL);
	km_job_return_boolean(job, TRUE);
}

void km_session_open_async(KmSession *session, KmProgressCallback progress,
			   gpointer progress_data, GDestroyNotify progress_notify,
			   GCancellable *cancellable, GAsyncReadyCallback callback,
			   gpointer user_data)
{
	GTask *task;
	KmJob *job;

	g_return_if_fail(KM_IS_SESSION(session));
	if (session->state == KM_SESSION_STATE_NEW)
		km_session_set_state(session, KM_SESSION_STATE_OPENING);
	task = g_task_new(session, cancellable, callback, user_data);
	g_task_set_source_tag(task, km_session_open_async);
	job = km_job_new(task, open_run, KM_JOB_NONE);
	km_job_set_progress(job, progress, progress_data, progress_notify);
	km_session_queue(session, job);
}

gboolean km_session_open_finish(KmSession *session, GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(km_session_result_is_valid(session, result, km_session_open_async),
			     FALSE);
	return g_task_propagate_boolean(G_TASK(result), error);
}

static void close_run(KmJob *job)
{
	KmSession *session = job->session;
	KmWorker *worker = &session->worker;
	GError *error = NULL;
	gboolean ok = worker_release(worker, &error);

	worker->failed = FALSE;
	worker->incomplete = FALSE;
	km_session_post_state(session, KM_SESSION_STATE_CLOSED, NULL, NULL);
	if (ok)
		km_job_return_boolean(job, TRUE);
	else
		km_job_return_error(job, error);
}

void km_session_close_async(KmSession *session, GCancellable *cancellable,
			    GAsyncReadyCallback callback, gpointer user_data)
{
	GTask *task;
	KmJob *job;

	g_return_if_fail(KM_IS_SESSION(session));
	/* the changes held were asked for first: they run (or fail) before the close */
	km_session_release_changes(session);
	task = g_task_new(session, cancellable, callback, user_data);
	g_task_set_source_tag(task, km_session_close_async);
	job = km_job_new(task, close_run, KM_JOB_NONE);
	km_session_queue(session, job);
}

gboolean km_session_close_finish(KmSession *session, GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(km_session_result_is_valid(session, result,
							km_session_close_async), FALSE);
	return g_task_propagate_boolean(G_TASK(result), error);
}

