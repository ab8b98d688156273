/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * suite.c - model-based random test of the OMFS core.
 *
 * Each case runs thousands of random operations (ops-*.c) on a fresh volume in
 * memory and on the model (model.c), checking every return code. After every
 * batch: sync, compare the whole tree (verify.c), unmount, fsck, mount again
 * (now and then read-only first), compare again and check the free-space
 * accounting. The volumes are small and varied: 8192, 4096 and 2048-byte
 * blocks, 4096 to 512-byte sysblocks, 1 to 3 mirrors, clusters of 1 to 8,
 * small caches and request sizes, volumes that fill up, and files scattered
 * into more extents than an inode holds. Each device starts full of random
 * bytes, so nothing can pass by reading zeros it never wrote.
 *
 * Environment, to replay or soak:
 *   OMFS_MODEL_SEED=N     run every configuration (or the one below) with seed N
 *   OMFS_MODEL_CONFIG=X   only configuration X
 *   OMFS_MODEL_OPS=N      operations per case (default 5000)
 *   OMFS_MODEL_BATCH=N    operations between checkpoints (default 50)
 *   OMFS_MODEL_TRACE=1    print every operation
 * A failure prints the exact command that replays it. Changing the batch size
 * keeps the same operations but moves write-backs, so block placement (and
 * with it -ENOSPC on a full volume) may differ.
 */
#include "model.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#define MiB (1024ull * 1024)
#define DEFAULT_OPS 5000
#define DEFAULT_BATCH 50
#define CLOCK_START 1000000

/* Extent table sizes (docs/FORMAT.md §7.3): header 16 bytes, entries 16, one is the terminator. */
#define INODE_TABLE_OFFSET 464
#define CONT_TABLE_OFFSET 64
#define DIR_TABLE_OFFSET 440

static const struct config configs[] = {
	{ .name = "8k-2k-m2-c8", .dev_size = 8 * MiB, .blocksize = 8192,
	  .sys_blocksize = 2048, .mirrors = 2, .clustersize = 8, .fill_percent = 50,
	  .seed = 1 },
	{ .name = "4k-1k-m3-c1-cache1", .dev_size = 4 * MiB, .blocksize = 4096,
	  .sys_blocksize = 1024, .mirrors = 3, .clustersize = 1, .cache_blocks = 1,
	  .max_request = 5000, .fill_percent = 50, .seed = 2 },
	{ .name = "4k-2k-m2-c1-fragment", .dev_size = 16 * MiB, .blocksize = 4096,
	  .sys_blocksize = 2048, .mirrors = 2, .clustersize = 1, .fill_percent = 60,
	  .fragment = true, .want_cont = true, .seed = 3 },
	{ .name = "4k-1k-m2-c8-fragment", .dev_size = 8 * MiB, .blocksize = 4096,
	  .sys_blocksize = 1024, .mirrors = 2, .clustersize = 8, .max_request = 3 * 4096,
	  .fill_percent = 60, .fragment = true, .want_cont = true, .seed = 4 },
	{ .name = "8k-2k-m2-c8-full", .dev_size = 4 * MiB, .blocksize = 8192,
	  .sys_blocksize = 2048, .mirrors = 2, .clustersize = 8, .fill_percent = 150,
	  .want_enospc = true, .seed = 5 },
	{ .name = "4k-1k-m3-c1-full-fragment", .dev_size = 4 * MiB, .blocksize = 4096,
	  .sys_blocksize = 1024, .mirrors = 3, .clustersize = 1, .cache_blocks = 16,
	  .fill_percent = 150, .fragment = true, .want_enospc = true, .want_cont = true,
	  .seed = 6 },
	{ .name = "8k-4k-m3-c8", .dev_size = 8 * MiB, .blocksize = 8192,
	  .sys_blocksize = 4096, .mirrors = 3, .clustersize = 8, .fill_percent = 50,
	  .seed = 7 },
	{ .name = "8k-2k-m2-c1-smallcache", .dev_size = 12 * MiB, .blocksize = 8192,
	  .sys_blocksize = 2048, .mirrors = 2, .clustersize = 1, .cache_blocks = 12,
	  .max_request = 2 * 8192, .fill_percent = 70, .seed = 8 },
	/* the extremes: 512-byte sysblocks hold one extent in an inode and 9 buckets */
	{ .name = "2k-512-m2-c1-fragment", .dev_size = 4 * MiB, .blocksize = 2048,
	  .sys_blocksize = 512, .mirrors = 2, .clustersize = 1, .fill_percent = 60,
	  .fragment = true, .want_cont = true, .seed = 9 },
	{ .name = "4k-4k-m1-c4-full", .dev_size = 6 * MiB, .blocksize = 4096,
	  .sys_blocksize = 4096, .mirrors = 1, .clustersize = 4, .fill_percent = 120,
	  .want_enospc = true, .seed = 10 },
};

