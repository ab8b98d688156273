/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-device-monitor.c - KmDeviceMonitor against a mock sysfs and udev
 * (umockdev): players plugged in and out, a Karma already driven by
 * usb-storage with its disk, devices that must be ignored, nodes we may not
 * open, and rescans without uevents (as inside Flatpak).
 *
 * Runs with libumockdev-preload.so in LD_PRELOAD (tests/hotplug/meson.build).
 * The main loop only ever spins with a timeout: a missing signal fails, never hangs.
 */
#include <string.h>

#include "hotplug-testbed.h"

static void assert_karma(const KmPlayerInfo *info, const char *block_node)
{
	g_assert_cmpstr(km_player_info_get_sysfs_path(info), ==, SYS(KARMA));
	g_assert_cmpuint(km_player_info_get_bus(info), ==, 1);
	g_assert_cmpuint(km_player_info_get_address(info), ==, 2);
	g_assert_cmpstr(km_player_info_get_serial(info), ==, "0000000000000000");
	g_assert_cmpstr(km_player_info_get_port_path(info), ==, "1-2");
	g_assert_cmpstr(km_player_info_get_usb_node(info), ==, "/dev/bus/usb/001/002");
	g_assert_cmpstr(km_player_info_get_block_node(info), ==, block_node);
}

static void test_add_remove(Fixture *f, gconstpointer data)
{
	const Event *e;

	start_monitor(f, TRUE);
	g_assert_cmpuint(count_players(f), ==, 0);
	add_karma(f);
	wait_for_events(f, 1);
	e = event(f, 0, "added");
	assert_karma(e->info, NULL);
	g_assert_cmpint(km_player_info_get_access(e->info), ==, KM_PLAYER_ACCESS_OK);
	g_assert_cmpstr(km_player_info_get_open_node(e->info), ==, "/dev/bus/usb/001/002");
	g_assert_cmpuint(count_players(f), ==, 1);

	unplug(f, SYS(KARMA));
	wait_for_events(f, 2);
	assert_karma(event(f, 1, "removed")->info, NULL);
	g_assert_cmpuint(count_players(f), ==, 0);
}

static void test_present_at_start(Fixture *f, gconstpointer data)
{
	g_autoptr(GPtrArray) players = NULL;
	const KmPlayerInfo *info;

	add_karma(f);
	add_storage(f, KARMA, KARMA_DISK, "045a:5210");
	start_monitor(f, TRUE);
	players = km_device_monitor_get_players(f->mon);
	g_assert_cmpuint(players->len, ==, 1);
	info = players->pdata[0];
	assert_karma(info, "/dev/sdb");
	g_assert_cmpstr(km_player_info_get_block_sysfs_path(info), ==, SYS(KARMA_DISK));
	g_assert_cmpint(km_player_info_get_access(info), ==, KM_PLAYER_ACCESS_OK);
	g_assert_cmpstr(km_player_info_get_open_node(info), ==, "/dev/sdb");
	settle();
	g_assert_cmpuint(f->events->len, ==, 0);
}

static void test_block_node_later(Fixture *f, gconstpointer data)
{
	start_monitor(f, TRUE);
	add_karma(f);
	wait_for_events(f, 1);
	assert_karma(event(f, 0, "added")->info, NULL);

	add_storage(f, KARMA, KARMA_DISK, "045a:5210");
	wait_for_events(f, 2);
	assert_karma(event(f, 1, "changed")->info, "/dev/sdb");
	g_assert_cmpint(km_device_monitor_check_node(f->mon, "/dev/sdb"), ==,
			KM_PLAYER_ACCESS_OK);

	/* The disk goes first, its sysfs entry still there when the event comes. */
	umockdev_testbed_uevent(f->tb, SYS(KARMA_DISK), "remove");
	wait_for_events(f, 3);
	assert_karma(event(f, 2, "changed")->info, NULL);
	umockdev_testbed_remove_device(f->tb, SYS(KARMA_DISK));
	unplug(f, SYS(KARMA));
	wait_for_events(f, 4);
	event(f, 3, "removed");
	settle();
	g_assert_cmpuint(f->events->len, ==, 4);
}


