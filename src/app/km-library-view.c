/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-view.c - the column view over the library tree.
 *
 * Two models feed the one column view: the tree (GtkTreeListModel over the
 * artists, sorted per level by a GtkTreeListRowSorter) and, while a search
 * is on, a flat filtered list of all tracks (as GNOME Music does), both
 * sorted by the column view's sorter. Cells are bound from either a
 * GtkTreeListRow or a bare KmTrack.
 */
#define G_LOG_DOMAIN "km-library-view"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "km-app-util.h"
#include "km-library-group.h"
#include "km-library-cells.h"
#include "km-library-model.h"
#include "km-library-view.h"

struct _KmLibraryView {
	GtkWidget parent_instance;

	/* Template widgets */
	GtkSearchBar *search_bar;
	GtkSearchEntry *search_entry;
	GtkStack *stack;
	GtkStack *empty_stack;
	GtkColumnView *column_view;

	/* Owned references */
	GListModel *tracks;	/* what is shown: the library's tracks, or a playlist's */
	gboolean grouped;	/* tracks is shown as the tree */
	/* the tree, kept while a playlist is shown: its rows stay open */
	GListModel *tree_tracks;
	KmLibraryModel *library;
	GtkSelectionModel *tree_selection;
	GtkSelectionModel *flat_selection;
	GtkCustomFilter *filter;
	char *query;		/* as search_key() makes it, NULL when not searching */
	GHashTable *selected_fids;	/* of the track rows selected */
	guint selection_check;	/* idle: check_selection() after rows went */
	GtkColumnViewColumn *columns[KM_N_COLUMNS];
	KmSortState sort_state;
	GtkColumnViewColumn *sort_column;	/* borrowed: the view holds its columns */
	GtkColumnViewColumn *clicked_column;	/* the header pressed last (borrowed) */
	gboolean sorting;	/* the view's own change of the sort, not a header's */
};

G_DEFINE_FINAL_TYPE(KmLibraryView, km_library_view, GTK_TYPE_WIDGET)

enum { SIGNAL_SELECTION_CHANGED, SIGNAL_PREPARE_DRAG, N_SIGNALS };
static guint signals[N_SIGNALS];

/*
 * text as search compares it: case folded, accents dropped ("Élodie" is
 * found by "elodie"): decomposed, without the combining marks.
 */
static char *search_key(const char *text)
{
	g_autofree char *folded = g_utf8_casefold(text, -1);
	g_autofree char *decomposed = g_utf8_normalize(folded, -1, G_NORMALIZE_NFD);
	GString *key;

	/* invalid UTF-8 from the disk does not normalize: compared as folded */
	if (!decomposed)
		return g_steal_pointer(&folded);
	key = g_string_sized_new(strlen(decomposed));
	for (const char *p = decomposed; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		if (!g_unichar_ismark(c))
			g_string_append_unichar(key, c);
	}
	return g_string_free(key, FALSE);
}

static gboolean contains_query(const char *text, const char *query)
{
	g_autofree char *key = NULL;

	if (!text)
		return FALSE;
	key = search_key(text);
	return strstr(key, query) != NULL;
}

static gboolean match_track(gpointer item, gpointer user_data)
{
	KmLibraryView *self = user_data;
	KmTrack *track = item;

	if (!self->query)
		return TRUE;
	return contains_query(km_track_get_title(track), self->query) ||
	       contains_query(km_track_get_artist(track), self->query) ||
	       contains_query(km_track_get_album(track), self->query) ||
	       contains_query(km_track_get_genre(track), self->query);
}

static GListModel *create_children(gpointer item, gpointer user_data)
{
	if (KM_IS_LIBRARY_GROUP(item))
		return g_object_ref(G_LIST_MODEL(km_library_group_get_children(item)));
	return NULL;
}

