/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * umockdev-karma.c - the emulated Karma's sysfs record and the usbdevfs
 * ioctls that are not URBs (driver, claim, clear halt, capabilities).
 * URBs are in umockdev-karma-urb.c.
 */
#include "umockdev-karma-private.h"

#include <errno.h>
#include <linux/usbdevice_fs.h>
#include <sys/ioctl.h>
#include <string.h>

/* Device descriptor (bcdDevice 0x0101, strings 1/2/3), one configuration with
 * interface 0 of class 0/0/0 and bulk OUT 0x02 / IN 0x88 of 512 bytes. */
static const uint8_t karma_descriptors[] = {
	0x12, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x40, 0x5a, 0x04, 0x10, 0x52, 0x01, 0x01,
	0x01, 0x02, 0x03, 0x01,
	0x09, 0x02, 0x20, 0x00, 0x01, 0x01, 0x00, 0xc0, 0x00,
	0x09, 0x04, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00,
	0x07, 0x05, 0x02, 0x02, 0x00, 0x02, 0x00,
	0x07, 0x05, 0x88, 0x02, 0x00, 0x02, 0x00,
};

const uint8_t *umockdev_karma_descriptors(size_t *len)
{
	*len = sizeof(karma_descriptors);
	return karma_descriptors;
}

static char *karma_record(const struct km_umockdev_karma *k)
{
	GString *hex = g_string_new(NULL);
	unsigned bus = k->opts.bus, addr = k->opts.address;
	unsigned minor = (bus - 1) * 128 + addr - 1;	/* as the kernel numbers usb_device */
	char *record;

	for (size_t i = 0; i < sizeof(karma_descriptors); i++)
		g_string_append_printf(hex, "%02X", karma_descriptors[i]);
	record = g_strdup_printf(
		"P: %s\nN: bus/usb/%03u/%03u=%s\n"
		"E: SUBSYSTEM=usb\nE: DEVTYPE=usb_device\nE: DEVNAME=%s\n"
		"E: BUSNUM=%03u\nE: DEVNUM=%03u\nE: MAJOR=189\nE: MINOR=%u\n"
		"E: PRODUCT=45a/5210/101\nE: TYPE=0/0/0\nE: DRIVER=usb\n"
		"A: busnum=%u\\n\nA: devnum=%u\\n\nA: speed=480\\n\n"
		"A: idVendor=045a\\n\nA: idProduct=5210\\n\nA: bcdDevice=0101\\n\n"
		"A: manufacturer=Rio\\n\nA: product=Rio Karma\\n\nA: serial=%s\\n\n"
		"A: bConfigurationValue=1\\n\nA: bNumInterfaces= 1\\n\nA: dev=189:%u\\n\n"
		"H: descriptors=%s\n\n",
		k->syspath + strlen("/sys"), bus, addr, hex->str, k->node, bus, addr, minor, bus, addr,
		k->opts.serial, minor, hex->str);
	g_string_free(hex, TRUE);
	return record;
}

/* Resolves the ioctl's argument as a struct of size bytes (a new reference). */
UMockdevIoctlData *umockdev_karma_arg(UMockdevIoctlClient *client, size_t size)
{
	g_autoptr(GError) err = NULL;
	UMockdevIoctlData *d = umockdev_ioctl_data_resolve(umockdev_ioctl_client_get_arg(client), 0,
							   size, &err);

	g_assert_no_error(err);
	return d;
}

struct karma_client *umockdev_karma_client(UMockdevIoctlClient *client)
{
	struct karma_client *c = g_object_get_data(G_OBJECT(client), "km-karma-client");

	if (!c) {
		c = g_new0(struct karma_client, 1);
		g_queue_init(&c->done);
		g_queue_init(&c->waiting);
		g_object_set_data_full(G_OBJECT(client), "km-karma-client", c,
				       umockdev_karma_client_free);
	}
	return c;
}

static int get_driver(struct km_umockdev_karma *k, UMockdevIoctlClient *client)
{
	UMockdevIoctlData *d = umockdev_karma_arg(client, sizeof(struct usbdevfs_getdriver));
	struct usbdevfs_getdriver *gd = (struct usbdevfs_getdriver *)(void *)d->data;
	const char *name = NULL;

	if (k->busy || k->claimed_by)
		name = "usbfs";
	else if (k->bound)
		name = "usb-storage";
	if (name)
		g_strlcpy(gd->driver, name, sizeof(gd->driver));
	g_object_unref(d);
	return name ? 0 : ENODATA;
}

