/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dir.c - directories: lookup, path resolution, readdir, create, mkdir,
 * unlink, rmdir and rename.
 *
 * A directory inode holds a table of bucket heads at OMFS_DIR_START; each
 * bucket heads a chain of child inodes linked through i_sibling. A chain on
 * disk may be corrupt or hostile, so every walk is bounded, loops are caught,
 * and every node must name the directory in its i_parent.
 *
 * Names are compared exactly (same length, same bytes). The Linux driver
 * compares only a prefix of the stored name, so "1" and "13e", which share a
 * bucket, are confused there; here they are two names.
 */
#include "omfs-private.h"

/* readdir positions, the kernel's encoding: ((bucket + 1) << 20) | index in the chain */
#define POS_SHIFT 20
#define POS_INDEX_MASK ((1ull << POS_SHIFT) - 1)
#define POS_LIMIT (1ull << 32)

/* ---- bounded walks ---- */

/*
 * Guards a walk along on-disk pointers (a sibling chain, or i_parent links up
 * to the root). Brent's cycle detection notices a loop within about twice its
 * length, with no memory; the step limit is a backstop: no chain can hold more
 * inodes than the volume has room for.
 */
struct walk_guard {
	uint64_t limit;
	uint64_t steps;
	uint64_t mark;		/* a node passed earlier; meeting it again closes a loop */
	uint64_t lap;		/* steps since mark was set */
	uint64_t lap_len;	/* when lap reaches it, mark moves on and lap_len doubles */
};

static void guard_init(const struct omfs_fs *fs, struct walk_guard *g)
{
	g->limit = fs->num_blocks / (fs->mirrors ? fs->mirrors : 1);
	g->steps = 0;
	g->mark = OMFS_NIL;
	g->lap = 0;
	g->lap_len = 1;
}

/* False when `ino` closes a loop or the walk is longer than the volume allows. */
static bool guard_step(struct walk_guard *g, uint64_t ino)
{
	if (ino == g->mark || ++g->steps > g->limit)
		return false;
	if (++g->lap == g->lap_len) {
		g->mark = ino;
		g->lap = 0;
		g->lap_len *= 2;
	}
	return true;
}

/* ---- inode fields used here ---- */

static uint64_t inode_parent(const struct omfs_buf *b)
{
	return omfs_be64(b->data + OMFS_I_PARENT);
}

static uint64_t inode_sibling(const struct omfs_buf *b)
{
	return omfs_be64(b->data + OMFS_I_SIBLING);
}

static void inode_set_name(struct omfs_buf *b, const char *name, size_t len)
{
	memset(b->data + OMFS_I_NAME, 0, OMFS_NAME_MAX);
	memcpy(b->data + OMFS_I_NAME, name, len);
}

static bool inode_has_name(const struct omfs_buf *b, const char *name, size_t len)
{
	return omfs_inode_namelen(b) == len && memcmp(b->data + OMFS_I_NAME, name, len) == 0;
}

static uint64_t bucket_head(const struct omfs_buf *dirb, uint32_t bucket)
{
	return omfs_be64(dirb->data + OMFS_DIR_START + (size_t)bucket * 8);
}

static void bucket_set_head(struct omfs_fs *fs, struct omfs_buf *dirb, uint32_t bucket,
			    uint64_t ino)
{
	omfs_put_be64(dirb->data + OMFS_DIR_START + (size_t)bucket * 8, ino);
	omfs_bdirty(fs, dirb);
}

static bool dir_is_empty(const struct omfs_fs *fs, const struct omfs_buf *dirb)
{
	uint32_t nbuckets = omfs_nbuckets(fs);

	for (uint32_t i = 0; i < nbuckets; i++)
		if (bucket_head(dirb, i) != OMFS_NIL)
			return false;
	return true;
}

static void dir_touch(struct omfs_fs *fs, struct omfs_buf *dirb)
{
	omfs_put_be64(dirb->data + OMFS_I_CTIME, omfs_now_ms(fs));
	omfs_bdirty(fs, dirb);
}

