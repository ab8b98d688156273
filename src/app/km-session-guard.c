/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-guard.c - what keeps a player safe around its backups: which
 * player it is (serial, else name: the offer of a backup is made once per
 * player), the changes held until the user has answered that offer, and the
 * incomplete state an unfinished restore leaves.
 */
#include "km-session-private.h"

#include <string.h>

#include "km-session-backup.h"

/* An all-zero serial (every Karma's so far) tells nothing: none. */
void km_session_set_serial(KmSession *session, const char *serial)
{
	g_return_if_fail(KM_IS_SESSION(session));
	g_free(session->serial);
	session->serial = serial && serial[strspn(serial, "0")] ? g_strdup(serial) : NULL;
}

const char *km_session_get_player_id(KmSession *session)
{
	return session->serial ? session->serial : session->name;
}

void km_session_hold_changes(KmSession *session)
{
	g_return_if_fail(KM_IS_SESSION(session));
	session->holding_changes = TRUE;
}

/* From km_session_queue(): a change while they are held. */
void km_session_hold_job(KmSession *session, KmJob *job)
{
	g_queue_push_tail(&session->held, job);
	if (session->held.length == 1)
		g_signal_emit_by_name(session, "changes-held");
}

void km_session_release_changes(KmSession *session)
{
	KmJob *job;

	g_return_if_fail(KM_IS_SESSION(session));
	session->holding_changes = FALSE;
	while ((job = g_queue_pop_head(&session->held)))
		g_async_queue_push(session->queue, job);
}

gboolean km_session_is_holding_changes(KmSession *session)
{
	return session->holding_changes;
}

gboolean km_session_is_incomplete(KmSession *session)
{
	return session->incomplete;
}

typedef struct {
	KmSession *session;
	gboolean incomplete;
} IncompleteChange;

static gboolean incomplete_apply(gpointer data)
{
	IncompleteChange *change = data;
	KmSession *session = change->session;

	if (change->incomplete)
		km_session_clear_lists(session);
	if (session->incomplete != change->incomplete) {
		session->incomplete = change->incomplete;
		g_object_notify(G_OBJECT(session), "incomplete");
	}
	return G_SOURCE_REMOVE;
}

static void incomplete_change_free(gpointer data)
{
	IncompleteChange *change = data;

	g_object_unref(change->session);
	g_free(change);
}

void km_session_post_incomplete(KmSession *session, gboolean incomplete)
{
	IncompleteChange *change = g_new(IncompleteChange, 1);

	change->session = g_object_ref(session);
	change->incomplete = incomplete;
	km_session_post_to_main(session, incomplete_apply, change, incomplete_change_free);
}
