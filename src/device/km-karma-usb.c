/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-karma-usb.c - the Karma over USB as an omfs_blockdev: opening (storage
 * mode, INQUIRY, ready, capacity), sector transfers split at the largest
 * request, one retry after recovery, and the clean goodbye on close.
 */
#include "km-karma-usb.h"
#include "omfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define READY_TRIES 50		/* TEST UNIT READY while "becoming ready" ... */
#define READY_WAIT_MS 100	/* ... this far apart: 5 s in all */
#define READ10_MAX_SECTORS 0xFFFFu

struct km_karma_usb {
	struct omfs_blockdev bdev;
	struct km_usb_transport *t;
	struct km_riop riop;
	struct km_scsi scsi;
	struct km_karma_usb_info info;
	size_t max_request;	/* whole sectors */
	bool gone;		/* -ENODEV once: nothing will work again */
	char msg[OMFS_ERRMSG_MAX];
	uint8_t sector[KM_SCSI_SECTOR];	/* for the ends of unaligned ranges */
};

/* A player that just entered storage mode may be "becoming ready" for a while. */
static int wait_ready(struct km_karma_usb *k, char *msg, size_t msglen)
{
	const struct km_scsi_sense *sense = &k->scsi.sense;
	int err = 0, i;

	for (i = 0; i < READY_TRIES; i++) {
		err = km_scsi_test_unit_ready(&k->scsi, msg, msglen);
		if (err != -EIO || !k->scsi.sense_valid)
			return err;
		if (sense->key == KM_SENSE_UNIT_ATTENTION)
			continue;
		if (sense->key != KM_SENSE_NOT_READY || sense->asc != KM_ASC_BECOMING_READY)
			return err;
		km_usb_sleep(k->t, READY_WAIT_MS);
	}
	return err;
}

static int enter_storage(struct km_karma_usb *k, char *msg, size_t msglen)
{
	int err = km_riop_command(&k->riop, k->t, KM_RIOP_ENTER_STORAGE, NULL, msg, msglen);

	return err ? err : wait_ready(k, msg, msglen);
}

/*
 * After a failure: reset the pipes; when the player no longer answers TEST
 * UNIT READY (it dropped out of storage mode, or never answers BOT at all),
 * enter storage mode again. The failure's own sentence stays in k->msg.
 */
static int recover(struct km_karma_usb *k)
{
	char msg[OMFS_ERRMSG_MAX];
	int err;

	err = km_bot_reset_recovery(&k->scsi.bot, msg, sizeof(msg));
	if (err != -ENODEV)
		err = wait_ready(k, msg, sizeof(msg));
	if (err && err != -ENODEV)
		err = enter_storage(k, msg, sizeof(msg));
	if (err == -ENODEV)
		k->gone = true;
	return err;
}

/* Worth a retry: not the player gone, not a request the player refuses as such. */
static bool retryable(const struct km_karma_usb *k, int err)
{
	uint8_t key = k->scsi.sense.key;

	if (err == -ENODEV)
		return false;
	return !(err == -EIO && k->scsi.sense_valid &&
		 (key == KM_SENSE_ILLEGAL_REQUEST || key == KM_SENSE_DATA_PROTECT));
}

static int rw_once(struct km_karma_usb *k, bool write, uint32_t lba, uint16_t count, void *buf)
{
	if (write)
		return km_scsi_write10(&k->scsi, lba, count, buf, k->msg, sizeof(k->msg));
	return km_scsi_read10(&k->scsi, lba, count, buf, k->msg, sizeof(k->msg));
}

