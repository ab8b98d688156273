/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-direct-read.c - km_image_device's reads around the page cache
 * (km-direct-read.h): the bytes of every request, aligned or not, cold and
 * warm, up to a partial last block, and a read racing a write of the same
 * blocks (large writes to a block device leave no pages in the cache:
 * km-write-through.h); on an image in /var/tmp (a disk file system: direct reads), an
 * image in /dev/shm (a tmpfs) and, with --loop, on loop devices with 512-
 * and 4096-byte sectors (where large writes also flush the device every
 * 8 MiB by themselves) and on an image in a ramfs, a file system that
 * refuses O_DIRECT (root and losetup needed: exits 77 without them).
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/loop.h>
#include <linux/magic.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "km-direct-read.h"
#include "omfs.h"
#include "km-image-device.h"
#include "km-write-through.h"

#define MIB ((size_t)1 << 20)
#define RACE_ROUNDS 40

static gboolean with_loop;
static char *loop_dir;

/* The byte at pos of every test image: varied enough that a misplaced read shows. */
static guint8 pattern(uint64_t pos)
{
	return (guint8)((pos * 2654435761u) >> 13 ^ pos >> 9);
}

static char *make_image(const char *dir, size_t size)
{
	char *path = g_build_filename(dir, "image", NULL);
	g_autofree guint8 *bytes = g_malloc(size);

	for (size_t i = 0; i < size; i++)
		bytes[i] = pattern(i);
	g_assert_true(g_file_set_contents(path, (const char *)bytes, (gssize)size, NULL));
	return path;
}

/* Written back and dropped from the page cache, so the next read is cold. */
static void drop_cache(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(fdatasync(fd), ==, 0);
	g_assert_cmpint(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), ==, 0);
	close(fd);
}

/* Pages of [pos, pos + len) in the page cache, or -1 without cachestat(2). */
static gint64 cached_pages(const char *path, uint64_t pos, uint64_t len)
{
	struct { uint64_t off, len; } range = { pos, len };
	uint64_t cs[5] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	long r;

	g_assert_cmpint(fd, >=, 0);
	r = syscall(451 /* cachestat */, fd, &range, cs, 0);
	close(fd);
	return r == 0 ? (gint64)cs[0] : -1;
}

static void check_read(const struct omfs_blockdev *bdev, uint64_t pos, size_t len, size_t skew)
{
	g_autofree guint8 *mem = g_malloc(len + 64);
	guint8 *buf = mem + skew;

	g_assert_cmpint(bdev->read(bdev->ctx, pos, buf, len), ==, 0);
	for (size_t i = 0; i < len; i++)
		if (buf[i] != pattern(pos + i))
			g_error("byte %" G_GUINT64_FORMAT " (read of %zu at %" G_GUINT64_FORMAT
				", buffer skew %zu): %u, not %u", pos + i, len, pos, skew, buf[i],
				pattern(pos + i));
}

struct request {
	uint64_t pos;	/* from the end when negative */
	gint64 from_end;
	size_t len;
	size_t skew;	/* the buffer this many bytes past an aligned one */
};

/* Reads of every shape: aligned, unaligned offset, length or buffer, small, large, the last bytes. */
static const struct request requests[] = {
	{ 0, 0, MIB, 0 },
	{ 0, 0, 3 * MIB, 0 },
	{ 512, 0, MIB - 512, 0 },
	{ 4095, 0, 300000, 0 },
	{ 8192, 0, KM_DIRECT_MIN, 1 },
	{ 8192, 0, KM_DIRECT_MIN - 1, 0 },
	{ 100, 0, 2 * MIB + 77, 3 },
	{ 0, 70000, 70000, 0 },
	{ 0, KM_DIRECT_MIN + 1000, KM_DIRECT_MIN + 1000, 8 },
	{ 0, 4096, 4096, 0 },
};

static void check_requests(const char *path, uint64_t size, gboolean expect_direct)
{
	char msg[256];
	struct km_image_device *dev = km_image_device_open(path, false, 0, 0, msg, sizeof(msg));
	const struct omfs_blockdev *bdev;

	g_assert_nonnull(dev);
	bdev = km_image_device_blockdev(dev);
	g_assert_cmpuint(bdev->size(bdev->ctx), ==, size);
	for (size_t i = 0; i < G_N_ELEMENTS(requests); i++) {
		const struct request *r = &requests[i];
		uint64_t pos = r->from_end ? size - (uint64_t)r->from_end : r->pos;
		gint64 cached;

		drop_cache(path);
		check_read(bdev, pos, r->len, r->skew);	/* cold */
		cached = cached_pages(path, pos, r->len);
		/* A large cold read goes around the page cache; a small one through it. */
		if (expect_direct && cached >= 0 && r->len >= KM_DIRECT_MIN + 4096)
			g_assert_cmpint(cached, ==, 0);
		check_read(bdev, pos, r->len, r->skew);	/* warm, or cold again */
	}
	g_assert_cmpint(km_image_device_close(dev), ==, 0);
}

