/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostile-images.c - valid, populated base volumes made through the core's
 * public API, and the table of corruptions applied to them.
 *
 * Each change is made to the primary copy of a sysblock and then carried to
 * the mirrors (or not) as the case says: a raw change leaves the checksums
 * stale, so it tests the header checks and the mirror fallback; a sealed one
 * gets past the checksums (omfs_seal_header) to test the check of the field
 * itself, and with every copy changed no mirror can hide it.
 */
#include "hostile-images.h"

#include "omfs-private.h"
#include "km-mem-device.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define KiB 1024u
#define MiB (1024u * 1024u)
#define BUILD_TIME_MS 1700000000000ull
#define MAX_CHAIN 64

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fputs("hostile-images: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* ---- objects and their paths ---- */

static const char *const obj_paths[HO_NOBJS] = {
	[HO_HELLO] = "/hello.txt",
	[HO_BIG] = "/big.bin",
	[HO_FRAG] = "/frag.bin",
	[HO_FILLER] = "/filler.bin",
	[HO_EMPTY] = "/empty",
	[HO_DIR1] = "/dir1",
	[HO_A] = "/dir1/a.txt",
	[HO_B] = "/dir1/b.txt",
	[HO_SUB] = "/dir1/sub",
	[HO_DEEP] = "/dir1/sub/deep.txt",
	[HO_N10] = "/10",
	[HO_N31] = "/31",
	[HO_N1] = "/1",
	[HO_N13E] = "/13e",
	[HO_N11] = "/11",
	[HO_PA] = "/a",
	[HO_PJ] = "/j",
};

const char *hostile_obj_path(enum hostile_obj obj)
{
	return obj < HO_NOBJS ? obj_paths[obj] : NULL;
}

const char *hostile_target_path(const struct hostile_case *c)
{
	const char *p = hostile_obj_path(c->target);

	return p ? p : obj_paths[HO_A];
}

/* ---- the base volumes ---- */

enum {
	B_BIG = 1 << 0,		/* /big.bin, 10 blocks */
	B_BTXT = 1 << 1,	/* /dir1/b.txt */
	B_NUMBERS = 1 << 2,	/* names that share buckets */
	B_PAIR = 1 << 3,	/* /a and /j: one bucket of nine */
};

struct base_spec {
	uint64_t size;
	uint32_t blocksize, sys_blocksize, mirrors, clustersize;
	unsigned flags;
	unsigned frag_appends;	/* one-block appends to /frag.bin and /filler.bin, in turn */
	unsigned min_conts;	/* continuation blocks /frag.bin must end up with */
};

static const struct base_spec base_specs[HOSTILE_NBASES] = {
	[HOSTILE_BASE_STD] = { 2 * MiB, 4096, 2048, 2, 1, B_BIG | B_BTXT | B_NUMBERS, 110, 1 },
	[HOSTILE_BASE_SMALL] = { 256 * KiB, 1024, 512, 2, 1, B_PAIR, 40, 2 },
	[HOSTILE_BASE_TINY] = { 64 * KiB, 1024, 512, 2, 1, 0, 4, 1 },
	[HOSTILE_BASE_MID] = { 128 * KiB, 2048, 1024, 2, 2, B_BIG | B_BTXT, 0, 0 },
};

static uint64_t build_clock(void *ctx)
{
	return BUILD_TIME_MS;
}

static void must(int err, struct omfs_fs *fs, const char *what)
{
	if (err < 0)
		die("building a base volume: %s: %s", what, fs ? omfs_errmsg(fs) : strerror(-err));
}

/* Creates the file or directory at path (its parent must exist). */
static uint64_t make_node(struct omfs_fs *fs, const char *path, bool is_dir)
{
	const char *slash = strrchr(path, '/');
	char parent[128];
	uint64_t dir, ino;

	snprintf(parent, sizeof(parent), "%.*s", (int)(slash - path), path);
	must(omfs_resolve(fs, parent, &dir), fs, path);
	if (is_dir)
		must(omfs_mkdir(fs, dir, slash + 1, strlen(slash + 1), &ino), fs, path);
	else
		must(omfs_create(fs, dir, slash + 1, strlen(slash + 1), &ino), fs, path);
	return ino;
}

static void make_file(struct omfs_fs *fs, const char *path, const void *data, size_t len)
{
	uint64_t ino = make_node(fs, path, false);
	int64_t n = omfs_write(fs, ino, 0, data, len);

	if (n != (int64_t)len)
		must(n < 0 ? (int)n : -EIO, fs, path);
}

static void make_text(struct omfs_fs *fs, const char *path, const char *text)
{
	make_file(fs, path, text, strlen(text));
}

static void make_pattern(struct omfs_fs *fs, const char *path, size_t len, unsigned seed)
{
	uint8_t *p = malloc(len);

	if (!p)
		die("out of memory");
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 7 + seed);
	make_file(fs, path, p, len);
	free(p);
}

/* Appending to two files in turn leaves each with one extent per append. */
static void make_fragmented(struct omfs_fs *fs, const struct base_spec *s)
{
	uint64_t frag = make_node(fs, obj_paths[HO_FRAG], false);
	uint64_t filler = make_node(fs, obj_paths[HO_FILLER], false);
	uint8_t *blk = malloc(s->blocksize);

	if (!blk)
		die("out of memory");
	for (unsigned i = 0; i < s->frag_appends; i++) {
		uint64_t off = (uint64_t)i * s->blocksize;

		memset(blk, 'f' + (i & 7), s->blocksize);
		if (omfs_write(fs, frag, off, blk, s->blocksize) != s->blocksize)
			must(-EIO, fs, "appending to /frag.bin");
		memset(blk, 'F', s->blocksize);
		if (omfs_write(fs, filler, off, blk, s->blocksize) != s->blocksize)
			must(-EIO, fs, "appending to /filler.bin");
	}
	free(blk);
}

static void populate(struct omfs_fs *fs, const struct base_spec *s)
{
	make_text(fs, obj_paths[HO_HELLO], "hello, world\n");
	make_node(fs, obj_paths[HO_EMPTY], true);
	make_node(fs, obj_paths[HO_DIR1], true);
	make_text(fs, obj_paths[HO_A], "alpha\n");
	make_node(fs, obj_paths[HO_SUB], true);
	make_text(fs, obj_paths[HO_DEEP], "deep down\n");
	if (s->flags & B_BIG)
		make_pattern(fs, obj_paths[HO_BIG], 10 * s->blocksize - 1234, 13);
	if (s->flags & B_BTXT)
		make_pattern(fs, obj_paths[HO_B], s->blocksize + 904, 5);
	if (s->flags & B_NUMBERS) {
		static const char *const names[] = { "/10", "/31", "/11", "/30", "/53", "/72",
						     "/1", "/13e" };

		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			make_text(fs, names[i], names[i] + 1);
	}
	if (s->flags & B_PAIR) {
		make_text(fs, obj_paths[HO_PA], "a\n");
		make_text(fs, obj_paths[HO_PJ], "j\n");
	}
	if (s->frag_appends)
		make_fragmented(fs, s);
}

static uint8_t *block_at(struct hostile_image *img, uint64_t block)
{
	uint64_t off = block * img->lay.blocksize;

	if (block >= img->lay.num_blocks || off + img->lay.blocksize > img->size)
		die("block %llu is outside the image", (unsigned long long)block);
	return img->data + off;
}

/* Block numbers of the objects, found by path and by following the layout. */
static void discover(struct hostile_image *img, const struct base_spec *s)
{
	struct hostile_layout *lay = &img->lay;
	struct omfs_fs *fs;
	struct km_mem_device *m = km_mem_device_new(img->size, img->data);
	char msg[OMFS_ERRMSG_MAX];
	struct omfs_info info;
	uint64_t next;

	if (!m)
		die("out of memory");
	must(omfs_mount(&m->bdev, &(struct omfs_mount_opts){ .read_only = true }, &fs, msg,
			sizeof(msg)), NULL, msg);
	omfs_get_info(fs, &info);
	lay->blocksize = info.s_blocksize;
	lay->sys_blocksize = info.s_sys_blocksize;
	lay->mirrors = info.s_mirrors;
	lay->num_blocks = info.s_num_blocks;
	lay->nbuckets = (lay->sys_blocksize - OMFS_DIR_START) / 8;
	lay->block[HO_SUPER] = 0;
	lay->block[HO_ROOT] = info.s_root_block;
	lay->block[HO_ROOTDIR] = info.r_root_dir;
	lay->block[HO_BITMAP] = info.r_bitmap;
	for (int o = 0; o < HO_NOBJS; o++)
		if (obj_paths[o] && omfs_resolve(fs, obj_paths[o], &lay->block[o]))
			lay->block[o] = 0;
	omfs_unmount(fs);
	km_mem_device_free(m);

	if (!lay->block[HO_FRAG])
		return;
	next = omfs_be64(block_at(img, lay->block[HO_FRAG]) + OMFS_EXTENT_START + OMFS_E_NEXT);
	for (int o = HO_CONT1; o <= HO_CONT2 && next != OMFS_NIL; o++) {
		lay->block[o] = next;
		next = omfs_be64(block_at(img, next) + OMFS_EXTENT_CONT + OMFS_E_NEXT);
	}
	if ((s->min_conts >= 1 && !lay->block[HO_CONT1]) ||
	    (s->min_conts >= 2 && !lay->block[HO_CONT2]))
		die("/frag.bin has fewer than %u continuation blocks: the allocator no longer fragments it",

		    s->min_conts);
}

