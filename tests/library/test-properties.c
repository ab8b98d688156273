/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-properties.c - km-properties against files libkarma really wrote
 * (fixtures/README.md), the escaping rules, and malformed input.
 */
#include <string.h>

#include "km-properties.h"

/*
 * A playlist properties file written by libkarma 0.1.2 (lk_playlist_write,
 * fixtures/lk-playlist.c), byte for byte: its blob is the header ff 02 00 00
 * then every byte value 0x00..0xff.
 */
static const char libkarma_playlist[] =
	"fid=352\n"
	"length=260\n"
	"playlist=\377\\x02\\x00\\x00\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08\\x09\\n\\x0B\\x0"
	"C\\x0D\\x0E\\x0F\\x10\\x11\\x12\\x13\\x14\\x15\\x16\\x17\\x18\\x19\\x1A\\x1B\\x1C\\x1D\\x1"
	"E\\x1F !\"#$%&'()*+,-./0123456789:;<=>\077@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\\\]^_`abcdefghijkl"
	"mnopqrstuvwxyz{|}~\177\200\201\202\203\204\205\206\207\210\211\212\213\214\215\216\217\220"
	"\221\222\223\224\225\226\227\230\231\232\233\234\235\236\237\240\241\242\243\244\245\246"
	"\247\250\251\252\253\254\255\256\257\260\261\262\263\264\265\266\267\270\271\272\273\274"
	"\275\276\277\300\301\302\303\304\305\306\307\310\311\312\313\314\315\316\317\320\321\322"
	"\323\324\325\326\327\330\331\332\333\334\335\336\337\340\341\342\343\344\345\346\347\350"
	"\351\352\353\354\355\356\357\360\361\362\363\364\365\366\367\370\371\372\373\374\375\376"
	"\377\n"
	"title=My \"list\" = \\ \303\251\n"
	"type=playlist\n";

static GBytes *read_fixture(const char *name)
{
	g_autofree char *path = g_build_filename(FIXTURES_DIR, name, NULL);
	g_autoptr(GError) error = NULL;
	char *data;
	gsize len;

	g_file_get_contents(path, &data, &len, &error);
	g_assert_no_error(error);
	return g_bytes_new_take(data, len);
}

static KmProperties *parse_bytes(GBytes *bytes, GError **error)
{
	gsize len;
	const char *data = g_bytes_get_data(bytes, &len);

	return km_properties_parse(data, len, error);
}

static KmProperties *parse_ok(const char *text, gsize len)
{
	g_autoptr(GError) error = NULL;
	KmProperties *props = km_properties_parse(text, len, &error);

	g_assert_no_error(error);
	g_assert_nonnull(props);
	return props;
}

static void assert_serializes_to(const KmProperties *props, const char *data, gsize len)
{
	g_autoptr(GBytes) out = km_properties_serialize(props);
	gsize out_len;
	const char *out_data = g_bytes_get_data(out, &out_len);

	g_assert_cmpmem(out_data, out_len, data, len);
}

static void assert_round_trip(GBytes *bytes)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmProperties) props = parse_bytes(bytes, &error);
	gsize len;
	const char *data = g_bytes_get_data(bytes, &len);

	g_assert_no_error(error);
	assert_serializes_to(props, data, len);
}

static void test_riocp_round_trip(void)
{
	const char *names[] = { "riocp-mp3.1", "riocp-vorbis.1", "riocp-flac.1", "riocp-taxi.1" };
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autoptr(GBytes) bytes = read_fixture(names[i]);

		assert_round_trip(bytes);
	}
}

static void assert_uint(const KmProperties *props, const char *key, guint64 expected)
{
	guint64 value = 0;

	g_assert_true(km_properties_get_uint(props, key, &value));
	g_assert_cmpuint(value, ==, expected);
}

