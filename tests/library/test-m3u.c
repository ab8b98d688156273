/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-m3u.c - playlist files read for an import (km-m3u.h): line ends, the
 * byte order mark, comments, relative and absolute names, file:// and other
 * URIs, and what is no playlist file at all.
 */
#include <string.h>

#include "km-m3u.h"

static GPtrArray *parse_ok(const char *text, gsize len)
{
	g_autoptr(GError) error = NULL;
	GPtrArray *entries = km_m3u_parse(text, len, "/music/lists", &error);

	g_assert_no_error(error);
	g_assert_nonnull(entries);
	return entries;
}

static const KmM3uEntry *entry(GPtrArray *entries, guint i)
{
	g_assert_cmpuint(i, <, entries->len);
	return entries->pdata[i];
}

static void test_extended(void)
{
	static const char text[] = "\xEF\xBB\xBF#EXTM3U\r\n"
				   "#EXTINF:123,Artist - Title\r\n"
				   "Artist/Album/01 Title.mp3\r\n"
				   "\r\n"
				   "/abs/02 Two.ogg\r\n"
				   "../up/03 Three.flac";	/* no line end at the end */
	g_autoptr(GPtrArray) e = parse_ok(text, strlen(text));

	g_assert_cmpuint(e->len, ==, 3);
	g_assert_cmpstr(entry(e, 0)->path, ==, "/music/lists/Artist/Album/01 Title.mp3");
	g_assert_cmpuint(entry(e, 0)->line, ==, 3);
	g_assert_cmpstr(entry(e, 1)->path, ==, "/abs/02 Two.ogg");
	g_assert_cmpuint(entry(e, 1)->line, ==, 5);
	/* ".." is kept: the file system resolves it, as a player would */
	g_assert_cmpstr(entry(e, 2)->path, ==, "/music/lists/../up/03 Three.flac");
	g_assert_cmpstr(entry(e, 2)->text, ==, "../up/03 Three.flac");
}

static void test_uris(void)
{
	static const char text[] = "file:///music/My%20Song.mp3\n"
				   "http://radio.example/stream\n"
				   "C:music.mp3\n"
				   "a:b.mp3\n";
	g_autoptr(GPtrArray) e = parse_ok(text, strlen(text));

	g_assert_cmpuint(e->len, ==, 4);
	g_assert_cmpstr(entry(e, 0)->path, ==, "/music/My Song.mp3");
	g_assert_null(entry(e, 1)->path);
	g_assert_cmpstr(entry(e, 1)->text, ==, "http://radio.example/stream");
	/* one letter before ':' is a drive, not a scheme; the name is relative */
	g_assert_cmpstr(entry(e, 2)->path, ==, "/music/lists/C:music.mp3");
	g_assert_cmpstr(entry(e, 3)->path, ==, "/music/lists/a:b.mp3");
}

static void test_bytes_kept(void)
{
	/* Latin-1 "Café.mp3": the bytes name the file, as the list's writer meant */
	static const char text[] = "Caf\xE9.mp3\n";
	g_autoptr(GPtrArray) e = parse_ok(text, strlen(text));

	g_assert_cmpuint(e->len, ==, 1);
	g_assert_cmpmem(entry(e, 0)->path, strlen(entry(e, 0)->path),
			"/music/lists/Caf\xE9.mp3", strlen("/music/lists/Caf\xE9.mp3"));
}

static void test_empty(void)
{
	g_autoptr(GPtrArray) none = parse_ok("", 0);
	g_autoptr(GPtrArray) comments = parse_ok("#EXTM3U\n\n#x\n", 11);

	g_assert_cmpuint(none->len, ==, 0);
	g_assert_cmpuint(comments->len, ==, 0);
}

static void test_not_a_playlist(void)
{
	static const char binary[] = "ID3\x03\x00\x00\x00 music";
	g_autoptr(GError) error = NULL;
	g_autofree char *huge = g_malloc0(KM_M3U_MAX_SIZE + 1);

	g_assert_null(km_m3u_parse(binary, sizeof binary - 1, "/", &error));
	g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
	g_clear_error(&error);
	memset(huge, 'a', KM_M3U_MAX_SIZE + 1);
	g_assert_null(km_m3u_parse(huge, KM_M3U_MAX_SIZE + 1, "/", &error));
	g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/m3u/extended", test_extended);
	g_test_add_func("/m3u/uris", test_uris);
	g_test_add_func("/m3u/bytes-kept", test_bytes_kept);
	g_test_add_func("/m3u/empty", test_empty);
	g_test_add_func("/m3u/not-a-playlist", test_not_a_playlist);
	return g_test_run();
}