static void update_page(KmLibraryView *self)
{
	GtkSelectionModel *model = km_library_view_get_model(self);
	const char *page = "list";

	if (!self->tracks || g_list_model_get_n_items(self->tracks) == 0)
		page = "empty";
	else if (self->query && g_list_model_get_n_items(G_LIST_MODEL(model)) == 0)
		page = "no-results";
	gtk_stack_set_visible_child_name(self->stack, page);
}

/* The track a row shows (a new reference), or NULL for a group's row. */
static KmTrack *row_track(GListModel *model, guint position)
{
	g_autoptr(GObject) row = g_list_model_get_item(model, position);
	GObject *item = GTK_IS_TREE_LIST_ROW(row) ?
			gtk_tree_list_row_get_item(GTK_TREE_LIST_ROW(row)) : g_object_ref(row);

	if (KM_IS_TRACK(item))
		return KM_TRACK(item);
	g_clear_object(&item);
	return NULL;
}

static void on_selection_changed(KmLibraryView *self, guint position, guint n_items,
				 GtkSelectionModel *model)
{
	g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection(model);
	GtkBitsetIter iter;
	guint pos;

	if (model != km_library_view_get_model(self))
		return;	/* the tree's, while the search list is shown */
	g_hash_table_remove_all(self->selected_fids);
	for (gboolean ok = gtk_bitset_iter_init_first(&iter, selected, &pos); ok;
	     ok = gtk_bitset_iter_next(&iter, &pos)) {
		g_autoptr(KmTrack) track = row_track(G_LIST_MODEL(model), pos);

		if (track)
			g_hash_table_add(self->selected_fids,
					 GUINT_TO_POINTER(km_track_get_fid(track)));
	}
	g_signal_emit(self, signals[SIGNAL_SELECTION_CHANGED], 0);
}

/* Whether the rows selected in model show exactly the tracks of selected_fids. */
static gboolean selection_matches(KmLibraryView *self, GtkSelectionModel *model)
{
	g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection(model);
	GtkBitsetIter iter;
	guint pos, n = 0;

	for (gboolean ok = gtk_bitset_iter_init_first(&iter, selected, &pos); ok;
	     ok = gtk_bitset_iter_next(&iter, &pos)) {
		g_autoptr(KmTrack) track = row_track(G_LIST_MODEL(model), pos);

		if (!track)
			continue;
		if (!g_hash_table_contains(self->selected_fids,
					   GUINT_TO_POINTER(km_track_get_fid(track))))
			return FALSE;
		n++;
	}
	return n == g_hash_table_size(self->selected_fids);
}

/*
 * Selected rows that go (the lists replaced by a restore, a group closed)
 * leave the selection without a selection-changed: once the change is
 * whole (a retag removes a row and adds its new one), the view says what is
 * selected now, so the details pane never edits a track no row shows.
 */
static gboolean check_selection(gpointer data)
{
	KmLibraryView *self = data;
	GtkSelectionModel *model = km_library_view_get_model(self);

	self->selection_check = 0;
	if (model && !selection_matches(self, model))
		on_selection_changed(self, 0, 0, model);
	return G_SOURCE_REMOVE;
}

/*
 * A retagged track is a new KmTrack in a new row, which the selection model
 * does not know: the rows added that show a track selected before are
 * selected again, so the selection stays on the track that was edited.
 */
static void keep_selection(KmLibraryView *self, guint position, guint removed, guint added,
			   GtkSelectionModel *model)
{
	if (g_hash_table_size(self->selected_fids) == 0 ||
	    model != km_library_view_get_model(self))
		return;
	if (removed && !self->selection_check)
		self->selection_check = g_idle_add(check_selection, self);
	for (guint i = position; i < position + added; i++) {
		g_autoptr(KmTrack) track = row_track(G_LIST_MODEL(model), i);

		if (track && !gtk_selection_model_is_selected(model, i) &&
		    g_hash_table_contains(self->selected_fids,
					  GUINT_TO_POINTER(km_track_get_fid(track))))
			gtk_selection_model_select_item(model, i, FALSE);
	}
}

