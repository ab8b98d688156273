/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * omfs.h - the embedded OMFS core: public interface.
 *
 * Plain C11, libc only. Storage is reached through struct omfs_blockdev only.
 * Single owner: not thread-safe. Every function that can fail returns a
 * negative errno value and leaves a sentence in omfs_errmsg() (which block,
 * what was wrong).
 */
#ifndef OMFS_H
#define OMFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OMFS_NIL UINT64_MAX
#define OMFS_NAME_MAX 256
#define OMFS_ERRMSG_MAX 320

/* Byte-addressed storage. read/write return 0 or -errno (a short transfer is an error). */
struct omfs_blockdev {
	void *ctx;
	int (*read)(void *ctx, uint64_t offset, void *buf, size_t len);
	int (*write)(void *ctx, uint64_t offset, const void *buf, size_t len);
	/* Everything written so far is durable before anything written later. */
	int (*flush)(void *ctx);
	uint64_t (*size)(void *ctx);
};

struct omfs_mount_opts {
	bool read_only;
	/* Milliseconds since the epoch; NULL means the real clock. */
	uint64_t (*clock_ms)(void *ctx);
	void *clock_ctx;
	size_t cache_blocks;	/* sysblocks kept in the cache; 0 = default */
	size_t max_request;	/* largest bulk data request in bytes; 0 = default */
};

struct omfs_fs;

struct omfs_stat {
	uint64_t ino;
	uint64_t parent;
	uint64_t size;
	uint64_t ctime_ms;
	uint64_t data_blocks;	/* FS blocks mapped by the extent tables */
	uint32_t extents;
	bool is_dir;
};

struct omfs_dirent {
	uint64_t ino;
	bool is_dir;
	size_t namelen;
	char name[OMFS_NAME_MAX + 1];	/* NUL-terminated copy of the on-disk bytes */
};

struct omfs_statfs {
	uint64_t num_blocks;
	uint64_t free_blocks;
	uint32_t blocksize;
	uint32_t sys_blocksize;
	uint32_t mirrors;
	uint32_t clustersize;
	uint32_t namelen;
};

/* Superblock and root block fields, as read (for `karmactl info`). */
struct omfs_info {
	char s_name[65];
	uint64_t s_root_block;
	uint64_t s_num_blocks;
	uint32_t s_magic;
	uint32_t s_blocksize;
	uint32_t s_mirrors;
	uint32_t s_sys_blocksize;
	uint64_t r_num_blocks;
	uint64_t r_root_dir;
	uint64_t r_bitmap;
	uint32_t r_blocksize;
	uint32_t r_clustersize;
	uint64_t r_mirrors;
	char r_name[257];
	bool root_checksum_ok;
	uint64_t bitmap_blocks;
};

/* I/O and cache counters, for tests and benchmarks. */
struct omfs_counters {
	uint64_t read_requests;
	uint64_t read_bytes;
	uint64_t write_requests;
	uint64_t write_bytes;
	uint64_t flushes;
	uint64_t cache_hits;
	uint64_t cache_misses;
	uint64_t cache_evictions;
};

int omfs_mount(const struct omfs_blockdev *dev, const struct omfs_mount_opts *opts,
	       struct omfs_fs **out, char *msg, size_t msglen);
/* Writes everything back, then frees fs (also when the write-back fails). */
int omfs_unmount(struct omfs_fs *fs);
int omfs_sync(struct omfs_fs *fs);
const char *omfs_errmsg(const struct omfs_fs *fs);

uint64_t omfs_root_ino(const struct omfs_fs *fs);
int omfs_lookup(struct omfs_fs *fs, uint64_t dir, const char *name, size_t len, uint64_t *ino);
/* Absolute or relative to the root, '/' separated; "" and "/" are the root. */
int omfs_resolve(struct omfs_fs *fs, const char *path, uint64_t *ino);
int omfs_stat(struct omfs_fs *fs, uint64_t ino, struct omfs_stat *st);
/*
 * Start with *pos = 0. Returns 1 with an entry, 0 at the end, or -errno.
 * Positions are the kernel's ((bucket + 1) << 20 | index) and stay valid
 * across calls.
 */
int omfs_readdir(struct omfs_fs *fs, uint64_t dir, uint64_t *pos, struct omfs_dirent *ent);

