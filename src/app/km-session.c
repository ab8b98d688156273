/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session.c - KmSession: the object, its worker thread and its job queue.
 *
 * A job is a GTask with a KmJob as its data, pushed on a GAsyncQueue that
 * the worker pops (one thread, because the OMFS core and the library are
 * single-owner: docs/ARCHITECTURE.md, "The app's session"). Everything the
 * worker sends back (the lists, the state, `failed`, the end of a job) goes
 * as idle sources on the main context, at the priority GTask returns with,
 * so it arrives in the order the worker sent it: a job's lists are updated
 * before its callback runs. The worker drops its task reference there too,
 * so the last reference on the session (and so finalize, which joins the
 * worker) is never dropped on the worker itself.
 */
#include "km-session-private.h"

#include <glib/gi18n.h>

/* Pushed by finalize: the worker closes what is open and ends. */
static char stop_worker;

G_DEFINE_FINAL_TYPE(KmSession, km_session, G_TYPE_OBJECT)
G_DEFINE_QUARK(km-session-error-quark, km_session_error)
G_DEFINE_ENUM_TYPE(KmSessionState, km_session_state,
	G_DEFINE_ENUM_VALUE(KM_SESSION_STATE_NEW, "new"),
	G_DEFINE_ENUM_VALUE(KM_SESSION_STATE_OPENING, "opening"),
	G_DEFINE_ENUM_VALUE(KM_SESSION_STATE_OPEN, "open"),
	G_DEFINE_ENUM_VALUE(KM_SESSION_STATE_CLOSED, "closed"),
	G_DEFINE_ENUM_VALUE(KM_SESSION_STATE_FAILED, "failed"))

enum {
	PROP_0,
	PROP_NAME,
	PROP_STATE,
	PROP_BUSY,
	PROP_TOTAL_BYTES,
	PROP_FREE_BYTES,
	PROP_USED_BYTES,
	PROP_INCOMPLETE,
	N_PROPS
};

enum {
	SIGNAL_FAILED,
	SIGNAL_CHANGES_HELD,
	N_SIGNALS
};

static GParamSpec *props[N_PROPS];
static guint signals[N_SIGNALS];

static gpointer worker_main(gpointer data);

KmSession *km_session_new_for_source(const char *name, const KmSessionSourceFuncs *funcs,
				     gpointer data)
{
	KmSession *session = g_object_new(KM_TYPE_SESSION, NULL);

	session->name = g_strdup(name);
	session->worker.funcs = funcs;
	session->worker.source = data;
	session->worker.thread = g_thread_new("km-session", worker_main, session);
	return session;
}

const char *km_session_get_name(KmSession *session)
{
	return session->name;
}

void km_session_set_conversion(KmSession *session, const KmConvertSettings *settings)
{
	g_return_if_fail(KM_IS_SESSION(session));
	g_return_if_fail(!settings || settings->quality <= KM_CONVERT_MAX_QUALITY);
	session->converts = settings != NULL;
	if (settings)
		session->convert = *settings;
}

gboolean km_session_get_conversion(KmSession *session, KmConvertSettings *settings)
{
	g_return_val_if_fail(KM_IS_SESSION(session), FALSE);
	if (session->converts)
		*settings = session->convert;
	return session->converts;
}

KmSessionState km_session_get_state(KmSession *session)
{
	return session->state;
}

gboolean km_session_is_busy(KmSession *session)
{
	return session->n_jobs > 0;
}

guint64 km_session_get_total_bytes(KmSession *session)
{
	return session->total_bytes;
}

guint64 km_session_get_free_bytes(KmSession *session)
{
	return session->free_bytes;
}

guint64 km_session_get_used_bytes(KmSession *session)
{
	return session->total_bytes - MIN(session->free_bytes, session->total_bytes);
}

GListModel *km_session_get_tracks(KmSession *session)
{
	return G_LIST_MODEL(session->tracks);
}

GListModel *km_session_get_playlists(KmSession *session)
{
	return G_LIST_MODEL(session->playlists);
}

