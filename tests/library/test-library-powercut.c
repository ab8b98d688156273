/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-library-powercut.c - a transaction (adds, a removal, a tag edit,
 * playlist changes) and its commit, cut short by a write error at every
 * write the device sees, as a power cut would: the device keeps what was
 * written before and nothing after. Each time:
 *   - the volume mounts, and fsck finds at worst leaked blocks (and a
 *     sysblock whose mirror copy the cut left old: the core writes the
 *     primary copy and then each mirror, see tu_assert_fsck_after_cut);
 *   - smalldb names no track whose data file is missing;
 *   - the library opens read-only, and shows the library from before the
 *     transaction or after it, whole, never a mix;
 *   - opened writable (which finishes an interrupted commit), it shows the
 *     same, verifies with at worst orphaned data files, and verifies clean
 *     once repaired; every track's data is intact; the source noted for
 *     an added track (var/km-sources) is known after it, not before.
 * And removing two tracks from a full volume, cut at every write: each
 * track is whole or gone, and verifies clean once repaired.
 */
#include <string.h>

#include "km-fid.h"
#include "km-smalldb.h"
#include "km-verify.h"
#include "library-test-util.h"

#define VOLUME_SIZE (8u << 20)
#define N_BASE 4
/* A converted file's source, noted for the first track the transaction adds. */
#define SOURCE_ID "2a30-0123456789abcdef0123456789abcdef"

struct world {
	guint8 *base;			/* the volume before the transaction */
	GPtrArray *before;		/* its objects */
	GPtrArray *after;		/* the objects after the transaction */
	GHashTable *data[2];		/* fid -> GBytes: each object's data, before, after */
	char *new_paths[2];
	guint32 track[N_BASE];
	guint32 list;
	guint64 n_writes;		/* what the transaction writes */
};

static struct world w;

static GHashTable *all_data(KmLibrary *lib)
{
	GHashTable *data = g_hash_table_new_full(NULL, NULL, NULL, (GDestroyNotify)g_bytes_unref);
	g_autoptr(GPtrArray) all = km_library_list(lib);

	for (guint i = 0; i < all->len; i++) {
		guint32 fid = km_properties_get_fid(all->pdata[i]);

		g_hash_table_insert(data, GUINT_TO_POINTER(fid), tu_library_data(lib, fid));
	}
	return data;
}

static void make_base(void)
{
	g_autoptr(GError) error = NULL;
	struct km_mem_device *m = tu_new_volume(VOLUME_SIZE);
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	KmTransaction *tx = km_library_begin(lib, &error);

	for (guint i = 0; i < N_BASE; i++) {
		g_autofree char *name = g_strdup_printf("base-%u", i);
		g_autofree char *path = tu_host_file(name, 9000 * (i + 1), 200 + i);

		w.track[i] = tu_add(tx, path, i);
	}
	g_assert_true(km_transaction_playlist_create(tx, "Base list", &w.list, &error));
	for (guint i = 0; i < 3; i++)
		g_assert_true(km_transaction_playlist_insert(tx, w.list, w.track[i], -1, &error));
	tu_commit(tx);
	g_object_unref(tx);
	w.before = km_library_list(lib);
	w.data[0] = all_data(lib);
	tu_close(lib);
	w.base = g_memdup2(m->data, VOLUME_SIZE);
	km_mem_device_free(m);
	w.new_paths[0] = tu_host_file("new-0", 20000, 300);
	w.new_paths[1] = tu_host_file("new-1", 70001, 301);
}

