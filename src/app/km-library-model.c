/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-model.c - grouping the flat track list into artists and albums.
 *
 * A mirror of the source list (one reference per position) tells which
 * track items-changed removed, since the source no longer has it. Groups are
 * found by name in two hash tables; a group that loses its last child goes.
 */
#define G_LOG_DOMAIN "km-library-model"

#include "config.h"

#include <string.h>

#include "km-library-group.h"
#include "km-library-model.h"
#include "km-track.h"

struct _KmLibraryModel {
	GObject parent_instance;
	GListModel *source;
	GPtrArray *mirror;	/* KmTrack, as in source */
	GListStore *artists;
	GHashTable *artist_groups;	/* artist key -> KmLibraryGroup (borrowed) */
	GHashTable *album_groups;	/* album_key() -> KmLibraryGroup (borrowed) */
};

G_DEFINE_FINAL_TYPE(KmLibraryModel, km_library_model, G_TYPE_OBJECT)

/* Absent and empty names are one group. */
static const char *group_key(const char *name)
{
	return name ? name : "";
}

static const char *nonempty(const char *name)
{
	return name && *name ? name : NULL;
}

static int compare_groups(gconstpointer a, gconstpointer b, gpointer user_data)
{
	const char *na = km_library_group_get_name((KmLibraryGroup *)a);
	const char *nb = km_library_group_get_name((KmLibraryGroup *)b);

	/* the unknown group last */
	if (!na || !nb)
		return (na == NULL) - (nb == NULL);
	return g_utf8_collate(na, nb);
}

static int compare_tracks(gconstpointer a, gconstpointer b, gpointer user_data)
{
	KmTrack *ta = (KmTrack *)a, *tb = (KmTrack *)b;
	guint na = km_track_get_track_number(ta), nb = km_track_get_track_number(tb);

	if (na != nb)
		return na < nb ? -1 : 1;
	return strcmp(km_track_get_title_sort_key(ta), km_track_get_title_sort_key(tb));
}

static int compare_track_pointers(gconstpointer a, gconstpointer b)
{
	return compare_tracks(*(KmTrack *const *)a, *(KmTrack *const *)b, NULL);
}

/* The group with key in table, made (and put in parent, in name order) when absent. */
static KmLibraryGroup *find_or_add_group(GHashTable *table, GListStore *parent, const char *key,
					 KmLibraryGroupKind kind, const char *name)
{
	KmLibraryGroup *group = g_hash_table_lookup(table, key);

	if (group)
		return group;
	group = km_library_group_new(kind, name);
	g_hash_table_insert(table, g_strdup(key), group);
	g_list_store_insert_sorted(parent, group, compare_groups, NULL);
	g_object_unref(group);	/* parent holds it */
	return group;
}

/*
 * The album's key: the artist's name with its length in front, then the
 * album's, so that no two (artist, album) pairs share one, whatever
 * characters the names hold.
 */
static char *album_key(const char *artist, const char *album)
{
	return g_strdup_printf("%zu:%s%s", strlen(group_key(artist)), group_key(artist),
			       group_key(album));
}

/* The album group track goes into, made (with its artist) when it is new. */
static KmLibraryGroup *album_of(KmLibraryModel *self, KmTrack *track)
{
	const char *artist = nonempty(km_track_get_artist(track));
	const char *album = nonempty(km_track_get_album(track));
	g_autofree char *key = album_key(artist, album);
	KmLibraryGroup *group = g_hash_table_lookup(self->album_groups, key);
	KmLibraryGroup *artist_group;

	if (group)
		return group;
	artist_group = find_or_add_group(self->artist_groups, self->artists, group_key(artist),
					 KM_LIBRARY_GROUP_ARTIST, artist);
	return find_or_add_group(self->album_groups, km_library_group_get_children(artist_group),
				 key, KM_LIBRARY_GROUP_ALBUM, album);
}

/*
 * Tracks for one album: into an empty album sorted at once and spliced in
 * one step (the first load), else one by one in their place.
 */
static void add_to_album(KmLibraryGroup *album, GPtrArray *tracks)
{
	GListStore *store = km_library_group_get_children(album);

	if (g_list_model_get_n_items(G_LIST_MODEL(store)) == 0) {
		g_ptr_array_sort(tracks, compare_track_pointers);
		g_list_store_splice(store, 0, 0, tracks->pdata, tracks->len);
		return;
	}
	for (guint i = 0; i < tracks->len; i++)
		g_list_store_insert_sorted(store, tracks->pdata[i], compare_tracks, NULL);
}