void hostile_build_base(enum hostile_base base, struct hostile_image *img)
{
	const struct base_spec *s = &base_specs[base];
	struct omfs_mkfs_opts mo = {
		.blocksize = s->blocksize, .sys_blocksize = s->sys_blocksize, .mirrors = s->mirrors,
		.clustersize = s->clustersize, .label = "hostile", .time_ms = BUILD_TIME_MS,
	};
	struct omfs_mount_opts o = { .clock_ms = build_clock };
	struct km_mem_device *m = km_mem_device_new(s->size, NULL);
	char msg[OMFS_ERRMSG_MAX];
	struct omfs_fs *fs;

	if (!m)
		die("out of memory");
	must(omfs_mkfs(&m->bdev, &mo, msg, sizeof(msg)), NULL, msg);
	must(omfs_mount(&m->bdev, &o, &fs, msg, sizeof(msg)), NULL, msg);
	populate(fs, s);
	must(omfs_unmount(fs), NULL, "unmount");
	memset(img, 0, sizeof(*img));
	img->size = (size_t)m->size;
	img->data = m->data;
	m->data = NULL;
	km_mem_device_free(m);
	discover(img, s);
}

void hostile_image_free(struct hostile_image *img)
{
	free(img->data);
	img->data = NULL;
}

/* ---- editing helpers ---- */

static uint64_t obj_block(const struct hostile_image *img, enum hostile_obj o)
{
	if (o <= HO_NONE || o >= HO_NOBJS || (o != HO_SUPER && !img->lay.block[o]))
		die("object %d is not in this base", o);
	return img->lay.block[o];
}

static uint8_t *obj_data(struct hostile_image *img, enum hostile_obj o)
{
	return block_at(img, obj_block(img, o));
}

static bool obj_has_header(enum hostile_obj o)
{
	return o != HO_SUPER && o != HO_BITMAP;
}

static uint32_t table_offset(enum hostile_obj o)
{
	return o == HO_CONT1 || o == HO_CONT2 ? OMFS_EXTENT_CONT : OMFS_EXTENT_START;
}

/* Carries a change made to the primary of `block` to its mirrors as `copies` says. */
static void commit(struct hostile_image *img, uint64_t block, enum hostile_copies copies)
{
	uint8_t *primary = block_at(img, block);

	if (copies == HC_SEALED_PRIMARY || copies == HC_SEALED_ALL)
		omfs_seal_header(primary, img->lay.sys_blocksize);
	if (copies == HC_RAW_ALL || copies == HC_SEALED_ALL)
		for (uint32_t i = 1; i < img->lay.mirrors; i++)
			memcpy(block_at(img, block + i), primary, img->lay.sys_blocksize);
}

static void commit_obj(struct hostile_image *img, enum hostile_obj o, enum hostile_copies copies)
{
	if (obj_has_header(o))
		commit(img, obj_block(img, o), copies);
}

