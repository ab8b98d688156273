/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-library-import.c - the add both faces run (km_library_import): the
 * walk's files in order, each file's outcome, commits once or in batches,
 * a root's cancellable, and what stops the import (no room, the whole
 * import cancelled) with the files copied before it committed.
 */
#include "library-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

#include "km-library-import.h"

#define VOLUME_SIZE (16u << 20)

typedef struct {
	KmLibrary *lib;
	GString *log;		/* "outcome:name " per file, "commit:N " per batch */
	guint cancel_at;	/* begin of this file index cancels the import (G_MAXUINT: never) */
	GCancellable *cancellable;
	guint64 walked_total;
} Seen;

static const char *const outcome_names[] = {
	[KM_IMPORT_ADDED] = "added", [KM_IMPORT_DUPLICATE] = "duplicate",
	[KM_IMPORT_NO_ROOM] = "no-room", [KM_IMPORT_FAILED] = "failed",
	[KM_IMPORT_NOT_SAVED] = "not-saved", [KM_IMPORT_NOT_TRIED] = "not-tried",
};

static void on_walked(GPtrArray *files, guint64 total, gpointer data)
{
	Seen *seen = data;

	seen->walked_total = total;
}

static void on_begin(const KmWalkFile *file, guint index, gpointer data)
{
	Seen *seen = data;

	if (index == seen->cancel_at)
		g_cancellable_cancel(seen->cancellable);
}

static void on_done(const KmImportFileResult *r, gpointer data)
{
	Seen *seen = data;
	g_autofree char *name = g_path_get_basename(r->file->path);

	g_assert_cmpint(r->outcome == KM_IMPORT_ADDED || r->outcome == KM_IMPORT_DUPLICATE, ==,
			r->error == NULL);
	if (r->outcome == KM_IMPORT_DUPLICATE) {
		g_assert_nonnull(r->existing);
		g_assert_cmpuint(km_properties_get_fid(r->existing), ==, r->fid);
	}
	g_string_append_printf(seen->log, "%s:%s ", outcome_names[r->outcome], name);
}

static void on_committed(KmWalkFile *const *files, guint n_files, gpointer data)
{
	Seen *seen = data;

	/* each file of the batch is in the library, with the fid it got */
	for (guint i = 0; i < n_files; i++)
		g_assert_nonnull(km_library_lookup(seen->lib, files[i]->fid));
	g_string_append_printf(seen->log, "commit:%u ", n_files);
}

static gboolean run(Seen *seen, const char *const *roots, guint n_roots,
		    KmLibraryImportOptions *options, GError **error)
{
	options->walked = on_walked;
	options->begin = on_begin;
	options->done = on_done;
	options->committed = on_committed;
	options->data = seen;
	return km_library_import(seen->lib, roots, n_roots, options, error);
}

static Seen seen_new(KmLibrary *lib)
{
	return (Seen){ lib, g_string_new(NULL), G_MAXUINT, g_cancellable_new(), 0 };
}

static void seen_clear(Seen *seen)
{
	g_string_free(seen->log, TRUE);
	g_object_unref(seen->cancellable);
}

/* A folder of three tunes, a text file and a hidden file; its first tune named again. */
static char *music_folder(char **again)
{
	char *dir = g_build_filename(tu_tmpdir(), "music", NULL);
	const char *const names[] = { "music/a.wav", "music/b.wav", "music/c.wav" };

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	for (guint i = 0; i < G_N_ELEMENTS(names); i++)
		g_free(tu_wav_file(names[i], 64 * 1024 + i * 4096));
	g_free(tu_wav_file("music/.hidden.wav", 64 * 1024));
	g_free(tu_host_file("music/notes.txt", 4096, 7));
	*again = g_build_filename(dir, "a.wav", NULL);
	return dir;
}

/*
 * Batches of at least 2 files: two commits for three tunes, smalldb written
 * twice; the text file refused, the hidden one not found, the tune named
 * again a duplicate of the one committed.
 */
