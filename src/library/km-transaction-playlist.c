/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-transaction-playlist.c - playlists in a transaction: create, rename,
 * delete, insert, remove, move, and taking a removed object out of every
 * playlist. A playlist is stored whole on each change (km-playlist.h).
 */
#include "km-transaction-private.h"

#include <glib/gi18n-lib.h>
#include "km-playlist.h"
#include "km-property-rules.h"

/* A name is a title: UTF-8, not empty, no longer than any text (km-property-rules.h). */
static gboolean name_ok(const char *name, GError **error)
{
	if (!name || !*name || !g_utf8_validate(name, -1, NULL)) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID,
			    _("a playlist needs a name in UTF-8"));
		return FALSE;
	}
	return km_property_check("title", name, error);
}

static gboolean has_name(KmTransaction *tx, guint32 fid, guint32 except, const char *name)
{
	KmProperties *object = fid == except ? NULL : km_transaction_lookup(tx, fid);

	return km_properties_get_object_type(object) == KM_OBJECT_PLAYLIST &&
	       g_strcmp0(km_properties_get(object, "title"), name) == 0;
}

/*
 * No other playlist (but except) is named name, as the library will be
 * after the transaction: a name must say which playlist it is, so every
 * tool can find one by it.
 */
static gboolean name_free(KmTransaction *tx, const char *name, guint32 except, GError **error)
{
	g_autoptr(GPtrArray) committed = km_library_list(tx->lib);
	GHashTableIter iter;
	gpointer key;
	guint32 taken = 0;

	for (guint i = 0; i < committed->len && !taken; i++) {
		guint32 fid = km_properties_get_fid(committed->pdata[i]);

		if (has_name(tx, fid, except, name))
			taken = fid;
	}
	g_hash_table_iter_init(&iter, tx->staged);
	while (!taken && g_hash_table_iter_next(&iter, &key, NULL))
		if (has_name(tx, GPOINTER_TO_UINT(key), except, name))
			taken = GPOINTER_TO_UINT(key);
	if (!taken)
		return TRUE;
	g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID,
		    /* Translators: the number of the playlist that has the name */
		    _("playlist fid %u is named so already"), taken);
	return FALSE;
}

/* The entries of playlist fid; *object is the staged copy to change when edit. */
static GArray *open_playlist(KmTransaction *tx, guint32 fid, gboolean edit, KmProperties **object,
			     GError **error)
{
	KmProperties *pl = km_transaction_get(tx, fid, error);

	if (!pl)
		return NULL;
	if (km_properties_get_object_type(pl) != KM_OBJECT_PLAYLIST) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID,
			    "fid %u is not a playlist", fid);
		return NULL;
	}
	if (edit)
		pl = km_transaction_edit(tx, fid, error);
	if (object)
		*object = pl;
	return pl ? km_playlist_from_properties(pl, error) : NULL;
}

gboolean km_transaction_playlist_create(KmTransaction *tx, const char *name, guint32 *fid_out,
					GError **error)
{
	KmProperties *pl;
	guint32 fid, generation;

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), FALSE);
	if (!km_transaction_check(tx, error) || !name_ok(name, error) ||
	    !name_free(tx, name, 0, error) ||
	    !km_transaction_new_fid(tx, &fid, &generation, error))
		return FALSE;
	pl = km_properties_new();
	km_properties_set_fid(pl, fid);
	km_properties_set(pl, "type", "playlist");
	km_properties_set(pl, "title", name);
	km_playlist_to_properties(pl, NULL);
	km_properties_set_uint(pl, "ctime", (guint64)MAX(km_library_now(tx->lib), 0));
	km_properties_set_uint(pl, "fid_generation", generation);
	km_transaction_stage_new(tx, pl, FALSE);
	if (fid_out)
		*fid_out = fid;
	return TRUE;
}

gboolean km_transaction_playlist_rename(KmTransaction *tx, guint32 playlist, const char *name,
					GError **error)
{
	g_autoptr(GArray) entries = NULL;
	KmProperties *pl;

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), FALSE);
	if (!km_transaction_check(tx, error) || !name_ok(name, error) ||
	    !name_free(tx, name, playlist, error))
		return FALSE;
	entries = open_playlist(tx, playlist, TRUE, &pl, error);
	if (!entries)
		return FALSE;
	km_properties_set(pl, "title", name);
	return TRUE;
}

