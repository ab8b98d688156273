/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-transaction-sources.c - the sources of the converted files a
 * transaction adds (docs/KARMA.md §11.1), looked up with the committed ones
 * and written to var/km-sources before the commit's journal.
 */
#include "km-transaction-private.h"

void km_transaction_note_source(KmTransaction *tx, const char *source_id, guint32 fid)
{
	KmProperties *object = km_transaction_lookup(tx, fid);
	const char *rid = object ? km_properties_get(object, "rid") : NULL;

	g_return_if_fail(rid && km_sources_id_is_valid(source_id));
	km_sources_insert(tx->sources, source_id, fid, rid);
}

gboolean km_transaction_find_source(KmTransaction *tx, const char *source_id, guint32 *fid)
{
	const KmSource *source = g_hash_table_lookup(tx->sources, source_id);
	guint32 found;

	if (source && km_source_matches(source, km_transaction_lookup(tx, source->fid))) {
		*fid = source->fid;
		return TRUE;
	}
	/* A committed one counts unless this transaction changed or removed it. */
	if (!km_library_find_source(tx->lib, source_id, &found) ||
	    g_hash_table_contains(tx->staged, GUINT_TO_POINTER(found)))
		return FALSE;
	*fid = found;
	return TRUE;
}

gboolean km_transaction_write_sources(KmTransaction *tx, GHashTable **installed,
				      GError **error)
{
	*installed = NULL;
	if (g_hash_table_size(tx->sources) == 0)
		return TRUE;
	*installed = km_library_write_sources(tx->lib, tx->sources, error);
	return *installed != NULL;
}
