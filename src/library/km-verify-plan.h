/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-verify-plan.h - (internal) what the files of verify share: the plan of
 * findings and repairs that km-library-verify.c builds, and the checks of
 * km-library-verify-content.c (track data, playlist entries) that add to it.
 */
#ifndef KM_VERIFY_PLAN_H
#define KM_VERIFY_PLAN_H

#include "km-library-private.h"
#include "km-verify.h"

G_BEGIN_DECLS

/* What verify found and what repair would do about it. */
typedef struct {
	KmLibrary *lib;
	KmVerifyReport *report;
	KmChangeSet *cs;	/* files to write and to remove */
	GHashTable *objects;	/* the library the files describe */
	GHashTable *rows;	/* smalldb's rows by fid (empty without smalldb) */
	GHashTable *deleted;	/* fids the player deleted (smalldb bitmap) */
	GArray *moves;		/* guint32: fids whose data file goes to lost+found */
	gboolean rewrite;	/* smalldb must be written */
	gboolean smalldb_blocked; /* var/smalldb is a directory: no repair can write it */
	gboolean remove_temp;	/* var/smalldb.new is left over */
} Plan;

/* A finding (message taken); the message names the fid itself. */
void km_verify_add_finding(Plan *plan, KmVerifyKind kind, guint32 fid, gboolean repairable,
			   char *message);

/* ---- km-library-fsck.c ---- */

/*
 * Run omfs_fsck on the library's volume (repairing with repair) and add
 * what it found as KM_VERIFY_FILE_SYSTEM findings, marked repaired when a
 * check after the repair no longer finds them. FALSE when fsck could not run.
 */
gboolean km_verify_file_system(KmLibrary *lib, Plan *plan, gboolean repair, GError **error);

/* ---- km-library-verify-content.c ---- */

/*
 * Numbers of object that smalldb would store cut to its column's width. A
 * tune's length is its data file's size, so that one is set (a put); the
 * others only the user knows. Returns object, or its repaired copy (a new
 * reference).
 */
KmProperties *km_verify_check_numbers(Plan *plan, const KmScanEntry *e, KmProperties *object);
/* A playlist longer than the player holds (the limit playlist add keeps). */
void km_verify_check_playlist_length(Plan *plan, guint32 fid, KmProperties *object);

/*
 * The properties of e's data file read as add reads a host file (probe and
 * tags, km-import), keeping the fid_generation and ctime of e's damaged
 * properties file when it has them (so that playlist entries still name
 * it); NULL and why when the data is no audio the library can read.
 */
KmProperties *km_verify_props_from_audio(Plan *plan, const KmScanEntry *e, GError **error);
/* Every playlist entry of plan->objects names an object there, of its generation. */
void km_verify_check_playlists(Plan *plan);
/* Read the data file of every object of plan->objects in full. */
gboolean km_verify_read_data(KmLibrary *lib, Plan *plan, const KmScan *scan,
			     GCancellable *cancellable, GError **error);

G_END_DECLS

#endif
