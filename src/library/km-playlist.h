/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-playlist.h - the binary playlist of a `type=playlist` object
 * (docs/KARMA.md §8): LE32 0x000002FF, then per entry LE32 fid
 * and LE32 fid_generation. libkarma stores it twice: escaped as the
 * `playlist` property, and as the object's data file.
 *
 * An entry names a track only while the track's fid_generation is the
 * entry's: a fid that was freed and handed out again gets a greater
 * generation, so an old entry does not pick up the new track.
 */
#ifndef KM_PLAYLIST_H
#define KM_PLAYLIST_H

#include <glib.h>

#include "km-properties.h"

G_BEGIN_DECLS

#define KM_PLAYLIST_MAGIC 0x000002FFu
#define KM_PLAYLIST_HEADER_SIZE 4u
#define KM_PLAYLIST_ENTRY_SIZE 8u
/* The device setting max_playlist_entries. */
#define KM_PLAYLIST_MAX_ENTRIES 15000u

typedef struct {
	guint32 fid;
	guint32 generation;
} KmPlaylistEntry;

/*
 * The entries (GArray of KmPlaylistEntry) of a blob; an error when it is
 * shorter than the header, has another header, or ends inside an entry.
 * More than KM_PLAYLIST_MAX_ENTRIES are read (the limit is the device's, for
 * what we write).
 */
GArray *km_playlist_parse(GBytes *blob, GError **error);
/* The blob for entries (a GArray of KmPlaylistEntry, or NULL for none). */
GBytes *km_playlist_build(const GArray *entries);
/* A playlist object's entries; an absent `playlist` property is an empty list. */
GArray *km_playlist_from_properties(const KmProperties *props, GError **error);
/* Store entries as the `playlist` property and `length` (the blob's size, as libkarma). */
void km_playlist_to_properties(KmProperties *props, const GArray *entries);

G_END_DECLS

#endif
