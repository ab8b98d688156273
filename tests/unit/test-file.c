/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-file.c - file data and extent tables: mapping across continuation
 * tables (offsets accumulate), the on-disk table format, gap zero-filling,
 * truncate in both directions, kernel-made holes and preallocation, ENOSPC
 * and device errors leaving the file unchanged, persistence across a
 * remount, corrupt tables, and the cost of a read in device requests.
 *
 * Built by meson (tests/meson.build); by hand, from the top of the tree:
 *   gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter \
 *       -Wno-sign-compare -Isrc/omfs -Isrc/device tests/unit/test-file.c \
 *       src/omfs/?*.c src/device/km-mem-device.c \
 *       $(pkg-config --cflags --libs glib-2.0) -o /tmp/test-file && /tmp/test-file
 */
#include "omfs-private.h"
#include "km-mem-device.h"

#include <glib.h>

#define DEV_SIZE (32u << 20)
#define BS 8192u		/* mkfs defaults: 8 KiB blocks, 2 KiB sysblocks, 2 mirrors */
#define SYS_BS 2048u
#define IN_INODE 97u		/* real extents in an inode's table */
#define PER_CONT 122u		/* real extents in a continuation table */
#define FRAG_BLOCKS 300u	/* 97 + 122 + 81: the inode table and two continuation tables */

struct fixture {
	struct km_mem_device *dev;
	struct omfs_fs *fs;
	uint64_t root;
	size_t max_request;
};

static void fixture_mount(struct fixture *f, bool read_only)
{
	struct omfs_mount_opts o = { .read_only = read_only, .max_request = f->max_request };
	char msg[OMFS_ERRMSG_MAX] = "";

	if (omfs_mount(&f->dev->bdev, &o, &f->fs, msg, sizeof(msg)))
		g_error("mount failed: %s", msg);
	f->root = omfs_root_ino(f->fs);
}

static void fixture_setup(struct fixture *f, gconstpointer data)
{
	struct omfs_mkfs_opts o = { .time_ms = 1000 };
	char msg[OMFS_ERRMSG_MAX] = "";

	f->dev = km_mem_device_new(DEV_SIZE, NULL);
	g_assert_nonnull(f->dev);
	if (omfs_mkfs(&f->dev->bdev, &o, msg, sizeof(msg)))
		g_error("mkfs failed: %s", msg);
	fixture_mount(f, false);
	g_assert_cmpuint(f->fs->blocksize, ==, BS);
	g_assert_cmpuint(f->fs->sys_blocksize, ==, SYS_BS);
	g_assert_cmpuint(f->fs->mirrors, ==, 2);
}

static void fixture_teardown(struct fixture *f, gconstpointer data)
{
	if (f->fs)
		g_assert_cmpint(omfs_unmount(f->fs), ==, 0);
	km_mem_device_free(f->dev);
}

static void remount(struct fixture *f, bool read_only)
{
	g_assert_cmpint(omfs_unmount(f->fs), ==, 0);
	f->fs = NULL;
	fixture_mount(f, read_only);
}

/* ---- helpers ---- */

static void check_ret(struct fixture *f, int64_t ret, int64_t want, const char *what)
{
	if (ret != want)
		g_test_message("%s returned %" G_GINT64_FORMAT ", want %" G_GINT64_FORMAT ": %s",
			       what, ret, want, omfs_errmsg(f->fs));
	g_assert_cmpint(ret, ==, want);
}

static uint64_t create(struct fixture *f, const char *name)
{
	uint64_t ino = OMFS_NIL;

	check_ret(f, omfs_create(f->fs, f->root, name, strlen(name), &ino), 0, name);
	return ino;
}

/* The byte at file position pos of a file seeded `seed`: varies with every byte and block. */
static uint8_t pattern(uint64_t pos, uint32_t seed)
{
	uint64_t x = (pos + 1) * 0x9E3779B97F4A7C15ull ^ seed;

	return (uint8_t)(x >> 29 ^ x >> 51 ^ pos / BS);
}

static uint8_t *pattern_buf(uint64_t pos, size_t len, uint32_t seed)
{
	uint8_t *p = g_malloc(len ? len : 1);

	for (size_t i = 0; i < len; i++)
		p[i] = pattern(pos + i, seed);
	return p;
}

static void write_pattern(struct fixture *f, uint64_t ino, uint64_t pos, size_t len, uint32_t seed)
{
	uint8_t *p = pattern_buf(pos, len, seed);

	check_ret(f, omfs_write(f->fs, ino, pos, p, len), (int64_t)len, "write");
	g_free(p);
}

/* Bytes [pos, pos + len) read back equal the pattern (seed) or zeros (seed 0 and zero). */
static void assert_content(struct fixture *f, uint64_t ino, uint64_t pos, size_t len, uint32_t seed,
			   bool zero)
{
	uint8_t *got = g_malloc(len ? len : 1);

	check_ret(f, omfs_read(f->fs, ino, pos, got, len), (int64_t)len, "read");
	for (size_t i = 0; i < len; i++) {
		uint8_t want = zero ? 0 : pattern(pos + i, seed);

		if (got[i] != want)
			g_error("byte %" G_GUINT64_FORMAT ": got 0x%02x, want 0x%02x",
				pos + i, got[i], want);
	}
	g_free(got);
}

static struct omfs_stat stat_of(struct fixture *f, uint64_t ino)
{
	struct omfs_stat st;

	check_ret(f, omfs_stat(f->fs, ino, &st), 0, "stat");
	return st;
}

/* Free blocks once every deferred free has gone through a write-back. */
static uint64_t free_blocks(struct fixture *f)
{
	struct omfs_statfs s;

	check_ret(f, omfs_sync(f->fs), 0, "sync");
	check_ret(f, omfs_statfs(f->fs, &s), 0, "statfs");
	return s.free_blocks;
}

