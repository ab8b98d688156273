/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-karma-module.c - what karmactl-karma.so gives karmactl (kc-module.h):
 * its commands, in the order of kc_karma_commands, and the two steps of
 * --usb that need udev and libusb.
 */
#include "kc-karma.h"
#include "kc-module.h"

#include "km-usb-libusb.h"

static const struct kc_command *const commands[] = {
	&kc_cmd_mkkarma, &kc_cmd_tracks, &kc_cmd_add, &kc_cmd_sync, &kc_cmd_export,
	&kc_cmd_rm_track, &kc_cmd_tag, &kc_cmd_playlist, &kc_cmd_plays, &kc_cmd_verify,
	&kc_cmd_rebuild_db, &kc_cmd_backup, &kc_cmd_restore, &kc_cmd_devices, &kc_cmd_eject,
	NULL
};

const struct kc_karma_module kc_karma_module = {
	.version = KC_VERSION,
	.commands = commands,
	.usb_open = km_usb_libusb_open,
	.check_usb_not_mounted = kc_check_usb_not_mounted,
};
