/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-usb-libusb.c - km-usb-libusb through the real libusb-1.0, against a
 * Karma emulated by umockdev (umockdev-karma.c) whose "device" is a small
 * fake here: it records what the host sends and replies from a queue, and
 * can stall, go silent or vanish. Run under umockdev-wrapper.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <linux/capability.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "km-usb-libusb.h"
#include "umockdev-karma.h"

#define TIMEOUT_MS 1000

struct fake_device {
	struct km_usb_transport base;
	GByteArray *received;	/* every byte of bulk OUT, in order */
	GQueue replies;		/* GBytes: one bulk IN transfer each */
	bool halted_in;
	bool gone;
	unsigned clear_halts_in;
	unsigned resets;
};

static struct fake_device *to_fake(struct km_usb_transport *t)
{
	return (struct fake_device *)t;
}

static int fake_bulk_out(struct km_usb_transport *t, const void *buf, size_t len, size_t *done,
			 unsigned timeout_ms)
{
	struct fake_device *f = to_fake(t);

	*done = 0;
	if (f->gone)
		return -ENODEV;
	g_byte_array_append(f->received, buf, (guint)len);
	*done = len;
	return 0;
}

static int fake_bulk_in(struct km_usb_transport *t, void *buf, size_t len, size_t *done,
			unsigned timeout_ms)
{
	struct fake_device *f = to_fake(t);
	g_autoptr(GBytes) reply = NULL;
	size_t n;

	*done = 0;
	if (f->gone)
		return -ENODEV;
	if (f->halted_in)
		return -EPIPE;
	reply = g_queue_pop_head(&f->replies);
	if (!reply)
		return -ETIMEDOUT;
	n = g_bytes_get_size(reply);
	memcpy(buf, g_bytes_get_data(reply, NULL), MIN(n, len));
	*done = MIN(n, len);
	return n > len ? -EOVERFLOW : 0;
}

static int fake_clear_halt(struct km_usb_transport *t, uint8_t endpoint)
{
	struct fake_device *f = to_fake(t);

	if (endpoint == KM_KARMA_EP_IN) {
		f->halted_in = false;
		f->clear_halts_in++;
	}
	return 0;
}

static int fake_bot_reset(struct km_usb_transport *t)
{
	to_fake(t)->resets++;
	return 0;
}

static void fake_close(struct km_usb_transport *t)
{
	struct fake_device *f = to_fake(t);

	g_byte_array_unref(f->received);
	g_queue_clear_full(&f->replies, (GDestroyNotify)g_bytes_unref);
	g_free(f);
}

static const struct km_usb_transport_ops fake_ops = {
	.bulk_out = fake_bulk_out,
	.bulk_in = fake_bulk_in,
	.clear_halt = fake_clear_halt,
	.bot_reset = fake_bot_reset,
	.close = fake_close,
};

static struct fake_device *fake_new(void)
{
	struct fake_device *f = g_new0(struct fake_device, 1);

	f->base.ops = &fake_ops;
	f->received = g_byte_array_new();
	g_queue_init(&f->replies);
	return f;
}

static void fake_reply(struct fake_device *f, const void *data, size_t len)
{
	g_queue_push_tail(&f->replies, g_bytes_new(data, len));
}

/* A testbed with one Karma at bus 1 device 2 (port 1-1), served by a fake. */
struct fixture {
	UMockdevTestbed *tb;
	struct fake_device *dev;
	struct km_umockdev_karma *karma;
	struct km_usb_transport *t;	/* the libusb side, once opened */
	char msg[256];
};

static const struct km_umockdev_karma_options karma_1_2 = {
	.bus = 1, .address = 2, .port = 1, .serial = "RIO0000000001234",
};

static void fixture_setup(struct fixture *fx, gconstpointer data)
{
	const struct km_umockdev_karma_options *opts = data ? data : &karma_1_2;

	fx->tb = umockdev_testbed_new();
	fx->dev = fake_new();
	fx->karma = km_umockdev_karma_add(fx->tb, opts, &fx->dev->base);
}

static void fixture_teardown(struct fixture *fx, gconstpointer data)
{
	if (fx->t)
		fx->t->ops->close(fx->t);
	km_umockdev_karma_free(fx->karma);
	fake_close(&fx->dev->base);
	g_object_unref(fx->tb);
}

