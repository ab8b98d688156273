/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-usb-protocol.c - RIOP, Bulk-Only Transport and SCSI against the
 * simulated Karma when all goes well: what open finds, byte ranges in and
 * out (compared with the image file), an OMFS volume mounted over USB,
 * sequence numbers, and the goodbye on close.
 */
#include <errno.h>
#include <string.h>

#include "device-test-util.h"
#include "omfs.h"
#include "km-image-device.h"

static void test_open_info(void)
{
	g_autofree char *path = dt_image(DT_IMAGE_SIZE, 1);
	struct km_sim_karma_options opts = { .device_info = "Karma 1.68 test unit" };
	struct km_sim_karma *sim = dt_sim(path, &opts);
	struct km_karma_usb *k = dt_open(sim);
	const struct omfs_blockdev *dev = km_karma_usb_blockdev(k);
	struct km_karma_usb_info info;
	struct km_sim_karma_stats st;

	km_karma_usb_get_info(k, &info);
	g_assert_cmpstr(info.inquiry.vendor, ==, "Rio");
	g_assert_cmpstr(info.inquiry.product, ==, "Rio Karma");
	g_assert_cmpstr(info.inquiry.revision, ==, "0101");
	g_assert_cmpstr(info.device_info, ==, "Karma 1.68 test unit");
	g_assert_cmpuint(info.sectors, ==, DT_IMAGE_SIZE / 512);
	g_assert_cmpuint(dev->size(dev->ctx), ==, DT_IMAGE_SIZE);
	km_sim_karma_get_stats(sim, &st);
	g_assert_cmpint(st.mode, ==, KM_SIM_STORAGE);
	/* enter storage, device info */
	g_assert_cmpuint(st.riop_commands, ==, 2);
	g_assert_cmpuint(st.last_riop[0], ==, KM_RIOP_ENTER_STORAGE);
	g_assert_cmpuint(st.last_riop[1], ==, KM_RIOP_DEVICE_INFO);
	dt_close(k);
}

/* Random unaligned ranges written and read back, then the image file compared. */
static void roundtrip(size_t max_request)
{
	g_autofree char *path = dt_image(DT_IMAGE_SIZE, 2);
	GBytes *orig = dt_file_bytes(path);
	g_autofree guint8 *shadow = g_memdup2(g_bytes_get_data(orig, NULL), DT_IMAGE_SIZE);
	struct km_karma_usb *k = dt_open(dt_sim(path, NULL));
	const struct omfs_blockdev *dev = km_karma_usb_blockdev(k);
	GRand *rand = g_rand_new_with_seed(42);
	g_autoptr(GBytes) after = NULL;
	int i;

	km_karma_usb_set_max_request(k, max_request);
	for (i = 0; i < 200; i++) {
		guint64 off = g_rand_int_range(rand, 0, DT_IMAGE_SIZE);
		gsize len = g_rand_int_range(rand, 0, i % 10 == 0 ? 300000 : 3000);
		g_autofree guint8 *data = g_malloc(len + 1);
		gsize j;

		if (len > DT_IMAGE_SIZE - off)
			len = DT_IMAGE_SIZE - off;
		for (j = 0; j < len; j++)
			data[j] = (guint8)g_rand_int(rand);
		g_assert_cmpint(dev->write(dev->ctx, off, data, len), ==, 0);
		memcpy(shadow + off, data, len);
		off = g_rand_int_range(rand, 0, DT_IMAGE_SIZE);
		len = g_rand_int_range(rand, 0, 200000);
		dt_assert_reads(k, shadow, off, MIN(len, DT_IMAGE_SIZE - off));
	}
	dt_assert_reads(k, shadow, 0, DT_IMAGE_SIZE);
	g_assert_cmpint(dev->flush(dev->ctx), ==, 0);
	dt_close(k);
	after = dt_file_bytes(path);
	g_assert_cmpmem(g_bytes_get_data(after, NULL), g_bytes_get_size(after), shadow,
			DT_IMAGE_SIZE);
	g_rand_free(rand);
	g_bytes_unref(orig);
}

static void test_roundtrip(void)
{
	roundtrip(KM_KARMA_USB_MAX_REQUEST_DEFAULT);
}

