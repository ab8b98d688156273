/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-test-screen.h - what a user finds on the screen and does with it: the
 * rows of the library, labels and buttons that are shown, a click on them,
 * text typed (through km-test-input's X server events).
 */
#pragma once

#include <gtk/gtk.h>

#include "km-player-view-private.h"

G_BEGIN_DECLS

/* The rows the library view shows (its selection model). */
GListModel *km_test_view_rows(KmPlayerView *pv);
/* The Title column's cell of row position (waits until it is drawn). */
GtkWidget *km_test_title_cell(KmPlayerView *pv, guint position);
/* A click on the text of row position (not on its arrow), as a user selects a row. */
void km_test_click_row(KmPlayerView *pv, guint position, guint n_clicks);
/* The first mapped button below widget with this icon, or NULL. */
GtkWidget *km_test_find_icon_button(GtkWidget *widget, const char *icon);
/* The first mapped button below widget that activates action ("player.export"), or NULL. */
GtkWidget *km_test_find_action_button(GtkWidget *widget, const char *action);
/* The first mapped label below widget showing text, or NULL. */
GtkWidget *km_test_find_shown_label(GtkWidget *widget, const char *text);
/* Waits for the label showing text below below, and clicks it. */
void km_test_click_label(GtkWidget *below, const char *text);
/* Whether some mapped label below widget has text containing part. */
gboolean km_test_shows_part(GtkWidget *widget, const char *part);
/* The first mapped button below widget with this label (mnemonic and all), or NULL. */
GtkWidget *km_test_find_button(GtkWidget *widget, const char *label);
/* Whether widget is where it was a few frames ago (not sliding in or out). */
gboolean km_test_stands_still(GtkWidget *widget);
/* Types text (ASCII letters and spaces) on the keyboard. */
void km_test_type_text(GtkWindow *window, const char *text);

G_END_DECLS
