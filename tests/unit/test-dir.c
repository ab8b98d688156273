/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-dir.c - directories: the name hash, lookup with exact names, readdir
 * positions, create/unlink/rmdir/rename, persistence across a remount,
 * corrupt chains, and rename's write ordering under a power cut.
 *
 * Built by meson (tests/meson.build); by hand, from the top of the tree:
 *   gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter \
 *       -Wno-sign-compare -Isrc/omfs -Isrc/device tests/unit/test-dir.c \
 *       $(find src/omfs -name "*.c") src/device/km-mem-device.c \
 *       $(pkg-config --cflags --libs glib-2.0) -o /tmp/test-dir && /tmp/test-dir
 */
#include "omfs-private.h"
#include "km-mem-device.h"

#include <glib.h>
#include <stdio.h>

#define DEV_SIZE (32u << 20)
#define NBUCKETS 201	/* 2048-byte sysblocks, the mkfs default */

struct fixture {
	struct km_mem_device *dev;
	struct omfs_fs *fs;
	uint64_t root;
	uint64_t now;	/* the volume's clock, in ms */
	size_t cache_blocks;	/* 0 = the default */
	bool leaves_damage;	/* the test corrupts the volume on purpose */
};

static uint64_t fixture_clock(void *ctx)
{
	return ((struct fixture *)ctx)->now;
}

static void fixture_mount(struct fixture *f, bool read_only)
{
	struct omfs_mount_opts o = {
		.read_only = read_only, .clock_ms = fixture_clock, .clock_ctx = f,
		.cache_blocks = f->cache_blocks,
	};
	char msg[OMFS_ERRMSG_MAX] = "";

	if (omfs_mount(&f->dev->bdev, &o, &f->fs, msg, sizeof(msg)))
		g_error("mount failed: %s", msg);
	f->root = omfs_root_ino(f->fs);
}

static void fixture_setup(struct fixture *f, gconstpointer data)
{
	struct omfs_mkfs_opts o = { .time_ms = 1000 };
	char msg[OMFS_ERRMSG_MAX] = "";

	f->now = 5000;
	f->cache_blocks = GPOINTER_TO_SIZE(data);
	f->dev = km_mem_device_new(DEV_SIZE, NULL);
	g_assert_nonnull(f->dev);
	if (omfs_mkfs(&f->dev->bdev, &o, msg, sizeof(msg)))
		g_error("mkfs failed: %s", msg);
	fixture_mount(f, false);
	g_assert_cmpuint(omfs_nbuckets(f->fs), ==, NBUCKETS);
}

static void fsck_report(void *ctx, enum omfs_fsck_severity sev, const char *msg)
{
	g_test_message("fsck: %s", msg);
}

/* Whatever a test did through the API, fsck finds the volume clean. */
static void fixture_teardown(struct fixture *f, gconstpointer data)
{
	struct omfs_fsck_opts o = { .report = fsck_report };
	struct omfs_fsck_result r;

	if (f->fs)
		g_assert_cmpint(omfs_unmount(f->fs), ==, 0);
	if (!f->leaves_damage) {
		g_assert_cmpint(omfs_fsck(&f->dev->bdev, &o, &r), ==, OMFS_FSCK_CLEAN);
		g_assert_cmpuint(r.errors, ==, 0);
	}
	km_mem_device_free(f->dev);
}

static void remount(struct fixture *f, bool read_only)
{
	g_assert_cmpint(omfs_unmount(f->fs), ==, 0);
	f->fs = NULL;
	fixture_mount(f, read_only);
}

/* ---- helpers: every call states the errno it expects ---- */

static void check_ret(struct fixture *f, int ret, int want, const char *what)
{
	if (ret != want)
		g_test_message("%s returned %d, want %d: %s", what, ret, want, omfs_errmsg(f->fs));
	g_assert_cmpint(ret, ==, want);
}

static uint64_t do_create(struct fixture *f, uint64_t dir, const char *name, bool is_dir)
{
	uint64_t ino = OMFS_NIL;
	int ret = is_dir ? omfs_mkdir(f->fs, dir, name, strlen(name), &ino)
			 : omfs_create(f->fs, dir, name, strlen(name), &ino);

	check_ret(f, ret, 0, name);
	g_assert_cmpuint(ino, !=, OMFS_NIL);
	return ino;
}

static int try_create(struct fixture *f, uint64_t dir, const char *name, size_t len)
{
	uint64_t ino;

	return omfs_create(f->fs, dir, name, len, &ino);
}

static int lookup(struct fixture *f, uint64_t dir, const char *name, uint64_t *ino)
{
	return omfs_lookup(f->fs, dir, name, strlen(name), ino);
}

static void assert_found(struct fixture *f, uint64_t dir, const char *name, uint64_t want)
{
	uint64_t ino = OMFS_NIL;

	check_ret(f, lookup(f, dir, name, &ino), 0, name);
	g_assert_cmpuint(ino, ==, want);
}

static void assert_missing(struct fixture *f, uint64_t dir, const char *name)
{
	uint64_t ino;

	check_ret(f, lookup(f, dir, name, &ino), -ENOENT, name);
}

static int do_unlink(struct fixture *f, uint64_t dir, const char *name)
{
	return omfs_unlink(f->fs, dir, name, strlen(name));
}

static int do_rmdir(struct fixture *f, uint64_t dir, const char *name)
{
	return omfs_rmdir(f->fs, dir, name, strlen(name));
}

static int do_rename(struct fixture *f, uint64_t od, const char *on, uint64_t nd, const char *nn)
{
	return omfs_rename(f->fs, od, on, strlen(on), nd, nn, strlen(nn));
}

