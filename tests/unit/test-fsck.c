/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-fsck.c - omfs_fsck on real volumes (omfs_mkfs on a km_mem_device,
 * populated through the API): a clean volume, then one corruption at a time,
 * each found with the right severity and exit code, and --repair followed by
 * a second check that is clean wherever the repair is safe. Ends with random
 * corruption of the metadata, which must never crash and must leave a volume
 * that checks clean whenever the repair says it fixed everything.
 *
 * Built by meson (tests/meson.build); by hand, from the top of the tree:
 *   gcc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter \
 *       -Wno-sign-compare -fsanitize=address,undefined -g -Isrc/omfs -Isrc/device \
 *       tests/unit/test-fsck.c $(find src/omfs -name "*.c") src/device/km-mem-device.c \
 *       $(pkg-config --cflags --libs glib-2.0) -o /tmp/test-fsck && /tmp/test-fsck
 */
#include "omfs-private.h"
#include "km-mem-device.h"

#include <glib.h>
#include <stdio.h>

#define DEV_SIZE (16u << 20)
#define BS 8192u
#define SYS_BS 2048u
#define MIRRORS 2u
#define NBUCKETS 201u

/* ---- the volume ---- */

struct vol {
	struct km_mem_device *dev;
	uint64_t num_blocks, bitmap;
	uint64_t root, music, a, b, c11, c30, song;
	uint64_t frag;		/* a file with continuation blocks (vol_new_fragmented) */
};

static uint64_t fixed_clock(void *ctx)
{
	return 1234567;
}

static struct omfs_fs *vol_mount(struct vol *v)
{
	struct omfs_mount_opts o = { .clock_ms = fixed_clock };
	char msg[OMFS_ERRMSG_MAX] = "";
	struct omfs_fs *fs;

	if (omfs_mount(&v->dev->bdev, &o, &fs, msg, sizeof(msg)))
		g_error("mount failed: %s", msg);
	return fs;
}

static uint64_t make_file(struct omfs_fs *fs, uint64_t dir, const char *name, size_t size)
{
	uint8_t *data = g_malloc(size ? size : 1);
	uint64_t ino;

	for (size_t i = 0; i < size; i++)
		data[i] = (uint8_t)(i * 7 + 3);
	g_assert_cmpint(omfs_create(fs, dir, name, strlen(name), &ino), ==, 0);
	if (size)
		g_assert_cmpint(omfs_write(fs, ino, 0, data, size), ==, (int64_t)size);
	g_free(data);
	return ino;
}

static struct vol *vol_new(void)
{
	struct omfs_mkfs_opts o = { .time_ms = 1000 };
	char msg[OMFS_ERRMSG_MAX] = "";
	struct vol *v = g_new0(struct vol, 1);
	struct omfs_fs *fs;

	v->dev = km_mem_device_new(DEV_SIZE, NULL);
	g_assert_nonnull(v->dev);
	if (omfs_mkfs(&v->dev->bdev, &o, msg, sizeof(msg)))
		g_error("mkfs failed: %s", msg);
	fs = vol_mount(v);
	v->root = omfs_root_ino(fs);
	v->num_blocks = fs->num_blocks;
	v->bitmap = fs->bitmap_start;
	v->a = make_file(fs, v->root, "a", 600);
	v->b = make_file(fs, v->root, "b", 100000);
	/* "11" and "30" share bucket 83, so they form a chain of two */
	v->c11 = make_file(fs, v->root, "11", 10);
	v->c30 = make_file(fs, v->root, "30", 10);
	g_assert_cmpint(omfs_mkdir(fs, v->root, "music", 5, &v->music), ==, 0);
	v->song = make_file(fs, v->music, "song", 20000);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	return v;
}

/* A file of 150 one-block extents, interleaved with another file's: it needs a continuation. */
static struct vol *vol_new_fragmented(void)
{
	struct vol *v = vol_new();
	struct omfs_fs *fs = vol_mount(v);
	uint8_t block[BS];
	uint64_t other;

	memset(block, 0x5A, sizeof(block));
	v->frag = make_file(fs, v->root, "frag", 0);
	other = make_file(fs, v->root, "other", 0);
	for (uint64_t i = 0; i < 150; i++) {
		g_assert_cmpint(omfs_write(fs, v->frag, i * BS, block, BS), ==, BS);
		g_assert_cmpint(omfs_write(fs, other, i * BS, block, BS), ==, BS);
	}
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	return v;
}

static void vol_free(struct vol *v)
{
	km_mem_device_free(v->dev);
	g_free(v);
}

/* ---- raw access ---- */

static uint8_t *blockp(struct vol *v, uint64_t block)
{
	g_assert_cmpuint(block, <, v->num_blocks);
	return v->dev->data + block * BS;
}

/* Seal the primary again and copy it to every mirror: a consistent, checksummed change. */
static void reseal(struct vol *v, uint64_t block)
{
	omfs_seal_header(blockp(v, block), SYS_BS);
	for (uint32_t i = 1; i < MIRRORS; i++)
		memcpy(blockp(v, block + i), blockp(v, block), SYS_BS);
}

static uint64_t get64(struct vol *v, uint64_t block, uint32_t off)
{
	return omfs_be64(blockp(v, block) + off);
}

static void set64(struct vol *v, uint64_t block, uint32_t off, uint64_t val)
{
	omfs_put_be64(blockp(v, block) + off, val);
	reseal(v, block);
}

static uint8_t *bitmap_byte(struct vol *v, uint64_t n)
{
	return blockp(v, v->bitmap) + n / 8;
}