static void open_first(struct fixture *fx)
{
	int err = km_usb_libusb_open(0, 0, &fx->t, fx->msg, sizeof(fx->msg));

	if (err)
		g_test_message("open: %s", fx->msg);
	g_assert_cmpint(err, ==, 0);
	g_assert_nonnull(fx->t);
}

/* A mouse: an unrelated USB device that listing and opening must skip. */
static void add_mouse(UMockdevTestbed *tb)
{
	g_autoptr(GError) err = NULL;

	umockdev_testbed_add_from_string(tb,
		"P: /devices/pci0000:00/0000:00:14.0/usb1/1-4\nN: bus/usb/001/003\n"
		"E: SUBSYSTEM=usb\nE: DEVTYPE=usb_device\nE: DEVNAME=/dev/bus/usb/001/003\n"
		"E: BUSNUM=001\nE: DEVNUM=003\nE: MAJOR=189\nE: MINOR=2\n"
		"A: busnum=1\\n\nA: devnum=3\\n\nA: speed=12\\n\nA: idVendor=046d\\n\n"
		"A: idProduct=c52b\\n\nA: bConfigurationValue=1\\n\nA: bNumInterfaces= 1\\n\n"
		"H: descriptors=12011001000000086D042BC5011201020001"
		"0902190001010080320904000001030102000705810308000A\n\n", &err);
	g_assert_no_error(err);
}

static void test_list(struct fixture *fx, gconstpointer data)
{
	static const struct km_umockdev_karma_options second = {
		.bus = 3, .address = 7, .port = 2, .serial = "RIO0000000005678",
	};
	struct fake_device *dev2 = fake_new();
	struct km_umockdev_karma *karma2 = km_umockdev_karma_add(fx->tb, &second, &dev2->base);
	struct km_usb_karma_info info[4];
	int n;

	add_mouse(fx->tb);
	n = km_usb_libusb_list(info, G_N_ELEMENTS(info), fx->msg, sizeof(fx->msg));
	g_assert_cmpint(n, ==, 2);
	/* libusb's order is not ours to rely on. */
	if (info[0].bus != 1) {
		struct km_usb_karma_info tmp = info[0];

		info[0] = info[1];
		info[1] = tmp;
	}
	g_assert_cmpuint(info[0].bus, ==, 1);
	g_assert_cmpuint(info[0].address, ==, 2);
	g_assert_cmpint(info[0].n_ports, ==, 1);
	g_assert_cmpuint(info[0].ports[0], ==, 1);
	g_assert_true(info[0].accessible);
	g_assert_cmpstr(info[0].serial, ==, "RIO0000000001234");
	g_assert_cmpuint(info[1].bus, ==, 3);
	g_assert_cmpuint(info[1].address, ==, 7);
	g_assert_cmpuint(info[1].ports[0], ==, 2);
	g_assert_cmpstr(info[1].serial, ==, "RIO0000000005678");
	/* Fewer slots than players: the count still says how many there are. */
	g_assert_cmpint(km_usb_libusb_list(info, 1, fx->msg, sizeof(fx->msg)), ==, 2);

	/* Opening by location picks that player, and only that one. */
	g_assert_cmpint(km_usb_libusb_open(3, 7, &fx->t, fx->msg, sizeof(fx->msg)), ==, 0);
	fake_reply(dev2, "second", 6);
	{
		char buf[16];
		size_t done;

		g_assert_cmpint(fx->t->ops->bulk_in(fx->t, buf, sizeof(buf), &done, TIMEOUT_MS),
				==, 0);
		g_assert_cmpmem(buf, done, "second", 6);
	}
	fx->t->ops->close(fx->t);
	fx->t = NULL;
	km_umockdev_karma_free(karma2);
	fake_close(&dev2->base);
}

static void test_open_claims(struct fixture *fx, gconstpointer data)
{
	struct km_umockdev_karma_counts c;

	open_first(fx);
	km_umockdev_karma_counts(fx->karma, &c);
	g_assert_cmpuint(c.claims, ==, 1);
	g_assert_cmpuint(c.clear_halt_out, ==, 1);
	g_assert_cmpuint(c.clear_halt_in, ==, 1);
	g_assert_cmpuint(c.detaches, ==, 0);
	fx->t->ops->close(fx->t);
	fx->t = NULL;
	km_umockdev_karma_counts(fx->karma, &c);
	g_assert_cmpuint(c.releases, ==, 1);
	g_assert_cmpuint(c.attaches, ==, 0);	/* nothing was bound: nothing to give back */
	g_assert_false(km_umockdev_karma_bound(fx->karma));
}

