/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-import.c - km_import_file() on real audio made here: a WAV
 * synthesized in C (with LIST/INFO tags), MP3 from lame (MPEG-1 CBR and VBR,
 * MPEG-2.5, ID3v2 and ID3v1 tags), Ogg Vorbis from oggenc, FLAC from flac,
 * and WMA, AAC, MP2 and Opus from ffmpeg. Each tune's every property is
 * checked against what the file was made with; refused files must say why;
 * the rid is checked against a plain reimplementation of libkarma's rule
 * here and against riocp (Debian karma-tools) itself.
 * A case whose encoder is not installed is skipped (scripts/install-deps.sh
 * installs them all), the riocp case when riocp is not installed.
 */
#include "km-import.h"
#include "spawn-util.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#define SECONDS 3
#define RID_CHUNK 65536

static char *tmpdir;
static gint64 test_start;

/* ---- making files ------------------------------------------------------- */

static char *tmp_path(const char *name)
{
	return g_build_filename(tmpdir, name, NULL);
}

static void put_le16(GByteArray *a, guint v)
{
	guint8 b[2] = { v & 0xff, v >> 8 & 0xff };

	g_byte_array_append(a, b, 2);
}

static void put_le32(GByteArray *a, guint32 v)
{
	guint8 b[4] = { v & 0xff, v >> 8 & 0xff, v >> 16 & 0xff, v >> 24 };

	g_byte_array_append(a, b, 4);
}

static void put_chunk(GByteArray *a, const char *id, const void *data, guint32 len)
{
	g_byte_array_append(a, (const guint8 *)id, 4);
	put_le32(a, len);
	g_byte_array_append(a, data, len);
	if (len & 1)
		g_byte_array_append(a, (const guint8 *)"", 1);
}

/* A tone with a little noise (so encoders have work to do), 16-bit PCM. */
static GByteArray *pcm_samples(guint rate, guint channels, guint seconds)
{
	GByteArray *pcm = g_byte_array_new();
	GRand *rand = g_rand_new_with_seed(rate);
	guint i, c;

	for (i = 0; i < rate * seconds; i++) {
		double t = (double)i / rate;
		int v = (int)(6000 * sin(2 * G_PI * (330 + 40 * t) * t)) +
			g_rand_int_range(rand, -1500, 1500);

		for (c = 0; c < channels; c++)
			put_le16(pcm, (guint16)(gint16)v);
	}
	g_rand_free(rand);
	return pcm;
}

/*
 * A RIFF WAVE file; info is NULL or pairs of (INFO id, text) ending in NULL.
 * format 1 is PCM; another value makes a file of that format tag.
 */
static char *make_wav_format(const char *name, guint rate, guint channels, guint seconds,
			     guint format, const char *const *info)
{
	g_autoptr(GByteArray) pcm = pcm_samples(rate, channels, seconds);
	g_autoptr(GByteArray) body = g_byte_array_new();
	g_autoptr(GByteArray) fmt = g_byte_array_new();
	g_autoptr(GByteArray) file = g_byte_array_new();
	g_autoptr(GError) error = NULL;
	char *path = tmp_path(name);

	put_le16(fmt, format);
	put_le16(fmt, channels);
	put_le32(fmt, rate);
	put_le32(fmt, rate * channels * 2);
	put_le16(fmt, channels * 2);
	put_le16(fmt, 16);
	g_byte_array_append(body, (const guint8 *)"WAVE", 4);
	put_chunk(body, "fmt ", fmt->data, fmt->len);
	if (info) {
		g_autoptr(GByteArray) list = g_byte_array_new();

		g_byte_array_append(list, (const guint8 *)"INFO", 4);
		for (; *info; info += 2)
			put_chunk(list, info[0], info[1], (guint32)strlen(info[1]) + 1);
		put_chunk(body, "LIST", list->data, list->len);
	}
	put_chunk(body, "data", pcm->data, pcm->len);
	put_chunk(file, "RIFF", body->data, body->len);
	g_assert_true(g_file_set_contents(path, (const char *)file->data, file->len, &error));
	g_assert_no_error(error);
	return path;
}

static char *make_wav(const char *name, guint rate, guint channels, const char *const *info)
{
	return make_wav_format(name, rate, channels, SECONDS, 1, info);
}

static void run(const char *const *argv)
{
	run_in(tmpdir, argv);
}

static GBytes *read_file(const char *path)
{
	g_autoptr(GError) error = NULL;
	char *data;
	gsize len;

	g_assert_true(g_file_get_contents(path, &data, &len, &error));
	g_assert_no_error(error);
	return g_bytes_new_take(data, len);
}

static void write_file(const char *path, const void *data, gsize len)
{
	g_autoptr(GError) error = NULL;

	g_assert_true(g_file_set_contents(path, data, (gssize)len, &error));
	g_assert_no_error(error);
}

/* A copy of the first len bytes of src. */
static char *truncated_copy(const char *src, const char *name, gsize len)
{
	g_autoptr(GBytes) data = read_file(src);
	char *path = tmp_path(name);

	g_assert_cmpuint(len, <, g_bytes_get_size(data));
	write_file(path, g_bytes_get_data(data, NULL), len);
	return path;
}