static void test_roundtrip_small_requests(void)
{
	/* 8 KiB requests: every larger range is split */
	roundtrip(8192);
}

static void test_past_the_end(void)
{
	g_autofree char *path = dt_image(DT_IMAGE_SIZE, 3);
	struct km_karma_usb *k = dt_open(dt_sim(path, NULL));
	const struct omfs_blockdev *dev = km_karma_usb_blockdev(k);
	guint8 buf[1024];

	g_assert_cmpint(dev->read(dev->ctx, DT_IMAGE_SIZE - 512, buf, 1024), ==, -EIO);
	dt_assert_msg(km_karma_usb_errmsg(k), "past the end");
	g_assert_cmpint(dev->write(dev->ctx, DT_IMAGE_SIZE + 1, buf, 1), ==, -EIO);
	dt_close(k);
}

static void write_file(struct omfs_fs *fs, const char *name, const guint8 *data, gsize len)
{
	guint64 ino;

	g_assert_cmpint(omfs_create(fs, omfs_root_ino(fs), name, strlen(name), &ino), ==, 0);
	g_assert_cmpint(omfs_write(fs, ino, 0, data, len), ==, (gint64)len);
}

static void assert_file(struct omfs_fs *fs, const char *name, const guint8 *data, gsize len)
{
	g_autofree guint8 *got = g_malloc(len);
	guint64 ino;

	g_assert_cmpint(omfs_resolve(fs, name, &ino), ==, 0);
	g_assert_cmpint(omfs_read(fs, ino, 0, got, len), ==, (gint64)len);
	g_assert_cmpmem(got, len, data, len);
}

/* mkfs on the image, files written over USB, read back through the image backend. */
static void test_mount_omfs(void)
{
	g_autofree char *path = dt_image(16 << 20, 4);
	g_autofree guint8 *data = g_malloc(3 << 20);
	char msg[OMFS_ERRMSG_MAX] = "";
	struct km_image_device *img;
	struct km_karma_usb *k;
	struct omfs_fs *fs;
	gsize i;

	for (i = 0; i < (3u << 20); i++)
		data[i] = (guint8)(i * 7 + i / 4096);
	img = km_image_device_open(path, true, 0, 0, msg, sizeof(msg));
	g_assert_nonnull(img);
	g_assert_cmpint(omfs_mkfs(km_image_device_blockdev(img), NULL, msg, sizeof(msg)), ==, 0);
	km_image_device_close(img);

	k = dt_open(dt_sim(path, NULL));
	g_assert_cmpint(omfs_mount(km_karma_usb_blockdev(k), NULL, &fs, msg, sizeof(msg)), ==, 0);
	write_file(fs, "big", data, 3 << 20);
	write_file(fs, "small", data + 5, 1000);
	assert_file(fs, "big", data, 3 << 20);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	dt_close(k);

	img = km_image_device_open(path, false, 0, 0, msg, sizeof(msg));
	g_assert_nonnull(img);
	g_assert_cmpint(omfs_mount(km_image_device_blockdev(img), &(struct omfs_mount_opts){
				   .read_only = true }, &fs, msg, sizeof(msg)), ==, 0);
	assert_file(fs, "big", data, 3 << 20);
	assert_file(fs, "small", data + 5, 1000);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	km_image_device_close(img);
}

