/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kc-fs-cmds.c - ls, cat, mkdir, rm, mv, truncate. */
#include "kc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- ls ---- */

static gboolean ls_long;
static gboolean ls_recursive;

static const GOptionEntry ls_options[] = {
	{ "long", 'l', 0, G_OPTION_ARG_NONE, &ls_long,
	  "Show type (d or -), size, change time and inode", NULL },
	{ "recursive", 'R', 0, G_OPTION_ARG_NONE, &ls_recursive,
	  "List subdirectories too", NULL },
	{ NULL }
};

static void format_ms(uint64_t ms, char *out, size_t len)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	/* a corrupt ctime may be beyond what the calendar functions take */
	if (ms / 1000 > (uint64_t)INT32_MAX * 128 || !localtime_r(&t, &tm) ||
	    !strftime(out, len, "%Y-%m-%d %H:%M", &tm))
		g_strlcpy(out, "(invalid time)  ", len);
}

static int ls_print(struct kc_ctx *ctx, const char *npath, const char *name, uint64_t ino,
		    bool is_dir)
{
	struct omfs_stat st;
	char when[32];
	int err;

	if (!ls_long) {
		printf("%s%s\n", name, is_dir ? "/" : "");
		return KC_EXIT_OK;
	}
	err = omfs_stat(ctx->fs, ino, &st);
	if (err < 0)
		return kc_fail(ctx, kc_path_show(npath), err);
	format_ms(st.ctime_ms, when, sizeof(when));
	printf("%c %12" PRIu64 " %s %8" PRIu64 " %s\n", st.is_dir ? 'd' : '-', st.size, when,
	       st.ino, name);
	return KC_EXIT_OK;
}

struct ls_state {
	bool headers;	/* -R: a "PATH:" line above each directory */
	bool first;
};

static int ls_directory(struct kc_ctx *ctx, void *wctx, const char *npath, uint64_t dir,
			const struct omfs_dirent *ents, size_t count)
{
	struct ls_state *ls = wctx;
	int status = KC_EXIT_OK;
	size_t i;

	if (ls->headers)
		printf("%s%s:\n", ls->first ? "" : "\n", kc_path_show(npath));
	ls->first = false;
	for (i = 0; i < count && !status; i++) {
		char *cpath = kc_path_child(npath, ents[i].name);

		status = ls_print(ctx, cpath, ents[i].name, ents[i].ino, ents[i].is_dir);
		g_free(cpath);
	}
	return status;
}

static int ls_run(struct kc_ctx *ctx)
{
	char *npath = kc_path_normalize(ctx->argc ? ctx->argv[0] : "/");
	const struct kc_walk_ops ops = { .enter = ls_directory };
	struct ls_state ls = { .headers = ls_recursive, .first = true };
	struct omfs_dirent *ents;
	struct omfs_stat st;
	uint64_t ino;
	size_t count;
	int status, err;

	err = kc_lookup(ctx, npath, &ino, &st);
	if (err < 0)
		status = kc_fail(ctx, kc_path_show(npath), err);
	else if (!st.is_dir)
		status = ls_print(ctx, npath, kc_path_show(npath), ino, false);
	else if (ls_recursive)
		status = kc_walk(ctx, npath, ino, &ops, &ls);
	else if (!(status = kc_read_dir(ctx, npath, ino, &ents, &count))) {
		status = ls_directory(ctx, &ls, npath, ino, ents, count);
		g_free(ents);
	}
	g_free(npath);
	return status;
}

const struct kc_command kc_cmd_ls = {
	.name = "ls", .args = "[-l] [-R] [PATH]", .summary = "List a directory",
	.options = ls_options, .min_args = 0, .max_args = 1, .access = KC_READ_ONLY,
	.run = ls_run,
};

/* ---- cat ---- */

/* A file's inode, or an error printed: the path is missing or a directory. */
static int lookup_file(struct kc_ctx *ctx, const char *npath, uint64_t *ino)
{
	struct omfs_stat st;
	int err = kc_lookup(ctx, npath, ino, &st);

	if (err < 0)
		return kc_fail(ctx, kc_path_show(npath), err);
	if (st.is_dir)
		return kc_fail_errno(ctx, kc_path_show(npath), EISDIR);
	return KC_EXIT_OK;
}

static int cat_run(struct kc_ctx *ctx)
{
	char *npath = kc_path_normalize(ctx->argv[0]);
	uint64_t ino;
	int status;

	status = lookup_file(ctx, npath, &ino);
	if (!status)
		status = kc_copy_to_fd(ctx, npath, ino, STDOUT_FILENO, "standard output");
	g_free(npath);
	return status;
}