/* ---- what the files should give ----------------------------------------- */

/* Bytes of the ID3v2 tag at the start of the file, read here independently. */
static guint64 id3v2_size(GBytes *data)
{
	const guint8 *d = g_bytes_get_data(data, NULL);

	if (g_bytes_get_size(data) < 10 || memcmp(d, "ID3", 3) != 0)
		return 0;
	return 10 + ((guint64)d[6] << 21 | d[7] << 14 | d[8] << 7 | d[9]) +
	       (d[5] & 0x10 ? 10 : 0);
}

static gboolean has_id3v1(GBytes *data)
{
	gsize size = g_bytes_get_size(data);
	const guint8 *d = g_bytes_get_data(data, NULL);

	return size >= 128 && memcmp(d + size - 128, "TAG", 3) == 0;
}

static void md5_xor(guint8 *acc, const guint8 *data, gsize len)
{
	g_autoptr(GChecksum) md5 = g_checksum_new(G_CHECKSUM_MD5);
	guint8 digest[16];
	gsize n = sizeof(digest), i;

	g_checksum_update(md5, data, len);
	g_checksum_get_digest(md5, digest, &n);
	for (i = 0; i < n; i++)
		acc[i] ^= digest[i];
}

/* libkarma's rid over [start, end) of the file (docs/KARMA.md §7.4, and km-import.c). */
static char *reference_rid(GBytes *data, gsize start, gsize end)
{
	const guint8 *d = g_bytes_get_data(data, NULL);
	gsize size = g_bytes_get_size(data);
	guint8 acc[16] = { 0 };
	GString *hex = g_string_new(NULL);
	gsize i;

	if (end - start < RID_CHUNK) {
		md5_xor(acc, d + start, MIN(RID_CHUNK, size - start));
	} else {
		md5_xor(acc, d + start, RID_CHUNK);
		md5_xor(acc, d + end - RID_CHUNK, RID_CHUNK);
		md5_xor(acc, d + (start + end - RID_CHUNK) / 2, RID_CHUNK);
	}
	for (i = 0; i < sizeof(acc); i++)
		g_string_append_printf(hex, "%02x", acc[i]);
	return g_string_free(hex, FALSE);
}

static KmProperties *import_ok(const char *path)
{
	g_autoptr(GError) error = NULL;
	KmProperties *props = km_import_file(path, KM_IMPORT_FLAGS_NONE, &error);

	g_assert_no_error(error);
	g_assert_nonnull(props);
	return props;
}

static void assert_prop(KmProperties *props, const char *key, const char *value)
{
	const char *got = km_properties_get(props, key);

	if (g_strcmp0(got, value) != 0)
		g_error("%s: expected %s, got %s", key, value ? value : "(absent)",
			got ? got : "(absent)");
}

static guint64 uint_prop(KmProperties *props, const char *key)
{
	guint64 v = 0;

	if (!km_properties_get_uint(props, key, &v))
		g_error("%s: absent or not a number", key);
	return v;
}

static void assert_duration(KmProperties *props, guint64 want_ms, guint64 slack_ms)
{
	guint64 got = uint_prop(props, "duration");

	if (got + slack_ms < want_ms || got > want_ms + slack_ms)
		g_error("duration %" G_GUINT64_FORMAT " ms, expected %" G_GUINT64_FORMAT
			" ms ± %" G_GUINT64_FORMAT, got, want_ms, slack_ms);
}

/* The bitrate string: the prefix, and kbit/s within [lo, hi]. */
static void assert_bitrate(KmProperties *props, const char *prefix, guint lo, guint hi)
{
	const char *b = km_properties_get(props, "bitrate");
	guint64 kbps;

	g_assert_nonnull(b);
	g_assert_true(g_str_has_prefix(b, prefix));
	g_assert_true(g_ascii_string_to_unsigned(b + 2, 10, lo, hi, &kbps, NULL));
}

/*
 * What every object carries: the length, ctime = fid_generation = the time
 * of the import, an empty profile, and the rid of [audio_start, end - trailer).
 */
static void assert_object(KmProperties *props, const char *path, gsize audio_start)
{
	g_autoptr(GBytes) data = read_file(path);
	g_autoptr(GBytes) profile = km_properties_get_blob(props, "profile");
	g_autofree char *rid = NULL;
	guint64 ctime = uint_prop(props, "ctime");
	guint64 trailer = 0;

	g_assert_cmpuint(uint_prop(props, "length"), ==, g_bytes_get_size(data));
	g_assert_cmpuint(ctime, >=, test_start);
	g_assert_cmpuint(ctime, <=, g_get_real_time() / G_USEC_PER_SEC);
	g_assert_cmpuint(uint_prop(props, "fid_generation"), ==, ctime);
	g_assert_nonnull(profile);
	g_assert_cmpuint(g_bytes_get_size(profile), ==, 0);
	km_properties_get_uint(props, "trailer", &trailer);
	rid = reference_rid(data, audio_start, g_bytes_get_size(data) - trailer);
	assert_prop(props, "rid", rid);
	g_assert_cmpuint(km_properties_get_fid(props), ==, 0);
}

