/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-playlist-item.h - one playlist on the player, as the sidebar shows it:
 * an immutable snapshot (like KmTrack) of its fid, its name and its entries,
 * taken on the session's worker after a commit. A change to the playlist, or
 * to a track it holds, replaces the item in the session's playlist list.
 *
 * An entry names a track by fid and fid_generation (km-playlist.h). An entry
 * whose track was removed (or whose fid now belongs to another track) does
 * not resolve: it is still an entry, counted by n-entries and addressed by
 * index in the session's playlist jobs, but it has no KmTrack and is not in
 * km_playlist_item_get_tracks().
 *
 * Read-only GObject properties: fid (guint), name (string), n-entries (guint).
 */
#ifndef KM_PLAYLIST_ITEM_H
#define KM_PLAYLIST_ITEM_H

#include <gio/gio.h>

#include "km-track.h"

G_BEGIN_DECLS

#define KM_TYPE_PLAYLIST_ITEM (km_playlist_item_get_type())
G_DECLARE_FINAL_TYPE(KmPlaylistItem, km_playlist_item, KM, PLAYLIST_ITEM, GObject)

/*
 * fids[i] is entry i; tracks[i] its track (a new reference is taken), or
 * NULL when the entry does not resolve.
 */
KmPlaylistItem *km_playlist_item_new(guint32 fid, const char *name, const guint32 *fids,
				     KmTrack *const *tracks, guint n_entries);

guint32 km_playlist_item_get_fid(KmPlaylistItem *item);
const char *km_playlist_item_get_name(KmPlaylistItem *item);
guint km_playlist_item_get_n_entries(KmPlaylistItem *item);
/* The fid entry index names (index < n-entries). */
guint32 km_playlist_item_get_entry_fid(KmPlaylistItem *item, guint index);
/* The track of entry index, or NULL when it does not resolve (owned by item). */
KmTrack *km_playlist_item_get_entry_track(KmPlaylistItem *item, guint index);

/*
 * The resolved entries' tracks, in playlist order (a GListModel of KmTrack
 * owned by item; it never changes). When every entry resolves, position and
 * entry index are the same; km_playlist_item_get_entry_index() maps them.
 */
GListModel *km_playlist_item_get_tracks(KmPlaylistItem *item);
/* The entry index of the track at position in km_playlist_item_get_tracks(). */
guint km_playlist_item_get_entry_index(KmPlaylistItem *item, guint position);

G_END_DECLS

#endif
