/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-window.c - ejecting the player and closing the window, idle and while
 * files are being copied (a transfer row that stays running keeps the view
 * busy for as long as the test needs); Export Plays… writing the plays the
 * player counted to a scrobbler log, once each; a playlist exported with its
 * NAME.m3u8; an M3U8 or XSPF list dropped imported as a playlist; Sync Folder.
 */
#include "config.h"

#include "km-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

#include "km-image-device.h"
#include "km-library.h"
#include "km-transaction.h"
#include "omfs.h"

#define N_TRACKS 4

static void test_eject(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);

	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(km_test_player_view(win)),
						 "player.eject", NULL));
	km_test_wait_until(km_window_get_player_view(win) == NULL);
	g_assert_null(km_window_get_message(win));
	g_assert_true(km_test_find_label(GTK_WIDGET(win), "Plug in your Rio Karma"));
	km_test_close_window(win);
}

/* A transfer row that stays running: the view is busy for as long as the test needs. */
static KmTransferRow *add_running_row(KmPlayerView *pv)
{
	KmTransferRow *row = km_transfer_row_new("Copying", NULL, 0);

	km_transfer_panel_add(_km_player_view_get_transfers(pv), row);
	g_assert_true(km_player_view_is_busy(pv));
	return row;
}

static void test_eject_while_copying(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	KmTransferRow *row = add_running_row(pv);

	/* asked first; Keep Copying keeps everything */
	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), "player.eject", NULL));
	km_test_answer(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG), "keep");
	g_assert_false(g_cancellable_is_cancelled(km_transfer_row_get_cancellable(row)));
	g_assert_true(km_window_get_player_view(win) == GTK_WIDGET(pv));
	/* Stop and Eject cancels the transfers and closes the player */
	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), "player.eject", NULL));
	km_test_answer(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG), "eject");
	g_assert_true(g_cancellable_is_cancelled(km_transfer_row_get_cancellable(row)));
	km_test_wait_until(km_window_get_player_view(win) == NULL);
	km_test_close_window(win);
}

/* Whether win is still one of GTK's toplevels (gtk_window_destroy() drops it). */
static gboolean is_toplevel(KmWindow *win)
{
	GListModel *toplevels = gtk_window_get_toplevels();	/* owned by GTK */

	for (guint i = 0; i < g_list_model_get_n_items(toplevels); i++) {
		g_autoptr(GObject) w = g_list_model_get_item(toplevels, i);

		if (w == G_OBJECT(win))
			return TRUE;
	}
	return FALSE;
}

static void test_close_while_copying(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);

	add_running_row(pv);
	gtk_window_close(GTK_WINDOW(win));
	/* refused until answered; Stop and Close ejects, then the window goes */
	g_assert_true(is_toplevel(win));
	km_test_answer(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG), "close");
	km_test_wait_until(!is_toplevel(win));
	g_assert_null(km_window_get_player_view(win));
	km_test_close_window(win);
}

typedef void (*ImageEdit)(KmTransaction *tx, GPtrArray *objects, gpointer data);

/* Runs edit in one committed transaction on image's library (objects: its list, fid order). */
static void edit_image(const char *image, ImageEdit edit, gpointer data)
{
	char msg[OMFS_ERRMSG_MAX];
	struct km_image_device *dev = km_image_device_open(image, true, 0, 0, msg, sizeof(msg));
	g_autoptr(GError) error = NULL;
	g_autoptr(KmLibrary) lib = NULL;
	g_autoptr(KmTransaction) tx = NULL;
	g_autoptr(GPtrArray) objects = NULL;

	g_assert_nonnull(dev);
	lib = km_library_open(km_image_device_blockdev(dev), &(KmLibraryOptions){ .writable = TRUE },
			      &error);
	g_assert_no_error(error);
	objects = km_library_list(lib);
	tx = km_library_begin(lib, &error);
	g_assert_no_error(error);
	edit(tx, objects, data);
	g_assert_true(km_transaction_commit(tx, &error));
	g_assert_no_error(error);
	g_clear_object(&tx);
	g_assert_true(km_library_close(lib, &error));
	g_clear_object(&lib);
	km_image_device_close(dev);
}

typedef struct {
	guint count;
	guint32 last;
	char *title;	/* out: the track's */
} Plays;

