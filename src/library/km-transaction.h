/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-transaction.h - changes to a Karma library, committed together.
 *
 * While a transaction is open, adding a track writes its data file at once
 * (it is big: progress per byte, cancellable); everything else is staged in
 * memory. km_transaction_commit() then writes in the order of km-commit.c
 * (docs/ARCHITECTURE.md, "The Karma library"), rewriting var/smalldb once
 * (see km-commit.c for why a power cut at any point leaves a library that
 * opens). Rolling back, explicitly or by dropping an uncommitted
 * transaction, removes the data files it wrote.
 *
 * Objects added in the transaction get fresh fids; a fid freed earlier may be
 * handed out again, with a fid_generation greater than any its earlier
 * owners had, so that old playlist entries do not pick up the new object.
 */
#ifndef KM_TRANSACTION_H
#define KM_TRANSACTION_H

#include <gio/gio.h>

#include "km-library.h"
#include "km-library-progress.h"

G_BEGIN_DECLS

#define KM_TYPE_TRANSACTION (km_transaction_get_type())
G_DECLARE_FINAL_TYPE(KmTransaction, km_transaction, KM, TRANSACTION, GObject)

/* One transaction at a time, on a writable library. */
KmTransaction *km_library_begin(KmLibrary *lib, GError **error);
KmLibrary *km_transaction_get_library(KmTransaction *tx);

/*
 * A new object (progress: KM_PHASE_COPYING, the bytes written): its data from path (or from in, size bytes if known, else 0)
 * written now to fids0/_hhhhh/lll in large chunks, its properties (a copy of
 * props, with `length` the bytes written, `fid_generation` new, `ctime` now
 * when absent, `type` tune when absent) written at commit. cancellable is
 * checked before the file and between chunks: a cancelled add removes what
 * it wrote and fails with G_IO_ERROR_CANCELLED, leaving the rest of the
 * transaction as it was.
 */
gboolean km_transaction_add_file(KmTransaction *tx, const KmProperties *props, const char *path,
				 KmProgressFunc progress, gpointer user_data,
				 GCancellable *cancellable, guint32 *fid, GError **error);
gboolean km_transaction_add_stream(KmTransaction *tx, const KmProperties *props,
				   GInputStream *in, guint64 size, KmProgressFunc progress,
				   gpointer user_data, GCancellable *cancellable, guint32 *fid,
				   GError **error);
/* Remove an object: its fid leaves every playlist, its files go at commit. */
gboolean km_transaction_remove(KmTransaction *tx, guint32 fid, GError **error);
/*
 * Set a string property (value NULL removes it). `fid`, `type` and the
 * binary properties (playlist, profile) cannot be set this way, and key and
 * value must pass km_property_check() (km-property-rules.h).
 */
gboolean km_transaction_set_property(KmTransaction *tx, guint32 fid, const char *key,
				     const char *value, GError **error);

/*
 * Playlists: type=playlist, title = the name. Create and rename refuse a
 * name another playlist has (so that a name says which playlist it is).
 */
gboolean km_transaction_playlist_create(KmTransaction *tx, const char *name, guint32 *fid,
					GError **error);
gboolean km_transaction_playlist_rename(KmTransaction *tx, guint32 playlist, const char *name,
					GError **error);
gboolean km_transaction_playlist_delete(KmTransaction *tx, guint32 playlist, GError **error);
/* Insert the object `track` (with its fid_generation) at position; -1 appends. */
gboolean km_transaction_playlist_insert(KmTransaction *tx, guint32 playlist, guint32 track,
					gint position, GError **error);
gboolean km_transaction_playlist_remove_at(KmTransaction *tx, guint32 playlist, guint index,
					   GError **error);
/* The playlist holds exactly these objects, in this order, each with its fid_generation. */
gboolean km_transaction_playlist_set(KmTransaction *tx, guint32 playlist, const guint32 *tracks,
				     guint n_tracks, GError **error);
/* Move the entry at `from` so that it ends up at index `to`. */
gboolean km_transaction_playlist_move(KmTransaction *tx, guint32 playlist, guint from, guint to,
				      GError **error);

/*
 * The room check before an add: whether a file of size bytes, to be added
 * with props, fits with everything the next commit then writes (its data in
 * whole clusters, every staged object's properties file, the journal, the
 * new smalldb written next to the old one, and a margin). Both faces ask
 * this before each file, so a full player stops an add between files and a
 * commit never runs out of room half-way. FALSE with error only when the
 * free space cannot be read; room->fits is the answer.
 */
typedef struct {
	guint64 needed;		/* bytes the add and its commit need */
	guint64 free_bytes;	/* bytes free now */
	gboolean fits;
} KmRoom;
gboolean km_transaction_check_room(KmTransaction *tx, const KmProperties *props, guint64 size,
				   KmRoom *room, GError **error);

/* The object as a commit would leave it (owned by tx), NULL when absent or removed. */
KmProperties *km_transaction_lookup(KmTransaction *tx, guint32 fid);
/*
 * A converted file was added as fid: remember its source (id from
 * km_import_source_id()), written to var/km-sources by the commit.
 */
void km_transaction_note_source(KmTransaction *tx, const char *source_id, guint32 fid);
/* The tune converted from source id, committed or added in this transaction. */
gboolean km_transaction_find_source(KmTransaction *tx, const char *source_id, guint32 *fid);
/* km_library_find_duplicate(), counting the tracks added in this transaction too. */
gboolean km_transaction_find_duplicate(KmTransaction *tx, const KmProperties *candidate,
				       guint32 *fid);

/*
 * Write everything (see km-commit.c). On failure the library is marked
 * failed: close it and open it again, which finishes or forgets the commit.
 */
gboolean km_transaction_commit(KmTransaction *tx, GError **error);
/* Forget every change and remove the data files the transaction wrote. */
gboolean km_transaction_rollback(KmTransaction *tx, GError **error);

G_END_DECLS

#endif