gboolean km_transaction_playlist_delete(KmTransaction *tx, guint32 playlist, GError **error)
{
	g_autoptr(GArray) entries = NULL;

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), FALSE);
	if (!km_transaction_check(tx, error))
		return FALSE;
	entries = open_playlist(tx, playlist, FALSE, NULL, error);
	return entries && km_transaction_remove(tx, playlist, error);
}

/* The entry naming track as it is now; an error when it is no track. */
static gboolean entry_for(KmTransaction *tx, guint32 track, KmPlaylistEntry *entry,
			  GError **error)
{
	KmProperties *object = km_transaction_get(tx, track, error);
	guint64 generation = 0;

	if (!object)
		return FALSE;
	if (km_properties_get_object_type(object) == KM_OBJECT_PLAYLIST) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID,
			    "fid %u is a playlist: a playlist holds tracks", track);
		return FALSE;
	}
	km_properties_get_uint(object, "fid_generation", &generation);
	entry->fid = track;
	entry->generation = (guint32)generation;
	return TRUE;
}

static gboolean check_room(guint32 playlist, guint have, guint adding, GError **error)
{
	if (adding <= KM_PLAYLIST_MAX_ENTRIES && have <= KM_PLAYLIST_MAX_ENTRIES - adding)
		return TRUE;
	g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_FULL,
		    /* Translators: a playlist's number, then the most entries it can hold */
		    _("playlist %u: the player holds at most %u entries"), playlist,
		    KM_PLAYLIST_MAX_ENTRIES);
	return FALSE;
}

gboolean km_transaction_playlist_insert(KmTransaction *tx, guint32 playlist, guint32 track,
					gint position, GError **error)
{
	g_autoptr(GArray) entries = NULL;
	KmPlaylistEntry entry;
	KmProperties *pl;

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), FALSE);
	if (!km_transaction_check(tx, error) || !entry_for(tx, track, &entry, error))
		return FALSE;
	/* Checked before the playlist is staged for a change. */
	entries = open_playlist(tx, playlist, FALSE, NULL, error);
	if (!entries || !check_room(playlist, entries->len, 1, error))
		return FALSE;
	if (position >= 0 && (guint)position > entries->len) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID,
			    "playlist %u has %u entries: position %d is past the end", playlist,
			    entries->len, position);
		return FALSE;
	}
	g_clear_pointer(&entries, g_array_unref);
	entries = open_playlist(tx, playlist, TRUE, &pl, error);
	if (!entries)
		return FALSE;
	g_array_insert_val(entries, position < 0 ? entries->len : (guint)position, entry);
	km_playlist_to_properties(pl, entries);
	return TRUE;
}

gboolean km_transaction_playlist_set(KmTransaction *tx, guint32 playlist, const guint32 *tracks,
				     guint n_tracks, GError **error)
{
	g_autoptr(GArray) entries = NULL;
	g_autoptr(GArray) old = NULL;
	KmProperties *pl;

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), FALSE);
	g_return_val_if_fail(tracks || n_tracks == 0, FALSE);
	if (!km_transaction_check(tx, error) || !check_room(playlist, 0, n_tracks, error))
		return FALSE;
	old = open_playlist(tx, playlist, FALSE, NULL, error);
	if (!old)
		return FALSE;
	entries = g_array_sized_new(FALSE, FALSE, sizeof(KmPlaylistEntry), n_tracks);
	for (guint i = 0; i < n_tracks; i++) {
		KmPlaylistEntry entry;

		if (!entry_for(tx, tracks[i], &entry, error))
			return FALSE;
		g_array_append_val(entries, entry);
	}
	g_clear_pointer(&old, g_array_unref);
	old = open_playlist(tx, playlist, TRUE, &pl, error);
	if (!old)
		return FALSE;
	km_playlist_to_properties(pl, entries);
	return TRUE;
}