static void edit_plays(KmTransaction *tx, GPtrArray *objects, gpointer data)
{
	Plays *plays = data;
	guint32 fid = km_properties_get_fid(objects->pdata[0]);
	g_autofree char *count = g_strdup_printf("%u", plays->count);
	g_autofree char *last = g_strdup_printf("%u", plays->last);
	g_autoptr(GError) error = NULL;

	plays->title = g_strdup(km_properties_get(objects->pdata[0], "title"));
	g_assert_true(km_transaction_set_property(tx, fid, "play_count", count, &error));
	g_assert_true(km_transaction_set_property(tx, fid, "play_last", last, &error));
}

/* The play lines of the log (those not starting with '#'). */
static GStrv log_plays(const char *path)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	g_autoptr(GStrvBuilder) plays = g_strv_builder_new();

	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_assert_true(g_str_has_prefix(text, "#AUDIOSCROBBLER/1.1\n#TZ/UTC\n#CLIENT/Karma Manager "));
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i]; i++)
		if (lines[i][0] && lines[i][0] != '#')
			g_strv_builder_add(plays, lines[i]);
	return g_strv_builder_end(plays);
}

static void test_export_plays(void)
{
	g_autofree char *image = km_test_make_image(N_TRACKS);
	Plays set = { .count = 2, .last = 1700000000 };
	g_autofree char *folder = g_dir_make_tmp("km-plays-XXXXXX", NULL);
	g_autofree char *log = g_build_filename(folder, "scrobbler.log", NULL);
	g_autoptr(GFile) folder_file = g_file_new_for_path(folder);
	KmWindow *win;
	KmPlayerView *pv;
	g_auto(GStrv) plays = NULL;

	edit_image(image, edit_plays, &set);
	win = km_test_open_window(image);
	pv = km_test_player_view(win);
	km_player_view_export_plays(pv, folder_file);
	km_test_wait_until(km_test_find_label(GTK_WIDGET(win), "2 plays written to scrobbler.log"));
	plays = log_plays(log);
	g_assert_cmpuint(g_strv_length(plays), ==, 2);
	g_assert_nonnull(strstr(plays[1], set.title));
	g_assert_true(g_str_has_suffix(plays[1], "\tL\t1700000000\t"));

	/* exported once: the ledger remembers them */
	km_player_view_export_plays(pv, folder_file);
	km_test_wait_until(km_test_find_label(GTK_WIDGET(win), "No new plays since the last export"));
	g_clear_pointer(&plays, g_strfreev);
	plays = log_plays(log);
	g_assert_cmpuint(g_strv_length(plays), ==, 2);
	km_test_close_window(win);
	g_assert_cmpint(g_unlink(log), ==, 0);
	g_assert_cmpint(g_rmdir(folder), ==, 0);
	g_free(set.title);
}

/* A playlist "Road Trip" of the second, first and second track again. */
static void edit_playlist(KmTransaction *tx, GPtrArray *objects, gpointer data)
{
	guint32 order[] = { 1, 0, 1 }, fid;
	g_autoptr(GError) error = NULL;

	g_assert_true(km_transaction_playlist_create(tx, "Road Trip", &fid, &error));
	for (guint i = 0; i < G_N_ELEMENTS(order); i++)
		g_assert_true(km_transaction_playlist_insert(
			tx, fid, km_properties_get_fid(objects->pdata[order[i]]), -1, &error));
	*(guint32 *)data = fid;
}

/* Removes path, a folder, and everything below it. */
static void remove_tree(const char *path)
{
	g_autoptr(GDir) dir = g_dir_open(path, 0, NULL);
	const char *name;

	while (dir && (name = g_dir_read_name(dir))) {
		g_autofree char *child = g_build_filename(path, name, NULL);

		remove_tree(child);
	}
	g_assert_cmpint(g_remove(path), ==, 0);
}

static void test_export_playlist(void)
{
	g_autofree char *image = km_test_make_image(N_TRACKS);
	g_autofree char *folder = g_dir_make_tmp("km-playlist-XXXXXX", NULL);
	g_autofree char *list = g_build_filename(folder, "Road Trip.m3u8", NULL);
	g_autoptr(GFile) folder_file = g_file_new_for_path(folder);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	guint32 playlist = 0;
	KmWindow *win;
	KmPlayerView *pv;
	guint n_paths = 0;

	edit_image(image, edit_playlist, &playlist);
	win = km_test_open_window(image);
	pv = km_test_player_view(win);
	km_playlist_sidebar_select(_km_player_view_get_sidebar(pv), playlist);
	km_test_wait_until(km_playlist_sidebar_get_selected(_km_player_view_get_sidebar(pv)));
	km_player_view_export_playlist(pv, folder_file);
	km_test_wait_until(g_file_test(list, G_FILE_TEST_EXISTS) && !km_player_view_is_busy(pv));

	/* the entries in order, the twice-listed track at both places, every path resolving */
	g_assert_true(g_file_get_contents(list, &text, NULL, NULL));
	lines = g_strsplit(text, "\n", -1);
	g_assert_cmpstr(lines[0], ==, "#EXTM3U");
	for (guint i = 1; lines[i] && lines[i][0]; i++) {
		g_autofree char *path = g_build_filename(folder, lines[i], NULL);

		if (lines[i][0] == '#')
			continue;
		g_assert_true(g_file_test(path, G_FILE_TEST_IS_REGULAR));
		n_paths++;
	}
	g_assert_cmpuint(n_paths, ==, 3);
	g_assert_cmpstr(lines[2], ==, lines[6]);
	g_assert_cmpstr(lines[2], !=, lines[4]);
	km_test_close_window(win);
	remove_tree(folder);
}

