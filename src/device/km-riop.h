/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-riop.h - the Karma's own "RIOP" commands (docs/KARMA.md §2):
 * raw 40-byte packets on the bulk pipes, outside Bulk-Only Transport, that
 * switch the player in and out of USB storage mode and return its info.
 */
#ifndef KM_RIOP_H
#define KM_RIOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "km-usb-transport.h"

#define KM_RIOP_CMD_LEN 40
#define KM_RIOP_REPLY_LEN 512
#define KM_RIOP_NEW_COMMAND 0x00
#define KM_RIOP_POLL 0x80
#define KM_RIOP_ACK 0xF0
#define KM_RIOP_SEQ_ECHO 5	/* reply byte that echoes the sequence number when done */
#define KM_RIOP_INFO_OFFSET 7	/* the device info string starts here in the reply */
#define KM_RIOP_POLL_MS 50	/* the kernel's interval between polls */
#define KM_RIOP_LIMIT_MS 6000	/* and its limit */
#define KM_RIOP_TIMEOUT_MS 1000	/* for each transfer */

enum {
	KM_RIOP_ENTER_STORAGE = 0x01,
	KM_RIOP_LEAVE_STORAGE = 0x02,
	KM_RIOP_DEVICE_INFO = 0x05,
	KM_RIOP_RETURN_TO_NORMAL = 0x0C,
};

/*
 * The sequence number, kept as the kernel does: 1 first, never 0; and what
 * the player did that the kernel accepts but the protocol does not expect.
 */
struct km_riop {
	uint8_t seq;
	unsigned odd_acks;	/* acknowledgements whose byte 0 was not 0xF0 */
	char note[160];		/* the last of them in words, or "" */
};

void km_riop_init(struct km_riop *r);
/* A name for a command number, for messages ("enter storage"). */
const char *km_riop_command_name(uint8_t cmd);
/* True when buf starts like a RIOP packet: the player answering outside BOT. */
bool km_riop_looks_like_riop(const void *buf, size_t len);

/*
 * Sends command cmd and reads its acknowledgement (byte 0 other than 0xF0
 * is noted in r, not refused, as the kernel does); unless that reply already
 * echoes the sequence number, waits 50 ms (via t->ops->sleep_ms) and polls,
 * again until a reply echoes it, for at most 6 s of waits. The final reply
 * goes to reply when not NULL. Returns 0, the transport's -errno, -EPROTO
 * for a malformed reply or -ETIMEDOUT, with a sentence in msg.
 */
int km_riop_command(struct km_riop *r, struct km_usb_transport *t, uint8_t cmd,
		    uint8_t reply[KM_RIOP_REPLY_LEN], char *msg, size_t msglen);
/* Command 0x05: the player's info string, printable ASCII, NUL-terminated in info. */
int km_riop_device_info(struct km_riop *r, struct km_usb_transport *t, char *info,
			size_t infolen, char *msg, size_t msglen);

#endif
