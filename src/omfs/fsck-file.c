/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsck-file.c - a file: the extent table in its inode, the chain of
 * continuation blocks with more tables, the runs they map, and its size
 * against the blocks mapped. A file found sound is then loaded by the core
 * too, so fsck never calls clean what the filesystem refuses.
 */
#include "fsck-private.h"

#include <stdio.h>

/* A file can map no more blocks than this; it keeps byte counts far from overflow. */
#define FSCK_MAPPED_CAP (1ull << 40)

struct file_scan {
	uint64_t ino;
	uint64_t mapped;	/* blocks in the runs that lie in the data area */
	bool bad_runs;		/* a run outside the data area, or an unknown table */
	bool problems;		/* something the core may refuse: skip the cross-check */
};

static uint8_t *table_entry(uint8_t *blk, uint32_t off, uint32_t i)
{
	return blk + off + OMFS_E_ENTRIES + (size_t)i * OMFS_E_ENTRY_SIZE;
}

/* A run outside the data area still keeps what it covers inside it from being reused. */
static void claim_quietly_in_data_area(struct fsck *f, uint64_t start, uint64_t count)
{
	uint64_t n = f->fs->num_blocks, lo = start < f->meta_end ? f->meta_end : start;
	uint64_t hi = count > n || start > n - count ? n : start + count;

	/* and no repair writes a sysblock there: whose those blocks are is unknown */
	if (lo < hi) {
		fsck_set_bit_range(f->owned, lo, hi - lo);
		fsck_set_bit_range(f->shared, lo, hi - lo);
	}
}

/* Check one real entry; true when it lies in the data area and was claimed. */
static bool check_run(struct fsck *f, struct file_scan *s, uint64_t block, uint32_t i,
		      const uint8_t *e)
{
	uint64_t start = omfs_be64(e), count = omfs_be64(e + 8), n = f->fs->num_blocks;
	unsigned long long ino = (unsigned long long)s->ino;
	char what[96];

	if (count == 0) {
		fsck_finding(f, OMFS_FSCK_ERROR, "file %llu: block %llu: extent %u is empty",
			     ino, (unsigned long long)block, i);
		s->problems = true;
		return false;
	}
	if (start < f->meta_end || start >= n || count > n - start) {
		fsck_finding(f, OMFS_FSCK_ERROR,
			     "file %llu: block %llu: extent %u (%llu blocks at %llu) lies outside the data area [%llu, %llu)",
			     ino, (unsigned long long)block, i, (unsigned long long)count,
			     (unsigned long long)start, (unsigned long long)f->meta_end,
			     (unsigned long long)n);
		claim_quietly_in_data_area(f, start, count);
		s->problems = s->bad_runs = true;
		return false;
	}
	snprintf(what, sizeof(what), "file %llu: block %llu: extent %u", ino,
		 (unsigned long long)block, i);
	if (fsck_claim(f, what, start, count))
		s->problems = true;
	s->mapped = count > FSCK_MAPPED_CAP - s->mapped ? FSCK_MAPPED_CAP : s->mapped + count;
	return true;
}

/* The terminator holds NOT(sum of the table's blocks); rewrite it when the runs are sound. */
static int check_terminator(struct fsck *f, struct file_scan *s, uint64_t block, char type,
			    uint8_t *blk, uint32_t off, uint32_t count, uint64_t sum, bool runs_ok)
{
	uint8_t *term = table_entry(blk, off, count - 1);
	unsigned long long ino = (unsigned long long)s->ino;
	uint64_t total = omfs_be64(term + 8);
	int r;

	if (omfs_be64(term) != OMFS_NIL) {
		fsck_finding(f, OMFS_FSCK_ERROR,
			     "file %llu: block %llu: the last of its %u extents is not a terminator",
			     ino, (unsigned long long)block, count);
		s->problems = true;
		return 0;
	}
	if (total == ~sum)
		return 0;
	/* the kernel never reads the total (find_block stops before the terminator), nor do we */
	fsck_finding(f, OMFS_FSCK_NOTE,
		     "file %llu: block %llu: the terminator total 0x%016llx is not the complement of the table's %llu blocks (nothing reads it)",
		     ino, (unsigned long long)block, (unsigned long long)total,
		     (unsigned long long)sum);
	if (!f->repair || !runs_ok)
		return 0;
	r = fsck_edit_u64(f, block, type, (uint32_t)(term + 8 - blk), ~sum);
	if (r <= 0)
		return r;
	omfs_put_be64(term + 8, ~sum);
	fsck_fixed(f, 0, "file %llu: block %llu: set the terminator total to the complement of %llu",
		   ino, (unsigned long long)block, (unsigned long long)sum);
	f->res->normalized = true;
	return 0;
}

/* Check the extent table at off in sysblock `block` (trusted copy blk). */
static int check_table(struct fsck *f, struct file_scan *s, uint64_t block, char type,
		       uint8_t *blk, uint32_t off)
{
	uint32_t max = omfs_max_extents(f->fs, off);
	uint32_t count = omfs_be32(blk + off + OMFS_E_COUNT);
	uint64_t sum = 0;
	bool runs_ok = true;

	if (count < 1 || count > max) {
		fsck_finding(f, OMFS_FSCK_ERROR,
			     "file %llu: block %llu: extent count %u is outside 1..%u",
			     (unsigned long long)s->ino, (unsigned long long)block, count, max);
		/* which blocks the table maps is unknown */
		s->problems = s->bad_runs = true;
		f->incomplete = true;
		return 0;
	}
	for (uint32_t i = 0; i + 1 < count; i++) {
		const uint8_t *e = table_entry(blk, off, i);

		sum += omfs_be64(e + 8);
		if (!check_run(f, s, block, i, e))
			runs_ok = false;
	}
	return check_terminator(f, s, block, type, blk, off, count, sum, runs_ok);
}