static void test_batches(void)
{
	struct km_mem_device *m = tu_new_volume(VOLUME_SIZE);
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	g_autofree char *again = NULL;
	g_autofree char *dir = music_folder(&again);
	const char *roots[] = { dir, again };
	KmLibraryImportOptions options = { .recursive = TRUE, .batching = { 2, 0, 0 } };
	g_autoptr(GError) error = NULL;
	Seen seen = seen_new(lib);
	guint writes = km_library_get_smalldb_writes(lib);

	options.cancellable = seen.cancellable;
	g_assert_true(run(&seen, roots, G_N_ELEMENTS(roots), &options, &error));
	g_assert_no_error(error);
	g_assert_cmpstr(seen.log->str, ==,
			"added:a.wav added:b.wav commit:2 added:c.wav failed:notes.txt "
			"duplicate:a.wav commit:1 ");
	g_assert_cmpuint(seen.walked_total, >, 3 * 64 * 1024);
	g_assert_cmpuint(km_library_get_smalldb_writes(lib) - writes, ==, 2);
	g_assert_cmpuint(km_library_get_n_objects(lib), ==, 3);
	seen_clear(&seen);
	tu_assert_verifies_clean(lib);
	tu_close(lib);
	km_mem_device_free(m);
}

/* No batching: one commit at the end; a root's cancellable skips its files only. */
static void test_once_and_root_cancelled(void)
{
	struct km_mem_device *m = tu_new_volume(VOLUME_SIZE);
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	g_autofree char *again = NULL;
	g_autofree char *dir = music_folder(&again);
	g_autofree char *other = tu_wav_file("other.wav", 80 * 1024);
	const char *roots[] = { again, dir, other };
	g_autoptr(GCancellable) skip = g_cancellable_new();
	GCancellable *root_cancellables[] = { NULL, skip, NULL };
	KmLibraryImportOptions options = { .recursive = TRUE,
					   .root_cancellables = root_cancellables };
	g_autoptr(GError) error = NULL;
	Seen seen = seen_new(lib);
	guint writes = km_library_get_smalldb_writes(lib);

	g_cancellable_cancel(skip);
	g_assert_true(run(&seen, roots, G_N_ELEMENTS(roots), &options, &error));
	g_assert_no_error(error);
	g_assert_cmpstr(seen.log->str, ==,
			"added:a.wav failed:a.wav failed:b.wav failed:c.wav failed:notes.txt "
			"added:other.wav commit:2 ");
	g_assert_cmpuint(km_library_get_smalldb_writes(lib) - writes, ==, 1);
	seen_clear(&seen);
	tu_close(lib);
	km_mem_device_free(m);
}

/* No room for the second file: it stops the import, the first is committed. */
static void test_no_room_stops(void)
{
	struct km_mem_device *m = tu_new_volume(VOLUME_SIZE);
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	g_autofree char *small = tu_wav_file("small.wav", 100 * 1024);
	g_autofree char *huge = tu_wav_file("huge.wav", VOLUME_SIZE - (1u << 20));
	g_autofree char *later = tu_wav_file("later.wav", 90 * 1024);
	const char *roots[] = { small, huge, later };
	KmLibraryImportOptions options = { .batching = { 8, 8, 0 } };
	g_autoptr(GError) error = NULL;
	Seen seen = seen_new(lib);

	g_assert_false(run(&seen, roots, G_N_ELEMENTS(roots), &options, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NO_ROOM);
	g_assert_nonnull(strstr(error->message, "huge.wav"));
	g_assert_cmpstr(seen.log->str, ==,
			"added:small.wav no-room:huge.wav commit:1 not-tried:later.wav ");
	g_assert_cmpuint(km_library_get_n_objects(lib), ==, 1);
	seen_clear(&seen);
	tu_assert_verifies_clean(lib);
	tu_close(lib);
	km_mem_device_free(m);
}

/* Cancelled before the second file: the first is kept, the rest not tried. */
static void test_cancelled_keeps_copied(void)
{
	struct km_mem_device *m = tu_new_volume(VOLUME_SIZE);
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	g_autofree char *again = NULL;
	g_autofree char *dir = music_folder(&again);
	const char *roots[] = { dir };
	KmLibraryImportOptions options = { .recursive = TRUE };
	g_autoptr(GError) error = NULL;
	Seen seen = seen_new(lib);

	options.cancellable = seen.cancellable;
	seen.cancel_at = 1;
	g_assert_false(run(&seen, roots, G_N_ELEMENTS(roots), &options, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
	g_assert_cmpstr(seen.log->str, ==,
			"added:a.wav commit:1 not-tried:b.wav not-tried:c.wav "
			"not-tried:notes.txt ");
	g_assert_cmpuint(km_library_get_n_objects(lib), ==, 1);
	seen_clear(&seen);
	tu_close(lib);
	km_mem_device_free(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/import/batches", test_batches);
	g_test_add_func("/import/once-and-root-cancelled", test_once_and_root_cancelled);
	g_test_add_func("/import/no-room-stops", test_no_room_stops);
	g_test_add_func("/import/cancelled-keeps-copied", test_cancelled_keeps_copied);
	return g_test_run();
}
