/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-sync.h - what a sync of host folders would change on the player
 * (docs/KARMA.md §13): the files under the folders that the player lacks,
 * and the tunes on the player that none of the files is. A file is a tune
 * when it has the tune's rid (docs/KARMA.md §7.4): the same audio, whatever
 * tags were edited on the player since, so a second sync of an unchanged
 * folder finds nothing to do and an edited tag never makes a track go.
 * Where several tunes share a rid (added with --force-duplicates), each
 * file is one of them and the others count as missing from the folders.
 *
 * The plan is made from the library as it is and changes nothing; running
 * it is an import of its files (km_library_import()) and, when the tunes
 * missing from the folders are to go, one transaction removing them.
 */
#ifndef KM_SYNC_H
#define KM_SYNC_H

#include "km-convert.h"
#include "km-import-walk.h"
#include "km-library.h"

G_BEGIN_DECLS

typedef struct {
	char *path;		/* a host file name */
	guint64 size;		/* converted: the estimate of the converted size */
	KmProperties *props;	/* as the import would make them; NULL when converted */
	KmConvertPlan *conversion;	/* NULL, or what the file will be converted to */
} KmSyncFile;

typedef struct {
	GPtrArray *add;		/* KmSyncFile*: playable files the player lacks, in walk order */
	GArray *remove;		/* guint32: tunes no file under the folders is, fid order */
	guint n_present;	/* files the player has already */
	guint n_unplayable;	/* files left out: no tune the Karma plays, or unreadable */
	guint64 add_bytes;	/* the files' sizes */
	guint64 remove_bytes;	/* the tunes' lengths */
} KmSyncPlan;

void km_sync_plan_free(KmSyncPlan *plan);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(KmSyncPlan, km_sync_plan_free)

/*
 * The plan for folders (n_folders host folder names, walked recursively as
 * an add walks them). problem gets what the walk could not take; unplayable
 * (may be NULL) each file that is no tune the Karma plays, with the
 * import's reason. convert (may be NULL) as for an add: a file it converts
 * is present when its source is known on the player (var/km-sources). A
 * cancelled plan is NULL with G_IO_ERROR_CANCELLED.
 */
KmSyncPlan *km_library_plan_sync(KmLibrary *lib, const char *const *folders, guint n_folders,
				 const KmConvertSettings *convert, GCancellable *cancellable,
				 KmWalkProblemFunc problem,
				 void (*unplayable)(const char *path, const GError *error,
						    gpointer data),
				 gpointer data, GError **error);

G_END_DECLS

#endif
