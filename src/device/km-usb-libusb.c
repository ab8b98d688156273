/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-usb-libusb.c - struct km_usb_transport over libusb-1.0: the real Rio
 * Karma. Each open transport owns its own libusb context, so a program may
 * open, close and reopen players without any global state.
 */
#include "km-usb-libusb.h"

#include <errno.h>
#include <limits.h>
#include <libusb.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "km-fail.h"
#include "km-storage-lock.h"

#define KARMA_INTERFACE 0
#define BOT_RESET_REQUEST 0xff	/* Bulk-Only Mass Storage Reset */
#define CONTROL_TIMEOUT_MS 5000

struct km_usb_libusb {
	struct km_usb_transport base;	/* first: the ops see this struct */
	libusb_context *ctx;
	libusb_device_handle *handle;
	bool reattach;		/* a kernel driver was detached at open */
	int fd;			/* the node the portal gave, or -1: libusb opened it */
};

/* The libusb error code as the negative errno of km-usb-transport.h. */
static int km_usb_libusb_errno(int libusb_error)
{
	switch (libusb_error) {
	case LIBUSB_SUCCESS:
		return 0;
	case LIBUSB_ERROR_TIMEOUT:
		return -ETIMEDOUT;
	case LIBUSB_ERROR_PIPE:
		return -EPIPE;
	case LIBUSB_ERROR_NO_DEVICE:
		return -ENODEV;
	case LIBUSB_ERROR_OVERFLOW:
		return -EOVERFLOW;
	default:
		return -EIO;
	}
}

static struct km_usb_libusb *to_usb(struct km_usb_transport *t)
{
	return (struct km_usb_libusb *)t;
}

static int usb_bulk(struct km_usb_transport *t, uint8_t endpoint, uint8_t *buf, size_t len,
		    size_t *done, unsigned timeout_ms)
{
	int actual = 0;
	int r;

	*done = 0;
	if (len > INT_MAX)	/* libusb counts in int; the protocol never comes close */
		return -EIO;
	r = libusb_bulk_transfer(to_usb(t)->handle, endpoint, buf, (int)len, &actual, timeout_ms);
	if (actual > 0)
		*done = (size_t)actual <= len ? (size_t)actual : len;
	return km_usb_libusb_errno(r);
}

static int usb_bulk_out(struct km_usb_transport *t, const void *buf, size_t len, size_t *done,
			unsigned timeout_ms)
{
	/* libusb's buffer is not const, but an OUT transfer only reads it. */
	return usb_bulk(t, KM_KARMA_EP_OUT, (uint8_t *)(uintptr_t)buf, len, done, timeout_ms);
}

static int usb_bulk_in(struct km_usb_transport *t, void *buf, size_t len, size_t *done,
		       unsigned timeout_ms)
{
	return usb_bulk(t, KM_KARMA_EP_IN, buf, len, done, timeout_ms);
}

static int usb_clear_halt(struct km_usb_transport *t, uint8_t endpoint)
{
	return km_usb_libusb_errno(libusb_clear_halt(to_usb(t)->handle, endpoint));
}

static int usb_bot_reset(struct km_usb_transport *t)
{
	int r = libusb_control_transfer(to_usb(t)->handle,
					LIBUSB_ENDPOINT_OUT | LIBUSB_REQUEST_TYPE_CLASS |
						LIBUSB_RECIPIENT_INTERFACE,
					BOT_RESET_REQUEST, 0, KARMA_INTERFACE, NULL, 0,
					CONTROL_TIMEOUT_MS);

	return r < 0 ? km_usb_libusb_errno(r) : 0;
}

/* Undoes whatever of open succeeded; claimed says whether to release. */
static void usb_teardown(struct km_usb_libusb *u, bool claimed)
{
	if (u->handle) {
		if (claimed)
			libusb_release_interface(u->handle, KARMA_INTERFACE);
		/* Give the player back to usb-storage, as we found it. */
		if (u->reattach)
			libusb_attach_kernel_driver(u->handle, KARMA_INTERFACE);
		libusb_close(u->handle);
	}
	if (u->ctx)
		libusb_exit(u->ctx);
	if (u->fd >= 0)
		close(u->fd);	/* a wrapped handle leaves its fd open */
	free(u);
}

static void usb_close(struct km_usb_transport *t)
{
	usb_teardown(to_usb(t), true);
}

static const struct km_usb_transport_ops usb_ops = {
	.bulk_out = usb_bulk_out,
	.bulk_in = usb_bulk_in,
	.clear_halt = usb_clear_halt,
	.bot_reset = usb_bot_reset,
	.sleep_ms = NULL,
	.close = usb_close,
};

static bool is_karma(libusb_device *dev)
{
	struct libusb_device_descriptor d;

	return libusb_get_device_descriptor(dev, &d) == 0 && d.idVendor == KM_KARMA_VENDOR_ID &&
	       d.idProduct == KM_KARMA_PRODUCT_ID;
}