static uint64_t free_blocks(struct fixture *f)
{
	struct omfs_statfs s;

	check_ret(f, omfs_sync(f->fs), 0, "sync");
	g_assert_cmpint(omfs_statfs(f->fs, &s), ==, 0);
	return s.free_blocks;
}

static struct omfs_stat do_stat(struct fixture *f, uint64_t ino)
{
	struct omfs_stat st;

	check_ret(f, omfs_stat(f->fs, ino, &st), 0, "stat");
	return st;
}

/* A name "<prefix><n>" that lands in `bucket`, the skip-th such one. */
static void name_in_bucket(char *buf, size_t size, const char *prefix, uint32_t bucket, int skip)
{
	for (unsigned n = 0;; n++) {
		snprintf(buf, size, "%s%u", prefix, n);
		if (omfs_name_hash(buf, strlen(buf), NBUCKETS) == bucket && skip-- == 0)
			return;
	}
}

/* One readdir result with the position it was read from. */
struct listed {
	struct omfs_dirent ent;
	uint64_t pos_before;
	uint64_t pos_after;
};

/* The whole directory; every name appears exactly once. */
static GArray *list_dir(struct fixture *f, uint64_t dir)
{
	GArray *all = g_array_new(FALSE, TRUE, sizeof(struct listed));
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	uint64_t pos = 0;

	for (;;) {
		struct listed l = { .pos_before = pos };
		int ret = omfs_readdir(f->fs, dir, &pos, &l.ent);

		if (ret < 0)
			check_ret(f, ret, 1, "readdir");
		g_assert_cmpint(ret, >=, 0);
		if (ret == 0)
			break;
		g_assert_cmpuint(l.ent.namelen, ==, strlen(l.ent.name));
		g_assert_false(g_hash_table_contains(seen, l.ent.name));
		g_hash_table_add(seen, g_strdup(l.ent.name));
		l.pos_after = pos;
		g_array_append_val(all, l);
		g_assert_cmpuint(all->len, <=, 100000);
	}
	g_hash_table_unref(seen);
	return all;
}

/* The names of one bucket, head first, as readdir shows them. */
static char *bucket_names(struct fixture *f, uint64_t dir, uint32_t bucket)
{
	GArray *all = list_dir(f, dir);
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < all->len; i++) {
		struct listed *l = &g_array_index(all, struct listed, i);

		if ((l->pos_after >> 20) - 1 == bucket)
			g_string_append_printf(s, "%s%s", s->len ? " " : "", l->ent.name);
	}
	g_array_unref(all);
	return g_string_free(s, FALSE);
}

static void assert_bucket(struct fixture *f, uint64_t dir, uint32_t bucket, const char *want)
{
	char *got = bucket_names(f, dir, bucket);

	g_assert_cmpstr(got, ==, want);
	g_free(got);
}

/* ---- the hash ---- */

static void test_hash_vectors(void)
{
	const char *const at83[] = { "11", "30", "53", "72" };

	g_assert_cmpuint(omfs_name_hash("10", 2, NBUCKETS), ==, 81);
	g_assert_cmpuint(omfs_name_hash("31", 2, NBUCKETS), ==, 81);
	for (size_t i = 0; i < G_N_ELEMENTS(at83); i++)
		g_assert_cmpuint(omfs_name_hash(at83[i], 2, NBUCKETS), ==, 83);
	g_assert_cmpuint(omfs_name_hash("a", 1, NBUCKETS), ==, 97);
	g_assert_cmpuint(omfs_name_hash("1", 1, NBUCKETS), ==, 49);
	g_assert_cmpuint(omfs_name_hash("13e", 3, NBUCKETS), ==, 49);

	g_assert_cmpuint(omfs_fold(0xC0), ==, 0xE0);
	g_assert_cmpuint(omfs_fold(0xD7), ==, 0xD7);
	g_assert_cmpuint(omfs_fold(0xDF), ==, 0xDF);
	g_assert_cmpuint(omfs_fold('Z'), ==, 'z');
	g_assert_cmpuint(omfs_name_hash("\xC0x", 2, NBUCKETS), ==,
			 omfs_name_hash("\xE0x", 2, NBUCKETS));
	g_assert_cmpuint(omfs_name_hash("\xD7x", 2, NBUCKETS), !=,
			 omfs_name_hash("\xF7x", 2, NBUCKETS));
}

/* ---- many names in one directory ---- */

static void test_many_names(struct fixture *f, gconstpointer data)
{
	enum { N = 500 };
	uint64_t inos[N], dir = do_create(f, f->root, "big", true);
	unsigned per_bucket[NBUCKETS] = { 0 }, shared = 0;
	char name[32];
	GArray *all;

	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "track-%03d", i);
		inos[i] = do_create(f, dir, name, i % 50 == 0);
		per_bucket[omfs_name_hash(name, strlen(name), NBUCKETS)]++;
	}
	for (int i = 0; i < NBUCKETS; i++)
		shared += per_bucket[i] > 1;
	g_assert_cmpuint(shared, >, 50);

	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < N; i++) {
			snprintf(name, sizeof(name), "track-%03d", i);
			assert_found(f, dir, name, inos[i]);
		}
		all = list_dir(f, dir);
		g_assert_cmpuint(all->len, ==, N);
		for (guint k = 0; k < all->len; k++) {
			struct listed *l = &g_array_index(all, struct listed, k);
			int i = atoi(l->ent.name + strlen("track-"));

			g_assert_cmpuint(l->ent.ino, ==, inos[i]);
			g_assert_cmpint(l->ent.is_dir, ==, i % 50 == 0);
			/* the kernel's position: (bucket + 1) << 20 | entries of the bucket read */
			g_assert_cmpuint((l->pos_after >> 20) - 1, ==,
					 omfs_name_hash(l->ent.name, l->ent.namelen, NBUCKETS));
			g_assert_cmpuint(l->pos_after & 0xFFFFF, >=, 1);
		}
		/* Resuming at any saved position gives the entry that followed it. */
		for (guint k = 0; k < all->len; k += 7) {
			struct listed *l = &g_array_index(all, struct listed, k);
			struct omfs_dirent ent;
			uint64_t pos = l->pos_before;

			check_ret(f, omfs_readdir(f->fs, dir, &pos, &ent), 1, "readdir resume");
			g_assert_cmpstr(ent.name, ==, l->ent.name);
			g_assert_cmpuint(pos, ==, l->pos_after);
		}
		g_array_unref(all);
		if (f->cache_blocks) {
			struct omfs_counters c;

			omfs_get_counters(f->fs, &c);
			g_assert_cmpuint(c.cache_evictions, >, 0);
		}
		remount(f, false);	/* the second pass reads what was written */
	}
}

