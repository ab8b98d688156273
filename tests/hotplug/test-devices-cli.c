/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-devices-cli.c - `karmactl devices` against a mock sysfs and udev
 * (umockdev): no player, a player, one driven by usb-storage with its disk,
 * one whose nodes we may not open; and `--device` on that disk's node:
 * refused when it or a partition is mounted, the udev rule when we may not
 * open it; `--usb` refused while the player's disk is mounted. karmactl runs as a child and inherits the testbed (UMOCKDEV_DIR)
 * and the preload from this process.
 * Arguments: the karmactl executable (handed to the subprocess of the
 * permission test, which gets no arguments, in KM_TEST_KARMACTL).
 */
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hotplug-testbed.h"

static const char *karmactl;

/* karmactl with args (NULL-terminated): its standard output; it must exit with code. */
static char *run_karmactl(const char *const *args, int code, char **err_out)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_autoptr(GError) error = NULL;
	g_autofree char *err = NULL;
	char *out = NULL;
	int status;

	g_ptr_array_add(argv, (char *)karmactl);
	for (; *args; args++)
		g_ptr_array_add(argv, (char *)*args);
	g_ptr_array_add(argv, NULL);
	g_assert_true(g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
				   &out, &err, &status, &error));
	g_assert_no_error(error);
	g_test_message("karmactl %s: stdout: %s; stderr: %s", (const char *)argv->pdata[1], out,
		       err);
	g_assert_true(WIFEXITED(status));
	g_assert_cmpint(WEXITSTATUS(status), ==, code);
	if (err_out)
		*err_out = g_steal_pointer(&err);
	return out;
}

/* karmactl devices [--json]: its standard output; it must exit 0, silently. */
static char *run_devices(gboolean json)
{
	const char *args[] = { "devices", json ? "--json" : NULL, NULL };
	g_autofree char *err = NULL;
	char *out = run_karmactl(args, 0, &err);

	g_assert_cmpstr(err, ==, "");
	return out;
}

static void test_no_player(Fixture *f, gconstpointer data)
{
	g_autofree char *plain = NULL, *json = NULL;

	add_unrelated(f);
	plain = run_devices(FALSE);
	g_assert_cmpstr(plain, ==, "No Rio Karma is connected.\n");
	json = run_devices(TRUE);
	g_assert_cmpstr(json, ==, "[]\n");
}

static void test_one_player(Fixture *f, gconstpointer data)
{
	g_autofree char *plain = NULL, *json = NULL;

	add_karma(f);
	add_unrelated(f);
	plain = run_devices(FALSE);
	g_assert_cmpstr(plain, ==,
			"Rio Karma at USB 1:2, port 1-2, serial 0000000000000000\n"
			"  block device: none (usb-storage does not drive it)\n"
			"  open with: karmactl --usb 1:2 COMMAND\n");
	json = run_devices(TRUE);
	g_assert_cmpstr(json, ==,
			"[\n  {\"bus\": 1, \"address\": 2, \"port\": \"1-2\", "
			"\"serial\": \"0000000000000000\", \"usb_node\": \"/dev/bus/usb/001/002\", "
			"\"block_node\": null, \"access\": \"ok\", \"open\": [\"--usb 1:2\"], "
			"\"hint\": null}\n]\n");
}

static void test_with_block_node(Fixture *f, gconstpointer data)
{
	g_autofree char *plain = NULL, *json = NULL;

	add_karma(f);
	add_storage(f, KARMA, KARMA_DISK, "045a:5210");
	add_unrelated(f);
	plain = run_devices(FALSE);
	g_assert_cmpstr(plain, ==,
			"Rio Karma at USB 1:2, port 1-2, serial 0000000000000000\n"
			"  block device: /dev/sdb\n"
			"  open with: karmactl --usb 1:2 COMMAND\n"
			"  open with: karmactl --device /dev/sdb COMMAND\n");
	json = run_devices(TRUE);
	g_assert_nonnull(strstr(json, "\"block_node\": \"/dev/sdb\", \"access\": \"ok\", "
				      "\"open\": [\"--usb 1:2\", \"--device /dev/sdb\"]"));
}

/*
 * With a mountinfo saying that device maj_min is mounted on /mnt/karma,
 * karmactl args exits with code; its standard output and error.
 */
static char *run_mounted(const char *maj_min, const char *const *args, int code, char **err)
{
	g_autofree char *line = g_strdup_printf("36 22 %s / /mnt/karma rw - omfs /dev/other rw\n",
						maj_min);
	g_autoptr(GError) error = NULL;
	g_autofree char *path = NULL;
	char *out;
	int fd = g_file_open_tmp("km-mountinfo-XXXXXX", &path, &error);

	g_assert_no_error(error);
	g_assert_true(g_file_set_contents(path, line, -1, &error));
	g_assert_no_error(error);
	close(fd);
	g_setenv("KARMACTL_TEST_MOUNTINFO", path, TRUE);
	out = run_karmactl(args, code, err);
	g_unsetenv("KARMACTL_TEST_MOUNTINFO");
	g_unlink(path);
	return out;
}

static const char *const eject[] = { "--device", "/dev/sdb", "eject", NULL };

