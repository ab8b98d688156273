/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-lists.c - the session's track and playlist lists, updated on the
 * main context from what the worker publishes after a commit. Only the rows
 * that changed are touched (one items-changed each), so a view keeps its
 * selection and scroll position while tracks land.
 *
 * A whole list (the first load, a repair, a restore) replaces the old one a
 * slice at a time, one slice per main-loop turn, so that a big library never
 * holds the main loop long (each slice is grouped into the tree as it lands:
 * 10,000 tracks at once took 12 ms, in the turn that also made the view).
 * Updates that come meanwhile wait behind it, in order.
 */
#include "km-session-private.h"

#include <string.h>

/* Tracks put in per main-loop turn from a whole list: about 2 ms of work. */
#define LOAD_SLICE 1000

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

/* Also an emptied one (km_session_queue_update()). */
void km_list_update_free(KmListUpdate *update)
{
	g_clear_pointer(&update->tracks, g_ptr_array_unref);
	g_clear_pointer(&update->removed, g_array_unref);
	g_clear_pointer(&update->playlists, g_ptr_array_unref);
	g_clear_object(&update->session);
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

/*
 * The next slice of a whole list: the first one replaces what the list held.
 * TRUE when all of it is in.
 */
static gboolean put_slice(KmSession *session, KmListUpdate *update)
{
	guint n_items = g_list_model_get_n_items(G_LIST_MODEL(session->tracks));
	guint n = MIN(LOAD_SLICE, update->tracks->len - update->n_put);
	guint position = update->n_put ? n_items : 0;
	guint n_removed = update->n_put ? 0 : n_items;

	if (!update->n_put)
		g_hash_table_remove_all(session->track_by_fid);
	for (guint i = update->n_put; i < update->n_put + n; i++)
		g_hash_table_insert(session->track_by_fid,
				    GUINT_TO_POINTER(km_track_get_fid(update->tracks->pdata[i])),
				    update->tracks->pdata[i]);
	g_list_store_splice(session->tracks, position, n_removed,
			    update->tracks->pdata + update->n_put, n);
	update->n_put += n;
	return update->n_put == update->tracks->len;
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

/* Puts the waiting updates in; FALSE when a whole list is not all in yet. */
static gboolean put_updates(KmSession *session)
{
	KmListUpdate *update;

	while ((update = g_queue_peek_head(&session->updates))) {
		if (!update->all)
			update_tracks(session, update);
		else if (!put_slice(session, update))
			return FALSE;
		update_playlists(session, update);
		km_session_set_capacity(session, update->total_bytes, update->free_bytes);
		km_list_update_free(g_queue_pop_head(&session->updates));
	}
	return TRUE;
}

static gboolean on_updating(gpointer data)
{
	KmSession *session = data;

	if (!put_updates(session))
		return G_SOURCE_CONTINUE;
	g_clear_pointer(&session->updating, g_source_unref);
	return G_SOURCE_REMOVE;
}

void km_session_queue_update(KmSession *session, KmListUpdate *update)
{
	KmListUpdate *queued = g_memdup2(update, sizeof(*update));

	memset(update, 0, sizeof(*update));
	g_clear_object(&queued->session);	/* the session holds the queue */
	g_queue_push_tail(&session->updates, queued);
	if (session->updating || put_updates(session))
		return;
	/* At the default priority, as input: input and frames come between the slices. */
	session->updating = g_idle_source_new();
	g_source_set_priority(session->updating, G_PRIORITY_DEFAULT);
	/* the session lives until its lists are complete or cleared */
	g_source_set_callback(session->updating, on_updating, g_object_ref(session),
			      g_object_unref);
	g_source_set_static_name(session->updating, "[km] session lists");
	g_source_attach(session->updating, session->context);
}

void km_session_clear_lists(KmSession *session)
{
	GSource *updating = g_steal_pointer(&session->updating);

	g_queue_clear_full(&session->updates, (GDestroyNotify)km_list_update_free);
	g_hash_table_remove_all(session->track_by_fid);
	g_list_store_remove_all(session->tracks);
	g_list_store_remove_all(session->playlists);
	km_session_set_capacity(session, 0, 0);
	/* last: its reference may be the session's last */
	if (updating) {
		g_source_destroy(updating);
		g_source_unref(updating);
	}
}
