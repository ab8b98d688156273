/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-usb-transport.h - the two bulk pipes of a Rio Karma (OUT 0x02, IN 0x88)
 * and the few control operations the storage protocol needs.
 *
 * The protocol (RIOP storage mode, Bulk-Only Transport, SCSI) is written once
 * against this interface; it has two implementations: libusb-1.0 (the real
 * player, km-usb-libusb.c) and the simulated Karma (km-sim-karma.c), which
 * tests and the demo drive. Plain C, no GLib: the protocol layer stays as
 * portable and as fuzzable as the OMFS core.
 *
 * Every operation returns 0 or a negative errno value:
 *   -ETIMEDOUT  the transfer did not finish in time (partial data in *done)
 *   -EPIPE      the endpoint stalled (clear the halt, then recover)
 *   -ENODEV     the player is gone (unplugged): nothing will work again
 *   -EOVERFLOW  the device sent more than was asked for
 *   -EIO        any other failure
 * *done always holds the bytes actually transferred, also on failure.
 */
#ifndef KM_USB_TRANSPORT_H
#define KM_USB_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KM_KARMA_VENDOR_ID 0x045a
#define KM_KARMA_PRODUCT_ID 0x5210
#define KM_KARMA_EP_OUT 0x02
#define KM_KARMA_EP_IN 0x88

struct km_usb_transport;

struct km_usb_transport_ops {
	int (*bulk_out)(struct km_usb_transport *t, const void *buf, size_t len, size_t *done,
			unsigned timeout_ms);
	int (*bulk_in)(struct km_usb_transport *t, void *buf, size_t len, size_t *done,
		       unsigned timeout_ms);
	/* CLEAR_FEATURE(ENDPOINT_HALT) on one endpoint. */
	int (*clear_halt)(struct km_usb_transport *t, uint8_t endpoint);
	/* The Bulk-Only Mass Storage Reset: class request 0xFF to interface 0. */
	int (*bot_reset)(struct km_usb_transport *t);
	/*
	 * Wait between RIOP polls. NULL: really sleep. The simulated Karma
	 * advances its own clock instead, so tests of a 6 s timeout take no time.
	 */
	void (*sleep_ms)(struct km_usb_transport *t, unsigned ms);
	/* Release the interface and free the transport. */
	void (*close)(struct km_usb_transport *t);
};

/* Implementations embed this as their first member. */
struct km_usb_transport {
	const struct km_usb_transport_ops *ops;
};

/* t->ops->sleep_ms, or a real sleep when the transport has none. */
void km_usb_sleep(struct km_usb_transport *t, unsigned ms);

/*
 * Parses a player's USB location "BUS:ADDR", as lsusb prints it (decimal,
 * 1..255, up to 3 digits each). False when malformed. Here, not with
 * libusb: karmactl parses --usb without loading libusb.
 */
bool km_usb_parse_location(const char *s, uint8_t *bus, uint8_t *address);

#endif
