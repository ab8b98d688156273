/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-session.c - KmSession on real images through its real worker: the
 * demo player, adding files (the list growing on the main thread, duplicates,
 * unsupported files, folders), cancel in the middle, a full player, jobs
 * before open, the worker-only check, and finalization.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "session-test-util.h"
#include "omfs.h"

#include <string.h>
#include <unistd.h>

#include "km-demo.h"
#include "km-image-device.h"

static GThread *main_thread;

/* ---- the demo player ---------------------------------------------------- */

static void count_progress(KmSession *session, const KmProgress *progress, gpointer data)
{
	g_assert_true(g_thread_self() == main_thread);
	(*(guint *)data)++;
}

static void test_demo(void)
{
	g_autofree char *cache = su_tmp_path("cache");
	g_autofree char *image = g_build_filename(cache, "karma-manager", "demo-karma.img", NULL);
	KmSession *session = km_session_new_demo(cache);
	g_autoptr(GAsyncResult) result = NULL;
	g_autoptr(GError) error = NULL;
	guint progress_calls = 0;
	GListModel *tracks = km_session_get_tracks(session);

	g_assert_cmpstr(km_session_get_name(session), ==, "Demo Player");
	g_assert_cmpint(km_session_get_state(session), ==, KM_SESSION_STATE_NEW);
	km_session_open_async(session, count_progress, &progress_calls, NULL, NULL,
			      su_store_result, &result);
	g_assert_cmpint(km_session_get_state(session), ==, KM_SESSION_STATE_OPENING);
	g_assert_true(km_session_is_busy(session));
	g_assert_true(km_session_open_finish(session, su_wait(&result), &error));
	g_assert_no_error(error);
	g_assert_false(km_session_is_busy(session));
	g_assert_cmpint(km_session_get_state(session), ==, KM_SESSION_STATE_OPEN);
	g_assert_true(g_file_test(image, G_FILE_TEST_IS_REGULAR));
	g_assert_cmpuint(progress_calls, >=, 1);
	g_assert_cmpuint(g_list_model_get_n_items(tracks), ==, KM_DEMO_TRACKS);
	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_playlists(session)), ==, 0);
	g_assert_cmpuint(km_session_get_total_bytes(session), >, 200u << 20);
	g_assert_cmpuint(km_session_get_free_bytes(session), >, 0);
	g_assert_cmpuint(km_session_get_used_bytes(session) + km_session_get_free_bytes(session),
			 ==, km_session_get_total_bytes(session));
	for (guint i = 0; i < KM_DEMO_TRACKS; i++) {
		g_autoptr(KmTrack) track = g_list_model_get_item(tracks, i);

		g_assert_true(km_session_lookup_track(session, km_track_get_fid(track)) == track);
		g_assert_cmpstr(km_track_get_codec(track), ==, "wave");
		g_assert_cmpuint(km_track_get_bitrate_kbps(track), >, 0);
		g_assert_cmpuint(km_track_get_duration(track), >, 0);
		g_assert_cmpuint(km_track_get_size(track), >, 128);
		g_assert_cmpstr(km_track_get_title(track), !=, "");
		g_assert_nonnull(km_properties_get(km_track_get_properties(track), "rid"));
	}
	g_clear_object(&result);
	su_close(session);

	/* The second time the image is there: opened, not made again. */
	progress_calls = 0;
	g_clear_object(&result);
	session = km_session_new_demo(cache);
	km_session_open_async(session, count_progress, &progress_calls, NULL, NULL,
			      su_store_result, &result);
	g_assert_true(km_session_open_finish(session, su_wait(&result), &error));
	g_assert_no_error(error);
	g_assert_cmpuint(progress_calls, ==, 0);
	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_tracks(session)), ==,
			 KM_DEMO_TRACKS);
	g_clear_object(&result);
	su_close(session);
}

/* ---- adding files -------------------------------------------------------- */

