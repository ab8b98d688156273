/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library.c - the KmLibrary object: the committed objects, lookups,
 * fid_generation, duplicates, closing. Opening is in km-library-open.c.
 */
#include "km-library-private.h"
#include "km-library-fs.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "km-playlist.h"

G_DEFINE_QUARK(km-library-error-quark, km_library_error)

gboolean km_library_error_is_device(const GError *error)
{
	return g_error_matches(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO) ||
	       g_error_matches(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_FAILED);
}
G_DEFINE_FINAL_TYPE(KmLibrary, km_library, G_TYPE_OBJECT)

/* Columns only the player changes: its smalldb row is their truth. */
static const char *const player_columns[] = {
	"play_count", "play_last", "marked", "play_count_limit",
};

static void km_library_finalize(GObject *object)
{
	KmLibrary *lib = KM_LIBRARY(object);

	if (lib->fs)
		km_library_close(lib, NULL);
	g_clear_pointer(&lib->window, km_partition_device_close);
	g_clear_pointer(&lib->objects, g_hash_table_unref);
	g_clear_pointer(&lib->fids, km_fid_allocator_free);
	g_clear_pointer(&lib->generation_floor, g_hash_table_unref);
	g_clear_pointer(&lib->pending_deletes, g_array_unref);
	g_clear_pointer(&lib->pending_journal, km_change_set_free);
	g_clear_pointer(&lib->rid_index, g_hash_table_unref);
	g_clear_pointer(&lib->sources, g_hash_table_unref);
	g_clear_pointer(&lib->warnings, g_ptr_array_unref);
	g_free(lib->failed);
	G_OBJECT_CLASS(km_library_parent_class)->finalize(object);
}

static void km_library_class_init(KmLibraryClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = km_library_finalize;
}

static void km_library_init(KmLibrary *lib)
{
	lib->objects = km_library_objects_new();
	lib->fids = km_fid_allocator_new();
	lib->generation_floor = g_hash_table_new(NULL, NULL);
	lib->pending_deletes = g_array_new(FALSE, FALSE, sizeof(guint32));
	lib->sources = km_sources_new();
	lib->warnings = g_ptr_array_new_null_terminated(4, g_free, TRUE);
	lib->fids0_ino = OMFS_NIL;
	lib->var_ino = OMFS_NIL;
}

GHashTable *km_library_objects_new(void)
{
	return g_hash_table_new_full(NULL, NULL, NULL, (GDestroyNotify)km_properties_unref);
}

gboolean km_library_close(KmLibrary *lib, GError **error)
{
	int err;

	g_return_val_if_fail(KM_IS_LIBRARY(lib), FALSE);
	if (!lib->fs)
		return TRUE;
	if (lib->tx)
		km_transaction_abandon(lib->tx);
	err = lib->writable ? omfs_sync(lib->fs) : 0;
	if (err < 0)
		km_files_error(lib, err, error, "writing back before closing");
	omfs_unmount(lib->fs);
	lib->fs = NULL;
	g_clear_pointer(&lib->window, km_partition_device_close);
	return err == 0;
}

gint64 km_library_now(KmLibrary *lib)
{
	if (lib->clock)
		return lib->clock(lib->clock_data);
	return g_get_real_time() / G_USEC_PER_SEC;
}

gboolean km_library_check_usable(KmLibrary *lib, gboolean write, GError **error)
{
	if (!lib->fs) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_FAILED,
			    _("the library is closed"));
		return FALSE;
	}
	if (lib->failed) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_FAILED,
			    /* Translators: why the earlier commit failed */
			    _("an earlier commit failed (%s): close the library and open it "
			      "again"),
			    lib->failed);
		return FALSE;
	}
	if (write && !lib->writable) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_READ_ONLY,
			    _("the library was opened read-only"));
		return FALSE;
	}
	return TRUE;
}

void km_library_mark_failed(KmLibrary *lib, const GError *why)
{
	if (!lib->failed)
		lib->failed = g_strdup(why ? why->message : "unknown error");
}

