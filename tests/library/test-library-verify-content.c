/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-library-verify-content.c - the checks of km_library_verify() that
 * look inside objects: dangling playlist entries (a track gone, a fid now
 * another object) found and dropped by repair, and track data read in full
 * (KM_VERIFY_FLAG_READ_DATA) on a device that fails reads of one file.
 */
#include <errno.h>
#include <string.h>

#include "km-fid.h"
#include "km-playlist.h"
#include "km-verify.h"
#include "library-test-util.h"

#define VOLUME_SIZE (16u << 20)
#define N_TRACKS 4
#define TRACK_SIZE 20000

struct fixture {
	struct km_mem_device *m;
	guint32 fid[N_TRACKS];
	guint32 playlist;
};

/* N_TRACKS tracks and a playlist of all of them, committed; nothing open. */
static void setup(struct fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	KmLibrary *lib;
	KmTransaction *tx;

	f->m = tu_new_volume(VOLUME_SIZE);
	lib = tu_open(&f->m->bdev, TRUE);
	tx = km_library_begin(lib, &error);
	g_assert_no_error(error);
	for (guint i = 0; i < N_TRACKS; i++) {
		g_autofree char *name = g_strdup_printf("c-%u", i);
		g_autofree char *path = tu_host_file(name, TRACK_SIZE, 300 + i);

		f->fid[i] = tu_add(tx, path, i);
	}
	g_assert_true(km_transaction_playlist_create(tx, "Mix", &f->playlist, &error));
	for (guint i = 0; i < N_TRACKS; i++)
		g_assert_true(km_transaction_playlist_insert(tx, f->playlist, f->fid[i], -1,
							     &error));
	g_assert_no_error(error);
	tu_commit(tx);
	g_object_unref(tx);
	tu_close(lib);
}

static void teardown(struct fixture *f, gconstpointer unused)
{
	tu_assert_fsck_leaks_only(&f->m->bdev);
	km_mem_device_free(f->m);
}

static KmVerifyReport *verify(KmLibrary *lib, KmVerifyFlags flags)
{
	g_autoptr(GError) error = NULL;
	KmVerifyReport *r = km_library_verify(lib, flags, NULL, &error);

	g_assert_no_error(error);
	for (guint i = 0; i < r->findings->len; i++) {
		const KmVerifyFinding *x = r->findings->pdata[i];

		g_test_message("%s: %s", km_verify_kind_name(x->kind), x->message);
	}
	return r;
}

static GArray *playlist_entries(KmLibrary *lib, guint32 playlist)
{
	g_autoptr(GError) error = NULL;
	GArray *entries = km_playlist_from_properties(km_library_lookup(lib, playlist), &error);

	g_assert_no_error(error);
	return entries;
}

/* Entries to a removed track and to a fid of another generation are found and dropped. */
static void test_dangling_entries(struct fixture *f, gconstpointer unused)
{
	struct omfs_fs *fs = tu_mount(&f->m->bdev);
	g_autoptr(KmProperties) pl = tu_fs_props(fs, f->playlist);
	g_autoptr(KmVerifyReport) before = NULL, repaired = NULL, after = NULL;
	g_autoptr(GArray) entries = NULL;
	g_autoptr(GBytes) text = NULL;
	g_autofree char *p = NULL;
	KmPlaylistEntry *e;
	KmLibrary *lib;

	/* fid[1] removed behind the library's back (both files). */
	p = km_fid_to_path(f->fid[1], KM_FID_FILE_DATA);
	tu_fs_unlink(fs, p);
	g_clear_pointer(&p, g_free);
	p = km_fid_to_path(f->fid[1], KM_FID_FILE_PROPERTIES);
	tu_fs_unlink(fs, p);
	g_clear_pointer(&p, g_free);
	/* the entry of fid[2] now has a generation that fid[2] never had */
	entries = km_playlist_from_properties(pl, NULL);
	g_assert_nonnull(entries);
	g_assert_cmpuint(entries->len, ==, N_TRACKS);
	e = &g_array_index(entries, KmPlaylistEntry, 2);
	g_assert_cmpuint(e->fid, ==, f->fid[2]);
	e->generation += 7;
	km_playlist_to_properties(pl, entries);
	text = km_properties_serialize(pl);
	p = km_fid_to_path(f->playlist, KM_FID_FILE_PROPERTIES);
	tu_fs_write(fs, p, g_bytes_get_data(text, NULL), g_bytes_get_size(text));
	g_assert_cmpint(omfs_unmount(fs), ==, 0);

	lib = tu_open(&f->m->bdev, TRUE);
	before = verify(lib, KM_VERIFY_FLAGS_NONE);
	g_assert_cmpuint(km_verify_report_count(before, KM_VERIFY_DANGLING_ENTRY), ==, 2);
	for (guint i = 0; i < before->findings->len; i++) {
		const KmVerifyFinding *x = before->findings->pdata[i];

		if (x->kind != KM_VERIFY_DANGLING_ENTRY)
			continue;
		g_assert_cmpuint(x->fid, ==, f->playlist);
		g_assert_true(x->repairable);
		g_assert_nonnull(strstr(x->message, "'Mix'"));
	}
	g_assert_cmpuint(before->n_unrepaired, ==, before->findings->len);
	/* without repair nothing changed */
	g_clear_pointer(&entries, g_array_unref);
	entries = playlist_entries(lib, f->playlist);
	g_assert_cmpuint(entries->len, ==, N_TRACKS);

	repaired = verify(lib, KM_VERIFY_FLAG_REPAIR);
	g_assert_cmpuint(km_verify_report_count(repaired, KM_VERIFY_DANGLING_ENTRY), ==, 2);
	g_assert_cmpuint(repaired->n_unrepaired, ==, 0);
	g_assert_true(repaired->smalldb_written);
	tu_close(lib);

	/* reopened: the playlist holds fid[0] and fid[3], and all is clean */
	lib = tu_open(&f->m->bdev, FALSE);
	after = verify(lib, KM_VERIFY_FLAGS_NONE);
	g_assert_cmpuint(after->findings->len, ==, 0);
	g_clear_pointer(&entries, g_array_unref);
	entries = playlist_entries(lib, f->playlist);
	g_assert_cmpuint(entries->len, ==, 2);
	g_assert_cmpuint(g_array_index(entries, KmPlaylistEntry, 0).fid, ==, f->fid[0]);
	g_assert_cmpuint(g_array_index(entries, KmPlaylistEntry, 1).fid, ==, f->fid[3]);
	tu_close(lib);
}