static const struct km_umockdev_karma_options karma_bound = {
	.bus = 1, .address = 2, .port = 1, .bound = true,
};

static void test_detach_reattach(struct fixture *fx, gconstpointer data)
{
	struct km_umockdev_karma_counts c;

	g_assert_true(km_umockdev_karma_bound(fx->karma));
	open_first(fx);
	g_assert_false(km_umockdev_karma_bound(fx->karma));
	km_umockdev_karma_counts(fx->karma, &c);
	g_assert_cmpuint(c.detaches, ==, 1);
	g_assert_cmpuint(c.claims, ==, 1);
	fx->t->ops->close(fx->t);
	fx->t = NULL;
	km_umockdev_karma_counts(fx->karma, &c);
	g_assert_cmpuint(c.releases, ==, 1);
	g_assert_cmpuint(c.attaches, ==, 1);
	g_assert_true(km_umockdev_karma_bound(fx->karma));
}

static void fill_pattern(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 31 + seed + (i >> 8));
}

static void test_bulk_bytes(struct fixture *fx, gconstpointer data)
{
	enum { BIG = 64 * 1024 };
	g_autofree uint8_t *out = g_malloc(BIG), *in = g_malloc(BIG), *want = g_malloc(BIG);
	size_t done;

	open_first(fx);
	fill_pattern(out, BIG, 1);
	g_assert_cmpint(fx->t->ops->bulk_out(fx->t, out, 31, &done, TIMEOUT_MS), ==, 0);
	g_assert_cmpuint(done, ==, 31);
	g_assert_cmpint(fx->t->ops->bulk_out(fx->t, out, BIG, &done, TIMEOUT_MS), ==, 0);
	g_assert_cmpuint(done, ==, BIG);
	g_assert_cmpmem(fx->dev->received->data, 31, out, 31);
	g_assert_cmpmem(fx->dev->received->data + 31, fx->dev->received->len - 31, out, BIG);

	/* A short reply into a 512-byte buffer, then a large one. */
	fake_reply(fx->dev, "USBS\x01\x02\x03\x04\0\0\0\0\0", 13);
	g_assert_cmpint(fx->t->ops->bulk_in(fx->t, in, 512, &done, TIMEOUT_MS), ==, 0);
	g_assert_cmpmem(in, done, "USBS\x01\x02\x03\x04\0\0\0\0\0", 13);
	fill_pattern(want, BIG, 7);
	fake_reply(fx->dev, want, BIG);
	g_assert_cmpint(fx->t->ops->bulk_in(fx->t, in, BIG, &done, TIMEOUT_MS), ==, 0);
	g_assert_cmpmem(in, done, want, BIG);
}

static void test_overflow(struct fixture *fx, gconstpointer data)
{
	uint8_t in[512];
	size_t done;

	open_first(fx);
	fake_reply(fx->dev, (uint8_t[1024]){ 0 }, 1024);
	g_assert_cmpint(fx->t->ops->bulk_in(fx->t, in, sizeof(in), &done, TIMEOUT_MS), ==,
			-EOVERFLOW);
}

static void test_stall_clear_halt(struct fixture *fx, gconstpointer data)
{
	uint8_t in[512];
	size_t done = 99;

	open_first(fx);
	fx->dev->halted_in = true;
	fake_reply(fx->dev, "after", 5);
	g_assert_cmpint(fx->t->ops->bulk_in(fx->t, in, sizeof(in), &done, TIMEOUT_MS), ==, -EPIPE);
	g_assert_cmpuint(done, ==, 0);
	g_assert_cmpint(fx->t->ops->clear_halt(fx->t, KM_KARMA_EP_IN), ==, 0);
	g_assert_false(fx->dev->halted_in);
	g_assert_cmpuint(fx->dev->clear_halts_in, ==, 2);	/* one at open, one now */
	g_assert_cmpint(fx->t->ops->bulk_in(fx->t, in, sizeof(in), &done, TIMEOUT_MS), ==, 0);
	g_assert_cmpmem(in, done, "after", 5);
}