static int rw_sectors(struct km_karma_usb *k, bool write, uint64_t lba, uint64_t count,
		      uint8_t *buf)
{
	uint64_t step = k->max_request / KM_SCSI_SECTOR;
	int err = 0;

	while (count > 0 && !err) {
		uint16_t n = (uint16_t)(count < step ? count : step);

		if (k->gone)
			return -ENODEV;
		err = rw_once(k, write, (uint32_t)lba, n, buf);
		if (err && retryable(k, err) && recover(k) == 0)
			err = rw_once(k, write, (uint32_t)lba, n, buf);
		if (err == -ENODEV)
			k->gone = true;
		lba += n;
		count -= n;
		buf += (size_t)n * KM_SCSI_SECTOR;
	}
	return err;
}

static int check_range(struct km_karma_usb *k, uint64_t off, size_t len)
{
	uint64_t size = k->info.sectors * KM_SCSI_SECTOR;

	if (k->gone) {
		snprintf(k->msg, sizeof(k->msg), "the player is gone (unplugged)");
		return -ENODEV;
	}
	if (off > size || len > size - off) {
		snprintf(k->msg, sizeof(k->msg), "bytes %llu+%zu lie past the end of the player's "
			 "%llu-byte disk", (unsigned long long)off, len, (unsigned long long)size);
		return -EIO;
	}
	return 0;
}

/* The part of one sector at off (not sector-aligned, or shorter than a sector). */
static int partial_sector(struct km_karma_usb *k, bool write, uint64_t off, uint8_t *buf,
			  size_t len)
{
	uint64_t lba = off / KM_SCSI_SECTOR;
	size_t in = (size_t)(off % KM_SCSI_SECTOR);
	int err = rw_sectors(k, false, lba, 1, k->sector);

	if (err)
		return err;
	if (!write) {
		memcpy(buf, k->sector + in, len);
		return 0;
	}
	memcpy(k->sector + in, buf, len);
	return rw_sectors(k, true, lba, 1, k->sector);
}

static int transfer(struct km_karma_usb *k, bool write, uint64_t off, uint8_t *buf, size_t len)
{
	size_t head, whole;
	int err = check_range(k, off, len);

	if (err)
		return err;
	head = off % KM_SCSI_SECTOR ? KM_SCSI_SECTOR - (size_t)(off % KM_SCSI_SECTOR) : 0;
	if (head > len)
		head = len;
	if (head) {
		err = partial_sector(k, write, off, buf, head);
		off += head;
		buf += head;
		len -= head;
	}
	whole = len - len % KM_SCSI_SECTOR;
	if (!err && whole)
		err = rw_sectors(k, write, off / KM_SCSI_SECTOR, whole / KM_SCSI_SECTOR, buf);
	if (!err && len > whole)
		err = partial_sector(k, write, off + whole, buf + whole, len - whole);
	return err;
}

static int usb_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	return transfer(ctx, false, off, buf, len);
}

static int usb_write(void *ctx, uint64_t off, const void *buf, size_t len)
{
	/* transfer() only reads from buf when writing */
	return transfer(ctx, true, off, (uint8_t *)(uintptr_t)buf, len);
}

static int usb_flush(void *ctx)
{
	struct km_karma_usb *k = ctx;
	int err;

	if (k->gone)
		return -ENODEV;
	err = km_scsi_synchronize_cache(&k->scsi, k->msg, sizeof(k->msg));
	if (err && err != -EOPNOTSUPP && retryable(k, err) && recover(k) == 0)
		err = km_scsi_synchronize_cache(&k->scsi, k->msg, sizeof(k->msg));
	/* a player without the command writes through: nothing to wait for */
	return err == -EOPNOTSUPP ? 0 : err;
}

static uint64_t usb_size(void *ctx)
{
	return ((struct km_karma_usb *)ctx)->info.sectors * KM_SCSI_SECTOR;
}

