/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-demo.c - the demo tracks: PCM WAV files with RIFF INFO tags, imported
 * through the same path as the user's own files (taglib, km-import.c).
 */
#include "km-demo.h"
#include "omfs.h"

#include <glib/gstdio.h>
#include <string.h>
#include <time.h>

#include "km-image-device.h"
#include "km-import.h"
#include "km-karma-image.h"

#define DEMO_RATE 8000u
#define DEMO_MIN_SECONDS 2u

struct demo_track {
	const char *artist;
	const char *album;
	const char *genre;
	char *title;
	unsigned year;
	unsigned tracknr;
	unsigned seconds;
	unsigned pitch;		/* Hz */
};

/*
 * Several artists with a leading "The ", which smalldb sorts by the rest of the
 * name; a quote and a backslash, which JSON must escape.
 */
static const struct {
	const char *artist;
	const char *genre;
	const char *albums[2];
	unsigned year;
} demo_artists[] = {
	{ "The Beatniks", "Rock", { "Sparse Files", "Cluster Bombs" }, 1966 },
	{ "Ada Lovelace Trio", "Jazz", { "Analytical Engine", "Notes" }, 1843 },
	{ "Mirror Block", "Electronic", { "Checksum", "Fresh\\Buffers" }, 2004 },
	{ "The Inodes", "Punk", { "Unlinked", "Orphans" }, 1979 },
	{ "Élodie Fréquence", "Chanson", { "Café Bitmap", "Été" }, 1998 },
	{ "Rio", "Pop", { "\"Live\" at Block 0", "Karma II" }, 2003 },
	{ "The The", "Alternative", { "Soul Mining", "Infected" }, 1983 },
};

static const char *const demo_words[] = {
	"Blue", "Midnight", "Signal", "Journal", "Falling", "Sector", "Echo", "Window",
	"Silver", "Mirror", "Quiet", "Orbit", "Static", "Harbour", "Paper", "Engine",
};

static void demo_track_init(struct demo_track *t, unsigned i)
{
	unsigned na = G_N_ELEMENTS(demo_artists), nw = G_N_ELEMENTS(demo_words);
	unsigned a = i % na, round = i / na;

	t->artist = demo_artists[a].artist;
	t->genre = demo_artists[a].genre;
	t->album = demo_artists[a].albums[round % 2];
	t->year = demo_artists[a].year + round % 2;
	t->tracknr = round / 2 + 1;
	t->title = g_strdup_printf("%s %s", demo_words[(i * 7) % nw], demo_words[(i * 3 + 5) % nw]);
	t->seconds = DEMO_MIN_SECONDS + i % 3;
	t->pitch = 220 + 55 * (i % 12);
}

static void put_le16(GByteArray *b, unsigned v)
{
	guint8 x[2] = { v & 0xff, (v >> 8) & 0xff };

	g_byte_array_append(b, x, sizeof(x));
}

static void put_le32(GByteArray *b, uint32_t v)
{
	guint8 x[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };

	g_byte_array_append(b, x, sizeof(x));
}

static void put_chunk_header(GByteArray *b, const char *id, uint32_t size)
{
	g_byte_array_append(b, (const guint8 *)id, 4);
	put_le32(b, size);
}

/* An INFO sub-chunk: the text NUL-terminated, padded to an even size. */
static void put_info_text(GByteArray *b, const char *id, const char *text)
{
	uint32_t len = (uint32_t)strlen(text) + 1;
	static const guint8 zero[2];

	put_chunk_header(b, id, len);
	g_byte_array_append(b, (const guint8 *)text, len - 1);
	g_byte_array_append(b, zero, 1 + (len & 1));
}

static void put_info_list(GByteArray *b, const struct demo_track *t)
{
	GByteArray *list = g_byte_array_new();
	char year[16], track[16];

	g_snprintf(year, sizeof(year), "%u", t->year);
	g_snprintf(track, sizeof(track), "%u", t->tracknr);
	g_byte_array_append(list, (const guint8 *)"INFO", 4);
	put_info_text(list, "INAM", t->title);
	put_info_text(list, "IART", t->artist);
	put_info_text(list, "IPRD", t->album);
	put_info_text(list, "IGNR", t->genre);
	put_info_text(list, "ICRD", year);
	put_info_text(list, "ITRK", track);
	put_chunk_header(b, "LIST", list->len);
	g_byte_array_append(b, list->data, list->len);
	g_byte_array_unref(list);
}

/* A triangle wave at t->pitch, fading in and out so that it does not click. */
static void put_tone(GByteArray *b, const struct demo_track *t)
{
	uint32_t n = t->seconds * DEMO_RATE, fade = DEMO_RATE / 20, period = DEMO_RATE / t->pitch;
	uint32_t i;

	for (i = 0; i < n; i++) {
		int32_t phase = (int32_t)(i % period);
		int32_t tri = 4 * 12000 * phase / (int32_t)period;	/* 0 .. 48000 */
		uint32_t edge = MIN(i, n - 1 - i);
		int32_t v = tri < 24000 ? tri - 12000 : 36000 - tri;

		if (edge < fade)
			v = v * (int32_t)edge / (int32_t)fade;
		put_le16(b, (unsigned)(uint16_t)(int16_t)v);
	}
}

