/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-xspf.h - the entries of an XSPF playlist file (XML Shareable Playlist
 * Format, docs/KARMA.md §8.2), read from bytes that may come from anywhere.
 *
 * The entries are km-m3u.h's KmM3uEntry, one per <track> of the
 * <trackList>, in order:
 * - text is the track's <location> as written (whitespace around it
 *   dropped), or its <title> when it has no location (to be listed as
 *   skipped), or "";
 * - path is the local file that location names: a URI reference resolved
 *   against the list's folder (percent-decoded, ".." resolved), a file: URI
 *   as it is; NULL for any other URI (http://…). Of a track's several
 *   locations, the first naming a local file wins, else the first;
 * - line is the line of the <track> tag (where it ends).
 * Every other element (title, creator, meta, extension…) is ignored: the
 * playlist is named by the caller (km-playlist-import.h).
 */
#ifndef KM_XSPF_H
#define KM_XSPF_H

#include "km-m3u.h"

G_BEGIN_DECLS

/* XSPF's namespace: the root element is <playlist xmlns="…"> with it. */
#define KM_XSPF_NAMESPACE "http://xspf.org/ns/0/"

/*
 * Whether the len bytes at data are XML, so to be read by km_xspf_parse()
 * rather than km_m3u_parse(): after a byte order mark and white space, they
 * start with '<', which no M3U list does.
 */
gboolean km_xspf_sniff(const char *data, gsize len);

/*
 * The entries of an XSPF list of len bytes at data, whose folder is base_dir
 * (a new array of KmM3uEntry*, freed with it). NULL with a G_FILE_ERROR_INVAL
 * error as km_m3u_parse() for a list too large or binary; with a
 * G_MARKUP_ERROR (its message giving the line and character) for XML that
 * is malformed, nested deeper than KM_XSPF_MAX_DEPTH, or whose root is no
 * XSPF <playlist>.
 */
GPtrArray *km_xspf_parse(const char *data, gsize len, const char *base_dir, GError **error);

/* Deeper than any XSPF list (5 levels, extensions' own aside): no stack grows on hostile XML. */
#define KM_XSPF_MAX_DEPTH 64

G_END_DECLS

#endif