/* riocp writes strings raw: what the tag held, byte for byte. */
static void test_riocp_strings_are_raw(void)
{
	g_autoptr(GBytes) mp3 = read_fixture("riocp-mp3.1");
	g_autoptr(GBytes) ogg = read_fixture("riocp-vorbis.1");
	g_autoptr(GBytes) flac = read_fixture("riocp-flac.1");
	g_autoptr(KmProperties) p = parse_bytes(mp3, NULL);
	g_autoptr(KmProperties) o = parse_bytes(ogg, NULL);
	g_autoptr(KmProperties) f = parse_bytes(flac, NULL);
	g_autoptr(GBytes) profile = NULL;

	g_assert_nonnull(p);
	g_assert_cmpstr(km_properties_get(p, "title"), ==, "T\303\257tl\303\251 \"quoted\" = eq \\ back");
	g_assert_cmpstr(km_properties_get(p, "artist"), ==, "Art\tist\001ctl");
	/* The literal text \x41 \n \\ of the tag: not escapes. */
	g_assert_cmpstr(km_properties_get(p, "source"), ==, "Al=bum \\x41 \\n \\\\");
	g_assert_cmpstr(km_properties_get(p, "codec"), ==, "mp3");
	g_assert_cmpstr(km_properties_get(p, "bitrate"), ==, "vs16");
	assert_uint(p, "tracknr", 3);
	assert_uint(p, "samplerate", 8000);
	assert_uint(p, "duration", 1000);
	assert_uint(p, "offset", 280);
	assert_uint(p, "length", 2584);
	g_assert_cmpuint(km_properties_get_fid(p), ==, 0x110);
	/* profile is a blob: written empty by riocp. */
	g_assert_null(km_properties_get(p, "profile"));
	profile = km_properties_get_blob(p, "profile");
	g_assert_nonnull(profile);
	g_assert_cmpuint(g_bytes_get_size(profile), ==, 0);

	g_assert_nonnull(o);
	g_assert_cmpstr(km_properties_get(o, "title"), ==, "Ogg\001title\\back=eq");
	g_assert_cmpstr(km_properties_get(o, "artist"), ==, "\303\204rtist");
	g_assert_cmpstr(km_properties_get(o, "source"), ==, "Album \"q\"");
	g_assert_cmpstr(km_properties_get(o, "codec"), ==, "vorbis");
	g_assert_cmpuint(km_properties_get_fid(o), ==, 0x120);

	g_assert_nonnull(f);
	g_assert_cmpstr(km_properties_get(f, "title"), ==, "Flac\177 del \033 esc");
	g_assert_cmpstr(km_properties_get(f, "artist"), ==, "\346\227\245\346\234\254\350\252\236 artist");
	g_assert_cmpstr(km_properties_get(f, "source"), ==, "tab\there");
	g_assert_cmpstr(km_properties_get(f, "genre"), ==, "\303\234nre");
	g_assert_cmpstr(km_properties_get(f, "year"), ==, "2005");
}

/* riocp writes a newline in a tag raw, which leaves a line with no '='. */
static void test_riocp_newline_breaks_the_file(void)
{
	g_autoptr(GBytes) bytes = read_fixture("riocp-newline.1");
	g_autoptr(GError) error = NULL;
	g_autoptr(KmProperties) props = parse_bytes(bytes, &error);

	g_assert_null(props);
	g_assert_error(error, KM_PROPERTIES_ERROR, KM_PROPERTIES_ERROR_SYNTAX);
	g_assert_nonnull(strstr(error->message, "line 8:"));
	g_assert_nonnull(strstr(error->message, "no '='"));
}

static GBytes *every_byte_blob(void)
{
	guint8 blob[4 + 256] = { 0xff, 0x02, 0x00, 0x00 };
	guint i;

	for (i = 0; i < 256; i++)
		blob[4 + i] = (guint8)i;
	return g_bytes_new(blob, sizeof(blob));
}

static void test_libkarma_playlist_decodes(void)
{
	g_autoptr(KmProperties) props = parse_ok(libkarma_playlist, strlen(libkarma_playlist));
	g_autoptr(GBytes) blob = km_properties_get_blob(props, "playlist");
	g_autoptr(GBytes) expected = every_byte_blob();

	g_assert_nonnull(blob);
	g_assert_true(g_bytes_equal(blob, expected));
	g_assert_null(km_properties_get(props, "playlist"));
	g_assert_cmpstr(km_properties_get(props, "title"), ==, "My \"list\" = \\ \303\251");
	g_assert_cmpuint(km_properties_get_fid(props), ==, 352);
	assert_serializes_to(props, libkarma_playlist, strlen(libkarma_playlist));
}

