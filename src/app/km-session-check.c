/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-check.c - whether opening found the player damaged (the
 * library's km_library_found_damage()): the player view shows a banner
 * then, leading to Check & Repair (km_session_verify_async()).
 */
#include "km-session-private.h"

static void found_damage_run(KmJob *job)
{
	km_job_return_boolean(job, km_library_found_damage(km_worker_library(job->session)));
}

void km_session_found_damage_async(KmSession *session, GCancellable *cancellable,
				   GAsyncReadyCallback callback, gpointer user_data)
{
	GTask *task;

	g_return_if_fail(KM_IS_SESSION(session));
	task = g_task_new(session, cancellable, callback, user_data);
	g_task_set_source_tag(task, km_session_found_damage_async);
	km_session_queue(session, km_job_new(task, found_damage_run, KM_JOB_NEEDS_LIBRARY));
}

gboolean km_session_found_damage_finish(KmSession *session, GAsyncResult *result,
					GError **error)
{
	g_return_val_if_fail(km_session_result_is_valid(session, result,
							km_session_found_damage_async), FALSE);
	return g_task_propagate_boolean(G_TASK(result), error);
}
