/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ops.c - random operations, each run on the core and on the model, with the
 * return code the model expects checked at once.
 *
 * Names come from a small alphabet so that buckets are shared and names are
 * prefixes of one another ("1" and "13e" hash to the same bucket with 201
 * buckets, as do "10" and "31"; "a" and "A" always do, the hash folds case).
 *
 * -ENOSPC is never expected in advance: where an operation may allocate, the
 * free space before it is noted, and when the core does say -ENOSPC the test
 * checks that nothing changed and that the volume really had no room.
 */
#include "model.h"

#include <errno.h>
#include <string.h>

#define NAME_BUF (OMFS_NAME_MAX + 2)
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- random helpers ---- */

static uint32_t rnd(struct run *r, uint32_t n)
{
	return n ? (uint32_t)g_rand_int_range(r->rand, 0, (gint32)n) : 0;
}

static bool chance(struct run *r, unsigned percent)
{
	return rnd(r, 100) < percent;
}

/* Uniform in [lo, hi]. */
static uint64_t rnd_between(struct run *r, uint64_t lo, uint64_t hi)
{
	uint64_t v = (uint64_t)g_rand_int(r->rand) << 32 | g_rand_int(r->rand);

	return lo + v % (hi - lo + 1);
}

static void fill_random(struct run *r, uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i += 4) {
		guint32 v = g_rand_int(r->rand);

		memcpy(p + i, &v, len - i < 4 ? len - i : 4);
	}
}

/* Often a block boundary (or one byte either side of it), else anything up to max. */
static uint64_t rnd_offset(struct run *r, uint64_t max)
{
	uint64_t bs = r->cfg->blocksize, v = rnd_between(r, 0, max);

	if (chance(r, 30)) {
		v = v / bs * bs;
		if (chance(r, 50))
			v = v + rnd(r, 3) - (v ? 1 : 0);
	}
	return v > max ? max : v;
}

/* ---- names ---- */

static const char alphabet[] = "013e57aA";

static const char *const latin1_names[] = {
	"\xc9", "\xe9", "caf\xe9", "CAF\xc9", "\xe9t\xe9", "\xd7", "\xf7",
};

static size_t random_name(struct run *r, char *buf)
{
	size_t len;

	if (chance(r, 4)) {
		const char *n = latin1_names[rnd(r, ARRAY_LEN(latin1_names))];

		len = strlen(n);
		memcpy(buf, n, len);
		buf[len] = '\0';
		return len;
	}
	if (chance(r, 3))
		len = chance(r, 30) ? OMFS_NAME_MAX : rnd_between(r, 200, OMFS_NAME_MAX);
	else
		len = 1 + rnd(r, 3);
	for (size_t i = 0; i < len; i++)
		buf[i] = alphabet[rnd(r, sizeof(alphabet) - 1)];
	buf[len] = '\0';
	return len;
}

/* A random name that `dir` does not hold. */
static size_t missing_name(struct run *r, GNode *dir, char *buf)
{
	size_t len;

	do
		len = random_name(r, buf);
	while (model_child(dir, buf, len));
	return len;
}

static size_t copy_name(GNode *n, char *buf)
{
	struct mnode *mn = mnode_of(n);

	memcpy(buf, mn->name, mn->len);
	buf[mn->len] = '\0';
	return mn->len;
}

/* ---- picking nodes ---- */

static GNode *pick_dir(struct run *r)
{
	return r->m.dirs->pdata[rnd(r, r->m.dirs->len)];
}

static GNode *pick_file(struct run *r)
{
	return r->m.files->len ? r->m.files->pdata[rnd(r, r->m.files->len)] : NULL;
}

/* Any node but the root. */
static GNode *pick_node(struct run *r)
{
	guint nf = r->m.files->len, nd = r->m.dirs->len - 1;
	guint i = rnd(r, nf + nd);

	if (nf + nd == 0)
		return NULL;
	return i < nf ? r->m.files->pdata[i] : r->m.dirs->pdata[1 + (i - nf)];
}

static GNode *pick_child(struct run *r, GNode *dir)
{
	guint n = g_node_n_children(dir);

	return n ? g_node_nth_child(dir, rnd(r, n)) : NULL;
}

