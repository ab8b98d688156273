/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-usb-portal.c - KmUsbPortal against the mock USB portal on a private
 * bus (GTestDBus): no portal and a portal without the USB interface are told
 * apart from one with it; the players it lists, by their udev properties; its
 * DeviceEvents; acquiring an fd, refused by the user, failed in the portal,
 * and for a node it does not show.
 */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "km-usb-portal.h"
#include "mock-usb-portal.h"

#define KARMA_NODE "/dev/bus/usb/002/009"
#define MOUSE_NODE "/dev/bus/usb/001/003"

typedef struct {
	GTestDBus *dbus;
	GDBusConnection *service, *client;
	MockUsbPortal *mock;
} Fixture;

static GDBusConnection *connect_bus(GTestDBus *dbus)
{
	g_autoptr(GError) error = NULL;
	GDBusConnection *c = g_dbus_connection_new_for_address_sync(
		g_test_dbus_get_bus_address(dbus),
		G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
		G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION, NULL, NULL, &error);

	g_assert_no_error(error);
	return c;
}

/* with_mock: 0 no portal, 1 one without the USB interface, 2 the USB portal. */
static void setup(Fixture *f, int with_mock)
{
	f->dbus = g_test_dbus_new(G_TEST_DBUS_NONE);
	g_test_dbus_up(f->dbus);
	f->service = connect_bus(f->dbus);
	f->client = connect_bus(f->dbus);
	if (with_mock)
		f->mock = mock_usb_portal_new(f->service, with_mock == 2);
}

static void teardown(Fixture *f)
{
	g_clear_pointer(&f->mock, mock_usb_portal_free);
	g_dbus_connection_close_sync(f->client, NULL, NULL);
	g_dbus_connection_close_sync(f->service, NULL, NULL);
	g_clear_object(&f->client);
	g_clear_object(&f->service);
	g_test_dbus_down(f->dbus);
	g_clear_object(&f->dbus);
}

static void on_done(GObject *source, GAsyncResult *res, gpointer user_data)
{
	(void)source;
	*(GAsyncResult **)user_data = g_object_ref(res);
}

static GAsyncResult *wait_for(GAsyncResult **res)
{
	while (!*res)
		g_main_context_iteration(NULL, TRUE);
	return *res;
}

static KmUsbPortal *new_portal(Fixture *f, GError **error)
{
	g_autoptr(GAsyncResult) res = NULL;

	km_usb_portal_new_async(f->client, NULL, on_done, &res);
	return km_usb_portal_new_finish(wait_for(&res), error);
}

static int acquire(KmUsbPortal *portal, const char *node, GError **error)
{
	g_autoptr(GAsyncResult) res = NULL;

	km_usb_portal_acquire_async(portal, node, NULL, on_done, &res);
	return km_usb_portal_acquire_finish(portal, wait_for(&res), error);
}

