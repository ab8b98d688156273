/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-bot.c - Bulk-Only Transport, following the class specification's host
 * rules: a stalled data phase is cleared and the CSW still read; a CSW that
 * is not valid and meaningful (size, signature, tag, status, residue), a
 * phase error or a transport failure ends in reset recovery.
 */
#include "km-bot.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "km-bytes.h"
#include "km-riop.h"

void km_bot_init(struct km_bot *b, struct km_usb_transport *t)
{
	b->t = t;
	b->tag = 0;
}

int km_bot_reset_recovery(struct km_bot *b, char *msg, size_t msglen)
{
	int err = b->t->ops->bot_reset(b->t);

	if (!err)
		err = b->t->ops->clear_halt(b->t, KM_KARMA_EP_IN);
	if (!err)
		err = b->t->ops->clear_halt(b->t, KM_KARMA_EP_OUT);
	if (err)
		snprintf(msg, msglen, "Bulk-Only reset recovery failed (%s)", strerror(-err));
	return err;
}

/*
 * After a failed command the pipes are in an unknown state: recover them now
 * so that the next command starts clean. The command's own error (already in
 * msg) is what the caller needs, unless the player is gone.
 */
static int fail_and_recover(struct km_bot *b, int err)
{
	char ignored[160];

	if (err == -ENODEV)
		return err;
	return km_bot_reset_recovery(b, ignored, sizeof(ignored)) == -ENODEV ? -ENODEV : err;
}

static int send_cbw(struct km_bot *b, const struct km_bot_command *c, const char *name,
		    char *msg, size_t msglen)
{
	uint8_t cbw[KM_BOT_CBW_LEN] = { 0 };
	size_t done = 0;
	int err;

	km_put_le32(cbw, KM_BOT_CBW_SIGNATURE);
	km_put_le32(cbw + 4, b->tag);
	km_put_le32(cbw + 8, c->dir == KM_BOT_NONE ? 0 : c->len);
	cbw[12] = c->dir == KM_BOT_IN ? KM_BOT_FLAG_IN : 0;
	cbw[13] = 0;	/* LUN */
	cbw[14] = c->cdb_len;
	memcpy(cbw + 15, c->cdb, c->cdb_len);
	err = b->t->ops->bulk_out(b->t, cbw, sizeof(cbw), &done, c->timeout_ms);
	if (!err && done != sizeof(cbw))
		err = -EIO;
	if (err)
		snprintf(msg, msglen, "%s: sending the command block failed after %zu of %d bytes "
			 "(%s)", name, done, KM_BOT_CBW_LEN, strerror(-err));
	return err;
}

/* A stall ends the data phase: clear it and go on to the CSW. */
static int data_phase(struct km_bot *b, struct km_bot_command *c, const char *name, char *msg,
		      size_t msglen)
{
	uint8_t ep = c->dir == KM_BOT_IN ? KM_KARMA_EP_IN : KM_KARMA_EP_OUT;
	int err;

	c->done = 0;
	if (c->dir == KM_BOT_NONE || c->len == 0)
		return 0;
	if (c->dir == KM_BOT_IN)
		err = b->t->ops->bulk_in(b->t, c->data, c->len, &c->done, c->timeout_ms);
	else
		err = b->t->ops->bulk_out(b->t, c->data, c->len, &c->done, c->timeout_ms);
	if (err == -EPIPE)
		err = b->t->ops->clear_halt(b->t, ep);
	if (err == -EOVERFLOW)
		snprintf(msg, msglen, "%s: the player sent more than the %u bytes of the data phase",
			 name, c->len);
	else if (err)
		snprintf(msg, msglen, "%s: the data phase failed after %zu of %u bytes (%s)", name,
			 c->done, c->len, strerror(-err));
	return err;
}