/* A tune's framing: offset (ID3v2) and trailer (ID3v1), from the bytes here. */
static void assert_tags_framing(KmProperties *props, const char *path)
{
	g_autoptr(GBytes) data = read_file(path);

	g_assert_cmpuint(uint_prop(props, "offset"), ==, id3v2_size(data));
	g_assert_cmpuint(uint_prop(props, "trailer"), ==, has_id3v1(data) ? 128 : 0);
}

static void assert_refused(const char *path, KmImportFlags flags, KmImportError code,
			   const char *reason)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *display = g_filename_display_name(path);
	KmProperties *props = km_import_file(path, flags, &error);

	g_assert_null(props);
	g_assert_error(error, KM_IMPORT_ERROR, code);
	g_test_message("%s", error->message);
	g_assert_true(g_str_has_prefix(error->message, display));
	if (!strstr(error->message, reason))
		g_error("\"%s\" does not say \"%s\"", error->message, reason);
}

/* ---- MP3 ---------------------------------------------------------------- */

static char *make_mp3(const char *name, const char *const *options)
{
	g_autofree char *wav = make_wav("mp3-source.wav", 44100, 2, NULL);
	char *path = tmp_path(name);
	GPtrArray *argv = g_ptr_array_new();

	argv_add(argv, "lame");
	argv_add(argv, "--quiet");
	for (; *options; options++)
		argv_add(argv, *options);
	g_ptr_array_add(argv, wav);
	g_ptr_array_add(argv, path);
	g_ptr_array_add(argv, NULL);
	run((const char *const *)argv->pdata);
	g_ptr_array_free(argv, TRUE);
	return path;
}

static void test_mp3_cbr_id3v2(void)
{
	const char *const options[] = {
		"-b", "128", "--add-id3v2", "--id3v2-utf16", "--tt", "Tïtlé «ünïcode»",
		"--ta", "Ärtist 日本語", "--tl", "Albüm", "--ty", "2001", "--tn", "3/12",
		"--tg", "Rock", NULL,
	};
	g_autofree char *path = NULL;
	g_autoptr(KmProperties) props = NULL;

	if (!have("lame"))
		return;
	path = make_mp3("cbr.mp3", options);
	props = import_ok(path);
	assert_prop(props, "type", "tune");
	assert_prop(props, "codec", "mp3");
	assert_prop(props, "title", "Tïtlé «ünïcode»");
	assert_prop(props, "artist", "Ärtist 日本語");
	assert_prop(props, "source", "Albüm");
	assert_prop(props, "genre", "Rock");
	assert_prop(props, "year", "2001");
	assert_prop(props, "tracknr", "3");
	assert_prop(props, "samplerate", "44100");
	assert_prop(props, "bitrate", "fs128");
	/* lame's LAME tag gives the encoder delay: the duration is exact. */
	assert_duration(props, SECONDS * 1000, 30);
	assert_tags_framing(props, path);
	g_assert_cmpuint(uint_prop(props, "offset"), >, 0);
	g_assert_cmpuint(uint_prop(props, "trailer"), ==, 128);
	assert_object(props, path, uint_prop(props, "offset"));
}

static void test_mp3_vbr_id3v1(void)
{
	const char *const options[] = {
		"-V", "4", "--id3v1-only", "--tt", "Old tag", "--ta", "Some Artist",
		"--tl", "An Album", "--ty", "1987", "--tn", "9", "--tg", "Jazz", NULL,
	};
	g_autofree char *path = NULL;
	g_autoptr(KmProperties) props = NULL;

	if (!have("lame"))
		return;
	path = make_mp3("vbr.mp3", options);
	props = import_ok(path);
	assert_prop(props, "codec", "mp3");
	assert_prop(props, "title", "Old tag");
	assert_prop(props, "artist", "Some Artist");
	assert_prop(props, "source", "An Album");
	assert_prop(props, "genre", "Jazz");
	assert_prop(props, "year", "1987");
	assert_prop(props, "tracknr", "9");
	assert_prop(props, "samplerate", "44100");
	assert_bitrate(props, "vs", 32, 320);
	assert_duration(props, SECONDS * 1000, 30);
	assert_prop(props, "offset", "0");
	assert_prop(props, "trailer", "128");
	assert_object(props, path, 0);
}

/* No tags: the title is the file name without its extension; nothing else is made up. */
static void test_mp3_untagged(void)
{
	const char *const options[] = { "-b", "64", NULL };
	g_autofree char *path = NULL;
	g_autoptr(KmProperties) props = NULL;

	if (!have("lame"))
		return;
	path = make_mp3("My Sóng.v2.mp3", options);
	props = import_ok(path);
	assert_prop(props, "title", "My Sóng.v2");
	assert_prop(props, "artist", NULL);
	assert_prop(props, "source", NULL);
	assert_prop(props, "genre", NULL);
	assert_prop(props, "year", NULL);
	assert_prop(props, "tracknr", NULL);
	assert_prop(props, "bitrate", "fs64");
	assert_prop(props, "offset", "0");
	assert_prop(props, "trailer", "0");
	assert_object(props, path, 0);
}

