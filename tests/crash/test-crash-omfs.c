/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-crash-omfs.c - OMFS operations on their own (create and write, a
 * write past the end, truncate down and up, rename over a file, rmdir,
 * unlink, mkdir), each followed by a sync, cut by a power cut at every
 * write, in each way crash-util.h models. After every cut: fsck finds
 * nothing worse than leaks; every path the interrupted step does not touch
 * is as it was; a path it touches is as before or after the step, or (a
 * file) holds in each byte the old byte, the new byte or zero, never
 * another (a rename may lose both names, see RENAME_STEP); fsck --repair
 * leaves fsck clean. (tests/unit cuts rename and
 * unlink-then-create with clean cuts; this adds the other operations and
 * the cache and torn cuts.)
 */
#include <errno.h>
#include <string.h>

#include "crash-util.h"

#define VOLUME_SIZE (1u << 20)
#define N_STEPS 8
/*
 * The rename step. OMFS cannot rename atomically (docs/FORMAT.md §6.7: the
 * inode holds its own name and chain link, so it leaves the old chain before
 * it joins the new one): a cut in between leaves the file in no directory,
 * its blocks leaked. The core keeps that window to one write-back; a cut in
 * it may lose both names, nothing else.
 */
#define RENAME_STEP 4
#define NOW_MS 1700000000000ull

/* The tree: path -> contents (a directory: NULL value, in a separate set). */
struct tree {
	GHashTable *files;	/* char* -> GBytes* */
	GHashTable *dirs;	/* char* set */
};

static guint8 *images[N_STEPS + 1];
static struct tree trees[N_STEPS + 1];
static guint64 starts[N_STEPS + 1];

static guint64 fixed_clock(void *ctx)
{
	return NOW_MS;
}

static struct omfs_fs *mount(const struct omfs_blockdev *dev)
{
	struct omfs_mount_opts opts = { .clock_ms = fixed_clock, .cache_blocks = 8 };
	char msg[OMFS_ERRMSG_MAX] = "";
	struct omfs_fs *fs = NULL;
	int err = omfs_mount(dev, &opts, &fs, msg, sizeof(msg));

	if (err)
		g_error("mount: %s", msg);
	return fs;
}

static void pattern(guint8 *buf, gsize len, guint seed)
{
	for (gsize i = 0; i < len; i++)
		buf[i] = (guint8)(i * 31 + seed * 7 + (i >> 9));
}

static int write_pattern(struct omfs_fs *fs, const char *path, guint64 off, gsize len, guint seed)
{
	g_autofree guint8 *buf = g_malloc(len);
	uint64_t ino;
	int err = omfs_resolve(fs, path, &ino);

	pattern(buf, len, seed);
	if (err)
		return err;
	return omfs_write(fs, ino, off, buf, len) == (int64_t)len ? 0 : -EIO;
}

static int create_in(struct omfs_fs *fs, const char *dir, const char *name, gboolean is_dir)
{
	uint64_t parent, ino;
	int err = omfs_resolve(fs, dir, &parent);

	if (err)
		return err;
	return is_dir ? omfs_mkdir(fs, parent, name, strlen(name), &ino)
		      : omfs_create(fs, parent, name, strlen(name), &ino);
}

static int truncate_path(struct omfs_fs *fs, const char *path, guint64 size)
{
	uint64_t ino;
	int err = omfs_resolve(fs, path, &ino);

	return err ? err : omfs_truncate(fs, ino, size);
}

static int remove_in(struct omfs_fs *fs, const char *dir, const char *name, gboolean is_dir)
{
	uint64_t parent;
	int err = omfs_resolve(fs, dir, &parent);

	if (err)
		return err;
	return is_dir ? omfs_rmdir(fs, parent, name, strlen(name))
		      : omfs_unlink(fs, parent, name, strlen(name));
}

static int rename_path(struct omfs_fs *fs, const char *from_dir, const char *from,
		       const char *to_dir, const char *to)
{
	uint64_t a, b;
	int err = omfs_resolve(fs, from_dir, &a);

	if (!err)
		err = omfs_resolve(fs, to_dir, &b);
	return err ? err : omfs_rename(fs, a, from, strlen(from), b, to, strlen(to));
}

/* The base volume: a/, b/old, a/big (40 KiB), c/empty/. */
static int base(struct omfs_fs *fs)
{
	int err = create_in(fs, "", "a", TRUE);

	err = err ? err : create_in(fs, "", "b", TRUE);
	err = err ? err : create_in(fs, "", "c", TRUE);
	err = err ? err : create_in(fs, "c", "empty", TRUE);
	err = err ? err : create_in(fs, "b", "old", FALSE);
	err = err ? err : write_pattern(fs, "b/old", 0, 7000, 1);
	err = err ? err : create_in(fs, "a", "big", FALSE);
	return err ? err : write_pattern(fs, "a/big", 0, 40960, 2);
}

