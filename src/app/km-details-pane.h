/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-details-pane.h - the selected tracks: their common tags, editable and
 * saved to the player (a session set-tags job), and, for one track, every
 * property the player stores.
 */
#pragma once

#include <adwaita.h>

#include "km-session.h"

G_BEGIN_DECLS

#define KM_TYPE_DETAILS_PANE (km_details_pane_get_type())
G_DECLARE_FINAL_TYPE(KmDetailsPane, km_details_pane, KM, DETAILS_PANE, GtkWidget)

void km_details_pane_set_session(KmDetailsPane *self, KmSession *session);
/* tracks: KmTrack (a reference to the array is kept); NULL or empty for none. */
void km_details_pane_set_tracks(KmDetailsPane *self, GPtrArray *tracks);
/*
 * The session's tracks changed: show the current snapshot of each track
 * shown (by fid; gone ones are dropped). Tags being edited are left alone.
 */
void km_details_pane_refresh(KmDetailsPane *self);
/* The text of the property rows, "key=value" lines (for tests and copying). */
char *km_details_pane_dup_properties_text(KmDetailsPane *self);

G_END_DECLS