static bool bit_used(struct vol *v, uint64_t n)
{
	return *bitmap_byte(v, n) & (1u << (n & 7));
}

static void bit_put(struct vol *v, uint64_t n, bool used)
{
	if (used)
		*bitmap_byte(v, n) |= (uint8_t)(1u << (n & 7));
	else
		*bitmap_byte(v, n) &= (uint8_t)~(1u << (n & 7));
}

/* First extent of a file's inode table. */
static uint64_t extent_start(struct vol *v, uint64_t ino)
{
	return get64(v, ino, OMFS_EXTENT_START + OMFS_E_ENTRIES);
}

static uint64_t bucket_of(const char *name)
{
	return omfs_name_hash(name, strlen(name), NBUCKETS);
}

/* ---- running fsck ---- */

struct finding {
	enum omfs_fsck_severity sev;
	char *msg;
};

struct run {
	int code;
	struct omfs_fsck_result res;
	GPtrArray *log;
};

static void finding_free(gpointer p)
{
	struct finding *fi = p;

	g_free(fi->msg);
	g_free(fi);
}

static const char *sev_name(enum omfs_fsck_severity sev)
{
	static const char *const names[] = { "INFO", "LEAK", "ERROR", "FIXED" };

	return sev <= OMFS_FSCK_FIXED ? names[sev] : "?";
}

static void collect(void *ctx, enum omfs_fsck_severity sev, const char *msg)
{
	struct finding *fi = g_new0(struct finding, 1);

	fi->sev = sev;
	fi->msg = g_strdup(msg);
	g_ptr_array_add(ctx, fi);
	g_test_message("  %s: %s", sev_name(sev), msg);
}

static void run_clear(struct run *r)
{
	if (r->log)
		g_ptr_array_unref(r->log);
	r->log = NULL;
}

static int fsck_dev(const struct omfs_blockdev *bdev, bool repair, struct run *r)
{
	struct omfs_fsck_opts o = { .repair = repair, .report = collect };

	run_clear(r);
	r->log = g_ptr_array_new_with_free_func(finding_free);
	o.report_ctx = r->log;
	g_test_message("fsck%s:", repair ? " --repair" : "");
	r->code = omfs_fsck(bdev, &o, &r->res);
	g_test_message("  -> %d (errors %u, fixed %u, leaked %llu)", r->code, r->res.errors,
		       r->res.fixed, (unsigned long long)r->res.leaked_blocks);
	return r->code;
}

static int fsck(struct vol *v, bool repair, struct run *r)
{
	return fsck_dev(&v->dev->bdev, repair, r);
}

static unsigned count(const struct run *r, enum omfs_fsck_severity sev)
{
	unsigned n = 0;

	for (guint i = 0; i < r->log->len; i++)
		n += ((struct finding *)g_ptr_array_index(r->log, i))->sev == sev;
	return n;
}

/* A finding of this severity whose sentence contains every one of the words. */
static bool has(const struct run *r, enum omfs_fsck_severity sev, const char *w1, const char *w2)
{
	for (guint i = 0; i < r->log->len; i++) {
		const struct finding *fi = g_ptr_array_index(r->log, i);

		if (fi->sev == sev && strstr(fi->msg, w1) && (!w2 || strstr(fi->msg, w2)))
			return true;
	}
	return false;
}

static char *num(uint64_t n)
{
	return g_strdup_printf("%llu", (unsigned long long)n);
}

/* The volume checks clean, with nothing but what `infos` allows as INFO. */
static void assert_clean(struct vol *v, unsigned infos)
{
	struct run r = { 0 };

	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_CLEAN);
	g_assert_cmpuint(r.res.errors, ==, 0);
	g_assert_cmpuint(count(&r, OMFS_FSCK_ERROR), ==, 0);
	g_assert_cmpuint(count(&r, OMFS_FSCK_LEAK), ==, 0);
	g_assert_cmpuint(count(&r, OMFS_FSCK_INFO), <=, infos);
	run_clear(&r);
}

/* Check finds errors (4), repair fixes them all (1), and a second check is clean. */
static void assert_repairable(struct vol *v, struct run *first)
{
	struct run r = { 0 };

	g_assert_cmpint(fsck(v, true, &r), ==, OMFS_FSCK_CORRECTED);
	g_assert_cmpuint(r.res.errors, ==, first->res.errors);
	g_assert_cmpuint(r.res.fixed, ==, r.res.errors);
	g_assert_cmpuint(count(&r, OMFS_FSCK_FIXED), >, 0);
	run_clear(&r);
	assert_clean(v, 0);
}

/* Notes (exit 0), and a repair normalises them (exit 1), leaving no note. */
static void assert_notes_normalised(struct vol *v, unsigned notes)
{
	struct run r = { 0 };
	uint64_t writes = v->dev->writes;

	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_CLEAN);
	g_assert_cmpuint(r.res.errors, ==, 0);
	g_assert_cmpuint(r.res.notes, ==, notes);
	g_assert_cmpuint(count(&r, OMFS_FSCK_NOTE), ==, notes);
	g_assert_cmpuint(v->dev->writes, ==, writes);
	run_clear(&r);
	g_assert_cmpint(fsck(v, true, &r), ==, OMFS_FSCK_CORRECTED);
	g_assert_true(r.res.normalized);
	g_assert_cmpuint(count(&r, OMFS_FSCK_FIXED), ==, 1);
	run_clear(&r);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_CLEAN);
	g_assert_cmpuint(r.res.notes, ==, 0);
	run_clear(&r);
	g_assert_cmpint(fsck(v, true, &r), ==, OMFS_FSCK_CLEAN);
	run_clear(&r);
}

