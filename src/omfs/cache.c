/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cache.c - device access with counters, and the sysblock cache: an LRU of
 * verified sysblocks, written back with their mirrors in an order that keeps
 * the volume consistent after a power cut at any point (see omfs_writeback).
 */
#include "omfs-private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int omfs_error(struct omfs_fs *fs, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fs->errmsg, sizeof(fs->errmsg), fmt, ap);
	va_end(ap);
	return -err;
}

/* The single choke point for every device access: nothing outside the volume is touched. */
static int dev_check_range(struct omfs_fs *fs, uint64_t off, size_t len, const char *what)
{
	uint64_t end = fs->num_blocks * fs->blocksize;

	if (fs->num_blocks && (off > end || len > end - off))
		return omfs_error(fs, EIO, "%s of %zu bytes at byte %llu lies outside the volume",
				  what, len, (unsigned long long)off);
	return 0;
}

int omfs_dev_read(struct omfs_fs *fs, uint64_t off, void *buf, size_t len)
{
	uint8_t *p = buf;
	int err = dev_check_range(fs, off, len, "read");

	while (!err && len) {
		size_t n = len < fs->opts.max_request ? len : fs->opts.max_request;

		err = fs->dev.read(fs->dev.ctx, off, p, n);
		if (err)
			return omfs_error(fs, -err, "device read of %zu bytes at byte %llu failed: %s",
					  n, (unsigned long long)off, strerror(-err));
		fs->counters.read_requests++;
		fs->counters.read_bytes += n;
		off += n;
		p += n;
		len -= n;
	}
	return err;
}

int omfs_check_writable(struct omfs_fs *fs)
{
	if (fs->read_only)
		return omfs_error(fs, EROFS, "the volume is mounted read-only");
	return 0;
}

int omfs_dev_write(struct omfs_fs *fs, uint64_t off, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	int err = omfs_check_writable(fs);

	if (!err)
		err = dev_check_range(fs, off, len, "write");
	while (!err && len) {
		size_t n = len < fs->opts.max_request ? len : fs->opts.max_request;

		err = fs->dev.write(fs->dev.ctx, off, p, n);
		if (err)
			return omfs_error(fs, -err, "device write of %zu bytes at byte %llu failed: %s",
					  n, (unsigned long long)off, strerror(-err));
		fs->counters.write_requests++;
		fs->counters.write_bytes += n;
		off += n;
		p += n;
		len -= n;
	}
	return err;
}

int omfs_dev_flush(struct omfs_fs *fs)
{
	int err = fs->dev.flush ? fs->dev.flush(fs->dev.ctx) : 0;

	if (err)
		return omfs_error(fs, -err, "device flush failed: %s", strerror(-err));
	fs->counters.flushes++;
	return 0;
}

/* ---- the cache proper ---- */

static size_t hash_slot(const struct omfs_cache *c, uint64_t block)
{
	return (size_t)((block * 0x9E3779B97F4A7C15ull) >> 32) & (c->nbuckets - 1);
}

static void lru_unlink(struct omfs_buf *b)
{
	b->lru_prev->lru_next = b->lru_next;
	b->lru_next->lru_prev = b->lru_prev;
}

static void lru_push_front(struct omfs_cache *c, struct omfs_buf *b)
{
	b->lru_next = c->lru.lru_next;
	b->lru_prev = &c->lru;
	c->lru.lru_next->lru_prev = b;
	c->lru.lru_next = b;
}

int omfs_cache_init(struct omfs_fs *fs, size_t capacity)
{
	struct omfs_cache *c = &fs->cache;

	c->capacity = capacity;
	c->nbuckets = 64;
	while (c->nbuckets < capacity)
		c->nbuckets <<= 1;
	c->table = calloc(c->nbuckets, sizeof(*c->table));
	if (!c->table)
		return omfs_error(fs, ENOMEM, "out of memory for the block cache");
	c->lru.lru_next = c->lru.lru_prev = &c->lru;
	return 0;
}

static struct omfs_buf *cache_find(struct omfs_cache *c, uint64_t block)
{
	struct omfs_buf *b = c->table[hash_slot(c, block)];

	while (b && b->block != block)
		b = b->hash_next;
	return b;
}

static void cache_remove(struct omfs_cache *c, struct omfs_buf *b)
{
	struct omfs_buf **pp = &c->table[hash_slot(c, b->block)];

	while (*pp != b)
		pp = &(*pp)->hash_next;
	*pp = b->hash_next;
	lru_unlink(b);
	c->count--;
	free(b->data);
	free(b);
}

void omfs_cache_destroy(struct omfs_fs *fs)
{
	struct omfs_cache *c = &fs->cache;

	if (!c->table)
		return;
	while (c->lru.lru_next != &c->lru)
		cache_remove(c, c->lru.lru_next);
	free(c->table);
	c->table = NULL;
}

