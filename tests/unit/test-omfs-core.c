/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-omfs-core.c - checksums, the name hash, mkfs and mount checks, the
 * block cache (eviction, write-back order) and the allocator.
 */
#include "omfs-private.h"
#include "km-mem-device.h"

#include <glib.h>

#define MiB (1024 * 1024)

static struct km_mem_device *make_volume(uint64_t size, const struct omfs_mkfs_opts *o)
{
	struct km_mem_device *m = km_mem_device_new(size, NULL);
	char msg[OMFS_ERRMSG_MAX];

	g_assert_nonnull(m);
	g_assert_cmpint(omfs_mkfs(&m->bdev, o, msg, sizeof(msg)), ==, 0);
	return m;
}

static struct omfs_fs *mount_ok(struct km_mem_device *m, const struct omfs_mount_opts *o)
{
	struct omfs_fs *fs = NULL;
	char msg[OMFS_ERRMSG_MAX] = "";
	int err = omfs_mount(&m->bdev, o, &fs, msg, sizeof(msg));

	if (err)
		g_error("mount failed: %s", msg);
	return fs;
}

/* Mount must fail with a sentence that contains `needle`. */
static void mount_fails(struct km_mem_device *m, const char *needle)
{
	struct omfs_fs *fs = NULL;
	char msg[OMFS_ERRMSG_MAX] = "";

	if (omfs_mount(&m->bdev, NULL, &fs, msg, sizeof(msg)) == 0)
		g_error("mount succeeded; expected an error containing \"%s\"", needle);
	g_assert_null(fs);
	if (!strstr(msg, needle))
		g_error("mount said \"%s\"; expected \"%s\"", msg, needle);
}

static void test_crc_vectors(void)
{
	g_assert_cmphex(omfs_crc16("123456789", 9), ==, 0x31C3);
	g_assert_cmphex(omfs_crc16("", 0), ==, 0);
	g_assert_cmphex(omfs_crc16("A", 1), ==, 0x58E5);
}

static void test_hash_vectors(void)
{
	/* docs/FORMAT.md §6.2 */
	g_assert_cmpuint(omfs_name_hash("10", 2, 201), ==, 81);
	g_assert_cmpuint(omfs_name_hash("31", 2, 201), ==, 81);
	for (const char *const *n = (const char *const[]){ "11", "30", "53", "72", NULL }; *n; n++)
		g_assert_cmpuint(omfs_name_hash(*n, 2, 201), ==, 83);
	g_assert_cmpuint(omfs_name_hash("a", 1, 201), ==, 97);
	g_assert_cmpuint(omfs_name_hash("A", 1, 201), ==, 97);
	/* the oracle's prefix case: both in bucket 49 */
	g_assert_cmpuint(omfs_name_hash("1", 1, 201), ==, 49);
	g_assert_cmpuint(omfs_name_hash("13e", 3, 201), ==, 49);
	/* the kernel's Latin-1 fold */
	g_assert_cmpuint(omfs_fold(0xC0), ==, 0xE0);
	g_assert_cmpuint(omfs_fold(0xDE), ==, 0xFE);
	g_assert_cmpuint(omfs_fold(0xD7), ==, 0xD7);
	g_assert_cmpuint(omfs_fold(0xDF), ==, 0xDF);
	g_assert_cmpuint(omfs_fold(0xE0), ==, 0xE0);
	g_assert_cmpuint(omfs_name_hash("\xC3\x89", 2, 201), ==, omfs_name_hash("\xE3\x89", 2, 201));
}

static void test_header_seal(void)
{
	uint8_t blk[2048] = { 0 };

	omfs_put_be64(blk, 77);
	omfs_put_be32(blk + OMFS_H_BODY_SIZE, 2048 - 24);
	blk[OMFS_H_VERSION] = 1;
	blk[OMFS_H_TYPE] = 'e';
	blk[OMFS_H_MAGIC] = 0xD2;
	blk[500] = 0x5A;
	omfs_seal_header(blk, 2048);
	g_assert_null(omfs_header_problem(blk, 2048));
	g_assert_cmphex(omfs_be16(blk + OMFS_H_CRC), ==, omfs_crc16(blk + 24, 2024));
	blk[600] ^= 1;
	g_assert_cmpstr(omfs_header_problem(blk, 2048), ==, "header CRC mismatch");
	blk[600] ^= 1;
	blk[3] ^= 1;
	g_assert_cmpstr(omfs_header_problem(blk, 2048), ==, "header XOR check byte mismatch");
}