/* The transaction under test; FALSE at its first failure. */
static gboolean transaction(KmLibrary *lib)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmTransaction) tx = km_library_begin(lib, &error);
	guint32 added[2], mix;
	gboolean ok = tx != NULL;

	for (guint i = 0; ok && i < 2; i++) {
		g_autoptr(KmProperties) props = tu_track_props(20 + i);

		ok = km_transaction_add_file(tx, props, w.new_paths[i], NULL, NULL, NULL, &added[i],
					     &error);
	}
	if (ok)
		km_transaction_note_source(tx, SOURCE_ID, added[0]);
	ok = ok && km_transaction_remove(tx, w.track[1], &error) &&
	     km_transaction_set_property(tx, w.track[2], "title", "Edited", &error) &&
	     km_transaction_playlist_create(tx, "New list", &mix, &error) &&
	     km_transaction_playlist_insert(tx, mix, added[1], -1, &error) &&
	     km_transaction_playlist_insert(tx, mix, w.track[0], -1, &error) &&
	     km_transaction_playlist_insert(tx, w.list, added[0], 0, &error) &&
	     km_transaction_playlist_rename(tx, w.list, "Renamed list", &error) &&
	     km_transaction_commit(tx, &error);
	if (!ok)
		g_test_message("stopped: %s", error ? error->message : "?");
	return ok;
}

static struct km_mem_device *base_device(void)
{
	struct km_mem_device *m = km_mem_device_new(VOLUME_SIZE, w.base);

	g_assert_nonnull(m);
	return m;
}

/* The writes the whole transaction makes, and the library it leaves. */
static guint64 dry_run(void)
{
	struct km_mem_device *m;
	KmLibrary *lib;
	guint64 start;

	if (w.after)
		return w.n_writes;
	m = base_device();
	lib = tu_open(&m->bdev, TRUE);
	start = m->writes;
	g_assert_true(transaction(lib));
	w.n_writes = m->writes - start;
	w.after = km_library_list(lib);
	w.data[1] = all_data(lib);
	tu_close(lib);
	km_mem_device_free(m);
	return w.n_writes;
}

static gboolean same_objects(KmLibrary *lib, GPtrArray *want)
{
	if (km_library_get_n_objects(lib) != want->len)
		return FALSE;
	for (guint i = 0; i < want->len; i++) {
		KmProperties *got = km_library_lookup(lib, km_properties_get_fid(want->pdata[i]));

		if (!got || !km_smalldb_row_equal(want->pdata[i], got, NULL))
			return FALSE;
	}
	return TRUE;
}

/* 0: the library from before, 1: from after; anything else fails. */
static int which_state(KmLibrary *lib)
{
	if (same_objects(lib, w.before))
		return 0;
	if (same_objects(lib, w.after))
		return 1;
	g_error("the library is neither the one before the transaction nor the one after it");
	return -1;
}

static void assert_data_intact(KmLibrary *lib, int state)
{
	g_autoptr(GPtrArray) all = km_library_list(lib);

	for (guint i = 0; i < all->len; i++) {
		guint32 fid = km_properties_get_fid(all->pdata[i]);
		g_autoptr(GBytes) data = tu_library_data(lib, fid);

		GBytes *want = g_hash_table_lookup(w.data[state], GUINT_TO_POINTER(fid));

		g_assert_true(g_bytes_equal(data, want));
	}
}

static KmVerifyReport *verify(KmLibrary *lib, gboolean repair)
{
	g_autoptr(GError) error = NULL;
	KmVerifyReport *r = km_library_verify(lib, repair ? KM_VERIFY_FLAG_REPAIR : 0, NULL, &error);

	g_assert_no_error(error);
	for (guint i = 0; i < r->findings->len; i++) {
		KmVerifyFinding *f = r->findings->pdata[i];

		g_test_message("  %s: %s", km_verify_kind_name(f->kind), f->message);
	}
	return r;
}

/*
 * What the player would see if it were unplugged now: a smalldb (or none)
 * that names no track whose data file is not there. (A playlist's data file
 * is replaced while the old smalldb, which holds its list too, names it.)
 */
static void assert_player_view(const struct omfs_blockdev *dev)
{
	struct omfs_fs *fs = tu_mount(dev);
	g_autoptr(GPtrArray) rows = NULL;

	if (tu_fs_exists(fs, "var/smalldb"))
		rows = tu_smalldb_rows(fs);
	for (guint i = 0; rows && i < rows->len; i++) {
		guint32 fid = km_properties_get_fid(rows->pdata[i]);
		g_autofree char *path = km_fid_to_path(fid, KM_FID_FILE_DATA);

		if (g_strcmp0(km_properties_get(rows->pdata[i], "type"), "playlist") != 0 &&
		    !tu_fs_exists(fs, path))
			g_error("smalldb names %s, which is not there", path);
	}
	omfs_unmount(fs);
}