static void test_timeout(struct fixture *fx, gconstpointer data)
{
	uint8_t in[512];
	size_t done = 99;

	open_first(fx);
	g_assert_cmpint(fx->t->ops->bulk_in(fx->t, in, sizeof(in), &done, 100), ==, -ETIMEDOUT);
	g_assert_cmpuint(done, ==, 0);
	/* The cancelled transfer took nothing: the next reply reaches the next read. */
	fake_reply(fx->dev, "late", 4);
	g_assert_cmpint(fx->t->ops->bulk_in(fx->t, in, sizeof(in), &done, TIMEOUT_MS), ==, 0);
	g_assert_cmpmem(in, done, "late", 4);
}

static void test_bot_reset(struct fixture *fx, gconstpointer data)
{
	struct km_umockdev_karma_counts c;

	open_first(fx);
	g_assert_cmpint(fx->t->ops->bot_reset(fx->t), ==, 0);
	g_assert_cmpuint(fx->dev->resets, ==, 1);
	km_umockdev_karma_counts(fx->karma, &c);
	g_assert_cmpuint(c.bot_resets, ==, 1);
}

static void test_unplug(struct fixture *fx, gconstpointer data)
{
	uint8_t buf[64] = { 0 };
	size_t done;

	open_first(fx);
	/* The device vanishes in the middle of a transfer... */
	fx->dev->gone = true;
	g_assert_cmpint(fx->t->ops->bulk_in(fx->t, buf, sizeof(buf), &done, TIMEOUT_MS), ==,
			-ENODEV);
	/* ...and then its node answers nothing any more. */
	km_umockdev_karma_unplug(fx->karma);
	g_assert_cmpint(fx->t->ops->bulk_out(fx->t, buf, sizeof(buf), &done, TIMEOUT_MS), ==,
			-ENODEV);
	g_assert_cmpint(fx->t->ops->clear_halt(fx->t, KM_KARMA_EP_IN), ==, -ENODEV);
}

/* Root opens any file: drop the capability that lets it, in this thread. */
static bool set_dac_override(bool on)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct caps[2];
	uint32_t bits = 1u << CAP_DAC_OVERRIDE | 1u << CAP_DAC_READ_SEARCH;

	if (syscall(SYS_capget, &hdr, caps))
		return false;
	if (on)
		caps[0].effective |= bits & caps[0].permitted;
	else
		caps[0].effective &= ~bits;
	return syscall(SYS_capset, &hdr, caps) == 0;
}

static void test_no_permission(struct fixture *fx, gconstpointer data)
{
	g_autofree char *node = km_umockdev_karma_node_file(fx->karma);
	struct km_usb_karma_info info;
	int err;

	g_assert_cmpint(g_chmod(node, 0), ==, 0);
	g_assert_true(set_dac_override(false));
	err = km_usb_libusb_open(0, 0, &fx->t, fx->msg, sizeof(fx->msg));
	g_assert_cmpint(km_usb_libusb_list(&info, 1, fx->msg + 128, 128), ==, 1);
	g_assert_true(set_dac_override(true));
	g_assert_cmpint(err, ==, -EACCES);
	g_assert_null(fx->t);
	g_assert_cmpstr(fx->msg, ==, "no permission to open /dev/bus/usb/001/002 (the Rio Karma)");
	g_assert_false(info.accessible);
	g_assert_cmpstr(info.serial, ==, "");
}

static void test_busy(struct fixture *fx, gconstpointer data)
{
	km_umockdev_karma_set_busy(fx->karma, true);
	g_assert_cmpint(km_usb_libusb_open(0, 0, &fx->t, fx->msg, sizeof(fx->msg)), ==, -EBUSY);
	g_assert_null(fx->t);
	g_assert_nonnull(strstr(fx->msg, "busy"));
}

static void test_none(void)
{
	g_autoptr(UMockdevTestbed) tb = umockdev_testbed_new();
	struct km_usb_transport *t = NULL;
	struct km_usb_karma_info info;
	char msg[128];

	add_mouse(tb);
	g_assert_cmpint(km_usb_libusb_list(&info, 1, msg, sizeof(msg)), ==, 0);
	g_assert_cmpint(km_usb_libusb_open(0, 0, &t, msg, sizeof(msg)), ==, -ENODEV);
	g_assert_null(t);
	g_assert_cmpstr(msg, ==, "no Rio Karma connected");
	/* The mouse's own location is no Karma either. */
	g_assert_cmpint(km_usb_libusb_open(1, 3, &t, msg, sizeof(msg)), ==, -ENODEV);
	g_assert_cmpstr(msg, ==, "no Rio Karma at USB bus 1 device 3");
}

