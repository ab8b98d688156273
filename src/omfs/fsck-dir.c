/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fsck-dir.c - the walk of the tree, from the root directory down. Each
 * bucket's chain is followed entry by entry; an entry is kept, kept and moved
 * to the bucket its name hashes to, or cut out of the chain (with the rest of
 * the chain when nothing after it can be trusted). Kept files are checked by
 * fsck-file.c, kept directories walked in turn.
 */
#include "fsck-private.h"

#include <stdio.h>
#include <stdlib.h>

/* Karma trees are 3 levels deep; this bounds the recursion on a hostile tree. */
#define FSCK_MAX_DEPTH 64

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

struct dir_walk {
	uint64_t ino;
	unsigned depth;
	bool problems;		/* a finding in this directory's own chains */
	struct move *moves;	/* misplaced entries, relinked once the walk is done */
	size_t nmoves, cap;
	struct fsck_names names;	/* every entry kept */
};

/* A chain node, as read from its trusted copy. */
struct entry {
	uint64_t ino;
	uint64_t sibling;
	uint32_t bucket;
	bool is_dir;
	char what[160];		/* "directory D, bucket B: entry E 'name'" */
	struct fsck_copies c;
};

/* Where the pointer to the current chain node lives: a bucket or a sibling field. */
struct link {
	uint64_t block;
	uint32_t off;
};

static int walk_dir(struct fsck *f, uint64_t ino, uint8_t *blk, unsigned depth);

/* ---- judging an entry ---- */

static void describe_entry(const struct dir_walk *dw, struct entry *e, const uint8_t *blk)
{
	size_t len = blk ? fsck_name_len(blk) : 0;
	char shown[FSCK_NAME_SHOWN + 8];

	snprintf(e->what, sizeof(e->what), "directory %llu, bucket %u: entry %llu",
		 (unsigned long long)dw->ino, e->bucket, (unsigned long long)e->ino);
	if (len) {
		fsck_shown_name(shown, sizeof(shown), blk + OMFS_I_NAME, len);
		snprintf(e->what + strlen(e->what), sizeof(e->what) - strlen(e->what), " '%s'",
			 shown);
	}
}

static uint32_t name_bucket(const struct fsck *f, const uint8_t *blk)
{
	return omfs_name_hash((const char *)blk + OMFS_I_NAME, fsck_name_len(blk),
			      omfs_nbuckets(f->fs));
}

/* Findings about the name that do not stop the entry from being kept. */
static enum verdict check_entry_name(struct fsck *f, struct dir_walk *dw, struct entry *e,
				     const uint8_t *blk)
{
	const char *name = (const char *)blk + OMFS_I_NAME;
	size_t len = fsck_name_len(blk);
	uint32_t want;

	if (len == 0) {
		fsck_finding(f, OMFS_FSCK_ERROR, "%s has an empty name", e->what);
		dw->problems = true;
		return KEEP;
	}
	if (!omfs_name_valid(name, len)) {
		fsck_finding(f, OMFS_FSCK_ERROR, "%s: its name is \".\", \"..\" or contains '/'",
			     e->what);
		dw->problems = true;
	}
	want = name_bucket(f, blk);
	if (want == e->bucket)
		return KEEP;
	fsck_finding(f, OMFS_FSCK_ERROR, "%s: its name hashes to bucket %u", e->what, want);
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
	bool was_rejected;
	uint64_t parent;
	int err;

	e->c = (struct fsck_copies){ .trusted = -1 };
	describe_entry(dw, e, NULL);
	*v = DROP_REST;
	if (!omfs_sysblock_in_range(f->fs, e->ino)) {
		fsck_finding(f, OMFS_FSCK_ERROR, "%s lies outside the volume's sysblock range",
			     e->what);
		return 0;
	}
	if (omfs_bit_test(f->seen, e->ino)) {
		fsck_finding(f, OMFS_FSCK_ERROR,
			     "%s was reached before: a sibling loop, or an entry linked twice",
			     e->what);
		return 0;
	}
	was_rejected = omfs_bit_test(f->rejected, e->ino);
	err = fsck_check_copies(f, e->what, e->ino, OMFS_TYPE_INODE, blk, &e->c);
	if (err)
		return err;
	if (e->c.trusted < 0) {
		omfs_bit_set(f->seen, e->ino);
		fsck_finding(f, OMFS_FSCK_ERROR, "%s: no copy verifies (primary: %s)", e->what,
			     e->c.why);
		return 0;
	}
	describe_entry(dw, e, blk);
	e->sibling = omfs_be64(blk + OMFS_I_SIBLING);
	parent = omfs_be64(blk + OMFS_I_PARENT);
	if (blk[OMFS_I_TYPE] != OMFS_ITYPE_DIR && blk[OMFS_I_TYPE] != OMFS_ITYPE_FILE) {
		omfs_bit_set(f->seen, e->ino);
		fsck_finding(f, OMFS_FSCK_ERROR, "%s: unknown inode type 0x%02x", e->what,
			     blk[OMFS_I_TYPE]);
		*v = DROP;
		return 0;
	}
	if (parent != dw->ino) {
		/* It may be in its parent's chain too: it can be entered once more from there. */
		if (was_rejected) {
			fsck_finding(f, OMFS_FSCK_ERROR,
				     "%s was reached before, in another directory", e->what);
			return 0;
		}
		omfs_bit_set(f->rejected, e->ino);
		fsck_finding(f, OMFS_FSCK_ERROR,
			     "%s: its parent pointer is %llu, not this directory",
			     e->what, (unsigned long long)parent);
		*v = DROP;
		return 0;
	}
	omfs_bit_set(f->seen, e->ino);
	e->is_dir = blk[OMFS_I_TYPE] == OMFS_ITYPE_DIR;
	*v = check_entry_name(f, dw, e, blk);
	return 0;
}

