/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-manifest.c - manifest: one line per entry, `path<TAB>type<TAB>size<TAB>sha256`,
 * byte for byte what tests/interop/oracle/omfs-oracle prints for the
 * kernel's view (paths from "/", the root not listed, a directory's size =
 * sys_blocksize and "-" as its hash), so that the two can be diffed.
 */
#include "kc.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

struct manifest {
	GPtrArray *lines;
	uint32_t dir_size;
	GChecksum *sum;
};

static int hash_data(void *sink_ctx, const void *buf, size_t len)
{
	g_checksum_update(sink_ctx, buf, (gssize)len);
	return KC_EXIT_OK;
}

static char *file_line(struct kc_ctx *ctx, struct manifest *m, const char *npath, uint64_t ino)
{
	struct omfs_stat st;
	int err = omfs_stat(ctx->fs, ino, &st);

	if (err < 0) {
		kc_fail(ctx, npath, err);
		return NULL;
	}
	g_checksum_reset(m->sum);
	if (kc_read_file(ctx, npath, ino, hash_data, m->sum))
		return NULL;
	return g_strdup_printf("%s\tf\t%" PRIu64 "\t%s", npath, st.size,
			       g_checksum_get_string(m->sum));
}

static int manifest_entries(struct kc_ctx *ctx, void *wctx, const char *npath, uint64_t dir,
			    const struct omfs_dirent *ents, size_t count)
{
	struct manifest *m = wctx;
	size_t i;

	for (i = 0; i < count; i++) {
		char *cpath = kc_path_child(npath, ents[i].name);
		char *line;

		if (ents[i].is_dir)
			line = g_strdup_printf("%s\td\t%" PRIu32 "\t-", cpath, m->dir_size);
		else
			line = file_line(ctx, m, cpath, ents[i].ino);
		g_free(cpath);
		if (!line)
			return KC_EXIT_FAIL;
		g_ptr_array_add(m->lines, line);
	}
	return KC_EXIT_OK;
}

/* The oracle sorts whole lines with sort(1) in the C locale: byte order. */
static int compare_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int manifest_run(struct kc_ctx *ctx)
{
	const struct kc_walk_ops ops = { .enter = manifest_entries };
	struct manifest m;
	struct omfs_statfs sfs;
	int status, err;
	guint i;

	err = omfs_statfs(ctx->fs, &sfs);
	if (err < 0)
		return kc_fail(ctx, ctx->image, err);
	m.lines = g_ptr_array_new_with_free_func(g_free);
	m.dir_size = sfs.sys_blocksize;
	m.sum = g_checksum_new(G_CHECKSUM_SHA256);
	status = kc_walk(ctx, "", omfs_root_ino(ctx->fs), &ops, &m);
	if (!status) {
		g_ptr_array_sort(m.lines, compare_lines);
		for (i = 0; i < m.lines->len; i++)
			printf("%s\n", (const char *)m.lines->pdata[i]);
	}
	g_checksum_free(m.sum);
	g_ptr_array_unref(m.lines);
	return status;
}

const struct kc_command kc_cmd_manifest = {
	.name = "manifest", .args = "",
	.summary = "Every entry: path, type, size, SHA-256",
	.min_args = 0, .max_args = 0, .access = KC_READ_ONLY, .run = manifest_run,
};
