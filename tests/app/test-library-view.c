/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-library-view.c - the window on a demo player, with real widgets
 * under Xvfb: the start page, the artist/album/track tree, search, sorting,
 * the details pane and a tag edit saved to the image.
 */
#include "km-test-util.h"

#include "km-demo.h"
#include "km-library-group.h"
#include "km-library-model.h"
#include "km-preferences-window.h"

#define N_TRACKS 20

static GtkSelectionModel *view_model(KmWindow *win)
{
	return km_library_view_get_model(_km_player_view_get_library_view(km_test_player_view(win)));
}

static guint n_rows(KmWindow *win)
{
	return g_list_model_get_n_items(G_LIST_MODEL(view_model(win)));
}

/* The distinct artists of the session's tracks, sorted as the tree sorts them. */
static GPtrArray *expected_artists(KmSession *session)
{
	GListModel *tracks = km_session_get_tracks(session);
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < g_list_model_get_n_items(tracks); i++) {
		g_autoptr(KmTrack) t = g_list_model_get_item(tracks, i);
		const char *artist = km_track_get_artist(t);

		if (!g_ptr_array_find_with_equal_func(names, artist, g_str_equal, NULL))
			g_ptr_array_add(names, g_strdup(artist));
	}
	return names;
}

static int collate(gconstpointer a, gconstpointer b)
{
	return g_utf8_collate(*(char **)a, *(char **)b);
}

static void test_start_page(void)
{
	KmWindow *win = g_object_ref(km_window_new(NULL));

	gtk_window_present(GTK_WINDOW(win));
	g_assert_null(km_window_get_player_view(win));
	g_assert_true(km_test_find_label(GTK_WIDGET(win), "Plug in your Rio Karma"));
	km_window_set_permission_problem(win, "sudo install -m 644 70-rio-karma.rules /etc/udev/rules.d/");
	g_assert_true(km_test_find_label(GTK_WIDGET(win),
					 "sudo install -m 644 70-rio-karma.rules /etc/udev/rules.d/"));
	km_test_close_window(win);
}

static void test_tree(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmSession *session = km_test_session(win);
	g_autoptr(GPtrArray) artists = expected_artists(session);
	guint n_albums = 0;

	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_tracks(session)), ==, N_TRACKS);
	/* collapsed: one row per artist, in name order */
	g_ptr_array_sort(artists, collate);
	g_assert_cmpuint(n_rows(win), ==, artists->len);
	for (guint i = 0; i < artists->len; i++) {
		g_autoptr(GtkTreeListRow) row = g_list_model_get_item(G_LIST_MODEL(view_model(win)), i);
		g_autoptr(KmLibraryGroup) group = gtk_tree_list_row_get_item(row);

		g_assert_cmpstr(km_library_group_get_label(group), ==, artists->pdata[i]);
		n_albums += g_list_model_get_n_items(
			G_LIST_MODEL(km_library_group_get_children(group)));
	}
	/* the artist names are on screen */
	gtk_test_widget_wait_for_draw(GTK_WIDGET(win));
	g_assert_true(km_test_find_label(GTK_WIDGET(win), artists->pdata[0]));
	/* expanded: artists, albums and every track */
	km_library_view_expand_all(_km_player_view_get_library_view(km_test_player_view(win)));
	g_assert_cmpuint(n_rows(win), ==, artists->len + n_albums + N_TRACKS);
	km_test_close_window(win);
}

static void test_search(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmLibraryView *view = _km_player_view_get_library_view(km_test_player_view(win));
	GListModel *tracks = km_session_get_tracks(km_test_session(win));
	guint expected = 0;

	for (guint i = 0; i < g_list_model_get_n_items(tracks); i++) {
		g_autoptr(KmTrack) t = g_list_model_get_item(tracks, i);

		expected += g_strcmp0(km_track_get_artist(t), "The Beatniks") == 0;
	}
	g_assert_cmpuint(expected, >, 0);
	/* any case, any level: the artist's tracks, flat */
	km_library_view_set_search(view, "bEATniks");
	g_assert_cmpuint(n_rows(win), ==, expected);
	for (guint i = 0; i < expected; i++) {
		g_autoptr(KmTrack) t = km_test_row_track(km_test_player_view(win), i);

		g_assert_nonnull(t);
		g_assert_cmpstr(km_track_get_artist(t), ==, "The Beatniks");
	}
	km_library_view_set_search(view, "no such thing anywhere");
	g_assert_cmpuint(n_rows(win), ==, 0);
	/* cleared: the tree again */
	km_library_view_set_search(view, "");
	g_assert_true(GTK_IS_TREE_LIST_ROW(g_list_model_get_item(G_LIST_MODEL(view_model(win)), 0)));
	g_object_unref(g_list_model_get_item(G_LIST_MODEL(view_model(win)), 0));
	km_test_close_window(win);
}