static void test_readdir_positions(struct fixture *f, gconstpointer data)
{
	struct omfs_dirent ent;
	uint64_t pos = 0;

	check_ret(f, omfs_readdir(f->fs, f->root, &pos, &ent), 0, "empty root");
	do_create(f, f->root, "a", false);
	pos = 0;
	check_ret(f, omfs_readdir(f->fs, f->root, &pos, &ent), 1, "readdir");
	g_assert_cmpstr(ent.name, ==, "a");
	g_assert_cmpuint(pos, ==, (98ull << 20) | 1);
	check_ret(f, omfs_readdir(f->fs, f->root, &pos, &ent), 0, "end");
	check_ret(f, omfs_readdir(f->fs, f->root, &pos, &ent), 0, "past the end");
	/* "." and ".." are not emitted: position 1 is the start too */
	pos = 1;
	check_ret(f, omfs_readdir(f->fs, f->root, &pos, &ent), 1, "readdir from 1");
	g_assert_cmpstr(ent.name, ==, "a");
	pos = 98ull << 20;
	check_ret(f, omfs_readdir(f->fs, f->root, &pos, &ent), 1, "readdir bucket 97");
	pos = (uint64_t)(NBUCKETS + 1) << 20;
	check_ret(f, omfs_readdir(f->fs, f->root, &pos, &ent), 0, "beyond the buckets");
	pos = 0xFFF00000;
	check_ret(f, omfs_readdir(f->fs, f->root, &pos, &ent), 0, "largest bucket field");
	pos = 1ull << 32;
	check_ret(f, omfs_readdir(f->fs, f->root, &pos, &ent), -EINVAL, "pos 2^32");
}

/* ---- exact names: the kernel's prefix confusion ---- */

/*
 * "1" and "13e" share bucket 49; the kernel's prefix compare finds "13e" for
 * "1". Both orders in the chain; returns the inode of "1", the only name left.
 */
static uint64_t check_prefix_pair(struct fixture *f, uint64_t dir, bool long_first)
{
	const char *first = long_first ? "13e" : "1", *second = long_first ? "1" : "13e";
	uint64_t a = do_create(f, dir, first, false), b = do_create(f, dir, second, false);
	uint64_t one = long_first ? b : a, long_one = long_first ? a : b;

	g_assert_cmpuint(a, !=, b);
	assert_bucket(f, dir, 49, long_first ? "1 13e" : "13e 1");
	assert_found(f, dir, "1", one);
	assert_found(f, dir, "13e", long_one);
	assert_missing(f, dir, "13");
	assert_missing(f, dir, "13e1");
	check_ret(f, try_create(f, dir, "1", 1), -EEXIST, "create 1 again");
	check_ret(f, try_create(f, dir, "13e", 3), -EEXIST, "create 13e again");

	/* rename one away and back: the other stays where it was */
	check_ret(f, do_rename(f, dir, "1", dir, "one"), 0, "rename 1");
	assert_missing(f, dir, "1");
	assert_found(f, dir, "13e", long_one);
	assert_found(f, dir, "one", one);
	check_ret(f, do_rename(f, dir, "one", dir, "1"), 0, "rename back");
	assert_found(f, dir, "1", one);
	assert_found(f, dir, "13e", long_one);

	/* unlink one: the other is still found, and only it */
	check_ret(f, do_unlink(f, dir, "1"), 0, "unlink 1");
	assert_missing(f, dir, "1");
	assert_found(f, dir, "13e", long_one);
	one = do_create(f, dir, "1", false);
	check_ret(f, do_unlink(f, dir, "13e"), 0, "unlink 13e");
	assert_missing(f, dir, "13e");
	assert_found(f, dir, "1", one);
	return one;
}

static void test_prefix_names(struct fixture *f, gconstpointer data)
{
	uint64_t d1 = do_create(f, f->root, "d1", true), d2 = do_create(f, f->root, "d2", true);
	uint64_t one1 = check_prefix_pair(f, d1, false), one2 = check_prefix_pair(f, d2, true);
	uint64_t upper, lower;

	/* Case folds in the hash only: "Abc" and "abc" are two names in one bucket. */
	upper = do_create(f, f->root, "Abc", false);
	lower = do_create(f, f->root, "abc", false);
	g_assert_cmpuint(upper, !=, lower);
	remount(f, false);
	assert_found(f, d1, "1", one1);
	assert_found(f, d2, "1", one2);
	assert_missing(f, d1, "13e");
	assert_found(f, f->root, "Abc", upper);
	assert_found(f, f->root, "abc", lower);
	assert_missing(f, f->root, "ABC");
}

/* ---- unlink ---- */