/* A device that fails every read touching [bad_start, bad_end). */
struct failing_dev {
	struct omfs_blockdev bdev;
	const struct omfs_blockdev *inner;
	uint64_t bad_start, bad_end;
	guint failed_reads;
};

static int failing_read(void *ctx, uint64_t offset, void *buf, size_t len)
{
	struct failing_dev *d = ctx;

	if (offset < d->bad_end && offset + len > d->bad_start) {
		d->failed_reads++;
		return -EIO;
	}
	return d->inner->read(d->inner->ctx, offset, buf, len);
}

static int failing_write(void *ctx, uint64_t offset, const void *buf, size_t len)
{
	struct failing_dev *d = ctx;

	return d->inner->write(d->inner->ctx, offset, buf, len);
}

static int failing_flush(void *ctx)
{
	struct failing_dev *d = ctx;

	return d->inner->flush(d->inner->ctx);
}

static uint64_t failing_size(void *ctx)
{
	struct failing_dev *d = ctx;

	return d->inner->size(d->inner->ctx);
}

/* Where the data of host file seed i lies on the volume (found by content). */
static uint64_t data_offset(struct km_mem_device *m, guint i)
{
	g_autofree char *name = g_strdup_printf("c-%u", i);
	g_autofree char *path = tu_host_file(name, TRACK_SIZE, 300 + i);
	g_autoptr(GBytes) want = tu_host_bytes(path);
	const guint8 *hit = memmem(m->data, m->size, g_bytes_get_data(want, NULL), 4096);

	g_assert_nonnull(hit);
	return (uint64_t)(hit - m->data);
}

/* Reading every data file in full finds the one whose blocks cannot be read. */
static void test_read_data(struct fixture *f, gconstpointer unused)
{
	struct failing_dev d = {
		.bdev = { .read = failing_read, .write = failing_write, .flush = failing_flush,
			  .size = failing_size },
		.inner = &f->m->bdev,
	};
	g_autoptr(KmVerifyReport) quick = NULL, full = NULL;
	const KmVerifyFinding *x;
	KmLibrary *lib;

	d.bdev.ctx = &d;
	d.bad_start = data_offset(f->m, 2) + 8192;
	d.bad_end = d.bad_start + 1;
	lib = tu_open(&d.bdev, FALSE);
	quick = verify(lib, KM_VERIFY_FLAGS_NONE);
	g_assert_cmpuint(quick->findings->len, ==, 0);
	g_assert_cmpuint(d.failed_reads, ==, 0);

	full = verify(lib, KM_VERIFY_FLAG_READ_DATA);
	g_assert_cmpuint(full->findings->len, ==, 1);
	g_assert_cmpuint(full->n_unrepaired, ==, 1);
	g_assert_cmpuint(d.failed_reads, >, 0);
	x = full->findings->pdata[0];
	g_assert_cmpint(x->kind, ==, KM_VERIFY_UNREADABLE);
	g_assert_cmpuint(x->fid, ==, f->fid[2]);
	g_assert_false(x->repairable);
	g_assert_nonnull(strstr(x->message, "reading the data file"));
	g_assert_nonnull(strstr(x->message, g_strerror(EIO)));
	tu_close(lib);

	/* the same volume on a sound device reads in full */
	lib = tu_open(&f->m->bdev, FALSE);
	g_clear_pointer(&full, km_verify_report_free);
	full = verify(lib, KM_VERIFY_FLAG_READ_DATA);
	g_assert_cmpuint(full->findings->len, ==, 0);
	tu_close(lib);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
#define ADD(path, fn) \
	g_test_add("/library-verify-content/" path, struct fixture, NULL, setup, fn, teardown)
	ADD("dangling-entries", test_dangling_entries);
	ADD("read-data", test_read_data);
#undef ADD
	return g_test_run();
}
