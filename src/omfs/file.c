/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file.c - reading, writing and truncating files, and releasing an inode's
 * blocks when it is removed.
 *
 * File data goes around the block cache: each physically contiguous piece of
 * a request is one device request (at most max_request bytes), straight from
 * or into the caller's buffer. i_size, ctime and the extent tables go through
 * cached sysblocks, and are changed only after the data they describe is on
 * the device, so a power cut never exposes unwritten blocks inside a file.
 *
 * Bytes past i_size are never trusted: blocks the kernel preallocated there,
 * and blocks we allocate, may hold old data. Whenever a file grows, every
 * byte between the old end of valid data and the new size is written, with
 * the caller's data or with zeros. So we never leave the kernel's holes (an
 * i_size past the mapped blocks, which reads EIO) and repair any we find on
 * the way.
 */
#include "omfs-private.h"

#include <stdlib.h>

/* Zeros for gap filling are written from a buffer of at most this many bytes. */
#define ZERO_CHUNK (1u << 20)

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t blocks_for(const struct omfs_fs *fs, uint64_t bytes)
{
	return bytes / fs->blocksize + (bytes % fs->blocksize != 0);
}

static uint64_t inode_size(const struct omfs_buf *b)
{
	return omfs_be64(b->data + OMFS_I_SIZE);
}

static void set_size_and_ctime(struct omfs_fs *fs, struct omfs_buf *b, uint64_t size)
{
	omfs_put_be64(b->data + OMFS_I_SIZE, size);
	omfs_put_be64(b->data + OMFS_I_CTIME, omfs_now_ms(fs));
	omfs_bdirty(fs, b);
}

/* ---- mapping logical bytes to device pieces ---- */

/* A position in an extent list; it only moves forward, so a walk costs O(extents). */
struct cursor {
	const struct omfs_extents *ex;
	size_t i;		/* the extent holding the position */
	uint64_t first;		/* logical block where extent i starts */
};

static bool cursor_seek(struct cursor *c, uint64_t lblk)
{
	while (c->i < c->ex->n && lblk >= c->first + c->ex->v[c->i].count) {
		c->first += c->ex->v[c->i].count;
		c->i++;
	}
	return c->i < c->ex->n;
}

/*
 * The physically contiguous piece that starts at logical byte pos, at most
 * `limit` bytes long. Following extents that continue on disk (a run split
 * at a table boundary) join the piece. False when pos is not mapped.
 * omfs_dev_read/omfs_dev_write split a piece into max_request-sized requests.
 */
static bool map_piece(const struct omfs_fs *fs, struct cursor *c, uint64_t pos, uint64_t limit,
		      uint64_t *dev_off, uint64_t *len)
{
	const struct omfs_extent *v = c->ex->v;
	uint64_t bs = fs->blocksize, lblk = pos / bs, in_block = pos % bs;
	uint64_t phys, end;

	if (!cursor_seek(c, lblk))
		return false;
	phys = v[c->i].start + (lblk - c->first);
	end = v[c->i].start + v[c->i].count;
	for (size_t j = c->i + 1; j < c->ex->n && v[j].start == end; j++) {
		if ((end - phys) * bs - in_block >= limit)
			break;
		end += v[j].count;
	}
	*dev_off = phys * bs + in_block;
	*len = min_u64((end - phys) * bs - in_block, limit);
	return true;
}

/* One device request for a piece: into dst when reading, from src when writing. */
static int move_piece(struct omfs_fs *fs, uint64_t ino, uint64_t dev_off, uint64_t n, void *dst,
		      const void *src)
{
	int err;

	if (dst)
		err = omfs_dev_read(fs, dev_off, dst, n);
	else
		err = omfs_dev_write(fs, dev_off, src, n);
	if (err)
		return omfs_error(fs, -err, "inode %llu: %s %llu bytes at block %llu: %s",
				  (unsigned long long)ino, dst ? "reading" : "writing",
				  (unsigned long long)n,
				  (unsigned long long)(dev_off / fs->blocksize), strerror(-err));
	return 0;
}

/*
 * Move file bytes [pos, pos + len) between the device and memory: into dst
 * when reading, from src when writing (exactly one is set).
 */