/* MPEG-2.5 at 8 kHz, the only MP3s riocp can take. */
static void test_mp3_mpeg25(void)
{
	const char *const options[] = {
		"-V", "6", "--resample", "8", "--add-id3v2", "--tt", "Low", NULL,
	};
	g_autofree char *path = NULL;
	g_autoptr(KmProperties) props = NULL;

	if (!have("lame"))
		return;
	path = make_mp3("low.mp3", options);
	props = import_ok(path);
	assert_prop(props, "title", "Low");
	assert_prop(props, "samplerate", "8000");
	assert_bitrate(props, "vs", 8, 64);
	assert_duration(props, SECONDS * 1000, 80);
	assert_tags_framing(props, path);
	assert_object(props, path, uint_prop(props, "offset"));
}

/* ---- Ogg Vorbis, FLAC, WAV, WMA ----------------------------------------- */

/*
 * libkarma's rid skips the three Vorbis header packets: oggenc puts them on
 * two pages, so the audio starts at the third.
 */
static gsize ogg_audio_start(GBytes *data)
{
	const guint8 *d = g_bytes_get_data(data, NULL);
	gsize pos = 0, page, body;
	guint i;

	for (page = 0; page < 2; page++) {
		for (body = 0, i = 0; i < d[pos + 26]; i++)
			body += d[pos + 27 + i];
		pos += 27 + d[pos + 26] + body;
	}
	g_assert_cmpmem(d + pos, 4, "OggS", 4);
	return pos;
}

static void test_vorbis(void)
{
	g_autofree char *wav = NULL, *path = NULL;
	g_autoptr(KmProperties) props = NULL;
	g_autoptr(GBytes) data = NULL;

	if (!have("oggenc"))
		return;
	wav = make_wav("ogg-source.wav", 44100, 2, NULL);
	path = tmp_path("tags.ogg");
	run((const char *const[]){ "oggenc", "-Q", "-t", "Vörbis tïtle", "-a", "Ärtist",
				   "-l", "Älbum", "-N", "5/9", "-G", "Électronique",
				   "-d", "1999-12-31", wav, "-o", path, NULL });
	props = import_ok(path);
	assert_prop(props, "type", "tune");
	assert_prop(props, "codec", "vorbis");
	assert_prop(props, "title", "Vörbis tïtle");
	assert_prop(props, "artist", "Ärtist");
	assert_prop(props, "source", "Älbum");
	assert_prop(props, "genre", "Électronique");
	assert_prop(props, "year", "1999");
	assert_prop(props, "tracknr", "5");
	assert_prop(props, "samplerate", "44100");
	assert_bitrate(props, "vs", 32, 500);
	/* The last granule position counts the samples exactly. */
	assert_duration(props, SECONDS * 1000, 1);
	assert_prop(props, "offset", "0");
	assert_prop(props, "trailer", "0");
	data = read_file(path);
	assert_object(props, path, ogg_audio_start(data));
}

/* Where the first FLAC frame starts: after the last metadata block. */
static gsize flac_audio_start(GBytes *data)
{
	const guint8 *d = g_bytes_get_data(data, NULL);
	gsize pos = 4;
	gboolean last;

	do {
		last = d[pos] & 0x80;
		pos += 4 + ((gsize)d[pos + 1] << 16 | d[pos + 2] << 8 | d[pos + 3]);
	} while (!last);
	return pos;
}

static void test_flac(void)
{
	g_autofree char *wav = NULL, *path = NULL;
	g_autoptr(KmProperties) props = NULL;
	g_autoptr(GBytes) data = NULL;

	if (!have("flac"))
		return;
	wav = make_wav("flac-source.wav", 22050, 1, NULL);
	path = tmp_path("tags.flac");
	run((const char *const[]){ "flac", "-s", "-f", "-T", "TITLE=Fläc ☃", "-T", "ARTIST=日本語",
				   "-T", "ALBUM=Lossless", "-T", "GENRE=Classical",
				   "-T", "DATE=2005-06-07", "-T", "TRACKNUMBER=12/20",
				   wav, "-o", path, NULL });
	props = import_ok(path);
	assert_prop(props, "codec", "flac");
	assert_prop(props, "title", "Fläc ☃");
	assert_prop(props, "artist", "日本語");
	assert_prop(props, "source", "Lossless");
	assert_prop(props, "genre", "Classical");
	assert_prop(props, "year", "2005");
	assert_prop(props, "tracknr", "12");
	assert_prop(props, "samplerate", "22050");
	assert_bitrate(props, "vs", 50, 400);
	assert_duration(props, SECONDS * 1000, 0);
	assert_prop(props, "offset", "0");
	assert_prop(props, "trailer", "0");
	data = read_file(path);
	assert_object(props, path, flac_audio_start(data));
}

/* Tags that need cleaning: blanks around, a line break, a bad year and track. */
static void test_flac_cleanup(void)
{
	g_autofree char *wav = NULL, *path = NULL;
	g_autoptr(KmProperties) props = NULL;

	if (!have("flac"))
		return;
	wav = make_wav("clean-source.wav", 8000, 1, NULL);
	path = tmp_path("clean.flac");
	run((const char *const[]){ "flac", "-s", "-f", "-T", "TITLE=  Two\nlines\r\n  ",
				   "-T", "ARTIST=\t Spaced \t", "-T", "ALBUM=   ",
				   "-T", "DATE=99", "-T", "TRACKNUMBER=300", wav, "-o", path, NULL });
	props = import_ok(path);
	assert_prop(props, "title", "Two lines");
	assert_prop(props, "artist", "Spaced");
	assert_prop(props, "source", NULL);
	assert_prop(props, "year", NULL);
	assert_prop(props, "tracknr", NULL);
}