static void test_no_portal(void)
{
	for (int with_mock = 0; with_mock < 2; with_mock++) {
		Fixture f = { 0 };
		g_autoptr(GError) error = NULL;
		KmUsbPortal *portal;

		setup(&f, with_mock);
		portal = new_portal(&f, &error);
		g_assert_null(portal);
		g_assert_error(error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
		teardown(&f);
	}
}

static void test_enumerate(void)
{
	Fixture f = { 0 };
	g_autoptr(GError) error = NULL;
	g_autoptr(KmUsbPortal) portal = NULL;

	setup(&f, 2);
	mock_usb_portal_add(f.mock, "d1", KARMA_NODE, "045a", "5210");
	mock_usb_portal_add(f.mock, "d2", MOUSE_NODE, "046d", "c077");
	mock_usb_portal_add(f.mock, "d3", "/dev/bus/usb/001/004", "045a", "5224");
	portal = new_portal(&f, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(km_usb_portal_get_n_players(portal), ==, 1);
	g_assert_true(km_usb_portal_has_node(portal, KARMA_NODE));
	g_assert_false(km_usb_portal_has_node(portal, MOUSE_NODE));
	g_clear_object(&portal);
	teardown(&f);
}

static void on_changed(KmUsbPortal *portal, gpointer user_data)
{
	(void)portal;
	(*(guint *)user_data)++;
}

/* Lets the signals in flight arrive. */
static void settle(Fixture *f)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = g_dbus_connection_call_sync(
		f->client, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
		"GetId", NULL, NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);

	g_assert_no_error(error);
	g_assert_nonnull(reply);
	while (g_main_context_iteration(NULL, FALSE))
		;
}

static void test_events(void)
{
	Fixture f = { 0 };
	g_autoptr(GError) error = NULL;
	g_autoptr(KmUsbPortal) portal = NULL;
	guint changes = 0;

	setup(&f, 2);
	portal = new_portal(&f, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(km_usb_portal_get_n_players(portal), ==, 0);
	g_signal_connect(portal, "changed", G_CALLBACK(on_changed), &changes);

	mock_usb_portal_add(f.mock, "d2", MOUSE_NODE, "046d", "c077");
	settle(&f);
	g_assert_cmpuint(changes, ==, 0);	/* not a player: nothing to say */

	mock_usb_portal_add(f.mock, "d1", KARMA_NODE, "045a", "5210");
	while (changes < 1)
		g_main_context_iteration(NULL, TRUE);
	g_assert_cmpuint(km_usb_portal_get_n_players(portal), ==, 1);
	g_assert_true(km_usb_portal_has_node(portal, KARMA_NODE));

	mock_usb_portal_remove(f.mock, "d2");
	mock_usb_portal_remove(f.mock, "d1");
	while (changes < 2)
		g_main_context_iteration(NULL, TRUE);
	settle(&f);
	g_assert_cmpuint(changes, ==, 2);
	g_assert_cmpuint(km_usb_portal_get_n_players(portal), ==, 0);
	g_assert_false(km_usb_portal_has_node(portal, KARMA_NODE));
	g_clear_object(&portal);
	teardown(&f);
}

static void test_acquire(void)
{
	Fixture f = { 0 };
	g_autoptr(GError) error = NULL;
	g_autoptr(KmUsbPortal) portal = NULL;
	g_autofree char *dir = g_dir_make_tmp("km-portal-XXXXXX", NULL);
	g_autofree char *node = g_build_filename(dir, "node", NULL);
	char buf[16] = "";
	int fd;

	g_assert_true(g_file_set_contents(node, "the karma", -1, NULL));
	setup(&f, 2);
	mock_usb_portal_add(f.mock, "d1", KARMA_NODE, "045a", "5210");
	portal = new_portal(&f, &error);
	g_assert_no_error(error);

	/* allowed: the fd is the node the portal opened */
	mock_usb_portal_set_answer(f.mock, 0, node);
	fd = acquire(portal, KARMA_NODE, &error);
	g_assert_no_error(error);
	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(read(fd, buf, sizeof(buf) - 1), ==, 9);
	g_assert_cmpstr(buf, ==, "the karma");
	g_assert_cmpint(close(fd), ==, 0);

	/* the user said no */
	mock_usb_portal_set_answer(f.mock, 1, node);
	fd = acquire(portal, KARMA_NODE, &error);
	g_assert_cmpint(fd, ==, -1);
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
	g_clear_error(&error);

	/* allowed, but the portal could not open it: its reason is passed on */
	mock_usb_portal_set_answer(f.mock, 0, NULL);
	fd = acquire(portal, KARMA_NODE, &error);
	g_assert_cmpint(fd, ==, -1);
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_FAILED);
	g_assert_nonnull(strstr(error->message, "Device is busy"));
	g_clear_error(&error);
	g_assert_cmpuint(mock_usb_portal_get_n_acquired(f.mock), ==, 3);

	/* a node it does not show: the portal is not asked */
	fd = acquire(portal, MOUSE_NODE, &error);
	g_assert_cmpint(fd, ==, -1);
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
	g_assert_cmpuint(mock_usb_portal_get_n_acquired(f.mock), ==, 3);

	g_clear_object(&portal);
	teardown(&f);
	g_assert_cmpint(g_remove(node), ==, 0);
	g_assert_cmpint(g_rmdir(dir), ==, 0);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/usb-portal/no-portal", test_no_portal);
	g_test_add_func("/usb-portal/enumerate", test_enumerate);
	g_test_add_func("/usb-portal/events", test_events);
	g_test_add_func("/usb-portal/acquire", test_acquire);
	return g_test_run();
}
