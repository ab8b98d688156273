/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-playlist-import.c - a playlist file in (km-playlist-import.h).
 */
#include "km-playlist-import.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "km-transaction.h"
#include "km-xspf.h"

static gboolean is_list_suffix(const char *dot)
{
	static const char *const suffixes[] = { ".m3u", ".m3u8", ".xspf" };

	for (guint i = 0; i < G_N_ELEMENTS(suffixes); i++)
		if (g_ascii_strcasecmp(dot, suffixes[i]) == 0)
			return TRUE;
	return FALSE;
}

char *km_playlist_import_name(const char *path)
{
	char *base = g_filename_display_basename(path);
	char *dot = strrchr(base, '.');

	if (dot && dot != base && is_list_suffix(dot))
		*dot = '\0';
	return base;
}

static gboolean playlist_named(KmLibrary *lib, const char *name)
{
	g_autoptr(GPtrArray) all = km_library_list(lib);

	for (guint i = 0; i < all->len; i++)
		if (km_properties_get_object_type(all->pdata[i]) == KM_OBJECT_PLAYLIST &&
		    g_strcmp0(km_properties_get(all->pdata[i], "title"), name) == 0)
			return TRUE;
	return FALSE;
}

/* The entries that name a file here; the others to skipped. */
static GPtrArray *entry_files(GPtrArray *entries,
			      void (*skipped)(const KmM3uEntry *, gpointer), gpointer data,
			      guint *n_skipped)
{
	GPtrArray *roots = g_ptr_array_new();

	for (guint i = 0; i < entries->len; i++) {
		const KmM3uEntry *e = entries->pdata[i];

		if (e->path && g_file_test(e->path, G_FILE_TEST_IS_REGULAR)) {
			g_ptr_array_add(roots, e->path);
			continue;
		}
		(*n_skipped)++;
		if (skipped)
			skipped(e, data);
	}
	return roots;
}

static gboolean make_playlist(KmLibrary *lib, const char *name, GArray *root_fids,
			      KmPlaylistImportResult *result, GError **error)
{
	g_autoptr(KmTransaction) tx = km_library_begin(lib, error);
	g_autoptr(GArray) tracks = g_array_new(FALSE, FALSE, sizeof(guint32));
	guint32 fid;

	for (guint i = 0; i < root_fids->len; i++)
		if (g_array_index(root_fids, guint32, i))
			g_array_append_val(tracks, g_array_index(root_fids, guint32, i));
	if (!tx || !km_transaction_playlist_create(tx, name, &fid, error) ||
	    !km_transaction_playlist_set(tx, fid, (const guint32 *)(void *)tracks->data, tracks->len,
					 error) ||
	    !km_transaction_commit(tx, error))
		return FALSE;
	result->playlist = fid;
	result->n_entries = tracks->len;
	return TRUE;
}

gboolean km_library_import_playlist(KmLibrary *lib, const char *path, const char *name,
				    const KmLibraryImportOptions *import,
				    void (*skipped)(const KmM3uEntry *entry, gpointer data),
				    KmPlaylistImportResult *result, GError **error)
{
	g_autofree char *data = NULL, *folder = g_path_get_dirname(path);
	g_autofree char *own_name = name ? g_strdup(name) : km_playlist_import_name(path);
	g_autoptr(GPtrArray) entries = NULL, roots = NULL;
	g_autoptr(GArray) root_fids = NULL;
	KmLibraryImportOptions own = *import;
	gsize len;

	*result = (KmPlaylistImportResult){ 0 };
	if (!g_file_get_contents(path, &data, &len, error))
		return FALSE;
	entries = km_xspf_sniff(data, len) ? km_xspf_parse(data, len, folder, error) :
					     km_m3u_parse(data, len, folder, error);
	if (!entries) {
		g_prefix_error(error, "%s: ", path);
		return FALSE;
	}
	if (playlist_named(lib, own_name)) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID,
			    _("A playlist named “%s” exists already"), own_name);
		return FALSE;
	}
	roots = entry_files(entries, skipped, import->data, &result->n_skipped);
	root_fids = g_array_new(FALSE, TRUE, sizeof(guint32));
	g_array_set_size(root_fids, roots->len);
	own.recursive = FALSE;
	own.root_fids = (guint32 *)(void *)root_fids->data;
	if (!km_library_import(lib, (const char *const *)roots->pdata, roots->len, &own, error))
		return FALSE;
	return make_playlist(lib, own_name, root_fids, result, error);
}
