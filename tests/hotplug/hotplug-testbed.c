/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hotplug-testbed.c - the devices of the hotplug tests as umockdev records,
 * and the recording of KmDeviceMonitor's signals.
 *
 * The records are what the kernel and udev would show: MAJOR/MINOR in a
 * disk's uevent (udev finds a device from its node through them), idVendor
 * and friends as sysfs attributes, a node (N:) wherever udev makes one.
 */
#include "hotplug-testbed.h"

#include <grp.h>
#include <string.h>
#include <unistd.h>

static void clear_event(gpointer data)
{
	km_player_info_unref(((Event *)data)->info);
}

/* The root hub: a USB device of another VID:PID, always present. */
static const char hub_record[] =
	"P: " HUB "\nN: bus/usb/001/001\nE: SUBSYSTEM=usb\nE: DEVTYPE=usb_device\n"
	"E: DEVNAME=/dev/bus/usb/001/001\nA: idVendor=1d6b\nA: idProduct=0002\n"
	"A: busnum=1\nA: devnum=1\n";

void add_records(Fixture *f, const char *records)
{
	g_autoptr(GError) error = NULL;

	umockdev_testbed_add_from_string(f->tb, records, &error);
	g_assert_no_error(error);
}

void fixture_setup(Fixture *f, gconstpointer data)
{
	f->tb = umockdev_testbed_new();
	g_assert_true(umockdev_in_mock_environment());
	add_records(f, hub_record);
	f->events = g_array_new(FALSE, FALSE, sizeof(Event));
	g_array_set_clear_func(f->events, clear_event);
}

void fixture_teardown(Fixture *f, gconstpointer data)
{
	if (f->mon)
		g_assert_finalize_object(f->mon);
	g_array_unref(f->events);
	g_object_unref(f->tb);
}

static void record(Fixture *f, const char *kind, KmPlayerInfo *info)
{
	Event e = { kind, km_player_info_ref(info) };

	g_array_append_val(f->events, e);
}

static void on_added(KmDeviceMonitor *mon, KmPlayerInfo *info, Fixture *f)
{
	record(f, "added", info);
}

static void on_changed(KmDeviceMonitor *mon, KmPlayerInfo *info, Fixture *f)
{
	record(f, "changed", info);
}

static void on_removed(KmDeviceMonitor *mon, KmPlayerInfo *info, Fixture *f)
{
	record(f, "removed", info);
}

void start_monitor(Fixture *f, gboolean uevents)
{
	f->mon = g_object_new(KM_TYPE_DEVICE_MONITOR, "uevents", uevents, NULL);
	g_signal_connect(f->mon, "player-added", G_CALLBACK(on_added), f);
	g_signal_connect(f->mon, "player-changed", G_CALLBACK(on_changed), f);
	g_signal_connect(f->mon, "player-removed", G_CALLBACK(on_removed), f);
}

static gboolean on_timeout(gpointer data)
{
	*(gboolean *)data = TRUE;
	return G_SOURCE_REMOVE;
}

void wait_for_events(Fixture *f, guint n)
{
	gboolean timed_out = FALSE;
	guint id = g_timeout_add(WAIT_MS, on_timeout, &timed_out);

	while (f->events->len < n && !timed_out)
		g_main_context_iteration(NULL, TRUE);
	if (!timed_out)
		g_source_remove(id);
	g_assert_cmpuint(f->events->len, ==, n);
}

void settle(void)
{
	while (g_main_context_iteration(NULL, FALSE))
		;
}

const Event *event(Fixture *f, guint i, const char *kind)
{
	const Event *e = &g_array_index(f->events, Event, i);

	g_assert_cmpstr(e->kind, ==, kind);
	return e;
}

void add_karma(Fixture *f)
{
	static const char record[] =
		"P: " KARMA "\nN: bus/usb/001/002\nE: SUBSYSTEM=usb\nE: DEVTYPE=usb_device\n"
		"E: DEVNAME=/dev/bus/usb/001/002\nE: ID_VENDOR_ID=045a\nE: ID_MODEL_ID=5210\n"
		"A: idVendor=045a\nA: idProduct=5210\nA: bcdDevice=0101\nA: bDeviceClass=00\n"
		"A: busnum=1\nA: devnum=2\nA: serial=0000000000000000\n";

	add_records(f, record);
}