static void test_unlink_chain(struct fixture *f, gconstpointer data)
{
	const char *const names[] = { "11", "30", "53", "72" };	/* all in bucket 83 */
	uint64_t free0 = free_blocks(f), ino[4], d, big;
	static uint8_t buf[3 * 8192 + 100];

	for (int i = 0; i < 4; i++)
		ino[i] = do_create(f, f->root, names[i], false);
	g_assert_cmpuint(free_blocks(f), ==, free0 - 8);
	assert_bucket(f, f->root, 83, "72 53 30 11");

	check_ret(f, do_unlink(f, f->root, "53"), 0, "unlink middle");
	assert_bucket(f, f->root, 83, "72 30 11");
	assert_missing(f, f->root, "53");
	assert_found(f, f->root, "72", ino[3]);
	assert_found(f, f->root, "30", ino[1]);
	assert_found(f, f->root, "11", ino[0]);

	check_ret(f, do_unlink(f, f->root, "72"), 0, "unlink head");
	assert_bucket(f, f->root, 83, "30 11");
	assert_found(f, f->root, "11", ino[0]);

	check_ret(f, do_unlink(f, f->root, "11"), 0, "unlink tail");
	assert_bucket(f, f->root, 83, "30");
	remount(f, false);
	assert_bucket(f, f->root, 83, "30");
	assert_found(f, f->root, "30", ino[1]);
	assert_missing(f, f->root, "11");
	check_ret(f, do_unlink(f, f->root, "30"), 0, "unlink last");
	assert_bucket(f, f->root, 83, "");
	g_assert_cmpuint(free_blocks(f), ==, free0);

	/* a file with data gives back its data blocks too */
	big = do_create(f, f->root, "big", false);
	memset(buf, 0x5A, sizeof(buf));
	g_assert_cmpint(omfs_write(f->fs, big, 0, buf, sizeof(buf)), ==, sizeof(buf));
	g_assert_cmpuint(free_blocks(f), <, free0 - 2 - 3);
	check_ret(f, do_unlink(f, f->root, "big"), 0, "unlink big");
	g_assert_cmpuint(free_blocks(f), ==, free0);

	d = do_create(f, f->root, "d", true);
	check_ret(f, do_unlink(f, f->root, "d"), -EISDIR, "unlink a directory");
	assert_found(f, f->root, "d", d);
	check_ret(f, do_unlink(f, f->root, "nope"), -ENOENT, "unlink missing");
	check_ret(f, omfs_unlink(f->fs, f->root, (const char *)buf, OMFS_NAME_MAX + 1),
		  -ENAMETOOLONG, "unlink long name");
}

/* ---- rmdir ---- */

static void test_rmdir(struct fixture *f, gconstpointer data)
{
	uint64_t free0 = free_blocks(f), d = do_create(f, f->root, "d", true);
	char first[16], last[16];

	g_assert_cmpuint(free_blocks(f), ==, free0 - 2);
	/* a child in the first or the last bucket, or a subdirectory: not empty */
	name_in_bucket(first, sizeof(first), "c", 0, 0);
	name_in_bucket(last, sizeof(last), "c", NBUCKETS - 1, 0);
	do_create(f, d, first, false);
	check_ret(f, do_rmdir(f, f->root, "d"), -ENOTEMPTY, "rmdir, child in bucket 0");
	check_ret(f, do_unlink(f, d, first), 0, "unlink");
	do_create(f, d, last, false);
	check_ret(f, do_rmdir(f, f->root, "d"), -ENOTEMPTY, "rmdir, child in the last bucket");
	check_ret(f, do_unlink(f, d, last), 0, "unlink");
	do_create(f, d, "sub", true);
	check_ret(f, do_rmdir(f, f->root, "d"), -ENOTEMPTY, "rmdir, subdirectory");
	assert_found(f, f->root, "d", d);
	check_ret(f, do_rmdir(f, d, "sub"), 0, "rmdir sub");

	do_create(f, f->root, "file", false);
	check_ret(f, do_rmdir(f, f->root, "file"), -ENOTDIR, "rmdir a file");
	check_ret(f, do_unlink(f, f->root, "file"), 0, "unlink file");

	check_ret(f, do_rmdir(f, f->root, "d"), 0, "rmdir empty");
	assert_missing(f, f->root, "d");
	check_ret(f, do_rmdir(f, f->root, "d"), -ENOENT, "rmdir again");
	g_assert_cmpuint(free_blocks(f), ==, free0);
	remount(f, false);
	assert_missing(f, f->root, "d");
	g_assert_cmpuint(free_blocks(f), ==, free0);
}

/* ---- rename ---- */