static void test_sort(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	KmLibraryView *view = _km_player_view_get_library_view(pv);
	g_autoptr(GPtrArray) artists = expected_artists(km_test_session(win));
	g_autoptr(GtkTreeListRow) first = NULL;
	g_autoptr(KmLibraryGroup) group = NULL;
	guint prev = 0;

	/* the tree, artists descending */
	g_ptr_array_sort(artists, collate);
	km_library_view_sort(view, KM_COLUMN_TITLE, GTK_SORT_DESCENDING);
	first = g_list_model_get_item(G_LIST_MODEL(view_model(win)), 0);
	group = gtk_tree_list_row_get_item(first);
	g_assert_cmpstr(km_library_group_get_label(group), ==, artists->pdata[artists->len - 1]);
	/* search results by year, ascending */
	km_library_view_set_search(view, "e");
	km_library_view_sort(view, KM_COLUMN_YEAR, GTK_SORT_ASCENDING);
	g_assert_cmpuint(n_rows(win), >, 2);
	for (guint i = 0; i < n_rows(win); i++) {
		g_autoptr(KmTrack) t = km_test_row_track(pv, i);

		g_assert_cmpuint(km_track_get_year(t), >=, prev);
		prev = km_track_get_year(t);
	}
	/* by title, ascending: in collation order, empty titles last */
	km_library_view_sort(view, KM_COLUMN_TITLE, GTK_SORT_ASCENDING);
	for (guint i = 1; i < n_rows(win); i++) {
		g_autoptr(KmTrack) a = km_test_row_track(pv, i - 1);
		g_autoptr(KmTrack) b = km_test_row_track(pv, i);
		const char *ta = km_track_get_title(a), *tb = km_track_get_title(b);

		g_assert_true(!*tb || (*ta && g_utf8_collate(ta, tb) <= 0));
	}
	km_test_close_window(win);
}

static void test_details(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	g_autoptr(KmTrack) track = NULL;
	g_autofree char *text = NULL, *title_line = NULL;
	guint pos;

	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	pos = km_test_first_track_row(pv);
	g_assert_cmpuint(pos, !=, G_MAXUINT);
	track = km_test_row_track(pv, pos);
	km_test_select(pv, pos);
	text = km_details_pane_dup_properties_text(_km_player_view_get_details_pane(pv));
	/* every property the player stores, e.g. these */
	title_line = g_strdup_printf("title=%s\n", km_track_get_title(track));
	g_assert_nonnull(strstr(text, title_line));
	g_assert_nonnull(strstr(text, "codec=wave\n"));
	g_assert_nonnull(strstr(text, "\nfid_generation="));
	/* the tag editor shows the title */
	g_assert_true(km_test_find_label(GTK_WIDGET(_km_player_view_get_details_pane(pv)),
					 km_track_get_title(track)) ||
		      g_str_equal(km_track_get_title(track), ""));
	km_test_close_window(win);
}

static gboolean has_title(KmSession *session, const char *title)
{
	GListModel *tracks = km_session_get_tracks(session);

	for (guint i = 0; i < g_list_model_get_n_items(tracks); i++) {
		g_autoptr(KmTrack) t = g_list_model_get_item(tracks, i);

		if (g_strcmp0(km_track_get_title(t), title) == 0)
			return TRUE;
	}
	return FALSE;
}

static GtkEditable *find_entry_row(GtkWidget *widget, const char *title)
{
	return GTK_EDITABLE(km_test_find_row(widget, ADW_TYPE_ENTRY_ROW, title));
}

