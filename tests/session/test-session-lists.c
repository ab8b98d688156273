/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-session-lists.c - how the session's track list takes what the worker
 * publishes (km-session-lists.c): a whole list of more tracks than one slice
 * goes in a slice per main-loop turn, other sources run between the slices,
 * an update that comes meanwhile waits behind it, and closing drops what
 * has not gone in. The updates are queued here, on an open session, as the
 * worker would post them.
 */
#include "session-test-util.h"

#include "km-demo.h"

#define N_WHOLE 2100		/* three slices: 1000, 1000, 100 */
#define FIRST_FID 1024
#define FID_STEP 16
#define N_TURNS_LIMIT 1000	/* the whole list must be in long before */

typedef struct {
	guint position, removed, added;
} Change;

static void record_change(GListModel *list, guint position, guint removed, guint added,
			  GArray *changes)
{
	Change change = { position, removed, added };

	g_array_append_val(changes, change);
}

static guint32 nth_fid(guint i)
{
	return FIRST_FID + i * FID_STEP;
}

static KmTrack *make_track(guint32 fid, const char *title)
{
	g_autoptr(KmProperties) props = km_properties_new();

	km_properties_set_fid(props, fid);
	km_properties_set(props, "type", "tune");
	km_properties_set(props, "title", title);
	return km_track_new(props);
}

/* Every track, N_WHOLE of them, as the first load publishes them. */
static KmListUpdate *whole_update(KmSession *session)
{
	KmListUpdate *update = km_list_update_new(session, TRUE);

	for (guint i = 0; i < N_WHOLE; i++) {
		g_autofree char *title = g_strdup_printf("Track %u", i);

		g_ptr_array_add(update->tracks, make_track(nth_fid(i), title));
	}
	update->total_bytes = 1000 << 20;
	update->free_bytes = 300 << 20;
	return update;
}

static void check_change(GArray *changes, guint i, guint position, guint removed, guint added)
{
	const Change *change = &g_array_index(changes, Change, i);

	g_assert_cmpuint(change->position, ==, position);
	g_assert_cmpuint(change->removed, ==, removed);
	g_assert_cmpuint(change->added, ==, added);
}

typedef struct {
	KmSession *session;
	guint n_tracks;		/* in the list when the source ran */
} Snapshot;

static gboolean take_snapshot(gpointer data)
{
	Snapshot *snapshot = data;

	snapshot->n_tracks = g_list_model_get_n_items(km_session_get_tracks(snapshot->session));
	return G_SOURCE_REMOVE;
}

static void wait_until_put(KmSession *session)
{
	guint turns = 0;

	while (session->updating && turns++ < N_TURNS_LIMIT)
		g_main_context_iteration(NULL, TRUE);
	g_assert_null(session->updating);
	g_assert_true(g_queue_is_empty(&session->updates));
}

static void test_slices(void)
{
	g_autofree char *image = su_demo_image();
	KmSession *session = su_open(image);
	GListModel *tracks = km_session_get_tracks(session);
	g_autoptr(GArray) changes = g_array_new(FALSE, FALSE, sizeof(Change));
	g_autoptr(GArray) fids = NULL;
	KmListUpdate *update;
	guint32 retitled = nth_fid(2050), removed = nth_fid(10);
	Snapshot snapshot = { session, G_MAXUINT };
	guint64 total_before = km_session_get_total_bytes(session);
	KmTrack *track;

	g_assert_cmpuint(g_list_model_get_n_items(tracks), ==, KM_DEMO_TRACKS);
	g_signal_connect(tracks, "items-changed", G_CALLBACK(record_change), changes);

	update = whole_update(session);
	km_session_queue_update(session, update);
	g_assert_null(update->tracks);	/* moved into the queue */
	km_list_update_free(update);
	/* the first slice at once, replacing the old list; the rest later */
	g_assert_cmpuint(changes->len, ==, 1);
	check_change(changes, 0, 0, KM_DEMO_TRACKS, 1000);
	g_assert_nonnull(session->updating);
	g_assert_cmpuint(km_session_get_total_bytes(session), ==, total_before);

	/* an edit published meanwhile: one track retitled, one removed */
	update = km_list_update_new(session, FALSE);
	g_ptr_array_add(update->tracks, make_track(retitled, "Retitled"));
	g_array_append_val(update->removed, removed);
	update->total_bytes = 1000 << 20;
	update->free_bytes = 299 << 20;
	km_session_queue_update(session, update);
	km_list_update_free(update);
	g_assert_cmpuint(changes->len, ==, 1);
	g_assert_nonnull(km_session_lookup_track(session, removed));

	/* a source queued now runs before the last slice: the loop is not held */
	g_idle_add_full(G_PRIORITY_DEFAULT, take_snapshot, &snapshot, NULL);
	wait_until_put(session);
	g_assert_cmpuint(snapshot.n_tracks, <, N_WHOLE);

	g_assert_cmpuint(changes->len, ==, 5);
	check_change(changes, 1, 1000, 0, 1000);
	check_change(changes, 2, 2000, 0, 100);
	check_change(changes, 3, 10, 1, 0);
	check_change(changes, 4, 2049, 1, 1);
	g_assert_cmpuint(g_list_model_get_n_items(tracks), ==, N_WHOLE - 1);
	fids = su_track_fids(session);
	for (guint i = 1; i < fids->len; i++)
		g_assert_cmpuint(g_array_index(fids, guint32, i - 1), <,
				 g_array_index(fids, guint32, i));
	g_assert_null(km_session_lookup_track(session, removed));
	track = km_session_lookup_track(session, retitled);
	g_assert_nonnull(track);
	g_assert_cmpstr(km_track_get_title(track), ==, "Retitled");
	g_assert_cmpuint(km_session_get_total_bytes(session), ==, 1000 << 20);
	g_assert_cmpuint(km_session_get_free_bytes(session), ==, 299 << 20);

	g_signal_handlers_disconnect_by_data(tracks, changes);
	su_close(session);
}

/* Closing while a whole list is going in drops the rest; the session is finalized. */
static void test_close_drops(void)
{
	g_autofree char *image = su_demo_image();
	KmSession *session = su_open(image);
	GListModel *tracks = km_session_get_tracks(session);
	KmListUpdate *update = whole_update(session);

	km_session_queue_update(session, update);
	km_list_update_free(update);
	g_assert_cmpuint(g_list_model_get_n_items(tracks), ==, 1000);
	/* su_close iterates until nothing is pending, and asserts the session finalized */
	g_object_ref(tracks);
	su_close(session);
	g_assert_cmpuint(g_list_model_get_n_items(tracks), ==, 0);
	g_object_unref(tracks);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/session-lists/slices", test_slices);
	g_test_add_func("/session-lists/close-drops", test_close_drops);
	return g_test_run();
}
