/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-capacity-bar.h - the player's space as Rhythmbox shows it: a bar of
 * used space, the space queued transfers will take, and free space, with a
 * sentence saying the same.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define KM_TYPE_CAPACITY_BAR (km_capacity_bar_get_type())
G_DECLARE_FINAL_TYPE(KmCapacityBar, km_capacity_bar, KM, CAPACITY_BAR, GtkWidget)

GtkWidget *km_capacity_bar_new(void);
/* pending: bytes the queued transfers will add (0 for none). */
void km_capacity_bar_set(KmCapacityBar *self, guint64 total, guint64 used, guint64 pending);
/* The sentence under the bar (owned by the bar). */
const char *km_capacity_bar_get_text(KmCapacityBar *self);

G_END_DECLS
