/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-open.c - finding the music partition, mounting it and loading
 * the library: var/smalldb when it is there (the fast path: one file read),
 * else every properties file; then an interrupted commit's journal.
 */
#include "km-library-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static uint64_t library_clock_ms(void *ctx)
{
	return (uint64_t)km_library_now(ctx) * 1000;
}

static gboolean mount_volume(KmLibrary *lib, const struct omfs_blockdev *dev, gboolean writable,
			     struct omfs_fs **fs, GError **error)
{
	struct omfs_mount_opts opts = { .read_only = !writable };
	char msg[OMFS_ERRMSG_MAX] = "";
	int err;

	if (lib && lib->clock) {
		opts.clock_ms = library_clock_ms;
		opts.clock_ctx = lib;
	}
	err = omfs_mount(dev, &opts, fs, msg, sizeof(msg));
	if (err == 0)
		return TRUE;
	/* Only what is on the volume makes it "not a Karma"; a failing device (gone) is I/O. */
	g_set_error(error, KM_LIBRARY_ERROR,
		    err == -EINVAL || err == -EUCLEAN ? KM_LIBRARY_ERROR_NOT_KARMA :
		    KM_LIBRARY_ERROR_IO,
		    "cannot mount the OMFS volume: %s", msg[0] ? msg : g_strerror(-err));
	return FALSE;
}

/* The directory name at the root of fs, or OMFS_NIL. */
static uint64_t root_dir(struct omfs_fs *fs, const char *name)
{
	struct omfs_stat st;
	uint64_t ino;

	if (omfs_lookup(fs, omfs_root_ino(fs), name, strlen(name), &ino) != 0 ||
	    omfs_stat(fs, ino, &st) != 0 || !st.is_dir)
		return OMFS_NIL;
	return ino;
}

static gboolean has_music_layout(struct omfs_fs *fs)
{
	return root_dir(fs, KM_FID_ROOT) != OMFS_NIL && root_dir(fs, KM_VAR) != OMFS_NIL;
}

/*
 * Whether partition part of dev is a music partition; why not in *why. When
 * the device fails, *failed says so instead: no partition can be judged then.
 */
static gboolean probe_partition(const struct omfs_blockdev *dev,
				const struct km_karma_partition *part, char **why, GError **failed)
{
	char msg[OMFS_ERRMSG_MAX] = "";
	struct km_partition_device *win = km_karma_partition_open(dev, part, msg, sizeof(msg));
	g_autoptr(GError) local = NULL;
	struct omfs_fs *fs = NULL;
	gboolean ok = FALSE;

	if (!win) {
		*why = g_strdup(msg);
		return FALSE;
	}
	if (!mount_volume(NULL, km_partition_device_blockdev(win), FALSE, &fs, &local)) {
		if (g_error_matches(local, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO))
			g_propagate_prefixed_error(failed, g_steal_pointer(&local),
						   "partition %u: ", part->number);
		else
			*why = g_strdup(local->message);
	} else {
		ok = has_music_layout(fs);
		if (!ok)
			*why = g_strdup("no fids0/ and var/ at its root");
		omfs_unmount(fs);
	}
	km_partition_device_close(win);
	return ok;
}

/* The music partition: the wanted one, or the larger that qualifies. */
static gboolean choose_partition(const struct omfs_blockdev *dev,
				 const struct km_karma_label *label, guint wanted,
				 struct km_karma_partition *chosen, GError **error)
{
	g_autoptr(GString) reasons = g_string_new(NULL);
	gboolean found = FALSE;

	for (guint i = 0; i < label->n_partitions; i++) {
		const struct km_karma_partition *part = &label->partitions[i];
		g_autofree char *why = NULL;
		GError *failed = NULL;

		if (wanted && part->number != wanted)
			continue;
		if (!probe_partition(dev, part, &why, &failed)) {
			if (failed) {
				g_propagate_error(error, failed);
				return FALSE;
			}
			g_string_append_printf(reasons, "%spartition %u: %s",
					       reasons->len ? "; " : "", part->number, why);
			continue;
		}
		if (!found || part->n_sectors > chosen->n_sectors)
			*chosen = *part;
		found = TRUE;
	}
	if (found)
		return TRUE;
	if (wanted && !reasons->len)
		g_string_printf(reasons, "the label has no partition %u", wanted);
	g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NOT_KARMA,
		    /* Translators: why each partition is not it */
		    _("no music partition on this Karma disk (%s)"), reasons->str);
	return FALSE;
}