/* ---- cutting and moving entries ---- */

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
	r = fsck_edit_u64(f, l->block, OMFS_TYPE_INODE, l->off, to);
	if (r <= 0 || !what)
		return r;
	describe_link(l, link, sizeof(link));
	if (to == OMFS_NIL)
		snprintf(target, sizeof(target), "nil");
	else
		snprintf(target, sizeof(target), "its successor %llu", (unsigned long long)to);
	fsck_fixed(f, settles, "%s: detached it, setting %s to %s", what, link, target);
	return 1;
}

static int queue_move(struct fsck *f, struct dir_walk *dw, uint64_t ino, uint32_t from,
		      uint32_t to)
{
	struct move *m = fsck_grow(dw->moves, &dw->cap, dw->nmoves, sizeof(*m));

	if (!m)
		return fsck_out_of_memory(f, "directory", dw->ino);
	dw->moves = m;
	dw->moves[dw->nmoves++] = (struct move){ ino, from, to };
	return 0;
}

/* A misplaced entry can move when its directory, its predecessor and itself can be written. */
static bool can_move(struct fsck *f, const struct dir_walk *dw, const struct link *pred,
		     uint64_t ino)
{
	uint32_t m = f->fs->mirrors;

	return f->repair && !fsck_blocks_shared(f, dw->ino, m) &&
	       !fsck_blocks_shared(f, pred->block, m) && !fsck_blocks_shared(f, ino, m);
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
			return fsck_caused_by_volume(err) ? 0 : fsck_fail(f, err);
		head = omfs_be64(dirb->data + off);
		omfs_brelse(f->fs, dirb);
		/* the entry first, so the bucket never points to an entry that ends wrong */
		r = fsck_edit_u64(f, m->ino, OMFS_TYPE_INODE, OMFS_I_SIBLING, head);
		if (r > 0)
			r = fsck_edit_u64(f, dw->ino, OMFS_TYPE_INODE, off, m->ino);
		if (r < 0)
			return r;
		if (r)
			fsck_fixed(f, 1, "directory %llu: moved entry %llu from bucket %u to bucket %u, where its name hashes",
				   (unsigned long long)dw->ino, (unsigned long long)m->ino, m->from,
				   m->to);
	}
	return 0;
}

/* ---- walking ---- */

/* Keep the entry: its copies, its blocks, and what is below it. */
static int keep_entry(struct fsck *f, struct dir_walk *dw, struct entry *e, uint8_t *blk)
{
	int err = fsck_repair_copies(f, e->what, e->ino, OMFS_TYPE_INODE, &e->c);

	if (err)
		return err;
	if (fsck_claim(f, e->what, e->ino, f->fs->mirrors))
		dw->problems = true;
	if (!f->quiet) {
		if (e->is_dir)
			f->res->dirs++;
		else
			f->res->files++;
	}
	if (!e->is_dir)
		return fsck_check_file(f, e->ino, blk);
	if (dw->depth + 1 >= FSCK_MAX_DEPTH) {
		fsck_finding(f, OMFS_FSCK_ERROR,
			     "%s: directories nest deeper than %d levels here; what is below was not checked",
			     e->what, FSCK_MAX_DEPTH);
		f->incomplete = true;
		return 0;
	}
	return walk_dir(f, e->ino, blk, dw->depth + 1);
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
			err = fsck_remember_name(f, &dw->names, dw->ino, e.ino, blk);
		if (!err)
			err = keep_entry(f, dw, &e, blk);
		if (err)
			break;
		e.ino = e.sibling;
	}
	return err < 0 ? err : 0;
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
	if (r < 0 && !fsck_caused_by_volume(r))
		return fsck_fail(f, r);
	if (r < 0)
		fsck_finding(f, OMFS_FSCK_ERROR, "directory %llu: the filesystem cannot list it: %s",
			     (unsigned long long)ino, omfs_errmsg(f->fs));
	return 0;
}