static void test_edit_title(gconstpointer image)
{
	const char *new_title = "Renamed by the details pane";
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	KmDetailsPane *pane = _km_player_view_get_details_pane(pv);
	GtkEditable *title_row = find_entry_row(GTK_WIDGET(pane), "_Title");
	guint pos;

	g_assert_nonnull(title_row);
	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	pos = km_test_first_track_row(pv);
	km_test_select(pv, pos);
	gtk_editable_set_text(title_row, new_title);
	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pane), "details.save", NULL));
	km_test_wait_until(has_title(km_test_session(win), new_title));
	/* the pane follows the new snapshot of the track */
	{
		g_autofree char *text = km_details_pane_dup_properties_text(pane);
		g_autofree char *line = g_strdup_printf("title=%s\n", new_title);

		g_assert_nonnull(strstr(text, line));
		g_assert_cmpstr(gtk_editable_get_text(title_row), ==, new_title);
	}
	/* the row stays selected: it now shows the new snapshot, in its new place */
	{
		g_autoptr(GPtrArray) selected =
			km_library_view_get_selected_tracks(_km_player_view_get_library_view(pv));

		g_assert_cmpuint(selected->len, ==, 1);
		g_assert_cmpstr(km_track_get_title(selected->pdata[0]), ==, new_title);
	}
	km_test_close_window(win);

	/* saved on the player: a new session reads it back */
	win = km_test_open_window(image);
	g_assert_true(has_title(km_test_session(win), new_title));
	km_test_close_window(win);
}

/* Whether the session's current version of each of tracks has this genre. */
static gboolean genre_on_all(KmSession *session, GPtrArray *tracks, const char *genre)
{
	for (guint i = 0; i < tracks->len; i++) {
		KmTrack *now = km_session_lookup_track(session, km_track_get_fid(tracks->pdata[i]));

		if (!now || g_strcmp0(km_track_get_genre(now), genre) != 0)
			return FALSE;
	}
	return TRUE;
}

/* An album selected: a genre typed once is set on each of its tracks, the titles stay. */
static void test_edit_several(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	KmLibraryView *view = _km_player_view_get_library_view(pv);
	KmDetailsPane *pane = _km_player_view_get_details_pane(pv);
	g_autoptr(GPtrArray) tracks = NULL;
	g_autoptr(GtkTreeListRow) artist = NULL;
	GtkEditable *genre = find_entry_row(GTK_WIDGET(pane), "_Genre");
	GtkEditable *title = find_entry_row(GTK_WIDGET(pane), "_Title");

	/* the first artist's first album is row 1 once the artist is open */
	artist = g_list_model_get_item(G_LIST_MODEL(view_model(win)), 0);
	gtk_tree_list_row_set_expanded(artist, TRUE);
	km_test_select(pv, 1);
	tracks = km_library_view_get_selected_tracks(view);
	g_assert_cmpuint(tracks->len, >=, 2);
	/* the titles differ: shown empty, and left alone */
	g_assert_cmpstr(gtk_editable_get_text(title), ==, "");
	gtk_editable_set_text(genre, "Space Jazz");
	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pane), "details.save", NULL));
	km_test_wait_until(genre_on_all(km_test_session(win), tracks, "Space Jazz"));
	for (guint i = 0; i < tracks->len; i++) {
		KmTrack *now = km_session_lookup_track(km_test_session(win),
						       km_track_get_fid(tracks->pdata[i]));

		g_assert_cmpstr(km_track_get_title(now), ==, km_track_get_title(tracks->pdata[i]));
	}
	km_test_close_window(win);
}

static void test_preferences(void)
{
	g_autoptr(GSettings) settings = g_settings_new("io.github.karmamanager.KarmaManager");
	GtkWidget *prefs = g_object_ref(km_preferences_window_new());
	GtkSwitch *sw, *confirm;
	GtkEditable *row;
	g_autofree char *template = NULL;

	/* an AdwDialog (libadwaita 1.5) has its pages once presented */
	km_dialog_present(prefs, NULL);
	sw = km_test_find_switch_row(prefs, "Copy _Duplicates");
	confirm = km_test_find_switch_row(prefs, "_Ask Before Deleting");
	row = find_entry_row(prefs, "_File Names");
	g_assert_nonnull(sw);
	g_assert_nonnull(row);
	g_assert_cmpstr(gtk_editable_get_text(row), ==, "%a/%s/%n %t.%c");
	g_assert_false(g_settings_get_boolean(settings, "copy-duplicates"));
	gtk_switch_set_active(sw, TRUE);
	g_assert_true(g_settings_get_boolean(settings, "copy-duplicates"));
	/* confirm-delete: on by default, the switch shows the key and sets it */
	g_assert_true(GTK_IS_SWITCH(confirm));
	g_assert_true(g_settings_get_boolean(settings, "confirm-delete"));
	g_assert_true(gtk_switch_get_active(confirm));
	g_settings_set_boolean(settings, "confirm-delete", FALSE);
	g_assert_false(gtk_switch_get_active(confirm));
	gtk_switch_set_active(confirm, TRUE);
	g_assert_true(g_settings_get_boolean(settings, "confirm-delete"));
	gtk_switch_set_active(confirm, FALSE);
	g_assert_false(g_settings_get_boolean(settings, "confirm-delete"));
	gtk_editable_set_text(row, "%a - %t.%c");
	g_signal_emit_by_name(row, "apply");
	template = g_settings_get_string(settings, "export-template");
	g_assert_cmpstr(template, ==, "%a - %t.%c");
	g_settings_reset(settings, "copy-duplicates");
	g_settings_reset(settings, "confirm-delete");
	g_settings_reset(settings, "export-template");
	km_dialog_close(prefs);
	g_assert_finalize_object(prefs);
}

