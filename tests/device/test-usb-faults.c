/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-usb-faults.c - each fault switch of the simulated Karma met by the
 * protocol stack: one fault is recovered from and the data is right; a fault
 * that never ends gives a clean error with a sentence, and once it ends the
 * player works again; an unplug is final.
 */
#include <errno.h>
#include <string.h>

#include "device-test-util.h"
#include "omfs.h"

struct fixture {
	char *path;
	GBytes *bytes;
	const guint8 *data;	/* the image as created */
	struct km_sim_karma *sim;
	struct km_sim_karma_faults *faults;
	struct km_karma_usb *k;
	const struct omfs_blockdev *dev;
};

static void setup(struct fixture *f, gconstpointer opts)
{
	f->path = dt_image(DT_IMAGE_SIZE, 11);
	f->bytes = dt_file_bytes(f->path);
	f->data = g_bytes_get_data(f->bytes, NULL);
	f->sim = dt_sim(f->path, opts);
	f->faults = km_sim_karma_faults(f->sim);
	f->k = dt_open(f->sim);
	f->dev = km_karma_usb_blockdev(f->k);
	/* several requests per test read */
	km_karma_usb_set_max_request(f->k, 64 << 10);
}

static void teardown(struct fixture *f, gconstpointer opts)
{
	(void)opts;
	if (f->k)
		dt_close(f->k);
	g_bytes_unref(f->bytes);
	g_free(f->path);
}

static struct km_sim_karma_stats stats(struct fixture *f)
{
	struct km_sim_karma_stats st;

	km_sim_karma_get_stats(f->sim, &st);
	return st;
}

/* A read of several requests that meets the armed fault, and a write read back elsewhere. */
#define WRITE_OFFSET ((3 << 20) + 123)

static void assert_recovers(struct fixture *f)
{
	guint8 data[5000], got[5000];
	gsize i;

	dt_assert_reads(f->k, f->data, 777, 300000);
	for (i = 0; i < sizeof(data); i++)
		data[i] = (guint8)(i ^ 0xA5);
	g_assert_cmpint(f->dev->write(f->dev->ctx, WRITE_OFFSET, data, sizeof(data)), ==, 0);
	g_assert_cmpint(f->dev->read(f->dev->ctx, WRITE_OFFSET, got, sizeof(got)), ==, 0);
	g_assert_cmpmem(got, sizeof(got), data, sizeof(data));
}

static void test_stalls(struct fixture *f, gconstpointer opts)
{
	unsigned n;

	(void)opts;
	for (n = 1; n <= 2; n++) {
		guint64 resets = stats(f).resets;

		f->faults->stall_transfers = n;
		assert_recovers(f);
		g_assert_cmpuint(f->faults->stall_transfers, ==, 0);
		g_assert_cmpuint(stats(f).resets, >, resets);
	}
}

static void test_data_phase_stalls(struct fixture *f, gconstpointer opts)
{
	(void)opts;
	f->faults->stall_data_phases = 2;
	assert_recovers(f);
	g_assert_cmpuint(f->faults->stall_data_phases, ==, 0);
}

static void test_short_transfers(struct fixture *f, gconstpointer opts)
{
	(void)opts;
	f->faults->short_transfers = 1;
	assert_recovers(f);
	g_assert_cmpuint(f->faults->short_transfers, ==, 0);
}

static void test_oversized_replies(struct fixture *f, gconstpointer opts)
{
	(void)opts;
	f->faults->oversized_replies = 2;
	assert_recovers(f);
	g_assert_cmpuint(f->faults->oversized_replies, ==, 0);
}

static void test_timeouts(struct fixture *f, gconstpointer opts)
{
	(void)opts;
	f->faults->timeouts = 1;
	assert_recovers(f);
	g_assert_cmpuint(f->faults->timeouts, ==, 0);
}

static void test_bad_csws(struct fixture *f, gconstpointer opts)
{
	(void)opts;
	f->faults->bad_tag_csws = 1;
	assert_recovers(f);
	f->faults->bad_signature_csws = 1;
	assert_recovers(f);
	f->faults->bad_residue_csws = 1;
	assert_recovers(f);
	g_assert_cmpuint(f->faults->bad_tag_csws + f->faults->bad_signature_csws +
			 f->faults->bad_residue_csws, ==, 0);
}

/* The player drops out of storage mode: to LEFT (NOT READY), or all the way to NORMAL. */
static void test_drop_out(struct fixture *f, gconstpointer opts)
{
	int to_normal;

	(void)opts;
	for (to_normal = 0; to_normal < 2; to_normal++) {
		guint64 entered = stats(f).riop_commands;

		f->faults->drop_after_commands = 2;
		f->faults->drop_to_normal = to_normal;
		assert_recovers(f);
		g_assert_cmpint(stats(f).mode, ==, KM_SIM_STORAGE);
		g_assert_cmpuint(stats(f).riop_commands, ==, entered + 1);
		g_assert_cmpuint(stats(f).last_riop[stats(f).n_last_riop - 1], ==,
				 KM_RIOP_ENTER_STORAGE);
	}
}

