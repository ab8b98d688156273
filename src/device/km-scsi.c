/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-scsi.c - SCSI commands over Bulk-Only Transport: building the command
 * blocks, checking what comes back, REQUEST SENSE after CHECK CONDITION.
 */
#include "km-scsi.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "km-bytes.h"

#define SCSI_TIMEOUT_MS 5000
#define SCSI_DATA_TIMEOUT_MS 20000	/* a full request at USB 1.1 speed, with margin */

void km_scsi_init(struct km_scsi *s, struct km_usb_transport *t)
{
	memset(s, 0, sizeof(*s));
	km_bot_init(&s->bot, t);
}

static const char *sense_key_name(uint8_t key)
{
	static const char *const names[16] = {
		"NO SENSE", "RECOVERED ERROR", "NOT READY", "MEDIUM ERROR", "HARDWARE ERROR",
		"ILLEGAL REQUEST", "UNIT ATTENTION", "DATA PROTECT", "BLANK CHECK",
		"VENDOR SPECIFIC", "COPY ABORTED", "ABORTED COMMAND", "sense key 0xC",
		"VOLUME OVERFLOW", "MISCOMPARE", "sense key 0xF",
	};

	return names[key & 0xF];
}

static const char *asc_name(uint16_t asc)
{
	switch (asc) {
	case KM_ASC_NOT_READY: return "not ready, cause not reportable";
	case KM_ASC_BECOMING_READY: return "becoming ready";
	case KM_ASC_INIT_REQUIRED: return "initializing command required";
	case KM_ASC_WRITE_ERROR: return "write error";
	case KM_ASC_READ_ERROR: return "unrecovered read error";
	case KM_ASC_INVALID_OPCODE: return "invalid command operation code";
	case KM_ASC_LBA_OUT_OF_RANGE: return "logical block address out of range";
	case KM_ASC_INVALID_FIELD: return "invalid field in the command";
	case KM_ASC_WRITE_PROTECTED: return "write protected";
	case KM_ASC_POWER_ON_RESET: return "power on or reset occurred";
	case KM_ASC_MEDIUM_NOT_PRESENT: return "medium not present";
	default: return "no description";
	}
}

void km_scsi_describe_sense(const struct km_scsi_sense *sense, char *buf, size_t len)
{
	snprintf(buf, len, "%s, %s (%02x/%02x/%02x)", sense_key_name(sense->key),
		 asc_name(sense->asc), sense->key, sense->asc >> 8, sense->asc & 0xFF);
}

static int fetch_sense(struct km_scsi *s, const char *name, char *msg, size_t msglen)
{
	char why[96], rmsg[192];
	int err = km_scsi_request_sense(s, &s->sense, rmsg, sizeof(rmsg));

	if (err) {
		snprintf(msg, msglen, "%s: failed, and then %s", name, rmsg);
		return err;
	}
	s->sense_valid = true;
	km_scsi_describe_sense(&s->sense, why, sizeof(why));
	snprintf(msg, msglen, "%s: the player answered %s", name, why);
	return -EIO;
}

/* What the player says it moved: the smaller of what arrived and what the residue admits. */
static size_t bot_moved(const struct km_bot_command *c)
{
	return c->done < c->len - c->residue ? c->done : c->len - c->residue;
}

/*
 * One command; *got is the data the player says it moved (the smaller of
 * what arrived and what the residue admits). CHECK CONDITION costs a
 * REQUEST SENSE and gives -EIO.
 */
static int scsi_run(struct km_scsi *s, const uint8_t *cdb, uint8_t cdb_len, enum km_bot_dir dir,
		    void *data, uint32_t len, size_t *got, const char *name, char *msg,
		    size_t msglen)
{
	struct km_bot_command c = {
		.cdb = cdb, .cdb_len = cdb_len, .dir = dir, .data = data, .len = len,
		.timeout_ms = dir == KM_BOT_NONE ? SCSI_TIMEOUT_MS : SCSI_DATA_TIMEOUT_MS,
	};
	int err;

	if (got)
		*got = 0;
	s->sense_valid = false;
	err = km_bot_command(&s->bot, &c, name, msg, msglen);
	if (err)
		return err;
	if (c.status == KM_BOT_FAILED)
		return fetch_sense(s, name, msg, msglen);
	if (got)
		*got = bot_moved(&c);
	return 0;
}

