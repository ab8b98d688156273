/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-space.c - the music partition's capacity, writing it back to
 * the disk, and the one room check both faces make before an add: whether
 * a file fits with everything its commit will write (km-commit.c counts the
 * same way when it makes room).
 */
#include "km-library-private.h"
#include "km-transaction-private.h"

#include <glib/gi18n-lib.h>

/*
 * Beyond what the commit is counted to write: the fid directories and the
 * bitmap are written back as the core sees fit, and a smalldb row is only
 * estimated.
 */
#define ROOM_MARGIN ((guint64)1 << 20)

static gboolean read_statfs(KmLibrary *lib, struct omfs_statfs *sfs, GError **error)
{
	int err;

	if (!km_library_check_usable(lib, FALSE, error))
		return FALSE;
	err = omfs_statfs(lib->fs, sfs);
	return err == 0 || km_files_error(lib, err, error, _("reading the free space"));
}

gboolean km_library_get_space(KmLibrary *lib, KmLibrarySpace *space, GError **error)
{
	struct omfs_statfs sfs;

	g_return_val_if_fail(KM_IS_LIBRARY(lib), FALSE);
	if (!read_statfs(lib, &sfs, error))
		return FALSE;
	space->total_bytes = sfs.num_blocks * sfs.blocksize;
	space->free_bytes = sfs.free_blocks * sfs.blocksize;
	return TRUE;
}

gboolean km_library_flush(KmLibrary *lib, GError **error)
{
	int err;

	g_return_val_if_fail(KM_IS_LIBRARY(lib), FALSE);
	if (!km_library_check_usable(lib, FALSE, error))
		return FALSE;
	err = omfs_sync(lib->fs);
	if (err == 0)
		err = lib->volume->flush(lib->volume->ctx);
	return err == 0 || km_files_error(lib, err, error, _("writing back to the player"));
}

/* The size of var/smalldb as it is on the disk (0 when there is none). */
static gboolean smalldb_size(KmLibrary *lib, guint64 *size, GError **error)
{
	struct omfs_stat st;
	gboolean found;

	if (!km_files_stat_smalldb(lib, &st, &found, error))
		return FALSE;
	*size = found ? st.size : 0;
	return TRUE;
}

gboolean km_transaction_check_room(KmTransaction *tx, const KmProperties *props, guint64 size,
				   KmRoom *room, GError **error)
{
	g_autoptr(KmProperties) added = NULL;
	struct omfs_statfs sfs;
	guint64 smalldb, blocks;

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), FALSE);
	g_return_val_if_fail(props && room, FALSE);
	if (!km_transaction_check(tx, error) || !read_statfs(tx->lib, &sfs, error) ||
	    !smalldb_size(tx->lib, &smalldb, error))
		return FALSE;
	/* the new object as the add stages it, its numbers as wide as they can be */
	added = km_transaction_new_object(props, KM_FID_LAST, G_MAXUINT32, size, G_MAXUINT32);
	blocks = km_commit_file_blocks(&sfs, size) +
		 km_transaction_room_blocks(tx, &sfs, added, smalldb);
	room->needed = blocks * sfs.blocksize + ROOM_MARGIN;
	room->free_bytes = sfs.free_blocks * sfs.blocksize;
	room->fits = room->needed <= room->free_bytes;
	return TRUE;
}
