/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-karma-usb.h - a Rio Karma reached over a km_usb_transport (libusb, or
 * the simulated Karma) as an omfs_blockdev: RIOP storage mode, then SCSI
 * over Bulk-Only Transport, with recovery from the errors a player makes.
 */
#ifndef KM_KARMA_USB_H
#define KM_KARMA_USB_H

#include "km-riop.h"
#include "km-scsi.h"
#include "km-usb-transport.h"

/*
 * Largest READ(10)/WRITE(10). Each command costs about 1 ms on a USB 2.0
 * player: at 20-25 MB/s, 1 MiB requests keep that overhead near 4%, while
 * 64 KiB ones (usb-storage's habit) would lose a third of the bandwidth.
 */
#define KM_KARMA_USB_MAX_REQUEST_DEFAULT ((size_t)1 << 20)

/* The OMFS core's device handle (omfs.h): handed on, so only declared here. */
struct omfs_blockdev;
struct km_karma_usb;

struct km_karma_usb_info {
	char device_info[KM_RIOP_REPLY_LEN];	/* RIOP 0x05; "" when the player gave none */
	struct km_scsi_inquiry inquiry;
	uint64_t sectors;			/* of 512 bytes */
};

/*
 * Takes ownership of t (closed on failure too). Clears both pipes' halts,
 * enters storage mode, asks INQUIRY, waits for TEST UNIT READY, reads the
 * capacity. NULL with errno set and a sentence in msg on failure.
 */
struct km_karma_usb *km_karma_usb_open(struct km_usb_transport *t, char *msg, size_t msglen);
/* Byte-addressed; unaligned ranges are read-modify-written by sector. */
const struct omfs_blockdev *km_karma_usb_blockdev(struct km_karma_usb *k);
/* Rounded down to whole sectors, kept between one sector and READ(10)'s limit. */
void km_karma_usb_set_max_request(struct km_karma_usb *k, size_t bytes);
void km_karma_usb_get_info(const struct km_karma_usb *k, struct km_karma_usb_info *info);
/*
 * What the player did that the kernel's driver accepts but the protocol
 * does not expect (an odd RIOP acknowledgement), in words; "" if nothing.
 */
const char *km_karma_usb_protocol_note(const struct km_karma_usb *k);
/* The sentence of the last failure of a block-device operation ("" if none). */
const char *km_karma_usb_errmsg(const struct km_karma_usb *k);
/*
 * SYNCHRONIZE CACHE (when accepted), RIOP leave storage and return to
 * normal, then closes the transport and frees k. Returns the first error,
 * with a sentence in msg; k is freed either way.
 */
int km_karma_usb_close(struct km_karma_usb *k, char *msg, size_t msglen);

#endif
