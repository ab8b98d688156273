/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-mounts.c - never write under a mounted disk (km-mount-point.h says
 * where it is mounted). --usb's own check, which asks udev for the
 * player's disk, is in the Karma module (karma/kc-player-cmds.c).
 */
#include "kc.h"

#include <stdio.h>

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
