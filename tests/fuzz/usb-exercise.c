/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usb-exercise.c - one conversation with a possibly hostile player: open,
 * reads and writes at aligned and unaligned offsets (some inside one
 * sector), a read past the end, a flush, a read-only OMFS mount with a walk
 * of the root, close. Whatever the player answers, every failure is a
 * negative errno with a sentence, the player's strings come out printable,
 * and the watching transport (usb-checker.c) sees a host that keeps to the
 * protocol.
 */
#include "usb-exercise.h"
#include "omfs.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "km-karma-usb.h"
#include "usb-checker.h"

#define ERRNO_MAX 4095
#define WALK_MAX 64		/* root entries read at most */
#define MOUNT_CACHE_BLOCKS 8

struct exercise {
	struct usb_exercise_result *r;
	struct usb_checker *checker;
	struct km_karma_usb *k;
	const struct omfs_blockdev *bdev;
	uint64_t size;
};

void usb_exercise_violation(struct usb_exercise_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->violations++)
		return;
	va_start(ap, fmt);
	vsnprintf(r->violation, sizeof(r->violation), fmt, ap);
	va_end(ap);
}

static bool is_errno(int err)
{
	return err < 0 && err >= -ERRNO_MAX;
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s > 0x7e)
			return false;
	return true;
}

/* A block-device operation's result: 0, or -errno with the stack's sentence. */
static bool check_result(struct exercise *x, int err, const char *what, uint64_t off,
			 size_t len)
{
	if (err && !is_errno(err))
		usb_exercise_violation(x->r, "%s of %zu bytes at %llu returned %d", what, len,
				       (unsigned long long)off, err);
	else if (err && !km_karma_usb_errmsg(x->k)[0])
		usb_exercise_violation(x->r, "%s of %zu bytes at %llu failed (%d) without a "
				       "sentence", what, len, (unsigned long long)off, err);
	return err == 0;
}

static void read_at(struct exercise *x, uint64_t off, size_t len)
{
	uint8_t *buf = malloc(len);	/* exactly len: an overrun is caught by ASan */
	uint64_t reads = usb_checker_reads(x->checker);
	int err;

	if (!buf)
		return;
	err = x->bdev->read(x->bdev->ctx, off, buf, len);
	if (!check_result(x, err, "read", off, len))
		x->r->reads_failed++;
	else if (usb_checker_reads(x->checker) == reads)
		usb_exercise_violation(x->r, "a read of %zu bytes at %llu succeeded without "
				       "READ(10)", len, (unsigned long long)off);
	else
		x->r->reads_ok++;
	free(buf);
}

/* Outside the disk: refused with a sentence, without a word to the player. */
static void read_past_end(struct exercise *x, uint64_t off, size_t len)
{
	uint64_t ops = usb_checker_ops(x->checker);
	uint8_t buf[32];
	int err = x->bdev->read(x->bdev->ctx, off, buf, len);

	if (err != -EIO && err != -ENODEV)
		usb_exercise_violation(x->r, "a read of %zu bytes at %llu, past the %llu-byte "
				       "disk, returned %d", len, (unsigned long long)off,
				       (unsigned long long)x->size, err);
	else if (usb_checker_ops(x->checker) != ops)
		usb_exercise_violation(x->r, "a read past the end of the disk reached the player");
	else
		check_result(x, err, "read past the end", off, len);
}

/* The checker lets WRITE(10) touch the sectors of [off, off + len) only, with these bytes. */
static void write_at(struct exercise *x, uint64_t off, size_t len)
{
	uint8_t *buf = malloc(len);
	int err;

	if (!buf)
		return;
	for (size_t i = 0; i < len; i++)
		buf[i] = usb_exercise_byte(off + i);
	usb_checker_allow_writes(x->checker, off, len);
	err = x->bdev->write(x->bdev->ctx, off, buf, len);
	usb_checker_allow_writes(x->checker, 0, 0);
	if (check_result(x, err, "write", off, len))
		x->r->writes_ok++;
	else
		x->r->writes_failed++;
	free(buf);
}