static void test_parse_location(void)
{
	uint8_t bus = 0, addr = 0;

	g_assert_true(km_usb_parse_location("3:17", &bus, &addr));
	g_assert_cmpuint(bus, ==, 3);
	g_assert_cmpuint(addr, ==, 17);
	g_assert_true(km_usb_parse_location("255:255", &bus, &addr));
	g_assert_cmpuint(bus, ==, 255);
	/* as lsusb prints them */
	g_assert_true(km_usb_parse_location("001:002", &bus, &addr));
	g_assert_cmpuint(bus, ==, 1);
	g_assert_cmpuint(addr, ==, 2);
	static const char *const bad[] = { "", "3", "3:", ":3", "0:1", "1:0", "256:1", "1:256",
					   "1:2:3", " 1:2", "1:2 ", "-1:2", "1: 2", "0001:2" };
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++)
		g_assert_false(km_usb_parse_location(bad[i], &bus, &addr));
}

/*
 * The USB portal's way: the node opened elsewhere, its fd wrapped by libusb;
 * the interface is claimed and bytes flow as on the usual open, and closing
 * the transport closes the fd.
 */
static void test_open_fd(struct fixture *fx, gconstpointer data)
{
	struct km_umockdev_karma_counts c;
	char buf[16];
	size_t done;
	int fd = open(km_umockdev_karma_node(fx->karma), O_RDWR | O_CLOEXEC);
	int err;

	g_assert_cmpint(fd, >=, 0);
	err = km_usb_libusb_open_fd(fd, &fx->t, fx->msg, sizeof(fx->msg));
	if (err)
		g_test_message("open_fd: %s", fx->msg);
	g_assert_cmpint(err, ==, 0);
	km_umockdev_karma_counts(fx->karma, &c);
	g_assert_cmpuint(c.claims, ==, 1);
	fake_reply(fx->dev, "portal", 6);
	g_assert_cmpint(fx->t->ops->bulk_in(fx->t, buf, sizeof(buf), &done, TIMEOUT_MS), ==, 0);
	g_assert_cmpmem(buf, done, "portal", 6);
	fx->t->ops->close(fx->t);
	fx->t = NULL;
	errno = 0;
	g_assert_cmpint(fcntl(fd, F_GETFD), ==, -1);
	g_assert_cmpint(errno, ==, EBADF);
}

/* An fd that is not a usbdevfs node: refused with a sentence, and closed. */
static void test_open_fd_not_usb(void)
{
	struct km_usb_transport *t = NULL;
	char msg[256] = "";
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(km_usb_libusb_open_fd(fd, &t, msg, sizeof(msg)), <, 0);
	g_assert_null(t);
	g_assert_nonnull(strstr(msg, "Rio Karma"));
	errno = 0;
	g_assert_cmpint(fcntl(fd, F_GETFD), ==, -1);
	g_assert_cmpint(errno, ==, EBADF);
}

#define ADD(name, opts, fn) \
	g_test_add(name, struct fixture, opts, fixture_setup, fn, fixture_teardown)

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	if (!g_strrstr(g_getenv("LD_PRELOAD") ?: "", "libumockdev-preload")) {
		g_print("1..0 # SKIP not under umockdev-wrapper\n");
		return 77;
	}
	g_test_add_func("/usb-libusb/parse-location", test_parse_location);
	g_test_add_func("/usb-libusb/no-karma", test_none);
	ADD("/usb-libusb/list", NULL, test_list);
	ADD("/usb-libusb/open-claims", NULL, test_open_claims);
	ADD("/usb-libusb/detach-reattach", &karma_bound, test_detach_reattach);
	ADD("/usb-libusb/bulk-bytes", NULL, test_bulk_bytes);
	ADD("/usb-libusb/overflow", NULL, test_overflow);
	ADD("/usb-libusb/stall-clear-halt", NULL, test_stall_clear_halt);
	ADD("/usb-libusb/timeout", NULL, test_timeout);
	ADD("/usb-libusb/bot-reset", NULL, test_bot_reset);
	ADD("/usb-libusb/unplug", NULL, test_unplug);
	ADD("/usb-libusb/no-permission", NULL, test_no_permission);
	ADD("/usb-libusb/busy", NULL, test_busy);
	ADD("/usb-libusb/open-fd", NULL, test_open_fd);
	g_test_add_func("/usb-libusb/open-fd-not-usb", test_open_fd_not_usb);
	return g_test_run();
}
