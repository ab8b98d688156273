/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-session-edit.c - KmSession's other jobs through the real worker:
 * remove, tag edits and playlist edits (read back from the image after the
 * session closed), export (bytes identical), progress merging, and a device
 * that fails in the middle of a job.
 */
#include "session-test-util.h"

#include <string.h>

#include "km-demo.h"
#include "km-mem-device.h"

static guint32 track_fid(KmSession *session, guint position)
{
	g_autoptr(KmTrack) track = g_list_model_get_item(km_session_get_tracks(session), position);

	return km_track_get_fid(track);
}

/* ---- remove and tags ------------------------------------------------------- */

static void count_changes(GListModel *list, guint position, guint removed, guint added,
			  gpointer data)
{
	guint *counts = data;

	counts[0] += removed;
	counts[1] += added;
}

static void test_remove(void)
{
	g_autofree char *image = su_demo_image();
	KmSession *session = su_open(image);
	GListModel *tracks = km_session_get_tracks(session);
	guint32 fids[2] = { track_fid(session, 3), track_fid(session, 7) };
	g_autoptr(GAsyncResult) result = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(KmVerifyReport) report = NULL;
	guint counts[2] = { 0, 0 };
	guint n_tunes;

	g_signal_connect(tracks, "items-changed", G_CALLBACK(count_changes), counts);
	km_session_remove_async(session, fids, 2, NULL, su_store_result, &result);
	g_assert_true(su_edit_wait(session, &result, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(counts[0], ==, 2);
	g_assert_cmpuint(counts[1], ==, 0);
	g_assert_cmpuint(g_list_model_get_n_items(tracks), ==, KM_DEMO_TRACKS - 2);
	g_assert_null(km_session_lookup_track(session, fids[0]));
	g_assert_null(km_session_lookup_track(session, fids[1]));
	g_signal_handlers_disconnect_by_data(tracks, counts);

	/* A fid that is not there: the whole edit fails, nothing changes. */
	km_session_remove_async(session, fids, 1, NULL, su_store_result, &result);
	g_assert_false(su_edit_wait(session, &result, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NOT_FOUND);
	g_clear_error(&error);

	/* The session's own verify agrees: nothing left behind. */
	km_session_verify_async(session, FALSE, NULL, su_store_result, &result);
	report = km_session_verify_finish(session, su_wait(&result), &error);
	g_assert_no_error(error);
	g_clear_object(&result);
	g_assert_cmpuint(report->n_objects, ==, KM_DEMO_TRACKS - 2);
	g_assert_cmpuint(report->findings->len, ==, 0);
	su_close(session);
	g_assert_cmpuint(su_verify_image(image, &n_tunes), ==, KM_DEMO_TRACKS - 2);
}

static void test_tags(void)
{
	g_autofree char *image = su_demo_image();
	KmSession *session = su_open(image);
	guint32 fids[2] = { track_fid(session, 0), track_fid(session, 5) };
	const KmTagEdit edit = { .title = "New Title", .artist = "New Artist",
				 .album = "New Album", .genre = "", .year = "1999",
				 .track_number = "7" };
	const KmTagEdit bad = { .title = "Never", .year = "99" };
	g_autofree char *long_title = g_strnfill(300, 'x');
	const KmTagEdit too_long = { .title = long_title };
	g_autoptr(GAsyncResult) result = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(KmTrack) old = g_object_ref(km_session_lookup_track(session, fids[0]));
	KmTrack *track;
	guint counts[2] = { 0, 0 };

	g_signal_connect(km_session_get_tracks(session), "items-changed",
			 G_CALLBACK(count_changes), counts);
	km_session_set_tags_async(session, fids, 2, &edit, NULL, su_store_result, &result);
	g_assert_true(su_edit_wait(session, &result, &error));
	g_assert_no_error(error);
	/* Each changed track replaced in place: one out, one in. */
	g_assert_cmpuint(counts[0], ==, 2);
	g_assert_cmpuint(counts[1], ==, 2);
	track = km_session_lookup_track(session, fids[0]);
	g_assert_true(track != old);
	g_assert_cmpstr(km_track_get_title(old), !=, "New Title");
	g_assert_cmpstr(km_track_get_title(track), ==, "New Title");
	g_assert_cmpstr(km_track_get_artist(track), ==, "New Artist");
	g_assert_cmpstr(km_track_get_album(track), ==, "New Album");
	g_assert_null(km_track_get_genre(track));
	g_assert_cmpuint(km_track_get_year(track), ==, 1999);
	g_assert_cmpuint(km_track_get_track_number(track), ==, 7);

	km_session_set_tags_async(session, fids, 1, &bad, NULL, su_store_result, &result);
	g_assert_false(su_edit_wait(session, &result, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	/* the library's rules (km-property-rules.h), as karmactl tag: no 300-byte title */
	km_session_set_tags_async(session, fids, 1, &too_long, NULL, su_store_result, &result);
	g_assert_false(su_edit_wait(session, &result, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_assert_nonnull(strstr(error->message, "255 at most"));
	g_signal_handlers_disconnect_by_data(km_session_get_tracks(session), counts);
	su_close(session);

	for (guint i = 0; i < 2; i++) {
		g_autofree char *title = su_image_get(image, fids[i], "title");
		g_autofree char *album = su_image_get(image, fids[i], "source");
		g_autofree char *genre = su_image_get(image, fids[i], "genre");
		g_autofree char *year = su_image_get(image, fids[i], "year");
		g_autofree char *tracknr = su_image_get(image, fids[i], "tracknr");

		g_assert_cmpstr(title, ==, "New Title");
		g_assert_cmpstr(album, ==, "New Album");
		g_assert_null(genre);
		g_assert_cmpstr(year, ==, "1999");
		g_assert_cmpstr(tracknr, ==, "7");
	}
}

/* ---- playlists ------------------------------------------------------------- */

static KmPlaylistItem *only_playlist(KmSession *session)
{
	GListModel *playlists = km_session_get_playlists(session);

	g_assert_cmpuint(g_list_model_get_n_items(playlists), ==, 1);
	return g_list_model_get_item(playlists, 0);
}

static void assert_entries(KmPlaylistItem *item, const guint32 *want, guint n)
{
	GListModel *tracks = km_playlist_item_get_tracks(item);

	g_assert_cmpuint(km_playlist_item_get_n_entries(item), ==, n);
	g_assert_cmpuint(g_list_model_get_n_items(tracks), ==, n);
	for (guint i = 0; i < n; i++) {
		g_autoptr(KmTrack) track = g_list_model_get_item(tracks, i);

		g_assert_cmpuint(km_playlist_item_get_entry_fid(item, i), ==, want[i]);
		g_assert_cmpuint(km_track_get_fid(track), ==, want[i]);
		g_assert_cmpuint(km_playlist_item_get_entry_index(item, i), ==, i);
	}
}

/* Entries that do not resolve: counted, addressed by index, not in the tracks model. */
static void test_playlist_item(void)
{
	g_autoptr(KmProperties) props = km_properties_new();
	g_autoptr(KmTrack) a = NULL, b = NULL;
	g_autoptr(KmPlaylistItem) item = NULL;
	const guint32 fids[3] = { 0x110, 0x120, 0x130 };
	const struct {
		const char *bitrate;
		guint kbps;
	} rates[] = { { "vs192", 192 }, { "fs999", 999 }, { "fs", 0 }, { "192", 192 },
		      { "fs99999999999", 0 }, { "fs12x", 0 } };
	KmTrack *tracks[3];

	km_properties_set_fid(props, 0x110);
	a = km_track_new(props);
	km_properties_set_fid(props, 0x130);
	b = km_track_new(props);
	tracks[0] = a;
	tracks[1] = NULL;
	tracks[2] = b;
	item = km_playlist_item_new(0x200, "Mixed", fids, tracks, 3);
	g_assert_cmpuint(km_playlist_item_get_n_entries(item), ==, 3);
	g_assert_null(km_playlist_item_get_entry_track(item, 1));
	g_assert_cmpuint(km_playlist_item_get_entry_fid(item, 1), ==, 0x120);
	g_assert_cmpuint(g_list_model_get_n_items(km_playlist_item_get_tracks(item)), ==, 2);
	g_assert_cmpuint(km_playlist_item_get_entry_index(item, 0), ==, 0);
	g_assert_cmpuint(km_playlist_item_get_entry_index(item, 1), ==, 2);
	/* An absent title reads as "", the other tags as NULL or 0. */
	g_assert_cmpstr(km_track_get_title(a), ==, "");
	g_assert_null(km_track_get_artist(a));
	g_assert_cmpuint(km_track_get_year(a), ==, 0);
	g_assert_cmpuint(km_track_get_bitrate_kbps(a), ==, 0);

	/* Values as a player (or a hostile disk) may store them. */
	for (guint i = 0; i < G_N_ELEMENTS(rates); i++) {
		g_autoptr(KmTrack) track = NULL;

		km_properties_set(props, "bitrate", rates[i].bitrate);
		km_properties_set(props, "year", "19x9");
		track = km_track_new(props);
		g_assert_cmpuint(km_track_get_bitrate_kbps(track), ==, rates[i].kbps);
		g_assert_cmpuint(km_track_get_year(track), ==, 0);
	}
}

static void test_playlists(void)
{
	g_autofree char *image = su_demo_image();
	KmSession *session = su_open(image);
	guint32 fids[3] = { track_fid(session, 1), track_fid(session, 2), track_fid(session, 3) };
	g_autoptr(GAsyncResult) result = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(KmPlaylistItem) item = NULL;
	guint32 playlist = 0;
	guint index = 1;

	km_session_playlist_create_async(session, "Road", NULL, su_store_result, &result);
	g_assert_true(km_session_playlist_create_finish(session, su_wait(&result), &playlist,
							&error));
	g_assert_no_error(error);
	g_clear_object(&result);
	g_assert_cmpuint(playlist, !=, 0);
	item = only_playlist(session);
	g_assert_cmpstr(km_playlist_item_get_name(item), ==, "Road");
	g_assert_cmpuint(km_playlist_item_get_fid(item), ==, playlist);
	g_clear_object(&item);

	km_session_playlist_add_async(session, playlist, fids, 3, -1, NULL, su_store_result,
				      &result);
	g_assert_true(su_edit_wait(session, &result, &error));
	km_session_playlist_rename_async(session, playlist, "Trip", NULL, su_store_result,
					 &result);
	g_assert_true(su_edit_wait(session, &result, &error));
	item = only_playlist(session);
	g_assert_cmpstr(km_playlist_item_get_name(item), ==, "Trip");
	assert_entries(item, fids, 3);
	g_clear_object(&item);

	/* [1 2 3] -> move 0 to 2 -> [2 3 1] -> remove index 1 -> [2 1] */
	km_session_playlist_move_async(session, playlist, 0, 2, NULL, su_store_result, &result);
	g_assert_true(su_edit_wait(session, &result, &error));
	km_session_playlist_remove_async(session, playlist, &index, 1, NULL, su_store_result,
					 &result);
	g_assert_true(su_edit_wait(session, &result, &error));
	g_assert_no_error(error);
	su_close(session);

	/* Read back from the image by a new session. */
	session = su_open(image);
	item = only_playlist(session);
	g_assert_cmpstr(km_playlist_item_get_name(item), ==, "Trip");
	assert_entries(item, (const guint32[]){ fids[1], fids[0] }, 2);
	g_clear_object(&item);

	/* Removing a track takes it out of the playlist; the list follows. */
	km_session_remove_async(session, &fids[1], 1, NULL, su_store_result, &result);
	g_assert_true(su_edit_wait(session, &result, &error));
	item = only_playlist(session);
	assert_entries(item, &fids[0], 1);
	g_clear_object(&item);

	km_session_playlist_delete_async(session, playlist, NULL, su_store_result, &result);
	g_assert_true(su_edit_wait(session, &result, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_playlists(session)), ==, 0);
	su_close(session);
	session = su_open(image);
	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_playlists(session)), ==, 0);
	su_close(session);
}

/* ---- export ---------------------------------------------------------------- */

static void test_export(void)
{
	g_autofree char *image = su_demo_image();
	KmSession *session = su_open(image);
	g_autofree char *a = su_big_wav("a.wav", 3u << 20, 21);
	g_autofree char *b = su_demo_wav(NULL, 500);
	char *paths[2] = { a, b };
	g_autofree char *folder = su_tmp_path("export");
	g_autoptr(GFile) folder_file = g_file_new_for_path(folder);
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) added = su_add(session, paths, 2, KM_ADD_FLAGS_NONE, &error);
	g_autoptr(KmReport) report = NULL;
	g_autoptr(GAsyncResult) result = NULL;
	guint32 fids[3];

	g_assert_no_error(error);
	g_assert_cmpuint(added->counts[KM_ITEM_DONE], ==, 2);
	for (guint i = 0; i < 2; i++)
		fids[i] = ((KmReportItem *)added->items->pdata[i])->fid;
	fids[2] = fids[0];	/* the same track twice: a second name, no overwrite */
	km_session_export_async(session, fids, 3, folder_file, "%t.%c", NULL, NULL, NULL, NULL,
				su_store_result, &result);
	report = km_session_export_finish(session, su_wait(&result), &error);
	g_assert_no_error(error);
	g_assert_cmpuint(report->counts[KM_ITEM_DONE], ==, 3);
	for (guint i = 0; i < 3; i++) {
		KmReportItem *item = report->items->pdata[i];
		g_autofree char *path = g_file_get_path(item->file);

		g_assert_cmpuint(item->fid, ==, fids[i]);
		su_assert_same_bytes(path, paths[i % 2]);
	}
	{
		/* "%t.%c": an untagged file's title is its name without the extension. */
		g_autofree char *name = g_path_get_basename(a);
		g_autofree char *first = g_build_filename(folder, name, NULL);
		g_autofree char *second = NULL;

		name[strlen(name) - 4] = '\0';
		second = g_strdup_printf("%s/%s (2).wav", folder, name);
		KmReportItem **items = (KmReportItem **)report->items->pdata;
		g_autofree char *got0 = g_file_get_path(items[0]->file);
		g_autofree char *got2 = g_file_get_path(items[2]->file);

		g_assert_cmpstr(got0, ==, first);
		g_assert_cmpstr(got2, ==, second);
	}
	g_clear_object(&result);
	su_close(session);
}

/*
 * A track that fails does not end the export (the library's pipeline, as
 * karmactl export's: tests/cli/test-karma-edit-cli.sh does the same there):
 * a track not on the player and one whose folder is in the way fail, the
 * one after them is copied, and the job ends without an error.
 */
static void test_export_goes_on(void)
{
	g_autofree char *image = su_demo_image();
	KmSession *session = su_open(image);
	g_autofree char *a = su_big_wav("blocked.wav", 1u << 20, 22);
	g_autofree char *b = su_big_wav("free.wav", 1u << 20, 23);
	char *paths[2] = { a, b };
	g_autofree char *folder = su_tmp_path("export-goes-on");
	g_autofree char *title = g_path_get_basename(a);
	g_autofree char *blocker = NULL;
	g_autoptr(GFile) folder_file = g_file_new_for_path(folder);
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) added = su_add(session, paths, 2, KM_ADD_FLAGS_NONE, &error);
	g_autoptr(KmReport) report = NULL;
	g_autoptr(GAsyncResult) result = NULL;
	guint32 fids[3] = { 0x7770 };
	KmReportItem **items;
	g_autofree char *got = NULL;

	g_assert_no_error(error);
	for (guint i = 0; i < 2; i++)
		fids[i + 1] = ((KmReportItem *)added->items->pdata[i])->fid;
	/* an untagged file's title is its name without the extension */
	title[strlen(title) - 4] = '\0';
	blocker = g_build_filename(folder, title, NULL);
	g_assert_cmpint(g_mkdir_with_parents(folder, 0755), ==, 0);
	g_assert_true(g_file_set_contents(blocker, "in the way", -1, NULL));
	km_session_export_async(session, fids, 3, folder_file, "%t/%t.%c", NULL, NULL, NULL, NULL,
				su_store_result, &result);
	report = km_session_export_finish(session, su_wait(&result), &error);
	g_assert_no_error(error);
	items = (KmReportItem **)report->items->pdata;
	g_assert_cmpuint(report->items->len, ==, 3);
	g_assert_cmpint(items[0]->outcome, ==, KM_ITEM_FAILED);
	g_assert_cmpint(items[1]->outcome, ==, KM_ITEM_FAILED);
	g_assert_cmpint(items[2]->outcome, ==, KM_ITEM_DONE);
	got = g_file_get_path(items[2]->file);
	su_assert_same_bytes(got, b);
	g_assert_cmpint(km_session_get_state(session), ==, KM_SESSION_STATE_OPEN);
	g_clear_object(&result);
	su_close(session);
}

/* ---- progress merging ------------------------------------------------------ */

typedef struct {
	guint calls;
	KmProgress *last;
	gboolean notified;
} Seen;

static void keep_progress(KmSession *session, const KmProgress *progress, gpointer data)
{
	Seen *seen = data;

	seen->calls++;
	g_clear_pointer(&seen->last, km_progress_free);
	seen->last = km_progress_copy(progress);
}

static void seen_done(gpointer data)
{
	((Seen *)data)->notified = TRUE;
}

/*
 * The main loop is kept away until the worker has finished the whole job:
 * every report it made met a pending update, so exactly one is delivered,
 * the newest, however many there were.
 */
static void test_progress_merged(void)
{
	g_autofree char *image = su_demo_image();
	KmSession *session = su_open(image);
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_object_unref);
	g_autoptr(GAsyncResult) result = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) report = NULL;
	KmProgressStats before, after;
	guint calls, jobs_before, jobs;
	guint64 total = 0;
	Seen seen = { 0 };

	for (guint i = 0; i < 5; i++) {
		g_autofree char *path = su_big_wav("progress.wav", 3u << 20, 40 + i);
		g_autoptr(GFile) file = g_file_new_for_path(path);
		g_autoptr(GFileInfo) info = g_file_query_info(file, G_FILE_ATTRIBUTE_STANDARD_SIZE,
							      G_FILE_QUERY_INFO_NONE, NULL, NULL);

		total += (guint64)g_file_info_get_size(info);
		g_ptr_array_add(files, g_object_ref(file));
	}
	km_session_get_debug_stats(session, &before, &calls, &jobs_before);
	km_session_add_files_async(session, (GFile *const *)files->pdata, files->len, NULL,
				   KM_ADD_FLAGS_NONE, keep_progress, &seen, seen_done, NULL,
				   su_store_result, &result);
	do {
		g_usleep(1000);
		km_session_get_debug_stats(session, &after, &calls, &jobs);
	} while (jobs == jobs_before);
	g_assert_cmpuint(after.reports - before.reports, >=, 5 * 3);
	g_assert_cmpuint(after.pending, ==, 1);
	g_assert_cmpuint(after.max_pending, ==, 1);

	report = km_session_add_files_finish(session, su_wait(&result), &error);
	g_assert_no_error(error);
	g_assert_cmpuint(report->counts[KM_ITEM_DONE], ==, 5);
	while (!seen.notified)
		g_main_context_iteration(NULL, TRUE);
	km_session_get_debug_stats(session, &after, &calls, &jobs);
	g_assert_cmpuint(after.dispatches - before.dispatches, ==, 1);
	g_assert_cmpuint(after.pending, ==, 0);
	g_assert_cmpuint(seen.calls, ==, 1);
	g_assert_cmpuint(seen.last->n_files, ==, 5);
	g_assert_cmpuint(seen.last->file_index, ==, 5);
	g_assert_cmpuint(seen.last->bytes_total, ==, total);
	g_assert_cmpuint(seen.last->bytes_done, ==, total);
	g_assert_cmpfloat(km_progress_get_fraction(seen.last), ==, 1.0);
	km_progress_free(seen.last);
	g_clear_object(&result);
	su_close(session);
}

/* The rate follows the last few seconds, not the whole job. */
static void test_rate(void)
{
	KmRateMeter meter = { 0 };
	const gint64 s = G_USEC_PER_SEC;

	g_assert_cmpfloat(km_rate_meter_add(&meter, 10 * s, 0), ==, 0.0);
	/* Too soon to tell. */
	g_assert_cmpfloat(km_rate_meter_add(&meter, 10 * s + s / 20, 500000), ==, 0.0);
	g_assert_cmpfloat(km_rate_meter_add(&meter, 11 * s, 1000000), ==, 1000000.0);
	g_assert_cmpfloat(km_rate_meter_add(&meter, 12 * s, 3000000), ==, 1500000.0);
	/* Stalled for three seconds: the old samples leave the window. */
	g_assert_cmpfloat(km_rate_meter_add(&meter, 15 * s, 3000000), ==, 0.0);
	g_assert_cmpfloat(km_rate_meter_add(&meter, 16 * s, 5000000), ==, 2000000.0);
	/* A long steady run: once the burst left the window, the steady rate. */
	for (gint64 t = 17; t < 200; t++) {
		double rate = km_rate_meter_add(&meter, t * s, 5000000 + (guint64)(t - 16) * 100);

		if (t >= 19)
			g_assert_cmpfloat(rate, ==, 100.0);
	}
	/* Many reports within a sample's spacing add none: 198, 199 and 200 s are kept. */
	for (gint64 t = 0; t < 1000; t++)
		km_rate_meter_add(&meter, 200 * s + t, 5000000);
	g_assert_cmpuint(meter.n, ==, 3);
	g_assert_cmpuint(meter.n, <=, KM_RATE_SAMPLES);
}

/* ---- a device that fails --------------------------------------------------- */

static const struct omfs_blockdev *mem_open(gpointer data, KmSession *session,
					    GCancellable *cancellable, GError **error)
{
	return &((struct km_mem_device *)data)->bdev;
}

static gboolean mem_close(gpointer data, GError **error)
{
	return TRUE;
}

static void mem_free(gpointer data)
{
	km_mem_device_free(data);
}

static const KmSessionSourceFuncs mem_funcs = { mem_open, mem_close, mem_free };

typedef struct {
	guint count;
	KmReport *report;
	GAsyncResult **result;
} Failed;

static void on_failed(KmSession *session, GError *error, KmReport *report, gpointer data)
{
	Failed *failed = data;

	/* Before the job's own result. */
	g_assert_null(*failed->result);
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO);
	g_assert_cmpint(km_session_get_state(session), ==, KM_SESSION_STATE_FAILED);
	failed->count++;
	failed->report = km_report_ref(report);
}