typedef struct {
	guint added;		/* items added, over all items-changed */
	guint removed;
	guint signals;
	guint adding_signals;	/* signals that added items */
} Changes;

static void on_items_changed(GListModel *list, guint position, guint removed, guint added,
			     gpointer data)
{
	Changes *changes = data;

	g_assert_true(g_thread_self() == main_thread);
	changes->signals++;
	changes->removed += removed;
	changes->added += added;
	if (added > removed)
		changes->adding_signals++;
}

static void count_notify(gpointer data)
{
	g_assert_true(g_thread_self() == main_thread);
	(*(guint *)data)++;
}

static void test_add(void)
{
	g_autofree char *image = su_demo_image();
	KmSession *session = su_open(image);
	GListModel *tracks = km_session_get_tracks(session);
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) report = NULL;
	g_autoptr(GArray) fids = NULL;
	Changes changes = { 0 };
	guint free_notifies = 0;
	guint64 free_before = km_session_get_free_bytes(session);
	guint n_tunes;

	for (guint i = 0; i < 20; i++)
		g_ptr_array_add(paths, su_demo_wav(NULL, 100 + i));
	g_signal_connect(tracks, "items-changed", G_CALLBACK(on_items_changed), &changes);
	g_signal_connect_swapped(session, "notify::free-bytes", G_CALLBACK(count_notify),
				 &free_notifies);
	report = su_add(session, (char **)paths->pdata, paths->len, KM_ADD_FLAGS_NONE, &error);
	g_assert_no_error(error);
	g_assert_nonnull(report);
	g_assert_null(report->error);
	g_assert_cmpuint(report->counts[KM_ITEM_DONE], ==, 20);
	g_assert_cmpuint(report->items->len, ==, 20);
	g_assert_cmpuint(g_list_model_get_n_items(tracks), ==, KM_DEMO_TRACKS + 20);
	/*
	 * Incremental: each new track added once, nothing removed, in batches
	 * (the first once it holds half the library's objects, km-session-add.c).
	 */
	g_assert_cmpuint(changes.added, ==, 20);
	g_assert_cmpuint(changes.removed, ==, 0);
	g_assert_cmpuint(changes.adding_signals, >=, 2);
	g_assert_cmpuint(km_session_get_free_bytes(session), <, free_before);
	/* The capacity follows each batch's commit. */
	g_assert_cmpuint(free_notifies, >=, 2);
	g_signal_handlers_disconnect_by_data(session, &free_notifies);
	for (guint i = 0; i < report->items->len; i++) {
		KmReportItem *item = report->items->pdata[i];

		g_assert_nonnull(km_session_lookup_track(session, item->fid));
	}
	fids = su_track_fids(session);
	for (guint i = 1; i < fids->len; i++)
		g_assert_cmpuint(g_array_index(fids, guint32, i - 1), <,
				 g_array_index(fids, guint32, i));
	g_signal_handlers_disconnect_by_data(tracks, &changes);
	su_close(session);
	g_assert_cmpuint(su_verify_image(image, &n_tunes), ==, KM_DEMO_TRACKS + 20);
	g_assert_cmpuint(n_tunes, ==, KM_DEMO_TRACKS + 20);
}

static const KmReportItem *find_item(KmReport *report, const char *path)
{
	for (guint i = 0; i < report->items->len; i++) {
		KmReportItem *item = report->items->pdata[i];
		g_autofree char *item_path = item->file ? g_file_get_path(item->file) : NULL;

		if (g_strcmp0(item_path, path) == 0)
			return item;
	}
	g_assert_not_reached();
}

