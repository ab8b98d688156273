/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsck-private.h - what the parts of the checker share: the state of one
 * check, and the helpers every part reports, claims and repairs through.
 *
 *   fsck.c           omfs_fsck, the passes, findings, block claims, exit code
 *   fsck-sysblock.c  the copies of a sysblock, repairs through the cache, root block
 *   fsck-file.c      extent tables, continuation chains, file sizes
 *   fsck-dir.c       the directory walk: chains, entries, misplaced entries, sizes
 *   fsck-names.c     entry names: their buckets and duplicates
 *   fsck-bitmap.c    the free-space bitmap against what the walk kept
 */
#ifndef OMFS_FSCK_PRIVATE_H
#define OMFS_FSCK_PRIVATE_H

#include "omfs-private.h"

/* Names in messages are cut to this many bytes. */
#define FSCK_NAME_SHOWN 48

/* One check of one mounted volume; every part reads and updates it. */
struct fsck {
	struct omfs_fs *fs;
	const struct omfs_fsck_opts *opts;
	struct omfs_fsck_result *res;
	bool quiet;		/* survey pass: nothing reported, counted or written */
	bool repair;
	int fatal;		/* -errno of a failure not caused by the volume (memory, device) */
	bool incomplete;	/* some kept file or directory was not walked whole */
	uint64_t meta_end;	/* first block a file's data may use */
	size_t map_bytes;
	uint8_t *owned;		/* blocks used by what the walk keeps */
	uint8_t *seen;		/* sysblocks already entered */
	uint8_t *rejected;	/* entries dropped from a directory that is not their parent */
	uint8_t *shared;	/* blocks claimed twice */
	uint8_t *copies;	/* scratch: every copy of one sysblock */
	uint8_t *cont;		/* the trusted copy of the continuation block being checked */
	/*
	 * Directories whose size to tidy. Harmless findings (INFO) are tidied
	 * only by a repair that finds errors: a volume with nothing but INFO
	 * findings is clean, and a repair of a clean volume writes nothing.
	 */
	uint64_t *tidy_dirs;
	size_t ntidy, tidy_cap;
};

/* ---- fsck.c: findings ---- */

/* One problem (ERROR, LEAK) or remark (INFO), in one sentence. */
void fsck_finding(struct fsck *f, enum omfs_fsck_severity sev, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* What a repair changed; it settles `n` of the findings reported before it. */
void fsck_fixed(struct fsck *f, unsigned n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Damage in the volume, as opposed to running out of memory or a failing device. */
bool fsck_caused_by_volume(int err);
/* Stop the walk: the check cannot go on (memory, device). Returns err. */
int fsck_fail(struct fsck *f, int err);
/* fsck_fail with the sentence "out of memory checking WHAT BLOCK". */
int fsck_out_of_memory(struct fsck *f, const char *what, uint64_t block);
/* A name from disk, safe to print: cut to FSCK_NAME_SHOWN bytes, odd bytes as '?'. */
void fsck_shown_name(char *out, size_t outlen, const uint8_t *name, size_t len);
/*
 * Room for element n of a growing array v of `size`-byte elements, *cap
 * long: v itself, or a larger copy (and *cap updated), or NULL (v is kept).
 */
void *fsck_grow(void *v, size_t *cap, size_t n, size_t size);

/* ---- fsck.c: blocks and owners ---- */

/* Set the bits of a run, whole bytes at once: runs can span most of a 2^31-block map. */
void fsck_set_bit_range(uint8_t *map, uint64_t start, uint64_t count);
/* True when a block of the run is claimed twice: no repair may rewrite it. */
bool fsck_blocks_shared(const struct fsck *f, uint64_t start, uint64_t count);
/* Claim a run (inside the volume) for `what`; 1 when a block had an owner already. */
int fsck_claim(struct fsck *f, const char *what, uint64_t start, uint64_t count);

/* ---- fsck-sysblock.c: the copies of a sysblock ---- */

struct fsck_copies {
	int trusted;		/* the first copy that verifies, or -1 */
	const char *why;	/* when none does: the primary's problem */
	unsigned problems;	/* findings reported about the copies */
};

/* Read every copy of a sysblock raw into f->copies; fsck_copy_at names one. */
int fsck_read_copies(struct fsck *f, uint64_t block);
uint8_t *fsck_copy_at(const struct fsck *f, uint32_t i);
/* The first copy read that verifies (the one omfs_bread would use), or -1. */
int fsck_first_verifying_copy(const struct fsck *f, uint64_t block, char type);
/*
 * Read every copy of sysblock `block`, report each one that fails to verify
 * or differs from the first one that verifies, and put that one in out.
 * When no copy verifies, c->trusted is -1 and nothing is reported: the
 * caller says what it does about an unreadable sysblock.
 */
int fsck_check_copies(struct fsck *f, const char *what, uint64_t block, char type,
		      uint8_t *out, struct fsck_copies *c);
/* Rewrite every copy of a sysblock from the one that verifies (repair only). */
int fsck_repair_copies(struct fsck *f, const char *what, uint64_t block, char type,
		       const struct fsck_copies *c);
/*
 * Set the 8 bytes at off in a sysblock to v, through the cache. 1 when
 * written, 0 when refused (its blocks have another owner too, or no copy
 * verifies), or -errno.
 */
int fsck_edit_u64(struct fsck *f, uint64_t block, char type, uint32_t off, uint64_t v);
/* The root block's copies and its geometry against the superblock's. */
int fsck_check_root_block(struct fsck *f);

/* ---- fsck-file.c ---- */

/* Check a file's extent tables, continuation chain and size (blk: its inode). */
int fsck_check_file(struct fsck *f, uint64_t ino, uint8_t *blk);

/* ---- fsck-dir.c ---- */

/* Walk the tree from the root directory, keeping what can be kept. */
int fsck_walk_root(struct fsck *f);
/* Set the sizes of the directories the walk queued to sys_blocksize. */
int fsck_tidy_dir_sizes(struct fsck *f);

/* ---- fsck-names.c ---- */

/* The names kept in one directory, reduced to fingerprints to find duplicates. */
struct fsck_names {
	struct fsck_name_key *keys;
	size_t n, cap;
};

/* The length of an inode's name (blk: a raw copy), at most OMFS_NAME_MAX. */
size_t fsck_name_len(const uint8_t *blk);
/* Remember the name of entry ino of directory dir (blk: its trusted copy). */
int fsck_remember_name(struct fsck *f, struct fsck_names *names, uint64_t dir, uint64_t ino,
		       const uint8_t *blk);
/* Report entries of directory dir with the same name, setting *found when there are any. */
int fsck_check_duplicate_names(struct fsck *f, struct fsck_names *names, uint64_t dir,
			       bool *found);

/* ---- fsck-bitmap.c ---- */

/* Compare the bitmap with the blocks the walk kept, and rebuild it when repairing. */
int fsck_check_bitmap(struct fsck *f);

#endif