/* The selection model now shown changed (or none is): what is selected is new. */
static void selection_replaced(KmLibraryView *self)
{
	GtkSelectionModel *model = km_library_view_get_model(self);

	g_hash_table_remove_all(self->selected_fids);
	if (model)
		on_selection_changed(self, 0, 0, model);
	else
		g_signal_emit(self, signals[SIGNAL_SELECTION_CHANGED], 0);
}

static GdkContentProvider *on_drag_prepare(GtkDragSource *source, double x, double y,
					   KmLibraryView *self)
{
	GtkWidget *cell = gtk_event_controller_get_widget(GTK_EVENT_CONTROLLER(source));
	GtkListItem *list_item = g_object_get_data(G_OBJECT(cell), "km-list-item");
	GtkSelectionModel *model = km_library_view_get_model(self);
	GdkContentProvider *provider = NULL;
	guint pos;

	if (!list_item || (pos = gtk_list_item_get_position(list_item)) == GTK_INVALID_LIST_POSITION)
		return NULL;
	/* as Nautilus: dragging an unselected row drags that row alone */
	if (!gtk_selection_model_is_selected(model, pos))
		gtk_selection_model_select_item(model, pos, TRUE);
	g_signal_emit(self, signals[SIGNAL_PREPARE_DRAG], 0, cell, &provider);
	return provider;
}

gboolean km_library_view_select_at(KmLibraryView *self, double x, double y)
{
	GtkWidget *w = gtk_widget_pick(GTK_WIDGET(self), x, y, GTK_PICK_DEFAULT);
	GtkSelectionModel *model = km_library_view_get_model(self);
	GtkListItem *item = NULL;
	guint pos;

	g_return_val_if_fail(KM_IS_LIBRARY_VIEW(self), FALSE);
	/* the cells carry their list item (km-library-cells.c) */
	for (; w && w != GTK_WIDGET(self) && !item; w = gtk_widget_get_parent(w))
		item = g_object_get_data(G_OBJECT(w), "km-list-item");
	if (!item || !model || (pos = gtk_list_item_get_position(item)) == GTK_INVALID_LIST_POSITION)
		return FALSE;
	if (!gtk_selection_model_is_selected(model, pos))
		gtk_selection_model_select_item(model, pos, TRUE);
	return TRUE;
}

/* A double-click or Enter on an artist's or album's row opens or closes it. */
static void on_row_activated(KmLibraryView *self, guint position)
{
	GtkSelectionModel *model = km_library_view_get_model(self);
	g_autoptr(GObject) row = model ? g_list_model_get_item(G_LIST_MODEL(model), position) : NULL;

	if (GTK_IS_TREE_LIST_ROW(row) && gtk_tree_list_row_is_expandable(GTK_TREE_LIST_ROW(row)))
		gtk_tree_list_row_set_expanded(GTK_TREE_LIST_ROW(row),
					       !gtk_tree_list_row_get_expanded(GTK_TREE_LIST_ROW(row)));
}

static void add_columns(KmLibraryView *self)
{
	for (KmColumn c = 0; c < KM_N_COLUMNS; c++) {
		GtkColumnViewColumn *column = km_library_column_new(c, G_CALLBACK(on_drag_prepare),
								    self);

		gtk_column_view_append_column(self->column_view, column);
		self->columns[c] = column;
		g_object_unref(column);	/* the view holds it */
	}
}

static GtkSelectionModel *selection_over(KmLibraryView *self, GListModel *model,
					 GtkSorter *sorter)
{
	GtkSortListModel *sorted = gtk_sort_list_model_new(model, sorter);
	GtkMultiSelection *selection = gtk_multi_selection_new(G_LIST_MODEL(sorted));

	g_signal_connect_object(selection, "selection-changed",
				G_CALLBACK(on_selection_changed), self, G_CONNECT_SWAPPED);
	g_signal_connect_object(selection, "items-changed", G_CALLBACK(update_page), self,
				G_CONNECT_SWAPPED);
	g_signal_connect_object(selection, "items-changed", G_CALLBACK(keep_selection), self,
				G_CONNECT_SWAPPED);
	return GTK_SELECTION_MODEL(selection);
}