const struct kc_command kc_cmd_cat = {
	.name = "cat", .args = "PATH", .summary = "Write a file to standard output",
	.min_args = 1, .max_args = 1, .access = KC_READ_ONLY, .run = cat_run,
};

/* ---- mkdir ---- */

static gboolean mkdir_parents;

static const GOptionEntry mkdir_options[] = {
	{ "parents", 'p', 0, G_OPTION_ARG_NONE, &mkdir_parents,
	  "Make missing parents too; no error if the directory exists", NULL },
	{ NULL }
};

/* mkdir -p: walk down the path, making what is missing. */
static int mkdir_with_parents(struct kc_ctx *ctx, const char *npath)
{
	uint64_t dir = omfs_root_ino(ctx->fs);
	const char *p = npath;

	while (*p) {
		const char *name = p + 1;
		const char *end = strchrnul(name, '/');
		struct omfs_stat st;
		uint64_t ino;
		int err;

		err = omfs_lookup(ctx->fs, dir, name, end - name, &ino);
		if (err == -ENOENT) {
			err = omfs_mkdir(ctx->fs, dir, name, end - name, &ino);
			st.is_dir = true;
		} else if (!err) {
			err = omfs_stat(ctx->fs, ino, &st);
		}
		if (err < 0 || !st.is_dir) {
			char *sofar = g_strndup(npath, end - npath);
			int status = err < 0 ? kc_fail(ctx, sofar, err) :
					       kc_fail_errno(ctx, sofar, ENOTDIR);

			g_free(sofar);
			return status;
		}
		dir = ino;
		p = end;
	}
	return KC_EXIT_OK;
}

static int mkdir_one(struct kc_ctx *ctx, const char *npath)
{
	const char *name = kc_path_name(npath);
	uint64_t dir, ino;
	int status, err;

	if (!*npath)
		return kc_fail_errno(ctx, "/", EEXIST);
	status = kc_lookup_parent(ctx, npath, &dir);
	if (status)
		return status;
	err = omfs_mkdir(ctx->fs, dir, name, strlen(name), &ino);
	return err < 0 ? kc_fail(ctx, npath, err) : KC_EXIT_OK;
}

static int mkdir_run(struct kc_ctx *ctx)
{
	char *npath = kc_path_normalize(ctx->argv[0]);
	int status = mkdir_parents ? mkdir_with_parents(ctx, npath) : mkdir_one(ctx, npath);

	g_free(npath);
	return status;
}

const struct kc_command kc_cmd_mkdir = {
	.name = "mkdir", .args = "[-p] PATH", .summary = "Make a directory",
	.options = mkdir_options, .min_args = 1, .max_args = 1, .access = KC_WRITABLE,
	.run = mkdir_run,
};

/* ---- rm ---- */

static gboolean rm_recursive;

static const GOptionEntry rm_options[] = {
	{ "recursive", 'r', 0, G_OPTION_ARG_NONE, &rm_recursive,
	  "Remove directories and their contents", NULL },
	{ NULL }
};

/* A directory's files go before its subdirectories are walked... */
static int rm_files(struct kc_ctx *ctx, void *wctx, const char *npath, uint64_t dir,
		    const struct omfs_dirent *ents, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++) {
		int err;

		if (ents[i].is_dir)
			continue;
		err = omfs_unlink(ctx->fs, dir, ents[i].name, ents[i].namelen);
		if (err < 0) {
			char *cpath = kc_path_child(npath, ents[i].name);
			int status = kc_fail(ctx, cpath, err);

			g_free(cpath);
			return status;
		}
	}
	return KC_EXIT_OK;
}

/* ...and each subdirectory once its own subtree is gone. */
static int rm_emptied_dir(struct kc_ctx *ctx, void *wctx, const char *npath, uint64_t parent,
			  const struct omfs_dirent *ent)
{
	int err = omfs_rmdir(ctx->fs, parent, ent->name, ent->namelen);

	return err < 0 ? kc_fail(ctx, npath, err) : KC_EXIT_OK;
}

static int rm_path(struct kc_ctx *ctx, const char *npath)
{
	const struct kc_walk_ops ops = { .enter = rm_files, .leave = rm_emptied_dir };
	const char *name = kc_path_name(npath);
	struct omfs_stat st;
	uint64_t ino, dir;
	int status, err;

	if (!*npath)
		return kc_failf(ctx, "/: the root directory cannot be removed");
	err = kc_lookup(ctx, npath, &ino, &st);
	if (err < 0)
		return kc_fail(ctx, npath, err);
	status = kc_lookup_parent(ctx, npath, &dir);
	if (status)
		return status;
	if (!st.is_dir) {
		err = omfs_unlink(ctx->fs, dir, name, strlen(name));
		return err < 0 ? kc_fail(ctx, npath, err) : KC_EXIT_OK;
	}
	if (!rm_recursive)
		return kc_failf(ctx, "%s: %s (use -r)", npath, g_strerror(EISDIR));
	status = kc_walk(ctx, npath, ino, &ops, NULL);
	if (status)
		return status;
	err = omfs_rmdir(ctx->fs, dir, name, strlen(name));
	return err < 0 ? kc_fail(ctx, npath, err) : KC_EXIT_OK;
}

