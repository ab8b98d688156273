/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-import-add.h - one host file into an open transaction, as both faces
 * add it (karmactl add and the app's add job): read and probed
 * (km_import_file), checked against the tracks already there and those
 * added before it in the transaction (unless duplicates are wanted),
 * checked for room (km_transaction_check_room), then copied. The whole
 * add, walk and commits included, is km_library_import()
 * (km-library-import.h).
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
	/* km_library_import() only (km-library-import.h): */
	KM_IMPORT_FAILED,	/* not added: the error says why */
	KM_IMPORT_NOT_SAVED,	/* added, but the commit of its batch failed */
	KM_IMPORT_NOT_TRIED,	/* after the file that stopped the import */
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