static int dir_get(struct omfs_fs *fs, uint64_t ino, struct omfs_buf **out)
{
	int err = omfs_iget(fs, ino, out);

	if (err)
		return err;
	if (!omfs_inode_is_dir(*out)) {
		omfs_brelse(fs, *out);
		return omfs_error(fs, ENOTDIR, "block %llu is a file, not a directory",
				  (unsigned long long)ino);
	}
	return 0;
}

/* The directory `dir` sits in; the root has none and is its own parent here. */
static int dir_parent(struct omfs_fs *fs, uint64_t dir, uint64_t *parent)
{
	struct omfs_buf *b;
	int err;

	if (dir == fs->root_dir) {
		*parent = dir;
		return 0;
	}
	err = omfs_iget(fs, dir, &b);
	if (err)
		return err;
	*parent = inode_parent(b);
	omfs_brelse(fs, b);
	if (*parent == OMFS_NIL)
		return omfs_error(fs, EUCLEAN, "block %llu: a directory other than the root with "
				  "no parent", (unsigned long long)dir);
	return 0;
}

/* ---- names ---- */

/*
 * A name being looked up, removed or renamed: any bytes are accepted, so an
 * odd name written by another implementation can still be reached and removed.
 */
static int check_existing_name(struct omfs_fs *fs, uint64_t dir, const char *name, size_t len)
{
	if (len > OMFS_NAME_MAX)
		return omfs_error(fs, ENAMETOOLONG, "a name of %zu bytes is longer than %d",
				  len, OMFS_NAME_MAX);
	if (len == 0)
		return omfs_error(fs, ENOENT, "directory %llu: the empty name names no entry",
				  (unsigned long long)dir);
	return 0;
}

/* A name being created: no '/', no NUL, not "." or "..", 1 to 256 bytes. */
static int check_new_name(struct omfs_fs *fs, const char *name, size_t len)
{
	if (len > OMFS_NAME_MAX)
		return omfs_error(fs, ENAMETOOLONG, "a name of %zu bytes is longer than %d",
				  len, OMFS_NAME_MAX);
	if (!omfs_name_valid(name, len))
		return omfs_error(fs, EINVAL, "'%.*s' is not a valid name (empty, \".\", \"..\", "
				  "or containing '/' or NUL)", (int)len, name);
	return 0;
}

/* ---- chains ---- */

/* A position in one bucket's chain; holds references to node and prev. */
struct chain {
	uint64_t dir;
	uint32_t bucket;
	uint64_t index;		/* of node, counted from the head */
	struct walk_guard guard;
	struct omfs_buf *prev;	/* NULL when node is the head */
	struct omfs_buf *node;	/* NULL past the end */
};

static int chain_corrupt(struct omfs_fs *fs, const struct chain *ch, uint64_t ino,
			 const char *why)
{
	return omfs_error(fs, EUCLEAN, "directory %llu, bucket %u: block %llu: corrupt chain: %s",
			  (unsigned long long)ch->dir, ch->bucket, (unsigned long long)ino, why);
}

/*
 * Read chain node `ino` into ch->node, checking that it belongs to this
 * directory. omfs_iget has checked h_self and the types. A node whose name
 * hashes to another bucket is not refused (it is still the directory's
 * child, and fsck reports it), but lookups by name will not find it.
 */
static int chain_load(struct omfs_fs *fs, struct chain *ch, uint64_t ino)
{
	struct omfs_buf *b;
	uint64_t parent;
	int err;

	ch->node = NULL;
	if (ino == OMFS_NIL)
		return 0;
	if (!guard_step(&ch->guard, ino))
		return chain_corrupt(fs, ch, ino, "it loops or is longer than the volume allows");
	if (ino == fs->root_dir)
		return chain_corrupt(fs, ch, ino, "the root directory is listed as an entry");
	err = omfs_iget(fs, ino, &b);
	if (err)
		return err;
	parent = inode_parent(b);
	if (parent != ch->dir) {
		omfs_brelse(fs, b);
		return omfs_error(fs, EUCLEAN, "block %llu: corrupt chain: it is in bucket %u of "
				  "directory %llu but its parent is %llu", (unsigned long long)ino,
				  ch->bucket, (unsigned long long)ch->dir,
				  (unsigned long long)parent);
	}
	ch->node = b;
	return 0;
}

