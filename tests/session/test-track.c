/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-track.c - KmTrack on its own: a snapshot whose fields are parsed once
 * when it is made (changing the properties afterwards changes nothing), and
 * a title sort key that orders as g_utf8_collate() does.
 */
#include "session-test-util.h"

#include <string.h>

static int sign(int n)
{
	return (n > 0) - (n < 0);
}

static void test_snapshot(void)
{
	g_autoptr(KmProperties) props = km_properties_new();
	g_autoptr(KmTrack) track = NULL;

	km_properties_set_fid(props, 0x110);
	km_properties_set(props, "title", "Song");
	km_properties_set(props, "artist", "Band");
	km_properties_set(props, "source", "Record");
	km_properties_set(props, "genre", "Rock");
	km_properties_set(props, "codec", "mp3");
	km_properties_set(props, "bitrate", "fs128");
	km_properties_set(props, "year", "1999");
	km_properties_set(props, "tracknr", "7");
	km_properties_set(props, "duration", "241000");
	km_properties_set(props, "play_count", "3");
	km_properties_set(props, "length", "5000000000");
	track = km_track_new(props);

	/* the caller's properties change or go away: the track keeps its values */
	km_properties_set_fid(props, 0x120);
	km_properties_set(props, "title", "Other");
	km_properties_set(props, "artist", "Other");
	km_properties_set(props, "bitrate", "vs320");
	km_properties_set(props, "tracknr", "8");
	g_clear_pointer(&props, km_properties_unref);

	g_assert_cmpuint(km_track_get_fid(track), ==, 0x110);
	g_assert_cmpstr(km_track_get_title(track), ==, "Song");
	g_assert_cmpstr(km_track_get_artist(track), ==, "Band");
	g_assert_cmpstr(km_track_get_album(track), ==, "Record");
	g_assert_cmpstr(km_track_get_genre(track), ==, "Rock");
	g_assert_cmpstr(km_track_get_codec(track), ==, "mp3");
	g_assert_cmpstr(km_track_get_bitrate(track), ==, "fs128");
	g_assert_cmpuint(km_track_get_bitrate_kbps(track), ==, 128);
	g_assert_cmpuint(km_track_get_year(track), ==, 1999);
	g_assert_cmpuint(km_track_get_track_number(track), ==, 7);
	g_assert_cmpuint(km_track_get_duration(track), ==, 241000);
	g_assert_cmpuint(km_track_get_play_count(track), ==, 3);
	g_assert_cmpuint(km_track_get_size(track), ==, 5000000000u);
	g_assert_cmpstr(km_properties_get(km_track_get_properties(track), "title"), ==, "Song");
}

/* Numbers too big for a guint read as G_MAXUINT, as the getters always did. */
static void test_big_numbers(void)
{
	g_autoptr(KmProperties) props = km_properties_new();
	g_autoptr(KmTrack) track = NULL;

	km_properties_set(props, "year", "99999999999");
	km_properties_set(props, "play_count", "4294967296");
	track = km_track_new(props);
	g_assert_cmpuint(km_track_get_year(track), ==, G_MAXUINT);
	g_assert_cmpuint(km_track_get_play_count(track), ==, G_MAXUINT);
	g_assert_cmpuint(km_track_get_track_number(track), ==, 0);
	g_assert_cmpuint(km_track_get_size(track), ==, 0);
	g_assert_cmpstr(km_track_get_title(track), ==, "");
}

static void test_title_sort_key(void)
{
	const char *titles[] = { "", "apple", "Apple", "Banana", "banana split", "Zebra",
				 "élan", "10 Songs", "9 Songs" };
	KmTrack *tracks[G_N_ELEMENTS(titles)];

	for (guint i = 0; i < G_N_ELEMENTS(titles); i++) {
		g_autoptr(KmProperties) props = km_properties_new();

		km_properties_set(props, "title", titles[i]);
		tracks[i] = km_track_new(props);
	}
	for (guint i = 0; i < G_N_ELEMENTS(titles); i++) {
		for (guint j = 0; j < G_N_ELEMENTS(titles); j++) {
			int by_key = strcmp(km_track_get_title_sort_key(tracks[i]),
					    km_track_get_title_sort_key(tracks[j]));

			g_assert_cmpint(sign(by_key), ==, sign(g_utf8_collate(titles[i], titles[j])));
		}
	}
	for (guint i = 0; i < G_N_ELEMENTS(titles); i++)
		g_object_unref(tracks[i]);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/session/track/snapshot", test_snapshot);
	g_test_add_func("/session/track/big-numbers", test_big_numbers);
	g_test_add_func("/session/track/title-sort-key", test_title_sort_key);
	return g_test_run();
}
