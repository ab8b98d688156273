/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-test-input.h - a user's keyboard and mouse for the GUI tests: real key
 * presses and clicks through the X server (its XTEST extension, under
 * Xvfb), so that GTK delivers them as it delivers a user's: a key press to
 * the window's focus (whatever it is, or none), a click to whatever widget
 * is on top at that point.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Makes window the X input focus (what a click on its title does) and waits until it is active. */
void km_test_focus_window(GtkWindow *window);
/* Presses and releases keyval with mods (Control, Shift, Alt) held, on the focused window. */
void km_test_press_key(GtkWindow *window, guint keyval, GdkModifierType mods);
/* Clicks button (1 left, 3 right) n_clicks times at (x, y) of widget's coordinates. */
void km_test_click_at(GtkWidget *widget, double x, double y, guint button, guint n_clicks);
/* The same at the middle of widget. */
void km_test_click(GtkWidget *widget, guint button, guint n_clicks);
/* Lets GTK take in what the X server has sent (a few frames of window's clock). */
void km_test_settle(GtkWindow *window);

G_END_DECLS
