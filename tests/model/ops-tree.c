/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ops-tree.c - operations on the tree: create, mkdir, unlink, rmdir, rename,
 * lookup, stat and bad names, and the mix that picks the next operation.
 */
#include "ops.h"

#include <errno.h>
#include <string.h>

/* ---- create, mkdir ---- */

static void add_checked(struct run *r, GNode *dir, const char *name, size_t len, bool is_dir)
{
	GNode *old = model_child(dir, name, len);
	uint64_t ino = OMFS_NIL;
	struct space_before b;
	char *what;
	int rc;

	what = show_entry(dir, name, len);
	run_op(r, "%s %s", is_dir ? "mkdir" : "create", what);
	g_free(what);
	if (!verify_note_before(r, NULL, &b))
		return;
	rc = is_dir ? omfs_mkdir(r->fs, ino_of(dir), name, len, &ino)
		    : omfs_create(r->fs, ino_of(dir), name, len, &ino);
	if (old) {
		run_check_rc(r, rc, -EEXIST);
		return;
	}
	if (rc == -ENOSPC) {
		uint64_t found;

		rc = omfs_lookup(r->fs, ino_of(dir), name, len, &found);
		if (rc != -ENOENT)
			run_fail(r, "ENOSPC, but the lookup of the name afterwards gave %d", rc);
		else
			verify_enospc_inode(r, &b);
		return;
	}
	if (!run_check_rc(r, rc, 0))
		return;
	for (guint i = 0; i < r->m.files->len + r->m.dirs->len; i++) {
		GNode *n = i < r->m.files->len ? r->m.files->pdata[i]
					       : r->m.dirs->pdata[i - r->m.files->len];

		if (ino_of(n) == ino) {
			run_fail(r, "the new inode is %llu, which is in use", (unsigned long long)ino);
			return;
		}
	}
	if (ino == OMFS_NIL) {
		run_fail(r, "success, but no inode number was returned");
		return;
	}
	model_add(&r->m, dir, name, len, is_dir, ino);
}

void op_add(struct run *r, bool is_dir)
{
	GNode *dir = pick_dir(r);
	char name[NAME_BUF];
	size_t len;

	if (dir->children && chance(r, 15))
		len = copy_name(pick_child(r, dir), name);
	else
		len = random_name(r, name);
	add_checked(r, dir, name, len, is_dir);
}

/* ---- unlink, rmdir ---- */

void op_unlink(struct run *r)
{
	GNode *dir, *victim = NULL;
	char name[NAME_BUF], *what;
	unsigned p = rnd(r, 100);
	size_t len;
	int want, rc;

	if (p < 70 && (victim = pick_file(r))) {
		dir = victim->parent;
		len = copy_name(victim, name);
		want = 0;
	} else if (p < 85 && (victim = pick_node(r)) && mnode_of(victim)->is_dir) {
		dir = victim->parent;
		len = copy_name(victim, name);
		want = -EISDIR;
	} else {
		dir = pick_dir(r);
		len = missing_name(r, dir, name);
		want = -ENOENT;
	}
	what = show_entry(dir, name, len);
	run_op(r, "unlink %s", what);
	g_free(what);
	rc = omfs_unlink(r->fs, ino_of(dir), name, len);
	if (run_check_rc(r, rc, want) && want == 0) {
		model_remove(&r->m, victim);
		ops_note(r, EV_UNLINK);
	}
}

void op_rmdir(struct run *r)
{
	GNode *dir, *victim = NULL;
	char name[NAME_BUF], *what;
	unsigned p = rnd(r, 100);
	size_t len;
	int want = 0, rc;

	if (p < 50)
		victim = pick_dir_where(r, true);
	else if (p < 75)
		victim = pick_dir_where(r, false);
	else if (p < 85)
		victim = pick_file(r);
	if (victim) {
		dir = victim->parent;
		len = copy_name(victim, name);
		if (!mnode_of(victim)->is_dir)
			want = -ENOTDIR;
		else if (!model_dir_is_empty(victim))
			want = -ENOTEMPTY;
	} else {
		dir = pick_dir(r);
		len = missing_name(r, dir, name);
		want = -ENOENT;
	}
	what = show_entry(dir, name, len);
	run_op(r, "rmdir %s", what);
	g_free(what);
	rc = omfs_rmdir(r->fs, ino_of(dir), name, len);
	if (!run_check_rc(r, rc, want))
		return;
	if (want == -ENOTEMPTY)
		ops_note(r, EV_RMDIR_NOT_EMPTY);
	if (want == 0) {
		model_remove(&r->m, victim);
		ops_note(r, EV_RMDIR_EMPTY);
	}
}