static void test_wav(void)
{
	/* INFO text: UTF-8, and one in Windows-1252 ("Caf\xe9"). */
	const char *const info[] = {
		"INAM", "Wäve tïtle", "IART", "Caf\xe9 Band", "IPRD", "Rïff Album",
		"IGNR", "Ambient", "ICRD", "2010-01-01", "ITRK", "4/10", NULL,
	};
	g_autofree char *path = make_wav("tagged.wav", 22050, 2, info);
	g_autoptr(KmProperties) props = import_ok(path);

	assert_prop(props, "type", "tune");
	assert_prop(props, "codec", "wave");
	assert_prop(props, "title", "Wäve tïtle");
	assert_prop(props, "artist", "Café Band");
	assert_prop(props, "source", "Rïff Album");
	assert_prop(props, "genre", "Ambient");
	assert_prop(props, "year", "2010");
	assert_prop(props, "tracknr", "4");
	assert_prop(props, "samplerate", "22050");
	assert_prop(props, "bitrate", "fs705");	/* 22050 × 2 × 16 bit */
	assert_duration(props, SECONDS * 1000, 0);
	assert_prop(props, "offset", "0");
	assert_prop(props, "trailer", "0");
	assert_object(props, path, 0);
}

/* CD quality is 1411 kbit/s: capped at 999 as libkarma does. */
static void test_wav_cd(void)
{
	g_autofree char *path = make_wav("cd.wav", 44100, 2, NULL);
	g_autoptr(KmProperties) props = import_ok(path);

	assert_prop(props, "title", "cd");
	assert_prop(props, "bitrate", "fs999");
	assert_prop(props, "samplerate", "44100");
}

static void test_wma(void)
{
	g_autofree char *wav = NULL, *path = NULL;
	g_autoptr(KmProperties) props = NULL;

	if (!have("ffmpeg"))
		return;
	wav = make_wav("wma-source.wav", 44100, 2, NULL);
	path = tmp_path("tags.wma");
	run((const char *const[]){ "ffmpeg", "-loglevel", "error", "-y", "-i", wav,
				   "-c:a", "wmav2", "-b:a", "96k", "-metadata", "title=Wmä tïtle",
				   "-metadata", "artist=Wmä Ärtist", "-metadata", "album=Wmä Album",
				   "-metadata", "genre=Pop", "-metadata", "WM/Year=2003",
				   "-metadata", "track=7/9", path, NULL });
	props = import_ok(path);
	assert_prop(props, "codec", "wma");
	assert_prop(props, "title", "Wmä tïtle");
	assert_prop(props, "artist", "Wmä Ärtist");
	assert_prop(props, "source", "Wmä Album");
	assert_prop(props, "genre", "Pop");
	assert_prop(props, "year", "2003");
	assert_prop(props, "tracknr", "7");
	assert_prop(props, "samplerate", "44100");
	assert_prop(props, "bitrate", "fs96");
	assert_duration(props, SECONDS * 1000, 100);
	assert_prop(props, "offset", "0");
	assert_prop(props, "trailer", "0");
	assert_object(props, path, 0);
}

/* The content decides, not the name. */
static void test_by_content(void)
{
	g_autofree char *wav = make_wav("content.wav", 8000, 1, NULL);
	g_autofree char *odd = tmp_path("really-a-wav.mp3");
	g_autofree char *bare = tmp_path("noextension");
	g_autoptr(GBytes) data = read_file(wav);
	g_autoptr(KmProperties) a = NULL;
	g_autoptr(KmProperties) b = NULL;

	write_file(odd, g_bytes_get_data(data, NULL), g_bytes_get_size(data));
	a = import_ok(odd);
	assert_prop(a, "codec", "wave");
	assert_prop(a, "title", "really-a-wav");
	if (!have("flac"))
		return;
	run((const char *const[]){ "flac", "-s", "-f", "-T", "TITLE=Bare", wav, "-o", bare,
				   NULL });
	b = import_ok(bare);
	assert_prop(b, "codec", "flac");
	assert_prop(b, "title", "Bare");
}

/* ---- refused files ------------------------------------------------------ */

static void test_refuse_small_and_text(void)
{
	g_autofree char *text = tmp_path("notes.txt");
	g_autofree char *tiny = tmp_path("tiny.mp3");
	g_autofree char *missing = tmp_path("missing.mp3");
	g_autofree char *blob = g_strnfill(100, 'x');
	g_autoptr(GString) prose = g_string_new(NULL);
	guint i;

	for (i = 0; i < 20; i++)
		g_string_append(prose, "This is not a song, only some words.\n");
	write_file(text, prose->str, prose->len);
	assert_refused(text, 0, KM_IMPORT_ERROR_NOT_AUDIO, "not an audio file");
	write_file(tiny, blob, 100);
	assert_refused(tiny, 0, KM_IMPORT_ERROR_TOO_SMALL, "too small");
	assert_refused(missing, 0, KM_IMPORT_ERROR_READ, "cannot open");
	assert_refused(missing, KM_IMPORT_TAXI_FALLBACK, KM_IMPORT_ERROR_READ, "cannot open");
	assert_refused(tmpdir, 0, KM_IMPORT_ERROR_READ, "not a regular file");
}

