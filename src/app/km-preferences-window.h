/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-preferences-window.h - the preferences: the duplicate policy, the
 * conversion of files the player cannot play, the export template, kept in
 * GSettings.
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* An AdwPreferencesDialog from libadwaita 1.5, an AdwPreferencesWindow before (a
 * macro and a typedef: G_DECLARE_FINAL_TYPE pastes the name). */
#if ADW_CHECK_VERSION(1, 5, 0)
#define KmPreferencesParent AdwPreferencesDialog
typedef AdwPreferencesDialogClass KmPreferencesParentClass;
#define KM_PREFERENCES_PARENT_TYPE ADW_TYPE_PREFERENCES_DIALOG
#else
#define KmPreferencesParent AdwPreferencesWindow
typedef AdwPreferencesWindowClass KmPreferencesParentClass;
#define KM_PREFERENCES_PARENT_TYPE ADW_TYPE_PREFERENCES_WINDOW
#endif

#define KM_TYPE_PREFERENCES_WINDOW (km_preferences_window_get_type())
G_DECLARE_FINAL_TYPE(KmPreferencesWindow, km_preferences_window, KM, PREFERENCES_WINDOW,
		     KmPreferencesParent)

/* Show it with km_dialog_present() (km-app-util.h). */
GtkWidget *km_preferences_window_new(void);

G_END_DECLS
