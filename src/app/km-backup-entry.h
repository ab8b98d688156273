/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-backup-entry.h - one backup of a whole player in a folder, as the
 * restore dialog lists it: read from FILE.info (km-backup.h), or, for a
 * backup still unfinished (FILE.partial, no FILE.info yet), from the image
 * file itself. Immutable, GLib only.
 */
#ifndef KM_BACKUP_ENTRY_H
#define KM_BACKUP_ENTRY_H

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum {
	KM_BACKUP_COMPLETE,	/* FILE.sha256 is there: restorable */
	KM_BACKUP_UNFINISHED,	/* FILE.partial is there: backing up again resumes it */
	KM_BACKUP_NO_CHECKSUM,	/* FILE.info without FILE.sha256: cannot be checked */
} KmBackupStatus;

#define KM_TYPE_BACKUP_ENTRY (km_backup_entry_get_type())
G_DECLARE_FINAL_TYPE(KmBackupEntry, km_backup_entry, KM, BACKUP_ENTRY, GObject)

/* The backup at path (the image file), or NULL with an error when nothing describes it. */
KmBackupEntry *km_backup_entry_new_for_path(const char *path, GError **error);

const char *km_backup_entry_get_path(KmBackupEntry *self);
/* When it was made (an unfinished one: when it was last written); local time. */
GDateTime *km_backup_entry_get_created(KmBackupEntry *self);
guint64 km_backup_entry_get_disk_size(KmBackupEntry *self);
/* Bytes in use on the disk when it was made (0 when unfinished: not known yet). */
guint64 km_backup_entry_get_used_bytes(KmBackupEntry *self);
/* What it is a backup of: the player's serial or name ("" when not recorded). */
const char *km_backup_entry_get_source(KmBackupEntry *self);
KmBackupStatus km_backup_entry_get_status(KmBackupEntry *self);

/*
 * The backups (KmBackupEntry) in folder: every *.img with a .info or a
 * .partial beside it, newest first. A folder that cannot be read gives an
 * empty list; a side file that does not parse is left out.
 */
GListModel *km_backup_list_folder(const char *folder);

G_END_DECLS

#endif
