/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usb-checker.c - the watching transport (usb-checker.h): every packet the
 * host sends is parsed and held to the rules; the answers come unchanged
 * from the transport underneath.
 */
#include "usb-checker.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "km-bot.h"
#include "km-bytes.h"
#include "km-riop.h"
#include "km-scsi.h"

#define GONE_OPS_MAX 8		/* a gone player gets a few more tries at most */
#define SLEEP_MAX_MS 1000	/* the protocol's longest single wait is 100 ms */
#define SLEEP_PER_OP_MS 100	/* and it never waits longer than that per transfer */

struct usb_checker {
	struct km_usb_transport t;
	struct km_usb_transport *inner;
	struct usb_exercise_result *r;
	unsigned closes;
	bool gone;
	uint64_t ops_after_gone, read10s;
	uint32_t tag;			/* of the last command block */
	uint32_t pending;		/* data phase announced by the last command block */
	bool pending_in;
	uint64_t write_lba;		/* of the last WRITE(10), for its data phase */
	uint64_t sectors;		/* 0: unknown */
	uint64_t write_off, write_len;	/* what the caller is writing */
};

static struct usb_checker *checker_of(struct km_usb_transport *t)
{
	return (struct usb_checker *)t;
}

/* Every operation: not after close, not many after the player is gone. */
static bool begin_op(struct usb_checker *c, const char *what)
{
	c->r->ops++;
	if (c->closes) {
		usb_exercise_violation(c->r, "%s after the transport was closed", what);
		return false;
	}
	if (c->gone && ++c->ops_after_gone == GONE_OPS_MAX + 1)
		usb_exercise_violation(c->r, "%s: still talking to a player that is gone "
				       "(%d operations after -ENODEV)", what, GONE_OPS_MAX + 1);
	return true;
}

static int end_op(struct usb_checker *c, int err)
{
	if (err == -ENODEV)
		c->gone = true;
	return err;
}

static void check_riop(struct usb_checker *c, const uint8_t *pkt)
{
	uint8_t kind = pkt[4], cmd = pkt[5], seq = pkt[6];

	if (!km_riop_looks_like_riop(pkt, KM_RIOP_CMD_LEN))
		usb_exercise_violation(c->r, "a 40-byte packet that is not RIOP");
	else if (kind != KM_RIOP_NEW_COMMAND && kind != KM_RIOP_POLL)
		usb_exercise_violation(c->r, "RIOP packet of kind 0x%02x", kind);
	else if (kind == KM_RIOP_NEW_COMMAND && !strcmp(km_riop_command_name(cmd), "command"))
		usb_exercise_violation(c->r, "RIOP command 0x%02x, not one the host knows", cmd);
	else if (seq == 0)
		usb_exercise_violation(c->r, "RIOP sequence number 0");
}

/* READ(10) and WRITE(10): the lengths agree, the sectors exist, writes stay where allowed. */
static void check_rw10(struct usb_checker *c, const uint8_t *cdb, bool in, uint32_t len)
{
	bool write = cdb[0] == KM_SCSI_WRITE_10;
	uint64_t lba = km_get_be32(cdb + 2), count = (uint64_t)cdb[7] << 8 | cdb[8];
	const char *name = write ? "WRITE(10)" : "READ(10)";

	if (count == 0 || len != count * KM_SCSI_SECTOR || in == write)
		usb_exercise_violation(c->r, "%s of %llu sectors announces %u bytes %s", name,
				       (unsigned long long)count, len, in ? "in" : "out");
	else if (c->sectors && lba + count > c->sectors)
		usb_exercise_violation(c->r, "%s of sectors %llu+%llu, past the %llu of the disk",
				       name, (unsigned long long)lba, (unsigned long long)count,
				       (unsigned long long)c->sectors);
	else if (write && (c->write_len == 0 || lba < c->write_off / KM_SCSI_SECTOR ||
			   lba + count > (c->write_off + c->write_len + KM_SCSI_SECTOR - 1) /
			   KM_SCSI_SECTOR))
		usb_exercise_violation(c->r, "WRITE(10) of sectors %llu+%llu while the caller "
				       "writes bytes %llu+%llu", (unsigned long long)lba,
				       (unsigned long long)count, (unsigned long long)c->write_off,
				       (unsigned long long)c->write_len);
	if (write)
		c->write_lba = lba;
	else
		c->read10s++;
}