static int chain_start(struct omfs_fs *fs, struct chain *ch, const struct omfs_buf *dirb,
		       uint64_t dir, uint32_t bucket)
{
	ch->dir = dir;
	ch->bucket = bucket;
	ch->index = 0;
	ch->prev = NULL;
	guard_init(fs, &ch->guard);
	return chain_load(fs, ch, bucket_head(dirb, bucket));
}

static int chain_next(struct omfs_fs *fs, struct chain *ch)
{
	omfs_brelse(fs, ch->prev);
	ch->prev = ch->node;
	ch->index++;
	return chain_load(fs, ch, inode_sibling(ch->prev));
}

static void chain_stop(struct omfs_fs *fs, struct chain *ch)
{
	omfs_brelse(fs, ch->prev);
	omfs_brelse(fs, ch->node);
	ch->prev = ch->node = NULL;
}

/* Take ch->node out of the chain: its predecessor (or the bucket) skips it. */
static void chain_unlink(struct omfs_fs *fs, struct omfs_buf *dirb, struct chain *ch)
{
	uint64_t next = inode_sibling(ch->node);

	if (ch->prev) {
		omfs_put_be64(ch->prev->data + OMFS_I_SIBLING, next);
		omfs_bdirty(fs, ch->prev);
	} else {
		bucket_set_head(fs, dirb, ch->bucket, next);
	}
}

/* Prepend inode b to the bucket, as the kernel does. */
static void chain_link(struct omfs_fs *fs, struct omfs_buf *dirb, uint32_t bucket,
		       struct omfs_buf *b)
{
	omfs_put_be64(b->data + OMFS_I_SIBLING, bucket_head(dirb, bucket));
	omfs_bdirty(fs, b);
	bucket_set_head(fs, dirb, bucket, b->block);
}

/* ---- entries ---- */

/* A directory and the place of a name in it; dentry_put releases both. */
struct dentry {
	struct omfs_buf *dirb;
	struct chain ch;
};

static void dentry_put(struct omfs_fs *fs, struct dentry *d)
{
	chain_stop(fs, &d->ch);
	omfs_brelse(fs, d->dirb);
	d->dirb = NULL;
}

/* 0 with d->ch.node the entry, or NULL (and d->ch.bucket its bucket) when absent. */
static int dentry_find(struct omfs_fs *fs, uint64_t dir, const char *name, size_t len,
		       struct dentry *d)
{
	int err;

	d->dirb = NULL;
	d->ch.prev = d->ch.node = NULL;
	err = dir_get(fs, dir, &d->dirb);
	if (err)
		return err;
	err = chain_start(fs, &d->ch, d->dirb, dir,
			  omfs_name_hash(name, len, omfs_nbuckets(fs)));
	while (!err && d->ch.node && !inode_has_name(d->ch.node, name, len))
		err = chain_next(fs, &d->ch);
	return err;
}

/* Like dentry_find, but a missing entry is -ENOENT. */
static int dentry_lookup(struct omfs_fs *fs, uint64_t dir, const char *name, size_t len,
			 struct dentry *d)
{
	int err = dentry_find(fs, dir, name, len, d);

	if (!err && !d->ch.node)
		err = omfs_error(fs, ENOENT, "directory %llu has no entry '%.*s'",
				 (unsigned long long)dir, (int)len, name);
	return err;
}

enum entry_kind { ENTRY_ANY, ENTRY_FILE, ENTRY_DIR };

/* May entry b go away as `want`? A directory must be empty. */
static int check_removable(struct omfs_fs *fs, const struct omfs_buf *b, enum entry_kind want,
			   const char *name, size_t len)
{
	bool is_dir = omfs_inode_is_dir(b);

	if (want == ENTRY_ANY)
		return 0;
	if (want == ENTRY_FILE && is_dir)
		return omfs_error(fs, EISDIR, "'%.*s' (block %llu) is a directory",
				  (int)len, name, (unsigned long long)b->block);
	if (want == ENTRY_DIR && !is_dir)
		return omfs_error(fs, ENOTDIR, "'%.*s' (block %llu) is not a directory",
				  (int)len, name, (unsigned long long)b->block);
	if (is_dir && !dir_is_empty(fs, b))
		return omfs_error(fs, ENOTEMPTY, "directory '%.*s' (block %llu) is not empty",
				  (int)len, name, (unsigned long long)b->block);
	return 0;
}

