/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-smalldb.c - var/smalldb: the bytes of a small library checked against
 * bytes written out by hand here (docs/KARMA.md §9, not the module's
 * tables), update records and the deletion bitmap applied, the header words
 * kept, and malformed files (every truncation, every byte changed, and each
 * kind of bad count, offset, size and string) refused with an error that
 * names the section and the byte.
 */
#include "km-smalldb.h"

#include <string.h>

#define T 0x5f5e1000u	/* a timestamp */

/* ---- bytes by hand ---------------------------------------------------- */

static void put32(GByteArray *a, guint32 v)
{
	guint8 b[4] = { v, v >> 8, v >> 16, v >> 24 };

	g_byte_array_append(a, b, 4);
}

static void put16(GByteArray *a, guint16 v)
{
	guint8 b[2] = { v, v >> 8 };

	g_byte_array_append(a, b, 2);
}

static void put8(GByteArray *a, guint8 v)
{
	g_byte_array_append(a, &v, 1);
}

static void put_mem(GByteArray *a, const void *p, gsize n)
{
	g_byte_array_append(a, p, n);
}

static void put_str(GByteArray *a, const char *s)
{
	put_mem(a, s, strlen(s) + 1);
}

static void put_u32s(GByteArray *a, guint32 x, guint32 y, guint32 z)
{
	put32(a, x);
	put32(a, y);
	put32(a, z);
}

static const char names[] =
	"fid offset trailer duration length samplerate ctime options bpm rms "
	"stddev normalisation play_last play_count_limit play_count tracknr "
	"file_id marked playlist profile type codec artist source title "
	"bitrate genre year rid fid_generation profiler_version "
	"replay_gain_peak replay_gain_radio replay_gain_audiophile "
	"bytes_silence_sof bytes_silence_eof ";

/* {type, flag} of the 36 columns, from docs/KARMA.md §9.1 and §9.2. */
static const guint32 descriptors[36][2] = {
	{0, 1}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 1}, {0, 0}, {0, 0},
	{0, 0}, {0, 0}, {0, 0}, {0, 1}, {4, 0}, {4, 0}, {3, 1}, {3, 0}, {3, 0},
	{2, 0}, {2, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0},
	{1, 0}, {1, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0},
};

#define NAMES_LEN 347u
#define NAMES_AT (20u + 36u * 8u)
#define N_EXTRA_AT (NAMES_AT + 4u + NAMES_LEN)

static void put_prologue(GByteArray *a, guint32 h0, guint32 time, guint32 h2, guint32 h3)
{
	put32(a, h0);
	put32(a, time);
	put32(a, h2);
	put32(a, h3);
	put32(a, 36);
	for (guint i = 0; i < 36; i++) {
		put32(a, descriptors[i][0]);
		put32(a, descriptors[i][1]);
	}
	g_assert_cmpuint(strlen(names), ==, NAMES_LEN);
	put32(a, NAMES_LEN);
	put_mem(a, names, NAMES_LEN);
}

static void assert_same_bytes(GBytes *got, GByteArray *want)
{
	gsize len;
	const guint8 *p = g_bytes_get_data(got, &len);

	for (gsize i = 0; i < MIN(len, want->len); i++)
		if (p[i] != want->data[i])
			g_error("byte %" G_GSIZE_FORMAT ": 0x%02x, expected 0x%02x", i, p[i], want->data[i]);
	g_assert_cmpuint(len, ==, want->len);
}

static GBytes *blob_of_text(const void *p, gsize n)
{
	return g_bytes_new(p, n);
}

/* ---- the small library ------------------------------------------------ */

static const guint8 playlist_blob[12] = {
	0xff, 0x02, 0x00, 0x00, 0x10, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
};
static const char profile40[] = "0123456789abcdefghijABCDEFGHIJ0123456789";

/*
 * A tune with everything, a tune with odd values, a playlist; given out of
 * fid order.  Numbers as a "…1" file has them, text.
 */
static GPtrArray *small_library(void)
{
	GPtrArray *objs = g_ptr_array_new_with_free_func((GDestroyNotify)km_properties_unref);
	KmProperties *a = km_properties_new(), *b = km_properties_new(), *c = km_properties_new();
	g_autoptr(GBytes) p40 = blob_of_text(profile40, 40);
	g_autoptr(GBytes) p2 = blob_of_text("\x01\x02", 2);
	g_autoptr(GBytes) pl = blob_of_text(playlist_blob, sizeof(playlist_blob));

	km_properties_set_fid(a, 0x120);
	km_properties_set(a, "type", "tune");
	km_properties_set(a, "codec", "mp3");
	km_properties_set(a, "artist", "The Zombies");
	km_properties_set(a, "source", "The Alpha");
	km_properties_set(a, "title", "Yesterday");
	km_properties_set(a, "offset", "10");
	km_properties_set(a, "tracknr", "13");
	km_properties_set(a, "duration", "125000");
	km_properties_set(a, "length", "2000000");
	km_properties_set(a, "samplerate", "44100");
	km_properties_set(a, "ctime", "1100000000");
	km_properties_set(a, "fid_generation", "1100000000");
	km_properties_set(a, "bitrate", "fs128");
	km_properties_set(a, "genre", "Pop");
	km_properties_set(a, "year", "1965");
	km_properties_set(a, "rid", "abc");
	km_properties_set(a, "play_count", "3");
	km_properties_set_blob(a, "profile", p40);

	km_properties_set_fid(b, 0x110);
	km_properties_set(b, "type", "tune");
	km_properties_set(b, "codec", "vorbis");
	km_properties_set(b, "artist", "U2");
	km_properties_set(b, "source", "Beta");
	km_properties_set(b, "title", "SOS");
	km_properties_set(b, "tracknr", "300");		/* cut to 8 bits: 44 */
	km_properties_set(b, "rms", "-5");		/* two's complement */
	km_properties_set(b, "bpm", "0x10");		/* Pearl hex: 16 */
	km_properties_set(b, "play_count", "70000");	/* cut to 16 bits: 4464 */
	km_properties_set(b, "marked", "yes");		/* not a number: 0 */
	km_properties_set_blob(b, "profile", p2);	/* not 40 bytes: dropped */
	km_properties_set(b, "path", "vm:/somewhere");	/* not a column */

	km_properties_set_fid(c, 0x130);
	km_properties_set(c, "type", "playlist");
	km_properties_set(c, "title", "Mix");
	km_properties_set_blob(c, "playlist", pl);

	g_ptr_array_add(objs, a);
	g_ptr_array_add(objs, b);
	g_ptr_array_add(objs, c);
	return objs;
}

