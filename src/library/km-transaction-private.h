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
