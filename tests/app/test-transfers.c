/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-transfers.c - changing the player from the window, end to end through
 * the real session worker: files dropped on the library (GdkFileList on the
 * real GtkDropTarget), export to a folder, drag out, delete with its
 * confirmation and, without it (the confirm-delete key), with an undo
 * toast, playlists, eject.
 */
#include "km-test-util.h"

#include <glib/gstdio.h>

#include "km-demo.h"
#include "km-app-util.h"
#include "km-drag-folder.h"
#include "km-export-provider.h"

#define N_TRACKS 12
/* Above every demo track number a test adds. */
#define MAX_DEMO_TRACK 400

static char *work_dir;

static KmTransferRow *wait_for_transfer(KmPlayerView *pv)
{
	KmTransferRow *row = km_transfer_panel_get_first_row(_km_player_view_get_transfers(pv));

	g_assert_nonnull(row);
	km_test_wait_until(!km_transfer_row_is_running(row));
	return row;
}

/*
 * What a transfer row and the capacity bar show for a progress snapshot (a
 * real job is often over before the main loop delivers one: see drop-files).
 */
static void test_progress_row(void)
{
	g_autoptr(GFile) file = g_file_new_for_path("/music/a.wav");
	KmTransferRow *row = g_object_ref_sink(km_transfer_row_new("Copying", &file, 1));
	KmTransferPanel *panel = g_object_ref_sink(g_object_new(KM_TYPE_TRANSFER_PANEL, NULL));
	GtkWidget *bar = g_object_ref_sink(km_capacity_bar_new());
	KmProgress p = { .file_name = (char *)"a.wav", .file_index = 1, .n_files = 4,
			 .file_bytes_done = 500, .file_bytes_total = 1000,
			 .bytes_done = 3000000, .bytes_total = 5000000, .rate = 1000000,
			 .seconds_left = 2 };
	g_autoptr(KmReport) report = km_report_new();
	g_autofree char *problems = NULL;

	km_transfer_row_set_fills_player(row, TRUE);
	km_transfer_panel_add(panel, row);
	km_transfer_row_update(row, &p);
	g_assert_cmpstr(km_transfer_row_get_status(row), ==,
			"“a.wav” — 2 of 4 — 1.0\u00a0MB/s — 2 seconds left");
	g_assert_true(km_transfer_panel_is_busy(panel));
	g_assert_cmpuint(km_transfer_panel_get_pending_bytes(panel), ==, 2000000);
	km_capacity_bar_set(KM_CAPACITY_BAR(bar), 10000000, 7000000,
			    km_transfer_panel_get_pending_bytes(panel));
	g_assert_cmpstr(km_capacity_bar_get_text(KM_CAPACITY_BAR(bar)), ==,
			"3.0\u00a0MB free of 10.0\u00a0MB — 1.0\u00a0MB after the queued 2.0\u00a0MB");
	km_capacity_bar_set(KM_CAPACITY_BAR(bar), 10000000, 9000000, 2000000);
	g_assert_cmpstr(km_capacity_bar_get_text(KM_CAPACITY_BAR(bar)), ==,
			"1.0\u00a0MB free of 10.0\u00a0MB — the queued 2.0\u00a0MB need 1.0\u00a0MB more");
	/* the player fills up: the rest is listed with why */
	km_report_add(report, file, 0, KM_ITEM_NOT_DONE, "the player is full");
	km_transfer_row_finish(row, report, NULL);
	g_assert_false(km_transfer_panel_is_busy(panel));
	g_assert_cmpuint(km_transfer_panel_get_pending_bytes(panel), ==, 0);
	problems = km_transfer_row_dup_problems(row);
	g_assert_cmpstr(problems, ==, "a.wav: the player is full\n");
	g_assert_finalize_object(panel);
	g_assert_finalize_object(row);
	g_assert_finalize_object(bar);
}

