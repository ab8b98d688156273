/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-import-walk.h - the host files an add imports, for karmactl's add and
 * the app's add job alike: the files and folders given (the roots) and,
 * when recursive, the files in the folders below them, in name order.
 *
 * - A root is followed through symlinks; inside a folder, entries whose
 *   name starts with '.' (.DS_Store, .directory) are left out, a symlink
 *   to a file is followed and one to a folder is not (a link back up
 *   would loop).
 * - Each folder is walked once, remembered by device and inode (a folder
 *   named twice, or reached again through a bind mount), folders nest at
 *   most KM_WALK_MAX_DEPTH deep and a walk finds at most KM_WALK_MAX_FILES
 *   files.
 * - What cannot be walked goes to the caller's problem function, which
 *   says it in its own words.
 */
#ifndef KM_IMPORT_WALK_H
#define KM_IMPORT_WALK_H

#include <gio/gio.h>

G_BEGIN_DECLS

#define KM_WALK_MAX_DEPTH 32
#define KM_WALK_MAX_FILES 1000000u

typedef struct {
	char *path;		/* a host file name, in the file system's encoding */
	guint64 size;
	guint root;		/* the index of the root it came from */
	gboolean is_root;	/* the root itself, not found in a folder */
	guint32 fid;		/* free for the caller: the app's add job keeps the new fid */
} KmWalkFile;

typedef enum {
	KM_WALK_UNREADABLE,	/* cannot be read: message says why */
	KM_WALK_NOT_REGULAR,	/* neither a regular file nor a folder */
	KM_WALK_FOLDER,		/* a folder, and the walk is not recursive */
	KM_WALK_TOO_DEEP,	/* a folder nested deeper than KM_WALK_MAX_DEPTH */
} KmWalkProblem;

typedef void (*KmWalkProblemFunc)(const char *path, guint root, gboolean is_root,
				  KmWalkProblem problem, const char *message, gpointer data);

/*
 * The regular files of roots (n_roots host file names): a new array of
 * KmWalkFile* (freed with it); *total gets the sum of their sizes. A
 * cancelled walk returns what it found so far.
 */
GPtrArray *km_import_walk(const char *const *roots, guint n_roots, gboolean recursive,
			  GCancellable *cancellable, KmWalkProblemFunc problem, gpointer data,
			  guint64 *total);

G_END_DECLS

#endif