static void test_mkfs_layout(void)
{
	struct omfs_mkfs_opts o = { .label = "karma" };
	/* 8190 blocks: not a multiple of 8, so the tail bits matter */
	struct km_mem_device *m = make_volume(8190ull * 8192, &o);
	struct omfs_fs *fs = mount_ok(m, NULL);
	struct omfs_statfs sfs;
	struct omfs_info info;
	const uint8_t *bitmap = m->data + 5 * 8192;

	omfs_statfs(fs, &sfs);
	omfs_get_info(fs, &info);
	g_assert_cmpuint(sfs.num_blocks, ==, 8190);
	g_assert_cmpuint(sfs.blocksize, ==, 8192);
	g_assert_cmpuint(sfs.sys_blocksize, ==, 2048);
	g_assert_cmpuint(sfs.mirrors, ==, 2);
	g_assert_cmpuint(sfs.clustersize, ==, 8);
	g_assert_cmpuint(sfs.free_blocks, ==, 8190 - 6);
	g_assert_cmpuint(info.s_root_block, ==, 1);
	g_assert_cmpuint(info.r_root_dir, ==, 3);
	g_assert_cmpuint(info.r_bitmap, ==, 5);
	g_assert_cmpstr(info.r_name, ==, "karma");
	g_assert_cmpstr(info.s_name, ==, "karma");
	g_assert_true(info.root_checksum_ok);
	g_assert_cmpuint(omfs_root_ino(fs), ==, 3);
	/* bits 0..5 used, 6.. free, 8190.. used (tail), whole block written */
	g_assert_cmphex(bitmap[0], ==, 0x3F);
	g_assert_cmphex(bitmap[1], ==, 0x00);
	g_assert_cmphex(bitmap[8190 / 8], ==, 0xC0);
	g_assert_cmphex(bitmap[8191], ==, 0xFF);
	/* root dir and its mirror are identical, sealed, with empty buckets */
	g_assert_cmpmem(m->data + 3 * 8192, 2048, m->data + 4 * 8192, 2048);
	g_assert_null(omfs_header_problem(m->data + 3 * 8192, 2048));
	g_assert_cmphex(m->data[3 * 8192 + 2047], ==, 0xFF);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	km_mem_device_free(m);
}

static void test_mkfs_options(void)
{
	struct omfs_mkfs_opts o = { .blocksize = 4096, .sys_blocksize = 1024, .mirrors = 3,
				    .clustersize = 4, .time_ms = 1234567 };
	struct km_mem_device *m = make_volume(16 * MiB, &o);
	struct omfs_fs *fs = mount_ok(m, NULL);
	struct omfs_statfs sfs;
	struct omfs_stat st;

	omfs_statfs(fs, &sfs);
	g_assert_cmpuint(sfs.blocksize, ==, 4096);
	g_assert_cmpuint(sfs.sys_blocksize, ==, 1024);
	g_assert_cmpuint(sfs.mirrors, ==, 3);
	g_assert_cmpuint(sfs.clustersize, ==, 4);
	g_assert_cmpint(omfs_stat(fs, omfs_root_ino(fs), &st), ==, 0);
	g_assert_true(st.is_dir);
	g_assert_cmpuint(st.ctime_ms, ==, 1234567);
	g_assert_cmpuint(st.size, ==, 1024);
	omfs_unmount(fs);
	km_mem_device_free(m);

	m = km_mem_device_new(1 * MiB, NULL);
	o = (struct omfs_mkfs_opts){ .blocksize = 3000 };
	char msg[OMFS_ERRMSG_MAX];
	g_assert_cmpint(omfs_mkfs(&m->bdev, &o, msg, sizeof(msg)), ==, -EINVAL);
	o = (struct omfs_mkfs_opts){ .clustersize = 9 };
	g_assert_cmpint(omfs_mkfs(&m->bdev, &o, msg, sizeof(msg)), ==, -EINVAL);
	km_mem_device_free(m);
}

