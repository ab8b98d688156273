/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spawn-util.c - outside tools for the library tests (spawn-util.h). */
#include "spawn-util.h"

gboolean have(const char *tool)
{
	g_autofree char *found = g_find_program_in_path(tool);

	if (!found)
		g_test_skip_printf("%s is not installed", tool);
	return found != NULL;
}

void argv_add(GPtrArray *argv, const char *word)
{
	g_ptr_array_add(argv, (gpointer)word);
}

void run_in(const char *dir, const char *const *argv)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *out = NULL, *err = NULL;
	int status;

	if (!g_spawn_sync(dir, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
			  &status, &error))
		g_error("%s: %s", argv[0], error->message);
	if (!g_spawn_check_wait_status(status, &error))
		g_error("%s failed (%s): %s%s", argv[0], error->message, out, err);
}

void remove_tree(const char *dir)
{
	const char *rm[] = { "rm", "-rf", dir, NULL };

	g_spawn_sync(NULL, (char **)rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL,
		     NULL);
}
