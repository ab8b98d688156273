/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-replay.c - runs every file of a fuzz target's corpus (seeds and the
 * inputs that once crashed the code) through the target, as a normal test,
 * without libFuzzer. Linked once per target (fuzz-target.h).
 * Usage: fuzz-replay-TARGET CORPUS-DIR [gtest options]
 *
 * fuzz-usb-replay.c is this file as the fuzz branch has it (fuzz-replay.c),
 * for the usb target until both branches meet; then it goes.
 */
#include "fuzz-target.h"

#include <glib.h>

static void replay_one(gconstpointer data)
{
	const char *path = data;
	GError *error = NULL;
	const char *broken;
	char note[256] = "";
	gchar *contents;
	gsize len;

	if (!g_file_get_contents(path, &contents, &len, &error))
		g_error("%s", error->message);
	broken = fuzz_target_run((const uint8_t *)contents, len, note, sizeof(note));
	g_test_message("%s", note);
	if (broken)
		g_test_fail_printf("%s: %s", path, broken);
	g_free(contents);
}

static gint compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(int argc, char **argv)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *paths;
	GError *error = NULL;
	const char *name;
	GDir *dir;
	int status;

	g_test_init(&argc, &argv, NULL);
	if (argc != 2)
		g_error("usage: %s CORPUS-DIR", argv[0]);
	dir = g_dir_open(argv[1], 0, &error);
	if (!dir)
		g_error("%s", error->message);
	/* Files only: corpus/ holds the other targets' corpora as folders. */
	while ((name = g_dir_read_name(dir))) {
		g_autofree char *path = g_build_filename(argv[1], name, NULL);

		if (name[0] != '.' && !g_str_has_suffix(name, ".md") &&
		    g_file_test(path, G_FILE_TEST_IS_REGULAR))
			g_ptr_array_add(names, g_strdup(name));
	}
	g_dir_close(dir);
	if (names->len == 0)
		g_error("%s holds no corpus files", argv[1]);
	g_ptr_array_sort(names, compare_names);
	/* the tests' data: full paths, freed after the run */
	paths = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < names->len; i++) {
		char *test = g_strdup_printf("/fuzz/replay/%s", (char *)names->pdata[i]);
		char *path = g_build_filename(argv[1], names->pdata[i], NULL);

		g_ptr_array_add(paths, path);
		g_test_add_data_func(test, path, replay_one);
		g_free(test);
	}
	status = g_test_run();
	g_ptr_array_unref(paths);
	g_ptr_array_unref(names);
	return status;
}