/* ---- a read racing a write of the same blocks ---- */

struct race {
	const struct omfs_blockdev *bdev;
	uint64_t pos;
	size_t len;
	gint done;
};

static gpointer race_writer(gpointer data)
{
	struct race *race = data;
	g_autofree guint8 *buf = g_malloc(race->len);

	for (guint k = 1; k <= RACE_ROUNDS; k++) {
		memset(buf, (int)k, race->len);
		g_assert_cmpint(race->bdev->write(race->bdev->ctx, race->pos, buf, race->len), ==, 0);
		if (k % 8 == 0)
			g_assert_cmpint(race->bdev->flush(race->bdev->ctx), ==, 0);
	}
	g_atomic_int_set(&race->done, 1);
	return NULL;
}

/*
 * While the write goes on, a read may see some of its blocks old and some
 * new (as with any read racing a write), but only bytes that were written:
 * nothing from elsewhere on the device, no stale bounce-buffer bytes.
 */
static void check_written(const guint8 *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (buf[i] > RACE_ROUNDS)
			g_error("byte %zu of a read racing a write: %u, never written", i, buf[i]);
}

/*
 * A write racing reads of the same blocks; on a block device (write_through)
 * the large writes also leave nothing in the page cache once flushed.
 */
static void check_race(const char *path, gboolean write_through)
{
	char msg[256];
	struct km_image_device *dev = km_image_device_open(path, true, 0, 0, msg, sizeof(msg));
	struct race race = { .pos = MIB, .len = MIB };
	g_autofree guint8 *buf = g_malloc(MIB);
	GThread *writer;

	g_assert_nonnull(dev);
	race.bdev = km_image_device_blockdev(dev);
	memset(buf, 0, MIB);
	g_assert_cmpint(race.bdev->write(race.bdev->ctx, race.pos, buf, MIB), ==, 0);
	writer = g_thread_new("writer", race_writer, &race);
	while (!g_atomic_int_get(&race.done)) {
		g_assert_cmpint(race.bdev->read(race.bdev->ctx, race.pos, buf, MIB), ==, 0);
		check_written(buf, MIB);
	}
	g_thread_join(writer);
	/* Once the write returned, every read sees it: cached, and cold (direct). */
	g_assert_cmpint(race.bdev->read(race.bdev->ctx, race.pos, buf, MIB), ==, 0);
	for (size_t i = 0; i < MIB; i++)
		g_assert_cmpuint(buf[i], ==, RACE_ROUNDS);
	/*
	 * The racing reads may have brought the blocks into the page cache (a
	 * read of cached pages stays buffered): a large write with no reader
	 * beside it, flushed, leaves none of them there.
	 */
	g_assert_cmpint(race.bdev->write(race.bdev->ctx, race.pos, buf, MIB), ==, 0);
	g_assert_cmpint(race.bdev->flush(race.bdev->ctx), ==, 0);
	if (write_through)
		g_assert_cmpint(cached_pages(path, race.pos, race.len), <=, 0);
	drop_cache(path);
	memset(buf, 0, MIB);
	g_assert_cmpint(race.bdev->read(race.bdev->ctx, race.pos, buf, MIB), ==, 0);
	for (size_t i = 0; i < MIB; i++)
		g_assert_cmpuint(buf[i], ==, RACE_ROUNDS);
	g_assert_cmpint(km_image_device_close(dev), ==, 0);
}

/* ---- images ---- */

/* 4 MiB and 1000 bytes: the last 4096-byte block is partial. */
#define IMAGE_SIZE (4 * MIB + 1000)

static void test_image_in(const char *parent, gboolean expect_direct)
{
	g_autofree char *tmpl = g_build_filename(parent, "km-direct-XXXXXX", NULL);
	g_autofree char *dir = g_mkdtemp(g_steal_pointer(&tmpl));
	g_autofree char *path = NULL;

	g_assert_nonnull(dir);
	path = make_image(dir, IMAGE_SIZE);
	check_requests(path, IMAGE_SIZE, expect_direct);
	check_race(path, FALSE);
	g_unlink(path);
	g_rmdir(dir);
}

/* Whether dir is on a tmpfs, whose pages the page cache always holds. */
static gboolean on_tmpfs(const char *dir)
{
	struct statfs sfs;

	return statfs(dir, &sfs) == 0 && sfs.f_type == TMPFS_MAGIC;
}