int km_scsi_request_sense(struct km_scsi *s, struct km_scsi_sense *sense, char *msg,
			  size_t msglen)
{
	uint8_t cdb[6] = { KM_SCSI_REQUEST_SENSE, 0, 0, 0, KM_SCSI_SENSE_LEN, 0 };
	uint8_t buf[KM_SCSI_SENSE_LEN] = { 0 };
	struct km_bot_command c = {
		.cdb = cdb, .cdb_len = sizeof(cdb), .dir = KM_BOT_IN, .data = buf,
		.len = sizeof(buf), .timeout_ms = SCSI_TIMEOUT_MS,
	};
	size_t got;
	int err;

	/* not through scsi_run: a failed REQUEST SENSE must not ask for sense again */
	err = km_bot_command(&s->bot, &c, "REQUEST SENSE", msg, msglen);
	if (err)
		return err;
	got = bot_moved(&c);
	if (c.status != KM_BOT_PASSED) {
		snprintf(msg, msglen, "REQUEST SENSE: failed itself");
		return -EIO;
	}
	if (got < 14 || ((buf[0] & 0x7F) != 0x70 && (buf[0] & 0x7F) != 0x71)) {
		snprintf(msg, msglen, "REQUEST SENSE: %zu bytes of response code 0x%02x: not "
			 "fixed-format sense data", got, buf[0] & 0x7F);
		return -EPROTO;
	}
	sense->key = buf[2] & 0xF;
	sense->asc = (uint16_t)(buf[12] << 8 | buf[13]);
	return 0;
}

int km_scsi_test_unit_ready(struct km_scsi *s, char *msg, size_t msglen)
{
	uint8_t cdb[6] = { KM_SCSI_TEST_UNIT_READY };

	return scsi_run(s, cdb, sizeof(cdb), KM_BOT_NONE, NULL, 0, NULL, "TEST UNIT READY", msg,
			msglen);
}

/* Printable ASCII with the padding blanks removed; anything else becomes '?'. */
static void copy_ascii(char *dst, const uint8_t *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? (char)src[i] : '?';
	while (n > 0 && dst[n - 1] == ' ')
		n--;
	dst[n] = '\0';
}

int km_scsi_inquiry(struct km_scsi *s, struct km_scsi_inquiry *inq, char *msg, size_t msglen)
{
	uint8_t cdb[6] = { KM_SCSI_INQUIRY, 0, 0, 0, KM_SCSI_INQUIRY_LEN, 0 };
	uint8_t buf[KM_SCSI_INQUIRY_LEN] = { 0 };
	size_t got;
	int err;

	err = scsi_run(s, cdb, sizeof(cdb), KM_BOT_IN, buf, sizeof(buf), &got, "INQUIRY", msg,
		       msglen);
	if (err)
		return err;
	if (got < KM_SCSI_INQUIRY_LEN) {
		snprintf(msg, msglen, "INQUIRY: %zu bytes of data, fewer than the %d of the "
			 "standard answer", got, KM_SCSI_INQUIRY_LEN);
		return -EPROTO;
	}
	inq->device_type = buf[0] & 0x1F;
	copy_ascii(inq->vendor, buf + 8, 8);
	copy_ascii(inq->product, buf + 16, 16);
	copy_ascii(inq->revision, buf + 32, 4);
	return 0;
}