static void drop_shown_tracks(KmLibraryView *self)
{
	if (self->tracks)
		g_signal_handlers_disconnect_by_data(self->tracks, self);
	g_clear_object(&self->tracks);
	g_clear_object(&self->flat_selection);
}

static void clear_models(KmLibraryView *self)
{
	gtk_column_view_set_model(self->column_view, NULL);
	drop_shown_tracks(self);
	g_clear_object(&self->tree_selection);
	g_clear_object(&self->library);
	g_clear_object(&self->tree_tracks);
}

/* The tree over tracks, unless the one kept is over them already. */
static void ensure_tree(KmLibraryView *self, GListModel *tracks)
{
	GtkSorter *view_sorter = gtk_column_view_get_sorter(self->column_view);
	GtkTreeListModel *tree;

	if (self->tree_tracks == tracks)
		return;
	g_clear_object(&self->tree_selection);
	g_clear_object(&self->library);
	g_set_object(&self->tree_tracks, tracks);
	self->library = km_library_model_new(tracks);
	tree = gtk_tree_list_model_new(g_object_ref(km_library_model_get_artists(self->library)),
				       FALSE, FALSE, create_children, NULL, NULL);
	self->tree_selection = selection_over(
		self, G_LIST_MODEL(tree),
		GTK_SORTER(gtk_tree_list_row_sorter_new(g_object_ref(view_sorter))));
}

void km_library_view_set_tracks(KmLibraryView *self, GListModel *tracks, gboolean grouped)
{
	g_return_if_fail(KM_IS_LIBRARY_VIEW(self));
	gtk_column_view_set_model(self->column_view, NULL);
	drop_shown_tracks(self);
	self->grouped = grouped && tracks;
	if (tracks) {
		self->tracks = g_object_ref(tracks);
		g_signal_connect_swapped(tracks, "items-changed", G_CALLBACK(update_page), self);
		if (grouped)
			ensure_tree(self, tracks);
		gtk_column_view_set_model(self->column_view, km_library_view_get_model(self));
	}
	gtk_stack_set_visible_child_name(self->empty_stack, grouped ? "library" : "playlist");
	update_page(self);
	selection_replaced(self);
}

/* The flat list, made when it is shown: kept live, it would filter every change. */
static GtkSelectionModel *ensure_flat(KmLibraryView *self)
{
	GtkSorter *view_sorter = gtk_column_view_get_sorter(self->column_view);
	GtkFilterListModel *filtered;

	if (self->flat_selection || !self->tracks)
		return self->flat_selection;
	filtered = gtk_filter_list_model_new(g_object_ref(self->tracks),
					     g_object_ref(GTK_FILTER(self->filter)));
	self->flat_selection = selection_over(self, G_LIST_MODEL(filtered),
					      g_object_ref(view_sorter));
	return self->flat_selection;
}

GtkSelectionModel *km_library_view_get_model(KmLibraryView *self)
{
	g_return_val_if_fail(KM_IS_LIBRARY_VIEW(self), NULL);
	if (self->query || !self->grouped)
		return ensure_flat(self);
	return self->tree_selection;
}

static void add_unique(GPtrArray *tracks, GHashTable *seen, KmTrack *track)
{
	if (g_hash_table_add(seen, track))
		g_ptr_array_add(tracks, g_object_ref(track));
}

