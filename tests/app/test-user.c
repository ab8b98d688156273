/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-user.c - the window as a new user meets it, driven only through what
 * a user has: key presses to the window (wherever its focus is), clicks at
 * the coordinates of widgets on screen, and what the screen then shows.
 * Each test is one problem a walk-through found (issue 20).
 */
#include "config.h"

#include "km-test-util.h"

#include <string.h>

#include "km-test-input.h"
#include "km-test-screen.h"
#include "km-library-group.h"
#include "km-app-util.h"
#include "km-fid.h"
#include "km-image-device.h"
#include "km-karma-image.h"
#include "omfs.h"

#define N_TRACKS 12

static gboolean is_expanded(KmPlayerView *pv, guint position)
{
	g_autoptr(GObject) row = g_list_model_get_item(km_test_view_rows(pv), position);

	return GTK_IS_TREE_LIST_ROW(row) && gtk_tree_list_row_get_expanded(GTK_TREE_LIST_ROW(row));
}

static gboolean search_has_focus(GtkWindow *window, KmPlayerView *pv)
{
	GtkWidget *focus = gtk_window_get_focus(window);

	return focus && gtk_widget_get_ancestor(focus, GTK_TYPE_SEARCH_ENTRY) &&
	       gtk_widget_is_ancestor(focus, GTK_WIDGET(pv));
}

/*
 * 1. Files dropped on the library, their finished transfer dismissed with
 * its ×: the focus went with the row, and every documented shortcut of the
 * player view still works.
 */
static void test_shortcuts_anywhere(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	GtkWindow *window = GTK_WINDOW(win);
	GtkWidget *details = GTK_WIDGET(_km_player_view_get_details_pane(pv));
	GtkWidget *transfers = GTK_WIDGET(_km_player_view_get_transfers(pv));
	g_autofree char *folder = g_build_filename(g_get_tmp_dir(), "km-user-drop", NULL);
	g_autoptr(GPtrArray) files = km_test_write_wavs(folder, 500, 1);
	GtkWidget *dismiss = NULL, *dialog;

	km_test_focus_window(window);
	km_player_view_add_files(pv, (GFile *const *)files->pdata, files->len);
	km_test_wait_until(!km_player_view_is_busy(pv));
	km_test_wait_until((dismiss = km_test_find_icon_button(transfers, "window-close-symbolic")));
	/* the panel slides in: the × is still moving until it is revealed */
	km_test_wait_until(gtk_revealer_get_child_revealed(
		GTK_REVEALER(gtk_widget_get_first_child(transfers))));
	km_test_click(dismiss, 1, 1);
	km_test_wait_until(km_transfer_panel_get_first_row(KM_TRANSFER_PANEL(transfers)) == NULL);
	/* Ctrl+F: the search entry, focused; Escape closes it */
	km_test_press_key(window, GDK_KEY_f, GDK_CONTROL_MASK);
	g_assert_true(search_has_focus(window, pv));
	km_test_press_key(window, GDK_KEY_Escape, 0);
	/* Ctrl+N asks the new playlist's name */
	km_test_press_key(window, GDK_KEY_n, GDK_CONTROL_MASK);
	dialog = km_test_find_dialog(KM_TYPE_QUESTION_DIALOG);
	g_assert_nonnull(dialog);
	km_test_answer(dialog, "cancel");
	/* as a user waits for it to go (an AdwDialog has the focus until it is gone) */
	km_test_wait_until(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG) == NULL);
	/* Ctrl+A selects every track */
	km_test_press_key(window, GDK_KEY_a, GDK_CONTROL_MASK);
	{
		g_autoptr(GPtrArray) selected = km_library_view_get_selected_tracks(
			_km_player_view_get_library_view(pv));

		g_assert_cmpuint(selected->len, ==, km_test_n_tracks(win));
	}
	/* F9 hides the details, and shows them again */
	g_assert_true(gtk_widget_get_mapped(details));
	km_test_press_key(window, GDK_KEY_F9, 0);
	km_test_wait_until(!gtk_widget_get_mapped(details));
	km_test_press_key(window, GDK_KEY_F9, 0);
	km_test_wait_until(gtk_widget_get_mapped(details));
	/* Ctrl+J ejects */
	km_test_press_key(window, GDK_KEY_j, GDK_CONTROL_MASK);
	km_test_wait_until(km_window_get_player_view(win) == NULL);
	km_test_close_window(win);
}

/* The ▸ of a group's row: the expander's icon widget. */
static GtkWidget *expander_arrow(GtkWidget *cell)
{
	for (GtkWidget *c = gtk_widget_get_first_child(cell); c; c = gtk_widget_get_next_sibling(c))
		if (g_str_equal(gtk_widget_get_css_name(c), "expander"))
			return c;
	return NULL;
}

/*
 * 2. An artist opens by a click on its ▸ (the sidebar's divider does not
 * take that click), by a double-click on its row, and by Enter.
 */
static void test_expand_group(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	GtkWidget *arrow = expander_arrow(km_test_title_cell(pv, 0));
	guint n = g_list_model_get_n_items(km_test_view_rows(pv));

	km_test_focus_window(GTK_WINDOW(win));
	g_assert_nonnull(arrow);
	km_test_click(arrow, 1, 1);
	g_assert_true(is_expanded(pv, 0));
	g_assert_cmpuint(g_list_model_get_n_items(km_test_view_rows(pv)), >, n);
	km_test_click(expander_arrow(km_test_title_cell(pv, 0)), 1, 1);
	g_assert_false(is_expanded(pv, 0));
	/* a double-click on the row opens it, another closes it */
	km_test_click_row(pv, 0, 2);
	g_assert_true(is_expanded(pv, 0));
	km_test_click_row(pv, 0, 2);
	g_assert_false(is_expanded(pv, 0));
	/* Enter on the selected row, as the shortcuts window says */
	km_test_press_key(GTK_WINDOW(win), GDK_KEY_Return, 0);
	g_assert_true(is_expanded(pv, 0));
	km_test_close_window(win);
}

static void on_playlist_done(GObject *source, GAsyncResult *result, gpointer data)
{
	g_autoptr(GError) error = NULL;

	km_session_edit_finish(KM_SESSION(source), result, &error);
	g_assert_no_error(error);
	*(gboolean *)data = TRUE;
}

