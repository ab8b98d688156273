/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-import.h - an add from the files named to the last commit, as
 * both faces run it (karmactl add in place, the app's add job on its
 * worker): the walk (km-import-walk.h), each file through
 * km_transaction_import() (probe, duplicate check, room check, copy), the
 * commits, and every file's outcome through a callback. The faces only say
 * it, show the progress and cancel.
 *
 * When to commit is the caller's choice (KmImportBatching): once at the
 * end (karmactl: smalldb is rewritten once), or in batches so that tracks
 * appear as they land and a failure loses at most the batch in flight (the
 * app).
 *
 * What a file meets is its own, and the next file is tried: not a tune the
 * Karma plays, unreadable, changed while it was copied, a duplicate, its
 * root's cancellable cancelled. What stops the import, leaving the files
 * after it NOT_TRIED: the whole import cancelled, no room for the next file
 * (KM_LIBRARY_ERROR_NO_ROOM), the player failing (KM_LIBRARY_ERROR_IO or
 * _FAILED: nothing more is committed) or a commit failing. On every stop
 * but the player's failure, the tracks copied so far are committed first,
 * so the library holds every file reported ADDED and not NOT_SAVED.
 */
#ifndef KM_LIBRARY_IMPORT_H
#define KM_LIBRARY_IMPORT_H

#include "km-convert.h"
#include "km-import-add.h"
#include "km-import-walk.h"

G_BEGIN_DECLS

/*
 * A batch is committed when it holds at least `files` files and:
 * - the import's first batch: at least 1/library_share of the library's
 *   objects, or max_us of age (what a failure can lose);
 * - a later one: at least commit_ratio times as old as the last commit took.
 * A commit rewrites smalldb whole, so it costs in proportion to the
 * library: the ratio keeps the commits' part of the time at most about
 * 1/(commit_ratio + 1) however big the library, so that an add stays
 * linear in its files (docs/PERFORMANCE.md, "Adding scales linearly"); the
 * share keeps a small add into a big library from paying that whole
 * rewrite for its first few files on top of its last commit. All 0: one
 * commit at the end.
 */
typedef struct {
	guint files;
	guint library_share;	/* 0: no share */
	gint64 max_us;		/* 0: no age limit */
	guint commit_ratio;	/* 0: a later batch is due at `files` files */
} KmImportBatching;

/* One file's outcome (KM_IMPORT_ADDED, _DUPLICATE, _NO_ROOM or the ones below). */
typedef struct {
	const KmWalkFile *file;
	guint index;			/* in the files found (the walked callback's array) */
	KmImportOutcome outcome;
	guint32 fid;			/* ADDED: the new track; DUPLICATE: the one there */
	const KmProperties *existing;	/* DUPLICATE: the track already there */
	KmRoom room;			/* NO_ROOM: what it needs and what is free */
	const GError *error;		/* FAILED, NOT_SAVED, NOT_TRIED: why */
	gboolean stops;			/* this outcome stops the import */
	const KmConvertPlan *conversion;	/* ADDED or FAILED while converting: what it became */
} KmImportFileResult;

typedef struct {
	gboolean recursive;
	KmImportFlags flags;
	gboolean copy_duplicates;
	KmImportBatching batching;
	/*
	 * NULL: a file the Karma cannot play is refused, as always. Else one
	 * GStreamer decodes is converted (km-convert.h) on converter threads,
	 * ahead of the copies (docs/KARMA.md §10.1), and its source's identity
	 * is kept on the player (var/km-sources, docs/KARMA.md §11.1) so that
	 * adding it again is a duplicate.
	 */
	const KmConvertSettings *convert;
	/* The whole import: the walk, between files and between chunks of a copy. */
	GCancellable *cancellable;
	/* NULL, or one per root (each may be NULL): skips or cuts that root's files. */
	GCancellable *const *root_cancellables;

	/* What the walk could not take (km-import-walk.h); may be NULL. */
	KmWalkProblemFunc walk_problem;
	/* The files found (KmWalkFile*) and their bytes, before any is imported; may be NULL. */
	void (*walked)(GPtrArray *files, guint64 total, gpointer data);
	/* A file is next (before its checks); it may cancel the import. May be NULL. */
	void (*begin)(const KmWalkFile *file, guint index, gpointer data);
	/*
	 * Bytes of the file copied; may be NULL. While the import waits for a
	 * file's conversion: KM_PHASE_CONVERTING, in ms of audio.
	 */
	KmProgressFunc progress;
	/*
	 * A file to convert has its size (in the walked total too) estimated
	 * from its duration and the target's bit rate; once it is converted,
	 * file->size holds the real size and this gets the estimate it
	 * replaces. May be NULL.
	 */
	void (*converted)(const KmWalkFile *file, guint index, guint64 estimate, gpointer data);
	void (*done)(const KmImportFileResult *result, gpointer data);
	/*
	 * NULL, or n_roots fids the caller zeroed: each root that is a file gets
	 * its track once done (the one added, or the one it duplicates); a
	 * playlist import makes its entries of them.
	 */
	guint32 *root_fids;
	/* A batch is on the player for good: its files, with their fid set. May be NULL. */
	void (*committed)(KmWalkFile *const *files, guint n_files, gpointer data);
	gpointer data;
} KmLibraryImportOptions;

/*
 * Import the host files and folders roots (n_roots file names) into lib,
 * each file reported through options->done. FALSE with error when the
 * import stopped (see above), or when nothing could be begun (a library
 * that is read-only or busy).
 */
gboolean km_library_import(KmLibrary *lib, const char *const *roots, guint n_roots,
			   const KmLibraryImportOptions *options, GError **error);

G_END_DECLS

#endif