void add_storage(Fixture *f, const char *usb, const char *disk, const char *vid_pid)
{
	g_autofree char *block_dir = g_path_get_dirname(disk);	/* .../6:0:0:0/block */
	g_autofree char *sdev = g_path_get_dirname(block_dir);
	g_autofree char *target = g_path_get_dirname(sdev);
	g_autofree char *shost = g_path_get_dirname(target);
	g_autofree char *intf = g_path_get_dirname(shost);
	g_autofree char *name = g_path_get_basename(disk);
	g_auto(GStrv) ids = g_strsplit(vid_pid, ":", 2);
	int minor = (name[2] - 'a') * 16;	/* sdb: 8:16, as the kernel numbers them */
	g_autofree char *records = g_strdup_printf(
		"P: %s\nN: %s\nE: SUBSYSTEM=block\nE: DEVTYPE=disk\nE: DEVNAME=/dev/%s\n"
		"E: ID_VENDOR_ID=%s\nE: ID_MODEL_ID=%s\nE: ID_BUS=usb\nE: MAJOR=8\n"
		"E: MINOR=%d\nA: dev=8:%d\n"
		"A: size=39070080\nA: removable=1\n\n"
		"P: %s\nE: SUBSYSTEM=scsi\nE: DEVTYPE=scsi_device\nA: vendor=Rio\n\n"
		"P: %s\nE: SUBSYSTEM=scsi\nE: DEVTYPE=scsi_target\n\n"
		"P: %s\nE: SUBSYSTEM=scsi\nE: DEVTYPE=scsi_host\n\n"
		"P: %s\nE: SUBSYSTEM=usb\nE: DEVTYPE=usb_interface\nE: DRIVER=usb-storage\n"
		"A: bInterfaceClass=00\n",
		disk, name, name, ids[0], ids[1], minor, minor, sdev, target, shost, intf);

	g_assert_true(g_str_has_prefix(intf, usb));
	add_records(f, records);
}

void unplug(Fixture *f, const char *syspath)
{
	umockdev_testbed_uevent(f->tb, syspath, "remove");
	/*
	 * umockdev 0.18 and later (Debian 13) send a remove uevent for the device
	 * and each child from remove_device() too; the uevent socket queues 10
	 * messages (net.unix.max_dgram_qlen), so the monitor reads first.
	 */
	settle();
	umockdev_testbed_remove_device(f->tb, syspath);
}

/* Only the permission bits: umockdev marks block nodes with the sticky bit. */
void chmod_node(Fixture *f, const char *node, mode_t mode)
{
	g_autofree char *root = umockdev_testbed_get_root_dir(f->tb);
	g_autofree char *path = g_build_filename(root, node, NULL);
	struct stat st;

	g_assert_no_errno(stat(path, &st));
	g_assert_no_errno(chmod(path, (st.st_mode & 07000) | mode));
}

void add_unrelated(Fixture *f)
{
	static const char stick[] =
		"P: " STICK "\nN: bus/usb/001/003\nE: SUBSYSTEM=usb\nE: DEVTYPE=usb_device\n"
		"E: DEVNAME=/dev/bus/usb/001/003\nA: idVendor=0781\nA: idProduct=5567\n"
		"A: busnum=1\nA: devnum=3\n";
	/* Rio's VID with another product, and a Karma id as a garbage string. */
	static const char others[] =
		"P: " HUB "/1-4\nE: SUBSYSTEM=usb\nE: DEVTYPE=usb_device\n"
		"A: idVendor=045a\nA: idProduct=5220\nA: busnum=1\nA: devnum=4\n\n"
		"P: " HUB "/1-5\nE: SUBSYSTEM=usb\nE: DEVTYPE=usb_device\n"
		"A: idVendor=045a5210\nA: idProduct=5210x\nA: busnum=1\nA: devnum=5\n\n"
		"P: " VIRTUAL_DISK "\nN: vda\nE: SUBSYSTEM=block\nE: DEVTYPE=disk\n"
		"E: DEVNAME=/dev/vda\nE: MAJOR=254\nE: MINOR=0\nA: dev=254:0\nA: size=2097152\n";

	add_records(f, stick);
	add_storage(f, STICK, STICK_DISK, "0781:5567");
	add_records(f, others);
}

guint count_players(Fixture *f)
{
	g_autoptr(GPtrArray) players = km_device_monitor_get_players(f->mon);

	return players->len;
}

static void drop_privileges(void)
{
	if (geteuid() != 0)
		return;
	g_assert_no_errno(setgroups(0, NULL));
	g_assert_no_errno(setgid(65534));
	g_assert_no_errno(setuid(65534));
}

void run_unprivileged(void (*check)(Fixture *f), guint timeout_s)
{
	Fixture f = { 0 };

	if (!g_test_subprocess()) {
		g_test_trap_subprocess(NULL, (guint64)timeout_s * G_USEC_PER_SEC,
				       G_TEST_SUBPROCESS_DEFAULT);
		g_test_trap_assert_passed();
		return;
	}
	drop_privileges();
	fixture_setup(&f, NULL);
	check(&f);
	fixture_teardown(&f, NULL);
}
