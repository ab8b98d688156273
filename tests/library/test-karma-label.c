/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-karma-label.c - the Karma partition label (hand-built sectors, every
 * bad label) and window devices over memory and over an image file.
 */
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "km-image-device.h"
#include "km-karma-label.h"
#include "km-mem-device.h"

#define SECTOR KM_KARMA_SECTOR_SIZE

/* A whole disk of 8192 sectors (4 MiB): the label, a small system partition, music. */
#define DISK_SECTORS 8192u
#define DISK_SIZE ((guint64)DISK_SECTORS * SECTOR)

static void put_entry(guint8 *sector, guint offset, guint8 fstype, guint32 start, guint32 size)
{
	guint8 *e = sector + offset;

	memset(e, 0, 16);
	e[4] = fstype;
	e[8] = (guint8)start;
	e[9] = (guint8)(start >> 8);
	e[10] = (guint8)(start >> 16);
	e[11] = (guint8)(start >> 24);
	e[12] = (guint8)size;
	e[13] = (guint8)(size >> 8);
	e[14] = (guint8)(size >> 16);
	e[15] = (guint8)(size >> 24);
}

/* Written byte by byte from docs/KARMA.md §5.1, not with the code under test. */
static void hand_built(guint8 *sector, guint32 start1, guint32 size1, guint32 start2, guint32 size2)
{
	memset(sector, 0, SECTOR);
	put_entry(sector, 270, 0x4D, start1, size1);
	put_entry(sector, 286, 0x4D, start2, size2);
	sector[510] = 0x56;
	sector[511] = 0xAB;
}

static int parse(const guint8 *sector, guint64 size, struct km_karma_label *label, char *msg)
{
	return km_karma_label_parse(sector, size, label, msg, 256);
}

static void test_parse_hand_built(void)
{
	guint8 sector[SECTOR];
	struct km_karma_label label;
	char msg[256];

	hand_built(sector, 1, 2047, 2048, DISK_SECTORS - 2048);
	g_assert_cmpint(parse(sector, DISK_SIZE, &label, msg), ==, 0);
	g_assert_cmpuint(label.n_partitions, ==, 2);
	g_assert_cmpuint(label.partitions[0].number, ==, 1);
	g_assert_cmpuint(label.partitions[0].start_sector, ==, 1);
	g_assert_cmpuint(label.partitions[0].n_sectors, ==, 2047);
	g_assert_cmpuint(label.partitions[1].number, ==, 2);
	g_assert_cmpuint(label.partitions[1].start_sector, ==, 2048);
	g_assert_cmpuint(label.partitions[1].n_sectors, ==, DISK_SECTORS - 2048);
	g_assert_cmpuint(km_karma_partition_offset(&label.partitions[1]), ==, 2048 * 512);
	g_assert_cmpuint(km_karma_partition_length(&label.partitions[1]), ==,
			 (guint64)(DISK_SECTORS - 2048) * 512);

	/* the byte layout as docs/KARMA.md §5.1 gives it */
	g_assert_cmphex(sector[270 + 4], ==, 0x4D);
	g_assert_cmphex(sector[286 + 8], ==, 0x00);
	g_assert_cmphex(sector[286 + 9], ==, 0x08);
}

static void test_unused_entries(void)
{
	guint8 sector[SECTOR];
	struct km_karma_label label;
	char msg[256];

	/* entry 1 of another type (with garbage in it), entry 2 used */
	hand_built(sector, 0xffffffff, 0xffffffff, 100, 200);
	sector[270 + 4] = 0x83;
	g_assert_cmpint(parse(sector, DISK_SIZE, &label, msg), ==, 0);
	g_assert_cmpuint(label.n_partitions, ==, 1);
	g_assert_cmpuint(label.partitions[0].number, ==, 2);
	g_assert_cmpuint(label.partitions[0].start_sector, ==, 100);

	/* entry 2 of type 0x4D but empty */
	hand_built(sector, 1, 10, 0, 0);
	g_assert_cmpint(parse(sector, DISK_SIZE, &label, msg), ==, 0);
	g_assert_cmpuint(label.n_partitions, ==, 1);
	g_assert_cmpuint(label.partitions[0].number, ==, 1);

	/* a partition that ends exactly at the end of the device */
	hand_built(sector, 1, 10, 11, DISK_SECTORS - 11);
	g_assert_cmpint(parse(sector, DISK_SIZE, &label, msg), ==, 0);
	/* a device size that is not whole sectors: the last part sector does not count */
	g_assert_cmpint(parse(sector, DISK_SIZE + 511, &label, msg), ==, 0);
	g_assert_cmpint(parse(sector, DISK_SIZE - 1, &label, msg), ==, -EINVAL);
}

