/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-drag-folder.h - where tracks dragged out of the app are exported:
 * $XDG_CACHE_HOME/karma-manager/drag/XXXXXX, one fresh folder per drag. The
 * receiver copies the files after the drop, so they stay until the next
 * start of the app, which removes them.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A new, empty folder for one drag's files. */
GFile *km_drag_folder_new(GError **error);
/* Removes every drag folder (never following symlinks). */
void km_drag_folders_clean(void);

G_END_DECLS
