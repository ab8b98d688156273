/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bitmap.c - the free-space bitmap (bit n = byte n/8, bit n%8, 1 = used) and
 * the allocator. The whole map lives in memory; changed bitmap blocks are
 * marked and written back by omfs_writeback. Frees are deferred (see
 * omfs_free_run) so that no block is reused while the disk still points to it.
 */
#include "omfs-private.h"

#include <stdlib.h>

bool omfs_block_used(const struct omfs_fs *fs, uint64_t block)
{
	return block >= fs->num_blocks || omfs_bit_test(fs->map, block);
}

static void mark_bitmap_block_dirty(struct omfs_fs *fs, uint64_t bit)
{
	if (fs->map_dirty)
		fs->map_dirty[(bit >> 3) / fs->blocksize] = 1;
}

static void set_run(struct omfs_fs *fs, uint64_t start, uint64_t count, bool used)
{
	for (uint64_t n = start; n < start + count; n++) {
		uint8_t mask = (uint8_t)(1u << (n & 7));

		if (!!(fs->map[n >> 3] & mask) == used)
			continue;
		fs->map[n >> 3] ^= mask;
		fs->free_blocks += used ? -1 : 1;
		mark_bitmap_block_dirty(fs, n);
	}
}

uint64_t omfs_data_start(const struct omfs_fs *fs)
{
	uint64_t floor = fs->root_block + fs->mirrors;

	if (fs->bitmap_start != OMFS_NIL && fs->bitmap_start + fs->bitmap_blocks > floor)
		floor = fs->bitmap_start + fs->bitmap_blocks;
	return floor;
}

uint64_t omfs_count_free_bits(const uint8_t *map, uint64_t nbits)
{
	uint64_t used = 0, full = nbits >> 3;

	/* whole bytes at once: a mount and an fsck repair count up to 2^31 bits */
	for (uint64_t i = 0; i < full; i++)
		used += (uint64_t)__builtin_popcount(map[i]);
	for (uint64_t n = full << 3; n < nbits; n++)
		used += omfs_bit_test(map, n);
	return nbits - used;
}

static int bitmap_alloc_map(struct omfs_fs *fs)
{
	/* Whole blocks, so the bitmap is always written block by block. */
	size_t bytes = (size_t)fs->bitmap_blocks * fs->blocksize;

	fs->map = calloc(1, bytes ? bytes : 1);
	fs->map_dirty = calloc(1, fs->bitmap_blocks ? fs->bitmap_blocks : 1);
	if (!fs->map || !fs->map_dirty)
		return omfs_error(fs, ENOMEM, "out of memory for the free-space bitmap");
	return 0;
}

/* Bits past the end of the volume read as used, so they can never be handed out. */
static void set_tail_bits(struct omfs_fs *fs)
{
	uint64_t total_bits = (uint64_t)fs->bitmap_blocks * fs->blocksize * 8;

	for (uint64_t n = fs->num_blocks; n < total_bits && (n & 7); n++)
		omfs_bit_set(fs->map, n);
	if (fs->map_bytes < (size_t)fs->bitmap_blocks * fs->blocksize)
		memset(fs->map + fs->map_bytes, 0xFF,
		       (size_t)fs->bitmap_blocks * fs->blocksize - fs->map_bytes);
}

int omfs_bitmap_load(struct omfs_fs *fs)
{
	int err;

	fs->map_bytes = (size_t)((fs->num_blocks + 7) / 8);
	if (fs->bitmap_start == OMFS_NIL) {
		/* ReplayTV: no bitmap on disk; the caller rebuilds it by walking the tree. */
		fs->bitmap_blocks = (fs->map_bytes + fs->blocksize - 1) / fs->blocksize;
		err = bitmap_alloc_map(fs);
		free(fs->map_dirty);
		fs->map_dirty = NULL;
		if (err)
			return err;
		set_tail_bits(fs);
		set_run(fs, 0, omfs_data_start(fs), true);
		fs->free_blocks = omfs_count_free_bits(fs->map, fs->num_blocks);
		return 0;
	}
	fs->bitmap_blocks = (fs->map_bytes + fs->blocksize - 1) / fs->blocksize;
	if (fs->bitmap_start <= fs->root_block ||
	    fs->bitmap_start >= fs->num_blocks ||
	    fs->num_blocks - fs->bitmap_start < fs->bitmap_blocks)
		return omfs_error(fs, EUCLEAN,
				  "root block %llu: free-space bitmap at block %llu (%llu blocks long) "
				  "does not fit in the volume of %llu blocks",
				  (unsigned long long)fs->root_block,
				  (unsigned long long)fs->bitmap_start,
				  (unsigned long long)fs->bitmap_blocks,
				  (unsigned long long)fs->num_blocks);
	err = bitmap_alloc_map(fs);
	if (!err)
		err = omfs_dev_read(fs, omfs_block_offset(fs, fs->bitmap_start), fs->map,
				    fs->map_bytes);
	if (err)
		return err;
	set_tail_bits(fs);
	fs->free_blocks = omfs_count_free_bits(fs->map, fs->num_blocks);
	fs->alloc_cursor = omfs_data_start(fs);
	return 0;
}