static void test_rename(struct fixture *f, gconstpointer data)
{
	uint64_t a = do_create(f, f->root, "A", true), b = do_create(f, f->root, "B", true);
	uint64_t x = do_create(f, a, "x", false), v, free0, e1, e2, child, n, dd, s, t, ino, moved;
	static uint8_t buf[2 * 8192];

	f->now = 7000;
	check_ret(f, do_rename(f, a, "x", a, "y"), 0, "rename in a directory");
	assert_found(f, a, "y", x);
	assert_missing(f, a, "x");
	g_assert_cmpuint(do_stat(f, a).ctime_ms, ==, 7000);

	f->now = 8000;
	check_ret(f, do_rename(f, a, "y", b, "z"), 0, "rename across directories");
	assert_found(f, b, "z", x);
	assert_missing(f, a, "y");
	g_assert_cmpuint(do_stat(f, x).parent, ==, b);
	g_assert_cmpuint(do_stat(f, a).ctime_ms, ==, 8000);
	g_assert_cmpuint(do_stat(f, b).ctime_ms, ==, 8000);

	f->now = 9000;
	check_ret(f, do_rename(f, b, "z", b, "z"), 0, "rename onto itself");
	assert_found(f, b, "z", x);
	g_assert_cmpuint(do_stat(f, b).ctime_ms, ==, 8000);

	/* over an existing file: the replaced file's inode and data are freed */
	free0 = free_blocks(f);
	v = do_create(f, b, "v", false);
	g_assert_cmpint(omfs_write(f->fs, v, 0, buf, sizeof(buf)), ==, sizeof(buf));
	g_assert_cmpuint(free_blocks(f), <, free0);
	check_ret(f, do_rename(f, b, "z", b, "v"), 0, "rename over a file");
	assert_found(f, b, "v", x);
	assert_missing(f, b, "z");
	g_assert_cmpuint(free_blocks(f), ==, free0);

	/* within one chain: "11" over "30" (the head), then "30" to "53" */
	moved = do_create(f, f->root, "11", false);
	do_create(f, f->root, "30", false);
	check_ret(f, do_rename(f, f->root, "11", f->root, "30"), 0, "rename over the head");
	assert_bucket(f, f->root, 83, "30");
	assert_found(f, f->root, "30", moved);
	check_ret(f, do_rename(f, f->root, "30", f->root, "53"), 0, "rename in one bucket");
	assert_bucket(f, f->root, 83, "53");
	assert_found(f, f->root, "53", moved);

	/* a directory over an empty directory takes its children along */
	e1 = do_create(f, f->root, "E1", true);
	child = do_create(f, e1, "child", false);
	e2 = do_create(f, f->root, "E2", true);
	free0 = free_blocks(f);
	check_ret(f, do_rename(f, f->root, "E1", f->root, "E2"), 0, "dir over empty dir");
	assert_found(f, f->root, "E2", e1);
	assert_missing(f, f->root, "E1");
	check_ret(f, omfs_resolve(f->fs, "E2/child", &ino), 0, "resolve");
	g_assert_cmpuint(ino, ==, child);
	g_assert_cmpuint(free_blocks(f), ==, free0 + 2);
	g_assert_cmpuint(e2, !=, e1);

	/* refused replacements change nothing */
	n = do_create(f, f->root, "N", true);
	do_create(f, n, "k", false);
	dd = do_create(f, f->root, "D", true);
	check_ret(f, do_rename(f, f->root, "D", f->root, "N"), -ENOTEMPTY, "over a non-empty dir");
	check_ret(f, do_rename(f, b, "v", f->root, "D"), -EISDIR, "file over dir");
	check_ret(f, do_rename(f, f->root, "D", b, "v"), -ENOTDIR, "dir over file");
	assert_found(f, f->root, "D", dd);
	assert_found(f, f->root, "N", n);
	assert_found(f, b, "v", x);

	/* a directory cannot move into its own subtree */
	s = do_create(f, f->root, "S", true);
	t = do_create(f, s, "T", true);
	check_ret(f, do_rename(f, f->root, "S", t, "u"), -EINVAL, "into a grandchild");
	check_ret(f, do_rename(f, f->root, "S", s, "x"), -EINVAL, "into itself");
	assert_found(f, f->root, "S", s);
	check_ret(f, do_rename(f, s, "T", f->root, "T2"), 0, "out of its parent");
	g_assert_cmpuint(do_stat(f, t).parent, ==, f->root);
	check_ret(f, do_rename(f, f->root, "S", t, "S"), 0, "under a former child");
	g_assert_cmpuint(do_stat(f, s).parent, ==, t);

	check_ret(f, do_rename(f, a, "gone", a, "w"), -ENOENT, "missing source");
	check_ret(f, do_rename(f, b, "v", b, "a/b"), -EINVAL, "name with a slash");
	check_ret(f, do_rename(f, b, "v", b, ".."), -EINVAL, "dot-dot");
	check_ret(f, do_rename(f, b, "v", x, "w"), -ENOTDIR, "into a file");
	memset(buf, 'n', OMFS_NAME_MAX + 1);
	check_ret(f, omfs_rename(f->fs, b, "v", 1, b, (const char *)buf, OMFS_NAME_MAX + 1),
		  -ENAMETOOLONG, "long new name");
	assert_found(f, b, "v", x);

	remount(f, false);
	assert_found(f, b, "v", x);
	assert_found(f, f->root, "53", moved);
	assert_bucket(f, f->root, 83, "53");
	assert_found(f, f->root, "E2", e1);
	assert_found(f, e1, "child", child);
	assert_found(f, f->root, "T2", t);
	assert_found(f, t, "S", s);
	assert_missing(f, s, "T");
	g_assert_cmpuint(do_stat(f, x).parent, ==, b);
	g_assert_cmpuint(do_stat(f, s).parent, ==, t);
}

/* ---- names, types, read-only ---- */