/* Step s of the workload (before its sync). */
static int step(struct omfs_fs *fs, guint s)
{
	int err;

	switch (s) {
	case 0:
		err = create_in(fs, "a", "new", FALSE);
		return err ? err : write_pattern(fs, "a/new", 0, 20480, 3);
	case 1:
		return write_pattern(fs, "a/new", 30000, 9000, 4);
	case 2:
		return truncate_path(fs, "a/big", 5000);
	case 3:
		return truncate_path(fs, "a/new", 46000);
	case 4:
		return rename_path(fs, "a", "new", "b", "old");
	case 5:
		return remove_in(fs, "c", "empty", TRUE);
	case 6:
		return remove_in(fs, "a", "big", FALSE);
	default:
		err = create_in(fs, "c", "sub", TRUE);
		err = err ? err : create_in(fs, "c/sub", "f", FALSE);
		return err ? err : write_pattern(fs, "c/sub/f", 0, 3000, 5);
	}
}

static gboolean run_step(const struct omfs_blockdev *dev, guint s)
{
	struct omfs_fs *fs = mount(dev);
	int err = step(fs, s);

	if (!err)
		err = omfs_sync(fs);
	return omfs_unmount(fs) == 0 && err == 0;
}

/* ---- the tree, read back ---- */

static void walk(struct omfs_fs *fs, uint64_t dir, const char *prefix, struct tree *t, guint depth)
{
	struct omfs_dirent ent;
	uint64_t pos = 0;
	int r;

	g_assert_cmpuint(depth, <, 8);
	while ((r = omfs_readdir(fs, dir, &pos, &ent)) == 1) {
		char *path = g_strconcat(prefix, ent.name, NULL);

		if (ent.is_dir) {
			g_autofree char *sub = g_strconcat(path, "/", NULL);

			g_hash_table_add(t->dirs, path);
			walk(fs, ent.ino, sub, t, depth + 1);
		} else {
			struct omfs_stat st;
			guint8 *buf;

			g_assert_cmpint(omfs_stat(fs, ent.ino, &st), ==, 0);
			g_assert_cmpuint(st.size, <=, 1u << 20);
			buf = g_malloc(st.size + 1);
			g_assert_cmpint(omfs_read(fs, ent.ino, 0, buf, st.size), ==,
					(int64_t)st.size);
			g_hash_table_insert(t->files, path, g_bytes_new_take(buf, st.size));
		}
	}
	g_assert_cmpint(r, ==, 0);
}

static struct tree read_tree(const struct omfs_blockdev *dev)
{
	struct tree t = {
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
				      (GDestroyNotify)g_bytes_unref),
		g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
	};
	struct omfs_fs *fs = mount(dev);

	walk(fs, omfs_root_ino(fs), "", &t, 0);
	omfs_unmount(fs);
	return t;
}

static void free_tree(struct tree *t)
{
	g_hash_table_unref(t->files);
	g_hash_table_unref(t->dirs);
}

/* Each byte is the old one, the new one or zero. */
static gboolean mixed_file(GBytes *got, GBytes *before, GBytes *after)
{
	gsize n, nb = 0, na = 0;
	const guint8 *g = g_bytes_get_data(got, &n);
	const guint8 *b = before ? g_bytes_get_data(before, &nb) : NULL;
	const guint8 *a = after ? g_bytes_get_data(after, &na) : NULL;

	if (n > MAX(na, nb))
		return FALSE;
	for (gsize i = 0; i < n; i++)
		if (g[i] != 0 && !(i < nb && g[i] == b[i]) && !(i < na && g[i] == a[i]))
			return FALSE;
	return TRUE;
}

static void check_file(const char *path, GBytes *got, GBytes *before, GBytes *after, guint s)
{
	gboolean same_before = got && before ? g_bytes_equal(got, before) : got == before;
	gboolean same_after = got && after ? g_bytes_equal(got, after) : got == after;
	gboolean touched = before && after ? !g_bytes_equal(before, after) : before != after;

	if (same_before || (touched && same_after))
		return;
	if (touched && got && mixed_file(got, before, after))
		return;
	if (touched && !got && s == RENAME_STEP)
		return;
	g_error("%s (%s): neither as before the step nor as after it", path,
		got ? "there" : "absent");
}