static void load_extents(struct fixture *f, uint64_t ino, struct omfs_extents *ex)
{
	struct omfs_buf *b;

	check_ret(f, omfs_iget(f->fs, ino, &b), 0, "iget");
	check_ret(f, omfs_extents_load(f->fs, b, ex), 0, "load extents");
	omfs_brelse(f->fs, b);
}

/*
 * Files a and b written one block at a time in turn: each block of a lands
 * between two of b's, so a gets one extent per block.
 */
static void make_fragmented(struct fixture *f, uint64_t a, uint64_t b, unsigned blocks)
{
	for (unsigned i = 0; i < blocks; i++) {
		write_pattern(f, a, (uint64_t)i * BS, BS, 1);
		write_pattern(f, b, (uint64_t)i * BS, BS, 2);
	}
}

/* ---- an independent reader of the on-disk tables (after a sync) ---- */

struct raw_map {
	GArray *phys;	/* uint64_t: the physical block of each logical block */
	GArray *tables;	/* uint64_t: continuation blocks in chain order */
};

static const uint8_t *disk_block(struct fixture *f, uint64_t blk)
{
	g_assert_cmpuint(blk, <, DEV_SIZE / BS);
	return f->dev->data + blk * BS;
}

static void raw_check_table(const uint8_t *t, unsigned max, struct raw_map *m)
{
	uint32_t count = omfs_be32(t + OMFS_E_COUNT);
	uint64_t sum = 0;
	const uint8_t *e = t + OMFS_E_ENTRIES;

	g_assert_cmpuint(count, >=, 1);
	g_assert_cmpuint(count, <=, max);
	g_assert_cmpuint(omfs_be32(t + OMFS_E_FILL), ==, OMFS_E_FILL_VALUE);
	for (uint32_t i = 0; i + 1 < count; i++, e += 16) {
		uint64_t start = omfs_be64(e), n = omfs_be64(e + 8);

		g_assert_cmpuint(n, >, 0);
		for (uint64_t j = 0; j < n; j++) {
			uint64_t p = start + j;

			g_array_append_val(m->phys, p);
		}
		sum += n;
	}
	g_assert_cmpuint(omfs_be64(e), ==, OMFS_NIL);
	g_assert_cmpuint(omfs_be64(e + 8), ==, ~sum);
}

/* Walk the tables as they are on the device: logical offsets accumulate across tables. */
static void raw_walk(struct fixture *f, uint64_t ino, struct raw_map *m)
{
	const uint8_t *blk = disk_block(f, ino);
	uint64_t next;

	m->phys = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	m->tables = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	raw_check_table(blk + OMFS_EXTENT_START, IN_INODE + 1, m);
	next = omfs_be64(blk + OMFS_EXTENT_START + OMFS_E_NEXT);
	while (next != OMFS_NIL) {
		g_assert_cmpuint(m->tables->len, <, 64);
		g_array_append_val(m->tables, next);
		blk = disk_block(f, next);
		g_assert_cmpuint(omfs_be64(blk + OMFS_H_SELF), ==, next);
		g_assert_cmpuint(blk[OMFS_H_TYPE], ==, OMFS_TYPE_CONT);
		g_assert_null(omfs_header_problem(blk, SYS_BS));
		for (unsigned i = OMFS_HDR_SIZE; i < OMFS_EXTENT_CONT; i++)
			g_assert_cmpuint(blk[i], ==, 0);
		/* the mirror is a byte-for-byte copy */
		g_assert_cmpmem(blk, SYS_BS, disk_block(f, next + 1), SYS_BS);
		raw_check_table(blk + OMFS_EXTENT_CONT, PER_CONT + 1, m);
		next = omfs_be64(blk + OMFS_EXTENT_CONT + OMFS_E_NEXT);
	}
}

static void raw_free(struct raw_map *m)
{
	g_array_free(m->phys, TRUE);
	g_array_free(m->tables, TRUE);
}

/* The device holds the pattern at each mapped logical block, per the raw tables. */
static void raw_assert_content(struct fixture *f, const struct raw_map *m, uint64_t size,
			       uint32_t seed)
{
	for (uint64_t lb = 0; lb * BS < size; lb++) {
		const uint8_t *d = disk_block(f, g_array_index(m->phys, uint64_t, lb));

		for (uint64_t i = 0; i < BS && lb * BS + i < size; i++)
			if (d[i] != pattern(lb * BS + i, seed))
				g_error("logical block %" G_GUINT64_FORMAT " byte %"
					G_GUINT64_FORMAT " is wrong on the device", lb, i);
	}
}

/* ---- tests ---- */

static void test_capacity(struct fixture *f, gconstpointer data)
{
	struct omfs_extents ex = { 0 };

	g_assert_cmpuint(omfs_max_extents(f->fs, OMFS_EXTENT_START), ==, IN_INODE + 1);
	g_assert_cmpuint(omfs_max_extents(f->fs, OMFS_EXTENT_CONT), ==, PER_CONT + 1);
	g_assert_cmpint(omfs_extents_append(&ex, 100, 4), ==, 0);
	g_assert_cmpint(omfs_extents_append(&ex, 104, 2), ==, 0);	/* contiguous: merged */
	g_assert_cmpint(omfs_extents_append(&ex, 200, 1), ==, 0);
	g_assert_cmpuint(ex.n, ==, 2);
	g_assert_cmpuint(ex.v[0].count, ==, 6);
	g_assert_cmpuint(ex.total, ==, 7);
	omfs_extents_free(&ex);
	g_assert_null(ex.v);
}

static void test_small_file(struct fixture *f, gconstpointer data)
{
	uint64_t ino = create(f, "small");
	char buf[64] = "";

	check_ret(f, omfs_read(f->fs, ino, 0, buf, sizeof(buf)), 0, "read of an empty file");
	check_ret(f, omfs_write(f->fs, ino, 0, "hello, karma", 12), 12, "write");
	check_ret(f, omfs_write(f->fs, ino, 7, "rio", 3), 3, "overwrite");
	check_ret(f, omfs_read(f->fs, ino, 0, buf, sizeof(buf)), 12, "read");
	g_assert_cmpmem(buf, 12, "hello, rioma", 12);
	check_ret(f, omfs_read(f->fs, ino, 12, buf, sizeof(buf)), 0, "read at the end");
	check_ret(f, omfs_read(f->fs, ino, 1000, buf, sizeof(buf)), 0, "read past the end");
	g_assert_cmpuint(stat_of(f, ino).size, ==, 12);
	g_assert_cmpuint(stat_of(f, ino).data_blocks, ==, 1);
	remount(f, false);
	check_ret(f, omfs_read(f->fs, ino, 5, buf, 4), 4, "read after remount");
	g_assert_cmpmem(buf, 4, ", ri", 4);
}

