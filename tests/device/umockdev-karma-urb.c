/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * umockdev-karma-urb.c - the emulated Karma's URBs: bulk transfers forwarded
 * to the device transport, the control transfers libusb sends (descriptors,
 * the Bulk-Only reset), and libusb's submit / reap / discard cycle.
 */
#include "umockdev-karma-private.h"

#include <errno.h>
#include <linux/usbdevice_fs.h>
#include <sys/ioctl.h>
#include <string.h>

#define SETUP_SIZE 8
/*
 * How long the device may take to answer one URB. The handler must not block
 * (one thread serves every client); an unanswered IN waits in the queue and
 * is asked again each time libusb polls, as a NAKed transfer would be.
 */
#define DEVICE_POLL_MS 1

struct karma_urb {
	UMockdevIoctlData *urbdata;	/* the client's struct usbdevfs_urb */
	UMockdevIoctlData *buf;		/* its buffer, NULL when empty */
};

static struct usbdevfs_urb *urb_of(struct karma_urb *u)
{
	return (struct usbdevfs_urb *)(void *)u->urbdata->data;
}

static void karma_urb_free(gpointer p)
{
	struct karma_urb *u = p;

	g_clear_object(&u->buf);
	g_object_unref(u->urbdata);
	g_free(u);
}

void umockdev_karma_client_free(gpointer p)
{
	struct karma_client *c = p;

	g_queue_clear_full(&c->done, karma_urb_free);
	g_queue_clear_full(&c->waiting, karma_urb_free);
	g_free(c);
}

/* The device transport's answer as the status a usbfs URB completes with. */
static int urb_status(struct km_umockdev_karma *k, int r)
{
	switch (r) {
	case 0:
	case -EPIPE:
	case -EOVERFLOW:
		return r;
	case -ENODEV:
		k->unplugged = true;
		return -ENODEV;
	default:
		return -EPROTO;
	}
}

/* Runs a bulk URB on the device; false when the device has nothing yet (NAK). */
static bool run_bulk(struct km_umockdev_karma *k, struct karma_urb *u)
{
	struct usbdevfs_urb *urb = urb_of(u);
	struct km_usb_transport *dev = k->device;
	size_t len = (size_t)urb->buffer_length, done = 0;
	uint8_t *data = u->buf ? u->buf->data : NULL;
	int r;

	if (urb->endpoint == KM_KARMA_EP_OUT)
		r = dev->ops->bulk_out(dev, data, len, &done, DEVICE_POLL_MS);
	else
		r = dev->ops->bulk_in(dev, data, len, &done, DEVICE_POLL_MS);
	urb->actual_length = (int)(done < len ? done : len);
	if (r == -ETIMEDOUT)
		return false;
	urb->status = urb_status(k, r);
	return true;
}

/* A string descriptor in UTF-16LE, from ASCII; index 0 is the language list. */
static size_t string_descriptor(const struct km_umockdev_karma *k, unsigned index, uint8_t *out)
{
	static const char *const strings[] = { NULL, "Rio", "Rio Karma" };
	const char *s;
	size_t n;

	if (index == 0) {
		memcpy(out, "\x04\x03\x09\x04", 4);	/* English (US) */
		return 4;
	}
	if (index > 3)
		return 0;
	s = index == 3 ? k->opts.serial : strings[index];
	n = MIN(strlen(s), 126);
	out[0] = (uint8_t)(2 + 2 * n);
	out[1] = 3;
	for (size_t i = 0; i < n; i++) {
		out[2 + 2 * i] = (uint8_t)s[i];
		out[3 + 2 * i] = 0;
	}
	return 2 + 2 * n;
}

/* GET_DESCRIPTOR: its bytes into reply; 0 when there is no such descriptor. */
static size_t get_descriptor(const struct km_umockdev_karma *k, unsigned value, uint8_t *reply)
{
	size_t total;
	const uint8_t *d = umockdev_karma_descriptors(&total);

	switch (value >> 8) {
	case 1:
		memcpy(reply, d, 18);
		return 18;
	case 2:
		memcpy(reply, d + 18, total - 18);
		return total - 18;
	case 3:
		return string_descriptor(k, value & 0xff, reply);
	default:
		return 0;
	}
}