KmTrack *km_session_lookup_track(KmSession *session, guint32 fid)
{
	return g_hash_table_lookup(session->track_by_fid, GUINT_TO_POINTER(fid));
}

void km_session_set_capacity(KmSession *session, guint64 total, guint64 free_bytes)
{
	g_object_freeze_notify(G_OBJECT(session));
	if (session->total_bytes != total) {
		session->total_bytes = total;
		g_object_notify_by_pspec(G_OBJECT(session), props[PROP_TOTAL_BYTES]);
	}
	if (session->free_bytes != free_bytes) {
		session->free_bytes = free_bytes;
		g_object_notify_by_pspec(G_OBJECT(session), props[PROP_FREE_BYTES]);
	}
	g_object_notify_by_pspec(G_OBJECT(session), props[PROP_USED_BYTES]);
	g_object_thaw_notify(G_OBJECT(session));
}

void km_session_set_state(KmSession *session, KmSessionState state)
{
	if (session->state == state)
		return;
	session->state = state;
	g_object_notify_by_pspec(G_OBJECT(session), props[PROP_STATE]);
}

/* From the worker: run func(data) on the main context, after what was posted before. */
void km_session_post_to_main(KmSession *session, GSourceFunc func, gpointer data,
			 GDestroyNotify destroy)
{
	GSource *source = g_idle_source_new();

	g_source_set_priority(source, G_PRIORITY_DEFAULT);
	g_source_set_callback(source, func, data, destroy);
	g_source_set_static_name(source, "[km] session");
	g_source_attach(source, session->context);
	g_source_unref(source);
}

void km_session_emit_failed(KmSession *session, const GError *error, KmReport *report)
{
	g_signal_emit(session, signals[SIGNAL_FAILED], 0, error, report);
}

/* Before a job that needs the library: it is open and has not failed. */
static gboolean worker_check_usable(KmWorker *worker, GError **error)
{
	if (worker->failed) {
		g_set_error(error, KM_SESSION_ERROR, KM_SESSION_ERROR_FAILED,
			    _("The player failed earlier: close it and open it again"));
		return FALSE;
	}
	if (!worker->lib && worker->incomplete) {
		g_set_error(error, KM_SESSION_ERROR, KM_SESSION_ERROR_INCOMPLETE,
			    _("A restore did not finish: the player cannot be read until a "
			      "restore of a backup finishes"));
		return FALSE;
	}
	if (!worker->lib) {
		g_set_error(error, KM_SESSION_ERROR, KM_SESSION_ERROR_NOT_OPEN,
			    _("The player is not open"));
		return FALSE;
	}
	return TRUE;
}

void km_job_return_boolean(KmJob *job, gboolean value)
{
	job->result_kind = KM_JOB_RESULT_BOOLEAN;
	job->result_boolean = value;
}

void km_job_return_pointer(KmJob *job, gpointer value, GDestroyNotify free_value)
{
	job->result_kind = KM_JOB_RESULT_POINTER;
	job->result = value;
	job->free_result = free_value;
}

void km_job_return_error(KmJob *job, GError *error)
{
	job->result_kind = KM_JOB_RESULT_ERROR;
	job->error = error;
}

/* The job's result goes to its task here, on the main context: after `failed`. */
static gboolean job_done_on_main(gpointer data)
{
	KmJob *job = data;
	GTask *task = job->task;
	KmSession *session = job->session;

	switch (job->result_kind) {
	case KM_JOB_RESULT_BOOLEAN:
		g_task_return_boolean(task, job->result_boolean);
		break;
	case KM_JOB_RESULT_POINTER:
		g_task_return_pointer(task, g_steal_pointer(&job->result), job->free_result);
		break;
	case KM_JOB_RESULT_ERROR:
	default:
		g_task_return_error(task, g_steal_pointer(&job->error));
		break;
	}
	/* The job is over: progress_notify now, not when the caller drops the result. */
	if (job->progress)
		km_progress_merger_finish(g_steal_pointer(&job->progress));
	if (--session->n_jobs == 0)
		g_object_notify_by_pspec(G_OBJECT(session), props[PROP_BUSY]);
	g_object_unref(task);
	return G_SOURCE_REMOVE;
}

