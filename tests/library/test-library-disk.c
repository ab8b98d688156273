/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-library-disk.c - a whole Karma disk: the partition label, a small
 * system partition and the music partition. The library finds the music
 * partition (the OMFS volume with fids0/ and var/, the larger when both
 * have them), writes only inside it, and refuses a damaged label. Also an
 * image file on the host, through km-image-device.
 */
#include <string.h>

#include "km-image-device.h"
#include "km-karma-label.h"
#include "km-verify.h"
#include "library-test-util.h"

#define DISK_SIZE (40u << 20)
#define DISK_SECTORS (DISK_SIZE / KM_KARMA_SECTOR_SIZE)
/* The label sector and the system partition before the music partition at 4096. */
#define SYSTEM_SIZE (4096 * KM_KARMA_SECTOR_SIZE)

/* A disk whose label has partitions [1, split) and [split, end). */
static struct km_mem_device *new_disk(guint32 split)
{
	struct km_mem_device *m = km_mem_device_new(DISK_SIZE, NULL);
	struct km_karma_label label = {
		.n_partitions = 2,
		.partitions = { { 1, 1, split - 1 }, { 2, split, DISK_SECTORS - split } },
	};
	guint8 sector[KM_KARMA_SECTOR_SIZE];
	char msg[256];

	g_assert_cmpint(km_karma_label_build(sector, &label, DISK_SIZE, msg, sizeof(msg)), ==, 0);
	g_assert_cmpint(m->bdev.write(m->bdev.ctx, 0, sector, sizeof(sector)), ==, 0);
	return m;
}

/* mkfs on partition number (1 or 2); with music: fids0/, var/ and smalldb too. */
static void format_partition(struct km_mem_device *m, guint number, gboolean music)
{
	struct km_karma_label label;
	struct km_partition_device *win;
	struct omfs_mkfs_opts mkfs = { 0 };
	char msg[256];

	g_assert_cmpint(km_karma_label_read(&m->bdev, &label, msg, sizeof(msg)), ==, 0);
	win = km_karma_partition_open(&m->bdev, &label.partitions[number - 1], msg, sizeof(msg));
	g_assert_nonnull(win);
	if (music)
		tu_make_volume(km_partition_device_blockdev(win));
	else
		g_assert_cmpint(omfs_mkfs(km_partition_device_blockdev(win), &mkfs, msg, sizeof(msg)),
				==, 0);
	km_partition_device_close(win);
}

static void add_tracks(KmLibrary *lib, guint n)
{
	g_autoptr(GError) error = NULL;
	KmTransaction *tx = km_library_begin(lib, &error);
	guint32 list, fid;

	g_assert_no_error(error);
	g_assert_true(km_transaction_playlist_create(tx, "On the disk", &list, &error));
	for (guint i = 0; i < n; i++) {
		g_autofree char *name = g_strdup_printf("disk-%u", i);
		g_autofree char *path = tu_host_file(name, 30000 + i, 400 + i);

		fid = tu_add(tx, path, i);
		g_assert_true(km_transaction_playlist_insert(tx, list, fid, -1, &error));
	}
	tu_commit(tx);
	g_object_unref(tx);
}

static void test_music_partition(void)
{
	struct km_mem_device *m = new_disk(4096);
	g_autoptr(GPtrArray) committed = NULL;
	g_autofree guint8 *system_before = NULL;
	KmLibrary *lib;

	format_partition(m, 1, FALSE);
	format_partition(m, 2, TRUE);
	/* The label sector and the system partition, which must stay as they are. */
	system_before = g_memdup2(m->data, SYSTEM_SIZE);

	lib = tu_open(&m->bdev, TRUE);
	g_assert_cmpuint(km_library_get_partition(lib), ==, 2);
	add_tracks(lib, 5);
	committed = km_library_list(lib);
	tu_close(lib);
	g_assert_cmpmem(m->data, SYSTEM_SIZE, system_before, SYSTEM_SIZE);

	lib = tu_open(&m->bdev, FALSE);
	g_assert_cmpuint(km_library_get_partition(lib), ==, 2);
	tu_assert_rows(lib, committed);
	tu_assert_verifies_clean(lib);
	tu_close(lib);
	km_mem_device_free(m);
}