static void test_drop_files(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	g_autofree char *folder = g_build_filename(work_dir, "drop", NULL);
	g_autofree char *sub = g_build_filename(folder, "more", NULL);
	g_autofree char *text = g_build_filename(folder, "notes.txt", NULL);
	g_autoptr(GPtrArray) files = km_test_write_wavs(folder, 100, 3);
	g_autoptr(GPtrArray) nested = km_test_write_wavs(sub, 200, 2);
	g_auto(GValue) value = G_VALUE_INIT;
	GSList *list = NULL;
	GtkDropTarget *target = _km_player_view_get_drop_target(pv);
	g_autofree char *problems = NULL;
	KmTransferRow *row;
	guint before = km_test_n_tracks(win);
	gboolean accepted = FALSE;

	g_assert_true(g_file_set_contents(text, "not music\n", -1, NULL));
	g_assert_cmpuint(nested->len, ==, 2);
	/* three files, the folder with two more inside, and a text file */
	for (guint i = 0; i < files->len; i++)
		list = g_slist_append(list, files->pdata[i]);
	list = g_slist_append(list, g_file_new_for_path(sub));
	list = g_slist_append(list, g_file_new_for_path(text));
	g_value_init(&value, GDK_TYPE_FILE_LIST);
	g_value_take_boxed(&value, gdk_file_list_new_from_list(list));
	g_object_unref(g_slist_nth_data(list, 3));
	g_object_unref(g_slist_nth_data(list, 4));
	g_slist_free(list);

	g_signal_emit_by_name(target, "drop", &value, 10.0, 10.0, &accepted);
	g_assert_true(accepted);
	row = wait_for_transfer(pv);
	g_assert_cmpstr(km_transfer_row_get_status(row), ==, "5 of 6 files copied");
	g_assert_cmpuint(km_test_n_tracks(win), ==, before + 5);
	/* the text file is listed with why it was not copied */
	problems = km_transfer_row_dup_problems(row);
	g_assert_nonnull(strstr(problems, "notes.txt: "));
	km_test_assert_verifies_clean(win);
	km_test_close_window(win);
}

/*
 * Cancel All right after the drop (a big file first, so that the worker is
 * usually still copying): the tracks the row reports copied are on the
 * player, nothing else is, and the library verifies clean.
 */
static void test_drop_cancel(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	g_autofree char *folder = g_build_filename(work_dir, "cancel", NULL);
	g_autofree char *big = g_build_filename(folder, "a long silence.wav", NULL);
	g_autoptr(GPtrArray) files = km_test_write_wavs(folder, 300, 8);
	KmTransferRow *row;
	guint before = km_test_n_tracks(win), copied = 0, total = 0;

	g_ptr_array_insert(files, 0, km_test_write_silence(big, 64 << 20));
	km_player_view_add_files(pv, (GFile *const *)files->pdata, files->len);
	km_transfer_panel_cancel_all(_km_player_view_get_transfers(pv));
	row = wait_for_transfer(pv);
	g_assert_cmpint(sscanf(km_transfer_row_get_status(row), "%u of %u", &copied, &total), ==,
			2);
	/* 0 of 0: cancelled before the job started */
	g_assert_true(total == files->len || total == 0);
	g_assert_cmpuint(km_test_n_tracks(win), ==, before + copied);
	if (copied < total)
		g_assert_true(g_str_has_suffix(km_transfer_row_get_status(row), "cancelled"));
	km_test_assert_verifies_clean(win);
	km_test_close_window(win);
}

static void test_drop_duplicates(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	g_autofree char *folder = g_build_filename(work_dir, "dups", NULL);
	/* demo track 0 is on the player already */
	g_autoptr(GPtrArray) files = km_test_write_wavs(folder, 0, 1);
	g_autofree char *problems = NULL;
	guint before = km_test_n_tracks(win);

	km_player_view_add_files(pv, (GFile *const *)files->pdata, files->len);
	problems = km_transfer_row_dup_problems(wait_for_transfer(pv));
	g_assert_cmpuint(km_test_n_tracks(win), ==, before);
	g_assert_nonnull(strstr(problems, "track-0.wav: "));
	km_test_close_window(win);
}