static int move_data(struct omfs_fs *fs, uint64_t ino, struct cursor *c, uint64_t pos,
		     uint64_t len, uint8_t *dst, const uint8_t *src)
{
	uint64_t done = 0, dev_off, n;
	int err;

	while (done < len) {
		if (!map_piece(fs, c, pos + done, len - done, &dev_off, &n))
			return omfs_error(fs, EIO,
					  "inode %llu: byte %llu is past the file's %llu blocks",
					  (unsigned long long)ino, (unsigned long long)(pos + done),
					  (unsigned long long)c->ex->total);
		err = move_piece(fs, ino, dev_off, n, dst ? dst + done : NULL,
				 src ? src + done : NULL);
		if (err)
			return err;
		done += n;
	}
	return 0;
}

static int write_zeros(struct omfs_fs *fs, uint64_t ino, struct cursor *c, uint64_t from,
		       uint64_t to)
{
	uint64_t chunk = min_u64(to - from, ZERO_CHUNK);
	uint8_t *zeros;
	int err = 0;

	if (from >= to)
		return 0;
	zeros = calloc(1, chunk);
	if (!zeros)
		return omfs_error(fs, ENOMEM, "inode %llu: no memory to zero-fill",
				  (unsigned long long)ino);
	for (uint64_t pos = from; pos < to && !err; pos += chunk)
		err = move_data(fs, ino, c, pos, min_u64(chunk, to - pos), NULL, zeros);
	free(zeros);
	return err;
}

/* ---- changing the mapping ---- */

/* What trim_extents cut off; the entries stay readable in ex->v past ex->n. */
struct trim {
	size_t n;		/* extents before the trim */
	uint64_t total;		/* blocks before the trim */
	size_t cut;		/* first extent not kept whole (n if none) */
	uint64_t cut_count;	/* its length before the trim */
};

/* Keep the first `keep` logical blocks of ex (list surgery only, nothing freed). */
static void trim_extents(struct omfs_extents *ex, uint64_t keep, struct trim *t)
{
	uint64_t first = 0;
	size_t i = 0;

	t->n = ex->n;
	t->total = ex->total;
	while (i < ex->n && first + ex->v[i].count <= keep)
		first += ex->v[i++].count;
	t->cut = i;
	t->cut_count = i < ex->n ? ex->v[i].count : 0;
	if (i < ex->n && keep > first) {
		ex->v[i].count = keep - first;
		i++;
	}
	ex->n = i;
	ex->total = min_u64(keep, ex->total);
}

static void untrim_extents(struct omfs_extents *ex, const struct trim *t)
{
	if (t->cut < t->n)
		ex->v[t->cut].count = t->cut_count;
	ex->n = t->n;
	ex->total = t->total;
}

/* Free the blocks a trim cut off, once no table points to them any more. */
static int free_trimmed(struct omfs_fs *fs, const struct omfs_extents *ex, const struct trim *t)
{
	const struct omfs_extent *v = ex->v;
	uint64_t kept;
	int err = 0;

	if (t->cut >= t->n)
		return 0;
	kept = t->cut < ex->n ? v[t->cut].count : 0;
	if (t->cut_count > kept)
		err = omfs_free_run(fs, v[t->cut].start + kept, t->cut_count - kept);
	for (size_t j = t->cut + 1; j < t->n && !err; j++)
		err = omfs_free_run(fs, v[j].start, v[j].count);
	return err;
}

/* Cut the mapping to `keep` blocks: tables first, then the freed blocks. */
static int shrink_mapping(struct omfs_fs *fs, struct omfs_buf *b, struct omfs_extents *ex,
			  uint64_t keep)
{
	struct trim t;
	int err;

	trim_extents(ex, keep, &t);
	err = omfs_extents_store(fs, b, ex);
	if (err) {
		untrim_extents(ex, &t);
		return err;
	}
	return free_trimmed(fs, ex, &t);
}

/* Allocate `want` more blocks at the end of the mapping, extending the last extent if it can. */
static int alloc_blocks(struct omfs_fs *fs, struct omfs_extents *ex, uint64_t want)
{
	uint64_t goal = ex->n ? ex->v[ex->n - 1].start + ex->v[ex->n - 1].count : 0;
	struct omfs_run run;
	int err;

	while (want) {
		/* ask for everything at once: the allocator then finds the longest runs */
		err = omfs_alloc_data(fs, goal, want, &run);
		if (err)
			return err;
		err = omfs_extents_append(ex, run.start, run.count);
		if (err) {
			omfs_free_run(fs, run.start, run.count);
			return err;
		}
		want -= min_u64(run.count, want);
		goal = run.start + run.count;
	}
	return 0;
}