/* The data of a WRITE(10): where it overlaps the caller's bytes, it is those bytes. */
static void check_write_data(struct usb_checker *c, const uint8_t *data, size_t len)
{
	uint64_t start = c->write_lba * KM_SCSI_SECTOR;
	uint64_t from = start > c->write_off ? start : c->write_off;
	uint64_t end = c->write_off + c->write_len;

	if (start + len < end)
		end = start + len;
	for (uint64_t off = from; off < end; off++)
		if (data[off - start] != usb_exercise_byte(off)) {
			usb_exercise_violation(c->r, "WRITE(10) at sector %llu sends 0x%02x for "
					       "byte %llu, where the caller wrote 0x%02x",
					       (unsigned long long)c->write_lba, data[off - start],
					       (unsigned long long)off, usb_exercise_byte(off));
			return;
		}
}

static bool known_opcode(uint8_t op)
{
	return op == KM_SCSI_TEST_UNIT_READY || op == KM_SCSI_REQUEST_SENSE ||
	       op == KM_SCSI_INQUIRY || op == KM_SCSI_READ_CAPACITY_10 ||
	       op == KM_SCSI_READ_10 || op == KM_SCSI_WRITE_10 ||
	       op == KM_SCSI_SYNCHRONIZE_CACHE_10;
}

static void check_cbw(struct usb_checker *c, const uint8_t *cbw)
{
	uint32_t tag = km_get_le32(cbw + 4), len = km_get_le32(cbw + 8);
	uint8_t flags = cbw[12], cdb_len = cbw[14];
	const uint8_t *cdb = cbw + 15;

	c->pending = len;
	c->pending_in = flags == KM_BOT_FLAG_IN;
	if (km_get_le32(cbw) != KM_BOT_CBW_SIGNATURE || (flags & 0x7F) || cbw[13] ||
	    cdb_len == 0 || cdb_len > KM_BOT_CDB_MAX)
		usb_exercise_violation(c->r, "a malformed command block (flags 0x%02x, LUN %u, "
				       "%u-byte CDB)", flags, cbw[13], cdb_len);
	else if (tag != c->tag + 1)
		usb_exercise_violation(c->r, "command block tag %u after %u", tag, c->tag);
	else if (!known_opcode(cdb[0]))
		usb_exercise_violation(c->r, "SCSI opcode 0x%02x, not one the host uses", cdb[0]);
	else if (cdb[0] == KM_SCSI_READ_10 || cdb[0] == KM_SCSI_WRITE_10)
		check_rw10(c, cdb, c->pending_in, len);
	c->tag = tag;
}

static int checker_bulk_out(struct km_usb_transport *t, const void *buf, size_t len,
			    size_t *done, unsigned timeout_ms)
{
	struct usb_checker *c = checker_of(t);

	*done = 0;
	if (!begin_op(c, "bulk OUT"))
		return -ENODEV;
	if (len == KM_RIOP_CMD_LEN)
		check_riop(c, buf);
	else if (len == KM_BOT_CBW_LEN)
		check_cbw(c, buf);
	else if (c->pending_in || len != c->pending)
		usb_exercise_violation(c->r, "%zu bytes out where the last command block "
				       "announced %u %s", len, c->pending,
				       c->pending_in ? "in" : "out");
	else
		check_write_data(c, buf, len);
	return end_op(c, c->inner->ops->bulk_out(c->inner, buf, len, done, timeout_ms));
}