static void test_names_and_errors(struct fixture *f, gconstpointer data)
{
	char longest[OMFS_NAME_MAX + 2];
	uint64_t file = do_create(f, f->root, "file", false), ino, pos = 0, l;
	struct omfs_dirent ent;

	check_ret(f, try_create(f, f->root, "a/b", 3), -EINVAL, "slash");
	check_ret(f, try_create(f, f->root, "a\0b", 3), -EINVAL, "NUL");
	check_ret(f, try_create(f, f->root, ".", 1), -EINVAL, "dot");
	check_ret(f, try_create(f, f->root, "..", 2), -EINVAL, "dot-dot");
	check_ret(f, try_create(f, f->root, "", 0), -EINVAL, "empty");
	check_ret(f, omfs_mkdir(f->fs, f->root, "..", 2, &ino), -EINVAL, "mkdir dot-dot");
	check_ret(f, try_create(f, f->root, "file", 4), -EEXIST, "existing file");
	check_ret(f, omfs_mkdir(f->fs, f->root, "file", 4, &ino), -EEXIST, "mkdir over a file");

	memset(longest, 'L', sizeof(longest));
	check_ret(f, try_create(f, f->root, longest, OMFS_NAME_MAX + 1), -ENAMETOOLONG, "257");
	check_ret(f, omfs_lookup(f->fs, f->root, longest, OMFS_NAME_MAX + 1, &ino),
		  -ENAMETOOLONG, "lookup 257");
	/* 256 bytes fill i_name with no NUL after them */
	check_ret(f, omfs_create(f->fs, f->root, longest, OMFS_NAME_MAX, &l), 0, "256");
	check_ret(f, omfs_lookup(f->fs, f->root, longest, OMFS_NAME_MAX - 1, &ino), -ENOENT,
		  "255-byte prefix");

	check_ret(f, try_create(f, file, "x", 1), -ENOTDIR, "create in a file");
	check_ret(f, omfs_mkdir(f->fs, file, "x", 1, &ino), -ENOTDIR, "mkdir in a file");
	check_ret(f, omfs_lookup(f->fs, file, "x", 1, &ino), -ENOTDIR, "lookup in a file");
	check_ret(f, omfs_readdir(f->fs, file, &pos, &ent), -ENOTDIR, "readdir a file");
	check_ret(f, do_unlink(f, file, "x"), -ENOTDIR, "unlink in a file");

	f->now = 6000;
	do_create(f, f->root, "later", true);
	g_assert_cmpuint(do_stat(f, f->root).ctime_ms, ==, 6000);
	g_assert_cmpuint(do_stat(f, file).ctime_ms, ==, 5000);

	remount(f, true);
	check_ret(f, omfs_lookup(f->fs, f->root, longest, OMFS_NAME_MAX, &ino), 0, "256 again");
	g_assert_cmpuint(ino, ==, l);
	for (pos = 0; omfs_readdir(f->fs, f->root, &pos, &ent) == 1;)
		if (ent.ino == l)
			break;
	g_assert_cmpuint(ent.ino, ==, l);
	g_assert_cmpuint(ent.namelen, ==, OMFS_NAME_MAX);
	g_assert_cmpmem(ent.name, OMFS_NAME_MAX, longest, OMFS_NAME_MAX);
	g_assert_cmpint(ent.name[OMFS_NAME_MAX], ==, 0);

	/* read-only: every change is refused, lookups work */
	check_ret(f, try_create(f, f->root, "new", 3), -EROFS, "create ro");
	check_ret(f, omfs_mkdir(f->fs, f->root, "new", 3, &ino), -EROFS, "mkdir ro");
	check_ret(f, do_unlink(f, f->root, "file"), -EROFS, "unlink ro");
	check_ret(f, do_rmdir(f, f->root, "later"), -EROFS, "rmdir ro");
	check_ret(f, do_rename(f, f->root, "file", f->root, "other"), -EROFS, "rename ro");
	assert_found(f, f->root, "file", file);
	assert_missing(f, f->root, "new");
}

static void test_resolve(struct fixture *f, gconstpointer data)
{
	uint64_t a = do_create(f, f->root, "a", true), b = do_create(f, a, "b", true);
	uint64_t file = do_create(f, b, "f", false);
	const struct {
		const char *path;
		int ret;
		uint64_t ino;
	} cases[] = {
		{ "", 0, f->root }, { "/", 0, f->root }, { "a", 0, a }, { "/a/b/f", 0, file },
		{ "//a///b//", 0, b }, { "a/./b", 0, b }, { "a/b/..", 0, a }, { "/..", 0, f->root },
		{ "a/b/../../a", 0, a }, { "./a/b/f", 0, file },
		{ "a/b/f/x", -ENOTDIR, 0 }, { "a/b/f/..", -ENOTDIR, 0 }, { "a/b/f/.", -ENOTDIR, 0 },
		{ "a/missing", -ENOENT, 0 }, { "a/missing/b", -ENOENT, 0 },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		uint64_t ino = OMFS_NIL;

		check_ret(f, omfs_resolve(f->fs, cases[i].path, &ino), cases[i].ret, cases[i].path);
		if (cases[i].ret == 0)
			g_assert_cmpuint(ino, ==, cases[i].ino);
	}
}

/* ---- corrupt chains: errors, never a hang ---- */

/* Set 8 bytes of inode `ino` in every copy on the device and reseal the copies. */
static void patch_inode(struct fixture *f, uint64_t ino, size_t off, uint64_t v)
{
	struct omfs_statfs s;

	g_assert_cmpint(omfs_statfs(f->fs, &s), ==, 0);
	g_assert_cmpint(omfs_unmount(f->fs), ==, 0);
	f->fs = NULL;
	for (uint32_t i = 0; i < s.mirrors; i++) {
		uint8_t *blk = f->dev->data + (ino + i) * s.blocksize;

		omfs_put_be64(blk + off, v);
		omfs_seal_header(blk, s.sys_blocksize);
	}
	fixture_mount(f, false);
}

static void assert_corrupt(struct fixture *f, int ret, const char *needle)
{
	if (ret != -EUCLEAN || !strstr(omfs_errmsg(f->fs), needle))
		g_test_message("got %d, message \"%s\", want -EUCLEAN and \"%s\"", ret,
			       omfs_errmsg(f->fs), needle);
	g_assert_cmpint(ret, ==, -EUCLEAN);
	g_assert_nonnull(strstr(omfs_errmsg(f->fs), needle));
}

static int readdir_to_end(struct fixture *f, uint64_t dir)
{
	struct omfs_dirent ent;
	uint64_t pos = 0;
	int ret;

	for (int calls = 0; calls < 100000; calls++) {
		ret = omfs_readdir(f->fs, dir, &pos, &ent);
		if (ret <= 0)
			return ret;
	}
	g_assert_not_reached();
}