/* Our writer, given the same object, writes exactly libkarma's bytes. */
static void test_libkarma_playlist_encodes(void)
{
	g_autoptr(KmProperties) props = km_properties_new();
	g_autoptr(GBytes) blob = every_byte_blob();

	km_properties_set_uint(props, "fid", 352);
	km_properties_set_uint(props, "length", 260);
	km_properties_set_blob(props, "playlist", blob);
	km_properties_set(props, "title", "My \"list\" = \\ \303\251");
	km_properties_set(props, "type", "playlist");
	assert_serializes_to(props, libkarma_playlist, strlen(libkarma_playlist));
}

static void assert_blob_line(const char *line, const guint8 *expected, gsize expected_len)
{
	g_autoptr(KmProperties) props = parse_ok(line, strlen(line));
	g_autoptr(GBytes) blob = km_properties_get_blob(props, "profile");
	gsize len;
	const guint8 *data = g_bytes_get_data(blob, &len);

	g_assert_cmpmem(data, len, expected, expected_len);
}

static void test_blob_escapes(void)
{
	const guint8 mixed[] = { 0x0a, 0x0a, 0x0a, 0x5c, 0x41, 0x3d, 0x09, 0x80, 0x1f };

	/* lower-case hex is read too, though libkarma writes upper case */
	assert_blob_line("profile=\\x0a\\x0A\\n\\\\A=\t\200\\x1f\n", mixed, sizeof(mixed));
	assert_blob_line("profile=\n", NULL, 0);
}

static void test_blob_round_trip(void)
{
	GRand *rand = g_rand_new_with_seed(4242);
	guint round;

	for (round = 0; round < 200; round++) {
		g_autoptr(KmProperties) props = km_properties_new();
		g_autoptr(KmProperties) back = NULL;
		g_autoptr(GBytes) text = NULL, blob = NULL, again = NULL;
		guint8 data[64];
		gsize len = (gsize)g_rand_int_range(rand, 0, sizeof(data) + 1);
		gsize i;

		for (i = 0; i < len; i++)
			data[i] = (guint8)g_rand_int_range(rand, 0, 256);
		blob = g_bytes_new(data, len);
		km_properties_set_blob(props, round % 2 ? "playlist" : "profile", blob);
		text = km_properties_serialize(props);
		back = parse_bytes(text, NULL);
		g_assert_nonnull(back);
		again = km_properties_get_blob(back, round % 2 ? "playlist" : "profile");
		g_assert_true(g_bytes_equal(again, blob));
	}
	g_rand_free(rand);
}

static void test_set_and_get(void)
{
	static const char file[] = "type=tune\ntitle=Old\nyear=1999\n";
	g_autoptr(KmProperties) props = parse_ok(file, strlen(file));
	static const char expected[] =
		"type=tune\ntitle=New \\x41 \\ \tTab Line two\nyear=2001\n"
		"artist=\303\204rtist\nlength=123\n";
	const char *const *keys;
	guint n = 0;

	/* in place, order kept; raw (no escaping); a newline becomes a space */
	km_properties_set(props, "title", "New \\x41 \\ \tTab\nLine two");
	km_properties_set_uint(props, "year", 2001);
	km_properties_set(props, "artist", "\303\204rtist");
	km_properties_set_uint(props, "length", 123);
	assert_serializes_to(props, expected, strlen(expected));
	g_assert_cmpstr(km_properties_get(props, "title"), ==, "New \\x41 \\ \tTab Line two");

	keys = km_properties_keys(props, &n);
	g_assert_cmpuint(n, ==, 5);
	g_assert_cmpstr(keys[0], ==, "type");
	g_assert_cmpstr(keys[3], ==, "artist");
	g_assert_cmpstr(keys[4], ==, "length");
	g_assert_null(keys[5]);

	g_assert_true(km_properties_remove(props, "title"));
	g_assert_false(km_properties_remove(props, "title"));
	g_assert_false(km_properties_contains(props, "title"));
	g_assert_null(km_properties_get(props, "title"));
	keys = km_properties_keys(props, &n);
	g_assert_cmpuint(n, ==, 4);
	g_assert_cmpstr(keys[1], ==, "year");
	g_assert_null(keys[4]);
	g_assert_true(km_properties_contains(props, "artist"));
	g_assert_null(km_properties_get(props, "nothing"));
	g_assert_null(km_properties_get_blob(props, "playlist"));
}