/* The kernel writes a directory's size as sys_blocksize and ignores what it reads. */
static int check_dir_size(struct fsck *f, uint64_t ino, const uint8_t *blk)
{
	uint64_t size = omfs_be64(blk + OMFS_I_SIZE);
	uint64_t *t;

	if (size == f->fs->sys_blocksize)
		return 0;
	fsck_finding(f, OMFS_FSCK_INFO, "directory %llu: its size is %llu, not the sysblock size %u",
		     (unsigned long long)ino, (unsigned long long)size, f->fs->sys_blocksize);
	if (!f->repair)
		return 0;
	t = fsck_grow(f->tidy_dirs, &f->tidy_cap, f->ntidy, sizeof(*t));
	if (!t)
		return fsck_out_of_memory(f, "directory", ino);
	f->tidy_dirs = t;
	f->tidy_dirs[f->ntidy++] = ino;
	return 0;
}

int fsck_tidy_dir_sizes(struct fsck *f)
{
	for (size_t i = 0; i < f->ntidy; i++) {
		uint64_t ino = f->tidy_dirs[i];
		int r = fsck_edit_u64(f, ino, OMFS_TYPE_INODE, OMFS_I_SIZE, f->fs->sys_blocksize);

		if (r < 0)
			return r;
		if (r)
			fsck_fixed(f, 0, "directory %llu: set its size to %u",
				   (unsigned long long)ino, f->fs->sys_blocksize);
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
		err = fsck_out_of_memory(f, "directory", ino);
	for (uint32_t b = 0; !err && b < nbuckets; b++)
		err = walk_chain(f, &dw, blk, b, child);
	if (!err)
		err = apply_moves(f, &dw);
	if (!err && !f->quiet)
		err = fsck_check_duplicate_names(f, &dw.names, ino, &dw.problems);
	if (!err && !dw.problems && !f->quiet)
		err = cross_check_dir(f, ino);
	free(dw.moves);
	free(dw.names.keys);
	free(child);
	return err;
}

/* ---- the root directory ---- */

/* The root is in no chain and has no parent: both pointers must be nil. */
static int check_root_pointer(struct fsck *f, const uint8_t *blk, uint32_t off, const char *what)
{
	uint64_t root = f->fs->root_dir, v = omfs_be64(blk + off);
	int r;

	if (v == OMFS_NIL)
		return 0;
	fsck_finding(f, OMFS_FSCK_ERROR, "root directory %llu: its %s pointer is %llu, not nil",
		     (unsigned long long)root, what, (unsigned long long)v);
	if (!f->repair)
		return 0;
	r = fsck_edit_u64(f, root, OMFS_TYPE_INODE, off, OMFS_NIL);
	if (r > 0)
		fsck_fixed(f, 1, "root directory %llu: set its %s pointer to nil",
			   (unsigned long long)root, what);
	return r < 0 ? r : 0;
}

int fsck_walk_root(struct fsck *f)
{
	struct omfs_fs *fs = f->fs;
	uint8_t *blk = malloc(fs->sys_blocksize);
	struct fsck_copies c;
	char what[64];
	int err;

	if (!blk)
		return fsck_out_of_memory(f, "root directory", fs->root_dir);
	snprintf(what, sizeof(what), "root directory %llu", (unsigned long long)fs->root_dir);
	omfs_bit_set(f->seen, fs->root_dir);
	err = fsck_check_copies(f, what, fs->root_dir, OMFS_TYPE_INODE, blk, &c);
	if (!err)
		fsck_claim(f, what, fs->root_dir, fs->mirrors);
	if (!err && c.trusted < 0) {
		/* the mount read it, so only a device that changed under us gets here */
		fsck_finding(f, OMFS_FSCK_ERROR, "%s: no copy verifies (primary: %s)", what, c.why);
		f->incomplete = true;
	} else if (!err) {
		err = fsck_repair_copies(f, what, fs->root_dir, OMFS_TYPE_INODE, &c);
		if (!err)
			err = check_root_pointer(f, blk, OMFS_I_PARENT, "parent");
		if (!err)
			err = check_root_pointer(f, blk, OMFS_I_SIBLING, "sibling");
		if (!err && !f->quiet)
			f->res->dirs++;
		if (!err)
			err = walk_dir(f, fs->root_dir, blk, 0);
	}
	free(blk);
	return err;
}