static void on_playlist_created(GObject *source, GAsyncResult *result, gpointer data)
{
	g_autoptr(GError) error = NULL;
	guint32 fid = 0;

	g_assert_true(km_session_playlist_create_finish(KM_SESSION(source), result, &fid, &error));
	*(guint32 *)data = fid;
}

/* A playlist name holding the tracks fids, in this order (the player's, before the test). */
static void make_playlist(KmSession *session, const char *name, GArray *fids)
{
	guint32 fid = 0;
	gboolean done = FALSE;

	km_session_playlist_create_async(session, name, NULL, on_playlist_created, &fid);
	km_test_wait_until(fid != 0);
	km_session_playlist_add_async(session, fid, (guint32 *)(void *)fids->data, fids->len, -1,
				      NULL, on_playlist_done, &done);
	km_test_wait_until(done);
}

/* Whether the view shows, top to bottom, the tracks of fids in that order. */
static gboolean rows_are(KmPlayerView *pv, GArray *fids)
{
	if (g_list_model_get_n_items(km_test_view_rows(pv)) != fids->len)
		return FALSE;
	for (guint i = 0; i < fids->len; i++) {
		g_autoptr(KmTrack) t = km_test_row_track(pv, i);

		if (!t || km_track_get_fid(t) != g_array_index(fids, guint32, i))
			return FALSE;
	}
	return TRUE;
}

static GArray *fids_of(KmTrack *const *tracks, const guint *order, guint n)
{
	GArray *fids = g_array_new(FALSE, FALSE, sizeof(guint32));

	for (guint i = 0; i < n; i++) {
		guint32 fid = km_track_get_fid(tracks[order[i]]);

		g_array_append_val(fids, fid);
	}
	return fids;
}

static int by_title(gconstpointer a, gconstpointer b)
{
	return g_utf8_collate(km_track_get_title(*(KmTrack **)a), km_track_get_title(*(KmTrack **)b));
}

/* The only row selected, or G_MAXUINT. */
static guint selected_row(KmPlayerView *pv)
{
	GtkSelectionModel *model = GTK_SELECTION_MODEL(km_test_view_rows(pv));
	g_autoptr(GtkBitset) set = gtk_selection_model_get_selection(model);

	return gtk_bitset_get_size(set) == 1 ? gtk_bitset_get_nth(set, 0) : G_MAXUINT;
}

/*
 * 3. A playlist opens in its own order after a header click sorted the
 * library; a third click on the header goes back to it; Alt+Down and
 * Alt+Up move the selected entry, which stays selected, and a move in a
 * sorted playlist shows the playlist's order first.
 */
static void test_playlist_order(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	KmSession *session = km_test_session(win);
	GtkWidget *sidebar = GTK_WIDGET(_km_player_view_get_sidebar(pv));
	GtkWidget *columns = GTK_WIDGET(_km_player_view_get_library_view(pv));
	g_autoptr(GPtrArray) tracks = g_ptr_array_new_with_free_func(g_object_unref);
	g_autoptr(GArray) own = NULL, up = NULL, down = NULL, moved = NULL, moved2 = NULL;
	KmTrack **t;

	km_test_focus_window(GTK_WINDOW(win));
	for (guint i = 0; i < 3; i++)
		g_ptr_array_add(tracks, g_list_model_get_item(km_session_get_tracks(session), i));
	g_ptr_array_sort(tracks, by_title);
	t = (KmTrack **)tracks->pdata;
	g_assert_cmpint(g_utf8_collate(km_track_get_title(t[0]), km_track_get_title(t[1])), <, 0);
	g_assert_cmpint(g_utf8_collate(km_track_get_title(t[1]), km_track_get_title(t[2])), <, 0);
	own = fids_of(t, (guint[]){ 1, 2, 0 }, 3);
	up = fids_of(t, (guint[]){ 0, 1, 2 }, 3);
	down = fids_of(t, (guint[]){ 2, 1, 0 }, 3);
	moved = fids_of(t, (guint[]){ 2, 1, 0 }, 3);
	moved2 = fids_of(t, (guint[]){ 2, 0, 1 }, 3);
	make_playlist(session, "Mix", own);
	/* the library sorted by title, then the playlist opened: its order */
	km_test_click_label(columns, "Title");
	km_test_click_label(sidebar, "Mix");
	km_test_wait_until(rows_are(pv, own));
	/* the header: ascending, descending, the playlist's order */
	km_test_click_label(columns, "Title");
	g_assert_true(rows_are(pv, up));
	km_test_click_label(columns, "Title");
	g_assert_true(rows_are(pv, down));
	km_test_click_label(columns, "Title");
	g_assert_true(rows_are(pv, own));
	/* Alt+Down moves the first entry down; it stays selected */
	km_test_click_row(pv, 0, 1);
	km_test_press_key(GTK_WINDOW(win), GDK_KEY_Down, GDK_ALT_MASK);
	km_test_wait_until(rows_are(pv, moved));
	g_assert_cmpuint(selected_row(pv), ==, 1);
	/* sorted by title, Alt+Up on the first row (t0, the playlist's last): in the playlist's order */
	km_test_click_label(columns, "Title");
	g_assert_true(rows_are(pv, up));
	km_test_click_row(pv, 0, 1);
	km_test_press_key(GTK_WINDOW(win), GDK_KEY_Up, GDK_ALT_MASK);
	km_test_wait_until(rows_are(pv, moved2));
	g_assert_cmpuint(selected_row(pv), ==, 1);
	km_test_close_window(win);
}

/*
 * 9. A track deleted (no question asked) is gone from the details pane
 * while its undo toast is up: nothing to edit or save, Export disabled.
 */