static void refuse_ffmpeg(const char *name, const char *const *codec, const char *reason)
{
	g_autofree char *wav = make_wav("ffmpeg-source.wav", 44100, 2, NULL);
	g_autofree char *path = tmp_path(name);
	GPtrArray *argv = g_ptr_array_new();

	argv_add(argv, "ffmpeg");
	argv_add(argv, "-loglevel");
	argv_add(argv, "error");
	argv_add(argv, "-y");
	argv_add(argv, "-i");
	g_ptr_array_add(argv, wav);
	for (; *codec; codec++)
		argv_add(argv, *codec);
	g_ptr_array_add(argv, path);
	g_ptr_array_add(argv, NULL);
	run((const char *const *)argv->pdata);
	g_ptr_array_free(argv, TRUE);
	assert_refused(path, 0, KM_IMPORT_ERROR_UNSUPPORTED, reason);
}

static void test_refuse_unplayable(void)
{
	g_autofree char *flt = make_wav_format("float.wav", 8000, 1, 1, 3, NULL);

	assert_refused(flt, 0, KM_IMPORT_ERROR_UNSUPPORTED, "not PCM");
	if (!have("ffmpeg"))
		return;
	refuse_ffmpeg("adts.aac", (const char *const[]){ "-c:a", "aac", "-f", "adts", NULL },
		      "AAC audio (ADTS");
	refuse_ffmpeg("music.m4a", (const char *const[]){ "-c:a", "aac", NULL }, "MP4/M4A");
	refuse_ffmpeg("layer2.mp2", (const char *const[]){ "-c:a", "mp2", NULL },
		      "MPEG-1 Layer II audio (MP2)");
	refuse_ffmpeg("voice.opus", (const char *const[]){ "-c:a", "libopus", NULL },
		      "Ogg Opus");
	/* ASF, but with MP3 audio in it rather than WMA. */
	refuse_ffmpeg("mp3-in.asf", (const char *const[]){ "-c:a", "libmp3lame", "-f", "asf", NULL },
		      "codec 0x0055");
}

static void test_refuse_truncated(void)
{
	const char *const vbr_options[] = {
		"-V", "2", "--pad-id3v2-size", "1000", "--tt", "Cut", NULL,
	};
	g_autofree char *mp3 = NULL, *cut = NULL, *in_tag = NULL, *no_frames = NULL;
	g_autoptr(GBytes) data = NULL;
	g_autoptr(GByteArray) junk = g_byte_array_new();
	guint64 tag;

	if (!have("lame"))
		return;
	mp3 = make_mp3("whole.mp3", vbr_options);
	data = read_file(mp3);
	tag = id3v2_size(data);
	g_assert_cmpuint(tag, >, 0);
	/* Cut inside the ID3v2 tag. */
	in_tag = truncated_copy(mp3, "cut-in-tag.mp3", tag - 10);
	assert_refused(in_tag, 0, KM_IMPORT_ERROR_DAMAGED, "ID3v2 tag says");
	/* Cut in the middle of the audio: the Xing header knows better. */
	cut = truncated_copy(mp3, "half.mp3", g_bytes_get_size(data) / 2);
	assert_refused(cut, 0, KM_IMPORT_ERROR_DAMAGED, "truncated");
	/* A tag and then nothing that looks like MPEG audio. */
	g_byte_array_append(junk, g_bytes_get_data(data, NULL), tag);
	g_byte_array_set_size(junk, tag + 300);
	memset(junk->data + tag, 0, 300);
	no_frames = tmp_path("no-frames.mp3");
	write_file(no_frames, junk->data, junk->len);
	assert_refused(no_frames, 0, KM_IMPORT_ERROR_DAMAGED, "no MPEG audio frames");
}

static void test_refuse_truncated_others(void)
{
	g_autofree char *wav = make_wav("whole.wav", 8000, 1, NULL);
	g_autofree char *wav_cut = truncated_copy(wav, "cut.wav", 3000);
	g_autofree char *ogg = NULL, *ogg_cut = NULL, *flac = NULL, *flac_cut = NULL;
	g_autoptr(GBytes) data = NULL;

	assert_refused(wav_cut, 0, KM_IMPORT_ERROR_DAMAGED, "WAV data chunk says");
	if (have("oggenc")) {
		ogg = tmp_path("whole.ogg");
		run((const char *const[]){ "oggenc", "-Q", "-t", "x", wav, "-o", ogg, NULL });
		data = read_file(ogg);
		ogg_cut = truncated_copy(ogg, "cut.ogg", g_bytes_get_size(data) - 100);
		assert_refused(ogg_cut, 0, KM_IMPORT_ERROR_DAMAGED, "Ogg page");
	}
	if (have("flac")) {
		flac = tmp_path("whole.flac");
		run((const char *const[]){ "flac", "-s", "-f", "--padding=4096", wav, "-o", flac,
					   NULL });
		flac_cut = truncated_copy(flac, "cut.flac", 2000);
		assert_refused(flac_cut, 0, KM_IMPORT_ERROR_DAMAGED, "FLAC metadata");
	}
}