static void test_corrupt_chains(struct fixture *f, gconstpointer data)
{
	uint64_t t10 = do_create(f, f->root, "10", false), t31 = do_create(f, f->root, "31", false);
	uint64_t other = do_create(f, f->root, "other", true), ino;
	char missing[16], msg[64];

	f->leaves_damage = true;
	name_in_bucket(missing, sizeof(missing), "m", 81, 0);
	assert_bucket(f, f->root, 81, "31 10");

	/* two-node loop: 31 -> 10 -> 31 */
	patch_inode(f, t10, OMFS_I_SIBLING, t31);
	assert_found(f, f->root, "31", t31);
	assert_found(f, f->root, "10", t10);
	assert_corrupt(f, lookup(f, f->root, missing, &ino), "bucket 81");
	assert_corrupt(f, try_create(f, f->root, missing, strlen(missing)), "bucket 81");
	assert_corrupt(f, readdir_to_end(f, f->root), "loops");
	assert_corrupt(f, omfs_resolve(f->fs, missing, &ino), "bucket 81");

	/* a node that is its own sibling */
	patch_inode(f, t10, OMFS_I_SIBLING, t10);
	assert_corrupt(f, lookup(f, f->root, missing, &ino), "bucket 81");
	assert_corrupt(f, readdir_to_end(f, f->root), "bucket 81");

	/* a node whose parent is another directory */
	patch_inode(f, t10, OMFS_I_SIBLING, OMFS_NIL);
	assert_found(f, f->root, "10", t10);
	patch_inode(f, t10, OMFS_I_PARENT, other);
	snprintf(msg, sizeof(msg), "block %llu: corrupt chain", (unsigned long long)t10);
	assert_corrupt(f, lookup(f, f->root, "10", &ino), msg);
	assert_found(f, f->root, "31", t31);

	/* a bucket pointing at the root directory, or outside the volume */
	patch_inode(f, f->root, OMFS_DIR_START + 81 * 8, f->root);
	assert_corrupt(f, lookup(f, f->root, "31", &ino), "root directory");
	patch_inode(f, f->root, OMFS_DIR_START + 81 * 8, 1u << 30);
	assert_corrupt(f, lookup(f, f->root, "31", &ino), "outside");
	/* the rest of the directory still works */
	assert_found(f, f->root, "other", other);
}

/* ---- rename under a power cut ---- */

/*
 * What a cut leaves (leaked blocks, a mirror copy behind its primary) is all
 * repairable: fsck corrects it, and a second run finds the volume clean.
 */
static void assert_repairable(struct fixture *f)
{
	struct omfs_fsck_opts repair = { .repair = true, .report = fsck_report };
	struct omfs_fsck_opts check = { .report = fsck_report };
	struct omfs_fsck_result r;
	int ret = omfs_fsck(&f->dev->bdev, &repair, &r);

	g_assert_true(ret == OMFS_FSCK_CLEAN || ret == OMFS_FSCK_CORRECTED);
	g_assert_cmpuint(r.fixed, ==, r.errors);
	g_assert_cmpint(omfs_fsck(&f->dev->bdev, &check, &r), ==, OMFS_FSCK_CLEAN);
}

/* Found or absent, nothing else: a corrupt chain fails the test. */
static void lookup_after_cut(struct fixture *f, uint64_t cut, uint64_t dir, const char *name,
			     uint64_t *ino)
{
	int ret = lookup(f, dir, name, ino);

	if (ret && ret != -ENOENT)
		g_test_message("power cut after %llu writes: %s", (unsigned long long)cut,
			       omfs_errmsg(f->fs));
	g_assert_true(ret == 0 || ret == -ENOENT);
}

/*
 * Cut the power after every possible number of writes during a rename that
 * replaces a file. Whatever survives must mount and read cleanly (every chain
 * node names its directory as parent), and the moved inode is never reachable
 * from both the old and the new chain.
 */