static void test_uint_values(void)
{
	static const char file[] =
		"a=0\nb=42\nc=0x1F\nd=0XfF\ne=18446744073709551615\n"
		"f=18446744073709551616\ng=-1\nh=12a\ni=\nj=0x\nk= 1\nl=1 \nm=+1\n";
	g_autoptr(KmProperties) props = parse_ok(file, strlen(file));
	const char *bad[] = { "f", "g", "h", "i", "j", "k", "l", "m", "absent" };
	guint64 value;
	gsize i;

	assert_uint(props, "a", 0);
	assert_uint(props, "b", 42);
	assert_uint(props, "c", 31);
	assert_uint(props, "d", 255);
	assert_uint(props, "e", G_MAXUINT64);
	for (i = 0; i < G_N_ELEMENTS(bad); i++)
		g_assert_false(km_properties_get_uint(props, bad[i], &value));
}

/* Keys we do not know, and their bytes, survive edits of other keys. */
static void test_unknown_keys_survive(void)
{
	static const char file[] =
		"x\\key=y\nzz_custom=\303\204\303\226 \\x41 = ;a;b;\ntitle=t\n"
		"rns_prefix=KRM\nodd=\001\033\177\r\n";
	static const char expected[] =
		"x\\key=y\nzz_custom=\303\204\303\226 \\x41 = ;a;b;\ntitle=changed\n"
		"rns_prefix=KRM\nodd=\001\033\177\r\n";
	g_autoptr(KmProperties) props = parse_ok(file, sizeof(file) - 1);
	g_autoptr(KmProperties) copy = NULL;

	assert_serializes_to(props, file, sizeof(file) - 1);
	g_assert_cmpstr(km_properties_get(props, "odd"), ==, "\001\033\177\r");
	km_properties_set(props, "title", "changed");
	assert_serializes_to(props, expected, sizeof(expected) - 1);
	copy = km_properties_copy(props);
	km_properties_set(props, "title", "after the copy");
	assert_serializes_to(copy, expected, sizeof(expected) - 1);
}

static void test_fid(void)
{
	static const char with_line[] = "fid=272\ntitle=t\n";
	static const char without[] = "title=t\n";
	g_autoptr(KmProperties) a = parse_ok(with_line, strlen(with_line));
	g_autoptr(KmProperties) b = parse_ok(without, strlen(without));

	g_assert_cmpuint(km_properties_get_fid(a), ==, 272);
	km_properties_set_fid(a, 0x1230);
	g_assert_cmpuint(km_properties_get_fid(a), ==, 0x1230);
	assert_serializes_to(a, "fid=4656\ntitle=t\n", strlen("fid=4656\ntitle=t\n"));

	g_assert_cmpuint(km_properties_get_fid(b), ==, 0);
	km_properties_set_fid(b, 0x110);
	g_assert_cmpuint(km_properties_get_fid(b), ==, 0x110);
	g_assert_false(km_properties_contains(b, "fid"));
	assert_serializes_to(b, without, strlen(without));
}

static void test_ref_and_empty(void)
{
	KmProperties *props = parse_ok("", 0);
	guint n = 99;

	g_assert_true(km_properties_ref(props) == props);
	km_properties_unref(props);
	g_assert_null(km_properties_keys(props, &n)[0]);
	g_assert_cmpuint(n, ==, 0);
	assert_serializes_to(props, "", 0);
	km_properties_unref(props);
}

static void expect_critical(void)
{
	g_test_expect_message(NULL, G_LOG_LEVEL_CRITICAL, "*assertion*failed*");
}

/* What cannot be written correctly is refused, and nothing changes. */
static void test_misuse(void)
{
	g_autoptr(KmProperties) props = km_properties_new();
	g_autoptr(GBytes) blob = g_bytes_new_static("ab", 2);
	guint n = 99;

	expect_critical();
	km_properties_set(props, "playlist", "text");	/* a blob key */
	expect_critical();
	km_properties_set_uint(props, "profile", 1);
	expect_critical();
	km_properties_set_blob(props, "title", blob);	/* a string key */
	expect_critical();
	km_properties_set(props, "title", "bad \377 \303");
	expect_critical();
	km_properties_set(props, "bad key", "v");
	expect_critical();
	km_properties_set(props, "k=v", "v");
	expect_critical();
	km_properties_set(props, "", "v");
	g_test_assert_expected_messages();
	km_properties_keys(props, &n);
	g_assert_cmpuint(n, ==, 0);
}

