/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model.h - the model-based random test of the OMFS core: an in-memory
 * reference tree, the random operations run against both it and the core,
 * and the checks that compare the two.
 *
 * The test sees the core only through omfs.h (and the on-disk bitmap, to
 * judge whether an -ENOSPC was deserved). Everything random comes from one
 * GRand seeded with the run's seed, and the volume's clock is a counter, so
 * a seed replays exactly.
 */
#ifndef MODEL_H
#define MODEL_H

#include "omfs.h"
#include "km-mem-device.h"

#include <glib.h>

/* ---- the reference tree (model.c) ---- */

struct mnode {
	char *name;		/* the root's is "" */
	size_t len;
	bool is_dir;
	uint64_t ino;
	GByteArray *data;	/* files: the exact bytes */
	uint64_t ctime;		/* as stat showed it before the last unmount */
	GNode *node;		/* the tree node whose data this is */
};

struct model {
	GNode *root;
	GPtrArray *files;	/* GNode * of every file, for random picks */
	GPtrArray *dirs;	/* GNode * of every directory, the root included */
};

static inline struct mnode *mnode_of(GNode *n)
{
	return n->data;
}

void model_init(struct model *m, uint64_t root_ino);
void model_destroy(struct model *m);
/* The child of dir named exactly name[0..len), or NULL. */
GNode *model_child(GNode *dir, const char *name, size_t len);
GNode *model_add(struct model *m, GNode *dir, const char *name, size_t len, bool is_dir,
		 uint64_t ino);
/* Drop a file or an empty directory. */
void model_remove(struct model *m, GNode *n);
void model_move(GNode *n, GNode *newdir, const char *name, size_t len);
/* Change a file's size: cut, or extend with zeros. */
void model_resize(struct model *m, GNode *file, uint64_t size);
void model_write(struct model *m, GNode *file, uint64_t off, const uint8_t *buf, size_t len);
/* "/a/b" (the root is "/"); bytes of odd names are kept as they are. */
char *model_path(GNode *n);
bool model_dir_is_empty(GNode *dir);

/* ---- a run: one seed on one volume configuration (test-model.c) ---- */

struct config {
	const char *name;
	uint64_t dev_size;
	uint32_t blocksize;
	uint32_t sys_blocksize;
	uint32_t mirrors;
	uint32_t clustersize;
	size_t cache_blocks;	/* 0: the core's default */
	size_t max_request;	/* 0: the core's default */
	/* file bytes the op mix aims at, in percent of the volume (> 100: fill it up) */
	unsigned fill_percent;
	bool fragment;		/* interleaved appends that scatter files */
	bool want_enospc;	/* the run must have seen -ENOSPC */
	bool want_cont;		/* the run must have made continuation tables */
	guint32 seed;		/* the suite's seed for this configuration */
};

/* What a run must have done at least once (checked at the default length). */
enum event {
	EV_GAP_WRITE,		/* a write past the end, leaving zeros between */
	EV_BIG_WRITE,		/* a write of more than 8 blocks */
	EV_SHRINK,
	EV_GROW,		/* truncate past the end */
	EV_RENAME_SAME_DIR,
	EV_RENAME_CROSS_DIR,
	EV_RENAME_OVER_FILE,
	EV_RENAME_OVER_EMPTY_DIR,
	EV_RENAME_INTO_SUBTREE,	/* -EINVAL */
	EV_RENAME_OVER_FULL_DIR,	/* -ENOTEMPTY */
	EV_RENAME_FILE_OVER_DIR,	/* -EISDIR */
	EV_RMDIR_EMPTY,
	EV_RMDIR_NOT_EMPTY,	/* -ENOTEMPTY */
	EV_UNLINK,
	EV_LOOKUP_MISSING,	/* -ENOENT */
	EV_PREFIX_IN_BUCKET,	/* a lookup where a prefix (or extension) of the name shares its bucket */
	EV_COUNT
};

struct run_stats {
	unsigned events[EV_COUNT];
	unsigned ops;
	unsigned enospc;
	unsigned max_extents;
	unsigned max_bucket_chain;
	unsigned renames_done;
	unsigned remounts;
	uint64_t bytes_written;
};

/* Two names of the crowd in one bucket, the first a prefix of the second. */
struct name_pair {
	guint prefix;
	guint longer;
};

struct run {
	const struct config *cfg;
	guint32 seed;
	unsigned nops;
	unsigned batch;
	bool trace;
	GRand *rand;		/* every random choice of the operations */
	struct km_mem_device *dev;
	struct omfs_fs *fs;
	struct omfs_mount_opts mopts;
	uint64_t clock;		/* the volume's clock: ms, advanced on every call */
	struct model m;
	unsigned op_no;
	char *op_desc;		/* what the current operation is, for messages */
	bool failed;
	struct run_stats st;
	uint32_t inode_extents;	/* data extents an inode's table holds */
	uint32_t cont_extents;	/* data extents a continuation table holds */
	uint32_t nbuckets;
	GPtrArray *crowd;	/* names that share a few buckets, prefixes of one another */
	GArray *prefix_pairs;	/* struct name_pair */
	uint8_t *buf;		/* scratch for reads */
	size_t buf_size;
};

/* Report a mismatch (once per run) with everything needed to replay it; returns false. */
bool run_fail(struct run *r, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* Describe the operation about to run (and trace it when asked). */
void run_op(struct run *r, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* The core's return value must be one of the wanted ones (0 or -errno). */
bool run_check_rc(struct run *r, int64_t got, int64_t want);
bool run_check_rc_any(struct run *r, int64_t got, const int *wants, size_t n);
/* Scratch buffer of at least `size` bytes. */
uint8_t *run_buf(struct run *r, size_t size);
uint64_t run_blocks_for(const struct run *r, uint64_t bytes);
/* Continuation tables a file with `extents` extents needs at the least. */
uint64_t run_tables_for(const struct run *r, uint64_t extents);

/* ---- comparing the core with the model (verify.c) ---- */

enum compare_mode {
	COMPARE_RECORD_CTIME,	/* before an unmount: remember every ctime */
	COMPARE_CHECK_CTIME,	/* after a remount: every ctime survived */
};

/* readdir of every directory, stat of every node, every file's bytes, path lookups. */
bool verify_tree(struct run *r, enum compare_mode mode);
/* One file against the model: size, mapped blocks and bytes. */
bool verify_file(struct run *r, GNode *file);
/* statfs free blocks = zero bits in the on-disk bitmap = blocks the model owns nothing in. */
bool verify_accounting(struct run *r);
/* fsck (not repairing) on the unmounted device: clean, nothing written. */
bool verify_fsck(struct run *r);

/* Free blocks and the file's mapping before an operation that may allocate. */
struct space_before {
	uint64_t free;		/* statfs: free blocks, pending frees included */
	uint64_t data_blocks;
	uint32_t extents;
};
bool verify_note_before(struct run *r, GNode *file, struct space_before *b);
/* The core said -ENOSPC: nothing changed, and the volume really had no room. */
bool verify_enospc_inode(struct run *r, const struct space_before *b);
bool verify_enospc_grow(struct run *r, GNode *file, const struct space_before *b,
			uint64_t new_size);

/* ---- the random operations (pick.c, ops-file.c, ops-tree.c) ---- */

void ops_init(struct run *r);
void ops_destroy(struct run *r);
void ops_run_one(struct run *r);

#endif