static void reseal(struct km_mem_device *m, uint64_t off)
{
	omfs_seal_header(m->data + off, 2048);
}

static void test_mount_rejects(void)
{
	struct km_mem_device *m = make_volume(8 * MiB, NULL);
	uint8_t *sb = m->data;
	uint8_t *root = m->data + 8192, *root2 = m->data + 2 * 8192;
	uint8_t *saved = g_memdup2(m->data, m->size);

#define RESTORE() memcpy(m->data, saved, m->size)
	omfs_put_be32(sb + OMFS_SB_MAGIC, 0x12345678);
	mount_fails(m, "not an OMFS volume");
	RESTORE();
	omfs_put_be32(sb + OMFS_SB_SYS_BLOCKSIZE, 3000);
	mount_fails(m, "sysblock size 3000");
	RESTORE();
	omfs_put_be32(sb + OMFS_SB_SYS_BLOCKSIZE, 256);
	mount_fails(m, "sysblock size 256");
	RESTORE();
	omfs_put_be32(sb + OMFS_SB_BLOCKSIZE, 1024);
	mount_fails(m, "block size 1024");
	RESTORE();
	omfs_put_be32(sb + OMFS_SB_MIRRORS, 0);
	mount_fails(m, "mirror count 0");
	RESTORE();
	omfs_put_be64(sb + OMFS_SB_NUM_BLOCKS, 1ull << 40);
	mount_fails(m, "block count");
	RESTORE();
	omfs_put_be64(sb + OMFS_SB_NUM_BLOCKS, 2048);
	mount_fails(m, "larger than the device");
	RESTORE();
	omfs_put_be64(sb + OMFS_SB_ROOT_BLOCK, 5000);
	mount_fails(m, "root block 5000");
	RESTORE();
	/* both root copies broken */
	root[100] ^= 1;
	root2[100] ^= 1;
	mount_fails(m, "root block 1: header CRC mismatch");
	RESTORE();
	omfs_put_be64(root + OMFS_R_NUM_BLOCKS, 5);
	reseal(m, 8192);
	memcpy(root2, root, 2048);
	mount_fails(m, "disagrees with the superblock");
	RESTORE();
	omfs_put_be32(root + OMFS_R_CLUSTERSIZE, 9);
	reseal(m, 8192);
	mount_fails(m, "cluster size 9");
	RESTORE();
	omfs_put_be64(root + OMFS_R_BITMAP, 1024);	/* the kernel accepts == num_blocks */
	reseal(m, 8192);
	mount_fails(m, "free-space bitmap at block 1024");
	RESTORE();
	omfs_put_be64(root + OMFS_R_ROOT_DIR, 1 << 30);
	reseal(m, 8192);
	mount_fails(m, "root directory pointer");
	RESTORE();
	/* root directory is a file */
	m->data[3 * 8192 + OMFS_I_TYPE] = 'F';
	reseal(m, 3 * 8192);
	memcpy(m->data + 4 * 8192, m->data + 3 * 8192, 2048);
	mount_fails(m, "inode 3: the root directory is not a directory");
	RESTORE();
	/* both copies of the root dir corrupt */
	m->data[3 * 8192 + 900] ^= 1;
	m->data[4 * 8192 + 900] ^= 1;
	mount_fails(m, "block 3: header CRC mismatch, and no mirror copy verifies");
	RESTORE();
	km_mem_device_free(m);
	g_free(saved);
#undef RESTORE
}

static void test_mount_mirror_fallback(void)
{
	struct km_mem_device *m = make_volume(8 * MiB, NULL);
	struct omfs_fs *fs;
	struct omfs_info info;
	struct omfs_stat st;

	m->data[8192 + 200] ^= 0x40;		/* primary root block */
	m->data[3 * 8192 + 1000] ^= 0x40;	/* primary root directory */
	fs = mount_ok(m, NULL);
	omfs_get_info(fs, &info);
	g_assert_true(info.root_checksum_ok);
	g_assert_cmpint(omfs_stat(fs, 3, &st), ==, 0);
	g_assert_true(st.is_dir);
	omfs_unmount(fs);

	/* mkomfs left the root block's CRC and XOR at zero: accepted, and reported */
	omfs_put_be16(m->data + 8192 + OMFS_H_CRC, 0);
	m->data[8192 + OMFS_H_XOR] = 0;
	memcpy(m->data + 2 * 8192, m->data + 8192, 2048);
	fs = mount_ok(m, NULL);
	omfs_get_info(fs, &info);
	g_assert_false(info.root_checksum_ok);
	omfs_unmount(fs);
	km_mem_device_free(m);
}