/* Take `name` out of `dir` (its blocks stay allocated); *ino is the inode it named. */
static int detach_entry(struct omfs_fs *fs, uint64_t dir, const char *name, size_t len,
			enum entry_kind want, uint64_t *ino)
{
	struct dentry d;
	int err = dentry_lookup(fs, dir, name, len, &d);

	if (!err)
		err = check_removable(fs, d.ch.node, want, name, len);
	if (!err) {
		*ino = d.ch.node->block;
		chain_unlink(fs, d.dirb, &d.ch);
		dir_touch(fs, d.dirb);
		fs->unlinked = true;
	}
	dentry_put(fs, &d);
	return err;
}

/*
 * Link inode `ino`, which no chain reaches any more, into `dir` as `name`.
 * Marked fresh, the inode is written (with its new name, parent and sibling)
 * before the directory block that points to it.
 */
static int attach_entry(struct omfs_fs *fs, uint64_t ino, uint64_t dir, const char *name,
			size_t len)
{
	struct omfs_buf *b;
	struct dentry d;
	int err = dentry_find(fs, dir, name, len, &d);

	if (!err && d.ch.node)
		err = omfs_error(fs, EEXIST, "directory %llu already has an entry '%.*s'",
				 (unsigned long long)dir, (int)len, name);
	if (!err)
		err = omfs_iget(fs, ino, &b);
	if (!err) {
		b->fresh = true;
		inode_set_name(b, name, len);
		omfs_put_be64(b->data + OMFS_I_PARENT, dir);
		chain_link(fs, d.dirb, d.ch.bucket, b);
		dir_touch(fs, d.dirb);
		omfs_brelse(fs, b);
	}
	dentry_put(fs, &d);
	return err;
}

/* -EINVAL when `dir` is `ino` or lies below it: a move there would cut `ino` off the tree. */
static int check_not_ancestor(struct omfs_fs *fs, uint64_t ino, uint64_t dir)
{
	struct walk_guard g;
	uint64_t start = dir;

	guard_init(fs, &g);
	while (dir != fs->root_dir) {
		int err;

		if (dir == ino)
			return omfs_error(fs, EINVAL, "cannot move directory %llu into its own "
					  "subtree (directory %llu)", (unsigned long long)ino,
					  (unsigned long long)start);
		if (!guard_step(&g, dir))
			return omfs_error(fs, EUCLEAN, "block %llu: corrupt tree: the parents of "
					  "directory %llu loop", (unsigned long long)dir,
					  (unsigned long long)start);
		err = dir_parent(fs, dir, &dir);
		if (err)
			return err;
	}
	return 0;
}

/* ---- lookup ---- */

int omfs_lookup(struct omfs_fs *fs, uint64_t dir, const char *name, size_t len, uint64_t *ino)
{
	struct dentry d;
	int err = check_existing_name(fs, dir, name, len);

	if (err)
		return err;
	err = dentry_lookup(fs, dir, name, len, &d);
	if (!err)
		*ino = d.ch.node->block;
	dentry_put(fs, &d);
	return err;
}

static bool is_dot(const char *name, size_t len)
{
	return len == 1 && name[0] == '.';
}

static bool is_dotdot(const char *name, size_t len)
{
	return len == 2 && name[0] == '.' && name[1] == '.';
}

/* One path component: "." stays, ".." goes to i_parent (the root's is itself). */
static int resolve_component(struct omfs_fs *fs, uint64_t *cur, const char *name, size_t len)
{
	struct omfs_buf *b;
	int err;

	if (!is_dot(name, len) && !is_dotdot(name, len))
		return omfs_lookup(fs, *cur, name, len, cur);
	/* "file/." and "file/.." are not directories either. */
	err = dir_get(fs, *cur, &b);
	if (err)
		return err;
	omfs_brelse(fs, b);
	return is_dotdot(name, len) ? dir_parent(fs, *cur, cur) : 0;
}

/*
 * Directories on disk hold no "." or ".." entries, so both are handled here:
 * "." is skipped and ".." follows i_parent. Empty components are ignored.
 */