static void check_info(struct exercise *x)
{
	struct km_karma_usb_info info;

	km_karma_usb_get_info(x->k, &info);
	x->r->sectors = info.sectors;
	x->size = info.sectors * KM_SCSI_SECTOR;
	if (info.sectors == 0 || info.sectors > UINT32_MAX)
		usb_exercise_violation(x->r, "opened a disk of %llu sectors",
				       (unsigned long long)info.sectors);
	if (!printable(info.device_info) || !printable(info.inquiry.vendor) ||
	    !printable(info.inquiry.product) || !printable(info.inquiry.revision))
		usb_exercise_violation(x->r, "the player's strings are not printable");
	usb_checker_set_sectors(x->checker, info.sectors);
}

/*
 * Offsets relative to the size the player claims; those past the end are
 * left out. Away from the start of the disk, where OMFS keeps the blocks
 * the mount reads, so that the recorded seeds do not carry them twice.
 */
static void read_and_write(struct exercise *x)
{
	uint64_t quarter = x->size / 4 - x->size / 4 % KM_SCSI_SECTOR, mid = x->size / 2;
	const struct { uint64_t off; size_t len; } reads[] = {
		{ 0, 512 }, { quarter + 600, 50 }, { quarter + 1000, 100 },
		{ quarter + 513, 5000 }, { x->size - 10, 10 },
	};
	const struct { uint64_t off; size_t len; } writes[] = {
		{ mid + 7, 1500 }, { mid - 300, 20 }, { mid - mid % KM_SCSI_SECTOR + 8192, 4096 },
	};

	for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++)
		if (reads[i].off <= x->size && reads[i].len <= x->size - reads[i].off)
			read_at(x, reads[i].off, reads[i].len);
	read_past_end(x, x->size - 10, 20);
	for (size_t i = 0; i < sizeof(writes) / sizeof(writes[0]); i++)
		if (writes[i].off <= x->size && writes[i].len <= x->size - writes[i].off)
			write_at(x, writes[i].off, writes[i].len);
	x->r->flush_err = x->bdev->flush(x->bdev->ctx);
	check_result(x, x->r->flush_err, "flush", 0, 0);
}

/* Read-only: the checker allows no WRITE(10) here. */
static void mount_and_walk(struct exercise *x)
{
	struct omfs_mount_opts opts = { .read_only = true, .cache_blocks = MOUNT_CACHE_BLOCKS };
	struct omfs_dirent ent;
	struct omfs_fs *fs;
	uint64_t pos = 0;
	char msg[256];

	x->r->mount_err = omfs_mount(x->bdev, &opts, &fs, msg, sizeof(msg));
	if (x->r->mount_err) {
		if (!is_errno(x->r->mount_err) || !msg[0])
			usb_exercise_violation(x->r, "OMFS mount failed (%d) without a sentence",
					       x->r->mount_err);
		return;
	}
	while (x->r->dirents < WALK_MAX &&
	       omfs_readdir(fs, omfs_root_ino(fs), &pos, &ent) == 1)
		x->r->dirents++;
	omfs_unmount(fs);
}

static void close_player(struct exercise *x)
{
	char msg[256] = "";

	x->r->close_err = km_karma_usb_close(x->k, msg, sizeof(msg));
	if (x->r->close_err && (!is_errno(x->r->close_err) || !msg[0]))
		usb_exercise_violation(x->r, "close failed (%d) without a sentence",
				       x->r->close_err);
}

void usb_exercise(struct km_usb_transport *t, struct usb_exercise_result *r)
{
	struct exercise x = { .r = r };

	memset(r, 0, sizeof(*r));
	x.checker = usb_checker_new(t, r);
	if (!x.checker)
		return;
	errno = 0;
	x.k = km_karma_usb_open(usb_checker_transport(x.checker), r->open_msg,
				sizeof(r->open_msg));
	if (!x.k) {
		r->open_err = -errno;
		if (!is_errno(r->open_err) || !r->open_msg[0])
			usb_exercise_violation(r, "open failed (errno %d) without a sentence",
					       errno);
	} else {
		x.bdev = km_karma_usb_blockdev(x.k);
		km_karma_usb_set_max_request(x.k, USB_EXERCISE_MAX_REQUEST);
		check_info(&x);
		read_and_write(&x);
		mount_and_walk(&x);
		close_player(&x);
	}
	usb_checker_free(x.checker);
}
