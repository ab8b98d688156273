/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify.c - compare the core with the model through the public API, count
 * free space on the device, judge every -ENOSPC, and run fsck on the
 * unmounted volume.
 *
 * Nothing here draws from the run's GRand: the checks may run after every
 * operation or every fifty without changing the operations themselves.
 */
#include "model.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---- one node ---- */

static bool stat_node(struct run *r, GNode *n, struct omfs_stat *st)
{
	struct mnode *mn = mnode_of(n);
	int rc = omfs_stat(r->fs, mn->ino, st);

	if (rc)
		return run_fail(r, "stat of inode %llu failed: %d", (unsigned long long)mn->ino, rc);
	if (st->ino != mn->ino)
		return run_fail(r, "stat of inode %llu says ino %llu", (unsigned long long)mn->ino,
				(unsigned long long)st->ino);
	if (st->is_dir != mn->is_dir)
		return run_fail(r, "inode %llu is a %s, the model has a %s", (unsigned long long)mn->ino,
				st->is_dir ? "directory" : "file", mn->is_dir ? "directory" : "file");
	return true;
}

bool verify_file(struct run *r, GNode *file)
{
	struct mnode *mn = mnode_of(file);
	uint64_t size = mn->data->len, need = run_blocks_for(r, size);
	struct omfs_stat st;
	uint8_t *buf;
	int64_t got;

	if (!stat_node(r, file, &st))
		return false;
	if (st.size != size)
		return run_fail(r, "file inode %llu is %llu bytes, the model has %llu",
				(unsigned long long)mn->ino, (unsigned long long)st.size,
				(unsigned long long)size);
	/* every byte readable, and no more blocks than a cluster's worth of slack */
	if (st.data_blocks < need || st.data_blocks >= need + r->cfg->clustersize)
		return run_fail(r, "file inode %llu of %llu bytes maps %llu blocks (needs %llu)",
				(unsigned long long)mn->ino, (unsigned long long)size,
				(unsigned long long)st.data_blocks, (unsigned long long)need);
	if (st.extents > st.data_blocks || (st.data_blocks && !st.extents))
		return run_fail(r, "file inode %llu: %u extents for %llu blocks",
				(unsigned long long)mn->ino, st.extents,
				(unsigned long long)st.data_blocks);
	if (st.extents > r->st.max_extents)
		r->st.max_extents = st.extents;

	/* one read of the whole file, asking for more than there is */
	buf = run_buf(r, size + r->cfg->blocksize);
	got = omfs_read(r->fs, mn->ino, 0, buf, size + r->cfg->blocksize);
	if (got != (int64_t)size)
		return run_fail(r, "reading file inode %llu (%llu bytes) returned %lld",
				(unsigned long long)mn->ino, (unsigned long long)size, (long long)got);
	if (size && memcmp(buf, mn->data->data, size)) {
		uint64_t i = 0;

		while (buf[i] == mn->data->data[i])
			i++;
		return run_fail(r, "file inode %llu differs from byte %llu (block %llu): read 0x%02x, "
				"the model has 0x%02x", (unsigned long long)mn->ino,
				(unsigned long long)i, (unsigned long long)(i / r->cfg->blocksize),
				buf[i], mn->data->data[i]);
	}
	got = omfs_read(r->fs, mn->ino, size, buf, 1);
	if (got != 0)
		return run_fail(r, "reading file inode %llu at its end returned %lld",
				(unsigned long long)mn->ino, (long long)got);
	return true;
}

static bool verify_ctime(struct run *r, GNode *n, const struct omfs_stat *st,
			 enum compare_mode mode)
{
	struct mnode *mn = mnode_of(n);

	if (st->ctime_ms == 0 || st->ctime_ms > r->clock)
		return run_fail(r, "inode %llu: ctime %llu is not a time the volume's clock gave "
				"(now %llu)", (unsigned long long)mn->ino,
				(unsigned long long)st->ctime_ms, (unsigned long long)r->clock);
	if (mode == COMPARE_RECORD_CTIME)
		mn->ctime = st->ctime_ms;
	else if (st->ctime_ms != mn->ctime)
		return run_fail(r, "inode %llu: ctime %llu before the remount, %llu after",
				(unsigned long long)mn->ino, (unsigned long long)mn->ctime,
				(unsigned long long)st->ctime_ms);
	return true;
}

/* Resolving path + suffix gives inode `want` (or the error `want_rc`). */
static bool resolve_is(struct run *r, const char *path, const char *suffix, int want_rc,
		       uint64_t want)
{
	char *full = g_strconcat(path, suffix, NULL);
	uint64_t ino = OMFS_NIL;
	int rc = omfs_resolve(r->fs, full, &ino);
	bool ok = true;

	if (rc != want_rc || (!rc && ino != want)) {
		char *p = g_strescape(full, NULL);

		ok = run_fail(r, "resolving \"%s\" gave %d, inode %llu; the model has %d, inode %llu",
			      p, rc, (unsigned long long)ino, want_rc, (unsigned long long)want);
		g_free(p);
	}
	g_free(full);
	return ok;
}

