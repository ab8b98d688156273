/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-device.c - the storage under a command's volume: the image file of -i
 * itself, or, with --simulate, the same image behind the simulated Karma,
 * reached through the whole USB protocol stack (RIOP, Bulk-Only Transport,
 * SCSI) as a real player would be; with --usb, the real player through
 * libusb and that same stack; with --device, a node of the player's disk
 * that the kernel's usb-storage exposes, opened like an image.
 */
#include "kc.h"

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
#include "km-usb-libusb.h"

struct kc_device {
	struct km_image_device *img;		/* without --simulate */
	struct km_karma_usb *usb;		/* with it */
	struct km_window_device *win;		/* --offset on the simulated player */
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

/* The protocol over transport t (which it takes), then --offset's window. */
static int open_karma(struct kc_ctx *ctx, struct km_usb_transport *t, struct kc_device *d)
{
	char msg[OMFS_ERRMSG_MAX] = "";

	d->usb = km_karma_usb_open(t, msg, sizeof(msg));
	if (!d->usb)
		return kc_failf(ctx, "%s: %s%s", ctx->image,
				ctx->simulate ? "simulated Karma: " : "", msg);
	apply_max_request(d);
	d->bdev = km_karma_usb_blockdev(d->usb);
	if (!ctx->offset)
		return KC_EXIT_OK;
	d->win = km_window_device_open(d->bdev, ctx->offset, 0, msg, sizeof(msg));
	if (!d->win)
		return kc_failf(ctx, "%s: %s", ctx->image, msg);
	d->bdev = km_window_device_blockdev(d->win);
	return KC_EXIT_OK;
}

static int open_simulated(struct kc_ctx *ctx, bool writable, struct kc_device *d)
{
	struct km_sim_karma_options opts = {
		.read_only = !writable,
		.real_time = g_strcmp0(g_getenv("KARMACTL_SIM_REAL_TIME"), "1") == 0,
		.final_stats = &d->sim_stats,
	};
	struct km_sim_karma_faults faults = { 0 };
	char msg[OMFS_ERRMSG_MAX] = "";
	struct km_sim_karma *sim = NULL;
	int status;

	if (km_sim_faults_from_env(&faults, msg, sizeof(msg)) == 0)
		sim = km_sim_karma_open(ctx->image, &opts, msg, sizeof(msg));
	if (!sim)
		return kc_failf(ctx, "%s", msg);
	status = open_karma(ctx, km_sim_karma_transport(sim), d);
	/* KM_SIM_FAULTS: armed once the player is open, for the command's own I/O */
	if (!status)
		*km_sim_karma_faults(sim) = faults;
	return status;
}

/* The real player through libusb; no permission comes with the fix. */
static int open_usb(struct kc_ctx *ctx, struct kc_device *d)
{
	struct km_usb_transport *t;
	char msg[OMFS_ERRMSG_MAX] = "";
	int err = km_usb_libusb_open(ctx->usb_bus, ctx->usb_address, &t, msg, sizeof(msg));

	if (err == -EACCES)
		return kc_failf(ctx, "%s.\n%s", msg, UDEV_RULE_HINT);
	if (err)
		return kc_failf(ctx, "%s", msg);
	return open_karma(ctx, t, d);
}

/* -i IMAGE or --device NODE: a node of the player's disk may need the udev rule. */
static int open_image(struct kc_ctx *ctx, bool writable, struct kc_device *d)
{
	char msg[OMFS_ERRMSG_MAX] = "";
	struct stat st;
	int err;

	d->img = km_image_device_open(ctx->image, writable, ctx->offset, 0, msg, sizeof(msg));
	if (d->img) {
		d->bdev = km_image_device_blockdev(d->img);
		return KC_EXIT_OK;
	}
	err = errno;
	if (!msg[0])
		g_strlcpy(msg, g_strerror(err), sizeof(msg));
	if (err == EACCES && stat(ctx->image, &st) == 0 && S_ISBLK(st.st_mode))
		return kc_failf(ctx, "%s.\n%s", msg, UDEV_RULE_HINT);
	return kc_failf(ctx, "%s", msg);
}

int kc_device_open(struct kc_ctx *ctx, bool writable, struct kc_device **out)
{
	struct kc_device *d = g_new0(struct kc_device, 1);
	int status;

	if (ctx->usb) {
		status = kc_check_usb_not_mounted(ctx);
		if (!status)
			status = open_usb(ctx, d);
	} else {
		status = kc_check_not_mounted(ctx, ctx->image, writable);
		if (!status && ctx->simulate)
			status = open_simulated(ctx, writable, d);
		else if (!status)
			status = open_image(ctx, writable, d);
	}
	if (status) {
		kc_device_close(ctx, d, status);
		d = NULL;
	}
	*out = d;
	return status;
}

const struct omfs_blockdev *kc_device_blockdev(const struct kc_device *d)
{
	return d->bdev;
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
	int err = 0;

	if (!d)
		return status;
	km_window_device_close(d->win);
	if (d->usb) {
		err = km_karma_usb_close(d->usb, msg, sizeof(msg));
		if (kc_stats_wanted() && ctx->simulate)
			print_sim_stats(&d->sim_stats);
	} else if (d->img) {
		err = km_image_device_close(d->img);
	}
	if (err < 0 && status == KC_EXIT_OK)
		status = kc_failf(ctx, "%s: close: %s", ctx->image, msg[0] ? msg : g_strerror(-err));
	g_free(d);
	return status;
}
