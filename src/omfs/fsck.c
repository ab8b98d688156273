/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsck.c - check a volume (everything omfsck checks, spec section 12, and
 * what it never implemented), and repair what is safe to repair.
 *
 * The volume is mounted (read-only unless repairing), then the tree is walked
 * from the root directory. Every sysblock's copies are read raw and judged
 * one by one; the walk then trusts the first copy that verifies, as
 * omfs_bread does. Blocks owned by what the walk keeps are collected in
 * `owned`, which is compared with the bitmap at the end.
 *
 * Every walk is bounded: a sysblock is entered at most once (`seen`; an
 * entry dropped from a directory that is not its parent may be entered once
 * more, from its real parent), directories nest at most FSCK_MAX_DEPTH deep,
 * and every count, pointer and size is checked before it is used.
 *
 * Repairs go through the block cache (omfs_bread, omfs_bdirty), which writes
 * the primary and every mirror with fresh checksums; each repair is written
 * back at once, so the raw reads of the walk always see the repaired volume.
 * The bitmap is rebuilt last, from the blocks the walk kept. A repair run
 * first walks the tree without writing (the survey pass) to learn which
 * blocks have two owners: no sysblock whose blocks are shared is rewritten,
 * since that would overwrite the other owner.
 */
#include "omfs-private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Karma trees are 3 levels deep; this bounds the recursion on a hostile tree. */
#define FSCK_MAX_DEPTH 64
/* Runs of bitmap disagreements reported one by one; the rest are summed up. */
#define FSCK_MAX_RUN_REPORTS 16
#define FSCK_MSG_MAX 512
/* Names in messages are cut to this many bytes. */
#define FSCK_NAME_SHOWN 48
/* A file can map no more blocks than this; it keeps byte counts far from overflow. */
#define FSCK_MAPPED_CAP (1ull << 40)

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

/* ---- bits ---- */

static bool bit_test(const uint8_t *map, uint64_t n)
{
	return map[n >> 3] & (1u << (n & 7));
}

static void bit_set(uint8_t *map, uint64_t n)
{
	map[n >> 3] |= (uint8_t)(1u << (n & 7));
}

static void bits_set_range(uint8_t *map, uint64_t start, uint64_t count)
{
	uint64_t n = start, end = start + count;

	for (; n < end && (n & 7); n++)
		bit_set(map, n);
	if (end - n >= 8) {
		memset(map + (n >> 3), 0xFF, (size_t)((end - n) >> 3));
		n += (end - n) & ~7ull;
	}
	for (; n < end; n++)
		bit_set(map, n);
}

/* ---- findings ---- */

static void emit(struct fsck *f, enum omfs_fsck_severity sev, const char *fmt, va_list ap)
{
	char msg[FSCK_MSG_MAX];

	if (!f->opts || !f->opts->report)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	f->opts->report(f->opts->report_ctx, sev, msg);
}

/* One problem (ERROR, LEAK) or remark (INFO), in one sentence. */
static void __attribute__((format(printf, 3, 4)))
finding(struct fsck *f, enum omfs_fsck_severity sev, const char *fmt, ...)
{
	va_list ap;

	if (f->quiet)
		return;
	if (sev == OMFS_FSCK_ERROR || sev == OMFS_FSCK_LEAK)
		f->res->errors++;
	va_start(ap, fmt);
	emit(f, sev, fmt, ap);
	va_end(ap);
}

/* What a repair changed; it settles `n` of the findings reported before it. */
static void __attribute__((format(printf, 3, 4)))
fixed(struct fsck *f, unsigned n, const char *fmt, ...)
{
	va_list ap;

	if (f->quiet)
		return;
	f->res->fixed += n;
	va_start(ap, fmt);
	emit(f, OMFS_FSCK_FIXED, fmt, ap);
	va_end(ap);
}

/* Damage in the volume, as opposed to running out of memory or a failing device. */
static bool caused_by_volume(int err)
{
	return err == -EUCLEAN || err == -EINVAL || err == -EOVERFLOW || err == -EFBIG ||
	       err == -ENOTDIR || err == -ENOENT;
}

/* Stop the walk: the check cannot go on (memory, device). */
static int fail(struct fsck *f, int err)
{
	if (!f->fatal) {
		f->fatal = err;
		if (f->opts && f->opts->report) {
			char msg[FSCK_MSG_MAX];

			snprintf(msg, sizeof(msg), "the check stopped: %s", omfs_errmsg(f->fs));
			f->opts->report(f->opts->report_ctx, OMFS_FSCK_ERROR, msg);
		}
	}
	return err;
}

static int out_of_memory(struct fsck *f, const char *what, uint64_t block)
{
	return fail(f, omfs_error(f->fs, ENOMEM, "out of memory checking %s %llu", what,
				  (unsigned long long)block));
}

/* A name from disk, safe to print. */
static void shown_name(char *out, size_t outlen, const uint8_t *name, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len && i < FSCK_NAME_SHOWN && o + 1 < outlen; i++)
		out[o++] = name[i] >= 0x20 && name[i] < 0x7F && name[i] != '\'' ?
			   (char)name[i] : '?';
	out[o] = '\0';
	if (len > FSCK_NAME_SHOWN && o + 4 < outlen)
		strcat(out, "...");
}

/* ---- blocks and owners ---- */

static bool sysblock_in_range(const struct omfs_fs *fs, uint64_t block)
{
	return block >= fs->root_block && block < fs->num_blocks &&
	       fs->num_blocks - block >= fs->mirrors;
}

static bool blocks_shared(const struct fsck *f, uint64_t start, uint64_t count)
{
	for (uint64_t n = start; n < start + count; n++)
		if (bit_test(f->shared, n))
			return true;
	return false;
}

/* Mark a run owned; returns how many of its blocks were owned already. */
static uint64_t claim_blocks(struct fsck *f, uint64_t start, uint64_t count, uint64_t *first_dup)
{
	uint64_t dups = 0, n = start, end = start + count;

	*first_dup = OMFS_NIL;
	while (n < end) {
		uint8_t old;

		if ((n & 7) == 0 && end - n >= 8) {
			old = f->owned[n >> 3];
			if (old) {
				f->shared[n >> 3] |= old;
				dups += (uint64_t)__builtin_popcount(old);
				if (*first_dup == OMFS_NIL)
					*first_dup = n + (uint64_t)__builtin_ctz(old);
			}
			f->owned[n >> 3] = 0xFF;
			n += 8;
			continue;
		}
		if (bit_test(f->owned, n)) {
			bit_set(f->shared, n);
			if (!dups++)
				*first_dup = n;
		}
		bit_set(f->owned, n);
		n++;
	}
	return dups;
}

