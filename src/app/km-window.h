/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-window.h - the main window: the start page (plug in your Karma, open an
 * image, try the demo) or the open player's view.
 */
#pragma once

#include <adwaita.h>

#include "km-application.h"
#include "km-device-monitor.h"
#include "km-usb-portal.h"
#include "km-session.h"

G_BEGIN_DECLS

#define KM_TYPE_WINDOW (km_window_get_type())
G_DECLARE_FINAL_TYPE(KmWindow, km_window, KM, WINDOW, AdwApplicationWindow)

/* application may be NULL (tests). */
KmWindow *km_window_new(KmApplication *application);
void km_window_open_image(KmWindow *self, GFile *file);
/* The demo player, its image in the user's cache folder. */
void km_window_open_demo(KmWindow *self);
/* Opens session (new, not opened yet) and shows it when it is open. */
void km_window_open_session(KmWindow *self, KmSession *session);
/* The player view (KmPlayerView), or NULL on the start page. */
GtkWidget *km_window_get_player_view(KmWindow *self);
/* The start page's message (for a closed or failed player), or NULL. */
const char *km_window_get_message(KmWindow *self);
/*
 * A player is plugged in that we may not open: explanation says how to fix
 * it (the udev rule and the command). NULL hides it.
 */
void km_window_set_permission_problem(KmWindow *self, const char *explanation);

/*
 * Follow monitor (NULL: none): players plugged in open by themselves, one
 * unplugged closes its view (km-window-hotplug.c).
 */
void km_window_set_device_monitor(KmWindow *self, KmDeviceMonitor *monitor);
/*
 * Inside Flatpak: players come and go by the USB portal's events (a rescan
 * of the monitor each) and are opened through the portal (NULL: directly).
 */
void km_window_set_usb_portal(KmWindow *self, KmUsbPortal *portal);

G_END_DECLS