GPtrArray *km_library_view_get_selected_tracks(KmLibraryView *self)
{
	GPtrArray *tracks = g_ptr_array_new_with_free_func(g_object_unref);
	GtkSelectionModel *model;
	g_autoptr(GtkBitset) selected = NULL;
	g_autoptr(GHashTable) seen = g_hash_table_new(NULL, NULL);
	GtkBitsetIter iter;
	guint pos;

	g_return_val_if_fail(KM_IS_LIBRARY_VIEW(self), tracks);
	model = km_library_view_get_model(self);
	if (!model)
		return tracks;
	selected = gtk_selection_model_get_selection(model);
	for (gboolean ok = gtk_bitset_iter_init_first(&iter, selected, &pos); ok;
	     ok = gtk_bitset_iter_next(&iter, &pos)) {
		g_autoptr(GObject) row = g_list_model_get_item(G_LIST_MODEL(model), pos);
		g_autoptr(GObject) item = GTK_IS_TREE_LIST_ROW(row) ?
					  gtk_tree_list_row_get_item(GTK_TREE_LIST_ROW(row)) :
					  g_object_ref(row);

		if (KM_IS_TRACK(item)) {
			add_unique(tracks, seen, KM_TRACK(item));
		} else if (KM_IS_LIBRARY_GROUP(item)) {
			g_autoptr(GPtrArray) below = g_ptr_array_new_with_free_func(g_object_unref);

			km_library_group_collect_tracks(KM_LIBRARY_GROUP(item), below);
			for (guint i = 0; i < below->len; i++)
				add_unique(tracks, seen, below->pdata[i]);
		}
	}
	return tracks;
}

gboolean km_library_view_has_selection(KmLibraryView *self)
{
	GtkSelectionModel *model;
	g_autoptr(GtkBitset) selected = NULL;

	g_return_val_if_fail(KM_IS_LIBRARY_VIEW(self), FALSE);
	model = km_library_view_get_model(self);
	if (!model)
		return FALSE;
	selected = gtk_selection_model_get_selection(model);
	return !gtk_bitset_is_empty(selected);
}

/*
 * The search ends: the tree selects what the results had selected (the
 * rows shown), not what it had before the search, which the details pane
 * would then edit.
 */
static void select_in_tree(KmLibraryView *self)
{
	GListModel *tree = G_LIST_MODEL(self->tree_selection);
	g_autoptr(GHashTable) wanted = g_hash_table_new(NULL, NULL);
	GHashTableIter iter;
	gpointer fid;

	/* the tree's selection-changed refills selected_fids from the tree */
	g_hash_table_iter_init(&iter, self->selected_fids);
	while (g_hash_table_iter_next(&iter, &fid, NULL))
		g_hash_table_add(wanted, fid);
	gtk_selection_model_unselect_all(self->tree_selection);
	for (guint i = 0; i < g_list_model_get_n_items(tree); i++) {
		g_autoptr(KmTrack) track = row_track(tree, i);

		if (track && g_hash_table_contains(wanted,
						   GUINT_TO_POINTER(km_track_get_fid(track))))
			gtk_selection_model_select_item(self->tree_selection, i, FALSE);
	}
}

static void on_search_changed(KmLibraryView *self, GtkSearchEntry *entry)
{
	const char *text = gtk_editable_get_text(GTK_EDITABLE(entry));
	gboolean was_searching = self->query != NULL;

	g_clear_pointer(&self->query, g_free);
	if (text && *text)
		self->query = search_key(text);
	gtk_filter_changed(GTK_FILTER(self->filter), GTK_FILTER_CHANGE_DIFFERENT);
	if (was_searching != (self->query != NULL)) {
		if (!self->query && self->grouped)
			select_in_tree(self);
		gtk_column_view_set_model(self->column_view, km_library_view_get_model(self));
		if (!self->query && self->grouped)
			g_clear_object(&self->flat_selection);
		selection_replaced(self);
	}
	update_page(self);
}

static void on_stop_search(KmLibraryView *self, GtkSearchEntry *entry)
{
	gtk_editable_set_text(GTK_EDITABLE(entry), "");
	gtk_search_bar_set_search_mode(self->search_bar, FALSE);
	/*
	 * The list takes the focus: GTK 4.18 leaves it in the hidden entry,
	 * whose own Ctrl+A then selects its (empty) text, not the tracks.
	 */
	gtk_widget_grab_focus(GTK_WIDGET(self->column_view));
}

