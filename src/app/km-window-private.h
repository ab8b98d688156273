/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-window-private.h - the window's insides, shared by km-window.c and
 * km-window-hotplug.c.
 */
#pragma once

#include "km-device-monitor.h"
#include "km-usb-portal.h"
#include "km-window.h"

G_BEGIN_DECLS

struct _KmWindow {
	AdwApplicationWindow parent_instance;

	/* Template widgets */
	AdwToastOverlay *toasts;
	GtkStack *stack;
	GtkBox *start_box;	/* the start page: its header bar and status page */
	AdwStatusPage *status_page;
	GtkWidget *permission_box;
	GtkLabel *permission_label;

	/* Owned references */
	GSettings *settings;
	GCancellable *cancellable;	/* cancelled in dispose */
	char *message;
	KmDeviceMonitor *monitor;	/* NULL: no hotplug */
	KmUsbPortal *usb_portal;	/* inside Flatpak, where it exists: else NULL */
	char *hotplug_path;		/* sysfs path of the plugged-in player we opened */
	/* close the window once the player is closed (closed while copying, or undoable) */
	gboolean close_after_eject;
	/* Borrowed: the player view in the stack */
	GtkWidget *player_view;
};

/* Drops the player view and shows the start page with message (NULL: ejected). */
void _km_window_close_player(KmWindow *self, const char *message);

G_END_DECLS