/* Rows B (0x110), A (0x120), C (0x130), every column worked out by hand. */
static GByteArray *small_library_bytes(guint32 time)
{
	GByteArray *e = g_byte_array_new();

	put_prologue(e, 2, time, 8, 3);
	put32(e, 0);			/* update records */
	put32(e, 3);
	put32(e, 3);			/* rows */
	put_u32s(e, 0x110, 0x120, 0x130);	/* fid */
	put_u32s(e, 0, 10, 0);		/* offset */
	put_u32s(e, 0, 0, 0);		/* trailer */
	put_u32s(e, 0, 125000, 0);	/* duration */
	put_u32s(e, 0, 2000000, 0);	/* length */
	put_u32s(e, 0, 44100, 0);	/* samplerate */
	put_u32s(e, 0, 1100000000, 0);	/* ctime */
	put_u32s(e, 0, 0, 0);		/* options */
	put_u32s(e, 16, 0, 0);		/* bpm */
	put_u32s(e, 0xfffffffb, 0, 0);	/* rms */
	put_u32s(e, 0, 0, 0);		/* stddev */
	put_u32s(e, 0, 0, 0);		/* normalisation */
	put_u32s(e, 0, 0, 0);		/* play_last */
	put16(e, 0), put16(e, 0), put16(e, 0);		/* play_count_limit */
	put16(e, 4464), put16(e, 3), put16(e, 0);	/* play_count */
	put8(e, 44), put8(e, 13), put8(e, 0);		/* tracknr */
	put8(e, 0), put8(e, 0), put8(e, 0);		/* file_id */
	put8(e, 0), put8(e, 0), put8(e, 0);		/* marked */
	/* playlist: offsets first, then the pool size and the pool */
	put_u32s(e, 0, 0, 0);
	put32(e, 12);
	put_mem(e, playlist_blob, 12);
	/* profile: B's 2 bytes dropped, A's 40, C none */
	put_u32s(e, 0, 0, 40);
	put32(e, 40);
	put_mem(e, profile40, 40);
	/* type: pool "playlist" "tune" */
	put32(e, 14);
	put_u32s(e, 9, 9, 0);
	put_str(e, "playlist"), put_str(e, "tune");
	/* codec: "" "mp3" "vorbis" */
	put32(e, 12);
	put_u32s(e, 5, 1, 0);
	put_str(e, ""), put_str(e, "mp3"), put_str(e, "vorbis");
	/* artist: "The Zombies" sorts as "Zombies", after "U2" */
	put32(e, 16);
	put_u32s(e, 1, 4, 0);
	put_str(e, ""), put_str(e, "U2"), put_str(e, "The Zombies");
	/* source: plain strcmp, "The Alpha" after "Beta" */
	put32(e, 16);
	put_u32s(e, 1, 6, 0);
	put_str(e, ""), put_str(e, "Beta"), put_str(e, "The Alpha");
	/* title: no row without one, so no "" */
	put32(e, 18);
	put_u32s(e, 4, 8, 0);
	put_str(e, "Mix"), put_str(e, "SOS"), put_str(e, "Yesterday");
	put32(e, 7);			/* bitrate */
	put_u32s(e, 0, 1, 0);
	put_str(e, ""), put_str(e, "fs128");
	put32(e, 5);			/* genre */
	put_u32s(e, 0, 1, 0);
	put_str(e, ""), put_str(e, "Pop");
	put32(e, 6);			/* year */
	put_u32s(e, 0, 1, 0);
	put_str(e, ""), put_str(e, "1965");
	put32(e, 5);			/* rid */
	put_u32s(e, 0, 1, 0);
	put_str(e, ""), put_str(e, "abc");
	put_u32s(e, 0, 1100000000, 0);	/* fid_generation */
	for (int i = 0; i < 6; i++)	/* profiler_version .. bytes_silence_eof */
		put_u32s(e, 0, 0, 0);
	put32(e, 0);			/* deletion bitmap */
	put32(e, time);			/* trailer */
	return e;
}

static GBytes *build_ok(GPtrArray *objs, const KmSmalldbHeader *hdr, guint32 time)
{
	g_autoptr(GError) error = NULL;
	GBytes *bytes = km_smalldb_build(objs, hdr, time, &error);

	g_assert_no_error(error);
	g_assert_nonnull(bytes);
	return bytes;
}