/* /var/tmp: on a disk file system on most systems, where cold reads go around the cache. */
static void test_disk_image(void)
{
	const char *dir = g_file_test("/var/tmp", G_FILE_TEST_IS_DIR) ? "/var/tmp" : g_get_tmp_dir();

	test_image_in(dir, !on_tmpfs(dir));
}

static void test_tmpfs_image(void)
{
	if (!g_file_test("/dev/shm", G_FILE_TEST_IS_DIR)) {
		g_test_skip("no /dev/shm");
		return;
	}
	/* A tmpfs keeps every page in the page cache: reads come from it, whatever it allows. */
	test_image_in("/dev/shm", FALSE);
}

/* ---- loop devices ---- */

static char *losetup(const char *image, guint sector_size)
{
	g_autofree char *sectors = g_strdup_printf("%u", sector_size);
	const char *argv[] = { "losetup", "-f", "--show", "--sector-size", sectors, image, NULL };
	g_autofree char *out = NULL;
	int status;

	if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL,
			  &status, NULL) || !g_spawn_check_wait_status(status, NULL))
		return NULL;
	return g_strstrip(g_steal_pointer(&out));
}

static void detach(const char *loop)
{
	const char *argv[] = { "losetup", "-d", loop, NULL };

	g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
				   NULL, NULL, NULL, NULL));
}

/*
 * An open descriptor of loop, which detaches when it is closed, also when a
 * failed assertion ends the test (LO_FLAGS_AUTOCLEAR).
 */
static int hold_until_closed(const char *loop)
{
	struct loop_info64 info;
	int fd = open(loop, O_RDONLY | O_CLOEXEC);

	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(ioctl(fd, LOOP_GET_STATUS64, &info), ==, 0);
	info.lo_flags |= LO_FLAGS_AUTOCLEAR;
	g_assert_cmpint(ioctl(fd, LOOP_SET_STATUS64, &info), ==, 0);
	return fd;
}

static void test_loop(gconstpointer data)
{
	guint sector_size = GPOINTER_TO_UINT(data);
	g_autofree char *path = make_image(loop_dir, 4 * MIB);
	g_autofree char *loop = losetup(path, sector_size);
	int hold;

	g_assert_nonnull(loop);
	hold = hold_until_closed(loop);
	g_unlink(path);	/* the loop device keeps it open */
	check_requests(loop, 4 * MIB, TRUE);
	check_race(loop, TRUE);
	close(hold);
}

/* Flush requests the block device at node has completed (field 16 of its stat, Linux 5.5). */
static guint64 device_flushes(const char *node)
{
	g_autofree char *name = g_path_get_basename(node);
	g_autofree char *path = g_strdup_printf("/sys/block/%s/stat", name);
	g_autofree char *text = NULL;
	g_auto(GStrv) fields = NULL;
	guint n = 0;

	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	fields = g_strsplit_set(g_strstrip(text), " ", -1);
	for (guint i = 0; fields[i]; i++)
		if (*fields[i] && ++n == 16)
			return g_ascii_strtoull(fields[i], NULL, 10);
	g_test_skip("the kernel counts no flushes in /sys/block/NAME/stat");
	return G_MAXUINT64;
}

/*
 * Large writes to a block device flush it every KM_WRITE_THROUGH_FLUSH_EVERY
 * bytes by themselves (the device's write cache never holds more than that
 * of a copy), and land whole.
 */
static void test_loop_flushes(void)
{
	const size_t size = 3 * KM_WRITE_THROUGH_FLUSH_EVERY + MIB;
	g_autofree char *path = make_image(loop_dir, size);
	g_autofree char *loop = losetup(path, 512);
	g_autofree guint8 *buf = g_malloc(MIB);
	struct km_image_device *dev;
	const struct omfs_blockdev *bdev;
	char msg[256];
	guint64 before;
	int hold;

	g_assert_nonnull(loop);
	hold = hold_until_closed(loop);
	g_unlink(path);
	dev = km_image_device_open(loop, true, 0, 0, msg, sizeof(msg));
	g_assert_nonnull(dev);
	bdev = km_image_device_blockdev(dev);
	before = device_flushes(loop);
	if (before == G_MAXUINT64)
		goto out;
	for (size_t pos = 0; pos < size; pos += MIB) {
		memset(buf, (int)(pos / MIB + 1), MIB);
		g_assert_cmpint(bdev->write(bdev->ctx, pos, buf, MIB), ==, 0);
	}
	/* 25 MiB in 1 MiB writes, no flush asked for: one every 8 MiB */
	g_assert_cmpuint(device_flushes(loop) - before, ==, size / KM_WRITE_THROUGH_FLUSH_EVERY);
	g_assert_cmpint(bdev->flush(bdev->ctx), ==, 0);
	drop_cache(loop);
	for (size_t pos = 0; pos < size; pos += MIB) {
		g_assert_cmpint(bdev->read(bdev->ctx, pos, buf, MIB), ==, 0);
		for (size_t i = 0; i < MIB; i++)
			g_assert_cmpuint(buf[i], ==, (guint8)(pos / MIB + 1));
	}
out:
	g_assert_cmpint(km_image_device_close(dev), ==, 0);
	close(hold);
}

