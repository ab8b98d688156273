/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-library-room.c - the room check before an add
 * (km_transaction_check_room), which karmactl add and the app's add job
 * both ask: never too low (a file it lets in commits, also when the volume
 * is then full to the last cluster), not wasteful (a file a cluster larger
 * is the first it refuses), and counting the files staged before, its
 * running sums (km-transaction-room.c) the same as counting them all
 * afresh; and the one-file import both faces run (km_transaction_import),
 * which asks it.
 */
#include "library-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

#include "km-import-add.h"
#include "km-journal.h"
#include "km-transaction-private.h"

#define VOLUME_SIZE (16u << 20)

static KmRoom room_for(KmTransaction *tx, guint64 size)
{
	g_autoptr(KmProperties) props = tu_track_props(1);
	g_autoptr(GError) error = NULL;
	KmRoom room = { 0 };

	g_assert_true(km_transaction_check_room(tx, props, size, &room, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(room.fits, ==, room.needed <= room.free_bytes);
	return room;
}

/* The largest file the check lets in (it is monotone in the size). */
static guint64 largest_fit(KmTransaction *tx)
{
	guint64 lo = 0, hi = VOLUME_SIZE;

	g_assert_true(room_for(tx, lo).fits);
	g_assert_false(room_for(tx, hi).fits);
	while (hi - lo > 1) {
		guint64 mid = lo + (hi - lo) / 2;

		if (room_for(tx, mid).fits)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The largest file that fits goes in and commits; one more byte does not fit. */
static void test_boundary(void)
{
	struct km_mem_device *m = tu_new_volume(VOLUME_SIZE);
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	g_autoptr(GError) error = NULL;
	KmTransaction *tx = km_library_begin(lib, &error);
	g_autofree char *path = NULL;
	KmLibrarySpace before, after;
	guint64 fit;
	KmRoom room;

	g_assert_no_error(error);
	g_assert_true(km_library_get_space(lib, &before, &error));
	fit = largest_fit(tx);
	room = room_for(tx, fit);
	g_assert_cmpuint(room.free_bytes, ==, before.free_bytes);
	/* what beyond the data is asked for: the margin and a few clusters, no more */
	g_assert_cmpuint(room.needed - fit, >=, 1u << 20);
	g_assert_cmpuint(room.needed - fit, <, 2u << 20);
	path = tu_host_file("fit.bin", fit, 1);
	tu_add(tx, path, 1);
	tu_commit(tx);
	g_object_unref(tx);
	g_assert_true(km_library_get_space(lib, &after, &error));
	g_assert_no_error(error);
	/* the data took its clusters, and the check left room for all the commit wrote */
	g_assert_cmpuint(before.free_bytes - after.free_bytes, >=, fit);
	g_assert_cmpuint(after.free_bytes, >=, (1u << 20) - 64 * 1024);
	tu_assert_verifies_clean(lib);
	tu_close(lib);
	km_mem_device_free(m);
}

/* Files staged in the transaction count: their properties files come with the commit. */
static void test_counts_staged(void)
{
	struct km_mem_device *m = tu_new_volume(VOLUME_SIZE);
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	g_autoptr(GError) error = NULL;
	KmTransaction *tx = km_library_begin(lib, &error);
	g_autofree char *path = tu_host_file("small.bin", 1000, 2);
	KmRoom first, later;

	g_assert_no_error(error);
	first = room_for(tx, 4096);
	for (guint i = 0; i < 20; i++)
		tu_add(tx, path, i + 2);
	later = room_for(tx, 4096);
	/* 20 files' data went to the disk: free space fell by at least their clusters */
	g_assert_cmpuint(later.free_bytes + 20 * 1000, <=, first.free_bytes);
	/* and the commit now writes 20 properties files and 20 smalldb rows more */
	g_assert_cmpuint(later.needed, >, first.needed + 20 * 1000);
	tu_commit(tx);
	g_object_unref(tx);
	tu_close(lib);
	km_mem_device_free(m);
}

/*
 * What the running sums stand for: every staged object serialized and the
 * journal built, as the check did before it kept sums (a new smalldb row is
 * its text and 256 bytes of fixed columns, as km-transaction-room.c says).
 */
static guint64 blocks_afresh(KmTransaction *tx, const struct omfs_statfs *sfs,
			     KmProperties *added)
{
	g_autoptr(KmChangeSet) cs = km_transaction_staged_changes(tx);
	g_autoptr(GBytes) journal = NULL;
	guint64 smalldb = 0;

	km_change_set_put(cs, added);
	journal = km_journal_build(cs);
	for (guint i = 0; i < cs->puts->len; i++) {
		g_autoptr(GBytes) text = km_properties_serialize(cs->puts->pdata[i]);

		if (!km_library_lookup(tx->lib, km_properties_get_fid(cs->puts->pdata[i])))
			smalldb += g_bytes_get_size(text) + 256;
	}
	return km_commit_blocks_needed(sfs, cs, g_bytes_get_size(journal), smalldb);
}

static void assert_sums_hold(KmTransaction *tx)
{
	g_autoptr(KmProperties) props = tu_track_props(99);
	g_autoptr(KmProperties) added = km_transaction_new_object(props, KM_FID_LAST, G_MAXUINT32,
								 4096, G_MAXUINT32);
	struct omfs_statfs sfs;

	g_assert_cmpint(omfs_statfs(tx->lib->fs, &sfs), ==, 0);
	g_assert_cmpuint(km_transaction_room_blocks(tx, &sfs, added, 0), ==,
			 blocks_afresh(tx, &sfs, added));
}

/*
 * The sums through every change a transaction stages: adds, an added track
 * edited (it may change from then on) and one removed, a committed track
 * edited and another removed, a playlist made and given entries.
 */
static void test_sums_are_the_count(void)
{
	struct km_mem_device *m = tu_new_volume(VOLUME_SIZE);
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	g_autoptr(GError) error = NULL;
	KmTransaction *tx = km_library_begin(lib, &error);
	g_autofree char *path = tu_host_file("small.bin", 1000, 4);
	guint32 fids[6], playlist;

	for (guint i = 0; i < 2; i++)
		fids[i] = tu_add(tx, path, i);
	tu_commit(tx);
	g_object_unref(tx);
	tx = km_library_begin(lib, &error);
	assert_sums_hold(tx);
	for (guint i = 2; i < 6; i++) {
		fids[i] = tu_add(tx, path, i);
		assert_sums_hold(tx);
	}
	g_assert_true(km_transaction_set_property(tx, fids[2], "title", "A much longer title "
						  "than the one it had", &error));
	assert_sums_hold(tx);
	g_assert_true(km_transaction_remove(tx, fids[3], &error));
	assert_sums_hold(tx);
	g_assert_true(km_transaction_set_property(tx, fids[0], "artist", "Someone", &error));
	g_assert_true(km_transaction_remove(tx, fids[1], &error));
	assert_sums_hold(tx);
	g_assert_true(km_transaction_playlist_create(tx, "Mix", &playlist, &error));
	assert_sums_hold(tx);
	g_assert_true(km_transaction_playlist_insert(tx, playlist, fids[4], -1, &error));
	g_assert_true(km_transaction_playlist_insert(tx, playlist, fids[5], -1, &error));
	g_assert_no_error(error);
	assert_sums_hold(tx);
	tu_add(tx, path, 7);	/* maybe fids[3] again: freed by its removal */
	assert_sums_hold(tx);
	tu_commit(tx);
	g_object_unref(tx);
	tu_assert_verifies_clean(lib);
	tu_close(lib);
	km_mem_device_free(m);
}

/*
 * Fill a volume with many small files in one transaction, each let in by
 * the check: the commit, which writes a properties file for every one of
 * them, must still find its room.
 */
static void test_fill_then_commit(void)
{
	struct km_mem_device *m = tu_new_volume(VOLUME_SIZE);
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	g_autoptr(GError) error = NULL;
	KmTransaction *tx = km_library_begin(lib, &error);
	g_autofree char *path = tu_host_file("piece.bin", 96 * 1024, 3);
	guint n = 0;

	g_assert_no_error(error);
	while (room_for(tx, 96 * 1024).fits) {
		tu_add(tx, path, n);
		n++;
		g_assert_cmpuint(n, <, VOLUME_SIZE / (96 * 1024));
	}
	g_assert_cmpuint(n, >, 50);
	g_assert_true(km_transaction_commit(tx, &error));
	g_assert_no_error(error);
	g_object_unref(tx);
	g_assert_cmpuint(km_library_get_n_objects(lib), ==, n);
	tu_assert_verifies_clean(lib);
	tu_close(lib);
	km_mem_device_free(m);
}

/* Space and flush on a closed library fail with an error, not a crash. */
static void test_closed(void)
{
	struct km_mem_device *m = tu_new_volume(VOLUME_SIZE);
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	g_autoptr(GError) error = NULL;
	KmLibrarySpace space;

	g_assert_true(km_library_flush(lib, &error));
	g_assert_no_error(error);
	g_assert_true(km_library_get_space(lib, &space, &error));
	g_assert_cmpuint(space.total_bytes, >, space.free_bytes);
	g_assert_cmpuint(space.total_bytes, <=, VOLUME_SIZE);
	g_assert_true(km_library_close(lib, &error));
	g_assert_false(km_library_get_space(lib, &space, &error));
	g_assert_nonnull(error);
	g_clear_error(&error);
	g_assert_false(km_library_flush(lib, &error));
	g_assert_nonnull(error);
	g_object_unref(lib);
	km_mem_device_free(m);
}

static gboolean import(KmTransaction *tx, const char *path, gboolean copy_duplicates,
		       KmImportResult *r, GError **error)
{
	KmImportOptions options = { .copy_duplicates = copy_duplicates };
	GStatBuf st;

	g_assert_cmpint(g_stat(path, &st), ==, 0);
	return km_transaction_import(tx, path, (guint64)st.st_size, &options, r, error);
}

/* Added, then a duplicate (unless asked for), no room for a file too large, not music refused. */
static void test_import(void)
{
	struct km_mem_device *m = tu_new_volume(VOLUME_SIZE);
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	g_autoptr(GError) error = NULL;
	KmTransaction *tx = km_library_begin(lib, &error);
	g_autofree char *song = tu_wav_file("song.wav", 200 * 1024);
	g_autofree char *huge = tu_wav_file("huge.wav", VOLUME_SIZE - (1u << 20));
	g_autofree char *text = g_build_filename(tu_tmpdir(), "notes.txt", NULL);
	KmLibrarySpace before, after;
	KmImportResult r;
	guint32 first;

	g_assert_no_error(error);
	g_assert_true(import(tx, song, FALSE, &r, &error));
	g_assert_no_error(error);
	g_assert_cmpint(r.outcome, ==, KM_IMPORT_ADDED);
	first = r.fid;
	g_assert_true(import(tx, song, FALSE, &r, &error));
	g_assert_cmpint(r.outcome, ==, KM_IMPORT_DUPLICATE);
	g_assert_cmpuint(r.fid, ==, first);
	g_assert_true(import(tx, song, TRUE, &r, &error));
	g_assert_cmpint(r.outcome, ==, KM_IMPORT_ADDED);
	g_assert_cmpuint(r.fid, !=, first);
	g_assert_true(km_library_get_space(lib, &before, &error));
	g_assert_true(import(tx, huge, FALSE, &r, &error));
	g_assert_cmpint(r.outcome, ==, KM_IMPORT_NO_ROOM);
	g_assert_false(r.room.fits);
	g_assert_true(km_library_get_space(lib, &after, &error));
	g_assert_cmpuint(after.free_bytes, ==, before.free_bytes);
	g_assert_true(g_file_set_contents(text, "not music, not at all, and long enough to be "
					  "read as a file that is no tune of any kind: it is "
					  "only words, one after another, to the end.", -1, NULL));
	g_assert_false(import(tx, text, FALSE, &r, &error));
	g_assert_error(error, KM_IMPORT_ERROR, KM_IMPORT_ERROR_NOT_AUDIO);
	tu_commit(tx);
	g_object_unref(tx);
	g_assert_cmpuint(km_library_get_n_objects(lib), ==, 2);
	tu_assert_verifies_clean(lib);
	tu_close(lib);
	km_mem_device_free(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/room/boundary", test_boundary);
	g_test_add_func("/room/counts-staged", test_counts_staged);
	g_test_add_func("/room/sums-are-the-count", test_sums_are_the_count);
	g_test_add_func("/room/fill-then-commit", test_fill_then_commit);
	g_test_add_func("/room/closed", test_closed);
	g_test_add_func("/room/import", test_import);
	return g_test_run();
}