static GPtrArray *parse_ok(GBytes *bytes, KmSmalldbHeader *hdr)
{
	g_autoptr(GError) error = NULL;
	GPtrArray *objs = km_smalldb_parse(bytes, hdr, NULL, &error);

	g_assert_no_error(error);
	g_assert_nonnull(objs);
	return objs;
}

static void test_hand_computed_bytes(void)
{
	g_autoptr(GPtrArray) objs = small_library();
	g_autoptr(GByteArray) want = small_library_bytes(T);
	g_autoptr(GBytes) got = build_ok(objs, NULL, T);

	assert_same_bytes(got, want);
	/* The caller's array is neither reordered nor freed. */
	g_assert_cmpuint(km_properties_get_fid(objs->pdata[0]), ==, 0x120);
	g_assert_cmpuint(objs->len, ==, 3);
}

static void test_empty_library(void)
{
	g_autoptr(GPtrArray) none = g_ptr_array_new();
	g_autoptr(GByteArray) want = g_byte_array_new();
	g_autoptr(GBytes) got = build_ok(none, NULL, T);
	g_autoptr(GPtrArray) back = NULL;
	KmSmalldbHeader hdr;

	put_prologue(want, 2, T, 8, 3);
	put32(want, 0);
	put32(want, 0);
	put32(want, 0);
	/* No rows: nothing for the numbers; a 0 pool size for the others. */
	for (guint i = 0; i < 36; i++)
		if (descriptors[i][0] == 1 || descriptors[i][0] == 2)
			put32(want, 0);
	put32(want, 0);
	put32(want, T);
	assert_same_bytes(got, want);

	back = parse_ok(got, &hdr);
	g_assert_cmpuint(back->len, ==, 0);
	g_assert_cmpuint(hdr.version, ==, 2);
	g_assert_cmpuint(hdr.timestamp, ==, T);
	g_assert_cmpuint(hdr.h2, ==, 8);
	g_assert_cmpuint(hdr.h3, ==, 3);
}

static void assert_prop(KmProperties *p, const char *key, const char *want)
{
	const char *got = km_properties_get(p, key);

	if (g_strcmp0(got, want) != 0)
		g_error("fid 0x%x, %s: '%s', expected '%s'", km_properties_get_fid(p), key,
			got ? got : "(absent)", want ? want : "(absent)");
}

static void assert_blob(KmProperties *p, const char *key, const void *want, gsize len)
{
	g_autoptr(GBytes) got = km_properties_get_blob(p, key);

	if (!want) {
		g_assert_null(got);
		return;
	}
	g_assert_nonnull(got);
	g_assert_cmpmem(g_bytes_get_data(got, NULL), g_bytes_get_size(got), want, len);
}

static guint n_keys(KmProperties *p)
{
	guint n;

	km_properties_keys(p, &n);
	return n;
}

/* Parse gives a property only for a non-zero number or non-empty string or blob. */
static void test_parse_small_library(void)
{
	g_autoptr(GByteArray) file = small_library_bytes(T);
	g_autoptr(GBytes) bytes = g_bytes_new(file->data, file->len);
	g_autoptr(GPtrArray) objs = small_library();
	g_autoptr(GPtrArray) back = NULL;
	KmProperties *a, *b, *c;
	KmSmalldbHeader hdr;

	back = parse_ok(bytes, &hdr);
	g_assert_cmpuint(back->len, ==, 3);
	b = back->pdata[0], a = back->pdata[1], c = back->pdata[2];
	g_assert_cmpuint(km_properties_get_fid(b), ==, 0x110);
	g_assert_cmpuint(km_properties_get_fid(a), ==, 0x120);
	g_assert_cmpuint(km_properties_get_fid(c), ==, 0x130);
	g_assert_cmpuint(hdr.n_rows, ==, 3);
	g_assert_cmpuint(hdr.row_count_first, ==, 3);
	g_assert_cmpuint(hdr.n_update_records, ==, 0);
	g_assert_cmpuint(hdr.n_deleted, ==, 0);

	assert_prop(b, "bpm", "16");
	assert_prop(b, "rms", "4294967291");
	assert_prop(b, "play_count", "4464");
	assert_prop(b, "tracknr", "44");
	assert_prop(b, "marked", NULL);
	assert_prop(b, "offset", NULL);
	assert_prop(b, "fid", NULL);
	assert_prop(b, "path", NULL);
	assert_prop(b, "artist", "U2");
	assert_blob(b, "profile", NULL, 0);
	assert_blob(b, "playlist", NULL, 0);
	g_assert_cmpuint(n_keys(b), ==, 9);

	assert_prop(a, "artist", "The Zombies");
	assert_prop(a, "offset", "10");
	assert_prop(a, "ctime", "1100000000");
	assert_prop(a, "year", "1965");
	assert_blob(a, "profile", profile40, 40);
	g_assert_cmpuint(n_keys(a), ==, 18);

	assert_prop(c, "type", "playlist");
	assert_prop(c, "codec", NULL);
	assert_blob(c, "playlist", playlist_blob, sizeof(playlist_blob));
	g_assert_cmpuint(n_keys(c), ==, 3);

	/* Each parsed row is what smalldb stores for its object (given as a, b, c). */
	for (guint i = 0; i < 3; i++) {
		static const guint given[3] = { 1, 0, 2 };
		const char *column = NULL;

		if (!km_smalldb_row_equal(objs->pdata[given[i]], back->pdata[i], &column))
			g_error("row %u differs in %s", i, column);
	}
}

