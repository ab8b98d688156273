/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsck-sysblock.c - the copies of a sysblock (the primary and its mirrors),
 * read raw and judged one by one; repairs written through the block cache;
 * and the root block, whose unsealed copies the mount accepts.
 */
#include "fsck-private.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- reading and judging copies ---- */

uint8_t *fsck_copy_at(const struct fsck *f, uint32_t i)
{
	return f->copies + (size_t)i * f->fs->sys_blocksize;
}

int fsck_read_copies(struct fsck *f, uint64_t block)
{
	struct omfs_fs *fs = f->fs;

	for (uint32_t i = 0; i < fs->mirrors; i++) {
		int err = omfs_dev_read(fs, omfs_block_offset(fs, block + i), fsck_copy_at(f, i),
					fs->sys_blocksize);

		if (err)
			return fsck_fail(f, err);
	}
	return 0;
}

int fsck_first_verifying_copy(const struct fsck *f, uint64_t block, char type)
{
	for (uint32_t i = 0; i < f->fs->mirrors; i++)
		if (!omfs_copy_problem(f->fs, fsck_copy_at(f, i), block, type))
			return (int)i;
	return -1;
}

static void copy_name(char *out, size_t outlen, uint64_t block, uint32_t i)
{
	if (i == 0)
		snprintf(out, outlen, "primary copy");
	else
		snprintf(out, outlen, "mirror copy %u (block %llu)", i,
			 (unsigned long long)(block + i));
}

/*
 * A mirror that verifies but differs from a primary that verifies too is
 * what a power cut between the primary's write and the mirror's leaves (the
 * core writes the primary first, docs/FORMAT.md §9: no ordering between the
 * copies). Everyone reads the primary only, so nothing is wrong with what
 * the volume says: a leftover, like a leaked block, that repair rewrites.
 * Any other disagreement (the primary does not verify) is an error.
 */
static enum omfs_fsck_severity stale_mirror_severity(int trusted)
{
	return trusted == 0 ? OMFS_FSCK_LEAK : OMFS_FSCK_ERROR;
}

int fsck_check_copies(struct fsck *f, const char *what, uint64_t block, char type,
		      uint8_t *out, struct fsck_copies *c)
{
	uint32_t sbs = f->fs->sys_blocksize;
	int err = fsck_read_copies(f, block);

	c->trusted = -1;
	c->problems = 0;
	if (err)
		return err;
	c->why = omfs_copy_problem(f->fs, fsck_copy_at(f, 0), block, type);
	c->trusted = fsck_first_verifying_copy(f, block, type);
	if (c->trusted < 0)
		return 0;
	memcpy(out, fsck_copy_at(f, (uint32_t)c->trusted), sbs);
	for (uint32_t i = 0; i < f->fs->mirrors; i++) {
		const char *why = omfs_copy_problem(f->fs, fsck_copy_at(f, i), block, type);
		char name[64], good[64];

		copy_name(name, sizeof(name), block, i);
		copy_name(good, sizeof(good), block, (uint32_t)c->trusted);
		if (why)
			fsck_finding(f, OMFS_FSCK_ERROR, "%s: %s: %s", what, name, why);
		else if (memcmp(fsck_copy_at(f, i), out, sbs))
			fsck_finding(f, stale_mirror_severity(c->trusted), "%s: %s differs from the %s",
				     what, name, good);
		else
			continue;
		c->problems++;
	}
	return 0;
}

/* ---- repairs ---- */

/*
 * Change len bytes at off in a sysblock (none when bytes is NULL: rewrite it
 * as it is) through the cache, which writes the primary and every mirror
 * with fresh checksums. 1 when written, 0 when refused (its blocks have
 * another owner too, or no copy verifies), or -errno.
 */
static int edit_sysblock(struct fsck *f, uint64_t block, char type, uint32_t off,
			 const void *bytes, size_t len)
{
	struct omfs_fs *fs = f->fs;
	struct omfs_buf *b;
	int err;

	if (fsck_blocks_shared(f, block, fs->mirrors))
		return 0;
	err = omfs_bread(fs, block, type, &b);
	if (err)
		return fsck_caused_by_volume(err) ? 0 : fsck_fail(f, err);
	if (bytes)
		memcpy(b->data + off, bytes, len);
	omfs_bdirty(fs, b);
	omfs_brelse(fs, b);
	err = omfs_writeback(fs);
	return err ? fsck_fail(f, err) : 1;
}