static void test_ignores_others(Fixture *f, gconstpointer data)
{
	start_monitor(f, TRUE);
	add_unrelated(f);
	/* Events arrive in order: the Karma's comes after the others'. */
	add_karma(f);
	wait_for_events(f, 1);
	assert_karma(event(f, 0, "added")->info, NULL);
	g_assert_cmpint(km_device_monitor_check_node(f->mon, "/dev/sdc"), ==,
			KM_PLAYER_ACCESS_NOT_KARMA);
	g_assert_cmpint(km_device_monitor_check_node(f->mon, "/dev/vda"), ==,
			KM_PLAYER_ACCESS_NOT_KARMA);
	g_assert_cmpint(km_device_monitor_check_node(f->mon, "/dev/nonexistent"), ==,
			KM_PLAYER_ACCESS_NOT_KARMA);

	unplug(f, SYS(STICK_DISK));
	unplug(f, SYS(VIRTUAL_DISK));
	unplug(f, SYS(KARMA));
	wait_for_events(f, 2);
	event(f, 1, "removed");

	/* A monitor started now finds none of them either. */
	g_assert_finalize_object(f->mon);
	f->mon = NULL;
	start_monitor(f, TRUE);
	g_assert_cmpuint(count_players(f), ==, 0);
}

static void check_no_permission(Fixture *f)
{
	g_autoptr(GPtrArray) players = NULL;
	g_autofree char *help = NULL;
	const KmPlayerInfo *info;

	add_karma(f);
	add_storage(f, KARMA, KARMA_DISK, "045a:5210");
	chmod_node(f, "dev/sdb", 0);
	chmod_node(f, "dev/bus/usb/001/002", 0444);
	start_monitor(f, TRUE);
	players = km_device_monitor_get_players(f->mon);
	g_assert_cmpuint(players->len, ==, 1);
	info = players->pdata[0];
	assert_karma(info, "/dev/sdb");
	g_assert_cmpint(km_player_info_get_access(info), ==, KM_PLAYER_ACCESS_NO_PERMISSION);
	g_assert_null(km_player_info_get_open_node(info));
	g_assert_cmpint(km_device_monitor_check_node(f->mon, "/dev/sdb"), ==,
			KM_PLAYER_ACCESS_NO_PERMISSION);
	help = km_player_access_explain(km_player_info_get_access(info));
	g_assert_nonnull(strstr(help, "70-rio-karma.rules"));
	g_assert_nonnull(strstr(help, "TAG+=\"uaccess\""));
	g_assert_nonnull(strstr(help, "sudo install -m 644 70-rio-karma.rules "
				      "/etc/udev/rules.d/70-rio-karma.rules && sudo udevadm "
				      "control --reload && sudo udevadm trigger"));

	/* The rule applied: the disk becomes ours, udev says "change". */
	chmod_node(f, "dev/sdb", 0600);
	umockdev_testbed_uevent(f->tb, SYS(KARMA_DISK), "change");
	wait_for_events(f, 1);
	info = event(f, 0, "changed")->info;
	g_assert_cmpint(km_player_info_get_access(info), ==, KM_PLAYER_ACCESS_OK);
	g_assert_cmpstr(km_player_info_get_open_node(info), ==, "/dev/sdb");
}

static void test_no_permission(void)
{
	run_unprivileged(check_no_permission, 30);
}

static void test_rescan(Fixture *f, gconstpointer data)
{
	start_monitor(f, FALSE);
	add_karma(f);
	add_unrelated(f);
	settle();
	g_assert_cmpuint(f->events->len, ==, 0);
	km_device_monitor_rescan(f->mon);
	g_assert_cmpuint(f->events->len, ==, 1);
	assert_karma(event(f, 0, "added")->info, NULL);

	add_storage(f, KARMA, KARMA_DISK, "045a:5210");
	km_device_monitor_rescan(f->mon);
	g_assert_cmpuint(f->events->len, ==, 2);
	assert_karma(event(f, 1, "changed")->info, "/dev/sdb");

	km_device_monitor_rescan(f->mon);
	g_assert_cmpuint(f->events->len, ==, 2);

	unplug(f, SYS(KARMA_DISK));
	unplug(f, SYS(KARMA));
	km_device_monitor_rescan(f->mon);
	g_assert_cmpuint(f->events->len, ==, 3);
	assert_karma(event(f, 2, "removed")->info, "/dev/sdb");
	g_assert_cmpuint(count_players(f), ==, 0);
}