/* USBDEVFS_IOCTL: only DISCONNECT (detach the driver) and CONNECT (attach). */
static int driver_ioctl(struct km_umockdev_karma *k, UMockdevIoctlClient *client, long *ret)
{
	UMockdevIoctlData *d = umockdev_karma_arg(client, sizeof(struct usbdevfs_ioctl));
	struct usbdevfs_ioctl *io = (struct usbdevfs_ioctl *)(void *)d->data;
	int code = io->ioctl_code, ifno = io->ifno;

	g_object_unref(d);
	if (ifno != 0)
		return EINVAL;
	if (code == (int)USBDEVFS_DISCONNECT) {
		if (!k->bound)
			return ENODATA;
		k->bound = false;
		k->counts.detaches++;
		return 0;
	}
	if (code == (int)USBDEVFS_CONNECT) {
		if (k->claimed_by)
			return EBUSY;
		k->bound = true;
		k->counts.attaches++;
		*ret = 1;	/* the kernel returns 1 when a driver bound */
		return 0;
	}
	return ENOTTY;
}

static unsigned read_uint_arg(UMockdevIoctlClient *client)
{
	UMockdevIoctlData *d = umockdev_karma_arg(client, sizeof(unsigned));
	unsigned v;

	memcpy(&v, d->data, sizeof(v));
	g_object_unref(d);
	return v;
}

static int claim(struct km_umockdev_karma *k, UMockdevIoctlClient *client)
{
	if (read_uint_arg(client) != 0)
		return ENOENT;
	if (k->busy || k->bound || (k->claimed_by && k->claimed_by != client))
		return EBUSY;
	k->claimed_by = client;
	k->counts.claims++;
	return 0;
}

static int release(struct km_umockdev_karma *k, UMockdevIoctlClient *client)
{
	if (read_uint_arg(client) != 0 || k->claimed_by != client)
		return EINVAL;
	k->claimed_by = NULL;
	k->counts.releases++;
	return 0;
}

static int clear_halt(struct km_umockdev_karma *k, UMockdevIoctlClient *client)
{
	unsigned ep = read_uint_arg(client);

	if (ep != KM_KARMA_EP_OUT && ep != KM_KARMA_EP_IN)
		return ENOENT;
	if (ep == KM_KARMA_EP_OUT)
		k->counts.clear_halt_out++;
	else
		k->counts.clear_halt_in++;
	switch (k->device->ops->clear_halt(k->device, (uint8_t)ep)) {
	case 0:
		return 0;
	case -ENODEV:
		k->unplugged = true;
		return ENODEV;
	default:
		return EIO;
	}
}

static int get_capabilities(UMockdevIoctlClient *client)
{
	UMockdevIoctlData *d = umockdev_karma_arg(client, sizeof(uint32_t));
	/* Scatter-gather makes one libusb transfer exactly one URB. */
	uint32_t caps = USBDEVFS_CAP_BULK_SCATTER_GATHER | USBDEVFS_CAP_NO_PACKET_SIZE_LIM |
			USBDEVFS_CAP_BULK_CONTINUATION | USBDEVFS_CAP_ZERO_PACKET |
			USBDEVFS_CAP_REAP_AFTER_DISCONNECT;

	memcpy(d->data, &caps, sizeof(caps));
	g_object_unref(d);
	return 0;
}

/* The device number: what libusb asks of an fd it is given (libusb_wrap_sys_device). */
static int connect_info(struct km_umockdev_karma *k, UMockdevIoctlClient *client)
{
	UMockdevIoctlData *d = umockdev_karma_arg(client, sizeof(struct usbdevfs_connectinfo));
	struct usbdevfs_connectinfo ci = { .devnum = k->opts.address, .slow = 0 };

	memcpy(d->data, &ci, sizeof(ci));
	g_object_unref(d);
	return 0;
}

