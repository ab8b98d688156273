/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-cells.h - the library view's columns as widgets: a label per
 * cell (a GtkTreeExpander around it in the title column), bound from a
 * GtkTreeListRow or a bare KmTrack, each cell a drag source.
 */
#pragma once

#include "km-library-columns.h"

G_BEGIN_DECLS

/*
 * A new column (a new reference) for column c; each cell's GtkDragSource
 * connects "prepare" to drag_prepare with data (as by g_signal_connect_object).
 * The cell widget carries its GtkListItem as data "km-list-item".
 */
GtkColumnViewColumn *km_library_column_new(KmColumn c, GCallback drag_prepare, gpointer data);

G_END_DECLS
