/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-playlist-item.c - KmPlaylistItem: an immutable snapshot of one playlist. */
#include "km-playlist-item.h"

struct _KmPlaylistItem {
	GObject parent_instance;
	guint32 fid;
	char *name;
	GArray *fids;		/* guint32: entry i's fid */
	GPtrArray *tracks;	/* KmTrack* or NULL: entry i's track */
	GListStore *resolved;	/* the non-NULL tracks, in order */
	GArray *positions;	/* guint: entry index of resolved[i] */
};

G_DEFINE_FINAL_TYPE(KmPlaylistItem, km_playlist_item, G_TYPE_OBJECT)

enum {
	PROP_0,
	PROP_FID,
	PROP_NAME,
	PROP_N_ENTRIES,
	N_PROPS
};

static GParamSpec *props[N_PROPS];

/* Entries that do not resolve hold NULL. */
static void unref_track(gpointer track)
{
	if (track)
		g_object_unref(track);
}

KmPlaylistItem *km_playlist_item_new(guint32 fid, const char *name, const guint32 *fids,
				     KmTrack *const *tracks, guint n_entries)
{
	KmPlaylistItem *item = g_object_new(KM_TYPE_PLAYLIST_ITEM, NULL);
	g_autoptr(GHashTable) shown = g_hash_table_new(NULL, NULL);

	item->fid = fid;
	item->name = g_strdup(name ? name : "");
	g_array_append_vals(item->fids, fids, n_entries);
	for (guint i = 0; i < n_entries; i++) {
		g_autoptr(KmTrack) again = NULL;

		g_ptr_array_add(item->tracks, tracks[i] ? g_object_ref(tracks[i]) : NULL);
		if (!tracks[i])
			continue;
		/*
		 * A track listed twice gets a row of its own: a list view takes
		 * an item that is in its model twice for one row (GTK 4.12 and
		 * later warn "Duplicate item detected in list").
		 */
		if (!g_hash_table_add(shown, tracks[i]))
			again = km_track_new(km_track_get_properties(tracks[i]));
		g_list_store_append(item->resolved, again ? again : tracks[i]);
		g_array_append_val(item->positions, i);
	}
	return item;
}

guint32 km_playlist_item_get_fid(KmPlaylistItem *item)
{
	return item->fid;
}

const char *km_playlist_item_get_name(KmPlaylistItem *item)
{
	return item->name;
}

guint km_playlist_item_get_n_entries(KmPlaylistItem *item)
{
	return item->fids->len;
}

guint32 km_playlist_item_get_entry_fid(KmPlaylistItem *item, guint index)
{
	g_return_val_if_fail(index < item->fids->len, 0);
	return g_array_index(item->fids, guint32, index);
}

KmTrack *km_playlist_item_get_entry_track(KmPlaylistItem *item, guint index)
{
	g_return_val_if_fail(index < item->tracks->len, NULL);
	return g_ptr_array_index(item->tracks, index);
}

GListModel *km_playlist_item_get_tracks(KmPlaylistItem *item)
{
	return G_LIST_MODEL(item->resolved);
}

guint km_playlist_item_get_entry_index(KmPlaylistItem *item, guint position)
{
	g_return_val_if_fail(position < item->positions->len, 0);
	return g_array_index(item->positions, guint, position);
}

static void km_playlist_item_get_property(GObject *object, guint prop_id, GValue *value,
					  GParamSpec *pspec)
{
	KmPlaylistItem *item = KM_PLAYLIST_ITEM(object);

	switch (prop_id) {
	case PROP_FID:
		g_value_set_uint(value, item->fid);
		break;
	case PROP_NAME:
		g_value_set_string(value, item->name);
		break;
	case PROP_N_ENTRIES:
		g_value_set_uint(value, item->fids->len);
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
	}
}

static void km_playlist_item_finalize(GObject *object)
{
	KmPlaylistItem *item = KM_PLAYLIST_ITEM(object);

	g_free(item->name);
	g_array_unref(item->fids);
	g_ptr_array_unref(item->tracks);
	g_object_unref(item->resolved);
	g_array_unref(item->positions);
	G_OBJECT_CLASS(km_playlist_item_parent_class)->finalize(object);
}

static void km_playlist_item_class_init(KmPlaylistItemClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	const GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

	object_class->get_property = km_playlist_item_get_property;
	object_class->finalize = km_playlist_item_finalize;

	props[PROP_FID] = g_param_spec_uint("fid", NULL, NULL, 0, G_MAXUINT32, 0, flags);
	props[PROP_NAME] = g_param_spec_string("name", NULL, NULL, NULL, flags);
	props[PROP_N_ENTRIES] = g_param_spec_uint("n-entries", NULL, NULL, 0, G_MAXUINT, 0,
						  flags);
	g_object_class_install_properties(object_class, N_PROPS, props);
}

static void km_playlist_item_init(KmPlaylistItem *item)
{
	item->fids = g_array_new(FALSE, FALSE, sizeof(guint32));
	item->tracks = g_ptr_array_new_with_free_func(unref_track);
	item->resolved = g_list_store_new(KM_TYPE_TRACK);
	item->positions = g_array_new(FALSE, FALSE, sizeof(guint));
}
