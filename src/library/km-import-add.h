/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-import-add.h - one host file into an open transaction, as both faces
 * add it (karmactl add and the app's add job): read and probed
 * (km_import_file), checked against the tracks already there and those
 * added before it in the transaction (unless duplicates are wanted),
 * checked for room (km_transaction_check_room), then copied. The walk that
 * finds the files is km-import-walk.h; when to commit is the caller's
 * (karmactl commits once, the app every few files so tracks appear as they
 * land).
 */
#ifndef KM_IMPORT_ADD_H
#define KM_IMPORT_ADD_H

#include "km-import.h"
#include "km-transaction.h"

G_BEGIN_DECLS

typedef enum {
	KM_IMPORT_ADDED,	/* copied: fid is the new track's */
	KM_IMPORT_DUPLICATE,	/* not copied: fid is the track already there */
	KM_IMPORT_NO_ROOM,	/* not copied: room says what it needs and what is free */
} KmImportOutcome;

typedef struct {
	KmImportFlags flags;
	gboolean copy_duplicates;
	/* Just before the copy starts (the checks passed); may be NULL. */
	void (*begin)(const char *path, guint64 size, gpointer data);
	KmProgressFunc progress;	/* bytes copied; may be NULL */
	gpointer data;
	GCancellable *cancellable;	/* checked between chunks of the copy */
} KmImportOptions;

typedef struct {
	KmImportOutcome outcome;
	guint32 fid;
	KmRoom room;
} KmImportResult;

/*
 * Add the file at path (size bytes, as the walk found it) to tx. FALSE with
 * error when it is not added for a reason of its own: an error in the
 * KM_IMPORT_ERROR domain (no tune the Karma plays, unreadable: the message
 * names the file), G_IO_ERROR_CANCELLED, the file changed while it was
 * copied, or the player failed (KM_LIBRARY_ERROR_IO).
 */
gboolean km_transaction_import(KmTransaction *tx, const char *path, guint64 size,
			       const KmImportOptions *options, KmImportResult *result,
			       GError **error);

G_END_DECLS

#endif