struct test_case {
	const struct config *cfg;
	guint32 seed;
	unsigned nops;
	unsigned batch;
	bool trace;
	/* the suite's own seeds and length: the run must reach what it is for */
	bool check_coverage;
};

/* ---- reporting, shared with the operations and verify.c ---- */

bool run_fail(struct run *r, const char *fmt, ...)
{
	char *msg, *full, *core;
	va_list ap;

	if (r->failed)
		return false;
	r->failed = true;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	core = r->fs ? g_strescape(omfs_errmsg(r->fs), NULL) : NULL;
	/* one line: TAP shows it as the reason of the failed case */
	full = g_strdup_printf("config %s, seed %u, op %u (%s): %s%s%s; replay: "
			       "OMFS_MODEL_CONFIG=%s OMFS_MODEL_SEED=%u OMFS_MODEL_OPS=%u "
			       "OMFS_MODEL_TRACE=1", r->cfg->name, r->seed, r->op_no,
			       r->op_desc ? r->op_desc : "setup", msg,
			       core ? "; last core message: " : "", core ? core : "",
			       r->cfg->name, r->seed, r->op_no + 1);
	g_strdelimit(full, "\n", ' ');
	g_test_message("%s", full);
	g_test_fail_printf("%s", full);
	g_free(full);
	g_free(core);
	g_free(msg);
	return false;
}

void run_op(struct run *r, const char *fmt, ...)
{
	va_list ap;

	g_free(r->op_desc);
	va_start(ap, fmt);
	r->op_desc = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (r->trace)
		g_test_message("op %u: %s", r->op_no, r->op_desc);
}

static const char *rc_name(int64_t rc)
{
	return rc < 0 ? g_strerror((int)-rc) : "success";
}

bool run_check_rc(struct run *r, int64_t got, int64_t want)
{
	if (got == want)
		return true;
	return run_fail(r, "returned %lld (%s), the model expects %lld (%s)", (long long)got,
			rc_name(got), (long long)want, rc_name(want));
}

bool run_check_rc_any(struct run *r, int64_t got, const int *wants, size_t n)
{
	GString *s = g_string_new(NULL);
	bool ok;

	for (size_t i = 0; i < n; i++) {
		if (got == wants[i]) {
			g_string_free(s, TRUE);
			return true;
		}
		g_string_append_printf(s, "%s%d (%s)", i ? " or " : "", wants[i], rc_name(wants[i]));
	}
	ok = run_fail(r, "returned %lld (%s), the model expects %s", (long long)got, rc_name(got),
		      s->str);
	g_string_free(s, TRUE);
	return ok;
}

uint8_t *run_buf(struct run *r, size_t size)
{
	if (size > r->buf_size) {
		r->buf = g_realloc(r->buf, size);
		r->buf_size = size;
	}
	return r->buf;
}

uint64_t run_blocks_for(const struct run *r, uint64_t bytes)
{
	return (bytes + r->cfg->blocksize - 1) / r->cfg->blocksize;
}

