/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-usb-portal.c - KmUsbPortal: a client of org.freedesktop.portal.Usb
 * (xdg-desktop-portal's data/org.freedesktop.portal.Usb.xml, version 1).
 *
 * Start: CreateSession (DeviceEvents only come to a session), then
 * EnumerateDevices. The known players are kept as portal device id ->
 * device file; a DeviceEvents signal updates them and emits "changed" when
 * one concerned a player. Acquiring is the portal's request dance:
 * AcquireDevices returns a Request whose Response says whether the user
 * allowed it, then FinishAcquireDevices hands over the fd.
 */
#include "km-usb-portal.h"

#include <gio/gunixfdlist.h>
#include <glib/gi18n.h>

#include "km-usb-transport.h"

#define PORTAL_NAME "org.freedesktop.portal.Desktop"
#define PORTAL_PATH "/org/freedesktop/portal/desktop"
#define USB_INTERFACE "org.freedesktop.portal.Usb"
#define REQUEST_INTERFACE "org.freedesktop.portal.Request"

struct _KmUsbPortal {
	GObject parent_instance;
	GDBusProxy *proxy;
	char *session;		/* the session's object path */
	GHashTable *players;	/* portal device id -> device file */
	guint token_serial;	/* makes each request's handle token unique */
};

G_DEFINE_FINAL_TYPE(KmUsbPortal, km_usb_portal, G_TYPE_OBJECT)

enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* A Rio Karma by the udev properties the portal passes on (045a:5210). */
static gboolean is_karma(GVariant *device)
{
	g_autoptr(GVariant) props = g_variant_lookup_value(device, "properties",
							   G_VARIANT_TYPE_VARDICT);
	g_autofree char *vendor = g_strdup_printf("%04x", KM_KARMA_VENDOR_ID);
	g_autofree char *model = g_strdup_printf("%04x", KM_KARMA_PRODUCT_ID);
	const char *v = NULL, *m = NULL;

	return props && g_variant_lookup(props, "ID_VENDOR_ID", "&s", &v) &&
	       g_variant_lookup(props, "ID_MODEL_ID", "&s", &m) &&
	       g_ascii_strcasecmp(v, vendor) == 0 && g_ascii_strcasecmp(m, model) == 0;
}

/* Knows the device id as a player when it is one; TRUE when it is. */
static gboolean add_device(KmUsbPortal *self, const char *id, GVariant *device)
{
	const char *file = NULL;

	if (!is_karma(device) || !g_variant_lookup(device, "device-file", "&s", &file))
		return FALSE;
	g_hash_table_replace(self->players, g_strdup(id), g_strdup(file));
	return TRUE;
}

static void on_device_events(KmUsbPortal *self, GVariant *params)
{
	g_autoptr(GVariantIter) events = NULL;
	const char *session, *action, *id;
	GVariant *device;
	gboolean changed = FALSE;

	if (!g_variant_is_of_type(params, G_VARIANT_TYPE("(oa(ssa{sv}))")))
		return;
	g_variant_get(params, "(&oa(ssa{sv}))", &session, &events);
	if (g_strcmp0(session, self->session) != 0)
		return;
	while (g_variant_iter_next(events, "(&s&s@a{sv})", &action, &id, &device)) {
		/* a removed device may come without its properties: known by id */
		if (g_strcmp0(action, "remove") == 0)
			changed |= g_hash_table_remove(self->players, id);
		else
			changed |= add_device(self, id, device);
		g_variant_unref(device);
	}
	if (changed)
		g_signal_emit(self, signals[CHANGED], 0);
}

static void on_proxy_signal(GDBusProxy *proxy, const char *sender, const char *name,
			    GVariant *params, gpointer user_data)
{
	(void)proxy;
	(void)sender;
	if (g_strcmp0(name, "DeviceEvents") == 0)
		on_device_events(user_data, params);
}

guint km_usb_portal_get_n_players(KmUsbPortal *self)
{
	g_return_val_if_fail(KM_IS_USB_PORTAL(self), 0);
	return g_hash_table_size(self->players);
}

/* The portal's id of the player at node, or NULL. */
static const char *id_of_node(KmUsbPortal *self, const char *node)
{
	GHashTableIter iter;
	gpointer id, file;

	g_hash_table_iter_init(&iter, self->players);
	while (g_hash_table_iter_next(&iter, &id, &file)) {
		if (g_strcmp0(file, node) == 0)
			return id;
	}
	return NULL;
}

gboolean km_usb_portal_has_node(KmUsbPortal *self, const char *node)
{
	g_return_val_if_fail(KM_IS_USB_PORTAL(self), FALSE);
	return id_of_node(self, node) != NULL;
}

/* A handle or session token, unique in this process. */
static char *new_token(KmUsbPortal *self)
{
	return g_strdup_printf("karma_manager_%u", ++self->token_serial);
}

/* ---- creation: proxy, CreateSession, EnumerateDevices ---- */

static void on_enumerated(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autoptr(GTask) task = user_data;
	KmUsbPortal *self = g_task_get_task_data(task);
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = g_dbus_proxy_call_finish(G_DBUS_PROXY(source), res, &error);
	g_autoptr(GVariantIter) devices = NULL;
	const char *id;
	GVariant *device;

	if (!reply) {
		g_task_return_error(task, g_steal_pointer(&error));
		return;
	}
	g_variant_get(reply, "(a(sa{sv}))", &devices);
	while (g_variant_iter_next(devices, "(&s@a{sv})", &id, &device)) {
		add_device(self, id, device);
		g_variant_unref(device);
	}
	g_task_return_pointer(task, g_object_ref(self), g_object_unref);
}

static void on_session_created(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autoptr(GTask) task = user_data;
	KmUsbPortal *self = g_task_get_task_data(task);
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = g_dbus_proxy_call_finish(G_DBUS_PROXY(source), res, &error);
	GCancellable *cancellable;

	if (!reply) {
		g_task_return_error(task, g_steal_pointer(&error));
		return;
	}
	g_variant_get(reply, "(o)", &self->session);
	cancellable = g_task_get_cancellable(task);
	g_dbus_proxy_call(self->proxy, "EnumerateDevices", g_variant_new("(a{sv})", NULL),
			  G_DBUS_CALL_FLAGS_NONE, -1, cancellable, on_enumerated,
			  g_steal_pointer(&task));
}

static void on_proxy_ready(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autoptr(GTask) task = user_data;
	KmUsbPortal *self = g_task_get_task_data(task);
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) version = NULL;
	g_autoptr(GVariantBuilder) options = g_variant_builder_new(G_VARIANT_TYPE_VARDICT);
	g_autofree char *token = NULL;
	GCancellable *cancellable;

	(void)source;
	self->proxy = g_dbus_proxy_new_finish(res, &error);
	if (!self->proxy) {
		g_task_return_error(task, g_steal_pointer(&error));
		return;
	}
	/* Without the interface (or without a portal) the property is not there. */
	version = g_dbus_proxy_get_cached_property(self->proxy, "version");
	if (!version) {
		g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
					"there is no USB portal");
		return;
	}
	g_signal_connect_object(self->proxy, "g-signal", G_CALLBACK(on_proxy_signal), self, 0);
	token = new_token(self);
	g_variant_builder_add(options, "{sv}", "session_handle_token", g_variant_new_string(token));
	cancellable = g_task_get_cancellable(task);
	g_dbus_proxy_call(self->proxy, "CreateSession", g_variant_new("(a{sv})", options),
			  G_DBUS_CALL_FLAGS_NONE, -1, cancellable, on_session_created,
			  g_steal_pointer(&task));
}