static int checker_bulk_in(struct km_usb_transport *t, void *buf, size_t len, size_t *done,
			   unsigned timeout_ms)
{
	struct usb_checker *c = checker_of(t);

	*done = 0;
	if (!begin_op(c, "bulk IN"))
		return -ENODEV;
	if (len != KM_RIOP_REPLY_LEN && len != KM_BOT_CSW_LEN &&
	    (!c->pending_in || len != c->pending))
		usb_exercise_violation(c->r, "%zu bytes asked in where the last command block "
				       "announced %u %s", len, c->pending,
				       c->pending_in ? "in" : "out");
	return end_op(c, c->inner->ops->bulk_in(c->inner, buf, len, done, timeout_ms));
}

static int checker_clear_halt(struct km_usb_transport *t, uint8_t endpoint)
{
	struct usb_checker *c = checker_of(t);

	if (!begin_op(c, "clear halt"))
		return -ENODEV;
	if (endpoint != KM_KARMA_EP_IN && endpoint != KM_KARMA_EP_OUT)
		usb_exercise_violation(c->r, "clear halt of endpoint 0x%02x", endpoint);
	return end_op(c, c->inner->ops->clear_halt(c->inner, endpoint));
}

static int checker_bot_reset(struct km_usb_transport *t)
{
	struct usb_checker *c = checker_of(t);

	if (!begin_op(c, "Bulk-Only reset"))
		return -ENODEV;
	return end_op(c, c->inner->ops->bot_reset(c->inner));
}

static void checker_sleep(struct km_usb_transport *t, unsigned ms)
{
	struct usb_checker *c = checker_of(t);
	struct usb_exercise_result *r = c->r;

	r->sleep_ms += ms;
	if (ms > SLEEP_MAX_MS)
		usb_exercise_violation(r, "a single wait of %u ms", ms);
	else if (r->sleep_ms > SLEEP_PER_OP_MS * (r->ops + 10))
		usb_exercise_violation(r, "%llu ms of waiting for %llu transport operations: a "
				       "wait that does not talk to the player",
				       (unsigned long long)r->sleep_ms, (unsigned long long)r->ops);
	if (!c->closes)
		km_usb_sleep(c->inner, ms);
}

static void checker_close(struct km_usb_transport *t)
{
	struct usb_checker *c = checker_of(t);

	if (c->closes++) {
		usb_exercise_violation(c->r, "the transport was closed twice");
		return;
	}
	c->inner->ops->close(c->inner);
}

static const struct km_usb_transport_ops checker_ops = {
	.bulk_out = checker_bulk_out,
	.bulk_in = checker_bulk_in,
	.clear_halt = checker_clear_halt,
	.bot_reset = checker_bot_reset,
	.sleep_ms = checker_sleep,
	.close = checker_close,
};

struct usb_checker *usb_checker_new(struct km_usb_transport *inner,
				    struct usb_exercise_result *r)
{
	struct usb_checker *c = calloc(1, sizeof(*c));

	if (!c) {
		inner->ops->close(inner);
		return NULL;
	}
	c->t.ops = &checker_ops;
	c->inner = inner;
	c->r = r;
	return c;
}

struct km_usb_transport *usb_checker_transport(struct usb_checker *c)
{
	return &c->t;
}

void usb_checker_set_sectors(struct usb_checker *c, uint64_t sectors)
{
	c->sectors = sectors;
}

void usb_checker_allow_writes(struct usb_checker *c, uint64_t off, uint64_t len)
{
	c->write_off = off;
	c->write_len = len;
}

uint64_t usb_checker_ops(const struct usb_checker *c)
{
	return c->r->ops;
}

uint64_t usb_checker_reads(const struct usb_checker *c)
{
	return c->read10s;
}

void usb_checker_free(struct usb_checker *c)
{
	if (!c->closes) {
		usb_exercise_violation(c->r, "the transport was never closed");
		c->inner->ops->close(c->inner);
	}
	free(c);
}
