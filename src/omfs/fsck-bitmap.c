/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsck-bitmap.c - the free-space bitmap against the blocks the walk kept:
 * blocks marked used that nothing owns (leaks), blocks in use marked free
 * (which the allocator would hand out twice), and the bits past the end of
 * the volume. A repair that found errors rebuilds the bitmap from the walk.
 */
#include "fsck-private.h"

#include <stdlib.h>

/* Runs of bitmap disagreements reported one by one; the rest are summed up. */
#define FSCK_MAX_RUN_REPORTS 16

struct run_count {
	uint64_t runs;
	uint64_t blocks;
	unsigned findings;
};

static void report_run(struct fsck *f, enum omfs_fsck_severity sev, uint64_t start,
		       uint64_t len, const char *what)
{
	if (len == 1)
		fsck_finding(f, sev, "block %llu is %s", (unsigned long long)start, what);
	else
		fsck_finding(f, sev, "blocks %llu..%llu (%llu) are %s", (unsigned long long)start,
			     (unsigned long long)(start + len - 1), (unsigned long long)len, what);
}

/* Report the runs of blocks set in a and clear in b, the first few one by one. */
static struct run_count report_runs(struct fsck *f, const uint8_t *a, const uint8_t *b,
				    enum omfs_fsck_severity sev, const char *what)
{
	uint64_t n = 0, end = f->fs->num_blocks, start = OMFS_NIL, rest = 0;
	struct run_count rc = { 0, 0, 0 };

	while (n <= end) {
		bool d;

		if (n < end && start == OMFS_NIL && (n & 7) == 0 && end - n >= 8 &&
		    !(a[n >> 3] & ~b[n >> 3])) {
			n += 8;
			continue;
		}
		d = n < end && omfs_bit_test(a, n) && !omfs_bit_test(b, n);
		if (d && start == OMFS_NIL)
			start = n;
		if (!d && start != OMFS_NIL) {
			rc.runs++;
			rc.blocks += n - start;
			if (rc.runs <= FSCK_MAX_RUN_REPORTS) {
				report_run(f, sev, start, n - start, what);
				rc.findings++;
			} else {
				rest += n - start;
			}
			start = OMFS_NIL;
		}
		n++;
	}
	if (rc.runs > FSCK_MAX_RUN_REPORTS) {
		fsck_finding(f, sev, "%llu more runs of blocks (%llu blocks) are %s",
			     (unsigned long long)(rc.runs - FSCK_MAX_RUN_REPORTS),
			     (unsigned long long)rest, what);
		rc.findings++;
	}
	return rc;
}

/* Bits past the end of the volume should read as used, so nothing hands them out. */
static int check_bitmap_tail(struct fsck *f, bool *ok)
{
	struct omfs_fs *fs = f->fs;
	uint64_t last = fs->bitmap_blocks - 1, first_bit = last * fs->blocksize * 8;
	uint8_t *blk = malloc(fs->blocksize);
	int err;

	*ok = true;
	if (!blk)
		return fsck_out_of_memory(f, "bitmap block", fs->bitmap_start + last);
	err = omfs_dev_read(fs, omfs_block_offset(fs, fs->bitmap_start + last), blk,
			    fs->blocksize);
	if (err) {
		free(blk);
		return fsck_fail(f, err);
	}
	for (uint64_t n = fs->num_blocks; n < first_bit + fs->blocksize * 8ull && *ok; n++)
		*ok = omfs_bit_test(blk, n - first_bit);
	free(blk);
	if (!*ok)
		fsck_finding(f, OMFS_FSCK_INFO,
			     "bitmap block %llu: the bits past the volume's %llu blocks are not all set",
			     (unsigned long long)(fs->bitmap_start + last),
			     (unsigned long long)fs->num_blocks);
	return 0;
}

/*
 * Make the in-memory bitmap say what the walk found and write all of it.
 * Blocks of a tree not walked whole may hide among the leaks: then the
 * leaks stay, and only the blocks in use are marked.
 */
static int rebuild_bitmap(struct fsck *f, bool reclaim)
{
	struct omfs_fs *fs = f->fs;
	uint64_t full = fs->num_blocks >> 3;
	int err;

	for (uint64_t i = 0; i < full; i++)
		fs->map[i] = reclaim ? f->owned[i] : fs->map[i] | f->owned[i];
	for (uint64_t n = full << 3; n < fs->num_blocks; n++) {
		uint8_t mask = (uint8_t)(1u << (n & 7));

		if (omfs_bit_test(f->owned, n))
			fs->map[n >> 3] |= mask;
		else if (reclaim)
			fs->map[n >> 3] &= (uint8_t)~mask;
	}
	fs->free_blocks = omfs_count_free_bits(fs->map, fs->num_blocks);
	memset(fs->map_dirty, 1, (size_t)fs->bitmap_blocks);
	err = omfs_writeback(fs);
	return err ? fsck_fail(f, err) : 0;
}

int fsck_check_bitmap(struct fsck *f)
{
	struct omfs_fs *fs = f->fs;
	struct run_count leaks, missing;
	bool tail_ok, reclaim;
	int err;

	if (fs->bitmap_start == OMFS_NIL) {
		fsck_finding(f, OMFS_FSCK_INFO,
			     "root block %llu: the volume has no free-space bitmap (ReplayTV); it was not checked",
			     (unsigned long long)fs->root_block);
		return 0;
	}
	/* everything below the data area is fixed metadata, in use whoever owns it */
	fsck_set_bit_range(f->owned, 0, f->meta_end);
	leaks = report_runs(f, fs->map, f->owned, OMFS_FSCK_LEAK,
			    "marked used in the bitmap but owned by nothing");
	missing = report_runs(f, f->owned, fs->map, OMFS_FSCK_ERROR,
			      "in use but marked free in the bitmap");
	f->res->leaked_blocks = leaks.blocks;
	f->res->unmarked_blocks = missing.blocks;
	err = check_bitmap_tail(f, &tail_ok);
	/* the tail alone is harmless: it is set only when the volume is being repaired anyway */
	if (err || !f->repair || !f->res->errors || (!leaks.runs && !missing.runs && tail_ok))
		return err;
	reclaim = leaks.runs && !f->incomplete;
	if (leaks.runs && !reclaim)
		fsck_finding(f, OMFS_FSCK_INFO,
			     "the %llu leaked blocks are kept: part of the tree could not be walked, so they may be in use",
			     (unsigned long long)leaks.blocks);
	err = rebuild_bitmap(f, reclaim);
	if (err)
		return err;
	fsck_fixed(f, missing.findings + (reclaim ? leaks.findings : 0),
		   "rewrote the free-space bitmap: %llu blocks freed, %llu marked used%s",
		   (unsigned long long)(reclaim ? leaks.blocks : 0),
		   (unsigned long long)missing.blocks,
		   tail_ok ? "" : ", and the bits past the end set");
	return 0;
}