/* ---- a device that records the order of writes and flushes ---- */

struct recorder {
	struct omfs_blockdev bdev;
	struct km_mem_device *mem;
	GArray *log;	/* uint64_t: block number, or UINT64_MAX for a flush */
};

static int rec_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	struct recorder *r = ctx;

	return r->mem->bdev.read(r->mem, off, buf, len);
}

static int rec_write(void *ctx, uint64_t off, const void *buf, size_t len)
{
	struct recorder *r = ctx;
	uint64_t block = off / 8192;

	g_array_append_val(r->log, block);
	return r->mem->bdev.write(r->mem, off, buf, len);
}

static int rec_flush(void *ctx)
{
	struct recorder *r = ctx;
	uint64_t mark = UINT64_MAX;

	g_array_append_val(r->log, mark);
	return 0;
}

static uint64_t rec_size(void *ctx)
{
	return ((struct recorder *)ctx)->mem->size;
}

static gssize log_index(GArray *log, uint64_t block)
{
	for (guint i = 0; i < log->len; i++)
		if (g_array_index(log, uint64_t, i) == block)
			return i;
	return -1;
}

static gboolean flush_between(GArray *log, gssize a, gssize b)
{
	for (gssize i = a + 1; i < b; i++)
		if (g_array_index(log, uint64_t, i) == UINT64_MAX)
			return TRUE;
	return FALSE;
}

static void test_writeback_order(void)
{
	struct recorder r = { .mem = make_volume(8 * MiB, NULL) };
	struct omfs_fs *fs;
	struct omfs_buf *fresh, *root;
	struct omfs_run run;
	uint64_t block;
	gssize new_inode, bitmap, dir, freed = -1;

	r.bdev = (struct omfs_blockdev){ &r, rec_read, rec_write, rec_flush, rec_size };
	r.log = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	fs = NULL;
	{
		char msg[OMFS_ERRMSG_MAX];

		g_assert_cmpint(omfs_mount(&r.bdev, NULL, &fs, msg, sizeof(msg)), ==, 0);
	}
	/* a new sysblock, a data allocation, a change to a reachable block, a free */
	g_assert_cmpint(omfs_alloc_sysblock(fs, &block), ==, 0);
	g_assert_cmpuint(block, ==, 6);
	g_assert_cmpint(omfs_bnew(fs, block, 'e', &fresh), ==, 0);
	g_assert_cmpint(omfs_alloc_data(fs, 0, 2, &run), ==, 0);
	g_assert_cmpint(omfs_bread(fs, 3, 'e', &root), ==, 0);
	omfs_bdirty(fs, root);
	omfs_brelse(fs, root);
	omfs_brelse(fs, fresh);
	/* freeing what was just allocated: marked used on disk first, then freed */
	g_assert_cmpint(omfs_free_run(fs, run.start, run.count), ==, 0);
	g_assert_cmpint(omfs_sync(fs), ==, 0);

	new_inode = log_index(r.log, block);
	bitmap = log_index(r.log, 5);
	dir = log_index(r.log, 3);
	for (guint i = bitmap + 1; i < r.log->len; i++)
		if (g_array_index(r.log, uint64_t, i) == 5)
			freed = i;
	g_assert_cmpint(new_inode, >=, 0);
	g_assert_cmpint(log_index(r.log, block + 1), ==, new_inode + 1);	/* its mirror */
	/* the fresh block and the allocations share one barrier, before the reachable block */
	g_assert_cmpint(bitmap, >, new_inode + 1);
	g_assert_false(flush_between(r.log, new_inode + 1, bitmap));
	g_assert_true(flush_between(r.log, bitmap, dir));
	g_assert_cmpint(log_index(r.log, 4), ==, dir + 1);			/* the dir's mirror */
	g_assert_cmpint(freed, >, dir);
	g_assert_true(flush_between(r.log, dir, freed));
	omfs_unmount(fs);
	g_array_unref(r.log);
	km_mem_device_free(r.mem);
}

