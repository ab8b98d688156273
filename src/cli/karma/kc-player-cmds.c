/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-player-cmds.c - the Rio Karmas plugged in: `devices` lists them and
 * how each can be opened (udev through KmDeviceMonitor, which also knows the
 * block node usb-storage made and whether we may open it); `eject` flushes
 * and lets the player leave storage mode. And --usb's check before it
 * takes a player from usb-storage: a player whose disk (as udev knows it)
 * is mounted is not opened at all.
 */
#include "kc-karma.h"

#include <stdio.h>
#include <sys/stat.h>

#include "km-device-monitor.h"
#include "km-mount-point.h"

static gboolean devices_json;

static const GOptionEntry devices_options[] = {
	{ "json", 'j', 0, G_OPTION_ARG_NONE, &devices_json,
	  "Print a JSON array with one object per player", NULL },
	{ NULL }
};

/* The global options that open this player, one per way we may use ("--usb 1:4"). */
static GPtrArray *open_options(const KmPlayerInfo *p)
{
	GPtrArray *ways = g_ptr_array_new_with_free_func(g_free);

	if (km_player_info_can_open_usb(p) && km_player_info_get_bus(p))
		g_ptr_array_add(ways, g_strdup_printf("--usb %u:%u", km_player_info_get_bus(p),
						      km_player_info_get_address(p)));
	if (km_player_info_can_open_block(p))
		g_ptr_array_add(ways, g_strdup_printf("--device %s",
						      km_player_info_get_block_node(p)));
	return ways;
}

static const char *access_name(KmPlayerAccess access)
{
	switch (access) {
	case KM_PLAYER_ACCESS_OK:
		return "ok";
	case KM_PLAYER_ACCESS_NO_PERMISSION:
		return "no-permission";
	case KM_PLAYER_ACCESS_NO_NODE:
		return "no-node";
	case KM_PLAYER_ACCESS_NOT_KARMA:
	default:
		return "not-karma";
	}
}

/* "key": "value" or null, after a comma. */
static void json_member(GString *out, const char *key, const char *value)
{
	g_string_append_printf(out, ", \"%s\": ", key);
	if (value)
		kc_json_string(out, value);
	else
		g_string_append(out, "null");
}

static void append_json_player(GString *out, const KmPlayerInfo *p)
{
	g_autoptr(GPtrArray) ways = open_options(p);
	g_autofree char *hint = km_player_access_explain(km_player_info_get_access(p));

	g_string_append_printf(out, "{\"bus\": %u, \"address\": %u", km_player_info_get_bus(p),
			       km_player_info_get_address(p));
	json_member(out, "port", km_player_info_get_port_path(p));
	json_member(out, "serial", km_player_info_get_serial(p));
	json_member(out, "usb_node", km_player_info_get_usb_node(p));
	json_member(out, "block_node", km_player_info_get_block_node(p));
	json_member(out, "access", access_name(km_player_info_get_access(p)));
	g_string_append(out, ", \"open\": [");
	for (guint i = 0; i < ways->len; i++) {
		if (i)
			g_string_append(out, ", ");
		kc_json_string(out, ways->pdata[i]);
	}
	g_string_append(out, "]");
	json_member(out, "hint", hint);
	g_string_append_c(out, '}');
}

/* A few lines per player; why it may not be opened once, at the end. */
static void append_plain_player(GString *out, const KmPlayerInfo *p)
{
	g_autoptr(GPtrArray) ways = open_options(p);
	const char *serial = km_player_info_get_serial(p);
	const char *block = km_player_info_get_block_node(p);

	g_string_append_printf(out, "Rio Karma at USB %u:%u, port %s, serial %s\n",
			       km_player_info_get_bus(p), km_player_info_get_address(p),
			       km_player_info_get_port_path(p) ?: "unknown",
			       serial ?: "none");
	g_string_append_printf(out, "  block device: %s\n",
			       block ?: "none (usb-storage does not drive it)");
	for (guint i = 0; i < ways->len; i++)
		g_string_append_printf(out, "  open with: karmactl %s COMMAND\n",
				       (char *)ways->pdata[i]);
	if (!ways->len)
		g_string_append_printf(out, "  may not be opened: %s\n",
				       access_name(km_player_info_get_access(p)));
}