void km_usb_portal_new_async(GDBusConnection *bus, GCancellable *cancellable,
			     GAsyncReadyCallback callback, gpointer user_data)
{
	GTask *task = g_task_new(NULL, cancellable, callback, user_data);

	g_return_if_fail(G_IS_DBUS_CONNECTION(bus));
	g_task_set_source_tag(task, km_usb_portal_new_async);
	g_task_set_task_data(task, g_object_new(KM_TYPE_USB_PORTAL, NULL), g_object_unref);
	g_dbus_proxy_new(bus, G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START_AT_CONSTRUCTION, NULL,
			 PORTAL_NAME, PORTAL_PATH, USB_INTERFACE, cancellable, on_proxy_ready, task);
}

KmUsbPortal *km_usb_portal_new_finish(GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(g_task_is_valid(result, NULL), NULL);
	return g_task_propagate_pointer(G_TASK(result), error);
}

/* ---- acquiring: AcquireDevices, Request::Response, FinishAcquireDevices ---- */

typedef struct {
	char *id;
	char *handle;		/* the request's object path */
	guint response_id;	/* the Response subscription, 0 once answered */
} Acquire;

static void acquire_free(gpointer data)
{
	Acquire *a = data;

	g_free(a->id);
	g_free(a->handle);
	g_free(a);
}