static void test_deleted_not_editable(gconstpointer image)
{
	g_autoptr(GSettings) settings = g_settings_new(APP_ID);
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	GtkWidget *details = GTK_WIDGET(_km_player_view_get_details_pane(pv));
	GtkWidget *export_button;

	g_settings_set_boolean(settings, "confirm-delete", FALSE);
	km_test_focus_window(GTK_WINDOW(win));
	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	km_test_click_row(pv, km_test_first_track_row(pv), 1);
	g_assert_nonnull(km_test_find_shown_label(details, "Save Tags"));
	/* the header's Export, not the sidebar's Export Playlist (the same icon) */
	export_button = km_test_find_action_button(GTK_WIDGET(pv), "player.export");
	g_assert_true(gtk_widget_get_sensitive(export_button));
	km_test_press_key(GTK_WINDOW(win), GDK_KEY_Delete, 0);
	g_assert_cmpuint(km_player_view_get_n_uncommitted_deletes(pv), ==, 1);
	km_test_settle(GTK_WINDOW(win));
	g_assert_nonnull(km_test_find_shown_label(details, "No Track Selected"));
	g_assert_null(km_test_find_shown_label(details, "Save Tags"));
	g_assert_false(gtk_widget_get_sensitive(export_button));
	g_settings_reset(settings, "confirm-delete");
	km_test_close_window(win);
}

typedef struct {
	KmPlayerView *pv;
	gboolean progressed;	/* the row showed a progress line */
	gboolean counted;	/* the space bar counted the job as queued for the player */
} SpaceWatch;

static void on_transfers_changed(KmTransferPanel *panel, SpaceWatch *watch)
{
	KmTransferRow *row = km_transfer_panel_get_first_row(panel);
	KmCapacityBar *bar = watch->pv->capacity_bar;

	if (row && km_transfer_row_is_running(row) &&
	    strstr(km_transfer_row_get_status(row), " of "))
		watch->progressed = TRUE;
	if (strstr(km_capacity_bar_get_text(bar), "queued"))
		watch->counted = TRUE;
}

/*
 * 8. Back Up Player… from the main menu: while the backup runs, the space
 * bar does not count it as copies onto the player.
 */
static void test_space_bar_backup(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	KmTransferPanel *transfers = _km_player_view_get_transfers(pv);
	SpaceWatch watch = { .pv = pv };
	GtkWidget *menu;
	KmTransferRow *row;

	km_test_focus_window(GTK_WINDOW(win));
	g_signal_connect_after(transfers, "changed", G_CALLBACK(on_transfers_changed), &watch);
	menu = km_test_find_icon_button(GTK_WIDGET(pv), "open-menu-symbolic");
	g_assert_nonnull(menu);
	km_test_click(menu, 1, 1);
	km_test_click_label(GTK_WIDGET(pv), "Back Up Player…");
	km_test_wait_until((row = km_transfer_panel_get_first_row(transfers)) != NULL);
	km_test_wait_until(!km_transfer_row_is_running(row));
	g_signal_handlers_disconnect_by_data(transfers, &watch);
	/* the whole disk was read, with progress on the way */
	g_assert_true(watch.progressed);
	g_assert_false(watch.counted);
	km_test_close_window(win);
}

/* Whether each problem line of the row names its file once. */
static void assert_names_once(const char *problems)
{
	g_auto(GStrv) lines = g_strsplit(problems, "\n", -1);

	for (guint i = 0; lines[i] && *lines[i]; i++) {
		const char *colon = strstr(lines[i], ": ");
		g_autofree char *name = colon ? g_strndup(lines[i], colon - lines[i]) : NULL;

		g_assert_nonnull(name);
		g_assert_null(strstr(colon, name));
	}
}

/*
 * 10a. A finished transfer does not say "Copying…" any more, and its
 * refusal lines name each file once.
 */
static void test_transfer_finished(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	GtkWidget *transfers = GTK_WIDGET(_km_player_view_get_transfers(pv));
	g_autofree char *folder = g_build_filename(g_get_tmp_dir(), "km-user-finished", NULL);
	g_autofree char *text = g_build_filename(folder, "notes.txt", NULL);
	/* demo track 0 is on the player already */
	g_autoptr(GPtrArray) files = km_test_write_wavs(folder, 0, 1);
	g_autofree char *problems = NULL;
	KmTransferRow *row;

	g_assert_true(g_file_set_contents(text, "not music\n", -1, NULL));
	g_ptr_array_add(files, g_file_new_for_path(text));
	km_player_view_add_files(pv, (GFile *const *)files->pdata, files->len);
	row = km_transfer_panel_get_first_row(KM_TRANSFER_PANEL(transfers));
	km_test_wait_until(!km_transfer_row_is_running(row));
	km_test_settle(GTK_WINDOW(win));
	g_assert_null(km_test_find_shown_label(transfers, "Copying 2 items to the player"));
	g_assert_nonnull(km_test_find_shown_label(transfers, "0 of 2 files copied"));
	problems = km_transfer_row_dup_problems(row);
	g_assert_nonnull(strstr(problems, "notes.txt: "));
	g_assert_nonnull(strstr(problems, "track-0.wav: "));
	assert_names_once(problems);
	km_test_close_window(win);
}

/* Whether the view shows the search's flat list of tracks. */
static gboolean shows_results(KmPlayerView *pv)
{
	g_autoptr(GObject) row = g_list_model_get_item(km_test_view_rows(pv), 0);

	return KM_IS_TRACK(row);
}

/* The first row of an artist or album with two tracks or more. */
static guint big_group_row(KmPlayerView *pv)
{
	for (guint i = 0; i < g_list_model_get_n_items(km_test_view_rows(pv)); i++) {
		g_autoptr(GtkTreeListRow) row = g_list_model_get_item(km_test_view_rows(pv), i);
		g_autoptr(GObject) item = gtk_tree_list_row_get_item(row);
		g_autoptr(GPtrArray) tracks = g_ptr_array_new_with_free_func(g_object_unref);

		if (!KM_IS_LIBRARY_GROUP(item))
			continue;
		km_library_group_collect_tracks(KM_LIBRARY_GROUP(item), tracks);
		if (tracks->len >= 2)
			return i;
	}
	g_assert_not_reached();
}

/* A track of the session not in album (the session's list holds it). */
static KmTrack *other_album_track(KmSession *session, const char *album)
{
	GListModel *tracks = km_session_get_tracks(session);

	for (guint i = 0; i < g_list_model_get_n_items(tracks); i++) {
		g_autoptr(KmTrack) t = g_list_model_get_item(tracks, i);

		if (g_strcmp0(km_track_get_album(t), album) != 0)
			return t;
	}
	g_assert_not_reached();
}

/*
 * 10b. Artists opened in the library are still open after a visit to a
 * playlist; a search ended with Escape leaves selected what the results
 * had selected, not the artist selected before.
 */