/* ---- the tests ---- */

static void test_clean(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	uint64_t writes;

	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_CLEAN);
	g_assert_cmpuint(r.res.errors, ==, 0);
	g_assert_cmpuint(r.res.fixed, ==, 0);
	g_assert_cmpuint(r.res.leaked_blocks, ==, 0);
	g_assert_cmpuint(r.res.files, ==, 5);
	g_assert_cmpuint(r.res.dirs, ==, 2);
	g_assert_cmpuint(r.log->len, ==, 0);
	/* a repair of a clean volume writes nothing */
	writes = v->dev->writes;
	g_assert_cmpint(fsck(v, true, &r), ==, OMFS_FSCK_CLEAN);
	g_assert_cmpuint(v->dev->writes, ==, writes);
	g_assert_cmpuint(r.log->len, ==, 0);
	run_clear(&r);
	vol_free(v);
}

static void test_clean_fragmented(void)
{
	struct vol *v = vol_new_fragmented();
	uint64_t next = get64(v, v->frag, OMFS_EXTENT_START + OMFS_E_NEXT);

	g_assert_cmpuint(next, !=, OMFS_NIL);
	g_assert_cmpuint(blockp(v, next)[OMFS_H_TYPE], ==, OMFS_TYPE_CONT);
	assert_clean(v, 0);
	vol_free(v);
}

static void test_primary_crc(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	char *ino = num(v->a);

	blockp(v, v->a)[OMFS_H_CRC] ^= 0x40;
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_cmpuint(r.res.errors, ==, 1);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, ino, "primary copy"));
	assert_repairable(v, &r);
	g_assert_cmpmem(blockp(v, v->a), SYS_BS, blockp(v, v->a + 1), SYS_BS);
	g_assert_null(omfs_header_problem(blockp(v, v->a), SYS_BS));
	run_clear(&r);
	g_free(ino);
	vol_free(v);
}

static void test_body_corrupt_in_primary(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	struct omfs_fs *fs;
	uint8_t buf[600];

	/* a flipped byte in the extent table: the CRC catches it and the mirror has the truth */
	blockp(v, v->a)[OMFS_EXTENT_START + OMFS_E_ENTRIES + 3] ^= 0x10;
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "primary copy", "CRC"));
	assert_repairable(v, &r);
	fs = vol_mount(v);
	g_assert_cmpint(omfs_read(fs, v->a, 0, buf, sizeof(buf)), ==, 600);
	g_assert_cmpuint(buf[599], ==, (uint8_t)(599 * 7 + 3));
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	run_clear(&r);
	vol_free(v);
}

static void test_mirror_differs(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	uint8_t *mirror = blockp(v, v->song + 1);

	/*
	 * a mirror that verifies on its own but says something else: what a cut
	 * between the primary's write and the mirror's leaves, a leftover (leak
	 * class) that repair rewrites, since only the primary is ever read
	 */
	omfs_put_be64(mirror + OMFS_I_CTIME, 42);
	omfs_seal_header(mirror, SYS_BS);
	g_assert_null(omfs_header_problem(mirror, SYS_BS));
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_cmpuint(r.res.errors, ==, 1);
	g_assert_true(has(&r, OMFS_FSCK_LEAK, "mirror copy 1", "differs"));
	assert_repairable(v, &r);
	g_assert_cmpmem(blockp(v, v->song), SYS_BS, mirror, SYS_BS);
	g_assert_cmpuint(omfs_be64(mirror + OMFS_I_CTIME), !=, 42);
	run_clear(&r);
	vol_free(v);
}

static void test_mirror_bad_self(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	uint8_t *mirror = blockp(v, v->music + 1);

	/* Linux mirrors carry the primary's number: a mirror naming itself is wrong */
	omfs_put_be64(mirror + OMFS_H_SELF, v->music + 1);
	omfs_seal_header(mirror, SYS_BS);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "mirror copy 1", "self pointer"));
	assert_repairable(v, &r);
	g_assert_cmpuint(omfs_be64(mirror + OMFS_H_SELF), ==, v->music);
	run_clear(&r);
	vol_free(v);
}

static void test_leaked_blocks(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	struct omfs_statfs before, after;
	struct omfs_fs *fs = vol_mount(v);
	uint64_t first = v->num_blocks - 20;

	omfs_statfs(fs, &before);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	for (uint64_t n = first; n < first + 6; n++) {
		g_assert_false(bit_used(v, n));
		bit_put(v, n, true);
	}
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_cmpuint(r.res.leaked_blocks, ==, 6);
	g_assert_cmpuint(count(&r, OMFS_FSCK_LEAK), ==, 1);
	g_assert_cmpuint(count(&r, OMFS_FSCK_ERROR), ==, 0);
	g_assert_true(has(&r, OMFS_FSCK_LEAK, "2028..2033", NULL));

	g_assert_cmpint(fsck(v, true, &r), ==, OMFS_FSCK_CORRECTED);
	g_assert_cmpuint(r.res.leaked_blocks, ==, 6);
	g_assert_true(has(&r, OMFS_FSCK_FIXED, "6 blocks freed", NULL));
	for (uint64_t n = first; n < first + 6; n++)
		g_assert_false(bit_used(v, n));
	assert_clean(v, 0);
	fs = vol_mount(v);
	omfs_statfs(fs, &after);
	g_assert_cmpuint(after.free_blocks, ==, before.free_blocks);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	run_clear(&r);
	vol_free(v);
}

