/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-test-screen.c - what a user finds on the screen and does with it: the
 * rows of the library, labels and buttons that are shown, a click on them,
 * text typed (test-user.c and the tour).
 */
#include "km-test-screen.h"

#include <string.h>

#include "km-test-input.h"
#include "km-test-util.h"

GListModel *km_test_view_rows(KmPlayerView *pv)
{
	return G_LIST_MODEL(km_library_view_get_model(_km_player_view_get_library_view(pv)));
}

/* Whether widget is position's cell in the Title column (the library's cells carry their list item). */
static gboolean is_title_cell(GtkWidget *widget, gconstpointer position)
{
	GtkListItem *item = g_object_get_data(G_OBJECT(widget), "km-list-item");

	return GTK_IS_TREE_EXPANDER(widget) && item &&
	       gtk_list_item_get_position(item) == GPOINTER_TO_UINT(position);
}

static GtkWidget *find_title_cell(GtkWidget *widget, guint position)
{
	return km_test_find_widget_where(widget, is_title_cell, GUINT_TO_POINTER(position));
}

GtkWidget *km_test_title_cell(KmPlayerView *pv, guint position)
{
	GtkWidget *cell = NULL;

	gtk_test_widget_wait_for_draw(gtk_widget_get_ancestor(GTK_WIDGET(pv), GTK_TYPE_WINDOW));
	km_test_wait_until((cell = find_title_cell(GTK_WIDGET(pv), position)) != NULL);
	return cell;
}

/* A click on the text of row position (not on its arrow), as a user selects a row. */
void km_test_click_row(KmPlayerView *pv, guint position, guint n_clicks)
{
	GtkWidget *label = gtk_tree_expander_get_child(GTK_TREE_EXPANDER(km_test_title_cell(pv, position)));

	km_test_click(label, 1, n_clicks);
}

/* The first mapped button below widget with this icon, or NULL. */
GtkWidget *km_test_find_icon_button(GtkWidget *widget, const char *icon)
{
	if (!gtk_widget_get_mapped(widget))
		return NULL;
	if (GTK_IS_BUTTON(widget) && g_strcmp0(gtk_button_get_icon_name(GTK_BUTTON(widget)), icon) == 0)
		return widget;
	if (GTK_IS_MENU_BUTTON(widget) &&
	    g_strcmp0(gtk_menu_button_get_icon_name(GTK_MENU_BUTTON(widget)), icon) == 0)
		return widget;
	for (GtkWidget *c = gtk_widget_get_first_child(widget); c; c = gtk_widget_get_next_sibling(c)) {
		GtkWidget *found = km_test_find_icon_button(c, icon);

		if (found)
			return found;
	}
	return NULL;
}

GtkWidget *km_test_find_action_button(GtkWidget *widget, const char *action)
{
	if (!gtk_widget_get_mapped(widget))
		return NULL;
	if (GTK_IS_BUTTON(widget) &&
	    g_strcmp0(gtk_actionable_get_action_name(GTK_ACTIONABLE(widget)), action) == 0)
		return widget;
	for (GtkWidget *c = gtk_widget_get_first_child(widget); c; c = gtk_widget_get_next_sibling(c)) {
		GtkWidget *found = km_test_find_action_button(c, action);

		if (found)
			return found;
	}
	return NULL;
}

/* The first mapped label below widget showing text, or NULL. */
GtkWidget *km_test_find_shown_label(GtkWidget *widget, const char *text)
{
	if (!gtk_widget_get_mapped(widget))
		return NULL;
	if (GTK_IS_LABEL(widget) && g_strcmp0(gtk_label_get_text(GTK_LABEL(widget)), text) == 0)
		return widget;
	for (GtkWidget *c = gtk_widget_get_first_child(widget); c; c = gtk_widget_get_next_sibling(c)) {
		GtkWidget *found = km_test_find_shown_label(c, text);

		if (found)
			return found;
	}
	return NULL;
}

void km_test_click_label(GtkWidget *below, const char *text)
{
	GtkWidget *label = NULL;

	km_test_wait_until((label = km_test_find_shown_label(below, text)) != NULL);
	km_test_click(label, 1, 1);
}

/* Whether some mapped label below widget has text containing part. */
gboolean km_test_shows_part(GtkWidget *widget, const char *part)
{
	if (!gtk_widget_get_mapped(widget))
		return FALSE;
	if (GTK_IS_LABEL(widget) && strstr(gtk_label_get_text(GTK_LABEL(widget)), part))
		return TRUE;
	for (GtkWidget *c = gtk_widget_get_first_child(widget); c; c = gtk_widget_get_next_sibling(c))
		if (km_test_shows_part(c, part))
			return TRUE;
	return FALSE;
}

/* The dialog's button with this label (AdwMessageDialog's and AdwAlertDialog's are GtkButtons). */
GtkWidget *km_test_find_button(GtkWidget *widget, const char *label)
{
	if (!gtk_widget_get_mapped(widget))
		return NULL;
	if (GTK_IS_BUTTON(widget) && g_strcmp0(gtk_button_get_label(GTK_BUTTON(widget)), label) == 0)
		return widget;
	for (GtkWidget *c = gtk_widget_get_first_child(widget); c; c = gtk_widget_get_next_sibling(c)) {
		GtkWidget *found = km_test_find_button(c, label);

		if (found)
			return found;
	}
	return NULL;
}

/* Types text (ASCII letters and spaces) on the keyboard. */
void km_test_type_text(GtkWindow *window, const char *text)
{
	for (const char *c = text; *c; c++)
		km_test_press_key(window, *c == ' ' ? GDK_KEY_space : gdk_unicode_to_keyval(*c), 0);
}

/* Whether widget is where it was a few frames ago (not sliding). */
gboolean km_test_stands_still(GtkWidget *widget)
{
	GtkWidget *window = GTK_WIDGET(gtk_widget_get_root(widget));
	graphene_rect_t before, after;

	if (!gtk_widget_compute_bounds(widget, window, &before))
		return FALSE;
	km_test_settle(GTK_WINDOW(window));
	return gtk_widget_compute_bounds(widget, window, &after) &&
	       graphene_rect_equal(&before, &after);
}