static void test_errors(struct fixture *f, gconstpointer data)
{
	uint64_t ino = create(f, "f");
	char buf[8];

	check_ret(f, omfs_read(f->fs, f->root, 0, buf, 8), -EISDIR, "read of a directory");
	check_ret(f, omfs_write(f->fs, f->root, 0, buf, 8), -EISDIR, "write to a directory");
	check_ret(f, omfs_truncate(f->fs, f->root, 0), -EISDIR, "truncate of a directory");
	check_ret(f, omfs_write(f->fs, ino, OMFS_MAX_FILE_SIZE, buf, 1), -EFBIG,
		  "write past 4 GiB");
	check_ret(f, omfs_write(f->fs, ino, UINT64_MAX, buf, 2), -EFBIG, "write at 2^64");
	check_ret(f, omfs_truncate(f->fs, ino, OMFS_MAX_FILE_SIZE + 1), -EFBIG,
		  "truncate past 4 GiB");
	g_assert_nonnull(strstr(omfs_errmsg(f->fs), "4294967295"));
	remount(f, true);
	check_ret(f, omfs_write(f->fs, ino, 0, buf, 1), -EROFS, "write on a read-only mount");
	check_ret(f, omfs_truncate(f->fs, ino, 10), -EROFS, "truncate on a read-only mount");
	check_ret(f, omfs_read(f->fs, ino, 0, buf, 8), 0, "read on a read-only mount");
}

/* More than 97 extents: continuation tables, read back byte for byte, raw and through the API. */
static void test_fragmented(struct fixture *f, gconstpointer data)
{
	uint64_t a = create(f, "a"), b = create(f, "b");
	uint64_t size = (uint64_t)FRAG_BLOCKS * BS, base;
	struct omfs_extents ex = { 0 };
	struct raw_map m;
	uint8_t *got;

	make_fragmented(f, a, b, FRAG_BLOCKS);
	g_assert_cmpuint(stat_of(f, a).extents, ==, FRAG_BLOCKS);
	g_assert_cmpuint(stat_of(f, a).data_blocks, ==, FRAG_BLOCKS);
	g_assert_cmpuint(stat_of(f, a).size, ==, size);
	load_extents(f, a, &ex);
	g_assert_cmpuint(ex.ntables, ==, 2);
	omfs_extents_free(&ex);

	/* the device, read without our code: offsets accumulate, terminators hold, mirrors match */
	check_ret(f, omfs_sync(f->fs), 0, "sync");
	raw_walk(f, a, &m);
	g_assert_cmpuint(m.tables->len, ==, 2);
	g_assert_cmpuint(m.phys->len, ==, FRAG_BLOCKS);
	raw_assert_content(f, &m, size, 1);
	raw_free(&m);

	assert_content(f, a, 0, size, 1, false);
	assert_content(f, b, 0, size, 2, false);
	/* odd-sized reads crossing block and table boundaries */
	got = g_malloc(5003);
	for (base = 0; base < size; base += 5003) {
		size_t n = size - base < 5003 ? size - base : 5003;

		check_ret(f, omfs_read(f->fs, a, base, got, 5003), (int64_t)n, "odd read");
		for (size_t i = 0; i < n; i++)
			g_assert_cmpuint(got[i], ==, pattern(base + i, 1));
	}
	g_free(got);
	/* overwrite across the inode/continuation boundary, then remount and compare */
	write_pattern(f, a, (uint64_t)(IN_INODE - 1) * BS + 100, 3 * BS, 1);
	remount(f, false);
	assert_content(f, a, 0, size, 1, false);
	assert_content(f, b, 0, size, 2, false);
	g_assert_cmpuint(stat_of(f, a).extents, ==, FRAG_BLOCKS);
}

/* Truncating into the middle of the first continuation table frees the second one. */
static void test_truncate_fragmented(struct fixture *f, gconstpointer data)
{
	uint64_t a = create(f, "a"), b = create(f, "b");
	unsigned keep = IN_INODE + 60;
	uint64_t size = (uint64_t)keep * BS - 1000, before;
	struct omfs_extents ex = { 0 };
	struct raw_map m;
	uint64_t cont2;

	make_fragmented(f, a, b, FRAG_BLOCKS);
	load_extents(f, a, &ex);
	cont2 = ex.tables[1];
	before = free_blocks(f);
	check_ret(f, omfs_truncate(f->fs, a, size), 0, "truncate");
	g_assert_cmpuint(free_blocks(f), ==, before + (FRAG_BLOCKS - keep) + 2);
	g_assert_false(omfs_block_used(f->fs, cont2));
	g_assert_false(omfs_block_used(f->fs, cont2 + 1));
	g_assert_true(omfs_block_used(f->fs, ex.tables[0]));
	for (unsigned i = 0; i < FRAG_BLOCKS; i++)
		g_assert_cmpint(omfs_block_used(f->fs, ex.v[i].start), ==, i < keep);
	omfs_extents_free(&ex);

	g_assert_cmpuint(stat_of(f, a).extents, ==, keep);
	g_assert_cmpuint(stat_of(f, a).size, ==, size);
	raw_walk(f, a, &m);
	g_assert_cmpuint(m.tables->len, ==, 1);
	g_assert_cmpuint(m.phys->len, ==, keep);
	raw_free(&m);
	assert_content(f, a, 0, size, 1, false);
	remount(f, false);
	assert_content(f, a, 0, size, 1, false);
	assert_content(f, b, 0, (uint64_t)FRAG_BLOCKS * BS, 2, false);
	g_assert_cmpuint(stat_of(f, a).extents, ==, keep);

	/* down into the inode's own table, then to nothing */
	check_ret(f, omfs_truncate(f->fs, a, 10 * BS), 0, "truncate into the inode table");
	load_extents(f, a, &ex);
	g_assert_cmpuint(ex.ntables, ==, 0);
	g_assert_cmpuint(ex.n, ==, 10);
	omfs_extents_free(&ex);
	assert_content(f, a, 0, 10 * BS, 1, false);
	check_ret(f, omfs_truncate(f->fs, a, 0), 0, "truncate to 0");
	g_assert_cmpuint(stat_of(f, a).data_blocks, ==, 0);
	g_assert_cmpuint(free_blocks(f), ==, before + FRAG_BLOCKS + 2 * 2);
}