static void test_used_but_free(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	uint64_t blk = extent_start(v, v->b);
	char *b = num(blk);

	g_assert_true(bit_used(v, blk));
	bit_put(v, blk, false);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_cmpuint(r.res.errors, ==, 1);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, b, "marked free"));
	assert_repairable(v, &r);
	g_assert_true(bit_used(v, blk));
	run_clear(&r);
	g_free(b);
	vol_free(v);
}

static void test_shared_block(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	uint64_t a_blk = extent_start(v, v->a), b_blk = extent_start(v, v->b);
	char *first = g_strdup_printf("the first is block %llu", (unsigned long long)b_blk);

	/* file a now claims file b's first block; its own block is owned by nothing */
	set64(v, v->a, OMFS_EXTENT_START + OMFS_E_ENTRIES, b_blk);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "also used by another", first));
	g_assert_cmpuint(r.res.leaked_blocks, ==, 1);

	/* not safe to repair: which file owns the block is unknown; the leak is reclaimed */
	g_assert_cmpint(fsck(v, true, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_false(bit_used(v, a_blk));
	g_assert_true(bit_used(v, b_blk));
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "also used by another", first));
	g_assert_cmpuint(r.res.leaked_blocks, ==, 0);
	g_assert_cmpuint(count(&r, OMFS_FSCK_LEAK), ==, 0);
	run_clear(&r);
	g_free(first);
	vol_free(v);
}

static void test_sibling_loop(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	uint32_t bucket = (uint32_t)bucket_of("11");
	uint64_t head = get64(v, v->root, OMFS_DIR_START + bucket * 8), tail;
	struct omfs_fs *fs;
	uint64_t ino;

	g_assert_cmpuint(bucket, ==, bucket_of("30"));
	tail = get64(v, head, OMFS_I_SIBLING);
	g_assert_true((head == v->c30 && tail == v->c11) || (head == v->c11 && tail == v->c30));
	g_assert_cmpuint(get64(v, tail, OMFS_I_SIBLING), ==, OMFS_NIL);
	set64(v, tail, OMFS_I_SIBLING, head);

	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_cmpuint(r.res.errors, ==, 1);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "loop", NULL));
	assert_repairable(v, &r);
	g_assert_cmpuint(get64(v, tail, OMFS_I_SIBLING), ==, OMFS_NIL);
	fs = vol_mount(v);
	g_assert_cmpint(omfs_lookup(fs, v->root, "11", 2, &ino), ==, 0);
	g_assert_cmpint(omfs_lookup(fs, v->root, "30", 2, &ino), ==, 0);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	run_clear(&r);
	vol_free(v);
}

static void test_bad_parent(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	char *a = num(v->a);
	struct omfs_fs *fs;
	uint64_t ino;

	set64(v, v->a, OMFS_I_PARENT, v->music);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, a, "parent pointer"));
	/* the entry would be detached: its inode (2 blocks) and data block are owned by nothing */
	g_assert_cmpuint(r.res.leaked_blocks, ==, 3);
	g_assert_cmpuint(r.res.files, ==, 4);

	assert_repairable(v, &r);
	fs = vol_mount(v);
	g_assert_cmpint(omfs_lookup(fs, v->root, "a", 1, &ino), ==, -ENOENT);
	g_assert_cmpint(omfs_lookup(fs, v->root, "b", 1, &ino), ==, 0);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	run_clear(&r);
	g_free(a);
	vol_free(v);
}

static void test_extent_outside(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	char *a = num(v->a);

	set64(v, v->a, OMFS_EXTENT_START + OMFS_E_ENTRIES, v->num_blocks + 5);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, a, "outside the data area"));
	g_assert_cmpuint(r.res.leaked_blocks, ==, 1);
	/* no safe repair for the extent itself; the leaked block is reclaimed */
	g_assert_cmpint(fsck(v, true, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_cmpuint(r.res.errors, ==, 1);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, a, "outside the data area"));
	run_clear(&r);
	g_free(a);
	vol_free(v);
}

static void test_extent_in_metadata(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };

	/* block 3 is the root directory: inside the volume, but not data */
	set64(v, v->a, OMFS_EXTENT_START + OMFS_E_ENTRIES, 3);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "extent 0", "outside the data area"));
	run_clear(&r);
	vol_free(v);
}

static void test_wrong_terminator(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	uint32_t count = omfs_be32(blockp(v, v->b) + OMFS_EXTENT_START + OMFS_E_COUNT);
	uint32_t term = OMFS_EXTENT_START + OMFS_E_ENTRIES + (count - 1) * OMFS_E_ENTRY_SIZE;
	uint64_t good = get64(v, v->b, term + 8);

	/* the kernel never reads the total, nor does our reader: a note */
	set64(v, v->b, term + 8, good - 1);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_CLEAN);
	g_assert_true(has(&r, OMFS_FSCK_NOTE, "terminator", NULL));
	run_clear(&r);
	assert_notes_normalised(v, 1);
	g_assert_cmpuint(get64(v, v->b, term + 8), ==, good);
	vol_free(v);
}

