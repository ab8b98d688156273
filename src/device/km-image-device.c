/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-image-device.c - an image file or a block-device node as an omfs_blockdev,
 * optionally a window of it (a partition, or a volume at an offset).
 */
#include "km-image-device.h"
#include "omfs.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "km-direct-read.h"
#include "km-fail.h"
#include "km-write-through.h"
#include "km-storage-lock.h"

struct km_image_device {
	struct omfs_blockdev bdev;
	int fd;
	uint64_t offset;
	uint64_t length;
	struct km_direct_read direct;	/* large reads around the page cache, when faster */
	struct km_write_through through;	/* large writes to a disk node reach it at once */
};

static int image_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	struct km_image_device *d = ctx;
	uint8_t *p = buf;

	int err;

	if (off > d->length || len > d->length - off)
		return -EIO;
	err = km_direct_read(&d->direct, d->fd, d->offset + off, buf, len);
	if (err != KM_DIRECT_BUFFERED)
		return err;
	while (len) {
		ssize_t n = pread(d->fd, p, len, (off_t)(d->offset + off));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;	/* past the end of a file shorter than it claims */
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

static int image_write(void *ctx, uint64_t off, const void *buf, size_t len)
{
	struct km_image_device *d = ctx;
	const uint8_t *p = buf;
	uint64_t pos = d->offset + off;
	size_t total = len;

	if (off > d->length || len > d->length - off)
		return -EIO;
	while (len) {
		ssize_t n = pwrite(d->fd, p, len, (off_t)(d->offset + off));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return km_write_through_wrote(&d->through, d->fd, pos, total);
}

static int image_flush(void *ctx)
{
	struct km_image_device *d = ctx;

	if (fdatasync(d->fd) < 0)
		return -errno;
	km_write_through_flushed(&d->through, d->fd);
	return 0;
}

static uint64_t image_size(void *ctx)
{
	return ((struct km_image_device *)ctx)->length;
}

static int fd_size(int fd, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -1;
	if (S_ISBLK(st.st_mode)) {
		off_t end;

		if (ioctl(fd, BLKGETSIZE64, size) == 0)
			return 0;
		/* a node that takes no block ioctls (umockdev's fake disks): its end */
		end = lseek(fd, 0, SEEK_END);
		if (end < 0)
			return -1;
		*size = (uint64_t)end;
		return 0;
	}
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	*size = (uint64_t)st.st_size;
	return 0;
}

static struct km_image_device *wrap_fd(int fd, uint64_t offset, uint64_t length)
{
	struct km_image_device *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->fd = fd;
	d->offset = offset;
	d->length = length;
	km_direct_read_init(&d->direct, fd);
	km_write_through_init(&d->through, fd);
	d->bdev = (struct omfs_blockdev){
		.ctx = d, .read = image_read, .write = image_write,
		.flush = image_flush, .size = image_size,
	};
	return d;
}

/*
 * A writer opens a disk node with O_EXCL: the kernel then refuses it while
 * a partition of the disk is mounted or another program holds it the same
 * way, and refuses to mount it while we write.
 */
static int open_storage(const char *path, bool writable, char *msg, size_t msglen)
{
	int flags = (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	struct stat st;
	int fd;

	if (writable && stat(path, &st) == 0 && S_ISBLK(st.st_mode))
		flags |= O_EXCL;
	fd = open(path, flags);
	if (fd >= 0)
		return fd;
	if (errno == EBUSY)
		snprintf(msg, msglen, "%s is in use: mounted, or held for writing by another program",
			 path);
	else
		snprintf(msg, msglen, "%s: %s", path, strerror(errno));
	return -errno;
}

struct km_image_device *km_image_device_open(const char *path, bool writable, uint64_t offset,
					     uint64_t length, char *msg, size_t msglen)
{
	int fd = open_storage(path, writable, msg, msglen);
	uint64_t size = 0;
	struct km_image_device *d;
	int saved;

	if (fd < 0) {
		saved = -fd;
		goto fail;
	}
	saved = -km_storage_lock(fd, path, writable, msg, msglen);
	if (saved)
		goto fail;
	if (fd_size(fd, &size) < 0) {
		saved = errno;
		snprintf(msg, msglen, "%s: %s", path, strerror(saved));
		goto fail;
	}
	if (offset > size || length > size - offset) {
		saved = EINVAL;
		snprintf(msg, msglen, "%s: offset %llu and length %llu lie past its end (%llu bytes)",
			 path, (unsigned long long)offset, (unsigned long long)length,
			 (unsigned long long)size);
		goto fail;
	}
	d = wrap_fd(fd, offset, length ? length : size - offset);
	if (d)
		return d;
	saved = ENOMEM;
	snprintf(msg, msglen, "out of memory");
fail:
	if (fd >= 0)
		close(fd);
	errno = saved;
	return NULL;
}

/* Emptied only once it is locked: a file another writer holds is left alone. */
static int lock_and_empty(int fd, const char *path, uint64_t size, char *msg, size_t msglen)
{
	int err = km_storage_lock(fd, path, true, msg, msglen);

	if (err < 0)
		return err;
	if (ftruncate(fd, 0) < 0 || ftruncate(fd, (off_t)size) < 0)
		return km_fail(-errno, msg, msglen, "%s: %s", path, strerror(errno));
	return 0;
}

struct km_image_device *km_image_device_create(const char *path, uint64_t size, char *msg,
					       size_t msglen)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	struct km_image_device *d;
	int err;

	if (fd < 0) {
		err = errno;
		snprintf(msg, msglen, "%s: %s", path, strerror(err));
		errno = err;
		return NULL;
	}
	err = lock_and_empty(fd, path, size, msg, msglen);
	d = err < 0 ? NULL : wrap_fd(fd, 0, size);
	if (!d && !err) {
		err = -ENOMEM;
		snprintf(msg, msglen, "out of memory");
	}
	if (!d) {
		close(fd);
		errno = -err;
	}
	return d;
}

const struct omfs_blockdev *km_image_device_blockdev(struct km_image_device *d)
{
	return &d->bdev;
}

int km_image_device_close(struct km_image_device *d)
{
	int err = 0;

	if (!d)
		return 0;
	km_direct_read_fini(&d->direct);
	if (close(d->fd) < 0)
		err = -errno;
	free(d);
	return err;
}