int fsck_edit_u64(struct fsck *f, uint64_t block, char type, uint32_t off, uint64_t v)
{
	uint8_t bytes[8];

	omfs_put_be64(bytes, v);
	return edit_sysblock(f, block, type, off, bytes, sizeof(bytes));
}

int fsck_repair_copies(struct fsck *f, const char *what, uint64_t block, char type,
		       const struct fsck_copies *c)
{
	char good[64];
	int r;

	if (!c->problems || !f->repair)
		return 0;
	r = edit_sysblock(f, block, type, 0, NULL, 0);
	if (r < 0)
		return r;
	copy_name(good, sizeof(good), block, (uint32_t)c->trusted);
	if (r)
		fsck_fixed(f, c->problems,
			   "%s: rewrote all %u copies from the %s, with fresh checksums",
			   what, f->fs->mirrors, good);
	else
		fsck_finding(f, OMFS_FSCK_INFO,
			     "%s: not rewritten, because its blocks have another owner too", what);
	return 0;
}

/* ---- the root block ---- */

/* The copy to keep: the first that verifies, else the first the mount could have used. */
static uint32_t root_copy_to_keep(const struct fsck *f)
{
	const struct omfs_fs *fs = f->fs;
	int good = fsck_first_verifying_copy(f, fs->root_block, OMFS_TYPE_SYSTEM);

	if (good >= 0)
		return (uint32_t)good;
	for (uint32_t i = 0; i < fs->mirrors; i++)
		if (omfs_root_block_unsealed(fsck_copy_at(f, i)) &&
		    omfs_be64(fsck_copy_at(f, i) + OMFS_H_SELF) == fs->root_block)
			return i;
	return 0;
}

/*
 * The copies of the root block. The kernel never reads its header, and
 * omfsck does not check it: a copy mkomfs left unsealed is a note.
 */
static unsigned check_root_copies(struct fsck *f, uint32_t keep, unsigned *notes)
{
	const struct omfs_fs *fs = f->fs;
	unsigned long long rb = (unsigned long long)fs->root_block;
	unsigned problems = 0;

	for (uint32_t i = 0; i < fs->mirrors; i++) {
		const uint8_t *c = fsck_copy_at(f, i);
		const char *why = omfs_copy_problem(fs, c, fs->root_block, OMFS_TYPE_SYSTEM);
		char name[64], good[64];

		copy_name(name, sizeof(name), fs->root_block, i);
		copy_name(good, sizeof(good), fs->root_block, keep);
		if (i != keep && memcmp(c, fsck_copy_at(f, keep), fs->sys_blocksize) &&
		    (!why || omfs_root_block_unsealed(c))) {
			fsck_finding(f, OMFS_FSCK_ERROR, "root block %llu: %s differs from the %s",
				     rb, name, good);
			problems++;
		} else if (why && omfs_root_block_unsealed(c)) {
			fsck_finding(f, OMFS_FSCK_NOTE,
				     "root block %llu: %s is not sealed (CRC and XOR are 0, as mkomfs "
				     "leaves them; the kernel never reads them)", rb, name);
			(*notes)++;
		} else if (why) {
			fsck_finding(f, OMFS_FSCK_ERROR, "root block %llu: %s: %s", rb, name, why);
			problems++;
		}
	}
	return problems;
}

/*
 * mkomfs stores the mirror count as a big-endian 32-bit value put through
 * a 64-bit byte swap: 2 reads back as 0x02000000 (33554432).
 */
static bool is_mkomfs_mirrors(uint64_t value, uint32_t mirrors)
{
	uint32_t swapped = (mirrors >> 24) | ((mirrors >> 8) & 0xff00) |
			   ((mirrors << 8) & 0xff0000) | (mirrors << 24);

	return value == swapped;
}

/*
 * r_blocksize and r_mirrors repeat the superblock's fields; the kernel
 * ignores both and omfsck checks neither, so a disagreement is a note.
 */