/* An MP3 made by lame: its tags reach the KmTrack the list shows. */
static void test_add_mp3(void)
{
	g_autofree char *lame = g_find_program_in_path("lame");
	g_autofree char *image = NULL, *wav = NULL, *mp3 = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) report = NULL;
	KmSession *session;
	KmTrack *track;
	int status;

	if (!lame) {
		g_test_skip("lame is not installed");
		return;
	}
	wav = su_big_wav("source.wav", 44100 * 4 * 2, 77);
	mp3 = su_tmp_path("song.mp3");
	g_spawn_sync(NULL, (char *[]){ lame, (char *)"--quiet", (char *)"-b", (char *)"128",
				       (char *)"--tt", (char *)"Sóng", (char *)"--ta",
				       (char *)"Ártist", (char *)"--tl", (char *)"Álbum",
				       (char *)"--ty", (char *)"2005", (char *)"--tn",
				       (char *)"4", wav, mp3, NULL },
		     NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error);
	g_assert_no_error(error);
	g_assert_true(g_spawn_check_wait_status(status, NULL));
	image = su_demo_image();
	session = su_open(image);
	report = su_add(session, &mp3, 1, KM_ADD_FLAGS_NONE, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(report->counts[KM_ITEM_DONE], ==, 1);
	track = km_session_lookup_track(session, ((KmReportItem *)report->items->pdata[0])->fid);
	g_assert_nonnull(track);
	g_assert_cmpstr(km_track_get_codec(track), ==, "mp3");
	g_assert_cmpstr(km_track_get_bitrate(track), ==, "fs128");
	g_assert_cmpuint(km_track_get_bitrate_kbps(track), ==, 128);
	g_assert_cmpstr(km_track_get_title(track), ==, "Sóng");
	g_assert_cmpstr(km_track_get_artist(track), ==, "Ártist");
	g_assert_cmpstr(km_track_get_album(track), ==, "Álbum");
	g_assert_cmpuint(km_track_get_year(track), ==, 2005);
	g_assert_cmpuint(km_track_get_track_number(track), ==, 4);
	g_assert_cmpuint(km_track_get_duration(track), >=, 1900);
	g_assert_cmpuint(km_track_get_duration(track), <=, 2100);
	su_close(session);
}

/* Duplicates skipped with a reason (or copied on request), text refused, folders walked. */
static void test_add_skips(void)
{
	g_autofree char *image = su_demo_image();
	KmSession *session = su_open(image);
	g_autofree char *folder = su_tmp_path("music");
	g_autofree char *sub = g_build_filename(folder, "sub", NULL);
	g_autofree char *hidden = g_build_filename(folder, ".hidden.wav", NULL);
	g_autofree char *text = su_text_file("notes.txt");
	g_autofree char *dup = su_demo_wav(NULL, 0);	/* the demo has track 0 */
	g_autofree char *in_folder = NULL, *in_sub = NULL;
	char *paths[3] = { folder, text, dup };
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) report = NULL;
	g_autoptr(KmReport) again = NULL;
	const KmReportItem *item;

	g_assert_cmpint(g_mkdir_with_parents(sub, 0755), ==, 0);
	in_folder = su_demo_wav(folder, 200);
	in_sub = su_demo_wav(sub, 201);
	g_assert_true(g_file_set_contents(hidden, "not music", -1, NULL));
	report = su_add(session, paths, 3, KM_ADD_FLAGS_NONE, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(report->counts[KM_ITEM_DONE], ==, 2);
	g_assert_cmpuint(report->counts[KM_ITEM_UNSUPPORTED], ==, 1);
	g_assert_cmpuint(report->counts[KM_ITEM_DUPLICATE], ==, 1);
	g_assert_cmpuint(report->items->len, ==, 4);
	item = find_item(report, text);
	g_assert_cmpint(item->outcome, ==, KM_ITEM_UNSUPPORTED);
	g_assert_nonnull(strstr(item->reason, "notes.txt"));
	item = find_item(report, dup);
	g_assert_cmpint(item->outcome, ==, KM_ITEM_DUPLICATE);
	g_assert_nonnull(strstr(item->reason, "Already on the player"));
	g_assert_cmpint(find_item(report, in_sub)->outcome, ==, KM_ITEM_DONE);
	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_tracks(session)), ==,
			 KM_DEMO_TRACKS + 2);

	/* The same again: everything is a duplicate now; unless copying is asked for. */
	again = su_add(session, paths, 3, KM_ADD_FLAGS_NONE, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(again->counts[KM_ITEM_DUPLICATE], ==, 3);
	g_assert_cmpuint(again->counts[KM_ITEM_DONE], ==, 0);
	g_clear_pointer(&again, km_report_unref);
	again = su_add(session, &dup, 1, KM_ADD_COPY_DUPLICATES, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(again->counts[KM_ITEM_DONE], ==, 1);
	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_tracks(session)), ==,
			 KM_DEMO_TRACKS + 3);
	su_close(session);
}

