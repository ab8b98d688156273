/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-device-monitor.h - the Rio Karma players plugged in, as they come and go.
 *
 * A GUdevClient on "usb" and "block" reports uevents; each one that concerns a
 * Karma (its USB device, or a disk whose USB parent is one) re-reads that
 * player and compares with what was known: "player-added", "player-changed"
 * (for instance the block node appeared) and "player-removed" follow from
 * the difference. km_device_monitor_rescan() does the same for every player
 * at once; the monitor runs it when it starts, and on a timer when
 * "rescan-interval" is set, because inside Flatpak uevents do not arrive
 * (the app turns the timer off where the USB portal's events stand in).
 *
 * Players are matched by VID:PID only (045a:5210): the Karma's interface
 * class is 0, so no class match can find it. Signals that follow a uevent
 * are emitted in the thread-default main context the monitor was created in;
 * those of the timer's rescans in the global default main context (the timer
 * is a g_timeout_add_seconds() source).
 */
#ifndef KM_DEVICE_MONITOR_H
#define KM_DEVICE_MONITOR_H

#include <glib-object.h>

#include "km-player-info.h"

G_BEGIN_DECLS

/* The rescan interval inside Flatpak, where uevents do not reach the sandbox. */
#define KM_DEVICE_MONITOR_SANDBOX_RESCAN_SECONDS 2

#define KM_TYPE_DEVICE_MONITOR (km_device_monitor_get_type())
G_DECLARE_FINAL_TYPE(KmDeviceMonitor, km_device_monitor, KM, DEVICE_MONITOR, GObject)

/* TRUE inside a Flatpak sandbox (/.flatpak-info exists). */
gboolean km_device_monitor_in_sandbox(void);

/* Listens for uevents; rescans every few seconds inside Flatpak. */
KmDeviceMonitor *km_device_monitor_new(void);

/* The players known now, ordered by sysfs path (transfer full). */
GPtrArray *km_device_monitor_get_players(KmDeviceMonitor *self);
/* Reads every player again; emits a signal for each difference. */
void km_device_monitor_rescan(KmDeviceMonitor *self);
/* Seconds between rescans, 0 for none. */
void km_device_monitor_set_rescan_interval(KmDeviceMonitor *self, guint seconds);
guint km_device_monitor_get_rescan_interval(KmDeviceMonitor *self);
/*
 * Why a node (as given to `karmactl --device`) may or may not be opened:
 * NOT_KARMA when udev does not know it as a Karma's disk, partition or USB
 * device, else OK or NO_PERMISSION (km_player_access_explain() says more).
 */
KmPlayerAccess km_device_monitor_check_node(KmDeviceMonitor *self, const char *node);

G_END_DECLS

#endif
