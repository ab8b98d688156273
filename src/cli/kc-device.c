/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-device.c - the storage under a command's volume: the image file of -i
 * itself, or, with --simulate, the same image behind the simulated Karma,
 * reached through the whole USB protocol stack (RIOP, Bulk-Only Transport,
 * SCSI) as a real player would be; with --usb, the real player through
 * libusb (the Karma module's, kc-module.h) and that same stack; with
 * --device, a node of the player's disk that the kernel's usb-storage
 * exposes, opened like an image.
 */
#include "kc.h"
#include "kc-module.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "km-image-device.h"
#include "km-karma-label.h"
#include "km-karma-usb.h"
#include "km-sim-faults.h"
#include "km-sim-karma.h"
#include "km-udev-rule.h"

struct kc_device {
	const struct kc_karma_module *karma;	/* --usb: udev and libusb */
	struct km_image_device *img;		/* without --simulate */
	struct km_karma_usb *usb;		/* with it */
	struct km_partition_device *win;	/* --offset on the simulated player */
	struct km_partition_device *part;	/* the partition the volume is */
	unsigned part_number;
	struct km_sim_karma_stats sim_stats;	/* the sim's, when it is freed */
	const struct omfs_blockdev *bdev;
};

/* What to do when the player's nodes may not be opened. */
#define UDEV_RULE_HINT                                                                    \
	"Save this udev rule as " KM_UDEV_RULE_FILE " and install it with\n  "           \
	KM_UDEV_RULE_INSTALL_COMMAND "\nthen plug the player in again:\n" KM_UDEV_RULE

bool kc_stats_wanted(void)
{
	const char *env = g_getenv("KARMACTL_STATS");

	return env && strcmp(env, "1") == 0;
}

/* KARMACTL_USB_MAX_REQUEST: the largest READ(10)/WRITE(10), for the benchmarks. */
static void apply_max_request(struct kc_device *d)
{
	const char *env = g_getenv("KARMACTL_USB_MAX_REQUEST");
	uint64_t bytes;

	if (env && kc_parse_size(env, &bytes) && bytes <= SIZE_MAX)
		km_karma_usb_set_max_request(d->usb, (size_t)bytes);
}

/*
 * The openers: 0, or -errno with a sentence in msg (-EBUSY: another
 * program holds the image, disk or player).
 */

/* The protocol over transport t (which it takes), then --offset's window. */
static int open_karma(struct kc_ctx *ctx, struct km_usb_transport *t, struct kc_device *d,
		      char *msg, size_t msglen)
{
	d->usb = km_karma_usb_open(t, msg, msglen);
	if (!d->usb)
		return errno ? -errno : -EIO;
	apply_max_request(d);
	/* the kernel's driver accepts it, so do we; a player that does this is worth knowing */
	if (km_karma_usb_protocol_note(d->usb)[0])
		fprintf(stderr, "karmactl: %s: note: %s\n", ctx->cmd,
			km_karma_usb_protocol_note(d->usb));
	d->bdev = km_karma_usb_blockdev(d->usb);
	if (!ctx->offset)
		return 0;
	d->win = km_partition_device_open(d->bdev, ctx->offset, 0, msg, msglen);
	if (!d->win)
		return -errno;
	d->bdev = km_partition_device_blockdev(d->win);
	return 0;
}

static int open_simulated(struct kc_ctx *ctx, bool writable, struct kc_device *d, char *msg,
			  size_t msglen)
{
	struct km_sim_karma_options opts = {
		.read_only = !writable,
		.real_time = g_strcmp0(g_getenv("KARMACTL_SIM_REAL_TIME"), "1") == 0,
		.final_stats = &d->sim_stats,
	};
	struct km_sim_karma_faults faults = { 0 };
	struct km_sim_karma *sim;
	int err = km_sim_faults_from_env(&faults, msg, msglen);

	if (err)
		return err;
	sim = km_sim_karma_open(ctx->image, &opts, msg, msglen);
	if (!sim)
		return -errno;
	err = open_karma(ctx, km_sim_karma_transport(sim), d, msg, msglen);
	/* KM_SIM_FAULTS: armed once the player is open, for the command's own I/O */
	if (!err)
		*km_sim_karma_faults(sim) = faults;
	return err;
}

/* The real player through libusb. */
static int open_usb(struct kc_ctx *ctx, struct kc_device *d, char *msg, size_t msglen)
{
	struct km_usb_transport *t;
	int err = d->karma->usb_open(ctx->usb_bus, ctx->usb_address, &t, msg, msglen);

	return err ? err : open_karma(ctx, t, d, msg, msglen);
}

/* -i IMAGE or --device NODE. */
static int open_image(struct kc_ctx *ctx, bool writable, struct kc_device *d, char *msg,
		      size_t msglen)
{
	d->img = km_image_device_open(ctx->image, writable, ctx->offset, 0, msg, msglen);
	if (!d->img)
		return -errno;
	d->bdev = km_image_device_blockdev(d->img);
	return 0;
}

static int open_storage(struct kc_ctx *ctx, bool writable, struct kc_device *d, char *msg,
			size_t msglen)
{
	errno = 0;
	if (ctx->usb)
		return open_usb(ctx, d, msg, msglen);
	if (ctx->simulate)
		return open_simulated(ctx, writable, d, msg, msglen);
	return open_image(ctx, writable, d, msg, msglen);
}

/* The player's nodes need the udev rule when they may not be opened. */
static bool needs_udev_rule(const struct kc_ctx *ctx, int err)
{
	struct stat st;

	if (err != -EACCES)
		return false;
	return ctx->usb || (stat(ctx->image, &st) == 0 && S_ISBLK(st.st_mode));
}

static int report_open_failure(struct kc_ctx *ctx, int err, const char *msg)
{
	const char *why = msg[0] ? msg : g_strerror(-err);
	const char *sim = ctx->simulate ? "simulated Karma: " : "";

	if (needs_udev_rule(ctx, err))
		return kc_failf(ctx, "%s.\n%s", why, UDEV_RULE_HINT);
	if (err == -EBUSY) {
		kc_failf(ctx, "%s%s (--wait waits until it is free)", sim, why);
		return KC_EXIT_BUSY;
	}
	/* the image device's sentences name the file; the protocol's do not */
	if (ctx->usb || ctx->simulate)
		return kc_failf(ctx, "%s: %s%s", ctx->image, sim, why);
	return kc_failf(ctx, "%s", why);
}

/* Whatever of d is open, closed; its error (-errno), with a sentence in msg. */
static int close_parts(struct kc_device *d, char *msg, size_t msglen)
{
	int err = 0;

	km_partition_device_close(d->part);
	km_partition_device_close(d->win);
	if (d->usb)
		err = km_karma_usb_close(d->usb, msg, msglen);
	else if (d->img)
		err = km_image_device_close(d->img);
	d->part = d->win = NULL;
	d->usb = NULL;
	d->img = NULL;
	return err;
}

/* Opens, and with --wait tries again every WAIT_STEP_MS while the storage is held. */
#define WAIT_STEP_MS 200

int kc_device_open(struct kc_ctx *ctx, bool writable, struct kc_device **out)
{
	struct kc_device *d = g_new0(struct kc_device, 1);
	char msg[OMFS_ERRMSG_MAX] = "", ignored[OMFS_ERRMSG_MAX];
	bool told = false;
	int status, err;

	if (ctx->usb) {
		d->karma = kc_karma_module_load(ctx);
		status = d->karma ? d->karma->check_usb_not_mounted(ctx) : KC_EXIT_FAIL;
	} else {
		status = kc_check_not_mounted(ctx, ctx->image, writable);
	}
	while (!status) {
		msg[0] = '\0';
		err = open_storage(ctx, writable, d, msg, sizeof(msg));
		if (!err)
			break;
		close_parts(d, ignored, sizeof(ignored));
		if (err != -EBUSY || !ctx->wait) {
			status = report_open_failure(ctx, err, msg);
			break;
		}
		if (!told)
			fprintf(stderr, "karmactl: %s: waiting: %s\n", ctx->cmd, msg);
		told = true;
		g_usleep(WAIT_STEP_MS * 1000);
	}
	if (status) {
		g_free(d);
		d = NULL;
	}
	*out = d;
	return status;
}

const struct omfs_blockdev *kc_device_blockdev(const struct kc_device *d)
{
	return d->bdev;
}

int kc_device_label(struct kc_ctx *ctx, struct kc_device *d, struct km_karma_label *label)
{
	char msg[OMFS_ERRMSG_MAX] = "";
	int err = km_karma_label_read(d->bdev, label, msg, sizeof(msg));

	if (err == -ENOENT) {
		label->n_partitions = 0;
		return KC_EXIT_OK;
	}
	if (err < 0)
		return kc_failf(ctx, "%s: %s", ctx->image, msg);
	return KC_EXIT_OK;
}

int kc_device_partition(struct kc_ctx *ctx, struct kc_device *d,
			const struct km_karma_label *label, unsigned number,
			const struct omfs_blockdev **volume)
{
	char msg[OMFS_ERRMSG_MAX] = "";

	km_partition_device_close(d->part);
	d->part = NULL;
	d->part_number = 0;
	for (unsigned i = 0; i < label->n_partitions && !d->part; i++)
		if (label->partitions[i].number == number)
			d->part = km_karma_partition_open(d->bdev, &label->partitions[i], msg,
							 sizeof(msg));
	if (!d->part)
		return kc_failf(ctx, "%s: %s", ctx->image,
				msg[0] ? msg : "the partition label has no such partition");
	d->part_number = number;
	*volume = km_partition_device_blockdev(d->part);
	return KC_EXIT_OK;
}

int kc_device_volume(struct kc_ctx *ctx, struct kc_device *d,
		     const struct omfs_blockdev **volume)
{
	struct km_karma_label label;
	int status = kc_device_label(ctx, d, &label);

	if (status)
		return status;
	if (label.n_partitions == 0 && ctx->partition)
		return kc_failf(ctx, "%s: --partition %u: no Karma partition label here (a bare "
				"volume)", ctx->image, ctx->partition);
	if (label.n_partitions == 0) {
		*volume = d->bdev;
		return KC_EXIT_OK;
	}
	return kc_device_partition(ctx, d, &label,
				   ctx->partition ? ctx->partition :
						    km_karma_label_music(&label)->number,
				   volume);
}

const char *kc_device_volume_name(const struct kc_device *d)
{
	static char name[sizeof(" partition 4294967295")];

	if (!d || !d->part)
		return "";
	snprintf(name, sizeof(name), " partition %u", d->part_number);
	return name;
}

/*
 * One line of key=value pairs about the simulated USB traffic, for the
 * benchmarks; mode is the one the player was left in (normal after a clean close).
 */
static void print_sim_stats(const struct km_sim_karma_stats *st)
{
	static const char *const modes[] = {
		[KM_SIM_NORMAL] = "normal", [KM_SIM_STORAGE] = "storage", [KM_SIM_LEFT] = "left",
	};

	fprintf(stderr,
		"karmactl: usb stats: scsi_commands=%" PRIu64 " riop_commands=%" PRIu64
		" bytes_read=%" PRIu64 " bytes_written=%" PRIu64 " resets=%" PRIu64
		" time_us=%" PRIu64 " mode=%s\n", st->scsi_commands, st->riop_commands,
		st->bytes_read, st->bytes_written, st->resets, st->time_us,
		(unsigned)st->mode < G_N_ELEMENTS(modes) ? modes[st->mode] : "?");
}

int kc_device_close(struct kc_ctx *ctx, struct kc_device *d, int status)
{
	char msg[OMFS_ERRMSG_MAX] = "";
	bool was_usb;
	int err;

	if (!d)
		return status;
	was_usb = d->usb != NULL;
	err = close_parts(d, msg, sizeof(msg));
	if (was_usb && kc_stats_wanted() && ctx->simulate)
		print_sim_stats(&d->sim_stats);
	if (err < 0 && status == KC_EXIT_OK)
		status = kc_failf(ctx, "%s: close: %s", ctx->image, msg[0] ? msg : g_strerror(-err));
	g_free(d);
	return status;
}
