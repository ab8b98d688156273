/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-usb-mkseeds.c - writes the usb fuzz target's seeds: the conversation
 * of usb-exercise.c with the simulated Karma, recorded as a script
 * (usb-script.h), once as it goes normally and once per fault the sim can
 * make (stalls, not ready, bad status wrappers, timeouts...). The player's
 * disk is a small OMFS volume made by our mkfs, so that the read-only mount
 * at the end of the conversation gets somewhere. Every recording must
 * itself keep every promise of the exercise.
 *   fuzz-usb-mkseeds OUTDIR
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "km-mem-device.h"
#include "km-sim-karma.h"
#include "usb-exercise.h"
#include "usb-script.h"

#define DISK_SIZE ((uint64_t)1 << 20)
#define SCRIPT_MAX ((size_t)1 << 20)

/*
 * Passes everything on to the sim and writes down its answers as script
 * records. The faults are armed just before operation arm_at (0: from the
 * start), so that they can hit the middle of a conversation.
 */
struct recorder {
	struct km_usb_transport t;
	struct km_usb_transport *inner;
	struct km_sim_karma *sim;
	struct km_sim_karma_faults faults;
	unsigned ops, arm_at;
	uint8_t *script;
	size_t len;
	bool overflow;
};

static struct recorder *recorder_of(struct km_usb_transport *t)
{
	return (struct recorder *)t;
}

static void count_op(struct recorder *rec)
{
	if (++rec->ops == rec->arm_at)
		*km_sim_karma_faults(rec->sim) = rec->faults;
}

/* Room for a record of n data bytes, or NULL (and the recording is spoilt). */
static uint8_t *record_space(struct recorder *rec, size_t n)
{
	if (rec->overflow || SCRIPT_MAX - rec->len < USB_SCRIPT_RECORD_MAX(n)) {
		rec->overflow = true;
		return NULL;
	}
	return rec->script + rec->len;
}

static void record(struct recorder *rec, size_t n)
{
	if (n == 0)
		rec->overflow = true;	/* a length no record can hold */
	rec->len += n;
}

static int rec_bulk_out(struct km_usb_transport *t, const void *buf, size_t len, size_t *done,
			unsigned timeout_ms)
{
	struct recorder *rec = recorder_of(t);
	int err;
	uint8_t *p;

	count_op(rec);
	err = rec->inner->ops->bulk_out(rec->inner, buf, len, done, timeout_ms);
	p = record_space(rec, 0);

	if (p)
		record(rec, usb_script_record_out(p, err, len, *done));
	return err;
}

static int rec_bulk_in(struct km_usb_transport *t, void *buf, size_t len, size_t *done,
		       unsigned timeout_ms)
{
	struct recorder *rec = recorder_of(t);
	int err;
	uint8_t *p;

	count_op(rec);
	err = rec->inner->ops->bulk_in(rec->inner, buf, len, done, timeout_ms);
	p = record_space(rec, *done);

	if (p)
		record(rec, usb_script_record_in(p, err, buf, len, *done));
	return err;
}

static int rec_clear_halt(struct km_usb_transport *t, uint8_t endpoint)
{
	struct recorder *rec = recorder_of(t);
	int err;
	uint8_t *p;

	count_op(rec);
	err = rec->inner->ops->clear_halt(rec->inner, endpoint);
	p = record_space(rec, 0);

	if (p)
		record(rec, usb_script_record_ctrl(p, err));
	return err;
}

static int rec_bot_reset(struct km_usb_transport *t)
{
	struct recorder *rec = recorder_of(t);
	int err;
	uint8_t *p;

	count_op(rec);
	err = rec->inner->ops->bot_reset(rec->inner);
	p = record_space(rec, 0);

	if (p)
		record(rec, usb_script_record_ctrl(p, err));
	return err;
}

static void rec_sleep(struct km_usb_transport *t, unsigned ms)
{
	km_usb_sleep(recorder_of(t)->inner, ms);
}

/* The sim goes; the recording stays for the caller. */
static void rec_close(struct km_usb_transport *t)
{
	struct recorder *rec = recorder_of(t);

	rec->inner->ops->close(rec->inner);
	rec->inner = NULL;
}

static const struct km_usb_transport_ops rec_ops = {
	.bulk_out = rec_bulk_out,
	.bulk_in = rec_bulk_in,
	.clear_halt = rec_clear_halt,
	.bot_reset = rec_bot_reset,
	.sleep_ms = rec_sleep,
	.close = rec_close,
};

/* A fixed clock, so that the seeds come out the same at every run. */
static uint64_t fixed_clock_ms(void *ctx)
{
	(void)ctx;
	return 1;
}