/* A Karma driven by usb-storage, with its disk sdb (8:16) and partition sdb2 (8:18). */
static void add_karma_with_partition(Fixture *f)
{
	add_karma(f);
	add_storage(f, KARMA, KARMA_DISK, "045a:5210");
	add_records(f, "P: " KARMA_DISK "/sdb2\nN: sdb2\nE: SUBSYSTEM=block\n"
		       "E: DEVTYPE=partition\nE: DEVNAME=/dev/sdb2\nE: MAJOR=8\nE: MINOR=18\n"
		       "A: dev=8:18\nA: partition=2\n");
}

/* The disk usb-storage made, by its node: mounted itself, or through a partition. */
static void test_device_mounted(Fixture *f, gconstpointer data)
{
	g_autofree char *out = NULL, *err = NULL;

	add_karma_with_partition(f);
	out = run_mounted("8:16", eject, 1, &err);
	g_assert_nonnull(strstr(err, "/dev/sdb is mounted on /mnt/karma"));
	g_free(out);
	g_free(err);
	out = run_mounted("8:18", eject, 1, &err);
	g_assert_nonnull(strstr(err, "/dev/sdb is mounted on /mnt/karma"));
	g_free(out);
	g_free(err);
	/* another disk mounted: the node is flushed, and usb-storage keeps the player */
	out = run_mounted("8:32", eject, 0, &err);
	g_assert_cmpstr(err, ==, "");
	g_assert_cmpstr(out, ==, "/dev/sdb: flushed; the kernel's usb-storage still holds the "
				 "player in storage mode: unplug it, or use --usb to make it leave\n");
}

/* --usb would take the player from usb-storage: not while its disk is mounted. */
static void test_usb_mounted(Fixture *f, gconstpointer data)
{
	static const char *const at[] = { "--usb", "1:2", "ls", NULL };
	static const char *const first[] = { "--usb", "ls", NULL };
	static const char *const elsewhere[] = { "--usb", "1:9", "ls", NULL };
	g_autofree char *out = NULL, *err = NULL;

	add_karma_with_partition(f);
	out = run_mounted("8:18", at, 1, &err);
	g_assert_cmpstr(err, ==, "karmactl: ls: USB player 1:2: its disk /dev/sdb is mounted on "
				 "/mnt/karma: unmount it first (taking the player from usb-storage "
				 "would pull the disk from under the kernel's file system)\n");
	g_free(out);
	g_free(err);
	out = run_mounted("8:16", first, 1, &err);
	g_assert_nonnull(strstr(err, "its disk /dev/sdb is mounted on /mnt/karma"));
	g_free(out);
	g_free(err);
	/* another location: not this player's disk (and no player there) */
	out = run_mounted("8:16", elsewhere, 1, &err);
	g_assert_nonnull(strstr(err, "no Rio Karma at USB bus 1 device 9"));
}

/* The USB node only readable, the disk not at all: the udev rule is shown. */
static void check_no_permission(Fixture *f)
{
	static const char *const tracks[] = { "--device", "/dev/sdb", "tracks", NULL };
	g_autofree char *plain = NULL, *json = NULL, *err = NULL;

	add_karma(f);
	add_storage(f, KARMA, KARMA_DISK, "045a:5210");
	chmod_node(f, "dev/sdb", 0);
	chmod_node(f, "dev/bus/usb/001/002", 0444);
	plain = run_devices(FALSE);
	g_assert_true(g_str_has_prefix(plain,
				       "Rio Karma at USB 1:2, port 1-2, serial 0000000000000000\n"
				       "  block device: /dev/sdb\n"
				       "  may not be opened: no-permission\n\n"));
	g_assert_null(strstr(plain, "open with"));
	g_assert_nonnull(strstr(plain, "70-rio-karma.rules"));
	g_assert_nonnull(strstr(plain, km_player_udev_rule()));
	g_assert_nonnull(strstr(plain, "sudo udevadm control --reload"));
	g_free(err);
	g_free(run_karmactl(tracks, 1, &err));
	g_assert_nonnull(strstr(err, "/dev/sdb: Permission denied"));
	g_assert_nonnull(strstr(err, km_player_udev_rule()));
	json = run_devices(TRUE);
	g_assert_nonnull(strstr(json, "\"access\": \"no-permission\", \"open\": [], "
				      "\"hint\": \"You are not allowed"));
	g_assert_nonnull(strstr(json, "TAG+=\\\"uaccess\\\"\\n"));

	/* the rule applied to the disk only */
	chmod_node(f, "dev/sdb", 0600);
	g_free(plain);
	plain = run_devices(FALSE);
	g_assert_nonnull(strstr(plain, "  open with: karmactl --device /dev/sdb COMMAND\n"));
	g_assert_null(strstr(plain, "--usb"));
	g_assert_null(strstr(plain, "udev"));
}

static void test_no_permission(void)
{
	run_unprivileged(check_no_permission, 60);
}

#define ADD(path, fn) \
	g_test_add(path, Fixture, NULL, fixture_setup, fn, fixture_teardown)

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	if (argc == 2)
		g_setenv("KM_TEST_KARMACTL", argv[1], TRUE);
	karmactl = g_getenv("KM_TEST_KARMACTL");
	g_assert_nonnull(karmactl);
	ADD("/devices-cli/no-player", test_no_player);
	ADD("/devices-cli/one-player", test_one_player);
	ADD("/devices-cli/with-block-node", test_with_block_node);
	ADD("/devices-cli/device-mounted", test_device_mounted);
	ADD("/devices-cli/usb-mounted", test_usb_mounted);
	g_test_add_func("/devices-cli/no-permission", test_no_permission);
	return g_test_run();
}