/* The playlist of the session named name, or NULL. */
static KmPlaylistItem *find_playlist(KmSession *session, const char *name)
{
	GListModel *playlists = km_session_get_playlists(session);

	for (guint i = 0; i < g_list_model_get_n_items(playlists); i++) {
		g_autoptr(KmPlaylistItem) p = g_list_model_get_item(playlists, i);

		if (g_strcmp0(km_playlist_item_get_name(p), name) == 0)
			return p;	/* the session's list holds it */
	}
	return NULL;
}

/* The drop target of widget itself that takes files. */
static GtkDropTarget *file_target(GtkWidget *widget)
{
	g_autoptr(GListModel) controllers = gtk_widget_observe_controllers(widget);

	for (guint i = 0; i < g_list_model_get_n_items(controllers); i++) {
		g_autoptr(GObject) c = g_list_model_get_item(controllers, i);

		if (GTK_IS_DROP_TARGET(c) &&
		    gtk_drop_target_get_formats(GTK_DROP_TARGET(c)) &&
		    gdk_content_formats_contain_gtype(gtk_drop_target_get_formats(GTK_DROP_TARGET(c)),
						      GDK_TYPE_FILE_LIST))
			return GTK_DROP_TARGET(c);
	}
	g_error("no drop target for files");
}

/* A list naming b1, a missing file, b2, b1 again: M3U8, or XSPF when suffix is "xspf". */
static char *list_text(const char *suffix, const char *b1, const char *b2)
{
	g_autofree char *u1 = g_uri_escape_string(b1, NULL, FALSE);
	g_autofree char *u2 = g_uri_escape_string(b2, NULL, FALSE);

	if (strcmp(suffix, "xspf") != 0)
		return g_strdup_printf("#EXTM3U\n%s\nmissing.wav\n%s\n%s\n", b1, b2, b1);
	return g_strdup_printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			       "<playlist version=\"1\" xmlns=\"http://xspf.org/ns/0/\"><trackList>\n"
			       "<track><location>%s</location></track>\n"
			       "<track><location>missing.wav</location></track>\n"
			       "<track><location>%s</location></track>\n"
			       "<track><location>%s</location></track>\n"
			       "</trackList></playlist>\n", u1, u2, u1);
}

/*
 * An M3U8 or XSPF list (suffix) dropped on the playlists' sidebar becomes a
 * playlist in its order: the file the player lacks added, the one twice
 * listed twice, a missing entry left out; the other file dropped with it is
 * added as it would be alone.
 */