/* Appending rewrites only the tables that change: the first continuation block is left alone. */
static void test_append_dirties_only_last_table(struct fixture *f, gconstpointer data)
{
	uint64_t a = create(f, "a"), b = create(f, "b");
	struct omfs_extents ex = { 0 };
	uint8_t *mirror1, *mirror2;

	make_fragmented(f, a, b, FRAG_BLOCKS);
	check_ret(f, omfs_sync(f->fs), 0, "sync");
	load_extents(f, a, &ex);
	/* mark the mirror copies on the device: a rewrite would replace them */
	mirror1 = f->dev->data + (ex.tables[0] + 1) * BS;
	mirror2 = f->dev->data + (ex.tables[1] + 1) * BS;
	mirror1[40] = 0x5A;
	mirror2[40] = 0x5A;
	write_pattern(f, a, (uint64_t)FRAG_BLOCKS * BS, BS, 1);
	check_ret(f, omfs_sync(f->fs), 0, "sync");
	g_assert_cmpuint(mirror1[40], ==, 0x5A);
	g_assert_cmpuint(mirror2[40], ==, 0);
	omfs_extents_free(&ex);
	assert_content(f, a, 0, (uint64_t)(FRAG_BLOCKS + 1) * BS, 1, false);
}

/* A table holding the extents v[0..n) and a terminator whose total is `term`. */
static void put_hand_table(uint8_t *t, const struct omfs_extent *v, unsigned n, uint64_t term)
{
	omfs_put_be32(t + OMFS_E_COUNT, n + 1);
	for (unsigned i = 0; i < n; i++) {
		omfs_put_be64(t + 16 + 16 * i, v[i].start);
		omfs_put_be64(t + 24 + 16 * i, v[i].count);
	}
	omfs_put_be64(t + 16 + 16 * n, OMFS_NIL);
	omfs_put_be64(t + 24 + 16 * n, term);
}

/*
 * Lay out a 4-block file by hand, as another implementation might: two
 * extents in the inode's table, two in a continuation table (whose
 * terminator total is cont_term), with logical block i's pattern at phys[i].
 * Returns the continuation block.
 */
static uint64_t hand_layout(struct fixture *f, uint64_t ino, const uint64_t phys[4], uint64_t size,
			    uint64_t cont_term)
{
	struct omfs_extent v[4];
	struct omfs_buf *b, *c;
	uint64_t cont;
	uint8_t *p;

	for (unsigned i = 0; i < 4; i++) {
		p = pattern_buf((uint64_t)i * BS, BS, 7);
		memcpy(f->dev->data + phys[i] * BS, p, BS);
		g_free(p);
		v[i] = (struct omfs_extent){ phys[i], 1 };
	}
	check_ret(f, omfs_alloc_sysblock(f->fs, &cont), 0, "alloc sysblock");
	check_ret(f, omfs_bnew(f->fs, cont, OMFS_TYPE_CONT, &c), 0, "bnew");
	omfs_extent_table_init(c->data, OMFS_EXTENT_CONT);
	put_hand_table(c->data + OMFS_EXTENT_CONT, v + 2, 2, cont_term);
	check_ret(f, omfs_iget(f->fs, ino, &b), 0, "iget");
	omfs_put_be64(b->data + OMFS_EXTENT_START + OMFS_E_NEXT, cont);
	put_hand_table(b->data + OMFS_EXTENT_START, v, 2, ~2ull);
	omfs_put_be64(b->data + OMFS_I_SIZE, size);
	omfs_bdirty(f->fs, b);
	omfs_brelse(f->fs, b);
	omfs_brelse(f->fs, c);
	return cont;
}

/*
 * Physically in reverse order, so logical block 2 (the first of the
 * continuation table) is found only if offsets accumulate across tables.
 * The continuation's terminator total is wrong: tolerated on read.
 */
static void test_offsets_accumulate(struct fixture *f, gconstpointer data)
{
	uint64_t ino = create(f, "hand"), size = 4 * BS - 10, cont, phys[4];
	struct omfs_run run;
	struct raw_map m;

	check_ret(f, omfs_alloc_data(f->fs, 0, 4, &run), 0, "alloc");
	g_assert_cmpuint(run.count, ==, 4);
	for (unsigned i = 0; i < 4; i++)
		phys[i] = run.start + 3 - i;
	cont = hand_layout(f, ino, phys, size, ~5ull);

	assert_content(f, ino, 0, size, 7, false);
	remount(f, false);
	assert_content(f, ino, 0, size, 7, false);
	g_assert_cmpuint(stat_of(f, ino).extents, ==, 4);

	/* the next store lays the file out canonically: all in the inode, terminators right */
	write_pattern(f, ino, size, BS, 7);
	check_ret(f, omfs_sync(f->fs), 0, "sync");
	raw_walk(f, ino, &m);
	g_assert_cmpuint(m.tables->len, ==, 0);
	raw_assert_content(f, &m, size + BS, 7);
	raw_free(&m);
	g_assert_false(omfs_block_used(f->fs, cont));
}

