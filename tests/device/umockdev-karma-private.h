/* SPDX-License-Identifier: GPL-2.0-or-later */
/* umockdev-karma-private.h - what the two halves of the emulated Karma share. */
#ifndef UMOCKDEV_KARMA_PRIVATE_H
#define UMOCKDEV_KARMA_PRIVATE_H

#include "umockdev-karma.h"

struct km_umockdev_karma {
	UMockdevTestbed *tb;
	UMockdevIoctlBase *handler;
	struct km_umockdev_karma_options opts;
	char *syspath;
	char *node;
	struct km_usb_transport *device;
	GMutex lock;		/* the handler's thread against the test's */
	bool bound;		/* usb-storage holds interface 0 */
	bool busy;		/* another program holds it through usbfs */
	bool unplugged;
	UMockdevIoctlClient *claimed_by;	/* the open file that claimed interface 0 */
	struct km_umockdev_karma_counts counts;
};

/* The URBs of one open file of the node: libusb reaps on the fd it submitted on. */
struct karma_client {
	GQueue done;		/* struct karma_urb, completed, to be reaped */
	GQueue waiting;		/* struct karma_urb the device has no answer for yet */
};

const uint8_t *umockdev_karma_descriptors(size_t *len);
UMockdevIoctlData *umockdev_karma_arg(UMockdevIoctlClient *client, size_t size);
struct karma_client *umockdev_karma_client(UMockdevIoctlClient *client);
void umockdev_karma_client_free(gpointer client);
/* Handles req when it is a URB ioctl (returns true, *err the errno). */
bool umockdev_karma_urb_ioctl(struct km_umockdev_karma *k, UMockdevIoctlClient *client,
			      unsigned long req, int *err);

#endif