static void test_cache_eviction(void)
{
	struct km_mem_device *m = make_volume(8 * MiB, NULL);
	struct omfs_mount_opts o = { .cache_blocks = 4 };
	struct omfs_fs *fs = mount_ok(m, &o);
	struct omfs_counters c;
	uint64_t blocks[20];

	for (int i = 0; i < 20; i++) {
		struct omfs_buf *b;

		g_assert_cmpint(omfs_alloc_sysblock(fs, &blocks[i]), ==, 0);
		g_assert_cmpint(omfs_bnew(fs, blocks[i], 'c', &b), ==, 0);
		b->data[100] = (uint8_t)i;
		omfs_brelse(fs, b);
		g_assert_cmpuint(fs->cache.count, <=, 4);
	}
	omfs_get_counters(fs, &c);
	g_assert_cmpuint(c.cache_evictions, >=, 16);
	/* evicted dirty blocks went to disk with their mirrors */
	for (int i = 0; i < 20; i++) {
		struct omfs_buf *b;

		g_assert_cmpint(omfs_bread(fs, blocks[i], 'c', &b), ==, 0);
		g_assert_cmpuint(b->data[100], ==, (uint8_t)i);
		omfs_brelse(fs, b);
	}
	omfs_reset_counters(fs);
	for (int round = 0; round < 3; round++) {
		struct omfs_buf *b;

		g_assert_cmpint(omfs_bread(fs, blocks[19], 'c', &b), ==, 0);
		omfs_brelse(fs, b);
	}
	omfs_get_counters(fs, &c);
	g_assert_cmpuint(c.cache_hits, ==, 3);
	g_assert_cmpuint(c.cache_misses, ==, 0);
	g_assert_cmpuint(c.read_requests, ==, 0);
	omfs_unmount(fs);
	km_mem_device_free(m);
}

static void test_allocator(void)
{
	struct km_mem_device *m = make_volume(8 * MiB, NULL);	/* 1024 blocks */
	struct omfs_fs *fs = mount_ok(m, NULL);
	struct omfs_run a, b, c;
	uint64_t free0 = fs->free_blocks;

	g_assert_cmpint(omfs_alloc_data(fs, 0, 100, &a), ==, 0);
	g_assert_cmpuint(a.start, ==, 6);
	g_assert_cmpuint(a.count, ==, 100);
	/* goal right after the run extends it in place */
	g_assert_cmpint(omfs_alloc_data(fs, a.start + a.count, 10, &b), ==, 0);
	g_assert_cmpuint(b.start, ==, 106);
	/* freed blocks are not reused before a write-back */
	g_assert_cmpint(omfs_free_run(fs, 6, 50), ==, 0);
	g_assert_true(omfs_block_used(fs, 6));
	g_assert_cmpint(omfs_alloc_data(fs, 6, 5, &c), ==, 0);
	g_assert_cmpuint(c.start, !=, 6);
	g_assert_cmpint(omfs_sync(fs), ==, 0);
	g_assert_false(omfs_block_used(fs, 6));
	g_assert_cmpuint(fs->free_blocks, ==, free0 - 100 - 10 - 5 + 50);
	/* on disk too */
	g_assert_cmphex(m->data[5 * 8192 + 1], ==, 0x00);
	/* out-of-range frees are refused, never applied */
	g_assert_cmpint(omfs_free_run(fs, 1000, 100), ==, -EUCLEAN);
	g_assert_cmpint(omfs_free_run(fs, 2, 1), ==, -EUCLEAN);
	/* fill the volume: the longest runs come back, then ENOSPC */
	while (omfs_alloc_data(fs, 0, 64, &a) == 0)
		g_assert_cmpuint(a.start + a.count, <=, 1024);
	g_assert_cmpuint(fs->free_blocks, ==, 0);
	g_assert_nonnull(strstr(omfs_errmsg(fs), "full"));
	omfs_unmount(fs);
	km_mem_device_free(m);
}