struct malformed {
	const char *data;
	gsize len;	/* 0: strlen(data) */
	KmPropertiesError code;
	const char *where;	/* a piece of the message */
	const char *what;
};

static const struct malformed malformed_cases[] = {
	{ "title=a", 0, KM_PROPERTIES_ERROR_SYNTAX, "line 1:", "cut short" },
	{ "type=tune\ntitle", 0, KM_PROPERTIES_ERROR_SYNTAX, "line 2:", "cut short" },
	{ "type=tune\nbum\n", 0, KM_PROPERTIES_ERROR_SYNTAX, "line 2:", "no '='" },
	{ "type=tune\n\n", 0, KM_PROPERTIES_ERROR_SYNTAX, "line 2:", "no '='" },
	{ "=x\n", 0, KM_PROPERTIES_ERROR_SYNTAX, "line 1:", "empty" },
	{ "ti tle=x\n", 0, KM_PROPERTIES_ERROR_SYNTAX, "line 1:", "byte 0x20 at column 3" },
	{ "k\303\251y=v\n", 0, KM_PROPERTIES_ERROR_SYNTAX, "line 1:", "byte 0xc3 at column 2" },
	{ "a=1\ntitle=a\0b\n", 14, KM_PROPERTIES_ERROR_ENCODING, "line 2:", "NUL byte at column 8" },
	{ "title=\377\n", 0, KM_PROPERTIES_ERROR_ENCODING, "line 1:", "byte 0xff at column 7" },
	{ "title=ab\303\n", 0, KM_PROPERTIES_ERROR_ENCODING, "line 1:", "not valid UTF-8" },
	{ "title=\355\240\200\n", 0, KM_PROPERTIES_ERROR_ENCODING, "line 1:", "not valid UTF-8" },
	{ "title=a\ntype=t\ntitle=b\n", 0, KM_PROPERTIES_ERROR_SYNTAX, "line 3:", "'title' appears twice" },
	{ "playlist=ab\\q\n", 0, KM_PROPERTIES_ERROR_SYNTAX, "line 1:", "escape at column 12" },
	{ "playlist=\\t\n", 0, KM_PROPERTIES_ERROR_SYNTAX, "line 1:", "escape" },
	{ "playlist=\\x4\n", 0, KM_PROPERTIES_ERROR_SYNTAX, "line 1:", "escape" },
	{ "playlist=\\xg0\n", 0, KM_PROPERTIES_ERROR_SYNTAX, "line 1:", "escape" },
	{ "profile=\\\n", 0, KM_PROPERTIES_ERROR_SYNTAX, "line 1:", "escape at column 9" },
	{ "profile=\\x\n", 0, KM_PROPERTIES_ERROR_SYNTAX, "line 1:", "escape" },
};

static void test_malformed(void)
{
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(malformed_cases); i++) {
		const struct malformed *c = &malformed_cases[i];
		g_autoptr(GError) error = NULL;
		g_autoptr(KmProperties) props =
			km_properties_parse(c->data, c->len ? c->len : strlen(c->data), &error);

		g_test_message("case %" G_GSIZE_FORMAT ": %s", i, error ? error->message : "parsed");
		g_assert_null(props);
		g_assert_error(error, KM_PROPERTIES_ERROR, (gint)c->code);
		g_assert_nonnull(strstr(error->message, c->where));
		g_assert_nonnull(strstr(error->message, c->what));
	}
}

/* One value that fills a file of exactly n bytes. */
static char *file_of_size(gsize n)
{
	char *data = g_malloc(n);

	memcpy(data, "title=", 6);
	memset(data + 6, 'x', n - 7);
	data[n - 1] = '\n';
	return data;
}