static void test_device_fails(void)
{
	g_autofree char *image = su_empty_image(32u << 20);
	g_autofree char *data = NULL;
	gsize len;
	struct km_mem_device *mem;
	KmSession *session;
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_object_unref);
	g_autoptr(GAsyncResult) result = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) report = NULL;
	Failed failed = { 0, NULL, &result };
	guint32 fid = 0x110;

	g_assert_true(g_file_get_contents(image, &data, &len, NULL));
	mem = km_mem_device_new(len, data);
	session = km_session_new_for_source("Failing", &mem_funcs, mem);
	g_assert_true(su_open_session(session, &error));
	g_assert_no_error(error);
	for (guint i = 0; i < 3; i++) {
		g_autofree char *path = su_big_wav("fail.wav", 2u << 20, 60 + i);

		g_ptr_array_add(files, g_file_new_for_path(path));
	}
	g_signal_connect(session, "failed", G_CALLBACK(on_failed), &failed);
	/* The worker is idle between jobs: arming here races with nothing. */
	mem->fail_armed = TRUE;
	mem->writes_left = 2;
	km_session_add_files_async(session, (GFile *const *)files->pdata, files->len, NULL,
				   KM_ADD_FLAGS_NONE, NULL, NULL, NULL, NULL, su_store_result,
				   &result);
	report = km_session_add_files_finish(session, su_wait(&result), &error);
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO);
	g_clear_error(&error);
	g_clear_object(&result);
	g_assert_cmpuint(failed.count, ==, 1);
	g_assert_true(failed.report == report);
	g_assert_cmpuint(report->counts[KM_ITEM_DONE], ==, 0);
	g_assert_cmpuint(report->counts[KM_ITEM_FAILED], >=, 1);
	g_assert_cmpuint(report->counts[KM_ITEM_FAILED] + report->counts[KM_ITEM_NOT_DONE], ==,
			 3);
	g_assert_cmpuint(report->items->len, ==, 3);
	g_assert_cmpint(km_session_get_state(session), ==, KM_SESSION_STATE_FAILED);

	/* Every later job fails cleanly; closing releases the device. */
	km_session_remove_async(session, &fid, 1, NULL, su_store_result, &result);
	g_assert_false(su_edit_wait(session, &result, &error));
	g_assert_error(error, KM_SESSION_ERROR, KM_SESSION_ERROR_FAILED);
	g_assert_cmpuint(failed.count, ==, 1);
	km_report_unref(failed.report);
	su_close(session);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/session/remove", test_remove);
	g_test_add_func("/session/tags", test_tags);
	g_test_add_func("/session/playlist-item", test_playlist_item);
	g_test_add_func("/session/playlists", test_playlists);
	g_test_add_func("/session/export", test_export);
	g_test_add_func("/session/export-goes-on", test_export_goes_on);
	g_test_add_func("/session/progress-merged", test_progress_merged);
	g_test_add_func("/session/rate", test_rate);
	g_test_add_func("/session/device-fails", test_device_fails);
	return g_test_run();
}
