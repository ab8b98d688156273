/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-window.c - the main window: opens sessions and swaps the start page for
 * the player view, and back when the player is ejected or fails.
 *
 * Players plugged in and out: km-window-hotplug.c.
 */
#define G_LOG_DOMAIN "km-window"

#include "config.h"

#include <glib/gi18n.h>

#include "km-app-util.h"
#include "km-file-chooser.h"
#include "km-player-view.h"
#include "km-window-private.h"

G_DEFINE_FINAL_TYPE(KmWindow, km_window, ADW_TYPE_APPLICATION_WINDOW)

static void show_start_page(KmWindow *self, const char *message)
{
	g_free(self->message);
	self->message = g_strdup(message);
	adw_status_page_set_description(
		self->status_page,
		message ? message : _("Connect the player with its USB cable and it opens "
				      "here. You can also open a disk image of a Karma, or "
				      "try the demo player."));
	adw_status_page_set_title(self->status_page, message ? _("The Player Was Closed") :
				  _("Plug in your Rio Karma"));
	gtk_stack_set_visible_child_name(self->stack, "start");
}

static void remove_player_view(KmWindow *self)
{
	if (!self->player_view)
		return;
	g_signal_handlers_disconnect_by_data(self->player_view, self);
	gtk_stack_remove(self->stack, self->player_view);
	self->player_view = NULL;
}

/* message, and that the tracks an undo toast offered are still on the player. */
static char *close_message(KmWindow *self, const char *message)
{
	guint n = km_player_view_get_n_uncommitted_deletes(KM_PLAYER_VIEW(self->player_view));

	if (!message || n == 0)
		return g_strdup(message);
	/* Translators: follows a sentence saying why the player was closed */
	return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
					   "%s The track deleted last is still on the player.",
					   "%s The %u tracks deleted last are still on the player.",
					   n),
			       message, n);
}

void _km_window_close_player(KmWindow *self, const char *message)
{
	g_autofree char *full = self->player_view ? close_message(self, message) :
				g_strdup(message);

	remove_player_view(self);
	show_start_page(self, full);
	if (self->close_after_eject) {
		gtk_window_close(GTK_WINDOW(self));
		return;
	}
	if (!message)
		adw_toast_overlay_add_toast(self->toasts,
					    adw_toast_new(_("The player can be unplugged now")));
}

static void on_player_closed(KmWindow *self, const char *message, GtkWidget *view)
{
	_km_window_close_player(self, message);
}

static void show_session(KmWindow *self, KmSession *session)
{
	remove_player_view(self);
	self->player_view = km_player_view_new(session);
	g_signal_connect_swapped(self->player_view, "closed", G_CALLBACK(on_player_closed), self);
	gtk_stack_add_named(self->stack, self->player_view, "player");
	gtk_stack_set_visible_child(self->stack, self->player_view);
}

/*
 * Why a player or image did not open, in plain words: the reader's own
 * message ("block 0: not an OMFS volume (magic 0x…)") goes in the details.
 */
static const char *open_problem_text(const GError *error, const char *image)
{
	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
		return image ? _("You are not allowed to read or change this file.") :
		       _("You are not allowed to use the player.");
	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
		return _("The file is not there any more.");
	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_BUSY))
		return error->message;	/* says what to do, in plain words */
	if (image)
		return _("This file is not a Rio Karma disk image, or its disk is too damaged to "
			 "be read.");
	return _("The player's disk could not be read. Unplug the player, plug it in again, "
		 "and try once more.");
}

static void on_session_opened(GObject *source, GAsyncResult *result, gpointer data)
{
	g_autoptr(KmWindow) self = data;
	g_autoptr(GError) error = NULL;
	g_autofree char *heading = NULL;

	if (km_session_open_finish(KM_SESSION(source), result, &error)) {
		show_session(self, KM_SESSION(source));
		return;
	}
	if (km_error_is_cancelled(error))
		return;
	heading = g_strdup_printf(_("“%s” Could Not Be Opened"),
				  km_session_get_name(KM_SESSION(source)));
	km_problem_dialog_present(GTK_WIDGET(self), heading,
				  open_problem_text(error, g_object_get_data(source, "km-image")),
				  error->message);
}

void km_window_open_session(KmWindow *self, KmSession *session)
{
	g_return_if_fail(KM_IS_WINDOW(self) && KM_IS_SESSION(session));
	km_session_open_async(session, NULL, NULL, NULL, self->cancellable, on_session_opened,
			      g_object_ref(self));
}

void km_window_open_image(KmWindow *self, GFile *file)
{
	g_autoptr(KmSession) session = NULL;
	g_autofree char *path = g_file_get_path(file);

	g_return_if_fail(KM_IS_WINDOW(self) && G_IS_FILE(file));
	if (!path) {
		adw_toast_overlay_add_toast(self->toasts,
					    adw_toast_new(_("Only local disk images can be opened")));
		return;
	}
	session = km_session_new_for_path(path);
	/* its problems are told as a file's */
	g_object_set_data_full(G_OBJECT(session), "km-image", g_steal_pointer(&path), g_free);
	km_window_open_session(self, session);
}

void km_window_open_demo(KmWindow *self)
{
	g_autoptr(KmSession) session = km_session_new_demo(g_get_user_cache_dir());

	g_return_if_fail(KM_IS_WINDOW(self));
	km_window_open_session(self, session);
}

GtkWidget *km_window_get_player_view(KmWindow *self)
{
	g_return_val_if_fail(KM_IS_WINDOW(self), NULL);
	return self->player_view;
}

const char *km_window_get_message(KmWindow *self)
{
	g_return_val_if_fail(KM_IS_WINDOW(self), NULL);
	return self->message;
}