/* Whether the library knows SOURCE_ID (writable: a transaction looks it up). */
static gboolean knows_source(KmLibrary *lib)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmTransaction) tx = km_library_begin(lib, &error);
	guint32 fid = 0;
	gboolean known;

	g_assert_no_error(error);
	known = km_transaction_find_source(tx, SOURCE_ID, &fid);
	g_assert_true(!known || km_library_lookup(lib, fid));
	g_assert_true(km_transaction_rollback(tx, NULL));
	return known;
}

/* After a cut at write k: what the disk holds. Returns the state (0 or 1). */
static int check_after_cut(const guint8 *image, guint64 k)
{
	struct km_mem_device *m = km_mem_device_new(VOLUME_SIZE, image);
	g_autoptr(KmVerifyReport) ro_report = NULL;
	g_autoptr(KmVerifyReport) report = NULL;
	g_autoptr(KmVerifyReport) repaired = NULL;
	KmLibrary *lib;
	guint stale_mirrors;
	int state;

	stale_mirrors = tu_assert_fsck_after_cut(&m->bdev);
	assert_player_view(&m->bdev);
	lib = tu_open(&m->bdev, FALSE);
	state = which_state(lib);
	ro_report = verify(lib, FALSE);
	for (guint i = 0; i < ro_report->findings->len; i++)
		g_assert_true(((KmVerifyFinding *)ro_report->findings->pdata[i])->repairable);
	tu_close(lib);

	lib = tu_open(&m->bdev, TRUE);
	g_assert_cmpint(which_state(lib), ==, state);
	report = verify(lib, FALSE);
	g_assert_cmpuint(km_verify_report_count(report, KM_VERIFY_ORPHAN_DATA), ==,
			 report->findings->len);
	repaired = verify(lib, TRUE);
	g_assert_cmpuint(repaired->n_unrepaired, ==, 0);
	tu_assert_verifies_clean(lib);
	g_assert_cmpint(which_state(lib), ==, state);
	assert_data_intact(lib, state);
	g_assert_cmpint(knows_source(lib), ==, state == 1);
	tu_close(lib);
	g_assert_cmpuint(tu_assert_fsck_after_cut(&m->bdev), <=, stale_mirrors);
	g_test_message("cut at write %" G_GUINT64_FORMAT ": %s, %u findings, %u stale mirrors", k,
		       state ? "after" : "before", report->findings->len, stale_mirrors);
	km_mem_device_free(m);
	return state;
}

/* The volume after the transaction was cut at write k (a copy). */
static guint8 *cut_image(guint64 k, gboolean *ok)
{
	struct km_mem_device *m = base_device();
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	guint8 *image;

	m->fail_armed = TRUE;
	m->writes_left = k;
	*ok = transaction(lib);
	km_library_close(lib, NULL);
	g_object_unref(lib);
	image = g_memdup2(m->data, VOLUME_SIZE);
	km_mem_device_free(m);
	return image;
}

static gboolean has_journal(const guint8 *image)
{
	struct km_mem_device *m = km_mem_device_new(VOLUME_SIZE, image);
	struct omfs_fs *fs = tu_mount(&m->bdev);
	gboolean found = tu_fs_exists(fs, "var/km-journal");

	omfs_unmount(fs);
	km_mem_device_free(m);
	return found;
}

static void test_cut_at_every_write(void)
{
	guint64 n_writes = dry_run();
	guint outcomes[2] = { 0, 0 };

	g_test_message("the transaction writes %" G_GUINT64_FORMAT " times", n_writes);
	g_assert_cmpuint(n_writes, >, 20);
	for (guint64 k = 0; k <= n_writes; k++) {
		gboolean ok;
		g_autofree guint8 *image = cut_image(k, &ok);

		g_assert_true(ok == (k == n_writes));
		outcomes[check_after_cut(image, k)]++;
	}
	g_test_message("before: %u cuts, after: %u cuts", outcomes[0], outcomes[1]);
	g_assert_cmpuint(outcomes[0], >, 0);
	g_assert_cmpuint(outcomes[1], >, 1);
}

