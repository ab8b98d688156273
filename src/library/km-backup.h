/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-backup.h - the whole player disk to an image file and back.
 *
 * A backup is a sparse image file of the disk's size: the label, everything
 * outside the OMFS volumes, and every block that a volume's bitmap marks in
 * use are copied; free blocks are not read and stay holes. Beside it:
 *   FILE.sha256   the SHA-256 of the image's logical content (holes read as
 *                 zeros), in sha256sum's format, so `sha256sum -c` agrees;
 *   FILE.info     when, from what disk, how much (a GKeyFile);
 *   FILE.partial  only while the backup is unfinished: how far it got, so
 *                 that running it again resumes instead of starting over.
 *
 * A restore checks the checksum first, writes sector 0 last (and, until
 * then, a marker there that every reader reports as an unfinished restore),
 * skips what the target already holds and reads back what it wrote.
 */
#ifndef KM_BACKUP_H
#define KM_BACKUP_H

#include <gio/gio.h>

#include "km-library-progress.h"

G_BEGIN_DECLS

/* The OMFS core's device handle (omfs.h): handed on, so only declared here. */
struct omfs_blockdev;

typedef struct {
	/* Free-form, recorded in FILE.info (e.g. the player's serial); may be NULL. */
	const char *source;
	/*
	 * Each pass over the disk or image: a backup's KM_PHASE_READING
	 * (KM_PHASE_CHECKING first when it resumes), a restore's CHECKING,
	 * WRITING and VERIFYING.
	 */
	KmProgressFunc progress;
	gpointer progress_data;
	GCancellable *cancellable;
	/* Resume an unfinished backup of the same disk, if there is one (default: yes). */
	gboolean no_resume;
	/* Read every block, free ones too (when the bitmaps themselves are in doubt). */
	gboolean all_blocks;
} KmBackupOptions;

typedef struct {
	guint64 disk_size;
	guint64 copied;		/* bytes read from the disk by this run */
	guint64 resumed_from;	/* bytes of an earlier run kept; 0 when it started over */
	char sha256[65];
	/* One sentence per thing to know (a volume that did not mount: copied whole). */
	GPtrArray *notes;
} KmBackupResult;

void km_backup_result_clear(KmBackupResult *result);

/* Backs up disk (a whole Karma disk, or any device) into path. */
gboolean km_backup_create(const struct omfs_blockdev *disk, const char *path,
			  const KmBackupOptions *options, KmBackupResult *result,
			  GError **error);

/* Whether path's content matches path.sha256; the checksum is returned in sha256. */
gboolean km_backup_check(const char *path, const KmBackupOptions *options, char sha256[65],
			 GError **error);

typedef struct {
	guint64 checked;	/* bytes of backup data compared with the target */
	guint64 written;	/* of those, written because they differed */
} KmRestoreResult;

/*
 * Restores the backup at path onto target: refuses a backup whose checksum
 * does not match, or of another size unless force. Cancelling leaves the
 * target marked incomplete: km_karma_label_read() then returns -EINVAL and
 * says a restore did not finish.
 */
gboolean km_backup_restore(const char *path, const struct omfs_blockdev *target, gboolean force,
			   const KmBackupOptions *options, KmRestoreResult *result,
			   GError **error);

G_END_DECLS

#endif
