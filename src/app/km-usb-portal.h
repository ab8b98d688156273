/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-usb-portal.h - the Rio Karmas the USB portal (xdg-desktop-portal's
 * org.freedesktop.portal.Usb) lets the app see, as they come and go, and
 * their usbdevfs nodes opened by the portal on the host.
 *
 * Inside Flatpak neither uevents nor udev reach the sandbox: the portal's
 * DeviceEvents tell when a player is plugged in or out ("changed"), and
 * acquiring a player gives an fd for km_session_new_for_usb_fd(). Everything
 * is asynchronous, on the thread-default main context of the caller.
 */
#ifndef KM_USB_PORTAL_H
#define KM_USB_PORTAL_H

#include <gio/gio.h>

G_BEGIN_DECLS

#define KM_TYPE_USB_PORTAL (km_usb_portal_get_type())
G_DECLARE_FINAL_TYPE(KmUsbPortal, km_usb_portal, KM, USB_PORTAL, GObject)

/*
 * Opens a device session with the portal on bus and lists the players.
 * Fails with G_IO_ERROR_NOT_SUPPORTED when there is no USB portal (older
 * xdg-desktop-portal, or none at all).
 */
void km_usb_portal_new_async(GDBusConnection *bus, GCancellable *cancellable,
			     GAsyncReadyCallback callback, gpointer user_data);
KmUsbPortal *km_usb_portal_new_finish(GAsyncResult *result, GError **error);

/* How many players the portal shows now. */
guint km_usb_portal_get_n_players(KmUsbPortal *self);
/* TRUE when the portal shows a player at node ("/dev/bus/usb/BBB/DDD"). */
gboolean km_usb_portal_has_node(KmUsbPortal *self, const char *node);

/*
 * Asks the portal to open the player at node for reading and writing (the
 * portal may ask the user first). The result is the fd, owned by the caller;
 * -1 and an error when it was refused or failed.
 */
void km_usb_portal_acquire_async(KmUsbPortal *self, const char *node, GCancellable *cancellable,
				 GAsyncReadyCallback callback, gpointer user_data);
int km_usb_portal_acquire_finish(KmUsbPortal *self, GAsyncResult *result, GError **error);

G_END_DECLS

#endif
