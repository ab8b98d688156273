/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mock-usb-portal.c - the USB portal stand-in of mock-usb-portal.h, written
 * from xdg-desktop-portal's data/org.freedesktop.portal.Usb.xml (version 1)
 * and its Request convention (the handle .../request/SENDER/TOKEN).
 */
#include "mock-usb-portal.h"

#include <fcntl.h>
#include <gio/gunixfdlist.h>
#include <unistd.h>

#define PORTAL_PATH "/org/freedesktop/portal/desktop"

static const char usb_xml[] =
	"<node>"
	" <interface name='org.freedesktop.portal.Usb'>"
	"  <method name='CreateSession'>"
	"   <arg type='a{sv}' direction='in'/><arg type='o' direction='out'/></method>"
	"  <method name='EnumerateDevices'>"
	"   <arg type='a{sv}' direction='in'/><arg type='a(sa{sv})' direction='out'/></method>"
	"  <method name='AcquireDevices'>"
	"   <arg type='s' direction='in'/><arg type='a(sa{sv})' direction='in'/>"
	"   <arg type='a{sv}' direction='in'/><arg type='o' direction='out'/></method>"
	"  <method name='FinishAcquireDevices'>"
	"   <arg type='o' direction='in'/><arg type='a{sv}' direction='in'/>"
	"   <arg type='a(sa{sv})' direction='out'/><arg type='b' direction='out'/></method>"
	"  <signal name='DeviceEvents'><arg type='o'/><arg type='a(ssa{sv})'/></signal>"
	"  <property name='version' type='u' access='read'/>"
	" </interface>"
	" <interface name='org.freedesktop.portal.Other'>"
	"  <property name='version' type='u' access='read'/>"
	" </interface>"
	"</node>";

struct MockUsbPortal {
	GDBusConnection *bus;
	GDBusNodeInfo *info;
	guint object_id, name_id;
	GHashTable *devices;	/* id -> device vardict (GVariant) */
	char *session;		/* the last session created, NULL before */
	char *acquiring;	/* the id being acquired */
	guint response;
	char *file;
	guint n_acquired;
};

static GVariant *device_info(const char *node, const char *vendor_id, const char *model_id)
{
	GVariantDict props, dev;

	g_variant_dict_init(&props, NULL);
	g_variant_dict_insert(&props, "ID_VENDOR_ID", "s", vendor_id);
	g_variant_dict_insert(&props, "ID_MODEL_ID", "s", model_id);
	g_variant_dict_init(&dev, NULL);
	g_variant_dict_insert(&dev, "device-file", "s", node);
	g_variant_dict_insert(&dev, "readable", "b", TRUE);
	g_variant_dict_insert(&dev, "writable", "b", TRUE);
	g_variant_dict_insert_value(&dev, "properties", g_variant_dict_end(&props));
	return g_variant_ref_sink(g_variant_dict_end(&dev));
}

static void emit_event(MockUsbPortal *p, const char *action, const char *id, GVariant *dev)
{
	GVariantBuilder events;

	if (!p->session)
		return;
	g_variant_builder_init(&events, G_VARIANT_TYPE("a(ssa{sv})"));
	g_variant_builder_add(&events, "(ss@a{sv})", action, id,
			      dev ? dev : g_variant_new("a{sv}", NULL));
	g_dbus_connection_emit_signal(p->bus, NULL, PORTAL_PATH, "org.freedesktop.portal.Usb",
				      "DeviceEvents", g_variant_new("(oa(ssa{sv}))", p->session,
								    &events), NULL);
}

void mock_usb_portal_add(MockUsbPortal *p, const char *id, const char *node,
			 const char *vendor_id, const char *model_id)
{
	GVariant *dev = device_info(node, vendor_id, model_id);

	g_hash_table_replace(p->devices, g_strdup(id), dev);
	emit_event(p, "add", id, dev);
}

void mock_usb_portal_remove(MockUsbPortal *p, const char *id)
{
	g_hash_table_remove(p->devices, id);
	emit_event(p, "remove", id, NULL);
}

void mock_usb_portal_set_answer(MockUsbPortal *p, guint response, const char *file)
{
	p->response = response;
	g_free(p->file);
	p->file = g_strdup(file);
}

guint mock_usb_portal_get_n_acquired(MockUsbPortal *p)
{
	return p->n_acquired;
}

/* .../KIND/SENDER/TOKEN, SENDER the caller's unique name without ':' and with '_' for '.'. */
static char *handle_path(const char *kind, const char *sender, GVariant *options,
			 const char *token_key)
{
	g_autofree char *who = g_strdup(sender + 1);
	const char *token = "t";

	g_variant_lookup(options, token_key, "&s", &token);
	g_strdelimit(who, ".", '_');
	return g_strdup_printf(PORTAL_PATH "/%s/%s/%s", kind, who, token);
}

static GVariant *enumerate(MockUsbPortal *p)
{
	GVariantBuilder list;
	GHashTableIter iter;
	gpointer id, dev;

	g_variant_builder_init(&list, G_VARIANT_TYPE("a(sa{sv})"));
	g_hash_table_iter_init(&iter, p->devices);
	while (g_hash_table_iter_next(&iter, &id, &dev))
		g_variant_builder_add(&list, "(s@a{sv})", (char *)id, (GVariant *)dev);
	return g_variant_new("(a(sa{sv}))", &list);
}