/* Claim a run (inside the volume) for `what`; 1 when a block had an owner already. */
static int claim(struct fsck *f, const char *what, uint64_t start, uint64_t count)
{
	uint64_t first;
	uint64_t dups = claim_blocks(f, start, count, &first);

	if (!dups)
		return 0;
	finding(f, OMFS_FSCK_ERROR,
		"%s: %llu of its blocks %llu..%llu are also used by another file, sysblock or the metadata area (the first is block %llu)",
		what, (unsigned long long)dups, (unsigned long long)start,
		(unsigned long long)(start + count - 1), (unsigned long long)first);
	return 1;
}

/* ---- sysblock copies ---- */

static uint8_t *copy_at(const struct fsck *f, uint32_t i)
{
	return f->copies + (size_t)i * f->fs->sys_blocksize;
}

static int read_copies(struct fsck *f, uint64_t block)
{
	struct omfs_fs *fs = f->fs;

	for (uint32_t i = 0; i < fs->mirrors; i++) {
		int err = omfs_dev_read(fs, omfs_block_offset(fs, block + i), copy_at(f, i),
					fs->sys_blocksize);

		if (err)
			return fail(f, err);
	}
	return 0;
}

/* Why a copy cannot stand for sysblock `block` of header type `type` (omfs_bread's rule). */
static const char *copy_problem(const struct fsck *f, const uint8_t *c, uint64_t block, char type)
{
	const char *why = omfs_header_problem(c, f->fs->sys_blocksize);

	if (why)
		return why;
	if (omfs_be64(c + OMFS_H_SELF) != block)
		return "its self pointer names another block";
	if (c[OMFS_H_TYPE] != (uint8_t)type)
		return "unexpected header type";
	return NULL;
}

static void copy_name(const struct fsck *f, char *out, size_t outlen, uint64_t block, uint32_t i)
{
	if (i == 0)
		snprintf(out, outlen, "primary copy");
	else
		snprintf(out, outlen, "mirror copy %u (block %llu)", i,
			 (unsigned long long)(block + i));
}

struct copies {
	int trusted;		/* the first copy that verifies, or -1 */
	const char *why;	/* when none does: the primary's problem */
	unsigned problems;	/* findings reported about the copies */
};

/*
 * Read every copy of sysblock `block`, report each one that fails to verify
 * or differs from the first one that verifies, and put that one in out.
 * When no copy verifies, c->trusted is -1 and nothing is reported: the
 * caller says what it does about an unreadable sysblock.
 */
static int check_copies(struct fsck *f, const char *what, uint64_t block, char type,
			uint8_t *out, struct copies *c)
{
	uint32_t sbs = f->fs->sys_blocksize;
	int err = read_copies(f, block);

	c->trusted = -1;
	c->problems = 0;
	if (err)
		return err;
	c->why = copy_problem(f, copy_at(f, 0), block, type);
	for (uint32_t i = 0; i < f->fs->mirrors && c->trusted < 0; i++)
		if (!copy_problem(f, copy_at(f, i), block, type))
			c->trusted = (int)i;
	if (c->trusted < 0)
		return 0;
	memcpy(out, copy_at(f, (uint32_t)c->trusted), sbs);
	for (uint32_t i = 0; i < f->fs->mirrors; i++) {
		const char *why = copy_problem(f, copy_at(f, i), block, type);
		char name[64], good[64];

		copy_name(f, name, sizeof(name), block, i);
		copy_name(f, good, sizeof(good), block, (uint32_t)c->trusted);
		if (why)
			finding(f, OMFS_FSCK_ERROR, "%s: %s: %s", what, name, why);
		else if (memcmp(copy_at(f, i), out, sbs))
			finding(f, OMFS_FSCK_ERROR, "%s: %s differs from the %s", what, name, good);
		else
			continue;
		c->problems++;
	}
	return 0;
}

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

	if (blocks_shared(f, block, fs->mirrors))
		return 0;
	err = omfs_bread(fs, block, type, &b);
	if (err)
		return caused_by_volume(err) ? 0 : fail(f, err);
	if (bytes)
		memcpy(b->data + off, bytes, len);
	omfs_bdirty(fs, b);
	omfs_brelse(fs, b);
	err = omfs_writeback(fs);
	return err ? fail(f, err) : 1;
}

static int edit_u64(struct fsck *f, uint64_t block, char type, uint32_t off, uint64_t v)
{
	uint8_t bytes[8];

	omfs_put_be64(bytes, v);
	return edit_sysblock(f, block, type, off, bytes, sizeof(bytes));
}

/* Rewrite every copy of a sysblock from the one that verifies. */
static int repair_copies(struct fsck *f, const char *what, uint64_t block, char type,
			 const struct copies *c)
{
	char good[64];
	int r;

	if (!c->problems || !f->repair)
		return 0;
	r = edit_sysblock(f, block, type, 0, NULL, 0);
	if (r < 0)
		return r;
	copy_name(f, good, sizeof(good), block, (uint32_t)c->trusted);
	if (r)
		fixed(f, c->problems, "%s: rewrote all %u copies from the %s, with fresh checksums",
		      what, f->fs->mirrors, good);
	else
		finding(f, OMFS_FSCK_INFO,
			"%s: not rewritten, because its blocks have another owner too", what);
	return 0;
}

/* ---- superblock and root block ---- */

/* What mkomfs leaves: a root block whose CRC and XOR were never computed. */
static bool root_block_unsealed(const uint8_t *blk)
{
	return blk[OMFS_H_XOR] == 0 && omfs_be16(blk + OMFS_H_CRC) == 0 &&
	       blk[OMFS_H_MAGIC] == OMFS_HDR_MAGIC;
}