/*
 * Issue 16: a folder reached twice (named twice, and through a link to it)
 * is walked once, so each of its files is copied once even when copies of
 * duplicates are asked for.
 */
static void test_add_folder_once(void)
{
	g_autofree char *image = su_demo_image();
	KmSession *session = su_open(image);
	g_autofree char *folder = su_tmp_path("twice");
	g_autofree char *link = su_tmp_path("twice-link");
	g_autofree char *in_folder = NULL;
	char *paths[3] = { folder, link, folder };
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) report = NULL;

	g_assert_cmpint(g_mkdir_with_parents(folder, 0755), ==, 0);
	g_assert_cmpint(symlink(folder, link), ==, 0);
	in_folder = su_demo_wav(folder, 210);
	report = su_add(session, paths, 3, KM_ADD_COPY_DUPLICATES, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(report->counts[KM_ITEM_DONE], ==, 1);
	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_tracks(session)), ==,
			 KM_DEMO_TRACKS + 1);
	su_close(session);
}

/*
 * Issue 16: KM_SIM_FAULTS reaches the demo player: an unknown switch fails
 * the open, saying so; a cable pulled at the first write fails the session.
 */
static void test_demo_faults(void)
{
	g_autofree char *cache = su_tmp_path("cache-faults");
	g_autoptr(GAsyncResult) result = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) fids = NULL;
	const KmTagEdit edit = { .title = "Never" };
	KmSession *session;

	g_setenv("KM_SIM_FAULTS", "nonsense", TRUE);
	session = km_session_new_demo(cache);
	g_assert_false(su_open_session(session, &error));
	g_assert_nonnull(error);
	g_assert_nonnull(strstr(error->message, "no fault switch 'nonsense'"));
	g_clear_error(&error);
	su_close(session);

	g_setenv("KM_SIM_FAULTS", "unplug-after-writes=1", TRUE);
	session = km_session_new_demo(cache);
	g_assert_true(su_open_session(session, &error));
	g_assert_no_error(error);
	fids = su_track_fids(session);
	km_session_set_tags_async(session, (guint32 *)(void *)fids->data, 1, &edit, NULL,
				  su_store_result, &result);
	g_assert_false(su_edit_wait(session, &result, &error));
	g_assert_nonnull(error);
	g_assert_cmpint(km_session_get_state(session), ==, KM_SESSION_STATE_FAILED);
	su_close(session);
	g_unsetenv("KM_SIM_FAULTS");
}

/* ---- cancel in the middle ------------------------------------------------ */

/*
 * Six 3 MiB files; the device stops the worker in the middle of the second
 * (5 MiB written), the job is cancelled there. The first file is complete:
 * it is committed; the second is rolled back; the rest never start. A job
 * queued behind it then runs as usual.
 */
