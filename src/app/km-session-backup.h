/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-backup.h - the session jobs that back up the whole player disk
 * into a folder and restore it from a backup (the engine: km-backup.h).
 *
 * A backup runs with the library open: the library is flushed first, and
 * while the job runs nothing else touches the device (the worker runs one
 * job at a time), so reading the disk under it is safe and spares the
 * reopen (over USB, seconds). A restore closes the library, writes the
 * disk and opens it again, and publishes the restored lists.
 */
#ifndef KM_SESSION_BACKUP_H
#define KM_SESSION_BACKUP_H

#include "km-backup-entry.h"
#include "km-session.h"

G_BEGIN_DECLS

/*
 * Back up the whole disk into folder (made if needed) as
 * karma-<player id>-<YYYY-MM-DD-HHMM>.img with its side files. An unfinished
 * backup of this player in folder (a .partial left by a cancel) is resumed
 * instead of starting a new file. Progress: one "file" per pass (checking
 * what a resumed run kept, then reading the disk), with bytes and rate.
 */
void km_session_backup_async(KmSession *session, GFile *folder, KmProgressCallback progress,
			     gpointer progress_data, GDestroyNotify progress_notify,
			     GCancellable *cancellable, GAsyncReadyCallback callback,
			     gpointer user_data);
/* The backup made; resumed (may be NULL): whether an earlier run's part was kept. */
KmBackupEntry *km_session_backup_finish(KmSession *session, GAsyncResult *result,
					gboolean *resumed, GError **error);

/*
 * Restore the backup file onto the player. The backup's checksum and size
 * are checked first: a refusal leaves the player as it was. Cancelling
 * while it writes leaves the player marked incomplete: the session's
 * incomplete property turns TRUE, its lists empty, and every job but
 * another restore and close fails with KM_SESSION_ERROR_INCOMPLETE.
 */
void km_session_restore_async(KmSession *session, GFile *file, KmProgressCallback progress,
			      gpointer progress_data, GDestroyNotify progress_notify,
			      GCancellable *cancellable, GAsyncReadyCallback callback,
			      gpointer user_data);
gboolean km_session_restore_finish(KmSession *session, GAsyncResult *result, GError **error);

gboolean km_session_is_incomplete(KmSession *session);

G_END_DECLS

#endif