static void test_row_equal(void)
{
	g_autoptr(KmProperties) a = km_properties_new();
	g_autoptr(KmProperties) b = km_properties_new();
	g_autoptr(GBytes) empty = g_bytes_new_static("", 0);
	const char *column = NULL;

	km_properties_set_fid(a, 0x110);
	km_properties_set_fid(b, 0x110);
	/* What a "…1" file says and what parse gives for the same row. */
	km_properties_set(a, "offset", "0");
	km_properties_set(a, "artist", "");
	km_properties_set_blob(a, "profile", empty);
	km_properties_set(a, "tracknr", "257");
	km_properties_set(a, "path", "vm:/x");
	km_properties_set(b, "tracknr", "1");
	g_assert_true(km_smalldb_row_equal(a, b, &column));

	km_properties_set(b, "title", "x");
	g_assert_false(km_smalldb_row_equal(a, b, &column));
	g_assert_cmpstr(column, ==, "title");
	km_properties_set(a, "title", "x");
	km_properties_set_fid(b, 0x120);
	g_assert_false(km_smalldb_row_equal(a, b, &column));
	g_assert_cmpstr(column, ==, "fid");

	g_assert_true(km_smalldb_is_column("play_count"));
	g_assert_false(km_smalldb_is_column("path"));
	g_assert_cmpstr(km_smalldb_column_name(35), ==, "bytes_silence_eof");
}

/* Equal artists under the "The " rule keep the order of their first rows. */
static void test_artist_ties(void)
{
	static const struct {
		guint32 fids[3];
		const char *artists[3];
		const char *pool;
		gsize len;
	} cases[] = {
		{ { 0x110, 0x120, 0x130 }, { "Who", "The Who", "Who" }, "Who\0The Who\0", 12 },
		{ { 0x130, 0x110, 0x120 }, { "Who", "The Who", "Who" }, "The Who\0Who\0", 12 },
		{ { 0x110, 0x120, 0x130 }, { "the who", "Abba", "who" }, "Abba\0the who\0who\0", 17 },
		{ { 0x110, 0x120, 0x130 }, { "the who", "Abba", "THE ABBA" }, "Abba\0THE ABBA\0the who\0", 22 },
	};

	for (guint k = 0; k < G_N_ELEMENTS(cases); k++) {
		g_autoptr(GPtrArray) objs = g_ptr_array_new_with_free_func((GDestroyNotify)km_properties_unref);
		g_autoptr(GBytes) bytes = NULL;
		g_autoptr(GPtrArray) back = NULL;
		gsize len;
		const guint8 *p;

		for (guint i = 0; i < 3; i++) {
			KmProperties *o = km_properties_new();

			km_properties_set_fid(o, cases[k].fids[i]);
			km_properties_set(o, "artist", cases[k].artists[i]);
			g_ptr_array_add(objs, o);
		}
		bytes = build_ok(objs, NULL, T);
		p = g_bytes_get_data(bytes, &len);
		/* Each string once, in the order libkarma's stable sort gives. */
		g_assert_nonnull(memmem(p, len, cases[k].pool, cases[k].len));
		back = parse_ok(bytes, NULL);
		for (guint i = 0; i < 3; i++)
			g_assert_true(km_smalldb_row_equal(back->pdata[i], back->pdata[i], NULL));
		for (guint i = 0; i < 3; i++) {
			KmProperties *o = back->pdata[i];
			guint src = 0;

			while (cases[k].fids[src] != km_properties_get_fid(o))
				src++;
			assert_prop(o, "artist", cases[k].artists[src]);
		}
	}
}

static void test_header_words_kept(void)
{
	g_autoptr(GByteArray) file = g_byte_array_new();
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(GBytes) again = NULL;
	g_autoptr(GPtrArray) objs = NULL;
	g_autoptr(GByteArray) want = NULL;
	KmSmalldbHeader hdr;

	/* An empty library with unusual header words and row-count words. */
	put_prologue(file, 7, 1234, 9, 4);
	put32(file, 0);
	put32(file, 99);
	put32(file, 0);
	for (guint i = 0; i < 36; i++)
		if (descriptors[i][0] == 1 || descriptors[i][0] == 2)
			put32(file, 0);
	put32(file, 0);
	put32(file, 1234);
	bytes = g_bytes_new(file->data, file->len);
	objs = parse_ok(bytes, &hdr);
	g_assert_cmpuint(hdr.version, ==, 7);
	g_assert_cmpuint(hdr.h2, ==, 9);
	g_assert_cmpuint(hdr.h3, ==, 4);
	g_assert_cmpuint(hdr.row_count_first, ==, 99);
	again = build_ok(objs, &hdr, 5678);
	want = g_byte_array_new();
	put_prologue(want, 7, 5678, 9, 4);
	put32(want, 0);
	put32(want, 0);
	put32(want, 0);
	for (guint i = 0; i < 36; i++)
		if (descriptors[i][0] == 1 || descriptors[i][0] == 2)
			put32(want, 0);
	put32(want, 0);
	put32(want, 5678);
	assert_same_bytes(again, want);
}

static void test_build_refuses_duplicate_fids(void)
{
	g_autoptr(GPtrArray) objs = small_library();
	g_autoptr(GError) error = NULL;
	KmProperties *dup = km_properties_new();
	GBytes *bytes;

	km_properties_set_fid(dup, 0x120);
	g_ptr_array_add(objs, dup);
	bytes = km_smalldb_build(objs, NULL, T, &error);
	g_assert_null(bytes);
	g_assert_error(error, KM_SMALLDB_ERROR, KM_SMALLDB_ERROR_INVALID_OBJECTS);
	g_assert_nonnull(strstr(error->message, "0x120"));
}