uint64_t run_tables_for(const struct run *r, uint64_t extents)
{
	if (extents <= r->inode_extents)
		return 0;
	return (extents - r->inode_extents + r->cont_extents - 1) / r->cont_extents;
}

/* ---- the volume ---- */

static uint64_t run_clock(void *ctx)
{
	return ++((struct run *)ctx)->clock;
}

static bool run_mount(struct run *r, bool read_only)
{
	char msg[OMFS_ERRMSG_MAX] = "";
	int rc;

	r->mopts.read_only = read_only;
	rc = omfs_mount(&r->dev->bdev, &r->mopts, &r->fs, msg, sizeof(msg));
	if (rc) {
		r->fs = NULL;
		return run_fail(r, "mount%s failed: %d: %s", read_only ? " (read-only)" : "", rc, msg);
	}
	/* the first mount tells the model the root's inode number */
	if (mnode_of(r->m.root)->ino == OMFS_NIL)
		mnode_of(r->m.root)->ino = omfs_root_ino(r->fs);
	if (omfs_root_ino(r->fs) != mnode_of(r->m.root)->ino)
		return run_fail(r, "the root is inode %llu after a mount, it was %llu",
				(unsigned long long)omfs_root_ino(r->fs),
				(unsigned long long)mnode_of(r->m.root)->ino);
	return true;
}

static bool run_unmount(struct run *r)
{
	int rc = omfs_unmount(r->fs);

	r->fs = NULL;
	if (rc)
		return run_fail(r, "unmount failed: %d", rc);
	return true;
}

/* Random bytes everywhere first: the core must never return data it did not write. */
static void fill_device(struct run *r)
{
	GRand *g = g_rand_new_with_seed(r->seed ^ 0x5eed5eedu);

	for (uint64_t i = 0; i + 4 <= r->dev->size; i += 4) {
		guint32 v = g_rand_int(g);

		memcpy(r->dev->data + i, &v, 4);
	}
	g_rand_free(g);
}

static bool run_setup(struct run *r)
{
	const struct config *c = r->cfg;
	struct omfs_mkfs_opts mo = {
		.blocksize = c->blocksize, .sys_blocksize = c->sys_blocksize,
		.mirrors = c->mirrors, .clustersize = c->clustersize, .label = "model",
		.time_ms = CLOCK_START,
	};
	char msg[OMFS_ERRMSG_MAX] = "";
	int rc;

	r->dev = km_mem_device_new(c->dev_size, NULL);
	g_assert_nonnull(r->dev);
	fill_device(r);
	rc = omfs_mkfs(&r->dev->bdev, &mo, msg, sizeof(msg));
	if (rc)
		return run_fail(r, "mkfs failed: %d: %s", rc, msg);
	r->clock = CLOCK_START;
	r->mopts = (struct omfs_mount_opts){
		.clock_ms = run_clock, .clock_ctx = r,
		.cache_blocks = c->cache_blocks, .max_request = c->max_request,
	};
	r->inode_extents = (c->sys_blocksize - INODE_TABLE_OFFSET - 16) / 16 - 1;
	r->cont_extents = (c->sys_blocksize - CONT_TABLE_OFFSET - 16) / 16 - 1;
	r->nbuckets = (c->sys_blocksize - DIR_TABLE_OFFSET) / 8;
	r->rand = g_rand_new_with_seed(r->seed);
	ops_init(r);
	model_init(&r->m, OMFS_NIL);
	return run_mount(r, false) && verify_tree(r, COMPARE_RECORD_CTIME) &&
	       verify_accounting(r);
}

static void run_teardown(struct run *r)
{
	if (r->fs)
		omfs_unmount(r->fs);
	model_destroy(&r->m);
	km_mem_device_free(r->dev);
	if (r->rand)
		g_rand_free(r->rand);
	ops_destroy(r);
	g_free(r->op_desc);
	g_free(r->buf);
}

/* ---- checkpoints ---- */

