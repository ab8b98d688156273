/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * umockdev-karma.h - a Rio Karma in a UMockdevTestbed for the real libusb:
 * its sysfs record, and an ioctl handler on its /dev/bus/usb node that
 * serves the usbdevfs calls libusb makes (claim, detach, URBs, clear halt,
 * control transfers) and forwards the bulk pipes, the clear halts and the
 * Bulk-Only reset to a struct km_usb_transport playing the device.
 *
 * The handler runs on umockdev's worker thread; the device transport is
 * only ever called from there, under the Karma's lock.
 */
#ifndef UMOCKDEV_KARMA_H
#define UMOCKDEV_KARMA_H

#include <stdbool.h>
#include <umockdev.h>

#include "km-usb-transport.h"

struct km_umockdev_karma;

struct km_umockdev_karma_options {
	unsigned bus;		/* 1..255 */
	unsigned address;	/* 1..127 */
	unsigned port;		/* port on the root hub: sysfs name "BUS-PORT" */
	const char *serial;
	bool bound;		/* usb-storage holds interface 0 at the start */
};

/* What the handler saw, for the tests to check. */
struct km_umockdev_karma_counts {
	unsigned clear_halt_out;
	unsigned clear_halt_in;
	unsigned bot_resets;
	unsigned detaches;
	unsigned attaches;
	unsigned claims;
	unsigned releases;
};

/*
 * Adds the Karma to tb and serves its node with device, which stays the
 * caller's (close it after km_umockdev_karma_free). Fails the test on error.
 */
struct km_umockdev_karma *km_umockdev_karma_add(UMockdevTestbed *tb,
						const struct km_umockdev_karma_options *opts,
						struct km_usb_transport *device);
void km_umockdev_karma_free(struct km_umockdev_karma *k);

/* "/dev/bus/usb/BBB/DDD", as libusb names the node. */
const char *km_umockdev_karma_node(struct km_umockdev_karma *k);
/* The node's file inside the testbed (to chmod it). Free with g_free. */
char *km_umockdev_karma_node_file(struct km_umockdev_karma *k);

/* The player is pulled out: every usbdevfs call fails with ENODEV. */
void km_umockdev_karma_unplug(struct km_umockdev_karma *k);
/* Another program holds the interface through usbfs. */
void km_umockdev_karma_set_busy(struct km_umockdev_karma *k, bool busy);
/* Whether usb-storage holds interface 0 now. */
bool km_umockdev_karma_bound(struct km_umockdev_karma *k);
void km_umockdev_karma_counts(struct km_umockdev_karma *k, struct km_umockdev_karma_counts *out);

#endif