static void poke(uint8_t *p, uint32_t width, uint64_t v)
{
	for (int i = (int)width - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t case_value(const struct hostile_image *img, const struct hostile_case *c)
{
	switch (c->kind) {
	case HV_END:
		return img->lay.num_blocks + (uint64_t)c->val;
	case HV_BLOCK:
		return obj_block(img, c->ref) + (uint64_t)c->val;
	case HV_MAXEXT:
		return (img->lay.sys_blocksize - c->off - OMFS_E_ENTRIES) / OMFS_E_ENTRY_SIZE +
		       (uint64_t)c->val;
	case HV_CONST:
	default:
		return (uint64_t)c->val;
	}
}

static uint8_t *entry_at(uint8_t *blk, uint32_t table, uint32_t i)
{
	return blk + table + OMFS_E_ENTRIES + (size_t)i * OMFS_E_ENTRY_SIZE;
}

/* Recomputes the terminator of a table, so that only the change under test is wrong. */
static void fix_terminator(uint8_t *blk, uint32_t table)
{
	uint32_t count = omfs_be32(blk + table + OMFS_E_COUNT);
	uint64_t sum = 0;

	for (uint32_t i = 0; i + 1 < count; i++)
		sum += omfs_be64(entry_at(blk, table, i) + 8);
	omfs_put_be64(entry_at(blk, table, count - 1), OMFS_NIL);
	omfs_put_be64(entry_at(blk, table, count - 1) + 8, ~sum);
}

static uint8_t *bucket_ptr(struct hostile_image *img, uint64_t dir, uint32_t bucket)
{
	return block_at(img, dir) + OMFS_DIR_START + 8 * (size_t)bucket;
}

static size_t node_namelen(const uint8_t *blk)
{
	const uint8_t *nul = memchr(blk + OMFS_I_NAME, 0, OMFS_NAME_MAX);

	return nul ? (size_t)(nul - (blk + OMFS_I_NAME)) : OMFS_NAME_MAX;
}

static uint32_t node_bucket(struct hostile_image *img, uint64_t ino)
{
	const uint8_t *blk = block_at(img, ino);

	return omfs_name_hash((const char *)blk + OMFS_I_NAME, node_namelen(blk),
			      img->lay.nbuckets);
}

/* The inodes of a chain of the (sane) base, head first. */
static size_t chain_nodes(struct hostile_image *img, uint64_t dir, uint32_t bucket,
			  uint64_t *out)
{
	uint64_t ino = omfs_be64(bucket_ptr(img, dir, bucket));
	size_t n = 0;

	while (ino != OMFS_NIL) {
		if (n == MAX_CHAIN)
			die("chain of bucket %u of %llu too long", bucket, (unsigned long long)dir);
		out[n++] = ino;
		ino = omfs_be64(block_at(img, ino) + OMFS_I_SIBLING);
	}
	return n;
}

static void set_sibling(struct hostile_image *img, uint64_t ino, uint64_t to)
{
	omfs_put_be64(block_at(img, ino) + OMFS_I_SIBLING, to);
	commit(img, ino, HC_SEALED_ALL);
}

/* Adds ino at the end of a chain (leaving its own sibling pointer as it is). */
static void chain_append(struct hostile_image *img, uint64_t dir, uint32_t bucket, uint64_t ino)
{
	uint64_t nodes[MAX_CHAIN];
	size_t n = chain_nodes(img, dir, bucket, nodes);

	if (n == 0) {
		omfs_put_be64(bucket_ptr(img, dir, bucket), ino);
		commit(img, dir, HC_SEALED_ALL);
	} else {
		set_sibling(img, nodes[n - 1], ino);
	}
}

/* Takes ino out of the chain of its directory that holds it. */
static void chain_remove(struct hostile_image *img, uint64_t dir, uint64_t ino)
{
	uint64_t nodes[MAX_CHAIN];
	uint64_t next = omfs_be64(block_at(img, ino) + OMFS_I_SIBLING);

	for (uint32_t b = 0; b < img->lay.nbuckets; b++) {
		size_t n = chain_nodes(img, dir, b, nodes);

		for (size_t i = 0; i < n; i++) {
			if (nodes[i] != ino)
				continue;
			if (i == 0) {
				omfs_put_be64(bucket_ptr(img, dir, b), next);
				commit(img, dir, HC_SEALED_ALL);
			} else {
				set_sibling(img, nodes[i - 1], next);
			}
			return;
		}
	}
	die("inode %llu is not in directory %llu", (unsigned long long)ino,
	    (unsigned long long)dir);
}

static void chain_prepend(struct hostile_image *img, uint64_t dir, uint32_t bucket, uint64_t ino)
{
	uint8_t *head = bucket_ptr(img, dir, bucket);

	omfs_put_be64(block_at(img, ino) + OMFS_I_SIBLING, omfs_be64(head));
	commit(img, ino, HC_SEALED_ALL);
	omfs_put_be64(head, ino);
	commit(img, dir, HC_SEALED_ALL);
}

static uint64_t parent_of(struct hostile_image *img, uint64_t ino)
{
	return omfs_be64(block_at(img, ino) + OMFS_I_PARENT);
}

/* ---- the corruptions ---- */

static void apply_poke(struct hostile_image *img, const struct hostile_case *c)
{
	poke(obj_data(img, c->obj) + c->off, c->width, case_value(img, c));
	commit_obj(img, c->obj, c->copies);
}

static void apply_flip(struct hostile_image *img, const struct hostile_case *c)
{
	obj_data(img, c->obj)[c->off] ^= (uint8_t)(1u << c->width);
	commit_obj(img, c->obj, c->copies);
}

/* Keeps val bytes of the image, or drops -val bytes from its end. */
static void apply_truncate(struct hostile_image *img, const struct hostile_case *c)
{
	uint64_t keep = c->val >= 0 ? (uint64_t)c->val : img->size - (uint64_t)-c->val;

	if (keep > img->size)
		die("%s: cannot grow the image", c->name);
	img->size = (size_t)keep;
}

/* Extent entry `width` of the table in obj: the start cluster becomes the value. */
static void apply_ext_cluster(struct hostile_image *img, const struct hostile_case *c)
{
	uint32_t t = table_offset(c->obj);

	omfs_put_be64(entry_at(obj_data(img, c->obj), t, c->width), case_value(img, c));
	commit_obj(img, c->obj, c->copies);
}

/* Extent entry `width`: the length becomes the value; the terminator follows. */
static void apply_ext_blocks(struct hostile_image *img, const struct hostile_case *c)
{
	uint32_t t = table_offset(c->obj);
	uint8_t *blk = obj_data(img, c->obj);

	omfs_put_be64(entry_at(blk, t, c->width) + 8, case_value(img, c));
	fix_terminator(blk, t);
	commit_obj(img, c->obj, c->copies);
}

/* obj's first extent becomes ref's first extent: two files own the same blocks. */
static void apply_ext_share(struct hostile_image *img, const struct hostile_case *c)
{
	uint8_t *blk = obj_data(img, c->obj);

	memcpy(entry_at(blk, OMFS_EXTENT_START, 0),
	       entry_at(obj_data(img, c->ref), OMFS_EXTENT_START, 0), OMFS_E_ENTRY_SIZE);
	fix_terminator(blk, OMFS_EXTENT_START);
	commit_obj(img, c->obj, HC_SEALED_ALL);
}

enum { CHAIN_SELF, CHAIN_TWO, CHAIN_TAIL_TO_HEAD, CHAIN_INTO_OTHER };

/* Loops in the chain that holds `at` in directory obj (width says which loop). */
static void apply_chain_loop(struct hostile_image *img, const struct hostile_case *c)
{
	uint64_t dir = obj_block(img, c->obj), nodes[MAX_CHAIN], other[MAX_CHAIN];
	size_t n = chain_nodes(img, dir, node_bucket(img, obj_block(img, c->ref)), nodes);

	if (n < 2)
		die("%s: the chain has fewer than two nodes", c->name);
	switch (c->width) {
	case CHAIN_SELF:
		set_sibling(img, nodes[0], nodes[0]);
		break;
	case CHAIN_TWO:
		set_sibling(img, nodes[1], nodes[0]);
		break;
	case CHAIN_TAIL_TO_HEAD:
		set_sibling(img, nodes[n - 1], nodes[0]);
		break;
	case CHAIN_INTO_OTHER:
		if (!chain_nodes(img, dir, node_bucket(img, obj_block(img, HO_N10)), other))
			die("%s: no other chain", c->name);
		set_sibling(img, nodes[n - 1], other[0]);
		break;
	default:
		die("%s: unknown loop", c->name);
	}
}

/*
 * The head of a bucket of directory obj becomes the value: the bucket that
 * object c->off's name hashes to, or the first empty one for HO_NONE.
 */
static void apply_bucket(struct hostile_image *img, const struct hostile_case *c)
{
	uint64_t dir = obj_block(img, c->obj);
	uint32_t b = 0;

	if (c->off != HO_NONE)
		b = node_bucket(img, obj_block(img, (enum hostile_obj)c->off));
	else
		while (b < img->lay.nbuckets && omfs_be64(bucket_ptr(img, dir, b)) != OMFS_NIL)
			b++;
	if (b == img->lay.nbuckets)
		die("%s: no empty bucket", c->name);
	omfs_put_be64(bucket_ptr(img, dir, b), case_value(img, c));
	commit(img, dir, c->copies);
}

/* ref also appears in directory obj, in the bucket its name hashes to. */
static void apply_chain_append(struct hostile_image *img, const struct hostile_case *c)
{
	uint64_t ino = obj_block(img, c->ref);

	chain_append(img, obj_block(img, c->obj), node_bucket(img, ino), ino);
}

/* obj moves to the bucket after the one its name hashes to. */
static void apply_misplace(struct hostile_image *img, const struct hostile_case *c)
{
	uint64_t ino = obj_block(img, c->obj), dir = parent_of(img, ino);

	chain_remove(img, dir, ino);
	chain_prepend(img, dir, (node_bucket(img, ino) + 1) % img->lay.nbuckets, ino);
}

/*
 * obj gets a new name and moves to the bucket that name hashes to, so that
 * only the name itself is odd: c->val copies of the byte c->off when val > 0,
 * else name_table[c->width].
 */
static const char *const name_table[] = { "..", ".", "../../escaped", "", "hello.txt\nfake",
					  "big.bin" };

static void apply_rename(struct hostile_image *img, const struct hostile_case *c)
{
	uint64_t ino = obj_block(img, c->obj), dir = parent_of(img, ino);
	uint8_t *name;
	size_t len;

	chain_remove(img, dir, ino);
	name = block_at(img, ino) + OMFS_I_NAME;
	memset(name, 0, OMFS_NAME_MAX);
	if (c->val > 0) {
		len = (size_t)c->val;
		memset(name, (int)c->off, len);
	} else {
		len = strlen(name_table[c->width]);
		memcpy(name, name_table[c->width], len);
	}
	commit(img, ino, HC_SEALED_ALL);
	chain_prepend(img, dir, node_bucket(img, ino), ino);
}

enum { BM_ZERO, BM_ONES, BM_TAIL_CLEAR, BM_CLEAR_DATA, BM_CLEAR_INODE, BM_CLEAR_META };

static void bitmap_clear_run(struct hostile_image *img, uint64_t start, uint64_t count)
{
	uint8_t *map = obj_data(img, HO_BITMAP);

	for (uint64_t n = start; n < start + count; n++)
		map[n >> 3] &= (uint8_t)~(1u << (n & 7));
}

static void apply_bitmap(struct hostile_image *img, const struct hostile_case *c)
{
	const struct hostile_layout *lay = &img->lay;
	uint64_t bytes = ((lay->num_blocks + 7) / 8 + lay->blocksize - 1) / lay->blocksize *
			 lay->blocksize;
	uint8_t *map = obj_data(img, HO_BITMAP);
	uint8_t *blk;

	switch (c->width) {
	case BM_ZERO:
		memset(map, 0, bytes);
		break;
	case BM_ONES:
		memset(map, 0xFF, bytes);
		break;
	case BM_TAIL_CLEAR:
		for (uint64_t n = lay->num_blocks; n < bytes * 8; n++)
			map[n >> 3] &= (uint8_t)~(1u << (n & 7));
		break;
	case BM_CLEAR_DATA:
		blk = obj_data(img, c->ref);
		bitmap_clear_run(img, omfs_be64(entry_at(blk, OMFS_EXTENT_START, 0)),
				 omfs_be64(entry_at(blk, OMFS_EXTENT_START, 0) + 8));
		break;
	case BM_CLEAR_INODE:
		bitmap_clear_run(img, obj_block(img, c->ref), lay->mirrors);
		break;
	case BM_CLEAR_META:
		bitmap_clear_run(img, 0, obj_block(img, HO_BITMAP) + 1);
		break;
	default:
		die("%s: unknown bitmap change", c->name);
	}
}

/* ---- the table ---- */

#define NIL_MINUS(n) ((int64_t)(UINT64_MAX - (n)))

/* A byte, word or pointer of obj set to a value. */
#define POKE(n, b, f, m, tgt, o, offs, w, v, k, r, cp, wh)                                  \
	{ .name = n, .why = wh, .base = b, .fsck = f, .mount = m, .target = tgt,             \
	  .apply = apply_poke, .obj = o, .off = offs, .width = w, .val = v, .kind = k,       \
	  .ref = r, .copies = cp }
#define FLIP(n, b, f, m, tgt, o, offs, bit, cp, wh)                                        \
	{ .name = n, .why = wh, .base = b, .fsck = f, .mount = m, .target = tgt,             \
	  .apply = apply_flip, .obj = o, .off = offs, .width = bit, .copies = cp }
#define CUSTOM(n, b, f, m, tgt, fn, o, w, v, k, r, wh)                                     \
	{ .name = n, .why = wh, .base = b, .fsck = f, .mount = m, .target = tgt, .apply = fn, \
	  .obj = o, .width = w, .val = v, .kind = k, .ref = r, .copies = HC_SEALED_ALL }

/* A bucket head of the root directory set to a value (see apply_bucket). */
#define BUCKET(n, at, v, k, r, wh)                                                          \
	{ .name = n, .why = wh, .base = HOSTILE_BASE_STD, .fsck = HF_DIRTY, .mount = HM_ANY,  \
	  .target = HO_HELLO, .apply = apply_bucket, .obj = HO_ROOTDIR, .off = at, .val = v,  \
	  .kind = k, .ref = r, .copies = HC_SEALED_ALL }

#define TRUNC(n, keep, wh)                                                                 \
	{ .name = n, .why = wh, .base = HOSTILE_BASE_STD, .fsck = HF_UNMOUNTABLE,              \
	  .mount = HM_FAILS, .apply = apply_truncate, .val = keep, .needle = "device" }

#define STD HOSTILE_BASE_STD
#define SMALL HOSTILE_BASE_SMALL

/* superblock fields: no header, no mirror */
#define SB32(n, offs, v, wh)                                                             \
	POKE(n, STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_SUPER, offs, 4, v, HV_CONST, HO_NONE, \
	     HC_RAW_PRIMARY, wh)
#define SB64(n, offs, v, k, wh)                                                          \
	POKE(n, STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_SUPER, offs, 8, v, k, HO_NONE,        \
	     HC_RAW_PRIMARY, wh)
/* a sysblock field changed in every copy and resealed */
#define FIELD(n, b, f, m, tgt, o, offs, w, v, k, r, wh)                                  \
	POKE(n, b, f, m, tgt, o, offs, w, v, k, r, HC_SEALED_ALL, wh)

/*
 * Header bit flips of one sysblock: in the primary only (a mirror stands in:
 * everything reads, fsck objects), in every copy, and for the fields that
 * the checksums do not cover once resealed, in every copy resealed.
 */
/* One header flip of the HDR_FLIPS set: case t-suffix. */
#define HFLIP(t, b, o, tgt, suffix, f, m, offs, bit, cp, wh) \
	FLIP(t "-" suffix, b, f, m, tgt, o, offs, bit, cp, wh)

#define HDR_FLIPS(t, b, o, tgt, allmount, allfsck)                                              \
	HFLIP(t, b, o, tgt, "hdr-magic-primary",                                                \
	      HF_DIRTY, HM_READS, OMFS_H_MAGIC, 0, HC_RAW_PRIMARY,                              \
	      "header magic bit flip in the primary copy"),                                     \
	HFLIP(t, b, o, tgt, "hdr-version-primary", HF_DIRTY, HM_READS, OMFS_H_VERSION, 1,       \
	      HC_RAW_PRIMARY, "header version bit flip in the primary copy"),                   \
	HFLIP(t, b, o, tgt, "hdr-xor-primary",                                                  \
	      HF_DIRTY, HM_READS, OMFS_H_XOR, 0, HC_RAW_PRIMARY,                                \
	      "XOR byte bit flip in the primary copy"),                                         \
	HFLIP(t, b, o, tgt, "hdr-crc-primary",                                                  \
	      HF_DIRTY, HM_READS, OMFS_H_CRC + 1, 0, HC_RAW_PRIMARY,                            \
	      "CRC bit flip in the primary copy"),                                              \
	HFLIP(t, b, o, tgt, "hdr-self-primary",                                                 \
	      HF_DIRTY, HM_READS, OMFS_H_SELF + 7, 0, HC_RAW_PRIMARY,                           \
	      "h_self bit flip in the primary copy"),                                           \
	HFLIP(t, b, o, tgt, "hdr-type-primary",                                                 \
	      HF_DIRTY, HM_READS, OMFS_H_TYPE, 0, HC_RAW_PRIMARY,                               \
	      "header type bit flip in the primary copy"),                                      \
	HFLIP(t, b, o, tgt, "body-primary", HF_DIRTY, HM_READS, 200, 3, HC_RAW_PRIMARY,         \
	      "a body bit flip in the primary copy (CRC mismatch)"),                            \
	HFLIP(t, b, o, tgt, "hdr-magic-all", allfsck, allmount, OMFS_H_MAGIC, 0, HC_RAW_ALL,    \
	      "header magic bit flip in every copy"),                                           \
	HFLIP(t, b, o, tgt, "hdr-version-all",                                                  \
	      allfsck, allmount, OMFS_H_VERSION, 1, HC_RAW_ALL,                                 \
	      "header version bit flip in every copy"),                                         \
	HFLIP(t, b, o, tgt, "hdr-xor-all", allfsck, allmount, OMFS_H_XOR, 0, HC_RAW_ALL,        \
	      "XOR byte bit flip in every copy"),                                               \
	HFLIP(t, b, o, tgt, "hdr-crc-all", allfsck, allmount, OMFS_H_CRC + 1, 0, HC_RAW_ALL,    \
	      "CRC bit flip in every copy"),                                                    \
	HFLIP(t, b, o, tgt, "hdr-self-all", allfsck, allmount, OMFS_H_SELF + 7, 0, HC_RAW_ALL,  \
	      "h_self bit flip in every copy"),                                                 \
	HFLIP(t, b, o, tgt, "hdr-type-all", allfsck, allmount, OMFS_H_TYPE, 0, HC_RAW_ALL,      \
	      "header type bit flip in every copy"),                                            \
	HFLIP(t, b, o, tgt, "hdr-magic-sealed",                                                 \
	      allfsck, allmount, OMFS_H_MAGIC, 0, HC_SEALED_ALL,                                \
	      "header magic changed in every copy, checksums valid"),                           \
	HFLIP(t, b, o, tgt, "hdr-version-sealed",                                               \
	      allfsck, allmount, OMFS_H_VERSION, 1, HC_SEALED_ALL,                              \
	      "header version 3 in every copy, checksums valid"),                               \
	HFLIP(t, b, o, tgt, "hdr-self-sealed",                                                  \
	      allfsck, allmount, OMFS_H_SELF + 7, 0, HC_SEALED_ALL,                             \
	      "h_self off by one in every copy, checksums valid"),                              \
	POKE(t "-hdr-body-size-sealed", b, allfsck, allmount, tgt, o, OMFS_H_BODY_SIZE, 4,      \
	     0xFFFF, HV_CONST, HO_NONE, HC_SEALED_ALL, "h_body_size 65535 in every copy")

static const struct hostile_case cases[] = {
	{ .name = "control-std", .why = "the base volume, untouched", .base = STD, .fsck = HF_CLEAN,
		.mount = HM_READS, .cli_ok = true },
	{ .name = "control-small", .why = "the small base volume, untouched", .base = SMALL,
		.fsck = HF_CLEAN, .mount = HM_READS, .cli_ok = true },

	/* ---- superblock ---- */
	FLIP("sb-magic-flip", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_SUPER, OMFS_SB_MAGIC + 3,
		0, HC_RAW_PRIMARY, "superblock magic bit flip"),
	SB32("sb-magic-zero", OMFS_SB_MAGIC, 0, "superblock magic 0"),
	SB64("sb-num-blocks-0", OMFS_SB_NUM_BLOCKS, 0, HV_CONST, "num_blocks 0"),
	SB64("sb-num-blocks-2^40", OMFS_SB_NUM_BLOCKS, 1ll << 40, HV_CONST, "num_blocks 2^40"),
	SB64("sb-num-blocks-2^31", OMFS_SB_NUM_BLOCKS, 1ll << 31, HV_CONST,
		"num_blocks 2^31, far past the device"),
	SB64("sb-num-blocks-max", OMFS_SB_NUM_BLOCKS, -1, HV_CONST, "num_blocks 2^64-1"),
	SB64("sb-num-blocks-plus1", OMFS_SB_NUM_BLOCKS, 1, HV_END,
		"num_blocks one past the device"),
	SB64("sb-num-blocks-minus1", OMFS_SB_NUM_BLOCKS, -1, HV_END,
		"num_blocks disagrees with the root block"),
	SB32("sb-sysbs-0", OMFS_SB_SYS_BLOCKSIZE, 0, "sys_blocksize 0"),
	SB32("sb-sysbs-3", OMFS_SB_SYS_BLOCKSIZE, 3, "sys_blocksize 3"),
	SB32("sb-sysbs-256", OMFS_SB_SYS_BLOCKSIZE, 256,
		"sys_blocksize 256 (smaller than the directory table offset)"),
	SB32("sb-sysbs-1000", OMFS_SB_SYS_BLOCKSIZE, 1000, "sys_blocksize not a power of two"),
	SB32("sb-sysbs-2^30", OMFS_SB_SYS_BLOCKSIZE, 1 << 30, "sys_blocksize 1<<30"),
	SB32("sb-sysbs-8192", OMFS_SB_SYS_BLOCKSIZE, 8192, "blocksize smaller than sys_blocksize"),
	POKE("sb-sysbs-1024", STD, HF_ANY, HM_ANY, HO_NONE, HO_SUPER, OMFS_SB_SYS_BLOCKSIZE, 4,
		1024, HV_CONST, HO_NONE, HC_RAW_PRIMARY,
		"sys_blocksize 1024, half the real one: body sizes too large"),
	POKE("sb-sysbs-4096", STD, HF_ANY, HM_ANY, HO_NONE, HO_SUPER, OMFS_SB_SYS_BLOCKSIZE, 4,
		4096, HV_CONST, HO_NONE, HC_RAW_PRIMARY,
		"sys_blocksize 4096, twice the real one: bucket tables read zeros"),
	SB32("sb-bs-0", OMFS_SB_BLOCKSIZE, 0, "blocksize 0"),
	SB32("sb-bs-1000", OMFS_SB_BLOCKSIZE, 1000, "blocksize not a power of two"),
	SB32("sb-bs-1024", OMFS_SB_BLOCKSIZE, 1024, "blocksize smaller than sys_blocksize"),
	SB32("sb-bs-16384", OMFS_SB_BLOCKSIZE, 16384, "blocksize 16384 (above 8192)"),
	SB32("sb-bs-2^31", OMFS_SB_BLOCKSIZE, 1u << 31, "blocksize 2^31"),
	POKE("sb-bs-2048", STD, HF_UNMOUNTABLE, HM_ANY, HO_NONE, HO_SUPER, OMFS_SB_BLOCKSIZE, 4,
		2048, HV_CONST, HO_NONE, HC_RAW_PRIMARY,
		"blocksize 2048 (valid, but not the volume's): every block misplaced"),
	SB32("sb-mirrors-0", OMFS_SB_MIRRORS, 0, "mirrors 0"),
	POKE("sb-mirrors-1", STD, HF_DIRTY, HM_READS, HO_NONE, HO_SUPER, OMFS_SB_MIRRORS, 4, 1,
		HV_CONST, HO_NONE, HC_RAW_PRIMARY,
		"mirrors 1 on a 2-mirror volume: the mirror blocks are owned by nothing"),
	POKE("sb-mirrors-3", STD, HF_DIRTY, HM_ANY, HO_NONE, HO_SUPER, OMFS_SB_MIRRORS, 4, 3,
		HV_CONST, HO_NONE, HC_RAW_PRIMARY,
		"mirrors 3 on a 2-mirror volume: each inode's mirrors overlap the next inode"),
	POKE("sb-mirrors-8", STD, HF_DIRTY, HM_ANY, HO_NONE, HO_SUPER, OMFS_SB_MIRRORS, 4, 8,
		HV_CONST, HO_NONE, HC_RAW_PRIMARY,
		"mirrors 8: the root block's copies cover the root directory and the bitmap"),
	SB32("sb-mirrors-9", OMFS_SB_MIRRORS, 9, "mirrors 9"),
	SB32("sb-mirrors-1000", OMFS_SB_MIRRORS, 1000, "mirrors 1000"),
	SB32("sb-mirrors-max", OMFS_SB_MIRRORS, 0xFFFFFFFF, "mirrors 2^32-1"),
	SB64("sb-root-0", OMFS_SB_ROOT_BLOCK, 0, HV_CONST, "root block 0 (the superblock)"),
	SB64("sb-root-2", OMFS_SB_ROOT_BLOCK, 2, HV_CONST,
		"root block pointer at the root block's mirror"),
	POKE("sb-root-rootdir", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_SUPER,
		OMFS_SB_ROOT_BLOCK, 8, 0, HV_BLOCK, HO_ROOTDIR, HC_RAW_PRIMARY,
		"root block pointer at the root directory"),
	SB64("sb-root-end", OMFS_SB_ROOT_BLOCK, 0, HV_END, "root block pointer = num_blocks"),
	SB64("sb-root-2^63", OMFS_SB_ROOT_BLOCK, INT64_MIN, HV_CONST, "root block pointer 2^63"),

	/* ---- root block (two copies) ---- */
	HDR_FLIPS("root", STD, HO_ROOT, HO_NONE, HM_FAILS, HF_UNMOUNTABLE),
	FIELD("root-num-blocks-plus1", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOT,
		OMFS_R_NUM_BLOCKS, 8, 1, HV_END, HO_NONE,
		"r_num_blocks disagrees with the superblock"),
	FIELD("root-num-blocks-2^40", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOT,
		OMFS_R_NUM_BLOCKS, 8, 1ll << 40, HV_CONST, HO_NONE, "r_num_blocks 2^40"),
	FIELD("root-rootdir-end", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOT, OMFS_R_ROOT_DIR,
		8, 3, HV_END, HO_NONE, "root directory pointer past the end"),
	FIELD("root-rootdir-nil", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOT, OMFS_R_ROOT_DIR,
		8, -1, HV_CONST, HO_NONE, "root directory pointer all ones"),
	FIELD("root-rootdir-0", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOT, OMFS_R_ROOT_DIR, 8,
		0, HV_CONST, HO_NONE, "root directory pointer 0 (the superblock)"),
	FIELD("root-rootdir-self", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOT, OMFS_R_ROOT_DIR,
		8, 0, HV_BLOCK, HO_ROOT, "root directory pointer at the root block"),
	FIELD("root-rootdir-file", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOT, OMFS_R_ROOT_DIR,
		8, 0, HV_BLOCK, HO_HELLO, "root directory pointer at a file"),
	FIELD("root-rootdir-bitmap", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOT,
		OMFS_R_ROOT_DIR, 8, 0, HV_BLOCK, HO_BITMAP, "root directory pointer at the bitmap"),
	FIELD("root-rootdir-mirror", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOT,
		OMFS_R_ROOT_DIR, 8, 1, HV_BLOCK, HO_ROOTDIR,
		"root directory pointer at the root directory's mirror"),
	FIELD("root-rootdir-dir1", STD, HF_DIRTY, HM_ANY, HO_NONE, HO_ROOT, OMFS_R_ROOT_DIR, 8, 0,
		HV_BLOCK, HO_DIR1, "root directory pointer at a subdirectory"),
	FIELD("root-bitmap-end", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOT, OMFS_R_BITMAP, 8,
		0, HV_END, HO_NONE, "bitmap pointer = num_blocks (the kernel's off-by-one)"),
	FIELD("root-bitmap-past", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOT, OMFS_R_BITMAP, 8,
		100, HV_END, HO_NONE, "bitmap pointer past the end"),
	FIELD("root-bitmap-2^63", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOT, OMFS_R_BITMAP, 8,
		INT64_MIN, HV_CONST, HO_NONE, "bitmap pointer 2^63"),
	FIELD("root-bitmap-last", STD, HF_DIRTY, HM_ANY, HO_NONE, HO_ROOT, OMFS_R_BITMAP, 8, -1,
		HV_END, HO_NONE, "bitmap pointer at the last block: it reads as all free"),
	FIELD("root-bitmap-0", STD, HF_UNMOUNTABLE, HM_ANY, HO_NONE, HO_ROOT, OMFS_R_BITMAP, 8, 0,
		HV_CONST, HO_NONE, "bitmap over the superblock"),
	FIELD("root-bitmap-root", STD, HF_UNMOUNTABLE, HM_ANY, HO_NONE, HO_ROOT, OMFS_R_BITMAP, 8,
		0, HV_BLOCK, HO_ROOT, "bitmap over the root block"),
	FIELD("root-bitmap-rootdir", STD, HF_UNMOUNTABLE, HM_ANY, HO_NONE, HO_ROOT, OMFS_R_BITMAP,
		8, 0, HV_BLOCK, HO_ROOTDIR, "bitmap over the root directory"),
	{ .name = "root-bitmap-nil",
		.why = "no bitmap (a ReplayTV volume): built by walking the tree", .base = STD,
		.fsck = HF_CLEAN, .mount = HM_READS, .apply = apply_poke, .obj = HO_ROOT,
		.off = OMFS_R_BITMAP, .width = 8, .val = -1, .copies = HC_SEALED_ALL,
		.cli_ok = true },
	FIELD("root-cluster-0", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOT, OMFS_R_CLUSTERSIZE,
		4, 0, HV_CONST, HO_NONE, "clustersize 0"),
	FIELD("root-cluster-9", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOT, OMFS_R_CLUSTERSIZE,
		4, 9, HV_CONST, HO_NONE, "clustersize 9"),
	FIELD("root-cluster-99", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOT,
		OMFS_R_CLUSTERSIZE, 4, 99, HV_CONST, HO_NONE, "clustersize 99"),
	FIELD("root-cluster-max", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOT,
		OMFS_R_CLUSTERSIZE, 4, 0xFFFFFFFF, HV_CONST, HO_NONE, "clustersize 2^32-1"),
	FIELD("root-blocksize-8192", STD, HF_NOTE, HM_READS, HO_NONE, HO_ROOT, OMFS_R_BLOCKSIZE, 4,
		8192, HV_CONST, HO_NONE,
		"r_blocksize disagrees with the superblock (the kernel ignores it)"),
	FIELD("root-mirrors-5", STD, HF_NOTE, HM_READS, HO_NONE, HO_ROOT, OMFS_R_MIRRORS, 8, 5,
		HV_CONST, HO_NONE,
		"r_mirrors disagrees with the superblock (the kernel ignores it)"),
	FIELD("root-name-no-nul", STD, HF_ANY, HM_READS, HO_NONE, HO_ROOT, OMFS_R_NAME + 248, 8,
		0x5858585858585858, HV_CONST, HO_NONE,
		"a 256-byte label with no NUL (the bytes before are the label)"),
	POKE("sb-name-no-nul", STD, HF_ANY, HM_READS, HO_NONE, HO_SUPER, OMFS_SB_NAME + 56, 8,
		0x5959595959595959, HV_CONST, HO_NONE, HC_RAW_PRIMARY,
		"a 64-byte superblock name with no NUL"),

	/* ---- root directory ---- */
	HDR_FLIPS("rootdir", STD, HO_ROOTDIR, HO_HELLO, HM_FAILS, HF_UNMOUNTABLE),
	FIELD("rootdir-type-file", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOTDIR, OMFS_I_TYPE,
		1, 'F', HV_CONST, HO_NONE, "the root directory's i_type is 'F'"),
	FIELD("rootdir-type-x", STD, HF_UNMOUNTABLE, HM_FAILS, HO_NONE, HO_ROOTDIR, OMFS_I_TYPE, 1,
		'X', HV_CONST, HO_NONE, "the root directory's i_type is 'X'"),
	FIELD("rootdir-parent", STD, HF_DIRTY, HM_ANY, HO_NONE, HO_ROOTDIR, OMFS_I_PARENT, 8, 0,
		HV_BLOCK, HO_DIR1, "the root directory has a parent"),
	FIELD("rootdir-sibling", STD, HF_ANY, HM_ANY, HO_NONE, HO_ROOTDIR, OMFS_I_SIBLING, 8, 0,
		HV_BLOCK, HO_DIR1, "the root directory has a sibling"),
	FIELD("rootdir-size-huge", STD, HF_ANY, HM_READS, HO_NONE, HO_ROOTDIR, OMFS_I_SIZE, 8, -1,
		HV_CONST, HO_NONE, "directory i_size 2^64-1 (the kernel forces sys_blocksize)"),

	/* ---- bucket heads of the root: the bucket /hello.txt is in, or an empty one ---- */
	BUCKET("bucket-past-end", HO_HELLO, 5, HV_END, HO_NONE, "a bucket head past the end"),
	BUCKET("bucket-at-end", HO_HELLO, 0, HV_END, HO_NONE, "a bucket head = num_blocks"),
	BUCKET("bucket-nil-minus1", HO_HELLO, NIL_MINUS(1), HV_CONST, HO_NONE,
		"a bucket head 2^64-2"),
	BUCKET("bucket-zero", HO_HELLO, 0, HV_CONST, HO_NONE, "a bucket head 0 (the superblock)"),
	BUCKET("bucket-root-block", HO_HELLO, 0, HV_BLOCK, HO_ROOT,
		"a bucket head at the root block"),
	BUCKET("bucket-bitmap", HO_HELLO, 0, HV_BLOCK, HO_BITMAP, "a bucket head at the bitmap"),
	BUCKET("bucket-inode-mirror", HO_HELLO, 1, HV_BLOCK, HO_HELLO,
		"a bucket head at an inode's mirror copy"),
	BUCKET("bucket-cont", HO_HELLO, 0, HV_BLOCK, HO_CONT1,
		"a bucket head at a continuation block"),
	BUCKET("bucket-empty-rootdir", HO_NONE, 0, HV_BLOCK, HO_ROOTDIR,
		"the root directory lists itself"),
	BUCKET("bucket-empty-past-end", HO_NONE, 1, HV_END, HO_NONE,
		"an empty bucket now points past the end"),
	BUCKET("bucket-empty-data", HO_NONE, 2, HV_BLOCK, HO_BIG,
		"an empty bucket points two blocks past a file's inode (its data)"),
	/* ---- sibling chains ---- */
	CUSTOM("chain-self-loop", STD, HF_DIRTY, HM_ANY, HO_N11, apply_chain_loop, HO_ROOTDIR,
		CHAIN_SELF, 0, HV_CONST, HO_N11, "a->a: a bucket head is its own sibling"),
	CUSTOM("chain-two-loop", STD, HF_DIRTY, HM_ANY, HO_N11, apply_chain_loop, HO_ROOTDIR,
		CHAIN_TWO, 0, HV_CONST, HO_N11, "a->b->a"),
	CUSTOM("chain-tail-loop", STD, HF_DIRTY, HM_ANY, HO_N11, apply_chain_loop, HO_ROOTDIR,
		CHAIN_TAIL_TO_HEAD, 0, HV_CONST, HO_N11,
		"the last of four siblings points back at the first"),
	CUSTOM("chain-into-other", STD, HF_DIRTY, HM_ANY, HO_N11, apply_chain_loop, HO_ROOTDIR,
		CHAIN_INTO_OTHER, 0, HV_CONST, HO_N11,
		"a chain runs on into another bucket's chain"),
	CUSTOM("chain-small-loop", SMALL, HF_DIRTY, HM_ANY, HO_PA, apply_chain_loop, HO_ROOTDIR,
		CHAIN_TAIL_TO_HEAD, 0, HV_CONST, HO_PA, "a sibling loop in a 9-bucket directory"),
	FIELD("sibling-past-end", STD, HF_DIRTY, HM_ANY, HO_HELLO, HO_HELLO, OMFS_I_SIBLING, 8, 7,
		HV_END, HO_NONE, "i_sibling past the end"),
	FIELD("sibling-zero", STD, HF_DIRTY, HM_ANY, HO_HELLO, HO_HELLO, OMFS_I_SIBLING, 8, 0,
		HV_CONST, HO_NONE, "i_sibling 0 (the superblock)"),
	FIELD("sibling-bitmap", STD, HF_DIRTY, HM_ANY, HO_HELLO, HO_HELLO, OMFS_I_SIBLING, 8, 0,
		HV_BLOCK, HO_BITMAP, "i_sibling at the bitmap"),
	FIELD("sibling-rootdir", STD, HF_DIRTY, HM_ANY, HO_HELLO, HO_HELLO, OMFS_I_SIBLING, 8, 0,
		HV_BLOCK, HO_ROOTDIR, "i_sibling at the root directory"),
	FIELD("sibling-nil-minus1", STD, HF_DIRTY, HM_ANY, HO_HELLO, HO_HELLO, OMFS_I_SIBLING, 8,
		NIL_MINUS(1), HV_CONST, HO_NONE, "i_sibling 2^64-2"),

	/* ---- parents and directory structure ---- */
	FIELD("parent-past-end", STD, HF_DIRTY, HM_ANY, HO_A, HO_A, OMFS_I_PARENT, 8, 5, HV_END,
		HO_NONE, "i_parent past the end"),
	FIELD("parent-nil", STD, HF_DIRTY, HM_ANY, HO_A, HO_A, OMFS_I_PARENT, 8, -1, HV_CONST,
		HO_NONE, "a file with no parent"),
	FIELD("parent-other-dir", STD, HF_DIRTY, HM_ANY, HO_A, HO_A, OMFS_I_PARENT, 8, 0, HV_BLOCK,
		HO_SUB, "i_parent names another directory"),
	FIELD("parent-is-file", STD, HF_DIRTY, HM_ANY, HO_SUB, HO_SUB, OMFS_I_PARENT, 8, 0,
		HV_BLOCK, HO_HELLO, "a directory whose parent is a file"),
	FIELD("dir-parent-self", STD, HF_DIRTY, HM_ANY, HO_DIR1, HO_DIR1, OMFS_I_PARENT, 8, 0,
		HV_BLOCK, HO_DIR1, "a directory that is its own parent"),
	CUSTOM("dir-foreign-file", STD, HF_DIRTY, HM_ANY, HO_A, apply_chain_append, HO_ROOTDIR, 0,
		0, HV_CONST, HO_A,
		"the root's bucket points at /dir1/a.txt, whose parent is /dir1"),
	CUSTOM("dir-cycle", STD, HF_DIRTY, HM_ANY, HO_SUB, apply_chain_append, HO_SUB, 0, 0,
		HV_CONST, HO_DIR1, "/dir1/sub lists /dir1: a directory cycle"),
	CUSTOM("dir-holds-root", STD, HF_DIRTY, HM_ANY, HO_DIR1, apply_chain_append, HO_DIR1, 0, 0,
		HV_CONST, HO_ROOTDIR, "/dir1 lists the root directory"),
	CUSTOM("dir-self-entry", STD, HF_DIRTY, HM_ANY, HO_EMPTY, apply_chain_append, HO_EMPTY, 0,
		0, HV_CONST, HO_EMPTY, "/empty lists itself"),
	CUSTOM("bucket-misplaced", STD, HF_DIRTY, HM_ANY, HO_HELLO, apply_misplace, HO_HELLO, 0, 0,
		HV_CONST, HO_NONE, "/hello.txt sits in the wrong bucket"),

	/* ---- file inode fields ---- */
	HDR_FLIPS("file", STD, HO_HELLO, HO_HELLO, HM_ANY, HF_DIRTY),
	FIELD("file-type-x", STD, HF_DIRTY, HM_ANY, HO_HELLO, HO_HELLO, OMFS_I_TYPE, 1, 'X',
		HV_CONST, HO_NONE, "i_type 'X'"),
	FIELD("file-type-dir", STD, HF_DIRTY, HM_ANY, HO_BIG, HO_BIG, OMFS_I_TYPE, 1, 'D', HV_CONST,
		HO_NONE, "a file marked 'D': its extent table read as buckets"),
	FIELD("dir-type-file", STD, HF_DIRTY, HM_ANY, HO_DIR1, HO_DIR1, OMFS_I_TYPE, 1, 'F',
		HV_CONST, HO_NONE, "a directory marked 'F': its buckets read as an extent table"),
	FIELD("file-hdr-type-cont", STD, HF_DIRTY, HM_ANY, HO_HELLO, HO_HELLO, OMFS_H_TYPE, 1, 'c',
		HV_CONST, HO_NONE, "an inode with header type 'c'"),
	FIELD("file-size-2^63", STD, HF_DIRTY, HM_ANY, HO_HELLO, HO_HELLO, OMFS_I_SIZE, 8,
		INT64_MIN, HV_CONST, HO_NONE, "i_size 2^63"),
	FIELD("file-size-max", STD, HF_DIRTY, HM_ANY, HO_HELLO, HO_HELLO, OMFS_I_SIZE, 8, -1,
		HV_CONST, HO_NONE, "i_size 2^64-1"),
	FIELD("file-size-4g", STD, HF_DIRTY, HM_ANY, HO_HELLO, HO_HELLO, OMFS_I_SIZE, 8, 1ll << 32,
		HV_CONST, HO_NONE, "i_size 4 GiB, past the kernel's limit"),
	FIELD("file-size-unmapped", STD, HF_DIRTY, HM_ANY, HO_BIG, HO_BIG, OMFS_I_SIZE, 8,
		10 * 4096 + 1, HV_CONST, HO_NONE, "i_size one byte past the mapped blocks"),
	POKE("file-size-primary-only", STD, HF_DIRTY, HM_READS, HO_HELLO, HO_HELLO, OMFS_I_SIZE, 8,
		14, HV_CONST, HO_NONE, HC_SEALED_PRIMARY,
		"i_size changed in the primary only: the copies disagree"),
	FIELD("file-size-0", STD, HF_ANY, HM_READS, HO_BIG, HO_BIG, OMFS_I_SIZE, 8, 0, HV_CONST,
		HO_NONE, "i_size 0 with ten blocks mapped"),
	FIELD("file-ctime-max", STD, HF_ANY, HM_READS, HO_HELLO, HO_HELLO, OMFS_I_CTIME, 8, -1,
		HV_CONST, HO_NONE, "ctime 2^64-1 ms"),

	/* ---- names ---- */
	{ .name = "name-256", .why = "a 256-byte name with no NUL (valid)", .base = STD,
		.fsck = HF_CLEAN, .mount = HM_READS, .apply = apply_rename, .obj = HO_HELLO,
		.off = 'N', .val = 256 },
	{ .name = "name-256-latin1", .why = "a 256-byte name of 0xC9 bytes (folded by the hash)",
		.base = STD, .fsck = HF_CLEAN, .mount = HM_READS, .apply = apply_rename,
		.obj = HO_HELLO, .off = 0xC9, .val = 256 },
	CUSTOM("name-dotdot", STD, HF_ANY, HM_ANY, HO_NONE, apply_rename, HO_HELLO, 0, 0, HV_CONST,
		HO_NONE, "a file named \"..\""),
	CUSTOM("name-dot", STD, HF_ANY, HM_ANY, HO_NONE, apply_rename, HO_HELLO, 1, 0, HV_CONST,
		HO_NONE, "a file named \".\""),
	CUSTOM("name-slash", STD, HF_ANY, HM_ANY, HO_NONE, apply_rename, HO_HELLO, 2, 0, HV_CONST,
		HO_NONE, "a file named \"../../escaped\""),
	CUSTOM("name-empty", STD, HF_ANY, HM_ANY, HO_NONE, apply_rename, HO_HELLO, 3, 0, HV_CONST,
		HO_NONE, "a file with an empty name"),
	CUSTOM("tiny-name-slash", HOSTILE_BASE_TINY, HF_ANY, HM_ANY, HO_NONE, apply_rename,
		HO_HELLO, 2, 0, HV_CONST, HO_NONE,
		"a file named \"../../escaped\" on 64 KiB (committed: images/tiny-name-slash.img)"),
	CUSTOM("name-newline", STD, HF_ANY, HM_ANY, HO_NONE, apply_rename, HO_HELLO, 4, 0, HV_CONST,
		HO_NONE, "a name with a newline in it"),
	CUSTOM("name-duplicate", STD, HF_ANY, HM_ANY, HO_BIG, apply_rename, HO_HELLO, 5, 0,
		HV_CONST, HO_NONE, "two entries named big.bin in one directory"),

	/* ---- extent tables ---- */
	FIELD("ext-count-0", STD, HF_DIRTY, HM_ANY, HO_HELLO, HO_HELLO,
		OMFS_EXTENT_START + OMFS_E_COUNT, 4, 0, HV_CONST, HO_NONE, "e_extent_count 0"),
	FIELD("ext-count-1", STD, HF_DIRTY, HM_ANY, HO_HELLO, HO_HELLO,
		OMFS_EXTENT_START + OMFS_E_COUNT, 4, 1, HV_CONST, HO_NONE,
		"e_extent_count 1: the data extent becomes the terminator"),
	FIELD("ext-count-max", STD, HF_DIRTY, HM_ANY, HO_HELLO, HO_HELLO,
		OMFS_EXTENT_START + OMFS_E_COUNT, 4, 0, HV_MAXEXT, HO_NONE,
		"e_extent_count at capacity: zero entries follow"),
	{ .name = "ext-count-max+1", .why = "e_extent_count one past capacity", .base = STD,
		.fsck = HF_DIRTY, .mount = HM_ANY, .target = HO_HELLO, .apply = apply_poke,
		.obj = HO_HELLO, .off = OMFS_EXTENT_START + OMFS_E_COUNT, .width = 4, .val = 1,
		.kind = HV_MAXEXT, .copies = HC_SEALED_ALL },
	FIELD("ext-count-max32", STD, HF_DIRTY, HM_ANY, HO_HELLO, HO_HELLO,
		OMFS_EXTENT_START + OMFS_E_COUNT, 4, 0xFFFFFFFF, HV_CONST, HO_NONE,
		"e_extent_count 2^32-1"),
	CUSTOM("ext-cluster-end", STD, HF_DIRTY, HM_ANY, HO_HELLO, apply_ext_cluster, HO_HELLO, 0,
		2, HV_END, HO_NONE, "an extent that starts past the end"),
	CUSTOM("ext-cluster-super", STD, HF_DIRTY, HM_ANY, HO_HELLO, apply_ext_cluster, HO_HELLO, 0,
		0, HV_CONST, HO_NONE, "an extent over the superblock"),
	CUSTOM("ext-cluster-root", STD, HF_DIRTY, HM_ANY, HO_HELLO, apply_ext_cluster, HO_HELLO, 0,
		0, HV_BLOCK, HO_ROOT, "an extent over the root block"),
	CUSTOM("ext-cluster-bitmap", STD, HF_DIRTY, HM_ANY, HO_HELLO, apply_ext_cluster, HO_HELLO,
		0, 0, HV_BLOCK, HO_BITMAP, "an extent over the bitmap"),
	CUSTOM("ext-cluster-rootdir", STD, HF_DIRTY, HM_ANY, HO_HELLO, apply_ext_cluster, HO_HELLO,
		0, 0, HV_BLOCK, HO_ROOTDIR, "an extent over the root directory"),
	CUSTOM("ext-cluster-own-inode", STD, HF_DIRTY, HM_ANY, HO_HELLO, apply_ext_cluster,
		HO_HELLO, 0, 0, HV_BLOCK, HO_HELLO, "an extent over the file's own inode"),
	CUSTOM("ext-cluster-other-inode", STD, HF_DIRTY, HM_ANY, HO_HELLO, apply_ext_cluster,
		HO_HELLO, 0, 0, HV_BLOCK, HO_DIR1, "an extent over a directory's inode"),
	CUSTOM("ext-run-past-end", STD, HF_DIRTY, HM_ANY, HO_BIG, apply_ext_cluster, HO_BIG, 0, -3,
		HV_END, HO_NONE, "a 10-block run that starts 3 blocks before the end"),
	CUSTOM("ext-run-overflow", STD, HF_DIRTY, HM_ANY, HO_BIG, apply_ext_cluster, HO_BIG, 0,
		NIL_MINUS(3), HV_CONST, HO_NONE, "cluster + blocks overflows 64 bits"),
	CUSTOM("ext-blocks-max", STD, HF_DIRTY, HM_ANY, HO_BIG, apply_ext_blocks, HO_BIG, 0, -1,
		HV_CONST, HO_NONE, "a run of 2^64-1 blocks"),
	CUSTOM("ext-blocks-2^32", STD, HF_DIRTY, HM_ANY, HO_BIG, apply_ext_blocks, HO_BIG, 0,
		(1ll << 32) + 10, HV_CONST, HO_NONE, "a run of 2^32+10 blocks (an int overflows)"),
	CUSTOM("ext-blocks-0", STD, HF_DIRTY, HM_ANY, HO_HELLO, apply_ext_blocks, HO_HELLO, 0, 0,
		HV_CONST, HO_NONE, "an empty run"),
	CUSTOM("ext-blocks-into-meta-wrap", STD, HF_DIRTY, HM_ANY, HO_HELLO, apply_ext_blocks,
		HO_HELLO, 0, 0, HV_END, HO_NONE, "a run as long as the volume"),
	FLIP("ext-terminator-sum", STD, HF_NOTE, HM_ANY, HO_HELLO, HO_HELLO,
		OMFS_EXTENT_START + OMFS_E_ENTRIES + OMFS_E_ENTRY_SIZE + 15, 0, HC_SEALED_ALL,
		"the terminator's total is off by one"),
	FIELD("ext-terminator-cluster", STD, HF_DIRTY, HM_ANY, HO_HELLO, HO_HELLO,
		OMFS_EXTENT_START + OMFS_E_ENTRIES + OMFS_E_ENTRY_SIZE, 8, 7, HV_CONST, HO_NONE,
		"the terminator's cluster is not all ones"),
	CUSTOM("ext-shared", STD, HF_DIRTY, HM_ANY, HO_A, apply_ext_share, HO_A, 0, 0, HV_CONST,
		HO_B, "two files own the same blocks"),
	CUSTOM("ext-shared-frag", STD, HF_DIRTY, HM_ANY, HO_HELLO, apply_ext_share, HO_HELLO, 0, 0,
		HV_CONST, HO_FRAG, "a file shares its run with a fragmented file"),

	/* ---- continuation chains ---- */
	FIELD("next-past-end", STD, HF_DIRTY, HM_ANY, HO_FRAG, HO_FRAG,
		OMFS_EXTENT_START + OMFS_E_NEXT, 8, 9, HV_END, HO_NONE, "e_next past the end"),
	FIELD("next-zero", STD, HF_DIRTY, HM_ANY, HO_FRAG, HO_FRAG, OMFS_EXTENT_START + OMFS_E_NEXT,
		8, 0, HV_CONST, HO_NONE, "e_next 0"),
	FIELD("next-self", STD, HF_DIRTY, HM_ANY, HO_FRAG, HO_FRAG, OMFS_EXTENT_START + OMFS_E_NEXT,
		8, 0, HV_BLOCK, HO_FRAG, "e_next at the inode itself"),
	FIELD("next-other-inode", STD, HF_DIRTY, HM_ANY, HO_FRAG, HO_FRAG,
		OMFS_EXTENT_START + OMFS_E_NEXT, 8, 0, HV_BLOCK, HO_HELLO,
		"e_next at another file's inode"),
	FIELD("next-cont-mirror", STD, HF_DIRTY, HM_ANY, HO_FRAG, HO_FRAG,
		OMFS_EXTENT_START + OMFS_E_NEXT, 8, 1, HV_BLOCK, HO_CONT1,
		"e_next at the continuation block's mirror"),
	FIELD("next-on-short-file", STD, HF_DIRTY, HM_ANY, HO_HELLO, HO_HELLO,
		OMFS_EXTENT_START + OMFS_E_NEXT, 8, 0, HV_BLOCK, HO_CONT1,
		"a second file points at /frag.bin's continuation block"),
	FIELD("cont-next-self", STD, HF_DIRTY, HM_ANY, HO_FRAG, HO_CONT1,
		OMFS_EXTENT_CONT + OMFS_E_NEXT, 8, 0, HV_BLOCK, HO_CONT1,
		"a continuation block whose e_next is itself"),
	FIELD("cont-next-inode", STD, HF_DIRTY, HM_ANY, HO_FRAG, HO_CONT1,
		OMFS_EXTENT_CONT + OMFS_E_NEXT, 8, 0, HV_BLOCK, HO_FRAG,
		"a continuation block whose e_next is its inode"),
	FIELD("cont-count-0", STD, HF_DIRTY, HM_ANY, HO_FRAG, HO_CONT1,
		OMFS_EXTENT_CONT + OMFS_E_COUNT, 4, 0, HV_CONST, HO_NONE,
		"a continuation table with e_extent_count 0"),
	FIELD("cont-count-max32", STD, HF_DIRTY, HM_ANY, HO_FRAG, HO_CONT1,
		OMFS_EXTENT_CONT + OMFS_E_COUNT, 4, 0xFFFFFFFF, HV_CONST, HO_NONE,
		"a continuation table with e_extent_count 2^32-1"),
	{ .name = "cont-count-max+1", .why = "a continuation table one past capacity", .base = STD,
		.fsck = HF_DIRTY, .mount = HM_ANY, .target = HO_FRAG, .apply = apply_poke,
		.obj = HO_CONT1, .off = OMFS_EXTENT_CONT + OMFS_E_COUNT, .width = 4, .val = 1,
		.kind = HV_MAXEXT, .copies = HC_SEALED_ALL },
	CUSTOM("cont-cluster-end", STD, HF_DIRTY, HM_ANY, HO_FRAG, apply_ext_cluster, HO_CONT1, 0,
		0, HV_END, HO_NONE, "a continuation extent that starts at num_blocks"),
	CUSTOM("cont-blocks-max", STD, HF_DIRTY, HM_ANY, HO_FRAG, apply_ext_blocks, HO_CONT1, 0, -1,
		HV_CONST, HO_NONE, "a continuation extent of 2^64-1 blocks"),
	FIELD("cont-hdr-type-inode", STD, HF_DIRTY, HM_ANY, HO_FRAG, HO_CONT1, OMFS_H_TYPE, 1, 'e',
		HV_CONST, HO_NONE, "a continuation block with header type 'e'"),
	HDR_FLIPS("cont", STD, HO_CONT1, HO_FRAG, HM_ANY, HF_DIRTY),
	FIELD("small-cont-loop", SMALL, HF_DIRTY, HM_ANY, HO_FRAG, HO_CONT2,
		OMFS_EXTENT_CONT + OMFS_E_NEXT, 8, 0, HV_BLOCK, HO_CONT1,
		"the second continuation block points back at the first"),
	FIELD("small-cont-next-end", SMALL, HF_DIRTY, HM_ANY, HO_FRAG, HO_CONT1,
		OMFS_EXTENT_CONT + OMFS_E_NEXT, 8, 0, HV_END, HO_NONE,
		"e_next = num_blocks in a chain"),
	FIELD("small-cont2-count-max32", SMALL, HF_DIRTY, HM_ANY, HO_FRAG, HO_CONT2,
		OMFS_EXTENT_CONT + OMFS_E_COUNT, 4, 0xFFFFFFFF, HV_CONST, HO_NONE,
		"the last continuation table with e_extent_count 2^32-1"),
	CUSTOM("small-cont2-cluster-meta", SMALL, HF_DIRTY, HM_ANY, HO_FRAG, apply_ext_cluster,
		HO_CONT2, 0, 0, HV_BLOCK, HO_ROOTDIR,
		"a continuation extent over the root directory"),
	HDR_FLIPS("small-cont2", SMALL, HO_CONT2, HO_FRAG, HM_ANY, HF_DIRTY),

	/* ---- the bitmap ---- */
	CUSTOM("bitmap-zero", STD, HF_DIRTY, HM_ANY, HO_NONE, apply_bitmap, HO_BITMAP, BM_ZERO, 0,
		HV_CONST, HO_NONE, "the bitmap says every block is free"),
	CUSTOM("bitmap-ones", STD, HF_DIRTY, HM_ANY, HO_NONE, apply_bitmap, HO_BITMAP, BM_ONES, 0,
		HV_CONST, HO_NONE, "the bitmap says every block is used"),
	CUSTOM("bitmap-tail-clear", STD, HF_ANY, HM_READS, HO_NONE, apply_bitmap, HO_BITMAP,
		BM_TAIL_CLEAR, 0, HV_CONST, HO_NONE,
		"the bits past num_blocks are clear (as mkomfs leaves them)"),
	CUSTOM("bitmap-data-free", STD, HF_DIRTY, HM_READS, HO_BIG, apply_bitmap, HO_BITMAP,
		BM_CLEAR_DATA, 0, HV_CONST, HO_BIG, "a file's data blocks are marked free"),
	CUSTOM("bitmap-inode-free", STD, HF_DIRTY, HM_READS, HO_HELLO, apply_bitmap, HO_BITMAP,
		BM_CLEAR_INODE, 0, HV_CONST, HO_HELLO, "a file's inode blocks are marked free"),
	CUSTOM("bitmap-meta-free", STD, HF_DIRTY, HM_ANY, HO_NONE, apply_bitmap, HO_BITMAP,
		BM_CLEAR_META, 0, HV_CONST, HO_NONE,
		"the superblock, root block, root directory and bitmap are marked free"),
	CUSTOM("small-bitmap-zero", SMALL, HF_DIRTY, HM_ANY, HO_NONE, apply_bitmap, HO_BITMAP,
		BM_ZERO, 0, HV_CONST, HO_NONE,
		"the small volume's bitmap says every block is free"),

	/* ---- truncated images ---- */
	TRUNC("trunc-0", 0, "an empty image"),
	TRUNC("trunc-100", 100, "100 bytes: less than a superblock"),
	TRUNC("trunc-288", 288, "just the superblock"),
	TRUNC("trunc-one-block", 4096, "one block"),
	TRUNC("trunc-half", 1 << 20, "half the volume"),
	TRUNC("trunc-minus-block", -4096, "one block short"),
	TRUNC("trunc-minus-1", -1, "one byte short"),
};

bool hostile_fsck_expected(const struct hostile_case *c, int code, bool repair)
{
	switch (c->fsck) {
	case HF_CLEAN:
		return code == OMFS_FSCK_CLEAN;
	case HF_NOTE:
		return code == (repair ? OMFS_FSCK_CORRECTED : OMFS_FSCK_CLEAN);
	case HF_DIRTY:
		return repair ? code == OMFS_FSCK_CORRECTED || code == OMFS_FSCK_UNCORRECTED
			      : code == OMFS_FSCK_UNCORRECTED;
	case HF_UNMOUNTABLE:
		return code == OMFS_FSCK_UNCORRECTED || code == OMFS_FSCK_OPERATIONAL ||
		       (repair && code == OMFS_FSCK_CORRECTED);
	case HF_ANY:
	default:
		return code == OMFS_FSCK_CLEAN || code == OMFS_FSCK_CORRECTED ||
		       code == OMFS_FSCK_UNCORRECTED || code == OMFS_FSCK_OPERATIONAL;
	}
}

bool hostile_names_problem(const struct hostile_case *c, const char *msg)
{
	if (c->needle)
		return strcasestr(msg, c->needle);
	/* an inode number is a block number */
	return strcasestr(msg, "block") || strcasestr(msg, "inode");
}

const struct hostile_case *hostile_cases(size_t *n)
{
	*n = sizeof(cases) / sizeof(cases[0]);
	return cases;
}

void hostile_build(const struct hostile_case *c, struct hostile_image *img)
{
	static struct hostile_image bases[HOSTILE_NBASES];
	struct hostile_image *b = &bases[c->base];

	/* Building a base takes a few hundred operations: once per process is enough. */
	if (!b->data)
		hostile_build_base(c->base, b);
	*img = *b;
	img->data = malloc(b->size ? b->size : 1);
	if (!img->data)
		die("out of memory");
	memcpy(img->data, b->data, b->size);
	if (c->apply)
		c->apply(img, c);
}