static bool free_blocks(struct run *r, uint64_t *out)
{
	struct omfs_statfs sfs;
	int rc = omfs_statfs(r->fs, &sfs);

	if (rc)
		return run_fail(r, "statfs failed: %d", rc);
	*out = sfs.free_blocks;
	return true;
}

/* Compare in place; reading the tree must not write anything. */
static bool checkpoint_mounted(struct run *r, uint64_t *free_before)
{
	uint64_t writes;
	int rc = omfs_sync(r->fs);

	if (rc)
		return run_fail(r, "sync failed: %d", rc);
	writes = r->dev->writes;
	if (!verify_tree(r, COMPARE_RECORD_CTIME))
		return false;
	rc = omfs_sync(r->fs);
	if (rc)
		return run_fail(r, "sync failed: %d", rc);
	if (r->dev->writes != writes)
		return run_fail(r, "reading the tree and syncing again wrote %llu times",
				(unsigned long long)(r->dev->writes - writes));
	return free_blocks(r, free_before);
}

/* A read-only mount shows the same tree, refuses changes and writes nothing. */
static bool checkpoint_read_only(struct run *r)
{
	uint64_t writes = r->dev->writes, ino;
	int rc;

	if (!run_mount(r, true) || !verify_tree(r, COMPARE_CHECK_CTIME))
		return false;
	rc = omfs_create(r->fs, mnode_of(r->m.root)->ino, "ro", 2, &ino);
	if (!run_check_rc(r, rc, -EROFS))
		return false;
	if (r->m.files->len) {
		GNode *f = r->m.files->pdata[0];

		rc = omfs_truncate(r->fs, mnode_of(f)->ino, 0);
		if (!run_check_rc(r, rc, -EROFS))
			return false;
	}
	if (!run_unmount(r))
		return false;
	if (r->dev->writes != writes)
		return run_fail(r, "a read-only mount wrote to the device");
	return true;
}

static bool checkpoint(struct run *r)
{
	uint64_t free_before = 0, free_after = 0;

	run_op(r, "checkpoint after op %u", r->op_no);
	if (!checkpoint_mounted(r, &free_before) || !run_unmount(r) || !verify_fsck(r))
		return false;
	if (r->st.remounts % 4 == 0 && !checkpoint_read_only(r))
		return false;
	if (!run_mount(r, false) || !verify_tree(r, COMPARE_CHECK_CTIME) ||
	    !verify_accounting(r) || !free_blocks(r, &free_after))
		return false;
	r->st.remounts++;
	if (free_after != free_before)
		return run_fail(r, "%llu blocks were free before the unmount, %llu after the mount",
				(unsigned long long)free_before, (unsigned long long)free_after);
	return true;
}

/* ---- a case ---- */

static const char *const event_names[EV_COUNT] = {
	[EV_GAP_WRITE] = "a write past the end",
	[EV_BIG_WRITE] = "a write of more than 8 blocks",
	[EV_SHRINK] = "a truncate that shrinks",
	[EV_GROW] = "a truncate that grows",
	[EV_RENAME_SAME_DIR] = "a rename in one directory",
	[EV_RENAME_CROSS_DIR] = "a rename across directories",
	[EV_RENAME_OVER_FILE] = "a rename over a file",
	[EV_RENAME_OVER_EMPTY_DIR] = "a rename over an empty directory",
	[EV_RENAME_INTO_SUBTREE] = "a rename into its own subtree (EINVAL)",
	[EV_RENAME_OVER_FULL_DIR] = "a rename over a non-empty directory (ENOTEMPTY)",
	[EV_RENAME_FILE_OVER_DIR] = "a rename of a file over a directory (EISDIR)",
	[EV_RMDIR_EMPTY] = "an rmdir",
	[EV_RMDIR_NOT_EMPTY] = "an rmdir of a non-empty directory (ENOTEMPTY)",
	[EV_UNLINK] = "an unlink",
	[EV_LOOKUP_MISSING] = "a lookup of a missing name (ENOENT)",
	[EV_PREFIX_IN_BUCKET] = "a lookup next to a prefix of the name in its bucket",
};