/*
 * libkarma writes a blob equal to the previous row's as an offset to the
 * pool's end, storing nothing; its reader (length = next offset - offset)
 * then finds it empty.  We read such a file the same way, and writing back
 * what we read gives the same bytes.
 */
static void test_libkarma_repeated_blob(void)
{
	g_autoptr(GByteArray) f = small_library_bytes(T);
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(GBytes) again = NULL;
	g_autoptr(GPtrArray) objs = NULL;
	gsize playlist_offsets = N_EXTRA_AT + 12 + 13 * 12 + 2 * 6 + 3 * 3;
	KmSmalldbHeader hdr;

	/* Offsets 0, 12, 12: row B has the 12 bytes, row A "the same" again. */
	g_assert_cmpuint(f->data[playlist_offsets + 12], ==, 12);
	f->data[playlist_offsets + 4] = 12;
	f->data[playlist_offsets + 8] = 12;
	bytes = g_bytes_new(f->data, f->len);
	objs = parse_ok(bytes, &hdr);
	assert_blob(objs->pdata[0], "playlist", playlist_blob, sizeof(playlist_blob));
	assert_blob(objs->pdata[1], "playlist", NULL, 0);
	assert_blob(objs->pdata[2], "playlist", NULL, 0);
	again = build_ok(objs, &hdr, T);
	g_assert_true(g_bytes_equal(again, bytes));
}

/* ---- update records and the deletion bitmap ---------------------------- */

struct record_values {
	guint32 fid, play_count, marked, tracknr;
	const char *title;
	const char *rid;
	gsize playlist_len;
	guint32 fid_generation, bytes_silence_eof;
};

/*
 * A record as libkarma reads one: the u32 columns, the two u16, the three u8
 * and one pad byte (natural alignment for the u32 that follows), each blob
 * as u32 length + bytes, the nine strings NUL-terminated, then the last
 * seven u32 columns as the record's last 28 bytes (here after 0-3 pad bytes).
 */
static void put_record(GByteArray *a, guint32 row, const struct record_values *v)
{
	g_autoptr(GByteArray) r = g_byte_array_new();
	static const char *const strings[9] = { "tune", "mp3", "Art", "Alb", NULL, "fs128", "", "2001", NULL };

	put32(r, v->fid);
	for (int i = 1; i < 13; i++)
		put32(r, i == 4 ? 4242 : 0);		/* length = 4242 */
	put16(r, 0);
	put16(r, v->play_count);
	put8(r, v->tracknr);
	put8(r, 0);
	put8(r, v->marked);
	put8(r, 0xee);					/* pad */
	put32(r, v->playlist_len);
	put_mem(r, playlist_blob, v->playlist_len);
	put32(r, 0);					/* profile: none */
	for (int i = 0; i < 9; i++)
		put_str(r, i == 4 ? v->title : i == 8 ? v->rid : strings[i]);
	while (r->len % 4)
		put8(r, 0);
	put32(r, v->fid_generation);
	for (int i = 0; i < 5; i++)
		put32(r, 0);
	put32(r, v->bytes_silence_eof);
	put32(a, row);
	put32(a, r->len);
	put_mem(a, r->data, r->len);
}

/* The small library's bytes with records inserted and a deletion bitmap. */
static GBytes *with_journal(GByteArray *records, guint32 n_records, const guint8 *bitmap,
			    guint32 bitmap_len)
{
	g_autoptr(GByteArray) base = small_library_bytes(T);
	GByteArray *f = g_byte_array_new();

	put_mem(f, base->data, N_EXTRA_AT);
	put32(f, n_records);
	put_mem(f, records->data, records->len);
	put_mem(f, base->data + N_EXTRA_AT + 4, base->len - N_EXTRA_AT - 4 - 8);
	put32(f, bitmap_len);
	put_mem(f, bitmap, bitmap_len);
	put32(f, T);
	return g_byte_array_free_to_bytes(f);
}

static KmProperties *find_fid(GPtrArray *objs, guint32 fid)
{
	for (guint i = 0; i < objs->len; i++)
		if (km_properties_get_fid(objs->pdata[i]) == fid)
			return objs->pdata[i];
	return NULL;
}