/* Extents that continue each other on disk, even across a table boundary, are one request. */
static void test_contiguous_across_tables(struct fixture *f, gconstpointer data)
{
	uint64_t ino = create(f, "hand"), size = 4 * BS, phys[4];
	struct omfs_counters c;
	struct omfs_run run;
	uint8_t *buf = g_malloc(size);

	check_ret(f, omfs_alloc_data(f->fs, 0, 4, &run), 0, "alloc");
	for (unsigned i = 0; i < 4; i++)
		phys[i] = run.start + i;
	hand_layout(f, ino, phys, size, ~2ull);
	g_assert_cmpuint(stat_of(f, ino).extents, ==, 4);
	omfs_reset_counters(f->fs);
	check_ret(f, omfs_read(f->fs, ino, 0, buf, size), (int64_t)size, "read");
	omfs_get_counters(f->fs, &c);
	g_assert_cmpuint(c.read_requests, ==, 1);
	for (size_t i = 0; i < size; i++)
		g_assert_cmpuint(buf[i], ==, pattern(i, 7));
	g_free(buf);
}

/* Writing past the end fills the gap with zeros, whatever the blocks held. */
static void test_gap_zero_fill(struct fixture *f, gconstpointer data)
{
	uint64_t ino = create(f, "gap");
	uint8_t junk[BS];

	/* block 0 keeps 0xAA junk past the new end of 3 bytes */
	memset(junk, 0xAA, sizeof(junk));
	check_ret(f, omfs_write(f->fs, ino, 0, junk, sizeof(junk)), BS, "write");
	check_ret(f, omfs_truncate(f->fs, ino, 3), 0, "truncate");
	write_pattern(f, ino, 3 * BS + 100, 5000, 9);
	g_assert_cmpuint(stat_of(f, ino).size, ==, 3 * BS + 5100);
	assert_content(f, ino, 3, 3 * BS + 97, 0, true);
	assert_content(f, ino, 3 * BS + 100, 5000, 9, false);
	remount(f, false);
	assert_content(f, ino, 3, 3 * BS + 97, 0, true);
	assert_content(f, ino, 3 * BS + 100, 5000, 9, false);
}

/* Blocks the kernel preallocated past i_size hold old data: a gap over them reads as zeros. */
static void test_gap_over_preallocated(struct fixture *f, gconstpointer data)
{
	uint64_t w = create(f, "w"), t = create(f, "t");
	struct omfs_extents ex = { 0 };
	struct omfs_run run;
	struct omfs_buf *b;
	uint64_t files[2] = { w, t };

	for (unsigned i = 0; i < 2; i++) {
		check_ret(f, omfs_write(f->fs, files[i], 0, "abc", 3), 3, "write");
		/* what the kernel does: a whole cluster, 7 blocks of it past i_size */
		check_ret(f, omfs_iget(f->fs, files[i], &b), 0, "iget");
		check_ret(f, omfs_extents_load(f->fs, b, &ex), 0, "load");
		check_ret(f, omfs_alloc_data(f->fs, ex.v[0].start + 1, 7, &run), 0, "alloc");
		g_assert_cmpuint(run.count, ==, 7);
		memset(f->dev->data + run.start * BS, 0xEE, 7 * BS);
		memset(f->dev->data + ex.v[0].start * BS + 3, 0xEE, BS - 3);
		g_assert_cmpint(omfs_extents_append(&ex, run.start, run.count), ==, 0);
		check_ret(f, omfs_extents_store(f->fs, b, &ex), 0, "store");
		omfs_extents_free(&ex);
		omfs_brelse(f->fs, b);
		g_assert_cmpuint(stat_of(f, files[i]).data_blocks, ==, 8);
	}
	write_pattern(f, w, 5 * BS, 10, 3);
	assert_content(f, w, 3, 5 * BS - 3, 0, true);
	assert_content(f, w, 5 * BS, 10, 3, false);
	g_assert_cmpuint(stat_of(f, w).data_blocks, ==, 8);
	check_ret(f, omfs_truncate(f->fs, t, 6 * BS + 1), 0, "truncate up");
	assert_content(f, t, 3, 6 * BS - 2, 0, true);
	/* shrinking drops the preallocated tail */
	check_ret(f, omfs_truncate(f->fs, t, 2), 0, "truncate down");
	g_assert_cmpuint(stat_of(f, t).data_blocks, ==, 1);
}

static void test_truncate_grow_shrink(struct fixture *f, gconstpointer data)
{
	uint64_t old = create(f, "old"), ino, before;

	/* leave old data in free blocks, so a grow that does not zero would show it */
	before = free_blocks(f);
	write_pattern(f, old, 0, 40 * BS, 5);
	check_ret(f, omfs_unlink(f->fs, f->root, "old", 3), 0, "unlink");
	g_assert_cmpuint(free_blocks(f), ==, before + 2);
	ino = create(f, "grow");
	before = free_blocks(f);

	check_ret(f, omfs_truncate(f->fs, ino, 100000), 0, "grow");
	g_assert_cmpuint(stat_of(f, ino).size, ==, 100000);
	g_assert_cmpuint(stat_of(f, ino).data_blocks, ==, 13);
	assert_content(f, ino, 0, 100000, 0, true);
	g_assert_cmpuint(free_blocks(f), ==, before - 13);

	write_pattern(f, ino, 0, 100000, 6);
	check_ret(f, omfs_truncate(f->fs, ino, 5000), 0, "shrink");
	g_assert_cmpuint(stat_of(f, ino).size, ==, 5000);
	g_assert_cmpuint(stat_of(f, ino).data_blocks, ==, 1);
	g_assert_cmpuint(free_blocks(f), ==, before - 1);
	assert_content(f, ino, 0, 5000, 6, false);

	/* growing again: the old tail of block 0 must not come back */
	check_ret(f, omfs_truncate(f->fs, ino, 3 * BS), 0, "grow again");
	assert_content(f, ino, 0, 5000, 6, false);
	assert_content(f, ino, 5000, 3 * BS - 5000, 0, true);
	check_ret(f, omfs_truncate(f->fs, ino, 3 * BS), 0, "same size");
	remount(f, false);
	assert_content(f, ino, 0, 5000, 6, false);
	assert_content(f, ino, 5000, 3 * BS - 5000, 0, true);
	check_ret(f, omfs_truncate(f->fs, ino, 0), 0, "to zero");
	g_assert_cmpuint(free_blocks(f), ==, before);
}

