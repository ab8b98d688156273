/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-view.h - the tracks in a GtkColumnView: grouped as a tree
 * (artist, album, track) or flat (a playlist, or while searching), sortable
 * by every column, multi-selection.
 *
 * Signals:
 *   selection-changed ()        the selected tracks changed
 *   prepare-drag (GtkWidget *cell) -> GdkContentProvider*
 *                               a drag starts on cell, whose row is selected
 */
#pragma once

#include <adwaita.h>

#include "km-library-columns.h"

G_BEGIN_DECLS

#define KM_TYPE_LIBRARY_VIEW (km_library_view_get_type())
G_DECLARE_FINAL_TYPE(KmLibraryView, km_library_view, KM, LIBRARY_VIEW, GtkWidget)

typedef enum {
	KM_SORT_NONE,	/* the list's own order */
	KM_SORT_ASCENDING,
	KM_SORT_DESCENDING,
} KmSortState;

/*
 * tracks: a GListModel of KmTrack; grouped: as the artist/album tree (the
 * library: its tree is kept, rows open, while a flat list is shown).
 */
void km_library_view_set_tracks(KmLibraryView *self, GListModel *tracks, gboolean grouped);
/* The selected tracks (KmTrack, new references), a group counting as all it holds. */
GPtrArray *km_library_view_get_selected_tracks(KmLibraryView *self);
/* Whether any track is selected (a group has tracks: an empty one goes). */
gboolean km_library_view_has_selection(KmLibraryView *self);
/* What the column view shows (rows of the tree, or tracks while searching). */
GtkSelectionModel *km_library_view_get_model(KmLibraryView *self);
void km_library_view_set_search(KmLibraryView *self, const char *text);
/* Show the search bar and focus its entry. */
void km_library_view_start_search(KmLibraryView *self);
void km_library_view_sort(KmLibraryView *self, KmColumn column, GtkSortType order);
/* Back to the list's own order (a playlist's), as a third click on a header does. */
void km_library_view_unsort(KmLibraryView *self);
KmSortState km_library_view_get_sort_state(KmLibraryView *self);
/* Selects the row at (x, y) of the view unless it is selected (a right-click's). FALSE: no row there. */
gboolean km_library_view_select_at(KmLibraryView *self, double x, double y);
/* Expands every artist and album. */
void km_library_view_expand_all(KmLibraryView *self);

G_END_DECLS