static void run_job(KmSession *session, KmJob *job)
{
	KmWorker *worker = &session->worker;
	GError *error = NULL;

	worker->job = job;
	if (g_cancellable_set_error_if_cancelled(km_job_cancellable(job), &error) ||
	    ((job->flags & KM_JOB_NEEDS_LIBRARY) && !worker_check_usable(worker, &error)))
		km_job_return_error(job, error);
	else
		job->run(job);
	worker->job = NULL;
	if (worker->fail_error) {
		km_session_post_state(session, KM_SESSION_STATE_FAILED, worker->fail_error,
				      job->report);
		g_clear_error(&worker->fail_error);
	}
	g_atomic_int_inc(&session->jobs_run);
	km_session_post_to_main(session, job_done_on_main, job, NULL);
}

static gpointer worker_main(gpointer data)
{
	KmSession *session = data;

	for (;;) {
		gpointer item = g_async_queue_pop(session->queue);

		if (item == &stop_worker)
			break;
		run_job(session, item);
	}
	km_worker_shutdown(session);
	return NULL;
}

/* Main side */

static void job_free(gpointer data)
{
	KmJob *job = data;

	if (job->progress)
		km_progress_merger_finish(job->progress);
	g_clear_pointer(&job->report, km_report_unref);
	if (job->result && job->free_result)
		job->free_result(job->result);
	g_clear_error(&job->error);
	if (job->free_data)
		job->free_data(job->data);
	g_free(job);
}

KmJob *km_job_new(GTask *task, KmJobFunc run, KmJobFlags flags)
{
	KmJob *job = g_new0(KmJob, 1);

	job->session = KM_SESSION(g_task_get_source_object(task));
	job->task = task;
	/* The worker decides: an edit committed before the cancel is a success. */
	g_task_set_check_cancellable(task, FALSE);
	job->run = run;
	job->flags = flags;
	g_task_set_task_data(task, job, job_free);
	return job;
}

void km_job_set_data(KmJob *job, gpointer data, GDestroyNotify free_data)
{
	job->data = data;
	job->free_data = free_data;
}

void km_job_set_progress(KmJob *job, KmProgressCallback progress, gpointer progress_data,
			 GDestroyNotify progress_notify)
{
	KmSession *session = job->session;

	if (progress)
		job->progress = km_progress_merger_new(session->context, session, progress,
						       progress_data, progress_notify,
						       g_task_get_cancellable(job->task),
						       &session->progress_stats);
	else if (progress_notify)
		progress_notify(progress_data);
}

void km_session_queue(KmSession *session, KmJob *job)
{
	g_assert(job->session == session);
	if (session->n_jobs++ == 0)
		g_object_notify_by_pspec(G_OBJECT(session), props[PROP_BUSY]);
	if (!(job->flags & KM_JOB_CHANGES) || !session->holding_changes) {
		g_async_queue_push(session->queue, job);
		return;
	}
	km_session_hold_job(session, job);
}

gboolean km_session_result_is_valid(KmSession *session, GAsyncResult *result,
				    gpointer source_tag)
{
	return g_task_is_valid(result, session) &&
	       g_task_get_source_tag(G_TASK(result)) == source_tag;
}

KmReport *km_session_report_finish(KmSession *session, GAsyncResult *result,
				   gpointer source_tag, GError **error)
{
	KmReport *report;

	g_return_val_if_fail(km_session_result_is_valid(session, result, source_tag), NULL);
	report = g_task_propagate_pointer(G_TASK(result), error);
	if (report && report->error)
		g_propagate_error(error, g_error_copy(report->error));
	return report;
}

