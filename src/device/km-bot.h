/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-bot.h - USB Mass Storage Bulk-Only Transport over a km_usb_transport:
 * a 31-byte Command Block Wrapper, the data phase, a 13-byte Command Status
 * Wrapper, and reset recovery. LUN 0 only, as on the Karma.
 */
#ifndef KM_BOT_H
#define KM_BOT_H

#include <stddef.h>
#include <stdint.h>

#include "km-usb-transport.h"

#define KM_BOT_CBW_LEN 31
#define KM_BOT_CSW_LEN 13
#define KM_BOT_CBW_SIGNATURE 0x43425355u	/* "USBC" little-endian */
#define KM_BOT_CSW_SIGNATURE 0x53425355u	/* "USBS" */
#define KM_BOT_CDB_MAX 16
#define KM_BOT_FLAG_IN 0x80

enum km_bot_status {
	KM_BOT_PASSED = 0,
	KM_BOT_FAILED = 1,	/* ask REQUEST SENSE why */
	KM_BOT_PHASE_ERROR = 2,
};

enum km_bot_dir { KM_BOT_NONE, KM_BOT_IN, KM_BOT_OUT };

struct km_bot {
	struct km_usb_transport *t;
	uint32_t tag;	/* of the last command; each command takes the next */
};

struct km_bot_command {
	const uint8_t *cdb;
	uint8_t cdb_len;
	enum km_bot_dir dir;
	void *data;
	uint32_t len;
	unsigned timeout_ms;	/* for each phase */
	/* results */
	size_t done;		/* bytes moved in the data phase */
	uint32_t residue;	/* from the CSW, checked to be <= len */
	uint8_t status;		/* KM_BOT_PASSED or KM_BOT_FAILED */
};

void km_bot_init(struct km_bot *b, struct km_usb_transport *t);
/*
 * Runs one command. Returns 0 with c->status PASSED or FAILED; a negative
 * errno (the transport's, -EPROTO for an invalid CSW, -EIO for a phase
 * error) after reset recovery when the transport or the device failed.
 * name says which command, for the sentence in msg.
 */
int km_bot_command(struct km_bot *b, struct km_bot_command *c, const char *name, char *msg,
		   size_t msglen);
/* Bulk-Only Mass Storage Reset, then clear the halts of both pipes. */
int km_bot_reset_recovery(struct km_bot *b, char *msg, size_t msglen);

#endif