/* ---- a file system that refuses O_DIRECT ---- */

/*
 * ramfs, mounted in a mount namespace of this process's own (so nothing
 * stays mounted when an assertion ends the test): FALSE when that fails.
 */
static gboolean mount_ramfs(const char *dir)
{
	return unshare(CLONE_NEWNS) == 0 &&
	       mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
	       mount("km-direct-read", dir, "ramfs", 0, NULL) == 0;
}

/*
 * An image on a ramfs, which has no direct I/O: opening it O_DIRECT fails
 * (EINVAL). The direct reader gives up when it opens the file, so even a
 * large request that it would read directly goes through the page cache,
 * and every read, racing a write or not, gives the image's bytes.
 */
static void test_refused(void)
{
	g_autofree char *mnt = g_build_filename(loop_dir, "ramfs", NULL);
	g_autofree char *path = NULL;
	g_autofree guint8 *buf = g_malloc(2 * MIB);
	struct km_direct_read dr;
	int fd;

	g_assert_cmpint(g_mkdir(mnt, 0700), ==, 0);
	if (!mount_ramfs(mnt)) {
		g_autofree char *why = g_strdup_printf("cannot mount a ramfs: %s", g_strerror(errno));

		g_test_skip(why);
		g_rmdir(mnt);
		return;
	}
	path = make_image(mnt, IMAGE_SIZE);
	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		g_test_skip("this kernel's ramfs accepts O_DIRECT: nothing here refuses it");
	} else {
		g_assert_cmpint(errno, ==, EINVAL);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		g_assert_cmpint(fd, >=, 0);
		km_direct_read_init(&dr, fd);
		g_assert_cmpint(dr.fd, ==, -1);
		/* Nothing counts as cached: a reader that could read directly would. */
		dr.no_cachestat = true;
		g_assert_cmpint(km_direct_read(&dr, fd, 0, buf, 2 * MIB), ==, KM_DIRECT_BUFFERED);
		km_direct_read_fini(&dr);
		close(fd);
		check_requests(path, IMAGE_SIZE, FALSE);
		check_race(path, FALSE);
	}
	g_unlink(path);
	g_assert_cmpint(umount(mnt), ==, 0);
	g_rmdir(mnt);
}

/* Root and a loop device to be had, or exit 77 (skipped). */
static void require_loop(void)
{
	g_autofree char *tmpl = g_build_filename("/var/tmp", "km-direct-XXXXXX", NULL);
	g_autofree char *probe = NULL;
	g_autofree char *loop = NULL;

	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root for loop devices\n");
		exit(77);
	}
	loop_dir = g_mkdtemp(g_steal_pointer(&tmpl));
	probe = make_image(loop_dir, MIB);
	loop = losetup(probe, 512);
	g_unlink(probe);
	if (!loop) {
		printf("1..0 # SKIP losetup cannot attach a loop device here\n");
		g_rmdir(loop_dir);
		exit(77);
	}
	detach(loop);
}

int main(int argc, char **argv)
{
	int status;

	with_loop = argc > 1 && strcmp(argv[1], "--loop") == 0;
	if (with_loop) {
		argv[1] = argv[0];
		argc--;
		argv++;
		require_loop();
	}
	g_test_init(&argc, &argv, NULL);
	if (with_loop) {
		g_test_add_data_func("/direct-read/loop-512", GUINT_TO_POINTER(512), test_loop);
		g_test_add_data_func("/direct-read/loop-4096", GUINT_TO_POINTER(4096), test_loop);
		g_test_add_func("/direct-read/loop-flushes", test_loop_flushes);
		g_test_add_func("/direct-read/refused", test_refused);
	} else {
		g_test_add_func("/direct-read/disk-image", test_disk_image);
		g_test_add_func("/direct-read/tmpfs-image", test_tmpfs_image);
	}
	status = g_test_run();
	if (loop_dir)
		g_rmdir(loop_dir);
	return status;
}