/* A cut in step s: the tree is the one before s or after it, path by path. */
static void check_tree(const struct tree *t, guint s)
{
	const struct tree *before = &trees[s], *after = &trees[s + 1];
	const struct tree *all[] = { t, before, after };
	GHashTableIter it;
	gpointer key;

	for (guint i = 0; i < G_N_ELEMENTS(all); i++) {
		g_hash_table_iter_init(&it, all[i]->files);
		while (g_hash_table_iter_next(&it, &key, NULL))
			check_file(key, g_hash_table_lookup(t->files, key),
				   g_hash_table_lookup(before->files, key),
				   g_hash_table_lookup(after->files, key), s);
		g_hash_table_iter_init(&it, all[i]->dirs);
		while (g_hash_table_iter_next(&it, &key, NULL)) {
			gboolean got = g_hash_table_contains(t->dirs, key);

			if (got != g_hash_table_contains(before->dirs, key) &&
			    got != g_hash_table_contains(after->dirs, key))
				g_error("%s: a directory neither as before the step nor as after",
					(char *)key);
		}
	}
}

static void dry_run(void)
{
	struct km_mem_device *m = km_mem_device_new(VOLUME_SIZE, NULL);
	struct omfs_mkfs_opts mkfs = { .blocksize = 2048, .sys_blocksize = 512, .mirrors = 2,
				       .clustersize = 2, .time_ms = NOW_MS };
	char msg[OMFS_ERRMSG_MAX] = "";
	struct omfs_fs *fs;

	g_assert_cmpint(omfs_mkfs(&m->bdev, &mkfs, msg, sizeof(msg)), ==, 0);
	fs = mount(&m->bdev);
	g_assert_cmpint(base(fs), ==, 0);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	for (guint s = 0; s <= N_STEPS; s++) {
		images[s] = g_memdup2(m->data, VOLUME_SIZE);
		trees[s] = read_tree(&m->bdev);
		starts[s] = m->writes;
		if (s < N_STEPS)
			g_assert_true(run_step(&m->bdev, s));
	}
	for (guint s = 0; s < N_STEPS; s++)
		g_test_message("step %u: %" G_GUINT64_FORMAT " writes", s,
			       starts[s + 1] - starts[s]);
	g_assert_true(g_hash_table_contains(trees[N_STEPS].files, "c/sub/f"));
	g_assert_false(g_hash_table_contains(trees[N_STEPS].dirs, "c/empty"));
	km_mem_device_free(m);
}

/* A cut at global write k, with seed picking the lost writes and the tear. */
static guint64 lost_writes;

static guint cut_and_check(guint64 k, guint s, const struct crash_mode *mode, guint32 seed)
{
	struct km_mem_device *m = crash_device(images[s], VOLUME_SIZE, k - starts[s], mode, seed);
	struct tree t;
	guint findings;

	g_test_message("%s cut at write %" G_GUINT64_FORMAT " (step %u, seed %u)", mode->name, k, s,
		       seed);
	g_assert_false(run_step(&m->bdev, s));
	g_assert_true(m->powered_off);
	lost_writes += m->lost_writes;
	m->fail_armed = FALSE;
	m->powered_off = FALSE;
	findings = crash_assert_fsck_after_cut(&m->bdev, mode);
	t = read_tree(&m->bdev);
	check_tree(&t, s);
	free_tree(&t);
	crash_assert_repair_leaves_clean(&m->bdev);
	km_mem_device_free(m);
	return findings;
}

/* Seeds per write index of the cache and torn cuts (which writes are lost, where the tear is). */
#define SEEDS 8

static void test_cuts(gconstpointer data)
{
	const struct crash_mode *mode = data;
	guint64 total = starts[N_STEPS] - starts[0], stride = crash_stride(total, 2000);
	guint n_seeds = crash_seeds(mode, SEEDS);
	guint s = 0, cuts = 0, findings = 0;

	lost_writes = 0;
	for (guint64 k = starts[0]; k < starts[N_STEPS]; k += stride) {
		while (k >= starts[s + 1])
			s++;
		for (guint32 seed = 0; seed < n_seeds; seed++) {
			guint32 pick = (guint32)(k * 2246822519u) ^ seed;

			findings += cut_and_check(k, s, mode, pick) > 0;
			cuts++;
		}
	}
	g_test_message("%s: %" G_GUINT64_FORMAT " writes, %u cuts, %u with fsck findings, "
		       "%" G_GUINT64_FORMAT " unflushed writes lost", mode->name, total, cuts,
		       findings, lost_writes);
	g_assert_cmpuint(cuts, >=, total * n_seeds / stride);
	if (mode->flags & KM_MEM_CUT_CACHE)
		g_assert_cmpuint(lost_writes, >, 0);
}

int main(int argc, char **argv)
{
	int status;

	g_test_init(&argc, &argv, NULL);
	dry_run();
	for (guint i = 0; i < G_N_ELEMENTS(crash_modes); i++) {
		g_autofree char *name = g_strdup_printf("/crash/omfs/%s", crash_modes[i].name);

		g_test_add_data_func(name, &crash_modes[i], test_cuts);
	}
	status = g_test_run();
	for (guint s = 0; s <= N_STEPS; s++) {
		g_free(images[s]);
		free_tree(&trees[s]);
	}
	return status;
}