struct bad_label {
	const char *name;
	guint32 start1, size1, start2, size2;
	int magic_lo, magic_hi;
	int err;
	const char *what;
};

static const struct bad_label bad_labels[] = {
	{ "no magic", 1, 10, 20, 10, 0x00, 0x00, -ENOENT, "magic at byte 510 is 0x0000" },
	{ "byte-swapped magic", 1, 10, 20, 10, 0xAB, 0x56, -ENOENT, "0x56ab, not 0xab56" },
	{ "starts at sector 0", 0, 10, 20, 10, 0x56, 0xAB, -EINVAL, "partition 1 starts at sector 0" },
	{ "second at sector 0", 1, 10, 0, 1, 0x56, 0xAB, -EINVAL, "partition 2 starts at sector 0" },
	{ "starts past the end", 1, 10, DISK_SECTORS, 1, 0x56, 0xAB, -EINVAL,
	  "partition 2 starts at sector 8192, past the end of the device (8192 sectors)" },
	{ "ends past the end", 1, 10, 20, DISK_SECTORS - 19, 0x56, 0xAB, -EINVAL,
	  "partition 2 (sectors 20 to 8192) ends past the end of the device" },
	{ "32-bit wrap", 2, 0xffffffff, 0, 0, 0x56, 0xAB, -EINVAL, "ends past the end" },
	{ "huge start", 0xffffffff, 0xffffffff, 1, 1, 0x56, 0xAB, -EINVAL,
	  "partition 1 starts at sector 4294967295, past the end" },
	{ "overlap", 1, 100, 50, 100, 0x56, 0xAB, -EINVAL,
	  "partitions 1 (sectors 1 to 100) and 2 (sectors 50 to 149) overlap" },
	{ "second inside the first", 1, 1000, 500, 10, 0x56, 0xAB, -EINVAL, "overlap" },
	{ "same partition twice", 7, 10, 7, 10, 0x56, 0xAB, -EINVAL, "overlap" },
	{ "no partition", 0, 0, 0, 0, 0x56, 0xAB, -EINVAL, "no entry of type 0x4d" },
};

static void test_bad_labels(void)
{
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(bad_labels); i++) {
		const struct bad_label *c = &bad_labels[i];
		guint8 sector[SECTOR];
		struct km_karma_label label;
		char msg[256] = "";

		hand_built(sector, c->start1, c->size1, c->start2, c->size2);
		sector[510] = (guint8)c->magic_lo;
		sector[511] = (guint8)c->magic_hi;
		g_test_message("%s", c->name);
		g_assert_cmpint(parse(sector, DISK_SIZE, &label, msg), ==, c->err);
		g_test_message("-> %s", msg);
		g_assert_nonnull(strstr(msg, c->what));
		/* nothing of a bad label is handed out */
		g_assert_cmpuint(label.n_partitions, ==, 0);
	}
}

static struct km_karma_label two_partitions(guint32 music_start, guint32 music_sectors)
{
	return (struct km_karma_label){
		.n_partitions = 2,
		.partitions = {
			{ .number = 1, .start_sector = 1, .n_sectors = music_start - 1 },
			{ .number = 2, .start_sector = music_start, .n_sectors = music_sectors },
		},
	};
}

static void test_build(void)
{
	struct km_karma_label label = two_partitions(2048, DISK_SECTORS - 2048);
	struct km_karma_label back;
	guint8 built[SECTOR], expected[SECTOR];
	char msg[256];

	g_assert_cmpint(km_karma_label_build(built, &label, DISK_SIZE, msg, sizeof(msg)), ==, 0);
	hand_built(expected, 1, 2047, 2048, DISK_SECTORS - 2048);
	g_assert_cmpmem(built, SECTOR, expected, SECTOR);
	g_assert_cmpint(parse(built, DISK_SIZE, &back, msg), ==, 0);
	g_assert_cmpmem(&back, sizeof(back), &label, sizeof(label));

	/* only partition 2: entry 1 stays zero (unused) */
	label = (struct km_karma_label){ .n_partitions = 1, .partitions = { { 2, 64, 100 } } };
	g_assert_cmpint(km_karma_label_build(built, &label, DISK_SIZE, msg, sizeof(msg)), ==, 0);
	memset(expected, 0, SECTOR);
	put_entry(expected, 286, 0x4D, 64, 100);
	expected[510] = 0x56;
	expected[511] = 0xAB;
	g_assert_cmpmem(built, SECTOR, expected, SECTOR);
}