static KmTrack *make_track(guint32 fid, const char *artist, const char *album, const char *nr)
{
	g_autoptr(KmProperties) props = km_properties_new();

	km_properties_set_fid(props, fid);
	km_properties_set(props, "title", "t");
	if (artist)
		km_properties_set(props, "artist", artist);
	if (album)
		km_properties_set(props, "source", album);
	if (nr)
		km_properties_set(props, "tracknr", nr);
	return km_track_new(props);
}

static guint n_children(GListModel *model, guint i)
{
	g_autoptr(KmLibraryGroup) group = g_list_model_get_item(model, i);

	return g_list_model_get_n_items(G_LIST_MODEL(km_library_group_get_children(group)));
}

/* Names from the disk may hold anything: groups stay apart, removals stay exact. */
static void test_model_groups(void)
{
	GListStore *tracks = g_list_store_new(KM_TYPE_TRACK);
	KmLibraryModel *model;
	GListModel *artists;
	KmTrack *t[5] = {
		make_track(0x110, "a\x1f" "b", "c", "2"),
		make_track(0x120, "a", "b\x1f" "c", "1"),
		make_track(0x130, NULL, NULL, NULL),
		make_track(0x140, "", "", "x"),
		make_track(0x150, "a", "b\x1f" "c", "0"),
	};
	g_autoptr(KmLibraryGroup) last = NULL;

	g_list_store_splice(tracks, 0, 0, (gpointer *)t, G_N_ELEMENTS(t));
	model = km_library_model_new(G_LIST_MODEL(tracks));
	artists = km_library_model_get_artists(model);
	/* "a", "a\x1fb", and the unknown artist (no name or an empty one) last */
	g_assert_cmpuint(g_list_model_get_n_items(artists), ==, 3);
	last = g_list_model_get_item(artists, 2);
	g_assert_null(km_library_group_get_name(last));
	g_assert_cmpuint(n_children(artists, 0), ==, 1);
	g_assert_cmpuint(n_children(artists, 1), ==, 1);
	/* removing the first artist's only track removes it, and only it */
	g_list_store_remove(tracks, 0);
	g_assert_cmpuint(g_list_model_get_n_items(artists), ==, 2);
	g_list_store_remove(tracks, 1);	/* the unknown artist's first track */
	g_assert_cmpuint(g_list_model_get_n_items(artists), ==, 2);
	g_list_store_remove_all(tracks);
	g_assert_cmpuint(g_list_model_get_n_items(artists), ==, 0);
	g_assert_finalize_object(model);
	g_assert_finalize_object(tracks);
	for (guint i = 0; i < G_N_ELEMENTS(t); i++)
		g_assert_finalize_object(t[i]);
}

int main(int argc, char **argv)
{
	g_autofree char *image = NULL;

	km_test_init(&argc, &argv);
	image = km_test_make_image(N_TRACKS);
	g_test_add_func("/app/window/start-page", test_start_page);
	g_test_add_func("/app/library/model-groups", test_model_groups);
	g_test_add_data_func("/app/library/tree", image, test_tree);
	g_test_add_data_func("/app/library/search", image, test_search);
	g_test_add_data_func("/app/library/sort", image, test_sort);
	g_test_add_data_func("/app/details/properties", image, test_details);
	g_test_add_data_func("/app/details/edit-title", image, test_edit_title);
	g_test_add_data_func("/app/details/edit-several", image, test_edit_several);
	g_test_add_func("/app/preferences", test_preferences);
	return g_test_run();
}