/* Junk in every free block on the device, as a volume in use has. */
static void dirty_free_blocks(struct fixture *f)
{
	check_ret(f, omfs_sync(f->fs), 0, "sync");
	for (uint64_t n = 0; n < f->fs->num_blocks; n++)
		if (!omfs_block_used(f->fs, n))
			memset(f->dev->data + n * BS, 0xEE, BS);
}

/* A file of one mapped block whose i_size is 3 blocks: what a kernel truncate-grow leaves. */
static uint64_t make_kernel_hole(struct fixture *f, const char *name)
{
	uint64_t ino = create(f, name);
	struct omfs_buf *b;

	write_pattern(f, ino, 0, BS, 4);
	check_ret(f, omfs_iget(f->fs, ino, &b), 0, "iget");
	omfs_put_be64(b->data + OMFS_I_SIZE, 3 * BS);
	omfs_bdirty(f->fs, b);
	omfs_brelse(f->fs, b);
	return ino;
}

/* Reading the hole is an error, never garbage; writing maps and zeroes all of it. */
static void test_kernel_hole(struct fixture *f, gconstpointer data)
{
	uint64_t ino = make_kernel_hole(f, "hole"), inside = make_kernel_hole(f, "inside");
	uint8_t buf[3 * BS];

	check_ret(f, omfs_read(f->fs, ino, 0, buf, sizeof(buf)), BS, "read into the hole (short)");
	check_ret(f, omfs_read(f->fs, ino, BS, buf, 10), -EIO, "read inside the hole");
	g_assert_nonnull(strstr(omfs_errmsg(f->fs), "hole"));
	dirty_free_blocks(f);

	/* past the end of the hole */
	write_pattern(f, ino, 3 * BS + 10, 10, 4);
	assert_content(f, ino, 0, BS, 4, false);
	assert_content(f, ino, BS, 2 * BS + 10, 0, true);
	assert_content(f, ino, 3 * BS + 10, 10, 4, false);

	/* inside it: zeros on both sides of the new byte, up to i_size */
	write_pattern(f, inside, BS + 5, 1, 4);
	g_assert_cmpuint(stat_of(f, inside).size, ==, 3 * BS);
	g_assert_cmpuint(stat_of(f, inside).data_blocks, ==, 3);
	assert_content(f, inside, 0, BS, 4, false);
	assert_content(f, inside, BS, 5, 0, true);
	assert_content(f, inside, BS + 5, 1, 4, false);
	assert_content(f, inside, BS + 6, 2 * BS - 6, 0, true);
}

/* A volume too full for a write: an error that says so, and the file as it was. */
static void test_enospc(struct fixture *f, gconstpointer data)
{
	uint64_t big = create(f, "big"), ino = create(f, "f"), avail;
	struct omfs_stat st0, st1;
	size_t len;
	uint8_t *p;

	write_pattern(f, ino, 0, 5 * BS + 17, 8);
	avail = free_blocks(f);
	write_pattern(f, big, 0, (avail - 20) * BS, 1);
	avail = free_blocks(f);
	g_assert_cmpuint(avail, ==, 20);
	st0 = stat_of(f, ino);

	len = (avail + 1) * BS;
	p = pattern_buf(5 * BS + 17, len, 8);
	check_ret(f, omfs_write(f->fs, ino, 5 * BS + 17, p, len), -ENOSPC, "write too big");
	g_assert_nonnull(strstr(omfs_errmsg(f->fs), "unchanged"));
	g_free(p);
	check_ret(f, omfs_truncate(f->fs, ino, 40 * BS), -ENOSPC, "truncate too big");
	check_ret(f, omfs_write(f->fs, ino, 30 * BS, "x", 1), -ENOSPC, "write far out");

	st1 = stat_of(f, ino);
	g_assert_cmpuint(st1.size, ==, st0.size);
	g_assert_cmpuint(st1.data_blocks, ==, st0.data_blocks);
	g_assert_cmpuint(st1.extents, ==, st0.extents);
	g_assert_cmpuint(free_blocks(f), ==, avail);
	assert_content(f, ino, 0, 5 * BS + 17, 8, false);
	/* what fits still works */
	write_pattern(f, ino, 5 * BS + 17, 10 * BS, 8);
	remount(f, false);
	assert_content(f, ino, 0, 15 * BS + 17, 8, false);
	g_assert_cmpuint(free_blocks(f), ==, avail - 10);
}

/*
 * The data block fits but the continuation table it needs does not (only
 * isolated free blocks are left): the block is given back too.
 */
static void test_enospc_for_continuation(struct fixture *f, gconstpointer data)
{
	uint64_t a = create(f, "a"), b = create(f, "b"), avail;
	struct omfs_stat st0;

	make_fragmented(f, a, b, IN_INODE);
	g_assert_cmpuint(stat_of(f, a).extents, ==, IN_INODE);
	/* leave only every other block free */
	for (uint64_t n = 0; n < f->fs->num_blocks; n++)
		if (!omfs_block_used(f->fs, n) && n % 2)
			check_ret(f, omfs_mark_used(f->fs, n, 1), 0, "mark used");
	avail = free_blocks(f);
	g_assert_cmpuint(avail, >, 0);
	st0 = stat_of(f, a);
	check_ret(f, omfs_write(f->fs, a, st0.size, "x", 1), -ENOSPC, "write needing a table");
	g_assert_cmpuint(stat_of(f, a).size, ==, st0.size);
	g_assert_cmpuint(stat_of(f, a).extents, ==, IN_INODE);
	g_assert_cmpuint(free_blocks(f), ==, avail);
	assert_content(f, a, 0, st0.size, 1, false);
}