static void test_add_cancel(void)
{
	g_autofree char *image = su_demo_image();
	SuGate *gate;
	KmSession *session = su_gate_session(image, &gate);
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_object_unref);
	g_autoptr(GCancellable) cancellable = g_cancellable_new();
	g_autoptr(GAsyncResult) result = NULL, next_result = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) report = NULL, next = NULL;
	guint n_tunes;

	g_assert_true(su_open_session(session, &error));
	g_assert_no_error(error);
	for (guint i = 0; i < 6; i++) {
		g_autofree char *path = su_big_wav("big.wav", 3u << 20, i + 1);

		g_ptr_array_add(files, g_file_new_for_path(path));
	}
	su_gate_arm(gate, 5u << 20);
	km_session_add_files_async(session, (GFile *const *)files->pdata, files->len, NULL,
				   KM_ADD_FLAGS_NONE, NULL, NULL, NULL, cancellable,
				   su_store_result, &result);
	/* Queued behind it, not cancelled: it runs as usual. */
	km_session_add_files_async(session, (GFile *const *)files->pdata, 2, NULL,
				   KM_ADD_FLAGS_NONE, NULL, NULL, NULL, NULL, su_store_result,
				   &next_result);
	su_gate_wait(gate);
	g_cancellable_cancel(cancellable);
	su_gate_release(gate);
	report = km_session_add_files_finish(session, su_wait(&result), &error);
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
	g_clear_error(&error);
	g_assert_nonnull(report);
	g_assert_error(report->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
	g_assert_cmpuint(report->counts[KM_ITEM_DONE], ==, 1);
	g_assert_cmpuint(report->counts[KM_ITEM_CANCELLED], ==, 5);
	g_assert_cmpuint(report->items->len, ==, 6);
	/* The next job: the first file is there now, the second is added. */
	next = km_session_add_files_finish(session, su_wait(&next_result), &error);
	g_assert_no_error(error);
	g_assert_cmpuint(next->counts[KM_ITEM_DUPLICATE], ==, 1);
	g_assert_cmpuint(next->counts[KM_ITEM_DONE], ==, 1);
	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_tracks(session)), ==,
			 KM_DEMO_TRACKS + 2);
	g_clear_object(&result);
	g_clear_object(&next_result);
	su_close(session);
	/* Only the committed file is there, and nothing of the cancelled one. */
	g_assert_cmpuint(su_verify_image(image, &n_tunes), ==, KM_DEMO_TRACKS + 2);
	g_assert_cmpuint(n_tunes, ==, KM_DEMO_TRACKS + 2);
}

/* Cancelling one item skips it; the rest of the job goes on. */
static void test_add_cancel_item(void)
{
	g_autofree char *image = su_demo_image();
	KmSession *session = su_open(image);
	g_autofree char *a = su_demo_wav(NULL, 300), *b = su_demo_wav(NULL, 301);
	g_autofree char *c = su_demo_wav(NULL, 302);
	GFile *files[3];
	GCancellable *items[3] = { NULL, g_cancellable_new(), NULL };
	g_autoptr(GAsyncResult) result = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) report = NULL;

	files[0] = g_file_new_for_path(a);
	files[1] = g_file_new_for_path(b);
	files[2] = g_file_new_for_path(c);
	g_cancellable_cancel(items[1]);
	km_session_add_files_async(session, files, 3, items, KM_ADD_FLAGS_NONE, NULL, NULL, NULL,
				   NULL, su_store_result, &result);
	report = km_session_add_files_finish(session, su_wait(&result), &error);
	g_assert_no_error(error);
	g_assert_cmpuint(report->counts[KM_ITEM_DONE], ==, 2);
	g_assert_cmpint(find_item(report, b)->outcome, ==, KM_ITEM_CANCELLED);
	for (guint i = 0; i < 3; i++)
		g_object_unref(files[i]);
	g_object_unref(items[1]);
	g_clear_object(&result);
	su_close(session);
}

/* ---- a full player --------------------------------------------------------- */

