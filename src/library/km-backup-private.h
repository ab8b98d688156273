/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-backup-private.h - what the backup files share: the plan, the side files, I/O. */
#ifndef KM_BACKUP_PRIVATE_H
#define KM_BACKUP_PRIVATE_H

#include <errno.h>

#include "km-backup.h"
#include "km-library.h"

/* Large requests: a USB player answers one per millisecond or so. */
#define KM_BACKUP_CHUNK ((gsize)1 << 20)

typedef struct {
	guint64 offset;
	guint64 length;
} KmByteRange;

/* The ranges to read, in ascending order, adjacent ones merged (all: the whole disk). */
GArray *km_backup_plan(const struct omfs_blockdev *disk, gboolean all, GPtrArray *notes);
guint64 km_backup_plan_bytes(const GArray *plan);

/* path + suffix (".sha256", ".info", ".partial"); free with g_free. */
char *km_backup_side_path(const char *path, const char *suffix);
/* The checksum recorded beside path, or NULL with an error. */
gboolean km_backup_read_checksum(const char *path, char sha256[65], GError **error);

/* pread/pwrite of the whole range, or a GError naming path and the offset. */
/* Closes a backup image, its pages dropped from the page cache first (km-backup-io.c). */
void km_backup_close_image(int fd);
gboolean km_backup_pread(int fd, const char *path, void *buf, gsize len, guint64 offset,
			 GError **error);
gboolean km_backup_pwrite(int fd, const char *path, const void *buf, gsize len,
			  guint64 offset, GError **error);
/* A system call on path that failed: the GError "path: strerror(errno)". Returns FALSE. */
gboolean km_backup_errno_error(const char *path, GError **error);
/* A device's read or write that failed: the GError. */
gboolean km_backup_device_error(int err, const char *what, guint64 offset, GError **error);

/* Feeds len zero bytes to checksum. */
void km_backup_checksum_zeros(GChecksum *checksum, guint64 len);
void km_backup_report(const KmBackupOptions *options, KmPhase phase, guint64 done,
		      guint64 total);

#endif