static void test_rescan_timer(Fixture *f, gconstpointer data)
{
	start_monitor(f, FALSE);
	g_object_set(f->mon, "rescan-interval", 1, NULL);
	g_assert_cmpuint(km_device_monitor_get_rescan_interval(f->mon), ==, 1);
	add_karma(f);
	wait_for_events(f, 1);
	assert_karma(event(f, 0, "added")->info, NULL);
	unplug(f, SYS(KARMA));
	wait_for_events(f, 2);
	event(f, 1, "removed");
	km_device_monitor_set_rescan_interval(f->mon, 0);
}

/* A device may say anything in its strings: they come out bounded and printable. */
static void test_hostile_attributes(Fixture *f, gconstpointer data)
{
	g_autofree char *serial = g_strnfill(300, 'Z');
	g_autofree char *syspath = NULL;
	g_autoptr(GPtrArray) players = NULL;
	g_autofree char *help = km_player_access_explain(KM_PLAYER_ACCESS_NO_NODE);
	const char *s;

	serial[3] = '\n';
	serial[5] = '\x1b';
	serial[7] = '\xff';
	syspath = umockdev_testbed_add_device(f->tb, "usb", "9-9", NULL, "idVendor", "045A",
					      "idProduct", "5210", "busnum", "999", "devnum",
					      "-1", "serial", serial, NULL, "DEVTYPE", "usb_device",
					      NULL);
	start_monitor(f, TRUE);
	players = km_device_monitor_get_players(f->mon);
	g_assert_cmpuint(players->len, ==, 1);
	g_assert_cmpuint(km_player_info_get_bus(players->pdata[0]), ==, 0);
	g_assert_cmpuint(km_player_info_get_address(players->pdata[0]), ==, 0);
	g_assert_cmpint(km_player_info_get_access(players->pdata[0]), ==,
			KM_PLAYER_ACCESS_NO_NODE);
	g_assert_nonnull(strstr(help, "device node"));
	s = km_player_info_get_serial(players->pdata[0]);
	g_assert_true(g_utf8_validate(s, -1, NULL));
	g_assert_cmpuint(strlen(s), <=, 128 * 3);
	for (const char *p = s; *p; p++)
		g_assert_cmpint((guchar)*p, >=, 0x20);
	g_assert_true(g_str_has_prefix(s, "ZZZ?Z?Z"));
}

/* The rule the app shows is the rule meson installs. */
static void test_rule_file(void)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	g_autoptr(GString) rules = g_string_new(NULL);
	g_autofree char *help = km_player_access_explain(KM_PLAYER_ACCESS_NO_PERMISSION);
	g_autofree char *other = km_player_access_explain(KM_PLAYER_ACCESS_NOT_KARMA);

	g_assert_true(g_file_get_contents(RULES_FILE, &text, NULL, NULL));
	g_assert_true(g_str_has_suffix(RULES_FILE, "/" KM_UDEV_RULE_FILE));
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i]; i++) {
		if (lines[i][0] && lines[i][0] != '#')
			g_string_append_printf(rules, "%s\n", lines[i]);
	}
	g_assert_cmpstr(rules->str, ==, km_player_udev_rule());
	g_assert_nonnull(strstr(help, km_player_udev_rule()));
	g_assert_nonnull(strstr(other, "not a Rio Karma"));
	g_assert_null(km_player_access_explain(KM_PLAYER_ACCESS_OK));
}

#define ADD(path, fn) \
	g_test_add(path, Fixture, NULL, fixture_setup, fn, fixture_teardown)

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	ADD("/hotplug/add-remove", test_add_remove);
	ADD("/hotplug/present-at-start", test_present_at_start);
	ADD("/hotplug/block-node-later", test_block_node_later);
	ADD("/hotplug/ignores-others", test_ignores_others);
	g_test_add_func("/hotplug/no-permission", test_no_permission);
	ADD("/hotplug/rescan", test_rescan);
	ADD("/hotplug/rescan-timer", test_rescan_timer);
	ADD("/hotplug/hostile-attributes", test_hostile_attributes);
	g_test_add_func("/hotplug/rule-file", test_rule_file);
	return g_test_run();
}