/*
 * Enter continuation block `next`, named by sysblock `from`: 1 with its
 * trusted copy in f->cont, 0 when the chain ends here, or -errno.
 */
static int enter_continuation(struct fsck *f, struct file_scan *s, uint64_t from, uint64_t next)
{
	struct omfs_fs *fs = f->fs;
	struct fsck_copies c;
	char what[96];
	int err;

	snprintf(what, sizeof(what), "file %llu: continuation block %llu",
		 (unsigned long long)s->ino, (unsigned long long)next);
	if (next < f->meta_end || !omfs_sysblock_in_range(fs, next)) {
		fsck_finding(f, OMFS_FSCK_ERROR,
			     "%s, named by block %llu, lies outside the data area",
			     what, (unsigned long long)from);
		s->problems = s->bad_runs = true;
		f->incomplete = true;
		return 0;
	}
	if (omfs_bit_test(f->seen, next)) {
		/* its blocks are already owned by whoever reached it first */
		fsck_finding(f, OMFS_FSCK_ERROR,
			     "%s, named by block %llu, was reached before: the extent chain loops or is shared",
			     what, (unsigned long long)from);
		s->problems = true;
		return 0;
	}
	omfs_bit_set(f->seen, next);
	err = fsck_check_copies(f, what, next, OMFS_TYPE_CONT, f->cont, &c);
	if (err)
		return err;
	fsck_claim(f, what, next, fs->mirrors);
	if (c.trusted < 0) {
		fsck_finding(f, OMFS_FSCK_ERROR, "%s: no copy verifies (primary: %s)", what,
			     c.why);
		s->problems = s->bad_runs = true;
		f->incomplete = true;
		return 0;
	}
	err = fsck_repair_copies(f, what, next, OMFS_TYPE_CONT, &c);
	return err ? err : 1;
}

static void check_file_size(struct fsck *f, struct file_scan *s, const uint8_t *blk)
{
	uint64_t size = omfs_be64(blk + OMFS_I_SIZE), bs = f->fs->blocksize;
	uint64_t need = size / bs + (size % bs != 0);
	unsigned long long ino = (unsigned long long)s->ino;

	if (size > OMFS_MAX_FILE_SIZE) {
		fsck_finding(f, OMFS_FSCK_ERROR,
			     "file %llu: size %llu is larger than OMFS allows (%llu)", ino,
			     (unsigned long long)size, OMFS_MAX_FILE_SIZE);
		s->problems = true;
	}
	if (s->bad_runs)
		return;
	if (need > s->mapped) {
		fsck_finding(f, OMFS_FSCK_ERROR,
			     "file %llu: size %llu needs %llu blocks but only %llu are mapped: the tail cannot be read",
			     ino, (unsigned long long)size, (unsigned long long)need,
			     (unsigned long long)s->mapped);
		s->problems = true;
	} else if (s->mapped - need > f->fs->clustersize) {
		fsck_finding(f, OMFS_FSCK_INFO,
			     "file %llu: %llu blocks are mapped past its end (size %llu), more than a cluster",
			     ino, (unsigned long long)(s->mapped - need), (unsigned long long)size);
	}
}

/* A file that passed every check must be loadable by the core too. */
static int cross_check_file(struct fsck *f, uint64_t ino)
{
	struct omfs_extents ex = { 0 };
	struct omfs_buf *b;
	int err = omfs_iget(f->fs, ino, &b);

	if (!err) {
		err = omfs_extents_load(f->fs, b, &ex);
		omfs_extents_free(&ex);
		omfs_brelse(f->fs, b);
	}
	if (err && !fsck_caused_by_volume(err))
		return fsck_fail(f, err);
	if (err)
		fsck_finding(f, OMFS_FSCK_ERROR, "file %llu: the filesystem cannot load it: %s",
			     (unsigned long long)ino, omfs_errmsg(f->fs));
	return 0;
}

int fsck_check_file(struct fsck *f, uint64_t ino, uint8_t *blk)
{
	struct file_scan s = { .ino = ino };
	uint64_t from = ino, next = omfs_be64(blk + OMFS_EXTENT_START + OMFS_E_NEXT);
	int err = check_table(f, &s, ino, OMFS_TYPE_INODE, blk, OMFS_EXTENT_START);

	/* each step enters a block not seen before, so num_blocks bounds the chain */
	while (!err && next != OMFS_NIL) {
		err = enter_continuation(f, &s, from, next);
		if (err <= 0)
			break;
		err = check_table(f, &s, next, OMFS_TYPE_CONT, f->cont, OMFS_EXTENT_CONT);
		from = next;
		next = omfs_be64(f->cont + OMFS_EXTENT_CONT + OMFS_E_NEXT);
	}
	if (err < 0)
		return err;
	check_file_size(f, &s, blk);
	if (!s.problems && !f->quiet)
		return cross_check_file(f, ino);
	return 0;
}