static void test_add_full(void)
{
	g_autofree char *image = su_empty_image(32u << 20);
	KmSession *session = su_open(image);
	g_autofree char *small = su_big_wav("small.wav", 1u << 20, 7);
	g_autofree char *big = su_big_wav("big.wav", 20u << 20, 8);
	g_autofree char *after = su_big_wav("after.wav", 1u << 20, 9);
	char *paths[3] = { small, big, after };
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) report = NULL;
	guint64 free_before = km_session_get_free_bytes(session), free_after;
	const KmReportItem *item;
	guint n_tunes;

	g_assert_cmpuint(free_before, <, 20u << 20);
	report = su_add(session, paths, 3, KM_ADD_FLAGS_NONE, &error);
	g_assert_error(error, KM_SESSION_ERROR, KM_SESSION_ERROR_FULL);
	g_assert_nonnull(strstr(error->message, "full"));
	g_assert_nonnull(strstr(error->message, "big.wav"));
	g_assert_cmpint(find_item(report, small)->outcome, ==, KM_ITEM_DONE);
	item = find_item(report, big);
	g_assert_cmpint(item->outcome, ==, KM_ITEM_NOT_DONE);
	g_assert_nonnull(strstr(item->reason, "full"));
	g_assert_cmpint(find_item(report, after)->outcome, ==, KM_ITEM_NOT_DONE);
	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_tracks(session)), ==, 1);
	/* The small one took its size (and a little metadata), the big one nothing. */
	free_after = km_session_get_free_bytes(session);
	g_assert_cmpuint(free_before - free_after, >=, 1u << 20);
	g_assert_cmpuint(free_before - free_after, <, 2u << 20);
	/* A full player is no failure: the session goes on. */
	g_assert_cmpint(km_session_get_state(session), ==, KM_SESSION_STATE_OPEN);
	su_close(session);
	g_assert_cmpuint(su_verify_image(image, &n_tunes), ==, 1);
}

/*
 * The room check is the library's (km_transaction_check_room), as karmactl
 * add's: on a nearly full player a file half a MiB smaller than the free
 * space is refused (a commit needs its margin) and one 3 MiB smaller goes
 * in. tests/cli/test-karma-edit-cli.sh asks karmactl the same.
 */
static void test_add_room_as_cli(void)
{
	g_autofree char *image = su_empty_image(32u << 20);
	KmSession *session = su_open(image);
	guint64 free_bytes = km_session_get_free_bytes(session);
	g_autofree char *too_big = su_big_wav("too-big.wav", free_bytes - (512u << 10), 10);
	g_autofree char *fits = su_big_wav("fits.wav", free_bytes - (3u << 20), 11);
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) refused = NULL, added = NULL;

	refused = su_add(session, &too_big, 1, KM_ADD_FLAGS_NONE, &error);
	g_assert_error(error, KM_SESSION_ERROR, KM_SESSION_ERROR_FULL);
	g_clear_error(&error);
	g_assert_cmpint(find_item(refused, too_big)->outcome, ==, KM_ITEM_NOT_DONE);
	g_assert_cmpuint(km_session_get_free_bytes(session), ==, free_bytes);
	added = su_add(session, &fits, 1, KM_ADD_FLAGS_NONE, &error);
	g_assert_no_error(error);
	g_assert_cmpint(find_item(added, fits)->outcome, ==, KM_ITEM_DONE);
	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_tracks(session)), ==, 1);
	su_close(session);
}

/* ---- jobs before open, the worker-only check, finalization ----------------- */

static void test_not_open(void)
{
	g_autofree char *image = su_demo_image();
	KmSession *session = km_session_new_for_path(image);
	g_autoptr(GAsyncResult) result = NULL;
	g_autoptr(GError) error = NULL;
	guint32 fid = 0x110;

	km_session_remove_async(session, &fid, 1, NULL, su_store_result, &result);
	g_assert_false(su_edit_wait(session, &result, &error));
	g_assert_error(error, KM_SESSION_ERROR, KM_SESSION_ERROR_NOT_OPEN);
	g_clear_error(&error);

	/* A file that is no Karma: open fails cleanly, the session is closed. */
	g_object_unref(session);
	g_autofree char *text = su_text_file("not-a-disk.img");
	session = km_session_new_for_path(text);
	g_assert_false(su_open_session(session, &error));
	g_assert_nonnull(error);
	g_assert_cmpint(km_session_get_state(session), ==, KM_SESSION_STATE_CLOSED);
	g_assert_finalize_object(session);
}