static void add_tracks(KmLibraryModel *self, GListModel *source, guint position, guint added)
{
	g_autoptr(GHashTable) batches = g_hash_table_new_full(NULL, NULL, NULL,
							      (GDestroyNotify)g_ptr_array_unref);
	GHashTableIter iter;
	gpointer album, tracks;

	for (guint i = 0; i < added; i++) {
		KmTrack *track = g_list_model_get_item(source, position + i);
		KmLibraryGroup *group = album_of(self, track);
		GPtrArray *batch = g_hash_table_lookup(batches, group);

		g_ptr_array_insert(self->mirror, position + i, track);
		if (!batch) {
			batch = g_ptr_array_new();
			g_hash_table_insert(batches, group, batch);
		}
		g_ptr_array_add(batch, track);
	}
	g_hash_table_iter_init(&iter, batches);
	while (g_hash_table_iter_next(&iter, &album, &tracks))
		add_to_album(album, tracks);
}

/* Removes item from store; TRUE when the store is then empty. */
static gboolean remove_from_store(GListStore *store, gpointer item)
{
	guint pos;

	if (g_list_store_find(store, item, &pos))
		g_list_store_remove(store, pos);
	return g_list_model_get_n_items(G_LIST_MODEL(store)) == 0;
}

static void remove_track(KmLibraryModel *self, KmTrack *track)
{
	const char *artist_key = group_key(nonempty(km_track_get_artist(track)));
	g_autofree char *akey = album_key(nonempty(km_track_get_artist(track)),
					  nonempty(km_track_get_album(track)));
	KmLibraryGroup *artist_group = g_hash_table_lookup(self->artist_groups, artist_key);
	KmLibraryGroup *album_group = g_hash_table_lookup(self->album_groups, akey);

	if (!artist_group || !album_group)
		return;
	if (!remove_from_store(km_library_group_get_children(album_group), track))
		return;
	g_hash_table_remove(self->album_groups, akey);
	if (!remove_from_store(km_library_group_get_children(artist_group), album_group))
		return;
	g_hash_table_remove(self->artist_groups, artist_key);
	remove_from_store(self->artists, artist_group);
}

static void on_items_changed(KmLibraryModel *self, guint position, guint removed, guint added,
			     GListModel *source)
{
	g_return_if_fail(position + removed <= self->mirror->len);

	for (guint i = 0; i < removed; i++)
		remove_track(self, g_ptr_array_index(self->mirror, position + i));
	g_ptr_array_remove_range(self->mirror, position, removed);
	add_tracks(self, source, position, added);
}

static void km_library_model_dispose(GObject *object)
{
	KmLibraryModel *self = KM_LIBRARY_MODEL(object);

	if (self->source)
		g_signal_handlers_disconnect_by_data(self->source, self);
	g_clear_object(&self->source);
	G_OBJECT_CLASS(km_library_model_parent_class)->dispose(object);
}

static void km_library_model_finalize(GObject *object)
{
	KmLibraryModel *self = KM_LIBRARY_MODEL(object);

	g_hash_table_destroy(self->album_groups);
	g_hash_table_destroy(self->artist_groups);
	g_ptr_array_unref(self->mirror);
	g_object_unref(self->artists);
	G_OBJECT_CLASS(km_library_model_parent_class)->finalize(object);
}

static void km_library_model_class_init(KmLibraryModelClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);

	object_class->dispose = km_library_model_dispose;
	object_class->finalize = km_library_model_finalize;
}

static void km_library_model_init(KmLibraryModel *self)
{
	self->mirror = g_ptr_array_new_with_free_func(g_object_unref);
	self->artists = g_list_store_new(KM_TYPE_LIBRARY_GROUP);
	self->artist_groups = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	self->album_groups = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
}

KmLibraryModel *km_library_model_new(GListModel *tracks)
{
	KmLibraryModel *self;

	g_return_val_if_fail(G_IS_LIST_MODEL(tracks), NULL);
	self = g_object_new(KM_TYPE_LIBRARY_MODEL, NULL);
	self->source = g_object_ref(tracks);
	g_signal_connect_swapped(tracks, "items-changed", G_CALLBACK(on_items_changed), self);
	on_items_changed(self, 0, 0, g_list_model_get_n_items(tracks), tracks);
	return self;
}

GListModel *km_library_model_get_artists(KmLibraryModel *self)
{
	g_return_val_if_fail(KM_IS_LIBRARY_MODEL(self), NULL);
	return G_LIST_MODEL(self->artists);
}
