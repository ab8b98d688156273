/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-volume.c - opening and closing the volume for a command, path lookup,
 * whole-file reads and the tree walk that ls -R, get -r, rm -r and manifest share.
 */
#include "kc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deeper than any real tree; a corrupt volume could otherwise exhaust the stack. */
#define KC_MAX_DEPTH 256

int kc_volume_open(struct kc_ctx *ctx, bool writable)
{
	struct omfs_mount_opts opts = { .read_only = !writable };
	char msg[OMFS_ERRMSG_MAX] = "";
	int err;

	const struct omfs_blockdev *volume;
	int status;

	status = kc_device_open(ctx, writable, &ctx->dev);
	if (status)
		return status;
	status = kc_device_volume(ctx, ctx->dev, &volume);
	if (!status) {
		err = omfs_mount(volume, &opts, &ctx->fs, msg, sizeof(msg));
		if (err < 0)
			status = kc_failf(ctx, "%s%s: cannot mount: %s (%s)", ctx->image,
					  kc_device_volume_name(ctx->dev), g_strerror(-err), msg);
	}
	if (status) {
		ctx->fs = NULL;
		kc_device_close(ctx, ctx->dev, status);
		ctx->dev = NULL;
		return status;
	}
	ctx->writable = writable;
	return KC_EXIT_OK;
}

void kc_print_counters(const struct omfs_fs *fs, const char *extra)
{
	struct omfs_counters c;
	uint64_t requests, bytes;
	double mib;

	omfs_get_counters(fs, &c);
	requests = c.read_requests + c.write_requests;
	bytes = c.read_bytes + c.write_bytes;
	mib = (double)bytes / (1 << 20);
	fprintf(stderr,
		"karmactl: stats: read_requests=%" PRIu64 " read_bytes=%" PRIu64
		" write_requests=%" PRIu64 " write_bytes=%" PRIu64 " flushes=%" PRIu64
		" cache_hits=%" PRIu64 " cache_misses=%" PRIu64 " cache_evictions=%" PRIu64
		" requests_per_mib=%.2f%s\n",
		c.read_requests, c.read_bytes, c.write_requests, c.write_bytes, c.flushes,
		c.cache_hits, c.cache_misses, c.cache_evictions, mib > 0 ? requests / mib : 0.0,
		extra ? extra : "");
}

/*
 * An explicit sync first: unmount frees the volume even when its write-back
 * fails, and with it the sentence that says why.
 */
int kc_volume_close(struct kc_ctx *ctx, int status)
{
	int err;

	if (ctx->fs) {
		if (ctx->writable) {
			err = omfs_sync(ctx->fs);
			if (err < 0)
				status = kc_fail(ctx, ctx->image, err);
		}
		if (kc_stats_wanted())
			kc_print_counters(ctx->fs, NULL);
		err = omfs_unmount(ctx->fs);
		ctx->fs = NULL;
		if (err < 0 && status == KC_EXIT_OK)
			status = kc_failf(ctx, "%s: unmount: %s", ctx->image, g_strerror(-err));
	}
	status = kc_device_close(ctx, ctx->dev, status);
	ctx->dev = NULL;
	g_aligned_free(ctx->io_buf);
	ctx->io_buf = NULL;
	return status;
}

void *kc_io_buffer(struct kc_ctx *ctx)
{
	/* Page aligned: a direct read of a block device lands in it without a bounce copy. */
	if (!ctx->io_buf)
		ctx->io_buf = g_aligned_alloc(1, KC_IO_SIZE, 4096);
	return ctx->io_buf;
}

int kc_lookup(struct kc_ctx *ctx, const char *npath, uint64_t *ino, struct omfs_stat *st)
{
	int err = omfs_resolve(ctx->fs, npath, ino);

	if (err < 0)
		return err;
	return st ? omfs_stat(ctx->fs, *ino, st) : 0;
}

int kc_lookup_parent(struct kc_ctx *ctx, const char *npath, uint64_t *dir)
{
	const char *name = kc_path_name(npath);
	char *parent = g_strndup(npath, name - npath - (name > npath));
	struct omfs_stat st;
	int status = KC_EXIT_OK;
	int err;

	err = kc_lookup(ctx, parent, dir, &st);
	if (err < 0)
		status = kc_fail(ctx, kc_path_show(parent), err);
	else if (!st.is_dir)
		status = kc_fail_errno(ctx, kc_path_show(parent), ENOTDIR);
	g_free(parent);
	return status;
}