static void test_wrong_bucket(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	uint8_t *name = blockp(v, v->a) + OMFS_I_NAME;
	struct omfs_fs *fs;
	uint64_t ino;

	/* renamed on disk behind the directory's back: "zz" hashes elsewhere */
	g_assert_cmpuint(bucket_of("zz"), !=, bucket_of("a"));
	memcpy(name, "zz", 3);
	reseal(v, v->a);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_cmpuint(r.res.errors, ==, 1);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "hashes to bucket", NULL));
	assert_repairable(v, &r);
	g_assert_cmpuint(get64(v, v->root, OMFS_DIR_START + bucket_of("zz") * 8), ==, v->a);
	g_assert_cmpuint(get64(v, v->root, OMFS_DIR_START + bucket_of("a") * 8), ==, OMFS_NIL);
	fs = vol_mount(v);
	g_assert_cmpint(omfs_lookup(fs, v->root, "zz", 2, &ino), ==, 0);
	g_assert_cmpuint(ino, ==, v->a);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	run_clear(&r);
	vol_free(v);
}

static void test_unreadable_entry(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	uint32_t bucket = (uint32_t)bucket_of("11");
	uint64_t head = get64(v, v->root, OMFS_DIR_START + bucket * 8);
	struct omfs_fs *fs;
	uint64_t ino;

	/* both copies of the chain's head are garbage: the chain is cut at the bucket */
	blockp(v, head)[OMFS_H_MAGIC] = 0;
	blockp(v, head + 1)[OMFS_H_MAGIC] = 0;
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "no copy verifies", NULL));
	assert_repairable(v, &r);
	g_assert_cmpuint(get64(v, v->root, OMFS_DIR_START + bucket * 8), ==, OMFS_NIL);
	fs = vol_mount(v);
	g_assert_cmpint(omfs_lookup(fs, v->root, "b", 1, &ino), ==, 0);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	run_clear(&r);
	vol_free(v);
}

static void test_unknown_type(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	uint32_t bucket = (uint32_t)bucket_of("11");
	uint64_t head = get64(v, v->root, OMFS_DIR_START + bucket * 8);
	uint64_t tail = get64(v, head, OMFS_I_SIBLING);
	struct omfs_fs *fs;

	/* a readable node of no known type: dropped, and its successor stays linked */
	blockp(v, head)[OMFS_I_TYPE] = 'X';
	reseal(v, head);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "unknown inode type", NULL));
	assert_repairable(v, &r);
	g_assert_cmpuint(get64(v, v->root, OMFS_DIR_START + bucket * 8), ==, tail);
	fs = vol_mount(v);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	run_clear(&r);
	vol_free(v);
}

static void test_entry_linked_twice(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };

	/* the music directory's empty bucket for "b" now lists root's "b" as well */
	set64(v, v->music, OMFS_DIR_START + bucket_of("b") * 8, v->b);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "reached before", NULL) ||
		      has(&r, OMFS_FSCK_ERROR, "parent pointer", NULL));
	assert_repairable(v, &r);
	g_assert_cmpuint(get64(v, v->root, OMFS_DIR_START + bucket_of("b") * 8), ==, v->b);
	run_clear(&r);
	vol_free(v);
}

static void test_size_past_mapping(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };

	set64(v, v->a, OMFS_I_SIZE, 5 * BS);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "tail cannot be read", NULL));
	run_clear(&r);
	vol_free(v);
}

static void test_slack_is_info(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };

	/* 13 blocks mapped for 1 byte: more than a cluster of preallocation, but harmless */
	set64(v, v->b, OMFS_I_SIZE, 1);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_CLEAN);
	g_assert_cmpuint(count(&r, OMFS_FSCK_INFO), ==, 1);
	g_assert_true(has(&r, OMFS_FSCK_INFO, "past its end", NULL));
	run_clear(&r);
	vol_free(v);
}

/* A harmless finding alone: the volume is clean, and a repair writes nothing. */
static void assert_info_only(struct vol *v, const char *what)
{
	struct run r = { 0 };
	uint64_t writes = v->dev->writes;

	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_CLEAN);
	g_assert_true(has(&r, OMFS_FSCK_INFO, what, NULL));
	g_assert_cmpint(fsck(v, true, &r), ==, OMFS_FSCK_CLEAN);
	g_assert_true(has(&r, OMFS_FSCK_INFO, what, NULL));
	g_assert_cmpuint(count(&r, OMFS_FSCK_FIXED), ==, 0);
	g_assert_cmpuint(v->dev->writes, ==, writes);
	run_clear(&r);
}

/* With a real error to repair as well, the harmless finding is tidied too. */
static void assert_tidied_with_errors(struct vol *v, const char *fix)
{
	struct run r = { 0 };
	uint64_t leak = v->num_blocks - 7;

	g_assert_false(bit_used(v, leak));
	bit_put(v, leak, true);
	g_assert_cmpint(fsck(v, true, &r), ==, OMFS_FSCK_CORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_FIXED, fix, NULL));
	g_assert_false(bit_used(v, leak));
	run_clear(&r);
	assert_clean(v, 0);
}

static void test_dir_size_info(void)
{
	struct vol *v = vol_new();

	set64(v, v->music, OMFS_I_SIZE, 0);
	assert_info_only(v, "size is 0");
	assert_tidied_with_errors(v, "set its size");
	g_assert_cmpuint(get64(v, v->music, OMFS_I_SIZE), ==, SYS_BS);
	vol_free(v);
}

static void test_empty_name(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	uint64_t old = bucket_of("a");

	/* an empty name hashes to bucket 0; move it there so only the name is wrong */
	memset(blockp(v, v->a) + OMFS_I_NAME, 0, OMFS_NAME_MAX);
	reseal(v, v->a);
	set64(v, v->root, OMFS_DIR_START + old * 8, OMFS_NIL);
	set64(v, v->root, OMFS_DIR_START, v->a);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "empty name", NULL));
	run_clear(&r);
	vol_free(v);
}

