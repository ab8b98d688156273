/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-m3u.h - the entries of a playlist file: M3U and M3U8 (docs/KARMA.md
 * §8.2), read from bytes that may come from anywhere.
 *
 * - A UTF-8 byte order mark is skipped; lines end in LF or CRLF.
 * - Empty lines and lines starting with '#' (#EXTM3U, #EXTINF…) are not
 *   entries.
 * - An entry is a file name: absolute, or relative to the list's folder;
 *   a file:// URI is a local file name too. Any other URI (http://…) is an
 *   entry with no path, kept so that the caller can say it was skipped.
 * - File names are bytes, as on Linux: an .m3u in Latin-1 names the files
 *   its bytes name.
 * KmM3uEntry is the entry of an XSPF list too (km-xspf.h).
 */
#ifndef KM_M3U_H
#define KM_M3U_H

#include <glib.h>

G_BEGIN_DECLS

/* More than a playlist can hold (15000 entries: docs/KARMA.md §8) with room for comments. */
#define KM_M3U_MAX_SIZE (16u << 20)

typedef struct {
	char *text;	/* the line as written (without its line end) */
	char *path;	/* the local file it names, or NULL (another kind of URI) */
	guint line;	/* its line number, from 1 */
} KmM3uEntry;

void km_m3u_entry_free(KmM3uEntry *entry);

/*
 * Whether len bytes at data may be a playlist file at all: FALSE with a
 * G_FILE_ERROR_INVAL error when larger than KM_M3U_MAX_SIZE or holding a NUL
 * byte (no playlist does: it is some other file). Shared with km-xspf.h.
 */
gboolean km_m3u_check_bytes(const char *data, gsize len, GError **error);

/* The size of the UTF-8 byte order mark data starts with (3), or 0: skipped by both readers. */
gsize km_m3u_bom_size(const char *data, gsize len);

/*
 * The entries of a list of len bytes at data, whose folder is base_dir (a
 * new array of KmM3uEntry*, freed with it). NULL with the error of
 * km_m3u_check_bytes().
 */
GPtrArray *km_m3u_parse(const char *data, gsize len, const char *base_dir, GError **error);

G_END_DECLS

#endif
