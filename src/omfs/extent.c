/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * extent.c - a file's extent tables (docs/FORMAT.md §7).
 *
 * A file maps its data through a chain of tables: the one in the inode at
 * byte 464, then continuation blocks ('c' sysblocks, table at byte 64)
 * linked through e_next. Each table is a 16-byte header and `count` 16-byte
 * entries, the last of which is the terminator (cluster all ones, blocks =
 * NOT of the sum of the table's real entries).
 *
 * Logical offsets accumulate across tables: table k starts where table k-1
 * ended. The kernel and omfs_fuse restart them per table, which is a bug
 * (docs/FORMAT.md §7.5); the kernel never makes continuation blocks, so no
 * kernel-made file depends on it.
 *
 * Terminators whose total disagrees with the entries are tolerated on read:
 * the mapping lives in the real entries, no Linux implementation checks the
 * total, and refusing such a file would lock the user out of data that reads
 * fine. fsck reports the mismatch, and the next store rewrites it right.
 */
#include "omfs-private.h"

#include <stdlib.h>

uint32_t omfs_max_extents(const struct omfs_fs *fs, uint32_t table_offset)
{
	uint32_t header_end = table_offset + OMFS_E_ENTRIES;

	if (fs->sys_blocksize < header_end + OMFS_E_ENTRY_SIZE)
		return 0;
	return (fs->sys_blocksize - header_end) / OMFS_E_ENTRY_SIZE;
}

/* Byte offset of entry i of the table that starts at byte `table`. */
static size_t entry_off(uint32_t table, uint32_t i)
{
	return table + OMFS_E_ENTRIES + (size_t)i * OMFS_E_ENTRY_SIZE;
}

void omfs_extent_table_init(uint8_t *blk, uint32_t off)
{
	uint8_t *term = blk + entry_off(off, 0);

	omfs_put_be64(blk + off + OMFS_E_NEXT, OMFS_NIL);
	omfs_put_be32(blk + off + OMFS_E_COUNT, 1);
	omfs_put_be32(blk + off + OMFS_E_FILL, OMFS_E_FILL_VALUE);
	omfs_put_be64(term, OMFS_NIL);
	omfs_put_be64(term + 8, ~0ull);
}

void omfs_extents_free(struct omfs_extents *ex)
{
	free(ex->v);
	free(ex->tables);
	memset(ex, 0, sizeof(*ex));
}

static int reserve_extent(struct omfs_extents *ex)
{
	size_t cap = ex->cap ? ex->cap * 2 : 16;
	struct omfs_extent *v;

	if (ex->n < ex->cap)
		return 0;
	v = realloc(ex->v, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	ex->v = v;
	ex->cap = cap;
	return 0;
}

/* Add a new last extent, without merging; the caller checked the total. */
static int push_extent(struct omfs_extents *ex, uint64_t start, uint64_t count)
{
	if (reserve_extent(ex))
		return -ENOMEM;
	ex->v[ex->n].start = start;
	ex->v[ex->n].count = count;
	ex->n++;
	ex->total += count;
	return 0;
}

int omfs_extents_append(struct omfs_extents *ex, uint64_t start, uint64_t count)
{
	struct omfs_extent *last = ex->n ? &ex->v[ex->n - 1] : NULL;

	if (count == 0)
		return 0;
	if (ex->total + count < ex->total)
		return -EOVERFLOW;
	if (last && last->start + last->count == start) {
		last->count += count;
		ex->total += count;
		return 0;
	}
	return push_extent(ex, start, count);
}

/* ---- loading ---- */

static size_t pow2_ceil(size_t n)
{
	size_t p = 1;

	while (p < n)
		p <<= 1;
	return n ? p : 0;
}

/* The table array's capacity is always at least pow2_ceil(ntables). */
static int tables_reserve(struct omfs_extents *ex, size_t n)
{
	uint64_t *t;

	if (n <= ex->ntables || pow2_ceil(n) <= pow2_ceil(ex->ntables))
		return 0;
	t = realloc(ex->tables, pow2_ceil(n) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	ex->tables = t;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * A chain revisits a block only by looping. Checking for duplicates each time
 * the chain length reaches a power of two finds any loop before the walk is
 * twice its distinct length, at O(n log n) in all: cheap even for a hostile
 * chain of millions of valid continuation blocks.
 */
static int chain_has_loop(struct omfs_fs *fs, const struct omfs_extents *ex, bool *loop)
{
	size_t n = ex->ntables;
	uint64_t *sorted;

	*loop = false;
	if (n < 2 || (n & (n - 1)))
		return 0;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return omfs_error(fs, ENOMEM, "no memory to check an extent chain for loops");
	memcpy(sorted, ex->tables, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	for (size_t i = 1; i < n && !*loop; i++)
		*loop = sorted[i] == sorted[i - 1];
	free(sorted);
	return 0;
}

/* Check one real entry of the table in block `blk` and add it to ex. */
static int load_entry(struct omfs_fs *fs, uint64_t blk, uint32_t i, const uint8_t *e,
		      struct omfs_extents *ex)
{
	uint64_t cluster = omfs_be64(e), blocks = omfs_be64(e + 8);
	uint64_t first = omfs_data_start(fs);

	if (blocks == 0)
		return omfs_error(fs, EUCLEAN, "block %llu: extent %u is empty",
				  (unsigned long long)blk, i);
	if (cluster < first || cluster >= fs->num_blocks ||
	    blocks > fs->num_blocks - cluster)
		return omfs_error(fs, EUCLEAN,
				  "block %llu: extent %u (%llu blocks at %llu) lies outside "
				  "the data area [%llu, %llu)",
				  (unsigned long long)blk, i, (unsigned long long)blocks,
				  (unsigned long long)cluster, (unsigned long long)first,
				  (unsigned long long)fs->num_blocks);
	/* no file can map more blocks than the volume has; this also bounds the total */
	if (blocks > fs->num_blocks - ex->total)
		return omfs_error(fs, EUCLEAN,
				  "block %llu: extent %u takes the file past the volume's "
				  "%llu blocks",
				  (unsigned long long)blk, i, (unsigned long long)fs->num_blocks);
	/* unmerged, as on disk, so a store after a load rewrites nothing */
	if (push_extent(ex, cluster, blocks))
		return omfs_error(fs, ENOMEM, "no memory for the extents of block %llu",
				  (unsigned long long)blk);
	return 0;
}

/* Check the table at data + off (of sysblock blk) and add its entries to ex. */
static int load_table(struct omfs_fs *fs, uint64_t blk, const uint8_t *data, uint32_t off,
		      struct omfs_extents *ex)
{
	uint32_t max = omfs_max_extents(fs, off);
	uint32_t count = omfs_be32(data + off + OMFS_E_COUNT);
	const uint8_t *term;
	int err;

	if (count < 1 || count > max)
		return omfs_error(fs, EUCLEAN,
				  "block %llu: extent count %u is outside 1..%u",
				  (unsigned long long)blk, count, max);
	for (uint32_t i = 0; i + 1 < count; i++) {
		err = load_entry(fs, blk, i, data + entry_off(off, i), ex);
		if (err)
			return err;
	}
	term = data + entry_off(off, count - 1);
	if (omfs_be64(term) != OMFS_NIL)
		return omfs_error(fs, EUCLEAN,
				  "block %llu: the last of %u extents is not a terminator",
				  (unsigned long long)blk, count);
	return 0;
}

/* Check e_next of the table just loaded and record it as the next table. */
static int follow_next(struct omfs_fs *fs, uint64_t blk, uint64_t next, struct omfs_extents *ex)
{
	uint64_t first = omfs_data_start(fs);
	bool loop;
	int err;

	if (next < first || next >= fs->num_blocks || fs->mirrors > fs->num_blocks - next)
		return omfs_error(fs, EUCLEAN,
				  "block %llu: next extent table %llu lies outside "
				  "the data area [%llu, %llu)",
				  (unsigned long long)blk, (unsigned long long)next,
				  (unsigned long long)first, (unsigned long long)fs->num_blocks);
	if (ex->ntables >= fs->num_blocks / fs->mirrors)
		return omfs_error(fs, EUCLEAN,
				  "block %llu: the extent chain is longer than the volume "
				  "could hold",
				  (unsigned long long)blk);
	if (tables_reserve(ex, ex->ntables + 1))
		return omfs_error(fs, ENOMEM, "no memory for the extent chain at block %llu",
				  (unsigned long long)blk);
	ex->tables[ex->ntables++] = next;
	err = chain_has_loop(fs, ex, &loop);
	if (err)
		return err;
	if (loop)
		return omfs_error(fs, EUCLEAN,
				  "block %llu: the extent chain loops back to a table already read",
				  (unsigned long long)blk);
	return 0;
}

int omfs_extents_load(struct omfs_fs *fs, struct omfs_buf *inode, struct omfs_extents *ex)
{
	uint64_t blk = inode->block;
	uint64_t next = omfs_be64(inode->data + OMFS_EXTENT_START + OMFS_E_NEXT);
	struct omfs_buf *b;
	int err;

	omfs_extents_free(ex);
	err = load_table(fs, blk, inode->data, OMFS_EXTENT_START, ex);
	while (!err && next != OMFS_NIL) {
		err = follow_next(fs, blk, next, ex);
		if (err)
			break;
		blk = next;
		err = omfs_bread(fs, blk, OMFS_TYPE_CONT, &b);
		if (err)
			break;
		next = omfs_be64(b->data + OMFS_EXTENT_CONT + OMFS_E_NEXT);
		err = load_table(fs, blk, b->data, OMFS_EXTENT_CONT, ex);
		omfs_brelse(fs, b);
	}
	if (err)
		omfs_extents_free(ex);
	return err;
}

/* ---- storing ---- */

struct table_layout {
	uint32_t in_inode;	/* real extents in the inode's table */
	uint32_t per_cont;	/* real extents per continuation table */
	size_t ntables;		/* continuation tables needed */
};

static int plan_tables(struct omfs_fs *fs, const struct omfs_extents *ex, struct table_layout *l)
{
	uint32_t max_inode = omfs_max_extents(fs, OMFS_EXTENT_START);
	uint32_t max_cont = omfs_max_extents(fs, OMFS_EXTENT_CONT);

	if (max_inode < 2 || max_cont < 2)
		return omfs_error(fs, EINVAL, "sysblocks of %u bytes have no room for extents",
				  fs->sys_blocksize);
	l->in_inode = max_inode - 1;
	l->per_cont = max_cont - 1;
	l->ntables = 0;
	if (ex->n > l->in_inode)
		l->ntables = (ex->n - l->in_inode + l->per_cont - 1) / l->per_cont;
	return 0;
}

/* Give back the continuation blocks past the first `keep` (a failed free only leaks). */
static void free_tables_from(struct omfs_fs *fs, struct omfs_extents *ex, size_t keep)
{
	while (ex->ntables > keep) {
		uint64_t blk = ex->tables[--ex->ntables];

		omfs_bforget(fs, blk);
		omfs_free_run(fs, blk, fs->mirrors);
	}
}

/*
 * Allocate the continuation blocks the new layout needs beyond those the file
 * has, recording them in ex->tables. Nothing points to them yet, so on
 * failure they are simply given back and ex is as before.
 */
static int alloc_tables(struct omfs_fs *fs, struct omfs_extents *ex, size_t want)
{
	size_t have = ex->ntables;
	uint64_t blk;
	int err = 0;

	if (want <= have)
		return 0;
	if (tables_reserve(ex, want))
		return omfs_error(fs, ENOMEM, "no memory for %zu extent tables", want);
	while (ex->ntables < want) {
		err = omfs_alloc_sysblock(fs, &blk);
		if (err)
			break;
		ex->tables[ex->ntables++] = blk;
	}
	if (ex->ntables < want)
		free_tables_from(fs, ex, have);
	return err;
}

/*
 * Build table `t` (0 = the inode's) in scratch, laid out as it sits at `off`:
 * header, entries, terminator, and zeros up to the table's capacity.
 */
static size_t build_table(struct omfs_fs *fs, const struct omfs_extents *ex,
			  const struct table_layout *l, size_t t, uint8_t *scratch, uint32_t off)
{
	size_t first = t ? l->in_inode + (t - 1) * l->per_cont : 0;
	size_t n = t ? l->per_cont : l->in_inode;
	size_t len = OMFS_E_ENTRIES + (size_t)omfs_max_extents(fs, off) * OMFS_E_ENTRY_SIZE;
	uint64_t next = t < l->ntables ? ex->tables[t] : OMFS_NIL;
	uint64_t sum = 0;
	uint8_t *e;

	if (first + n > ex->n)
		n = ex->n - first;
	memset(scratch, 0, len);
	omfs_put_be64(scratch + OMFS_E_NEXT, next);
	omfs_put_be32(scratch + OMFS_E_COUNT, (uint32_t)n + 1);
	omfs_put_be32(scratch + OMFS_E_FILL, OMFS_E_FILL_VALUE);
	for (size_t i = 0; i < n; i++) {
		e = scratch + entry_off(0, (uint32_t)i);
		omfs_put_be64(e, ex->v[first + i].start);
		omfs_put_be64(e + 8, ex->v[first + i].count);
		sum += ex->v[first + i].count;
	}
	e = scratch + entry_off(0, (uint32_t)n);
	omfs_put_be64(e, OMFS_NIL);
	omfs_put_be64(e + 8, ~sum);
	return len;
}

/* Copy a built table into its buffer; dirty the buffer only when a byte changed. */
static void put_table(struct omfs_fs *fs, struct omfs_buf *b, uint32_t off,
		      const uint8_t *scratch, size_t len)
{
	if (!memcmp(b->data + off, scratch, len))
		return;
	memcpy(b->data + off, scratch, len);
	omfs_bdirty(fs, b);
}

static int write_cont_table(struct omfs_fs *fs, struct omfs_extents *ex,
			    const struct table_layout *l, size_t t, bool is_new, uint8_t *scratch)
{
	uint64_t blk = ex->tables[t - 1];
	struct omfs_buf *b;
	size_t len;
	int err;

	/* omfs_bnew zeroes the block (bytes 24..63 included) and writes its header */
	if (is_new)
		err = omfs_bnew(fs, blk, OMFS_TYPE_CONT, &b);
	else
		err = omfs_bread(fs, blk, OMFS_TYPE_CONT, &b);
	if (err)
		return err;
	len = build_table(fs, ex, l, t, scratch, OMFS_EXTENT_CONT);
	put_table(fs, b, OMFS_EXTENT_CONT, scratch, len);
	omfs_brelse(fs, b);
	return 0;
}

/*
 * Read each continuation table that stays before changing any: the rewrite
 * below then finds them in the cache, so a read error cannot leave the
 * chain half rewritten.
 */
static int check_tables_readable(struct omfs_fs *fs, const struct omfs_extents *ex, size_t n)
{
	struct omfs_buf *b;
	int err;

	for (size_t i = 0; i < n && i < ex->ntables; i++) {
		err = omfs_bread(fs, ex->tables[i], OMFS_TYPE_CONT, &b);
		if (err)
			return err;
		omfs_brelse(fs, b);
	}
	return 0;
}

int omfs_extents_store(struct omfs_fs *fs, struct omfs_buf *inode, struct omfs_extents *ex)
{
	struct table_layout l = { 0 };
	size_t had = ex->ntables, len;
	uint8_t *scratch;
	int err;

	err = plan_tables(fs, ex, &l);
	if (!err)
		err = check_tables_readable(fs, ex, l.ntables);
	if (err)
		return err;
	scratch = malloc(fs->sys_blocksize);
	if (!scratch)
		return omfs_error(fs, ENOMEM, "no memory to write the extents of inode %llu",
				  (unsigned long long)inode->block);
	err = alloc_tables(fs, ex, l.ntables);
	if (err)
		goto out;
	/*
	 * Continuation tables first, from the end: a table is complete before
	 * the one that points to it is rewritten.
	 */
	for (size_t t = l.ntables; t >= 1; t--) {
		err = write_cont_table(fs, ex, &l, t, t > had, scratch);
		if (err) {
			/* nothing on disk or in the cache points to new tables yet */
			if (t > had)
				free_tables_from(fs, ex, had);
			goto out;
		}
	}
	len = build_table(fs, ex, &l, 0, scratch, OMFS_EXTENT_START);
	put_table(fs, inode, OMFS_EXTENT_START, scratch, len);
	free_tables_from(fs, ex, l.ntables);
out:
	free(scratch);
	return err;
}
