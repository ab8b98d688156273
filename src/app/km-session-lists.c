/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-lists.c - the session's track and playlist lists, updated on the
 * main context from what the worker publishes after a commit. Only the rows
 * that changed are touched (one items-changed each), so a view keeps its
 * selection and scroll position while tracks land; the first load and a
 * repair replace the whole list in one items-changed.
 */
#include "km-session-private.h"

static void list_playlist_free(gpointer data)
{
	KmListPlaylist *playlist = data;

	g_free(playlist->name);
	g_array_unref(playlist->fids);
	g_array_unref(playlist->resolved);
	g_free(playlist);
}

KmListUpdate *km_list_update_new(KmSession *session, gboolean all)
{
	KmListUpdate *update = g_new0(KmListUpdate, 1);

	update->session = g_object_ref(session);
	update->all = all;
	update->tracks = g_ptr_array_new_with_free_func(g_object_unref);
	update->removed = g_array_new(FALSE, FALSE, sizeof(guint32));
	update->playlists = g_ptr_array_new_with_free_func(list_playlist_free);
	return update;
}

void km_list_update_free(KmListUpdate *update)
{
	g_ptr_array_unref(update->tracks);
	g_array_unref(update->removed);
	g_ptr_array_unref(update->playlists);
	g_object_unref(update->session);
	g_free(update);
}

static guint32 item_fid(GListModel *list, guint position)
{
	g_autoptr(GObject) item = g_list_model_get_item(list, position);

	if (KM_IS_TRACK(item))
		return km_track_get_fid(KM_TRACK(item));
	return km_playlist_item_get_fid(KM_PLAYLIST_ITEM(item));
}

/* The first position whose fid is not below fid (the lists are in fid order). */
static guint lower_bound(GListModel *list, guint32 fid)
{
	guint low = 0, high = g_list_model_get_n_items(list);

	while (low < high) {
		guint mid = low + (high - low) / 2;

		if (item_fid(list, mid) < fid)
			low = mid + 1;
		else
			high = mid;
	}
	return low;
}

static gboolean find(GListModel *list, guint32 fid, guint *position)
{
	*position = lower_bound(list, fid);
	return *position < g_list_model_get_n_items(list) && item_fid(list, *position) == fid;
}

/* Put item (with this fid) in its place: replace the one there, or insert. */
static void store_put(GListStore *store, guint32 fid, gpointer item)
{
	guint position;

	if (find(G_LIST_MODEL(store), fid, &position))
		g_list_store_splice(store, position, 1, &item, 1);
	else
		g_list_store_insert(store, position, item);
}

static void store_remove(GListStore *store, guint32 fid)
{
	guint position;

	if (find(G_LIST_MODEL(store), fid, &position))
		g_list_store_remove(store, position);
}

static void replace_all_tracks(KmSession *session, GPtrArray *tracks)
{
	guint n_old = g_list_model_get_n_items(G_LIST_MODEL(session->tracks));

	g_hash_table_remove_all(session->track_by_fid);
	for (guint i = 0; i < tracks->len; i++)
		g_hash_table_insert(session->track_by_fid,
				    GUINT_TO_POINTER(km_track_get_fid(tracks->pdata[i])),
				    tracks->pdata[i]);
	g_list_store_splice(session->tracks, 0, n_old, tracks->pdata, tracks->len);
}

static void update_tracks(KmSession *session, KmListUpdate *update)
{
	for (guint i = 0; i < update->removed->len; i++) {
		guint32 fid = g_array_index(update->removed, guint32, i);

		g_hash_table_remove(session->track_by_fid, GUINT_TO_POINTER(fid));
		store_remove(session->tracks, fid);
	}
	for (guint i = 0; i < update->tracks->len; i++) {
		KmTrack *track = update->tracks->pdata[i];
		guint32 fid = km_track_get_fid(track);

		g_hash_table_insert(session->track_by_fid, GUINT_TO_POINTER(fid), track);
		store_put(session->tracks, fid, track);
	}
}

static KmPlaylistItem *make_playlist(KmSession *session, const KmListPlaylist *playlist)
{
	guint n = playlist->fids->len;
	g_autofree KmTrack **tracks = g_new0(KmTrack *, n ? n : 1);
	const guint32 *fids = (const guint32 *)(gpointer)playlist->fids->data;

	for (guint i = 0; i < n; i++)
		if (g_array_index(playlist->resolved, gboolean, i))
			tracks[i] = km_session_lookup_track(session, fids[i]);
	return km_playlist_item_new(playlist->fid, playlist->name, fids, tracks, n);
}

/* Same name, and the same entries naming the same KmTrack snapshots. */
static gboolean same_playlist(KmPlaylistItem *a, KmPlaylistItem *b)
{
	guint n = km_playlist_item_get_n_entries(a);

	if (g_strcmp0(km_playlist_item_get_name(a), km_playlist_item_get_name(b)) != 0 ||
	    n != km_playlist_item_get_n_entries(b))
		return FALSE;
	for (guint i = 0; i < n; i++) {
		if (km_playlist_item_get_entry_fid(a, i) != km_playlist_item_get_entry_fid(b, i))
			return FALSE;
		/* The same snapshot: a changed track is a new KmTrack. */
		if (km_playlist_item_get_entry_track(a, i) !=
		    km_playlist_item_get_entry_track(b, i))
			return FALSE;
	}
	return TRUE;
}

/* update->playlists is every playlist: the ones not in it are gone. */
static void update_playlists(KmSession *session, KmListUpdate *update)
{
	GListModel *list = G_LIST_MODEL(session->playlists);
	guint position = 0;

	for (guint i = 0; i < update->playlists->len; i++) {
		KmListPlaylist *playlist = update->playlists->pdata[i];
		g_autoptr(KmPlaylistItem) item = make_playlist(session, playlist);
		guint32 fid = playlist->fid;
		g_autoptr(KmPlaylistItem) old = NULL;

		while (position < g_list_model_get_n_items(list) && item_fid(list, position) < fid)
			g_list_store_remove(session->playlists, position);
		old = g_list_model_get_item(list, position);
		if (old && km_playlist_item_get_fid(old) == fid) {
			if (!same_playlist(old, item))
				g_list_store_splice(session->playlists, position, 1,
						    (gpointer *)&item, 1);
		} else {
			g_list_store_insert(session->playlists, position, item);
		}
		position++;
	}
	if (position < g_list_model_get_n_items(list))
		g_list_store_splice(session->playlists, position,
				    g_list_model_get_n_items(list) - position, NULL, 0);
}

void km_session_apply_update(KmSession *session, KmListUpdate *update)
{
	if (update->all)
		replace_all_tracks(session, update->tracks);
	else
		update_tracks(session, update);
	update_playlists(session, update);
	km_session_set_capacity(session, update->total_bytes, update->free_bytes);
}

void km_session_clear_lists(KmSession *session)
{
	g_hash_table_remove_all(session->track_by_fid);
	g_list_store_remove_all(session->tracks);
	g_list_store_remove_all(session->playlists);
	km_session_set_capacity(session, 0, 0);
}
