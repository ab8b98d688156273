/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-scsi.h - the few SCSI commands a Karma in storage mode needs, over
 * Bulk-Only Transport, with 512-byte sectors. A command that ends in CHECK
 * CONDITION is followed by REQUEST SENSE, and its sense is kept and put in
 * words. The opcodes and sense codes are shared with the simulated Karma.
 */
#ifndef KM_SCSI_H
#define KM_SCSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "km-bot.h"

#define KM_SCSI_SECTOR 512u
#define KM_SCSI_INQUIRY_LEN 36
#define KM_SCSI_SENSE_LEN 18
#define KM_SCSI_CAPACITY_LEN 8

enum {
	KM_SCSI_TEST_UNIT_READY = 0x00,
	KM_SCSI_REQUEST_SENSE = 0x03,
	KM_SCSI_INQUIRY = 0x12,
	KM_SCSI_START_STOP_UNIT = 0x1B,
	KM_SCSI_READ_CAPACITY_10 = 0x25,
	KM_SCSI_READ_10 = 0x28,
	KM_SCSI_WRITE_10 = 0x2A,
	KM_SCSI_SYNCHRONIZE_CACHE_10 = 0x35,
};

/* Sense keys, and the additional sense codes (ASC << 8 | ASCQ) we name. */
enum {
	KM_SENSE_NO_SENSE = 0x0,
	KM_SENSE_NOT_READY = 0x2,
	KM_SENSE_MEDIUM_ERROR = 0x3,
	KM_SENSE_HARDWARE_ERROR = 0x4,
	KM_SENSE_ILLEGAL_REQUEST = 0x5,
	KM_SENSE_UNIT_ATTENTION = 0x6,
	KM_SENSE_DATA_PROTECT = 0x7,
	KM_SENSE_ABORTED_COMMAND = 0xB,
};
enum {
	KM_ASC_NOT_READY = 0x0400,
	KM_ASC_BECOMING_READY = 0x0401,
	KM_ASC_INIT_REQUIRED = 0x0402,
	KM_ASC_WRITE_ERROR = 0x0C00,
	KM_ASC_READ_ERROR = 0x1100,
	KM_ASC_INVALID_OPCODE = 0x2000,
	KM_ASC_LBA_OUT_OF_RANGE = 0x2100,
	KM_ASC_INVALID_FIELD = 0x2400,
	KM_ASC_WRITE_PROTECTED = 0x2700,
	KM_ASC_POWER_ON_RESET = 0x2900,
	KM_ASC_MEDIUM_NOT_PRESENT = 0x3A00,
};

struct km_scsi_sense {
	uint8_t key;
	uint16_t asc;	/* ASC << 8 | ASCQ */
};

struct km_scsi_inquiry {
	uint8_t device_type;
	char vendor[9];		/* printable ASCII, trailing blanks removed */
	char product[17];
	char revision[5];
};

struct km_scsi {
	struct km_bot bot;
	/* the sense of the last command that ended in CHECK CONDITION */
	struct km_scsi_sense sense;
	bool sense_valid;
	bool sync_unsupported;	/* SYNCHRONIZE CACHE was refused once: never sent again */
};

void km_scsi_init(struct km_scsi *s, struct km_usb_transport *t);
/* "NOT READY, becoming ready (02/04/01)" */
void km_scsi_describe_sense(const struct km_scsi_sense *sense, char *buf, size_t len);

/*
 * All return 0, or a negative errno with a sentence in msg: -EIO for CHECK
 * CONDITION (s->sense says why), -EPROTO for data that makes no sense, or
 * what Bulk-Only Transport returned.
 */
int km_scsi_test_unit_ready(struct km_scsi *s, char *msg, size_t msglen);
int km_scsi_inquiry(struct km_scsi *s, struct km_scsi_inquiry *inq, char *msg, size_t msglen);
/* Only 512-byte sectors, and fewer than 2^32 of them: anything else is -EPROTO. */
int km_scsi_read_capacity(struct km_scsi *s, uint64_t *sectors, char *msg, size_t msglen);
int km_scsi_read10(struct km_scsi *s, uint32_t lba, uint16_t count, void *buf, char *msg,
		   size_t msglen);
int km_scsi_write10(struct km_scsi *s, uint32_t lba, uint16_t count, const void *buf,
		    char *msg, size_t msglen);
int km_scsi_request_sense(struct km_scsi *s, struct km_scsi_sense *sense, char *msg,
			  size_t msglen);
/* -EOPNOTSUPP (and remembered) when the player answers ILLEGAL REQUEST. */
int km_scsi_synchronize_cache(struct km_scsi *s, char *msg, size_t msglen);

#endif
