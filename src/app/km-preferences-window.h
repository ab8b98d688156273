/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-preferences-window.h - the preferences: the duplicate policy and the
 * export template, kept in GSettings.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define KM_TYPE_PREFERENCES_WINDOW (km_preferences_window_get_type())
G_DECLARE_FINAL_TYPE(KmPreferencesWindow, km_preferences_window, KM, PREFERENCES_WINDOW,
		     AdwPreferencesWindow)

GtkWidget *km_preferences_window_new(GtkWindow *parent);

G_END_DECLS