/* ---- rename ---- */

struct rename_req {
	GNode *olddir, *src;		/* src NULL: oldname is missing */
	char oldname[NAME_BUF];
	size_t oldlen;
	GNode *newdir;
	char newname[NAME_BUF];
	size_t newlen;
};

/* Where to: often somewhere that must fail, or a target to replace. */
static void rename_pick_target(struct run *r, struct rename_req *q)
{
	bool src_dir = mnode_of(q->src)->is_dir;
	unsigned p = rnd(r, 100);
	GNode *t = NULL;

	if (p < 8) {			/* onto itself: nothing happens */
		q->newdir = q->src->parent;
		q->newlen = copy_name(q->src, q->newname);
		return;
	}
	if (p < 20 && src_dir) {	/* into its own subtree */
		q->newdir = pick_dir_below(r, q->src);
	} else if (p < 32) {		/* over a file, or over an empty directory */
		t = src_dir ? pick_dir_where(r, true) : pick_file(r);
	} else if (p < 40 && src_dir) {	/* over a directory that is not empty */
		t = pick_dir_where(r, false);
	} else if (p < 48 && !src_dir) {	/* a file over a directory */
		t = r->m.dirs->len > 1 ? r->m.dirs->pdata[1 + rnd(r, r->m.dirs->len - 1)] : NULL;
	} else if (p < 60) {		/* over whatever the target directory holds */
		t = pick_child(r, pick_dir(r));
	} else {
		q->newdir = chance(r, 40) ? q->src->parent : pick_dir(r);
	}
	if (t) {
		q->newdir = t->parent;
		q->newlen = copy_name(t, q->newname);
		return;
	}
	if (!q->newdir)
		q->newdir = pick_dir(r);
	q->newlen = random_name(r, q->newname);
}

/* The errors the model expects; none means the rename must succeed. */
static size_t rename_expect(const struct rename_req *q, int *wants)
{
	GNode *target = model_child(q->newdir, q->newname, q->newlen);
	bool src_dir;
	size_t n = 0;

	if (!q->src) {
		wants[n++] = -ENOENT;
		return n;
	}
	if (target == q->src)
		return 0;
	src_dir = mnode_of(q->src)->is_dir;
	if (src_dir && (q->newdir == q->src || g_node_is_ancestor(q->src, q->newdir)))
		wants[n++] = -EINVAL;
	if (target && !src_dir && mnode_of(target)->is_dir)
		wants[n++] = -EISDIR;
	if (target && src_dir && !mnode_of(target)->is_dir)
		wants[n++] = -ENOTDIR;
	if (target && src_dir && mnode_of(target)->is_dir && !model_dir_is_empty(target))
		wants[n++] = -ENOTEMPTY;
	return n;
}

static void note_rename_error(struct run *r, int rc)
{
	if (rc == -EINVAL)
		ops_note(r, EV_RENAME_INTO_SUBTREE);
	else if (rc == -ENOTEMPTY)
		ops_note(r, EV_RENAME_OVER_FULL_DIR);
	else if (rc == -EISDIR)
		ops_note(r, EV_RENAME_FILE_OVER_DIR);
}