static void test_tree_state(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	GtkWindow *window = GTK_WINDOW(win);
	GtkWidget *sidebar = GTK_WIDGET(_km_player_view_get_sidebar(pv));
	KmLibraryView *view = _km_player_view_get_library_view(pv);
	g_autoptr(GArray) fids = g_array_new(FALSE, FALSE, sizeof(guint32));
	g_autoptr(KmTrack) first = g_list_model_get_item(km_session_get_tracks(km_test_session(win)), 0);
	g_autoptr(KmTrack) found = NULL;
	g_autoptr(GPtrArray) selected = NULL;
	guint32 fid = km_track_get_fid(first);
	KmTrack *other;

	km_test_focus_window(window);
	g_array_append_val(fids, fid);
	make_playlist(km_test_session(win), "Visit", fids);
	km_test_click(expander_arrow(km_test_title_cell(pv, 0)), 1, 1);
	g_assert_true(is_expanded(pv, 0));
	km_test_click_label(sidebar, "Visit");
	km_test_wait_until(g_list_model_get_n_items(km_test_view_rows(pv)) == 1);
	km_test_click_label(sidebar, "Library");
	km_test_wait_until(g_list_model_get_n_items(km_test_view_rows(pv)) > 1);
	g_assert_true(is_expanded(pv, 0));
	/* a group of several tracks selected, then a search: a track of another album selected */
	km_test_click_row(pv, big_group_row(pv), 1);
	selected = km_library_view_get_selected_tracks(view);
	g_assert_cmpuint(selected->len, >=, 2);
	other = other_album_track(km_test_session(win), km_track_get_album(selected->pdata[0]));
	g_clear_pointer(&selected, g_ptr_array_unref);
	km_test_press_key(window, GDK_KEY_f, GDK_CONTROL_MASK);
	km_test_type_text(window, km_track_get_title(other));
	km_test_wait_until(shows_results(pv));
	found = km_test_row_track(pv, 0);
	km_test_click_row(pv, 0, 1);
	/* back in the search entry, Escape ends the search: the tree again */
	km_test_press_key(window, GDK_KEY_f, GDK_CONTROL_MASK);
	km_test_press_key(window, GDK_KEY_Escape, 0);
	km_test_wait_until(!shows_results(pv));
	selected = km_library_view_get_selected_tracks(view);
	g_assert_cmpuint(selected->len, <=, 1);
	if (selected->len)
		g_assert_true(km_track_get_fid(selected->pdata[0]) == km_track_get_fid(found));
	km_test_close_window(win);
}

/*
 * 10c. Eject while copying asks first; the copy ends while the question is
 * up: the question goes, and the player is ejected as asked.
 */
static void test_eject_question_goes(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	KmTransferRow *row = km_transfer_row_new("Copying", NULL, 0);

	km_transfer_panel_add(_km_player_view_get_transfers(pv), row);
	km_test_focus_window(GTK_WINDOW(win));
	km_test_press_key(GTK_WINDOW(win), GDK_KEY_j, GDK_CONTROL_MASK);
	g_assert_nonnull(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG));
	km_transfer_row_finish_text(row, "Done", NULL);
	km_test_wait_until(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG) == NULL);
	km_test_wait_until(km_window_get_player_view(win) == NULL);
	km_test_close_window(win);
}

static gboolean playlist_has(KmSession *session, guint32 playlist, guint32 fid)
{
	GListModel *lists = km_session_get_playlists(session);

	for (guint i = 0; i < g_list_model_get_n_items(lists); i++) {
		g_autoptr(KmPlaylistItem) p = g_list_model_get_item(lists, i);

		if (km_playlist_item_get_fid(p) != playlist)
			continue;
		for (guint e = 0; e < km_playlist_item_get_n_entries(p); e++)
			if (km_playlist_item_get_entry_fid(p, e) == fid)
				return TRUE;
	}
	return FALSE;
}

/* The fid of the playlist named name. */
static guint32 playlist_fid(KmSession *session, const char *name)
{
	GListModel *lists = km_session_get_playlists(session);

	for (guint i = 0; i < g_list_model_get_n_items(lists); i++) {
		g_autoptr(KmPlaylistItem) p = g_list_model_get_item(lists, i);

		if (g_str_equal(km_playlist_item_get_name(p), name))
			return km_playlist_item_get_fid(p);
	}
	return 0;
}

/* The row of the next track after row from. */
static guint next_track_row(KmPlayerView *pv, guint from)
{
	for (guint i = from + 1; i < g_list_model_get_n_items(km_test_view_rows(pv)); i++) {
		g_autoptr(KmTrack) t = km_test_row_track(pv, i);

		if (t)
			return i;
	}
	g_assert_not_reached();
}

/*
 * 7. An empty playlist says how tracks get into it; Add to Playlist is in
 * the track menu (a right-click, or the Menu key) and in the main menu.
 */
static void test_add_to_playlist(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	KmSession *session = km_test_session(win);
	GtkWidget *sidebar = GTK_WIDGET(_km_player_view_get_sidebar(pv));
	g_autoptr(GArray) none = g_array_new(FALSE, FALSE, sizeof(guint32));
	g_autoptr(KmTrack) by_click = NULL, by_key = NULL, by_menu = NULL;
	GtkWidget *menu_button, *menu;
	guint32 fid;
	guint pos;

	km_test_focus_window(GTK_WINDOW(win));
	make_playlist(session, "Later", none);
	fid = playlist_fid(session, "Later");
	km_test_click_label(sidebar, "Later");
	km_test_wait_until(km_test_find_shown_label(GTK_WIDGET(pv), "This Playlist Is Empty") != NULL);
	km_test_click_label(sidebar, "Library");
	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	/* a right-click on a track: its menu */
	pos = km_test_first_track_row(pv);
	by_click = km_test_row_track(pv, pos);
	km_test_click(gtk_tree_expander_get_child(GTK_TREE_EXPANDER(km_test_title_cell(pv, pos))), 3, 1);
	km_test_click_label(pv->track_popover, "Add to Playlist");
	km_test_click_label(pv->track_popover, "Later");
	km_test_wait_until(playlist_has(session, fid, km_track_get_fid(by_click)));
	/* the Menu key on the selected track */
	pos = next_track_row(pv, pos);
	km_test_click_row(pv, pos, 1);
	by_key = km_test_row_track(pv, pos);
	km_test_press_key(GTK_WINDOW(win), GDK_KEY_Menu, 0);
	km_test_wait_until(gtk_widget_get_mapped(pv->track_popover));
	km_test_click_label(pv->track_popover, "Add to Playlist");
	km_test_click_label(pv->track_popover, "Later");
	km_test_wait_until(playlist_has(session, fid, km_track_get_fid(by_key)));
	/* the main menu */
	pos = next_track_row(pv, pos);
	km_test_click_row(pv, pos, 1);
	by_menu = km_test_row_track(pv, pos);
	menu_button = km_test_find_icon_button(GTK_WIDGET(pv), "open-menu-symbolic");
	km_test_click(menu_button, 1, 1);
	/* in the menu: the sidebar has a "Later" too */
	menu = GTK_WIDGET(gtk_menu_button_get_popover(GTK_MENU_BUTTON(menu_button)));
	km_test_click_label(menu, "Add to Playlist");
	km_test_click_label(menu, "Later");
	km_test_wait_until(playlist_has(session, fid, km_track_get_fid(by_menu)));
	km_test_close_window(win);
}