/* Return bytes transferred or -errno. Reads stop at end of file. */
int64_t omfs_read(struct omfs_fs *fs, uint64_t ino, uint64_t off, void *buf, size_t len);
int64_t omfs_write(struct omfs_fs *fs, uint64_t ino, uint64_t off, const void *buf, size_t len);
int omfs_truncate(struct omfs_fs *fs, uint64_t ino, uint64_t size);
int omfs_set_ctime(struct omfs_fs *fs, uint64_t ino, uint64_t ctime_ms);

int omfs_create(struct omfs_fs *fs, uint64_t dir, const char *name, size_t len, uint64_t *ino);
int omfs_mkdir(struct omfs_fs *fs, uint64_t dir, const char *name, size_t len, uint64_t *ino);
int omfs_unlink(struct omfs_fs *fs, uint64_t dir, const char *name, size_t len);
int omfs_rmdir(struct omfs_fs *fs, uint64_t dir, const char *name, size_t len);
/* Replaces an existing target (a file by a file, a directory by an empty directory). */
int omfs_rename(struct omfs_fs *fs, uint64_t olddir, const char *oldname, size_t oldlen,
		uint64_t newdir, const char *newname, size_t newlen);

int omfs_statfs(struct omfs_fs *fs, struct omfs_statfs *sfs);
/*
 * The first run of blocks in use at or after block `from`, as the bitmap says
 * (the superblock, root block and bitmap always count as used): returns true
 * with [*start, *start + *count), false when no block from there on is used.
 * Backups skip the other blocks. Block n starts at byte n * blocksize.
 */
bool omfs_next_used_run(const struct omfs_fs *fs, uint64_t from, uint64_t *start,
			uint64_t *count);
void omfs_get_info(const struct omfs_fs *fs, struct omfs_info *info);
void omfs_get_counters(const struct omfs_fs *fs, struct omfs_counters *c);
void omfs_reset_counters(struct omfs_fs *fs);

/* mkfs. Zero fields take the defaults: 8192 / 2048 / 2 mirrors / cluster 8, label "omfs". */
struct omfs_mkfs_opts {
	uint32_t blocksize;
	uint32_t sys_blocksize;
	uint32_t mirrors;
	uint32_t clustersize;
	const char *label;
	uint64_t num_blocks;	/* 0 = as many as the device holds */
	uint64_t time_ms;	/* root directory ctime; 0 = now */
};
int omfs_mkfs(const struct omfs_blockdev *dev, const struct omfs_mkfs_opts *opts,
	      char *msg, size_t msglen);

/* fsck. The return value is an e2fsck-style exit code. */
enum {
	OMFS_FSCK_CLEAN = 0,
	OMFS_FSCK_CORRECTED = 1,
	OMFS_FSCK_UNCORRECTED = 4,
	OMFS_FSCK_OPERATIONAL = 8,
};
/*
 * LEAK: a harmless leftover of an interrupted write, which repair tidies:
 * blocks marked used that nothing owns, a mirror copy older than its primary.
 * NOTE: what the kernel and omfsprogs' omfsck accept but we would not write
 * (mkomfs's unsealed root block, its byte-swapped r_mirrors): the volume is
 * clean; a repair normalises it (exit code 1).
 */
enum omfs_fsck_severity {
	OMFS_FSCK_INFO, OMFS_FSCK_LEAK, OMFS_FSCK_ERROR, OMFS_FSCK_FIXED, OMFS_FSCK_NOTE
};
struct omfs_fsck_opts {
	bool repair;
	/* One sentence per finding; may be NULL. */
	void (*report)(void *ctx, enum omfs_fsck_severity sev, const char *msg);
	void *report_ctx;
};
struct omfs_fsck_result {
	unsigned errors;	/* problems found (leaks included) */
	unsigned fixed;		/* of those, repaired */
	unsigned notes;		/* NOTE findings: not errors */
	bool normalized;	/* a repair rewrote what the notes were about */
	uint64_t leaked_blocks;	/* marked used, owned by nothing */
	uint64_t unmarked_blocks; /* in use, marked free: a write could be put over them */
	uint64_t files;
	uint64_t dirs;
};
int omfs_fsck(const struct omfs_blockdev *dev, const struct omfs_fsck_opts *opts,
	      struct omfs_fsck_result *res);

/* CRC-16/XMODEM and the kernel's name hash, exposed for tests and tools. */
uint16_t omfs_crc16(const void *data, size_t len);
uint32_t omfs_name_hash(const char *name, size_t len, uint32_t nbuckets);

#endif