static void assert_build_refused(const struct km_karma_label *label, const char *what)
{
	guint8 sector[SECTOR], zero[SECTOR] = { 0 };
	char msg[256] = "";

	memset(sector, 0x5a, SECTOR);
	g_assert_cmpint(km_karma_label_build(sector, label, DISK_SIZE, msg, sizeof(msg)), ==, -EINVAL);
	g_test_message("%s", msg);
	g_assert_nonnull(strstr(msg, what));
	g_assert_cmpmem(sector, SECTOR, zero, SECTOR);
}

static void test_build_refuses(void)
{
	struct km_karma_label label = two_partitions(2048, DISK_SECTORS - 2048);

	label.n_partitions = 0;
	assert_build_refused(&label, "1 or 2 partitions");
	label.n_partitions = 3;
	assert_build_refused(&label, "1 or 2 partitions");
	label = two_partitions(2048, DISK_SECTORS - 2048);
	label.partitions[1].number = 3;
	assert_build_refused(&label, "not 3");
	label.partitions[1].number = 1;
	assert_build_refused(&label, "given twice");
	label = two_partitions(2048, 0);
	assert_build_refused(&label, "partition 2 is empty");
	label = two_partitions(2048, DISK_SECTORS);
	assert_build_refused(&label, "ends past the end");
	label = two_partitions(2048, 100);
	label.partitions[0].n_sectors = 3000;
	assert_build_refused(&label, "overlap");
	label.partitions[0].start_sector = 0;
	assert_build_refused(&label, "sector 0");
}

/* Byte i of the test disks: not periodic in any power of two below 2^16. */
static guint8 pattern(guint64 i)
{
	return (guint8)(i * 7 + (i >> 8) * 13 + (i >> 16));
}

static struct km_mem_device *patterned_disk(guint64 size)
{
	struct km_mem_device *mem = km_mem_device_new(size, NULL);
	guint64 i;

	g_assert_nonnull(mem);
	for (i = 0; i < size; i++)
		mem->data[i] = pattern(i);
	return mem;
}

static void assert_reads_parent(const struct omfs_blockdev *win, guint64 offset, guint64 length)
{
	guint8 buf[1000];
	const guint64 at[] = { 0, 1, 511, 512, length / 2, length - sizeof(buf) };
	gsize i, j;

	g_assert_cmpuint(win->size(win->ctx), ==, length);
	for (i = 0; i < G_N_ELEMENTS(at); i++) {
		g_assert_cmpint(win->read(win->ctx, at[i], buf, sizeof(buf)), ==, 0);
		for (j = 0; j < sizeof(buf); j++)
			g_assert_cmphex(buf[j], ==, pattern(offset + at[i] + j));
	}
	/* the last byte, then nothing past the end, with no overflow either */
	g_assert_cmpint(win->read(win->ctx, length - 1, buf, 1), ==, 0);
	g_assert_cmphex(buf[0], ==, pattern(offset + length - 1));
	g_assert_cmpint(win->read(win->ctx, length, buf, 1), ==, -EIO);
	g_assert_cmpint(win->read(win->ctx, length - 10, buf, 11), ==, -EIO);
	g_assert_cmpint(win->read(win->ctx, G_MAXUINT64, buf, 1), ==, -EIO);
	g_assert_cmpint(win->read(win->ctx, G_MAXUINT64 - 5, buf, 10), ==, -EIO);
	g_assert_cmpint(win->write(win->ctx, length - 10, buf, 11), ==, -EIO);
}