/* Opens path in win (as the command line does) and reads the dialog that says why not. */
static void assert_open_refused(KmWindow *win, const char *path)
{
	g_autoptr(GFile) file = g_file_new_for_path(path);
	GtkWidget *dialog = NULL;

	km_window_open_image(win, file);
	km_test_wait_until((dialog = km_test_find_dialog(KM_TYPE_QUESTION_DIALOG)) != NULL);
	/* the text, once shown (an AdwAlertDialog shows its labels a frame after itself) */
	km_test_wait_until(km_test_shows_part(dialog, "This file is not a Rio Karma disk image"));
	/* the reader's words only in the details, shown on a click */
	g_assert_false(km_test_shows_part(dialog, "OMFS"));
	g_assert_false(km_test_shows_part(dialog, path));
	km_test_click_label(dialog, "Details");
	km_test_wait_until(km_test_shows_part(dialog, path) || km_test_shows_part(dialog, "OMFS") ||
			   km_test_shows_part(dialog, "block"));
	km_test_answer(dialog, "close");
	g_assert_null(km_window_get_player_view(win));
}

/*
 * 6. A text file, an empty file and an image with its superblock damaged,
 * opened as disk images: a dialog says so in plain words, the details
 * expand.
 */
static void test_open_errors(gconstpointer image)
{
	KmWindow *win = g_object_ref(km_window_new(NULL));
	g_autofree char *folder = g_dir_make_tmp("km-user-open-XXXXXX", NULL);
	g_autofree char *text = g_build_filename(folder, "notes.txt", NULL);
	g_autofree char *empty = g_build_filename(folder, "empty.img", NULL);
	g_autofree char *damaged = g_build_filename(folder, "damaged.img", NULL);
	g_autofree char *copy = km_test_make_image(2);
	g_autofree char *data = NULL;
	gsize len = 0;

	g_assert_true(g_file_set_contents(text, "These are my notes, not a player.\n", -1, NULL));
	g_assert_true(g_file_set_contents(empty, "", 0, NULL));
	g_assert_true(g_file_get_contents(copy, &data, &len, NULL));
	memset(data + 256, 0x5a, 256);	/* the superblock's root, size and magic */
	g_assert_true(g_file_set_contents(damaged, data, len, NULL));
	gtk_window_present(GTK_WINDOW(win));
	km_test_focus_window(GTK_WINDOW(win));
	assert_open_refused(win, text);
	assert_open_refused(win, empty);
	assert_open_refused(win, damaged);
	km_test_close_window(win);
}

static void on_tags_set(GObject *source, GAsyncResult *result, gpointer data)
{
	g_autoptr(GError) error = NULL;

	g_assert_true(km_session_edit_finish(KM_SESSION(source), result, &error));
	*(gboolean *)data = TRUE;
}

static gboolean rows_include(KmPlayerView *pv, guint32 fid)
{
	for (guint i = 0; i < g_list_model_get_n_items(km_test_view_rows(pv)); i++) {
		g_autoptr(KmTrack) t = km_test_row_track(pv, i);

		if (t && km_track_get_fid(t) == fid)
			return TRUE;
	}
	return FALSE;
}

/* Smaller: search ignores accents; typed "elodie" finds the artist "Élodie". */
static void test_search_accents(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	g_autoptr(KmTrack) track = g_list_model_get_item(km_session_get_tracks(km_test_session(win)), 0);
	guint32 fid = km_track_get_fid(track);
	KmTagEdit edit = { .artist = "Élodie Fontaine" };
	gboolean done = FALSE;

	km_session_set_tags_async(km_test_session(win), &fid, 1, &edit, NULL, on_tags_set, &done);
	km_test_wait_until(done);
	km_test_focus_window(GTK_WINDOW(win));
	km_test_press_key(GTK_WINDOW(win), GDK_KEY_f, GDK_CONTROL_MASK);
	km_test_type_text(GTK_WINDOW(win), "elodie");
	km_test_wait_until(shows_results(pv) && rows_include(pv, fid));
	g_assert_true(km_test_shows_part(GTK_WIDGET(pv), "Élodie Fontaine"));
	km_test_close_window(win);
}

/* Smaller: the delete question names the track; in a playlist the subtitle counts the playlist. */
static void test_delete_names_and_subtitle(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	g_autoptr(GArray) fids = g_array_new(FALSE, FALSE, sizeof(guint32));
	g_autoptr(KmTrack) track = NULL;
	g_autofree char *name = NULL;
	GtkWidget *dialog;
	guint pos;

	km_test_focus_window(GTK_WINDOW(win));
	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	pos = km_test_first_track_row(pv);
	track = km_test_row_track(pv, pos);
	km_test_click_row(pv, pos, 1);
	km_test_press_key(GTK_WINDOW(win), GDK_KEY_Delete, 0);
	dialog = km_test_find_dialog(KM_TYPE_QUESTION_DIALOG);
	g_assert_nonnull(dialog);
	km_test_wait_until(gtk_widget_get_mapped(dialog));
	name = g_strdup_printf("“%s”", km_track_get_title(track));
	g_assert_true(km_test_shows_part(dialog, name));
	km_test_answer(dialog, "cancel");
	/* a playlist of two entries: "2 tracks" */
	for (guint i = 0; i < 2; i++) {
		guint32 fid = km_track_get_fid(track);

		g_array_append_val(fids, fid);
	}
	make_playlist(km_test_session(win), "Twice", fids);
	km_test_click_label(GTK_WIDGET(_km_player_view_get_sidebar(pv)), "Twice");
	km_test_wait_until(km_test_find_shown_label(GTK_WIDGET(pv), "2 tracks") != NULL);
	km_test_close_window(win);
}