/* The explanations of the players that may not be opened, each once. */
static void append_hints(GString *out, GPtrArray *players)
{
	bool shown[KM_PLAYER_ACCESS_NOT_KARMA + 1] = { false };

	for (guint i = 0; i < players->len; i++) {
		KmPlayerAccess a = km_player_info_get_access(players->pdata[i]);
		g_autofree char *hint = km_player_access_explain(a);

		if (!hint || (unsigned)a >= G_N_ELEMENTS(shown) || shown[a])
			continue;
		shown[a] = true;
		g_string_append_printf(out, "\n%s\n", hint);
	}
}

static int devices_run(struct kc_ctx *ctx)
{
	g_autoptr(KmDeviceMonitor) mon = g_object_new(KM_TYPE_DEVICE_MONITOR, "uevents", FALSE,
						      NULL);
	g_autoptr(GPtrArray) players = km_device_monitor_get_players(mon);
	GString *out = g_string_new(NULL);

	if (devices_json) {
		g_string_append_c(out, '[');
		for (guint i = 0; i < players->len; i++) {
			g_string_append(out, i ? ",\n  " : "\n  ");
			append_json_player(out, players->pdata[i]);
		}
		g_string_append(out, players->len ? "\n]\n" : "]\n");
	} else {
		for (guint i = 0; i < players->len; i++)
			append_plain_player(out, players->pdata[i]);
		if (!players->len)
			g_string_append(out, "No Rio Karma is connected.\n");
		append_hints(out, players);
	}
	fwrite(out->str, 1, out->len, stdout);
	g_string_free(out, TRUE);
	return KC_EXIT_OK;
}

const struct kc_command kc_cmd_devices = {
	.name = "devices",	/* its arguments and summary: ../kc-karma-commands.c */
	.options = devices_options,
	.description = "For each player: its USB bus:address, port, serial, the block device "
		       "when the kernel's usb-storage exposes it, and the options that open it "
		       "(--usb BUS:ADDR, --device NODE); when it may not be opened, the udev "
		       "rule that lets you.",
	.min_args = 0, .max_args = 0, .access = KC_NO_VOLUME, .run = devices_run,
};

/* What eject did, in words: only libusb can make the player leave storage mode. */
static void say_ejected(const struct kc_ctx *ctx)
{
	struct stat st;

	if (ctx->usb)
		printf("%s: left storage mode; it may be unplugged\n", ctx->image);
	else if (ctx->simulate)
		printf("%s: the simulated Karma left storage mode\n", ctx->image);
	else if (stat(ctx->image, &st) == 0 && S_ISBLK(st.st_mode))
		printf("%s: flushed; the kernel's usb-storage still holds the player in storage "
		       "mode: unplug it, or use --usb to make it leave\n", ctx->image);
	else
		printf("%s: flushed (an image file: nothing to eject)\n", ctx->image);
}

static int eject_run(struct kc_ctx *ctx)
{
	const struct omfs_blockdev *bdev;
	struct kc_device *dev;
	int status, err;

	if (!ctx->image)
		return kc_usage(ctx,
				"no player given: use --usb, --device NODE or --simulate -i IMAGE");
	/* writable: ejecting a mounted disk is refused */
	status = kc_device_open(ctx, true, &dev);
	if (status)
		return status;
	bdev = kc_device_blockdev(dev);
	err = bdev->flush(bdev->ctx);
	if (err < 0)
		status = kc_failf(ctx, "%s: flush: %s", ctx->image, g_strerror(-err));
	/* closing a player over USB leaves storage mode and returns it to normal */
	status = kc_device_close(ctx, dev, status);
	if (status == KC_EXIT_OK)
		say_ejected(ctx);
	return status;
}

const struct kc_command kc_cmd_eject = {
	.name = "eject",	/* its arguments and summary: ../kc-karma-commands.c */
	.description = "With --usb (or --simulate): flushes the player's cache, leaves storage "
		       "mode and returns the player to normal, so it may be unplugged. With "
		       "--device: flushes; the kernel still holds the player.",
	.min_args = 0, .max_args = 0, .access = KC_NO_VOLUME, .run = eject_run,
};

/* ---- --usb ---- */

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