static void test_bitmap_tail(void)
{
	struct vol *v = vol_new();
	uint64_t past = v->num_blocks + 3;

	/* mkomfs leaves these clear */
	g_assert_true(bit_used(v, past));
	bit_put(v, past, false);
	assert_info_only(v, "past the volume");
	assert_tidied_with_errors(v, "bits past the end set");
	g_assert_true(bit_used(v, past));
	vol_free(v);
}

static void test_duplicate_names(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };
	char *dup = g_strdup_printf("entries %llu and %llu are both named '11'",
				    (unsigned long long)MIN(v->c11, v->c30),
				    (unsigned long long)MAX(v->c11, v->c30));

	/* "30" renamed "11" on disk: the same bucket, so only the name is wrong */
	memcpy(blockp(v, v->c30) + OMFS_I_NAME, "11", 2);
	reseal(v, v->c30);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_cmpuint(r.res.errors, ==, 1);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, dup, NULL));
	/* which one to rename is a choice for the user */
	g_assert_cmpint(fsck(v, true, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_cmpuint(r.res.fixed, ==, 0);
	run_clear(&r);
	g_free(dup);
	vol_free(v);
}

static void test_root_block_unsealed(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };

	/* what mkomfs writes: CRC and XOR left 0 in both copies; the kernel never reads them */
	for (uint64_t i = 0; i < MIRRORS; i++) {
		omfs_put_be16(blockp(v, 1 + i) + OMFS_H_CRC, 0);
		blockp(v, 1 + i)[OMFS_H_XOR] = 0;
	}
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_CLEAN);
	g_assert_true(has(&r, OMFS_FSCK_NOTE, "root block 1", "not sealed"));
	run_clear(&r);
	assert_notes_normalised(v, 2);
	g_assert_null(omfs_header_problem(blockp(v, 1), SYS_BS));
	g_assert_cmpmem(blockp(v, 1), SYS_BS, blockp(v, 2), SYS_BS);
	vol_free(v);
}

/* The unsealed copies must still agree: a mirror that differs is an error. */
static void test_root_block_unsealed_differs(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };

	for (uint64_t i = 0; i < MIRRORS; i++) {
		omfs_put_be16(blockp(v, 1 + i) + OMFS_H_CRC, 0);
		blockp(v, 1 + i)[OMFS_H_XOR] = 0;
	}
	blockp(v, 2)[OMFS_R_NAME] ^= 1;
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "root block 1", "differs"));
	assert_repairable(v, &r);
	run_clear(&r);
	vol_free(v);
}

static void test_root_block_fields(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };

	/* copies of the superblock's fields that the kernel ignores and omfsck never checks */
	omfs_put_be64(blockp(v, 1) + OMFS_R_MIRRORS, 3);
	omfs_put_be32(blockp(v, 1) + OMFS_R_BLOCKSIZE, 4096);
	reseal(v, 1);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_CLEAN);
	g_assert_true(has(&r, OMFS_FSCK_NOTE, "mirror count 3", NULL));
	g_assert_true(has(&r, OMFS_FSCK_NOTE, "block size 4096", NULL));
	run_clear(&r);
	assert_notes_normalised(v, 2);
	g_assert_cmpuint(get64(v, 1, OMFS_R_MIRRORS), ==, MIRRORS);
	g_assert_cmpuint(omfs_be32(blockp(v, 1) + OMFS_R_BLOCKSIZE), ==, BS);
	vol_free(v);
}

/* mkomfs's r_mirrors: a big-endian 32-bit 2 through a 64-bit swap, 33554432. */
static void test_root_block_mkomfs_mirrors(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };

	omfs_put_be64(blockp(v, 1) + OMFS_R_MIRRORS, 33554432);
	reseal(v, 1);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_CLEAN);
	g_assert_true(has(&r, OMFS_FSCK_NOTE, "mirror count 33554432", "as mkomfs writes it"));
	run_clear(&r);
	assert_notes_normalised(v, 1);
	g_assert_cmpuint(get64(v, 1, OMFS_R_MIRRORS), ==, MIRRORS);
	vol_free(v);
}

/* The root has neither a parent nor siblings: either pointer set is an error. */
static void check_root_pointer(uint32_t off, const char *what)
{
	struct vol *v = vol_new();
	struct run r = { 0 };

	set64(v, v->root, off, 77);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "root directory", what));
	assert_repairable(v, &r);
	run_clear(&r);
	vol_free(v);
}

static void test_root_parent(void)
{
	check_root_pointer(OMFS_I_PARENT, "parent pointer");
}

static void test_root_sibling(void)
{
	check_root_pointer(OMFS_I_SIBLING, "sibling pointer");
}

static void test_bad_superblock(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };

	blockp(v, 0)[OMFS_SB_MAGIC] ^= 0xFF;
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_cmpuint(r.res.errors, ==, 1);
	g_assert_cmpuint(count(&r, OMFS_FSCK_ERROR), ==, 1);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "magic", NULL));
	g_assert_cmpint(fsck(v, true, &r), ==, OMFS_FSCK_UNCORRECTED);
	run_clear(&r);
	vol_free(v);
}

