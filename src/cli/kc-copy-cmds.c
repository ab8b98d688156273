/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-copy-cmds.c - get and put: copies between the volume and the host, with
 * cp -r's rules for where the copy lands.
 */
#include "kc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dot_name(const char *name)
{
	return !*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
}

/* ---- get ---- */

static gboolean get_recursive;

static const GOptionEntry get_options[] = {
	{ "recursive", 'r', 0, G_OPTION_ARG_NONE, &get_recursive,
	  "Copy directories and their contents", NULL },
	{ NULL }
};

/* Where a volume path under the copied tree lands on the host. */
struct get_tree {
	size_t vol_root_len;
	const char *host_root;
};

static int get_file(struct kc_ctx *ctx, const char *npath, uint64_t ino, const char *host)
{
	int fd = open(host, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	int status;

	if (fd < 0)
		return kc_fail_errno(ctx, host, errno);
	status = kc_copy_to_fd(ctx, npath, ino, fd, host);
	if (close(fd) < 0 && !status)
		status = kc_fail_errno(ctx, host, errno);
	return status;
}

/* An existing directory is fine: the copy merges into it, as with cp -r. */
static int make_host_dir(struct kc_ctx *ctx, const char *host)
{
	struct stat st;
	int err;

	if (mkdir(host, 0777) == 0)
		return KC_EXIT_OK;
	err = errno;
	if (err == EEXIST && stat(host, &st) == 0 && S_ISDIR(st.st_mode))
		return KC_EXIT_OK;
	return kc_fail_errno(ctx, host, err == EEXIST ? ENOTDIR : err);
}

/* A hostile volume may hold names that would climb out of the destination. */
static bool is_safe_host_name(const struct omfs_dirent *ent)
{
	return !is_dot_name(ent->name) && !strchr(ent->name, '/') &&
	       strlen(ent->name) == ent->namelen;
}

static int get_entries(struct kc_ctx *ctx, void *wctx, const char *npath, uint64_t dir,
		       const struct omfs_dirent *ents, size_t count)
{
	const struct get_tree *tree = wctx;
	int status = KC_EXIT_OK;
	size_t i;

	for (i = 0; i < count && !status; i++) {
		char *cpath, *host;

		if (!is_safe_host_name(&ents[i])) {
			status = kc_failf(ctx, "%s: entry at block %llu has a name that is unsafe on the host; not copied",
					  kc_path_show(npath), (unsigned long long)ents[i].ino);
			break;
		}
		cpath = kc_path_child(npath, ents[i].name);
		host = g_strconcat(tree->host_root, cpath + tree->vol_root_len, NULL);
		if (ents[i].is_dir)
			status = make_host_dir(ctx, host);
		else
			status = get_file(ctx, cpath, ents[i].ino, host);
		g_free(host);
		g_free(cpath);
	}
	return status;
}

static int get_tree(struct kc_ctx *ctx, const char *npath, uint64_t ino, const char *host)
{
	const struct kc_walk_ops ops = { .enter = get_entries };
	struct get_tree tree = { strlen(npath), host };
	int status = make_host_dir(ctx, host);

	return status ? status : kc_walk(ctx, npath, ino, &ops, &tree);
}

/* cp's rule: an existing directory DEST receives the copy inside it. */
static char *get_destination(const char *npath, const char *dest)
{
	const char *name = kc_path_name(npath);
	struct stat st;

	if (stat(dest, &st) == 0 && S_ISDIR(st.st_mode) && *name)
		return g_build_filename(dest, name, NULL);
	return g_strdup(dest);
}

static int get_run(struct kc_ctx *ctx)
{
	char *npath = kc_path_normalize(ctx->argv[0]);
	char *host = NULL;
	struct omfs_stat st;
	uint64_t ino;
	int status, err;

	err = kc_lookup(ctx, npath, &ino, &st);
	if (err < 0) {
		status = kc_fail(ctx, kc_path_show(npath), err);
		goto out;
	}
	if (st.is_dir && !get_recursive) {
		status = kc_failf(ctx, "%s: %s (use -r)", kc_path_show(npath), g_strerror(EISDIR));
		goto out;
	}
	host = get_destination(npath, ctx->argv[1]);
	if (st.is_dir)
		status = get_tree(ctx, npath, ino, host);
	else
		status = get_file(ctx, npath, ino, host);
out:
	g_free(host);
	g_free(npath);
	return status;
}

const struct kc_command kc_cmd_get = {
	.name = "get", .args = "[-r] PATH DEST", .summary = "Copy from the volume to the host",
	.options = get_options, .min_args = 2, .max_args = 2, .access = KC_READ_ONLY,
	.run = get_run,
};

/* ---- put ---- */

static gboolean put_recursive;

static const GOptionEntry put_options[] = {
	{ "recursive", 'r', 0, G_OPTION_ARG_NONE, &put_recursive,
	  "Copy directories and their contents", NULL },
	{ NULL }
};

struct put_state {
	bool skipped;	/* something in a tree was neither a file nor a directory */
};

static int write_to_volume(struct kc_ctx *ctx, const char *npath, uint64_t ino, uint64_t off,
			   const char *buf, size_t len)
{
	while (len) {
		int64_t n = omfs_write(ctx->fs, ino, off, buf, len);

		if (n < 0)
			return kc_fail(ctx, npath, (int)n);
		if (n == 0)
			return kc_fail_errno(ctx, npath, EIO);
		off += (uint64_t)n;
		buf += n;
		len -= (size_t)n;
	}
	return KC_EXIT_OK;
}

/* Sequential, in the core's largest request size, so that extents stay long. */
static int put_file_data(struct kc_ctx *ctx, int fd, const char *src, const char *npath,
			 uint64_t ino)
{
	char *buf = kc_io_buffer(ctx);
	uint64_t off = 0;

	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	for (;;) {
		ssize_t n = kc_read_full(fd, buf, KC_IO_SIZE);
		int status;

		if (n < 0)
			return kc_fail_errno(ctx, src, (int)-n);
		if (n == 0)
			return KC_EXIT_OK;
		status = write_to_volume(ctx, npath, ino, off, buf, (size_t)n);
		if (status || (size_t)n < KC_IO_SIZE)
			return status;
		off += (uint64_t)n;
	}
}

/*
 * New contents that cannot fit even in the old file's blocks and the free ones
 * are refused before the old file is touched: a copy cut short by a full
 * volume is removed, and the old contents would be lost with it. A lower
 * bound (data blocks only), so that nothing that fits is refused.
 */
static int check_room(struct kc_ctx *ctx, const char *npath, int fd, const struct omfs_stat *old)
{
	struct omfs_statfs sfs;
	struct stat src;
	uint64_t need;

	if (fstat(fd, &src) || !S_ISREG(src.st_mode) || omfs_statfs(ctx->fs, &sfs) ||
	    !sfs.blocksize)
		return KC_EXIT_OK;	/* size unknown: the copy itself tells */
	need = ((uint64_t)src.st_size + sfs.blocksize - 1) / sfs.blocksize;
	if (need <= sfs.free_blocks + old->data_blocks)
		return KC_EXIT_OK;
	return kc_failf(ctx, "%s: %s (the new contents need %llu blocks, %llu are free with "
			"the old file's); the file is left as it was", npath, g_strerror(ENOSPC),
			(unsigned long long)need,
			(unsigned long long)(sfs.free_blocks + old->data_blocks));
}

/*
 * An existing file is emptied, then synced: the core keeps freed blocks in use
 * until the next write-back, and the new contents may need that space.
 */
static int empty_existing_file(struct kc_ctx *ctx, const char *npath, uint64_t ino, int fd)
{
	struct omfs_stat st;
	int err = omfs_stat(ctx->fs, ino, &st);

	if (!err && st.is_dir)
		return kc_fail_errno(ctx, npath, EISDIR);
	/* (a new file, or an empty one, has nothing to lose) */
	if (!err && st.data_blocks && check_room(ctx, npath, fd, &st))
		return KC_EXIT_FAIL;
	if (!err && st.size)
		err = omfs_truncate(ctx->fs, ino, 0);
	if (!err && st.data_blocks)
		err = omfs_sync(ctx->fs);
	return err < 0 ? kc_fail(ctx, npath, err) : KC_EXIT_OK;
}

static int put_file(struct kc_ctx *ctx, const char *src, uint64_t dir, const char *npath)
{
	const char *name = kc_path_name(npath);
	uint64_t ino;
	int status, err;
	/* the source opens first: an unreadable one must not leave an empty file behind */
	int fd = open(src, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return kc_fail_errno(ctx, src, errno);
	err = omfs_lookup(ctx->fs, dir, name, strlen(name), &ino);
	if (err == -ENOENT)
		err = omfs_create(ctx->fs, dir, name, strlen(name), &ino);
	if (err < 0)
		status = kc_fail(ctx, npath, err);
	else
		status = empty_existing_file(ctx, npath, ino, fd);
	if (!status) {
		status = put_file_data(ctx, fd, src, npath, ino);
		/* A copy cut short (a full volume, a read error) is not left half there. */
		if (status)
			omfs_unlink(ctx->fs, dir, name, strlen(name));
	}
	close(fd);
	return status;
}

/* The directory npath in dir, made when missing. */
static int ensure_dir(struct kc_ctx *ctx, uint64_t dir, const char *npath, uint64_t *ino)
{
	const char *name = kc_path_name(npath);
	struct omfs_stat st;
	int err;

	err = omfs_lookup(ctx->fs, dir, name, strlen(name), ino);
	if (err == -ENOENT)
		err = omfs_mkdir(ctx->fs, dir, name, strlen(name), ino);
	else if (!err && !(err = omfs_stat(ctx->fs, *ino, &st)) && !st.is_dir)
		return kc_fail_errno(ctx, npath, ENOTDIR);
	return err < 0 ? kc_fail(ctx, npath, err) : KC_EXIT_OK;
}

static int put_entry(struct kc_ctx *ctx, struct put_state *ps, const char *src, uint64_t dir,
		     const char *npath, bool top);

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in a host directory, sorted so that the volume's layout is reproducible. */
static int list_host_dir(struct kc_ctx *ctx, const char *src, GPtrArray **out)
{
	GPtrArray *names = NULL;
	DIR *d = opendir(src);
	struct dirent *de;
	int err;

	if (!d)
		return kc_fail_errno(ctx, src, errno);
	names = g_ptr_array_new_with_free_func(g_free);
	errno = 0;
	while ((de = readdir(d)))
		if (!is_dot_name(de->d_name))
			g_ptr_array_add(names, g_strdup(de->d_name));
	err = errno;
	closedir(d);
	if (err) {
		g_ptr_array_unref(names);
		return kc_fail_errno(ctx, src, err);
	}
	g_ptr_array_sort(names, compare_names);
	*out = names;
	return KC_EXIT_OK;
}

static int put_dir_contents(struct kc_ctx *ctx, struct put_state *ps, const char *src,
			    uint64_t dir, const char *npath)
{
	GPtrArray *names = NULL;
	int status = list_host_dir(ctx, src, &names);
	guint i;

	if (status)
		return status;
	for (i = 0; !status && i < names->len; i++) {
		const char *name = names->pdata[i];
		char *csrc = g_build_filename(src, name, NULL);
		char *cpath = kc_path_child(npath, name);

		status = put_entry(ctx, ps, csrc, dir, cpath, false);
		g_free(cpath);
		g_free(csrc);
	}
	g_ptr_array_unref(names);
	return status;
}

/*
 * Inside a tree, symbolic links to files are followed; links to directories
 * (possible loops) and special files are skipped with a message, as OMFS
 * holds neither.
 */
static int put_entry(struct kc_ctx *ctx, struct put_state *ps, const char *src, uint64_t dir,
		     const char *npath, bool top)
{
	struct stat st;
	uint64_t ino;
	int status;

	if ((top ? stat(src, &st) : lstat(src, &st)) < 0)
		return kc_fail_errno(ctx, src, errno);
	if (S_ISLNK(st.st_mode)) {
		struct stat target;

		if (stat(src, &target) == 0 && S_ISREG(target.st_mode))
			st = target;
	}
	if (S_ISREG(st.st_mode))
		return put_file(ctx, src, dir, npath);
	if (!S_ISDIR(st.st_mode)) {
		ps->skipped = true;
		kc_failf(ctx, "%s: skipped: not a regular file or directory", src);
		return KC_EXIT_OK;
	}
	if (!put_recursive)
		return kc_failf(ctx, "%s: %s (use -r)", src, g_strerror(EISDIR));
	status = ensure_dir(ctx, dir, npath, &ino);
	return status ? status : put_dir_contents(ctx, ps, src, ino, npath);
}

/*
 * cp -r's rules: an existing directory PATH receives SRC inside it (or SRC's
 * contents, for SRC "." or "/"); otherwise PATH becomes the copy.
 */
static int put_target(struct kc_ctx *ctx, const char *src, const char *npath, char **target)
{
	char *name = kc_host_basename(src);
	struct omfs_stat st;
	uint64_t ino;
	int err;

	err = kc_lookup(ctx, npath, &ino, &st);
	if (err < 0 && err != -ENOENT) {
		g_free(name);
		return kc_fail(ctx, kc_path_show(npath), err);
	}
	if (!err && st.is_dir && !is_dot_name(name))
		*target = kc_path_child(npath, name);
	else
		*target = g_strdup(npath);
	g_free(name);
	return KC_EXIT_OK;
}

static int put_run(struct kc_ctx *ctx)
{
	const char *src = ctx->argv[0];
	char *npath = kc_path_normalize(ctx->argv[1]);
	struct put_state ps = { false };
	char *target = NULL;
	uint64_t dir;
	int status;

	status = put_target(ctx, src, npath, &target);
	if (status)
		goto out;
	if (!*target) {
		/* the root itself: only a directory's contents can merge into it */
		status = put_recursive ? put_dir_contents(ctx, &ps, src, omfs_root_ino(ctx->fs), "")
				       : kc_failf(ctx, "%s: %s (use -r)", src, g_strerror(EISDIR));
		goto out;
	}
	status = kc_lookup_parent(ctx, target, &dir);
	if (!status)
		status = put_entry(ctx, &ps, src, dir, target, true);
out:
	g_free(target);
	g_free(npath);
	return status ? status : ps.skipped ? KC_EXIT_FAIL : KC_EXIT_OK;
}

const struct kc_command kc_cmd_put = {
	.name = "put", .args = "[-r] SRC PATH", .summary = "Copy from the host to the volume",
	.options = put_options, .min_args = 2, .max_args = 2, .access = KC_WRITABLE,
	.run = put_run,
};
