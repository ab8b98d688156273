/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-convert-temp.h - the temporary folder an import's conversions are
 * written to, and what killed imports left behind.
 *
 * The folder is "karma-manager-convert-PID-XXXXXX" in the temporary folder
 * (g_get_tmp_dir()), holding INDEX/NAME.EXT files. An import removes it
 * when it ends; one that was killed (kill -9, a crash, a power cut of the
 * computer) cannot. So making a folder first removes those whose process
 * is gone (docs/KARMA.md §10.1): only folders of that name pattern, only
 * the two levels an import makes, never following a symbolic link.
 */
#ifndef KM_CONVERT_TEMP_H
#define KM_CONVERT_TEMP_H

#include <glib.h>

G_BEGIN_DECLS

/* A new folder for this process's conversions, after sweeping dead ones; NULL with error. */
char *km_convert_temp_folder_new(GError **error);

/* The folders of dead processes in dir removed; how many. */
guint km_convert_temp_sweep(const char *dir);

G_END_DECLS

#endif