/* A device error during the data write: the growth is undone and its blocks given back. */
static void test_write_error_undoes_growth(struct fixture *f, gconstpointer data)
{
	uint64_t ino = create(f, "e"), before;
	uint8_t *p = pattern_buf(0, 4 * BS, 3);

	write_pattern(f, ino, 0, 100, 3);
	before = free_blocks(f);
	f->dev->fail_armed = true;
	f->dev->writes_left = 0;
	check_ret(f, omfs_write(f->fs, ino, 100, p + 100, 4 * BS - 100), -EIO, "write");
	f->dev->fail_armed = false;
	g_assert_cmpuint(stat_of(f, ino).size, ==, 100);
	g_assert_cmpuint(stat_of(f, ino).data_blocks, ==, 1);
	g_assert_cmpuint(free_blocks(f), ==, before);
	g_free(p);
	assert_content(f, ino, 0, 100, 3, false);
}

/* Unlinking a file with continuation tables frees everything it had. */
static void test_unlink_frees_all(struct fixture *f, gconstpointer data)
{
	uint64_t before = free_blocks(f), a = create(f, "a"), b = create(f, "b");

	make_fragmented(f, a, b, FRAG_BLOCKS);
	check_ret(f, omfs_unlink(f->fs, f->root, "a", 1), 0, "unlink a");
	check_ret(f, omfs_unlink(f->fs, f->root, "b", 1), 0, "unlink b");
	g_assert_cmpuint(free_blocks(f), ==, before);
	remount(f, false);
	g_assert_cmpuint(free_blocks(f), ==, before);
}

/* Reading a contiguous 8 MiB file: one device request per max_request piece, no more. */
static void test_read_requests(struct fixture *f, gconstpointer data)
{
	size_t len = 8u << 20, limit = GPOINTER_TO_SIZE(data);
	uint64_t ino, a, b;
	struct omfs_counters c;
	uint8_t *buf = g_malloc(len);

	f->max_request = limit;
	remount(f, false);
	ino = create(f, "contig");
	omfs_reset_counters(f->fs);
	write_pattern(f, ino, 0, len, 11);
	omfs_get_counters(f->fs, &c);
	g_assert_cmpuint(c.write_requests, ==, len / limit);
	g_assert_cmpuint(c.write_bytes, ==, len);
	g_assert_cmpuint(stat_of(f, ino).extents, ==, 1);
	check_ret(f, omfs_sync(f->fs), 0, "sync");

	omfs_reset_counters(f->fs);
	check_ret(f, omfs_read(f->fs, ino, 0, buf, len), (int64_t)len, "read");
	omfs_get_counters(f->fs, &c);
	g_assert_cmpuint(c.read_requests, ==, len / limit);
	g_assert_cmpuint(c.read_bytes, ==, len);
	for (size_t i = 0; i < len; i += 4093)
		g_assert_cmpuint(buf[i], ==, pattern(i, 11));

	/* unaligned: still one request per piece */
	omfs_reset_counters(f->fs);
	check_ret(f, omfs_read(f->fs, ino, 100, buf, limit - 200), (int64_t)(limit - 200), "read");
	omfs_get_counters(f->fs, &c);
	g_assert_cmpuint(c.read_requests, ==, 1);

	/* a file in 6 pieces: 6 requests */
	a = create(f, "a");
	b = create(f, "b");
	make_fragmented(f, a, b, 6);
	check_ret(f, omfs_sync(f->fs), 0, "sync");
	omfs_reset_counters(f->fs);
	check_ret(f, omfs_read(f->fs, a, 0, buf, 6 * BS), 6 * BS, "read");
	omfs_get_counters(f->fs, &c);
	g_assert_cmpuint(c.read_requests, ==, 6);
	g_free(buf);
}

/* ---- corrupt tables: refused with a sentence, never a crash or a hang ---- */

struct corruption {
	const char *name;
	void (*fn)(struct fixture *f, uint8_t *inode, uint8_t *cont1, uint8_t *cont2);
	const char *message;	/* part of the error sentence expected */
};

static void set_count0(struct fixture *f, uint8_t *i, uint8_t *c1, uint8_t *c2)
{
	omfs_put_be32(i + OMFS_EXTENT_START + OMFS_E_COUNT, 0);
}

static void set_count_too_big(struct fixture *f, uint8_t *i, uint8_t *c1, uint8_t *c2)
{
	omfs_put_be32(c1 + OMFS_EXTENT_CONT + OMFS_E_COUNT, PER_CONT + 2);
}

static void set_extent_outside(struct fixture *f, uint8_t *i, uint8_t *c1, uint8_t *c2)
{
	omfs_put_be64(c2 + OMFS_EXTENT_CONT + 16 + 8, f->fs->num_blocks);
}

static void set_extent_in_metadata(struct fixture *f, uint8_t *i, uint8_t *c1, uint8_t *c2)
{
	omfs_put_be64(i + OMFS_EXTENT_START + 16, 1);
}

static void set_extent_wrapping(struct fixture *f, uint8_t *i, uint8_t *c1, uint8_t *c2)
{
	omfs_put_be64(i + OMFS_EXTENT_START + 16 + 8, UINT64_MAX - 2);
}

static void set_extent_empty(struct fixture *f, uint8_t *i, uint8_t *c1, uint8_t *c2)
{
	omfs_put_be64(c1 + OMFS_EXTENT_CONT + 32 + 8, 0);
}

static void set_no_terminator(struct fixture *f, uint8_t *i, uint8_t *c1, uint8_t *c2)
{
	omfs_put_be32(i + OMFS_EXTENT_START + OMFS_E_COUNT, IN_INODE);
}

/* Empty tables, so that only the loop is wrong. */
static void set_loop_to_self(struct fixture *f, uint8_t *i, uint8_t *c1, uint8_t *c2)
{
	omfs_extent_table_init(c1, OMFS_EXTENT_CONT);
	omfs_put_be64(c1 + OMFS_EXTENT_CONT, omfs_be64(c1 + OMFS_H_SELF));
}

