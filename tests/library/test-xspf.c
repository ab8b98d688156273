/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-xspf.c - XSPF playlist files read for an import (km-xspf.h): the
 * tracks' order, relative and absolute locations, percent-encoding, other
 * URIs, titles, the sniffing that picks XSPF over M3U, and malformed or
 * hostile XML refused with its line.
 */
#include <string.h>

#include "km-xspf.h"

#define HEAD "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" \
	     "<playlist version=\"1\" xmlns=\"http://xspf.org/ns/0/\">\n"

static GPtrArray *parse_ok(const char *text)
{
	g_autoptr(GError) error = NULL;
	GPtrArray *entries = km_xspf_parse(text, strlen(text), "/music/lists", &error);

	g_assert_no_error(error);
	g_assert_nonnull(entries);
	return entries;
}

static const KmM3uEntry *entry(GPtrArray *entries, guint i)
{
	g_assert_cmpuint(i, <, entries->len);
	return entries->pdata[i];
}

static void test_tracks(void)
{
	static const char text[] = "\xEF\xBB\xBF" HEAD
		"  <title>Road Trip</title>\n"
		"  <trackList>\n"
		"    <track><title>One</title><location>Artist/01%20One.mp3</location></track>\n"
		"    <track>\n"
		"      <location>\n        file:///abs/02%20Two.ogg\n      </location>\n"
		"    </track>\n"
		"    <track><location>../up/%C3%A9t%C3%A9.flac</location></track>\n"
		"    <track><location>/abs/Caf&#233; &amp; Bar.mp3</location></track>\n"
		"    <track><location>http://radio.example/stream</location><title>Radio</title>"
		"</track>\n"
		"    <track><title>Only a title</title></track>\n"
		"    <track><location>http://mirror/x.mp3</location>"
		"<location>x.mp3</location><location>y.mp3</location></track>\n"
		"  </trackList>\n"
		"</playlist>\n";
	g_autoptr(GPtrArray) e = parse_ok(text);

	g_assert_cmpuint(e->len, ==, 7);
	/* relative to the list's folder, percent-decoded; the list's and tracks' titles unused */
	g_assert_cmpstr(entry(e, 0)->path, ==, "/music/lists/Artist/01 One.mp3");
	g_assert_cmpstr(entry(e, 0)->text, ==, "Artist/01%20One.mp3");
	g_assert_cmpuint(entry(e, 0)->line, ==, 5);
	g_assert_cmpstr(entry(e, 1)->path, ==, "/abs/02 Two.ogg");
	g_assert_cmpstr(entry(e, 1)->text, ==, "file:///abs/02%20Two.ogg");
	g_assert_cmpuint(entry(e, 1)->line, ==, 6);
	/* a URI reference: ".." resolved, UTF-8 bytes decoded */
	g_assert_cmpstr(entry(e, 2)->path, ==, "/music/up/\xC3\xA9t\xC3\xA9.flac");
	/* XML's references decoded before the URI is read */
	g_assert_cmpstr(entry(e, 3)->path, ==, "/abs/Caf\xC3\xA9 & Bar.mp3");
	g_assert_null(entry(e, 4)->path);
	g_assert_cmpstr(entry(e, 4)->text, ==, "http://radio.example/stream");
	/* no location: the title says which track is skipped */
	g_assert_null(entry(e, 5)->path);
	g_assert_cmpstr(entry(e, 5)->text, ==, "Only a title");
	/* of several locations, the first naming a local file */
	g_assert_cmpstr(entry(e, 6)->path, ==, "/music/lists/x.mp3");
	g_assert_cmpstr(entry(e, 6)->text, ==, "x.mp3");
}

static void test_ignored(void)
{
	/* locations anywhere but in trackList/track, and extensions, are no entries */
	static const char text[] = HEAD
		"<location>top.mp3</location>\n"
		"<extension application=\"x\"><track><location>e.mp3</location></track></extension>\n"
		"<trackList><!-- c --><track><extension application=\"x\">"
		"<location>deep.mp3</location></extension><location>a.mp3</location></track>"
		"<track/></trackList>\n"
		"</playlist>";
	g_autoptr(GPtrArray) e = parse_ok(text);

	g_assert_cmpuint(e->len, ==, 2);
	g_assert_cmpstr(entry(e, 0)->path, ==, "/music/lists/a.mp3");
	g_assert_null(entry(e, 1)->path);
	g_assert_cmpstr(entry(e, 1)->text, ==, "");
}

/* XSPF's elements under a prefix of their own; another namespace's are no entries */
static void test_prefixed(void)
{
	static const char text[] =
		"<x:playlist version=\"1\" xmlns:x=\"http://xspf.org/ns/0/\" "
		"xmlns=\"http://example.org/other\">\n"
		"<x:trackList>\n"
		"<x:track><x:title>A</x:title><x:location>a.mp3</x:location></x:track>\n"
		"<track><location>other.mp3</location></track>\n"
		"<x:track><location>b.mp3</location><x:location>c.mp3</x:location></x:track>\n"
		"</x:trackList>\n"
		"</x:playlist>\n";
	g_autoptr(GPtrArray) e = parse_ok(text);

	g_assert_cmpuint(e->len, ==, 2);
	g_assert_cmpstr(entry(e, 0)->path, ==, "/music/lists/a.mp3");
	g_assert_cmpuint(entry(e, 0)->line, ==, 3);
	g_assert_cmpstr(entry(e, 1)->path, ==, "/music/lists/c.mp3");
	g_assert_cmpuint(entry(e, 1)->line, ==, 5);
}