/*
 * Smaller: the app's icon is in its resources, where GtkApplication puts
 * the icon theme's path: the About window shows it when run uninstalled.
 */
static void test_icon_in_resources(void)
{
	GtkIconTheme *theme = gtk_icon_theme_get_for_display(gdk_display_get_default());
	g_autoptr(GtkIconPaintable) icon = NULL;
	g_autoptr(GFile) file = NULL;
	g_autofree char *uri = NULL;

	/* what gtk_application's startup does with resource-base-path */
	gtk_icon_theme_add_resource_path(theme, "/io/github/karmamanager/KarmaManager/icons");
	g_assert_true(gtk_icon_theme_has_icon(theme, APP_ID));
	icon = gtk_icon_theme_lookup_icon(theme, APP_ID, NULL, 128, 1, GTK_TEXT_DIR_LTR, 0);
	file = gtk_icon_paintable_get_file(icon);
	uri = g_file_get_uri(file);
	g_assert_true(g_str_has_prefix(uri, "resource:///io/github/karmamanager/KarmaManager/icons/"));
}

/*
 * Smaller: a track's All Properties are in name order, its duration and
 * size readable, the stored value on hover.
 */
static void test_properties_readable(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	GtkWidget *details = GTK_WIDGET(_km_player_view_get_details_pane(pv));
	GtkWidget *list = NULL, *row;
	const char *prev = "";
	gboolean saw_duration = FALSE;

	km_test_focus_window(GTK_WINDOW(win));
	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	km_test_click_row(pv, km_test_first_track_row(pv), 1);
	km_test_wait_until(km_test_find_shown_label(details, "All Properties") != NULL);
	list = gtk_widget_get_ancestor(km_test_find_shown_label(details, "fid_generation"), GTK_TYPE_LIST_BOX);
	g_assert_nonnull(list);
	for (row = gtk_widget_get_first_child(list); row; row = gtk_widget_get_next_sibling(row)) {
		const char *key = adw_preferences_row_get_title(ADW_PREFERENCES_ROW(row));
		const char *shown = adw_action_row_get_subtitle(ADW_ACTION_ROW(row));

		g_assert_cmpint(strcmp(prev, key), <, 0);
		prev = key;
		if (g_str_equal(key, "duration")) {
			saw_duration = TRUE;
			g_assert_nonnull(strchr(shown, ':'));
			g_assert_true(g_ascii_isdigit(gtk_widget_get_tooltip_text(row)[0]));
		}
	}
	g_assert_true(saw_duration);
	km_test_close_window(win);
}

/* Overwrites every copy of the inode of fid's data file in image with garbage. */
static void destroy_data_inode(const char *image, guint32 fid)
{
	char msg[256], path[KM_FID_PATH_SIZE];
	struct km_image_device *dev = km_test_open_music(image, false);
	const struct omfs_mount_opts opts = { .read_only = true };
	struct omfs_fs *fs = NULL;
	struct omfs_statfs sfs;
	uint64_t ino = 0;
	gsize size;
	g_autofree guint8 *garbage = NULL;
	FILE *f;

	g_assert_nonnull(dev);
	g_assert_cmpint(omfs_mount(km_image_device_blockdev(dev), &opts, &fs, msg, sizeof(msg)), ==, 0);
	km_fid_format_path(fid, KM_FID_FILE_DATA, path);
	g_assert_cmpint(omfs_resolve(fs, path, &ino), ==, 0);
	g_assert_cmpint(omfs_statfs(fs, &sfs), ==, 0);
	omfs_unmount(fs);
	km_image_device_close(dev);
	size = (gsize)sfs.blocksize * sfs.mirrors;
	garbage = g_malloc(size);
	memset(garbage, 0xa5, size);
	f = fopen(image, "r+b");
	g_assert_nonnull(f);
	g_assert_cmpint(fseeko(f, (off_t)(KM_KARMA_IMAGE_MUSIC_OFFSET + ino * sfs.blocksize),
			       SEEK_SET), ==, 0);
	g_assert_cmpuint(fwrite(garbage, 1, size, f), ==, size);
	g_assert_cmpint(fclose(f), ==, 0);
}

static guint count_files(const char *folder)
{
	g_autoptr(GDir) dir = g_dir_open(folder, 0, NULL);
	const char *name;
	guint n = 0;

	while (dir && (name = g_dir_read_name(dir))) {
		g_autofree char *path = g_build_filename(folder, name, NULL);

		n += g_file_test(path, G_FILE_TEST_IS_DIR) ? count_files(path) : 1;
	}
	return n;
}

/*
 * 5. Every track exported from a player one of whose tracks cannot be
 * read (its inode destroyed, both copies): that track is listed with why,
 * the others are exported, and the player's view stays.
 */
static void test_export_bad_track(void)
{
	g_autofree char *image = km_test_make_image(5);
	g_autofree char *folder = g_dir_make_tmp("km-user-export-XXXXXX", NULL);
	g_autoptr(GFile) dest = g_file_new_for_path(folder);
	g_autoptr(KmTrack) bad = NULL;
	g_autofree char *problems = NULL;
	KmWindow *win;
	KmPlayerView *pv;
	KmTransferRow *row;

	win = km_test_open_window(image);
	bad = g_list_model_get_item(km_session_get_tracks(km_test_session(win)), 2);
	g_object_ref(bad);
	km_test_close_window(win);
	destroy_data_inode(image, km_track_get_fid(bad));
	win = km_test_open_window(image);
	pv = km_test_player_view(win);
	km_test_focus_window(GTK_WINDOW(win));
	km_test_press_key(GTK_WINDOW(win), GDK_KEY_a, GDK_CONTROL_MASK);
	km_player_view_export_selected(pv, dest);	/* the folder the chooser gives */
	row = km_transfer_panel_get_first_row(_km_player_view_get_transfers(pv));
	km_test_wait_until(!km_transfer_row_is_running(row));
	km_test_settle(GTK_WINDOW(win));
	g_assert_true(km_window_get_player_view(win) == (gpointer)pv);
	g_assert_nonnull(km_test_find_shown_label(GTK_WIDGET(pv), "4 of 5 files copied"));
	problems = km_transfer_row_dup_problems(row);
	g_assert_nonnull(strstr(problems, km_track_get_title(bad)));
	g_assert_cmpuint(count_files(folder), ==, 4);
	g_object_unref(bad);
	km_test_close_window(win);
}