/* The entries of a playlist staged for a change, with index checked against them. */
static GArray *edit_entries(KmTransaction *tx, guint32 playlist, guint index, KmProperties **pl,
			    GError **error)
{
	g_autoptr(GArray) entries = NULL;

	if (!km_transaction_check(tx, error))
		return NULL;
	entries = open_playlist(tx, playlist, FALSE, NULL, error);
	if (!entries)
		return NULL;
	if (index >= entries->len) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID,
			    "playlist %u has no entry %u (it has %u)", playlist, index,
			    entries->len);
		return NULL;
	}
	g_clear_pointer(&entries, g_array_unref);
	return open_playlist(tx, playlist, TRUE, pl, error);
}

gboolean km_transaction_playlist_remove_at(KmTransaction *tx, guint32 playlist, guint index,
					   GError **error)
{
	g_autoptr(GArray) entries = NULL;
	KmProperties *pl;

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), FALSE);
	entries = edit_entries(tx, playlist, index, &pl, error);
	if (!entries)
		return FALSE;
	g_array_remove_index(entries, index);
	km_playlist_to_properties(pl, entries);
	return TRUE;
}

gboolean km_transaction_playlist_move(KmTransaction *tx, guint32 playlist, guint from, guint to,
				      GError **error)
{
	g_autoptr(GArray) entries = NULL;
	KmPlaylistEntry entry;
	KmProperties *pl;

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), FALSE);
	entries = edit_entries(tx, playlist, MAX(from, to), &pl, error);
	if (!entries)
		return FALSE;
	entry = g_array_index(entries, KmPlaylistEntry, from);
	g_array_remove_index(entries, from);
	g_array_insert_val(entries, to, entry);
	km_playlist_to_properties(pl, entries);
	return TRUE;
}

/* ---- a removed object leaves every playlist ---- */

static gboolean lists_any(const KmProperties *pl, GHashTable *fids)
{
	g_autoptr(GArray) entries = km_playlist_from_properties(pl, NULL);

	for (guint i = 0; entries && i < entries->len; i++) {
		guint32 fid = g_array_index(entries, KmPlaylistEntry, i).fid;

		if (g_hash_table_contains(fids, GUINT_TO_POINTER(fid)))
			return TRUE;
	}
	return FALSE;
}

/* Playlists the transaction sees that list any of fids (one pass over the objects). */
static GArray *playlists_listing(KmTransaction *tx, GHashTable *fids)
{
	GArray *found = g_array_new(FALSE, FALSE, sizeof(guint32));
	GHashTable *sources[] = { tx->lib->objects, tx->staged };
	GHashTableIter iter;
	gpointer key;

	for (guint i = 0; i < G_N_ELEMENTS(sources); i++) {
		g_hash_table_iter_init(&iter, sources[i]);
		while (g_hash_table_iter_next(&iter, &key, NULL)) {
			guint32 pl_fid = GPOINTER_TO_UINT(key);
			KmProperties *pl = km_transaction_lookup(tx, pl_fid);

			/* Staged playlists are met twice when also committed: once is enough. */
			if (i == 1 && km_library_lookup(tx->lib, pl_fid))
				continue;
			if (km_properties_get_object_type(pl) == KM_OBJECT_PLAYLIST && lists_any(pl, fids))
				g_array_append_val(found, pl_fid);
		}
	}
	return found;
}

gboolean km_transaction_unlist(KmTransaction *tx, GHashTable *fids, GError **error)
{
	g_autoptr(GArray) playlists = playlists_listing(tx, fids);

	for (guint i = 0; i < playlists->len; i++) {
		g_autoptr(GArray) entries = NULL;
		KmProperties *pl;

		entries = open_playlist(tx, g_array_index(playlists, guint32, i), TRUE, &pl, error);
		if (!entries)
			return FALSE;
		for (guint j = entries->len; j-- > 0;) {
			guint32 fid = g_array_index(entries, KmPlaylistEntry, j).fid;

			if (g_hash_table_contains(fids, GUINT_TO_POINTER(fid)))
				g_array_remove_index(entries, j);
		}
		km_playlist_to_properties(pl, entries);
	}
	return TRUE;
}
