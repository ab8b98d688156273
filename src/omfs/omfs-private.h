/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * omfs-private.h - on-disk layout and the internals shared by the core's files.
 * Nothing outside src/omfs includes this.
 */
#ifndef OMFS_PRIVATE_H
#define OMFS_PRIVATE_H

#include "omfs.h"

#include <errno.h>
#include <string.h>

/* ---- on-disk layout (docs/FORMAT.md §2–§8); all integers big-endian ---- */

#define OMFS_MAGIC 0xC2993D87u
#define OMFS_HDR_MAGIC 0xD2
#define OMFS_HDR_VERSION 1
#define OMFS_TYPE_INODE 'e'
#define OMFS_TYPE_CONT 'c'
#define OMFS_TYPE_SYSTEM 's'
#define OMFS_ITYPE_DIR 'D'
#define OMFS_ITYPE_FILE 'F'

/* superblock */
#define OMFS_SB_NAME 192
#define OMFS_SB_ROOT_BLOCK 256
#define OMFS_SB_NUM_BLOCKS 264
#define OMFS_SB_MAGIC 272
#define OMFS_SB_BLOCKSIZE 276
#define OMFS_SB_MIRRORS 280
#define OMFS_SB_SYS_BLOCKSIZE 284
#define OMFS_SB_SIZE 288

/* common sysblock header */
#define OMFS_H_SELF 0
#define OMFS_H_BODY_SIZE 8
#define OMFS_H_CRC 12
#define OMFS_H_VERSION 16
#define OMFS_H_TYPE 17
#define OMFS_H_MAGIC 18
#define OMFS_H_XOR 19
#define OMFS_HDR_SIZE 24
#define OMFS_XOR_COUNT 19

/* root block */
#define OMFS_R_NUM_BLOCKS 32
#define OMFS_R_ROOT_DIR 40
#define OMFS_R_BITMAP 48
#define OMFS_R_BLOCKSIZE 56
#define OMFS_R_CLUSTERSIZE 60
#define OMFS_R_MIRRORS 64
#define OMFS_R_NAME 72
#define OMFS_R_BODY_SIZE 312	/* what mkomfs writes: its 336-byte struct minus the header */

/* inode */
#define OMFS_I_PARENT 24
#define OMFS_I_SIBLING 32
#define OMFS_I_CTIME 40
#define OMFS_I_TYPE 83
#define OMFS_I_FILL2 84
#define OMFS_I_NAME 152
#define OMFS_I_SIZE 408
#define OMFS_DIR_START 440	/* directory hash table */
#define OMFS_EXTENT_START 464	/* extent table in an inode */
#define OMFS_EXTENT_CONT 64	/* extent table in a continuation block */

/* extent table, relative to its start */
#define OMFS_E_NEXT 0
#define OMFS_E_COUNT 8
#define OMFS_E_FILL 12
#define OMFS_E_ENTRIES 16
#define OMFS_E_ENTRY_SIZE 16
#define OMFS_E_FILL_VALUE 0x22

/* limits we accept (docs/FORMAT.md §2, §3 and §11) */
#define OMFS_MIN_SYS_BLOCKSIZE 512
#define OMFS_MAX_BLOCKSIZE 8192
#define OMFS_MAX_MIRRORS 8
#define OMFS_MAX_CLUSTERSIZE 8
#define OMFS_MAX_BLOCKS (1ull << 31)
#define OMFS_MAX_FILE_SIZE 0xFFFFFFFFull	/* the kernel's s_maxbytes */

static inline uint64_t omfs_be64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static inline uint32_t omfs_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint16_t omfs_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline void omfs_put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static inline void omfs_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void omfs_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* ---- checksum.c ---- */

/* Fill in h_body_size's CRC, then the XOR byte (the CRC lies inside the XOR range). */
void omfs_seal_header(uint8_t *blk, uint32_t sys_blocksize);
/* 0 when magic, version, XOR and CRC are right; else a static reason. */
const char *omfs_header_problem(const uint8_t *blk, uint32_t sys_blocksize);
uint8_t omfs_header_xor(const uint8_t *blk);

/* ---- the block cache (cache.c) ---- */

/*
 * A cached sysblock: the first sys_blocksize bytes of FS block `block`, with
 * its mirror copies written alongside it. Buffers are reference counted; only
 * unreferenced ones are evicted.
 */