/* Starts at 1, one more per completed command, 0 skipped on the wrap. */
static void test_sequence_numbers(void)
{
	g_autofree char *path = dt_image(DT_IMAGE_SIZE, 5);
	struct km_sim_karma_options opts = { .riop_polls = 2 };
	struct km_sim_karma *sim = dt_sim(path, &opts);
	struct km_usb_transport *t = km_sim_karma_transport(sim);
	struct km_sim_karma_stats st;
	struct km_riop r;
	char info[64], msg[256];
	int i;

	km_riop_init(&r);
	g_assert_cmpuint(r.seq, ==, 1);
	for (i = 0; i < 300; i++) {
		guint8 before = r.seq;

		g_assert_cmpint(km_riop_device_info(&r, t, info, sizeof(info), msg, sizeof(msg)),
				==, 0);
		g_assert_cmpuint(r.seq, ==, before == 255 ? 1 : before + 1);
	}
	/* 300 commands from 1, 255 numbers in the cycle */
	g_assert_cmpuint(r.seq, ==, 1 + 300 % 255);
	g_assert_cmpstr(info, ==, "Rio Karma (simulated) firmware 1.68 serial 0000000000000000");
	km_sim_karma_get_stats(sim, &st);
	g_assert_cmpuint(st.riop_commands, ==, 300);
	/* two busy polls and the one that echoes, each after a 50 ms wait, as the kernel does */
	g_assert_cmpuint(st.riop_polls, ==, 900);
	g_assert_cmpuint(st.time_us, >=, 300 * 3 * 50000ull);
	g_assert_cmpuint(r.odd_acks, ==, 0);
	g_assert_cmpstr(r.note, ==, "");

	/* an acknowledgement not starting with 0xF0: accepted as the kernel does, and noted */
	km_sim_karma_faults(sim)->bad_acks = 1;
	i = r.seq;
	g_assert_cmpint(km_riop_command(&r, t, KM_RIOP_DEVICE_INFO, NULL, msg, sizeof(msg)), ==, 0);
	g_assert_cmpuint(r.seq, ==, i + 1);
	g_assert_cmpuint(r.odd_acks, ==, 1);
	g_assert_nonnull(strstr(r.note, "starts with 0x0f, not 0xf0 (accepted"));

	/* a command that fails does not use up its number */
	km_sim_karma_faults(sim)->never_echo = true;
	i = r.seq;
	g_assert_cmpint(km_riop_command(&r, t, KM_RIOP_DEVICE_INFO, NULL, msg, sizeof(msg)),
			==, -ETIMEDOUT);
	g_assert_cmpuint(r.seq, ==, i);
	t->ops->close(t);
}

/* Close flushes, leaves storage mode and returns the player to normal. */
static void test_close_says_goodbye(void)
{
	g_autofree char *path = dt_image(DT_IMAGE_SIZE, 6);
	struct km_sim_karma_stats st = { 0 };
	struct km_sim_karma_options opts = { .final_stats = &st };
	struct km_karma_usb *k = dt_open(dt_sim(path, &opts));

	dt_close(k);
	g_assert_cmpint(st.mode, ==, KM_SIM_NORMAL);
	g_assert_cmpuint(st.n_last_riop, ==, 4);
	g_assert_cmpuint(st.last_riop[2], ==, KM_RIOP_LEAVE_STORAGE);
	g_assert_cmpuint(st.last_riop[3], ==, KM_RIOP_RETURN_TO_NORMAL);
}

static void test_slow_riop_and_becoming_ready(void)
{
	g_autofree char *path = dt_image(DT_IMAGE_SIZE, 7);
	struct km_sim_karma_options opts = { .riop_polls = 40, .becoming_ready = 10 };
	struct km_sim_karma *sim = dt_sim(path, &opts);
	struct km_karma_usb *k = dt_open(sim);
	GBytes *bytes = dt_file_bytes(path);
	struct km_sim_karma_stats st;

	km_sim_karma_get_stats(sim, &st);
	/* 40 polls 50 ms apart for each of 2 commands, 10 waits of 100 ms */
	g_assert_cmpuint(st.time_us, >=, 2 * 40 * 50000ull + 10 * 100000ull);
	dt_assert_reads(k, g_bytes_get_data(bytes, NULL), 1000, 5000);
	dt_close(k);
	g_bytes_unref(bytes);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/usb/open-info", test_open_info);
	g_test_add_func("/usb/roundtrip", test_roundtrip);
	g_test_add_func("/usb/roundtrip/small-requests", test_roundtrip_small_requests);
	g_test_add_func("/usb/past-the-end", test_past_the_end);
	g_test_add_func("/usb/mount-omfs", test_mount_omfs);
	g_test_add_func("/usb/sequence-numbers", test_sequence_numbers);
	g_test_add_func("/usb/close-says-goodbye", test_close_says_goodbye);
	g_test_add_func("/usb/slow-riop-becoming-ready", test_slow_riop_and_becoming_ready);
	return g_test_run();
}