static void unsubscribe(GTask *task)
{
	Acquire *a = g_task_get_task_data(task);
	KmUsbPortal *self = g_task_get_source_object(task);

	if (a->response_id)
		g_dbus_connection_signal_unsubscribe(g_dbus_proxy_get_connection(self->proxy),
						     a->response_id);
	a->response_id = 0;
}

static void finish_acquire(GTask *task);

/* Our device's entry in FinishAcquireDevices' results: the fd, or why not. */
static void on_finished(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autoptr(GTask) task = user_data;
	Acquire *a = g_task_get_task_data(task);
	g_autoptr(GError) error = NULL;
	g_autoptr(GUnixFDList) fds = NULL;
	g_autoptr(GVariant) reply = g_dbus_proxy_call_with_unix_fd_list_finish(
		G_DBUS_PROXY(source), &fds, res, &error);
	g_autoptr(GVariantIter) results = NULL;
	g_autofree char *why = NULL;
	const char *id;
	GVariant *result;
	gboolean finished = FALSE, found = FALSE, ok = FALSE;
	gint32 index = -1;

	if (!reply) {
		g_task_return_error(task, g_steal_pointer(&error));
		return;
	}
	g_variant_get(reply, "(a(sa{sv})b)", &results, &finished);
	while (!found && g_variant_iter_next(results, "(&s@a{sv})", &id, &result)) {
		found = g_strcmp0(id, a->id) == 0;
		if (found) {
			g_variant_lookup(result, "success", "b", &ok);
			g_variant_lookup(result, "fd", "h", &index);
			g_variant_lookup(result, "error", "s", &why);
		}
		g_variant_unref(result);
	}
	if (!found && !finished) {	/* the rest comes with the next call */
		finish_acquire(g_steal_pointer(&task));
		return;
	}
	if (!found || !ok || !fds || index < 0 || index >= g_unix_fd_list_get_length(fds))
		g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_FAILED,
					_("the USB portal did not open the Rio Karma: %s"),
					why ? why : _("no file descriptor"));
	else {
		int fd = g_unix_fd_list_get(fds, index, &error);

		if (fd < 0)
			g_task_return_error(task, g_steal_pointer(&error));
		else
			g_task_return_int(task, fd);
	}
}

static void finish_acquire(GTask *task)
{
	Acquire *a = g_task_get_task_data(task);
	KmUsbPortal *self = g_task_get_source_object(task);

	g_dbus_proxy_call_with_unix_fd_list(self->proxy, "FinishAcquireDevices",
					    g_variant_new("(oa{sv})", a->handle, NULL),
					    G_DBUS_CALL_FLAGS_NONE, -1, NULL,
					    g_task_get_cancellable(task), on_finished, task);
}

static void on_response(GDBusConnection *bus, const char *sender, const char *path,
			const char *iface, const char *signal, GVariant *params,
			gpointer user_data)
{
	GTask *task = user_data;	/* the subscription's reference */
	guint32 response = 2;

	(void)bus;
	(void)sender;
	(void)path;
	(void)iface;
	(void)signal;
	g_object_ref(task);
	unsubscribe(task);	/* drops the subscription's reference */
	if (g_variant_is_of_type(params, G_VARIANT_TYPE("(ua{sv})")))
		g_variant_get(params, "(u@a{sv})", &response, NULL);
	if (response != 0) {
		/* 1: the user said no; 2: the portal ended it otherwise */
		g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
					response == 1 ? _("access to the Rio Karma was not allowed")
						      : _("the USB portal did not open the Rio Karma"));
		g_object_unref(task);
		return;
	}
	finish_acquire(task);
}

/* Listens for the Response of the request at a->handle. */
static void subscribe(GTask *task)
{
	Acquire *a = g_task_get_task_data(task);
	KmUsbPortal *self = g_task_get_source_object(task);

	a->response_id = g_dbus_connection_signal_subscribe(
		g_dbus_proxy_get_connection(self->proxy), PORTAL_NAME, REQUEST_INTERFACE,
		"Response", a->handle, NULL, G_DBUS_SIGNAL_FLAGS_NONE, on_response,
		g_object_ref(task), g_object_unref);
}