/* The player's disk: an OMFS volume with a directory and a small file. */
static int make_disk(const char *path)
{
	struct km_mem_device *dev = km_mem_device_new(DISK_SIZE, NULL);
	struct omfs_mkfs_opts mkfs = { .blocksize = 1024, .sys_blocksize = 512, .time_ms = 1 };
	struct omfs_mount_opts mount = { .clock_ms = fixed_clock_ms };
	static const char text[] = "a file on the simulated player\n";
	struct omfs_fs *fs;
	uint64_t dir, ino;
	char msg[256] = "";
	FILE *f;
	int err;

	err = dev ? omfs_mkfs(&dev->bdev, &mkfs, msg, sizeof(msg)) : -ENOMEM;
	if (!err)
		err = omfs_mount(&dev->bdev, &mount, &fs, msg, sizeof(msg));
	if (!err) {
		err = omfs_mkdir(fs, omfs_root_ino(fs), "music", 5, &dir);
		if (!err)
			err = omfs_create(fs, omfs_root_ino(fs), "hello", 5, &ino);
		if (!err && omfs_write(fs, ino, 0, text, sizeof(text) - 1) < 0)
			err = -EIO;
		if (omfs_unmount(fs) && !err)
			err = -EIO;
	}
	f = err ? NULL : fopen(path, "wb");
	if (!err && (!f || fwrite(dev->data, 1, DISK_SIZE, f) != DISK_SIZE))
		err = -EIO;
	if (f && fclose(f))
		err = -EIO;
	if (err)
		fprintf(stderr, "fuzz-usb-mkseeds: making the disk %s: %s (%s)\n", path, msg,
			strerror(-err));
	km_mem_device_free(dev);
	return err;
}

static int write_file(const char *dir, const char *name, const uint8_t *data, size_t len)
{
	char path[4096];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	ok = f && fwrite(data, 1, len, f) == len;
	if (f && fclose(f))
		ok = 0;
	if (!ok)
		fprintf(stderr, "fuzz-usb-mkseeds: %s: %s\n", path, strerror(errno));
	return !ok;
}

struct seed {
	const char *name;
	struct km_sim_karma_options opts;
	unsigned arm_at;	/* the operation before which opts.faults are armed; 0: at open */
};

/* One recorded conversation with a fresh copy of the disk; 0 when it went as promised. */
static int record_seed(const char *dir, const struct seed *seed, const char *disk)
{
	struct recorder rec = { .t.ops = &rec_ops, .script = malloc(SCRIPT_MAX) };
	struct km_sim_karma_options opts = seed->opts;
	const char *name = seed->name;
	struct usb_exercise_result r;
	char msg[256];
	int status = 1;

	if (make_disk(disk) || !rec.script)
		goto out;
	if (seed->arm_at) {
		rec.faults = opts.faults;
		rec.arm_at = seed->arm_at;
		memset(&opts.faults, 0, sizeof(opts.faults));
	}
	rec.sim = km_sim_karma_open(disk, &opts, msg, sizeof(msg));
	if (!rec.sim) {
		fprintf(stderr, "fuzz-usb-mkseeds: %s: %s\n", name, msg);
		goto out;
	}
	rec.inner = km_sim_karma_transport(rec.sim);
	usb_exercise(&rec.t, &r);
	if (r.violations || rec.overflow || rec.inner)
		fprintf(stderr, "fuzz-usb-mkseeds: %s: %s\n", name, r.violations ? r.violation :
			"the conversation does not fit a script");
	else
		status = write_file(dir, name, rec.script, rec.len);
	printf("%-24s %5zu bytes, %3llu operations: open %d, reads %u/%u, writes %u/%u, "
	       "flush %d, mount %d (%u entries), close %d\n", name, rec.len,
	       (unsigned long long)r.ops, r.open_err, r.reads_ok, r.reads_ok + r.reads_failed,
	       r.writes_ok, r.writes_ok + r.writes_failed, r.flush_err, r.mount_err, r.dirents,
	       r.close_err);
out:
	free(rec.script);
	return status;
}

int main(int argc, char **argv)
{
	/* Opening takes about 30 operations: faults armed at 40 hit the reads and writes. */
	const struct seed seeds[] = {
		{ "seed-normal", { 0 } },
		{ "seed-riop-busy", { .riop_polls = 3 } },
		{ "seed-becoming-ready", { .becoming_ready = 3 } },
		{ "seed-read-only", { .read_only = true } },
		{ "seed-no-sync-cache", { .faults.no_sync_cache = true } },
		{ "seed-bad-ack", { .faults.bad_acks = 1 } },
		{ "seed-never-echo", { .faults.never_echo = true } },
		{ "seed-stall", { .faults.stall_transfers = 1 }, 40 },
		{ "seed-stall-data", { .faults.stall_data_phases = 2 }, 40 },
		{ "seed-timeout", { .faults.timeouts = 1 }, 40 },
		{ "seed-timeout-mount", { .faults.timeouts = 1 }, 75 },
		{ "seed-short-data", { .faults.short_transfers = 1 }, 40 },
		{ "seed-babble", { .faults.oversized_replies = 1 }, 40 },
		{ "seed-bad-csw-tag", { .faults.bad_tag_csws = 1 }, 40 },
		{ "seed-bad-csw-signature", { .faults.bad_signature_csws = 1 }, 40 },
		{ "seed-bad-csw-residue", { .faults.bad_residue_csws = 1 }, 40 },
		{ "seed-drop-out", { .faults.drop_after_commands = 2 }, 40 },
		{ "seed-unplug", { .faults.unplug_after_writes = 2 } },
	};
	char disk[] = "/tmp/fuzz-usb-disk-XXXXXX";
	int fd, status = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: fuzz-usb-mkseeds OUTDIR\n");
		return 2;
	}
	fd = mkstemp(disk);
	if (fd < 0) {
		perror("fuzz-usb-mkseeds: mkstemp");
		return 1;
	}
	close(fd);
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		status |= record_seed(argv[1], &seeds[i], disk);
	unlink(disk);
	return status;
}
