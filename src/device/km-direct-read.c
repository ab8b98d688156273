/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-direct-read.c - large reads around the page cache (km-direct-read.h says when). */
#include "km-direct-read.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* cachestat(2), Linux 6.5; the C library's headers may not have it yet. */
#ifndef __NR_cachestat
#define __NR_cachestat 451	/* the same number on every architecture */
#endif
struct km_cachestat_range {
	uint64_t off;
	uint64_t len;
};
struct km_cachestat {
	uint64_t nr_cache;
	uint64_t nr_dirty;
	uint64_t nr_writeback;
	uint64_t nr_evicted;
	uint64_t nr_recently_evicted;
};

/* The alignment direct reads of fd need, or 0 when it takes none. */
static size_t direct_alignment(int fd)
{
	struct stat st;
	int lbs = 0;

	if (fstat(fd, &st) < 0)
		return 0;
	if (S_ISBLK(st.st_mode))
		return ioctl(fd, BLKSSZGET, &lbs) == 0 && lbs > 0 ? (size_t)lbs : 0;
	if (S_ISREG(st.st_mode))
		return (size_t)sysconf(_SC_PAGESIZE);
	return 0;
}

void km_direct_read_init(struct km_direct_read *dr, int fd)
{
	char self[32];

	*dr = (struct km_direct_read){ .fd = -1 };
	dr->align = direct_alignment(fd);
	if (!dr->align || dr->align > KM_DIRECT_BOUNCE || KM_DIRECT_BOUNCE % dr->align)
		return;
	/* The same open file, whatever its name has become since. */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	dr->fd = open(self, O_RDONLY | O_DIRECT | O_CLOEXEC);
}

static void give_up_direct(struct km_direct_read *dr)
{
	close(dr->fd);
	dr->fd = -1;
}

void km_direct_read_fini(struct km_direct_read *dr)
{
	if (dr->fd >= 0)
		give_up_direct(dr);
	free(dr->bounce);
	dr->bounce = NULL;
}

/* Whether the page cache holds every page of the range. */
static bool all_cached(struct km_direct_read *dr, int fd, uint64_t pos, size_t len)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t pages = (pos + len + page - 1) / page - pos / page;
	struct km_cachestat_range range = { pos / page * page, pages * page };
	struct km_cachestat cs;

	if (dr->no_cachestat)
		return false;
	if (syscall(__NR_cachestat, fd, &range, &cs, 0) != 0) {
		dr->no_cachestat = true;
		return false;
	}
	return cs.nr_cache >= pages;
}

/*
 * Direct reads of len bytes at pos (all aligned) into buf: the bytes read,
 * fewer only at the end of the file, or -errno.
 */
static ssize_t pread_direct(struct km_direct_read *dr, uint64_t pos, uint8_t *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(dr->fd, buf + done, len - done, (off_t)(pos + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		done += (size_t)n;
		if (done % dr->align)
			break;	/* the end of a file in the middle of a block */
	}
	return (ssize_t)done;
}

static bool is_aligned(const struct km_direct_read *dr, uint64_t value)
{
	return value % dr->align == 0;
}

/* Through the bounce buffer: the aligned blocks around each piece, then the piece's bytes. */
static ssize_t read_bounced(struct km_direct_read *dr, uint64_t pos, uint8_t *buf, size_t len)
{
	if (!dr->bounce && posix_memalign((void **)&dr->bounce, (size_t)sysconf(_SC_PAGESIZE),
					  KM_DIRECT_BOUNCE) != 0) {
		dr->bounce = NULL;
		return -ENOMEM;
	}
	while (len) {
		uint64_t start = pos / dr->align * dr->align;
		size_t skip = (size_t)(pos - start);
		size_t piece = len < KM_DIRECT_BOUNCE - skip ? len : KM_DIRECT_BOUNCE - skip;
		size_t span = (skip + piece + dr->align - 1) / dr->align * dr->align;
		ssize_t got = pread_direct(dr, start, dr->bounce, span);

		if (got < 0)
			return got;
		if ((size_t)got < skip + piece)
			return -EIO;	/* past the end of a file shorter than it claims */
		memcpy(buf, dr->bounce + skip, piece);
		buf += piece;
		pos += piece;
		len -= piece;
	}
	return 0;
}

static ssize_t read_direct(struct km_direct_read *dr, uint64_t pos, uint8_t *buf, size_t len)
{
	ssize_t got;

	if (!is_aligned(dr, pos) || !is_aligned(dr, len) || !is_aligned(dr, (uintptr_t)buf))
		return read_bounced(dr, pos, buf, len);
	got = pread_direct(dr, pos, buf, len);
	if (got >= 0 && (size_t)got < len)
		return -EIO;
	return got < 0 ? got : 0;
}

int km_direct_read(struct km_direct_read *dr, int cached_fd, uint64_t pos, void *buf,
		   size_t len)
{
	ssize_t err;

	if (dr->fd < 0 || len < KM_DIRECT_MIN || all_cached(dr, cached_fd, pos, len))
		return KM_DIRECT_BUFFERED;
	err = read_direct(dr, pos, buf, len);
	if (err == -EINVAL) {
		/* the file system refuses direct reads after all (or these alignments) */
		give_up_direct(dr);
		return KM_DIRECT_BUFFERED;
	}
	return (int)err;
}
