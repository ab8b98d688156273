/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-fid.h - file ids (fids) of the objects on a Karma music partition
 * (docs/KARMA.md §6.2 and §6.3).
 *
 * A fid is a multiple of 16. Formatted as 8 lower-case hex digits hhhhhlll,
 * its data file is fids0/_hhhhh/lll (the name ends in 0) and its properties
 * file, fid + 1, is fids0/_hhhhh/ll1.
 */
#ifndef KM_FID_H
#define KM_FID_H

#include <glib.h>

G_BEGIN_DECLS

#define KM_FID_STEP 16u
/* libkarma hands out fids from index 17: fids below 0x110 are never used. */
#define KM_FID_FIRST 0x110u
#define KM_FID_LAST 0xfffffff0u
#define KM_FID_ROOT "fids0"
/* "fids0/_hhhhh/lll" and its NUL */
#define KM_FID_PATH_SIZE 17

typedef enum {
	KM_FID_FILE_DATA,	/* ...0: the song, playlist or taxi file itself */
	KM_FID_FILE_PROPERTIES,	/* ...1: its key=value properties */
} KmFidFile;

gboolean km_fid_is_valid(guint32 fid);

/* "fids0/_hhhhh/lll" into path (KM_FID_PATH_SIZE bytes); fid must be valid. */
void km_fid_format_path(guint32 fid, KmFidFile which, char path[KM_FID_PATH_SIZE]);
char *km_fid_to_path(guint32 fid, KmFidFile which);
/* "_hhhhh", the directory under fids0/ that holds fid's files. */
char *km_fid_dir_name(guint32 fid);

/*
 * Parse back: only the canonical form (lower-case hex, exact lengths, a
 * name ending in 0 or 1, no leading or doubled '/') is accepted. which
 * may be NULL.
 */
gboolean km_fid_from_path(const char *path, guint32 *fid, KmFidFile *which);
/* The same for one directory entry: dir "_hhhhh" under fids0/, name "lll". */
gboolean km_fid_from_names(const char *dir, const char *name, guint32 *fid, KmFidFile *which);

/*
 * The set of fids in use, handing out the lowest free fid from 0x110 upward,
 * so a released fid is the next one handed out when it is the lowest free.
 */
typedef struct _KmFidAllocator KmFidAllocator;

KmFidAllocator *km_fid_allocator_new(void);
void km_fid_allocator_free(KmFidAllocator *alloc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(KmFidAllocator, km_fid_allocator_free)

/* A fid found on the disk. FALSE when it was already in use. */
gboolean km_fid_allocator_mark_used(KmFidAllocator *alloc, guint32 fid);
/* FALSE when it was not in use. */
gboolean km_fid_allocator_release(KmFidAllocator *alloc, guint32 fid);
gboolean km_fid_allocator_is_used(const KmFidAllocator *alloc, guint32 fid);
guint km_fid_allocator_count(const KmFidAllocator *alloc);
/* The lowest free fid >= KM_FID_FIRST, now in use; FALSE when none is left. */
gboolean km_fid_allocator_allocate(KmFidAllocator *alloc, guint32 *fid);

G_END_DECLS

#endif
