/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-usb-libusb.h - the Rio Karma's bulk pipes through libusb-1.0: the real
 * player behind struct km_usb_transport. Finds players by VID/PID (their
 * interface class is 0, so nothing else identifies them), takes the
 * interface from a kernel driver and gives it back on close.
 */
#ifndef KM_USB_LIBUSB_H
#define KM_USB_LIBUSB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "km-usb-transport.h"

#define KM_USB_MAX_PORTS 7	/* a USB tree is at most 7 levels deep */

/* One connected player, as km_usb_libusb_list() sees it. */
struct km_usb_karma_info {
	uint8_t bus;
	uint8_t address;
	uint8_t ports[KM_USB_MAX_PORTS];	/* port path from the root hub */
	int n_ports;
	bool accessible;	/* false: opening it was refused (no permission) */
	char serial[64];	/* "" when unreadable or absent */
};

/*
 * Fills up to max entries with the connected players and returns how many
 * there are (which may exceed max), or a negative errno with a sentence in msg.
 */
int km_usb_libusb_list(struct km_usb_karma_info *out, size_t max, char *msg, size_t msglen);

/*
 * Opens the player at bus:address, or the first one found when bus is 0.
 * On success *out is a transport whose close() releases everything.
 * Errors, with a sentence in msg: -ENODEV no player (there), -EACCES no
 * permission to open its /dev/bus/usb node, -EBUSY another program holds it,
 * -EIO anything else.
 */
int km_usb_libusb_open(uint8_t bus, uint8_t address, struct km_usb_transport **out, char *msg,
		       size_t msglen);

/*
 * The same on a usbdevfs node already open (the USB portal's fd), which the
 * transport owns from now on, also when this fails (it is closed then).
 */
int km_usb_libusb_open_fd(int fd, struct km_usb_transport **out, char *msg, size_t msglen);

#endif
