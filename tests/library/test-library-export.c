/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-library-export.c - the export pipeline both faces run
 * (km_library_export): the bytes out are the bytes in, no file is
 * overwritten, a track that fails is reported and the next one tried, a
 * bad template stops before anything, and a cancelled export leaves no
 * partial file.
 */
#include "library-test-util.h"

#include <glib/gstdio.h>

#include "km-export.h"

typedef struct {
	guint32 fid;
	char *path;
	GError *error;
} Outcome;

typedef struct {
	GArray *outcomes;	/* Outcome */
	guint begun;
	GCancellable *cancel_after_first;	/* cancelled once the first chunk is out */
} Log;

static void outcome_clear(gpointer data)
{
	Outcome *o = data;

	g_free(o->path);
	g_clear_error(&o->error);
}

static void on_begin(guint32 fid, const KmProperties *props, const char *relative, guint64 size,
		     gpointer data)
{
	Log *log = data;

	g_assert_cmpuint(fid, ==, km_properties_get_fid(props));
	log->begun++;
}

static void on_progress(const KmLibraryProgress *p, gpointer data)
{
	Log *log = data;

	g_assert_cmpint(p->phase, ==, KM_PHASE_COPYING);
	g_assert_cmpuint(p->done, <=, p->total);
	if (log->cancel_after_first)
		g_cancellable_cancel(log->cancel_after_first);
}

static void on_done(guint32 fid, const char *path, const GError *error, gpointer data)
{
	Log *log = data;
	Outcome o = { fid, g_strdup(path), error ? g_error_copy(error) : NULL };

	g_assert_true((path == NULL) != (error == NULL));
	g_array_append_val(log->outcomes, o);
}

static gboolean export(KmLibrary *lib, const guint32 *fids, guint n, const char *folder,
		       const char *template, Log *log, GError **error)
{
	KmExportOptions opts = {
		.folder = folder, .template = template, .begin = on_begin,
		.progress = on_progress, .done = on_done, .data = log,
		.cancellable = log->cancel_after_first,
	};

	log->outcomes = g_array_new(FALSE, TRUE, sizeof(Outcome));
	g_array_set_clear_func(log->outcomes, outcome_clear);
	return km_library_export(lib, fids, n, &opts, error);
}

typedef struct {
	struct km_mem_device *m;
	KmLibrary *lib;
	char *host[2];
	guint32 fid[2];
	char *folder;
} Fixture;

static guint n_folders;

static void fixture_set_up(Fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	KmTransaction *tx;

	f->m = tu_new_volume(16u << 20);
	f->lib = tu_open(&f->m->bdev, TRUE);
	tx = km_library_begin(f->lib, &error);
	g_assert_no_error(error);
	for (guint i = 0; i < 2; i++) {
		g_autofree char *name = g_strdup_printf("in%u.bin", i);

		/* more than one chunk of the copy, and not a whole number of them */
		f->host[i] = tu_host_file(name, (3u << 20) / 2 + i * 4097, i + 7);
		f->fid[i] = tu_add(tx, f->host[i], i);
	}
	tu_commit(tx);
	g_object_unref(tx);
	/* a folder of its own: each test starts with none */
	f->folder = g_strdup_printf("%s/out-%u", tu_tmpdir(), n_folders++);
}

static void fixture_tear_down(Fixture *f, gconstpointer unused)
{
	tu_close(f->lib);
	km_mem_device_free(f->m);
	for (guint i = 0; i < 2; i++)
		g_free(f->host[i]);
	g_free(f->folder);
}

static void assert_same_file(const char *a, const char *b)
{
	g_autoptr(GBytes) x = tu_host_bytes(a);
	g_autoptr(GBytes) y = tu_host_bytes(b);

	g_assert_true(g_bytes_equal(x, y));
}