static void write_file(struct omfs_fs *fs, const char *name, size_t size, uint8_t seed)
{
	g_autofree uint8_t *buf = g_malloc(size);
	uint64_t ino;

	for (size_t i = 0; i < size; i++)
		buf[i] = (uint8_t)(seed + i * 7);
	g_assert_cmpint(omfs_create(fs, omfs_root_ino(fs), name, strlen(name), &ino), ==, 0);
	g_assert_cmpint(omfs_write(fs, ino, 0, buf, size), ==, (int64_t)size);
}

static void check_file(struct omfs_fs *fs, const char *name, size_t size, uint8_t seed)
{
	g_autofree uint8_t *buf = g_malloc(size + 1);
	uint64_t ino;

	g_assert_cmpint(omfs_lookup(fs, omfs_root_ino(fs), name, strlen(name), &ino), ==, 0);
	g_assert_cmpint(omfs_read(fs, ino, 0, buf, size + 1), ==, (int64_t)size);
	for (size_t i = 0; i < size; i++)
		g_assert_cmpuint(buf[i], ==, (uint8_t)(seed + i * 7));
}

/*
 * ReplayTV volumes have no bitmap (r_bitmap all ones): the free map is built
 * by walking the tree, allocation must avoid every block in use, and nothing
 * may be written where a bitmap would be.
 */
static void test_replaytv_no_bitmap(void)
{
	struct km_mem_device *m = make_volume(8 * MiB, NULL);
	struct omfs_fs *fs = mount_ok(m, NULL);
	struct omfs_fsck_opts fo = { 0 };
	struct omfs_fsck_result fr;
	struct omfs_statfs before, after;
	g_autofree uint8_t *old_bitmap = NULL;

	write_file(fs, "a", 300000, 1);
	write_file(fs, "b", 5000, 2);
	omfs_statfs(fs, &before);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	omfs_put_be64(m->data + 8192 + OMFS_R_BITMAP, OMFS_NIL);
	omfs_seal_header(m->data + 8192, 2048);
	memcpy(m->data + 2 * 8192, m->data + 8192, 2048);
	old_bitmap = g_memdup2(m->data + 5 * 8192, 8192);

	fs = mount_ok(m, NULL);
	omfs_statfs(fs, &after);
	/* the walk finds what the bitmap said, except the bitmap block itself */
	g_assert_cmpuint(after.free_blocks, ==, before.free_blocks + 1);
	check_file(fs, "a", 300000, 1);
	write_file(fs, "c", 200000, 3);
	check_file(fs, "a", 300000, 1);
	check_file(fs, "b", 5000, 2);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);

	fs = mount_ok(m, NULL);
	/* block 5 is ordinary free space now; while free, nothing wrote a bitmap there */
	if (!omfs_block_used(fs, 5))
		g_assert_cmpmem(m->data + 5 * 8192, 8192, old_bitmap, 8192);
	check_file(fs, "a", 300000, 1);
	check_file(fs, "b", 5000, 2);
	check_file(fs, "c", 200000, 3);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	g_assert_cmpint(omfs_fsck(&m->bdev, &fo, &fr), ==, OMFS_FSCK_CLEAN);
	km_mem_device_free(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/omfs/checksum/crc-vectors", test_crc_vectors);
	g_test_add_func("/omfs/checksum/seal", test_header_seal);
	g_test_add_func("/omfs/hash/vectors", test_hash_vectors);
	g_test_add_func("/omfs/mkfs/layout", test_mkfs_layout);
	g_test_add_func("/omfs/mkfs/options", test_mkfs_options);
	g_test_add_func("/omfs/mount/rejects", test_mount_rejects);
	g_test_add_func("/omfs/mount/mirror-fallback", test_mount_mirror_fallback);
	g_test_add_func("/omfs/cache/writeback-order", test_writeback_order);
	g_test_add_func("/omfs/cache/eviction", test_cache_eviction);
	g_test_add_func("/omfs/bitmap/allocator", test_allocator);
	g_test_add_func("/omfs/bitmap/replaytv", test_replaytv_no_bitmap);
	return g_test_run();
}