void omfs_bitmap_destroy(struct omfs_fs *fs)
{
	free(fs->map);
	free(fs->map_dirty);
	free(fs->pending);
	fs->map = fs->map_dirty = NULL;
	fs->pending = NULL;
	fs->npending = fs->pending_cap = 0;
}

/* First free block in [from, end), or end. Skips used bytes eight at a time. */
static uint64_t find_free(const struct omfs_fs *fs, uint64_t from, uint64_t end)
{
	uint64_t n = from;

	while (n < end) {
		if ((n & 63) == 0 && end - n >= 64) {
			uint64_t word;

			memcpy(&word, fs->map + (n >> 3), 8);
			if (word == UINT64_MAX) {
				n += 64;
				continue;
			}
		}
		if (!omfs_bit_test(fs->map, n))
			return n;
		n++;
	}
	return end;
}

/* Length of the free run starting at `start`, capped at max. */
static uint64_t free_run_length(const struct omfs_fs *fs, uint64_t start, uint64_t max)
{
	uint64_t n = start;
	uint64_t end = max < fs->num_blocks - start ? start + max : fs->num_blocks;

	while (n < end) {
		if ((n & 63) == 0 && end - n >= 64) {
			uint64_t word;

			memcpy(&word, fs->map + (n >> 3), 8);
			if (word == 0) {
				n += 64;
				continue;
			}
		}
		if (omfs_bit_test(fs->map, n))
			break;
		n++;
	}
	return n - start;
}

/* A backup walks maps of up to 2^31 bits: find_free and free_run_length skip 64 at a time. */
bool omfs_next_used_run(const struct omfs_fs *fs, uint64_t from, uint64_t *start,
			uint64_t *count)
{
	uint64_t floor = omfs_data_start(fs), first, end;

	if (from >= fs->num_blocks)
		return false;
	first = from;
	if (first >= floor)
		first += free_run_length(fs, first, fs->num_blocks - first);
	if (first >= fs->num_blocks)
		return false;
	end = find_free(fs, first < floor ? floor : first, fs->num_blocks);
	*start = first;
	*count = end - first;
	return true;
}

/* Return frees to the allocator early when it runs dry: a write-back makes that safe. */
static int reclaim_pending(struct omfs_fs *fs)
{
	if (!fs->npending)
		return 0;
	return omfs_writeback(fs);
}

int omfs_alloc_sysblock(struct omfs_fs *fs, uint64_t *block)
{
	uint64_t floor = omfs_data_start(fs);

	for (int attempt = 0; attempt < 2; attempt++) {
		uint64_t n = find_free(fs, floor, fs->num_blocks);

		while (n < fs->num_blocks) {
			uint64_t len = free_run_length(fs, n, fs->mirrors);

			if (len == fs->mirrors) {
				set_run(fs, n, len, true);
				*block = n;
				return 0;
			}
			n = find_free(fs, n + len, fs->num_blocks);
		}
		if (attempt == 0 && fs->npending) {
			int err = reclaim_pending(fs);

			if (err)
				return err;
			continue;
		}
		break;
	}
	return omfs_error(fs, ENOSPC, "no room for a new sysblock (%u free blocks in a row)",
			  fs->mirrors);
}