static void test_continuation_crc(void)
{
	struct vol *v = vol_new_fragmented();
	struct run r = { 0 };
	uint64_t next = get64(v, v->frag, OMFS_EXTENT_START + OMFS_E_NEXT);
	char *c = num(next);

	blockp(v, next)[OMFS_EXTENT_CONT + OMFS_E_ENTRIES + 7] ^= 1;
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_cmpuint(r.res.errors, ==, 1);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, c, "primary copy"));
	assert_repairable(v, &r);
	g_assert_cmpmem(blockp(v, next), SYS_BS, blockp(v, next + 1), SYS_BS);
	run_clear(&r);
	g_free(c);
	vol_free(v);
}

static void test_continuation_loop(void)
{
	struct vol *v = vol_new_fragmented();
	struct run r = { 0 };
	uint64_t next = get64(v, v->frag, OMFS_EXTENT_START + OMFS_E_NEXT);

	set64(v, next, OMFS_EXTENT_CONT + OMFS_E_NEXT, next);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "loops", NULL));
	/* cutting the chain is not safe (it could lose the file's tail): left alone */
	g_assert_cmpint(fsck(v, true, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	run_clear(&r);
	vol_free(v);
}

static void test_continuation_count(void)
{
	struct vol *v = vol_new_fragmented();
	struct run r = { 0 };
	uint64_t next = get64(v, v->frag, OMFS_EXTENT_START + OMFS_E_NEXT);
	uint64_t leak = v->num_blocks - 10;

	/* the table's blocks are unknown: a leak elsewhere must not be reclaimed */
	omfs_put_be32(blockp(v, next) + OMFS_EXTENT_CONT + OMFS_E_COUNT, 5000);
	reseal(v, next);
	bit_put(v, leak, true);
	g_assert_cmpint(fsck(v, false, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_ERROR, "extent count 5000", NULL));
	g_assert_cmpint(fsck(v, true, &r), ==, OMFS_FSCK_UNCORRECTED);
	g_assert_true(has(&r, OMFS_FSCK_INFO, "leaked blocks are kept", NULL));
	g_assert_true(bit_used(v, leak));
	run_clear(&r);
	vol_free(v);
}

/* ---- failures that are not the volume's ---- */

struct flaky {
	struct omfs_blockdev bdev;
	const struct omfs_blockdev *inner;
	int reads_left;		/* -1: never fail */
};

static int flaky_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	struct flaky *fl = ctx;

	if (fl->reads_left == 0)
		return -EIO;
	if (fl->reads_left > 0)
		fl->reads_left--;
	return fl->inner->read(fl->inner->ctx, off, buf, len);
}

static int flaky_write(void *ctx, uint64_t off, const void *buf, size_t len)
{
	struct flaky *fl = ctx;

	return fl->inner->write(fl->inner->ctx, off, buf, len);
}

static uint64_t flaky_size(void *ctx)
{
	struct flaky *fl = ctx;

	return fl->inner->size(fl->inner->ctx);
}

static void test_read_error(void)
{
	struct vol *v = vol_new();
	struct flaky fl = { .inner = &v->dev->bdev };
	struct run r = { 0 };
	int clean_reads;

	fl.bdev = (struct omfs_blockdev){ .ctx = &fl, .read = flaky_read, .write = flaky_write,
					  .size = flaky_size };
	fl.reads_left = 1000000;
	g_assert_cmpint(fsck_dev(&fl.bdev, false, &r), ==, OMFS_FSCK_CLEAN);
	clean_reads = 1000000 - fl.reads_left;
	/* a read failing at any point is the device's fault, not the volume's */
	for (int n = 0; n < clean_reads; n += 1 + n / 4) {
		fl.reads_left = n;
		g_assert_cmpint(fsck_dev(&fl.bdev, false, &r), ==, OMFS_FSCK_OPERATIONAL);
	}
	run_clear(&r);
	vol_free(v);
}

static void test_write_error(void)
{
	struct vol *v = vol_new();
	struct run r = { 0 };

	blockp(v, v->a)[OMFS_H_CRC] ^= 1;
	v->dev->fail_armed = true;
	v->dev->writes_left = 0;
	g_assert_cmpint(fsck(v, true, &r), ==, OMFS_FSCK_OPERATIONAL);
	v->dev->fail_armed = false;
	g_assert_cmpint(fsck(v, true, &r), ==, OMFS_FSCK_CORRECTED);
	assert_clean(v, 0);
	run_clear(&r);
	vol_free(v);
}

/* ---- random damage ---- */

/* The metadata worth hitting: sysblocks of the tree, continuation blocks, the bitmap. */
static uint64_t pick_block(struct vol *v, GRand *rng)
{
	uint64_t next = get64(v, v->frag, OMFS_EXTENT_START + OMFS_E_NEXT);
	const uint64_t targets[] = {
		1, 2, v->root, v->root + 1, v->music, v->a, v->a + 1, v->b, v->c11, v->c30,
		v->song, v->song + 1, v->frag, next, next + 1, v->bitmap,
	};

	return targets[g_rand_int_range(rng, 0, G_N_ELEMENTS(targets))];
}

static void damage(struct vol *v, GRand *rng)
{
	int hits = g_rand_int_range(rng, 1, 4);

	for (int i = 0; i < hits; i++) {
		uint64_t block = pick_block(v, rng);
		uint32_t off;

		/* mostly the fields that matter; sometimes anywhere in the sysblock */
		switch (g_rand_int_range(rng, 0, 4)) {
		case 0:
			off = (uint32_t)g_rand_int_range(rng, 0, OMFS_HDR_SIZE);
			break;
		case 1:
			off = (uint32_t)g_rand_int_range(rng, OMFS_I_PARENT, OMFS_I_CTIME);
			break;
		case 2:
			off = (uint32_t)g_rand_int_range(rng, OMFS_DIR_START, OMFS_DIR_START + 64);
			break;
		default:
			off = (uint32_t)g_rand_int_range(rng, 0, SYS_BS);
			break;
		}
		blockp(v, block)[off] ^= (uint8_t)g_rand_int_range(rng, 1, 256);
		/* half the time the damage is sealed in, so it gets past the checksums */
		if (g_rand_boolean(rng) && block != v->bitmap)
			reseal(v, block);
	}
}