/* Whether widget lies whole inside window (not cut off by its edges). */
static gboolean inside_window(GtkWidget *widget, GtkWidget *window)
{
	graphene_rect_t b;

	g_assert_true(gtk_widget_compute_bounds(widget, window, &b));
	g_test_message("%s at x %.0f..%.0f, y %.0f..%.0f in a window of %d x %d",
		       G_OBJECT_TYPE_NAME(widget), b.origin.x, b.origin.x + b.size.width,
		       b.origin.y, b.origin.y + b.size.height, gtk_widget_get_width(window),
		       gtk_widget_get_height(window));
	return b.size.width > 0 && b.origin.x >= 0 && b.origin.y >= 0 &&
	       b.origin.x + b.size.width <= gtk_widget_get_width(window) &&
	       b.origin.y + b.size.height <= gtk_widget_get_height(window);
}

/* Folded (libadwaita 1.4), the playlists slide away over the list when the window opens. */
static gboolean playlists_settled(KmPlayerView *pv)
{
#if ADW_CHECK_VERSION(1, 4, 0)
	return !adw_overlay_split_view_get_collapsed(ADW_OVERLAY_SPLIT_VIEW(pv->playlists_split)) ||
	       !gtk_widget_get_mapped(GTK_WIDGET(pv->sidebar));
#else
	return TRUE;
#endif
}

/* A track selected in a window of width (px), its details shown: Save Tags is whole. */
static KmWindow *assert_save_tags_whole(const char *image, int width)
{
	KmWindow *win = km_test_open_window_sized(image, width, 640);
	KmPlayerView *pv = km_test_player_view(win);
	GtkWidget *save = NULL;

	km_test_focus_window(GTK_WINDOW(win));
	km_test_wait_until(playlists_settled(pv));
	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	km_test_settle(GTK_WINDOW(win));
	km_test_click_row(pv, km_test_first_track_row(pv), 1);
	/* the details as a user asks for them when they are hidden (folded: over the list) */
	if (!gtk_widget_get_mapped(GTK_WIDGET(_km_player_view_get_details_pane(pv))))
		km_test_press_key(GTK_WINDOW(win), GDK_KEY_F9, 0);
	km_test_wait_until((save = km_test_find_shown_label(GTK_WIDGET(pv), "Save Tags")) != NULL);
	save = gtk_widget_get_ancestor(save, GTK_TYPE_BUTTON);
	g_assert_nonnull(save);
	/* the pane slides in (a revealer, or a split view's sidebar): measured where it stops */
	km_test_wait_until(km_test_stands_still(save));
	g_assert_true(inside_window(save, GTK_WIDGET(win)));
	g_assert_true(inside_window(GTK_WIDGET(_km_player_view_get_details_pane(pv)),
				    GTK_WIDGET(win)));
	return win;
}

/*
 * 4. The details pane is never cut off: at 800 px Save Tags is whole; in a
 * narrow window the pane folds over the list (libadwaita 1.4), or the
 * window's minimum width keeps it whole (the 1.2 layout, which cannot fold).
 */
static void test_details_not_clipped(gconstpointer image)
{
	KmWindow *win = assert_save_tags_whole(image, 800);

	km_test_close_window(win);
	win = assert_save_tags_whole(image, 400);
#if ADW_CHECK_VERSION(1, 4, 0)
	g_assert_true(adw_overlay_split_view_get_collapsed(ADW_OVERLAY_SPLIT_VIEW(
		gtk_widget_get_ancestor(GTK_WIDGET(km_test_player_view(win)->details_pane),
					ADW_TYPE_OVERLAY_SPLIT_VIEW))));
#else
	{
		/* the window stays as wide as its content needs, no wider than promised */
		GtkWidget *content = gtk_window_get_child(GTK_WINDOW(win));
		int min;

		gtk_widget_measure(content, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL,
				   NULL);
		g_assert_cmpint(gtk_widget_get_width(content), >=, min);
		g_assert_cmpint(min, <=, KM_MIN_WIDTH);
	}
#endif
	km_test_close_window(win);
}

static void on_damage_known(GObject *source, GAsyncResult *result, gpointer data)
{
	g_autoptr(GError) error = NULL;

	km_session_found_damage_finish(KM_SESSION(source), result, &error);
	g_assert_no_error(error);
	*(gboolean *)data = TRUE;
}

/*
 * Waits until the view has its answer to "did opening find damage?": the
 * session's jobs end in order, and the view asked first.
 */
static void wait_damage_known(KmWindow *win)
{
	gboolean known = FALSE;

	km_session_found_damage_async(km_test_session(win), NULL, on_damage_known, &known);
	km_test_wait_until(known);
	km_test_settle(GTK_WINDOW(win));
}

/* The question dialog once it shows part (an AdwAlertDialog shows its labels a frame late). */
static GtkWidget *dialog_showing(const char *part)
{
	GtkWidget *dialog = NULL;

	km_test_wait_until((dialog = km_test_find_dialog(KM_TYPE_QUESTION_DIALOG)) != NULL &&
			   km_test_shows_part(dialog, part));
	return dialog;
}

/*
 * 5, the second half. A player whose list of tracks (var/smalldb) is
 * damaged opens with a banner; its button checks the player, the dialog
 * says what is wrong in plain words, Repair fixes it, and the banner goes;
 * a check then finds nothing. A healthy player shows no banner.
 */
