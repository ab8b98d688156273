/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-library-files.c - whole files on the mounted music partition, through the core's API. */
#include "km-library-private.h"

#include <errno.h>
#include <string.h>

gboolean km_files_error(KmLibrary *lib, int err, GError **error, const char *what)
{
	const char *why = lib->fs ? omfs_errmsg(lib->fs) : NULL;

	/* a damaged structure (a bad header, no mirror copy verifies) is this file's, not the device's */
	g_set_error(error, KM_LIBRARY_ERROR,
		    err == -EUCLEAN ? KM_LIBRARY_ERROR_CORRUPT : KM_LIBRARY_ERROR_IO,
		    "%s: %s%s%s%s", what,
		    g_strerror(-err), why && *why ? " (" : "", why && *why ? why : "",
		    why && *why ? ")" : "");
	return FALSE;
}

gboolean km_files_lookup(KmLibrary *lib, uint64_t dir, const char *name, uint64_t *ino,
			 GError **error)
{
	int err = omfs_lookup(lib->fs, dir, name, strlen(name), ino);

	if (err == -ENOENT) {
		*ino = OMFS_NIL;
		return TRUE;
	}
	return err == 0 || km_files_error(lib, err, error, name);
}

gboolean km_files_stat(KmLibrary *lib, uint64_t dir, const char *name, const char *what,
		       struct omfs_stat *st, gboolean *found, GError **error)
{
	uint64_t ino;
	int err;

	*found = FALSE;
	if (!km_files_lookup(lib, dir, name, &ino, error))
		return FALSE;
	if (ino == OMFS_NIL)
		return TRUE;
	err = omfs_stat(lib->fs, ino, st);
	if (err)
		return km_files_error(lib, err, error, what);
	*found = TRUE;
	return TRUE;
}

gboolean km_files_stat_smalldb(KmLibrary *lib, struct omfs_stat *st, gboolean *found,
			       GError **error)
{
	return km_files_stat(lib, lib->var_ino, KM_SMALLDB_NAME, KM_VAR "/" KM_SMALLDB_NAME, st,
			     found, error);
}

GBytes *km_files_read(KmLibrary *lib, uint64_t ino, gsize max, const char *what, GError **error)
{
	struct omfs_stat st;
	guint8 *data;
	int64_t n;
	int err;

	err = omfs_stat(lib->fs, ino, &st);
	if (err) {
		km_files_error(lib, err, error, what);
		return NULL;
	}
	if (st.is_dir || st.size > max) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_CORRUPT,
			    "%s: %s", what, st.is_dir ? "a directory, not a file" :
			    "larger than any real one");
		return NULL;
	}
	data = g_try_malloc(st.size ? st.size : 1);
	if (!data) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO,
			    "%s: no memory for %" G_GUINT64_FORMAT " bytes", what,
			    (guint64)st.size);
		return NULL;
	}
	n = omfs_read(lib->fs, ino, 0, data, st.size);
	if (n < 0 || (guint64)n != st.size) {
		g_free(data);
		if (n >= 0) {
			g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO,
				    "%s: read %" G_GINT64_FORMAT " of %" G_GUINT64_FORMAT " bytes",
				    what, (gint64)n, (guint64)st.size);
			return NULL;
		}
		km_files_error(lib, (int)n, error, what);
		return NULL;
	}
	return g_bytes_new_take(data, st.size);
}

gboolean km_files_remove(KmLibrary *lib, uint64_t dir, const char *name, const char *what,
			 GError **error)
{
	int err = omfs_unlink(lib->fs, dir, name, strlen(name));

	return err == 0 || err == -ENOENT || km_files_error(lib, err, error, what);
}

/*
 * An old file of that name is removed and written back before the new one is
 * created: unlinking and linking can change two different sysblocks (the
 * previous inode in the hash chain, the bucket head), and written in the
 * other order they would leave the name in the directory twice.
 */
