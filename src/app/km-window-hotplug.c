/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-window-hotplug.c - the window follows KmDeviceMonitor: a Rio Karma
 * plugged in opens by itself (one player at a time), one we may not open
 * shows the udev rule and the command on the start page, one unplugged
 * closes its view.
 *
 * Unplugged while copying, the view stays until its session fails (at the
 * next read or write, at once), so that its message can say what was and was
 * not copied; unplugged while idle, it closes now.
 */
#define G_LOG_DOMAIN "km-window"

#include "config.h"

#include <glib/gi18n.h>
#include <unistd.h>

#include "km-player-view.h"
#include "km-window-private.h"

/*
 * The disk node when the kernel's usb-storage drives the player and we may
 * open it (nothing to take over); else the player itself over libusb.
 */
static KmSession *session_for_player(KmPlayerInfo *info)
{
	const char *node = km_player_info_get_open_node(info);

	if (node && g_strcmp0(node, km_player_info_get_block_node(info)) == 0)
		return km_session_new_for_path(node);
	return km_session_new_for_usb((guint8)km_player_info_get_bus(info),
				      (guint8)km_player_info_get_address(info));
}

static void open_player_session(KmWindow *self, KmSession *session, KmPlayerInfo *info)
{
	/* which player it is, for the backup offered once per player */
	km_session_set_serial(session, km_player_info_get_serial(info));
	km_window_open_session(self, session);
}

typedef struct {
	GWeakRef window;	/* an unanswered portal request must not keep it */
	KmPlayerInfo *info;
} Acquiring;

static void on_acquired(GObject *source, GAsyncResult *res, gpointer user_data)
{
	Acquiring *acq = user_data;
	g_autoptr(KmWindow) self = g_weak_ref_get(&acq->window);
	g_autoptr(GError) error = NULL;
	int fd = km_usb_portal_acquire_finish(KM_USB_PORTAL(source), res, &error);

	if (fd >= 0 && (!self || g_cancellable_is_cancelled(self->cancellable)))
		close(fd);	/* the window is gone */
	else if (fd >= 0) {
		g_autoptr(KmSession) session = km_session_new_for_usb_fd(fd);

		open_player_session(self, session, acq->info);
	} else if (self && !g_cancellable_is_cancelled(self->cancellable)) {
		/* refused or failed: said as a failed open is; plugging in again retries */
		g_autofree char *message = g_strdup_printf(_("Could not open “%s”: %s"),
							   _("Rio Karma"), error->message);

		g_clear_pointer(&self->hotplug_path, g_free);
		adw_toast_overlay_add_toast(self->toasts, adw_toast_new(message));
	}
	g_weak_ref_clear(&acq->window);
	km_player_info_unref(acq->info);
	g_free(acq);
}

static void on_player_seen(KmWindow *self, KmPlayerInfo *info)
{
	KmPlayerAccess access = km_player_info_get_access(info);
	g_autofree char *explanation = km_player_access_explain(access);
	const char *usb_node = km_player_info_get_usb_node(info);
	g_autoptr(KmSession) session = NULL;
	Acquiring *acq;

	km_window_set_permission_problem(self, access == KM_PLAYER_ACCESS_NO_PERMISSION ?
					 explanation : NULL);
	if (access != KM_PLAYER_ACCESS_OK || self->hotplug_path || self->player_view)
		return;
	self->hotplug_path = g_strdup(km_player_info_get_sysfs_path(info));
	if (!self->usb_portal || !km_usb_portal_has_node(self->usb_portal, usb_node)) {
		session = session_for_player(info);
		open_player_session(self, session, info);
		return;
	}
	acq = g_new0(Acquiring, 1);
	g_weak_ref_init(&acq->window, self);
	acq->info = km_player_info_ref(info);
	km_usb_portal_acquire_async(self->usb_portal, usb_node, self->cancellable, on_acquired,
				    acq);
}

static void on_player_gone(KmWindow *self, KmPlayerInfo *info)
{
	g_autofree char *message = NULL;

	km_window_set_permission_problem(self, NULL);
	if (g_strcmp0(self->hotplug_path, km_player_info_get_sysfs_path(info)) != 0)
		return;
	g_clear_pointer(&self->hotplug_path, g_free);
	if (!self->player_view || km_player_view_is_busy(KM_PLAYER_VIEW(self->player_view)))
		return;
	message = g_strdup_printf(_("“%s” was unplugged."), km_session_get_name(
		km_player_view_get_session(KM_PLAYER_VIEW(self->player_view))));
	_km_window_close_player(self, message);
}

/*
 * Inside Flatpak no uevents arrive (the monitor then also rescans on a slow
 * timer where there is no USB portal): a player plugged in while the user was
 * elsewhere is found as soon as the window comes back to the front.
 */
static void on_active_changed(KmWindow *self, GParamSpec *pspec, gpointer data)
{
	(void)pspec;
	(void)data;
	if (self->monitor && gtk_window_is_active(GTK_WINDOW(self)))
		km_device_monitor_rescan(self->monitor);
}

void km_window_set_device_monitor(KmWindow *self, KmDeviceMonitor *monitor)
{
	g_autoptr(GPtrArray) players = NULL;

	g_return_if_fail(KM_IS_WINDOW(self));
	if (self->monitor)
		g_signal_handlers_disconnect_by_data(self->monitor, self);
	g_set_object(&self->monitor, monitor);
	if (!monitor)
		return;
	g_signal_connect_object(monitor, "player-added", G_CALLBACK(on_player_seen), self,
				G_CONNECT_SWAPPED);
	g_signal_connect_object(monitor, "player-changed", G_CALLBACK(on_player_seen), self,
				G_CONNECT_SWAPPED);
	g_signal_connect_object(monitor, "player-removed", G_CALLBACK(on_player_gone), self,
				G_CONNECT_SWAPPED);
	g_signal_handlers_disconnect_by_func(self, on_active_changed, NULL);
	g_signal_connect(self, "notify::is-active", G_CALLBACK(on_active_changed), NULL);
	players = km_device_monitor_get_players(monitor);
	for (guint i = 0; i < players->len; i++)
		on_player_seen(self, players->pdata[i]);
}

/* The portal saw a player come or go: the monitor reads them all again. */
static void on_portal_changed(KmWindow *self)
{
	if (self->monitor)
		km_device_monitor_rescan(self->monitor);
}

void km_window_set_usb_portal(KmWindow *self, KmUsbPortal *portal)
{
	g_return_if_fail(KM_IS_WINDOW(self));
	if (self->usb_portal)
		g_signal_handlers_disconnect_by_data(self->usb_portal, self);
	g_set_object(&self->usb_portal, portal);
	if (portal)
		g_signal_connect_object(portal, "changed", G_CALLBACK(on_portal_changed), self,
					G_CONNECT_SWAPPED);
}
