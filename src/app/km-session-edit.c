/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-edit.c - the session jobs that change the library without
 * copying files: remove tracks, set tags, edit playlists; and verify. Each
 * edit is one transaction (km_worker_run_edit()): all or nothing.
 */
#include "km-session-private.h"

#include <glib/gi18n.h>

#include "km-property-rules.h"
#include "km-verify.h"

/* What an edit job carries; each job uses the fields it needs. */
typedef struct {
	KmEditFunc fn;		/* the edit, in the job's transaction */
	GArray *fids;		/* guint32 */
	GArray *indexes;	/* guint */
	guint32 playlist;
	gint position;
	guint from, to;
	char *name;
	char *tags[6];		/* KmTagEdit's fields, in its order */
} Edit;

static void edit_free(gpointer data)
{
	Edit *edit = data;

	g_array_unref(edit->fids);
	g_array_unref(edit->indexes);
	g_free(edit->name);
	for (guint i = 0; i < G_N_ELEMENTS(edit->tags); i++)
		g_free(edit->tags[i]);
	g_free(edit);
}

static Edit *edit_new(const guint32 *fids, guint n_fids)
{
	Edit *edit = g_new0(Edit, 1);

	edit->fids = g_array_new(FALSE, FALSE, sizeof(guint32));
	edit->indexes = g_array_new(FALSE, FALSE, sizeof(guint));
	if (n_fids)
		g_array_append_vals(edit->fids, fids, n_fids);
	return edit;
}

static Edit *job_edit(KmJob *job)
{
	return job->data;
}

static guint32 edit_fid(Edit *edit, guint i)
{
	return g_array_index(edit->fids, guint32, i);
}

static void edit_run(KmJob *job)
{
	km_worker_run_edit(job, job_edit(job)->fn);
}

/* fn(edit) as a job whose result the source_tag's _finish gives. */
static void queue_edit(KmSession *session, KmEditFunc fn, Edit *edit, gpointer source_tag,
		       GCancellable *cancellable, GAsyncReadyCallback callback,
		       gpointer user_data)
{
	GTask *task;
	KmJob *job;

	edit->fn = fn;
	task = g_task_new(session, cancellable, callback, user_data);
	g_task_set_source_tag(task, source_tag);
	job = km_job_new(task, edit_run, KM_JOB_NEEDS_LIBRARY | KM_JOB_CHANGES);
	km_job_set_data(job, edit, edit_free);
	km_session_queue(session, job);
}

gboolean km_session_edit_finish(KmSession *session, GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(km_session_result_is_valid(session, result, km_session_edit_finish),
			     FALSE);
	return g_task_propagate_boolean(G_TASK(result), error);
}

/* remove */

static gboolean remove_tracks(KmJob *job, KmTransaction *tx, GError **error)
{
	Edit *edit = job_edit(job);

	for (guint i = 0; i < edit->fids->len; i++) {
		if (!km_transaction_remove(tx, edit_fid(edit, i), error))
			return FALSE;
		km_worker_mark_dirty(job->session, edit_fid(edit, i));
	}
	return TRUE;
}

void km_session_remove_async(KmSession *session, const guint32 *fids, guint n_fids,
			     GCancellable *cancellable, GAsyncReadyCallback callback,
			     gpointer user_data)
{
	g_return_if_fail(KM_IS_SESSION(session));
	queue_edit(session, remove_tracks, edit_new(fids, n_fids), km_session_edit_finish,
		   cancellable, callback, user_data);
}

/* tags */

static const char *const tag_keys[6] = { "title", "artist", "source", "genre", "year",
					 "tracknr" };

/*
 * The library's rules (km-property-rules.h), checked for every tag before
 * any track changes; the two a user types most often wrong say so in the
 * user's language.
 */
static gboolean check_tag(const char *key, const char *value, GError **error)
{
	if (!value || !*value || km_property_check(key, value, NULL))
		return TRUE;
	if (g_str_equal(key, "year"))
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID,
			    _("“%s” is no year: four digits, please"), value);
	else if (g_str_equal(key, "tracknr"))
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID,
			    _("“%s” is no track number: 1 to 255, please"), value);
	else
		km_property_check(key, value, error);
	return FALSE;
}