/* ---- taxi ----------------------------------------------------------------- */

static void test_taxi(void)
{
	g_autofree char *text = tmp_path("Read me.txt");
	g_autofree char *tiny = tmp_path("tiny.bin");
	const char *content = "Not music at all, but worth keeping on the player.\n";
	g_autoptr(KmProperties) props = NULL;
	g_autoptr(KmProperties) small = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *rid = NULL;
	g_autoptr(GBytes) data = NULL;

	write_file(text, content, strlen(content));
	props = km_import_file(text, KM_IMPORT_TAXI_FALLBACK, &error);
	g_assert_no_error(error);
	assert_prop(props, "type", "taxi");
	assert_prop(props, "codec", "taxi");
	assert_prop(props, "title", "Read me.txt");
	assert_prop(props, "duration", "0");
	assert_prop(props, "offset", "0");
	assert_prop(props, "artist", NULL);
	assert_prop(props, "bitrate", NULL);
	assert_object(props, text, 0);
	data = read_file(text);
	rid = g_compute_checksum_for_bytes(G_CHECKSUM_MD5, data);
	assert_prop(props, "rid", rid);

	write_file(tiny, "\x01\x02\x03", 3);
	small = km_import_file(tiny, KM_IMPORT_TAXI_FALLBACK, &error);
	g_assert_no_error(error);
	assert_prop(small, "type", "taxi");
	assert_prop(small, "length", "3");
}

/* ---- against riocp ---------------------------------------------------------- */

struct riocp_case {
	const char *name;
	const char *const *argv;	/* the encoder, with SRC and DST for the paths */
	guint seconds;
};

static const char *const lame_cbr[] = { "lame", "--quiet", "-b", "32", "--resample", "8",
	"--add-id3v2", "--tt", "Cbr", "--ta", "Ärtist", "--tl", "Album", "--ty", "1999",
	"--tn", "3", "SRC", "DST", NULL };
static const char *const lame_vbr[] = { "lame", "--quiet", "-V", "5", "--resample", "8",
	"--id3v1-only", "--tt", "Vbr", "SRC", "DST", NULL };
static const char *const lame_bare[] = { "lame", "--quiet", "-b", "16", "--resample", "8",
	"SRC", "DST", NULL };
static const char *const ogg_tags[] = { "oggenc", "-Q", "-t", "Oggy", "-a", "Ögg Artist",
	"-l", "Ögg Album", "-N", "4", "-d", "2002", "-G", "Pop", "SRC", "-o", "DST", NULL };
static const char *const flac_tags[] = { "flac", "-s", "-f", "-T", "TITLE=Flacky",
	"-T", "ARTIST=Fläc", "-T", "DATE=2007", "-T", "TRACKNUMBER=11", "SRC", "-o", "DST",
	NULL };

/* Short files (under 64 KiB of audio) and long ones take the two paths of the rid. */
static const struct riocp_case riocp_cases[] = {
	{ "cbr-short.mp3", lame_cbr, 3 },
	{ "cbr-long.mp3", lame_cbr, 40 },
	{ "vbr-short.mp3", lame_vbr, 3 },
	{ "vbr-long.mp3", lame_vbr, 40 },
	{ "bare.mp3", lame_bare, 3 },
	{ "short.ogg", ogg_tags, 3 },
	{ "long.ogg", ogg_tags, 40 },
	{ "short.flac", flac_tags, 3 },
	{ "long.flac", flac_tags, 20 },
};

static char *make_riocp_case(const struct riocp_case *c)
{
	g_autofree char *src_name = g_strdup_printf("riocp-%u.wav", c->seconds);
	g_autofree char *src = make_wav_format(src_name, 8000, 1, c->seconds, 1, NULL);
	char *dst = tmp_path(c->name);
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	const char *const *a;

	for (a = c->argv; *a; a++)
		argv_add(argv, strcmp(*a, "SRC") == 0 ? src : strcmp(*a, "DST") == 0 ? dst : *a);
	g_ptr_array_add(argv, NULL);
	run((const char *const *)argv->pdata);
	return dst;
}

/* The "…1" file riocp wrote for the nth upload (fids from 0x110 up, in order). */
static KmProperties *riocp_props(const char *music, guint n)
{
	g_autofree char *name = g_strdup_printf("fids0/_00000/%03x", 0x110 + 0x10 * n + 1);
	g_autofree char *path = g_build_filename(music, name, NULL);
	g_autoptr(GBytes) data = read_file(path);
	g_autoptr(GError) error = NULL;
	KmProperties *props = km_properties_parse(g_bytes_get_data(data, NULL),
						  g_bytes_get_size(data), &error);

	g_assert_no_error(error);
	return props;
}

