/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tour.c - the app as a new user walks through it, a screenshot per step:
 * start page, demo, browse, search, tag edit, add, export, delete and undo,
 * playlist, backup, restore, check, eject, and a damaged player's banner,
 * at each width asked for (default 1280, 800 and 400 px). Driven through
 * the X server as the user tests are (km-test-input, km-test-screen); each
 * screenshot is the screen's pixels around the window and its dialogs
 * (XGetImage: popovers and libadwaita 1.2's dialog windows included).
 * Not a test: scripts/tour.sh OUTDIR runs it under Xvfb, and someone looks
 * at the pictures (OUTDIR/WIDTH/NN-step.png).
 */
#include "config.h"

#include "km-test-util.h"

#include <stdlib.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <gdk/x11/gdkx.h>
#include <glib/gstdio.h>

#include "km-test-input.h"
#include "km-test-screen.h"

/* window-sized for AppStream (at most 1000x700 with its frame) */
#define HEIGHT 680

typedef struct {
	const char *dir;	/* OUTDIR/WIDTH */
	guint step;
	KmWindow *win;
	char *tmp;		/* the tour's files: wavs, exports, backups */
} Tour;

/* The screen rectangle of window (its X surface), in root coordinates. */
static GdkRectangle screen_rect(GtkWidget *window)
{
	GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
	Display *dpy = gdk_x11_display_get_xdisplay(gtk_widget_get_display(window));
	GdkRectangle r = { 0 };
	Window child;

	XTranslateCoordinates(dpy, gdk_x11_surface_get_xid(surface), DefaultRootWindow(dpy), 0, 0,
			      &r.x, &r.y, &child);
	r.width = gdk_surface_get_width(surface);
	r.height = gdk_surface_get_height(surface);
	return r;
}

/* The pixels of rect of the screen, as a PNG at path. */
static void save_screen(Display *dpy, const GdkRectangle *rect, const char *path)
{
	XImage *image = XGetImage(dpy, DefaultRootWindow(dpy), rect->x, rect->y, rect->width,
				  rect->height, AllPlanes, ZPixmap);
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(GdkTexture) texture = NULL;
	guint8 *pixels;
	gsize stride = (gsize)rect->width * 4;

	g_assert_nonnull(image);
	g_assert_cmpint(image->bits_per_pixel, ==, 32);
	pixels = g_malloc(stride * rect->height);
	for (int y = 0; y < rect->height; y++)
		for (int x = 0; x < rect->width; x++) {
			unsigned long p = XGetPixel(image, x, y);
			guint8 *out = pixels + y * stride + x * 4;

			out[0] = (p >> 16) & 0xff;
			out[1] = (p >> 8) & 0xff;
			out[2] = p & 0xff;
			out[3] = 0xff;
		}
	XDestroyImage(image);
	bytes = g_bytes_new_take(pixels, stride * rect->height);
	texture = gdk_memory_texture_new(rect->width, rect->height, GDK_MEMORY_R8G8B8A8, bytes,
					 stride);
	g_assert_true(gdk_texture_save_to_png(texture, path));
}

/* A screenshot of the window and whatever of the app's is shown over or beside it. */
static void shoot(Tour *tour, const char *what)
{
	GtkWidget *window = GTK_WIDGET(tour->win);
	Display *dpy = gdk_x11_display_get_xdisplay(gtk_widget_get_display(window));
	g_autofree char *path = g_strdup_printf("%s/%02u-%s.png", tour->dir, ++tour->step, what);
	g_autoptr(GList) toplevels = gtk_window_list_toplevels();
	GdkRectangle all = screen_rect(window);

	/* shown at its size (the first picture comes right after present) */
	km_test_wait_until(gtk_widget_get_mapped(window) &&
			   gdk_surface_get_width(gtk_native_get_surface(GTK_NATIVE(window))) > 100);
	/* animations (a dialog, a revealer, a toast) end */
	for (int i = 0; i < 40; i++) {
		g_main_context_iteration(NULL, FALSE);
		g_usleep(10000);
	}
	km_test_settle(GTK_WINDOW(window));
	for (GList *l = toplevels; l; l = l->next) {
		GdkRectangle r;

		if (l->data == window || !gtk_widget_get_mapped(l->data))
			continue;
		r = screen_rect(l->data);
		gdk_rectangle_union(&all, &r, &all);
	}
	XSync(dpy, False);
	save_screen(dpy, &all, path);
	g_print("%s\n", path);
}

static KmPlayerView *player_view(Tour *tour)
{
	return KM_PLAYER_VIEW(km_window_get_player_view(tour->win));
}

static GtkWidget *wait_dialog(void)
{
	GtkWidget *dialog = NULL;

	km_test_wait_until((dialog = km_test_find_dialog(KM_TYPE_QUESTION_DIALOG)) != NULL &&
			   gtk_widget_get_mapped(dialog));
	return dialog;
}

/* Answers dialog as its button does; waits until it is gone (another may follow). */
static void answer(GtkWidget *dialog, const char *response)
{
	g_autoptr(GtkWidget) gone = g_object_ref(dialog);

	km_question_answer(KM_QUESTION_DIALOG(dialog), response);
	km_test_wait_until(!gtk_widget_get_mapped(gone));
}

static void main_menu(Tour *tour, const char *item)
{
	KmPlayerView *pv = player_view(tour);
	GtkWidget *button = km_test_find_icon_button(GTK_WIDGET(pv), "open-menu-symbolic");

	km_test_click(button, 1, 1);
	km_test_click_label(GTK_WIDGET(gtk_menu_button_get_popover(GTK_MENU_BUTTON(button))),
			    item);
}

static void wait_transfers_done(KmPlayerView *pv)
{
	km_test_wait_until(!km_player_view_is_busy(pv));
}

static void start_and_demo(Tour *tour)
{
	shoot(tour, "start-page");
	km_test_click_label(GTK_WIDGET(tour->win), "Try the Demo Player");
	km_test_wait_until(km_window_get_player_view(tour->win) != NULL &&
			   km_test_n_tracks(tour->win) > 0);
	km_test_focus_window(GTK_WINDOW(tour->win));
	shoot(tour, "demo");
}

static void browse_and_search(Tour *tour)
{
	KmPlayerView *pv = player_view(tour);
	GListModel *rows = km_test_view_rows(pv);

	for (guint i = 0, opened = 0; opened < 2 && i < g_list_model_get_n_items(rows); i++) {
		g_autoptr(GtkTreeListRow) row = g_list_model_get_item(rows, i);

		if (gtk_tree_list_row_get_depth(row) < 2 && gtk_tree_list_row_is_expandable(row)) {
			gtk_tree_list_row_set_expanded(row, TRUE);
			opened += gtk_tree_list_row_get_depth(row) == 1;
		}
	}
	km_test_click_row(pv, km_test_first_track_row(pv), 1);
	shoot(tour, "browse");
	/* a word of the demo's titles */
	km_test_press_key(GTK_WINDOW(tour->win), GDK_KEY_f, GDK_CONTROL_MASK);
	km_test_type_text(GTK_WINDOW(tour->win), "harbour");
	shoot(tour, "search");
	km_test_press_key(GTK_WINDOW(tour->win), GDK_KEY_Escape, 0);
}

/* Whether the side panes fold over the list (libadwaita 1.4, a narrow window). */
static gboolean folded(KmPlayerView *pv)
{
#if ADW_CHECK_VERSION(1, 4, 0)
	return adw_overlay_split_view_get_collapsed(ADW_OVERLAY_SPLIT_VIEW(pv->playlists_split));
#else
	return FALSE;
#endif
}

static void edit_tags(Tour *tour)
{
	KmPlayerView *pv = player_view(tour);
	GtkWidget *details = GTK_WIDGET(_km_player_view_get_details_pane(pv));
	GtkWidget *row = NULL;

	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	km_test_click_row(pv, km_test_first_track_row(pv), 1);
	if (!gtk_widget_get_mapped(details))
		km_test_press_key(GTK_WINDOW(tour->win), GDK_KEY_F9, 0);
	km_test_wait_until(km_test_find_shown_label(details, "Save Tags") != NULL);
	km_test_wait_until((row = km_test_find_shown_label(details, "Title")) != NULL);
	row = gtk_widget_get_ancestor(row, ADW_TYPE_ENTRY_ROW);
	gtk_editable_set_text(GTK_EDITABLE(row), "Harbour Lights (Live)");
	shoot(tour, "tag-edit");
	km_test_click_label(details, "Save Tags");
	/* the first change to a player offers a backup first */
	shoot(tour, "backup-offer");
	answer(wait_dialog(), "later");
	km_test_wait_until(!km_session_is_busy(km_player_view_get_session(pv)));
	/* folded, the details lie over the list: closed again, as a user does */
	if (folded(pv))
		km_test_press_key(GTK_WINDOW(tour->win), GDK_KEY_F9, 0);
}

static void add_and_export(Tour *tour)
{
	KmPlayerView *pv = player_view(tour);
	g_autofree char *wavs = g_build_filename(tour->tmp, "Music", NULL);
	g_autofree char *out = g_build_filename(tour->tmp, "Export", NULL);
	g_autoptr(GPtrArray) files = km_test_write_wavs(wavs, 700, 3);
	g_autoptr(GFile) dest = g_file_new_for_path(out);

	km_player_view_add_files(pv, (GFile *const *)files->pdata, files->len);
	wait_transfers_done(pv);
	shoot(tour, "add");
	km_transfer_panel_clear_finished(_km_player_view_get_transfers(pv));
	g_assert_cmpint(g_mkdir_with_parents(out, 0755), ==, 0);
	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	km_test_click_row(pv, km_test_first_track_row(pv), 1);
	km_test_press_key(GTK_WINDOW(tour->win), GDK_KEY_a, GDK_CONTROL_MASK);
	km_player_view_export_selected(pv, dest);	/* the folder the chooser gives */
	wait_transfers_done(pv);
	shoot(tour, "export");
	km_transfer_panel_clear_finished(_km_player_view_get_transfers(pv));
}

/* Sync Folder…'s question, its list of tracks opened; not synced. */
static void sync_preview(Tour *tour)
{
	g_autofree char *music = g_build_filename(tour->tmp, "Sync", NULL);
	g_autoptr(GFile) folder = g_file_new_for_path(music);
	GtkWidget *dialog;
	GtkWidget *expander;

	g_ptr_array_unref(km_test_write_wavs(music, 720, 3));
	km_player_view_sync_folder(player_view(tour), folder);
	dialog = wait_dialog();
	expander = km_test_find_widget(dialog, GTK_TYPE_EXPANDER);
	g_assert_nonnull(expander);
	gtk_expander_set_expanded(GTK_EXPANDER(expander), TRUE);
	shoot(tour, "sync");
	answer(dialog, "cancel");
}

static void delete_and_undo(Tour *tour)
{
	g_autoptr(GSettings) settings = g_settings_new(APP_ID);
	KmPlayerView *pv = player_view(tour);
	GtkWidget *dialog;

	km_test_click_row(pv, km_test_first_track_row(pv), 1);
	km_test_press_key(GTK_WINDOW(tour->win), GDK_KEY_Delete, 0);
	dialog = wait_dialog();
	shoot(tour, "delete-question");
	answer(dialog, "cancel");
	/* Preferences: Ask Before Deleting off; then a deletion is undone from a toast */
	g_settings_set_boolean(settings, "confirm-delete", FALSE);
	km_test_press_key(GTK_WINDOW(tour->win), GDK_KEY_Delete, 0);
	km_test_wait_until(km_test_find_shown_label(GTK_WIDGET(tour->win), "Undo") != NULL);
	shoot(tour, "delete-undo");
	km_test_click_label(GTK_WIDGET(tour->win), "Undo");
	km_test_wait_until(km_player_view_get_n_uncommitted_deletes(pv) == 0);
	g_settings_reset(settings, "confirm-delete");
}

/* A click on name in the sidebar (folded: behind the header's button). */
static void show_in_sidebar(Tour *tour, const char *name)
{
	KmPlayerView *pv = player_view(tour);

	if (!gtk_widget_get_mapped(GTK_WIDGET(pv->sidebar)))
		km_test_click(km_test_find_icon_button(GTK_WIDGET(pv), "sidebar-show-symbolic"), 1, 1);
	/* it slides in over the list: clicked where it stops */
	km_test_wait_until(km_test_stands_still(GTK_WIDGET(pv->sidebar)));
	km_test_click_label(GTK_WIDGET(pv->sidebar), name);
}

static void playlist(Tour *tour)
{
	KmPlayerView *pv = player_view(tour);
	GtkWidget *dialog, *entry;
	guint pos;

	km_test_press_key(GTK_WINDOW(tour->win), GDK_KEY_n, GDK_CONTROL_MASK);
	dialog = wait_dialog();
	entry = km_question_dialog_get_extra_child(KM_QUESTION_DIALOG(dialog));
	gtk_editable_set_text(GTK_EDITABLE(entry), "Road Trip");
	shoot(tour, "new-playlist");
	answer(dialog, "create");
	/* the new playlist is shown; then the library again */
	km_test_wait_until(km_playlist_sidebar_get_selected(pv->sidebar) != NULL);
	show_in_sidebar(tour, "Library");
	km_test_wait_until(km_playlist_sidebar_get_selected(pv->sidebar) == NULL);
	/* three tracks, through the track menu (the Menu key) */
	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	pos = km_test_first_track_row(pv);
	for (guint i = 0; i < 3; i++, pos++) {
		g_autoptr(KmTrack) track = NULL;

		while (!(track = km_test_row_track(pv, pos)))
			pos++;
		km_test_click_row(pv, pos, 1);
		km_test_press_key(GTK_WINDOW(tour->win), GDK_KEY_Menu, 0);
		km_test_wait_until(gtk_widget_get_mapped(pv->track_popover));
		km_test_click_label(pv->track_popover, "Add to Playlist");
		if (i == 0)
			shoot(tour, "add-to-playlist");
		km_test_click_label(pv->track_popover, "Road Trip");
		km_test_wait_until(!km_session_is_busy(km_player_view_get_session(pv)));
	}
	show_in_sidebar(tour, "Road Trip");
	km_test_wait_until(km_test_find_shown_label(GTK_WIDGET(pv), "3 tracks") != NULL);
	shoot(tour, "playlist");
	show_in_sidebar(tour, "Library");
}

static void backup_and_restore(Tour *tour)
{
	KmPlayerView *pv = player_view(tour);
	GtkWidget *dialog;

	main_menu(tour, "Back Up Player…");
	km_test_wait_until(km_transfer_panel_get_first_row(_km_player_view_get_transfers(pv)));
	wait_transfers_done(pv);
	shoot(tour, "backup");
	km_transfer_panel_clear_finished(_km_player_view_get_transfers(pv));
	main_menu(tour, "Restore Player…");
	dialog = wait_dialog();
	shoot(tour, "restore-choose");
	answer(dialog, "restore");
	dialog = wait_dialog();
	shoot(tour, "restore-warning");
	answer(dialog, "restore");
	km_test_wait_until(km_transfer_panel_get_first_row(_km_player_view_get_transfers(pv)));
	wait_transfers_done(pv);
	shoot(tour, "restore");
	km_transfer_panel_clear_finished(_km_player_view_get_transfers(pv));
}

static void check_and_eject(Tour *tour)
{
	main_menu(tour, "Check Player…");
	km_test_wait_until(km_test_shows_part(wait_dialog(), "Found"));
	shoot(tour, "check");
	answer(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG), "close");
	km_test_press_key(GTK_WINDOW(tour->win), GDK_KEY_j, GDK_CONTROL_MASK);
	km_test_wait_until(km_window_get_player_view(tour->win) == NULL);
	shoot(tour, "ejected");
}