/* Each track's bytes, under its template name; the same track again gets "(2)". */
static void test_copies(Fixture *f, gconstpointer unused)
{
	guint32 fids[3] = { f->fid[0], f->fid[1], f->fid[0] };
	g_autoptr(GError) error = NULL;
	Log log = { 0 };
	Outcome *o;

	g_assert_true(export(f->lib, fids, 3, f->folder, "%t.%c", &log, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(log.outcomes->len, ==, 3);
	g_assert_cmpuint(log.begun, ==, 3);
	for (guint i = 0; i < 3; i++) {
		o = &g_array_index(log.outcomes, Outcome, i);
		g_assert_cmpuint(o->fid, ==, fids[i]);
		assert_same_file(o->path, f->host[i % 2]);
	}
	o = &g_array_index(log.outcomes, Outcome, 2);
	g_assert_true(g_str_has_suffix(o->path, "Track 0 (2).mp3"));
	g_assert_cmpuint(km_library_get_data_total(f->lib, fids, 3), ==,
			 2 * ((3u << 20) / 2) + (3u << 20) / 2 + 4097);
	g_array_unref(log.outcomes);
}

/* A missing track and one whose folder is in the way fail; the track after them is copied. */
static void test_failure_goes_on(Fixture *f, gconstpointer unused)
{
	guint32 fids[3] = { 0x7770, f->fid[0], f->fid[1] };
	g_autofree char *blocker = g_build_filename(f->folder, "Track 0", NULL);
	g_autoptr(GError) error = NULL;
	Log log = { 0 };

	g_assert_cmpint(g_mkdir_with_parents(f->folder, 0755), ==, 0);
	g_assert_true(g_file_set_contents(blocker, "in the way", -1, NULL));
	g_assert_true(export(f->lib, fids, 3, f->folder, "%t/%t.%c", &log, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(log.outcomes->len, ==, 3);
	g_assert_error(g_array_index(log.outcomes, Outcome, 0).error, KM_LIBRARY_ERROR,
		       KM_LIBRARY_ERROR_NOT_FOUND);
	g_assert_error(g_array_index(log.outcomes, Outcome, 1).error, KM_EXPORT_ERROR,
		       KM_EXPORT_ERROR_IN_THE_WAY);
	assert_same_file(g_array_index(log.outcomes, Outcome, 2).path, f->host[1]);
	g_array_unref(log.outcomes);
	g_unlink(blocker);
}

/* A bad template is said once, before any track is tried. */
static void test_bad_template(Fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	Log log = { 0 };

	g_assert_false(export(f->lib, f->fid, 2, f->folder, "%q", &log, &error));
	g_assert_error(error, KM_EXPORT_ERROR, KM_EXPORT_ERROR_TEMPLATE);
	g_assert_cmpuint(log.outcomes->len, ==, 0);
	g_assert_cmpuint(log.begun, ==, 0);
	g_array_unref(log.outcomes);
}

/* Cancelled inside the first track: it is reported, its partial file is gone, the rest not tried. */
static void test_cancel(Fixture *f, gconstpointer unused)
{
	g_autoptr(GCancellable) cancellable = g_cancellable_new();
	g_autoptr(GError) error = NULL;
	g_autofree char *partial = g_build_filename(f->folder, "Track 0.mp3", NULL);
	Log log = { .cancel_after_first = cancellable };

	g_assert_false(export(f->lib, f->fid, 2, f->folder, "%t.%c", &log, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
	g_assert_cmpuint(log.outcomes->len, ==, 1);
	g_assert_error(g_array_index(log.outcomes, Outcome, 0).error, G_IO_ERROR,
		       G_IO_ERROR_CANCELLED);
	g_assert_false(g_file_test(partial, G_FILE_TEST_EXISTS));
	g_array_unref(log.outcomes);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/export/copies", Fixture, NULL, fixture_set_up, test_copies,
		   fixture_tear_down);
	g_test_add("/export/failure-goes-on", Fixture, NULL, fixture_set_up,
		   test_failure_goes_on, fixture_tear_down);
	g_test_add("/export/bad-template", Fixture, NULL, fixture_set_up, test_bad_template,
		   fixture_tear_down);
	g_test_add("/export/cancel", Fixture, NULL, fixture_set_up, test_cancel,
		   fixture_tear_down);
	return g_test_run();
}
