/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-plays.c - the session job that writes the plays the player
 * counted to a scrobbler log (km-plays.h): a reader, so it runs while
 * changes are held.
 */
#define G_LOG_DOMAIN "km-session"

#include "config.h"

#include "km-session-private.h"
#include "km-session.h"

typedef struct {
	char *ledger;
	char *log;
} PlaysJob;

static void plays_job_free(PlaysJob *p)
{
	g_free(p->ledger);
	g_free(p->log);
	g_free(p);
}

static void plays_run(KmJob *job)
{
	PlaysJob *p = job->data;
	KmPlaysResult result;
	GError *error = NULL;

	if (km_plays_export(km_worker_library(job->session), p->ledger, p->log,
			    "Karma Manager " PACKAGE_VERSION, NULL, &result, &error))
		km_job_return_pointer(job, g_memdup2(&result, sizeof result), g_free);
	else
		km_job_return_error(job, error);
}

void km_session_export_plays_async(KmSession *session, GFile *log, GCancellable *cancellable,
				   GAsyncReadyCallback callback, gpointer user_data)
{
	PlaysJob *p = g_new0(PlaysJob, 1);
	GTask *task;
	KmJob *job;

	g_return_if_fail(KM_IS_SESSION(session));
	g_return_if_fail(G_IS_FILE(log));
	p->ledger = km_plays_ledger_path(km_session_get_player_id(session));
	p->log = g_file_get_path(log);
	task = g_task_new(session, cancellable, callback, user_data);
	g_task_set_source_tag(task, km_session_export_plays_async);
	job = km_job_new(task, plays_run, KM_JOB_NEEDS_LIBRARY);
	km_job_set_data(job, p, (GDestroyNotify)plays_job_free);
	km_session_queue(session, job);
}

gboolean km_session_export_plays_finish(KmSession *session, GAsyncResult *result,
					KmPlaysResult *plays, GError **error)
{
	g_autofree KmPlaysResult *r = NULL;

	g_return_val_if_fail(km_session_result_is_valid(session, result,
							km_session_export_plays_async), FALSE);
	r = g_task_propagate_pointer(G_TASK(result), error);
	if (r)
		*plays = *r;
	return r != NULL;
}