static void acquire(MockUsbPortal *p, GDBusMethodInvocation *inv, GVariant *params)
{
	const char *sender = g_dbus_method_invocation_get_sender(inv);
	g_autoptr(GVariant) devices = NULL, options = NULL;
	g_autofree char *handle = NULL;
	GVariantDict answer;

	g_variant_get(params, "(&s@a(sa{sv})@a{sv})", NULL, &devices, &options);
	p->n_acquired++;
	g_free(p->acquiring);
	g_variant_get_child(devices, 0, "(s@a{sv})", &p->acquiring, NULL);
	handle = handle_path("request", sender, options, "handle_token");
	g_dbus_method_invocation_return_value(inv, g_variant_new("(o)", handle));
	g_variant_dict_init(&answer, NULL);
	g_dbus_connection_emit_signal(p->bus, sender, handle, "org.freedesktop.portal.Request",
				      "Response", g_variant_new("(u@a{sv})", p->response,
								g_variant_dict_end(&answer)),
				      NULL);
}

static void finish_acquire(MockUsbPortal *p, GDBusMethodInvocation *inv)
{
	g_autoptr(GUnixFDList) fds = g_unix_fd_list_new();
	GVariantBuilder results;
	GVariantDict result;
	int fd = p->file ? open(p->file, O_RDWR | O_CLOEXEC) : -1;

	g_variant_dict_init(&result, NULL);
	g_variant_dict_insert(&result, "success", "b", fd >= 0);
	if (fd >= 0) {
		g_variant_dict_insert(&result, "fd", "h", g_unix_fd_list_append(fds, fd, NULL));
		close(fd);
	} else {
		g_variant_dict_insert(&result, "error", "s", "Device is busy");
	}
	g_variant_builder_init(&results, G_VARIANT_TYPE("a(sa{sv})"));
	g_variant_builder_add(&results, "(s@a{sv})", p->acquiring, g_variant_dict_end(&result));
	g_dbus_method_invocation_return_value_with_unix_fd_list(
		inv, g_variant_new("(a(sa{sv})b)", &results, TRUE), fds);
}

static void on_call(GDBusConnection *bus, const char *sender, const char *path,
		    const char *iface, const char *method, GVariant *params,
		    GDBusMethodInvocation *inv, gpointer user_data)
{
	MockUsbPortal *p = user_data;
	g_autoptr(GVariant) options = NULL;

	(void)bus;
	(void)path;
	(void)iface;
	if (g_strcmp0(method, "CreateSession") == 0) {
		g_variant_get(params, "(@a{sv})", &options);
		g_free(p->session);
		p->session = handle_path("session", sender, options, "session_handle_token");
		g_dbus_method_invocation_return_value(inv, g_variant_new("(o)", p->session));
	} else if (g_strcmp0(method, "EnumerateDevices") == 0) {
		g_dbus_method_invocation_return_value(inv, enumerate(p));
	} else if (g_strcmp0(method, "AcquireDevices") == 0) {
		acquire(p, inv, params);
	} else {
		finish_acquire(p, inv);
	}
}

static GVariant *on_get(GDBusConnection *bus, const char *sender, const char *path,
			const char *iface, const char *name, GError **error, gpointer user_data)
{
	(void)bus;
	(void)sender;
	(void)path;
	(void)iface;
	(void)name;
	(void)error;
	(void)user_data;
	return g_variant_new_uint32(1);
}

static const GDBusInterfaceVTable vtable = { on_call, on_get, NULL, { 0 } };

static void on_name_acquired(GDBusConnection *bus, const char *name, gpointer user_data)
{
	(void)bus;
	(void)name;
	*(gboolean *)user_data = TRUE;
}

/* A real portal on the test's bus would answer instead of the mock. */
static void on_name_lost(GDBusConnection *bus, const char *name, gpointer user_data)
{
	(void)bus;
	(void)user_data;
	g_error("the mock USB portal could not own %s: is a real portal running?", name);
}

MockUsbPortal *mock_usb_portal_new(GDBusConnection *bus, gboolean with_usb)
{
	MockUsbPortal *p = g_new0(MockUsbPortal, 1);
	g_autoptr(GError) error = NULL;
	gboolean owned = FALSE;

	p->bus = g_object_ref(bus);
	p->devices = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   (GDestroyNotify)g_variant_unref);
	p->info = g_dbus_node_info_new_for_xml(usb_xml, &error);
	g_assert_no_error(error);
	p->object_id = g_dbus_connection_register_object(
		bus, PORTAL_PATH, p->info->interfaces[with_usb ? 0 : 1], &vtable, p, NULL, &error);
	g_assert_no_error(error);
	p->name_id = g_bus_own_name_on_connection(bus, "org.freedesktop.portal.Desktop",
						  G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE,
						  on_name_acquired, on_name_lost, &owned, NULL);
	while (!owned)
		g_main_context_iteration(NULL, TRUE);
	return p;
}

void mock_usb_portal_free(MockUsbPortal *p)
{
	g_bus_unown_name(p->name_id);
	g_dbus_connection_unregister_object(p->bus, p->object_id);
	g_dbus_node_info_unref(p->info);
	g_hash_table_unref(p->devices);
	g_object_unref(p->bus);
	g_free(p->session);
	g_free(p->acquiring);
	g_free(p->file);
	g_free(p);
}
