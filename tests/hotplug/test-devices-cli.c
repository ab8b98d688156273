/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-devices-cli.c - `karmactl devices` against a mock sysfs and udev
 * (umockdev): no player, a player, one driven by usb-storage with its disk,
 * one whose nodes we may not open. karmactl runs as a child and inherits
 * the testbed (UMOCKDEV_DIR) and the preload from this process.
 * Arguments: the karmactl executable (handed to the subprocess of the
 * permission test, which gets no arguments, in KM_TEST_KARMACTL).
 */
#include <string.h>
#include <sys/wait.h>

#include "hotplug-testbed.h"

static const char *karmactl;

/* karmactl devices [--json]: its standard output; it must exit 0, silently. */
static char *run_devices(gboolean json)
{
	const char *argv[] = { karmactl, "devices", json ? "--json" : NULL, NULL };
	g_autoptr(GError) error = NULL;
	g_autofree char *err = NULL;
	char *out = NULL;
	int status;

	g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
				   &err, &status, &error));
	g_assert_no_error(error);
	g_test_message("karmactl devices: stdout: %s; stderr: %s", out, err);
	g_assert_true(WIFEXITED(status));
	g_assert_cmpint(WEXITSTATUS(status), ==, 0);
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

/* The USB node only readable, the disk not at all: the udev rule is shown. */
static void check_no_permission(Fixture *f)
{
	g_autofree char *plain = NULL, *json = NULL;

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
	Fixture f = { 0 };

	if (!g_test_subprocess()) {
		g_test_trap_subprocess(NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
		g_test_trap_assert_passed();
		return;
	}
	drop_privileges();
	fixture_setup(&f, NULL);
	check_no_permission(&f);
	fixture_teardown(&f, NULL);
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
	g_test_add_func("/devices-cli/no-permission", test_no_permission);
	return g_test_run();
}