/*
 * Whether the bytes of file are those of one of the demo tracks 0..n-1 (the
 * tests share one image: it also holds the tracks 100.. 300.. they add).
 */
static gboolean is_demo_track(GFile *file, guint n)
{
	g_autofree char *path = g_file_get_path(file);
	g_autofree char *data = NULL;
	gsize len = 0;

	g_assert_true(g_file_get_contents(path, &data, &len, NULL));
	for (guint i = 0; i < n; i++) {
		g_autoptr(GBytes) wav = km_demo_track_wav(i);

		if (g_bytes_get_size(wav) == len && memcmp(g_bytes_get_data(wav, NULL), data, len) == 0)
			return TRUE;
	}
	return FALSE;
}

/* The template's name for track, below folder. */
static char *expected_path(const char *folder, KmTrack *t)
{
	return g_strdup_printf("%s/%s/%s/%02u %s.wav", folder, km_track_get_artist(t),
			       km_track_get_album(t), km_track_get_track_number(t),
			       km_track_get_title(t));
}

static void test_export(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	g_autofree char *folder = g_build_filename(work_dir, "export", NULL);
	g_autoptr(GFile) dest = g_file_new_for_path(folder);
	g_autoptr(KmTrack) track = NULL;
	g_autofree char *path = NULL;
	g_autoptr(GFile) file = NULL;
	guint pos;

	g_assert_cmpint(g_mkdir_with_parents(folder, 0700), ==, 0);
	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	pos = km_test_first_track_row(pv);
	track = km_test_row_track(pv, pos);
	km_test_select(pv, pos);
	km_player_view_export_selected(pv, dest);
	wait_for_transfer(pv);
	path = expected_path(folder, track);
	file = g_file_new_for_path(path);
	g_assert_true(g_file_test(path, G_FILE_TEST_IS_REGULAR));
	g_assert_true(is_demo_track(file, MAX_DEMO_TRACK));
	km_test_close_window(win);
}

static void test_drag_out(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	GtkEventController *drag = NULL;
	GdkContentProvider *provider = NULL;
	g_auto(GValue) value = G_VALUE_INIT;
	g_auto(GValue) fids = G_VALUE_INIT;
	g_autoptr(GPtrArray) selected = NULL;
	GSList *files;
	guint pos;

	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	pos = km_test_first_track_row(pv);
	km_test_select(pv, pos);
	selected = km_library_view_get_selected_tracks(_km_player_view_get_library_view(pv));
	g_assert_cmpuint(selected->len, ==, 1);
	gtk_test_widget_wait_for_draw(GTK_WIDGET(win));
	/* a cell of the column view, as the user grabs it */
	g_assert_nonnull(km_test_find_controller(GTK_WIDGET(pv), GTK_TYPE_DRAG_SOURCE, &drag));
	g_signal_emit_by_name(drag, "prepare", 5.0, 5.0, &provider);
	g_assert_true(KM_IS_EXPORT_PROVIDER(provider));
	/* in the app: the fids of the selection (the cell's row may have been selected too) */
	g_value_init(&fids, KM_TYPE_FID_LIST);
	g_assert_true(gdk_content_provider_get_value(provider, &fids, NULL));
	g_assert_cmpuint(((GArray *)g_value_get_boxed(&fids))->len, >=, 1);
	/* for the file manager: the exported files */
	km_test_wait_until(km_export_provider_is_ready(KM_EXPORT_PROVIDER(provider)));
	g_value_init(&value, GDK_TYPE_FILE_LIST);
	g_assert_true(gdk_content_provider_get_value(provider, &value, NULL));
	files = gdk_file_list_get_files(g_value_get_boxed(&value));
	g_assert_cmpuint(g_slist_length(files), ==,
			 ((GArray *)g_value_get_boxed(&fids))->len);
	for (GSList *l = files; l; l = l->next) {
		g_autofree char *name = g_file_get_basename(l->data);

		g_assert_true(g_str_has_suffix(name, ".wav"));
		g_assert_true(is_demo_track(l->data, MAX_DEMO_TRACK));
	}
	/* the next start of the app removes them */
	g_assert_true(g_file_query_exists(files->data, NULL));
	km_drag_folders_clean();
	for (GSList *l = files; l; l = l->next)
		g_assert_false(g_file_query_exists(l->data, NULL));
	g_slist_free(files);
	g_object_unref(provider);
	km_test_close_window(win);
}

