/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-columns.h - the library view's columns: what each shows for a
 * track or a group, and how it sorts.
 */
#pragma once

#include <gtk/gtk.h>

#include "km-track.h"

G_BEGIN_DECLS

typedef enum {
	KM_COLUMN_TITLE,	/* the tree column: artist, album or track title */
	KM_COLUMN_ARTIST,
	KM_COLUMN_ALBUM,
	KM_COLUMN_TRACK_NUMBER,
	KM_COLUMN_DURATION,
	KM_COLUMN_GENRE,
	KM_COLUMN_YEAR,
	KM_COLUMN_CODEC,
	KM_COLUMN_BITRATE,
	KM_COLUMN_PLAY_COUNT,
	KM_N_COLUMNS
} KmColumn;

/* The column's heading (translated). */
const char *km_column_get_title(KmColumn column);
/* Whether it holds numbers (right-aligned). */
gboolean km_column_is_numeric(KmColumn column);
/* What the column shows for track ("" for nothing). */
char *km_column_format(KmColumn column, KmTrack *track);
/* A sorter for the column's items: KmTrack, and KmLibraryGroup by name. */
GtkSorter *km_column_sorter_new(KmColumn column);

G_END_DECLS
