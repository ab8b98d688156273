/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-playlist-import.h - an M3U/M3U8 or XSPF list made a playlist on the
 * player, for karmactl playlist import and the app's Import Playlist alike
 * (docs/KARMA.md §8.2): its entries read (km-m3u.h, or km-xspf.h when its
 * content is XML, km_xspf_sniff(): the name's extension plays no part, so
 * an XSPF list named .m3u is read all the same), those naming a file
 * here imported as add imports them (km_library_import(), with the
 * caller's options: its commits, its callbacks; a file already there is
 * the duplicate's track), then the playlist made in the list's order, in a
 * transaction of its own.
 */
#ifndef KM_PLAYLIST_IMPORT_H
#define KM_PLAYLIST_IMPORT_H

#include "km-library-import.h"
#include "km-m3u.h"

G_BEGIN_DECLS

typedef struct {
	guint32 playlist;	/* the new playlist's fid, 0 when none was made */
	guint n_entries;	/* its entries */
	guint n_skipped;	/* entries naming no file here (reported through skipped) */
} KmPlaylistImportResult;

/*
 * Import the list at path as a playlist named name (NULL: the file's name
 * without .m3u, .m3u8 or .xspf; an XSPF <title> is not used, so that both
 * kinds are named alike and as the user sees the file). skipped (may be
 * NULL; called with import->data) gets each entry that names no local
 * file, or none that exists. FALSE with error when the list cannot be read, a playlist has
 * the name already (KM_LIBRARY_ERROR_INVALID; nothing is imported), the
 * import stopped (as km_library_import(): what was committed stays, no
 * playlist is made), or the playlist could not be made.
 */
gboolean km_library_import_playlist(KmLibrary *lib, const char *path, const char *name,
				    const KmLibraryImportOptions *import,
				    void (*skipped)(const KmM3uEntry *entry, gpointer data),
				    KmPlaylistImportResult *result, GError **error);

/* The name import gives the list at path when none is given (a new UTF-8 string). */
char *km_playlist_import_name(const char *path);

G_END_DECLS

#endif