/* The run reached what its configuration is for. */
static void check_coverage(struct run *r)
{
	const struct config *c = r->cfg;

	for (int e = 0; e < EV_COUNT; e++)
		if (!r->st.events[e])
			run_fail(r, "the run never did %s", event_names[e]);
	if (c->want_enospc && !r->st.enospc)
		run_fail(r, "the volume never filled up: no ENOSPC path ran");
	if (c->want_cont && r->st.max_extents <= r->inode_extents)
		run_fail(r, "no file had more than %u extents: no continuation table was made",
			 r->inode_extents);
	if (r->st.max_bucket_chain < 2)
		run_fail(r, "no two names ever shared a bucket");
	if (!r->st.renames_done)
		run_fail(r, "no rename succeeded");
}

static void test_model(gconstpointer data)
{
	const struct test_case *tc = data;
	struct run r = {
		.cfg = tc->cfg, .seed = tc->seed, .nops = tc->nops, .batch = tc->batch,
		.trace = tc->trace,
	};

	g_test_message("config %s, seed %u, %u ops, checkpoint every %u", r.cfg->name, r.seed,
		       r.nops, r.batch);
	if (run_setup(&r)) {
		for (r.op_no = 0; r.op_no < r.nops && !r.failed; r.op_no++) {
			ops_run_one(&r);
			r.st.ops++;
			if (!r.failed && ((r.op_no + 1) % r.batch == 0 || r.op_no + 1 == r.nops))
				checkpoint(&r);
		}
		if (!r.failed && tc->check_coverage)
			check_coverage(&r);
	}
	g_test_message("config %s, seed %u: %u ops, %llu bytes written, %u renames, %u ENOSPC, "
		       "at most %u extents in a file and %u names in a bucket, %u remounts; %u files "
		       "and %u directories at the end", r.cfg->name, r.seed, r.st.ops,
		       (unsigned long long)r.st.bytes_written, r.st.renames_done, r.st.enospc,
		       r.st.max_extents, r.st.max_bucket_chain, r.st.remounts,
		       r.m.files ? r.m.files->len : 0, r.m.dirs ? r.m.dirs->len : 0);
	run_teardown(&r);
}

static unsigned env_uint(const char *name, unsigned def)
{
	const char *v = g_getenv(name);
	guint64 n;

	if (!v || !*v)
		return def;
	if (!g_ascii_string_to_unsigned(v, 10, 1, G_MAXUINT32, &n, NULL))
		g_error("%s=%s is not a positive number", name, v);
	return (unsigned)n;
}

int main(int argc, char **argv)
{
	const char *only = g_getenv("OMFS_MODEL_CONFIG");
	bool seeded = g_getenv("OMFS_MODEL_SEED") != NULL;
	unsigned nops = env_uint("OMFS_MODEL_OPS", DEFAULT_OPS);
	unsigned batch = env_uint("OMFS_MODEL_BATCH", DEFAULT_BATCH);
	bool trace = env_uint("OMFS_MODEL_TRACE", 0) != 0;
	bool matched = false;

	g_test_init(&argc, &argv, NULL);
	for (size_t i = 0; i < G_N_ELEMENTS(configs); i++) {
		struct test_case *tc;
		char *path;

		if (only && strcmp(only, configs[i].name))
			continue;
		matched = true;
		tc = g_new0(struct test_case, 1);
		tc->cfg = &configs[i];
		tc->seed = seeded ? env_uint("OMFS_MODEL_SEED", 1) : configs[i].seed;
		tc->nops = nops;
		tc->batch = batch;
		tc->trace = trace;
		tc->check_coverage = !seeded && nops >= DEFAULT_OPS;
		path = g_strdup_printf("/model/%s/seed-%u", configs[i].name, tc->seed);
		g_test_add_data_func_full(path, tc, test_model, g_free);
		g_free(path);
	}
	if (only && !matched)
		g_error("OMFS_MODEL_CONFIG=%s names no configuration", only);
	return g_test_run();
}