static void test_delete(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	GtkWidget *dialog;
	g_autoptr(KmTrack) track = NULL;
	guint before = km_test_n_tracks(win), pos;

	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	pos = km_test_first_track_row(pv);
	track = km_test_row_track(pv, pos);
	km_test_select(pv, pos);
	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), "player.delete", NULL));
	dialog = km_test_find_dialog(KM_TYPE_QUESTION_DIALOG);
	g_assert_nonnull(dialog);
	/* Cancel keeps it */
	km_test_answer(dialog, "cancel");
	g_assert_cmpuint(km_test_n_tracks(win), ==, before);
	/* Delete removes it */
	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), "player.delete", NULL));
	dialog = km_test_find_dialog(KM_TYPE_QUESTION_DIALOG);
	km_test_answer(dialog, "delete");
	km_test_wait_until(km_test_n_tracks(win) == before - 1);
	g_assert_null(km_session_lookup_track(km_test_session(win), km_track_get_fid(track)));
	km_test_assert_verifies_clean(win);
	km_test_close_window(win);
}

/* Answers the name dialog the action opens. */
static void answer_name(KmPlayerView *pv, const char *action, const char *name,
			const char *response)
{
	GtkWidget *dialog;

	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), action, NULL));
	dialog = km_test_find_dialog(KM_TYPE_QUESTION_DIALOG);
	g_assert_nonnull(dialog);
	gtk_editable_set_text(GTK_EDITABLE(km_question_dialog_get_extra_child(
		KM_QUESTION_DIALOG(dialog))), name);
	km_test_answer(dialog, response);
}

/* Whether the library view (expanded) has a row for fid. */
static gboolean view_shows(KmPlayerView *pv, guint32 fid)
{
	GListModel *model = G_LIST_MODEL(km_library_view_get_model(
		_km_player_view_get_library_view(pv)));

	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	for (guint i = 0; i < g_list_model_get_n_items(model); i++) {
		g_autoptr(KmTrack) track = km_test_row_track(pv, i);

		if (track && km_track_get_fid(track) == fid)
			return TRUE;
	}
	return FALSE;
}

static gboolean is_button_labelled(GtkWidget *widget, gconstpointer label)
{
	return GTK_IS_BUTTON(widget) && g_strcmp0(gtk_button_get_label(GTK_BUTTON(widget)), label) == 0;
}

/* The button labelled label (with its mnemonic) below widget, or NULL. */
static GtkWidget *find_button(GtkWidget *widget, const char *label)
{
	return km_test_find_widget_where(widget, is_button_labelled, label);
}

/* Selects the first track row and deletes it; returns it. */
static KmTrack *delete_first_track(KmPlayerView *pv)
{
	KmTrack *track;
	guint pos;

	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	pos = km_test_first_track_row(pv);
	track = km_test_row_track(pv, pos);
	km_test_select(pv, pos);
	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), "player.delete", NULL));
	g_assert_null(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG));
	return track;
}

/*
 * With confirm-delete off, Delete hides the track at once and a toast offers
 * Undo; the track leaves the player when the toast goes, or before an eject.
 */