/*
 * Map blocks up to `need` and store the tables. On failure (a full volume,
 * most likely) the file's mapping is put back as it was and every block this
 * call took is given back; should even that fail, the blocks leak (fsck
 * reclaims them) rather than be freed while a table may point to them.
 */
static int grow_mapping(struct omfs_fs *fs, struct omfs_buf *b, struct omfs_extents *ex,
			uint64_t need)
{
	uint64_t had = ex->total;
	int err;

	err = alloc_blocks(fs, ex, need - had);
	if (!err)
		err = omfs_extents_store(fs, b, ex);
	if (!err)
		return 0;
	/* storing the old list also puts back any table a failed store changed */
	shrink_mapping(fs, b, ex, had);
	return omfs_error(fs, -err,
			  "inode %llu: cannot map %llu more blocks (%s); the file is unchanged",
			  (unsigned long long)b->block, (unsigned long long)(need - had),
			  err == -ENOSPC ? "the volume is full" : strerror(-err));
}

/* ---- the common write path (write, truncate-grow) ---- */

struct write_req {
	uint64_t off;
	const void *buf;
	uint64_t len;
	uint64_t new_size;	/* >= off + len */
};

/*
 * Write buf at off and make the file new_size bytes long. Every byte from the
 * end of the valid data (i_size, or the mapped end if a kernel hole follows
 * it) up to new_size is written: data where the caller gave some, zeros
 * elsewhere.
 */
static int write_range(struct omfs_fs *fs, struct omfs_buf *b, struct omfs_extents *ex,
		       const struct write_req *w)
{
	uint64_t valid_end = min_u64(inode_size(b), ex->total * fs->blocksize);
	uint64_t end = w->off + w->len, had = ex->total;
	struct cursor c = { .ex = ex };
	int err = 0;

	if (blocks_for(fs, w->new_size) > had) {
		err = grow_mapping(fs, b, ex, blocks_for(fs, w->new_size));
		if (err)
			return err;
	}
	if (w->off > valid_end)
		err = write_zeros(fs, b->block, &c, valid_end, w->off);
	if (!err)
		err = move_data(fs, b->block, &c, w->off, w->len, NULL, w->buf);
	if (!err)
		err = write_zeros(fs, b->block, &c, end > valid_end ? end : valid_end, w->new_size);
	if (err) {
		/* a device error: give back the blocks this call mapped, as above */
		if (ex->total > had)
			shrink_mapping(fs, b, ex, had);
		return err;
	}
	if (w->new_size != inode_size(b) || w->len)
		set_size_and_ctime(fs, b, w->new_size);
	return 0;
}

/* ---- the public calls ---- */

/* Read the inode of a regular file and its extents. */
static int open_file(struct omfs_fs *fs, uint64_t ino, struct omfs_buf **bp,
		     struct omfs_extents *ex)
{
	struct omfs_buf *b;
	int err;

	err = omfs_iget(fs, ino, &b);
	if (err)
		return err;
	if (omfs_inode_is_dir(b))
		err = omfs_error(fs, EISDIR, "inode %llu is a directory", (unsigned long long)ino);
	else
		err = omfs_extents_load(fs, b, ex);
	if (err) {
		omfs_brelse(fs, b);
		return err;
	}
	*bp = b;
	return 0;
}

static void close_file(struct omfs_fs *fs, struct omfs_buf *b, struct omfs_extents *ex)
{
	omfs_extents_free(ex);
	omfs_brelse(fs, b);
}

static int check_writable(struct omfs_fs *fs, uint64_t end_hi, uint64_t end_lo)
{
	int err = omfs_check_writable(fs);

	if (err)
		return err;
	if (end_hi > OMFS_MAX_FILE_SIZE || end_lo > OMFS_MAX_FILE_SIZE - end_hi)
		return omfs_error(fs, EFBIG, "a file cannot grow past %llu bytes",
				  (unsigned long long)OMFS_MAX_FILE_SIZE);
	return 0;
}

