/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-file-chooser.h - asking for files or a folder: GtkFileChooserNative on
 * GTK 4.8 (a portal under Flatpak), GtkFileDialog from GTK 4.10.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* files: GFile, never empty (not called when the user cancels). */
typedef void (*KmFilesChosenFunc)(GObject *owner, GPtrArray *files);

/* owner (a widget in the window) is kept alive until the answer. */
void km_choose_files(GtkWidget *owner, const char *title, const char *accept_label,
		     gboolean folder, gboolean multiple, KmFilesChosenFunc chosen);
/* One folder, the chooser opened in initial (may be NULL): the folder chosen last time. */
void km_choose_folder_from(GtkWidget *owner, const char *title, const char *accept_label,
			   GFile *initial, KmFilesChosenFunc chosen);

G_END_DECLS