static int rm_run(struct kc_ctx *ctx)
{
	char *npath = kc_path_normalize(ctx->argv[0]);
	int status = rm_path(ctx, npath);

	g_free(npath);
	return status;
}

const struct kc_command kc_cmd_rm = {
	.name = "rm", .args = "[-r] PATH", .summary = "Remove a file or a directory tree",
	.options = rm_options, .min_args = 1, .max_args = 1, .access = KC_WRITABLE,
	.run = rm_run,
};

/* ---- mv ---- */

/* Like mv(1): an existing directory as NEW receives OLD inside it. */
static char *mv_target(struct kc_ctx *ctx, const char *old, const char *new, int *err)
{
	struct omfs_stat st;
	uint64_t ino;

	*err = kc_lookup(ctx, new, &ino, &st);
	if (*err == -ENOENT)
		*err = 0;
	else if (*err == 0 && st.is_dir)
		return kc_path_child(new, kc_path_name(old));
	return g_strdup(new);
}

static int mv_paths(struct kc_ctx *ctx, const char *old, const char *new)
{
	const char *oname = kc_path_name(old);
	uint64_t ino, odir, ndir;
	const char *nname;
	char *target;
	int status, err;

	if (!*old)
		return kc_failf(ctx, "/: the root directory cannot be moved");
	err = kc_lookup(ctx, old, &ino, NULL);
	if (err < 0)
		return kc_fail(ctx, old, err);
	target = mv_target(ctx, old, new, &err);
	if (err < 0) {
		status = kc_fail(ctx, kc_path_show(new), err);
		goto out;
	}
	if (strcmp(target, old) == 0) {
		status = KC_EXIT_OK;
		goto out;
	}
	status = kc_lookup_parent(ctx, old, &odir);
	if (!status)
		status = kc_lookup_parent(ctx, target, &ndir);
	if (status)
		goto out;
	nname = kc_path_name(target);
	err = omfs_rename(ctx->fs, odir, oname, strlen(oname), ndir, nname, strlen(nname));
	if (err < 0) {
		char *what = g_strdup_printf("%s -> %s", old, target);

		status = kc_fail(ctx, what, err);
		g_free(what);
	}
out:
	g_free(target);
	return status;
}

static int mv_run(struct kc_ctx *ctx)
{
	char *old = kc_path_normalize(ctx->argv[0]);
	char *new = kc_path_normalize(ctx->argv[1]);
	int status = mv_paths(ctx, old, new);

	g_free(old);
	g_free(new);
	return status;
}

const struct kc_command kc_cmd_mv = {
	.name = "mv", .args = "OLD NEW", .summary = "Rename or move a file or directory",
	.min_args = 2, .max_args = 2, .access = KC_WRITABLE, .run = mv_run,
};

/* ---- truncate ---- */

/* Like truncate(1), a missing file is created. */
static int truncate_path(struct kc_ctx *ctx, const char *npath, uint64_t size)
{
	const char *name = kc_path_name(npath);
	struct omfs_stat st;
	uint64_t ino, dir;
	int status, err;

	err = kc_lookup(ctx, npath, &ino, &st);
	if (err == -ENOENT && *npath) {
		status = kc_lookup_parent(ctx, npath, &dir);
		if (status)
			return status;
		err = omfs_create(ctx->fs, dir, name, strlen(name), &ino);
	} else if (!err && st.is_dir) {
		return kc_fail_errno(ctx, kc_path_show(npath), EISDIR);
	}
	if (!err)
		err = omfs_truncate(ctx->fs, ino, size);
	return err < 0 ? kc_fail(ctx, kc_path_show(npath), err) : KC_EXIT_OK;
}

static int truncate_run(struct kc_ctx *ctx)
{
	char *npath;
	uint64_t size;
	int status;

	if (!kc_parse_size(ctx->argv[1], &size))
		return kc_usage(ctx, "not a size: '%s'", ctx->argv[1]);
	npath = kc_path_normalize(ctx->argv[0]);
	status = truncate_path(ctx, npath, size);
	g_free(npath);
	return status;
}

const struct kc_command kc_cmd_truncate = {
	.name = "truncate", .args = "PATH SIZE", .summary = "Shrink or extend a file to SIZE bytes",
	.min_args = 2, .max_args = 2, .access = KC_WRITABLE, .run = truncate_run,
};