/* PCM 16-bit mono WAV: RIFF, fmt, LIST/INFO (the tags), data. */
static GBytes *demo_wav(const struct demo_track *t)
{
	GByteArray *b = g_byte_array_new();
	uint32_t data_len = t->seconds * DEMO_RATE * 2;

	put_chunk_header(b, "RIFF", 0);	/* size patched below */
	g_byte_array_append(b, (const guint8 *)"WAVE", 4);
	put_chunk_header(b, "fmt ", 16);
	put_le16(b, 1);			/* PCM */
	put_le16(b, 1);			/* mono */
	put_le32(b, DEMO_RATE);
	put_le32(b, DEMO_RATE * 2);	/* bytes per second */
	put_le16(b, 2);			/* block align */
	put_le16(b, 16);		/* bits per sample */
	put_info_list(b, t);
	put_chunk_header(b, "data", data_len);
	put_tone(b, t);
	b->data[4] = (b->len - 8) & 0xff;
	b->data[5] = ((b->len - 8) >> 8) & 0xff;
	b->data[6] = ((b->len - 8) >> 16) & 0xff;
	b->data[7] = (b->len - 8) >> 24;
	return g_byte_array_free_to_bytes(b);
}

GBytes *km_demo_track_wav(guint i)
{
	struct demo_track t;
	GBytes *wav;

	demo_track_init(&t, i);
	wav = demo_wav(&t);
	g_free(t.title);
	return wav;
}

/* Writes track i to a file in dir, imports it and adds it to tx. */
static gboolean add_demo_track(KmTransaction *tx, const char *dir, guint i, GError **error)
{
	char *path = g_strdup_printf("%s/demo-%u.wav", dir, i);
	GBytes *wav = km_demo_track_wav(i);
	KmProperties *props = NULL;
	gboolean ok;
	guint32 fid;

	ok = g_file_set_contents(path, g_bytes_get_data(wav, NULL), (gssize)g_bytes_get_size(wav),
				 error);
	if (ok)
		props = km_import_file(path, KM_IMPORT_FLAGS_NONE, error);
	ok = props && km_transaction_add_file(tx, props, path, NULL, NULL, NULL, &fid, error);
	if (props)
		km_properties_unref(props);
	g_unlink(path);
	g_bytes_unref(wav);
	g_free(path);
	return ok;
}

gboolean km_demo_add_tracks(KmTransaction *tx, guint n, GCancellable *cancellable,
			    GError **error)
{
	char *dir = g_dir_make_tmp("karma-demo-XXXXXX", error);
	gboolean ok = dir != NULL;
	guint i;

	for (i = 0; ok && i < n; i++)
		ok = !g_cancellable_set_error_if_cancelled(cancellable, error) &&
		     add_demo_track(tx, dir, i, error);
	if (dir)
		g_rmdir(dir);
	g_free(dir);
	return ok;
}

/* Every track in one transaction, committed once: smalldb is written once. */
static gboolean fill_image(const char *path, guint n, GCancellable *cancellable, GError **error)
{
	KmLibraryOptions options = { .writable = TRUE };
	char msg[OMFS_ERRMSG_MAX] = "";
	struct km_image_device *dev;
	KmLibrary *lib;
	KmTransaction *tx;
	gboolean ok;

	dev = km_image_device_open(path, true, 0, 0, msg, sizeof(msg));
	if (!dev) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO, "%s", msg);
		return FALSE;
	}
	lib = km_library_open(km_image_device_blockdev(dev), &options, error);
	tx = lib ? km_library_begin(lib, error) : NULL;
	ok = tx && km_demo_add_tracks(tx, n, cancellable, error) &&
	     km_transaction_commit(tx, error);
	g_clear_object(&tx);	/* an uncommitted transaction rolls back */
	if (lib) {
		ok = km_library_close(lib, ok ? error : NULL) && ok;
		g_object_unref(lib);
	}
	if (km_image_device_close(dev) < 0 && ok) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO, "%s: close failed", path);
		ok = FALSE;
	}
	return ok;
}

gboolean km_demo_create_image(const char *path, guint64 size, guint n,
			      GCancellable *cancellable, GError **error)
{
	if (n > KM_DEMO_MAX_TRACKS) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID,
			    "%u demo tracks: %u at most", n, KM_DEMO_MAX_TRACKS);
		return FALSE;
	}
	if (km_karma_image_create(path, size, (guint32)time(NULL), error) &&
	    fill_image(path, n, cancellable, error))
		return TRUE;
	g_unlink(path);
	return FALSE;
}