/* One more try after a stall, as the specification allows. */
static int read_csw(struct km_bot *b, uint8_t csw[KM_BOT_CSW_LEN], unsigned timeout_ms,
		    const char *name, char *msg, size_t msglen)
{
	size_t done = 0;
	int err = 0, tries;

	for (tries = 0; tries < 2; tries++) {
		done = 0;
		err = b->t->ops->bulk_in(b->t, csw, KM_BOT_CSW_LEN, &done, timeout_ms);
		if (err != -EPIPE || tries == 1)
			break;
		err = b->t->ops->clear_halt(b->t, KM_KARMA_EP_IN);
		if (err)
			break;
	}
	if (err == -EOVERFLOW)
		snprintf(msg, msglen, "%s: the player sent more than a %d-byte status wrapper%s",
			 name, KM_BOT_CSW_LEN,
			 km_riop_looks_like_riop(csw, done) ? " (a RIOP reply)" : "");
	else if (err)
		snprintf(msg, msglen, "%s: reading the status wrapper failed (%s)", name,
			 strerror(-err));
	else if (done != KM_BOT_CSW_LEN)
		snprintf(msg, msglen, "%s: the status wrapper is %zu bytes, not %d", name, done,
			 KM_BOT_CSW_LEN);
	if (!err && done != KM_BOT_CSW_LEN)
		err = -EPROTO;
	return err;
}

/* Valid and meaningful, in the specification's words; -EPROTO or -EIO with a sentence. */
static int check_csw(const struct km_bot *b, struct km_bot_command *c, const uint8_t *csw,
		     const char *name, char *msg, size_t msglen)
{
	uint32_t sig = km_get_le32(csw), tag = km_get_le32(csw + 4), residue = km_get_le32(csw + 8);
	uint32_t expected = c->dir == KM_BOT_NONE ? 0 : c->len;

	if (sig != KM_BOT_CSW_SIGNATURE) {
		snprintf(msg, msglen, "%s: the status wrapper's signature is 0x%08x, not \"USBS\"%s",
			 name, sig, km_riop_looks_like_riop(csw, KM_BOT_CSW_LEN) ?
			 " (a RIOP reply: the player left storage mode)" : "");
		return -EPROTO;
	}
	if (tag != b->tag) {
		snprintf(msg, msglen, "%s: the status wrapper answers tag %u, not %u", name, tag,
			 b->tag);
		return -EPROTO;
	}
	if (csw[12] == KM_BOT_PHASE_ERROR) {
		snprintf(msg, msglen, "%s: the player reported a phase error", name);
		return -EIO;
	}
	if (csw[12] > KM_BOT_PHASE_ERROR) {
		snprintf(msg, msglen, "%s: the status wrapper's status is %u, not 0, 1 or 2", name,
			 csw[12]);
		return -EPROTO;
	}
	if (residue > expected) {
		snprintf(msg, msglen, "%s: the status wrapper's residue %u exceeds the %u bytes "
			 "asked for", name, residue, expected);
		return -EPROTO;
	}
	c->residue = residue;
	c->status = csw[12];
	return 0;
}

int km_bot_command(struct km_bot *b, struct km_bot_command *c, const char *name, char *msg,
		   size_t msglen)
{
	uint8_t csw[KM_BOT_CSW_LEN];
	int err;

	if (c->cdb_len == 0 || c->cdb_len > KM_BOT_CDB_MAX) {
		snprintf(msg, msglen, "%s: a command block of %u bytes", name, c->cdb_len);
		return -EINVAL;
	}
	b->tag++;
	c->done = 0;
	c->residue = 0;
	c->status = KM_BOT_FAILED;
	err = send_cbw(b, c, name, msg, msglen);
	if (!err)
		err = data_phase(b, c, name, msg, msglen);
	if (!err)
		err = read_csw(b, csw, c->timeout_ms, name, msg, msglen);
	if (!err)
		err = check_csw(b, c, csw, name, msg, msglen);
	return err ? fail_and_recover(b, err) : 0;
}