static void on_acquire_called(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autoptr(GTask) task = user_data;
	Acquire *a = g_task_get_task_data(task);
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = g_dbus_proxy_call_finish(G_DBUS_PROXY(source), res, &error);
	const char *handle;

	if (!reply) {
		unsubscribe(task);
		g_task_return_error(task, g_steal_pointer(&error));
		return;
	}
	g_variant_get(reply, "(&o)", &handle);
	/* A portal older than the handle_token convention answers elsewhere. */
	if (g_strcmp0(handle, a->handle) != 0 && a->response_id) {
		unsubscribe(task);
		g_free(a->handle);
		a->handle = g_strdup(handle);
		subscribe(task);
	}
}

/* Where the portal will put the request: .../request/SENDER/TOKEN. */
static char *request_path(KmUsbPortal *self, const char *token)
{
	const char *unique = g_dbus_connection_get_unique_name(
		g_dbus_proxy_get_connection(self->proxy));
	g_autofree char *sender = g_strdup(unique ? unique + 1 : "");

	g_strdelimit(sender, ".", '_');
	return g_strdup_printf(PORTAL_PATH "/request/%s/%s", sender, token);
}

void km_usb_portal_acquire_async(KmUsbPortal *self, const char *node, GCancellable *cancellable,
				 GAsyncReadyCallback callback, gpointer user_data)
{
	g_autoptr(GTask) task = g_task_new(self, cancellable, callback, user_data);
	g_autoptr(GVariantBuilder) options = g_variant_builder_new(G_VARIANT_TYPE_VARDICT);
	g_autoptr(GVariantBuilder) access = g_variant_builder_new(G_VARIANT_TYPE_VARDICT);
	g_autofree char *token = NULL;
	const char *id;
	Acquire *a;

	g_return_if_fail(KM_IS_USB_PORTAL(self));
	g_task_set_source_tag(task, km_usb_portal_acquire_async);
	id = id_of_node(self, node);
	if (!id) {
		g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
					"the USB portal does not show a Rio Karma at %s", node);
		return;
	}
	token = new_token(self);
	a = g_new0(Acquire, 1);
	a->id = g_strdup(id);
	a->handle = request_path(self, token);
	g_task_set_task_data(task, a, acquire_free);
	/* Subscribed before the call: the Response may come right after it. */
	subscribe(task);
	g_variant_builder_add(access, "{sv}", "writable", g_variant_new_boolean(TRUE));
	g_variant_builder_add(options, "{sv}", "handle_token", g_variant_new_string(token));
	g_dbus_proxy_call(self->proxy, "AcquireDevices",
			  g_variant_new("(s@a(sa{sv})a{sv})", "",
					g_variant_new_parsed("[(%s, %@a{sv})]", id,
							     g_variant_builder_end(access)),
					options),
			  G_DBUS_CALL_FLAGS_NONE, -1, cancellable, on_acquire_called,
			  g_object_ref(task));
}

int km_usb_portal_acquire_finish(KmUsbPortal *self, GAsyncResult *result, GError **error)
{
	GError *err = NULL;
	gssize fd;

	g_return_val_if_fail(g_task_is_valid(result, self), -1);
	fd = g_task_propagate_int(G_TASK(result), &err);
	if (err) {
		g_propagate_error(error, err);
		return -1;
	}
	return (int)fd;
}

static void km_usb_portal_dispose(GObject *object)
{
	KmUsbPortal *self = KM_USB_PORTAL(object);

	g_clear_object(&self->proxy);
	G_OBJECT_CLASS(km_usb_portal_parent_class)->dispose(object);
}

static void km_usb_portal_finalize(GObject *object)
{
	KmUsbPortal *self = KM_USB_PORTAL(object);

	g_free(self->session);
	g_hash_table_unref(self->players);
	G_OBJECT_CLASS(km_usb_portal_parent_class)->finalize(object);
}

static void km_usb_portal_class_init(KmUsbPortalClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);

	object_class->dispose = km_usb_portal_dispose;
	object_class->finalize = km_usb_portal_finalize;
	/* A player was plugged in or out (or changed) as the portal sees it. */
	signals[CHANGED] = g_signal_new("changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST,
					0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void km_usb_portal_init(KmUsbPortal *self)
{
	self->players = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}