static void test_delete_undo(gconstpointer image)
{
	g_autoptr(GSettings) settings = g_settings_new("io.github.karmamanager.KarmaManager");
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	KmSession *session = km_test_session(win);
	g_autoptr(KmTrack) undone = NULL, by_key = NULL, deleted = NULL, listed = NULL;
	g_autoptr(KmTrack) ejected = NULL, closed = NULL;
	guint before = km_test_n_tracks(win), n_playlists;
	GtkWidget *undo;

	g_settings_set_boolean(settings, "confirm-delete", FALSE);

	/* Undo: the track comes back, the player never lost it */
	undone = delete_first_track(pv);
	g_assert_false(view_shows(pv, km_track_get_fid(undone)));
	g_assert_nonnull(km_session_lookup_track(session, km_track_get_fid(undone)));
	g_assert_cmpuint(km_player_view_get_n_uncommitted_deletes(pv), ==, 1);
	km_test_wait_until((undo = find_button(GTK_WIDGET(win), "_Undo")) != NULL);
	gtk_widget_activate(undo);	/* a button clicks a moment later, as when pressed */
	km_test_wait_until(km_player_view_get_n_uncommitted_deletes(pv) == 0);
	g_assert_true(view_shows(pv, km_track_get_fid(undone)));
	g_assert_cmpuint(km_test_n_tracks(win), ==, before);

	/* Ctrl+Z does the same */
	by_key = delete_first_track(pv);
	g_assert_false(view_shows(pv, km_track_get_fid(by_key)));
	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), "player.undo-delete", NULL));
	g_assert_cmpuint(km_player_view_get_n_uncommitted_deletes(pv), ==, 0);
	g_assert_true(view_shows(pv, km_track_get_fid(by_key)));
	g_assert_cmpuint(km_test_n_tracks(win), ==, before);

	/* the toast's time is up: deleted on the player */
	deleted = delete_first_track(pv);
	g_assert_true(km_track_get_fid(deleted) == km_track_get_fid(undone));
	adw_toast_dismiss(pv->undo_toast);	/* what its timeout does */
	km_test_wait_until(km_test_n_tracks(win) == before - 1);
	g_assert_null(km_session_lookup_track(session, km_track_get_fid(deleted)));
	km_test_wait_until(g_hash_table_size(pv->hidden_fids) == 0);
	km_test_assert_verifies_clean(win);

	/* a playlist shown while undoable (a new one is selected): deleted first */
	n_playlists = g_list_model_get_n_items(km_session_get_playlists(session));
	listed = delete_first_track(pv);
	answer_name(pv, "player.new-playlist", "Undo Test", "create");
	km_test_wait_until(km_playlist_sidebar_get_selected(_km_player_view_get_sidebar(pv)));
	g_assert_cmpuint(km_player_view_get_n_uncommitted_deletes(pv), ==, 0);
	km_test_wait_until(km_test_n_tracks(win) == before - 2);
	g_assert_null(km_session_lookup_track(session, km_track_get_fid(listed)));
	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), "player.delete-playlist", NULL));
	km_test_wait_until(g_list_model_get_n_items(km_session_get_playlists(session)) ==
			   n_playlists);

	/* ejected while undoable (its toast waiting behind another): deleted first */
	km_widget_toast(GTK_WIDGET(pv), "A toast shown before");
	ejected = delete_first_track(pv);
	g_assert_cmpuint(km_player_view_get_n_uncommitted_deletes(pv), ==, 1);
	km_player_view_eject(pv);
	km_test_wait_until(km_window_get_player_view(win) == NULL);
	km_test_close_window(win);
	win = km_test_open_window(image);
	g_assert_cmpuint(km_test_n_tracks(win), ==, before - 3);
	g_assert_null(km_session_lookup_track(km_test_session(win), km_track_get_fid(ejected)));

	/* the window closed while undoable: deleted, then the window closes */
	closed = delete_first_track(km_test_player_view(win));
	gtk_window_close(GTK_WINDOW(win));
	km_test_wait_until(!gtk_widget_get_visible(GTK_WIDGET(win)));
	km_test_close_window(win);
	win = km_test_open_window(image);
	g_assert_cmpuint(km_test_n_tracks(win), ==, before - 4);
	g_assert_null(km_session_lookup_track(km_test_session(win), km_track_get_fid(closed)));
	g_settings_reset(settings, "confirm-delete");
	km_test_close_window(win);
}

static KmPlaylistItem *playlist_named(KmWindow *win, const char *name)
{
	GListModel *lists = km_session_get_playlists(km_test_session(win));

	for (guint i = 0; i < g_list_model_get_n_items(lists); i++) {
		g_autoptr(KmPlaylistItem) p = g_list_model_get_item(lists, i);

		if (g_str_equal(km_playlist_item_get_name(p), name))
			return p;	/* the session's list holds it */
	}
	return NULL;
}