static void test_window_on_memory(void)
{
	struct km_mem_device *mem = patterned_disk(DISK_SIZE);
	const guint64 offset = 3 * 512 + 17, length = 70001;
	struct km_partition_device *win;
	const struct omfs_blockdev *bdev;
	const guint8 data[4] = { 0xde, 0xad, 0xbe, 0xef };
	char msg[256];
	guint64 flushes;

	win = km_partition_device_open(&mem->bdev, offset, length, msg, sizeof(msg));
	g_assert_nonnull(win);
	bdev = km_partition_device_blockdev(win);
	assert_reads_parent(bdev, offset, length);

	g_assert_cmpint(bdev->write(bdev->ctx, 100, data, sizeof(data)), ==, 0);
	g_assert_cmpmem(mem->data + offset + 100, 4, data, 4);
	g_assert_cmphex(mem->data[offset + 99], ==, pattern(offset + 99));
	g_assert_cmphex(mem->data[offset + 104], ==, pattern(offset + 104));
	flushes = mem->flushes;
	g_assert_cmpint(bdev->flush(bdev->ctx), ==, 0);
	g_assert_cmpuint(mem->flushes, ==, flushes + 1);
	km_partition_device_close(win);

	/* length 0: up to the end */
	win = km_partition_device_open(&mem->bdev, 4096, 0, msg, sizeof(msg));
	g_assert_nonnull(win);
	bdev = km_partition_device_blockdev(win);
	g_assert_cmpuint(bdev->size(bdev->ctx), ==, DISK_SIZE - 4096);
	km_partition_device_close(win);

	/* a window past the end is refused */
	errno = 0;
	g_assert_null(km_partition_device_open(&mem->bdev, DISK_SIZE - 10, 11, msg, sizeof(msg)));
	g_assert_cmpint(errno, ==, EINVAL);
	g_assert_nonnull(strstr(msg, "past the end"));
	g_assert_null(km_partition_device_open(&mem->bdev, DISK_SIZE + 1, 0, msg, sizeof(msg)));
	g_assert_null(km_partition_device_open(&mem->bdev, 1, G_MAXUINT64, msg, sizeof(msg)));
	km_mem_device_free(mem);
}

static struct km_mem_device *labelled_disk(struct km_karma_label *label)
{
	struct km_mem_device *mem = patterned_disk(DISK_SIZE);
	char msg[256];

	*label = two_partitions(2048, DISK_SECTORS - 2048);
	g_assert_cmpint(km_karma_label_build(mem->data, label, DISK_SIZE, msg, sizeof(msg)), ==, 0);
	return mem;
}

static void test_read_label_and_partitions(void)
{
	struct km_karma_label built, label;
	struct km_mem_device *mem = labelled_disk(&built);
	struct km_mem_device *tiny = km_mem_device_new(511, NULL);
	char msg[256];
	guint i;

	g_assert_cmpint(km_karma_label_read(&mem->bdev, &label, msg, sizeof(msg)), ==, 0);
	g_assert_cmpmem(&label, sizeof(label), &built, sizeof(built));
	for (i = 0; i < label.n_partitions; i++) {
		const struct km_karma_partition *part = &label.partitions[i];
		struct km_partition_device *win = km_karma_partition_open(&mem->bdev, part, msg, sizeof(msg));

		g_assert_nonnull(win);
		assert_reads_parent(km_partition_device_blockdev(win), km_karma_partition_offset(part),
				    km_karma_partition_length(part));
		km_partition_device_close(win);
	}
	g_assert_null(km_karma_partition_open(&mem->bdev, &(struct km_karma_partition){ 2, 5, 0 },
					      msg, sizeof(msg)));

	g_assert_cmpint(km_karma_label_read(&tiny->bdev, &label, msg, sizeof(msg)), ==, -ENOENT);
	g_assert_nonnull(strstr(msg, "less than one sector"));
	km_mem_device_free(tiny);
	km_mem_device_free(mem);
}