/*
 * A commit interrupted after its journal, then the writable open that
 * finishes it interrupted too, at each of its writes: the library is still
 * the one after the transaction.
 */
static void test_cut_while_finishing(void)
{
	guint64 n_writes = dry_run();
	g_autoptr(GArray) with_journal = g_array_new(FALSE, FALSE, sizeof(guint64));
	guint checked = 0;

	for (guint64 k = 0; k < n_writes; k++) {
		gboolean ok;
		g_autofree guint8 *image = cut_image(k, &ok);

		if (has_journal(image))
			g_array_append_val(with_journal, k);
	}
	g_assert_cmpuint(with_journal->len, >, 3);
	/* The first, the middle and the last cut that left a journal. */
	for (guint pick = 0; pick < 3; pick++) {
		guint index = pick * (with_journal->len - 1) / 2;
		guint64 k = g_array_index(with_journal, guint64, index);
		gboolean ok;
		g_autofree guint8 *image = cut_image(k, &ok);
		struct km_mem_device *m = km_mem_device_new(VOLUME_SIZE, image);
		KmLibrary *lib = tu_open(&m->bdev, TRUE);
		guint64 n_finish;

		tu_close(lib);
		n_finish = m->writes;
		km_mem_device_free(m);
		g_assert_cmpuint(n_finish, >, 0);
		for (guint64 r = 0; r < n_finish; r++) {
			KmLibraryOptions opts = { .writable = TRUE };
			g_autoptr(GError) error = NULL;
			KmLibrary *cut;

			m = km_mem_device_new(VOLUME_SIZE, image);
			m->fail_armed = TRUE;
			m->writes_left = r;
			cut = km_library_open(&m->bdev, &opts, &error);
			g_assert_null(cut);
			g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO);
			g_assert_cmpint(check_after_cut(m->data, r), ==, 1);
			km_mem_device_free(m);
			checked++;
		}
	}
	g_test_message("%u cuts while finishing a commit", checked);
}

/* ---- removing tracks from a full volume ---- */

/* Fill the volume: a file of all but 64 blocks, then one-block files until none fits. */
static void fill(const struct omfs_blockdev *dev)
{
	struct omfs_fs *fs = tu_mount(dev);
	uint64_t root = omfs_root_ino(fs), ino;
	struct omfs_statfs sfs;
	g_autofree guint8 *zeros = NULL;
	guint64 size;

	g_assert_cmpint(omfs_statfs(fs, &sfs), ==, 0);
	g_assert_cmpuint(sfs.free_blocks, >, 64);
	size = (sfs.free_blocks - 64) * sfs.blocksize;
	zeros = g_malloc0(size);
	g_assert_cmpint(omfs_create(fs, root, "filler", 6, &ino), ==, 0);
	g_assert_cmpint(omfs_write(fs, ino, 0, zeros, size), ==, (int64_t)size);
	for (guint i = 0;; i++) {
		g_autofree char *name = g_strdup_printf("f%u", i);

		if (omfs_create(fs, root, name, strlen(name), &ino) != 0 ||
		    omfs_write(fs, ino, 0, zeros, sfs.blocksize) < 0)
			break;
	}
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
}

/* The base library on a volume with no room left; a commit that needs room fails cleanly. */
static guint8 *full_base(void)
{
	struct km_mem_device *m = base_device();
	g_autoptr(GError) error = NULL;
	g_autoptr(KmTransaction) tx = NULL;
	KmLibrary *lib;
	guint8 *image;

	fill(&m->bdev);
	lib = tu_open(&m->bdev, TRUE);
	tx = km_library_begin(lib, &error);
	g_assert_true(km_transaction_set_property(tx, w.track[2], "title", "No room", &error));
	g_assert_false(km_transaction_commit(tx, &error));
	g_test_message("a tag edit on the full volume: %s", error->message);
	km_library_close(lib, NULL);
	g_object_unref(lib);
	/* nothing was decided: no journal, the library as it was */
	lib = tu_open(&m->bdev, TRUE);
	g_assert_null(km_library_get_warnings(lib) ? km_library_get_warnings(lib)[0] : NULL);
	g_assert_true(same_objects(lib, w.before));
	tu_close(lib);
	image = g_memdup2(m->data, VOLUME_SIZE);
	km_mem_device_free(m);
	return image;
}

