/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-application.c - Karma Manager's AdwApplication. One window; the command
 * line picks what it opens: nothing (the start page), --demo (the simulated
 * player) or IMAGE (a Karma disk image).
 */
#define G_LOG_DOMAIN "km-application"

#include "config.h"

#include <glib/gi18n.h>

#include "km-about.h"
#include "km-app-util.h"
#include "km-application.h"
#include "km-drag-folder.h"
#include "km-preferences-window.h"
#include "km-window.h"

struct _KmApplication {
	AdwApplication parent_instance;
	KmDeviceMonitor *monitor;	/* players plugged in and out, from startup */
	KmUsbPortal *usb_portal;	/* inside Flatpak, once the USB portal answered */
};

G_DEFINE_FINAL_TYPE(KmApplication, km_application, ADW_TYPE_APPLICATION)

static const GOptionEntry km_application_options[] = {
	{ "demo", 0, 0, G_OPTION_ARG_NONE, NULL,
	  N_("Open the demo player (a simulated Rio Karma)"), NULL },
	{ "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the version and exit"), NULL },
	{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, NULL, NULL },
	{ NULL }
};

static KmWindow *km_application_get_window(KmApplication *self)
{
	GtkWindow *win = gtk_application_get_active_window(GTK_APPLICATION(self));

	if (!win) {
		win = GTK_WINDOW(km_window_new(self));
		km_window_set_device_monitor(KM_WINDOW(win), self->monitor);
		km_window_set_usb_portal(KM_WINDOW(win), self->usb_portal);
	}
	return KM_WINDOW(win);
}

/*
 * Where the USB portal exists, its device events replace the monitor's
 * rescan timer and players are opened through it; elsewhere (an older
 * xdg-desktop-portal) the timer stays and libusb opens /dev/bus/usb itself.
 */
static void on_usb_portal(GObject *source, GAsyncResult *res, gpointer data)
{
	g_autoptr(KmApplication) self = data;
	g_autoptr(GError) error = NULL;

	(void)source;
	self->usb_portal = km_usb_portal_new_finish(res, &error);
	if (!self->usb_portal) {
		g_debug("no USB portal, rescanning on a timer: %s", error->message);
		return;
	}
	km_device_monitor_set_rescan_interval(self->monitor, 0);
	for (GList *l = gtk_application_get_windows(GTK_APPLICATION(self)); l; l = l->next) {
		if (KM_IS_WINDOW(l->data))
			km_window_set_usb_portal(l->data, self->usb_portal);
	}
}

static gint km_application_handle_local_options(GApplication *app, GVariantDict *options)
{
	if (g_variant_dict_contains(options, "version")) {
		g_print("karma-manager %s\n", PACKAGE_VERSION);
		return 0;
	}
	return -1;
}

static gint km_application_command_line(GApplication *app, GApplicationCommandLine *cmdline)
{
	KmApplication *self = KM_APPLICATION(app);
	GVariantDict *options = g_application_command_line_get_options_dict(cmdline);
	g_autofree const char **images = NULL;
	KmWindow *win = km_application_get_window(self);

	g_variant_dict_lookup(options, G_OPTION_REMAINING, "^a&ay", &images);
	if (images && images[0] && images[1]) {
		g_application_command_line_printerr(cmdline, "%s\n",
						    _("Give at most one disk image."));
		return 1;
	}
	if (images && images[0]) {
		g_autoptr(GFile) file = g_application_command_line_create_file_for_arg(cmdline,
										      images[0]);

		km_window_open_image(win, file);
	} else if (g_variant_dict_contains(options, "demo")) {
		km_window_open_demo(win);
	}
	gtk_window_present(GTK_WINDOW(win));
	return 0;
}

static void km_application_activate(GApplication *app)
{
	gtk_window_present(GTK_WINDOW(km_application_get_window(KM_APPLICATION(app))));
}

static void km_application_quit(GSimpleAction *action, GVariant *param, gpointer user_data)
{
	GtkApplication *app = user_data;
	GList *windows = gtk_application_get_windows(app);

	/* close-request lets a window refuse while transfers run */
	for (GList *l = windows; l; l = l->next)
		gtk_window_close(l->data);
}

static void km_application_about(GSimpleAction *action, GVariant *param, gpointer user_data)
{
	km_about_present(GTK_WIDGET(gtk_application_get_active_window(user_data)));
}

static void km_application_preferences(GSimpleAction *action, GVariant *param,
				       gpointer user_data)
{
	GtkWindow *parent = gtk_application_get_active_window(GTK_APPLICATION(user_data));

	km_dialog_present(km_preferences_window_new(), GTK_WIDGET(parent));
}

static const GActionEntry km_application_actions[] = {
	{ "preferences", km_application_preferences },
	{ "quit", km_application_quit },
	{ "about", km_application_about },
};

static void km_application_startup(GApplication *app)
{
	static const struct {
		const char *action;
		const char *accels[3];
	} accels[] = {
		{ "app.quit", { "<Control>q", NULL } },
		{ "app.preferences", { "<Control>comma", NULL } },
		{ "window.close", { "<Control>w", NULL } },
		{ "win.open-image", { "<Control>o", NULL } },
		{ "win.show-help-overlay", { "<Control>question", NULL } },
	};

	G_APPLICATION_CLASS(km_application_parent_class)->startup(app);
	KM_APPLICATION(app)->monitor = km_device_monitor_new();
	if (km_device_monitor_in_sandbox() && g_application_get_dbus_connection(app))
		km_usb_portal_new_async(g_application_get_dbus_connection(app), NULL,
					on_usb_portal, g_object_ref(app));
	/* the files of the last run's drags: their receivers are done with them */
	km_drag_folders_clean();
	g_action_map_add_action_entries(G_ACTION_MAP(app), km_application_actions,
					G_N_ELEMENTS(km_application_actions), app);
	for (gsize i = 0; i < G_N_ELEMENTS(accels); i++)
		gtk_application_set_accels_for_action(GTK_APPLICATION(app), accels[i].action,
						      accels[i].accels);
}

static void km_application_dispose(GObject *object)
{
	g_clear_object(&KM_APPLICATION(object)->monitor);
	g_clear_object(&KM_APPLICATION(object)->usb_portal);
	G_OBJECT_CLASS(km_application_parent_class)->dispose(object);
}

static void km_application_class_init(KmApplicationClass *klass)
{
	GApplicationClass *app_class = G_APPLICATION_CLASS(klass);

	G_OBJECT_CLASS(klass)->dispose = km_application_dispose;
	app_class->handle_local_options = km_application_handle_local_options;
	app_class->command_line = km_application_command_line;
	app_class->activate = km_application_activate;
	app_class->startup = km_application_startup;
}

static void km_application_init(KmApplication *self)
{
	g_application_add_main_option_entries(G_APPLICATION(self), km_application_options);
	g_application_set_option_context_parameter_string(G_APPLICATION(self), _("[IMAGE]"));
}

KmApplication *km_application_new(void)
{
	return g_object_new(KM_TYPE_APPLICATION,
			    "application-id", APP_ID,
			    "flags", G_APPLICATION_HANDLES_COMMAND_LINE,
			    "resource-base-path", "/io/github/karmamanager/KarmaManager",
			    NULL);
}