/* The same partitions over an image file: through a window, and through km_image_device_open. */
static void test_window_on_image_file(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = g_dir_make_tmp("km-label-XXXXXX", &error);
	g_autofree char *path = NULL;
	struct km_karma_label built, label;
	struct km_mem_device *mem = labelled_disk(&built);
	struct km_image_device *disk, *direct;
	char msg[256];
	guint i;

	g_assert_no_error(error);
	path = g_build_filename(dir, "karma.img", NULL);
	g_file_set_contents(path, (const char *)mem->data, (gssize)mem->size, &error);
	g_assert_no_error(error);

	disk = km_image_device_open(path, false, 0, 0, msg, sizeof(msg));
	g_assert_nonnull(disk);
	g_assert_cmpint(km_karma_label_read(km_image_device_blockdev(disk), &label, msg, sizeof(msg)), ==, 0);
	g_assert_cmpmem(&label, sizeof(label), &built, sizeof(built));
	for (i = 0; i < label.n_partitions; i++) {
		const struct km_karma_partition *part = &label.partitions[i];
		struct km_partition_device *win =
			km_karma_partition_open(km_image_device_blockdev(disk), part, msg, sizeof(msg));

		g_assert_nonnull(win);
		assert_reads_parent(km_partition_device_blockdev(win), km_karma_partition_offset(part),
				    km_karma_partition_length(part));
		km_partition_device_close(win);

		direct = km_image_device_open(path, false, km_karma_partition_offset(part),
					      km_karma_partition_length(part), msg, sizeof(msg));
		g_assert_nonnull(direct);
		assert_reads_parent(km_image_device_blockdev(direct), km_karma_partition_offset(part),
				    km_karma_partition_length(part));
		g_assert_cmpint(km_image_device_close(direct), ==, 0);
	}
	g_assert_cmpint(km_image_device_close(disk), ==, 0);
	g_assert_cmpint(g_unlink(path), ==, 0);
	g_assert_cmpint(g_rmdir(dir), ==, 0);
	km_mem_device_free(mem);
}

/* An OMFS volume made and used through the window of partition 2 stays inside it. */
static void test_omfs_inside_partition(void)
{
	struct km_karma_label built, label;
	struct km_mem_device *mem = labelled_disk(&built);
	g_autofree guint8 *before = g_memdup2(mem->data, mem->size);
	const struct km_karma_partition *music;
	struct km_partition_device *win;
	const struct omfs_blockdev *bdev;
	struct omfs_mkfs_opts opts = { .blocksize = 2048, .sys_blocksize = 2048, .clustersize = 1,
				       .time_ms = 1 };
	struct omfs_fs *fs = NULL;
	char msg[OMFS_ERRMSG_MAX];
	uint64_t ino, start, end, i;

	g_assert_cmpint(km_karma_label_read(&mem->bdev, &label, msg, sizeof(msg)), ==, 0);
	music = &label.partitions[1];
	win = km_karma_partition_open(&mem->bdev, music, msg, sizeof(msg));
	g_assert_nonnull(win);
	bdev = km_partition_device_blockdev(win);
	g_assert_cmpint(omfs_mkfs(bdev, &opts, msg, sizeof(msg)), ==, 0);
	g_assert_cmpint(omfs_mount(bdev, NULL, &fs, msg, sizeof(msg)), ==, 0);
	g_assert_cmpint(omfs_mkdir(fs, omfs_root_ino(fs), "fids0", 5, &ino), ==, 0);
	g_assert_cmpint(omfs_mkdir(fs, omfs_root_ino(fs), "var", 3, &ino), ==, 0);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);

	/* everything outside the partition is as it was, the label included */
	start = km_karma_partition_offset(music);
	end = start + km_karma_partition_length(music);
	for (i = 0; i < mem->size; i++)
		if (i < start || i >= end)
			g_assert_cmphex(mem->data[i], ==, before[i]);
	/* and the volume mounts again through a fresh window */
	km_partition_device_close(win);
	win = km_karma_partition_open(&mem->bdev, music, msg, sizeof(msg));
	g_assert_cmpint(omfs_mount(km_partition_device_blockdev(win), NULL, &fs, msg, sizeof(msg)),
			==, 0);
	g_assert_cmpint(omfs_resolve(fs, "fids0", &ino), ==, 0);
	g_assert_cmpint(omfs_resolve(fs, "var", &ino), ==, 0);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	km_partition_device_close(win);
	km_mem_device_free(mem);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/karma-label/parse/hand-built", test_parse_hand_built);
	g_test_add_func("/karma-label/parse/unused-entries", test_unused_entries);
	g_test_add_func("/karma-label/parse/bad-labels", test_bad_labels);
	g_test_add_func("/karma-label/build", test_build);
	g_test_add_func("/karma-label/build/refuses", test_build_refuses);
	g_test_add_func("/karma-label/window/memory", test_window_on_memory);
	g_test_add_func("/karma-label/window/partitions", test_read_label_and_partitions);
	g_test_add_func("/karma-label/window/image-file", test_window_on_image_file);
	g_test_add_func("/karma-label/window/omfs-inside-partition", test_omfs_inside_partition);
	return g_test_run();
}
