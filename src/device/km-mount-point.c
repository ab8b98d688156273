/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-mount-point.c - whether the kernel has a disk mounted: OMFS has no
 * journal and the kernel caches its blocks, so writing under a mounted
 * volume corrupts it. /proc/self/mountinfo names each mount's device by
 * major:minor and by source path; a whole disk counts as mounted when one of
 * its partitions is (sysfs says which disk a partition belongs to).
 */
#include "km-mount-point.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* mountinfo is a few KiB; a file this large is not one. */
#define MOUNTINFO_MAX ((gsize)16 << 20)

/* The sysfs directory of block device maj:min, resolved, or NULL. */
static char *block_sysfs_dir(unsigned maj, unsigned min)
{
	char link[64];

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", maj, min);
	return realpath(link, NULL);
}

struct node {
	char *path;		/* resolved */
	bool block;
	dev_t rdev;
	char *sysfs;		/* a block node's sysfs directory, or NULL */
};

/* Whether a mount of device maj:min from source is of the node (or a partition of it). */
static bool is_node(const struct node *n, unsigned maj, unsigned min, const char *source)
{
	/* "tmpfs", "proc": not paths, and not to be resolved against the cwd */
	char *real = source[0] == '/' ? realpath(source, NULL) : NULL;
	bool same = real && strcmp(real, n->path) == 0;
	char *dir, *parent;

	free(real);
	if (same)
		return true;
	if (!n->block)
		return false;
	if (major(n->rdev) == maj && minor(n->rdev) == min)
		return true;
	dir = n->sysfs ? block_sysfs_dir(maj, min) : NULL;
	parent = dir ? g_path_get_dirname(dir) : NULL;
	same = parent && strcmp(parent, n->sysfs) == 0;
	free(dir);
	g_free(parent);
	return same;
}

/*
 * One mountinfo line: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS... - FSTYPE
 * SOURCE SUPEROPTIONS". The mount point when it is of the node, else NULL.
 */
static char *line_mount_point(const struct node *n, const char *line)
{
	g_auto(GStrv) f = g_strsplit(line, " ", 0);
	guint count = g_strv_length(f), dash;
	g_autofree char *source = NULL;
	unsigned maj, min;
	char end;

	if (count < 5 || sscanf(f[2], "%u:%u%c", &maj, &min, &end) != 2)
		return NULL;
	for (dash = 5; dash < count && strcmp(f[dash], "-") != 0; dash++)
		;
	if (dash + 2 >= count)
		return NULL;
	/* paths come with spaces and such as octal escapes ("\040") */
	source = g_strcompress(f[dash + 2]);
	if (!is_node(n, maj, min, source))
		return NULL;
	return g_strcompress(f[4]);
}

char *km_mount_point_of(const char *path)
{
	const char *file = g_getenv("KARMACTL_TEST_MOUNTINFO");
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	struct node n = { 0 };
	char *where = NULL;
	struct stat st;
	gsize len;

	if (stat(path, &st) != 0)
		return NULL;
	if (!g_file_get_contents(file ? file : "/proc/self/mountinfo", &text, &len, NULL) ||
	    len > MOUNTINFO_MAX)
		return NULL;
	n.path = realpath(path, NULL);
	if (!n.path)
		return NULL;
	n.block = S_ISBLK(st.st_mode);
	n.rdev = st.st_rdev;
	n.sysfs = n.block ? block_sysfs_dir(major(st.st_rdev), minor(st.st_rdev)) : NULL;
	lines = g_strsplit(text, "\n", 0);
	for (guint i = 0; lines[i] && !where; i++)
		where = line_mount_point(&n, lines[i]);
	free(n.path);
	free(n.sysfs);
	return where;
}

