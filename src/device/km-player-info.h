/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-player-info.h - one connected Rio Karma as udev sees it: where it sits
 * on the USB bus, its serial, the block device when the kernel's usb-storage
 * already exposes it, and whether we may open any of its nodes.
 *
 * A KmPlayerInfo is an immutable, reference-counted snapshot (a boxed type):
 * KmDeviceMonitor makes a new one whenever something about the player
 * changes. Everything is read from sysfs attributes first, udev properties
 * only as a fallback, because inside Flatpak the udev database is missing.
 */
#ifndef KM_PLAYER_INFO_H
#define KM_PLAYER_INFO_H

#include <gudev/gudev.h>

#include "km-udev-rule.h"

G_BEGIN_DECLS

typedef enum {
	KM_PLAYER_ACCESS_OK,		/* a node is readable and writable by us */
	KM_PLAYER_ACCESS_NO_PERMISSION,	/* nodes exist, none may be opened (the udev rule) */
	KM_PLAYER_ACCESS_NO_NODE,	/* udev has not made a device node (yet) */
	KM_PLAYER_ACCESS_NOT_KARMA,	/* the node asked about is not a Rio Karma */
} KmPlayerAccess;

typedef struct _KmPlayerInfo KmPlayerInfo;

#define KM_TYPE_PLAYER_INFO (km_player_info_get_type())
GType km_player_info_get_type(void) G_GNUC_CONST;

KmPlayerInfo *km_player_info_ref(KmPlayerInfo *info);
void km_player_info_unref(KmPlayerInfo *info);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(KmPlayerInfo, km_player_info_unref)

/* The sysfs path of the USB device: the player's identity while plugged in. */
const char *km_player_info_get_sysfs_path(const KmPlayerInfo *info);
/* USB bus number and device address (libusb's), 0 when sysfs did not say. */
guint km_player_info_get_bus(const KmPlayerInfo *info);
guint km_player_info_get_address(const KmPlayerInfo *info);
/* The USB serial (all zeros on every Karma seen so far), or NULL. */
const char *km_player_info_get_serial(const KmPlayerInfo *info);
/* The kernel's name for the port ("1-2.4"): stable while the cable stays put. */
const char *km_player_info_get_port_path(const KmPlayerInfo *info);
/* /dev/bus/usb/BBB/DDD for libusb, or NULL. */
const char *km_player_info_get_usb_node(const KmPlayerInfo *info);
/* The whole disk (/dev/sdX) when usb-storage drives the player, or NULL. */
const char *km_player_info_get_block_node(const KmPlayerInfo *info);
const char *km_player_info_get_block_sysfs_path(const KmPlayerInfo *info);
KmPlayerAccess km_player_info_get_access(const KmPlayerInfo *info);
/* Whether we may open the USB node (for libusb) and the block node, read and write. */
gboolean km_player_info_can_open_usb(const KmPlayerInfo *info);
gboolean km_player_info_can_open_block(const KmPlayerInfo *info);
/* The node to open: the block node when we may, else the USB node, else NULL. */
const char *km_player_info_get_open_node(const KmPlayerInfo *info);
gboolean km_player_info_equal(const KmPlayerInfo *a, const KmPlayerInfo *b);

/*
 * The sentence to show for an access state (NULL for OK), newly allocated.
 * For NO_PERMISSION it names the udev rule file, gives its content and the
 * exact commands that install it.
 */
char *km_player_access_explain(KmPlayerAccess access);
/* The rule lines of data/70-rio-karma.rules, without its comments. */
const char *km_player_udev_rule(void);

/* Reading udev (for KmDeviceMonitor) */

/* TRUE for a USB device (not an interface) with the Karma's VID:PID. */
gboolean km_player_is_karma_usb(GUdevDevice *dev);
/* The Karma USB device a device belongs to (itself or a USB ancestor), or NULL. */
GUdevDevice *km_player_karma_usb_of(GUdevDevice *dev);
/*
 * Describes the Karma USB device usb; its block disk is searched among the
 * block devices of client, skipping the one at gone_block_syspath (a disk
 * being removed whose sysfs entry may still be there), if not NULL.
 */
KmPlayerInfo *km_player_info_new_from_udev(GUdevClient *client, GUdevDevice *usb,
					   const char *gone_block_syspath);
/* km_device_monitor_check_node(), with the monitor's client. */
KmPlayerAccess km_player_check_node(GUdevClient *client, const char *node);

G_END_DECLS

#endif