static void test_rename_power_cut(struct fixture *f, gconstpointer data)
{
	uint64_t a = do_create(f, f->root, "A", true), b = do_create(f, f->root, "B", true);
	uint32_t xb = omfs_name_hash("x", 1, NBUCKETS), yb = omfs_name_hash("y", 1, NBUCKETS);
	char name[16];
	uint64_t x, y;
	unsigned in_old = 0, in_none = 0, in_new = 0;
	bool complete = false;
	uint8_t *image;

	/* a cut leaves leaked blocks (fsck reclaims them) */
	f->leaves_damage = true;
	/* x and y in the middle of their chains: created between two neighbours each */
	name_in_bucket(name, sizeof(name), "n", xb, 0);
	do_create(f, a, name, false);
	x = do_create(f, a, "x", false);
	name_in_bucket(name, sizeof(name), "n", xb, 1);
	do_create(f, a, name, false);
	name_in_bucket(name, sizeof(name), "n", yb, 0);
	do_create(f, b, name, false);
	y = do_create(f, b, "y", false);
	name_in_bucket(name, sizeof(name), "n", yb, 1);
	do_create(f, b, name, false);
	g_assert_cmpint(omfs_unmount(f->fs), ==, 0);
	f->fs = NULL;
	image = g_memdup2(f->dev->data, DEV_SIZE);

	for (uint64_t n = 0; !complete; n++) {
		uint64_t ax = OMFS_NIL, by = OMFS_NIL;
		GArray *la, *lb;
		int ret;

		g_assert_cmpuint(n, <, 1000);
		km_mem_device_free(f->dev);
		f->dev = km_mem_device_new(DEV_SIZE, image);
		fixture_mount(f, false);
		f->dev->fail_armed = true;
		f->dev->writes_left = n;
		ret = do_rename(f, a, "x", b, "y");
		if (ret == 0)
			ret = omfs_sync(f->fs);
		complete = ret == 0;
		omfs_unmount(f->fs);
		f->fs = NULL;
		f->dev->fail_armed = false;

		fixture_mount(f, false);
		lookup_after_cut(f, n, a, "x", &ax);
		lookup_after_cut(f, n, b, "y", &by);
		/* the neighbours survive whatever happened to x and y */
		la = list_dir(f, a);
		lb = list_dir(f, b);
		g_assert_cmpuint(la->len, ==, 2 + (ax != OMFS_NIL));
		g_assert_cmpuint(lb->len, ==, 2 + (by != OMFS_NIL));
		g_array_unref(la);
		g_array_unref(lb);
		if (ax != OMFS_NIL)
			g_assert_cmpuint(ax, ==, x);
		if (by != OMFS_NIL)
			g_assert_true(by == x || by == y);
		g_assert_false(ax == x && by == x);
		in_old += ax == x;
		in_new += by == x;
		in_none += ax != x && by != x;
		if (complete) {
			g_assert_cmpuint(ax, ==, OMFS_NIL);
			g_assert_cmpuint(by, ==, x);
			g_assert_cmpuint(do_stat(f, x).parent, ==, b);
		}
		g_assert_cmpint(omfs_unmount(f->fs), ==, 0);
		f->fs = NULL;
		assert_repairable(f);
	}
	/* the cuts fell before, inside and after the window where x is in no chain */
	g_test_message("x in A: %u cuts, in no chain: %u, in B: %u", in_old, in_none, in_new);
	g_assert_cmpuint(in_old, >, 0);
	g_assert_cmpuint(in_none, >, 0);
	g_assert_cmpuint(in_new, >, 0);
	g_free(image);
}

/*
 * Unlink a name from the middle of its chain and create it again, then cut
 * the power after every possible number of writes of the write-back. The
 * name must never appear twice: the unlink reaches the disk before the new
 * link (struct omfs_fs's `unlinked`).
 */
static void test_recreate_power_cut(struct fixture *f, gconstpointer data)
{
	uint64_t a = do_create(f, f->root, "A", true);
	uint32_t xb = omfs_name_hash("x", 1, NBUCKETS);
	bool complete = false;
	char name[16];
	uint8_t *image;

	f->leaves_damage = true;
	name_in_bucket(name, sizeof(name), "n", xb, 0);
	do_create(f, a, name, false);
	do_create(f, a, "x", false);
	name_in_bucket(name, sizeof(name), "n", xb, 1);
	do_create(f, a, name, false);
	g_assert_cmpint(omfs_unmount(f->fs), ==, 0);
	f->fs = NULL;
	image = g_memdup2(f->dev->data, DEV_SIZE);

	for (uint64_t n = 0; !complete; n++) {
		uint64_t ino;
		unsigned named_x = 0;
		GArray *la;
		int ret;

		g_assert_cmpuint(n, <, 1000);
		km_mem_device_free(f->dev);
		f->dev = km_mem_device_new(DEV_SIZE, image);
		fixture_mount(f, false);
		f->dev->fail_armed = true;
		f->dev->writes_left = n;
		ret = omfs_unlink(f->fs, a, "x", 1);
		if (ret == 0)
			ret = omfs_create(f->fs, a, "x", 1, &ino);
		if (ret == 0)
			ret = omfs_sync(f->fs);
		complete = ret == 0;
		omfs_unmount(f->fs);
		f->fs = NULL;
		f->dev->fail_armed = false;

		fixture_mount(f, false);
		la = list_dir(f, a);
		for (guint i = 0; i < la->len; i++)
			named_x += strcmp(g_array_index(la, struct listed, i).ent.name, "x") == 0;
		g_assert_cmpuint(named_x, <=, 1);
		g_assert_cmpuint(la->len, ==, 2 + named_x);
		if (complete)
			g_assert_cmpuint(named_x, ==, 1);
		g_array_unref(la);
		g_assert_cmpint(omfs_unmount(f->fs), ==, 0);
		f->fs = NULL;
		assert_repairable(f);
	}
	g_free(image);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/omfs/dir/hash-vectors", test_hash_vectors);
#define ADD(path, fn) g_test_add(path, struct fixture, NULL, fixture_setup, fn, fixture_teardown)
	ADD("/omfs/dir/many-names", test_many_names);
	/* a cache smaller than one chain walk's working set: evictions mid-operation */
	g_test_add("/omfs/dir/many-names-small-cache", struct fixture, GSIZE_TO_POINTER(4),
		   fixture_setup, test_many_names, fixture_teardown);
	g_test_add("/omfs/dir/rename-small-cache", struct fixture, GSIZE_TO_POINTER(4),
		   fixture_setup, test_rename, fixture_teardown);
	ADD("/omfs/dir/readdir-positions", test_readdir_positions);
	ADD("/omfs/dir/prefix-names", test_prefix_names);
	ADD("/omfs/dir/unlink-chain", test_unlink_chain);
	ADD("/omfs/dir/rmdir", test_rmdir);
	ADD("/omfs/dir/rename", test_rename);
	ADD("/omfs/dir/names-and-errors", test_names_and_errors);
	ADD("/omfs/dir/resolve", test_resolve);
	ADD("/omfs/dir/corrupt-chains", test_corrupt_chains);
	ADD("/omfs/dir/rename-power-cut", test_rename_power_cut);
	ADD("/omfs/dir/recreate-power-cut", test_recreate_power_cut);
#undef ADD
	return g_test_run();
}