static void test_playlists(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	KmPlaylistSidebar *sidebar = _km_player_view_get_sidebar(pv);
	KmPlaylistItem *playlist;
	GtkDropTarget *target;
	g_auto(GValue) value = G_VALUE_INIT;
	GArray *fids = g_array_new(FALSE, FALSE, sizeof(guint32));
	g_autoptr(KmTrack) first = NULL;
	gboolean accepted = FALSE;

	answer_name(pv, "player.new-playlist", "Road Trip", "create");
	km_test_wait_until(playlist_named(win, "Road Trip") != NULL);
	/* the new playlist is selected: an empty list */
	km_test_wait_until(km_playlist_sidebar_get_selected(sidebar) != NULL);
	g_assert_true(km_test_find_label(GTK_WIDGET(sidebar), "Road Trip"));
	answer_name(pv, "player.rename-playlist", "Night Drive", "rename");
	km_test_wait_until(playlist_named(win, "Night Drive") != NULL);
	g_assert_null(playlist_named(win, "Road Trip"));

	/* two tracks dropped on its row */
	playlist = playlist_named(win, "Night Drive");
	for (guint i = 0; i < 2; i++) {
		g_autoptr(KmTrack) t = g_list_model_get_item(
			km_session_get_tracks(km_test_session(win)), i);
		guint32 fid = km_track_get_fid(t);

		g_array_append_val(fids, fid);
	}
	target = km_playlist_sidebar_get_drop_target(sidebar, km_playlist_item_get_fid(playlist));
	g_assert_nonnull(target);
	g_value_init(&value, KM_TYPE_FID_LIST);
	g_value_take_boxed(&value, fids);
	g_signal_emit_by_name(target, "drop", &value, 1.0, 1.0, &accepted);
	g_assert_true(accepted);
	km_test_wait_until(km_playlist_item_get_n_entries(playlist_named(win, "Night Drive")) == 2);
	/* the view shows the playlist's tracks; move the second up */
	km_test_wait_until(g_list_model_get_n_items(G_LIST_MODEL(km_library_view_get_model(
		_km_player_view_get_library_view(pv)))) == 2);
	km_test_select(pv, 1);
	first = km_test_row_track(pv, 1);
	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), "player.move-up", NULL));
	km_test_wait_until(km_playlist_item_get_entry_fid(playlist_named(win, "Night Drive"), 0) ==
			   km_track_get_fid(first));
	/* Delete in a playlist removes the entry, not the track */
	km_test_select(pv, 0);
	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), "player.delete", NULL));
	km_test_wait_until(km_playlist_item_get_n_entries(playlist_named(win, "Night Drive")) == 1);
	g_assert_cmpuint(km_test_n_tracks(win), >=, N_TRACKS - 1);
	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), "player.delete-playlist", NULL));
	km_test_wait_until(playlist_named(win, "Night Drive") == NULL);
	km_test_close_window(win);
}

int main(int argc, char **argv)
{
	g_autofree char *image = NULL;

	km_test_init(&argc, &argv);
	work_dir = g_dir_make_tmp("km-transfers-XXXXXX", NULL);
	image = km_test_make_image(N_TRACKS);
	g_test_add_func("/app/transfers/progress-row", test_progress_row);
	g_test_add_data_func("/app/transfers/drop-files", image, test_drop_files);
	g_test_add_data_func("/app/transfers/drop-cancel", image, test_drop_cancel);
	g_test_add_data_func("/app/transfers/drop-duplicates", image, test_drop_duplicates);
	g_test_add_data_func("/app/transfers/export", image, test_export);
	g_test_add_data_func("/app/transfers/drag-out", image, test_drag_out);
	g_test_add_data_func("/app/edit/delete", image, test_delete);
	g_test_add_data_func("/app/edit/delete-undo", image, test_delete_undo);
	g_test_add_data_func("/app/edit/playlists", image, test_playlists);
	return g_test_run();
}
