/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench-library-fill.c - the large library of the library benchmark
 * (library-bench.sh): a whole Karma disk image with N tracks, made quickly
 * by adding tiny data files with made-up tags straight through one
 * transaction (no audio to import), so smalldb holds N full rows.
 *   bench-library-fill IMAGE SIZE_MIB N
 */
#include <gio/gio.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "km-image-device.h"
#include "omfs.h"
#include "km-karma-image.h"
#include "km-transaction.h"

/* Tags as varied as a real collection's: many artists, albums, genres. */
static KmProperties *track_props(guint i)
{
	static const char *const genres[] = { "Rock", "Jazz", "Pop", "Blues", "Folk", "Soul",
					      "Metal", "Electronic", "Classical", "Hip-Hop" };
	KmProperties *p = km_properties_new();
	char buf[96];

	km_properties_set(p, "type", "tune");
	km_properties_set(p, "codec", "mp3");
	g_snprintf(buf, sizeof(buf), "Song number %u of the benchmark", i);
	km_properties_set(p, "title", buf);
	g_snprintf(buf, sizeof(buf), "%sArtist %u", i % 7 ? "" : "The ", i / 12);
	km_properties_set(p, "artist", buf);
	g_snprintf(buf, sizeof(buf), "Album %u", i / 12);
	km_properties_set(p, "source", buf);
	km_properties_set(p, "genre", genres[i % G_N_ELEMENTS(genres)]);
	km_properties_set_uint(p, "year", 1960 + i % 60);
	km_properties_set_uint(p, "tracknr", i % 12 + 1);
	km_properties_set_uint(p, "duration", 180000 + i % 120000);
	km_properties_set_uint(p, "samplerate", 44100);
	km_properties_set(p, "bitrate", "fs192");
	km_properties_set_uint(p, "offset", 0);
	g_snprintf(buf, sizeof(buf), "%032x", i);
	km_properties_set(p, "rid", buf);
	return p;
}

static gboolean add_tracks(KmTransaction *tx, guint n, GError **error)
{
	static const guint8 data[200];

	for (guint i = 0; i < n; i++) {
		g_autoptr(KmProperties) props = track_props(i);
		g_autoptr(GInputStream) in = g_memory_input_stream_new_from_data(data, sizeof(data),
										  NULL);

		if (!km_transaction_add_stream(tx, props, in, sizeof(data), NULL, NULL, NULL, NULL,
					       error))
			return FALSE;
	}
	return TRUE;
}

static gboolean fill(const char *path, guint n, GError **error)
{
	KmLibraryOptions options = { .writable = TRUE };
	char msg[OMFS_ERRMSG_MAX] = "";
	struct km_image_device *dev = km_image_device_open(path, true, 0, 0, msg, sizeof(msg));
	g_autoptr(KmTransaction) tx = NULL;
	g_autoptr(KmLibrary) lib = NULL;
	gboolean ok;

	if (!dev) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path, msg);
		return FALSE;
	}
	lib = km_library_open(km_image_device_blockdev(dev), &options, error);
	tx = lib ? km_library_begin(lib, error) : NULL;
	ok = tx && add_tracks(tx, n, error) && km_transaction_commit(tx, error);
	ok = lib && km_library_close(lib, ok ? error : NULL) && ok;
	return km_image_device_close(dev) == 0 && ok;
}

int main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	guint64 size_mib, n;

	if (argc != 4 || !g_ascii_string_to_unsigned(argv[2], 10, 32, 1 << 20, &size_mib, NULL) ||
	    !g_ascii_string_to_unsigned(argv[3], 10, 0, 1000000, &n, NULL)) {
		fprintf(stderr, "usage: bench-library-fill IMAGE SIZE_MIB N\n");
		return 2;
	}
	if (!km_karma_image_create(argv[1], size_mib << 20, (guint32)time(NULL), &error) ||
	    !fill(argv[1], (guint)n, &error)) {
		fprintf(stderr, "bench-library-fill: %s\n", error ? error->message : "failed");
		return 1;
	}
	return 0;
}