/* The copy to keep: the first that verifies, else the first the mount could have used. */
static uint32_t root_copy_to_keep(const struct fsck *f)
{
	const struct omfs_fs *fs = f->fs;

	for (uint32_t i = 0; i < fs->mirrors; i++)
		if (!copy_problem(f, copy_at(f, i), fs->root_block, OMFS_TYPE_SYSTEM))
			return i;
	for (uint32_t i = 0; i < fs->mirrors; i++)
		if (root_block_unsealed(copy_at(f, i)) &&
		    omfs_be64(copy_at(f, i) + OMFS_H_SELF) == fs->root_block)
			return i;
	return 0;
}

static unsigned check_root_copies(struct fsck *f, uint32_t keep)
{
	const struct omfs_fs *fs = f->fs;
	unsigned long long rb = (unsigned long long)fs->root_block;
	unsigned problems = 0;

	for (uint32_t i = 0; i < fs->mirrors; i++) {
		const uint8_t *c = copy_at(f, i);
		const char *why = copy_problem(f, c, fs->root_block, OMFS_TYPE_SYSTEM);
		char name[64], good[64];

		copy_name(f, name, sizeof(name), fs->root_block, i);
		copy_name(f, good, sizeof(good), fs->root_block, keep);
		if (why && root_block_unsealed(c))
			finding(f, OMFS_FSCK_ERROR,
				"root block %llu: %s is not sealed (CRC and XOR are 0, as mkomfs leaves them)",
				rb, name);
		else if (why)
			finding(f, OMFS_FSCK_ERROR, "root block %llu: %s: %s", rb, name, why);
		else if (i != keep && memcmp(c, copy_at(f, keep), fs->sys_blocksize))
			finding(f, OMFS_FSCK_ERROR, "root block %llu: %s differs from the %s",
				rb, name, good);
		else
			continue;
		problems++;
	}
	return problems;
}

static unsigned check_root_fields(struct fsck *f, const uint8_t *blk)
{
	const struct omfs_fs *fs = f->fs;
	unsigned long long rb = (unsigned long long)fs->root_block;
	unsigned problems = 0;

	if (omfs_be32(blk + OMFS_R_BLOCKSIZE) != fs->blocksize) {
		finding(f, OMFS_FSCK_ERROR,
			"root block %llu: block size %u disagrees with the superblock's %u",
			rb, omfs_be32(blk + OMFS_R_BLOCKSIZE), fs->blocksize);
		problems++;
	}
	if (omfs_be64(blk + OMFS_R_MIRRORS) != fs->mirrors) {
		finding(f, OMFS_FSCK_ERROR,
			"root block %llu: mirror count %llu disagrees with the superblock's %u",
			rb, (unsigned long long)omfs_be64(blk + OMFS_R_MIRRORS), fs->mirrors);
		problems++;
	}
	if (fs->mirrors == 1)
		finding(f, OMFS_FSCK_INFO,
			"block 0: the volume keeps no mirror copy of its sysblocks (1 mirror)");
	return problems;
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

	if (blocks_shared(f, fs->root_block, fs->mirrors)) {
		finding(f, OMFS_FSCK_INFO,
			"root block %llu: not rewritten, because its blocks have another owner too",
			(unsigned long long)fs->root_block);
		return 0;
	}
	err = omfs_bnew(fs, fs->root_block, OMFS_TYPE_SYSTEM, &b);
	if (err)
		return fail(f, err);
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
		return fail(f, err);
	fixed(f, problems, "root block %llu: rewrote all %u copies with the superblock's geometry and a fresh checksum",
	      (unsigned long long)fs->root_block, fs->mirrors);
	return 0;
}

static int check_root_block(struct fsck *f)
{
	struct omfs_fs *fs = f->fs;
	uint8_t *blk = malloc(fs->sys_blocksize);
	unsigned problems;
	uint32_t keep;
	int err;

	if (!blk)
		return out_of_memory(f, "root block", fs->root_block);
	err = read_copies(f, fs->root_block);
	if (!err) {
		keep = root_copy_to_keep(f);
		memcpy(blk, copy_at(f, keep), fs->sys_blocksize);
		problems = check_root_copies(f, keep) + check_root_fields(f, blk);
		if (problems && f->repair)
			err = rewrite_root_block(f, blk, problems);
	}
	free(blk);
	return err;
}