/* A directory other than the root that is (or is not) empty, or NULL. */
static GNode *pick_dir_where(struct run *r, bool empty)
{
	GPtrArray *c = g_ptr_array_new();
	GNode *n = NULL;

	for (guint i = 1; i < r->m.dirs->len; i++)
		if (model_dir_is_empty(r->m.dirs->pdata[i]) == empty)
			g_ptr_array_add(c, r->m.dirs->pdata[i]);
	if (c->len)
		n = c->pdata[rnd(r, c->len)];
	g_ptr_array_unref(c);
	return n;
}

/* A directory inside `top` (or top itself). */
static GNode *pick_dir_below(struct run *r, GNode *top)
{
	GPtrArray *c = g_ptr_array_new();
	GNode *n;

	for (guint i = 0; i < r->m.dirs->len; i++) {
		GNode *d = r->m.dirs->pdata[i];

		if (d == top || g_node_is_ancestor(top, d))
			g_ptr_array_add(c, d);
	}
	n = c->pdata[rnd(r, c->len)];
	g_ptr_array_unref(c);
	return n;
}

static uint64_t ino_of(GNode *n)
{
	return mnode_of(n)->ino;
}

static char *show_path(GNode *n)
{
	char *raw = model_path(n), *p = g_strescape(raw, NULL);

	g_free(raw);
	return p;
}

static char *show_name(const char *name, size_t len)
{
	char *raw = g_strndup(name, len), *p = g_strescape(raw, NULL);

	g_free(raw);
	return p;
}

/* "<dir path>/<name>", for messages. */
static char *show_entry(GNode *dir, const char *name, size_t len)
{
	char *d = show_path(dir), *n = show_name(name, len);
	char *s = g_strdup_printf("%s%s%s", d, dir->parent ? "/" : "", n);

	g_free(d);
	g_free(n);
	return s;
}

/* ---- free space before an allocating operation, and -ENOSPC after it ---- */

struct before {
	uint64_t free;		/* statfs: free blocks, pending frees included */
	uint64_t data_blocks;
	uint32_t extents;
};

static bool note_before(struct run *r, GNode *file, struct before *b)
{
	struct omfs_statfs sfs;
	struct omfs_stat st = { 0 };
	int rc = omfs_statfs(r->fs, &sfs);

	if (rc)
		return run_fail(r, "statfs failed: %d", rc);
	if (file) {
		rc = omfs_stat(r->fs, ino_of(file), &st);
		if (rc)
			return run_fail(r, "stat failed: %d", rc);
	}
	b->free = sfs.free_blocks;
	b->data_blocks = st.data_blocks;
	b->extents = st.extents;
	return true;
}

/*
 * After -ENOSPC the volume must hold exactly the free blocks it had before
 * (whatever the failed operation took, it gave back), and really lack room.
 */
static bool free_space_after_enospc(struct run *r, const struct before *b, struct free_space *fsp)
{
	int rc = omfs_sync(r->fs);

	r->st.enospc++;
	if (rc)
		return run_fail(r, "sync after ENOSPC failed: %d", rc);
	verify_read_free_space(r, fsp);
	if (fsp->free != b->free)
		return run_fail(r, "ENOSPC: %llu blocks were free before, %llu are after a sync",
				(unsigned long long)b->free, (unsigned long long)fsp->free);
	return true;
}

static bool check_enospc_sysblock(struct run *r, const struct before *b)
{
	struct free_space fsp;

	if (!free_space_after_enospc(r, b, &fsp))
		return false;
	if (fsp.sysblock_runs)
		return run_fail(r, "ENOSPC for a new inode, yet %llu runs of %u free blocks exist",
				(unsigned long long)fsp.sysblock_runs, r->cfg->mirrors);
	return true;
}

/*
 * A file growing to `new_size` needs `k` more data blocks and, at worst
 * (every new block its own extent), the continuation tables for that many
 * extents; each table needs s_mirrors free blocks in a row.
 */
