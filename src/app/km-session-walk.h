/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-walk.h - the host files a list of files and folders holds, for
 * the add job: folders walked in name order, bounded in depth and count.
 */
#ifndef KM_SESSION_WALK_H
#define KM_SESSION_WALK_H

#include "km-report.h"

G_BEGIN_DECLS

typedef struct {
	GFile *file;
	char *path;
	guint64 size;
	guint root;		/* the roots[] entry it came from */
	guint32 fid;		/* the add job's: once copied into the open transaction */
} KmWalkFile;

/*
 * The regular files of roots (GFile*) and below: symlinks to files are
 * followed, to folders not; hidden entries inside folders are left out.
 * What cannot be read or is no regular file goes into report. *total gets the
 * sum of the sizes. A new array of KmWalkFile* (freed with it).
 */
GPtrArray *km_walk_files(GPtrArray *roots, GCancellable *cancellable, KmReport *report,
			 guint64 *total);

G_END_DECLS

#endif
