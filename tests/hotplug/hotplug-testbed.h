/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hotplug-testbed.h - a umockdev testbed with the devices the hotplug tests
 * plug in and out (a Rio Karma, its usb-storage disk, devices to ignore), and
 * a KmDeviceMonitor whose signals are recorded in order.
 */
#ifndef HOTPLUG_TESTBED_H
#define HOTPLUG_TESTBED_H

#include <sys/stat.h>

#include <umockdev.h>

#include "km-device-monitor.h"

#define WAIT_MS 3000
/* Device paths as umockdev records write them; SYS() makes the sysfs path. */
#define SYS(path) "/sys" path
#define HUB "/devices/pci0000:00/0000:00:14.0/usb1"
#define KARMA HUB "/1-2"
#define KARMA_DISK KARMA "/1-2:1.0/host6/target6:0:0/6:0:0:0/block/sdb"
#define STICK HUB "/1-3"
#define STICK_DISK STICK "/1-3:1.0/host7/target7:0:0/7:0:0:0/block/sdc"
#define VIRTUAL_DISK "/devices/pci0000:00/0000:00:05.0/virtio2/block/vda"

typedef struct {
	const char *kind;	/* "added", "changed", "removed" */
	KmPlayerInfo *info;
} Event;

typedef struct {
	UMockdevTestbed *tb;
	KmDeviceMonitor *mon;
	GArray *events;
} Fixture;

void fixture_setup(Fixture *f, gconstpointer data);
void fixture_teardown(Fixture *f, gconstpointer data);
/* Adds devices in umockdev's record format; each one sends its "add" uevent. */
void add_records(Fixture *f, const char *records);
/* A Karma at KARMA (bus 1, device 2), no driver bound. */
void add_karma(Fixture *f);
/* usb-storage bound to usb (vid:pid): interface, SCSI host, target, device, disk. */
void add_storage(Fixture *f, const char *usb, const char *disk, const char *vid_pid);
/* A USB stick with its disk, Rio's VID with another product, garbage ids, a virtual disk. */
void add_unrelated(Fixture *f);
/* As the kernel does: the remove uevent, then the sysfs entry goes. */
void unplug(Fixture *f, const char *syspath);
/* Changes the permission bits of a node under the testbed's /dev. */
void chmod_node(Fixture *f, const char *node, mode_t mode);

/*
 * Root opens anything, so permission tests run as nobody: runs check on a
 * fresh fixture as nobody, in a child process that must pass within
 * timeout_s seconds (the body of a g_test_add_func test).
 */
void run_unprivileged(void (*check)(Fixture *f), guint timeout_s);

/* A monitor listening for uevents or not, its signals recorded in f->events. */
void start_monitor(Fixture *f, gboolean uevents);
/* Spins the main loop until n events in all were seen, or WAIT_MS passed. */
void wait_for_events(Fixture *f, guint n);
/* Delivers what is pending now, without waiting. */
void settle(void);
/* Event i, which must be of that kind. */
const Event *event(Fixture *f, guint i, const char *kind);
guint count_players(Fixture *f);

#endif
