/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn-util.h - the library tests that make their audio with outside tools
 * (ffmpeg, lame…) share these: whether a tool is there, and running one.
 */
#ifndef SPAWN_UTIL_H
#define SPAWN_UTIL_H

#include <glib.h>

/* Whether tool is in PATH; when not, the test is skipped, saying so. */
gboolean have(const char *tool);
/* argv words are borrowed: literals and strings that outlive the array. */
void argv_add(GPtrArray *argv, const char *word);
/* Run argv (NULL-terminated) in dir; any failure ends the test with its output. */
void run_in(const char *dir, const char *const *argv);

/* rm -rf dir: the test's work folder, at its end. */
void remove_tree(const char *dir);

#endif