static void test_import_playlist(gconstpointer suffix)
{
	g_autofree char *image = km_test_make_image(N_TRACKS);
	g_autofree char *folder = g_dir_make_tmp("km-list-XXXXXX", NULL);
	g_autofree char *list_name = g_strconcat("Road Trip.", suffix, NULL);
	g_autofree char *list_path = g_build_filename(folder, list_name, NULL);
	g_autoptr(GPtrArray) wavs = km_test_write_wavs(folder, 300, 3);
	g_autoptr(GFile) list = g_file_new_for_path(list_path);
	g_auto(GValue) value = G_VALUE_INIT;
	g_autofree char *b1 = NULL, *b2 = NULL, *text = NULL;
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	KmSession *session = km_test_session(win);
	guint before = km_test_n_tracks(win);
	KmPlaylistItem *playlist;
	GListModel *entries;
	gboolean accepted = FALSE;
	GSList *dropped = NULL;

	b1 = g_file_get_basename(wavs->pdata[1]);
	b2 = g_file_get_basename(wavs->pdata[0]);
	text = list_text(suffix, b1, b2);
	g_assert_true(g_file_set_contents(list_path, text, -1, NULL));
	dropped = g_slist_append(dropped, list);
	dropped = g_slist_append(dropped, wavs->pdata[2]);
	g_value_init(&value, GDK_TYPE_FILE_LIST);
	g_value_take_boxed(&value, gdk_file_list_new_from_list(dropped));
	g_slist_free(dropped);
	g_signal_emit_by_name(file_target(GTK_WIDGET(_km_player_view_get_sidebar(pv))), "drop",
			      &value, 10.0, 10.0, &accepted);
	g_assert_true(accepted);
	km_test_wait_until(find_playlist(session, "Road Trip") != NULL &&
			   !km_player_view_is_busy(pv));

	/* the list's two files and the third dropped file, each once */
	g_assert_cmpuint(km_test_n_tracks(win), ==, before + 3);
	playlist = find_playlist(session, "Road Trip");
	entries = km_playlist_item_get_tracks(playlist);
	g_assert_cmpuint(g_list_model_get_n_items(entries), ==, 3);
	{
		/* b1, b2, b1: the first and last entries the same track, the second another */
		g_autoptr(KmTrack) first = g_list_model_get_item(entries, 0);
		g_autoptr(KmTrack) second = g_list_model_get_item(entries, 1);
		g_autoptr(KmTrack) third = g_list_model_get_item(entries, 2);

		g_assert_cmpuint(km_track_get_fid(first), ==, km_track_get_fid(third));
		g_assert_cmpuint(km_track_get_fid(first), !=, km_track_get_fid(second));
	}
	km_test_close_window(win);
	remove_tree(folder);
}

static GtkCheckButton *find_check_button(GtkWidget *widget)
{
	return GTK_CHECK_BUTTON(km_test_find_widget(widget, GTK_TYPE_CHECK_BUTTON));
}

static gboolean is_label_starting(GtkWidget *widget, gconstpointer prefix)
{
	return GTK_IS_LABEL(widget) && g_str_has_prefix(gtk_label_get_text(GTK_LABEL(widget)), prefix);
}

/* The text of the label under widget that starts with prefix, or NULL. */
static const char *find_text_starting(GtkWidget *widget, const char *prefix)
{
	GtkWidget *label = km_test_find_widget_where(widget, is_label_starting, prefix);

	return label ? gtk_label_get_text(GTK_LABEL(label)) : NULL;
}

static gint compare_fids(gconstpointer a, gconstpointer b)
{
	guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;

	return x < y ? -1 : x > y;
}

/* "Artist – Title" of the session's tracks whose fid is in fids (NULL: all), in fid order. */
static char *track_lines(KmSession *session, GHashTable *fids)
{
	GListModel *tracks = km_session_get_tracks(session);
	g_autoptr(GArray) order = g_array_new(FALSE, FALSE, sizeof(guint32));
	GString *text = g_string_new(NULL);

	for (guint i = 0; i < g_list_model_get_n_items(tracks); i++) {
		g_autoptr(KmTrack) t = g_list_model_get_item(tracks, i);
		guint32 fid = km_track_get_fid(t);

		if (!fids || g_hash_table_contains(fids, GUINT_TO_POINTER(fid)))
			g_array_append_val(order, fid);
	}
	g_array_sort(order, compare_fids);
	for (guint i = 0; i < order->len; i++) {
		KmTrack *t = km_session_lookup_track(session, g_array_index(order, guint32, i));

		g_string_append_printf(text, "\n%s – %s", km_track_get_artist(t),
				       km_track_get_title(t));
	}
	return g_string_free(text, FALSE);
}

/* The fids of the session's tracks, a set. */
static GHashTable *fid_set(KmSession *session)
{
	GListModel *tracks = km_session_get_tracks(session);
	GHashTable *set = g_hash_table_new(NULL, NULL);

	for (guint i = 0; i < g_list_model_get_n_items(tracks); i++) {
		g_autoptr(KmTrack) t = g_list_model_get_item(tracks, i);

		g_hash_table_add(set, GUINT_TO_POINTER(km_track_get_fid(t)));
	}
	return set;
}

/*
 * Sync Folder: the question lists each track to add and each the folder
 * lacks; the folder's two tracks added, the player's own kept unless the
 * box (off by default) is ticked; the folder remembered for the player; a
 * third sync has nothing to do.
 */
