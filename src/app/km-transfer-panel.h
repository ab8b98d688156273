/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-transfer-panel.h - the queue of transfer jobs (KmTransferRow), with
 * "Cancel All"; it shows itself while it holds rows.
 *
 * Signal changed (): a row was added, progressed, finished or went away.
 */
#pragma once

#include "km-transfer-row.h"

G_BEGIN_DECLS

#define KM_TYPE_TRANSFER_PANEL (km_transfer_panel_get_type())
G_DECLARE_FINAL_TYPE(KmTransferPanel, km_transfer_panel, KM, TRANSFER_PANEL, GtkWidget)

void km_transfer_panel_add(KmTransferPanel *self, KmTransferRow *row);
void km_transfer_panel_cancel_all(KmTransferPanel *self);
void km_transfer_panel_clear_finished(KmTransferPanel *self);
/* Whether a job is still running. */
gboolean km_transfer_panel_is_busy(KmTransferPanel *self);
/* Bytes the running jobs will still copy. */
guint64 km_transfer_panel_get_pending_bytes(KmTransferPanel *self);
/* The rows (for tests): the first, or NULL. */
KmTransferRow *km_transfer_panel_get_first_row(KmTransferPanel *self);

G_END_DECLS