void km_library_warn(KmLibrary *lib, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_ptr_array_add(lib->warnings, g_strdup_vprintf(fmt, ap));
	va_end(ap);
}

void km_library_warn_damage(KmLibrary *lib, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_ptr_array_add(lib->warnings, g_strdup_vprintf(fmt, ap));
	va_end(ap);
	lib->found_damage = TRUE;
}

static gint compare_by_fid(gconstpointer a, gconstpointer b)
{
	guint32 fa = km_properties_get_fid(*(KmProperties *const *)a);
	guint32 fb = km_properties_get_fid(*(KmProperties *const *)b);

	return fa < fb ? -1 : fa > fb;
}

GPtrArray *km_library_sorted(GHashTable *objects)
{
	GPtrArray *all = g_ptr_array_new_full(g_hash_table_size(objects),
					      (GDestroyNotify)km_properties_unref);
	GHashTableIter iter;
	gpointer value;

	g_hash_table_iter_init(&iter, objects);
	while (g_hash_table_iter_next(&iter, NULL, &value))
		g_ptr_array_add(all, km_properties_ref(value));
	g_ptr_array_sort(all, compare_by_fid);
	return all;
}

/* ---- fid_generation ---- */

static void raise_floor(KmLibrary *lib, guint32 fid, guint32 generation)
{
	gpointer key = GUINT_TO_POINTER(fid);
	guint32 floor = GPOINTER_TO_UINT(g_hash_table_lookup(lib->generation_floor, key));

	if (generation > floor)
		g_hash_table_insert(lib->generation_floor, key, GUINT_TO_POINTER(generation));
}

/* Raise the floors: the object's own fid_generation, and a playlist's entries. */
static void note_generations(KmLibrary *lib, const KmProperties *object)
{
	g_autoptr(GArray) entries = NULL;
	guint64 generation;

	if (km_properties_get_uint(object, "fid_generation", &generation) &&
	    generation <= G_MAXUINT32)
		raise_floor(lib, km_properties_get_fid(object), (guint32)generation);
	if (km_properties_get_object_type(object) != KM_OBJECT_PLAYLIST)
		return;
	entries = km_playlist_from_properties(object, NULL);
	for (guint i = 0; entries && i < entries->len; i++) {
		const KmPlaylistEntry *e = &g_array_index(entries, KmPlaylistEntry, i);

		raise_floor(lib, e->fid, e->generation);
	}
}

/*
 * The current time, but strictly greater than every generation this fid has
 * had (or that a playlist entry names for it), so that an entry made for an
 * earlier owner of the fid never matches the new one, even within a second.
 */
guint32 km_library_new_generation(KmLibrary *lib, guint32 fid)
{
	guint32 floor = GPOINTER_TO_UINT(g_hash_table_lookup(lib->generation_floor,
							     GUINT_TO_POINTER(fid)));
	gint64 now = CLAMP(km_library_now(lib), 1, (gint64)G_MAXUINT32);
	guint32 generation;

	if (floor == G_MAXUINT32)
		return 0;
	generation = MAX((guint32)now, floor + 1);
	raise_floor(lib, fid, generation);
	return generation;
}

void km_library_set_objects(KmLibrary *lib, GHashTable *objects)
{
	GHashTableIter iter;
	gpointer value;

	g_hash_table_iter_init(&iter, objects);
	while (g_hash_table_iter_next(&iter, NULL, &value))
		note_generations(lib, value);
	g_hash_table_unref(lib->objects);
	lib->objects = objects;
	g_clear_pointer(&lib->rid_index, g_hash_table_unref);
}

/* ---- what an object needs ---- */

const char *km_library_object_damage(const KmProperties *object)
{
	const char *type = km_properties_get(object, "type");

	if (!type)
		return "no `type`";
	if (g_str_has_suffix(type, "\r"))
		return "CRLF line ends";
	if (strcmp(type, "playlist") == 0)
		return NULL;
	if (strcmp(type, "tune") != 0 && strcmp(type, "taxi") != 0)
		return "a `type` that is not tune, playlist or taxi";
	/* a length that is there but out of range is verify's bad-value, not damage */
	if (!km_properties_contains(object, "length"))
		return "no `length`";
	return NULL;
}