/* The volume to mount: dev itself (a bare volume) or a window onto its music partition. */
static gboolean locate_volume(KmLibrary *lib, const struct omfs_blockdev *dev, guint wanted,
			      const struct omfs_blockdev **volume, GError **error)
{
	struct km_karma_label label;
	struct km_karma_partition part;
	char msg[OMFS_ERRMSG_MAX] = "";
	int err = km_karma_label_read(dev, &label, msg, sizeof(msg));

	if (err == -ENOENT && !wanted) {
		*volume = dev;
		return TRUE;
	}
	if (err) {
		g_set_error(error, KM_LIBRARY_ERROR,
			    err == -ENOENT ? KM_LIBRARY_ERROR_NOT_KARMA :
			    err == -EINVAL ? KM_LIBRARY_ERROR_BAD_LABEL : KM_LIBRARY_ERROR_IO,
			    "%s%s", err == -ENOENT ? "a partition was asked for, but " : "", msg);
		return FALSE;
	}
	if (!choose_partition(dev, &label, wanted, &part, error))
		return FALSE;
	lib->window = km_karma_partition_open(dev, &part, msg, sizeof(msg));
	if (!lib->window) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_BAD_LABEL, "%s", msg);
		return FALSE;
	}
	lib->partition = part.number;
	*volume = km_partition_device_blockdev(lib->window);
	return TRUE;
}

static gboolean mount_music(KmLibrary *lib, const struct omfs_blockdev *volume, GError **error)
{
	lib->volume = volume;
	if (!mount_volume(lib, volume, lib->writable, &lib->fs, error))
		return FALSE;
	lib->fids0_ino = root_dir(lib->fs, KM_FID_ROOT);
	lib->var_ino = root_dir(lib->fs, KM_VAR);
	if (lib->fids0_ino != OMFS_NIL && lib->var_ino != OMFS_NIL)
		return TRUE;
	g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NOT_KARMA,
		    _("not a Karma music partition: no fids0/ and var/ at its root"));
	return FALSE;
}

gboolean km_library_mount_again(KmLibrary *lib, GError **error)
{
	return mount_music(lib, lib->volume, error);
}

/* ---- loading ---- */

/* smalldb rows as the library (fids that cannot be are left out, with a warning). */
static GHashTable *objects_from_rows(KmLibrary *lib, GPtrArray *rows)
{
	GHashTable *objects = km_library_objects_new();
	guint bad = 0;

	for (guint i = 0; i < rows->len; i++) {
		guint32 fid = km_properties_get_fid(rows->pdata[i]);

		if (!km_fid_is_valid(fid)) {
			bad++;
			continue;
		}
		g_hash_table_insert(objects, GUINT_TO_POINTER(fid),
				    km_properties_ref(rows->pdata[i]));
	}
	if (bad)
		km_library_warn_damage(lib, "var/smalldb: %u rows with a fid that is no "
				       "multiple of 16 were left out", bad);
	return objects;
}

static void note_player_deletions(KmLibrary *lib, GArray *deleted)
{
	for (guint i = 0; deleted && i < deleted->len; i++) {
		guint32 fid = g_array_index(deleted, guint32, i);

		if (!km_fid_is_valid(fid))
			continue;
		km_fid_allocator_mark_used(lib->fids, fid);
		g_array_append_val(lib->pending_deletes, fid);
	}
	if (lib->pending_deletes->len)
		km_library_warn(lib, "the player deleted %u objects: their files are removed at "
				"the next commit", lib->pending_deletes->len);
}

/*
 * Every fid with a file under fids0/, so that none is handed out again; the
 * data files the objects leave out (no properties file that parses) are
 * counted in a warning, not dropped in silence.
 */
static GHashTable *objects_from_scan(KmLibrary *lib, GPtrArray *rows, GError **error)
{
	g_autoptr(KmScan) scan = km_library_scan(lib, NULL, error);
	g_autoptr(GHashTable) by_fid = rows ? km_rows_by_fid(rows) : NULL;
	GHashTable *objects;
	GHashTableIter iter;
	gpointer key, value;
	guint left_out = 0;

	if (!scan)
		return NULL;
	objects = km_scan_objects(scan, by_fid);
	g_hash_table_iter_init(&iter, scan->entries);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		const KmScanEntry *e = value;

		km_fid_allocator_mark_used(lib->fids, GPOINTER_TO_UINT(key));
		left_out += e->data_ino != OMFS_NIL && !g_hash_table_contains(objects, key);
	}
	if (left_out)
		km_library_warn_damage(lib, "%u object%s left out: %s data file%s no "
				       "properties file that can be read (verify names them)",
				       left_out, left_out == 1 ? "" : "s",
				       left_out == 1 ? "its" : "their",
				       left_out == 1 ? " has" : "s have");
	return objects;
}

