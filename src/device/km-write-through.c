/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-write-through.c - large writes to a block device as they are made (km-write-through.h). */
#include "km-write-through.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

void km_write_through_init(struct km_write_through *wt, int fd)
{
	struct stat st;

	bool device = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode);

	*wt = (struct km_write_through){ .on = device, .flushes = device };
}

void km_write_through_init_file(struct km_write_through *wt)
{
	*wt = (struct km_write_through){ .on = true };
}

/* Waits until the pending range is on the device, then drops it from the page cache. */
static int settle_pending(struct km_write_through *wt, int fd)
{
	int err = 0;

	if (!wt->pending_len)
		return 0;
	if (sync_file_range(fd, (off_t)wt->pending_pos, (off_t)wt->pending_len,
			    SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
			    SYNC_FILE_RANGE_WAIT_AFTER) < 0)
		err = -errno;
	else
		posix_fadvise(fd, (off_t)wt->pending_pos, (off_t)wt->pending_len,
			      POSIX_FADV_DONTNEED);
	wt->pending_len = 0;
	return err;
}

int km_write_through_wrote(struct km_write_through *wt, int fd, uint64_t pos, size_t len)
{
	int err;

	if (!wt->on || len < KM_WRITE_THROUGH_MIN)
		return 0;
	if (sync_file_range(fd, (off_t)pos, (off_t)len, SYNC_FILE_RANGE_WRITE) < 0)
		return -errno;
	err = settle_pending(wt, fd);
	wt->pending_pos = pos;
	wt->pending_len = len;
	wt->unflushed += len;
	if (err || !wt->flushes || wt->unflushed < KM_WRITE_THROUGH_FLUSH_EVERY)
		return err;
	/* The device's write cache holds enough of the copy: empty it now, not at the end. */
	if (fdatasync(fd) < 0)
		return -errno;
	km_write_through_flushed(wt, fd);
	return 0;
}

void km_write_through_flushed(struct km_write_through *wt, int fd)
{
	if (wt->pending_len)
		posix_fadvise(fd, (off_t)wt->pending_pos, (off_t)wt->pending_len,
			      POSIX_FADV_DONTNEED);
	wt->pending_len = 0;
	wt->unflushed = 0;
}
