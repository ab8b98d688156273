/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-private.h - what the library's files share: the KmLibrary
 * instance, file helpers on the mounted volume, the commit path, the scan.
 * Nothing outside src/library includes this.
 */
#ifndef KM_LIBRARY_PRIVATE_H
#define KM_LIBRARY_PRIVATE_H

#include "km-fid.h"
#include "km-journal.h"
#include "km-karma-label.h"
#include "km-library.h"
#include "km-smalldb.h"
#include "km-sources.h"
#include "km-transaction.h"

G_BEGIN_DECLS

#define KM_SMALLDB_NAME "smalldb"
/* The next smalldb is written here, then renamed over smalldb. */
#define KM_SMALLDB_TEMP_NAME "smalldb.new"
#define KM_VAR "var"
/* Where a repair moves data files it cannot make objects of (never deleted). */
#define KM_LOST_FOUND "lost+found"
/* About 300 bytes a row: far more rows than a 20 GB player holds songs. */
#define KM_SMALLDB_MAX_SIZE (256u << 20)

struct _KmLibrary {
	GObject parent_instance;

	struct km_partition_device *window;	/* the music partition of a whole disk */
	const struct omfs_blockdev *volume;	/* what fs is mounted on (dev or window) */
	struct omfs_fs *fs;			/* NULL once closed */
	gboolean writable;
	guint partition;
	uint64_t fids0_ino;
	uint64_t var_ino;
	gint64 (*clock)(gpointer data);
	gpointer clock_data;

	/* The committed library: fid -> KmProperties. */
	GHashTable *objects;
	/* Every fid with files on the disk, plus an open transaction's adds. */
	KmFidAllocator *fids;
	/* fid -> the highest fid_generation seen or handed out for it. */
	GHashTable *generation_floor;
	/* fids whose files go at the next commit: the player deleted them (smalldb bitmap). */
	GArray *pending_deletes;
	/* Read-only: an interrupted commit's changes, applied in memory only. */
	KmChangeSet *pending_journal;
	KmSmalldbHeader smalldb_hdr;
	gboolean have_smalldb_hdr;
	/* var/km-sources (km-sources.h): source id -> KmSource*, stale entries included. */
	GHashTable *sources;
	/* rid -> GArray of fids of the tunes with that rid; NULL until needed. */
	GHashTable *rid_index;

	GPtrArray *warnings;		/* char*, NULL-terminated */
	gboolean found_damage;		/* a warning was damage (km_library_warn_damage) */
	guint smalldb_writes;		/* var/smalldb written since open (for benchmarks) */
	KmTransaction *tx;		/* the open transaction, not a reference */
	char *failed;			/* why a commit failed half-way */
};

/* ---- km-library.c ---- */