static void test_sync_folder(void)
{
	g_autoptr(GSettings) settings = g_settings_new(APP_ID);
	g_autofree char *image = km_test_make_image(N_TRACKS);
	g_autofree char *folder = g_dir_make_tmp("km-sync-XXXXXX", NULL);
	g_autoptr(GPtrArray) wavs = km_test_write_wavs(folder, 400, 2);
	g_autoptr(GFile) folder_file = g_file_new_for_path(folder);
	g_autofree char *uri = g_file_get_uri(folder_file);
	g_autofree char *base = g_path_get_basename(folder);
	g_autofree char *heading = g_strdup_printf("Sync with “%s”", base);
	g_autofree char *entry = NULL;
	g_autofree char *done = NULL;
	g_auto(GStrv) remembered = NULL;
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	GtkWidget *dialog = km_test_sync_question(pv, folder_file);
	GtkCheckButton *delete_box = find_check_button(dialog);
	g_autoptr(GHashTable) before = fid_set(km_test_session(win));
	GtkWidget *expander = km_test_find_widget(dialog, GTK_TYPE_EXPANDER);
	g_autofree char *preview = NULL;
	g_autofree char *missing = track_lines(km_test_session(win), NULL);
	g_autofree char *missing_part = g_strconcat("\n\nOn the player, not in the folder:",
						    missing, NULL);
	g_autofree char *added = NULL;
	g_autofree char *expected = NULL;
	g_autoptr(GHashTable) after = NULL;
	GHashTableIter iter;
	gpointer fid;

	g_assert_cmpuint(wavs->len, ==, 2);
	/* the tracks are listed once the expander is opened */
	g_assert_nonnull(expander);
	g_assert_null(find_text_starting(dialog, "To add:"));
	gtk_expander_set_expanded(GTK_EXPANDER(expander), TRUE);
	preview = g_strdup(find_text_starting(dialog, "To add:"));
	g_assert_nonnull(preview);
	g_assert_true(g_str_has_suffix(preview, missing_part));
	g_assert_cmpstr(km_question_dialog_get_heading(KM_QUESTION_DIALOG(dialog)), ==, heading);
	g_assert_nonnull(delete_box);
	g_assert_false(gtk_check_button_get_active(delete_box));
	km_test_answer(dialog, "sync");
	km_test_wait_until(km_test_n_tracks(win) == N_TRACKS + 2 && !km_player_view_is_busy(pv));
	/* the preview named the two tracks as the import made them */
	after = fid_set(km_test_session(win));
	g_hash_table_iter_init(&iter, before);
	while (g_hash_table_iter_next(&iter, &fid, NULL))
		g_hash_table_remove(after, fid);
	added = track_lines(km_test_session(win), after);
	expected = g_strconcat("To add:", added, missing_part, NULL);
	g_assert_cmpstr(preview, ==, expected);
	entry = g_strconcat(km_session_get_player_id(km_test_session(win)), "\t", uri, NULL);
	remembered = g_settings_get_strv(settings, "synced-folders");
	g_assert_true(g_strv_contains((const char *const *)remembered, entry));

	/* again, the box ticked: the player keeps only the folder's tracks */
	dialog = km_test_sync_question(pv, folder_file);
	delete_box = find_check_button(dialog);
	g_assert_nonnull(delete_box);
	gtk_check_button_set_active(delete_box, TRUE);
	km_test_answer(dialog, "sync");
	km_test_wait_until(km_test_n_tracks(win) == 2 && !km_player_view_is_busy(pv));

	km_player_view_sync_folder(pv, folder_file);
	done = g_strdup_printf("The player has every track in “%s” already", base);
	km_test_wait_until(km_test_find_label(GTK_WIDGET(win), done));
	g_assert_null(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG));
	km_test_close_window(win);
	remove_tree(folder);
}

int main(int argc, char **argv)
{
	g_autofree char *image = NULL;
	g_autofree char *state = NULL;

	km_test_init(&argc, &argv);
	image = km_test_make_image(N_TRACKS);
	/* the plays' ledgers: in the test's folder, not the user's (read once, by GLib) */
	state = g_path_get_dirname(image);
	g_setenv("XDG_STATE_HOME", state, TRUE);
	g_test_add_data_func("/app/window/eject", image, test_eject);
	g_test_add_data_func("/app/window/eject-while-copying", image, test_eject_while_copying);
	g_test_add_data_func("/app/window/close-while-copying", image, test_close_while_copying);
	g_test_add_func("/app/window/export-plays", test_export_plays);
	g_test_add_func("/app/window/export-playlist", test_export_playlist);
	g_test_add_data_func("/app/window/import-playlist", "m3u8", test_import_playlist);
	g_test_add_data_func("/app/window/import-playlist-xspf", "xspf", test_import_playlist);
	g_test_add_func("/app/window/sync-folder", test_sync_folder);
	return g_test_run();
}