static void op_rename(struct run *r)
{
	struct rename_req q = { 0 };
	char *from, *to;
	int wants[4], rc;
	size_t nwant;
	GNode *target;

	/* directories as often as files, however many files there are */
	if (chance(r, 8))
		q.src = NULL;
	else if (chance(r, 45) && r->m.dirs->len > 1)
		q.src = r->m.dirs->pdata[1 + rnd(r, r->m.dirs->len - 1)];
	else
		q.src = pick_node(r);
	if (q.src) {
		q.olddir = q.src->parent;
		q.oldlen = copy_name(q.src, q.oldname);
		rename_pick_target(r, &q);
	} else {
		q.olddir = pick_dir(r);
		q.oldlen = missing_name(r, q.olddir, q.oldname);
		q.newdir = pick_dir(r);
		q.newlen = random_name(r, q.newname);
	}
	nwant = rename_expect(&q, wants);
	from = show_entry(q.olddir, q.oldname, q.oldlen);
	to = show_entry(q.newdir, q.newname, q.newlen);
	run_op(r, "rename %s to %s", from, to);
	g_free(from);
	g_free(to);
	target = model_child(q.newdir, q.newname, q.newlen);
	rc = omfs_rename(r->fs, ino_of(q.olddir), q.oldname, q.oldlen, ino_of(q.newdir),
			 q.newname, q.newlen);
	if (nwant) {
		if (run_check_rc_any(r, rc, wants, nwant))
			note_rename_error(r, (int)rc);
		return;
	}
	if (!run_check_rc(r, rc, 0) || target == q.src)
		return;
	ops_note(r, q.newdir == q.olddir ? EV_RENAME_SAME_DIR : EV_RENAME_CROSS_DIR);
	if (target)
		ops_note(r, mnode_of(target)->is_dir ? EV_RENAME_OVER_EMPTY_DIR : EV_RENAME_OVER_FILE);
	if (target)
		model_remove(&r->m, target);
	model_move(q.src, q.newdir, q.newname, q.newlen);
	r->st.renames_done++;
}

/* ---- lookups and stat ---- */

/* Does another entry of dir share the bucket of name and extend it, or is it a prefix of it? */
static bool prefix_in_bucket(struct run *r, GNode *dir, const char *name, size_t len)
{
	uint32_t bucket = omfs_name_hash(name, len, r->nbuckets);

	for (GNode *c = dir->children; c; c = c->next) {
		struct mnode *mn = mnode_of(c);

		if ((is_prefix(name, len, mn->name, mn->len) || is_prefix(mn->name, mn->len, name, len)) &&
		    omfs_name_hash(mn->name, mn->len, r->nbuckets) == bucket)
			return true;
	}
	return false;
}

static void op_lookup(struct run *r)
{
	GNode *dir = pick_dir(r), *c = pick_child(r, dir), *found;
	char name[NAME_BUF], *what;
	uint64_t ino = OMFS_NIL;
	unsigned p = rnd(r, 100);
	size_t len;
	int rc;

	if (p < 15) {
		/* "1" and "13e": the other name of a pair whose one name is (made) there */
		struct name_pair pair = g_array_index(r->prefix_pairs, struct name_pair,
						      rnd(r, r->prefix_pairs->len));
		const char *a = r->crowd->pdata[pair.prefix], *b = r->crowd->pdata[pair.longer];
		bool short_first = chance(r, 50);
		const char *there = short_first ? a : b, *query = short_first ? b : a;

		if (!model_child(dir, there, strlen(there)) && !model_child(dir, query, strlen(query)))
			add_checked(r, dir, there, strlen(there), false);
		if (r->failed)
			return;
		len = strlen(query);
		memcpy(name, query, len + 1);
	} else if (c && p < 40) {
		len = copy_name(c, name);
	} else if (c && p < 60 && mnode_of(c)->len < OMFS_NAME_MAX) {
		/* a name one byte longer or shorter: must not match by prefix */
		len = copy_name(c, name);
		if (len > 1 && chance(r, 50))
			name[--len] = '\0';
		else
			name[len++] = random_char(r);
	} else {
		len = random_name(r, name);
	}
	found = model_child(dir, name, len);
	what = show_entry(dir, name, len);
	run_op(r, "lookup %s", what);
	g_free(what);
	rc = omfs_lookup(r->fs, ino_of(dir), name, len, &ino);
	if (!found)
		ops_note(r, EV_LOOKUP_MISSING);
	if (prefix_in_bucket(r, dir, name, len))
		ops_note(r, EV_PREFIX_IN_BUCKET);
	if (run_check_rc(r, rc, found ? 0 : -ENOENT) && found && ino != ino_of(found))
		run_fail(r, "lookup found inode %llu, the model has %llu", (unsigned long long)ino,
			 (unsigned long long)ino_of(found));
}

