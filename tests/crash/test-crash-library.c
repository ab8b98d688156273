/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-crash-library.c - a scripted workload through KmLibrary and
 * KmTransaction, cut by a power cut at every k-th write (every write with
 * KM_CRASH_EVERY=1), in three ways (crash-util.h: clean, a volatile write
 * cache losing unflushed writes, a torn write; the last two with SEEDS
 * seeds per write, KM_CRASH_SEEDS=N for more). The workload, in four
 * commits from an empty library: 20 WAV tracks and a playlist of 5; 15
 * more tracks and 10 removed; the playlist renamed and 5 tracks' tags
 * edited; a folder of 15 tracks. After every cut:
 *   - the volume mounts and fsck finds nothing worse than leaks;
 *   - the library opens writable (finishing or forgetting the commit) and
 *     is the library before the interrupted commit or after it: every
 *     track committed before the cut is there, with its tags;
 *   - every track it lists reads back the exact bytes of its host file;
 *   - verify with repair leaves nothing, fsck --repair leaves fsck clean,
 *     and the library still opens as the same library.
 */
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "crash-util.h"
#include "km-import.h"
#include "km-library.h"
#include "km-smalldb.h"
#include "km-transaction.h"
#include "km-verify.h"

#define VOLUME_SIZE (8u << 20)
#define N_TRACKS 50
#define N_BATCHES 4
#define NOW 1700000000
/* Cuts per mode and seed at most in a normal run (KM_CRASH_EVERY=1: every write). */
#define CUTS_PER_MODE 600
/* Seeds per write index for the cache and torn cuts (KM_CRASH_SEEDS overrides). */
#define SEEDS 1

struct world {
	char *tmpdir;
	char *path[N_TRACKS];		/* the host files */
	guint32 fid[N_TRACKS];
	guint32 playlist;
	guint8 *image[N_BATCHES + 1];	/* the volume before batch j (and after the last) */
	GPtrArray *state[N_BATCHES + 1];	/* its objects */
	guint64 start[N_BATCHES + 1];	/* the global index of batch j's first write */
};

static struct world w;

static gint64 fixed_clock(gpointer data)
{
	return NOW;
}

/* ---- the host files: short WAV tones of different lengths ---- */

static void put_le(GByteArray *a, guint32 v, guint n)
{
	for (guint i = 0; i < n; i++)
		g_byte_array_append(a, (guint8[]){ v >> (8 * i) }, 1);
}

static char *write_wav(const char *dir, guint i)
{
	g_autoptr(GByteArray) b = g_byte_array_new();
	g_autofree char *name = g_strdup_printf("track-%02u.wav", i);
	char *path = g_build_filename(dir, name, NULL);
	const guint32 rate = 8000, samples = 600 + 97 * i;

	g_byte_array_append(b, (const guint8 *)"RIFF", 4);
	put_le(b, 36 + samples * 2, 4);
	g_byte_array_append(b, (const guint8 *)"WAVEfmt ", 8);
	put_le(b, 16, 4);
	put_le(b, 1, 2);
	put_le(b, 1, 2);
	put_le(b, rate, 4);
	put_le(b, rate * 2, 4);
	put_le(b, 2, 2);
	put_le(b, 16, 2);
	g_byte_array_append(b, (const guint8 *)"data", 4);
	put_le(b, samples * 2, 4);
	for (guint32 s = 0; s < samples; s++)
		put_le(b, (guint16)(gint16)(8000 * sin(2 * G_PI * (200 + 10 * i) * s / rate)), 2);
	g_assert_true(g_file_set_contents(path, (const char *)b->data, b->len, NULL));
	return path;
}

static void make_host_files(void)
{
	g_autofree char *folder = NULL;

	w.tmpdir = g_dir_make_tmp("km-crash-XXXXXX", NULL);
	g_assert_nonnull(w.tmpdir);
	folder = g_build_filename(w.tmpdir, "folder", NULL);
	g_assert_cmpint(g_mkdir(folder, 0700), ==, 0);
	for (guint i = 0; i < N_TRACKS; i++)
		w.path[i] = write_wav(i < 35 ? w.tmpdir : folder, i);
}

