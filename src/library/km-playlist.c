/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-playlist.c - the binary playlist blob (docs/KARMA.md §8). */
#include "km-playlist.h"

#include "km-library.h"

static guint32 get_le32(const guint8 *p)
{
	return (guint32)p[0] | (guint32)p[1] << 8 | (guint32)p[2] << 16 | (guint32)p[3] << 24;
}

static void put_le32(guint8 *p, guint32 v)
{
	p[0] = (guint8)v;
	p[1] = (guint8)(v >> 8);
	p[2] = (guint8)(v >> 16);
	p[3] = (guint8)(v >> 24);
}

GArray *km_playlist_parse(GBytes *blob, GError **error)
{
	gsize len;
	const guint8 *data = g_bytes_get_data(blob, &len);
	GArray *entries;
	gsize n;

	if (len < KM_PLAYLIST_HEADER_SIZE || get_le32(data) != KM_PLAYLIST_MAGIC) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_CORRUPT,
			    "a playlist of %" G_GSIZE_FORMAT " bytes does not start with 0x%08x",
			    len, KM_PLAYLIST_MAGIC);
		return NULL;
	}
	if ((len - KM_PLAYLIST_HEADER_SIZE) % KM_PLAYLIST_ENTRY_SIZE) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_CORRUPT,
			    "a playlist of %" G_GSIZE_FORMAT " bytes ends inside an entry", len);
		return NULL;
	}
	n = (len - KM_PLAYLIST_HEADER_SIZE) / KM_PLAYLIST_ENTRY_SIZE;
	entries = g_array_sized_new(FALSE, FALSE, sizeof(KmPlaylistEntry), (guint)n);
	for (gsize i = 0; i < n; i++) {
		const guint8 *e = data + KM_PLAYLIST_HEADER_SIZE + i * KM_PLAYLIST_ENTRY_SIZE;
		KmPlaylistEntry entry = { get_le32(e), get_le32(e + 4) };

		g_array_append_val(entries, entry);
	}
	return entries;
}

GBytes *km_playlist_build(const GArray *entries)
{
	guint n = entries ? entries->len : 0;
	gsize len = KM_PLAYLIST_HEADER_SIZE + (gsize)n * KM_PLAYLIST_ENTRY_SIZE;
	guint8 *data = g_malloc(len);

	put_le32(data, KM_PLAYLIST_MAGIC);
	for (guint i = 0; i < n; i++) {
		const KmPlaylistEntry *entry = &g_array_index(entries, KmPlaylistEntry, i);
		guint8 *e = data + KM_PLAYLIST_HEADER_SIZE + (gsize)i * KM_PLAYLIST_ENTRY_SIZE;

		put_le32(e, entry->fid);
		put_le32(e + 4, entry->generation);
	}
	return g_bytes_new_take(data, len);
}

GArray *km_playlist_from_properties(const KmProperties *props, GError **error)
{
	g_autoptr(GBytes) blob = km_properties_get_blob(props, "playlist");

	if (!blob || g_bytes_get_size(blob) == 0)
		return g_array_new(FALSE, FALSE, sizeof(KmPlaylistEntry));
	return km_playlist_parse(blob, error);
}

void km_playlist_to_properties(KmProperties *props, const GArray *entries)
{
	g_autoptr(GBytes) blob = km_playlist_build(entries);

	km_properties_set_blob(props, "playlist", blob);
	km_properties_set_uint(props, "length", g_bytes_get_size(blob));
}
