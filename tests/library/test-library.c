/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-library.c - KmLibrary and KmTransaction on a bare OMFS volume in
 * memory: adding, committing and reopening, removing, editing, playlists,
 * fid re-use, cancelling, and smalldb written once per commit. What is on
 * the disk is read back through the OMFS core, not through the library.
 */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>
#include <utime.h>

#include "km-fid.h"
#include "km-library-fs.h"
#include "km-image-device.h"
#include "km-playlist.h"
#include "km-property-rules.h"
#include "km-smalldb.h"
#include "km-verify.h"
#include "library-test-util.h"

#define VOLUME_SIZE (16u << 20)

/* ---- a device that counts the smalldb files written to it ---- */

struct counting_device {
	struct omfs_blockdev bdev;
	const struct omfs_blockdev *inner;
	guint smalldb_images;
	guint64 read_requests;
	guint64 read_bytes;
};

/* smalldb's header as libkarma and we write it: 2, (time), 8, 3, 36 columns. */
static gboolean starts_like_smalldb(const guint8 *b, size_t len)
{
	static const guint8 h0[4] = { 2, 0, 0, 0 };
	static const guint8 rest[12] = { 8, 0, 0, 0, 3, 0, 0, 0, 36, 0, 0, 0 };

	return len >= 20 && memcmp(b, h0, 4) == 0 && memcmp(b + 8, rest, 12) == 0;
}

static int counting_write(void *ctx, uint64_t off, const void *buf, size_t len)
{
	struct counting_device *c = ctx;

	c->smalldb_images += starts_like_smalldb(buf, len);
	return c->inner->write(c->inner->ctx, off, buf, len);
}

static int counting_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	struct counting_device *c = ctx;

	c->read_requests++;
	c->read_bytes += len;
	return c->inner->read(c->inner->ctx, off, buf, len);
}

static int counting_flush(void *ctx)
{
	struct counting_device *c = ctx;

	return c->inner->flush(c->inner->ctx);
}

static uint64_t counting_size(void *ctx)
{
	struct counting_device *c = ctx;

	return c->inner->size(c->inner->ctx);
}

static void counting_init(struct counting_device *c, const struct omfs_blockdev *inner)
{
	*c = (struct counting_device){
		.bdev = { .ctx = c, .read = counting_read, .write = counting_write,
			  .flush = counting_flush, .size = counting_size },
		.inner = inner,
	};
}

/* ---- helpers ---- */

static GPtrArray *new_objects(void)
{
	return g_ptr_array_new_with_free_func((GDestroyNotify)km_properties_unref);
}

static KmTransaction *begin(KmLibrary *lib)
{
	g_autoptr(GError) error = NULL;
	KmTransaction *tx = km_library_begin(lib, &error);

	g_assert_no_error(error);
	return tx;
}

static GArray *playlist_of(KmProperties *pl)
{
	g_autoptr(GError) error = NULL;
	GArray *entries = km_playlist_from_properties(pl, &error);

	g_assert_no_error(error);
	return entries;
}

/* The playlist's (fid, generation) pairs as "fid:gen fid:gen ...". */
static char *playlist_text(KmProperties *pl)
{
	g_autoptr(GArray) entries = playlist_of(pl);
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < entries->len; i++) {
		KmPlaylistEntry *e = &g_array_index(entries, KmPlaylistEntry, i);

		g_string_append_printf(s, "%s%x:%u", i ? " " : "", e->fid, e->generation);
	}
	return g_string_free(s, FALSE);
}

static guint32 generation_of(KmProperties *p)
{
	guint64 g = 0;

	g_assert_true(km_properties_get_uint(p, "fid_generation", &g));
	return (guint32)g;
}

static char *entry_text(KmLibrary *lib, guint32 fid)
{
	return g_strdup_printf("%x:%u", fid, generation_of(km_library_lookup(lib, fid)));
}

/* ---- opening ---- */

