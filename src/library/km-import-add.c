/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-import-add.c - see km-import-add.h. */
#include "km-import-add.h"

#include <string.h>

gboolean km_transaction_import(KmTransaction *tx, const char *path, guint64 size,
			       const KmImportOptions *options, KmImportResult *result,
			       GError **error)
{
	g_autoptr(KmProperties) props = NULL;

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), FALSE);
	g_return_val_if_fail(path && options && result, FALSE);
	memset(result, 0, sizeof(*result));
	props = km_import_file(path, options->flags, error);
	if (!props)
		return FALSE;
	if (!options->copy_duplicates && km_transaction_find_duplicate(tx, props, &result->fid)) {
		result->outcome = KM_IMPORT_DUPLICATE;
		return TRUE;
	}
	if (!km_transaction_check_room(tx, props, size, &result->room, error))
		return FALSE;
	if (!result->room.fits) {
		result->outcome = KM_IMPORT_NO_ROOM;
		return TRUE;
	}
	if (options->begin)
		options->begin(path, size, options->data);
	if (!km_transaction_add_file(tx, props, path, options->progress, options->data,
				     options->cancellable, &result->fid, error))
		return FALSE;
	result->outcome = KM_IMPORT_ADDED;
	return TRUE;
}