static void remove_host_files(void)
{
	g_autofree char *folder = g_build_filename(w.tmpdir, "folder", NULL);

	for (guint i = 0; i < N_TRACKS; i++) {
		g_unlink(w.path[i]);
		g_free(w.path[i]);
	}
	g_rmdir(folder);
	g_rmdir(w.tmpdir);
	g_free(w.tmpdir);
}

/* ---- the workload ---- */

static gboolean add_track(KmTransaction *tx, guint i, GError **error)
{
	g_autoptr(KmProperties) props = km_import_file(w.path[i], KM_IMPORT_FLAGS_NONE, error);
	g_autofree char *title = g_strdup_printf("Track %02u", i);

	if (!props)
		return FALSE;
	/* km-import's ctime is the real clock's; the library's (fixed) one replays the same. */
	km_properties_remove(props, "ctime");
	km_properties_set(props, "title", title);
	return km_transaction_add_file(tx, props, w.path[i], NULL, NULL, NULL, &w.fid[i], error);
}

static gboolean add_tracks(KmTransaction *tx, guint from, guint to, GError **error)
{
	for (guint i = from; i < to; i++)
		if (!add_track(tx, i, error))
			return FALSE;
	return TRUE;
}

/* Batch j's changes (not its commit); FALSE at the first failure. */
static gboolean changes(KmTransaction *tx, guint j, GError **error)
{
	gboolean ok = TRUE;

	switch (j) {
	case 0:
		ok = add_tracks(tx, 0, 20, error) &&
		     km_transaction_playlist_create(tx, "Mix", &w.playlist, error);
		for (guint i = 0; ok && i < 5; i++)
			ok = km_transaction_playlist_insert(tx, w.playlist, w.fid[i], -1, error);
		return ok;
	case 1:
		ok = add_tracks(tx, 20, 35, error);
		for (guint i = 0; ok && i < 20; i += 2)
			ok = km_transaction_remove(tx, w.fid[i], error);
		return ok;
	case 2:
		ok = km_transaction_playlist_rename(tx, w.playlist, "Renamed mix", error);
		for (guint i = 1; ok && i < 10; i += 2)
			ok = km_transaction_set_property(tx, w.fid[i], "genre", "Edited", error) &&
			     km_transaction_set_property(tx, w.fid[i], "artist", "Someone Else",
							 error);
		return ok;
	default:
		return add_tracks(tx, 35, N_TRACKS, error);
	}
}

static KmLibrary *open_library(const struct omfs_blockdev *dev, gboolean writable,
			       GError **error)
{
	KmLibraryOptions opts = { .writable = writable, .clock = fixed_clock };

	return km_library_open(dev, &opts, error);
}

/* Open, batch j, commit, close: TRUE when all of it worked. */
static gboolean run_batch(const struct omfs_blockdev *dev, guint j)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmLibrary) lib = open_library(dev, TRUE, &error);
	g_autoptr(KmTransaction) tx = NULL;
	gboolean ok;

	if (!lib)
		return FALSE;
	tx = km_library_begin(lib, &error);
	ok = tx && changes(tx, j, &error) && km_transaction_commit(tx, &error);
	g_clear_object(&tx);
	return km_library_close(lib, ok ? &error : NULL) && ok;
}