static void test_damaged_player_banner(gconstpointer healthy)
{
	g_autofree char *image = km_test_make_image(4);
	KmWindow *win;
	KmPlayerView *pv;
	KmTransferRow *row;
	GtkWidget *dialog, *repair = NULL, *menu;

	win = km_test_open_window(healthy);
	wait_damage_known(win);
	g_assert_null(km_test_find_shown_label(GTK_WIDGET(win), "This player has problems"));
	km_test_close_window(win);

	km_test_damage_smalldb(image);
	win = km_test_open_window(image);
	pv = km_test_player_view(win);
	km_test_focus_window(GTK_WINDOW(win));
	/* the banner slides in; its button is clicked once it stands still */
	km_test_wait_until(km_test_find_shown_label(GTK_WIDGET(pv), "This player has problems") != NULL);
	km_test_settle(GTK_WINDOW(win));
	km_test_click_label(GTK_WIDGET(pv), "Check Player…");
	dialog = dialog_showing("list of tracks is damaged");
	repair = km_test_find_button(dialog, "_Repair");
	g_assert_nonnull(repair);
	km_test_click(repair, 1, 1);
	km_test_wait_until(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG) == NULL);
	km_test_wait_until((row = km_transfer_panel_get_first_row(
				    _km_player_view_get_transfers(pv))) != NULL);
	km_test_wait_until(!km_transfer_row_is_running(row));
	g_assert_nonnull(strstr(km_transfer_row_get_status(row), "repaired"));
	g_assert_null(strstr(km_transfer_row_get_status(row), "could not"));
	km_test_wait_until(km_test_find_shown_label(GTK_WIDGET(pv), "This player has problems") == NULL);
	g_assert_cmpuint(km_test_n_tracks(win), ==, 4);
	/* Check Player… in the main menu: nothing left */
	menu = km_test_find_icon_button(GTK_WIDGET(pv), "open-menu-symbolic");
	km_test_click(menu, 1, 1);
	km_test_click_label(GTK_WIDGET(pv), "Check Player…");
	dialog = dialog_showing("No Problems Found");
	g_assert_null(km_test_find_button(dialog, "_Repair"));
	km_test_answer(dialog, "close");
	km_test_wait_until(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG) == NULL);
	km_test_close_window(win);
}

/* Check Player… from the main menu; the dialog with what it found, once it shows part. */
static GtkWidget *check_from_menu(KmPlayerView *pv, const char *part)
{
	km_test_click(km_test_find_icon_button(GTK_WIDGET(pv), "open-menu-symbolic"), 1, 1);
	km_test_click_label(GTK_WIDGET(pv), "Check Player…");
	return dialog_showing(part);
}

/*
 * Check Player… runs the file system check too: blocks marked used that
 * nothing owns (which verify alone never sees) are reported in plain words,
 * Repair frees them (as karmactl fsck --repair), and a check then finds
 * nothing, as it does on a healthy player.
 */
static void test_check_file_system(gconstpointer healthy)
{
	g_autofree char *image = km_test_make_image(4);
	KmWindow *win;
	KmPlayerView *pv;
	KmTransferRow *row;
	GtkWidget *dialog;

	win = km_test_open_window(healthy);
	wait_damage_known(win);
	dialog = check_from_menu(km_test_player_view(win), "No Problems Found");
	g_assert_null(km_test_find_button(dialog, "_Repair"));
	km_test_answer(dialog, "close");
	km_test_wait_until(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG) == NULL);
	km_test_close_window(win);

	km_test_leak_blocks(image, 6);
	win = km_test_open_window(image);
	pv = km_test_player_view(win);
	km_test_focus_window(GTK_WINDOW(win));
	wait_damage_known(win);
	dialog = check_from_menu(pv, "file system has 1 problem");
	g_assert_true(km_test_shows_part(dialog, "Repair fixes all of them"));
	km_test_click(km_test_find_button(dialog, "_Repair"), 1, 1);
	km_test_wait_until(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG) == NULL);
	km_test_wait_until((row = km_transfer_panel_get_first_row(
				    _km_player_view_get_transfers(pv))) != NULL);
	km_test_wait_until(!km_transfer_row_is_running(row));
	g_assert_nonnull(strstr(km_transfer_row_get_status(row), "1 problem repaired"));
	g_assert_null(strstr(km_transfer_row_get_status(row), "could not"));
	g_assert_cmpuint(km_test_n_tracks(win), ==, 4);
	dialog = check_from_menu(pv, "No Problems Found");
	g_assert_null(km_test_find_button(dialog, "_Repair"));
	km_test_answer(dialog, "close");
	km_test_wait_until(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG) == NULL);
	km_test_close_window(win);
}

int main(int argc, char **argv)
{
	g_autofree char *image = NULL;

	km_test_init(&argc, &argv);
	image = km_test_make_image(N_TRACKS);
	g_test_add_data_func("/app/user/shortcuts-anywhere", image, test_shortcuts_anywhere);
	g_test_add_data_func("/app/user/expand-group", image, test_expand_group);
	g_test_add_data_func("/app/user/playlist-order", image, test_playlist_order);
	g_test_add_data_func("/app/user/deleted-not-editable", image, test_deleted_not_editable);
	g_test_add_data_func("/app/user/space-bar-backup", image, test_space_bar_backup);
	g_test_add_data_func("/app/user/transfer-finished", image, test_transfer_finished);
	g_test_add_data_func("/app/user/tree-state", image, test_tree_state);
	g_test_add_data_func("/app/user/eject-question-goes", image, test_eject_question_goes);
	g_test_add_data_func("/app/user/add-to-playlist", image, test_add_to_playlist);
	g_test_add_data_func("/app/user/open-errors", image, test_open_errors);
	g_test_add_data_func("/app/user/search-accents", image, test_search_accents);
	g_test_add_data_func("/app/user/delete-names-and-subtitle", image,
			     test_delete_names_and_subtitle);
	g_test_add_func("/app/user/icon-in-resources", test_icon_in_resources);
	g_test_add_data_func("/app/user/properties-readable", image, test_properties_readable);
	g_test_add_func("/app/user/export-bad-track", test_export_bad_track);
	g_test_add_data_func("/app/user/details-not-clipped", image, test_details_not_clipped);
	g_test_add_data_func("/app/user/damaged-player-banner", image, test_damaged_player_banner);
	g_test_add_data_func("/app/user/check-file-system", image, test_check_file_system);
	return g_test_run();
}