static gboolean load_objects(KmLibrary *lib, gboolean scan, GError **error)
{
	g_autoptr(GPtrArray) rows = NULL;
	g_autoptr(GArray) deleted = NULL;
	g_autoptr(GError) local = NULL;
	GHashTable *objects;
	GHashTableIter iter;
	gpointer key;
	gboolean missing;

	rows = km_files_read_smalldb(lib, &lib->smalldb_hdr, &deleted, &missing, &local);
	if (rows) {
		lib->have_smalldb_hdr = TRUE;
		note_player_deletions(lib, deleted);
	} else if (missing) {
		km_library_warn_damage(lib, "there is no var/smalldb: the library was read "
				       "from the properties files");
		scan = TRUE;
	} else {
		km_library_warn_damage(lib, "var/smalldb cannot be read (%s): the library was "
				       "read from the properties files", local->message);
		scan = TRUE;
	}
	objects = scan ? objects_from_scan(lib, rows, error) : objects_from_rows(lib, rows);
	if (!objects)
		return FALSE;
	g_hash_table_iter_init(&iter, objects);
	while (g_hash_table_iter_next(&iter, &key, NULL))
		km_fid_allocator_mark_used(lib->fids, GPOINTER_TO_UINT(key));
	km_library_set_objects(lib, objects);
	return TRUE;
}

/*
 * A journal means a commit stopped after it was decided: a writable open
 * finishes it; a read-only open shows the library as the commit leaves it.
 * A damaged journal cannot have been written by a commit (it appears whole,
 * with its checksum): it is reported, and removed when writable.
 */
static gboolean recover_journal(KmLibrary *lib, GError **error)
{
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(KmChangeSet) cs = NULL;
	g_autoptr(GError) local = NULL;
	const char *path = KM_VAR "/" KM_JOURNAL_NAME;
	uint64_t ino;

	if (!km_files_lookup(lib, lib->var_ino, KM_JOURNAL_NAME, &ino, error))
		return FALSE;
	if (ino == OMFS_NIL)
		return TRUE;
	bytes = km_files_read(lib, ino, KM_JOURNAL_MAX_SIZE, path, &local);
	cs = bytes ? km_journal_parse(bytes, &local) : NULL;
	if (!cs) {
		km_library_warn(lib, "%s was ignored: %s", path, local->message);
		return !lib->writable ||
		       km_files_remove(lib, lib->var_ino, KM_JOURNAL_NAME, path, error);
	}
	km_library_warn(lib, "a commit was interrupted (%u objects written, %u removed): %s",
			cs->puts->len, cs->deletes->len,
			lib->writable ? "it has been finished" :
			"open the library writable to finish it");
	if (lib->writable)
		return km_library_commit_changes(lib, cs, KM_COMMIT_FROM_JOURNAL, error);
	km_library_set_objects(lib, km_library_apply_in_memory(lib, cs));
	lib->pending_journal = g_steal_pointer(&cs);
	return TRUE;
}

KmLibrary *km_library_open(const struct omfs_blockdev *dev, const KmLibraryOptions *options,
			   GError **error)
{
	g_autoptr(KmLibrary) lib = g_object_new(KM_TYPE_LIBRARY, NULL);
	KmLibraryOptions none = { 0 };
	const struct omfs_blockdev *volume;

	g_return_val_if_fail(dev != NULL, NULL);
	if (!options)
		options = &none;
	lib->writable = options->writable;
	lib->clock = options->clock;
	lib->clock_data = options->clock_data;
	if (!locate_volume(lib, dev, options->partition, &volume, error) ||
	    !mount_music(lib, volume, error) || !load_objects(lib, options->scan, error) ||
	    !recover_journal(lib, error))
		return NULL;
	km_library_load_sources(lib);
	return g_steal_pointer(&lib);
}

gboolean km_library_create_layout(const struct omfs_blockdev *volume, guint32 timestamp,
				  GError **error)
{
	g_autoptr(KmLibrary) lib = g_object_new(KM_TYPE_LIBRARY, NULL);
	g_autoptr(GPtrArray) none = g_ptr_array_new();
	g_autoptr(GBytes) smalldb = NULL;
	const char *const dirs[] = { KM_FID_ROOT, KM_VAR };
	uint64_t *inos[] = { &lib->fids0_ino, &lib->var_ino };
	int err;

	lib->writable = TRUE;
	if (!mount_volume(lib, volume, TRUE, &lib->fs, error))
		return FALSE;
	for (guint i = 0; i < G_N_ELEMENTS(dirs); i++) {
		*inos[i] = root_dir(lib->fs, dirs[i]);
		if (*inos[i] != OMFS_NIL)
			continue;
		err = omfs_mkdir(lib->fs, omfs_root_ino(lib->fs), dirs[i], strlen(dirs[i]),
				 inos[i]);
		if (err)
			return km_files_error(lib, err, error, dirs[i]);
	}
	smalldb = km_smalldb_build(none, NULL, timestamp, error);
	return smalldb &&
	       km_files_replace(lib, lib->var_ino, KM_SMALLDB_NAME, smalldb,
				KM_VAR "/" KM_SMALLDB_NAME, error) &&
	       km_library_close(lib, error);
}
