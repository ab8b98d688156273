/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-transaction-room.c - what a commit of a transaction would write, as the
 * room check counts it (km_commit_blocks_needed(): the journal, the new
 * smalldb, each put's files), kept as running sums over the staged objects
 * that cannot change (KmRoomTally in km-transaction-private.h).
 */
#include "km-transaction-private.h"

#include <string.h>

/* A smalldb row beyond its strings: the fixed columns and the string table's offsets. */
#define SMALLDB_ROW_FIXED 256

void km_room_tally_init(KmRoomTally *tally)
{
	tally->pending = g_array_new(FALSE, FALSE, sizeof(guint32));
	tally->counted = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	memset(&tally->sum, 0, sizeof(tally->sum));
}

void km_room_tally_clear(KmRoomTally *tally)
{
	g_clear_pointer(&tally->pending, g_array_unref);
	g_clear_pointer(&tally->counted, g_hash_table_unref);
}

void km_room_tally_reset(KmRoomTally *tally)
{
	g_array_set_size(tally->pending, 0);
	g_hash_table_remove_all(tally->counted);
	memset(&tally->sum, 0, sizeof(tally->sum));
}

void km_room_tally_staged(KmRoomTally *tally, guint32 fid)
{
	g_array_append_val(tally->pending, fid);
}

static void add_share(KmRoomShare *sum, const KmRoomShare *share)
{
	sum->journal_bytes += share->journal_bytes;
	sum->smalldb_bytes += share->smalldb_bytes;
	sum->blocks += share->blocks;
}

static void subtract_share(KmRoomShare *sum, const KmRoomShare *share)
{
	sum->journal_bytes -= share->journal_bytes;
	sum->smalldb_bytes -= share->smalldb_bytes;
	sum->blocks -= share->blocks;
}

void km_room_tally_forget(KmRoomTally *tally, guint32 fid)
{
	KmRoomShare *share = g_hash_table_lookup(tally->counted, GUINT_TO_POINTER(fid));

	if (!share)
		return;
	subtract_share(&tally->sum, share);
	g_hash_table_remove(tally->counted, GUINT_TO_POINTER(fid));
}

/* What object (fid set) adds to a commit: its text serialized once. */
static void share_of(KmTransaction *tx, const struct omfs_statfs *sfs,
		     const KmProperties *object, KmRoomShare *share)
{
	g_autoptr(GBytes) text = km_properties_serialize(object);
	gsize size = g_bytes_get_size(text);
	gboolean has_row = km_library_lookup(tx->lib, km_properties_get_fid(object)) != NULL;

	share->journal_bytes = km_journal_entry_size(size);
	share->smalldb_bytes = has_row ? 0 : size + SMALLDB_ROW_FIXED;
	share->blocks = km_commit_put_blocks(sfs, size);
}

/* The object staged under fid, when it is one the sums may hold (new, not edited). */
static KmProperties *countable(KmTransaction *tx, guint32 fid)
{
	const KmStaged *s = g_hash_table_lookup(tx->staged, GUINT_TO_POINTER(fid));

	if (!s || !s->object || !s->added ||
	    g_hash_table_contains(tx->edited, GUINT_TO_POINTER(fid)) ||
	    g_hash_table_contains(tx->room.counted, GUINT_TO_POINTER(fid)))
		return NULL;
	return s->object;
}

/* The objects staged since the last check into the sums (a fid reused is met twice). */
static void count_pending(KmTransaction *tx, const struct omfs_statfs *sfs)
{
	KmRoomTally *tally = &tx->room;

	for (guint i = 0; i < tally->pending->len; i++) {
		guint32 fid = g_array_index(tally->pending, guint32, i);
		KmProperties *object = countable(tx, fid);
		KmRoomShare *share;

		if (!object)
			continue;
		share = g_new(KmRoomShare, 1);
		share_of(tx, sfs, object, share);
		add_share(&tally->sum, share);
		g_hash_table_insert(tally->counted, GUINT_TO_POINTER(fid), share);
	}
	g_array_set_size(tally->pending, 0);
}

/*
 * The edited objects staged with their properties, counted afresh into
 * *sum; the number of them.
 */
static guint count_edited(KmTransaction *tx, const struct omfs_statfs *sfs, KmRoomShare *sum)
{
	GHashTableIter iter;
	gpointer key;
	guint n = 0;

	g_hash_table_iter_init(&iter, tx->edited);
	while (g_hash_table_iter_next(&iter, &key, NULL)) {
		const KmStaged *s = g_hash_table_lookup(tx->staged, key);
		KmRoomShare share;

		if (!s || !s->object)
			continue;
		share_of(tx, sfs, s->object, &share);
		add_share(sum, &share);
		n++;
	}
	return n;
}

guint64 km_transaction_room_blocks(KmTransaction *tx, const struct omfs_statfs *sfs,
				   const KmProperties *added, guint64 smalldb_size)
{
	KmRoomShare sum, share;
	guint n_deletes;

	count_pending(tx, sfs);
	sum = tx->room.sum;
	/*
	 * Every staged object is counted or edited now, so the rest of the
	 * staged entries are the removals.
	 */
	n_deletes = g_hash_table_size(tx->staged) - g_hash_table_size(tx->room.counted) -
		    count_edited(tx, sfs, &sum);
	share_of(tx, sfs, added, &share);
	add_share(&sum, &share);
	sum.journal_bytes += km_journal_frame_size() + n_deletes * km_journal_entry_size(0);
	return sum.blocks + km_commit_fixed_blocks(sfs, sum.journal_bytes,
						   smalldb_size + sum.smalldb_bytes);
}