gint64 km_library_now(KmLibrary *lib);
/* Closed or failed: an error. With write: read-only is an error too. */
gboolean km_library_check_usable(KmLibrary *lib, gboolean write, GError **error);
/* A commit failed half-way: what is in memory no longer matches the disk. */
void km_library_mark_failed(KmLibrary *lib, const GError *why);
void km_library_warn(KmLibrary *lib, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* A warning about damage that verify reports too (km_library_found_damage()). */
void km_library_warn_damage(KmLibrary *lib, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/*
 * Install a new committed library (fid -> KmProperties, taken): generations
 * noted, the rid index dropped.
 */
void km_library_set_objects(KmLibrary *lib, GHashTable *objects);
GHashTable *km_library_objects_new(void);
/* The values of objects in ascending fid order (a new array of new references). */
GPtrArray *km_library_sorted(GHashTable *objects);
/* A fid_generation for fid, greater than any it had; 0 when none is left. */
guint32 km_library_new_generation(KmLibrary *lib, guint32 fid);
gboolean km_library_is_duplicate(const KmProperties *existing, const KmProperties *candidate);
/*
 * The fids of the objects with rid, ascending (NULL: none): the index the
 * duplicate check keeps, made once per library state and shared with the
 * sync's plan.
 */
const GArray *km_library_fids_with_rid(KmLibrary *lib, const char *rid);
/*
 * The object as the library sees it: its properties file, with the columns
 * only the player changes (play_count, play_last, marked, play_count_limit)
 * taken from its smalldb row, where the player keeps them up to date.
 * row may be NULL. A new object.
 */
KmProperties *km_library_effective(const KmProperties *file, const KmProperties *row);

/*
 * Why a properties file (or smalldb row) that parses cannot be an object's,
 * or NULL: every object has a `type` (tune, playlist or taxi), and a tune or
 * taxi its `length`. CRLF line ends show as a `type` ending in '\r'.
 */
const char *km_library_object_damage(const KmProperties *object);

/* ---- km-library-open.c ---- */

/* Mount lib->volume again (after the fsck repair let it go): lib->fs, fids0/, var/. */
gboolean km_library_mount_again(KmLibrary *lib, GError **error);

/* ---- km-library-files.c: files on the mounted volume ---- */

/* KM_LIBRARY_ERROR_IO naming what and the core's sentence; always FALSE. */
gboolean km_files_error(KmLibrary *lib, int err, GError **error, const char *what);
/* *ino is OMFS_NIL when dir has no such name. */
gboolean km_files_lookup(KmLibrary *lib, uint64_t dir, const char *name, uint64_t *ino,
			 GError **error);
/* What name in dir is (*found FALSE when dir has no such name); what names it in errors. */
gboolean km_files_stat(KmLibrary *lib, uint64_t dir, const char *name, const char *what,
		       struct omfs_stat *st, gboolean *found, GError **error);
/* km_files_stat() of var/smalldb (the room check sizes it, verify checks it is a file). */
gboolean km_files_stat_smalldb(KmLibrary *lib, struct omfs_stat *st, gboolean *found,
			       GError **error);
/* A whole file of at most max bytes; what names it in errors. */
GBytes *km_files_read(KmLibrary *lib, uint64_t ino, gsize max, const char *what, GError **error);
/* Remove name (when there) and write that back, then create it holding data. */
gboolean km_files_replace(KmLibrary *lib, uint64_t dir, const char *name, GBytes *data,
			  const char *what, GError **error);
/* Remove name; nothing to do when it is not there. */
gboolean km_files_remove(KmLibrary *lib, uint64_t dir, const char *name, const char *what,
			 GError **error);
/* fids0/_hhhhh for fid; OMFS_NIL when missing and !create. */
gboolean km_files_fid_dir(KmLibrary *lib, guint32 fid, gboolean create, uint64_t *dir,
			  GError **error);
/* "lll": the name of fid's data or properties file in its directory. */
void km_files_fid_name(guint32 fid, KmFidFile which, char name[4]);
gboolean km_files_sync(KmLibrary *lib, GError **error);
/*
 * Move fid's data file to lost+found/fid-FID (or fid-FID.N when taken);
 * *where is the new path. A rename: not written back here.
 */
gboolean km_files_move_aside(KmLibrary *lib, guint32 fid, char **where, GError **error);
/* The smalldb rows; *missing when var/smalldb is not there (rows NULL, no error). */
GPtrArray *km_files_read_smalldb(KmLibrary *lib, KmSmalldbHeader *hdr, GArray **deleted,
				 gboolean *missing, GError **error);

/* ---- km-library-sources.c: var/km-sources (docs/KARMA.md §11.1) ---- */

/* Read it into lib->sources (empty when absent; a file that cannot be read is a warning). */
void km_library_load_sources(KmLibrary *lib);
/* Whether object (may be NULL) is still the tune source was converted into. */
gboolean km_source_matches(const KmSource *source, const KmProperties *object);
/*
 * Write the committed sources still true plus extra's (id -> KmSource*) to
 * var/km-sources, not synced; the new table, to install once the commit is done.
 */
GHashTable *km_library_write_sources(KmLibrary *lib, GHashTable *extra, GError **error);
/* The committed tune converted from source id, if any. */
gboolean km_library_find_source(KmLibrary *lib, const char *id, guint32 *fid);

/* ---- km-commit.c ---- */

typedef enum {
	/* A transaction's changes: through var/km-journal (the commit point). */
	KM_COMMIT_JOURNAL,
	/* cs came from var/km-journal: finishing an interrupted commit. */
	KM_COMMIT_FROM_JOURNAL,
	/*
	 * A repair: every change restores what the files or smalldb already
	 * say, so no journal; a repair cut short is found again by verify, and
	 * one that fails leaves nothing that blocks later commits.
	 */
	KM_COMMIT_REPAIR,
} KmCommitMode;

/*
 * Write cs and a new smalldb (see km-commit.c), with the pending deletions,
 * then install the new library in memory.
 */
gboolean km_library_commit_changes(KmLibrary *lib, KmChangeSet *cs, KmCommitMode mode,
				   GError **error);
/* The committed objects with cs applied (a new table). */
GHashTable *km_library_apply_in_memory(KmLibrary *lib, const KmChangeSet *cs);
/* Blocks a new file of len bytes takes: its inode (mirrored), whole clusters of data. */
guint64 km_commit_file_blocks(const struct omfs_statfs *sfs, guint64 len);
/*
 * Blocks a commit of cs writes before it frees anything, generously
 * (directories may grow): the journal and the new smalldb (their sizes in
 * bytes; journal_size 0: no journal), and each put's properties file (and a
 * playlist's data file). The room check (km-transaction-room.c) and the
 * commit's own make_room() both count with it: the first as the sum of the
 * two below.
 */
guint64 km_commit_blocks_needed(const struct omfs_statfs *sfs, const KmChangeSet *cs,
				guint64 journal_size, guint64 smalldb_size);
/* Its part that is once per commit: the journal, the new smalldb, room for the directories. */
guint64 km_commit_fixed_blocks(const struct omfs_statfs *sfs, guint64 journal_size,
			       guint64 smalldb_size);
/* Its part for one put whose properties file is text_size bytes. */
guint64 km_commit_put_blocks(const struct omfs_statfs *sfs, guint64 text_size);

/* ---- km-library-scan.c ---- */

typedef struct {
	guint32 fid;
	uint64_t data_ino;	/* OMFS_NIL when missing */
	uint64_t props_ino;	/* OMFS_NIL when missing */
	guint64 data_size;
	char *data_problem;	/* why the data file could not be examined */
	KmProperties *props;	/* NULL when missing, unreadable or damaged */
	KmProperties *damaged;	/* what a damaged properties file says (km_library_object_damage) */
	char *problem;		/* why props could not be read */
	char *blocked;		/* a directory where one of its files belongs (its path) */
	KmFidFile blocked_file;	/* which of its files */
} KmScanEntry;

typedef struct {
	GHashTable *entries;	/* fid -> KmScanEntry* */
	GPtrArray *strays;	/* char*: names under fids0/ that are no fid file */
} KmScan;

KmScan *km_library_scan(KmLibrary *lib, GCancellable *cancellable, GError **error);
void km_scan_free(KmScan *scan);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(KmScan, km_scan_free)
/* fid -> KmProperties for every fid with both files (effective, rows may be NULL). */
GHashTable *km_scan_objects(const KmScan *scan, GHashTable *rows);
/* fid -> KmProperties of an array of rows (references). */
GHashTable *km_rows_by_fid(GPtrArray *rows);

/* ---- km-transaction.c ---- */

/* The library is closing: roll back (best effort). */
void km_transaction_abandon(KmTransaction *tx);

G_END_DECLS

#endif