static void test_lasting_faults(struct fixture *f, gconstpointer opts)
{
	unsigned *const switches[] = {
		&f->faults->stall_transfers, &f->faults->stall_data_phases, &f->faults->timeouts, &f->faults->bad_tag_csws,
		&f->faults->bad_signature_csws, &f->faults->bad_residue_csws,
		&f->faults->short_transfers, &f->faults->oversized_replies,
	};
	guint8 buf[4096];
	gsize i;

	(void)opts;
	for (i = 0; i < G_N_ELEMENTS(switches); i++) {
		*switches[i] = 1000;
		g_assert_cmpint(f->dev->read(f->dev->ctx, 0, buf, sizeof(buf)), <, 0);
		g_assert_cmpstr(km_karma_usb_errmsg(f->k), !=, "");
		g_test_message("fault %zu: %s", i, km_karma_usb_errmsg(f->k));
		*switches[i] = 0;
		dt_assert_reads(f->k, f->data, 0, sizeof(buf));
	}
}

/* An unplug is final: -ENODEV, and what was written before it is on the disk. */
static void test_unplug(struct fixture *f, gconstpointer opts)
{
	g_autofree guint8 *data = g_malloc(10 * 4096);
	g_autoptr(GBytes) after = NULL;
	guint8 buf[512];
	gsize i;

	(void)opts;
	for (i = 0; i < 10 * 4096; i++)
		data[i] = (guint8)(i * 13);
	km_karma_usb_set_max_request(f->k, 4096);
	f->faults->unplug_after_writes = 3;
	g_assert_cmpint(f->dev->write(f->dev->ctx, 0, data, 10 * 4096), ==, -ENODEV);
	g_assert_cmpint(f->dev->read(f->dev->ctx, 0, buf, sizeof(buf)), ==, -ENODEV);
	g_assert_cmpint(f->dev->flush(f->dev->ctx), ==, -ENODEV);
	dt_assert_msg(km_karma_usb_errmsg(f->k), "unplugged");
	dt_close(f->k);
	f->k = NULL;
	after = dt_file_bytes(f->path);
	g_assert_cmpmem(g_bytes_get_data(after, NULL), 3 * 4096, data, 3 * 4096);
	g_assert_cmpmem((const guint8 *)g_bytes_get_data(after, NULL) + 3 * 4096, 7 * 4096,
			f->data + 3 * 4096, 7 * 4096);
}

/* An ILLEGAL REQUEST answer to SYNCHRONIZE CACHE is remembered, and not an error. */
static void test_no_sync_cache(struct fixture *f, gconstpointer opts)
{
	guint64 commands;

	(void)opts;
	f->faults->no_sync_cache = true;
	g_assert_cmpint(f->dev->flush(f->dev->ctx), ==, 0);
	commands = stats(f).scsi_commands;
	g_assert_cmpint(f->dev->flush(f->dev->ctx), ==, 0);
	g_assert_cmpuint(stats(f).scsi_commands, ==, commands);
}

/* DATA PROTECT is the player refusing the request as such: no retry, a sentence. */
static void test_read_only(struct fixture *f, gconstpointer opts)
{
	guint8 buf[1024] = { 0 };
	guint64 commands = stats(f).scsi_commands;

	(void)opts;
	g_assert_cmpint(f->dev->write(f->dev->ctx, 512, buf, sizeof(buf)), ==, -EIO);
	dt_assert_msg(km_karma_usb_errmsg(f->k), "DATA PROTECT, write protected (07/27/00)");
	/* WRITE(10) and its REQUEST SENSE */
	g_assert_cmpuint(stats(f).scsi_commands, ==, commands + 2);
	dt_assert_reads(f->k, f->data, 0, 4096);
}

static const struct km_sim_karma_options read_only = { .read_only = true };

#define ADD(path, fn, opts) \
	g_test_add(path, struct fixture, opts, setup, fn, teardown)

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	ADD("/usb-faults/stalls", test_stalls, NULL);
	ADD("/usb-faults/data-phase-stalls", test_data_phase_stalls, NULL);
	ADD("/usb-faults/short-transfers", test_short_transfers, NULL);
	ADD("/usb-faults/oversized-replies", test_oversized_replies, NULL);
	ADD("/usb-faults/timeouts", test_timeouts, NULL);
	ADD("/usb-faults/bad-csws", test_bad_csws, NULL);
	ADD("/usb-faults/drop-out-of-storage", test_drop_out, NULL);
	ADD("/usb-faults/lasting-faults", test_lasting_faults, NULL);
	ADD("/usb-faults/unplug", test_unplug, NULL);
	ADD("/usb-faults/no-sync-cache", test_no_sync_cache, NULL);
	ADD("/usb-faults/read-only", test_read_only, &read_only);
	return g_test_run();
}