static void set_loop_back(struct fixture *f, uint8_t *i, uint8_t *c1, uint8_t *c2)
{
	omfs_extent_table_init(c1, OMFS_EXTENT_CONT);
	omfs_put_be64(c1 + OMFS_EXTENT_CONT, omfs_be64(c2 + OMFS_H_SELF));
	omfs_extent_table_init(c2, OMFS_EXTENT_CONT);
	omfs_put_be64(c2 + OMFS_EXTENT_CONT, omfs_be64(c1 + OMFS_H_SELF));
}

static void set_next_outside(struct fixture *f, uint8_t *i, uint8_t *c1, uint8_t *c2)
{
	omfs_put_be64(c2 + OMFS_EXTENT_CONT, f->fs->num_blocks - 1);
}

static void set_next_to_inode(struct fixture *f, uint8_t *i, uint8_t *c1, uint8_t *c2)
{
	omfs_put_be64(c2 + OMFS_EXTENT_CONT, omfs_be64(i + OMFS_H_SELF));
}

static void test_corrupt(struct fixture *f, gconstpointer data)
{
	const struct corruption *cor = data;
	const char *want = cor->message;
	uint64_t a = create(f, "a"), b = create(f, "b");
	struct omfs_extents ex = { 0 };
	struct omfs_buf *ib, *c1, *c2;
	uint8_t buf[16];
	int64_t ret;

	make_fragmented(f, a, b, FRAG_BLOCKS);
	load_extents(f, a, &ex);
	check_ret(f, omfs_iget(f->fs, a, &ib), 0, "iget");
	check_ret(f, omfs_bread(f->fs, ex.tables[0], OMFS_TYPE_CONT, &c1), 0, "bread");
	check_ret(f, omfs_bread(f->fs, ex.tables[1], OMFS_TYPE_CONT, &c2), 0, "bread");
	cor->fn(f, ib->data, c1->data, c2->data);
	omfs_bdirty(f->fs, ib);
	omfs_bdirty(f->fs, c1);
	omfs_bdirty(f->fs, c2);
	omfs_brelse(f->fs, ib);
	omfs_brelse(f->fs, c1);
	omfs_brelse(f->fs, c2);
	omfs_extents_free(&ex);

	/* written to disk and read back through a fresh mount */
	remount(f, false);
	ret = omfs_read(f->fs, a, 0, buf, sizeof(buf));
	g_test_message("read: %" G_GINT64_FORMAT " (%s)", ret, omfs_errmsg(f->fs));
	g_assert_cmpint(ret, ==, -EUCLEAN);
	g_assert_nonnull(strstr(omfs_errmsg(f->fs), want));
	check_ret(f, omfs_write(f->fs, a, 0, "x", 1), -EUCLEAN, "write");
	check_ret(f, omfs_truncate(f->fs, a, 0), -EUCLEAN, "truncate");
	/* the other file is untouched */
	assert_content(f, b, 0, (uint64_t)FRAG_BLOCKS * BS, 2, false);
}

static const struct corruption corruptions[] = {
	{ "count-zero", set_count0, "extent count 0 is outside 1..98" },
	{ "count-too-big", set_count_too_big, "extent count 124 is outside 1..123" },
	{ "extent-outside", set_extent_outside, "lies outside the data area" },
	{ "extent-in-metadata", set_extent_in_metadata, "(1 blocks at 1) lies outside" },
	{ "extent-wrapping", set_extent_wrapping, "lies outside the data area" },
	{ "extent-empty", set_extent_empty, "extent 1 is empty" },
	{ "no-terminator", set_no_terminator, "the last of 97 extents is not a terminator" },
	{ "loop-to-self", set_loop_to_self, "loops back" },
	{ "loop-back", set_loop_back, "loops back" },
	{ "next-outside", set_next_outside, "next extent table" },
	{ "next-to-inode", set_next_to_inode, "unexpected header type" },
};

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
#define ADD(path, fn) \
	g_test_add(path, struct fixture, NULL, fixture_setup, fn, fixture_teardown)
	ADD("/omfs/file/capacity", test_capacity);
	ADD("/omfs/file/small", test_small_file);
	ADD("/omfs/file/errors", test_errors);
	ADD("/omfs/file/fragmented", test_fragmented);
	ADD("/omfs/file/truncate-fragmented", test_truncate_fragmented);
	ADD("/omfs/file/append-dirties-only-last-table", test_append_dirties_only_last_table);
	ADD("/omfs/file/offsets-accumulate", test_offsets_accumulate);
	ADD("/omfs/file/contiguous-across-tables", test_contiguous_across_tables);
	ADD("/omfs/file/gap-zero-fill", test_gap_zero_fill);
	ADD("/omfs/file/gap-over-preallocated", test_gap_over_preallocated);
	ADD("/omfs/file/truncate-grow-shrink", test_truncate_grow_shrink);
	ADD("/omfs/file/kernel-hole", test_kernel_hole);
	ADD("/omfs/file/enospc", test_enospc);
	ADD("/omfs/file/enospc-for-continuation", test_enospc_for_continuation);
	ADD("/omfs/file/write-error-undoes-growth", test_write_error_undoes_growth);
	ADD("/omfs/file/unlink-frees-all", test_unlink_frees_all);
#undef ADD
	g_test_add("/omfs/file/read-requests/1MiB", struct fixture, GSIZE_TO_POINTER(1u << 20),
		   fixture_setup, test_read_requests, fixture_teardown);
	g_test_add("/omfs/file/read-requests/8MiB", struct fixture, GSIZE_TO_POINTER(8u << 20),
		   fixture_setup, test_read_requests, fixture_teardown);
	for (size_t i = 0; i < G_N_ELEMENTS(corruptions); i++) {
		char *path = g_strdup_printf("/omfs/file/corrupt/%s", corruptions[i].name);

		g_test_add(path, struct fixture, &corruptions[i], fixture_setup, test_corrupt,
			   fixture_teardown);
		g_free(path);
	}
	return g_test_run();
}
