/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mock-usb-portal.h - a stand-in for xdg-desktop-portal's USB portal
 * (org.freedesktop.portal.Usb on org.freedesktop.portal.Desktop) on a test
 * bus: its devices are set by the test, DeviceEvents follow each change,
 * AcquireDevices answers through a Request's Response as the real one does,
 * and FinishAcquireDevices hands over an fd of a file the test names.
 */
#ifndef MOCK_USB_PORTAL_H
#define MOCK_USB_PORTAL_H

#include <gio/gio.h>

typedef struct MockUsbPortal MockUsbPortal;

/*
 * Serves on bus (owning the portal's name, waiting until it is owned);
 * with_usb FALSE: the portal object without the USB interface (an older
 * xdg-desktop-portal).
 */
MockUsbPortal *mock_usb_portal_new(GDBusConnection *bus, gboolean with_usb);
void mock_usb_portal_free(MockUsbPortal *portal);

/* A device appears (DeviceEvents "add" to open sessions). */
void mock_usb_portal_add(MockUsbPortal *portal, const char *id, const char *node,
			 const char *vendor_id, const char *model_id);
/* It is unplugged ("remove", with no properties, as the real portal sends). */
void mock_usb_portal_remove(MockUsbPortal *portal, const char *id);
/*
 * How the next acquisitions end: response is the Request's (0 allowed,
 * 1 refused by the user); with 0, the fd is of file, or when file is NULL
 * the device's result says success false with an error.
 */
void mock_usb_portal_set_answer(MockUsbPortal *portal, guint response, const char *file);
/* AcquireDevices calls so far. */
guint mock_usb_portal_get_n_acquired(MockUsbPortal *portal);

#endif