/* ---- effective objects and duplicates ---- */

KmProperties *km_library_effective(const KmProperties *file, const KmProperties *row)
{
	KmProperties *object = km_properties_copy(file);

	for (guint i = 0; row && i < G_N_ELEMENTS(player_columns); i++) {
		const char *key = player_columns[i];
		guint64 in_file = 0, in_row = 0;

		km_properties_get_uint(file, key, &in_file);
		km_properties_get_uint(row, key, &in_row);
		if (in_file == in_row)
			continue;
		if (km_properties_contains(row, key))
			km_properties_set(object, key, km_properties_get(row, key));
		else
			km_properties_remove(object, key);
	}
	km_properties_set_fid(object, km_properties_get_fid(file));
	return object;
}

static gboolean same_text(const KmProperties *a, const KmProperties *b, const char *key)
{
	const char *x = km_properties_get(a, key), *y = km_properties_get(b, key);

	return g_strcmp0(x ? x : "", y ? y : "") == 0;
}

static guint64 number_or_zero(const KmProperties *p, const char *key)
{
	guint64 v = 0;

	km_properties_get_uint(p, key, &v);
	return v;
}

gboolean km_library_is_duplicate(const KmProperties *existing, const KmProperties *candidate)
{
	const char *rid = km_properties_get(candidate, "rid");

	return rid && *rid && km_properties_get_object_type(existing) == KM_OBJECT_TUNE &&
	       same_text(existing, candidate, "rid") &&
	       same_text(existing, candidate, "artist") &&
	       same_text(existing, candidate, "source") &&
	       same_text(existing, candidate, "title") &&
	       number_or_zero(existing, "tracknr") == number_or_zero(candidate, "tracknr");
}

static gint compare_fid_values(gconstpointer a, gconstpointer b)
{
	guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;

	return x < y ? -1 : x > y;
}

/* Each rid's fids ascending, so that whoever looks one up meets them in fid order. */
static GHashTable *rid_index(KmLibrary *lib)
{
	GHashTableIter iter;
	gpointer value;

	if (lib->rid_index)
		return lib->rid_index;
	lib->rid_index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					       (GDestroyNotify)g_array_unref);
	g_hash_table_iter_init(&iter, lib->objects);
	while (g_hash_table_iter_next(&iter, NULL, &value)) {
		const char *rid = km_properties_get(value, "rid");
		guint32 fid = km_properties_get_fid(value);
		GArray *fids;

		if (!rid || !*rid)
			continue;
		fids = g_hash_table_lookup(lib->rid_index, rid);
		if (!fids) {
			fids = g_array_new(FALSE, FALSE, sizeof(guint32));
			g_hash_table_insert(lib->rid_index, g_strdup(rid), fids);
		}
		g_array_append_val(fids, fid);
	}
	g_hash_table_iter_init(&iter, lib->rid_index);
	while (g_hash_table_iter_next(&iter, NULL, &value))
		g_array_sort(value, compare_fid_values);
	return lib->rid_index;
}

const GArray *km_library_fids_with_rid(KmLibrary *lib, const char *rid)
{
	return rid && *rid ? g_hash_table_lookup(rid_index(lib), rid) : NULL;
}

gboolean km_library_find_duplicate(KmLibrary *lib, const KmProperties *candidate, guint32 *fid)
{
	const char *rid = km_properties_get(candidate, "rid");
	GArray *fids;

	g_return_val_if_fail(KM_IS_LIBRARY(lib), FALSE);
	if (!rid || !*rid)
		return FALSE;
	fids = g_hash_table_lookup(rid_index(lib), rid);
	for (guint i = 0; fids && i < fids->len; i++) {
		guint32 f = g_array_index(fids, guint32, i);
		KmProperties *existing = g_hash_table_lookup(lib->objects, GUINT_TO_POINTER(f));

		if (existing && km_library_is_duplicate(existing, candidate)) {
			if (fid)
				*fid = f;
			return TRUE;
		}
	}
	return FALSE;
}