/* Drop least recently used unreferenced buffers until there is room for one more. */
static int cache_make_room(struct omfs_fs *fs)
{
	struct omfs_cache *c = &fs->cache;
	struct omfs_buf *b = c->lru.lru_prev;

	while (c->count >= c->capacity && b != &c->lru) {
		struct omfs_buf *prev = b->lru_prev;

		if (b->refs == 0) {
			if (b->dirty) {
				int err = omfs_writeback(fs);

				if (err)
					return err;
			}
			cache_remove(c, b);
			fs->counters.cache_evictions++;
		}
		b = prev;
	}
	return 0;
}

static int cache_insert(struct omfs_fs *fs, uint64_t block, struct omfs_buf **out)
{
	struct omfs_cache *c = &fs->cache;
	struct omfs_buf *b;
	int err = cache_make_room(fs);

	if (err)
		return err;
	b = calloc(1, sizeof(*b));
	if (b)
		b->data = malloc(fs->sys_blocksize);
	if (!b || !b->data) {
		free(b);
		return omfs_error(fs, ENOMEM, "out of memory for sysblock %llu",
				  (unsigned long long)block);
	}
	b->block = block;
	b->refs = 1;
	b->hash_next = c->table[hash_slot(c, block)];
	c->table[hash_slot(c, block)] = b;
	lru_push_front(c, b);
	c->count++;
	*out = b;
	return 0;
}

bool omfs_sysblock_in_range(const struct omfs_fs *fs, uint64_t block)
{
	return block >= fs->root_block && block < fs->num_blocks &&
	       fs->num_blocks - block >= fs->mirrors;
}

static int check_sysblock_number(struct omfs_fs *fs, uint64_t block)
{
	if (!omfs_sysblock_in_range(fs, block))
		return omfs_error(fs, EUCLEAN,
				  "block %llu: pointer outside the volume's sysblock range [%llu, %llu)",
				  (unsigned long long)block, (unsigned long long)fs->root_block,
				  (unsigned long long)(fs->num_blocks - fs->mirrors + 1));
	return 0;
}

const char *omfs_copy_problem(const struct omfs_fs *fs, const uint8_t *data, uint64_t block,
			      char type)
{
	const char *why = omfs_header_problem(data, fs->sys_blocksize);

	if (why)
		return why;
	if (omfs_be64(data + OMFS_H_SELF) != block)
		return "self pointer does not match the block number";
	if (type && data[OMFS_H_TYPE] != (uint8_t)type)
		return "unexpected header type";
	return NULL;
}

static int read_verified(struct omfs_fs *fs, uint64_t block, char type, uint8_t *data)
{
	const char *why = NULL;

	for (uint32_t i = 0; i < fs->mirrors; i++) {
		const char *problem;
		int err = omfs_dev_read(fs, omfs_block_offset(fs, block + i), data,
					fs->sys_blocksize);

		if (err)
			return err;
		problem = omfs_copy_problem(fs, data, block, type);
		if (!problem)
			return 0;
		if (!why)
			why = problem;
	}
	return omfs_error(fs, EUCLEAN, "block %llu: %s, and no mirror copy verifies",
			  (unsigned long long)block, why);
}

int omfs_bread(struct omfs_fs *fs, uint64_t block, char type, struct omfs_buf **out)
{
	struct omfs_buf *b;
	int err = check_sysblock_number(fs, block);

	if (err)
		return err;
	b = cache_find(&fs->cache, block);
	if (b) {
		if (type && b->data[OMFS_H_TYPE] != (uint8_t)type)
			return omfs_error(fs, EUCLEAN, "block %llu: unexpected header type '%c'",
					  (unsigned long long)block, b->data[OMFS_H_TYPE]);
		fs->counters.cache_hits++;
		b->refs++;
		lru_unlink(b);
		lru_push_front(&fs->cache, b);
		*out = b;
		return 0;
	}
	fs->counters.cache_misses++;
	err = cache_insert(fs, block, &b);
	if (err)
		return err;
	err = read_verified(fs, block, type, b->data);
	if (err) {
		cache_remove(&fs->cache, b);
		return err;
	}
	*out = b;
	return 0;
}

