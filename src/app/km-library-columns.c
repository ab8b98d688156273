/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-columns.c - text and order of the library view's columns.
 */
#define G_LOG_DOMAIN "km-library-columns"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "km-library-columns.h"
#include "km-library-group.h"

static const char *const column_titles[KM_N_COLUMNS] = {
	[KM_COLUMN_TITLE] = N_("Title"),
	[KM_COLUMN_ARTIST] = N_("Artist"),
	[KM_COLUMN_ALBUM] = N_("Album"),
	/* Translators: the column of track numbers */
	[KM_COLUMN_TRACK_NUMBER] = N_("No."),
	[KM_COLUMN_DURATION] = N_("Length"),
	[KM_COLUMN_GENRE] = N_("Genre"),
	[KM_COLUMN_YEAR] = N_("Year"),
	[KM_COLUMN_CODEC] = N_("Format"),
	[KM_COLUMN_BITRATE] = N_("Bit Rate"),
	[KM_COLUMN_PLAY_COUNT] = N_("Plays"),
};

const char *km_column_get_title(KmColumn column)
{
	g_return_val_if_fail(column < KM_N_COLUMNS, "");
	return _(column_titles[column]);
}

gboolean km_column_is_numeric(KmColumn column)
{
	switch (column) {
	case KM_COLUMN_TRACK_NUMBER:
	case KM_COLUMN_DURATION:
	case KM_COLUMN_YEAR:
	case KM_COLUMN_BITRATE:
	case KM_COLUMN_PLAY_COUNT:
		return TRUE;
	default:
		return FALSE;
	}
}

/* "3:05" or "1:02:03" for milliseconds. */
static char *format_duration(guint64 ms)
{
	guint64 s = ms / 1000;

	if (s >= 3600)
		return g_strdup_printf("%u:%02u:%02u", (guint)(s / 3600), (guint)(s / 60 % 60),
				       (guint)(s % 60));
	return g_strdup_printf("%u:%02u", (guint)(s / 60), (guint)(s % 60));
}

static char *format_number(guint n)
{
	return n ? g_strdup_printf("%u", n) : g_strdup("");
}

static char *format_string(const char *s)
{
	return g_strdup(s ? s : "");
}

/* The text of a column that shows one of the track's strings (may be NULL). */
static const char *column_string(KmColumn column, KmTrack *track)
{
	switch (column) {
	case KM_COLUMN_TITLE:
		return km_track_get_title(track);
	case KM_COLUMN_ARTIST:
		return km_track_get_artist(track);
	case KM_COLUMN_ALBUM:
		return km_track_get_album(track);
	case KM_COLUMN_GENRE:
		return km_track_get_genre(track);
	case KM_COLUMN_CODEC:
		return km_track_get_codec(track);
	default:
		return NULL;
	}
}

char *km_column_format(KmColumn column, KmTrack *track)
{
	switch (column) {
	case KM_COLUMN_TITLE:
	case KM_COLUMN_ARTIST:
	case KM_COLUMN_ALBUM:
	case KM_COLUMN_GENRE:
	case KM_COLUMN_CODEC:
		return format_string(column_string(column, track));
	case KM_COLUMN_TRACK_NUMBER:
		return format_number(km_track_get_track_number(track));
	case KM_COLUMN_DURATION:
		return format_duration(km_track_get_duration(track));
	case KM_COLUMN_YEAR:
		return format_number(km_track_get_year(track));
	case KM_COLUMN_BITRATE:
		/* Translators: a bit rate in kilobits per second */
		return km_track_get_bitrate_kbps(track) ?
		       g_strdup_printf(_("%u kbit/s"), km_track_get_bitrate_kbps(track)) :
		       g_strdup("");
	case KM_COLUMN_PLAY_COUNT:
		return format_number(km_track_get_play_count(track));
	default:
		return g_strdup("");
	}
}

static guint64 column_number(KmColumn column, KmTrack *track)
{
	switch (column) {
	case KM_COLUMN_TRACK_NUMBER:
		return km_track_get_track_number(track);
	case KM_COLUMN_DURATION:
		return km_track_get_duration(track);
	case KM_COLUMN_YEAR:
		return km_track_get_year(track);
	case KM_COLUMN_BITRATE:
		return km_track_get_bitrate_kbps(track);
	case KM_COLUMN_PLAY_COUNT:
		return km_track_get_play_count(track);
	default:
		return 0;
	}
}

/* Empty strings after the others (in ascending order). */
static int compare_strings(const char *a, const char *b)
{
	gboolean ea = !a || !*a, eb = !b || !*b;

	if (ea || eb)
		return ea - eb;
	return g_utf8_collate(a, b);
}

/* As compare_strings() on the titles, with the keys each track made once. */
static int compare_titles(KmTrack *a, KmTrack *b)
{
	gboolean ea = !*km_track_get_title(a), eb = !*km_track_get_title(b);

	if (ea || eb)
		return ea - eb;
	return strcmp(km_track_get_title_sort_key(a), km_track_get_title_sort_key(b));
}

static int compare_items(gconstpointer ca, gconstpointer cb, gpointer user_data)
{
	KmColumn column = GPOINTER_TO_UINT(user_data);
	gpointer a = (gpointer)ca, b = (gpointer)cb;	/* the GObject macros take non-const */

	if (KM_IS_LIBRARY_GROUP(a) && KM_IS_LIBRARY_GROUP(b))
		return compare_strings(km_library_group_get_name(a), km_library_group_get_name(b));
	if (!KM_IS_TRACK(a) || !KM_IS_TRACK(b))
		return 0;
	if (column == KM_COLUMN_TITLE)
		return compare_titles(a, b);
	if (km_column_is_numeric(column)) {
		guint64 na = column_number(column, a), nb = column_number(column, b);

		return na < nb ? -1 : na > nb;
	}
	return compare_strings(column_string(column, a), column_string(column, b));
}

GtkSorter *km_column_sorter_new(KmColumn column)
{
	return GTK_SORTER(gtk_custom_sorter_new(compare_items, GUINT_TO_POINTER(column), NULL));
}