void km_window_set_permission_problem(KmWindow *self, const char *explanation)
{
	g_return_if_fail(KM_IS_WINDOW(self));
	gtk_label_set_text(self->permission_label, explanation ? explanation : "");
	gtk_widget_set_visible(self->permission_box, explanation != NULL);
}

static void on_image_chosen(GObject *owner, GPtrArray *files)
{
	km_window_open_image(KM_WINDOW(owner), files->pdata[0]);
}

static void open_image_action(GtkWidget *widget, const char *name, GVariant *param)
{
	km_choose_files(widget, _("Open a Karma Disk Image"), _("_Open"), FALSE, FALSE,
			on_image_chosen);
}

static void open_demo_action(GtkWidget *widget, const char *name, GVariant *param)
{
	km_window_open_demo(KM_WINDOW(widget));
}

static void on_close_response(KmQuestionDialog *dialog, const char *response, KmWindow *self)
{
	if (!g_str_equal(response, "close") || !self->player_view)
		return;
	/* _km_window_close_player() closes the window once the player is ejected */
	self->close_after_eject = TRUE;
	km_player_view_eject(KM_PLAYER_VIEW(self->player_view));
}

static void ask_close_while_copying(KmWindow *self)
{
	const KmQuestion question = {
		.heading = _("Files Are Being Copied"),
		.body = _("Closing now stops the transfers: the files copied so far stay on the "
			  "player, the file being copied is removed, the rest are not copied."),
		.cancel_id = "keep", .cancel_label = _("_Keep Copying"),
		.act_id = "close", .act_label = _("_Stop and Close"),
		.appearance = ADW_RESPONSE_DESTRUCTIVE,
	};

	km_dialog_present(GTK_WIDGET(km_question_new(&question, G_CALLBACK(on_close_response), self)),
			  GTK_WIDGET(self));
}

static gboolean km_window_close_request(GtkWindow *window)
{
	KmWindow *self = KM_WINDOW(window);

	if (self->player_view && km_player_view_is_busy(KM_PLAYER_VIEW(self->player_view))) {
		ask_close_while_copying(self);
		return TRUE;
	}
	/* a deletion the toast could still undo: done, then the window closes */
	if (self->player_view &&
	    km_player_view_get_n_uncommitted_deletes(KM_PLAYER_VIEW(self->player_view))) {
		self->close_after_eject = TRUE;
		km_player_view_eject(KM_PLAYER_VIEW(self->player_view));
		return TRUE;
	}
	g_settings_set_boolean(self->settings, "window-maximized",
			       gtk_window_is_maximized(window));
	if (!gtk_window_is_maximized(window)) {
		int width, height;

		gtk_window_get_default_size(window, &width, &height);
		g_settings_set_int(self->settings, "window-width", width);
		g_settings_set_int(self->settings, "window-height", height);
	}
	return GTK_WINDOW_CLASS(km_window_parent_class)->close_request(window);
}

static void km_window_dispose(GObject *object)
{
	KmWindow *self = KM_WINDOW(object);

	g_cancellable_cancel(self->cancellable);
	km_window_set_device_monitor(self, NULL);
	km_window_set_usb_portal(self, NULL);
	remove_player_view(self);
	gtk_widget_dispose_template(GTK_WIDGET(self), KM_TYPE_WINDOW);
	G_OBJECT_CLASS(km_window_parent_class)->dispose(object);
}

static void km_window_finalize(GObject *object)
{
	KmWindow *self = KM_WINDOW(object);

	g_clear_object(&self->settings);
	g_clear_object(&self->cancellable);
	g_free(self->message);
	g_free(self->hotplug_path);
	G_OBJECT_CLASS(km_window_parent_class)->finalize(object);
}

static void km_window_class_init(KmWindowClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->dispose = km_window_dispose;
	object_class->finalize = km_window_finalize;
	GTK_WINDOW_CLASS(klass)->close_request = km_window_close_request;
	gtk_widget_class_set_template_from_resource(
		widget_class, "/io/github/karmamanager/KarmaManager/ui/km-window.ui");
	gtk_widget_class_bind_template_child(widget_class, KmWindow, toasts);
	gtk_widget_class_bind_template_child(widget_class, KmWindow, stack);
	gtk_widget_class_bind_template_child(widget_class, KmWindow, start_box);
	gtk_widget_class_bind_template_child(widget_class, KmWindow, status_page);
	gtk_widget_class_bind_template_child(widget_class, KmWindow, permission_box);
	gtk_widget_class_bind_template_child(widget_class, KmWindow, permission_label);
	gtk_widget_class_install_action(widget_class, "win.open-image", NULL, open_image_action);
	gtk_widget_class_install_action(widget_class, "win.open-demo", NULL, open_demo_action);
	gtk_widget_class_add_binding_action(widget_class, GDK_KEY_o, GDK_CONTROL_MASK,
					    "win.open-image", NULL);
}

static void km_window_init(KmWindow *self)
{
	gtk_widget_init_template(GTK_WIDGET(self));
#if ADW_CHECK_VERSION(1, 4, 0)
	/* the .ui's box is the 1.2 layout */
	gtk_box_append(self->start_box, km_toolbar_view_new_from_box(self->start_box,
								     GTK_WIDGET(self->status_page)));
#endif
	self->cancellable = g_cancellable_new();
	self->settings = g_settings_new(APP_ID);
	gtk_window_set_default_size(GTK_WINDOW(self),
				    g_settings_get_int(self->settings, "window-width"),
				    g_settings_get_int(self->settings, "window-height"));
	if (g_settings_get_boolean(self->settings, "window-maximized"))
		gtk_window_maximize(GTK_WINDOW(self));
}

KmWindow *km_window_new(KmApplication *application)
{
	return g_object_new(KM_TYPE_WINDOW, "application", application, NULL);
}