int omfs_resolve(struct omfs_fs *fs, const char *path, uint64_t *ino)
{
	uint64_t cur = fs->root_dir;

	while (*path) {
		size_t len = strcspn(path, "/");

		if (len) {
			int err = resolve_component(fs, &cur, path, len);

			if (err)
				return err;
		}
		path += len;
		if (*path == '/')
			path++;
	}
	*ino = cur;
	return 0;
}

/* ---- readdir ---- */

static void fill_dirent(const struct omfs_buf *b, struct omfs_dirent *ent)
{
	size_t len = omfs_inode_namelen(b);

	if (len > OMFS_NAME_MAX)
		len = OMFS_NAME_MAX;
	ent->ino = b->block;
	ent->is_dir = omfs_inode_is_dir(b);
	ent->namelen = len;
	memcpy(ent->name, b->data + OMFS_I_NAME, len);
	ent->name[len] = '\0';
}

/* Entry number `index` of a bucket: 1 and *ent, 0 when the chain is shorter, or -errno. */
static int read_bucket_entry(struct omfs_fs *fs, const struct omfs_buf *dirb, uint64_t dir,
			     uint32_t bucket, uint64_t index, struct omfs_dirent *ent)
{
	struct chain ch;
	int err = chain_start(fs, &ch, dirb, dir, bucket);

	while (!err && ch.node && ch.index < index)
		err = chain_next(fs, &ch);
	if (!err && ch.node && ch.index >= POS_INDEX_MASK)
		err = chain_corrupt(fs, &ch, ch.node->block,
				    "more entries than a readdir position can count (2^20)");
	if (!err && ch.node) {
		fill_dirent(ch.node, ent);
		err = 1;
	}
	chain_stop(fs, &ch);
	return err;
}

int omfs_readdir(struct omfs_fs *fs, uint64_t dir, uint64_t *pos, struct omfs_dirent *ent)
{
	uint32_t nbuckets = omfs_nbuckets(fs);
	uint64_t bucket = 0, index = 0;
	struct omfs_buf *dirb;
	int err;

	if (*pos >= POS_LIMIT)
		return omfs_error(fs, EINVAL, "directory %llu: readdir position %llu is not below "
				  "2^32", (unsigned long long)dir, (unsigned long long)*pos);
	/* Below 1 << 20 (the kernel's "." and ".." positions) means the start. */
	if (*pos >> POS_SHIFT) {
		bucket = (*pos >> POS_SHIFT) - 1;
		index = *pos & POS_INDEX_MASK;
	}
	err = dir_get(fs, dir, &dirb);
	if (err)
		return err;
	for (; bucket < nbuckets; bucket++, index = 0) {
		err = read_bucket_entry(fs, dirb, dir, (uint32_t)bucket, index, ent);
		if (err)
			break;
	}
	omfs_brelse(fs, dirb);
	if (err == 1)
		*pos = (bucket + 1) << POS_SHIFT | (index + 1);
	else if (err == 0)
		*pos = (uint64_t)(nbuckets + 1) << POS_SHIFT;
	return err;
}

/* ---- create, mkdir ---- */

static int add_entry(struct omfs_fs *fs, uint64_t dir, const char *name, size_t len, bool is_dir,
		     uint64_t *ino)
{
	struct omfs_buf *b;
	struct dentry d;
	int err = omfs_check_writable(fs);

	if (!err)
		err = check_new_name(fs, name, len);
	if (err)
		return err;
	/* Unlinks reach the disk before this link (see struct omfs_fs's `unlinked`). */
	if (fs->unlinked)
		err = omfs_writeback(fs);
	if (err)
		return err;
	err = dentry_find(fs, dir, name, len, &d);
	if (!err && d.ch.node)
		err = omfs_error(fs, EEXIST, "directory %llu already has an entry '%.*s'",
				 (unsigned long long)dir, (int)len, name);
	/* The new inode is fresh: the cache writes it before the directory's link to it. */
	if (!err)
		err = omfs_inode_new(fs, dir, name, len, is_dir, &b);
	if (!err) {
		chain_link(fs, d.dirb, d.ch.bucket, b);
		dir_touch(fs, d.dirb);
		if (ino)
			*ino = b->block;
		omfs_brelse(fs, b);
	}
	dentry_put(fs, &d);
	return err;
}

