/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-verify.h - checking a Karma library against its files: every name under
 * fids0/, every properties file, var/smalldb, and an interrupted commit.
 * Repair rebuilds what can be rebuilt, through the same commit path as a
 * transaction (so a power cut during a repair is as safe as during a commit).
 */
#ifndef KM_VERIFY_H
#define KM_VERIFY_H

#include <gio/gio.h>

#include "km-library.h"

G_BEGIN_DECLS

/* What verify finds; what repair does about it. */
typedef enum {
	/* A commit was interrupted: finished. */
	KM_VERIFY_JOURNAL,
	/* No var/smalldb: written. */
	KM_VERIFY_SMALLDB_MISSING,
	/* var/smalldb does not parse: rewritten. */
	KM_VERIFY_SMALLDB_CORRUPT,
	/* A smalldb row differs from the properties, or is missing or extra: rewritten. */
	KM_VERIFY_STALE_ROW,
	/*
	 * A data file without properties or smalldb row: moved to
	 * lost+found/fid-FID at the volume's root (never deleted).
	 */
	KM_VERIFY_ORPHAN_DATA,
	/* Properties without a data file: removed. */
	KM_VERIFY_ORPHAN_PROPERTIES,
	/* A data file with a smalldb row but no properties: restored from the row. */
	KM_VERIFY_MISSING_PROPERTIES,
	/*
	 * A properties file that does not parse, or lacks what an object needs
	 * (km_library_object_damage): restored from smalldb's row when that row
	 * is whole and fits in a properties file; without a row, from the
	 * audio's own probe and tags (as add reads a file).
	 */
	KM_VERIFY_BAD_PROPERTIES,
	/* A playlist's data file is not its list: rewritten from it. */
	KM_VERIFY_PLAYLIST_DATA,
	/* The player deleted it (smalldb's bitmap), its files are there: removed. */
	KM_VERIFY_PENDING_DELETE,
	/* The data's size is not `length`, or it cannot be read: not repaired. */
	KM_VERIFY_UNREADABLE,
	/*
	 * A name that is no fid file (left alone), a directory where a fid's
	 * file belongs (left alone: the user removes it), or our temporary
	 * file (removed).
	 */
	KM_VERIFY_STRAY,
	/* A playlist entry whose track is gone or whose fid now holds another: removed. */
	KM_VERIFY_DANGLING_ENTRY,
	/*
	 * A number smalldb cannot hold as it is (length=-1, tracknr=300), or a
	 * playlist longer than the player's KM_PLAYLIST_MAX_ENTRIES: a tune's
	 * length is set from its data file, the rest is left to the user.
	 */
	KM_VERIFY_BAD_VALUE,
	/*
	 * The file system check (omfs_fsck, as karmactl fsck) found a problem
	 * on the volume: a block marked used that nothing owns, a mirror copy
	 * that differs, a damaged directory. Repair runs fsck --repair, which
	 * fixes what is safe to fix; a check after it says what was.
	 */
	KM_VERIFY_FILE_SYSTEM,
} KmVerifyKind;

typedef enum {
	KM_VERIFY_FLAGS_NONE = 0,
	/* Repair what can be repaired (a writable library, no open transaction). */
	KM_VERIFY_FLAG_REPAIR = 1 << 0,
	/* Read every data file in full (slow: the whole disk): a read error is UNREADABLE. */
	KM_VERIFY_FLAG_READ_DATA = 1 << 1,
	/*
	 * Check the file system too (omfs_fsck), first: its findings are
	 * KM_VERIFY_FILE_SYSTEM. With repair, the volume is repaired as by
	 * karmactl fsck --repair before the library is verified and repaired.
	 */
	KM_VERIFY_FLAG_FILE_SYSTEM = 1 << 2,
} KmVerifyFlags;

typedef struct {
	KmVerifyKind kind;
	guint32 fid;		/* 0 when the finding is about no object */
	char *message;
	gboolean repairable;	/* repair can fix it */
	gboolean repaired;	/* repair fixed it: a verify after it no longer finds it */
} KmVerifyFinding;

typedef struct {
	GPtrArray *findings;	/* KmVerifyFinding* */
	guint n_objects;	/* objects found (with properties and data) */
	guint n_unrepaired;	/* findings not repaired (all of them without repair) */
	gboolean smalldb_written;
} KmVerifyReport;

void km_verify_report_free(KmVerifyReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(KmVerifyReport, km_verify_report_free)
const char *km_verify_kind_name(KmVerifyKind kind);
/* Findings of this kind (any fid). */
guint km_verify_report_count(const KmVerifyReport *report, KmVerifyKind kind);

/*
 * Read every file under fids0/ and compare with var/smalldb; check that every
 * playlist entry names a track that is there (same fid_generation). With
 * KM_VERIFY_FLAG_REPAIR: finish an interrupted commit, remove orphaned
 * properties and dangling playlist entries, move orphaned data aside,
 * restore or rewrite what can be, and rewrite smalldb when anything
 * differed; the library then holds what the files say. A repair deletes no
 * data file but those the player deleted, and writes no journal: a repair
 * cut short is found again by the next verify. The files are checked again
 * after it, and only what that check no longer finds counts as repaired.
 * With KM_VERIFY_FLAG_READ_DATA, every data file is read in full too.
 */
KmVerifyReport *km_library_verify(KmLibrary *lib, KmVerifyFlags flags, GCancellable *cancellable,
				  GError **error);
/*
 * Rewrite var/smalldb from the properties files (and the player's columns
 * of the old smalldb), whether or not it disagreed. Removes or moves no
 * file but those of the objects the player deleted. The report says what
 * differed; restorable properties are restored, nothing else is repaired.
 */
KmVerifyReport *km_library_rebuild_db(KmLibrary *lib, GCancellable *cancellable, GError **error);

G_END_DECLS

#endif