int omfs_bnew(struct omfs_fs *fs, uint64_t block, char type, struct omfs_buf **out)
{
	struct omfs_buf *b = cache_find(&fs->cache, block);
	int err = check_sysblock_number(fs, block);

	if (err)
		return err;
	if (b) {
		b->refs++;
	} else {
		err = cache_insert(fs, block, &b);
		if (err)
			return err;
	}
	memset(b->data, 0, fs->sys_blocksize);
	omfs_put_be64(b->data + OMFS_H_SELF, block);
	omfs_put_be32(b->data + OMFS_H_BODY_SIZE, fs->sys_blocksize - OMFS_HDR_SIZE);
	b->data[OMFS_H_VERSION] = OMFS_HDR_VERSION;
	b->data[OMFS_H_TYPE] = (uint8_t)type;
	b->data[OMFS_H_MAGIC] = OMFS_HDR_MAGIC;
	b->dirty = true;
	b->fresh = true;
	*out = b;
	return 0;
}

void omfs_bdirty(struct omfs_fs *fs, struct omfs_buf *b)
{
	b->dirty = true;
}

void omfs_brelse(struct omfs_fs *fs, struct omfs_buf *b)
{
	if (b && b->refs)
		b->refs--;
}

void omfs_bforget(struct omfs_fs *fs, uint64_t block)
{
	struct omfs_buf *b = cache_find(&fs->cache, block);

	/* A buffer still referenced is only made clean; its holder releases it. */
	if (!b)
		return;
	if (b->refs) {
		b->dirty = false;
		b->fresh = false;
		return;
	}
	cache_remove(&fs->cache, b);
}

/* ---- write-back ---- */

static int write_sysblock(struct omfs_fs *fs, struct omfs_buf *b)
{
	uint8_t type = b->data[OMFS_H_TYPE];

	omfs_put_be64(b->data + OMFS_H_SELF, b->block);
	if (type != OMFS_TYPE_SYSTEM)
		omfs_put_be32(b->data + OMFS_H_BODY_SIZE, fs->sys_blocksize - OMFS_HDR_SIZE);
	b->data[OMFS_H_VERSION] = OMFS_HDR_VERSION;
	b->data[OMFS_H_MAGIC] = OMFS_HDR_MAGIC;
	omfs_seal_header(b->data, fs->sys_blocksize);
	/* Mirrors are byte-for-byte copies, h_self included (what Linux writes). */
	for (uint32_t i = 0; i < fs->mirrors; i++) {
		int err = omfs_dev_write(fs, omfs_block_offset(fs, b->block + i), b->data,
					 fs->sys_blocksize);

		if (err)
			return err;
	}
	b->dirty = false;
	b->fresh = false;
	return 0;
}

static int compare_buf_blocks(const void *a, const void *b)
{
	uint64_t x = (*(struct omfs_buf *const *)a)->block;
	uint64_t y = (*(struct omfs_buf *const *)b)->block;

	return x < y ? -1 : x > y;
}

/* Write the dirty buffers whose fresh flag equals `fresh`, in block order. */
static int write_dirty(struct omfs_fs *fs, bool fresh, bool *wrote)
{
	struct omfs_cache *c = &fs->cache;
	struct omfs_buf **list, *b;
	size_t n = 0;
	int err = 0;

	list = malloc((c->count + 1) * sizeof(*list));
	if (!list)
		return omfs_error(fs, ENOMEM, "out of memory during write-back");
	for (b = c->lru.lru_next; b != &c->lru; b = b->lru_next)
		if (b->dirty && b->fresh == fresh)
			list[n++] = b;
	qsort(list, n, sizeof(*list), compare_buf_blocks);
	for (size_t i = 0; i < n && !err; i++)
		err = write_sysblock(fs, list[i]);
	free(list);
	*wrote = n > 0;
	return err;
}

static int barrier_if(struct omfs_fs *fs, bool wrote)
{
	return wrote ? omfs_dev_flush(fs) : 0;
}

int omfs_writeback(struct omfs_fs *fs)
{
	bool fresh = false, allocated = false, linked = false, freed = false;
	int err;

	if (fs->read_only)
		return 0;
	/*
	 * 1: blocks nothing on disk points to yet (new inodes, unlinked ones);
	 * 2: the allocations. One barrier after both: neither points at the
	 * other, and each need only be on the disk before stage 3 points at
	 * them (a power cut between them leaves at worst a block marked used
	 * that nothing owns, a leak).
	 */
	err = write_dirty(fs, true, &fresh);
	if (!err)
		err = omfs_bitmap_write(fs, false, &allocated);
	if (!err)
		err = barrier_if(fs, fresh || allocated);
	/* 3: everything reachable: links, sizes, extent tables. */
	if (!err)
		err = write_dirty(fs, false, &linked);
	if (!err)
		err = barrier_if(fs, linked);
	if (!err)
		fs->unlinked = false;
	/* 4: frees, now that no block on disk refers to the freed blocks. */
	if (!err && fs->npending)
		err = omfs_bitmap_write(fs, true, &freed);
	if (!err)
		err = barrier_if(fs, freed);
	return err;
}