/* The path, and "." and ".." after it: directories only, ".." of the root is the root. */
static bool verify_resolve(struct run *r, GNode *n)
{
	struct mnode *mn = mnode_of(n);
	uint64_t up = n->parent ? mnode_of(n->parent)->ino : mn->ino;
	char *path = model_path(n);
	bool ok = resolve_is(r, path, "", 0, mn->ino);

	if (ok && mn->is_dir)
		ok = resolve_is(r, path, "/.", 0, mn->ino) && resolve_is(r, path, "/..", 0, up);
	else if (ok)
		ok = resolve_is(r, path, "/..", -ENOTDIR, 0);
	g_free(path);
	return ok;
}

static bool verify_node(struct run *r, GNode *n, enum compare_mode mode)
{
	struct mnode *mn = mnode_of(n);
	uint64_t want_parent = n->parent ? mnode_of(n->parent)->ino : OMFS_NIL;
	struct omfs_stat st;

	if (!stat_node(r, n, &st) || !verify_ctime(r, n, &st, mode) || !verify_resolve(r, n))
		return false;
	if (st.parent != want_parent)
		return run_fail(r, "inode %llu: parent %llu, the model has %llu",
				(unsigned long long)mn->ino, (unsigned long long)st.parent,
				(unsigned long long)want_parent);
	if (mn->is_dir && st.size != r->cfg->sys_blocksize)
		return run_fail(r, "directory inode %llu: size %llu, want the sysblock size %u",
				(unsigned long long)mn->ino, (unsigned long long)st.size,
				r->cfg->sys_blocksize);
	return mn->is_dir || verify_file(r, n);
}

/* ---- directory listings ---- */

struct listed {
	uint64_t pos_before;
	uint64_t pos_after;
	uint64_t ino;
};

static bool list_entry_ok(struct run *r, GNode *dir, const struct omfs_dirent *ent,
			  GHashTable *seen)
{
	uint64_t dino = mnode_of(dir)->ino;
	GNode *c;

	if (ent->namelen == 0 || ent->namelen > OMFS_NAME_MAX || ent->name[ent->namelen])
		return run_fail(r, "directory %llu: readdir gave a name of %zu bytes, not "
				"NUL-terminated there", (unsigned long long)dino, ent->namelen);
	c = model_child(dir, ent->name, ent->namelen);
	if (!c) {
		char *e = g_strescape(ent->name, NULL);
		bool ok = run_fail(r, "directory %llu lists \"%s\" (inode %llu), the model has no "
				   "such entry", (unsigned long long)dino, e,
				   (unsigned long long)ent->ino);

		g_free(e);
		return ok;
	}
	if (!g_hash_table_add(seen, c))
		return run_fail(r, "directory %llu lists inode %llu twice",
				(unsigned long long)dino, (unsigned long long)ent->ino);
	if (ent->ino != mnode_of(c)->ino || ent->is_dir != mnode_of(c)->is_dir)
		return run_fail(r, "directory %llu lists inode %llu (%s), the model has inode %llu (%s)",
				(unsigned long long)dino, (unsigned long long)ent->ino,
				ent->is_dir ? "dir" : "file", (unsigned long long)mnode_of(c)->ino,
				mnode_of(c)->is_dir ? "dir" : "file");
	return true;
}

/* Readdir from a saved position gives the same entry again (positions are stable). */
static bool verify_resume(struct run *r, GNode *dir, const GArray *all, guint k)
{
	const struct listed *l = &g_array_index(all, struct listed, k);
	struct omfs_dirent ent;
	uint64_t pos = l->pos_before;
	int rc = omfs_readdir(r->fs, mnode_of(dir)->ino, &pos, &ent);

	if (rc != 1 || ent.ino != l->ino || pos != l->pos_after)
		return run_fail(r, "directory %llu: readdir resumed at position 0x%llx gave %d, "
				"inode %llu, next 0x%llx; the first pass gave inode %llu, next 0x%llx",
				(unsigned long long)mnode_of(dir)->ino,
				(unsigned long long)l->pos_before, rc, (unsigned long long)ent.ino,
				(unsigned long long)pos, (unsigned long long)l->ino,
				(unsigned long long)l->pos_after);
	return true;
}