/* Every ioctl but the URBs; returns the errno (0: success, *ret the result). */
static int plain_ioctl(struct km_umockdev_karma *k, UMockdevIoctlClient *client,
		       unsigned long req, long *ret)
{
	switch (req) {
	case USBDEVFS_GET_CAPABILITIES:
		return get_capabilities(client);
	case USBDEVFS_CONNECTINFO:
		return connect_info(k, client);
	case USBDEVFS_GETDRIVER:
		return get_driver(k, client);
	case USBDEVFS_IOCTL:
		return driver_ioctl(k, client, ret);
	case USBDEVFS_CLAIMINTERFACE:
		return claim(k, client);
	case USBDEVFS_RELEASEINTERFACE:
		return release(k, client);
	case USBDEVFS_CLEAR_HALT:
	case USBDEVFS_RESETEP:
		return clear_halt(k, client);
	case USBDEVFS_RESET:
		return 0;
	default:
		return ENOTTY;
	}
}

static gboolean handle_ioctl(UMockdevIoctlBase *base, UMockdevIoctlClient *client, gpointer data)
{
	struct km_umockdev_karma *k = data;
	unsigned long req = umockdev_ioctl_client_get_request(client);
	long ret = 0;
	int err;

	g_mutex_lock(&k->lock);
	if (!umockdev_karma_urb_ioctl(k, client, req, &err))
		err = k->unplugged ? ENODEV : plain_ioctl(k, client, req, &ret);
	g_mutex_unlock(&k->lock);
	umockdev_ioctl_client_complete(client, err ? -1 : ret, err);
	return TRUE;
}

struct km_umockdev_karma *km_umockdev_karma_add(UMockdevTestbed *tb,
						const struct km_umockdev_karma_options *opts,
						struct km_usb_transport *device)
{
	struct km_umockdev_karma *k = g_new0(struct km_umockdev_karma, 1);
	g_autoptr(GError) err = NULL;
	g_autofree char *record = NULL;

	g_assert_true(opts->bus >= 1 && opts->bus <= 255);
	g_assert_true(opts->address >= 1 && opts->address <= 127);
	k->tb = g_object_ref(tb);
	k->opts = *opts;
	k->opts.serial = opts->serial ? opts->serial : "0000000000000000";
	k->bound = opts->bound;
	k->device = device;
	g_mutex_init(&k->lock);
	k->syspath = g_strdup_printf("/sys/devices/pci0000:00/0000:00:14.0/usb%u/%u-%u", opts->bus,
				     opts->bus, opts->port);
	k->node = g_strdup_printf("/dev/bus/usb/%03u/%03u", opts->bus, opts->address);
	record = karma_record(k);
	g_assert_true(umockdev_testbed_add_from_string(tb, record, &err));
	g_assert_no_error(err);
	k->handler = umockdev_ioctl_base_new();
	g_signal_connect(k->handler, "handle-ioctl", G_CALLBACK(handle_ioctl), k);
	g_assert_true(umockdev_testbed_attach_ioctl(tb, k->node, k->handler, &err));
	g_assert_no_error(err);
	return k;
}

void km_umockdev_karma_free(struct km_umockdev_karma *k)
{
	umockdev_testbed_detach_ioctl(k->tb, k->node, NULL);
	g_object_unref(k->handler);
	g_object_unref(k->tb);
	g_mutex_clear(&k->lock);
	g_free(k->syspath);
	g_free(k->node);
	g_free(k);
}

const char *km_umockdev_karma_node(struct km_umockdev_karma *k)
{
	return k->node;
}

char *km_umockdev_karma_node_file(struct km_umockdev_karma *k)
{
	g_autofree char *root = umockdev_testbed_get_root_dir(k->tb);

	return g_build_filename(root, k->node, NULL);
}

void km_umockdev_karma_unplug(struct km_umockdev_karma *k)
{
	g_mutex_lock(&k->lock);
	k->unplugged = true;
	g_mutex_unlock(&k->lock);
}

void km_umockdev_karma_set_busy(struct km_umockdev_karma *k, bool busy)
{
	g_mutex_lock(&k->lock);
	k->busy = busy;
	g_mutex_unlock(&k->lock);
}

bool km_umockdev_karma_bound(struct km_umockdev_karma *k)
{
	bool bound;

	g_mutex_lock(&k->lock);
	bound = k->bound;
	g_mutex_unlock(&k->lock);
	return bound;
}

void km_umockdev_karma_counts(struct km_umockdev_karma *k, struct km_umockdev_karma_counts *out)
{
	g_mutex_lock(&k->lock);
	*out = k->counts;
	g_mutex_unlock(&k->lock);
}