static void test_open_empty(void)
{
	g_autoptr(GError) error = NULL;
	struct km_mem_device *m = tu_new_volume(VOLUME_SIZE);
	KmLibrary *lib = tu_open(&m->bdev, FALSE);

	g_assert_cmpuint(km_library_get_n_objects(lib), ==, 0);
	g_assert_cmpuint(km_library_get_partition(lib), ==, 0);
	g_assert_false(km_library_is_writable(lib));
	g_assert_null(km_library_get_warnings(lib)[0]);
	/* Read-only: no transaction. */
	g_assert_null(km_library_begin(lib, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_READ_ONLY);
	tu_assert_verifies_clean(lib);
	tu_close(lib);
	km_mem_device_free(m);
}

static void test_open_not_karma(void)
{
	struct km_mem_device *m = km_mem_device_new(VOLUME_SIZE, NULL);
	struct omfs_mkfs_opts mkfs = { 0 };
	g_autoptr(GError) error = NULL;
	char msg[OMFS_ERRMSG_MAX];

	/* Zeros: no OMFS volume at all. */
	g_assert_null(km_library_open(&m->bdev, NULL, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NOT_KARMA);
	g_clear_error(&error);
	/* OMFS, but no fids0/ and var/. */
	g_assert_cmpint(omfs_mkfs(&m->bdev, &mkfs, msg, sizeof(msg)), ==, 0);
	g_assert_null(km_library_open(&m->bdev, NULL, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NOT_KARMA);
	g_assert_nonnull(strstr(error->message, "fids0"));
	g_clear_error(&error);
	/* A partition asked of a bare volume. */
	tu_make_volume(&m->bdev);
	g_assert_null(km_library_open(&m->bdev, &(KmLibraryOptions){ .partition = 2 }, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NOT_KARMA);
	km_mem_device_free(m);
}

/* ---- adding, committing, reopening ---- */

struct progress {
	guint64 last;
	guint64 total;
	guint calls;
};

static void on_progress(const KmLibraryProgress *progress, gpointer data)
{
	struct progress *p = data;

	g_assert_cmpint(progress->phase, ==, KM_PHASE_COPYING);
	g_assert_cmpuint(progress->done, >, p->last);
	g_assert_cmpuint(progress->done, <=, progress->total);
	p->last = progress->done;
	p->total = progress->total;
	p->calls++;
}

static const gsize sizes[] = { 1, 129, 8191, 8192, 8193, 100000, (1u << 20) + 17, 3 << 20, 4000 };

static void test_add_commit_reopen(void)
{
	struct km_mem_device *m = tu_new_volume(32u << 20);
	g_autoptr(GPtrArray) committed = new_objects();
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	KmTransaction *tx = begin(lib);
	struct omfs_fs *fs;

	for (guint i = 0; i < G_N_ELEMENTS(sizes); i++) {
		g_autofree char *name = g_strdup_printf("add-%u.mp3", i);
		g_autoptr(KmProperties) props = tu_track_props(i);
		g_autoptr(GError) error = NULL;
		struct progress p = { 0 };
		guint32 fid;

		g_ptr_array_add(paths, tu_host_file(name, sizes[i], i));
		km_transaction_add_file(tx, props, paths->pdata[i], on_progress, &p, NULL, &fid,
					&error);
		g_assert_no_error(error);
		/* fids from 0x110 up, in order; progress per chunk up to the size. */
		g_assert_cmpuint(fid, ==, KM_FID_FIRST + 16 * i);
		g_assert_cmpuint(p.last, ==, sizes[i]);
		g_assert_cmpuint(p.total, ==, sizes[i]);
		g_assert_cmpuint(p.calls, ==, (sizes[i] + (1u << 20) - 1) >> 20);
		g_ptr_array_add(committed, km_properties_copy(km_transaction_lookup(tx, fid)));
	}
	/* Nothing is committed yet. */
	g_assert_cmpuint(km_library_get_n_objects(lib), ==, 0);
	tu_commit(tx);
	g_object_unref(tx);
	tu_assert_rows(lib, committed);
	tu_close(lib);

	/* What is on the disk, through the core: names, properties files, smalldb. */
	fs = tu_mount(&m->bdev);
	g_assert_true(tu_fs_exists(fs, "fids0/_00000/110"));
	g_assert_true(tu_fs_exists(fs, "fids0/_00000/111"));
	g_assert_true(tu_fs_exists(fs, "fids0/_00000/190"));
	g_assert_false(tu_fs_exists(fs, "var/smalldb.new"));
	g_assert_false(tu_fs_exists(fs, "var/km-journal"));
	for (guint i = 0; i < committed->len; i++) {
		KmProperties *want = committed->pdata[i];
		guint32 fid = km_properties_get_fid(want);
		g_autoptr(KmProperties) file = tu_fs_props(fs, fid);
		g_autoptr(GBytes) a = km_properties_serialize(want);
		g_autoptr(GBytes) b = km_properties_serialize(file);
		g_autofree char *data_path = km_fid_to_path(fid, KM_FID_FILE_DATA);
		g_autoptr(GBytes) data = tu_fs_read(fs, data_path);
		g_autoptr(GBytes) host = tu_host_bytes(paths->pdata[i]);
		guint64 length;

		g_assert_true(g_bytes_equal(a, b));
		g_assert_true(g_bytes_equal(data, host));
		g_assert_true(km_properties_get_uint(file, "length", &length));
		g_assert_cmpuint(length, ==, sizes[i]);
		g_assert_cmpuint(generation_of(file), ==, TU_START_TIME);
	}
	{
		g_autoptr(GPtrArray) rows = tu_smalldb_rows(fs);

		g_assert_cmpuint(rows->len, ==, committed->len);
		for (guint i = 0; i < rows->len; i++)
			g_assert_true(km_smalldb_row_equal(rows->pdata[i], committed->pdata[i],
							   NULL));
	}
	omfs_unmount(fs);

	/* Reopened from smalldb, and from the properties files. */
	lib = tu_open(&m->bdev, FALSE);
	tu_assert_rows(lib, committed);
	for (guint i = 0; i < committed->len; i++) {
		g_autoptr(GBytes) data = tu_library_data(lib, KM_FID_FIRST + 16 * i);
		g_autoptr(GBytes) host = tu_host_bytes(paths->pdata[i]);

		g_assert_true(g_bytes_equal(data, host));
	}
	tu_assert_verifies_clean(lib);
	tu_close(lib);
	lib = tu_open_scan(&m->bdev);
	for (guint i = 0; i < committed->len; i++) {
		KmProperties *want = committed->pdata[i];
		g_autoptr(GBytes) a = km_properties_serialize(want);
		KmProperties *got = km_library_lookup(lib, km_properties_get_fid(want));
		g_autoptr(GBytes) b = km_properties_serialize(got);

		g_assert_true(g_bytes_equal(a, b));
	}
	tu_close(lib);
	tu_assert_fsck_leaks_only(&m->bdev);
	km_mem_device_free(m);
}

/*
 * Adding 300 tracks (past the first fid directory, _00000, which holds 256)
 * and committing writes one smalldb; so does each later commit.
 */
static void test_smalldb_written_once(void)
{
	struct km_mem_device *m = tu_new_volume(32u << 20);
	struct counting_device c;
	KmLibrary *lib;
	KmTransaction *tx;
	guint32 first = 0;

	counting_init(&c, &m->bdev);
	lib = tu_open(&c.bdev, TRUE);
	tx = begin(lib);
	for (guint i = 0; i < 300; i++) {
		g_autofree char *name = g_strdup_printf("once-%u", i);
		g_autofree char *path = tu_host_file(name, 1 + i, i);
		guint32 fid = tu_add(tx, path, i);

		first = first ? first : fid;
	}
	g_assert_cmpuint(c.smalldb_images, ==, 0);
	tu_commit(tx);
	g_object_unref(tx);
	g_assert_cmpuint(c.smalldb_images, ==, 1);
	g_assert_cmpuint(km_library_get_n_objects(lib), ==, 300);
	g_assert_nonnull(km_library_lookup(lib, 0x1000));
	{
		struct omfs_fs *fs = km_library_get_fs(lib);
		uint64_t ino;

		/* fid 0x1000 is fids0/_00001/000, 0x10f0 is fids0/_00001/0f0. */
		g_assert_cmpint(omfs_resolve(fs, "fids0/_00001/000", &ino), ==, 0);
		g_assert_cmpint(omfs_resolve(fs, "fids0/_00001/0f1", &ino), ==, 0);
		g_assert_cmpint(omfs_resolve(fs, "fids0/_00000/ff1", &ino), ==, 0);
	}

	tx = begin(lib);
	g_assert_true(km_transaction_set_property(tx, first, "title", "Renamed", NULL));
	g_assert_true(km_transaction_remove(tx, first + 16, NULL));
	tu_commit(tx);
	g_object_unref(tx);
	g_assert_cmpuint(c.smalldb_images, ==, 2);
	tu_assert_verifies_clean(lib);
	/* Verifying a clean library writes nothing, nor does a commit of nothing. */
	tx = begin(lib);
	tu_commit(tx);
	g_object_unref(tx);
	g_assert_cmpuint(c.smalldb_images, ==, 2);
	tu_close(lib);
	km_mem_device_free(m);
}

/* ---- removing, editing, playlists ---- */

struct fixture {
	struct km_mem_device *m;
	KmLibrary *lib;
	guint32 track[4];
	guint32 list1, list2;
};

/* Four tracks; list1 = [t0, t1, t2, t1], list2 = [t1, t3]. */
static void fixture_setup(struct fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	KmTransaction *tx;

	f->m = tu_new_volume(VOLUME_SIZE);
	f->lib = tu_open(&f->m->bdev, TRUE);
	tx = begin(f->lib);
	for (guint i = 0; i < 4; i++) {
		g_autofree char *name = g_strdup_printf("fx-%u", i);
		g_autofree char *path = tu_host_file(name, 5000 + 100 * i, 10 + i);

		f->track[i] = tu_add(tx, path, i);
	}
	g_assert_true(km_transaction_playlist_create(tx, "First", &f->list1, &error));
	g_assert_true(km_transaction_playlist_create(tx, "Second", &f->list2, &error));
	for (guint i = 0; i < 4; i++)
		g_assert_true(km_transaction_playlist_insert(tx, f->list1, f->track[i == 3 ? 1 : i],
							     -1, &error));
	g_assert_true(km_transaction_playlist_insert(tx, f->list2, f->track[3], -1, &error));
	g_assert_true(km_transaction_playlist_insert(tx, f->list2, f->track[1], 0, &error));
	g_assert_no_error(error);
	tu_commit(tx);
	g_object_unref(tx);
}

static void fixture_teardown(struct fixture *f, gconstpointer unused)
{
	tu_close(f->lib);
	tu_assert_fsck_leaks_only(&f->m->bdev);
	km_mem_device_free(f->m);
}

/* The playlist as committed, read from the disk: blob, data file, length. */
static char *disk_playlist(struct km_mem_device *m, guint32 fid)
{
	struct omfs_fs *fs = tu_mount(&m->bdev);
	g_autoptr(KmProperties) pl = tu_fs_props(fs, fid);
	g_autofree char *data_path = km_fid_to_path(fid, KM_FID_FILE_DATA);
	g_autoptr(GBytes) data = tu_fs_read(fs, data_path);
	g_autoptr(GBytes) blob = km_properties_get_blob(pl, "playlist");
	guint64 length;

	omfs_unmount(fs);
	g_assert_true(g_bytes_equal(data, blob));
	g_assert_true(km_properties_get_uint(pl, "length", &length));
	g_assert_cmpuint(length, ==, g_bytes_get_size(blob));
	g_assert_cmpstr(km_properties_get(pl, "type"), ==, "playlist");
	return playlist_text(pl);
}

static void test_playlist_layout(struct fixture *f, gconstpointer unused)
{
	g_autofree char *t0 = entry_text(f->lib, f->track[0]);
	g_autofree char *t1 = entry_text(f->lib, f->track[1]);
	g_autofree char *t2 = entry_text(f->lib, f->track[2]);
	g_autofree char *t3 = entry_text(f->lib, f->track[3]);
	g_autofree char *want1 = g_strjoin(" ", t0, t1, t2, t1, NULL);
	g_autofree char *want2 = g_strjoin(" ", t1, t3, NULL);
	g_autofree char *got1 = disk_playlist(f->m, f->list1);
	g_autofree char *got2 = disk_playlist(f->m, f->list2);
	KmProperties *list2 = km_library_lookup(f->lib, f->list2);
	g_autoptr(GBytes) blob = km_properties_get_blob(list2, "playlist");
	const guint8 *b = g_bytes_get_data(blob, NULL);
	guint32 gen = generation_of(km_library_lookup(f->lib, f->track[1]));
	/* Hand-computed: LE32 0x2ff, then LE32 fid and LE32 generation per entry. */
	const guint8 want_head[12] = { 0xff, 0x02, 0, 0, f->track[1] & 0xff, f->track[1] >> 8, 0, 0,
				       gen & 0xff, gen >> 8 & 0xff, gen >> 16 & 0xff, gen >> 24 };

	g_assert_cmpstr(got1, ==, want1);
	g_assert_cmpstr(got2, ==, want2);
	g_assert_cmpuint(g_bytes_get_size(blob), ==, 4 + 2 * 8);
	g_assert_cmpmem(b, 12, want_head, 12);
	g_assert_cmpstr(tu_get(f->lib, f->list1, "title"), ==, "First");
	tu_assert_verifies_clean(f->lib);
}

static void test_remove_from_every_playlist(struct fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	KmTransaction *tx = begin(f->lib);
	g_autofree char *t0 = entry_text(f->lib, f->track[0]);
	g_autofree char *t2 = entry_text(f->lib, f->track[2]);
	g_autofree char *t3 = entry_text(f->lib, f->track[3]);
	g_autofree char *want1 = g_strjoin(" ", t0, t2, NULL);
	g_autofree char *got1 = NULL, *got2 = NULL, *staged = NULL;
	g_autofree char *data_path = km_fid_to_path(f->track[1], KM_FID_FILE_DATA);
	g_autofree char *props_path = km_fid_to_path(f->track[1], KM_FID_FILE_PROPERTIES);
	struct omfs_fs *fs;

	g_assert_true(km_transaction_remove(tx, f->track[1], &error));
	g_assert_no_error(error);
	/* The transaction sees it gone; the library, until commit, does not. */
	g_assert_null(km_transaction_lookup(tx, f->track[1]));
	g_assert_nonnull(km_library_lookup(f->lib, f->track[1]));
	staged = playlist_text(km_transaction_lookup(tx, f->list1));
	g_assert_cmpstr(staged, ==, want1);
	g_assert_false(km_transaction_remove(tx, f->track[1], &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NOT_FOUND);
	tu_commit(tx);
	g_object_unref(tx);

	g_assert_null(km_library_lookup(f->lib, f->track[1]));
	got1 = disk_playlist(f->m, f->list1);
	got2 = disk_playlist(f->m, f->list2);
	g_assert_cmpstr(got1, ==, want1);
	g_assert_cmpstr(got2, ==, t3);
	fs = tu_mount(&f->m->bdev);
	g_assert_false(tu_fs_exists(fs, data_path));
	g_assert_false(tu_fs_exists(fs, props_path));
	omfs_unmount(fs);
	tu_assert_verifies_clean(f->lib);
}

static void test_edit_tags(struct fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	guint32 fid = f->track[2];
	g_autofree char *props_path = km_fid_to_path(fid, KM_FID_FILE_PROPERTIES);
	g_autoptr(KmProperties) file = NULL;
	g_autoptr(GBytes) text = NULL;
	g_autoptr(GPtrArray) rows = NULL;
	KmTransaction *tx;
	struct omfs_fs *fs;
	KmLibrary *again;

	/* A key smalldb does not hold, written by another tool: kept by an edit. */
	tu_close(f->lib);
	fs = tu_mount(&f->m->bdev);
	file = tu_fs_props(fs, fid);
	km_properties_set(file, "path", "vm:/home/someone/song.mp3");
	text = km_properties_serialize(file);
	tu_fs_write(fs, props_path, g_bytes_get_data(text, NULL), g_bytes_get_size(text));
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	f->lib = tu_open(&f->m->bdev, TRUE);

	tx = begin(f->lib);
	g_assert_true(km_transaction_set_property(tx, fid, "title", "Nouveau titre", &error));
	g_assert_true(km_transaction_set_property(tx, fid, "genre", NULL, &error));
	g_assert_true(km_transaction_set_property(tx, fid, "comment", "two\nlines", &error));
	g_assert_no_error(error);
	g_assert_false(km_transaction_set_property(tx, fid, "fid", "5", &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(km_transaction_set_property(tx, fid, "playlist", "x", &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(km_transaction_set_property(tx, fid, "type", "playlist", &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(km_transaction_set_property(tx, fid, "a=b", "x", &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(km_transaction_set_property(tx, fid, "title", "\xff", &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(km_transaction_set_property(tx, 0x99990, "title", "x", &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NOT_FOUND);
	g_clear_error(&error);
	tu_commit(tx);
	g_object_unref(tx);

	g_assert_cmpstr(tu_get(f->lib, fid, "title"), ==, "Nouveau titre");
	fs = tu_mount(&f->m->bdev);
	g_clear_pointer(&file, km_properties_unref);
	file = tu_fs_props(fs, fid);
	g_assert_cmpstr(km_properties_get(file, "title"), ==, "Nouveau titre");
	g_assert_cmpstr(km_properties_get(file, "path"), ==, "vm:/home/someone/song.mp3");
	g_assert_cmpstr(km_properties_get(file, "comment"), ==, "two lines");
	g_assert_false(km_properties_contains(file, "genre"));
	rows = tu_smalldb_rows(fs);
	for (guint i = 0; i < rows->len; i++)
		if (km_properties_get_fid(rows->pdata[i]) == fid)
			g_assert_true(km_smalldb_row_equal(rows->pdata[i], file, NULL));
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	again = tu_open(&f->m->bdev, FALSE);
	g_assert_cmpstr(tu_get(again, fid, "title"), ==, "Nouveau titre");
	g_assert_null(tu_get(again, fid, "genre"));
	tu_assert_verifies_clean(again);
	tu_close(again);
}

static void test_playlist_operations(struct fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	KmTransaction *tx = begin(f->lib);
	g_autofree char *t0 = entry_text(f->lib, f->track[0]);
	g_autofree char *t1 = entry_text(f->lib, f->track[1]);
	g_autofree char *t2 = entry_text(f->lib, f->track[2]);
	g_autofree char *t3 = entry_text(f->lib, f->track[3]);
	g_autofree char *want = g_strjoin(" ", t3, t0, t2, t1, NULL);
	g_autofree char *got = NULL, *got1 = NULL;
	g_autofree char *list2_data = km_fid_to_path(f->list2, KM_FID_FILE_DATA);
	guint32 mix = 0;
	struct omfs_fs *fs;

	g_assert_true(km_transaction_playlist_create(tx, "Mix", &mix, &error));
	/* t0, t0 t1, t0 t2 t1, t3 t0 t2 t1, t3 t0 t2 t1 t3 */
	g_assert_true(km_transaction_playlist_insert(tx, mix, f->track[0], -1, &error));
	g_assert_true(km_transaction_playlist_insert(tx, mix, f->track[1], -1, &error));
	g_assert_true(km_transaction_playlist_insert(tx, mix, f->track[2], 1, &error));
	g_assert_true(km_transaction_playlist_insert(tx, mix, f->track[3], 0, &error));
	g_assert_true(km_transaction_playlist_insert(tx, mix, f->track[3], 4, &error));
	/* t3 t0 t2 t1, t0 t2 t1 t3, t3 t0 t2 t1 */
	g_assert_true(km_transaction_playlist_remove_at(tx, mix, 4, &error));
	g_assert_true(km_transaction_playlist_move(tx, mix, 0, 3, &error));
	g_assert_true(km_transaction_playlist_move(tx, mix, 3, 0, &error));
	g_assert_true(km_transaction_playlist_rename(tx, mix, "Mix 2", &error));
	g_assert_true(km_transaction_playlist_rename(tx, f->list1, "Renamed", &error));
	g_assert_true(km_transaction_playlist_delete(tx, f->list2, &error));
	g_assert_no_error(error);

	/* What cannot be done. */
	g_assert_false(km_transaction_playlist_insert(tx, mix, mix, -1, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(km_transaction_playlist_insert(tx, f->track[0], f->track[1], -1, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(km_transaction_playlist_insert(tx, mix, f->track[0], 9, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(km_transaction_playlist_remove_at(tx, mix, 4, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(km_transaction_playlist_move(tx, mix, 0, 4, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(km_transaction_playlist_create(tx, "", NULL, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(km_transaction_playlist_rename(tx, f->list2, "Gone", &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NOT_FOUND);
	g_clear_error(&error);
	tu_commit(tx);
	g_object_unref(tx);

	got = disk_playlist(f->m, mix);
	g_assert_cmpstr(got, ==, want);
	g_assert_cmpstr(tu_get(f->lib, mix, "title"), ==, "Mix 2");
	g_assert_cmpstr(tu_get(f->lib, f->list1, "title"), ==, "Renamed");
	got1 = disk_playlist(f->m, f->list1);
	g_assert_null(km_library_lookup(f->lib, f->list2));
	fs = tu_mount(&f->m->bdev);
	g_assert_false(tu_fs_exists(fs, list2_data));
	omfs_unmount(fs);
	tu_assert_verifies_clean(f->lib);
}

static void test_playlist_limit(struct fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	g_autofree guint32 *tracks = g_new(guint32, KM_PLAYLIST_MAX_ENTRIES + 1);
	KmTransaction *tx = begin(f->lib);
	g_autoptr(GArray) entries = NULL;

	for (guint i = 0; i <= KM_PLAYLIST_MAX_ENTRIES; i++)
		tracks[i] = f->track[i % 4];
	g_assert_false(km_transaction_playlist_set(tx, f->list1, tracks,
						   KM_PLAYLIST_MAX_ENTRIES + 1, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_FULL);
	g_clear_error(&error);
	g_assert_true(km_transaction_playlist_set(tx, f->list1, tracks, KM_PLAYLIST_MAX_ENTRIES,
						  &error));
	g_assert_no_error(error);
	g_assert_false(km_transaction_playlist_insert(tx, f->list1, f->track[0], -1, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_FULL);
	g_clear_error(&error);
	tu_commit(tx);
	g_object_unref(tx);
	entries = playlist_of(km_library_lookup(f->lib, f->list1));
	g_assert_cmpuint(entries->len, ==, KM_PLAYLIST_MAX_ENTRIES);
	g_assert_cmpuint(g_array_index(entries, KmPlaylistEntry, 14999).fid, ==,
			 f->track[14999 % 4]);
	tu_close(f->lib);
	f->lib = tu_open(&f->m->bdev, TRUE);
	tu_assert_verifies_clean(f->lib);
}

/*
 * A fid freed and handed out again, within the same second, gets a greater
 * fid_generation; so does a fid that a playlist written elsewhere names.
 */
static void test_fid_reuse(struct fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *path = tu_host_file("reuse", 777, 99);
	guint32 old_gen = generation_of(km_library_lookup(f->lib, f->track[1]));
	guint32 fid, gen;
	KmTransaction *tx;

	g_assert_cmpint(tu_now, ==, TU_START_TIME);
	g_assert_cmpuint(old_gen, ==, TU_START_TIME);
	tx = begin(f->lib);
	g_assert_true(km_transaction_remove(tx, f->track[1], &error));
	tu_commit(tx);
	g_object_unref(tx);

	tx = begin(f->lib);
	fid = tu_add(tx, path, 50);
	g_assert_cmpuint(fid, ==, f->track[1]);
	gen = generation_of(km_transaction_lookup(tx, fid));
	g_assert_cmpuint(gen, >, old_gen);
	/* Removed in the transaction that added it, and added again. */
	g_assert_true(km_transaction_remove(tx, fid, &error));
	g_assert_cmpuint(tu_add(tx, path, 51), ==, fid);
	g_assert_cmpuint(generation_of(km_transaction_lookup(tx, fid)), >, gen);
	gen = generation_of(km_transaction_lookup(tx, fid));
	tu_commit(tx);
	g_object_unref(tx);
	tu_assert_verifies_clean(f->lib);
	tu_close(f->lib);

	/* In a later session: a playlist written by another tool names (0x150, now + 5). */
	{
		struct omfs_fs *fs = tu_mount(&f->m->bdev);
		g_autoptr(KmProperties) pl = tu_fs_props(fs, f->list2);
		g_autoptr(GArray) entries = playlist_of(pl);
		KmPlaylistEntry foreign = { 0x150, TU_START_TIME + 5 };
		g_autoptr(GBytes) text = NULL;
		g_autofree char *props_path = km_fid_to_path(f->list2, KM_FID_FILE_PROPERTIES);

		g_array_append_val(entries, foreign);
		km_playlist_to_properties(pl, entries);
		text = km_properties_serialize(pl);
		tu_fs_write(fs, props_path, g_bytes_get_data(text, NULL), g_bytes_get_size(text));
		g_assert_cmpint(omfs_unmount(fs), ==, 0);
	}
	f->lib = tu_open(&f->m->bdev, TRUE);
	g_autoptr(KmVerifyReport) report = km_library_rebuild_db(f->lib, NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(km_verify_report_count(report, KM_VERIFY_STALE_ROW), ==, 1);
	tx = begin(f->lib);
	/* 0x110 .. 0x140 are the tracks, 0x150 and 0x160 the playlists... */
	g_assert_true(km_library_lookup(f->lib, 0x150) != NULL);
	g_assert_true(km_transaction_remove(tx, 0x150, &error));
	tu_commit(tx);
	g_object_unref(tx);
	tx = begin(f->lib);
	fid = tu_add(tx, path, 52);
	g_assert_cmpuint(fid, ==, 0x150);
	g_assert_cmpuint(generation_of(km_transaction_lookup(tx, fid)), ==, TU_START_TIME + 6);
	tu_commit(tx);
	g_object_unref(tx);
}

/* ---- cancelling and rolling back ---- */

struct cancel_after {
	GCancellable *cancellable;
	guint64 at;
};

static void cancel_on_progress(const KmLibraryProgress *p, gpointer data)
{
	struct cancel_after *c = data;

	if (p->done >= c->at)
		g_cancellable_cancel(c->cancellable);
}

static void test_cancel(struct fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GCancellable) cancellable = g_cancellable_new();
	g_autofree char *big = tu_host_file("big", 3u << 20, 7);
	g_autofree char *small = tu_host_file("small", 1000, 8);
	struct cancel_after c = { cancellable, 1 };
	g_autoptr(KmProperties) props = tu_track_props(30);
	KmTransaction *tx = begin(f->lib);
	guint32 kept, fid = 0;
	struct omfs_fs *fs;

	kept = tu_add(tx, small, 30);
	g_assert_false(km_transaction_add_file(tx, props, big, cancel_on_progress, &c, cancellable,
					       &fid, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
	g_clear_error(&error);
	/* Cancelled before a file: nothing is written. */
	g_assert_false(km_transaction_add_file(tx, props, small, NULL, NULL, cancellable, &fid,
					       &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
	g_clear_error(&error);
	/* The cancelled add left no file, and its fid is the next one handed out. */
	g_assert_cmpuint(tu_add(tx, small, 31), ==, kept + 16);
	g_assert_true(km_transaction_rollback(tx, &error));
	g_assert_no_error(error);
	g_assert_false(km_transaction_commit(tx, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	g_object_unref(tx);
	fs = tu_mount(&f->m->bdev);
	g_assert_false(tu_fs_exists(fs, "fids0/_00000/170"));
	g_assert_false(tu_fs_exists(fs, "fids0/_00000/180"));
	omfs_unmount(fs);
	g_assert_cmpuint(km_library_get_n_objects(f->lib), ==, 6);
	tu_assert_verifies_clean(f->lib);

	/* Cancel one add and commit the others. */
	g_cancellable_reset(cancellable);
	tx = begin(f->lib);
	kept = tu_add(tx, small, 32);
	c.at = 1u << 20;
	g_assert_false(km_transaction_add_file(tx, props, big, cancel_on_progress, &c, cancellable,
					       &fid, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
	tu_commit(tx);
	g_object_unref(tx);
	g_assert_nonnull(km_library_lookup(f->lib, kept));
	g_assert_cmpuint(km_library_get_n_objects(f->lib), ==, 7);
	tu_assert_verifies_clean(f->lib);
}

/* Cut a host file to half its size (or rewrite it in place) during its copy. */
struct change_during_copy {
	const char *path;
	gboolean same_size;	/* rewrite a byte and move the time, not cut */
	gboolean done;
};

static void change_on_progress(const KmLibraryProgress *p, gpointer data)
{
	struct change_during_copy *c = data;

	if (c->done)
		return;
	c->done = TRUE;
	if (c->same_size) {
		FILE *out = fopen(c->path, "r+");

		g_assert_nonnull(out);
		g_assert_cmpint(fputc('x', out), ==, 'x');
		g_assert_cmpint(fclose(out), ==, 0);
		/* the next second: a file system with coarse times still shows the change */
		g_assert_cmpint(g_utime(c->path, &(struct utimbuf){ 1, 1 }), ==, 0);
	} else {
		g_assert_cmpint(truncate(c->path, (off_t)p->total / 2), ==, 0);
	}
}

/* Issue 16: a file that changes while it is copied is refused, not stored truncated. */
static void test_file_changed_during_add(struct fixture *f, gconstpointer unused)
{
	g_autofree char *cut = tu_host_file("cut", 3u << 20, 11);
	g_autofree char *rewritten = tu_host_file("rewritten", 3u << 20, 12);
	g_autofree char *grown = tu_host_file("grown", 3u << 20, 13);
	g_autoptr(KmProperties) props = tu_track_props(40);
	struct change_during_copy c = { cut, FALSE, FALSE };
	KmTransaction *tx = begin(f->lib);
	guint n_objects = km_library_get_n_objects(f->lib);
	GError *error = NULL;
	guint32 fid = 0;

	g_assert_false(km_transaction_add_file(tx, props, cut, change_on_progress, &c, NULL, &fid,
					       &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_assert_nonnull(strstr(error->message, "changed while it was copied"));
	g_clear_error(&error);
	c = (struct change_during_copy){ rewritten, TRUE, FALSE };
	g_assert_false(km_transaction_add_file(tx, props, rewritten, change_on_progress, &c, NULL,
					       &fid, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_assert_nonnull(strstr(error->message, "changed while it was added"));
	g_clear_error(&error);
	/* properties made from the file when it was another length */
	km_properties_set_uint(props, "length", 1000);
	g_assert_false(km_transaction_add_file(tx, props, grown, NULL, NULL, NULL, &fid, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	tu_commit(tx);
	g_object_unref(tx);
	g_assert_cmpuint(km_library_get_n_objects(f->lib), ==, n_objects);
	tu_assert_verifies_clean(f->lib);
}

/* Issue 16: one playlist per name, and tag values as km-property-rules.h says. */
static void test_refused_edits(struct fixture *f, gconstpointer unused)
{
	KmTransaction *tx = begin(f->lib);
	GError *error = NULL;
	guint32 mix, other, track = f->track[0];
	g_autofree char *long_title = g_strnfill(KM_PROPERTY_MAX_TEXT + 1, 'x');
	const char *const bad[][2] = {
		{ "bad key", "x" }, { "length", "abc" }, { "length", "-1" },
		{ "length", "4294967296" }, { "tracknr", "0" }, { "year", "99" },
		{ "play_count", "65536" }, { "title", long_title },
	};

	g_assert_true(km_transaction_playlist_create(tx, "Mix", &mix, &error));
	g_assert_true(km_transaction_playlist_create(tx, "Other", &other, &error));
	g_assert_false(km_transaction_playlist_create(tx, "Mix", NULL, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_false(km_transaction_playlist_rename(tx, other, "Mix", &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	g_assert_true(km_transaction_playlist_rename(tx, mix, "Mix", &error));
	g_assert_false(km_transaction_playlist_rename(tx, mix, long_title, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_clear_error(&error);
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_assert_false(km_transaction_set_property(tx, track, bad[i][0], bad[i][1], &error));
		g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
		g_clear_error(&error);
	}
	g_assert_true(km_transaction_set_property(tx, track, "play_count", "65535", &error));
	tu_commit(tx);
	g_object_unref(tx);
	g_assert_cmpstr(tu_get(f->lib, track, "play_count"), ==, "65535");
	tu_assert_verifies_clean(f->lib);
}

static void test_rollback_by_unref(struct fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *path = tu_host_file("unref", 20000, 3);
	KmTransaction *tx = begin(f->lib);

	tu_add(tx, path, 40);
	g_assert_true(km_transaction_remove(tx, f->track[0], &error));
	g_assert_true(km_transaction_set_property(tx, f->track[2], "title", "x", &error));
	g_assert_null(km_library_begin(f->lib, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_BUSY);
	g_clear_error(&error);
	g_assert_finalize_object(tx);
	/* Nothing changed, and the data file written is gone. */
	g_assert_nonnull(km_library_lookup(f->lib, f->track[0]));
	g_assert_cmpstr(tu_get(f->lib, f->track[2], "title"), ==, "Track 2");
	tu_assert_verifies_clean(f->lib);
	tx = begin(f->lib);
	g_object_unref(tx);
}

/* ---- duplicates ---- */

#define MOVED_RID "0123456789abcdef0123456789abcdef"

static void test_duplicates(struct fixture *f, gconstpointer unused)
{
	g_autoptr(KmProperties) same = tu_track_props(2);
	g_autoptr(KmProperties) other_title = tu_track_props(2);
	g_autoptr(KmProperties) other_rid = tu_track_props(2);
	g_autoptr(KmProperties) no_rid = tu_track_props(2);
	g_autoptr(KmProperties) fresh = tu_track_props(60);
	g_autoptr(KmProperties) moved = tu_track_props(60);
	g_autofree char *path = tu_host_file("dup", 300, 60);
	g_autofree char *rid = NULL;
	g_autoptr(GError) error = NULL;
	KmTransaction *tx;
	guint32 fid = 0, added;

	km_properties_set(other_title, "title", "Something else");
	km_properties_set(other_rid, "rid", "00000000000000000000000000000000");
	km_properties_remove(no_rid, "rid");
	g_assert_true(km_library_find_duplicate(f->lib, same, &fid));
	g_assert_cmpuint(fid, ==, f->track[2]);
	g_assert_false(km_library_find_duplicate(f->lib, other_title, NULL));
	g_assert_false(km_library_find_duplicate(f->lib, other_rid, NULL));
	g_assert_false(km_library_find_duplicate(f->lib, no_rid, NULL));

	tx = begin(f->lib);
	g_assert_false(km_transaction_find_duplicate(tx, fresh, NULL));
	added = tu_add(tx, path, 60);
	g_assert_true(km_transaction_find_duplicate(tx, fresh, &fid));
	g_assert_cmpuint(fid, ==, added);
	g_assert_false(km_library_find_duplicate(f->lib, fresh, NULL));
	/* An added object edited afterwards is found as it is now, not as it was staged. */
	rid = g_strdup(km_properties_get(fresh, "rid"));
	km_properties_set(moved, "rid", MOVED_RID);
	g_assert_false(km_transaction_find_duplicate(tx, moved, NULL));
	g_assert_true(km_transaction_set_property(tx, added, "rid", MOVED_RID, &error));
	g_assert_false(km_transaction_find_duplicate(tx, fresh, NULL));
	g_assert_true(km_transaction_find_duplicate(tx, moved, &fid));
	g_assert_cmpuint(fid, ==, added);
	g_assert_true(km_transaction_set_property(tx, added, "rid", rid, &error));
	g_assert_true(km_transaction_find_duplicate(tx, fresh, NULL));
	g_assert_false(km_transaction_find_duplicate(tx, moved, NULL));
	g_assert_true(km_transaction_remove(tx, f->track[2], &error));
	g_assert_false(km_transaction_find_duplicate(tx, same, NULL));
	tu_commit(tx);
	g_object_unref(tx);
	g_assert_true(km_library_find_duplicate(f->lib, fresh, NULL));
	g_assert_false(km_library_find_duplicate(f->lib, same, NULL));
}

/* ---- opening a large library ---- */

/*
 * 10,000 tracks on a 20 GiB volume (a sparse image file, the size of a
 * Karma's): opening reads smalldb, and little more (the budget is
 * 1.2 times smalldb plus 256 KiB; the time is only reported).
 */
static void test_open_reads_little(void)
{
	g_autofree char *path = g_build_filename(tu_tmpdir(), "big.img", NULL);
	g_autoptr(GPtrArray) objects = new_objects();
	g_autoptr(GBytes) smalldb = NULL;
	g_autoptr(GError) error = NULL;
	struct km_image_device *img;
	struct counting_device c;
	struct omfs_fs *fs;
	KmLibrary *lib;
	char msg[256];
	gint64 t0, t1;
	gsize size;

	img = km_image_device_create(path, 20ull << 30, msg, sizeof(msg));
	g_assert_nonnull(img);
	tu_make_volume(km_image_device_blockdev(img));
	for (guint i = 0; i < 10000; i++) {
		KmProperties *p = tu_track_props(i);

		km_properties_set_fid(p, KM_FID_FIRST + 16 * i);
		km_properties_set_uint(p, "length", 3000000 + i);
		km_properties_set_uint(p, "fid_generation", TU_START_TIME + i);
		g_ptr_array_add(objects, p);
	}
	smalldb = km_smalldb_build(objects, NULL, TU_START_TIME, &error);
	g_assert_no_error(error);
	size = g_bytes_get_size(smalldb);
	fs = tu_mount(km_image_device_blockdev(img));
	tu_fs_write(fs, "var/smalldb", g_bytes_get_data(smalldb, NULL), size);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);

	t0 = g_get_monotonic_time();
	g_ptr_array_unref(km_smalldb_parse(smalldb, NULL, NULL, &error));
	g_assert_no_error(error);
	g_test_message("parsing smalldb alone: %.1f ms", (g_get_monotonic_time() - t0) / 1000.0);
	counting_init(&c, km_image_device_blockdev(img));
	t0 = g_get_monotonic_time();
	lib = km_library_open(&c.bdev, NULL, &error);
	t1 = g_get_monotonic_time();
	g_assert_no_error(error);
	g_assert_cmpuint(km_library_get_n_objects(lib), ==, 10000);
	g_test_message("open: %.1f ms, %" G_GUINT64_FORMAT " read requests, %" G_GUINT64_FORMAT
		       " bytes read, smalldb %" G_GSIZE_FORMAT " bytes (budget %" G_GSIZE_FORMAT
		       ")",
		       (t1 - t0) / 1000.0, c.read_requests, c.read_bytes, size,
		       size * 6 / 5 + (256u << 10));
	g_assert_cmpuint(c.read_bytes, <=, size * 6 / 5 + (256u << 10));
	tu_assert_rows(lib, objects);
	tu_close(lib);
	km_image_device_close(img);
	g_remove(path);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/library/open/empty", test_open_empty);
	g_test_add_func("/library/open/not-karma", test_open_not_karma);
	g_test_add_func("/library/add-commit-reopen", test_add_commit_reopen);
	g_test_add_func("/library/smalldb-written-once", test_smalldb_written_once);
	g_test_add_func("/library/open-reads-little", test_open_reads_little);
#define ADD(path, fn) \
	g_test_add("/library/" path, struct fixture, NULL, fixture_setup, fn, fixture_teardown)
	ADD("playlist/layout", test_playlist_layout);
	ADD("playlist/operations", test_playlist_operations);
	ADD("playlist/limit", test_playlist_limit);
	ADD("remove-from-every-playlist", test_remove_from_every_playlist);
	ADD("edit-tags", test_edit_tags);
	ADD("fid-reuse", test_fid_reuse);
	ADD("cancel", test_cancel);
	ADD("file-changed-during-add", test_file_changed_during_add);
	ADD("refused-edits", test_refused_edits);
	ADD("rollback-by-unref", test_rollback_by_unref);
	ADD("duplicates", test_duplicates);
#undef ADD
	return g_test_run();
}