static bool check_enospc_grow(struct run *r, GNode *file, const struct before *b,
			      uint64_t new_size)
{
	uint64_t need_blocks = run_blocks_for(r, new_size);
	uint64_t k = need_blocks > b->data_blocks ? need_blocks - b->data_blocks : 0;
	uint64_t tables = run_tables_for(r, b->extents + k) - run_tables_for(r, b->extents);
	uint64_t need = k + tables * r->cfg->mirrors;
	struct free_space fsp;

	if (k == 0)
		return run_fail(r, "ENOSPC, but the file already maps the %llu blocks it needs",
				(unsigned long long)need_blocks);
	if (!verify_file(r, file) || !free_space_after_enospc(r, b, &fsp))
		return false;
	if (fsp.free < k || (tables && fsp.in_sysblock_runs < need))
		return true;
	return run_fail(r, "ENOSPC, yet %llu blocks are free (%llu in runs of %u) for %llu new "
			"data blocks and at most %llu new tables", (unsigned long long)fsp.free,
			(unsigned long long)fsp.in_sysblock_runs, r->cfg->mirrors,
			(unsigned long long)k, (unsigned long long)tables);
}

/* ---- create, mkdir ---- */

static void op_add(struct run *r, bool is_dir)
{
	GNode *dir = pick_dir(r), *old;
	char name[NAME_BUF], *what;
	uint64_t ino = OMFS_NIL;
	struct before b;
	size_t len;
	int rc;

	if (dir->children && chance(r, 15))
		len = copy_name(pick_child(r, dir), name);
	else
		len = random_name(r, name);
	old = model_child(dir, name, len);
	what = show_entry(dir, name, len);
	run_op(r, "%s %s", is_dir ? "mkdir" : "create", what);
	g_free(what);
	if (!note_before(r, NULL, &b))
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
			check_enospc_sysblock(r, &b);
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

/* ---- write, truncate, read ---- */

static size_t rnd_write_len(struct run *r)
{
	uint64_t bs = r->cfg->blocksize;
	uint64_t big = MIN(64 * bs, r->cfg->dev_size / 8);
	unsigned p = rnd(r, 100);

	if (p < 35)
		return 1 + rnd(r, 300);
	if (p < 55)
		return (1 + rnd(r, 4)) * bs + rnd(r, 3) - 1;
	if (p < 85)
		return 1 + rnd_between(r, 0, 8 * bs - 1);
	if (p < 97)
		return rnd_between(r, 8 * bs, big);
	return 0;
}

static uint64_t rnd_write_offset(struct run *r, uint64_t size)
{
	uint64_t bs = r->cfg->blocksize;
	unsigned p = rnd(r, 100);

	if (p < 30)
		return size;
	if (p < 55)
		return rnd_offset(r, size);
	if (p < 75)
		return size + 1 + rnd_offset(r, 3 * bs);	/* a gap that must read as zeros */
	if (p < 85)
		return 0;
	return rnd_offset(r, size + 4 * bs);
}

/* Write and check one piece; false when the run failed. */
static bool write_checked(struct run *r, GNode *file, uint64_t off, size_t len)
{
	uint64_t size = mnode_of(file)->data->len;
	uint64_t new_size = MAX(size, off + len);
	uint8_t *buf = g_malloc(len ? len : 1);
	struct before b;
	int64_t rc;
	bool ok = true;

	fill_random(r, buf, len);
	if (!note_before(r, file, &b)) {
		g_free(buf);
		return false;
	}
	rc = omfs_write(r->fs, ino_of(file), off, buf, len);
	if (rc == -ENOSPC && len) {
		ok = check_enospc_grow(r, file, &b, new_size);
	} else if (run_check_rc(r, rc, (int64_t)len)) {
		model_write(&r->m, file, off, buf, len);
		r->st.bytes_written += len;
	} else {
		ok = false;
	}
	g_free(buf);
	return ok;
}

/* Past the fill target, writes give way to shrinking. */
static bool over_target(struct run *r)
{
	return r->m.file_bytes > r->cfg->dev_size / 100 * r->cfg->fill_percent;
}

static void op_truncate_to(struct run *r, GNode *file, uint64_t size);

static void op_write(struct run *r)
{
	GNode *file = pick_file(r);
	uint64_t off;
	size_t len;
	char *what;

	if (!file) {
		op_add(r, false);
		return;
	}
	if (over_target(r) && chance(r, 60)) {
		op_truncate_to(r, file, rnd_offset(r, mnode_of(file)->data->len));
		return;
	}
	off = rnd_write_offset(r, mnode_of(file)->data->len);
	len = rnd_write_len(r);
	what = show_path(file);
	run_op(r, "write %s off %llu len %zu (size %u)", what, (unsigned long long)off, len,
	       mnode_of(file)->data->len);
	g_free(what);
	write_checked(r, file, off, len);
}

static void op_truncate_to(struct run *r, GNode *file, uint64_t size)
{
	uint64_t old = mnode_of(file)->data->len;
	char *what = show_path(file);
	struct before b;
	int rc;

	run_op(r, "truncate %s from %llu to %llu", what, (unsigned long long)old,
	       (unsigned long long)size);
	g_free(what);
	if (!note_before(r, file, &b))
		return;
	rc = omfs_truncate(r->fs, ino_of(file), size);
	if (rc == -ENOSPC && size > old)
		check_enospc_grow(r, file, &b, size);
	else if (run_check_rc(r, rc, 0))
		model_resize(&r->m, file, size);
}

static void op_truncate(struct run *r)
{
	GNode *file = pick_file(r);
	uint64_t size, bs = r->cfg->blocksize;
	unsigned p = rnd(r, 100);

	if (!file) {
		op_add(r, false);
		return;
	}
	size = mnode_of(file)->data->len;
	if (p < 20)
		size = 0;
	else if (p < 55 || over_target(r))
		size = rnd_offset(r, size);
	else if (p >= 65)
		size += 1 + rnd_offset(r, 4 * bs);	/* else: the same size */
	op_truncate_to(r, file, size);
}

static void op_read(struct run *r)
{
	GNode *file = pick_file(r);
	uint64_t size, off, want;
	size_t len;
	uint8_t *buf;
	char *what;
	int64_t rc;

	if (!file)
		return;
	size = mnode_of(file)->data->len;
	off = rnd_offset(r, size + r->cfg->blocksize);
	len = chance(r, 50) ? 1 + rnd(r, 4 * r->cfg->blocksize) : rnd_write_len(r);
	want = off < size ? MIN(len, size - off) : 0;
	what = show_path(file);
	run_op(r, "read %s off %llu len %zu (size %llu)", what, (unsigned long long)off, len,
	       (unsigned long long)size);
	g_free(what);
	buf = run_buf(r, len);
	rc = omfs_read(r->fs, ino_of(file), off, buf, len);
	if (run_check_rc(r, rc, (int64_t)want) && want &&
	    memcmp(buf, mnode_of(file)->data->data + off, want))
		run_fail(r, "the bytes read differ from the model's");
}

/* Interleaved appends to a few files, with small files made in between, scatter them. */
static void op_interleave(struct run *r)
{
	unsigned nfiles = 2 + rnd(r, 4), rounds = 20 + rnd(r, 100);
	uint32_t bs = r->cfg->blocksize;
	unsigned enospc = r->st.enospc;
	GNode *files[8];

	for (unsigned i = 0; i < nfiles; i++) {
		files[i] = pick_file(r);
		if (!files[i]) {
			op_add(r, false);
			return;
		}
	}
	run_op(r, "interleave %u files, %u rounds", nfiles, rounds);
	for (unsigned round = 0; round < rounds && !r->failed && !over_target(r); round++) {
		for (unsigned i = 0; i < nfiles && !r->failed; i++) {
			GNode *f = files[i];
			uint64_t size = mnode_of(f)->data->len;
			size_t len = chance(r, 80) ? bs : 1 + rnd(r, bs);

			if (i && files[i] == files[i - 1])
				continue;
			run_op(r, "interleave round %u: append %zu bytes to inode %llu (size %llu)",
			       round, len, (unsigned long long)ino_of(f), (unsigned long long)size);
			/* a full volume ends the round robin */
			if (!write_checked(r, f, size, len) || r->st.enospc != enospc)
				return;
		}
		if (chance(r, 30))
			op_add(r, false);
	}
}

/* ---- unlink, rmdir ---- */

static void op_unlink(struct run *r)
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
	if (run_check_rc(r, rc, want) && want == 0)
		model_remove(&r->m, victim);
}

