/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-playlist-import.c - karmactl playlist import FILE: an M3U/M3U8 list
 * made a playlist on the player. Its files go through add's import
 * (kc_import(): each said, committed once; files already there are
 * reused), then the playlist is made in the list's order in a second
 * transaction. Entries that name no file, or no local one, are listed and
 * skipped (docs/KARMA.md §8.2).
 */
#include "kc-library.h"

#include <stdio.h>
#include <string.h>

#include "km-m3u.h"

/* The list's entries that name a file here (roots), the others said. */
static GPtrArray *existing_files(GPtrArray *entries, guint *n_skipped)
{
	GPtrArray *roots = g_ptr_array_new();

	*n_skipped = 0;
	for (guint i = 0; i < entries->len; i++) {
		const KmM3uEntry *e = entries->pdata[i];
		g_autofree char *text = kc_shown(e->text);

		if (e->path && g_file_test(e->path, G_FILE_TEST_IS_REGULAR)) {
			g_ptr_array_add(roots, e->path);
			continue;
		}
		printf("skipped line %u: %s: %s\n", e->line,
		       e->path ? "no such file" : "not a local file", text);
		(*n_skipped)++;
	}
	return roots;
}

/* --name, or the list's file name without .m3u/.m3u8 (shown as UTF-8). */
static char *playlist_name(const char *file, const char *name)
{
	g_autofree char *base = NULL;
	char *dot;

	if (name)
		return g_strdup(name);
	base = g_filename_display_basename(file);
	dot = strrchr(base, '.');
	if (dot && dot != base &&
	    (g_ascii_strcasecmp(dot, ".m3u") == 0 || g_ascii_strcasecmp(dot, ".m3u8") == 0))
		*dot = '\0';
	return g_steal_pointer(&base);
}

static bool playlist_exists(KmLibrary *lib, const char *name)
{
	g_autoptr(GPtrArray) all = km_library_list(lib);

	for (guint i = 0; i < all->len; i++)
		if (km_properties_get_object_type(all->pdata[i]) == KM_OBJECT_PLAYLIST &&
		    g_strcmp0(km_properties_get(all->pdata[i], "title"), name) == 0)
			return true;
	return false;
}

/* The playlist of the tracks in fids that are set (0: not on the player), one transaction. */
static int make_playlist(struct kc_ctx *ctx, KmLibrary *lib, const char *name, GArray *fids)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmTransaction) tx = km_library_begin(lib, &error);
	g_autoptr(GArray) tracks = g_array_new(FALSE, FALSE, sizeof(guint32));
	g_autofree char *shown = kc_shown(name);
	guint32 fid;

	for (guint i = 0; i < fids->len; i++)
		if (g_array_index(fids, guint32, i))
			g_array_append_val(tracks, g_array_index(fids, guint32, i));
	if (!tx || !km_transaction_playlist_create(tx, name, &fid, &error) ||
	    !km_transaction_playlist_set(tx, fid, (const guint32 *)tracks->data, tracks->len,
					 &error) ||
	    !km_transaction_commit(tx, &error))
		return kc_fail_gerror(ctx, name, error);
	printf("created playlist fid %" G_GUINT32_FORMAT ": %s, %u entries\n", fid, shown,
	       tracks->len);
	return KC_EXIT_OK;
}

int kc_playlist_import(struct kc_ctx *ctx, const char *file, const char *name_option)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *data = NULL, *folder = g_path_get_dirname(file);
	g_autofree char *name = playlist_name(file, name_option);
	g_autoptr(GPtrArray) entries = NULL, roots = NULL;
	g_autoptr(GArray) fids = g_array_new(FALSE, TRUE, sizeof(guint32));
	struct kc_library kl;
	guint n_skipped;
	gsize len;
	int status, made;

	if (!g_utf8_validate(name, -1, NULL))
		return kc_usage(ctx, "--name is not valid UTF-8");
	if (!g_file_get_contents(file, &data, &len, &error))
		return kc_fail_gerror(ctx, file, error);
	entries = km_m3u_parse(data, len, folder, &error);
	if (!entries)
		return kc_fail_gerror(ctx, file, error);
	roots = existing_files(entries, &n_skipped);
	status = kc_library_open(ctx, true, false, &kl);
	if (status)
		return status;
	if (playlist_exists(kl.lib, name))
		return kc_library_close(ctx, &kl, kc_failf(ctx, "a playlist named '%s' exists: "
							    "give another with --name", name));
	status = kc_import(ctx, kl.lib, &(struct kc_import_request){
		.roots = (const char *const *)roots->pdata, .n_roots = roots->len,
		.reuse_duplicates = true, .root_fids = fids });
	/* interrupted: what was copied is committed, the playlist is not made */
	made = status == KC_EXIT_INTERRUPTED ? status : make_playlist(ctx, kl.lib, name, fids);
	if (n_skipped)
		printf("%u entr%s of %s skipped\n", n_skipped, n_skipped == 1 ? "y" : "ies", file);
	return kc_library_close(ctx, &kl, made ? made : status ? status : n_skipped ? 1 : 0);
}