static void test_larger_wins(void)
{
	g_autoptr(GError) error = NULL;
	KmLibraryOptions first = { .partition = 1 };
	/* Partition 1 is the larger here. */
	struct km_mem_device *m = new_disk(DISK_SECTORS - 8192);
	KmLibrary *lib;

	format_partition(m, 1, TRUE);
	format_partition(m, 2, TRUE);
	lib = tu_open(&m->bdev, TRUE);
	g_assert_cmpuint(km_library_get_partition(lib), ==, 1);
	add_tracks(lib, 2);
	tu_close(lib);

	/* Asked for by number: the other one, empty. */
	lib = km_library_open(&m->bdev, &(KmLibraryOptions){ .partition = 2 }, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(km_library_get_partition(lib), ==, 2);
	g_assert_cmpuint(km_library_get_n_objects(lib), ==, 0);
	tu_close(lib);
	lib = km_library_open(&m->bdev, &first, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(km_library_get_n_objects(lib), ==, 3);
	tu_close(lib);
	km_mem_device_free(m);
}

static void test_no_music_partition(void)
{
	g_autoptr(GError) error = NULL;
	struct km_mem_device *m = new_disk(4096);

	/* Partition 1 is OMFS without fids0/ and var/; partition 2 is not OMFS. */
	format_partition(m, 1, FALSE);
	g_assert_null(km_library_open(&m->bdev, NULL, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NOT_KARMA);
	g_assert_nonnull(strstr(error->message, "partition 1: no fids0/"));
	g_assert_nonnull(strstr(error->message, "partition 2: cannot mount"));
	km_mem_device_free(m);
}

static void test_bad_label(void)
{
	g_autoptr(GError) error = NULL;
	struct km_mem_device *m = new_disk(4096);

	format_partition(m, 2, TRUE);
	/* Entry 2's size made to run past the end of the disk. */
	m->data[286 + 14] = 0xff;
	g_assert_null(km_library_open(&m->bdev, NULL, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_BAD_LABEL);
	km_mem_device_free(m);
}

/* The same disk as an image file on the host. */
static void test_image_file(void)
{
	struct km_mem_device *m = new_disk(4096);
	g_autofree char *path = g_build_filename(tu_tmpdir(), "karma.img", NULL);
	struct km_image_device *img;
	char msg[256];
	KmLibrary *lib;

	format_partition(m, 1, FALSE);
	format_partition(m, 2, TRUE);
	g_assert_true(g_file_set_contents(path, (const char *)m->data, DISK_SIZE, NULL));
	km_mem_device_free(m);

	img = km_image_device_open(path, TRUE, 0, 0, msg, sizeof(msg));
	g_assert_nonnull(img);
	lib = tu_open(km_image_device_blockdev(img), TRUE);
	add_tracks(lib, 3);
	tu_close(lib);
	g_assert_cmpint(km_image_device_close(img), ==, 0);

	img = km_image_device_open(path, FALSE, 0, 0, msg, sizeof(msg));
	g_assert_nonnull(img);
	lib = tu_open(km_image_device_blockdev(img), FALSE);
	g_assert_cmpuint(km_library_get_n_objects(lib), ==, 4);
	tu_assert_verifies_clean(lib);
	tu_close(lib);
	g_assert_cmpint(km_image_device_close(img), ==, 0);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/library-disk/music-partition", test_music_partition);
	g_test_add_func("/library-disk/larger-wins", test_larger_wins);
	g_test_add_func("/library-disk/no-music-partition", test_no_music_partition);
	g_test_add_func("/library-disk/bad-label", test_bad_label);
	g_test_add_func("/library-disk/image-file", test_image_file);
	return g_test_run();
}
