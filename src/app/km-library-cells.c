/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-cells.c - the factories of the library view's columns.
 */
#define G_LOG_DOMAIN "km-library-cells"

#include "config.h"

#include "km-library-cells.h"
#include "km-library-group.h"

/* The item a cell shows: a group or a track (a new reference). */
static gpointer cell_item(GtkListItem *list_item)
{
	gpointer item = gtk_list_item_get_item(list_item);

	if (GTK_IS_TREE_LIST_ROW(item))
		return gtk_tree_list_row_get_item(item);
	return item ? g_object_ref(item) : NULL;
}

static void setup_cell(GtkSignalListItemFactory *factory, GtkListItem *list_item,
		       gpointer user_data)
{
	KmColumn column = GPOINTER_TO_UINT(user_data);
	GCallback prepare = g_object_get_data(G_OBJECT(factory), "km-drag-prepare");
	GObject *target = g_object_get_data(G_OBJECT(factory), "km-drag-data");
	GtkWidget *label = gtk_label_new(NULL);
	GtkWidget *cell = label;
	GtkDragSource *drag = gtk_drag_source_new();

	gtk_label_set_ellipsize(GTK_LABEL(label), PANGO_ELLIPSIZE_END);
	gtk_label_set_xalign(GTK_LABEL(label), km_column_is_numeric(column) ? 1.0f : 0.0f);
	if (km_column_is_numeric(column))
		gtk_widget_add_css_class(label, "numeric");
	if (column == KM_COLUMN_TITLE) {
		cell = gtk_tree_expander_new();
		gtk_tree_expander_set_child(GTK_TREE_EXPANDER(cell), label);
		/*
		 * The sidebar's divider takes presses some 15 px into the list
		 * (its grab area): an artist's ▸ starts past it, or a click on
		 * it would drag the divider.
		 */
		gtk_widget_set_margin_start(cell, 12);
	}
	g_object_set_data(G_OBJECT(cell), "km-list-item", list_item);
	gtk_drag_source_set_actions(drag, GDK_ACTION_COPY);
	g_signal_connect_object(drag, "prepare", prepare, target, 0);
	gtk_widget_add_controller(cell, GTK_EVENT_CONTROLLER(drag));
	gtk_list_item_set_child(list_item, cell);
}

static void bind_cell(GtkSignalListItemFactory *factory, GtkListItem *list_item,
		      gpointer user_data)
{
	KmColumn column = GPOINTER_TO_UINT(user_data);
	GtkWidget *cell = gtk_list_item_get_child(list_item);
	g_autoptr(GObject) item = cell_item(list_item);
	gpointer row = gtk_list_item_get_item(list_item);
	g_autofree char *text = NULL;
	GtkWidget *label = cell;

	if (column == KM_COLUMN_TITLE) {
		gtk_tree_expander_set_list_row(GTK_TREE_EXPANDER(cell),
					       GTK_IS_TREE_LIST_ROW(row) ? row : NULL);
		label = gtk_tree_expander_get_child(GTK_TREE_EXPANDER(cell));
	}
	if (KM_IS_TRACK(item))
		text = km_column_format(column, KM_TRACK(item));
	else if (KM_IS_LIBRARY_GROUP(item) && column == KM_COLUMN_TITLE)
		text = g_strdup(km_library_group_get_label(KM_LIBRARY_GROUP(item)));
	gtk_label_set_text(GTK_LABEL(label), text ? text : "");
	if (KM_IS_LIBRARY_GROUP(item))
		gtk_widget_add_css_class(label, "heading");
	else
		gtk_widget_remove_css_class(label, "heading");
}

static void unbind_cell(GtkSignalListItemFactory *factory, GtkListItem *list_item,
			gpointer user_data)
{
	GtkWidget *cell = gtk_list_item_get_child(list_item);

	if (GTK_IS_TREE_EXPANDER(cell))
		gtk_tree_expander_set_list_row(GTK_TREE_EXPANDER(cell), NULL);
}

static const int column_widths[KM_N_COLUMNS] = {
	[KM_COLUMN_TITLE] = 260, [KM_COLUMN_ARTIST] = 160, [KM_COLUMN_ALBUM] = 160,
	[KM_COLUMN_GENRE] = 100,
};

GtkColumnViewColumn *km_library_column_new(KmColumn c, GCallback drag_prepare, gpointer data)
{
	GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
	g_autoptr(GtkSorter) sorter = km_column_sorter_new(c);
	GtkColumnViewColumn *column;

	/* borrowed: the view owns the columns, and so the factories */
	g_object_set_data(G_OBJECT(factory), "km-drag-prepare", drag_prepare);
	g_object_set_data(G_OBJECT(factory), "km-drag-data", data);
	g_signal_connect(factory, "setup", G_CALLBACK(setup_cell), GUINT_TO_POINTER(c));
	g_signal_connect(factory, "bind", G_CALLBACK(bind_cell), GUINT_TO_POINTER(c));
	g_signal_connect(factory, "unbind", G_CALLBACK(unbind_cell), GUINT_TO_POINTER(c));
	column = gtk_column_view_column_new(km_column_get_title(c), factory);
	gtk_column_view_column_set_sorter(column, sorter);
	gtk_column_view_column_set_resizable(column, TRUE);
	/* natural widths come from the first rows: give the text room */
	if (column_widths[c])
		gtk_column_view_column_set_fixed_width(column, column_widths[c]);
	if (c == KM_COLUMN_TITLE)
		gtk_column_view_column_set_expand(column, TRUE);
	return column;
}