/* ---- files ---- */

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
		bits_set_range(f->owned, lo, hi - lo);
		bits_set_range(f->shared, lo, hi - lo);
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
		finding(f, OMFS_FSCK_ERROR, "file %llu: block %llu: extent %u is empty",
			ino, (unsigned long long)block, i);
		s->problems = true;
		return false;
	}
	if (start < f->meta_end || start >= n || count > n - start) {
		finding(f, OMFS_FSCK_ERROR,
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
	if (claim(f, what, start, count))
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
		finding(f, OMFS_FSCK_ERROR,
			"file %llu: block %llu: the last of its %u extents is not a terminator",
			ino, (unsigned long long)block, count);
		s->problems = true;
		return 0;
	}
	if (total == ~sum)
		return 0;
	finding(f, OMFS_FSCK_ERROR,
		"file %llu: block %llu: the terminator total 0x%016llx is not the complement of the table's %llu blocks",
		ino, (unsigned long long)block, (unsigned long long)total, (unsigned long long)sum);
	if (!f->repair || !runs_ok)
		return 0;
	r = edit_u64(f, block, type, (uint32_t)(term + 8 - blk), ~sum);
	if (r <= 0)
		return r;
	omfs_put_be64(term + 8, ~sum);
	fixed(f, 1, "file %llu: block %llu: set the terminator total to the complement of %llu",
	      ino, (unsigned long long)block, (unsigned long long)sum);
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
		finding(f, OMFS_FSCK_ERROR,
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
	struct copies c;
	char what[96];
	int err;

	snprintf(what, sizeof(what), "file %llu: continuation block %llu",
		 (unsigned long long)s->ino, (unsigned long long)next);
	if (next < f->meta_end || !sysblock_in_range(fs, next)) {
		finding(f, OMFS_FSCK_ERROR, "%s, named by block %llu, lies outside the data area",
			what, (unsigned long long)from);
		s->problems = s->bad_runs = true;
		f->incomplete = true;
		return 0;
	}
	if (bit_test(f->seen, next)) {
		/* its blocks are already owned by whoever reached it first */
		finding(f, OMFS_FSCK_ERROR,
			"%s, named by block %llu, was reached before: the extent chain loops or is shared",
			what, (unsigned long long)from);
		s->problems = true;
		return 0;
	}
	bit_set(f->seen, next);
	err = check_copies(f, what, next, OMFS_TYPE_CONT, f->cont, &c);
	if (err)
		return err;
	claim(f, what, next, fs->mirrors);
	if (c.trusted < 0) {
		finding(f, OMFS_FSCK_ERROR, "%s: no copy verifies (primary: %s)", what, c.why);
		s->problems = s->bad_runs = true;
		f->incomplete = true;
		return 0;
	}
	err = repair_copies(f, what, next, OMFS_TYPE_CONT, &c);
	return err ? err : 1;
}

static void check_file_size(struct fsck *f, struct file_scan *s, const uint8_t *blk)
{
	uint64_t size = omfs_be64(blk + OMFS_I_SIZE), bs = f->fs->blocksize;
	uint64_t need = size / bs + (size % bs != 0);
	unsigned long long ino = (unsigned long long)s->ino;

	if (size > OMFS_MAX_FILE_SIZE) {
		finding(f, OMFS_FSCK_ERROR,
			"file %llu: size %llu is larger than OMFS allows (%llu)", ino, (unsigned long long)size, OMFS_MAX_FILE_SIZE);
		s->problems = true;
	}
	if (s->bad_runs)
		return;
	if (need > s->mapped) {
		finding(f, OMFS_FSCK_ERROR,
			"file %llu: size %llu needs %llu blocks but only %llu are mapped: the tail cannot be read",
			ino, (unsigned long long)size, (unsigned long long)need,
			(unsigned long long)s->mapped);
		s->problems = true;
	} else if (s->mapped - need > f->fs->clustersize) {
		finding(f, OMFS_FSCK_INFO,
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
	if (err && !caused_by_volume(err))
		return fail(f, err);
	if (err)
		finding(f, OMFS_FSCK_ERROR, "file %llu: the filesystem cannot load it: %s",
			(unsigned long long)ino, omfs_errmsg(f->fs));
	return 0;
}

static int check_file(struct fsck *f, uint64_t ino, uint8_t *blk)
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

/* ---- directories ---- */

enum verdict {
	KEEP,
	MISPLACED,	/* kept, but its name hashes to another bucket */
	DROP,		/* take it out of the chain; its successor can be trusted */
	DROP_REST,	/* end the chain before it: nothing after it can be trusted */
};

struct move {
	uint64_t ino;
	uint32_t from, to;	/* buckets */
};

/* An entry's name, reduced to a fingerprint to find duplicates without keeping every name. */
struct name_key {
	uint64_t hash;
	uint64_t ino;
};

struct dir_walk {
	uint64_t ino;
	unsigned depth;
	bool problems;		/* a finding in this directory's own chains */
	struct move *moves;	/* misplaced entries, relinked once the walk is done */
	size_t nmoves, cap;
	struct name_key *names;	/* every entry kept */
	size_t nnames, names_cap;
};

/* A chain node, as read from its trusted copy. */
struct entry {
	uint64_t ino;
	uint64_t sibling;
	uint32_t bucket;
	bool is_dir;
	char what[160];		/* "directory D, bucket B: entry E 'name'" */
	struct copies c;
};

/* Where the pointer to the current chain node lives: a bucket or a sibling field. */
struct link {
	uint64_t block;
	uint32_t off;
};

static int walk_dir(struct fsck *f, uint64_t ino, uint8_t *blk, unsigned depth);

static void describe_entry(const struct dir_walk *dw, struct entry *e, const uint8_t *blk)
{
	const uint8_t *name = blk ? blk + OMFS_I_NAME : NULL;
	size_t len = name ? strnlen((const char *)name, OMFS_NAME_MAX) : 0;
	char shown[FSCK_NAME_SHOWN + 8];

	snprintf(e->what, sizeof(e->what), "directory %llu, bucket %u: entry %llu",
		 (unsigned long long)dw->ino, e->bucket, (unsigned long long)e->ino);
	if (len) {
		shown_name(shown, sizeof(shown), name, len);
		snprintf(e->what + strlen(e->what), sizeof(e->what) - strlen(e->what), " '%s'",
			 shown);
	}
}

static uint32_t name_bucket(const struct fsck *f, const uint8_t *blk)
{
	const char *name = (const char *)blk + OMFS_I_NAME;

	return omfs_name_hash(name, strnlen(name, OMFS_NAME_MAX), omfs_nbuckets(f->fs));
}

/* Findings about the name that do not stop the entry from being kept. */
static enum verdict check_entry_name(struct fsck *f, struct dir_walk *dw, struct entry *e,
				     const uint8_t *blk)
{
	const char *name = (const char *)blk + OMFS_I_NAME;
	size_t len = strnlen(name, OMFS_NAME_MAX);
	uint32_t want;

	if (len == 0) {
		finding(f, OMFS_FSCK_ERROR, "%s has an empty name", e->what);
		dw->problems = true;
		return KEEP;
	}
	if (!omfs_name_valid(name, len)) {
		finding(f, OMFS_FSCK_ERROR, "%s: its name is \".\", \"..\" or contains '/'",
			e->what);
		dw->problems = true;
	}
	want = name_bucket(f, blk);
	if (want == e->bucket)
		return KEEP;
	finding(f, OMFS_FSCK_ERROR, "%s: its name hashes to bucket %u", e->what, want);
	dw->problems = true;
	return MISPLACED;
}

/*
 * Judge chain node e->ino of directory dw->ino, reporting what is wrong
 * with it. blk receives its trusted copy.
 */
static int examine_entry(struct fsck *f, struct dir_walk *dw, struct entry *e, uint8_t *blk,
			 enum verdict *v)
{
	struct omfs_fs *fs = f->fs;
	bool was_rejected;
	uint64_t parent;
	int err;

	e->c = (struct copies){ .trusted = -1 };
	describe_entry(dw, e, NULL);
	*v = DROP_REST;
	if (!sysblock_in_range(fs, e->ino)) {
		finding(f, OMFS_FSCK_ERROR, "%s lies outside the volume's sysblock range", e->what);
		return 0;
	}
	if (bit_test(f->seen, e->ino)) {
		finding(f, OMFS_FSCK_ERROR,
			"%s was reached before: a sibling loop, or an entry linked twice", e->what);
		return 0;
	}
	was_rejected = bit_test(f->rejected, e->ino);
	err = check_copies(f, e->what, e->ino, OMFS_TYPE_INODE, blk, &e->c);
	if (err)
		return err;
	if (e->c.trusted < 0) {
		bit_set(f->seen, e->ino);
		finding(f, OMFS_FSCK_ERROR, "%s: no copy verifies (primary: %s)", e->what,
			e->c.why);
		return 0;
	}
	describe_entry(dw, e, blk);
	e->sibling = omfs_be64(blk + OMFS_I_SIBLING);
	parent = omfs_be64(blk + OMFS_I_PARENT);
	if (blk[OMFS_I_TYPE] != OMFS_ITYPE_DIR && blk[OMFS_I_TYPE] != OMFS_ITYPE_FILE) {
		bit_set(f->seen, e->ino);
		finding(f, OMFS_FSCK_ERROR, "%s: unknown inode type 0x%02x", e->what,
			blk[OMFS_I_TYPE]);
		*v = DROP;
		return 0;
	}
	if (parent != dw->ino) {
		/* It may be in its parent's chain too: it can be entered once more from there. */
		if (was_rejected) {
			finding(f, OMFS_FSCK_ERROR, "%s was reached before, in another directory",
				e->what);
			return 0;
		}
		bit_set(f->rejected, e->ino);
		finding(f, OMFS_FSCK_ERROR, "%s: its parent pointer is %llu, not this directory",
			e->what, (unsigned long long)parent);
		*v = DROP;
		return 0;
	}
	bit_set(f->seen, e->ino);
	e->is_dir = blk[OMFS_I_TYPE] == OMFS_ITYPE_DIR;
	*v = check_entry_name(f, dw, e, blk);
	return 0;
}

static void describe_link(const struct link *l, char *out, size_t outlen)
{
	if (l->off == OMFS_I_SIBLING)
		snprintf(out, outlen, "the sibling pointer of entry %llu",
			 (unsigned long long)l->block);
	else
		snprintf(out, outlen, "bucket %u of directory %llu",
			 (l->off - OMFS_DIR_START) / 8, (unsigned long long)l->block);
}

/*
 * Take the node out of its chain: the link that pointed to it now points to
 * `to`. 1 when done, 0 when not (not repairing, or the link cannot be
 * written), or -errno. The repair is reported only when `what` is given.
 */
static int cut_link(struct fsck *f, const struct link *l, uint64_t to, unsigned settles,
		    const char *what)
{
	char link[80], target[48];
	int r;

	if (!f->repair)
		return 0;
	r = edit_u64(f, l->block, OMFS_TYPE_INODE, l->off, to);
	if (r <= 0 || !what)
		return r;
	describe_link(l, link, sizeof(link));
	if (to == OMFS_NIL)
		snprintf(target, sizeof(target), "nil");
	else
		snprintf(target, sizeof(target), "its successor %llu", (unsigned long long)to);
	fixed(f, settles, "%s: detached it, setting %s to %s", what, link, target);
	return 1;
}

static int queue_move(struct fsck *f, struct dir_walk *dw, uint64_t ino, uint32_t from,
		      uint32_t to)
{
	if (dw->nmoves == dw->cap) {
		size_t cap = dw->cap ? dw->cap * 2 : 8;
		struct move *m = realloc(dw->moves, cap * sizeof(*m));

		if (!m)
			return out_of_memory(f, "directory", dw->ino);
		dw->moves = m;
		dw->cap = cap;
	}
	dw->moves[dw->nmoves++] = (struct move){ ino, from, to };
	return 0;
}

/* A misplaced entry can move when its directory, its predecessor and itself can be written. */
static bool can_move(struct fsck *f, const struct dir_walk *dw, const struct link *pred,
		     uint64_t ino)
{
	uint32_t m = f->fs->mirrors;

	return f->repair && !blocks_shared(f, dw->ino, m) && !blocks_shared(f, pred->block, m) &&
	       !blocks_shared(f, ino, m);
}

/* Keep the entry: its copies, its blocks, and what is below it. */
static int keep_entry(struct fsck *f, struct dir_walk *dw, struct entry *e, uint8_t *blk)
{
	int err = repair_copies(f, e->what, e->ino, OMFS_TYPE_INODE, &e->c);

	if (err)
		return err;
	if (claim(f, e->what, e->ino, f->fs->mirrors))
		dw->problems = true;
	if (!f->quiet) {
		if (e->is_dir)
			f->res->dirs++;
		else
			f->res->files++;
	}
	if (!e->is_dir)
		return check_file(f, e->ino, blk);
	if (dw->depth + 1 >= FSCK_MAX_DEPTH) {
		finding(f, OMFS_FSCK_ERROR,
			"%s: directories nest deeper than %d levels here; what is below was not checked",
			e->what, FSCK_MAX_DEPTH);
		f->incomplete = true;
		return 0;
	}
	return walk_dir(f, e->ino, blk, dw->depth + 1);
}

/* FNV-1a: only a first sieve, names with equal fingerprints are compared byte by byte. */
static uint64_t name_fingerprint(const uint8_t *name, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ name[i]) * 0x100000001b3ull;
	return h ^ len;
}

static int remember_name(struct fsck *f, struct dir_walk *dw, uint64_t ino, const uint8_t *blk)
{
	const uint8_t *name = blk + OMFS_I_NAME;
	size_t len = strnlen((const char *)name, OMFS_NAME_MAX);

	if (len == 0)
		return 0;	/* reported as empty already */
	if (dw->nnames == dw->names_cap) {
		size_t cap = dw->names_cap ? dw->names_cap * 2 : 32;
		struct name_key *k = realloc(dw->names, cap * sizeof(*k));

		if (!k)
			return out_of_memory(f, "directory", dw->ino);
		dw->names = k;
		dw->names_cap = cap;
	}
	dw->names[dw->nnames++] = (struct name_key){ name_fingerprint(name, len), ino };
	return 0;
}

/* Walk one bucket's chain; every step enters a new sysblock or ends the walk. */
static int walk_chain(struct fsck *f, struct dir_walk *dw, const uint8_t *dirblk,
		      uint32_t bucket, uint8_t *blk)
{
	struct link pred = { dw->ino, OMFS_DIR_START + bucket * 8 };
	struct entry e = { .bucket = bucket };
	enum verdict v;
	int err = 0;

	e.ino = omfs_be64(dirblk + OMFS_DIR_START + (size_t)bucket * 8);
	while (e.ino != OMFS_NIL) {
		int r = 0;

		err = examine_entry(f, dw, &e, blk, &v);
		if (err)
			break;
		if (v == DROP || v == DROP_REST) {
			uint64_t to = v == DROP ? e.sibling : OMFS_NIL;

			dw->problems = true;
			err = cut_link(f, &pred, to, 1 + e.c.problems, e.what);
			if (err < 0)
				break;
			e.ino = to;
			continue;
		}
		if (v == MISPLACED && can_move(f, dw, &pred, e.ino))
			r = cut_link(f, &pred, e.sibling, 0, NULL);
		if (r < 0)
			return r;
		if (r)
			err = queue_move(f, dw, e.ino, bucket, name_bucket(f, blk));
		else
			pred = (struct link){ e.ino, OMFS_I_SIBLING };
		if (!err)
			err = remember_name(f, dw, e.ino, blk);
		if (!err)
			err = keep_entry(f, dw, &e, blk);
		if (err)
			break;
		e.ino = e.sibling;
	}
	return err < 0 ? err : 0;
}

/* Link the misplaced entries, cut out of their chains, at the head of their right buckets. */
static int apply_moves(struct fsck *f, struct dir_walk *dw)
{
	for (size_t i = 0; i < dw->nmoves; i++) {
		const struct move *m = &dw->moves[i];
		uint32_t off = OMFS_DIR_START + m->to * 8;
		struct omfs_buf *dirb;
		uint64_t head;
		int r, err = omfs_bread(f->fs, dw->ino, OMFS_TYPE_INODE, &dirb);

		if (err)
			return caused_by_volume(err) ? 0 : fail(f, err);
		head = omfs_be64(dirb->data + off);
		omfs_brelse(f->fs, dirb);
		/* the entry first, so the bucket never points to an entry that ends wrong */
		r = edit_u64(f, m->ino, OMFS_TYPE_INODE, OMFS_I_SIBLING, head);
		if (r > 0)
			r = edit_u64(f, dw->ino, OMFS_TYPE_INODE, off, m->ino);
		if (r < 0)
			return r;
		if (r)
			fixed(f, 1, "directory %llu: moved entry %llu from bucket %u to bucket %u, where its name hashes",
			      (unsigned long long)dw->ino, (unsigned long long)m->ino, m->from, m->to);
	}
	return 0;
}

static int compare_name_keys(const void *a, const void *b)
{
	const struct name_key *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* The name of an entry already checked, from its first copy that verifies. */
static int read_name(struct fsck *f, uint64_t ino, char *name)
{
	int err = read_copies(f, ino);

	name[0] = '\0';
	for (uint32_t i = 0; !err && i < f->fs->mirrors; i++) {
		const uint8_t *c = copy_at(f, i);

		if (!copy_problem(f, c, ino, OMFS_TYPE_INODE)) {
			size_t len = strnlen((const char *)c + OMFS_I_NAME, OMFS_NAME_MAX);

			memcpy(name, c + OMFS_I_NAME, len);
			name[len] = '\0';
			break;
		}
	}
	return err;
}

/*
 * Entries whose names have the same fingerprint, compared in full. A hostile
 * directory could hold many crafted equal fingerprints: past this many, the
 * rest of such a group is not compared.
 */
#define FSCK_MAX_SAME_FINGERPRINT 16

static int check_name_group(struct fsck *f, struct dir_walk *dw, const struct name_key *k,
			    size_t n)
{
	char (*names)[OMFS_NAME_MAX + 1];
	int err = 0;

	if (n > FSCK_MAX_SAME_FINGERPRINT)
		n = FSCK_MAX_SAME_FINGERPRINT;
	names = malloc(n * sizeof(*names));
	if (!names)
		return out_of_memory(f, "directory", dw->ino);
	for (size_t i = 0; !err && i < n; i++)
		err = read_name(f, k[i].ino, names[i]);
	for (size_t i = 1; !err && i < n; i++) {
		for (size_t j = 0; j < i; j++) {
			char shown[FSCK_NAME_SHOWN + 8];

			if (strcmp(names[i], names[j]))
				continue;
			shown_name(shown, sizeof(shown), (const uint8_t *)names[i],
				   strlen(names[i]));
			finding(f, OMFS_FSCK_ERROR,
				"directory %llu: entries %llu and %llu are both named '%s'",
				(unsigned long long)dw->ino, (unsigned long long)k[j].ino,
				(unsigned long long)k[i].ino, shown);
			dw->problems = true;
			break;
		}
	}
	free(names);
	return err;
}

/* Two entries of one directory with the same name: lookups find only one of them. */
static int check_duplicate_names(struct fsck *f, struct dir_walk *dw)
{
	int err = 0;

	if (dw->nnames < 2)
		return 0;
	qsort(dw->names, dw->nnames, sizeof(*dw->names), compare_name_keys);
	for (size_t i = 0, j; !err && i < dw->nnames; i = j) {
		for (j = i + 1; j < dw->nnames && dw->names[j].hash == dw->names[i].hash; j++)
			;
		if (j - i > 1)
			err = check_name_group(f, dw, dw->names + i, j - i);
	}
	return err;
}

/* A directory that passed every check must be listable by the core too. */
static int cross_check_dir(struct fsck *f, uint64_t ino)
{
	struct omfs_dirent ent;
	uint64_t pos = 0, n = 0;
	int r;

	do
		r = omfs_readdir(f->fs, ino, &pos, &ent);
	while (r == 1 && ++n <= f->fs->num_blocks);
	if (r < 0 && !caused_by_volume(r))
		return fail(f, r);
	if (r < 0)
		finding(f, OMFS_FSCK_ERROR, "directory %llu: the filesystem cannot list it: %s",
			(unsigned long long)ino, omfs_errmsg(f->fs));
	return 0;
}

/* The kernel writes a directory's size as sys_blocksize and ignores what it reads. */
static int check_dir_size(struct fsck *f, uint64_t ino, const uint8_t *blk)
{
	uint64_t size = omfs_be64(blk + OMFS_I_SIZE);

	if (size == f->fs->sys_blocksize)
		return 0;
	finding(f, OMFS_FSCK_INFO, "directory %llu: its size is %llu, not the sysblock size %u",
		(unsigned long long)ino, (unsigned long long)size, f->fs->sys_blocksize);
	if (!f->repair)
		return 0;
	if (f->ntidy == f->tidy_cap) {
		size_t cap = f->tidy_cap ? f->tidy_cap * 2 : 16;
		uint64_t *t = realloc(f->tidy_dirs, cap * sizeof(*t));

		if (!t)
			return out_of_memory(f, "directory", ino);
		f->tidy_dirs = t;
		f->tidy_cap = cap;
	}
	f->tidy_dirs[f->ntidy++] = ino;
	return 0;
}

static int tidy_dir_sizes(struct fsck *f)
{
	for (size_t i = 0; i < f->ntidy; i++) {
		uint64_t ino = f->tidy_dirs[i];
		int r = edit_u64(f, ino, OMFS_TYPE_INODE, OMFS_I_SIZE, f->fs->sys_blocksize);

		if (r < 0)
			return r;
		if (r)
			fixed(f, 0, "directory %llu: set its size to %u", (unsigned long long)ino,
			      f->fs->sys_blocksize);
	}
	return 0;
}

static int walk_dir(struct fsck *f, uint64_t ino, uint8_t *blk, unsigned depth)
{
	struct dir_walk dw = { .ino = ino, .depth = depth };
	uint32_t nbuckets = omfs_nbuckets(f->fs);
	uint8_t *child = malloc(f->fs->sys_blocksize);
	int err = check_dir_size(f, ino, blk);

	if (!child)
		err = out_of_memory(f, "directory", ino);
	for (uint32_t b = 0; !err && b < nbuckets; b++)
		err = walk_chain(f, &dw, blk, b, child);
	if (!err)
		err = apply_moves(f, &dw);
	if (!err && !f->quiet)
		err = check_duplicate_names(f, &dw);
	if (!err && !dw.problems && !f->quiet)
		err = cross_check_dir(f, ino);
	free(dw.moves);
	free(dw.names);
	free(child);
	return err;
}

static int check_root_parent(struct fsck *f, const uint8_t *blk)
{
	uint64_t root = f->fs->root_dir, parent = omfs_be64(blk + OMFS_I_PARENT);
	int r;

	if (parent == OMFS_NIL)
		return 0;
	finding(f, OMFS_FSCK_ERROR, "root directory %llu: its parent pointer is %llu, not nil",
		(unsigned long long)root, (unsigned long long)parent);
	if (!f->repair)
		return 0;
	r = edit_u64(f, root, OMFS_TYPE_INODE, OMFS_I_PARENT, OMFS_NIL);
	if (r > 0)
		fixed(f, 1, "root directory %llu: set its parent pointer to nil",
		      (unsigned long long)root);
	return r < 0 ? r : 0;
}

static int walk_root(struct fsck *f)
{
	struct omfs_fs *fs = f->fs;
	uint8_t *blk = malloc(fs->sys_blocksize);
	struct copies c;
	char what[64];
	int err;

	if (!blk)
		return out_of_memory(f, "root directory", fs->root_dir);
	snprintf(what, sizeof(what), "root directory %llu", (unsigned long long)fs->root_dir);
	bit_set(f->seen, fs->root_dir);
	err = check_copies(f, what, fs->root_dir, OMFS_TYPE_INODE, blk, &c);
	if (!err)
		claim(f, what, fs->root_dir, fs->mirrors);
	if (!err && c.trusted < 0) {
		/* the mount read it, so only a device that changed under us gets here */
		finding(f, OMFS_FSCK_ERROR, "%s: no copy verifies (primary: %s)", what, c.why);
		f->incomplete = true;
	} else if (!err) {
		err = repair_copies(f, what, fs->root_dir, OMFS_TYPE_INODE, &c);
		if (!err)
			err = check_root_parent(f, blk);
		if (!err && !f->quiet)
			f->res->dirs++;
		if (!err)
			err = walk_dir(f, fs->root_dir, blk, 0);
	}
	free(blk);
	return err;
}

/* ---- the free-space bitmap ---- */

struct run_count {
	uint64_t runs;
	uint64_t blocks;
	unsigned findings;
};

static void report_run(struct fsck *f, enum omfs_fsck_severity sev, uint64_t start,
		       uint64_t len, const char *what)
{
	if (len == 1)
		finding(f, sev, "block %llu is %s", (unsigned long long)start, what);
	else
		finding(f, sev, "blocks %llu..%llu (%llu) are %s", (unsigned long long)start,
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
		d = n < end && bit_test(a, n) && !bit_test(b, n);
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
		finding(f, sev, "%llu more runs of blocks (%llu blocks) are %s",
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
		return out_of_memory(f, "bitmap block", fs->bitmap_start + last);
	err = omfs_dev_read(fs, omfs_block_offset(fs, fs->bitmap_start + last), blk, fs->blocksize);
	if (err) {
		free(blk);
		return fail(f, err);
	}
	for (uint64_t n = fs->num_blocks; n < first_bit + fs->blocksize * 8ull && *ok; n++)
		*ok = bit_test(blk, n - first_bit);
	free(blk);
	if (!*ok)
		finding(f, OMFS_FSCK_INFO,
			"bitmap block %llu: the bits past the volume's %llu blocks are not all set",
			(unsigned long long)(fs->bitmap_start + last),
			(unsigned long long)fs->num_blocks);
	return 0;
}

static uint64_t count_free(const struct omfs_fs *fs)
{
	uint64_t used = 0, full = fs->num_blocks >> 3;

	for (uint64_t i = 0; i < full; i++)
		used += (uint64_t)__builtin_popcount(fs->map[i]);
	for (uint64_t n = full << 3; n < fs->num_blocks; n++)
		used += bit_test(fs->map, n);
	return fs->num_blocks - used;
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

		if (bit_test(f->owned, n))
			fs->map[n >> 3] |= mask;
		else if (reclaim)
			fs->map[n >> 3] &= (uint8_t)~mask;
	}
	fs->free_blocks = count_free(fs);
	memset(fs->map_dirty, 1, (size_t)fs->bitmap_blocks);
	err = omfs_writeback(fs);
	return err ? fail(f, err) : 0;
}

static int check_bitmap(struct fsck *f)
{
	struct omfs_fs *fs = f->fs;
	struct run_count leaks, missing;
	bool tail_ok, reclaim;
	int err;

	if (fs->bitmap_start == OMFS_NIL) {
		finding(f, OMFS_FSCK_INFO,
			"root block %llu: the volume has no free-space bitmap (ReplayTV); it was not checked",
			(unsigned long long)fs->root_block);
		return 0;
	}
	/* everything below the data area is fixed metadata, in use whoever owns it */
	bits_set_range(f->owned, 0, f->meta_end);
	leaks = report_runs(f, fs->map, f->owned, OMFS_FSCK_LEAK,
			    "marked used in the bitmap but owned by nothing");
	missing = report_runs(f, f->owned, fs->map, OMFS_FSCK_ERROR,
			      "in use but marked free in the bitmap");
	f->res->leaked_blocks = leaks.blocks;
	err = check_bitmap_tail(f, &tail_ok);
	/* the tail alone is harmless: it is set only when the volume is being repaired anyway */
	if (err || !f->repair || !f->res->errors || (!leaks.runs && !missing.runs && tail_ok))
		return err;
	reclaim = leaks.runs && !f->incomplete;
	if (leaks.runs && !reclaim)
		finding(f, OMFS_FSCK_INFO,
			"the %llu leaked blocks are kept: part of the tree could not be walked, so they may be in use",
			(unsigned long long)leaks.blocks);
	err = rebuild_bitmap(f, reclaim);
	if (err)
		return err;
	fixed(f, missing.findings + (reclaim ? leaks.findings : 0),
	      "rewrote the free-space bitmap: %llu blocks freed, %llu marked used%s",
	      (unsigned long long)(reclaim ? leaks.blocks : 0), (unsigned long long)missing.blocks,
	      tail_ok ? "" : ", and the bits past the end set");
	return 0;
}

/* ---- the passes ---- */

static int fsck_alloc(struct fsck *f)
{
	struct omfs_fs *fs = f->fs;

	f->map_bytes = (size_t)((fs->num_blocks + 7) / 8);
	f->meta_end = omfs_data_start(fs);
	f->owned = calloc(1, f->map_bytes);
	f->seen = calloc(1, f->map_bytes);
	f->rejected = calloc(1, f->map_bytes);
	f->shared = calloc(1, f->map_bytes);
	f->copies = malloc((size_t)fs->mirrors * fs->sys_blocksize);
	f->cont = malloc(fs->sys_blocksize);
	if (!f->owned || !f->seen || !f->rejected || !f->shared || !f->copies || !f->cont)
		return fail(f, omfs_error(fs, ENOMEM, "out of memory for the check's block maps"));
	return 0;
}

static void fsck_free(struct fsck *f)
{
	free(f->owned);
	free(f->seen);
	free(f->rejected);
	free(f->shared);
	free(f->copies);
	free(f->cont);
	free(f->tidy_dirs);
}

/* One walk of the whole volume. The survey pass is quiet and writes nothing. */
static int run_pass(struct fsck *f, bool survey)
{
	struct omfs_fs *fs = f->fs;
	int err;

	f->quiet = survey;
	f->repair = !survey && f->opts && f->opts->repair;
	f->incomplete = false;
	f->ntidy = 0;
	memset(f->owned, 0, f->map_bytes);
	memset(f->seen, 0, f->map_bytes);
	memset(f->rejected, 0, f->map_bytes);
	err = check_root_block(f);
	if (err)
		return err;
	claim(f, "the superblock and the root block", 0, fs->root_block + fs->mirrors);
	if (fs->bitmap_start != OMFS_NIL)
		claim(f, "the free-space bitmap", fs->bitmap_start, fs->bitmap_blocks);
	err = walk_root(f);
	if (!err && !survey)
		err = check_bitmap(f);
	if (!err && f->repair && f->res->errors)
		err = tidy_dir_sizes(f);
	return err;
}

static int exit_code(const struct fsck *f)
{
	if (f->fatal)
		return OMFS_FSCK_OPERATIONAL;
	if (!f->res->errors)
		return OMFS_FSCK_CLEAN;
	return f->res->fixed >= f->res->errors ? OMFS_FSCK_CORRECTED : OMFS_FSCK_UNCORRECTED;
}

int omfs_fsck(const struct omfs_blockdev *dev, const struct omfs_fsck_opts *opts,
	      struct omfs_fsck_result *res)
{
	struct omfs_fsck_result scratch;
	struct omfs_mount_opts mo = { .read_only = !(opts && opts->repair) };
	struct fsck f = { .opts = opts, .res = res ? res : &scratch };
	char msg[OMFS_ERRMSG_MAX] = "";
	int err;

	memset(f.res, 0, sizeof(*f.res));
	err = omfs_mount(dev, &mo, &f.fs, msg, sizeof(msg));
	if (err) {
		finding(&f, OMFS_FSCK_ERROR, "%s", msg);
		return caused_by_volume(err) ? OMFS_FSCK_UNCORRECTED : OMFS_FSCK_OPERATIONAL;
	}
	err = fsck_alloc(&f);
	/* a repair first learns which blocks have two owners, so it never writes over one */
	if (!err && opts && opts->repair)
		err = run_pass(&f, true);
	if (!err)
		err = run_pass(&f, false);
	/* nothing should be left to write; a failure here still needs its sentence */
	if (!err && opts && opts->repair) {
		err = omfs_sync(f.fs);
		if (err)
			fail(&f, err);
	}
	fsck_free(&f);
	err = omfs_unmount(f.fs);
	if (err && !f.fatal)
		f.fatal = err;
	return exit_code(&f);
}
