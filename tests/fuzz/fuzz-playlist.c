/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-playlist.c - fuzz target: the input is a playlist blob. What
 * km_playlist_parse() accepts has (size - 4) / 8 entries, builds back to
 * the same bytes, and goes through the `playlist` property (escaped, in a
 * properties file) and back unchanged.
 */
#include "fuzz-target.h"
#include "km-playlist.h"

#include <stdio.h>
#include <string.h>

static const char *through_properties(GArray *entries)
{
	g_autoptr(KmProperties) props = km_properties_new();
	g_autoptr(KmProperties) parsed = NULL;
	g_autoptr(GBytes) file = NULL;
	g_autoptr(GArray) back = NULL;
	g_autoptr(GError) error = NULL;

	km_playlist_to_properties(props, entries);
	file = km_properties_serialize(props);
	parsed = km_properties_parse(g_bytes_get_data(file, NULL), g_bytes_get_size(file), &error);
	if (!parsed)
		return "the properties file holding the playlist does not parse";
	back = km_playlist_from_properties(parsed, &error);
	if (!back)
		return "the playlist property does not read back";
	if (back->len != entries->len || (entries->len &&
	    memcmp(back->data, entries->data, entries->len * sizeof(KmPlaylistEntry))))
		return "the playlist read back from its property differs";
	return NULL;
}

const char *fuzz_target_run(const uint8_t *data, size_t size, char *note, size_t notelen)
{
	g_autoptr(GBytes) blob = g_bytes_new_static(data, size);
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) entries = km_playlist_parse(blob, &error);
	g_autoptr(GBytes) built = NULL;

	if (!entries) {
		snprintf(note, notelen, "refused: %s", error->message);
		return error->message[0] ? NULL : "parse failed without a message";
	}
	snprintf(note, notelen, "%u entries", entries->len);
	if (entries->len != (size - KM_PLAYLIST_HEADER_SIZE) / KM_PLAYLIST_ENTRY_SIZE)
		return "the entry count does not match the blob's size";
	built = km_playlist_build(entries);
	if (!g_bytes_equal(built, blob))
		return "build did not give back the blob parsed";
	return through_properties(entries);
}
