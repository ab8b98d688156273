/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-direct-read.h - large reads of a block device or an image file around
 * the page cache (O_DIRECT), when that is faster.
 *
 * How a request is served (docs/PERFORMANCE.md, "Reading around the page
 * cache"):
 * - requests under KM_DIRECT_MIN (the file system's own blocks, which the
 *   core caches) go through the page cache;
 * - a larger request whose bytes the page cache already holds all of
 *   (cachestat(2)) is copied from it: a warm image reads at memory speed;
 * - any other is read with O_DIRECT: the device's bytes straight into the
 *   caller's buffer when it, the offset and the length are aligned to the
 *   logical block size (BLKSSZGET; for a file the page size, which
 *   local file systems accept),
 *   else through an aligned bounce buffer (the aligned blocks around the
 *   request, so partial first and last blocks work). The kernel writes
 *   dirty cached pages of the range back before a direct read, so a read
 *   sees every write made before it, buffered or not.
 * When the file cannot be opened with O_DIRECT, reports no alignment, or a
 * direct read is refused (EINVAL), every request goes through the page
 * cache from then on.
 *
 * Not thread-safe for two readers at once (one bounce buffer); writes on
 * other threads are fine.
 */
#ifndef KM_DIRECT_READ_H
#define KM_DIRECT_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Smaller requests always go through the page cache. */
#define KM_DIRECT_MIN ((size_t)64 << 10)
/* Unaligned requests go through a bounce buffer this large, in pieces. */
#define KM_DIRECT_BOUNCE ((size_t)1 << 20)
/* km_direct_read() did not read: read through the page cache. */
#define KM_DIRECT_BUFFERED 1

struct km_direct_read {
	int fd;			/* the file opened again with O_DIRECT, or -1 */
	size_t align;		/* offsets, lengths and buffers of direct reads: multiples */
	uint8_t *bounce;	/* KM_DIRECT_BOUNCE bytes, page aligned, made on first use */
	bool no_cachestat;	/* the kernel has no cachestat(2): assume nothing is cached */
};

/* Prepares direct reads of the file open as fd (dr->fd stays -1 when impossible). */
void km_direct_read_init(struct km_direct_read *dr, int fd);
/*
 * Reads len bytes at pos of the file (pos counted from its start) into buf:
 * 0, -errno, or KM_DIRECT_BUFFERED when the caller should read them through
 * the page cache (from cached_fd, the file's ordinary descriptor).
 */
int km_direct_read(struct km_direct_read *dr, int cached_fd, uint64_t pos, void *buf,
		   size_t len);
void km_direct_read_fini(struct km_direct_read *dr);

#endif
