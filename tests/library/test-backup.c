/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-backup.c - km-backup.h on real Karma disk images made by the demo
 * code: sparse backups, restore round trips, a damaged backup refused, an
 * interrupted backup resumed, an interrupted restore never taken for good.
 *
 * "Identical" is checked independently of the backup code: through the OMFS
 * core's own bitmap walk on the original, file by file through the library,
 * and with fsck and verify.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "km-backup.h"
#include "km-demo.h"
#include "km-image-device.h"
#include "km-karma-image.h"
#include "km-karma-label.h"
#include "library-test-util.h"

#define DISK_SIZE ((guint64)64 << 20)

static char *tmp_path(const char *name)
{
	return g_build_filename(tu_tmpdir(), name, NULL);
}

static char *make_demo_disk(const char *name, guint tracks)
{
	char *path = tmp_path(name);
	GError *error = NULL;

	g_unlink(path);
	g_assert_true(km_demo_create_image(path, DISK_SIZE, tracks, NULL, &error));
	g_assert_no_error(error);
	return path;
}

static void remove_backup(const char *path)
{
	const char *suffixes[] = { "", ".sha256", ".info", ".partial" };

	for (guint i = 0; i < G_N_ELEMENTS(suffixes); i++) {
		char *p = g_strconcat(path, suffixes[i], NULL);

		g_unlink(p);
		g_free(p);
	}
}

static struct km_image_device *open_image(const char *path, gboolean writable)
{
	char msg[OMFS_ERRMSG_MAX] = "";
	struct km_image_device *dev = km_image_device_open(path, writable, 0, 0, msg, sizeof(msg));

	g_assert_nonnull(dev);
	return dev;
}

static gboolean backup(const char *disk, const char *to, const KmBackupOptions *o,
		       KmBackupResult *res, GError **error)
{
	struct km_image_device *dev = open_image(disk, FALSE);
	gboolean ok = km_backup_create(km_image_device_blockdev(dev), to, o, res, error);

	km_image_device_close(dev);
	return ok;
}

static gboolean restore(const char *from, const char *disk, const KmBackupOptions *o,
			KmRestoreResult *res, GError **error)
{
	struct km_image_device *dev = open_image(disk, TRUE);
	gboolean ok = km_backup_restore(from, km_image_device_blockdev(dev), FALSE, o, res, error);

	g_assert_cmpint(km_image_device_close(dev), ==, 0);
	return ok;
}

static GBytes *read_range(const char *path, guint64 off, gsize len)
{
	struct km_image_device *dev = open_image(path, FALSE);
	const struct omfs_blockdev *bd = km_image_device_blockdev(dev);
	guint8 *buf = g_malloc(len);

	g_assert_cmpint(bd->read(bd->ctx, off, buf, len), ==, 0);
	km_image_device_close(dev);
	return g_bytes_new_take(buf, len);
}

/* Every block the music partition's bitmap marks used is the same in both. */
static void assert_used_blocks_equal(const char *a, const char *b)
{
	struct km_image_device *dev = open_image(a, FALSE);
	struct omfs_mount_opts opts = { .read_only = true };
	char msg[OMFS_ERRMSG_MAX] = "";
	struct omfs_fs *fs;
	struct omfs_statfs sfs;
	guint64 start, count, block = 0, compared = 0;
	struct km_partition_device *win;

	win = km_partition_device_open(km_image_device_blockdev(dev), KM_KARMA_IMAGE_MUSIC_OFFSET, 0,
				       msg, sizeof(msg));
	g_assert_nonnull(win);
	g_assert_cmpint(omfs_mount(km_partition_device_blockdev(win), &opts, &fs, msg, sizeof(msg)),
			==, 0);
	omfs_statfs(fs, &sfs);
	while (omfs_next_used_run(fs, block, &start, &count)) {
		guint64 off = KM_KARMA_IMAGE_MUSIC_OFFSET + start * sfs.blocksize;
		GBytes *x = read_range(a, off, count * sfs.blocksize);
		GBytes *y = read_range(b, off, count * sfs.blocksize);

		g_assert_true(g_bytes_equal(x, y));
		g_bytes_unref(x);
		g_bytes_unref(y);
		compared += count;
		block = start + count;
	}
	g_assert_cmpuint(compared, >, 0);
	omfs_unmount(fs);
	km_partition_device_close(win);
	km_image_device_close(dev);
	/* and the label with the system partition's start */
	GBytes *x = read_range(a, 0, 64 * 1024), *y = read_range(b, 0, 64 * 1024);
	g_assert_true(g_bytes_equal(x, y));
	g_bytes_unref(x);
	g_bytes_unref(y);
}

