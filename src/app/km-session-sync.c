/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-sync.c - the plan of a sync of a folder (km-sync.h) made on
 * the worker, converting as an add queued now would; running it is a
 * removal and an add, the jobs the view has.
 */
#include "km-session-private.h"

#include <glib/gi18n.h>

#include "km-sync.h"

typedef struct {
	char *folder;		/* NULL: not a local folder */
	gboolean converts;	/* the session's conversion when the job was queued */
	KmConvertSettings convert;
} PlanJob;

static void plan_job_free(gpointer data)
{
	PlanJob *plan = data;

	g_free(plan->folder);
	g_free(plan);
}

/* Folders the walk cannot read are left out of the plan, as files it cannot play are. */
static void ignore_problem(const char *path, guint root, gboolean is_root, KmWalkProblem problem,
			   const char *message, gpointer data)
{
}

static void plan_run(KmJob *job)
{
	PlanJob *data = job->data;
	const char *folder = data->folder;
	GError *error = NULL;
	KmSyncPlan *plan = NULL;

	if (!folder)
		error = g_error_new_literal(G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
					    _("Only a folder on this computer can be synced"));
	else
		plan = km_library_plan_sync(km_worker_library(job->session), &folder, 1,
					    data->converts ? &data->convert : NULL,
					    km_job_cancellable(job), ignore_problem, NULL, NULL,
					    &error);
	if (plan)
		km_job_return_pointer(job, plan, (GDestroyNotify)km_sync_plan_free);
	else
		km_job_return_error(job, error);
}

void km_session_plan_sync_async(KmSession *session, GFile *folder, GCancellable *cancellable,
				GAsyncReadyCallback callback, gpointer user_data)
{
	PlanJob *data;
	GTask *task;
	KmJob *job;

	g_return_if_fail(KM_IS_SESSION(session));
	g_return_if_fail(G_IS_FILE(folder));
	data = g_new0(PlanJob, 1);
	data->folder = g_file_get_path(folder);
	/* copied now: the worker never reads the session's */
	data->converts = km_session_get_conversion(session, &data->convert);
	task = g_task_new(session, cancellable, callback, user_data);
	g_task_set_source_tag(task, km_session_plan_sync_async);
	job = km_job_new(task, plan_run, KM_JOB_NEEDS_LIBRARY);
	km_job_set_data(job, data, plan_job_free);
	km_session_queue(session, job);
}

KmSyncPlan *km_session_plan_sync_finish(KmSession *session, GAsyncResult *result,
					GError **error)
{
	g_return_val_if_fail(km_session_result_is_valid(session, result,
							km_session_plan_sync_async), NULL);
	return g_task_propagate_pointer(G_TASK(result), error);
}