struct omfs_buf {
	uint64_t block;
	uint8_t *data;
	unsigned refs;
	bool dirty;
	/* allocated since the last write-back: nothing on disk can point to it yet */
	bool fresh;
	struct omfs_buf *hash_next;
	struct omfs_buf *lru_prev, *lru_next;
};

struct omfs_cache {
	struct omfs_buf **table;
	size_t nbuckets;
	size_t count;
	size_t capacity;
	struct omfs_buf lru;	/* sentinel: lru.lru_next is the most recently used */
};

struct omfs_run {
	uint64_t start;
	uint64_t count;
};

struct omfs_fs {
	struct omfs_blockdev dev;
	struct omfs_mount_opts opts;
	bool read_only;

	uint64_t num_blocks;
	uint64_t root_block;
	uint64_t root_dir;
	uint64_t bitmap_start;	/* OMFS_NIL on ReplayTV volumes */
	uint32_t blocksize;
	uint32_t sys_blocksize;
	uint32_t mirrors;
	uint32_t clustersize;
	struct omfs_info info;

	/* free-space bitmap, kept whole in memory (1 = used, LSB first) */
	uint8_t *map;
	size_t map_bytes;
	uint64_t bitmap_blocks;		/* FS blocks the on-disk bitmap occupies */
	uint8_t *map_dirty;		/* one flag per on-disk bitmap block */
	uint64_t alloc_cursor;		/* next-fit start for data runs */
	uint64_t free_blocks;		/* zero bits in map */
	/* freed since the last write-back: still marked used so nothing reuses them */
	struct omfs_run *pending;
	size_t npending, pending_cap;

	/*
	 * An entry left a chain since the last write-back. A link must not be
	 * written in the same stage as an unlink: in block order the new link
	 * could reach the disk before the old one is gone, and a power cut
	 * between them would leave the name twice.
	 */
	bool unlinked;

	struct omfs_cache cache;
	struct omfs_counters counters;
	char errmsg[OMFS_ERRMSG_MAX];
};

