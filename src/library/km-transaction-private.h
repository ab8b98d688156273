/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-transaction-private.h - what km-transaction*.c share. */
#ifndef KM_TRANSACTION_PRIVATE_H
#define KM_TRANSACTION_PRIVATE_H

#include "km-library-private.h"

G_BEGIN_DECLS

typedef struct {
	KmProperties *object;	/* as the commit writes it; NULL: removed */
	gboolean added;		/* its fid was handed out by this transaction */
	gboolean data_written;	/* this transaction wrote its data file */
} KmStaged;

/* What one staged object adds to a commit, as the room check counts it. */
typedef struct {
	guint64 journal_bytes;	/* its journal entry */
	guint64 smalldb_bytes;	/* its new smalldb row, estimated (0: its row is there) */
	guint64 blocks;		/* its properties file (and a playlist's data file) */
} KmRoomShare;

/*
 * The room check's running sums (km-transaction-room.c), so that the check
 * before each file of an add costs the same in a transaction holding 20,000
 * new tracks as in an empty one, instead of serializing every staged object
 * each time (docs/PERFORMANCE.md, "Adding scales linearly"). Only objects
 * that cannot change are in the sums: the ones staged new and never handed
 * out for editing. The edited ones are counted one by one at each check.
 */
typedef struct {
	GArray *pending;	/* guint32: fids staged new since the last check */
	GHashTable *counted;	/* fid -> KmRoomShare*: the objects in sum */
	KmRoomShare sum;
} KmRoomTally;

struct _KmTransaction {
	GObject parent_instance;
	KmLibrary *lib;		/* a reference */
	GHashTable *staged;	/* fid -> KmStaged* */
	/*
	 * The duplicate check's index of the staged objects, so that adding
	 * costs the same into a big transaction as into an empty one: rid ->
	 * GArray of the fids staged new with it. An object handed out for
	 * editing (km_transaction_edit) may change, so its fid is in edited,
	 * which the check reads one by one. Each hit is confirmed on the
	 * object as it is now, so a stale entry costs nothing but a lookup.
	 */
	GHashTable *rid_index;
	GHashTable *edited;	/* set of fids */
	KmRoomTally room;
	/* The sources of the converted files added (km-sources.h), for var/km-sources. */
	GHashTable *sources;
	gboolean done;		/* committed or rolled back */
};

/* Open, on a usable writable library. */
gboolean km_transaction_check(KmTransaction *tx, GError **error);
/* The object as the transaction sees it, or NOT_FOUND. */
KmProperties *km_transaction_get(KmTransaction *tx, guint32 fid, GError **error);
/* The object, staged for a change: the one to modify. NOT_FOUND when absent. */
KmProperties *km_transaction_edit(KmTransaction *tx, guint32 fid, GError **error);
/* A fid with no file on the disk, and its first fid_generation. */
gboolean km_transaction_new_fid(KmTransaction *tx, guint32 *fid, guint32 *generation,
				GError **error);
/* What a commit would write now: the puts (ascending fid) and the deletes. */
KmChangeSet *km_transaction_staged_changes(KmTransaction *tx);
/* The object an add stages for props: fid, length, fid_generation, ctime and type set. */
KmProperties *km_transaction_new_object(const KmProperties *props, guint32 fid,
					guint32 generation, guint64 length, gint64 now);
/* A new object's staging entry (takes object). */
void km_transaction_stage_new(KmTransaction *tx, KmProperties *object, gboolean data_written);
/* ---- km-transaction-room.c ---- */

void km_room_tally_init(KmRoomTally *tally);
/* Frees what the tally holds. */
void km_room_tally_clear(KmRoomTally *tally);
/* Empties it: the transaction is over. */
void km_room_tally_reset(KmRoomTally *tally);
/* fid was staged new: counted at the next check, unless it was edited or went meanwhile. */
void km_room_tally_staged(KmRoomTally *tally, guint32 fid);
/* fid may change (handed out for editing) or was unstaged: out of the sums. */
void km_room_tally_forget(KmRoomTally *tally, guint32 fid);
/*
 * The blocks a commit of the staged changes and of added (a new object)
 * would write (km_commit_blocks_needed()), with var/smalldb smalldb_size
 * bytes now.
 */
guint64 km_transaction_room_blocks(KmTransaction *tx, const struct omfs_statfs *sfs,
				   const KmProperties *added, guint64 smalldb_size);

/* Remove the fids (a set of GUINT_TO_POINTER) from every playlist (km-transaction-playlist.c). */
gboolean km_transaction_unlist(KmTransaction *tx, GHashTable *fids, GError **error);

/*
 * Before the commit's journal: var/km-sources with this transaction's
 * sources (nothing when it has none); *installed gets the table to install
 * once the commit is done (km-transaction-sources.c).
 */
gboolean km_transaction_write_sources(KmTransaction *tx, GHashTable **installed,
				      GError **error);

G_END_DECLS

#endif