static gboolean set_tags(KmJob *job, KmTransaction *tx, GError **error)
{
	Edit *edit = job_edit(job);

	for (guint k = 0; k < G_N_ELEMENTS(tag_keys); k++)
		if (!check_tag(tag_keys[k], edit->tags[k], error))
			return FALSE;
	for (guint i = 0; i < edit->fids->len; i++) {
		for (guint k = 0; k < G_N_ELEMENTS(tag_keys); k++) {
			const char *value = edit->tags[k];
			guint32 fid = edit_fid(edit, i);

			if (value && !km_transaction_set_property(tx, fid, tag_keys[k],
								  *value ? value : NULL, error))
				return FALSE;
		}
		km_worker_mark_dirty(job->session, edit_fid(edit, i));
	}
	return TRUE;
}

void km_session_set_tags_async(KmSession *session, const guint32 *fids, guint n_fids,
			       const KmTagEdit *tags, GCancellable *cancellable,
			       GAsyncReadyCallback callback, gpointer user_data)
{
	Edit *edit;

	g_return_if_fail(KM_IS_SESSION(session));
	g_return_if_fail(tags != NULL);
	edit = edit_new(fids, n_fids);
	edit->tags[0] = g_strdup(tags->title);
	edit->tags[1] = g_strdup(tags->artist);
	edit->tags[2] = g_strdup(tags->album);
	edit->tags[3] = g_strdup(tags->genre);
	edit->tags[4] = g_strdup(tags->year);
	edit->tags[5] = g_strdup(tags->track_number);
	queue_edit(session, set_tags, edit, km_session_edit_finish, cancellable, callback,
		   user_data);
}

/* playlists: the lists are republished after every commit, so nothing is marked dirty */

static gboolean playlist_create(KmJob *job, KmTransaction *tx, GError **error)
{
	Edit *edit = job_edit(job);

	return km_transaction_playlist_create(tx, edit->name, &edit->playlist, error);
}

void km_session_playlist_create_async(KmSession *session, const char *name,
				      GCancellable *cancellable, GAsyncReadyCallback callback,
				      gpointer user_data)
{
	Edit *edit;

	g_return_if_fail(KM_IS_SESSION(session));
	edit = edit_new(NULL, 0);
	edit->name = g_strdup(name);
	queue_edit(session, playlist_create, edit, km_session_playlist_create_async, cancellable,
		   callback, user_data);
}

gboolean km_session_playlist_create_finish(KmSession *session, GAsyncResult *result,
					   guint32 *fid, GError **error)
{
	KmJob *job;

	g_return_val_if_fail(km_session_result_is_valid(session, result,
							km_session_playlist_create_async),
			     FALSE);
	if (!g_task_propagate_boolean(G_TASK(result), error))
		return FALSE;
	job = g_task_get_task_data(G_TASK(result));
	if (fid)
		*fid = job_edit(job)->playlist;
	return TRUE;
}

static gboolean playlist_rename(KmJob *job, KmTransaction *tx, GError **error)
{
	Edit *edit = job_edit(job);

	return km_transaction_playlist_rename(tx, edit->playlist, edit->name, error);
}

void km_session_playlist_rename_async(KmSession *session, guint32 playlist, const char *name,
				      GCancellable *cancellable, GAsyncReadyCallback callback,
				      gpointer user_data)
{
	Edit *edit;

	g_return_if_fail(KM_IS_SESSION(session));
	edit = edit_new(NULL, 0);
	edit->playlist = playlist;
	edit->name = g_strdup(name);
	queue_edit(session, playlist_rename, edit, km_session_edit_finish, cancellable, callback,
		   user_data);
}

static gboolean playlist_delete(KmJob *job, KmTransaction *tx, GError **error)
{
	return km_transaction_playlist_delete(tx, job_edit(job)->playlist, error);
}

void km_session_playlist_delete_async(KmSession *session, guint32 playlist,
				      GCancellable *cancellable, GAsyncReadyCallback callback,
				      gpointer user_data)
{
	Edit *edit;

	g_return_if_fail(KM_IS_SESSION(session));
	edit = edit_new(NULL, 0);
	edit->playlist = playlist;
	queue_edit(session, playlist_delete, edit, km_session_edit_finish, cancellable, callback,
		   user_data);
}

static gboolean playlist_add(KmJob *job, KmTransaction *tx, GError **error)
{
	Edit *edit = job_edit(job);

	for (guint i = 0; i < edit->fids->len; i++) {
		gint position = edit->position < 0 ? -1 : edit->position + (gint)i;

		if (!km_transaction_playlist_insert(tx, edit->playlist, edit_fid(edit, i),
						    position, error))
			return FALSE;
	}
	return TRUE;
}