/* Record an error sentence and return -err (err is a positive errno). */
int omfs_error(struct omfs_fs *fs, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Raw device access with counting; offsets in bytes. */
int omfs_dev_read(struct omfs_fs *fs, uint64_t off, void *buf, size_t len);
int omfs_dev_write(struct omfs_fs *fs, uint64_t off, const void *buf, size_t len);
int omfs_dev_flush(struct omfs_fs *fs);
/* -EROFS with its sentence on a read-only mount, else 0. */
int omfs_check_writable(struct omfs_fs *fs);

static inline uint64_t omfs_block_offset(const struct omfs_fs *fs, uint64_t block)
{
	return block * fs->blocksize;
}

/* Sysblock numbers run from the root block to the last that leaves room for every mirror. */
bool omfs_sysblock_in_range(const struct omfs_fs *fs, uint64_t block);
/*
 * Why the raw copy in data cannot stand for sysblock `block`: a bad header,
 * a self pointer naming another block, or a header type other than `type`
 * (any type when 0). NULL when it can. omfs_bread and fsck judge by this.
 */
const char *omfs_copy_problem(const struct omfs_fs *fs, const uint8_t *data, uint64_t block,
			      char type);

int omfs_cache_init(struct omfs_fs *fs, size_t capacity);
void omfs_cache_destroy(struct omfs_fs *fs);
/*
 * Read and verify the sysblock at `block` (header magic, version, XOR, CRC,
 * h_self, and type `type` unless 0). A copy that fails is replaced by the
 * first mirror that verifies. -EIO/-EUCLEAN with a sentence otherwise.
 */
int omfs_bread(struct omfs_fs *fs, uint64_t block, char type, struct omfs_buf **out);
/* A zeroed buffer for a sysblock just allocated; it is dirty and fresh. */
int omfs_bnew(struct omfs_fs *fs, uint64_t block, char type, struct omfs_buf **out);
void omfs_bdirty(struct omfs_fs *fs, struct omfs_buf *b);
void omfs_brelse(struct omfs_fs *fs, struct omfs_buf *b);
/* The block was freed: drop it from the cache without writing it. */
void omfs_bforget(struct omfs_fs *fs, uint64_t block);
/*
 * Write back in the order that keeps the disk consistent at every point:
 * fresh sysblocks and the bitmap's allocations, barrier, other sysblocks,
 * barrier, pending frees in the bitmap, barrier.
 */
int omfs_writeback(struct omfs_fs *fs);

/* ---- bitmap.c ---- */

/* Bit n of a block map (byte n/8, bit n%8, LSB first); inline, as fsck tests every block. */
static inline bool omfs_bit_test(const uint8_t *map, uint64_t n)
{
	return map[n >> 3] & (1u << (n & 7));
}

static inline void omfs_bit_set(uint8_t *map, uint64_t n)
{
	map[n >> 3] |= (uint8_t)(1u << (n & 7));
}

/* The clear bits among the first nbits of map: the free blocks of a bitmap. */
uint64_t omfs_count_free_bits(const uint8_t *map, uint64_t nbits);

int omfs_bitmap_load(struct omfs_fs *fs);
void omfs_bitmap_destroy(struct omfs_fs *fs);
bool omfs_block_used(const struct omfs_fs *fs, uint64_t block);
/*
 * Blocks below this hold the superblock, the root block and its mirrors and
 * the bitmap: nothing is allocated there and no extent may point there.
 */
uint64_t omfs_data_start(const struct omfs_fs *fs);
/* s_mirrors consecutive free blocks for a sysblock; *block is the first. */
int omfs_alloc_sysblock(struct omfs_fs *fs, uint64_t *block);
/*
 * A run of up to `want` free blocks, preferring one that starts at `goal`
 * (to extend an extent in place), then the first run long enough, then the
 * longest run. -ENOSPC when the volume is full.
 */
int omfs_alloc_data(struct omfs_fs *fs, uint64_t goal, uint64_t want, struct omfs_run *run);
/* Freed blocks stay used until the next write-back has removed all references. */
int omfs_free_run(struct omfs_fs *fs, uint64_t start, uint64_t count);
/* Write the bitmap blocks marked dirty; apply_pending first releases pending frees. */
int omfs_bitmap_write(struct omfs_fs *fs, bool apply_pending, bool *wrote);
/* Mark a run used (ReplayTV rebuild, fsck). Rejects runs outside the volume. */
int omfs_mark_used(struct omfs_fs *fs, uint64_t start, uint64_t count);

/* ---- super.c ---- */

/*
 * What mkomfs leaves: a root block whose CRC and XOR were never computed. The
 * mount accepts it (the kernel never reads that header); fsck reports it.
 */
bool omfs_root_block_unsealed(const uint8_t *blk);

/* ---- inode.c: inode fields and the name hash ---- */

uint32_t omfs_fold(uint8_t c);	/* the kernel's Latin-1 tolower */
uint32_t omfs_nbuckets(const struct omfs_fs *fs);
/* Read an inode ('e' header, i_type D or F). */
int omfs_iget(struct omfs_fs *fs, uint64_t ino, struct omfs_buf **out);
bool omfs_inode_is_dir(const struct omfs_buf *b);
size_t omfs_inode_namelen(const struct omfs_buf *b);
uint64_t omfs_now_ms(struct omfs_fs *fs);
/* Allocate and initialise a new inode (whole sysblock zeroed; dir: empty buckets). */
int omfs_inode_new(struct omfs_fs *fs, uint64_t parent, const char *name, size_t len,
		   bool is_dir, struct omfs_buf **out);
bool omfs_name_valid(const char *name, size_t len);

/* ---- extent.c: extent tables ---- */

/* A file's mapping, loaded from all its tables; logical offsets accumulate. */
struct omfs_extent {
	uint64_t start;
	uint64_t count;
};
struct omfs_extents {
	struct omfs_extent *v;
	size_t n, cap;
	uint64_t total;		/* blocks mapped */
	uint64_t *tables;	/* continuation blocks in chain order */
	size_t ntables;
};

uint32_t omfs_max_extents(const struct omfs_fs *fs, uint32_t table_offset);
/* Walk the inode's table and its continuation chain, checking every entry. */
int omfs_extents_load(struct omfs_fs *fs, struct omfs_buf *inode, struct omfs_extents *ex);
/* Rewrite the tables from ex, allocating or freeing continuation blocks as needed. */
int omfs_extents_store(struct omfs_fs *fs, struct omfs_buf *inode, struct omfs_extents *ex);
int omfs_extents_append(struct omfs_extents *ex, uint64_t start, uint64_t count);
void omfs_extents_free(struct omfs_extents *ex);
/* Write an empty table (count 1, fill 0x22, terminator all ones) at off. */
void omfs_extent_table_init(uint8_t *blk, uint32_t off);

/* ---- file.c ---- */
/* Remove an inode's blocks: data, continuation blocks and the inode itself. */
int omfs_inode_release(struct omfs_fs *fs, uint64_t ino);

#endif
