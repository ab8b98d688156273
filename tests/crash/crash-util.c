/* SPDX-License-Identifier: GPL-2.0-or-later */
/* crash-util.c - the power-cut tests' shared helpers (crash-util.h). */
#include "crash-util.h"

const struct crash_mode crash_modes[3] = {
	{ "clean", KM_MEM_CUT_CLEAN },
	{ "cache", KM_MEM_CUT_CACHE },
	{ "torn", KM_MEM_CUT_TORN },
};

guint64 crash_stride(guint64 n_writes, guint target)
{
	if (g_strcmp0(g_getenv("KM_CRASH_EVERY"), "1") == 0 || n_writes <= target)
		return 1;
	return (n_writes + target - 1) / target;
}

guint crash_seeds(const struct crash_mode *mode, guint normal)
{
	const char *env = g_getenv("KM_CRASH_SEEDS");

	if (mode->flags == KM_MEM_CUT_CLEAN)
		return 1;
	return env ? (guint)CLAMP(g_ascii_strtoull(env, NULL, 10), 1, 1000) : normal;
}

struct km_mem_device *crash_device(const guint8 *image, guint64 size, guint64 writes,
				   const struct crash_mode *mode, guint32 seed)
{
	struct km_mem_device *m = km_mem_device_new(size, image);

	g_assert_nonnull(m);
	g_assert_cmpint(km_mem_device_arm_cut(m, writes, mode->flags, seed), ==, 0);
	return m;
}

struct findings {
	guint errors;
	guint leaks;
};

static void count_finding(void *ctx, enum omfs_fsck_severity sev, const char *msg)
{
	struct findings *c = ctx;

	if (sev == OMFS_FSCK_ERROR || sev == OMFS_FSCK_LEAK)
		g_test_message("fsck: %s: %s", sev == OMFS_FSCK_ERROR ? "error" : "leak", msg);
	c->errors += sev == OMFS_FSCK_ERROR;
	c->leaks += sev == OMFS_FSCK_LEAK;
}

static int run_fsck(const struct omfs_blockdev *dev, gboolean repair, struct findings *c)
{
	struct omfs_fsck_opts opts = { .repair = repair, .report = count_finding, .report_ctx = c };
	struct omfs_fsck_result res;

	return omfs_fsck(dev, &opts, &res);
}

guint crash_assert_fsck_after_cut(const struct omfs_blockdev *dev, const struct crash_mode *mode)
{
	struct findings first = { 0 };

	g_assert_cmpint(run_fsck(dev, FALSE, &first), !=, OMFS_FSCK_OPERATIONAL);
	if (mode->flags & KM_MEM_CUT_TORN)
		g_assert_cmpuint(first.errors, <=, 1);
	else
		g_assert_cmpuint(first.errors, ==, 0);
	return first.errors + first.leaks;
}

void crash_assert_repair_leaves_clean(const struct omfs_blockdev *dev)
{
	struct findings repair = { 0 }, after = { 0 };

	g_assert_cmpint(run_fsck(dev, TRUE, &repair), <=, OMFS_FSCK_CORRECTED);
	g_assert_cmpint(run_fsck(dev, FALSE, &after), ==, OMFS_FSCK_CLEAN);
	g_assert_cmpuint(after.errors + after.leaks, ==, 0);
}