int64_t omfs_read(struct omfs_fs *fs, uint64_t ino, uint64_t off, void *buf, size_t len)
{
	struct omfs_extents ex = { 0 };
	struct cursor c = { .ex = &ex };
	struct omfs_buf *b;
	uint64_t size, mapped;
	int err;

	err = open_file(fs, ino, &b, &ex);
	if (err)
		return err;
	size = inode_size(b);
	mapped = ex.total * fs->blocksize;
	if (off >= size || len == 0) {
		len = 0;
	} else if (off >= mapped) {
		err = omfs_error(fs, EIO,
				 "inode %llu: byte %llu is inside the file's %llu bytes but past "
				 "its %llu mapped blocks (a hole left by a kernel truncate)",
				 (unsigned long long)ino, (unsigned long long)off,
				 (unsigned long long)size, (unsigned long long)ex.total);
	} else {
		/* a read that runs into such a hole is short; the next one reports it */
		len = min_u64(len, min_u64(size, mapped) - off);
		err = move_data(fs, ino, &c, off, len, buf, NULL);
	}
	close_file(fs, b, &ex);
	return err ? err : (int64_t)len;
}

int64_t omfs_write(struct omfs_fs *fs, uint64_t ino, uint64_t off, const void *buf, size_t len)
{
	struct omfs_extents ex = { 0 };
	struct write_req w = { .off = off, .buf = buf, .len = len };
	struct omfs_buf *b;
	int err;

	err = check_writable(fs, off, len);
	if (err)
		return err;
	err = open_file(fs, ino, &b, &ex);
	if (err)
		return err;
	if (len) {
		w.new_size = off + len > inode_size(b) ? off + len : inode_size(b);
		err = write_range(fs, b, &ex, &w);
	}
	close_file(fs, b, &ex);
	return err ? err : (int64_t)len;
}

int omfs_truncate(struct omfs_fs *fs, uint64_t ino, uint64_t size)
{
	struct omfs_extents ex = { 0 };
	struct write_req w = { .off = size, .new_size = size };
	struct omfs_buf *b;
	uint64_t old, valid_end;
	int err;

	err = check_writable(fs, size, 0);
	if (err)
		return err;
	err = open_file(fs, ino, &b, &ex);
	if (err)
		return err;
	old = inode_size(b);
	valid_end = min_u64(old, ex.total * fs->blocksize);
	if (size > valid_end) {
		err = write_range(fs, b, &ex, &w);
	} else {
		/* also drops blocks the kernel preallocated past the end */
		if (ex.total > blocks_for(fs, size))
			err = shrink_mapping(fs, b, &ex, blocks_for(fs, size));
		if (!err && size != old)
			set_size_and_ctime(fs, b, size);
	}
	close_file(fs, b, &ex);
	return err;
}

/* ---- removal ---- */

/* Free a file's data and continuation blocks. */
static int release_file_blocks(struct omfs_fs *fs, struct omfs_buf *b)
{
	struct omfs_extents ex = { 0 };
	int err;

	err = omfs_extents_load(fs, b, &ex);
	for (size_t i = 0; i < ex.n && !err; i++)
		err = omfs_free_run(fs, ex.v[i].start, ex.v[i].count);
	for (size_t i = 0; i < ex.ntables && !err; i++) {
		omfs_bforget(fs, ex.tables[i]);
		err = omfs_free_run(fs, ex.tables[i], fs->mirrors);
	}
	omfs_extents_free(&ex);
	return err;
}

/*
 * The caller has already unlinked the inode. A file whose extent tables are
 * corrupt frees nothing (its blocks leak until fsck reclaims them): freeing
 * runs we cannot trust could hand out blocks another file still uses.
 */
int omfs_inode_release(struct omfs_fs *fs, uint64_t ino)
{
	struct omfs_buf *b;
	int err = omfs_check_writable(fs);

	if (!err)
		err = omfs_iget(fs, ino, &b);
	if (err)
		return err;
	if (!omfs_inode_is_dir(b))
		err = release_file_blocks(fs, b);
	omfs_brelse(fs, b);
	if (err)
		return err;
	omfs_bforget(fs, ino);
	return omfs_free_run(fs, ino, fs->mirrors);
}