static void op_rmdir(struct run *r)
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
	if (run_check_rc(r, rc, want) && want == 0)
		model_remove(&r->m, victim);
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

	if (p < 10) {			/* onto itself: nothing happens */
		q->newdir = q->src->parent;
		q->newlen = copy_name(q->src, q->newname);
		return;
	}
	if (p < 25 && src_dir) {	/* into its own subtree */
		q->newdir = pick_dir_below(r, q->src);
	} else if (p < 40) {		/* over a file, or over an empty directory */
		t = src_dir ? pick_dir_where(r, true) : pick_file(r);
	} else if (p < 55) {		/* over whatever the target directory holds */
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

static void op_rename(struct run *r)
{
	struct rename_req q = { 0 };
	char *from, *to;
	int wants[4], rc;
	size_t nwant;
	GNode *target;

	q.src = chance(r, 8) ? NULL : pick_node(r);
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
		run_check_rc_any(r, rc, wants, nwant);
		return;
	}
	if (!run_check_rc(r, rc, 0) || target == q.src)
		return;
	if (target)
		model_remove(&r->m, target);
	model_move(q.src, q.newdir, q.newname, q.newlen);
	r->st.renames_done++;
}

/* ---- lookups and stat ---- */

static void op_lookup(struct run *r)
{
	GNode *dir = pick_dir(r), *c = pick_child(r, dir), *found;
	char name[NAME_BUF], *what;
	uint64_t ino = OMFS_NIL;
	unsigned p = rnd(r, 100);
	size_t len;
	int rc;

	if (c && p < 40) {
		len = copy_name(c, name);
	} else if (c && p < 60 && mnode_of(c)->len < OMFS_NAME_MAX) {
		/* a name one byte longer or shorter: must not match by prefix */
		len = copy_name(c, name);
		if (len > 1 && chance(r, 50))
			name[--len] = '\0';
		else
			name[len++] = alphabet[rnd(r, sizeof(alphabet) - 1)];
	} else {
		len = random_name(r, name);
	}
	found = model_child(dir, name, len);
	what = show_entry(dir, name, len);
	run_op(r, "lookup %s", what);
	g_free(what);
	rc = omfs_lookup(r->fs, ino_of(dir), name, len, &ino);
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

/* ---- calls that must fail: wrong inode types and bad names ---- */

static void op_wrong_type(struct run *r)
{
	GNode *dir = pick_dir(r), *file = pick_file(r);
	uint64_t ino = OMFS_NIL;
	uint8_t byte = 0;
	int64_t rc;

	switch (rnd(r, 5)) {
	case 0:
		run_op(r, "write to directory inode %llu", (unsigned long long)ino_of(dir));
		rc = omfs_write(r->fs, ino_of(dir), 0, &byte, 1);
		run_check_rc(r, rc, -EISDIR);
		break;
	case 1:
		run_op(r, "read directory inode %llu", (unsigned long long)ino_of(dir));
		rc = omfs_read(r->fs, ino_of(dir), 0, &byte, 1);
		run_check_rc(r, rc, -EISDIR);
		break;
	case 2:
		run_op(r, "truncate directory inode %llu", (unsigned long long)ino_of(dir));
		rc = omfs_truncate(r->fs, ino_of(dir), 0);
		run_check_rc(r, rc, -EISDIR);
		break;
	case 3:
		if (!file)
			break;
		run_op(r, "create in file inode %llu", (unsigned long long)ino_of(file));
		rc = omfs_create(r->fs, ino_of(file), "x", 1, &ino);
		run_check_rc(r, rc, -ENOTDIR);
		break;
	default:
		if (!file)
			break;
		run_op(r, "lookup in file inode %llu", (unsigned long long)ino_of(file));
		rc = omfs_lookup(r->fs, ino_of(file), "x", 1, &ino);
		run_check_rc(r, rc, -ENOTDIR);
		break;
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
	op_add(r, false);
}

static void op_mkdir(struct run *r)
{
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