static int open_storage(struct km_karma_usb *k, char *msg, size_t msglen)
{
	int err;

	err = k->t->ops->clear_halt(k->t, KM_KARMA_EP_OUT);
	if (!err)
		err = k->t->ops->clear_halt(k->t, KM_KARMA_EP_IN);
	if (err) {
		snprintf(msg, msglen, "clearing the halts of the bulk pipes failed (%s)",
			 strerror(-err));
		return err;
	}
	err = km_riop_command(&k->riop, k->t, KM_RIOP_ENTER_STORAGE, NULL, msg, msglen);
	if (err)
		return err;
	/*
	 * Only informative: a player that does not answer it is still usable,
	 * and the sentence of its failure matters only when the player is gone.
	 */
	if (km_riop_device_info(&k->riop, k->t, k->info.device_info,
				sizeof(k->info.device_info), msg, msglen) == -ENODEV)
		return -ENODEV;
	err = km_scsi_inquiry(&k->scsi, &k->info.inquiry, msg, msglen);
	if (!err && k->info.inquiry.device_type != 0) {
		snprintf(msg, msglen, "INQUIRY: device type %u, not a direct-access disk",
			 k->info.inquiry.device_type);
		err = -EPROTO;
	}
	if (!err)
		err = wait_ready(k, msg, msglen);
	if (!err)
		err = km_scsi_read_capacity(&k->scsi, &k->info.sectors, msg, msglen);
	return err;
}

struct km_karma_usb *km_karma_usb_open(struct km_usb_transport *t, char *msg, size_t msglen)
{
	struct km_karma_usb *k = calloc(1, sizeof(*k));
	int err;

	if (!k) {
		t->ops->close(t);
		snprintf(msg, msglen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	k->t = t;
	k->max_request = KM_KARMA_USB_MAX_REQUEST_DEFAULT;
	km_riop_init(&k->riop);
	km_scsi_init(&k->scsi, t);
	k->bdev = (struct omfs_blockdev){
		.ctx = k, .read = usb_read, .write = usb_write,
		.flush = usb_flush, .size = usb_size,
	};
	err = open_storage(k, msg, msglen);
	if (!err)
		return k;
	t->ops->close(t);
	free(k);
	errno = -err;
	return NULL;
}

const struct omfs_blockdev *km_karma_usb_blockdev(struct km_karma_usb *k)
{
	return &k->bdev;
}

void km_karma_usb_set_max_request(struct km_karma_usb *k, size_t bytes)
{
	size_t max = (size_t)READ10_MAX_SECTORS * KM_SCSI_SECTOR;

	bytes -= bytes % KM_SCSI_SECTOR;
	k->max_request = bytes < KM_SCSI_SECTOR ? KM_SCSI_SECTOR : bytes > max ? max : bytes;
}

void km_karma_usb_get_info(const struct km_karma_usb *k, struct km_karma_usb_info *info)
{
	*info = k->info;
}

const char *km_karma_usb_protocol_note(const struct km_karma_usb *k)
{
	return k->riop.note;
}

const char *km_karma_usb_errmsg(const struct km_karma_usb *k)
{
	return k->msg;
}

/* Keeps the first failure and its sentence; the later steps still run. */
static void note_step(int *err, int e, const char *step_msg, char *msg, size_t msglen)
{
	if (*err || !e)
		return;
	*err = e;
	snprintf(msg, msglen, "%s", step_msg);
}

int km_karma_usb_close(struct km_karma_usb *k, char *msg, size_t msglen)
{
	char step[OMFS_ERRMSG_MAX];
	int err = 0;

	if (!k)
		return 0;
	if (!k->gone) {
		note_step(&err, usb_flush(k), k->msg, msg, msglen);
		note_step(&err, km_riop_command(&k->riop, k->t, KM_RIOP_LEAVE_STORAGE, NULL, step,
						sizeof(step)), step, msg, msglen);
		/* after a failed leave the player may still take "return to normal" */
		note_step(&err, km_riop_command(&k->riop, k->t, KM_RIOP_RETURN_TO_NORMAL, NULL,
						step, sizeof(step)), step, msg, msglen);
	}
	k->t->ops->close(k->t);
	free(k);
	return err;
}