static void test_update_records_and_bitmap(void)
{
	g_autoptr(GByteArray) recs = g_byte_array_new();
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(GPtrArray) objs = NULL;
	g_autoptr(GArray) deleted = NULL;
	g_autoptr(GError) error = NULL;
	KmSmalldbHeader hdr;
	KmProperties *o;
	/* Rows 0 and 2 (fids 0x110, 0x130) deleted; row 0 has a record. */
	static const guint8 bitmap[2] = { 0x05, 0x00 };
	const struct record_values r0a = { 0x110, 1, 0, 1, "first", "r0", 0, 77, 0 };
	const struct record_values r0b = { 0x110, 9, 1, 200, "Ünïcode", "0123456789abcdef0123456789abcdef", 12, 88, 5 };
	const struct record_values r1 = { 0x120, 0, 0, 0, "Two", "", 0, 0, 0 };
	const struct record_values added = { 0x500, 0, 0, 3, "New", "x", 4, 0, 0 };

	put_record(recs, 0, &r0a);
	put_record(recs, 1, &r1);
	put_record(recs, 7, &added);	/* past the last row: a new object */
	put_record(recs, 0, &r0b);	/* a later record for row 0 wins */
	bytes = with_journal(recs, 4, bitmap, 2);
	objs = km_smalldb_parse(bytes, &hdr, &deleted, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(hdr.n_update_records, ==, 4);
	g_assert_cmpuint(hdr.n_deleted, ==, 1);
	g_assert_cmpuint(deleted->len, ==, 1);
	g_assert_cmpuint(g_array_index(deleted, guint32, 0), ==, 0x130);
	g_assert_cmpuint(objs->len, ==, 3);
	g_assert_null(find_fid(objs, 0x130));

	o = find_fid(objs, 0x110);
	g_assert_nonnull(o);
	assert_prop(o, "title", "Ünïcode");
	assert_prop(o, "play_count", "9");
	assert_prop(o, "marked", "1");
	assert_prop(o, "tracknr", "200");
	assert_prop(o, "length", "4242");
	assert_prop(o, "rid", "0123456789abcdef0123456789abcdef");
	assert_prop(o, "fid_generation", "88");
	assert_prop(o, "bytes_silence_eof", "5");
	assert_prop(o, "artist", "Art");
	assert_prop(o, "genre", NULL);
	assert_prop(o, "rms", NULL);		/* the record replaces the whole row */
	assert_blob(o, "playlist", playlist_blob, 12);

	o = find_fid(objs, 0x120);
	assert_prop(o, "title", "Two");
	assert_prop(o, "rid", NULL);
	assert_blob(o, "profile", NULL, 0);

	o = find_fid(objs, 0x500);
	g_assert_nonnull(o);
	assert_prop(o, "title", "New");
	assert_blob(o, "playlist", playlist_blob, 4);
	g_assert_true(objs->pdata[2] == o);	/* in fid order */
}

/* ---- malformed files --------------------------------------------------- */

static void expect_error(GBytes *bytes, gint code, const char *in_message)
{
	g_autoptr(GError) error = NULL;
	GPtrArray *objs = km_smalldb_parse(bytes, NULL, NULL, &error);

	g_assert_null(objs);
	g_assert_nonnull(error);
	if (!g_error_matches(error, KM_SMALLDB_ERROR, code) || !strstr(error->message, in_message) ||
	    !strstr(error->message, "byte"))
		g_error("got \"%s\" (code %d), expected code %d and \"%s\"", error->message,
			error->code, code, in_message);
	g_test_message("%s", error->message);
}

static void expect_any_error(GBytes *bytes)
{
	g_autoptr(GError) error = NULL;
	GPtrArray *objs = km_smalldb_parse(bytes, NULL, NULL, &error);

	g_assert_null(objs);
	g_assert_nonnull(error);
	g_assert_nonnull(strstr(error->message, "byte"));
	g_test_message("%s", error->message);
}

static GBytes *small_file(void)
{
	g_autoptr(GByteArray) f = small_library_bytes(T);

	return g_bytes_new(f->data, f->len);
}

/* The small file with a u32 replaced at byte at. */
static GBytes *patched32(gsize at, guint32 value)
{
	g_autoptr(GByteArray) f = small_library_bytes(T);

	g_assert_cmpuint(at + 4, <=, f->len);
	f->data[at] = value, f->data[at + 1] = value >> 8;
	f->data[at + 2] = value >> 16, f->data[at + 3] = value >> 24;
	return g_bytes_new(f->data, f->len);
}

/* Where column col's data starts in the small file (walked independently). */
static gsize column_at(guint col)
{
	g_autoptr(GByteArray) f = small_library_bytes(T);
	gsize pos = N_EXTRA_AT + 12, n = 3;

	for (guint i = 0; i < col; i++) {
		guint32 t = descriptors[i][0], size;

		if (t == 0 || t == 3 || t == 4) {
			pos += n * (t == 0 ? 4 : t == 4 ? 2 : 1);
		} else if (t == 1) {
			memcpy(&size, f->data + pos, 4);
			pos += 4 + 4 * n + GUINT32_FROM_LE(size);
		} else {
			memcpy(&size, f->data + pos + 4 * n, 4);
			pos += 4 * n + 4 + GUINT32_FROM_LE(size);
		}
	}
	return pos;
}

#define COL_PLAYLIST 18
#define COL_TYPE 20
#define COL_TITLE 24

static void test_malformed(void)
{
	g_autoptr(GBytes) good = small_file();
	gsize good_len = g_bytes_get_size(good);
	gsize title_at = column_at(COL_TITLE);
	gsize type_at = column_at(COL_TYPE);
	gsize playlist_at = column_at(COL_PLAYLIST);
	GBytes *b;

	g_assert_cmpuint(column_at(36), ==, good_len - 8);

	b = patched32(16, 37);			/* ncols */
	expect_error(b, KM_SMALLDB_ERROR_UNSUPPORTED, "header");
	g_bytes_unref(b);
	b = patched32(20 + 8 * 5, 1);		/* samplerate said to be a string */
	expect_error(b, KM_SMALLDB_ERROR_UNSUPPORTED, "column descriptors");
	g_bytes_unref(b);
	b = patched32(NAMES_AT + 4, 0x20646966 + 1); /* "gid " */
	expect_error(b, KM_SMALLDB_ERROR_UNSUPPORTED, "'gid', expected 'fid'");
	g_bytes_unref(b);
	b = patched32(NAMES_AT, 0xfffffff0);	/* names_len */
	expect_error(b, KM_SMALLDB_ERROR_TRUNCATED, "column names");
	g_bytes_unref(b);
	b = patched32(N_EXTRA_AT, 0xffffffff);	/* n_extra */
	expect_error(b, KM_SMALLDB_ERROR_TRUNCATED, "update records");
	g_bytes_unref(b);
	b = patched32(N_EXTRA_AT + 8, 0x7fffffff); /* row count */
	expect_error(b, KM_SMALLDB_ERROR_TRUNCATED, "row count");
	g_bytes_unref(b);
	b = patched32(N_EXTRA_AT + 8, 4);	/* one row too many */
	expect_any_error(b);
	g_bytes_unref(b);
	b = patched32(title_at, 0xffffff00);	/* title pool size */
	expect_error(b, KM_SMALLDB_ERROR_TRUNCATED, "'title'");
	g_bytes_unref(b);
	b = patched32(title_at + 4, 18);	/* offset == pool size */
	expect_error(b, KM_SMALLDB_ERROR_CORRUPT, "outside the pool");
	g_bytes_unref(b);
	b = patched32(title_at + 4, 0x80000000);
	expect_error(b, KM_SMALLDB_ERROR_CORRUPT, "outside the pool");
	g_bytes_unref(b);
	b = patched32(playlist_at + 4, 8);	/* offsets 0, 8, 0: decreasing */
	expect_error(b, KM_SMALLDB_ERROR_CORRUPT, "'playlist'");
	g_bytes_unref(b);
	b = patched32(playlist_at + 8, 13);	/* last offset past the pool */
	expect_error(b, KM_SMALLDB_ERROR_CORRUPT, "'playlist'");
	g_bytes_unref(b);
	b = patched32(playlist_at + 12, 0xffffffff); /* blob pool size */
	expect_error(b, KM_SMALLDB_ERROR_TRUNCATED, "'playlist'");
	g_bytes_unref(b);
	b = patched32(good_len - 8, 0xffffffff); /* bitmap length */
	expect_error(b, KM_SMALLDB_ERROR_TRUNCATED, "deletion bitmap");
	g_bytes_unref(b);
	b = patched32(good_len - 4, T + 1);	/* trailer */
	expect_error(b, KM_SMALLDB_ERROR_CORRUPT, "trailer");
	g_bytes_unref(b);
	{
		/* the fids of rows 1 and 2 made equal */
		b = patched32(N_EXTRA_AT + 12 + 8, 0x120);
		expect_error(b, KM_SMALLDB_ERROR_CORRUPT, "two rows");
		g_bytes_unref(b);
	}
	{
		g_autoptr(GByteArray) f = small_library_bytes(T);

		put8(f, 0);			/* a byte after the trailer */
		b = g_bytes_new(f->data, f->len);
		expect_error(b, KM_SMALLDB_ERROR_CORRUPT, "after the trailer");
		g_bytes_unref(b);
	}
	{
		g_autoptr(GByteArray) f = small_library_bytes(T);

		f->data[type_at + 4 + 12 + 13] = 'X';	/* the type pool's last NUL */
		b = g_bytes_new(f->data, f->len);
		expect_error(b, KM_SMALLDB_ERROR_CORRUPT, "does not end with a NUL");
		g_bytes_unref(b);
	}
	{
		g_autoptr(GByteArray) f = small_library_bytes(T);

		f->data[title_at + 4 + 12 + 5] = 0xc3;	/* "SOS" → "S\xc3S" */
		b = g_bytes_new(f->data, f->len);
		expect_error(b, KM_SMALLDB_ERROR_CORRUPT, "UTF-8");
		g_bytes_unref(b);
	}
}

static void test_malformed_records(void)
{
	const struct record_values r = { 0x120, 0, 0, 0, "t", "r", 0, 0, 0 };
	const struct record_values wrong_fid = { 0x999, 0, 0, 0, "t", "r", 0, 0, 0 };
	const struct record_values big_blob = { 0x120, 0, 0, 0, "t", "r", 12, 0, 0 };
	guint8 none = 0;

	{
		g_autoptr(GByteArray) recs = g_byte_array_new();
		g_autoptr(GBytes) b = NULL;

		put_record(recs, 1, &wrong_fid);
		b = with_journal(recs, 1, &none, 0);
		expect_error(b, KM_SMALLDB_ERROR_CORRUPT, "fid 2457, the row has fid 288");
	}
	{
		/* A record cut after its numbers. */
		g_autoptr(GByteArray) recs = g_byte_array_new();
		g_autoptr(GBytes) b = NULL;

		put32(recs, 1);
		put32(recs, 60);
		put32(recs, 0x120);
		for (int i = 0; i < 14; i++)
			put32(recs, 0);
		b = with_journal(recs, 1, &none, 0);
		expect_error(b, KM_SMALLDB_ERROR_TRUNCATED, "record for row 1");
	}
	{
		/* A blob length larger than the record. */
		g_autoptr(GByteArray) recs = g_byte_array_new();
		g_autoptr(GBytes) b = NULL;

		put_record(recs, 1, &big_blob);
		recs->data[8 + 60] = 0xff;
		b = with_journal(recs, 1, &none, 0);
		expect_error(b, KM_SMALLDB_ERROR_TRUNCATED, "'playlist'");
	}
	{
		/* The strings without their NUL bytes. */
		g_autoptr(GByteArray) recs = g_byte_array_new();
		g_autoptr(GBytes) b = NULL;
		guint32 len;

		put_record(recs, 1, &r);
		memcpy(&len, recs->data + 4, 4);
		len = GUINT32_FROM_LE(len);
		for (gsize i = 8 + 68; i < 8 + len; i++)
			recs->data[i] = 'a';
		b = with_journal(recs, 1, &none, 0);
		expect_error(b, KM_SMALLDB_ERROR_CORRUPT, "no NUL");
	}
	{
		/* A record length beyond the file. */
		g_autoptr(GByteArray) recs = g_byte_array_new();
		g_autoptr(GBytes) b = NULL;

		put32(recs, 1);
		put32(recs, 0x10000000);
		b = with_journal(recs, 1, &none, 0);
		expect_error(b, KM_SMALLDB_ERROR_TRUNCATED, "update records");
	}
}

/* Every prefix of a valid file is refused, at the right section. */
static void test_every_truncation(void)
{
	g_autoptr(GByteArray) recs = g_byte_array_new();
	const struct record_values r = { 0x120, 1, 1, 1, "t", "r", 4, 0, 0 };
	guint8 bitmap = 0x02;
	g_autoptr(GBytes) full = NULL;
	gsize len;
	const guint8 *p;

	put_record(recs, 1, &r);
	full = with_journal(recs, 1, &bitmap, 1);
	g_ptr_array_unref(parse_ok(full, NULL));
	p = g_bytes_get_data(full, &len);
	for (gsize cut = 0; cut < len; cut++) {
		g_autoptr(GBytes) b = g_bytes_new(p, cut);
		g_autoptr(GError) error = NULL;
		GPtrArray *objs = km_smalldb_parse(b, NULL, NULL, &error);

		if (objs)
			g_error("a file cut to %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " bytes was accepted",
				cut, len);
		g_assert_nonnull(strstr(error->message, "byte"));
	}
}

/* Every byte changed to each of a few values: an error or a parse, never a crash. */
static void test_every_byte_changed(void)
{
	g_autoptr(GByteArray) recs = g_byte_array_new();
	const struct record_values r = { 0x120, 1, 1, 1, "t", "r", 4, 0, 0 };
	static const guint8 values[] = { 0x00, 0x01, 0x7f, 0x80, 0xc3, 0xff };
	guint8 bitmap = 0x02;
	g_autoptr(GBytes) full = NULL;
	g_autofree guint8 *copy = NULL;
	const guint8 *p;
	gsize len;
	guint accepted = 0, refused = 0;

	put_record(recs, 1, &r);
	full = with_journal(recs, 1, &bitmap, 1);
	p = g_bytes_get_data(full, &len);
	copy = g_memdup2(p, len);
	for (gsize at = 0; at < len; at++) {
		guint8 saved = copy[at];

		for (guint v = 0; v < G_N_ELEMENTS(values); v++) {
			g_autoptr(GBytes) b = NULL;
			g_autoptr(GError) error = NULL;
			GPtrArray *objs;

			copy[at] = values[v];
			b = g_bytes_new_static(copy, len);
			objs = km_smalldb_parse(b, NULL, NULL, &error);
			if (objs) {
				accepted++;
				g_ptr_array_unref(objs);
			} else {
				g_assert_nonnull(error);
				refused++;
			}
		}
		copy[at] = saved;
	}
	g_test_message("%u changed files accepted, %u refused", accepted, refused);
	g_assert_cmpuint(refused, >, 0);
	g_assert_cmpuint(accepted, >, 0);
}

/* Rows that all point at one long string cannot make parse allocate without bound. */
static void test_decoded_size_is_capped(void)
{
	g_autoptr(GPtrArray) objs = g_ptr_array_new_with_free_func((GDestroyNotify)km_properties_unref);
	g_autofree char *long_title = g_malloc(200001);
	g_autoptr(GBytes) bytes = NULL;

	memset(long_title, 'x', 200000);
	long_title[200000] = '\0';
	for (guint i = 0; i < 2000; i++) {
		KmProperties *o = km_properties_new();

		km_properties_set_fid(o, 0x110 + 16 * i);
		km_properties_set(o, "title", long_title);
		g_ptr_array_add(objs, o);
	}
	bytes = build_ok(objs, NULL, T);
	/* One copy of the string in a file of about 460 KB; 400 MB decoded. */
	g_assert_cmpuint(g_bytes_get_size(bytes), <, 500000);
	expect_error(bytes, KM_SMALLDB_ERROR_CORRUPT, "times the file's size");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/smalldb/hand-computed-bytes", test_hand_computed_bytes);
	g_test_add_func("/smalldb/empty-library", test_empty_library);
	g_test_add_func("/smalldb/parse-small-library", test_parse_small_library);
	g_test_add_func("/smalldb/row-equal", test_row_equal);
	g_test_add_func("/smalldb/artist-ties", test_artist_ties);
	g_test_add_func("/smalldb/header-words-kept", test_header_words_kept);
	g_test_add_func("/smalldb/build-refuses-duplicate-fids", test_build_refuses_duplicate_fids);
	g_test_add_func("/smalldb/libkarma-repeated-blob", test_libkarma_repeated_blob);
	g_test_add_func("/smalldb/update-records-and-bitmap", test_update_records_and_bitmap);
	g_test_add_func("/smalldb/malformed", test_malformed);
	g_test_add_func("/smalldb/malformed-records", test_malformed_records);
	g_test_add_func("/smalldb/every-truncation", test_every_truncation);
	g_test_add_func("/smalldb/every-byte-changed", test_every_byte_changed);
	g_test_add_func("/smalldb/decoded-size-is-capped", test_decoded_size_is_capped);
	return g_test_run();
}
