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
 * requests of ours. A write that has reached the device may still sit in
 * its volatile write cache, so every KM_WRITE_THROUGH_FLUSH_EVERY bytes of
 * large writes the device is also flushed (fdatasync): what a copy's
 * progress counts as written is on the medium but for the last few MiB,
 * and the flush that ends a command waits for those alone, not for the
 * whole copy (a 128 MiB copy's final flush took 72 ms on a loop device,
 * 8 MiB's about 10 ms). A flush orders nothing wrongly: it only makes
 * earlier writes durable sooner. Smaller writes (the file system's own
 * blocks) stay buffered until a flush.
 * A backup's image file, written once and not read back soon, is written
 * the same way without the flushes (km_write_through_init_file), so that
 * backing up a 30 GB player does not push every other file out of memory.
 * Docs: docs/PERFORMANCE.md, "Writing to a block device".
 */
#ifndef KM_WRITE_THROUGH_H
#define KM_WRITE_THROUGH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KM_WRITE_THROUGH_MIN ((size_t)64 << 10)
#define KM_WRITE_THROUGH_FLUSH_EVERY ((uint64_t)8 << 20)

struct km_write_through {
	bool on;		/* a block device, or a file given to km_write_through_init_file */
	bool flushes;		/* fdatasync every KM_WRITE_THROUGH_FLUSH_EVERY bytes */
	uint64_t pending_pos;	/* the last large write, being written out */
	uint64_t pending_len;	/* 0: none */
	uint64_t unflushed;	/* bytes of large writes since the last flush */
};

/* On, with the flushes, when fd is a block device; else off. */
void km_write_through_init(struct km_write_through *wt, int fd);
/* On for any file, without the flushes: the caller makes it durable when it needs to. */
void km_write_through_init_file(struct km_write_through *wt);
/*
 * After len bytes were written at pos of fd (pos from the file's start): 0 or
 * -errno. May flush the device (KM_WRITE_THROUGH_FLUSH_EVERY).
 */
int km_write_through_wrote(struct km_write_through *wt, int fd, uint64_t pos, size_t len);
/* After fd's fdatasync succeeded: the last range leaves the page cache. */
void km_write_through_flushed(struct km_write_through *wt, int fd);

#endif
