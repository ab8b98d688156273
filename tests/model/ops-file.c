/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ops-file.c - operations on file contents: write, truncate, read, the
 * interleaved appends that scatter files into many extents, set_ctime, and
 * calls on the wrong type of inode.
 *
 * -ENOSPC is never expected in advance: the free space before a write is
 * noted, and when the core does say -ENOSPC, verify.c checks that nothing
 * changed and that the volume really had no room.
 */
#include "ops.h"

#include <errno.h>
#include <string.h>

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
	struct space_before b;
	int64_t rc;
	bool ok = true;

	fill_random(r, buf, len);
	if (!verify_note_before(r, file, &b)) {
		g_free(buf);
		return false;
	}
	rc = omfs_write(r->fs, ino_of(file), off, buf, len);
	if (rc == -ENOSPC && len) {
		ok = verify_enospc_grow(r, file, &b, new_size);
	} else if (run_check_rc(r, rc, (int64_t)len)) {
		model_write(&r->m, file, off, buf, len);
		r->st.bytes_written += len;
		if (off > size && len)
			ops_note(r, EV_GAP_WRITE);
		if (len > 8ull * r->cfg->blocksize)
			ops_note(r, EV_BIG_WRITE);
	} else {
		ok = false;
	}
	g_free(buf);
	return ok;
}

/* Past the fill target (data blocks and inodes), writes give way to shrinking. */
bool ops_over_target(struct run *r)
{
	uint64_t bs = r->cfg->blocksize;
	uint64_t used = (uint64_t)(r->m.files->len + r->m.dirs->len) * r->cfg->mirrors * bs;

	for (guint i = 0; i < r->m.files->len; i++)
		used += run_blocks_for(r, mnode_of(r->m.files->pdata[i])->data->len) * bs;
	return used > r->cfg->dev_size / 100 * r->cfg->fill_percent;
}

static void op_truncate_to(struct run *r, GNode *file, uint64_t size)
{
	uint64_t old = mnode_of(file)->data->len;
	char *what = show_path(file);
	struct space_before b;
	int rc;

	run_op(r, "truncate %s from %llu to %llu", what, (unsigned long long)old,
	       (unsigned long long)size);
	g_free(what);
	if (!verify_note_before(r, file, &b))
		return;
	rc = omfs_truncate(r->fs, ino_of(file), size);
	if (rc == -ENOSPC && size > old) {
		verify_enospc_grow(r, file, &b, size);
	} else if (run_check_rc(r, rc, 0)) {
		model_resize(&r->m, file, size);
		if (size != old)
			ops_note(r, size < old ? EV_SHRINK : EV_GROW);
	}
}

void op_write(struct run *r)
{
	GNode *file = pick_file(r);
	uint64_t off;
	size_t len;
	char *what;

	if (!file) {
		op_add(r, false);
		return;
	}
	if (ops_over_target(r) && chance(r, 60)) {
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

void op_truncate(struct run *r)
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
	else if (p < 55 || ops_over_target(r))
		size = rnd_offset(r, size);
	else if (p >= 65)
		size += 1 + rnd_offset(r, 4 * bs);	/* else: the same size */
	op_truncate_to(r, file, size);
}

void op_read(struct run *r)
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
void op_interleave(struct run *r)
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
	for (unsigned round = 0; round < rounds && !r->failed && !ops_over_target(r); round++) {
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

/* A ctime set by hand reads back, and (checked at the next remount) persists. */
void op_set_ctime(struct run *r)
{
	GNode *n = chance(r, 10) ? r->m.root : pick_node(r);
	uint64_t when = rnd_between(r, 1, r->clock);
	struct omfs_stat st;
	int rc;

	if (!n)
		return;
	run_op(r, "set ctime of inode %llu to %llu", (unsigned long long)ino_of(n),
	       (unsigned long long)when);
	rc = omfs_set_ctime(r->fs, ino_of(n), when);
	if (!run_check_rc(r, rc, 0))
		return;
	rc = omfs_stat(r->fs, ino_of(n), &st);
	if (run_check_rc(r, rc, 0) && st.ctime_ms != when)
		run_fail(r, "ctime reads %llu after setting it", (unsigned long long)st.ctime_ms);
}

/* ---- calls that must fail: wrong inode types and bad names ---- */

void op_wrong_type(struct run *r)
{
	GNode *dir = pick_dir(r), *file = pick_file(r);
	uint64_t ino = 0;
	uint8_t byte = 0;
	int64_t rc;

	switch (rnd(r, 6)) {
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
	case 4:
		if (!file)
			break;
		run_op(r, "readdir of file inode %llu", (unsigned long long)ino_of(file));
		rc = omfs_readdir(r->fs, ino_of(file), &ino, &(struct omfs_dirent){ 0 });
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
