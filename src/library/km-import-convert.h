/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-import-convert.h - the files of an import that are converted
 * (docs/KARMA.md §10.1), converted ahead of the copies on converter
 * threads: while the import copies one file to the player, the next ones
 * convert. One converter per core but the one the copy uses (at least
 * one), each at most a few files ahead of the copy, so the temporary
 * files stay few.
 *
 * A file is converted when the Karma cannot play it (km_import_playable()
 * says NOT_AUDIO or UNSUPPORTED) and GStreamer decodes it
 * (km_convert_plan()). Its converted file lives in a temporary folder
 * named after the source ("Song.m4a" becomes ".../Song.ogg", so that a file
 * without a title tag gets the same title as before) until it is released.
 *
 * Called from one thread, the import's.
 */
#ifndef KM_IMPORT_CONVERT_H
#define KM_IMPORT_CONVERT_H

#include "km-convert.h"
#include "km-library.h"

G_BEGIN_DECLS

typedef struct _KmConversions KmConversions;

/*
 * Look at every file of files (KmWalkFile*), several at once: each one to
 * convert gets its plan and its source's identity, and its size becomes the
 * estimate of its converted size. Unless copy_duplicates, a file whose
 * source lib already holds converted is not converted ahead (the import
 * finds it a duplicate).
 */
KmConversions *km_conversions_new(KmLibrary *lib, GPtrArray *files,
				  const KmConvertSettings *settings, gboolean copy_duplicates,
				  GCancellable *cancellable);
/* Cancels the conversions running, waits for them, removes every temporary file. */
void km_conversions_free(KmConversions *cv);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(KmConversions, km_conversions_free)

/* What files[index] becomes, or NULL when it is not converted. */
const KmConvertPlan *km_conversions_plan(KmConversions *cv, guint index);
/* Its source's identity (km_import_source_id()); NULL when it is not converted. */
const char *km_conversions_source_id(KmConversions *cv, guint index);
/*
 * Why files[index] cannot be converted although the Karma does not play it
 * (a decoder is missing: KM_CONVERT_ERROR_UNAVAILABLE), or NULL.
 */
const GError *km_conversions_problem(KmConversions *cv, guint index);

/*
 * Wait for files[index]'s converted file (starting its conversion and the
 * next ones' when not yet begun), relaying its progress (KM_PHASE_CONVERTING)
 * every 100 ms: its name, valid until km_conversions_release(). NULL with
 * the error (km-convert.h) when the conversion failed, or
 * G_IO_ERROR_CANCELLED when cancellable was cancelled (the conversion is
 * stopped).
 */
const char *km_conversions_take(KmConversions *cv, guint index, KmProgressFunc progress,
				gpointer data, GCancellable *cancellable, GError **error);
/* files[index]'s converted file is no longer needed: removed; the next conversion may start. */
void km_conversions_release(KmConversions *cv, guint index);

G_END_DECLS

#endif