static void test_random_damage(void)
{
	struct vol *pristine = vol_new_fragmented();
	GRand *rng = g_rand_new_with_seed(20240611);
	unsigned corrected = 0, uncorrected = 0;

	for (int round = 0; round < 300; round++) {
		struct vol v = *pristine;
		struct run r = { 0 };
		int first, repaired, second;

		v.dev = km_mem_device_new(DEV_SIZE, pristine->dev->data);
		g_assert_nonnull(v.dev);
		damage(&v, rng);
		first = fsck(&v, false, &r);
		g_assert_cmpint(first, !=, OMFS_FSCK_OPERATIONAL);
		g_assert_cmpint(first, !=, OMFS_FSCK_CORRECTED);
		repaired = fsck(&v, true, &r);
		g_assert_cmpint(repaired, !=, OMFS_FSCK_OPERATIONAL);
		g_assert_true(first != OMFS_FSCK_CLEAN || repaired == OMFS_FSCK_CLEAN);
		second = fsck(&v, false, &r);
		/* a repair that says it fixed everything leaves a clean volume */
		if (repaired != OMFS_FSCK_UNCORRECTED)
			g_assert_cmpint(second, ==, OMFS_FSCK_CLEAN);
		else
			g_assert_cmpint(second, ==, OMFS_FSCK_UNCORRECTED);
		corrected += repaired == OMFS_FSCK_CORRECTED;
		uncorrected += repaired == OMFS_FSCK_UNCORRECTED;
		/* and a volume that checks clean is usable */
		if (second == OMFS_FSCK_CLEAN) {
			struct omfs_fs *fs = vol_mount(&v);
			uint64_t ino;

			g_assert_cmpint(omfs_create(fs, v.root, "new", 3, &ino), ==, 0);
			g_assert_cmpint(omfs_unmount(fs), ==, 0);
			assert_clean(&v, 8);
		}
		run_clear(&r);
		km_mem_device_free(v.dev);
	}
	g_test_message("random damage: %u rounds corrected, %u left with errors", corrected,
		       uncorrected);
	g_assert_cmpuint(corrected, >, 0);
	g_rand_free(rng);
	vol_free(pristine);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/fsck/clean", test_clean);
	g_test_add_func("/fsck/clean-fragmented", test_clean_fragmented);
	g_test_add_func("/fsck/primary-crc", test_primary_crc);
	g_test_add_func("/fsck/primary-body", test_body_corrupt_in_primary);
	g_test_add_func("/fsck/mirror-differs", test_mirror_differs);
	g_test_add_func("/fsck/mirror-self", test_mirror_bad_self);
	g_test_add_func("/fsck/leaked-blocks", test_leaked_blocks);
	g_test_add_func("/fsck/used-but-free", test_used_but_free);
	g_test_add_func("/fsck/shared-block", test_shared_block);
	g_test_add_func("/fsck/sibling-loop", test_sibling_loop);
	g_test_add_func("/fsck/bad-parent", test_bad_parent);
	g_test_add_func("/fsck/extent-outside", test_extent_outside);
	g_test_add_func("/fsck/extent-in-metadata", test_extent_in_metadata);
	g_test_add_func("/fsck/wrong-terminator", test_wrong_terminator);
	g_test_add_func("/fsck/wrong-bucket", test_wrong_bucket);
	g_test_add_func("/fsck/unreadable-entry", test_unreadable_entry);
	g_test_add_func("/fsck/unknown-type", test_unknown_type);
	g_test_add_func("/fsck/linked-twice", test_entry_linked_twice);
	g_test_add_func("/fsck/size-past-mapping", test_size_past_mapping);
	g_test_add_func("/fsck/slack-is-info", test_slack_is_info);
	g_test_add_func("/fsck/dir-size-info", test_dir_size_info);
	g_test_add_func("/fsck/empty-name", test_empty_name);
	g_test_add_func("/fsck/bitmap-tail", test_bitmap_tail);
	g_test_add_func("/fsck/duplicate-names", test_duplicate_names);
	g_test_add_func("/fsck/root-block-unsealed", test_root_block_unsealed);
	g_test_add_func("/fsck/root-block-unsealed-differs", test_root_block_unsealed_differs);
	g_test_add_func("/fsck/root-block-mkomfs-mirrors", test_root_block_mkomfs_mirrors);
	g_test_add_func("/fsck/root-block-fields", test_root_block_fields);
	g_test_add_func("/fsck/root-parent", test_root_parent);
	g_test_add_func("/fsck/root-sibling", test_root_sibling);
	g_test_add_func("/fsck/bad-superblock", test_bad_superblock);
	g_test_add_func("/fsck/continuation-crc", test_continuation_crc);
	g_test_add_func("/fsck/continuation-loop", test_continuation_loop);
	g_test_add_func("/fsck/continuation-count", test_continuation_count);
	g_test_add_func("/fsck/read-error", test_read_error);
	g_test_add_func("/fsck/write-error", test_write_error);
	g_test_add_func("/fsck/random-damage", test_random_damage);
	return g_test_run();
}