/* The library on path opens, verifies clean, and holds n tracks whose data reads. */
static void assert_library(const char *path, guint n)
{
	struct km_image_device *dev = open_image(path, FALSE);
	GError *error = NULL;
	KmLibrary *lib = km_library_open(km_image_device_blockdev(dev), NULL, &error);

	g_assert_no_error(error);
	g_assert_cmpuint(km_library_get_n_objects(lib), ==, n);
	tu_assert_verifies_clean(lib);
	km_library_close(lib, NULL);
	g_object_unref(lib);
	km_image_device_close(dev);
}

static char *file_sha256(const char *path)
{
	char *data;
	gsize len;
	char *sum;

	g_assert_true(g_file_get_contents(path, &data, &len, NULL));
	sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guint8 *)data, len);
	g_free(data);
	return sum;
}

static void test_round_trip(void)
{
	char *disk = make_demo_disk("rt-disk.img", 12), *copy = tmp_path("rt-copy.img");
	char *bk = tmp_path("rt-backup.img"), *side = g_strconcat(bk, ".sha256", NULL);
	char *content, *sum;
	KmBackupResult res;
	KmRestoreResult rres;
	GError *error = NULL;
	struct stat st;

	remove_backup(bk);
	g_assert_true(backup(disk, bk, NULL, &res, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(res.disk_size, ==, DISK_SIZE);
	/* the disk is mostly free: a fraction of it was read, the file is sparse */
	g_assert_cmpuint(res.copied, <, DISK_SIZE / 8);
	g_assert_cmpint(stat(bk, &st), ==, 0);
	g_assert_cmpuint((guint64)st.st_size, ==, DISK_SIZE);
	g_assert_cmpuint((guint64)st.st_blocks * 512, <, DISK_SIZE / 4);
	/* the checksum file is sha256sum's line for the image's content */
	sum = file_sha256(bk);
	g_assert_cmpstr(sum, ==, res.sha256);
	g_assert_true(g_file_get_contents(side, &content, NULL, NULL));
	g_assert_true(g_str_has_prefix(content, sum));
	g_assert_true(g_str_has_suffix(content, "  rt-backup.img\n"));
	km_backup_result_clear(&res);
	assert_used_blocks_equal(disk, bk);

	/* onto a blank disk of the same size: everything written */
	g_unlink(copy);
	g_assert_true(km_karma_image_create(copy, DISK_SIZE, 1, &error));
	g_assert_true(restore(bk, copy, NULL, &rres, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(rres.written, >, 0);
	assert_used_blocks_equal(disk, copy);
	assert_library(copy, 12);
	/* again: nothing differs, nothing is written */
	g_assert_true(restore(bk, copy, NULL, &rres, &error));
	g_assert_cmpuint(rres.written, ==, 0);
	g_assert_cmpuint(rres.checked, >=, res.copied);
	g_free(content);
	g_free(sum);
	g_free(side);
	g_free(bk);
	g_free(copy);
	g_free(disk);
}

/* The bytes of path's pages in the page cache (mincore(2) on a mapping of it). */
static guint64 cached_bytes(const char *path)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	guint64 cached = 0;
	void *map;
	guchar *resident;
	gsize pages;

	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(fstat(fd, &st), ==, 0);
	pages = ((gsize)st.st_size + (gsize)page - 1) / (gsize)page;
	map = mmap(NULL, (gsize)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	g_assert_true(map != MAP_FAILED);
	resident = g_malloc(pages);
	g_assert_cmpint(mincore(map, (gsize)st.st_size, resident), ==, 0);
	for (gsize i = 0; i < pages; i++)
		cached += (resident[i] & 1) ? (guint64)page : 0;
	g_free(resident);
	munmap(map, (gsize)st.st_size);
	close(fd);
	return cached;
}

/*
 * A backup image is written and read without staying in the page cache
 * (km-write-through.h): a 30 GB backup must not push every other file out
 * of memory. A tmpfs keeps every page in memory by design: nothing to see.
 */
static gboolean in_memory(const char *dir)
{
	struct statfs fs;

	g_assert_cmpint(statfs(dir, &fs), ==, 0);
	return fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC;
}

static void test_backup_leaves_page_cache(void)
{
	/* Debian 13's /tmp is a tmpfs; its /var/tmp is on the disk */
	g_autofree char *dir = in_memory(tu_tmpdir()) ?
			       g_mkdtemp(g_strdup("/var/tmp/km-backup-cache-XXXXXX")) :
			       g_strdup(tu_tmpdir());
	g_autofree char *disk = NULL, *bk = NULL, *copy = NULL;
	KmBackupResult res;
	KmRestoreResult rres;
	GError *error = NULL;

	if (!dir || in_memory(dir)) {
		g_test_skip("no folder on a disk (/tmp and /var/tmp are in memory)");
		return;
	}
	disk = g_build_filename(dir, "cache-disk.img", NULL);
	bk = g_build_filename(dir, "cache-backup.img", NULL);
	copy = g_build_filename(dir, "cache-copy.img", NULL);
	g_assert_true(km_demo_create_image(disk, DISK_SIZE, 80, NULL, &error));
	g_assert_no_error(error);
	remove_backup(bk);
	g_assert_true(backup(disk, bk, NULL, &res, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(res.copied, >=, (guint64)4 << 20);
	g_test_message("backup: %" G_GUINT64_FORMAT " bytes copied, %" G_GUINT64_FORMAT
		       " of the image's in the page cache", res.copied, cached_bytes(bk));
	/* at most the runs too short to go through (under 64 KiB each), well under half */
	g_assert_cmpuint(cached_bytes(bk), <, res.copied / 4);
	g_unlink(copy);
	g_assert_true(km_karma_image_create(copy, DISK_SIZE, 1, &error));
	g_assert_true(restore(bk, copy, NULL, &rres, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(rres.written, >, 0);
	g_test_message("restore: %" G_GUINT64_FORMAT " of the image's bytes in the page cache",
		       cached_bytes(bk));
	g_assert_cmpuint(cached_bytes(bk), <, res.copied / 4);
	assert_library(copy, 80);
	km_backup_result_clear(&res);
	remove_backup(bk);
	g_unlink(copy);
	g_unlink(disk);
	if (strcmp(dir, tu_tmpdir()) != 0)
		g_assert_cmpint(g_rmdir(dir), ==, 0);
}

/* A disk changed after the backup (more tracks) comes back as it was. */
static void test_restore_undoes_changes(void)
{
	char *disk = make_demo_disk("undo-disk.img", 5), *bk = tmp_path("undo-backup.img");
	char *later = make_demo_disk("undo-later.img", 9);
	KmBackupResult res;
	KmRestoreResult rres;
	GError *error = NULL;

	remove_backup(bk);
	g_assert_true(backup(disk, bk, NULL, &res, &error));
	km_backup_result_clear(&res);
	assert_library(later, 9);
	g_assert_true(restore(bk, later, NULL, &rres, &error));
	g_assert_no_error(error);
	assert_library(later, 5);
	assert_used_blocks_equal(disk, later);
	g_free(later);
	g_free(bk);
	g_free(disk);
}

static void test_damaged_backup_refused(void)
{
	char *disk = make_demo_disk("bad-disk.img", 4), *bk = tmp_path("bad-backup.img");
	char *target = make_demo_disk("bad-target.img", 7), *before, *after;
	struct km_image_device *dev;
	const struct omfs_blockdev *bd;
	KmBackupResult res;
	KmRestoreResult rres;
	GError *error = NULL;
	guint8 byte;

	remove_backup(bk);
	g_assert_true(backup(disk, bk, NULL, &res, &error));
	km_backup_result_clear(&res);
	/* one byte of track data changes in the backup */
	dev = open_image(bk, TRUE);
	bd = km_image_device_blockdev(dev);
	g_assert_cmpint(bd->read(bd->ctx, KM_KARMA_IMAGE_MUSIC_OFFSET + 200 * 1024, &byte, 1), ==, 0);
	byte ^= 0x40;
	g_assert_cmpint(bd->write(bd->ctx, KM_KARMA_IMAGE_MUSIC_OFFSET + 200 * 1024, &byte, 1), ==, 0);
	km_image_device_close(dev);

	before = file_sha256(target);
	g_assert_false(restore(bk, target, NULL, &rres, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_CORRUPT);
	g_assert_nonnull(strstr(error->message, "damaged"));
	g_clear_error(&error);
	after = file_sha256(target);
	g_assert_cmpstr(before, ==, after);	/* not a byte written */
	g_assert_false(km_backup_check(bk, NULL, (char[65]){ 0 }, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_CORRUPT);
	g_clear_error(&error);
	g_free(before);
	g_free(after);
	g_free(target);
	g_free(bk);
	g_free(disk);
}

static void test_other_size_refused(void)
{
	char *disk = make_demo_disk("size-disk.img", 2), *bk = tmp_path("size-backup.img");
	char *target = tmp_path("size-target.img");
	KmBackupResult res;
	KmRestoreResult rres;
	GError *error = NULL;

	remove_backup(bk);
	g_assert_true(backup(disk, bk, NULL, &res, &error));
	km_backup_result_clear(&res);
	g_assert_true(km_karma_image_create(target, DISK_SIZE * 2, 1, &error));
	g_assert_false(restore(bk, target, NULL, &rres, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID);
	g_assert_nonnull(strstr(error->message, "force"));
	g_clear_error(&error);
	g_free(target);
	g_free(bk);
	g_free(disk);
}

typedef struct {
	GCancellable *cancellable;
	KmPhase phase;
	guint calls;
} Canceller;

/* Cancels at the first progress of the phase that is not its end. */
static void cancel_midway(const KmLibraryProgress *p, gpointer data)
{
	Canceller *c = data;

	if (p->phase == c->phase && p->done < p->total && c->calls++ == 0)
		g_cancellable_cancel(c->cancellable);
}

static void test_interrupted_backup_resumes(void)
{
	char *disk = make_demo_disk("resume-disk.img", 40);
	char *whole = tmp_path("resume-whole.img"), *bk = tmp_path("resume-backup.img");
	char *partial = g_strconcat(bk, ".partial", NULL);
	Canceller c = { g_cancellable_new(), KM_PHASE_READING, 0 };
	KmBackupOptions o = { .progress = cancel_midway, .progress_data = &c,
			      .cancellable = c.cancellable };
	KmBackupResult ref, res;
	GError *error = NULL;

	remove_backup(whole);
	remove_backup(bk);
	g_assert_true(backup(disk, whole, NULL, &ref, &error));
	g_assert_false(backup(disk, bk, &o, &res, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
	g_clear_error(&error);
	km_backup_result_clear(&res);
	g_assert_true(g_file_test(partial, G_FILE_TEST_EXISTS));
	/* a half-made backup is no backup */
	g_assert_false(km_backup_check(bk, NULL, (char[65]){ 0 }, &error));
	g_clear_error(&error);

	g_assert_true(backup(disk, bk, NULL, &res, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(res.resumed_from, >, 0);
	g_assert_cmpuint(res.copied, <, ref.copied);
	g_assert_cmpstr(res.sha256, ==, ref.sha256);
	g_assert_false(g_file_test(partial, G_FILE_TEST_EXISTS));
	km_backup_result_clear(&res);
	km_backup_result_clear(&ref);
	g_object_unref(c.cancellable);
	g_free(partial);
	g_free(bk);
	g_free(whole);
	g_free(disk);
}

static void test_changed_disk_starts_over(void)
{
	char *disk = make_demo_disk("change-disk.img", 40), *bk = tmp_path("change-backup.img");
	char *ref_path = tmp_path("change-ref.img");
	Canceller c = { g_cancellable_new(), KM_PHASE_READING, 0 };
	KmBackupOptions o = { .progress = cancel_midway, .progress_data = &c,
			      .cancellable = c.cancellable };
	KmBackupResult res, ref;
	GError *error = NULL;

	remove_backup(bk);
	remove_backup(ref_path);
	g_assert_false(backup(disk, bk, &o, &res, &error));
	g_clear_error(&error);
	km_backup_result_clear(&res);
	g_free(disk);
	disk = make_demo_disk("change-disk.img", 41);	/* another disk under the same name */
	g_assert_true(backup(disk, bk, NULL, &res, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(res.resumed_from, ==, 0);
	g_assert_cmpuint(res.notes->len, ==, 1);
	g_assert_true(backup(disk, ref_path, NULL, &ref, &error));
	g_assert_cmpstr(res.sha256, ==, ref.sha256);
	km_backup_result_clear(&res);
	km_backup_result_clear(&ref);
	g_object_unref(c.cancellable);
	g_free(ref_path);
	g_free(bk);
	g_free(disk);
}

static void test_interrupted_restore_marked(void)
{
	char *disk = make_demo_disk("mark-disk.img", 30), *bk = tmp_path("mark-backup.img");
	char *target = make_demo_disk("mark-target.img", 3);
	Canceller c = { g_cancellable_new(), KM_PHASE_WRITING, 0 };
	KmBackupOptions o = { .progress = cancel_midway, .progress_data = &c,
			      .cancellable = c.cancellable };
	struct km_image_device *dev;
	KmBackupResult res;
	KmRestoreResult rres;
	GError *error = NULL;
	KmLibrary *lib;

	remove_backup(bk);
	g_assert_true(backup(disk, bk, NULL, &res, &error));
	km_backup_result_clear(&res);
	g_assert_false(restore(bk, target, &o, &rres, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
	g_clear_error(&error);

	/* the target is not taken for a good disk */
	dev = open_image(target, FALSE);
	lib = km_library_open(km_image_device_blockdev(dev), NULL, &error);
	g_assert_null(lib);
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_BAD_LABEL);
	g_assert_nonnull(strstr(error->message, "restore"));
	g_clear_error(&error);
	km_image_device_close(dev);

	/* finishing the restore makes it good */
	g_assert_true(restore(bk, target, NULL, &rres, &error));
	g_assert_no_error(error);
	assert_library(target, 30);
	assert_used_blocks_equal(disk, target);
	g_object_unref(c.cancellable);
	g_free(target);
	g_free(bk);
	g_free(disk);
}

/* A music partition whose superblock is broken is copied whole, with a note. */
static void test_unmountable_volume_copied_whole(void)
{
	char *disk = make_demo_disk("broken-disk.img", 3), *bk = tmp_path("broken-backup.img");
	struct km_image_device *dev = open_image(disk, TRUE);
	const struct omfs_blockdev *bd = km_image_device_blockdev(dev);
	guint8 junk[32];
	KmBackupResult res;
	GError *error = NULL;

	memset(junk, 0xA5, sizeof(junk));
	/* the superblock's root block, block count and magic (bytes 256 to 287) */
	g_assert_cmpint(bd->write(bd->ctx, KM_KARMA_IMAGE_MUSIC_OFFSET + 256, junk, sizeof(junk)),
			==, 0);
	km_image_device_close(dev);
	remove_backup(bk);
	g_assert_true(backup(disk, bk, NULL, &res, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(res.notes->len, ==, 1);
	g_assert_nonnull(strstr(res.notes->pdata[0], "partition 2"));
	g_assert_cmpuint(res.copied, >=, DISK_SIZE - KM_KARMA_IMAGE_MUSIC_OFFSET);
	km_backup_result_clear(&res);
	g_free(bk);
	g_free(disk);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/backup/round-trip", test_round_trip);
	g_test_add_func("/backup/restore-undoes-changes", test_restore_undoes_changes);
	g_test_add_func("/backup/leaves-page-cache", test_backup_leaves_page_cache);
	g_test_add_func("/backup/damaged-backup-refused", test_damaged_backup_refused);
	g_test_add_func("/backup/other-size-refused", test_other_size_refused);
	g_test_add_func("/backup/interrupted-backup-resumes", test_interrupted_backup_resumes);
	g_test_add_func("/backup/changed-disk-starts-over", test_changed_disk_starts_over);
	g_test_add_func("/backup/interrupted-restore-marked", test_interrupted_restore_marked);
	g_test_add_func("/backup/unmountable-volume-copied-whole",
			test_unmountable_volume_copied_whole);
	return g_test_run();
}
