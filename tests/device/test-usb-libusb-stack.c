/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-usb-libusb-stack.c - the whole road to a player as the real one will
 * be reached: OMFS over the Karma protocol (km-karma-usb) over km-usb-libusb
 * over the real libusb over umockdev's usbdevfs (umockdev-karma.c) over the
 * simulated Karma over an image made by our mkfs. Run under umockdev-wrapper.
 */
#include <errno.h>
#include <glib.h>
#include <string.h>

#include "device-test-util.h"
#include "omfs.h"
#include "km-image-device.h"
#include "km-usb-libusb.h"
#include "umockdev-karma.h"

#define IMAGE_SIZE ((gsize)16 << 20)
#define FILE_SIZE ((gsize)1536 << 10)	/* more than one 1 MiB READ(10)/WRITE(10) */

static const struct km_umockdev_karma_options karma_bound = {
	.bus = 2, .address = 9, .port = 3, .bound = true,
};

struct fixture {
	UMockdevTestbed *tb;
	char *image;
	struct km_sim_karma_stats final;	/* the sim's, once it is freed */
	struct km_sim_karma *simk;
	struct km_usb_transport *sim;	/* its transport: "the device" */
	struct km_umockdev_karma *karma;
	guint8 *data;
};

static void make_volume(const char *path)
{
	struct omfs_mkfs_opts o = { .label = "karma", .time_ms = 1000 };
	char msg[OMFS_ERRMSG_MAX] = "";
	struct km_image_device *img = km_image_device_open(path, true, 0, 0, msg, sizeof(msg));

	g_assert_nonnull(img);
	if (omfs_mkfs(km_image_device_blockdev(img), &o, msg, sizeof(msg)))
		g_error("mkfs: %s", msg);
	g_assert_cmpint(km_image_device_close(img), ==, 0);
}

static void fixture_setup(struct fixture *fx, gconstpointer data)
{
	struct km_sim_karma_options opts = { .riop_polls = 2, .final_stats = &fx->final };
	char msg[256] = "";

	fx->image = dt_image(IMAGE_SIZE, 4);
	make_volume(fx->image);
	fx->simk = km_sim_karma_open(fx->image, &opts, msg, sizeof(msg));
	g_assert_nonnull(fx->simk);
	fx->sim = km_sim_karma_transport(fx->simk);
	fx->tb = umockdev_testbed_new();
	fx->karma = km_umockdev_karma_add(fx->tb, &karma_bound, fx->sim);
	fx->data = g_malloc(FILE_SIZE);
	for (gsize i = 0; i < FILE_SIZE; i++)
		fx->data[i] = (guint8)(i * 7 + (i >> 11));
}

static void fixture_teardown(struct fixture *fx, gconstpointer data)
{
	km_umockdev_karma_free(fx->karma);
	if (fx->sim)
		fx->sim->ops->close(fx->sim);
	g_object_unref(fx->tb);
	g_free(fx->image);
	g_free(fx->data);
}

/* The player at 2:9 through libusb and the protocol. */
static struct km_karma_usb *open_player(void)
{
	struct km_usb_transport *t = NULL;
	struct km_karma_usb *k;
	char msg[256] = "";

	if (km_usb_libusb_open(2, 9, &t, msg, sizeof(msg)))
		g_error("libusb open: %s", msg);
	k = km_karma_usb_open(t, msg, sizeof(msg));
	if (!k)
		g_error("Karma open: %s", msg);
	return k;
}

static struct omfs_fs *mount(const struct omfs_blockdev *bdev)
{
	struct omfs_mount_opts o = { 0 };
	struct omfs_fs *fs = NULL;
	char msg[OMFS_ERRMSG_MAX] = "";

	if (omfs_mount(bdev, &o, &fs, msg, sizeof(msg)))
		g_error("mount: %s", msg);
	return fs;
}

static void write_file(struct km_karma_usb *k, const guint8 *data)
{
	struct omfs_fs *fs = mount(km_karma_usb_blockdev(k));
	uint64_t ino;

	g_assert_cmpint(omfs_create(fs, omfs_root_ino(fs), "hello.bin", 9, &ino), ==, 0);
	g_assert_cmpint(omfs_write(fs, ino, 0, data, FILE_SIZE), ==, (int64_t)FILE_SIZE);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
}

