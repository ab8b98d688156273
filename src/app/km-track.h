/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-track.h - one tune on the player, as the list models show it: an
 * immutable snapshot of its properties taken on the session's worker after a
 * commit. A change on the player makes a new KmTrack that replaces the old
 * one in the session's list (items-changed), so a KmTrack never changes and
 * may be read from any thread. Its fields are parsed once, when it is made:
 * the getters only return them.
 *
 * Every GObject property is read-only:
 *   fid           guint    the object's fid
 *   title         string   "" when absent (the import sets one from the file name)
 *   artist        string   NULL when absent
 *   album         string   the Karma `source` property; NULL when absent
 *   genre         string   NULL when absent
 *   year          guint    0 when absent or not a number
 *   track-number  guint    `tracknr`; 0 when absent or not a number
 *   duration      guint64  milliseconds
 *   codec         string   "mp3", "vorbis", "flac", "wave", "wma"…; NULL when absent
 *   bitrate       string   as the player stores it ("fs128", "vs192"); NULL when absent
 *   bitrate-kbps  guint    the number in `bitrate` (for sorting); 0 when absent
 *   play-count    guint    `play_count`, written by the player
 *   size          guint64  `length`: the bytes of the data file
 */
#ifndef KM_TRACK_H
#define KM_TRACK_H

#include <glib-object.h>

#include "km-properties.h"

G_BEGIN_DECLS

#define KM_TYPE_TRACK (km_track_get_type())
G_DECLARE_FINAL_TYPE(KmTrack, km_track, KM, TRACK, GObject)

/* A snapshot of props (copied: props may change or go away afterwards). */
KmTrack *km_track_new(const KmProperties *props);

guint32 km_track_get_fid(KmTrack *track);
const char *km_track_get_title(KmTrack *track);
/* g_utf8_collate_key() of the title, made once: strcmp() two to sort by title. */
const char *km_track_get_title_sort_key(KmTrack *track);
const char *km_track_get_artist(KmTrack *track);
const char *km_track_get_album(KmTrack *track);
const char *km_track_get_genre(KmTrack *track);
guint km_track_get_year(KmTrack *track);
guint km_track_get_track_number(KmTrack *track);
guint64 km_track_get_duration(KmTrack *track);
const char *km_track_get_codec(KmTrack *track);
const char *km_track_get_bitrate(KmTrack *track);
guint km_track_get_bitrate_kbps(KmTrack *track);
guint km_track_get_play_count(KmTrack *track);
guint64 km_track_get_size(KmTrack *track);

/*
 * Every property the player stores for this track, in file order (for the
 * details pane: km_properties_keys(), km_properties_get()). Owned by the
 * track; never modify it.
 */
const KmProperties *km_track_get_properties(KmTrack *track);

G_END_DECLS

#endif
