/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-export.h - where a track copied out of the Karma goes: a file name made
 * from its properties by a template, made safe, and created without ever
 * overwriting a file that is already there; and the export pipeline that
 * copies tracks out of a library under those names.
 *
 * The template is text with %X expansions; '/' separates folders:
 *   %a  artist                       "Unknown Artist" when absent
 *   %s  source (the album)           "Unknown Album"
 *   %t  title                        the fid, as %f
 *   %g  genre                        "Unknown Genre"
 *   %y  year                         "Unknown Year"
 *   %n  tracknr, at least 2 digits   "00" (also when it is not a number)
 *   %c  the file extension for the codec: mp3, ogg (vorbis), flac, wav
 *       (wave), wma; "" for a taxi data file (its title is already the
 *       original file name, and the '.' before it is dropped as a trailing
 *       dot); "bin" for a missing or unknown codec
 *   %f  the fid, 8 lower-case hex digits ("00000110")
 *   %%  a percent sign
 * A property that is absent, or holds nothing but spaces, dots and control
 * characters, gives the placeholder. Any other letter after '%', a '%' at
 * the end, an empty template or folder name ("a//b", "/abs", "a/"), a folder
 * named "." or ".." and text that is not UTF-8 are template errors.
 *
 * Every folder or file name of the result is made safe, whatever part of
 * it came from a property or from the template:
 * - a '/' inside a property value becomes '_' (it cannot add a folder);
 * - control characters (NUL cannot occur; U+0001-U+001F, U+007F-U+009F)
 *   become '_';
 * - names longer than KM_EXPORT_NAME_MAX bytes are cut, on a UTF-8
 *   character boundary, in the parts that came from the free-text
 *   properties (artist, album, title, genre, year), longest first, so
 *   the track number and the extension stay;
 * - leading dots and spaces are removed (no hidden files, so neither "."
 *   nor ".."), and so are trailing dots and spaces;
 * - a name left empty becomes "_".
 * So the result is always a relative path that stays inside the folder it
 * is joined to.
 *
 * km_library_export() is the whole pipeline, the one the app's export job
 * and karmactl export both run (km-export-tracks.c): names by the template,
 * files created without overwriting, each copied and its length checked,
 * a file cut short removed.
 */
#ifndef KM_EXPORT_H
#define KM_EXPORT_H

#include "km-library.h"
#include "km-properties.h"
#include "km-transaction.h"

G_BEGIN_DECLS

#define KM_EXPORT_ERROR (km_export_error_quark())
GQuark km_export_error_quark(void);
typedef enum {
	KM_EXPORT_ERROR_TEMPLATE,	/* a bad template (see above); the message says where */
	KM_EXPORT_ERROR_PATH,		/* a relative path that is absolute, empty, or has ".." */
	KM_EXPORT_ERROR_IN_THE_WAY,	/* a file or symlink where a folder must be */
	KM_EXPORT_ERROR_TOO_MANY,	/* every numbered name up to KM_EXPORT_MAX_NUMBER is taken */
} KmExportError;
/* Errors of the file system itself are in the G_FILE_ERROR domain. */

#define KM_EXPORT_DEFAULT_TEMPLATE "%a/%s/%n %t.%c"
/* Longest folder or file name, in bytes (NAME_MAX of Linux file systems). */
#define KM_EXPORT_NAME_MAX 255
/* "name (2).ext" … "name (9999).ext", then give up. */
#define KM_EXPORT_MAX_NUMBER 9999

/*
 * The relative path ("Artist/Album/01 Title.mp3") of the track props
 * describes; template NULL means KM_EXPORT_DEFAULT_TEMPLATE. NULL with
 * KM_EXPORT_ERROR_TEMPLATE for a bad template.
 */
char *km_export_relative_path(const KmProperties *props, const char *template,
			      GError **error);

/*
 * dir joined with relative_path, or, when that exists (a dangling symlink
 * counts), with the first free "name (2).ext", "name (3).ext", ... Only a
 * preview: another process may create the file before the caller does, so
 * create it with O_CREAT | O_EXCL, or better use km_export_create_unique().
 */
char *km_export_unique_path(const char *dir, const char *relative_path, GError **error);

/*
 * Create the file relative_path below dir and return its descriptor, open
 * for writing (mode 0644 before the umask); the missing folders are made
 * (0755). When the name is taken, the first free "name (2).ext", ... is
 * created instead: O_EXCL makes that choice and the creation one step, so
 * no file is ever overwritten, even by a concurrent writer. Symlinks below
 * dir are never followed (a symlink where a folder must be is
 * KM_EXPORT_ERROR_IN_THE_WAY), so nothing is written outside dir.
 * *out_path (may be NULL) gets the path of the created file. -1 and an
 * error otherwise.
 */
int km_export_create_unique(const char *dir, const char *relative_path, char **out_path,
			    GError **error);

typedef struct {
	const char *folder;	/* the host folder, made (0755) when missing */
	const char *template;	/* NULL: KM_EXPORT_DEFAULT_TEMPLATE */
	/* A track is about to be copied: relative is its name by the template. */
	void (*begin)(guint32 fid, const KmProperties *props, const char *relative, guint64 size,
		      gpointer data);
	/* Bytes of the current track copied (may be NULL). */
	KmProgressFunc progress;
	/*
	 * Each track tried, in order: path, the file made, or NULL and why
	 * not. A track that fails does not end the batch, unless the export
	 * was cancelled or the player failed (see km_library_export()).
	 */
	void (*done)(guint32 fid, const char *path, const GError *error, gpointer data);
	gpointer data;
	GCancellable *cancellable;	/* checked between chunks; may be NULL */
} KmExportOptions;

/*
 * Copy the data of the tracks fids into opts->folder, each reported through
 * opts->done. FALSE with error when the export stopped before the end: a
 * bad template or a folder that cannot be made (nothing tried), cancelled
 * (G_IO_ERROR_CANCELLED), or the player failing (KM_LIBRARY_ERROR_IO or
 * _FAILED) — the track that met it is reported with it, those after it are
 * not tried. A track missing, damaged, or a host file that cannot be
 * written is that track's failure, and the next one is tried.
 */
gboolean km_library_export(KmLibrary *lib, const guint32 *fids, guint n_fids,
			   const KmExportOptions *opts, GError **error);
/*
 * The tracks of a playlist, in its order, each once (a new GArray of
 * guint32 fids); *n_dangling counts the entries whose track is gone. NULL
 * with KM_LIBRARY_ERROR_NOT_FOUND when playlist is no playlist, or
 * an error when its list cannot be read.
 */
GArray *km_library_playlist_tracks(KmLibrary *lib, guint32 playlist, guint *n_dangling,
				   GError **error);
/*
 * A playlist out: its tracks (km_library_playlist_tracks()) through
 * km_library_export() with opts, then opts->folder/NAME.m3u8 (NAME made safe
 * as a track's title, never overwriting: "NAME (2).m3u8"): "#EXTM3U", then
 * per entry "#EXTINF:seconds,Artist - Title" and the track's file relative
 * to the folder, in the playlist's order, UTF-8. Tracks that failed or are
 * gone are left out of it. *list_path (may be NULL) gets the list's path.
 * FALSE with error when the export stopped (as km_library_export()) or the
 * list could not be written.
 */
gboolean km_library_export_playlist(KmLibrary *lib, guint32 playlist, const KmExportOptions *opts,
				    char **list_path, GError **error);
/* The bytes of the tracks' data files (what an export copies), for progress. */
guint64 km_library_get_data_total(KmLibrary *lib, const guint32 *fids, guint n_fids);

G_END_DECLS

#endif
