/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-private.h - what the session's files share: the instance, the
 * jobs, and the worker-side helpers the jobs are written with.
 *
 * The rule that keeps this simple: fields under "main" are touched on the
 * main context only, fields under "worker" by the worker thread only; the two
 * talk through the job queue one way and idle sources the other way.
 */
#ifndef KM_SESSION_PRIVATE_H
#define KM_SESSION_PRIVATE_H

#include "km-library.h"
#include "km-progress-merger.h"
#include "km-session-source.h"
#include "km-transaction.h"

G_BEGIN_DECLS

typedef struct _KmJob KmJob;

typedef enum {
	KM_JOB_NONE = 0,
	KM_JOB_NEEDS_LIBRARY = 1 << 0,	/* fail at once unless the library is open */
	KM_JOB_CHANGES = 1 << 1,	/* changes the player: held by km_session_hold_changes() */
} KmJobFlags;
/* On the worker: do the job and return its result through job->task. */
typedef void (*KmJobFunc)(KmJob *job);

struct _KmJob {
	KmSession *session;	/* not a reference: the task holds one */
	GTask *task;
	KmJobFunc run;
	KmJobFlags flags;
	gpointer data;
	GDestroyNotify free_data;
	KmProgressMerger *progress;	/* NULL without a progress callback */
	KmReport *report;	/* a copying job's, handed to `failed` */

	/* The result, kept by the worker and handed to the task on the main context. */
	enum { KM_JOB_RESULT_ERROR, KM_JOB_RESULT_BOOLEAN, KM_JOB_RESULT_POINTER } result_kind;
	gboolean result_boolean;
	gpointer result;
	GDestroyNotify free_result;
	GError *error;
};

/* On the worker: a job ends with one of these (the task returns on the main context). */
void km_job_return_boolean(KmJob *job, gboolean value);
void km_job_return_pointer(KmJob *job, gpointer value, GDestroyNotify free_value);
void km_job_return_error(KmJob *job, GError *error);

typedef struct {
	GThread *thread;
	const KmSessionSourceFuncs *funcs;
	gpointer source;
	const struct omfs_blockdev *dev;	/* the whole disk; NULL when the source is closed */
	KmLibrary *lib;
	gboolean incomplete;	/* a restore did not finish: no library until one does */
	gboolean failed;
	GError *fail_error;	/* why, until `failed` is posted at the job's end */
	KmJob *job;		/* the job running */
	GHashTable *dirty;	/* fids changed since the lists were last published */
} KmWorker;

struct _KmSession {
	GObject parent_instance;
	char *name;
	char *serial;
	GMainContext *context;

	/* main */
	KmSessionState state;
	guint n_jobs;
	guint64 total_bytes;
	guint64 free_bytes;
	GListStore *tracks;
	GListStore *playlists;
	GHashTable *track_by_fid;	/* fid -> KmTrack in tracks */
	GQueue updates;		/* KmListUpdate* not yet in the lists (km-session-lists.c) */
	GSource *updating;	/* puts them in, a slice of a whole list per turn */
	gboolean incomplete;
	gboolean holding_changes;
	GQueue held;		/* KmJob* that change the player, waiting for the release */
	/* Copied into each add and sync plan job as it is made, never read by the worker. */
	gboolean converts;
	KmConvertSettings convert;

	GAsyncQueue *queue;	/* KmJob*, then the stop sentinel */
	KmWorker worker;

	/* For tests (km_session_get_debug_stats()). */
	KmProgressStats progress_stats;	/* under km-progress.c's stats_lock */
	gint library_calls;		/* atomic */
	gint jobs_run;			/* atomic: jobs the worker has finished */
};

/* km-session.c, for the other files of the session */
void km_session_set_state(KmSession *session, KmSessionState state);
/* From the worker: func(data) on the main context, in the order posted. */
void km_session_post_to_main(KmSession *session, GSourceFunc func, gpointer data,
			     GDestroyNotify destroy);
/* From the worker: the state changes; error (failed only) emits `failed` with report. */
void km_session_post_state(KmSession *session, KmSessionState state, const GError *error,
			   KmReport *report);
/* On the main context: emit `failed`. */
void km_session_emit_failed(KmSession *session, const GError *error, KmReport *report);
/* From km_session_queue(): hold job, a change (km-session-guard.c). */
void km_session_hold_job(KmSession *session, KmJob *job);
/* From the worker: the incomplete property (and, when TRUE, empty lists). */
void km_session_post_incomplete(KmSession *session, gboolean incomplete);
/* On the worker: close the library and the source, whatever their state (a failed one: let go). */
void km_worker_shutdown(KmSession *session);