/* Next fit from the cursor: the first run of `want` blocks, else the longest seen. */
static bool search_run(struct omfs_fs *fs, uint64_t want, struct omfs_run *run)
{
	uint64_t floor = omfs_data_start(fs);
	uint64_t start = fs->alloc_cursor < floor ? floor : fs->alloc_cursor;
	struct omfs_run best = { 0, 0 };

	for (int pass = 0; pass < 2; pass++) {
		uint64_t lo = pass == 0 ? start : floor;
		uint64_t hi = pass == 0 ? fs->num_blocks : start;
		uint64_t n = find_free(fs, lo, hi);

		while (n < hi) {
			uint64_t len = free_run_length(fs, n, want);

			if (len > best.count)
				best = (struct omfs_run){ n, len };
			if (len >= want)
				goto found;
			n = find_free(fs, n + len, hi);
		}
	}
found:
	*run = best;
	return best.count > 0;
}

int omfs_alloc_data(struct omfs_fs *fs, uint64_t goal, uint64_t want, struct omfs_run *run)
{
	if (want == 0)
		return omfs_error(fs, EINVAL, "allocation of zero blocks");
	if (goal >= omfs_data_start(fs) && goal < fs->num_blocks && !omfs_bit_test(fs->map, goal)) {
		*run = (struct omfs_run){ goal, free_run_length(fs, goal, want) };
	} else if (!search_run(fs, want, run)) {
		int err = reclaim_pending(fs);

		if (err)
			return err;
		if (!search_run(fs, want, run))
			return omfs_error(fs, ENOSPC, "the volume is full (no free data block left)");
	}
	set_run(fs, run->start, run->count, true);
	fs->alloc_cursor = run->start + run->count;
	return 0;
}

static int check_run(struct omfs_fs *fs, uint64_t start, uint64_t count, const char *what)
{
	if (count == 0 || start < omfs_data_start(fs) || start >= fs->num_blocks ||
	    count > fs->num_blocks - start)
		return omfs_error(fs, EUCLEAN, "%s of blocks %llu+%llu lies outside the data area",
				  what, (unsigned long long)start, (unsigned long long)count);
	return 0;
}

int omfs_free_run(struct omfs_fs *fs, uint64_t start, uint64_t count)
{
	int err = check_run(fs, start, count, "free");
	struct omfs_run *last = fs->npending ? &fs->pending[fs->npending - 1] : NULL;

	if (err)
		return err;
	if (last && last->start + last->count == start) {
		last->count += count;
		return 0;
	}
	if (fs->npending == fs->pending_cap) {
		size_t cap = fs->pending_cap ? fs->pending_cap * 2 : 64;
		struct omfs_run *p = realloc(fs->pending, cap * sizeof(*p));

		if (!p)
			return omfs_error(fs, ENOMEM, "out of memory queueing freed blocks");
		fs->pending = p;
		fs->pending_cap = cap;
	}
	fs->pending[fs->npending++] = (struct omfs_run){ start, count };
	return 0;
}

int omfs_mark_used(struct omfs_fs *fs, uint64_t start, uint64_t count)
{
	if (count == 0 || start >= fs->num_blocks || count > fs->num_blocks - start)
		return omfs_error(fs, EUCLEAN, "blocks %llu+%llu lie outside the volume",
				  (unsigned long long)start, (unsigned long long)count);
	set_run(fs, start, count, true);
	return 0;
}

static void apply_pending(struct omfs_fs *fs)
{
	for (size_t i = 0; i < fs->npending; i++)
		set_run(fs, fs->pending[i].start, fs->pending[i].count, false);
	if (fs->npending && fs->pending[0].start < fs->alloc_cursor)
		fs->alloc_cursor = omfs_data_start(fs);
	fs->npending = 0;
}

/*
 * Write the dirty bitmap blocks, consecutive ones in one request; *wrote says
 * whether there were any. No barrier: omfs_writeback places them.
 */
int omfs_bitmap_write(struct omfs_fs *fs, bool apply, bool *wrote)
{
	*wrote = false;
	if (apply)
		apply_pending(fs);
	if (!fs->map_dirty || fs->read_only)
		return 0;
	for (uint64_t i = 0; i < fs->bitmap_blocks;) {
		uint64_t j = i;
		int err;

		if (!fs->map_dirty[i]) {
			i++;
			continue;
		}
		while (j < fs->bitmap_blocks && fs->map_dirty[j])
			j++;
		err = omfs_dev_write(fs, omfs_block_offset(fs, fs->bitmap_start + i),
				     fs->map + i * fs->blocksize, (size_t)(j - i) * fs->blocksize);
		if (err)
			return err;
		memset(fs->map_dirty + i, 0, j - i);
		*wrote = true;
		i = j;
	}
	return 0;
}