/* ---- accessors ---- */

gboolean km_library_is_writable(KmLibrary *lib)
{
	g_return_val_if_fail(KM_IS_LIBRARY(lib), FALSE);
	return lib->writable;
}

guint km_library_get_partition(KmLibrary *lib)
{
	g_return_val_if_fail(KM_IS_LIBRARY(lib), 0);
	return lib->partition;
}

const char *const *km_library_get_warnings(KmLibrary *lib)
{
	g_return_val_if_fail(KM_IS_LIBRARY(lib), NULL);
	return (const char *const *)lib->warnings->pdata;
}

gboolean km_library_found_damage(KmLibrary *lib)
{
	g_return_val_if_fail(KM_IS_LIBRARY(lib), FALSE);
	return lib->found_damage;
}

struct omfs_fs *km_library_get_fs(KmLibrary *lib)
{
	g_return_val_if_fail(KM_IS_LIBRARY(lib), NULL);
	return lib->fs;
}

guint km_library_get_smalldb_writes(KmLibrary *lib)
{
	g_return_val_if_fail(KM_IS_LIBRARY(lib), 0);
	return lib->smalldb_writes;
}

guint km_library_get_n_objects(KmLibrary *lib)
{
	g_return_val_if_fail(KM_IS_LIBRARY(lib), 0);
	return g_hash_table_size(lib->objects);
}

KmProperties *km_library_lookup(KmLibrary *lib, guint32 fid)
{
	g_return_val_if_fail(KM_IS_LIBRARY(lib), NULL);
	return g_hash_table_lookup(lib->objects, GUINT_TO_POINTER(fid));
}

GPtrArray *km_library_list(KmLibrary *lib)
{
	g_return_val_if_fail(KM_IS_LIBRARY(lib), NULL);
	return km_library_sorted(lib->objects);
}

KmProperties *km_library_resolve(KmLibrary *lib, guint32 fid, guint32 generation)
{
	KmProperties *object = km_library_lookup(lib, fid);
	guint64 have;

	if (!object || !km_properties_get_uint(object, "fid_generation", &have) ||
	    have != generation)
		return NULL;
	return object;
}

/* The data file's inode, or an error naming the fid. */
static gboolean data_inode(KmLibrary *lib, guint32 fid, uint64_t *ino, GError **error)
{
	char path[KM_FID_PATH_SIZE];
	int err;

	if (!km_library_check_usable(lib, FALSE, error))
		return FALSE;
	if (!km_fid_is_valid(fid) || !km_library_lookup(lib, fid)) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NOT_FOUND,
			    "no object has fid %u", fid);
		return FALSE;
	}
	km_fid_format_path(fid, KM_FID_FILE_DATA, path);
	err = omfs_resolve(lib->fs, path, ino);
	return err == 0 || km_files_error(lib, err, error, path);
}

gboolean km_library_get_data_size(KmLibrary *lib, guint32 fid, guint64 *size, GError **error)
{
	struct omfs_stat st;
	uint64_t ino;
	int err;

	g_return_val_if_fail(KM_IS_LIBRARY(lib), FALSE);
	if (!data_inode(lib, fid, &ino, error))
		return FALSE;
	err = omfs_stat(lib->fs, ino, &st);
	if (err)
		return km_files_error(lib, err, error, "the data file");
	*size = st.size;
	return TRUE;
}

gssize km_library_read_data(KmLibrary *lib, guint32 fid, guint64 offset, void *buf, gsize len,
			    GError **error)
{
	uint64_t ino;
	int64_t n;

	g_return_val_if_fail(KM_IS_LIBRARY(lib), -1);
	if (!data_inode(lib, fid, &ino, error))
		return -1;
	n = omfs_read(lib->fs, ino, offset, buf, MIN(len, (gsize)G_MAXINT32));
	if (n < 0) {
		km_files_error(lib, (int)n, error, "the data file");
		return -1;
	}
	return (gssize)n;
}