static void note_bucket_chain(struct run *r, const GArray *all)
{
	unsigned chain = 0;
	uint64_t bucket = 0;

	for (guint i = 0; i < all->len; i++) {
		/* the position after an entry holds its bucket + 1 */
		uint64_t b = g_array_index(all, struct listed, i).pos_after >> 20;

		chain = (i && b == bucket) ? chain + 1 : 1;
		bucket = b;
		if (chain > r->st.max_bucket_chain)
			r->st.max_bucket_chain = chain;
	}
}

static bool verify_listing(struct run *r, GNode *dir)
{
	guint want = g_node_n_children(dir);
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	GArray *all = g_array_new(FALSE, TRUE, sizeof(struct listed));
	uint64_t pos = 0;
	bool ok = true;

	while (ok) {
		struct listed l = { .pos_before = pos };
		struct omfs_dirent ent;
		int rc = omfs_readdir(r->fs, mnode_of(dir)->ino, &pos, &ent);

		if (rc == 0)
			break;
		if (rc != 1) {
			ok = run_fail(r, "readdir of directory %llu at 0x%llx failed: %d",
				      (unsigned long long)mnode_of(dir)->ino,
				      (unsigned long long)l.pos_before, rc);
			break;
		}
		ok = list_entry_ok(r, dir, &ent, seen);
		l.pos_after = pos;
		l.ino = ent.ino;
		g_array_append_val(all, l);
		if (ok && all->len > want)
			ok = run_fail(r, "directory %llu lists more than its %u entries",
				      (unsigned long long)mnode_of(dir)->ino, want);
	}
	if (ok && all->len != want)
		ok = run_fail(r, "directory %llu lists %u entries, the model has %u",
			      (unsigned long long)mnode_of(dir)->ino, all->len, want);
	/* resume at the middle entry and at the last one */
	if (ok && all->len)
		ok = verify_resume(r, dir, all, all->len / 2) &&
		     verify_resume(r, dir, all, all->len - 1);
	if (ok)
		note_bucket_chain(r, all);
	g_array_unref(all);
	g_hash_table_unref(seen);
	return ok;
}

static bool verify_subtree(struct run *r, GNode *n, enum compare_mode mode)
{
	if (!verify_node(r, n, mode))
		return false;
	if (!mnode_of(n)->is_dir)
		return true;
	if (!verify_listing(r, n))
		return false;
	for (GNode *c = n->children; c; c = c->next)
		if (!verify_subtree(r, c, mode))
			return false;
	return true;
}

bool verify_tree(struct run *r, enum compare_mode mode)
{
	return verify_subtree(r, r->m.root, mode);
}

/* ---- free space ---- */

static bool bit_used(const uint8_t *map, uint64_t block)
{
	return map[block >> 3] & (1u << (block & 7));
}

/* The on-disk bitmap after a sync: free blocks, and those in runs of >= mirrors. */
struct free_space {
	uint64_t free;
	uint64_t in_sysblock_runs;
	uint64_t sysblock_runs;
};

static void read_free_space(struct run *r, struct free_space *fsp)
{
	struct omfs_info info;
	uint64_t off, run_len = 0;
	const uint8_t *map;

	omfs_get_info(r->fs, &info);
	memset(fsp, 0, sizeof(*fsp));
	off = info.r_bitmap * info.s_blocksize;
	g_assert_cmpuint(off + (info.s_num_blocks + 7) / 8, <=, r->dev->size);
	map = r->dev->data + off;
	for (uint64_t b = 0; b <= info.s_num_blocks; b++) {
		if (b < info.s_num_blocks && !bit_used(map, b)) {
			fsp->free++;
			run_len++;
			continue;
		}
		if (run_len >= r->cfg->mirrors) {
			fsp->in_sysblock_runs += run_len;
			fsp->sysblock_runs += run_len / r->cfg->mirrors;
		}
		run_len = 0;
	}
}

/*
 * Every block is either free or owned: the metadata area up to the end of
 * the bitmap, s_mirrors blocks per inode, the data blocks, and s_mirrors
 * blocks per continuation table. The core packs tables full, so a file with
 * n extents has exactly run_tables_for(n) of them; one more is a leak.
 */