int kc_read_file(struct kc_ctx *ctx, const char *npath, uint64_t ino, kc_sink_fn sink,
		 void *sink_ctx)
{
	void *buf = kc_io_buffer(ctx);
	uint64_t off = 0;

	for (;;) {
		int64_t n = omfs_read(ctx->fs, ino, off, buf, KC_IO_SIZE);

		if (n < 0)
			return kc_fail(ctx, kc_path_show(npath), (int)n);
		if (n == 0)
			return KC_EXIT_OK;
		if (sink(sink_ctx, buf, (size_t)n))
			return KC_EXIT_FAIL;
		off += (uint64_t)n;
	}
}

struct fd_sink {
	const struct kc_ctx *ctx;
	int fd;
	const char *name;
};

static int write_to_fd(void *sink_ctx, const void *buf, size_t len)
{
	struct fd_sink *sink = sink_ctx;
	int err = kc_write_all(sink->fd, buf, len);

	return err ? kc_fail_errno(sink->ctx, sink->name, err) : KC_EXIT_OK;
}

int kc_copy_to_fd(struct kc_ctx *ctx, const char *npath, uint64_t ino, int fd,
		  const char *fdname)
{
	struct fd_sink sink = { ctx, fd, fdname };

	return kc_read_file(ctx, npath, ino, write_to_fd, &sink);
}

static int compare_dirents(const void *a, const void *b)
{
	const struct omfs_dirent *x = a, *y = b;

	return strcmp(x->name, y->name);
}

int kc_read_dir(struct kc_ctx *ctx, const char *npath, uint64_t dir, struct omfs_dirent **ents,
		size_t *count)
{
	struct omfs_dirent *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t pos = 0;
	int ret;

	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			v = g_renew(struct omfs_dirent, v, cap);
		}
		ret = omfs_readdir(ctx->fs, dir, &pos, &v[n]);
		if (ret <= 0)
			break;
		n++;
	}
	if (ret < 0) {
		g_free(v);
		return kc_fail(ctx, kc_path_show(npath), ret);
	}
	qsort(v, n, sizeof(*v), compare_dirents);
	*ents = v;
	*count = n;
	return KC_EXIT_OK;
}

/* The directories from the start of the walk down to the current one. */
struct walk_frame {
	uint64_t dir;
	const struct walk_frame *up;
	unsigned depth;
};

static bool is_ancestor(const struct walk_frame *f, uint64_t ino)
{
	for (; f; f = f->up)
		if (f->dir == ino)
			return true;
	return false;
}

static int walk_dir(struct kc_ctx *ctx, const char *npath, const struct walk_frame *frame,
		    const struct kc_walk_ops *ops, void *wctx)
{
	struct omfs_dirent *ents;
	size_t count, i;
	int status;

	if (frame->depth > KC_MAX_DEPTH)
		return kc_failf(ctx, "%s: directories nested deeper than %d levels",
				kc_path_show(npath), KC_MAX_DEPTH);
	status = kc_read_dir(ctx, npath, frame->dir, &ents, &count);
	if (status)
		return status;
	status = ops->enter(ctx, wctx, npath, frame->dir, ents, count);
	for (i = 0; i < count && !status; i++) {
		struct walk_frame child = { ents[i].ino, frame, frame->depth + 1 };
		char *cpath;

		if (!ents[i].is_dir)
			continue;
		cpath = kc_path_child(npath, ents[i].name);
		if (is_ancestor(frame, ents[i].ino))
			status = kc_failf(ctx, "%s: directory loop: it is its own ancestor",
					  cpath);
		else
			status = walk_dir(ctx, cpath, &child, ops, wctx);
		if (!status && ops->leave)
			status = ops->leave(ctx, wctx, cpath, frame->dir, &ents[i]);
		g_free(cpath);
	}
	g_free(ents);
	return status;
}

int kc_walk(struct kc_ctx *ctx, const char *npath, uint64_t dir, const struct kc_walk_ops *ops,
	    void *wctx)
{
	struct walk_frame top = { dir, NULL, 0 };

	return walk_dir(ctx, npath, &top, ops, wctx);
}