static void test_relative_folder(void)
{
	static const char text[] = HEAD "<trackList><track><location>a%2520b.mp3</location>"
				   "</track></trackList></playlist>";
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) e = km_xspf_parse(text, strlen(text), "lists", &error);
	g_autofree char *cwd = g_get_current_dir();
	g_autofree char *want = g_build_filename(cwd, "lists", "a%20b.mp3", NULL);

	g_assert_no_error(error);
	g_assert_cmpuint(e->len, ==, 1);
	/* decoded once only: "%2520" names "%20" */
	g_assert_cmpstr(entry(e, 0)->path, ==, want);
}

static void test_sniff(void)
{
	g_assert_true(km_xspf_sniff(HEAD, strlen(HEAD)));
	g_assert_true(km_xspf_sniff("\xEF\xBB\xBF \r\n\t<playlist", 15));
	g_assert_false(km_xspf_sniff("#EXTM3U\n<x>.mp3\n", 16));
	g_assert_false(km_xspf_sniff("a.mp3", 5));
	g_assert_false(km_xspf_sniff("  \n", 3));
	g_assert_false(km_xspf_sniff("", 0));
}

static void assert_refused(const char *text, const char *line_said)
{
	g_autoptr(GError) error = NULL;

	g_assert_null(km_xspf_parse(text, strlen(text), "/", &error));
	g_assert_error(error, G_MARKUP_ERROR, error->code);
	if (!strstr(error->message, line_said))
		g_error("“%s” does not say “%s”", error->message, line_said);
}

static void test_malformed(void)
{
	assert_refused(HEAD "<trackList>\n<track><location>a.mp3</track>\n</trackList></playlist>",
		       "line 4");
	assert_refused(HEAD "<trackList>\n\n<track>&bogus;</track>", "line 5");
	/* cut short */
	assert_refused(HEAD "<trackList><track><location>a.mp3", "");
	/* XML, but not XSPF */
	assert_refused("<?xml version=\"1.0\"?>\n<html><body/></html>", "line 2");
	assert_refused("<playlist><trackList/></playlist>", "line 1");
	assert_refused("<playlist xmlns=\"http://example.org/\"/>", "XSPF");
	/* a prefix bound to another namespace, or not bound at all */
	assert_refused("<x:playlist xmlns:x=\"http://example.org/\" "
		       "xmlns=\"http://xspf.org/ns/0/\"/>", "XSPF");
	assert_refused("<x:playlist xmlns=\"http://xspf.org/ns/0/\"/>", "XSPF");
	assert_refused("<playlist xmlns:x=\"http://xspf.org/ns/0/\"/>", "XSPF");
	assert_refused("<playlist xmlns=\"http://xspf.org/ns/0/\"/><playlist/>", "line 1");
	/* invalid UTF-8 */
	assert_refused(HEAD "<trackList><track><location>caf\xE9</location></track>", "line 3");
}

static void test_hostile(void)
{
	g_autoptr(GString) deep = g_string_new(HEAD);
	g_autoptr(GString) many = g_string_new(HEAD "<trackList>");
	g_autoptr(GError) error = NULL;
	g_autofree char *huge = g_malloc(KM_M3U_MAX_SIZE + 1);
	g_autoptr(GPtrArray) e = NULL;
	static const char binary[] = HEAD "<trackList>\0</trackList></playlist>";

	/* nesting deeper than any list: refused before the stack grows */
	for (guint i = 0; i < 100000; i++)
		g_string_append(deep, "<extension>");
	assert_refused(deep->str, "too deep");
	/* as large as a list may be, fine; a byte more, refused unread */
	while (many->len < KM_M3U_MAX_SIZE - 64)
		g_string_append(many, "<track><location>a.mp3</location></track>\n");
	g_string_append(many, "</trackList></playlist>");
	e = km_xspf_parse(many->str, many->len, "/", &error);
	g_assert_no_error(error);
	g_assert_cmpuint(e->len, >, 300000);
	memset(huge, ' ', KM_M3U_MAX_SIZE + 1);
	memcpy(huge, HEAD, strlen(HEAD));
	g_assert_null(km_xspf_parse(huge, KM_M3U_MAX_SIZE + 1, "/", &error));
	g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
	g_clear_error(&error);
	g_assert_null(km_xspf_parse(binary, sizeof binary - 1, "/", &error));
	g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/xspf/tracks", test_tracks);
	g_test_add_func("/xspf/ignored", test_ignored);
	g_test_add_func("/xspf/prefixed", test_prefixed);
	g_test_add_func("/xspf/relative-folder", test_relative_folder);
	g_test_add_func("/xspf/sniff", test_sniff);
	g_test_add_func("/xspf/malformed", test_malformed);
	g_test_add_func("/xspf/hostile", test_hostile);
	return g_test_run();
}
