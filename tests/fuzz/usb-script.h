/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usb-script.h - a Rio Karma played from a script: a km_usb_transport whose
 * every answer (bulk data, transfer results, short lengths) is the next
 * record of a byte string, so that a fuzzer can be a hostile player at any
 * step of the protocol. The seed generator writes scripts with the same
 * helpers by recording what the simulated Karma answers.
 *
 * The script is a sequence of records, one per transport operation, taken in
 * the order the host calls them (all integers little-endian):
 *
 *   bulk_out             S [N16 when S & USB_SCRIPT_PARTIAL]
 *                        done = N (at most the length sent) with the flag,
 *                        else everything on success and nothing on failure
 *   bulk_in              S N16 DATA
 *                        DATA is the first min(N, length asked) bytes sent;
 *                        with S & USB_SCRIPT_FILL the transfer is complete
 *                        and the bytes past DATA repeat its last byte (zeros
 *                        when there is none): sectors of zeros or of 0xFF
 *                        (OMFS's empty hash buckets) cost a few bytes
 *   clear_halt, bot_reset  S
 *
 * S & 7 is the result: USB_SCRIPT_OK, -EPIPE, -ETIMEDOUT, -ENODEV, -EIO,
 * -EOVERFLOW (6 and 7 also mean success). Data cut short by the end of the
 * script is completed the same way. Past the end, and after any -ENODEV, the player is
 * gone: every operation fails with -ENODEV, as libusb does after an unplug.
 * sleep_ms advances a virtual clock.
 */
#ifndef USB_SCRIPT_H
#define USB_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "km-usb-transport.h"

enum {
	USB_SCRIPT_OK = 0,
	USB_SCRIPT_EPIPE = 1,
	USB_SCRIPT_ETIMEDOUT = 2,
	USB_SCRIPT_ENODEV = 3,
	USB_SCRIPT_EIO = 4,
	USB_SCRIPT_EOVERFLOW = 5,
	USB_SCRIPT_RESULT_MASK = 7,
	USB_SCRIPT_PARTIAL = 1 << 3,	/* bulk_out: a 16-bit done follows */
	USB_SCRIPT_FILL = 1 << 3,	/* bulk_in: complete, the last byte repeated */
};

/* A transport playing data[0..size) (not copied: it must outlive the transport). */
struct km_usb_transport *usb_script_transport_new(const uint8_t *data, size_t size);

/* The result code of a transport return value (any unknown error is -EIO). */
uint8_t usb_script_code(int err);
/*
 * Writes the record of one operation to buf (at most USB_SCRIPT_RECORD_MAX(n)
 * bytes) and returns its length. For bulk_in, data[0..done) is what arrived
 * out of len asked for: the run that ends a complete transfer is left out;
 * 0 when a length above 65535 would have to be written (no record can say that).
 */
#define USB_SCRIPT_RECORD_MAX(n) (3 + (n))
size_t usb_script_record_out(uint8_t *buf, int err, size_t len, size_t done);
size_t usb_script_record_in(uint8_t *buf, int err, const uint8_t *data, size_t len,
			    size_t done);
size_t usb_script_record_ctrl(uint8_t *buf, int err);

#endif