void km_session_playlist_add_async(KmSession *session, guint32 playlist, const guint32 *fids,
				   guint n_fids, gint position, GCancellable *cancellable,
				   GAsyncReadyCallback callback, gpointer user_data)
{
	Edit *edit;

	g_return_if_fail(KM_IS_SESSION(session));
	edit = edit_new(fids, n_fids);
	edit->playlist = playlist;
	edit->position = position;
	queue_edit(session, playlist_add, edit, km_session_edit_finish, cancellable, callback,
		   user_data);
}

static gint compare_desc(gconstpointer a, gconstpointer b)
{
	guint x = *(const guint *)a, y = *(const guint *)b;

	return x > y ? -1 : x < y;
}

/* From the last index down, so that each index still means what the caller meant. */
static gboolean playlist_remove(KmJob *job, KmTransaction *tx, GError **error)
{
	Edit *edit = job_edit(job);

	g_array_sort(edit->indexes, compare_desc);
	for (guint i = 0; i < edit->indexes->len; i++) {
		guint index = g_array_index(edit->indexes, guint, i);

		if (i > 0 && index == g_array_index(edit->indexes, guint, i - 1))
			continue;
		if (!km_transaction_playlist_remove_at(tx, edit->playlist, index, error))
			return FALSE;
	}
	return TRUE;
}

void km_session_playlist_remove_async(KmSession *session, guint32 playlist,
				      const guint *indexes, guint n_indexes,
				      GCancellable *cancellable, GAsyncReadyCallback callback,
				      gpointer user_data)
{
	Edit *edit;

	g_return_if_fail(KM_IS_SESSION(session));
	edit = edit_new(NULL, 0);
	edit->playlist = playlist;
	if (n_indexes)
		g_array_append_vals(edit->indexes, indexes, n_indexes);
	queue_edit(session, playlist_remove, edit, km_session_edit_finish, cancellable, callback,
		   user_data);
}

static gboolean playlist_move(KmJob *job, KmTransaction *tx, GError **error)
{
	Edit *edit = job_edit(job);

	return km_transaction_playlist_move(tx, edit->playlist, edit->from, edit->to, error);
}

void km_session_playlist_move_async(KmSession *session, guint32 playlist, guint from, guint to,
				    GCancellable *cancellable, GAsyncReadyCallback callback,
				    gpointer user_data)
{
	Edit *edit;

	g_return_if_fail(KM_IS_SESSION(session));
	edit = edit_new(NULL, 0);
	edit->playlist = playlist;
	edit->from = from;
	edit->to = to;
	queue_edit(session, playlist_move, edit, km_session_edit_finish, cancellable, callback,
		   user_data);
}

/* verify */

static void verify_run(KmJob *job)
{
	gboolean repair = GPOINTER_TO_INT(job->data);
	GError *error = NULL;
	KmVerifyReport *report;

	/* the file system too, as karmactl fsck: what verify reads stands on it */
	report = km_library_verify(km_worker_library(job->session),
				   KM_VERIFY_FLAG_FILE_SYSTEM |
				   (repair ? KM_VERIFY_FLAG_REPAIR : KM_VERIFY_FLAGS_NONE),
				   km_job_cancellable(job), &error);
	if (!report) {
		km_worker_check_device(job, error);
		km_job_return_error(job, error);
		return;
	}
	if (repair)
		km_worker_publish(job->session, TRUE);
	km_job_return_pointer(job, report, (GDestroyNotify)km_verify_report_free);
}

void km_session_verify_async(KmSession *session, gboolean repair, GCancellable *cancellable,
			     GAsyncReadyCallback callback, gpointer user_data)
{
	GTask *task;
	KmJob *job;

	g_return_if_fail(KM_IS_SESSION(session));
	/* a repair writes: held like any change */
	task = g_task_new(session, cancellable, callback, user_data);
	g_task_set_source_tag(task, km_session_verify_async);
	job = km_job_new(task, verify_run,
			 KM_JOB_NEEDS_LIBRARY | (repair ? KM_JOB_CHANGES : KM_JOB_NONE));
	km_job_set_data(job, GINT_TO_POINTER(repair), NULL);
	km_session_queue(session, job);
}

KmVerifyReport *km_session_verify_finish(KmSession *session, GAsyncResult *result,
					 GError **error)
{
	g_return_val_if_fail(km_session_result_is_valid(session, result,
							km_session_verify_async), NULL);
	return g_task_propagate_pointer(G_TASK(result), error);
}