/* The file's bytes, read through bdev. */
static void assert_file(const struct omfs_blockdev *bdev, const guint8 *data)
{
	struct omfs_fs *fs = mount(bdev);
	g_autofree guint8 *back = g_malloc(FILE_SIZE);
	uint64_t ino;

	g_assert_cmpint(omfs_resolve(fs, "/hello.bin", &ino), ==, 0);
	g_assert_cmpint(omfs_read(fs, ino, 0, back, FILE_SIZE), ==, (int64_t)FILE_SIZE);
	g_assert_cmpmem(back, FILE_SIZE, data, FILE_SIZE);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
}

static void test_write_read_back(struct fixture *fx, gconstpointer unused)
{
	struct km_umockdev_karma_counts c;
	struct km_karma_usb *k = open_player();
	char msg[256] = "";
	struct km_image_device *img;

	write_file(k, fx->data);
	g_assert_cmpint(km_karma_usb_close(k, msg, sizeof(msg)), ==, 0);
	/* A second session reads what the first one wrote. */
	k = open_player();
	assert_file(km_karma_usb_blockdev(k), fx->data);
	g_assert_cmpint(km_karma_usb_close(k, msg, sizeof(msg)), ==, 0);

	/* The player was taken from usb-storage twice and given back twice. */
	km_umockdev_karma_counts(fx->karma, &c);
	g_assert_cmpuint(c.detaches, ==, 2);
	g_assert_cmpuint(c.attaches, ==, 2);
	g_assert_cmpuint(c.claims, ==, 2);
	g_assert_cmpuint(c.releases, ==, 2);
	g_assert_true(km_umockdev_karma_bound(fx->karma));

	fx->sim->ops->close(fx->sim);
	fx->sim = NULL;
	/* Each session ended by leaving storage, then returning to normal. */
	g_assert_cmpint(fx->final.mode, ==, KM_SIM_NORMAL);
	g_assert_cmpuint(fx->final.n_last_riop, >=, 6);
	g_assert_cmpuint(fx->final.last_riop[fx->final.n_last_riop - 2], ==,
			 KM_RIOP_LEAVE_STORAGE);
	g_assert_cmpuint(fx->final.last_riop[fx->final.n_last_riop - 1], ==,
			 KM_RIOP_RETURN_TO_NORMAL);
	g_assert_cmpuint(fx->final.bytes_written, >=, FILE_SIZE);
	g_assert_cmpuint(fx->final.bytes_read, >=, FILE_SIZE);

	/* And the image itself holds the file. */
	img = km_image_device_open(fx->image, false, 0, 0, msg, sizeof(msg));
	g_assert_nonnull(img);
	assert_file(km_image_device_blockdev(img), fx->data);
	g_assert_cmpint(km_image_device_close(img), ==, 0);
}

/* Pulled out in the middle of writing: -ENODEV all the way up, and no hang. */
static void test_unplug_while_writing(struct fixture *fx, gconstpointer unused)
{
	struct km_umockdev_karma_counts c;
	struct km_karma_usb *k = open_player();
	struct omfs_fs *fs = mount(km_karma_usb_blockdev(k));
	char msg[256] = "";
	uint64_t ino;
	int64_t n;
	int err;

	/* The handler reaches the sim only while a libusb call is pending. */
	km_sim_karma_faults(fx->simk)->unplug_after_writes = 1;
	g_assert_cmpint(omfs_create(fs, omfs_root_ino(fs), "lost.bin", 8, &ino), ==, 0);
	n = omfs_write(fs, ino, 0, fx->data, FILE_SIZE);
	err = omfs_unmount(fs);
	g_assert_true(n == -ENODEV || err == -ENODEV);
	dt_assert_msg(km_karma_usb_errmsg(k), "unplugged");
	/* A player that is gone is only let go: nothing more is sent to it. */
	g_assert_cmpint(km_karma_usb_close(k, msg, sizeof(msg)), ==, 0);
	km_umockdev_karma_counts(fx->karma, &c);
	g_assert_cmpuint(c.detaches, ==, 1);
	g_assert_cmpuint(c.attaches, ==, 0);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	if (!g_strrstr(g_getenv("LD_PRELOAD") ?: "", "libumockdev-preload")) {
		g_print("1..0 # SKIP not under umockdev-wrapper\n");
		return 77;
	}
	g_test_add("/usb-libusb-stack/write-read-back", struct fixture, NULL, fixture_setup,
		   test_write_read_back, fixture_teardown);
	g_test_add("/usb-libusb-stack/unplug-while-writing", struct fixture, NULL, fixture_setup,
		   test_unplug_while_writing, fixture_teardown);
	return g_test_run();
}
