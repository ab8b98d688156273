/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-transfer-row.h - one copy job in the transfer queue: the file being
 * copied and the whole job's progress with speed and time left, a cancel
 * button for the job and for each queued file, then what happened to each
 * file that was not copied (duplicate, unsupported, player full…) and why.
 *
 * Signal changed (): progress or state changed.
 */
#pragma once

#include <gtk/gtk.h>

#include "km-progress.h"
#include "km-report.h"

G_BEGIN_DECLS

#define KM_TYPE_TRANSFER_ROW (km_transfer_row_get_type())
G_DECLARE_FINAL_TYPE(KmTransferRow, km_transfer_row, KM, TRANSFER_ROW, GtkListBoxRow)

/* files (may be NULL): the queued host files, each with a cancel button. */
KmTransferRow *km_transfer_row_new(const char *title, GFile *const *files, guint n_files);
GCancellable *km_transfer_row_get_cancellable(KmTransferRow *self);
/* One per file given to new (n_files entries), or NULL. */
GCancellable *const *km_transfer_row_get_item_cancellables(KmTransferRow *self);
void km_transfer_row_update(KmTransferRow *self, const KmProgress *progress);
/* The job ended: report (may be NULL) and error (may be NULL) say how. */
void km_transfer_row_finish(KmTransferRow *self, KmReport *report, const GError *error);
/* A job without a report (a backup, a restore) ended: text says what it did, or error why not. */
void km_transfer_row_finish_text(KmTransferRow *self, const char *text, const GError *error);
gboolean km_transfer_row_is_running(KmTransferRow *self);
/*
 * Whether the job copies onto the player (adding files), so that what it
 * still has to copy takes the player's free space; not a backup, an
 * export or a restore (which replaces everything). Off by default.
 */
void km_transfer_row_set_fills_player(KmTransferRow *self, gboolean fills);
/* Names of the tracks of the job, by fid (for the problems of tracks, which have no file). */
void km_transfer_row_set_track_names(KmTransferRow *self, GPtrArray *tracks);
/* A job that reports no progress: status says what it does, the bar pulses until it ends. */
void km_transfer_row_set_unmeasured(KmTransferRow *self, const char *status);
/* The title shown once the job ended ("Copying 3 items…" is over then); NULL: the same. */
void km_transfer_row_set_finished_title(KmTransferRow *self, const char *title);
/* Bytes still to copy onto the player, as far as known (0 unless it fills the player). */
guint64 km_transfer_row_get_pending_bytes(KmTransferRow *self);
/* The status line ("3 of 12 — 1.2 MB/s, 10 seconds left"). */
const char *km_transfer_row_get_status(KmTransferRow *self);
/* The problems listed after the job, one "name: reason" line each. */
char *km_transfer_row_dup_problems(KmTransferRow *self);

G_END_DECLS
