/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-hotplug.c - the window and KmDeviceMonitor under umockdev (run through
 * umockdev-wrapper, inside Xvfb): a Rio Karma whose disk holds a demo image
 * is plugged in and the player view opens by itself; it is unplugged and the
 * start page comes back and says so. The devices are tests/hotplug's.
 */
#include "km-test-util.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "hotplug-testbed.h"
#include "km-demo.h"
#include "km-karma-image.h"

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

int main(int argc, char **argv)
{
	km_test_init(&argc, &argv);
	g_test_add_func("/app/hotplug/plug-and-unplug", test_plug_and_unplug);
	return g_test_run();
}
