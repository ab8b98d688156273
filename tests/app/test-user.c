/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-user.c - the window as a new user meets it, driven only through what
 * a user has: key presses to the window (wherever its focus is), clicks at
 * the coordinates of widgets on screen, and what the screen then shows.
 * Each test is one problem a walk-through found (issue 20).
 */
#include "config.h"

#include "km-test-util.h"

#include "km-test-input.h"
#include "km-library-group.h"

#define N_TRACKS 12

static GListModel *view_rows(KmPlayerView *pv)
{
	return G_LIST_MODEL(km_library_view_get_model(_km_player_view_get_library_view(pv)));
}

/* The widget of position's cell in the Title column (the library's cells carry their list item). */
static GtkWidget *find_title_cell(GtkWidget *widget, guint position)
{
	GtkListItem *item = g_object_get_data(G_OBJECT(widget), "km-list-item");

	if (GTK_IS_TREE_EXPANDER(widget) && item && gtk_list_item_get_position(item) == position)
		return widget;
	for (GtkWidget *c = gtk_widget_get_first_child(widget); c; c = gtk_widget_get_next_sibling(c)) {
		GtkWidget *found = find_title_cell(c, position);

		if (found)
			return found;
	}
	return NULL;
}

static GtkWidget *title_cell(KmPlayerView *pv, guint position)
{
	GtkWidget *cell = NULL;

	gtk_test_widget_wait_for_draw(gtk_widget_get_ancestor(GTK_WIDGET(pv), GTK_TYPE_WINDOW));
	km_test_wait_until((cell = find_title_cell(GTK_WIDGET(pv), position)) != NULL);
	return cell;
}

/* A click on the text of row position (not on its arrow), as a user selects a row. */
static void click_row(KmPlayerView *pv, guint position, guint n_clicks)
{
	GtkWidget *label = gtk_tree_expander_get_child(GTK_TREE_EXPANDER(title_cell(pv, position)));

	km_test_click(label, 1, n_clicks);
}

static gboolean is_expanded(KmPlayerView *pv, guint position)
{
	g_autoptr(GObject) row = g_list_model_get_item(view_rows(pv), position);

	return GTK_IS_TREE_LIST_ROW(row) && gtk_tree_list_row_get_expanded(GTK_TREE_LIST_ROW(row));
}

/* Whether a widget of type below widget is shown (mapped) with this label or title. */
G_GNUC_UNUSED static gboolean shows_text(GtkWidget *widget, const char *text)
{
	if (!gtk_widget_get_mapped(widget))
		return FALSE;
	if (GTK_IS_LABEL(widget) && g_strcmp0(gtk_label_get_text(GTK_LABEL(widget)), text) == 0)
		return TRUE;
	for (GtkWidget *c = gtk_widget_get_first_child(widget); c; c = gtk_widget_get_next_sibling(c))
		if (shows_text(c, text))
			return TRUE;
	return FALSE;
}


/* The first mapped button below widget with this icon, or NULL. */
static GtkWidget *find_icon_button(GtkWidget *widget, const char *icon)
{
	if (!gtk_widget_get_mapped(widget))
		return NULL;
	if (GTK_IS_BUTTON(widget) && g_strcmp0(gtk_button_get_icon_name(GTK_BUTTON(widget)), icon) == 0)
		return widget;
	for (GtkWidget *c = gtk_widget_get_first_child(widget); c; c = gtk_widget_get_next_sibling(c)) {
		GtkWidget *found = find_icon_button(c, icon);

		if (found)
			return found;
	}
	return NULL;
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
	km_test_wait_until((dismiss = find_icon_button(transfers, "window-close-symbolic")));
	km_test_click(dismiss, 1, 1);
	km_test_wait_until(km_transfer_panel_get_first_row(KM_TRANSFER_PANEL(transfers)) == NULL);
	/* Ctrl+F: the search entry, focused; Escape closes it */
	km_test_press_key(window, GDK_KEY_f, GDK_CONTROL_MASK);
	g_assert_true(search_has_focus(window, pv));
	km_test_press_key(window, GDK_KEY_Escape, 0);
	/* Ctrl+N asks the new playlist's name */
	km_test_press_key(window, GDK_KEY_n, GDK_CONTROL_MASK);
	dialog = km_test_find_toplevel(ADW_TYPE_MESSAGE_DIALOG);
	g_assert_nonnull(dialog);
	km_test_answer(dialog, "cancel");
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
	GtkWidget *arrow = expander_arrow(title_cell(pv, 0));
	guint n = g_list_model_get_n_items(view_rows(pv));

	km_test_focus_window(GTK_WINDOW(win));
	g_assert_nonnull(arrow);
	km_test_click(arrow, 1, 1);
	g_assert_true(is_expanded(pv, 0));
	g_assert_cmpuint(g_list_model_get_n_items(view_rows(pv)), >, n);
	km_test_click(expander_arrow(title_cell(pv, 0)), 1, 1);
	g_assert_false(is_expanded(pv, 0));
	/* a double-click on the row opens it, another closes it */
	click_row(pv, 0, 2);
	g_assert_true(is_expanded(pv, 0));
	click_row(pv, 0, 2);
	g_assert_false(is_expanded(pv, 0));
	/* Enter on the selected row, as the shortcuts window says */
	km_test_press_key(GTK_WINDOW(win), GDK_KEY_Return, 0);
	g_assert_true(is_expanded(pv, 0));
	km_test_close_window(win);
}

int main(int argc, char **argv)
{
	g_autofree char *image = NULL;

	km_test_init(&argc, &argv);
	image = km_test_make_image(N_TRACKS);
	g_test_add_data_func("/app/user/shortcuts-anywhere", image, test_shortcuts_anywhere);
	g_test_add_data_func("/app/user/expand-group", image, test_expand_group);
	return g_test_run();
}