static void op_stat(struct run *r)
{
	GNode *n = pick_node(r);
	char *what;

	if (!n)
		return;
	what = show_path(n);
	run_op(r, "stat %s", what);
	g_free(what);
	if (mnode_of(n)->is_dir) {
		struct omfs_stat st;
		int rc = omfs_stat(r->fs, ino_of(n), &st);

		if (run_check_rc(r, rc, 0) && (!st.is_dir || st.parent != ino_of(n->parent)))
			run_fail(r, "stat of a directory: is_dir %d, parent %llu", st.is_dir,
				 (unsigned long long)st.parent);
	} else {
		verify_file(r, n);
	}
}

static void op_bad_name(struct run *r)
{
	static char long_name[OMFS_NAME_MAX + 2];
	static const struct {
		const char *name;
		size_t len;
		int wants[2];
		size_t nwant;
	} cases[] = {
		{ "", 0, { -EINVAL, -ENOENT }, 2 },
		{ ".", 1, { -EINVAL, -EEXIST }, 2 },
		{ "..", 2, { -EINVAL, -EEXIST }, 2 },
		{ "a/b", 3, { -EINVAL }, 1 },
		{ "a\0b", 3, { -EINVAL }, 1 },
		{ long_name, OMFS_NAME_MAX + 1, { -ENAMETOOLONG }, 1 },
	};
	unsigned i = rnd(r, ARRAY_LEN(cases));
	GNode *dir = pick_dir(r), *src = pick_node(r);
	uint64_t ino;
	int rc;

	memset(long_name, 'e', OMFS_NAME_MAX + 1);

	if (src && chance(r, 30)) {
		run_op(r, "rename inode %llu to bad name #%u", (unsigned long long)ino_of(src), i);
		rc = omfs_rename(r->fs, ino_of(src->parent), mnode_of(src)->name, mnode_of(src)->len,
				 ino_of(dir), cases[i].name, cases[i].len);
	} else if (chance(r, 30) && cases[i].len > OMFS_NAME_MAX) {
		run_op(r, "lookup of a name of %zu bytes", cases[i].len);
		rc = omfs_lookup(r->fs, ino_of(dir), cases[i].name, cases[i].len, &ino);
	} else {
		run_op(r, "create bad name #%u", i);
		rc = omfs_create(r->fs, ino_of(dir), cases[i].name, cases[i].len, &ino);
	}
	run_check_rc_any(r, rc, cases[i].wants, cases[i].nwant);
}

/* ---- the mix ---- */

struct op_kind {
	void (*run)(struct run *r);
	unsigned weight;
	unsigned weight_fragment;	/* in fragmenting runs */
};

static void op_create(struct run *r)
{
	if (ops_over_target(r) && chance(r, 50))
		op_unlink(r);
	else
		op_add(r, false);
}

static void op_mkdir(struct run *r)
{
	if (ops_over_target(r) && chance(r, 50))
		op_rmdir(r);
	else
		op_add(r, true);
}

static const struct op_kind kinds[] = {
	{ op_create, 12, 12 },
	{ op_mkdir, 5, 3 },
	{ op_write, 25, 20 },
	{ op_truncate, 8, 8 },
	{ op_read, 6, 5 },
	{ op_rename, 12, 8 },
	{ op_unlink, 8, 12 },
	{ op_rmdir, 6, 4 },
	{ op_lookup, 8, 5 },
	{ op_stat, 3, 3 },
	{ op_set_ctime, 1, 1 },
	{ op_wrong_type, 1, 1 },
	{ op_bad_name, 1, 1 },
	{ op_interleave, 0, 3 },
};

void ops_run_one(struct run *r)
{
	unsigned total = 0, pick;

	for (size_t i = 0; i < ARRAY_LEN(kinds); i++)
		total += r->cfg->fragment ? kinds[i].weight_fragment : kinds[i].weight;
	pick = rnd(r, total);
	for (size_t i = 0; i < ARRAY_LEN(kinds); i++) {
		unsigned w = r->cfg->fragment ? kinds[i].weight_fragment : kinds[i].weight;

		if (pick < w) {
			kinds[i].run(r);
			return;
		}
		pick -= w;
	}
}