/* A control URB: the setup packet, then room for the reply. */
static void run_control(struct km_umockdev_karma *k, struct karma_urb *u)
{
	struct usbdevfs_urb *urb = urb_of(u);
	const uint8_t *setup = u->buf->data;
	unsigned value = setup[2] | setup[3] << 8, index = setup[4] | setup[5] << 8;
	size_t room = (size_t)urb->buffer_length - SETUP_SIZE, n;
	uint8_t reply[256];

	urb->actual_length = 0;
	urb->status = -EPIPE;	/* a request the Karma does not know stalls */
	if (setup[0] == 0x80 && setup[1] == 0x06) {
		n = MIN(get_descriptor(k, value, reply), room);
		if (n) {
			memcpy(u->buf->data + SETUP_SIZE, reply, n);
			urb->actual_length = (int)n;
			urb->status = 0;
		}
	} else if (setup[0] == 0x21 && setup[1] == 0xff && index == 0) {
		k->counts.bot_resets++;
		urb->status = urb_status(k, k->device->ops->bot_reset(k->device));
	}
}

static int submit(struct km_umockdev_karma *k, UMockdevIoctlClient *client)
{
	struct karma_client *c = umockdev_karma_client(client);
	struct karma_urb *u;
	struct usbdevfs_urb *urb;
	g_autoptr(GError) err = NULL;

	if (k->unplugged)
		return ENODEV;
	u = g_new0(struct karma_urb, 1);
	u->urbdata = umockdev_karma_arg(client, sizeof(struct usbdevfs_urb));
	urb = urb_of(u);
	if (urb->buffer_length > 0) {
		u->buf = umockdev_ioctl_data_resolve(u->urbdata,
						     G_STRUCT_OFFSET(struct usbdevfs_urb, buffer),
						     (gsize)urb->buffer_length, &err);
		g_assert_no_error(err);
	}
	if (urb->type == USBDEVFS_URB_TYPE_CONTROL && urb->buffer_length >= SETUP_SIZE) {
		run_control(k, u);
	} else if (urb->type == USBDEVFS_URB_TYPE_BULK &&
		   (urb->endpoint == KM_KARMA_EP_OUT || urb->endpoint == KM_KARMA_EP_IN)) {
		if (!run_bulk(k, u)) {
			g_queue_push_tail(&c->waiting, u);
			return 0;
		}
	} else {
		karma_urb_free(u);
		return EINVAL;
	}
	g_queue_push_tail(&c->done, u);
	return 0;
}

/*
 * Asks the device again for the URBs it had no answer for. Once the player
 * is gone they all end, as the kernel ends them, with -ESHUTDOWN.
 */
static void retry_waiting(struct km_umockdev_karma *k, struct karma_client *c)
{
	for (GList *l = c->waiting.head, *next; l; l = next) {
		struct karma_urb *u = l->data;

		next = l->next;
		if (k->unplugged)
			urb_of(u)->status = -ESHUTDOWN;
		/* A transfer cut short by a timeout waits for libusb's discard. */
		else if (urb_of(u)->actual_length || !run_bulk(k, u))
			continue;
		g_queue_delete_link(&c->waiting, l);
		g_queue_push_tail(&c->done, u);
	}
}

static int reap(struct km_umockdev_karma *k, UMockdevIoctlClient *client)
{
	struct karma_client *c = umockdev_karma_client(client);
	struct karma_urb *u;
	UMockdevIoctlData *d;

	retry_waiting(k, c);
	u = g_queue_pop_head(&c->done);
	if (!u)	/* reaping still works after a disconnect, until nothing is left */
		return k->unplugged ? ENODEV : EAGAIN;
	/* Points the client's urb pointer back at the URB it submitted. */
	d = umockdev_karma_arg(client, sizeof(void *));
	g_assert_true(umockdev_ioctl_data_set_ptr(d, 0, u->urbdata));
	g_object_unref(d);
	karma_urb_free(u);
	return 0;
}

/* The argument is the client's URB address itself: never resolve it. */
static int discard(UMockdevIoctlClient *client)
{
	struct karma_client *c = umockdev_karma_client(client);
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(client);
	gulong addr;

	memcpy(&addr, arg->data, sizeof(addr));
	for (GList *l = c->waiting.head; l; l = l->next) {
		struct karma_urb *u = l->data;

		if (u->urbdata->client_addr != addr)
			continue;
		urb_of(u)->status = -ENOENT;
		g_queue_delete_link(&c->waiting, l);
		g_queue_push_tail(&c->done, u);
		return 0;
	}
	return EINVAL;	/* libusb takes this as "already completed" */
}

bool umockdev_karma_urb_ioctl(struct km_umockdev_karma *k, UMockdevIoctlClient *client,
			      unsigned long req, int *err)
{
	switch (req) {
	case USBDEVFS_SUBMITURB:
		*err = submit(k, client);
		return true;
	case USBDEVFS_REAPURB:
	case USBDEVFS_REAPURBNDELAY:
		*err = reap(k, client);
		return true;
	case USBDEVFS_DISCARDURB:
		*err = discard(client);
		return true;
	default:
		return false;
	}
}