/* The workload without a cut: each batch's start, and the volume and library after it. */
static void dry_run(void)
{
	struct km_mem_device *m = km_mem_device_new(VOLUME_SIZE, NULL);
	struct omfs_mkfs_opts mkfs = { .time_ms = (guint64)NOW * 1000 };
	g_autoptr(GError) error = NULL;
	char msg[OMFS_ERRMSG_MAX] = "";

	g_assert_cmpint(omfs_mkfs(&m->bdev, &mkfs, msg, sizeof(msg)), ==, 0);
	g_assert_true(km_library_create_layout(&m->bdev, NOW, &error));
	for (guint j = 0; j <= N_BATCHES; j++) {
		g_autoptr(KmLibrary) lib = NULL;

		w.image[j] = g_memdup2(m->data, VOLUME_SIZE);
		w.start[j] = m->writes;
		lib = open_library(&m->bdev, FALSE, &error);
		g_assert_no_error(error);
		w.state[j] = km_library_list(lib);
		km_library_close(lib, NULL);
		if (j < N_BATCHES)
			g_assert_true(run_batch(&m->bdev, j));
	}
	g_assert_cmpuint(w.state[N_BATCHES]->len, ==, N_TRACKS - 10 + 1);
	km_mem_device_free(m);
}

/* ---- after a cut ---- */

/* verbose: say what differs. */
static gboolean same_objects(KmLibrary *lib, GPtrArray *want, gboolean verbose)
{
	if (km_library_get_n_objects(lib) != want->len) {
		if (verbose)
			g_test_message("%u objects, not %u", km_library_get_n_objects(lib),
				       want->len);
		return FALSE;
	}
	for (guint i = 0; i < want->len; i++) {
		guint32 fid = km_properties_get_fid(want->pdata[i]);
		KmProperties *got = km_library_lookup(lib, fid);
		const char *column = NULL;

		if (!got || !km_smalldb_row_equal(want->pdata[i], got, &column)) {
			if (verbose)
				g_test_message("fid %u: %s differs", fid, got ? column : "missing");
			return FALSE;
		}
	}
	return TRUE;
}

/* j: the library before batch j; j + 1: after it. Nothing else may be there. */
static guint which_state(KmLibrary *lib, guint j)
{
	if (same_objects(lib, w.state[j], FALSE))
		return j;
	if (same_objects(lib, w.state[j + 1], FALSE))
		return j + 1;
	same_objects(lib, w.state[j], TRUE);
	same_objects(lib, w.state[j + 1], TRUE);
	g_error("cut in batch %u: the library is neither the one before nor the one after it", j);
	return 0;
}

static GBytes *read_all(KmLibrary *lib, guint32 fid)
{
	g_autoptr(GByteArray) out = g_byte_array_new();
	g_autoptr(GError) error = NULL;
	guint8 buf[16384];
	gssize n;

	while ((n = km_library_read_data(lib, fid, out->len, buf, sizeof(buf), &error)) > 0)
		g_byte_array_append(out, buf, (guint)n);
	g_assert_no_error(error);
	return g_byte_array_free_to_bytes(g_steal_pointer(&out));
}

/* Every tune reads back its host file's bytes (its title says which). */
static void assert_tracks_intact(KmLibrary *lib)
{
	g_autoptr(GPtrArray) all = km_library_list(lib);

	for (guint i = 0; i < all->len; i++) {
		const char *title = km_properties_get(all->pdata[i], "title");
		g_autoptr(GBytes) data = NULL;
		g_autofree char *want = NULL;
		gsize want_len;
		guint n = 0;

		if (g_strcmp0(km_properties_get(all->pdata[i], "type"), "tune") != 0)
			continue;
		g_assert_true(title && sscanf(title, "Track %u", &n) == 1 && n < N_TRACKS);
		g_assert_true(g_file_get_contents(w.path[n], &want, &want_len, NULL));
		data = read_all(lib, km_properties_get_fid(all->pdata[i]));
		g_assert_cmpmem(g_bytes_get_data(data, NULL), g_bytes_get_size(data), want,
				want_len);
	}
}

static void assert_repairs_clean(KmLibrary *lib)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmVerifyReport) repaired = km_library_verify(lib, KM_VERIFY_FLAG_REPAIR, NULL, &error);
	g_autoptr(KmVerifyReport) after = NULL;

	g_assert_no_error(error);
	g_assert_cmpuint(repaired->n_unrepaired, ==, 0);
	after = km_library_verify(lib, KM_VERIFY_FLAGS_NONE, NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(after->findings->len, ==, 0);
}