/*
 * A job is built by its caller on the main context, as GNOME Software's
 * gs_worker_thread_queue() takes a task its caller made: the GTask (the
 * session as its source object, the cancellable, the callback and the source
 * tag), then what the job needs, then km_session_queue(). The job owns task
 * and is freed with it.
 */
KmJob *km_job_new(GTask *task, KmJobFunc run, KmJobFlags flags);
/* data is freed with free_data on the main context, when the task is. */
void km_job_set_data(KmJob *job, gpointer data, GDestroyNotify free_data);
/* progress (may be NULL: progress_notify is called at once) gets the job's merged progress. */
void km_job_set_progress(KmJob *job, KmProgressCallback progress, gpointer progress_data,
			 GDestroyNotify progress_notify);
/* Hand job to the worker (or hold it, a change while changes are held). */
void km_session_queue(KmSession *session, KmJob *job);
/* Whether result is session's task with source_tag (for a _finish's g_return_val_if_fail). */
gboolean km_session_result_is_valid(KmSession *session, GAsyncResult *result,
				    gpointer source_tag);
/*
 * The _finish of a job that ends with a KmReport (add, export): the report,
 * also when the job stopped early, with a copy of the report's error in error.
 */
KmReport *km_session_report_finish(KmSession *session, GAsyncResult *result,
				   gpointer source_tag, GError **error);

/*
 * Worker side. km_worker_library() is the one way to the library: it asserts
 * that the caller is the worker thread (and counts calls, for the test that
 * checks it).
 */
KmLibrary *km_worker_library(KmSession *session);
void km_worker_report(KmJob *job, const KmProgress *progress);
/*
 * A copying job's progress (add, export): file index begins (name is
 * taken), then `done` bytes of it are copied; bytes_before are those of the
 * files copied before it.
 */
void km_worker_report_file(KmJob *job, KmProgress *progress, char *name, guint index,
			   guint64 size, guint64 bytes_before);
void km_worker_report_copied(KmJob *job, KmProgress *progress, guint64 bytes_before,
			     guint64 done);
/*
 * Or, before its copy, the file is being converted into format (a static
 * title): done_ms of its total_ms of audio.
 */
void km_worker_report_converting(KmJob *job, KmProgress *progress, guint64 done_ms,
				 guint64 total_ms, const char *format);
GCancellable *km_job_cancellable(KmJob *job);
/*
 * Whether error means the device is gone or failing; if so, the session
 * becomes failed (the `failed` signal, with the job's report) and every later
 * job fails.
 */
gboolean km_worker_check_device(KmJob *job, const GError *error);
/* The fid's object changed: its row goes out with the next publish. */
void km_worker_mark_dirty(KmSession *session, guint32 fid);
/* Commit tx (consumed) and publish what changed; a failure makes the session failed. */
gboolean km_worker_commit(KmJob *job, KmTransaction *tx, GError **error);
/* Send the changed rows (or, all, the whole library) and the capacity to the lists. */
void km_worker_publish(KmSession *session, gboolean all);
/* Run an edit: begin, fn, commit; returns through the task. */
typedef gboolean (*KmEditFunc)(KmJob *job, KmTransaction *tx, GError **error);
void km_worker_run_edit(KmJob *job, KmEditFunc fn);

/* Main side: the lists after a publish (km-session-lists.c). */
typedef struct {
	guint32 fid;
	char *name;
	GArray *fids;		/* guint32: the entries */
	GArray *resolved;	/* gboolean: entry i names a tune that is there */
} KmListPlaylist;

typedef struct {
	KmSession *session;	/* a reference, until queued */
	gboolean all;		/* tracks holds every track: replace the list */
	GPtrArray *tracks;	/* KmTrack* changed or added, ascending fid */
	guint n_put;		/* all: how many of tracks are in the list so far */
	GArray *removed;	/* guint32 fids gone, ascending */
	GPtrArray *playlists;	/* KmListPlaylist*: every playlist, ascending fid */
	guint64 total_bytes;
	guint64 free_bytes;
} KmListUpdate;
KmListUpdate *km_list_update_new(KmSession *session, gboolean all);
void km_list_update_free(KmListUpdate *update);
/* Moves update's contents into the lists' queue, leaving update empty. */
void km_session_queue_update(KmSession *session, KmListUpdate *update);
/* Empty the lists and drop the updates not yet in (after close). */
void km_session_clear_lists(KmSession *session);
/* The capacity properties changed (km-session.c). */
void km_session_set_capacity(KmSession *session, guint64 total, guint64 free_bytes);

/*
 * For tests: the progress counts, how many library calls the worker made, and
 * how many jobs it has finished (counted before their results are posted).
 */
void km_session_get_debug_stats(KmSession *session, KmProgressStats *progress,
				guint *library_calls, guint *jobs_run);
/* For tests: the worker thread. */
GThread *km_session_get_worker_thread(KmSession *session);

G_END_DECLS

#endif