int km_scsi_read_capacity(struct km_scsi *s, uint64_t *sectors, char *msg, size_t msglen)
{
	uint8_t cdb[10] = { KM_SCSI_READ_CAPACITY_10 };
	uint8_t buf[KM_SCSI_CAPACITY_LEN] = { 0 };
	uint32_t last, block;
	size_t got;
	int err;

	err = scsi_run(s, cdb, sizeof(cdb), KM_BOT_IN, buf, sizeof(buf), &got,
		       "READ CAPACITY(10)", msg, msglen);
	if (err)
		return err;
	if (got != KM_SCSI_CAPACITY_LEN) {
		snprintf(msg, msglen, "READ CAPACITY(10): %zu bytes of data, not %d", got,
			 KM_SCSI_CAPACITY_LEN);
		return -EPROTO;
	}
	last = km_get_be32(buf);
	block = km_get_be32(buf + 4);
	if (block != KM_SCSI_SECTOR) {
		snprintf(msg, msglen, "READ CAPACITY(10): sectors of %u bytes, not %u", block,
			 KM_SCSI_SECTOR);
		return -EPROTO;
	}
	/* 0xFFFFFFFF would mean "ask READ CAPACITY(16)": 2 TiB, no Karma is that big */
	if (last == UINT32_MAX) {
		snprintf(msg, msglen, "READ CAPACITY(10): the player claims 2 TiB or more");
		return -EPROTO;
	}
	*sectors = (uint64_t)last + 1;
	return 0;
}

static void rw10_cdb(uint8_t cdb[10], uint8_t op, uint32_t lba, uint16_t count)
{
	memset(cdb, 0, 10);
	cdb[0] = op;
	km_put_be32(cdb + 2, lba);
	cdb[7] = (uint8_t)(count >> 8);
	cdb[8] = (uint8_t)count;
}

static int rw10(struct km_scsi *s, uint8_t op, uint32_t lba, uint16_t count, void *buf,
		char *msg, size_t msglen)
{
	const char *name = op == KM_SCSI_READ_10 ? "READ(10)" : "WRITE(10)";
	uint32_t len = (uint32_t)count * KM_SCSI_SECTOR;
	char what[48];
	uint8_t cdb[10];
	size_t got;
	int err;

	snprintf(what, sizeof(what), "%s of %u sectors at %u", name, count, lba);
	rw10_cdb(cdb, op, lba, count);
	err = scsi_run(s, cdb, sizeof(cdb), op == KM_SCSI_READ_10 ? KM_BOT_IN : KM_BOT_OUT, buf,
		       len, &got, what, msg, msglen);
	if (!err && got != len) {
		snprintf(msg, msglen, "%s: the player moved %zu of %u bytes", what, got, len);
		err = -EIO;
	}
	return err;
}

int km_scsi_read10(struct km_scsi *s, uint32_t lba, uint16_t count, void *buf, char *msg,
		   size_t msglen)
{
	return rw10(s, KM_SCSI_READ_10, lba, count, buf, msg, msglen);
}

int km_scsi_write10(struct km_scsi *s, uint32_t lba, uint16_t count, const void *buf,
		    char *msg, size_t msglen)
{
	/* the transport only reads from buf for an OUT phase */
	return rw10(s, KM_SCSI_WRITE_10, lba, count, (void *)(uintptr_t)buf, msg, msglen);
}

int km_scsi_synchronize_cache(struct km_scsi *s, char *msg, size_t msglen)
{
	uint8_t cdb[10] = { KM_SCSI_SYNCHRONIZE_CACHE_10 };
	int err;

	if (s->sync_unsupported)
		return -EOPNOTSUPP;
	err = scsi_run(s, cdb, sizeof(cdb), KM_BOT_NONE, NULL, 0, NULL, "SYNCHRONIZE CACHE(10)",
		       msg, msglen);
	if (err == -EIO && s->sense_valid && s->sense.key == KM_SENSE_ILLEGAL_REQUEST) {
		s->sync_unsupported = true;
		err = -EOPNOTSUPP;
	}
	return err;
}
