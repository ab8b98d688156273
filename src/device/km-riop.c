/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-riop.c - RIOP commands: send, take the acknowledgement, poll until the
 * player echoes the sequence number, as the kernel's ums-karma driver does.
 * Every reply is checked before use.
 */
#include "km-riop.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "km-fail.h"

static const uint8_t riop_magic[4] = { 'R', 'I', 'O', 'P' };

void km_riop_init(struct km_riop *r)
{
	*r = (struct km_riop){ .seq = 1 };
}

const char *km_riop_command_name(uint8_t cmd)
{
	switch (cmd) {
	case KM_RIOP_ENTER_STORAGE:
		return "enter storage";
	case KM_RIOP_LEAVE_STORAGE:
		return "leave storage";
	case KM_RIOP_DEVICE_INFO:
		return "device info";
	case KM_RIOP_RETURN_TO_NORMAL:
		return "return to normal";
	default:
		return "command";
	}
}

bool km_riop_looks_like_riop(const void *buf, size_t len)
{
	return len >= sizeof(riop_magic) && memcmp(buf, riop_magic, sizeof(riop_magic)) == 0;
}

/* One packet out, one 512-byte reply in; anything else is an error. */
static int riop_exchange(struct km_usb_transport *t, uint8_t kind, uint8_t cmd, uint8_t seq,
			 uint8_t reply[KM_RIOP_REPLY_LEN], const char *name, char *msg,
			 size_t msglen)
{
	uint8_t pkt[KM_RIOP_CMD_LEN] = { 0 };
	const char *what = kind == KM_RIOP_POLL ? "poll" : "command";
	size_t done = 0;
	int err;

	memcpy(pkt, riop_magic, sizeof(riop_magic));
	pkt[4] = kind;
	pkt[5] = cmd;
	pkt[6] = seq;
	err = t->ops->bulk_out(t, pkt, sizeof(pkt), &done, KM_RIOP_TIMEOUT_MS);
	if (!err && done != sizeof(pkt))
		err = -EIO;
	if (err) {
		snprintf(msg, msglen, "RIOP %s: sending the %s failed after %zu of %d bytes (%s)",
			 name, what, done, KM_RIOP_CMD_LEN, strerror(-err));
		return err;
	}
	done = 0;
	err = t->ops->bulk_in(t, reply, KM_RIOP_REPLY_LEN, &done, KM_RIOP_TIMEOUT_MS);
	if (err) {
		snprintf(msg, msglen, "RIOP %s: reading the reply to the %s failed (%s)", name, what,
			 strerror(-err));
		return err;
	}
	if (done != KM_RIOP_REPLY_LEN) {
		snprintf(msg, msglen, "RIOP %s: the reply to the %s is %zu bytes, not %d", name,
			 what, done, KM_RIOP_REPLY_LEN);
		return -EPROTO;
	}
	return 0;
}

/*
 * The acknowledgement should start with 0xF0; the kernel's ums-karma, which
 * real players were tested against, never looks at it, so another first
 * byte is accepted too, and noted.
 */
static void check_ack(struct km_riop *r, const uint8_t *ack, const char *name, uint8_t cmd)
{
	if (ack[0] == KM_RIOP_ACK)
		return;
	r->odd_acks++;
	snprintf(r->note, sizeof(r->note),
		 "RIOP %s (0x%02x): the acknowledgement starts with 0x%02x, not 0x%02x (accepted, "
		 "as the kernel's driver does)", name, cmd, ack[0], KM_RIOP_ACK);
}

/*
 * As the kernel's driver does: the command's own reply may already echo
 * r->seq; otherwise wait 50 ms, poll, and again, for at most 6 s of waits.
 */
static int riop_wait(struct km_riop *r, struct km_usb_transport *t, uint8_t reply[],
		     const char *name, char *msg, size_t msglen)
{
	unsigned waited = 0;
	int err;

	while (reply[KM_RIOP_SEQ_ECHO] != r->seq) {
		if (waited >= KM_RIOP_LIMIT_MS)
			return km_fail(-ETIMEDOUT, msg, msglen,
				       "RIOP %s: the player did not echo sequence number %u within "
				       "%d ms (last reply byte 5 is %u)", name, r->seq,
				       KM_RIOP_LIMIT_MS, reply[KM_RIOP_SEQ_ECHO]);
		km_usb_sleep(t, KM_RIOP_POLL_MS);
		waited += KM_RIOP_POLL_MS;
		err = riop_exchange(t, KM_RIOP_POLL, 0, r->seq, reply, name, msg, msglen);
		if (err)
			return err;
	}
	return 0;
}

int km_riop_command(struct km_riop *r, struct km_usb_transport *t, uint8_t cmd,
		    uint8_t reply[KM_RIOP_REPLY_LEN], char *msg, size_t msglen)
{
	const char *name = km_riop_command_name(cmd);
	uint8_t buf[KM_RIOP_REPLY_LEN];
	uint8_t *rep = reply ? reply : buf;
	int err;

	err = riop_exchange(t, KM_RIOP_NEW_COMMAND, cmd, r->seq, rep, name, msg, msglen);
	if (err)
		return err;
	check_ack(r, rep, name, cmd);
	err = riop_wait(r, t, rep, name, msg, msglen);
	if (err)
		return err;
	/* the kernel counts completed commands only, and never uses 0 */
	r->seq++;
	if (r->seq == 0)
		r->seq = 1;
	return 0;
}

int km_riop_device_info(struct km_riop *r, struct km_usb_transport *t, char *info,
			size_t infolen, char *msg, size_t msglen)
{
	uint8_t reply[KM_RIOP_REPLY_LEN];
	size_t i, n = 0;
	int err;

	if (infolen == 0)
		return -EINVAL;
	info[0] = '\0';
	err = km_riop_command(r, t, KM_RIOP_DEVICE_INFO, reply, msg, msglen);
	if (err)
		return err;
	/* a C string from byte 7; the player is not trusted to end it or keep it printable */
	for (i = KM_RIOP_INFO_OFFSET; i < KM_RIOP_REPLY_LEN && reply[i] && n + 1 < infolen; i++)
		info[n++] = reply[i] >= 0x20 && reply[i] < 0x7f ? (char)reply[i] : '?';
	info[n] = '\0';
	return 0;
}