int omfs_create(struct omfs_fs *fs, uint64_t dir, const char *name, size_t len, uint64_t *ino)
{
	return add_entry(fs, dir, name, len, false, ino);
}

int omfs_mkdir(struct omfs_fs *fs, uint64_t dir, const char *name, size_t len, uint64_t *ino)
{
	return add_entry(fs, dir, name, len, true, ino);
}

/* ---- unlink, rmdir ---- */

/* The link goes first (stage 3 of the write-back), the freed blocks after it (stage 4). */
static int remove_entry(struct omfs_fs *fs, uint64_t dir, const char *name, size_t len,
			enum entry_kind want)
{
	uint64_t ino;
	int err = omfs_check_writable(fs);

	if (!err)
		err = check_existing_name(fs, dir, name, len);
	if (!err)
		err = detach_entry(fs, dir, name, len, want, &ino);
	if (!err)
		err = omfs_inode_release(fs, ino);
	return err;
}

int omfs_unlink(struct omfs_fs *fs, uint64_t dir, const char *name, size_t len)
{
	return remove_entry(fs, dir, name, len, ENTRY_FILE);
}

int omfs_rmdir(struct omfs_fs *fs, uint64_t dir, const char *name, size_t len)
{
	return remove_entry(fs, dir, name, len, ENTRY_DIR);
}

/* ---- rename ---- */

/*
 * Every check before the first change: the source exists, the target (if
 * any) may be replaced by it, and a directory does not move below itself.
 * Returns 1 when the rename is a no-op (the target is the source itself).
 */
static int rename_check(struct omfs_fs *fs, uint64_t olddir, const char *oldname, size_t oldlen,
			uint64_t newdir, const char *newname, size_t newlen, uint64_t *victim)
{
	enum entry_kind kind;
	struct dentry d;
	uint64_t ino;
	int err = dentry_lookup(fs, olddir, oldname, oldlen, &d);

	if (err) {
		dentry_put(fs, &d);
		return err;
	}
	ino = d.ch.node->block;
	kind = omfs_inode_is_dir(d.ch.node) ? ENTRY_DIR : ENTRY_FILE;
	dentry_put(fs, &d);

	*victim = OMFS_NIL;
	err = dentry_find(fs, newdir, newname, newlen, &d);
	if (!err && d.ch.node) {
		*victim = d.ch.node->block;
		if (*victim == ino)
			err = 1;
		else
			err = check_removable(fs, d.ch.node, kind, newname, newlen);
	}
	dentry_put(fs, &d);
	if (!err && kind == ENTRY_DIR)
		err = check_not_ancestor(fs, ino, newdir);
	return err;
}

/*
 * The moved inode leaves its old chain (and a replaced target leaves its
 * chain) and that is written back before the inode joins the new chain. A
 * power cut can then leave the inode orphaned, never in two chains at once.
 */
int omfs_rename(struct omfs_fs *fs, uint64_t olddir, const char *oldname, size_t oldlen,
		uint64_t newdir, const char *newname, size_t newlen)
{
	uint64_t ino, victim;
	int err = omfs_check_writable(fs);

	if (!err)
		err = check_existing_name(fs, olddir, oldname, oldlen);
	if (!err)
		err = check_new_name(fs, newname, newlen);
	if (!err)
		err = rename_check(fs, olddir, oldname, oldlen, newdir, newname, newlen, &victim);
	if (err)
		return err == 1 ? 0 : err;

	/* Both entries passed rename_check and nothing changed since: detach them as they are. */
	err = detach_entry(fs, olddir, oldname, oldlen, ENTRY_ANY, &ino);
	if (!err && victim != OMFS_NIL)
		err = detach_entry(fs, newdir, newname, newlen, ENTRY_ANY, &victim);
	if (!err && victim != OMFS_NIL)
		err = omfs_inode_release(fs, victim);
	if (!err)
		err = omfs_writeback(fs);
	if (!err)
		err = attach_entry(fs, ino, newdir, newname, newlen);
	return err;
}