/*
 * One writer at a time: an open session holds its image (a reader is
 * refused too), closing releases it, and a session on an image another
 * program holds says so plainly, naming it.
 */
static void test_one_writer(void)
{
	g_autofree char *image = su_demo_image();
	KmSession *session = su_open(image);
	g_autoptr(GError) error = NULL;
	char msg[OMFS_ERRMSG_MAX] = "";
	g_autofree char *pid = g_strdup_printf("pid %d", (int)getpid());
	struct km_image_device *other;

	errno = 0;
	g_assert_null(km_image_device_open(image, false, 0, 0, msg, sizeof(msg)));
	g_assert_cmpint(errno, ==, EBUSY);
	g_assert_nonnull(strstr(msg, "is in use by"));
	su_close(session);	/* and finalizes it */
	other = km_image_device_open(image, true, 0, 0, msg, sizeof(msg));
	g_assert_nonnull(other);

	session = km_session_new_for_path(image);
	g_assert_false(su_open_session(session, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_BUSY);
	g_assert_nonnull(strstr(error->message, "another program is using it"));
	g_assert_nonnull(strstr(error->message, pid));
	g_assert_cmpint(km_session_get_state(session), ==, KM_SESSION_STATE_CLOSED);
	g_assert_finalize_object(session);
	g_assert_cmpint(km_image_device_close(other), ==, 0);
}

static void test_worker_only(void)
{
	g_autofree char *image = su_demo_image();
	KmSession *session = su_open(image);
	KmProgressStats stats;
	guint calls, jobs;

	g_assert_true(km_session_get_worker_thread(session) != g_thread_self());
	km_session_get_debug_stats(session, &stats, &calls, &jobs);
	g_assert_cmpuint(calls, >, 0);
	g_assert_cmpuint(jobs, ==, 1);
	/* The check is live: the library from any other thread is an abort. */
	if (g_test_subprocess()) {
		km_worker_library(session);
		return;
	}
	g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
	g_test_trap_assert_failed();
	g_test_trap_assert_stderr("*assertion failed*g_thread_self*");
	su_close(session);
}

/* A session dropped while open closes its library on the worker: what it added stays. */
static void test_finalize_open(void)
{
	g_autofree char *image = su_demo_image();
	KmSession *session = su_open(image);
	g_autofree char *wav = su_demo_wav(NULL, 400);
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) report = su_add(session, &wav, 1, KM_ADD_FLAGS_NONE, &error);
	guint n_tunes;

	g_assert_no_error(error);
	g_assert_cmpuint(report->counts[KM_ITEM_DONE], ==, 1);
	g_assert_finalize_object(session);
	g_assert_cmpuint(su_verify_image(image, &n_tunes), ==, KM_DEMO_TRACKS + 1);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	main_thread = g_thread_self();
	g_test_add_func("/session/demo", test_demo);
	g_test_add_func("/session/demo-faults", test_demo_faults);
	g_test_add_func("/session/add", test_add);
	g_test_add_func("/session/add-mp3", test_add_mp3);
	g_test_add_func("/session/add-skips", test_add_skips);
	g_test_add_func("/session/add-folder-once", test_add_folder_once);
	g_test_add_func("/session/add-cancel", test_add_cancel);
	g_test_add_func("/session/add-cancel-item", test_add_cancel_item);
	g_test_add_func("/session/add-full", test_add_full);
	g_test_add_func("/session/add-room-as-cli", test_add_room_as_cli);
	g_test_add_func("/session/not-open", test_not_open);
	g_test_add_func("/session/one-writer", test_one_writer);
	g_test_add_func("/session/worker-only", test_worker_only);
	g_test_add_func("/session/finalize-open", test_finalize_open);
	return g_test_run();
}