static void test_size_limit(void)
{
	g_autofree char *largest = file_of_size(KM_PROPERTIES_MAX_SIZE);
	g_autofree char *too_large = file_of_size(KM_PROPERTIES_MAX_SIZE + 1);
	g_autoptr(KmProperties) ok = parse_ok(largest, KM_PROPERTIES_MAX_SIZE);
	g_autoptr(GError) error = NULL;
	g_autoptr(KmProperties) refused =
		km_properties_parse(too_large, KM_PROPERTIES_MAX_SIZE + 1, &error);

	g_assert_cmpuint(strlen(km_properties_get(ok, "title")), ==, KM_PROPERTIES_MAX_SIZE - 7);
	g_assert_null(refused);
	g_assert_error(error, KM_PROPERTIES_ERROR, KM_PROPERTIES_ERROR_TOO_LARGE);
}

/*
 * Random damage to real files: never a crash, a parse either fails with an
 * error or gives back the same bytes, and every value it accepted decodes.
 */
static void test_mutations(void)
{
	const char *names[] = { "riocp-mp3.1", "riocp-flac.1", "riocp-taxi.1" };
	GRand *rand = g_rand_new_with_seed(20240611);
	guint round, parsed = 0, refused = 0;

	for (round = 0; round < 3000; round++) {
		g_autoptr(GBytes) orig = NULL;
		g_autoptr(GError) error = NULL;
		g_autoptr(KmProperties) props = NULL;
		g_autofree guint8 *data = NULL;
		const void *orig_data;
		gsize len, n, k;

		if (round % 2)
			orig = read_fixture(names[round % G_N_ELEMENTS(names)]);
		else
			orig = g_bytes_new_static(libkarma_playlist, strlen(libkarma_playlist));
		orig_data = g_bytes_get_data(orig, &len);
		data = g_memdup2(orig_data, len);
		n = (gsize)g_rand_int_range(rand, 1, 5);
		for (k = 0; k < n; k++) {
			gsize at = (gsize)g_rand_int_range(rand, 0, (gint32)len);
			const guint8 picks[] = { 0, '\n', '=', '\\', 'x', 0xff, 0xc3, ' ' };

			data[at] = g_rand_boolean(rand) ? picks[g_rand_int_range(rand, 0, 8)] :
							  (guint8)g_rand_int_range(rand, 0, 256);
		}
		if (g_rand_int_range(rand, 0, 4) == 0)
			len = (gsize)g_rand_int_range(rand, 0, (gint32)len + 1);
		props = km_properties_parse((const char *)data, len, &error);
		if (!props) {
			g_assert_nonnull(error);
			g_assert_true(g_str_has_prefix(error->message, "properties line "));
			refused++;
			continue;
		}
		parsed++;
		assert_serializes_to(props, (const char *)data, len);
		for (const char *const *key = km_properties_keys(props, NULL); *key; key++) {
			if (km_properties_is_blob_key(*key)) {
				g_autoptr(GBytes) blob = km_properties_get_blob(props, *key);

				g_assert_nonnull(blob);
			} else {
				g_assert_true(g_utf8_validate(km_properties_get(props, *key), -1, NULL));
			}
		}
	}
	g_test_message("%u damaged files parsed, %u refused", parsed, refused);
	/* both paths really ran */
	g_assert_cmpuint(parsed, >, 300);
	g_assert_cmpuint(refused, >, 300);
	g_rand_free(rand);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/properties/riocp/round-trip", test_riocp_round_trip);
	g_test_add_func("/properties/riocp/strings-are-raw", test_riocp_strings_are_raw);
	g_test_add_func("/properties/riocp/newline-breaks-the-file", test_riocp_newline_breaks_the_file);
	g_test_add_func("/properties/libkarma-playlist/decodes", test_libkarma_playlist_decodes);
	g_test_add_func("/properties/libkarma-playlist/encodes", test_libkarma_playlist_encodes);
	g_test_add_func("/properties/blob/escapes", test_blob_escapes);
	g_test_add_func("/properties/blob/round-trip", test_blob_round_trip);
	g_test_add_func("/properties/set-and-get", test_set_and_get);
	g_test_add_func("/properties/uint", test_uint_values);
	g_test_add_func("/properties/unknown-keys-survive", test_unknown_keys_survive);
	g_test_add_func("/properties/fid", test_fid);
	g_test_add_func("/properties/ref-and-empty", test_ref_and_empty);
	g_test_add_func("/properties/misuse", test_misuse);
	g_test_add_func("/properties/malformed", test_malformed);
	g_test_add_func("/properties/size-limit", test_size_limit);
	g_test_add_func("/properties/mutations", test_mutations);
	return g_test_run();
}
