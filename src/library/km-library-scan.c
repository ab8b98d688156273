/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-scan.c - every file under fids0/: which fids have a data file,
 * a properties file or both, and what the properties files say. This is the
 * slow path (one read per object); opening takes it only without smalldb.
 */
#include "km-library-private.h"

#include <string.h>

static void entry_free(gpointer data)
{
	KmScanEntry *e = data;

	if (e->props)
		km_properties_unref(e->props);
	if (e->damaged)
		km_properties_unref(e->damaged);
	g_free(e->problem);
	g_free(e->data_problem);
	g_free(e->blocked);
	g_free(e);
}

void km_scan_free(KmScan *scan)
{
	if (!scan)
		return;
	g_hash_table_unref(scan->entries);
	g_ptr_array_unref(scan->strays);
	g_free(scan);
}

static KmScanEntry *entry_for(KmScan *scan, guint32 fid)
{
	KmScanEntry *e = g_hash_table_lookup(scan->entries, GUINT_TO_POINTER(fid));

	if (e)
		return e;
	e = g_new0(KmScanEntry, 1);
	e->fid = fid;
	e->data_ino = OMFS_NIL;
	e->props_ino = OMFS_NIL;
	g_hash_table_insert(scan->entries, GUINT_TO_POINTER(fid), e);
	return e;
}

static gboolean is_fid_dir_name(const char *name)
{
	guint32 fid;

	/* "_hhhhh" is a fid directory when "_hhhhh"/"000" is a fid file name. */
	return km_fid_from_names(name, "000", &fid, NULL);
}

static gboolean readdir_failed(KmLibrary *lib, int err, const char *dir, GError **error)
{
	g_autofree char *what = g_strdup_printf("listing %s", dir);

	return km_files_error(lib, err, error, what);
}

static gboolean scan_fid_dir(KmLibrary *lib, KmScan *scan, const char *dname, uint64_t dir,
			     GError **error)
{
	struct omfs_dirent ent;
	uint64_t pos = 0;
	int ret;

	while ((ret = omfs_readdir(lib->fs, dir, &pos, &ent)) == 1) {
		KmFidFile which;
		KmScanEntry *e;
		guint32 fid;

		if (strlen(ent.name) != ent.namelen ||
		    !km_fid_from_names(dname, ent.name, &fid, &which)) {
			g_ptr_array_add(scan->strays, g_strdup_printf(KM_FID_ROOT "/%s/%s", dname,
								      ent.name));
			continue;
		}
		e = entry_for(scan, fid);
		if (ent.is_dir) {
			/* nothing can be written or removed there until the user removes it */
			g_free(e->blocked);
			e->blocked = g_strdup_printf(KM_FID_ROOT "/%s/%s", dname, ent.name);
			e->blocked_file = which;
		} else if (which == KM_FID_FILE_DATA)
			e->data_ino = ent.ino;
		else
			e->props_ino = ent.ino;
	}
	if (ret < 0) {
		g_autofree char *path = g_strconcat(KM_FID_ROOT "/", dname, NULL);

		return readdir_failed(lib, ret, path, error);
	}
	return TRUE;
}

static gboolean scan_names(KmLibrary *lib, KmScan *scan, GCancellable *cancellable,
			   GError **error)
{
	struct omfs_dirent ent;
	uint64_t pos = 0;
	int ret;

	while ((ret = omfs_readdir(lib->fs, lib->fids0_ino, &pos, &ent)) == 1) {
		if (g_cancellable_set_error_if_cancelled(cancellable, error))
			return FALSE;
		if (!ent.is_dir || strlen(ent.name) != ent.namelen || !is_fid_dir_name(ent.name)) {
			g_ptr_array_add(scan->strays, g_strdup_printf(KM_FID_ROOT "/%s", ent.name));
			continue;
		}
		if (!scan_fid_dir(lib, scan, ent.name, ent.ino, error))
			return FALSE;
	}
	return ret == 0 || readdir_failed(lib, ret, KM_FID_ROOT, error);
}

static void examine_data(KmLibrary *lib, KmScanEntry *e)
{
	struct omfs_stat st;
	int err;

	if (e->data_ino == OMFS_NIL)
		return;
	err = omfs_stat(lib->fs, e->data_ino, &st);
	if (err)
		e->data_problem = g_strdup_printf("%s (%s)", g_strerror(-err),
						  omfs_errmsg(lib->fs));
	else
		e->data_size = st.size;
}

static void read_props(KmLibrary *lib, KmScanEntry *e)
{
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(GError) local = NULL;
	char path[KM_FID_PATH_SIZE];

	if (e->props_ino == OMFS_NIL)
		return;
	km_fid_format_path(e->fid, KM_FID_FILE_PROPERTIES, path);
	bytes = km_files_read(lib, e->props_ino, KM_PROPERTIES_MAX_SIZE, path, &local);
	if (bytes)
		e->props = km_properties_parse(g_bytes_get_data(bytes, NULL),
					       g_bytes_get_size(bytes), &local);
	if (e->props && km_library_object_damage(e->props)) {
		e->problem = g_strdup(km_library_object_damage(e->props));
		e->damaged = g_steal_pointer(&e->props);
		return;
	}
	if (!e->props) {
		e->problem = g_strdup(local->message);
		return;
	}
	km_properties_set_fid(e->props, e->fid);
}

KmScan *km_library_scan(KmLibrary *lib, GCancellable *cancellable, GError **error)
{
	g_autoptr(KmScan) scan = g_new0(KmScan, 1);
	GHashTableIter iter;
	gpointer value;
	guint n = 0;

	scan->entries = g_hash_table_new_full(NULL, NULL, NULL, entry_free);
	scan->strays = g_ptr_array_new_with_free_func(g_free);
	if (!scan_names(lib, scan, cancellable, error))
		return NULL;
	g_hash_table_iter_init(&iter, scan->entries);
	while (g_hash_table_iter_next(&iter, NULL, &value)) {
		if (++n % 256 == 0 && g_cancellable_set_error_if_cancelled(cancellable, error))
			return NULL;
		examine_data(lib, value);
		read_props(lib, value);
	}
	return g_steal_pointer(&scan);
}

GHashTable *km_rows_by_fid(GPtrArray *rows)
{
	GHashTable *by_fid = km_library_objects_new();

	for (guint i = 0; rows && i < rows->len; i++)
		g_hash_table_insert(by_fid, GUINT_TO_POINTER(km_properties_get_fid(rows->pdata[i])),
				    km_properties_ref(rows->pdata[i]));
	return by_fid;
}

GHashTable *km_scan_objects(const KmScan *scan, GHashTable *rows)
{
	GHashTable *objects = km_library_objects_new();
	GHashTableIter iter;
	gpointer key, value;

	g_hash_table_iter_init(&iter, scan->entries);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		const KmScanEntry *e = value;
		const KmProperties *row = rows ? g_hash_table_lookup(rows, key) : NULL;

		if (e->data_ino == OMFS_NIL || !e->props)
			continue;
		g_hash_table_insert(objects, key, km_library_effective(e->props, row));
	}
	return objects;
}