static void compare_with_riocp(KmProperties *ours, KmProperties *theirs, const char *name)
{
	/* What both derive the same way (duration and MP3 bitrates they do not). */
	static const char *const same[] = {
		"rid", "codec", "type", "title", "length", "samplerate", "year", "tracknr",
	};
	const char *codec = km_properties_get(ours, "codec");
	gsize i;

	g_test_message("%s: rid %s", name, km_properties_get(ours, "rid"));
	for (i = 0; i < G_N_ELEMENTS(same); i++) {
		const char *a = km_properties_get(ours, same[i]);
		const char *b = km_properties_get(theirs, same[i]);

		/* riocp's untagged title keeps the extension. */
		if (strcmp(same[i], "title") == 0 && g_str_has_prefix(name, "bare"))
			continue;
		if (g_strcmp0(a, b) != 0)
			g_error("%s: %s is %s here, %s for riocp", name, same[i], a, b);
	}
	/* riocp fills absent tags with "unTagged". */
	if (km_properties_get(ours, "artist"))
		assert_prop(theirs, "artist", km_properties_get(ours, "artist"));
	if (strcmp(codec, "mp3") == 0)
		assert_prop(theirs, "offset", km_properties_get(ours, "offset"));
	else
		assert_prop(theirs, "bitrate", km_properties_get(ours, "bitrate"));
}

static void test_riocp(void)
{
	g_autofree char *riocp = g_find_program_in_path("riocp");
	g_autofree char *music = tmp_path("riocp-music");
	g_autofree char *home = tmp_path("riocp-home");
	g_autofree char *home_env = g_strconcat("HOME=", home, NULL);
	g_autofree char *wav = NULL;
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	gsize i;

	if (!riocp) {
		g_test_skip("riocp (karma-tools) is not installed");
		return;
	}
	if (!have("lame") || !have("oggenc") || !have("flac"))
		return;
	for (i = 0; i < G_N_ELEMENTS(riocp_cases); i++)
		g_ptr_array_add(files, make_riocp_case(&riocp_cases[i]));
	/* A WAV: riocp keeps it as a taxi file, with the same rid rule. */
	wav = make_wav("riocp.wav", 8000, 1, NULL);
	g_assert_cmpint(g_mkdir_with_parents(music, 0755), ==, 0);
	g_assert_cmpint(g_mkdir_with_parents(home, 0755), ==, 0);
	{
		g_autofree char *fids = g_build_filename(music, "fids0", NULL);
		g_autofree char *var = g_build_filename(music, "var", NULL);

		g_assert_cmpint(g_mkdir(fids, 0755), ==, 0);
		g_assert_cmpint(g_mkdir(var, 0755), ==, 0);
	}
	argv_add(argv, "env");
	argv_add(argv, home_env);
	argv_add(argv, "riocp");
	argv_add(argv, "-f");	/* no duplicate check: upload everything */
	argv_add(argv, "-a");
	g_ptr_array_add(argv, music);
	for (i = 0; i < files->len; i++)
		g_ptr_array_add(argv, files->pdata[i]);
	g_ptr_array_add(argv, wav);
	g_ptr_array_add(argv, NULL);
	run((const char *const *)argv->pdata);

	for (i = 0; i < files->len; i++) {
		g_autoptr(KmProperties) ours = import_ok(files->pdata[i]);
		g_autoptr(KmProperties) theirs = riocp_props(music, (guint)i);

		compare_with_riocp(ours, theirs, riocp_cases[i].name);
	}
	{
		g_autoptr(KmProperties) ours = import_ok(wav);
		g_autoptr(KmProperties) theirs = riocp_props(music, files->len);

		assert_prop(theirs, "type", "taxi");
		assert_prop(theirs, "rid", km_properties_get(ours, "rid"));
	}
}

int main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	int status;

	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("km-import-XXXXXX", &error);
	g_assert_no_error(error);
	test_start = g_get_real_time() / G_USEC_PER_SEC;

	g_test_add_func("/import/mp3/cbr-id3v2", test_mp3_cbr_id3v2);
	g_test_add_func("/import/mp3/vbr-id3v1", test_mp3_vbr_id3v1);
	g_test_add_func("/import/mp3/untagged", test_mp3_untagged);
	g_test_add_func("/import/mp3/mpeg-2.5", test_mp3_mpeg25);
	g_test_add_func("/import/vorbis", test_vorbis);
	g_test_add_func("/import/flac", test_flac);
	g_test_add_func("/import/flac/cleanup", test_flac_cleanup);
	g_test_add_func("/import/wav", test_wav);
	g_test_add_func("/import/wav/cd", test_wav_cd);
	g_test_add_func("/import/wma", test_wma);
	g_test_add_func("/import/by-content", test_by_content);
	g_test_add_func("/import/refuse/small-and-text", test_refuse_small_and_text);
	g_test_add_func("/import/refuse/unplayable", test_refuse_unplayable);
	g_test_add_func("/import/refuse/truncated-mp3", test_refuse_truncated);
	g_test_add_func("/import/refuse/truncated-others", test_refuse_truncated_others);
	g_test_add_func("/import/taxi", test_taxi);
	g_test_add_func("/import/riocp", test_riocp);
	status = g_test_run();

	remove_tree(tmpdir);
	g_free(tmpdir);
	return status;
}