/* The checks after a cut in batch j; returns the state the library is in. */
static guint check_after_cut(struct km_mem_device *m, guint j, const struct crash_mode *mode)
{
	g_autoptr(GError) error = NULL;
	KmLibrary *lib;
	guint state;

	crash_assert_fsck_after_cut(&m->bdev, mode);
	lib = open_library(&m->bdev, TRUE, &error);
	g_assert_no_error(error);
	state = which_state(lib, j);
	assert_tracks_intact(lib);
	assert_repairs_clean(lib);
	g_assert_cmpuint(which_state(lib, j), ==, state);
	g_assert_true(km_library_close(lib, &error));
	g_object_unref(lib);
	crash_assert_repair_leaves_clean(&m->bdev);
	lib = open_library(&m->bdev, FALSE, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(which_state(lib, j), ==, state);
	km_library_close(lib, NULL);
	g_object_unref(lib);
	return state;
}

static guint64 lost_writes;

/* A cut at global write k; TRUE when the library is the one after the interrupted commit. */
static gboolean cut_and_check(guint64 k, const struct crash_mode *mode, guint32 seed)
{
	struct km_mem_device *m;
	gboolean after;
	guint j = 0;

	while (k >= w.start[j + 1])
		j++;
	m = crash_device(w.image[j], VOLUME_SIZE, k - w.start[j], mode, seed);
	g_test_message("%s cut at write %" G_GUINT64_FORMAT " (batch %u, seed %u)", mode->name, k,
		       j, seed);
	g_assert_false(run_batch(&m->bdev, j));
	g_assert_true(m->powered_off);
	lost_writes += m->lost_writes;
	m->fail_armed = FALSE;
	m->powered_off = FALSE;
	after = check_after_cut(m, j, mode) == j + 1;
	km_mem_device_free(m);
	return after;
}

static void test_cuts(gconstpointer data)
{
	const struct crash_mode *mode = data;
	guint64 total = w.start[N_BATCHES] - w.start[0];
	guint64 stride = crash_stride(total, CUTS_PER_MODE);
	guint n_seeds = crash_seeds(mode, SEEDS);
	guint cuts = 0, after = 0;

	lost_writes = 0;
	for (guint64 k = w.start[0]; k < w.start[N_BATCHES]; k += stride) {
		for (guint seed = 0; seed < n_seeds; seed++) {
			after += cut_and_check(k, mode, (guint32)(k * 2654435761u) ^ seed);
			cuts++;
		}
	}
	g_test_message("%s: %" G_GUINT64_FORMAT " writes, a cut every %" G_GUINT64_FORMAT
		       ", %u cuts, %u left the library after the interrupted commit, "
		       "%" G_GUINT64_FORMAT " unflushed writes lost", mode->name, total, stride,
		       cuts, after, lost_writes);
	g_assert_cmpuint(cuts, >=, total / stride * n_seeds);
	g_assert_cmpuint(after, >, 0);
	if (mode->flags & KM_MEM_CUT_CACHE)
		g_assert_cmpuint(lost_writes, >, 0);
}

int main(int argc, char **argv)
{
	int status;

	g_test_init(&argc, &argv, NULL);
	make_host_files();
	dry_run();
	for (guint i = 0; i < G_N_ELEMENTS(crash_modes); i++) {
		g_autofree char *name = g_strdup_printf("/crash/library/%s", crash_modes[i].name);

		g_test_add_data_func(name, &crash_modes[i], test_cuts);
	}
	status = g_test_run();
	for (guint j = 0; j <= N_BATCHES; j++) {
		g_free(w.image[j]);
		g_ptr_array_unref(w.state[j]);
	}
	remove_host_files();
	return status;
}
