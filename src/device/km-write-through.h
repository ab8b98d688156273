/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-write-through.h - large writes to a block device reach it as they are
 * made, and leave no copy in the page cache.
 *
 * A buffered write to a disk node only fills the page cache: a copy shows
 * 100% long before the player holds the bytes (the final flush then waits
 * for all of them), and a backup's restore pushes everything else out of
 * memory. So after each write of KM_WRITE_THROUGH_MIN bytes or more, the
 * kernel is told to start writing that range out (sync_file_range), the
 * previous such range is waited for and dropped from the page cache
 * (POSIX_FADV_DONTNEED): the device is at most one request behind the
 * writes, which overlap its I/O, and the page cache holds at most two
 * requests of ours. A flush (fdatasync) waits for the rest and drops it.
 * Smaller writes (the file system's own blocks) stay buffered until the flush.
 * Docs: docs/PERFORMANCE.md, "Writing to a block device".
 */
#ifndef KM_WRITE_THROUGH_H
#define KM_WRITE_THROUGH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KM_WRITE_THROUGH_MIN ((size_t)64 << 10)

struct km_write_through {
	bool on;		/* a block device */
	uint64_t pending_pos;	/* the last large write, being written out */
	uint64_t pending_len;	/* 0: none */
};

void km_write_through_init(struct km_write_through *wt, int fd);
/* After len bytes were written at pos of fd (pos from the file's start): 0 or -errno. */
int km_write_through_wrote(struct km_write_through *wt, int fd, uint64_t pos, size_t len);
/* After fd's fdatasync succeeded: the last range leaves the page cache. */
void km_write_through_flushed(struct km_write_through *wt, int fd);

#endif
