/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-export-playlist.c - a playlist out as files: its tracks through the
 * export pipeline (km_library_export()), each once, then NAME.m3u8 beside
 * them listing them in the playlist's order (docs/KARMA.md §8.1).
 */
#include "km-export.h"
#include "km-export-private.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "km-playlist.h"

GArray *km_library_playlist_tracks(KmLibrary *lib, guint32 playlist, guint *n_dangling,
				   GError **error)
{
	KmProperties *props = km_library_lookup(lib, playlist);
	g_autoptr(GArray) entries = NULL;
	g_autoptr(GHashTable) seen = g_hash_table_new(NULL, NULL);
	GArray *fids;

	*n_dangling = 0;
	if (!props || km_properties_get_object_type(props) != KM_OBJECT_PLAYLIST) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NOT_FOUND,
			    _("No playlist %08x on the player"), playlist);
		return NULL;
	}
	entries = km_playlist_from_properties(props, error);
	if (!entries)
		return NULL;
	fids = g_array_new(FALSE, FALSE, sizeof(guint32));
	for (guint i = 0; i < entries->len; i++) {
		const KmPlaylistEntry *e = &g_array_index(entries, KmPlaylistEntry, i);
		KmProperties *track = km_library_resolve(lib, e->fid, e->generation);

		if (!track || km_properties_get_object_type(track) == KM_OBJECT_PLAYLIST)
			(*n_dangling)++;
		else if (g_hash_table_add(seen, GUINT_TO_POINTER(e->fid)))
			g_array_append_val(fids, e->fid);
	}
	return fids;
}

typedef struct {
	const KmExportOptions *opts;	/* the caller's */
	GHashTable *paths;		/* fid -> the file made, relative to the folder */
} PlaylistExport;

/* The caller's callbacks get the caller's data: the wrapper's data is pe. */
static void on_track_begin(guint32 fid, const KmProperties *props, const char *relative,
			   guint64 size, gpointer data)
{
	PlaylistExport *pe = data;

	if (pe->opts->begin)
		pe->opts->begin(fid, props, relative, size, pe->opts->data);
}

static void on_track_progress(const KmLibraryProgress *progress, gpointer data)
{
	PlaylistExport *pe = data;

	if (pe->opts->progress)
		pe->opts->progress(progress, pe->opts->data);
}

static void on_track_done(guint32 fid, const char *path, const GError *error, gpointer data)
{
	PlaylistExport *pe = data;
	gsize n = strlen(pe->opts->folder);

	/* path is folder joined with the track's name: the list names it from the folder */
	if (path && strncmp(path, pe->opts->folder, n) == 0 && path[n] == G_DIR_SEPARATOR)
		g_hash_table_insert(pe->paths, GUINT_TO_POINTER(fid), g_strdup(path + n + 1));
	pe->opts->done(fid, path, error, pe->opts->data);
}

/* "#EXTINF:seconds,Artist - Title": control characters (none can break a line) as spaces. */
static void append_extinf(GString *out, const KmProperties *track)
{
	guint64 duration = 0;
	const char *artist = km_properties_get(track, "artist");
	const char *title = km_properties_get(track, "title");
	gsize start;

	km_properties_get_uint(track, "duration", &duration);
	g_string_append_printf(out, "#EXTINF:%" G_GUINT64_FORMAT ",", (duration + 500) / 1000);
	start = out->len;
	if (artist && *artist)
		g_string_append_printf(out, "%s - ", artist);
	g_string_append(out, title ? title : "");
	for (gsize i = start; i < out->len; i++)
		if ((guchar)out->str[i] < 0x20)
			out->str[i] = ' ';
	g_string_append_c(out, '\n');
}

static GString *playlist_text(KmLibrary *lib, guint32 playlist, GHashTable *paths)
{
	g_autoptr(GArray) entries = km_playlist_from_properties(km_library_lookup(lib, playlist),
								NULL);
	GString *out = g_string_new("#EXTM3U\n");

	for (guint i = 0; entries && i < entries->len; i++) {
		const KmPlaylistEntry *e = &g_array_index(entries, KmPlaylistEntry, i);
		const char *path = g_hash_table_lookup(paths, GUINT_TO_POINTER(e->fid));
		KmProperties *track = km_library_resolve(lib, e->fid, e->generation);

		if (!path || !track)
			continue;
		append_extinf(out, track);
		g_string_append_printf(out, "%s\n", path);
	}
	return out;
}

static gboolean write_playlist_file(KmLibrary *lib, guint32 playlist, const char *folder,
				    GHashTable *paths, char **list_path, GError **error)
{
	g_autoptr(GString) text = playlist_text(lib, playlist, paths);
	/* the playlist's name made safe as a track's title is, never overwriting */
	g_autofree char *name = km_export_relative_path(km_library_lookup(lib, playlist),
							 "%t.m3u8", error);
	g_autofree char *path = NULL;
	gboolean ok;
	int fd;

	if (!name)
		return FALSE;
	fd = km_export_create_unique(folder, name, &path, error);
	if (fd < 0)
		return FALSE;
	ok = km_export_write_all(fd, (const guint8 *)text->str, text->len, path, error);
	if (close(fd) < 0 && ok) {
		int err = errno;

		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
			    _("Writing %s failed: %s"), path, g_strerror(err));
		ok = FALSE;
	}
	if (!ok) {
		g_unlink(path);
		return FALSE;
	}
	if (list_path)
		*list_path = g_steal_pointer(&path);
	return TRUE;
}

gboolean km_library_export_playlist(KmLibrary *lib, guint32 playlist, const KmExportOptions *opts,
				    char **list_path, GError **error)
{
	g_autoptr(GHashTable) paths = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	PlaylistExport pe = { .opts = opts, .paths = paths };
	KmExportOptions wrapped = *opts;
	guint n_dangling;
	g_autoptr(GArray) fids = km_library_playlist_tracks(lib, playlist, &n_dangling, error);

	g_return_val_if_fail(opts && opts->folder && opts->done, FALSE);
	if (!fids)
		return FALSE;
	wrapped.begin = on_track_begin;
	wrapped.progress = on_track_progress;
	wrapped.done = on_track_done;
	wrapped.data = &pe;
	if (!km_library_export(lib, (const guint32 *)(void *)fids->data, fids->len, &wrapped, error))
		return FALSE;
	return write_playlist_file(lib, playlist, opts->folder, paths, list_path, error);
}
