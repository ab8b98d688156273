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

static void on_player_seen(KmWindow *self, KmPlayerInfo *info)
{
	KmPlayerAccess access = km_player_info_get_access(info);
	g_autofree char *explanation = km_player_access_explain(access);
	g_autoptr(KmSession) session = NULL;

	km_window_set_permission_problem(self, access == KM_PLAYER_ACCESS_NO_PERMISSION ?
					 explanation : NULL);
	if (access != KM_PLAYER_ACCESS_OK || self->hotplug_path || self->player_view)
		return;
	self->hotplug_path = g_strdup(km_player_info_get_sysfs_path(info));
	session = session_for_player(info);
	/* which player it is, for the backup offered once per player */
	km_session_set_serial(session, km_player_info_get_serial(info));
	km_window_open_session(self, session);
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
 * timer): a player plugged in while the user was elsewhere is found as soon
 * as the window comes back to the front.
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