void km_session_get_debug_stats(KmSession *session, KmProgressStats *progress,
				guint *library_calls, guint *jobs_run)
{
	km_progress_stats_get(&session->progress_stats, progress);
	*library_calls = (guint)g_atomic_int_get(&session->library_calls);
	*jobs_run = (guint)g_atomic_int_get(&session->jobs_run);
}

GThread *km_session_get_worker_thread(KmSession *session)
{
	return session->worker.thread;
}

/* GObject */

static void km_session_get_property(GObject *object, guint prop_id, GValue *value,
				    GParamSpec *pspec)
{
	KmSession *session = KM_SESSION(object);

	switch (prop_id) {
	case PROP_NAME:
		g_value_set_string(value, session->name);
		break;
	case PROP_STATE:
		g_value_set_enum(value, session->state);
		break;
	case PROP_BUSY:
		g_value_set_boolean(value, km_session_is_busy(session));
		break;
	case PROP_TOTAL_BYTES:
		g_value_set_uint64(value, session->total_bytes);
		break;
	case PROP_FREE_BYTES:
		g_value_set_uint64(value, session->free_bytes);
		break;
	case PROP_USED_BYTES:
		g_value_set_uint64(value, km_session_get_used_bytes(session));
		break;
	case PROP_INCOMPLETE:
		g_value_set_boolean(value, session->incomplete);
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
	}
}

static void km_session_finalize(GObject *object)
{
	KmSession *session = KM_SESSION(object);

	g_async_queue_push(session->queue, &stop_worker);
	g_thread_join(session->worker.thread);
	if (session->worker.funcs)
		session->worker.funcs->free(session->worker.source);
	g_async_queue_unref(session->queue);
	g_hash_table_unref(session->worker.dirty);
	g_hash_table_unref(session->track_by_fid);
	g_object_unref(session->tracks);
	g_object_unref(session->playlists);
	g_main_context_unref(session->context);
	g_free(session->name);
	g_free(session->serial);
	G_OBJECT_CLASS(km_session_parent_class)->finalize(object);
}

static void km_session_class_init(KmSessionClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

	object_class->get_property = km_session_get_property;
	object_class->finalize = km_session_finalize;

	props[PROP_NAME] = g_param_spec_string("name", NULL, NULL, NULL, flags);
	props[PROP_STATE] = g_param_spec_enum("state", NULL, NULL, KM_TYPE_SESSION_STATE,
					      KM_SESSION_STATE_NEW, flags);
	props[PROP_BUSY] = g_param_spec_boolean("busy", NULL, NULL, FALSE, flags);
	props[PROP_TOTAL_BYTES] = g_param_spec_uint64("total-bytes", NULL, NULL, 0,
						      G_MAXUINT64, 0, flags);
	props[PROP_FREE_BYTES] = g_param_spec_uint64("free-bytes", NULL, NULL, 0, G_MAXUINT64,
						     0, flags);
	props[PROP_USED_BYTES] = g_param_spec_uint64("used-bytes", NULL, NULL, 0, G_MAXUINT64,
						     0, flags);
	props[PROP_INCOMPLETE] = g_param_spec_boolean("incomplete", NULL, NULL, FALSE, flags);
	g_object_class_install_properties(object_class, N_PROPS, props);

	signals[SIGNAL_FAILED] = g_signal_new("failed", G_TYPE_FROM_CLASS(klass),
					      G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
					      G_TYPE_NONE, 2, G_TYPE_ERROR, KM_TYPE_REPORT);
	signals[SIGNAL_CHANGES_HELD] = g_signal_new("changes-held", G_TYPE_FROM_CLASS(klass),
						    G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
						    G_TYPE_NONE, 0);
}

static void km_session_init(KmSession *session)
{
	session->context = g_main_context_ref_thread_default();
	session->tracks = g_list_store_new(KM_TYPE_TRACK);
	session->playlists = g_list_store_new(KM_TYPE_PLAYLIST_ITEM);
	session->track_by_fid = g_hash_table_new(NULL, NULL);
	session->queue = g_async_queue_new();
	session->worker.dirty = g_hash_table_new(NULL, NULL);
}