void km_library_view_set_search(KmLibraryView *self, const char *text)
{
	g_return_if_fail(KM_IS_LIBRARY_VIEW(self));
	gtk_search_bar_set_search_mode(self->search_bar, text && *text);
	gtk_editable_set_text(GTK_EDITABLE(self->search_entry), text ? text : "");
	/* now, not after the entry's delay: callers expect the filter in place */
	on_search_changed(self, self->search_entry);
}

void km_library_view_start_search(KmLibraryView *self)
{
	g_return_if_fail(KM_IS_LIBRARY_VIEW(self));
	gtk_search_bar_set_search_mode(self->search_bar, TRUE);
	gtk_widget_grab_focus(GTK_WIDGET(self->search_entry));
}

/* column NULL: unsorted, the order of the list itself. */
static void set_sort(KmLibraryView *self, GtkColumnViewColumn *column, GtkSortType order)
{
	self->sorting = TRUE;
	gtk_column_view_sort_by_column(self->column_view, column, order);
	self->sorting = FALSE;
	self->sort_column = column;
	self->sort_state = !column ? KM_SORT_NONE :
			   order == GTK_SORT_ASCENDING ? KM_SORT_ASCENDING : KM_SORT_DESCENDING;
}

void km_library_view_sort(KmLibraryView *self, KmColumn column, GtkSortType order)
{
	g_return_if_fail(KM_IS_LIBRARY_VIEW(self) && column < KM_N_COLUMNS);
	set_sort(self, self->columns[column], order);
}

void km_library_view_unsort(KmLibraryView *self)
{
	g_return_if_fail(KM_IS_LIBRARY_VIEW(self));
	if (self->sort_state != KM_SORT_NONE)
		set_sort(self, NULL, GTK_SORT_ASCENDING);
}

KmSortState km_library_view_get_sort_state(KmLibraryView *self)
{
	g_return_val_if_fail(KM_IS_LIBRARY_VIEW(self), KM_SORT_NONE);
	return self->sort_state;
}

/* The column whose header is at (x, y) of the column view, or NULL. */
static GtkColumnViewColumn *header_column_at(KmLibraryView *self, double x, double y)
{
	GtkWidget *w = gtk_widget_pick(GTK_WIDGET(self->column_view), x, y, GTK_PICK_DEFAULT);
	GListModel *columns = gtk_column_view_get_columns(self->column_view);
	g_autoptr(GtkColumnViewColumn) column = NULL;
	guint index = 0;

	/* GTK's header: a "header" row of one "button" per column, in the columns' order */
	while (w && w != GTK_WIDGET(self->column_view) &&
	       !g_str_equal(gtk_widget_get_css_name(gtk_widget_get_parent(w)), "header"))
		w = gtk_widget_get_parent(w);
	if (!w || w == GTK_WIDGET(self->column_view))
		return NULL;
	for (GtkWidget *c = gtk_widget_get_prev_sibling(w); c; c = gtk_widget_get_prev_sibling(c))
		index++;
	column = g_list_model_get_item(columns, index);
	return column;	/* the view holds it */
}

static void on_view_pressed(KmLibraryView *self, int n_press, double x, double y)
{
	self->clicked_column = header_column_at(self, x, y);
}

/*
 * A header click sorts by its column ascending, and the column sorted by
 * is inverted. GTK 4.8 tells neither apart (nor which column): the press
 * on the header says. The click after descending goes back to the list's
 * own order (a playlist's; the tree's names and track numbers). Run after
 * the sort models took the click's change in.
 */
static void on_sort_changed(KmLibraryView *self)
{
	GtkColumnViewColumn *column = g_steal_pointer(&self->clicked_column);

	if (self->sorting)
		return;
	if (!column || column != self->sort_column) {
		self->sort_column = column;
		self->sort_state = KM_SORT_ASCENDING;
	} else if (self->sort_state == KM_SORT_ASCENDING) {
		self->sort_state = KM_SORT_DESCENDING;
	} else {
		set_sort(self, NULL, GTK_SORT_ASCENDING);
	}
}

