/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-hotplug.c - the window and KmDeviceMonitor under umockdev (run through
 * umockdev-wrapper, inside Xvfb): a Rio Karma whose disk holds a demo image
 * is plugged in and the player view opens by itself; it is unplugged and the
 * start page comes back and says so. Inside Flatpak's way: no uevents and no
 * timer, a Karma plugged in is found through the (mock) USB portal's device
 * event and asked of the portal (whose user refuses here). The devices are tests/hotplug's.
 */
#include "km-test-util.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "hotplug-testbed.h"
#include "km-demo.h"
#include "km-karma-image.h"
#include "km-window-private.h"
#include "mock-usb-portal.h"

#define N_TRACKS 3

/* Copies the file at from into the fake disk node (a plain file in the testbed). */
static void fill_node(Fixture *f, const char *node, const char *from)
{
	g_autofree char *root = umockdev_testbed_get_root_dir(f->tb);
	g_autofree char *path = g_build_filename(root, "dev", node, NULL);
	g_autofree char *data = NULL;
	gsize len = 0;
	int fd;

	g_assert_true(g_file_get_contents(from, &data, &len, NULL));
	fd = open(path, O_WRONLY | O_TRUNC);
	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(write(fd, data, len), ==, (gssize)len);
	g_assert_cmpint(close(fd), ==, 0);
}

static void test_plug_and_unplug(void)
{
	Fixture f = { 0 };
	g_autofree char *dir = g_dir_make_tmp("km-hotplug-XXXXXX", NULL);
	g_autofree char *image = g_build_filename(dir, "karma.img", NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(GSettings) settings = g_settings_new("io.github.karmamanager.KarmaManager");
	KmPlayerView *pv;
	KmWindow *win;

	g_assert_true(km_demo_create_image(image, KM_KARMA_IMAGE_MIN_SIZE, N_TRACKS, NULL,
					   &error));
	g_assert_no_error(error);
	fixture_setup(&f, NULL);
	win = g_object_ref(km_window_new(NULL));
	gtk_window_present(GTK_WINDOW(win));
	f.mon = g_object_new(KM_TYPE_DEVICE_MONITOR, "uevents", TRUE, NULL);
	km_window_set_device_monitor(win, f.mon);
	g_assert_null(km_window_get_player_view(win));

	/* plugged in: usb-storage makes its disk, which holds the image */
	add_karma(&f);
	add_storage(&f, KARMA, KARMA_DISK, "045a:5210");
	fill_node(&f, "sdb", image);
	km_test_wait_until(km_window_get_player_view(win) != NULL);
	km_test_wait_until(g_list_model_get_n_items(km_session_get_tracks(km_test_session(win))) ==
			   N_TRACKS);
	/* it could be opened: the start page had no udev rule to show */
	g_assert_false(gtk_widget_get_visible(win->permission_box));

	/* a track deleted, its undo toast still up (confirmations off) */
	g_settings_set_boolean(settings, "confirm-delete", FALSE);
	pv = km_test_player_view(win);
	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	km_test_select(pv, km_test_first_track_row(pv));
	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), "player.delete", NULL));
	g_assert_cmpuint(km_player_view_get_n_uncommitted_deletes(pv), ==, 1);

	/* unplugged while idle: the start page, saying so, and that the track stayed */
	unplug(&f, SYS(KARMA_DISK));
	unplug(&f, SYS(KARMA));
	km_test_wait_until(km_window_get_player_view(win) == NULL);
	g_assert_nonnull(km_window_get_message(win));
	g_assert_nonnull(strstr(km_window_get_message(win), "was unplugged"));
	g_assert_nonnull(strstr(km_window_get_message(win),
				"The track deleted last is still on the player."));
	g_settings_reset(settings, "confirm-delete");

	km_test_close_window(win);
	fixture_teardown(&f, NULL);
	g_assert_cmpint(g_remove(image), ==, 0);
	g_assert_cmpint(g_rmdir(dir), ==, 0);
}

static void on_done(GObject *source, GAsyncResult *res, gpointer user_data)
{
	(void)source;
	*(GAsyncResult **)user_data = g_object_ref(res);
}

/* The portal on the test's session bus, from a connection of its own. */
static GDBusConnection *service_connection(void)
{
	g_autoptr(GError) error = NULL;
	GDBusConnection *c = g_dbus_connection_new_for_address_sync(
		g_getenv("DBUS_SESSION_BUS_ADDRESS"),
		G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
		G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION, NULL, NULL, &error);

	g_assert_no_error(error);
	return c;
}

static void test_portal(void)
{
	Fixture f = { 0 };
	g_autoptr(GDBusConnection) service = service_connection();
	g_autoptr(GDBusConnection) bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, NULL);
	g_autoptr(GAsyncResult) res = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(KmUsbPortal) portal = NULL;
	MockUsbPortal *mock = mock_usb_portal_new(service, TRUE);
	KmWindow *win;

	/* the fd's way is test-usb-portal's and test-usb-libusb's (open-fd) */
	mock_usb_portal_set_answer(mock, 1, NULL);
	fixture_setup(&f, NULL);
	win = g_object_ref(km_window_new(NULL));
	gtk_window_present(GTK_WINDOW(win));
	/* as inside Flatpak with the portal: no uevents, no rescan timer */
	f.mon = g_object_new(KM_TYPE_DEVICE_MONITOR, "uevents", FALSE, NULL);
	g_assert_cmpuint(km_device_monitor_get_rescan_interval(f.mon), ==, 0);
	km_window_set_device_monitor(win, f.mon);
	km_usb_portal_new_async(bus, NULL, on_done, &res);
	km_test_wait_until(res != NULL);
	portal = km_usb_portal_new_finish(res, &error);
	g_assert_no_error(error);
	km_window_set_usb_portal(win, portal);

	/* plugged in: only the portal's event can tell the window */
	add_karma(&f);
	settle();
	g_assert_cmpuint(mock_usb_portal_get_n_acquired(mock), ==, 0);
	mock_usb_portal_add(mock, "karma1", "/dev/bus/usb/001/002", "045a", "5210");
	/* found, and asked of the portal, whose user says no: nothing opened, a toast */
	km_test_wait_until(mock_usb_portal_get_n_acquired(mock) == 1);
	g_assert_false(gtk_widget_get_visible(win->permission_box));
	km_test_wait_until(win->hotplug_path == NULL);
	g_assert_null(km_window_get_player_view(win));

	km_test_close_window(win);
	fixture_teardown(&f, NULL);
	mock_usb_portal_free(mock);
}

int main(int argc, char **argv)
{
	km_test_init(&argc, &argv);
	g_test_add_func("/app/hotplug/plug-and-unplug", test_plug_and_unplug);
	g_test_add_func("/app/hotplug/usb-portal", test_portal);
	return g_test_run();
}