/* A player whose list of tracks is damaged: the banner, and what Check Player… says. */
static void damaged(Tour *tour)
{
	g_autofree char *image = km_test_make_image(6);
	g_autoptr(GFile) file = g_file_new_for_path(image);

	km_test_damage_smalldb(image);
	/* the eject's toast ("can be unplugged") is gone before another player opens */
	km_test_wait_until(km_test_find_shown_label(GTK_WIDGET(tour->win),
						    "The player can be unplugged now") == NULL);
	km_window_open_image(tour->win, file);
	km_test_wait_until(km_window_get_player_view(tour->win) != NULL);
	km_test_wait_until(km_test_find_shown_label(GTK_WIDGET(tour->win),
						    "This player has problems") != NULL);
	shoot(tour, "damaged-banner");
	km_test_click_label(GTK_WIDGET(tour->win), "Check Player…");
	km_test_wait_until(km_test_shows_part(wait_dialog(), "Found"));
	shoot(tour, "damaged-check");
	answer(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG), "close");
}

static void tour_at(const char *out_dir, int width)
{
	g_autoptr(GSettings) settings = g_settings_new(APP_ID);
	g_autofree char *dir = g_strdup_printf("%s/%d", out_dir, width);
	g_autofree char *demo = g_build_filename(g_get_user_cache_dir(), "karma-manager",
						 "demo-karma.img", NULL);
	g_autofree char *backups = NULL;
	Tour tour = { .dir = dir };

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	tour.tmp = g_dir_make_tmp("km-tour-XXXXXX", NULL);
	backups = g_build_filename(tour.tmp, "Backups", NULL);
	g_settings_set_string(settings, "backup-folder", backups);
	g_settings_reset(settings, "offered-backup-serials");
	/* the demo player as a new user first meets it */
	g_unlink(demo);
	tour.win = g_object_ref(km_window_new(NULL));
	gtk_window_set_default_size(GTK_WINDOW(tour.win), width, HEIGHT);
	gtk_window_present(GTK_WINDOW(tour.win));
	km_test_focus_window(GTK_WINDOW(tour.win));
	start_and_demo(&tour);
	browse_and_search(&tour);
	edit_tags(&tour);
	add_and_export(&tour);
	sync_preview(&tour);
	delete_and_undo(&tour);
	playlist(&tour);
	backup_and_restore(&tour);
	check_and_eject(&tour);
	damaged(&tour);
	km_test_close_window(tour.win);
	g_free(tour.tmp);
}

/* What AdwApplication does with the resource base path: the app's style (tests have no application). */
static void load_style(void)
{
	g_autoptr(GtkCssProvider) css = gtk_css_provider_new();

	gtk_css_provider_load_from_resource(css, "/io/github/karmamanager/KarmaManager/style.css");
	gtk_style_context_add_provider_for_display(gdk_display_get_default(),
						   GTK_STYLE_PROVIDER(css),
						   GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

int main(int argc, char **argv)
{
	km_test_init(&argc, &argv);
	/* a warning is printed and the walk goes on: the tour is for looking, not a test */
	g_log_set_always_fatal(G_LOG_FATAL_MASK);
	load_style();
	if (argc < 2) {
		g_printerr("usage: tour OUTPUT_DIR [WIDTH...]\n");
		return 2;
	}
	if (argc == 2) {
		for (guint i = 0; i < 3; i++)
			tour_at(argv[1], (int[]){ 1280, 800, 400 }[i]);
	} else {
		for (int i = 2; i < argc; i++)
			tour_at(argv[1], atoi(argv[i]));
	}
	return 0;
}