bool verify_accounting(struct run *r)
{
	struct omfs_statfs sfs;
	struct omfs_info info;
	struct free_space fsp;
	uint64_t owned, nodes = r->m.files->len + r->m.dirs->len - 1;
	int rc = omfs_statfs(r->fs, &sfs);

	if (rc)
		return run_fail(r, "statfs failed: %d", rc);
	omfs_get_info(r->fs, &info);
	if (sfs.num_blocks != info.s_num_blocks || sfs.blocksize != r->cfg->blocksize ||
	    sfs.sys_blocksize != r->cfg->sys_blocksize || sfs.mirrors != r->cfg->mirrors ||
	    sfs.clustersize != r->cfg->clustersize)
		return run_fail(r, "statfs geometry %llu blocks %u/%u/%u/%u differs from the volume's",
				(unsigned long long)sfs.num_blocks, sfs.blocksize, sfs.sys_blocksize,
				sfs.mirrors, sfs.clustersize);
	owned = info.r_bitmap + info.bitmap_blocks + nodes * r->cfg->mirrors;
	for (guint i = 0; i < r->m.files->len; i++) {
		struct omfs_stat st;

		rc = omfs_stat(r->fs, mnode_of(r->m.files->pdata[i])->ino, &st);
		if (rc)
			return run_fail(r, "stat failed: %d", rc);
		owned += st.data_blocks + run_tables_for(r, st.extents) * r->cfg->mirrors;
	}
	read_free_space(r, &fsp);
	if (sfs.free_blocks != fsp.free || fsp.free + owned != sfs.num_blocks)
		return run_fail(r, "free space: statfs says %llu free, the bitmap on disk %llu, the "
				"model's files own all but %llu of the %llu blocks",
				(unsigned long long)sfs.free_blocks, (unsigned long long)fsp.free,
				(unsigned long long)(sfs.num_blocks - owned),
				(unsigned long long)sfs.num_blocks);
	return true;
}

/* ---- free space before an allocating operation, and -ENOSPC after it ---- */

bool verify_note_before(struct run *r, GNode *file, struct space_before *b)
{
	struct omfs_statfs sfs;
	struct omfs_stat st = { 0 };
	int rc = omfs_statfs(r->fs, &sfs);

	if (rc)
		return run_fail(r, "statfs failed: %d", rc);
	if (file) {
		rc = omfs_stat(r->fs, mnode_of(file)->ino, &st);
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
static bool free_space_after_enospc(struct run *r, const struct space_before *b,
				    struct free_space *fsp)
{
	int rc = omfs_sync(r->fs);

	r->st.enospc++;
	if (rc)
		return run_fail(r, "sync after ENOSPC failed: %d", rc);
	read_free_space(r, fsp);
	if (fsp->free != b->free)
		return run_fail(r, "ENOSPC: %llu blocks were free before, %llu are after a sync",
				(unsigned long long)b->free, (unsigned long long)fsp->free);
	return true;
}

bool verify_enospc_inode(struct run *r, const struct space_before *b)
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
bool verify_enospc_grow(struct run *r, GNode *file, const struct space_before *b,
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

/* ---- fsck ---- */

struct fsck_log {
	unsigned count[OMFS_FSCK_FIXED + 1];
	GString *text;
};

static const char *const severity_name[] = {
	[OMFS_FSCK_INFO] = "INFO", [OMFS_FSCK_LEAK] = "LEAK",
	[OMFS_FSCK_ERROR] = "ERROR", [OMFS_FSCK_FIXED] = "FIXED",
};

static void fsck_report(void *ctx, enum omfs_fsck_severity sev, const char *msg)
{
	struct fsck_log *log = ctx;

	if ((unsigned)sev > OMFS_FSCK_FIXED)
		sev = OMFS_FSCK_ERROR;
	log->count[sev]++;
	if (sev != OMFS_FSCK_INFO && log->text->len < 4000) {
		char *e = g_strescape(msg, NULL);

		g_string_append_printf(log->text, " [%s: %s]", severity_name[sev], e);
		g_free(e);
	}
}

bool verify_fsck(struct run *r)
{
	struct fsck_log log = { .text = g_string_new(NULL) };
	struct omfs_fsck_opts opts = { .repair = false, .report = fsck_report, .report_ctx = &log };
	struct omfs_fsck_result res = { 0 };
	uint64_t writes = r->dev->writes;
	int rc = omfs_fsck(&r->dev->bdev, &opts, &res);
	bool ok = true;

	if (rc != OMFS_FSCK_CLEAN || log.count[OMFS_FSCK_ERROR] || log.count[OMFS_FSCK_LEAK] ||
	    log.count[OMFS_FSCK_FIXED] || res.errors || res.fixed || res.leaked_blocks)
		ok = run_fail(r, "fsck exit code %d, %u errors, %llu leaked blocks:%s", rc,
			      res.errors, (unsigned long long)res.leaked_blocks, log.text->str);
	else if (res.files != r->m.files->len || res.dirs != r->m.dirs->len)
		ok = run_fail(r, "fsck counted %llu files and %llu directories, the model has %u "
			      "and %u (the root included)", (unsigned long long)res.files,
			      (unsigned long long)res.dirs, r->m.files->len, r->m.dirs->len);
	else if (r->dev->writes != writes)
		ok = run_fail(r, "fsck without --repair wrote to the device");
	g_string_free(log.text, TRUE);
	return ok;
}