/* A reference to the player at bus:address (any player when bus is 0), or NULL. */
static libusb_device *find_karma(libusb_context *ctx, uint8_t bus, uint8_t address)
{
	libusb_device **list;
	libusb_device *found = NULL;
	ssize_t n = libusb_get_device_list(ctx, &list);

	for (ssize_t i = 0; i < n && !found; i++) {
		libusb_device *dev = list[i];

		if (!is_karma(dev))
			continue;
		if (bus && (libusb_get_bus_number(dev) != bus ||
			    libusb_get_device_address(dev) != address))
			continue;
		found = libusb_ref_device(dev);
	}
	if (n >= 0)
		libusb_free_device_list(list, 1);
	return found;
}

static void read_serial(libusb_device_handle *h, libusb_device *dev, char *serial, size_t size)
{
	struct libusb_device_descriptor d;
	int n;

	serial[0] = '\0';
	if (libusb_get_device_descriptor(dev, &d) || !d.iSerialNumber)
		return;
	n = libusb_get_string_descriptor_ascii(h, d.iSerialNumber, (unsigned char *)serial,
					       (int)size);
	serial[n > 0 && (size_t)n < size ? n : 0] = '\0';
}

static void describe_karma(libusb_device *dev, struct km_usb_karma_info *info)
{
	libusb_device_handle *h;
	uint8_t ports[KM_USB_MAX_PORTS];
	int n = libusb_get_port_numbers(dev, ports, KM_USB_MAX_PORTS);
	int r;

	memset(info, 0, sizeof(*info));
	info->bus = libusb_get_bus_number(dev);
	info->address = libusb_get_device_address(dev);
	info->n_ports = n > 0 ? n : 0;
	memcpy(info->ports, ports, (size_t)info->n_ports);
	/* Reading the serial needs the device open; refusal is worth knowing. */
	r = libusb_open(dev, &h);
	info->accessible = r != LIBUSB_ERROR_ACCESS;
	if (r == 0) {
		read_serial(h, dev, info->serial, sizeof(info->serial));
		libusb_close(h);
	}
}

int km_usb_libusb_list(struct km_usb_karma_info *out, size_t max, char *msg, size_t msglen)
{
	libusb_context *ctx;
	libusb_device **list;
	ssize_t n;
	int count = 0;
	int r = libusb_init(&ctx);

	if (r)
		return km_fail(-EIO, msg, msglen, "cannot start libusb: %s", libusb_strerror(r));
	n = libusb_get_device_list(ctx, &list);
	if (n < 0) {
		libusb_exit(ctx);
		return km_fail(-EIO, msg, msglen, "cannot list USB devices: %s",
			       libusb_strerror((int)n));
	}
	for (ssize_t i = 0; i < n; i++) {
		if (!is_karma(list[i]))
			continue;
		if ((size_t)count < max)
			describe_karma(list[i], &out[count]);
		count++;
	}
	libusb_free_device_list(list, 1);
	libusb_exit(ctx);
	return count;
}

/* Opens dev into u->handle, with the sentence a user can act on. */
static int open_handle(struct km_usb_libusb *u, libusb_device *dev, char *msg, size_t msglen)
{
	unsigned bus = libusb_get_bus_number(dev), addr = libusb_get_device_address(dev);
	int r = libusb_open(dev, &u->handle);

	if (r == 0)
		return 0;
	u->handle = NULL;
	if (r == LIBUSB_ERROR_ACCESS)
		return km_fail(-EACCES, msg, msglen,
			       "no permission to open /dev/bus/usb/%03u/%03u (the Rio Karma)",
			       bus, addr);
	if (r == LIBUSB_ERROR_NO_DEVICE)
		return km_fail(-ENODEV, msg, msglen, "the Rio Karma was unplugged");
	return km_fail(-EIO, msg, msglen, "cannot open /dev/bus/usb/%03u/%03u: %s", bus, addr,
		       libusb_strerror(r));
}

/* Takes interface 0 from usb-storage (or ums-karma) when one holds it. */
static int detach_kernel_driver(struct km_usb_libusb *u, char *msg, size_t msglen)
{
	int r = libusb_kernel_driver_active(u->handle, KARMA_INTERFACE);

	if (r == LIBUSB_ERROR_NOT_SUPPORTED || r == 0)
		return 0;
	if (r == 1)
		r = libusb_detach_kernel_driver(u->handle, KARMA_INTERFACE);
	if (r == 0) {
		u->reattach = true;
		return 0;
	}
	if (r == LIBUSB_ERROR_NO_DEVICE)
		return km_fail(-ENODEV, msg, msglen, "the Rio Karma was unplugged");
	return km_fail(r == LIBUSB_ERROR_ACCESS ? -EACCES : -EIO, msg, msglen,
		       "cannot take the Rio Karma from its kernel driver: %s", libusb_strerror(r));
}

/*
 * Claiming the interface is exclusive (the kernel lets one file handle
 * claim it): when another has, the process holding the node is named, as
 * an image's lock holder is.
 */