static gboolean remove_two(KmLibrary *lib)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmTransaction) tx = km_library_begin(lib, &error);
	gboolean ok = tx && km_transaction_remove(tx, w.track[0], &error) &&
		      km_transaction_remove(tx, w.track[3], &error) &&
		      km_transaction_commit(tx, &error);

	if (!ok)
		g_test_message("stopped: %s", error ? error->message : "?");
	return ok;
}

/* Each track of the base is there as before, whole, or (the two removed) gone. */
static guint assert_whole_or_gone(KmLibrary *lib)
{
	guint gone = 0;

	for (guint i = 0; i < N_BASE; i++) {
		KmProperties *got = km_library_lookup(lib, w.track[i]);
		g_autoptr(GBytes) data = NULL;

		if (!got) {
			g_assert_true(i == 0 || i == 3);
			gone++;
			continue;
		}
		g_assert_true(km_smalldb_row_equal(got, w.before->pdata[i], NULL));
		data = tu_library_data(lib, w.track[i]);
		g_assert_true(g_bytes_equal(data, g_hash_table_lookup(w.data[0],
								      GUINT_TO_POINTER(w.track[i]))));
	}
	return gone;
}

/*
 * Removing tracks works on a volume with no room for the journal and the
 * new smalldb; cut at every write, each track stays whole or is gone.
 */
static void test_remove_on_full_volume(void)
{
	g_autofree guint8 *full = full_base();
	struct km_mem_device *m = km_mem_device_new(VOLUME_SIZE, full);
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	guint64 start = m->writes, n_writes;

	g_assert_true(remove_two(lib));
	n_writes = m->writes - start;
	g_assert_cmpuint(assert_whole_or_gone(lib), ==, 2);
	tu_assert_verifies_clean(lib);
	tu_close(lib);
	km_mem_device_free(m);
	for (guint64 k = 0; k < n_writes; k++) {
		g_autoptr(KmVerifyReport) repaired = NULL;
		guint gone;

		m = km_mem_device_new(VOLUME_SIZE, full);
		lib = tu_open(&m->bdev, TRUE);
		m->fail_armed = TRUE;
		m->writes_left = k;
		g_assert_false(remove_two(lib));
		km_library_close(lib, NULL);
		g_object_unref(lib);
		m->fail_armed = FALSE;
		tu_assert_fsck_after_cut(&m->bdev);
		lib = tu_open(&m->bdev, TRUE);
		repaired = verify(lib, TRUE);
		g_assert_cmpuint(repaired->n_unrepaired, ==, 0);
		tu_assert_verifies_clean(lib);
		gone = assert_whole_or_gone(lib);
		g_test_message("cut at write %" G_GUINT64_FORMAT ": %u of 2 removed", k, gone);
		tu_close(lib);
		km_mem_device_free(m);
	}
}

int main(int argc, char **argv)
{
	int status;

	g_test_init(&argc, &argv, NULL);
	make_base();
	g_test_add_func("/library-powercut/cut-at-every-write", test_cut_at_every_write);
	g_test_add_func("/library-powercut/cut-while-finishing", test_cut_while_finishing);
	g_test_add_func("/library-powercut/remove-on-full-volume", test_remove_on_full_volume);
	status = g_test_run();
	g_ptr_array_unref(w.before);
	if (w.after)
		g_ptr_array_unref(w.after);
	g_hash_table_unref(w.data[0]);
	if (w.data[1])
		g_hash_table_unref(w.data[1]);
	g_free(w.base);
	g_free(w.new_paths[0]);
	g_free(w.new_paths[1]);
	return status;
}