static unsigned check_root_fields(struct fsck *f, const uint8_t *blk)
{
	const struct omfs_fs *fs = f->fs;
	unsigned long long rb = (unsigned long long)fs->root_block;
	uint64_t mirrors = omfs_be64(blk + OMFS_R_MIRRORS);
	unsigned notes = 0;

	if (omfs_be32(blk + OMFS_R_BLOCKSIZE) != fs->blocksize) {
		fsck_finding(f, OMFS_FSCK_NOTE,
			     "root block %llu: block size %u disagrees with the superblock's %u "
			     "(the kernel uses the superblock's)",
			     rb, omfs_be32(blk + OMFS_R_BLOCKSIZE), fs->blocksize);
		notes++;
	}
	if (mirrors != fs->mirrors) {
		fsck_finding(f, OMFS_FSCK_NOTE,
			     "root block %llu: mirror count %llu disagrees with the superblock's %u "
			     "(%s)", rb, (unsigned long long)mirrors, fs->mirrors,
			     is_mkomfs_mirrors(mirrors, fs->mirrors) ?
				     "byte-swapped, as mkomfs writes it; the kernel uses the "
				     "superblock's" :
				     "the kernel uses the superblock's");
		notes++;
	}
	if (fs->mirrors == 1)
		fsck_finding(f, OMFS_FSCK_INFO,
			     "block 0: the volume keeps no mirror copy of its sysblocks (1 mirror)");
	return notes;
}

/*
 * Write the root block back with the geometry the mount uses: the cache
 * seals it (a root block, so h_body_size is kept) and writes every copy.
 */
static int rewrite_root_block(struct fsck *f, const uint8_t *blk, unsigned problems)
{
	struct omfs_fs *fs = f->fs;
	struct omfs_buf *b;
	int err;

	if (fsck_blocks_shared(f, fs->root_block, fs->mirrors)) {
		fsck_finding(f, OMFS_FSCK_INFO,
			     "root block %llu: not rewritten, because its blocks have another owner too",
			     (unsigned long long)fs->root_block);
		return 0;
	}
	err = omfs_bnew(fs, fs->root_block, OMFS_TYPE_SYSTEM, &b);
	if (err)
		return fsck_fail(f, err);
	memcpy(b->data, blk, fs->sys_blocksize);
	b->data[OMFS_H_TYPE] = OMFS_TYPE_SYSTEM;
	if (omfs_be32(b->data + OMFS_H_BODY_SIZE) > fs->sys_blocksize - OMFS_HDR_SIZE)
		omfs_put_be32(b->data + OMFS_H_BODY_SIZE, OMFS_R_BODY_SIZE);
	omfs_put_be64(b->data + OMFS_R_NUM_BLOCKS, fs->num_blocks);
	omfs_put_be64(b->data + OMFS_R_ROOT_DIR, fs->root_dir);
	omfs_put_be64(b->data + OMFS_R_BITMAP, fs->bitmap_start);
	omfs_put_be32(b->data + OMFS_R_BLOCKSIZE, fs->blocksize);
	omfs_put_be32(b->data + OMFS_R_CLUSTERSIZE, fs->clustersize);
	omfs_put_be64(b->data + OMFS_R_MIRRORS, fs->mirrors);
	omfs_bdirty(fs, b);
	omfs_brelse(fs, b);
	err = omfs_writeback(fs);
	if (err)
		return fsck_fail(f, err);
	fsck_fixed(f, problems,
		   "root block %llu: rewrote all %u copies with the superblock's geometry and a fresh checksum",
		   (unsigned long long)fs->root_block, fs->mirrors);
	if (!f->quiet)
		f->res->normalized = true;
	return 0;
}

int fsck_check_root_block(struct fsck *f)
{
	struct omfs_fs *fs = f->fs;
	uint8_t *blk = malloc(fs->sys_blocksize);
	unsigned problems, notes;
	uint32_t keep;
	int err;

	if (!blk)
		return fsck_out_of_memory(f, "root block", fs->root_block);
	err = fsck_read_copies(f, fs->root_block);
	if (!err) {
		keep = root_copy_to_keep(f);
		memcpy(blk, fsck_copy_at(f, keep), fs->sys_blocksize);
		notes = check_root_fields(f, blk);
		problems = check_root_copies(f, keep, &notes);
		if ((problems || notes) && f->repair)
			err = rewrite_root_block(f, blk, problems);
	}
	free(blk);
	return err;
}
