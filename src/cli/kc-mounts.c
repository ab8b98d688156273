/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-mounts.c - never write under a mounted disk (km-mount-point.h says
 * where it is mounted). --usb takes the player away from usb-storage, so a
 * player whose disk (as udev knows it) is mounted is not opened at all.
 */
#include "kc.h"

#include <stdio.h>

#include "km-device-monitor.h"
#include "km-mount-point.h"

int kc_check_not_mounted(const struct kc_ctx *ctx, const char *path, bool writable)
{
	g_autofree char *where = km_mount_point_of(path);

	if (!where)
		return KC_EXIT_OK;
	if (writable)
		return kc_failf(ctx, "%s is mounted on %s: writing beside the kernel's file system "
				"would corrupt it; unmount it first", path, where);
	fprintf(stderr, "karmactl: %s: warning: %s is mounted on %s: what is read may be out "
		"of date\n", ctx->cmd, path, where);
	return KC_EXIT_OK;
}

/* The player at ctx's --usb location, or every one for the first found. */
static bool is_usb_target(const struct kc_ctx *ctx, const KmPlayerInfo *p)
{
	return !ctx->usb_bus || (km_player_info_get_bus(p) == ctx->usb_bus &&
				 km_player_info_get_address(p) == ctx->usb_address);
}

int kc_check_usb_not_mounted(const struct kc_ctx *ctx)
{
	g_autoptr(KmDeviceMonitor) mon = g_object_new(KM_TYPE_DEVICE_MONITOR, "uevents", FALSE,
						      NULL);
	g_autoptr(GPtrArray) players = km_device_monitor_get_players(mon);

	for (guint i = 0; i < players->len; i++) {
		const KmPlayerInfo *p = players->pdata[i];
		const char *block = km_player_info_get_block_node(p);
		g_autofree char *where = NULL;

		if (!block || !is_usb_target(ctx, p))
			continue;
		where = km_mount_point_of(block);
		if (where)
			return kc_failf(ctx, "%s: its disk %s is mounted on %s: unmount it first "
					"(taking the player from usb-storage would pull the disk from "
					"under the kernel's file system)", ctx->image, block, where);
	}
	return KC_EXIT_OK;
}