static int claimed_elsewhere(struct km_usb_libusb *u, char *msg, size_t msglen)
{
	libusb_device *dev = libusb_get_device(u->handle);
	char node[32], holder[96];

	snprintf(node, sizeof(node), "/dev/bus/usb/%03u/%03u", libusb_get_bus_number(dev),
		 libusb_get_device_address(dev));
	if (km_storage_node_user(node, holder, sizeof(holder)))
		return km_fail(-EBUSY, msg, msglen, "the Rio Karma is in use by %s", holder);
	return km_fail(-EBUSY, msg, msglen,
		       "the Rio Karma is busy: another program is using it");
}

static int claim_interface(struct km_usb_libusb *u, char *msg, size_t msglen)
{
	int r = libusb_claim_interface(u->handle, KARMA_INTERFACE);

	if (r == 0)
		return 0;
	if (r == LIBUSB_ERROR_BUSY)
		return claimed_elsewhere(u, msg, msglen);
	if (r == LIBUSB_ERROR_NO_DEVICE)
		return km_fail(-ENODEV, msg, msglen, "the Rio Karma was unplugged");
	return km_fail(-EIO, msg, msglen, "cannot claim the Rio Karma's interface: %s",
		       libusb_strerror(r));
}

/* A previous program may have left an endpoint halted; start clean. */
static int clear_halts(struct km_usb_libusb *u, char *msg, size_t msglen)
{
	static const uint8_t eps[] = { KM_KARMA_EP_OUT, KM_KARMA_EP_IN };

	for (size_t i = 0; i < sizeof(eps); i++) {
		int r = libusb_clear_halt(u->handle, eps[i]);

		if (r)
			return km_fail(km_usb_libusb_errno(r), msg, msglen,
				       "cannot clear the halt of endpoint 0x%02x: %s", eps[i],
				       libusb_strerror(r));
	}
	return 0;
}

/* On an open handle: interface 0 from its kernel driver, claimed, endpoints clean. */
static int take_interface(struct km_usb_libusb *u, char *msg, size_t msglen)
{
	int err = detach_kernel_driver(u, msg, msglen);

	if (!err)
		err = claim_interface(u, msg, msglen);
	if (err)
		return err;
	err = clear_halts(u, msg, msglen);
	if (err)
		libusb_release_interface(u->handle, KARMA_INTERFACE);
	return err;
}

static int open_device(struct km_usb_libusb *u, libusb_device *dev, char *msg, size_t msglen)
{
	int err = open_handle(u, dev, msg, msglen);

	return err ? err : take_interface(u, msg, msglen);
}

int km_usb_libusb_open(uint8_t bus, uint8_t address, struct km_usb_transport **out, char *msg,
		       size_t msglen)
{
	struct km_usb_libusb *u = calloc(1, sizeof(*u));
	libusb_device *dev;
	int r, err;

	*out = NULL;
	if (!u)
		return km_fail(-ENOMEM, msg, msglen, "out of memory");
	u->base.ops = &usb_ops;
	u->fd = -1;
	r = libusb_init(&u->ctx);
	if (r) {
		u->ctx = NULL;
		usb_teardown(u, false);
		return km_fail(-EIO, msg, msglen, "cannot start libusb: %s", libusb_strerror(r));
	}
	dev = find_karma(u->ctx, bus, address);
	if (!dev) {
		usb_teardown(u, false);
		if (bus)
			return km_fail(-ENODEV, msg, msglen,
				       "no Rio Karma at USB bus %u device %u", bus, address);
		return km_fail(-ENODEV, msg, msglen, "no Rio Karma connected");
	}
	err = open_device(u, dev, msg, msglen);
	libusb_unref_device(dev);
	if (err) {
		usb_teardown(u, false);
		return err;
	}
	*out = &u->base;
	return 0;
}

int km_usb_libusb_open_fd(int fd, struct km_usb_transport **out, char *msg, size_t msglen)
{
	struct km_usb_libusb *u = calloc(1, sizeof(*u));
	int r, err;

	*out = NULL;
	if (!u) {
		close(fd);
		return km_fail(-ENOMEM, msg, msglen, "out of memory");
	}
	u->base.ops = &usb_ops;
	u->fd = fd;
	r = libusb_init(&u->ctx);
	if (r) {
		u->ctx = NULL;
		usb_teardown(u, false);
		return km_fail(-EIO, msg, msglen, "cannot start libusb: %s", libusb_strerror(r));
	}
	r = libusb_wrap_sys_device(u->ctx, (intptr_t)fd, &u->handle);
	if (r) {
		u->handle = NULL;
		usb_teardown(u, false);
		return km_fail(r == LIBUSB_ERROR_NO_DEVICE ? -ENODEV : -EIO, msg, msglen,
			       "cannot use the Rio Karma the portal gave: %s", libusb_strerror(r));
	}
	err = take_interface(u, msg, msglen);
	if (err) {
		usb_teardown(u, false);
		return err;
	}
	*out = &u->base;
	return 0;
}