void km_library_view_expand_all(KmLibraryView *self)
{
	GListModel *model;

	g_return_if_fail(KM_IS_LIBRARY_VIEW(self));
	if (!self->tree_selection)
		return;
	model = G_LIST_MODEL(self->tree_selection);
	/* expanding inserts the children after the row, which are then visited too */
	for (guint i = 0; i < g_list_model_get_n_items(model); i++) {
		g_autoptr(GtkTreeListRow) row = g_list_model_get_item(model, i);

		gtk_tree_list_row_set_expanded(row, TRUE);
	}
}

static void km_library_view_dispose(GObject *object)
{
	KmLibraryView *self = KM_LIBRARY_VIEW(object);

	g_clear_handle_id(&self->selection_check, g_source_remove);
	clear_models(self);
	gtk_widget_dispose_template(GTK_WIDGET(self), KM_TYPE_LIBRARY_VIEW);
	km_widget_unparent_children(GTK_WIDGET(self));
	G_OBJECT_CLASS(km_library_view_parent_class)->dispose(object);
}

static void km_library_view_finalize(GObject *object)
{
	KmLibraryView *self = KM_LIBRARY_VIEW(object);

	g_clear_object(&self->filter);
	g_hash_table_unref(self->selected_fids);
	g_free(self->query);
	G_OBJECT_CLASS(km_library_view_parent_class)->finalize(object);
}

static void km_library_view_class_init(KmLibraryViewClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->dispose = km_library_view_dispose;
	object_class->finalize = km_library_view_finalize;

	signals[SIGNAL_SELECTION_CHANGED] =
		g_signal_new("selection-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
			     NULL, NULL, NULL, G_TYPE_NONE, 0);
	signals[SIGNAL_PREPARE_DRAG] =
		g_signal_new("prepare-drag", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
			     g_signal_accumulator_first_wins, NULL, NULL,
			     GDK_TYPE_CONTENT_PROVIDER, 1, GTK_TYPE_WIDGET);

	gtk_widget_class_set_template_from_resource(
		widget_class, "/io/github/karmamanager/KarmaManager/ui/km-library-view.ui");
	gtk_widget_class_bind_template_child(widget_class, KmLibraryView, search_bar);
	gtk_widget_class_bind_template_child(widget_class, KmLibraryView, search_entry);
	gtk_widget_class_bind_template_child(widget_class, KmLibraryView, stack);
	gtk_widget_class_bind_template_child(widget_class, KmLibraryView, empty_stack);
	gtk_widget_class_bind_template_child(widget_class, KmLibraryView, column_view);
	gtk_widget_class_bind_template_callback(widget_class, on_search_changed);
	gtk_widget_class_bind_template_callback(widget_class, on_stop_search);
	gtk_widget_class_set_layout_manager_type(widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void km_library_view_init(KmLibraryView *self)
{
	GtkGesture *press;

	gtk_widget_init_template(GTK_WIDGET(self));
	self->filter = gtk_custom_filter_new(match_track, self, NULL);
	self->selected_fids = g_hash_table_new(NULL, NULL);
	add_columns(self);
	g_signal_connect_swapped(self->column_view, "activate", G_CALLBACK(on_row_activated), self);
	g_signal_connect_object(gtk_column_view_get_sorter(self->column_view), "changed",
				G_CALLBACK(on_sort_changed), self,
				G_CONNECT_SWAPPED | G_CONNECT_AFTER);
	press = gtk_gesture_click_new();
	gtk_event_controller_set_propagation_phase(GTK_EVENT_CONTROLLER(press), GTK_PHASE_CAPTURE);
	g_signal_connect_swapped(press, "pressed", G_CALLBACK(on_view_pressed), self);
	gtk_widget_add_controller(GTK_WIDGET(self->column_view), GTK_EVENT_CONTROLLER(press));
	gtk_search_bar_connect_entry(self->search_bar, GTK_EDITABLE(self->search_entry));
	update_page(self);
}