gboolean km_files_replace(KmLibrary *lib, uint64_t dir, const char *name, GBytes *data,
			  const char *what, GError **error)
{
	gsize len;
	const void *bytes = g_bytes_get_data(data, &len);
	uint64_t ino;
	int64_t n;
	int err;

	if (!km_files_lookup(lib, dir, name, &ino, error))
		return FALSE;
	if (ino != OMFS_NIL &&
	    (!km_files_remove(lib, dir, name, what, error) || !km_files_sync(lib, error)))
		return FALSE;
	err = omfs_create(lib->fs, dir, name, strlen(name), &ino);
	if (err)
		return km_files_error(lib, err, error, what);
	n = len ? omfs_write(lib->fs, ino, 0, bytes, len) : 0;
	if (n < 0)
		return km_files_error(lib, (int)n, error, what);
	return TRUE;
}

void km_files_fid_name(guint32 fid, KmFidFile which, char name[4])
{
	char path[KM_FID_PATH_SIZE];

	km_fid_format_path(fid, which, path);
	memcpy(name, path + KM_FID_PATH_SIZE - 4, 4);
}

gboolean km_files_fid_dir(KmLibrary *lib, guint32 fid, gboolean create, uint64_t *dir,
			  GError **error)
{
	g_autofree char *name = km_fid_dir_name(fid);
	g_autofree char *what = g_strconcat(KM_FID_ROOT "/", name, NULL);
	int err;

	if (!km_files_lookup(lib, lib->fids0_ino, name, dir, error))
		return FALSE;
	if (*dir != OMFS_NIL || !create)
		return TRUE;
	err = omfs_mkdir(lib->fs, lib->fids0_ino, name, strlen(name), dir);
	return err == 0 || km_files_error(lib, err, error, what);
}

/* lost+found at the root, made when missing. */
static gboolean lost_found_dir(KmLibrary *lib, uint64_t *dir, GError **error)
{
	uint64_t root = omfs_root_ino(lib->fs);
	int err;

	if (!km_files_lookup(lib, root, KM_LOST_FOUND, dir, error))
		return FALSE;
	if (*dir != OMFS_NIL)
		return TRUE;
	err = omfs_mkdir(lib->fs, root, KM_LOST_FOUND, strlen(KM_LOST_FOUND), dir);
	return err == 0 || km_files_error(lib, err, error, KM_LOST_FOUND);
}

gboolean km_files_move_aside(KmLibrary *lib, guint32 fid, char **where, GError **error)
{
	char name[4], path[KM_FID_PATH_SIZE];
	g_autofree char *target = NULL;
	uint64_t dir, lost, ino = OMFS_NIL;
	int err;

	if (!km_files_fid_dir(lib, fid, FALSE, &dir, error) || !lost_found_dir(lib, &lost, error))
		return FALSE;
	for (guint n = 0; n == 0 || ino != OMFS_NIL; n++) {
		g_free(target);
		target = n ? g_strdup_printf("fid-%u.%u", fid, n) : g_strdup_printf("fid-%u", fid);
		if (!km_files_lookup(lib, lost, target, &ino, error))
			return FALSE;
	}
	km_files_fid_name(fid, KM_FID_FILE_DATA, name);
	km_fid_format_path(fid, KM_FID_FILE_DATA, path);
	err = omfs_rename(lib->fs, dir, name, strlen(name), lost, target, strlen(target));
	if (err)
		return km_files_error(lib, err, error, path);
	*where = g_strconcat(KM_LOST_FOUND "/", target, NULL);
	return TRUE;
}

gboolean km_files_sync(KmLibrary *lib, GError **error)
{
	int err = omfs_sync(lib->fs);

	return err == 0 || km_files_error(lib, err, error, "writing back");
}

GPtrArray *km_files_read_smalldb(KmLibrary *lib, KmSmalldbHeader *hdr, GArray **deleted,
				 gboolean *missing, GError **error)
{
	g_autoptr(GBytes) bytes = NULL;
	uint64_t ino;

	*missing = FALSE;
	if (!km_files_lookup(lib, lib->var_ino, KM_SMALLDB_NAME, &ino, error))
		return NULL;
	if (ino == OMFS_NIL) {
		*missing = TRUE;
		return NULL;
	}
	bytes = km_files_read(lib, ino, KM_SMALLDB_MAX_SIZE, KM_VAR "/" KM_SMALLDB_NAME, error);
	if (!bytes)
		return NULL;
	return km_smalldb_parse(bytes, hdr, deleted, error);
}
