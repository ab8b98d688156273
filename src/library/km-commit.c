/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-commit.c - writing a set of changes and the new var/smalldb, in an
 * order that leaves a library that opens after a power cut at any point.
 *
 * What the core guarantees (omfs.h, docs/FORMAT.md §13): a file created,
 * written and written back appears whole or not at all; omfs_sync is a
 * barrier. What it does not: omfs_rename is not atomic (the inode leaves
 * its old name, that is written back, then it takes the new one), and
 * overwriting a file in place can leave it half old, half new. So the
 * order is:
 *
 *   0. Before commit, each added track's data file was written under a
 *      fid that no properties file and no smalldb row names: an orphan,
 *      which verify --repair moves to lost+found, until step 3 names it.
 *   1. sync: that data is on the disk.
 *   2. var/km-journal, whole, with a checksum: every properties file to
 *      write, every object to remove (the player's deletions included);
 *      sync. This is the commit point. Before it the disk holds the old
 *      library (plus orphans); after it, opening the library writable
 *      finishes the commit from the journal, and read-only shows it done.
 *   3. The properties files replaced (and a playlist's data file, its
 *      blob) removed; sync; the new ones created. (Never a remove and a
 *      create of one name in one write-back: see km_files_replace.)
 *   4. The new smalldb, built (before step 2, so that it cannot fail now)
 *      from the whole new library, written to var/smalldb.new; sync (the
 *      new properties files' too: nothing reads smalldb.new, so they need
 *      no sync of their own before it); renamed over var/smalldb; sync. The player finds the old smalldb,
 *      the new one, or for the instant inside the rename none (a reopen
 *      finishes the commit from the journal, which rewrites it). Neither
 *      names a file that is not there: new files came before, and
 *      removed ones go after.
 *   5. The files of removed objects, properties first (so an object never
 *      has properties without data); sync.
 *   6. var/km-journal removed; sync.
 *
 * Steps 3 to 6 do the same thing when done twice, so a commit interrupted
 * while it was being finished is finished again. A repair writes no
 * journal (KM_COMMIT_REPAIR): what it writes restores what the files and
 * smalldb already say, so a repair cut short leaves findings that the next
 * verify repairs, and a repair that fails leaves no journal for every later
 * open to trip over. Rebuilding smalldb alone
 * (no file changes) needs no journal: it is step 4, and a power cut inside
 * its rename leaves no smalldb, which opening reads past (from the
 * properties files) and the next commit writes.
 */
#include "km-library-private.h"

#include <string.h>

#include "km-playlist.h"

static gboolean in_array(GArray *fids, guint32 fid)
{
	for (guint i = 0; i < fids->len; i++)
		if (g_array_index(fids, guint32, i) == fid)
			return TRUE;
	return FALSE;
}

/* The player's deletions go with every commit (before its journal is written, into it). */
static void add_pending_deletes(KmLibrary *lib, KmChangeSet *cs)
{
	for (guint i = 0; i < lib->pending_deletes->len; i++) {
		guint32 fid = g_array_index(lib->pending_deletes, guint32, i);

		if (!in_array(cs->deletes, fid))
			km_change_set_delete(cs, fid);
	}
}

GHashTable *km_library_apply_in_memory(KmLibrary *lib, const KmChangeSet *cs)
{
	GHashTable *objects = km_library_objects_new();
	GHashTableIter iter;
	gpointer key, value;

	g_hash_table_iter_init(&iter, lib->objects);
	while (g_hash_table_iter_next(&iter, &key, &value))
		g_hash_table_insert(objects, key, km_properties_ref(value));
	for (guint i = 0; i < cs->deletes->len; i++) {
		guint32 fid = g_array_index(cs->deletes, guint32, i);

		g_hash_table_remove(objects, GUINT_TO_POINTER(fid));
	}
	for (guint i = 0; i < cs->puts->len; i++) {
		KmProperties *object = cs->puts->pdata[i];
		guint32 fid = km_properties_get_fid(object);

		km_fid_allocator_mark_used(lib->fids, fid);
		g_hash_table_insert(objects, GUINT_TO_POINTER(fid), km_properties_ref(object));
	}
	return objects;
}

static GBytes *build_smalldb(KmLibrary *lib, GHashTable *objects, GError **error)
{
	g_autoptr(GPtrArray) all = km_library_sorted(objects);
	gint64 now = CLAMP(km_library_now(lib), 0, (gint64)G_MAXUINT32);

	return km_smalldb_build(all, lib->have_smalldb_hdr ? &lib->smalldb_hdr : NULL, (guint32)now,
				error);
}

/*
 * Before the journal is whole on the disk nothing is decided: a journal that
 * could not be written (a full volume) goes again, best effort, so that
 * the library is left as it was.
 */
static gboolean write_journal(KmLibrary *lib, GBytes *journal, GError **error)
{
	const char *what = KM_VAR "/" KM_JOURNAL_NAME;

	if (km_files_replace(lib, lib->var_ino, KM_JOURNAL_NAME, journal, what, error) &&
	    km_files_sync(lib, error))
		return TRUE;
	if (km_files_remove(lib, lib->var_ino, KM_JOURNAL_NAME, what, NULL))
		km_files_sync(lib, NULL);
	return FALSE;
}

/* Remove an object's properties file and, when `with_data`, its data file. */
static gboolean remove_fid_files(KmLibrary *lib, guint32 fid, gboolean with_data,
				 GError **error)
{
	const KmFidFile kinds[] = { KM_FID_FILE_PROPERTIES, KM_FID_FILE_DATA };
	char name[4], path[KM_FID_PATH_SIZE];
	uint64_t dir;

	if (!km_files_fid_dir(lib, fid, FALSE, &dir, error))
		return FALSE;
	if (dir == OMFS_NIL)
		return TRUE;
	for (guint i = 0; i < (with_data ? 2u : 1u); i++) {
		km_files_fid_name(fid, kinds[i], name);
		km_fid_format_path(fid, kinds[i], path);
		if (!km_files_remove(lib, dir, name, path, error))
			return FALSE;
	}
	return TRUE;
}

/* The files a put replaces: its properties file, and a playlist's data file. */
static gboolean remove_replaced(KmLibrary *lib, KmProperties *object, GError **error)
{
	return remove_fid_files(lib, km_properties_get_fid(object),
				km_properties_get_object_type(object) == KM_OBJECT_PLAYLIST, error);
}

/* A playlist's data file is its blob, as libkarma writes it. */
static gboolean write_playlist_data(KmLibrary *lib, KmProperties *object, uint64_t dir,
				    GError **error)
{
	g_autoptr(GBytes) blob = km_properties_get_blob(object, "playlist");
	char name[4], path[KM_FID_PATH_SIZE];
	guint32 fid = km_properties_get_fid(object);

	if (km_properties_get_object_type(object) != KM_OBJECT_PLAYLIST)
		return TRUE;
	if (!blob)
		blob = g_bytes_new_static("", 0);
	km_files_fid_name(fid, KM_FID_FILE_DATA, name);
	km_fid_format_path(fid, KM_FID_FILE_DATA, path);
	return km_files_replace(lib, dir, name, blob, path, error);
}

static gboolean write_object(KmLibrary *lib, KmProperties *object, GError **error)
{
	g_autoptr(GBytes) text = km_properties_serialize(object);
	guint32 fid = km_properties_get_fid(object);
	char name[4], path[KM_FID_PATH_SIZE];
	uint64_t dir;

	km_files_fid_name(fid, KM_FID_FILE_PROPERTIES, name);
	km_fid_format_path(fid, KM_FID_FILE_PROPERTIES, path);
	return km_files_fid_dir(lib, fid, TRUE, &dir, error) &&
	       write_playlist_data(lib, object, dir, error) &&
	       km_files_replace(lib, dir, name, text, path, error);
}

/*
 * Step 3: all the files replaced go (one write-back, not one each), then the
 * new ones come; step 4's first sync writes them back with smalldb.new.
 */
static gboolean write_objects(KmLibrary *lib, const KmChangeSet *cs, GError **error)
{
	for (guint i = 0; i < cs->puts->len; i++)
		if (!remove_replaced(lib, cs->puts->pdata[i], error))
			return FALSE;
	if (!km_files_sync(lib, error))
		return FALSE;
	for (guint i = 0; i < cs->puts->len; i++)
		if (!write_object(lib, cs->puts->pdata[i], error))
			return FALSE;
	return TRUE;
}

static gboolean write_smalldb(KmLibrary *lib, GBytes *smalldb, GError **error)
{
	const char *temp = KM_SMALLDB_TEMP_NAME, *name = KM_SMALLDB_NAME;
	int err;

	if (!km_files_replace(lib, lib->var_ino, temp, smalldb, KM_VAR "/" KM_SMALLDB_TEMP_NAME,
			      error) ||
	    !km_files_sync(lib, error))
		return FALSE;
	err = omfs_rename(lib->fs, lib->var_ino, temp, strlen(temp), lib->var_ino, name,
			  strlen(name));
	if (err)
		return km_files_error(lib, err, error, "renaming var/smalldb.new to var/smalldb");
	lib->smalldb_writes++;
	return km_files_sync(lib, error);
}

static gboolean remove_object(KmLibrary *lib, guint32 fid, GError **error)
{
	return remove_fid_files(lib, fid, TRUE, error);
}

static gboolean remove_objects(KmLibrary *lib, const KmChangeSet *cs, GError **error)
{
	for (guint i = 0; i < cs->deletes->len; i++)
		if (!remove_object(lib, g_array_index(cs->deletes, guint32, i), error))
			return FALSE;
	return km_files_sync(lib, error);
}

guint64 km_commit_file_blocks(const struct omfs_statfs *sfs, guint64 len)
{
	guint64 cluster = (guint64)sfs->blocksize * MAX(sfs->clustersize, 1u);

	return MAX(sfs->mirrors, 1u) + (len + cluster - 1) / cluster * MAX(sfs->clustersize, 1u);
}

guint64 km_commit_fixed_blocks(const struct omfs_statfs *sfs, guint64 journal_size,
			       guint64 smalldb_size)
{
	guint64 n = 4 * km_commit_file_blocks(sfs, 0) + km_commit_file_blocks(sfs, smalldb_size);

	if (journal_size)
		n += km_commit_file_blocks(sfs, journal_size);
	return n;
}

guint64 km_commit_put_blocks(const struct omfs_statfs *sfs, guint64 text_size)
{
	/* a playlist's data file is its blob, no larger than its escaped text */
	return 2 * km_commit_file_blocks(sfs, text_size);
}

guint64 km_commit_blocks_needed(const struct omfs_statfs *sfs, const KmChangeSet *cs,
				guint64 journal_size, guint64 smalldb_size)
{
	guint64 n = km_commit_fixed_blocks(sfs, journal_size, smalldb_size);

	for (guint i = 0; i < cs->puts->len; i++) {
		g_autoptr(GBytes) text = km_properties_serialize(cs->puts->pdata[i]);

		n += km_commit_put_blocks(sfs, g_bytes_get_size(text));
	}
	return n;
}

/* Remove an object's data file alone. */
static gboolean remove_data_file(KmLibrary *lib, guint32 fid, GError **error)
{
	char name[4], path[KM_FID_PATH_SIZE];
	uint64_t dir;

	if (!km_files_fid_dir(lib, fid, FALSE, &dir, error))
		return FALSE;
	km_files_fid_name(fid, KM_FID_FILE_DATA, name);
	km_fid_format_path(fid, KM_FID_FILE_DATA, path);
	return dir == OMFS_NIL || km_files_remove(lib, dir, name, path, error);
}

/*
 * On a full volume, the journal and the new smalldb find no room, and only
 * a commit that removes objects can make some: their data files go first,
 * then their properties files. Cut at any point, each object is whole or
 * gone: properties without data are removed by verify --repair and a row
 * without files is dropped, which needs no room (a data file with a row
 * but no properties would need room for the properties restored from the
 * row, so the data goes first). So removing tracks works on a full player.
 * Only then, and only the objects removed: a cut may leave some of them
 * removed and others not, and smalldb names their data files until the
 * commit is done.
 */
static gboolean make_room(KmLibrary *lib, const KmChangeSet *cs, GBytes *journal,
			  GBytes *smalldb, GError **error)
{
	struct omfs_statfs sfs;
	int err = omfs_statfs(lib->fs, &sfs);

	if (err)
		return km_files_error(lib, err, error, "reading the free space");
	if (!cs->deletes->len ||
	    sfs.free_blocks >= km_commit_blocks_needed(&sfs, cs,
						       journal ? g_bytes_get_size(journal) : 0,
						       g_bytes_get_size(smalldb)))
		return TRUE;
	for (guint i = 0; i < cs->deletes->len; i++)
		if (!remove_data_file(lib, g_array_index(cs->deletes, guint32, i), error))
			return FALSE;
	if (!km_files_sync(lib, error))
		return FALSE;
	for (guint i = 0; i < cs->deletes->len; i++)
		if (!remove_fid_files(lib, g_array_index(cs->deletes, guint32, i), FALSE, error))
			return FALSE;
	return km_files_sync(lib, error);
}

static gboolean write_all(KmLibrary *lib, KmChangeSet *cs, GBytes *journal, KmCommitMode mode,
			  GBytes *smalldb, GError **error)
{
	if (!km_files_sync(lib, error) || !make_room(lib, cs, journal, smalldb, error))
		return FALSE;
	if (journal && !write_journal(lib, journal, error))
		return FALSE;
	if (!write_objects(lib, cs, error) || !write_smalldb(lib, smalldb, error) ||
	    !remove_objects(lib, cs, error))
		return FALSE;
	if (!journal && mode != KM_COMMIT_FROM_JOURNAL)
		return TRUE;
	return km_files_remove(lib, lib->var_ino, KM_JOURNAL_NAME, KM_VAR "/" KM_JOURNAL_NAME,
			       error) &&
	       km_files_sync(lib, error);
}

/* The new library is on the disk: the same in memory. */
static void install(KmLibrary *lib, const KmChangeSet *cs, GHashTable *objects)
{
	for (guint i = 0; i < cs->deletes->len; i++)
		km_fid_allocator_release(lib->fids, g_array_index(cs->deletes, guint32, i));
	g_array_set_size(lib->pending_deletes, 0);
	g_clear_pointer(&lib->pending_journal, km_change_set_free);
	km_library_set_objects(lib, objects);
}

gboolean km_library_commit_changes(KmLibrary *lib, KmChangeSet *cs, KmCommitMode mode,
				   GError **error)
{
	g_autoptr(GHashTable) objects = NULL;
	g_autoptr(GBytes) smalldb = NULL;
	g_autoptr(GBytes) journal = NULL;
	g_autoptr(GError) local = NULL;

	add_pending_deletes(lib, cs);
	objects = km_library_apply_in_memory(lib, cs);
	smalldb = build_smalldb(lib, objects, error);
	if (!smalldb)
		return FALSE;
	if (mode == KM_COMMIT_JOURNAL && !km_change_set_is_empty(cs)) {
		journal = km_journal_build(cs);
		if (g_bytes_get_size(journal) > KM_JOURNAL_MAX_SIZE) {
			g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_FULL,
				    "a commit of %u objects is too large: commit in smaller steps",
				    cs->puts->len + cs->deletes->len);
			return FALSE;
		}
	}
	if (!write_all(lib, cs, journal, mode, smalldb, &local)) {
		km_library_mark_failed(lib, local);
		g_propagate_error(error, g_steal_pointer(&local));
		return FALSE;
	}
	install(lib, cs, g_steal_pointer(&objects));
	return TRUE;
}
