/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-preferences-window.c - the preferences window (the backup folder is
 * chosen here, once, or left at its default; the conversion of files the
 * player cannot play is kept here, and each player view gives it to its
 * session). A mistyped template is reported by the export that uses it
 * (the widgets do not call the library, where templates are parsed).
 */
#define G_LOG_DOMAIN "km-preferences-window"

#include "config.h"

#include <glib/gi18n.h>

#include "km-app-util.h"
#include "km-file-chooser.h"
#include "km-preferences-window.h"

struct _KmPreferencesWindow {
	KmPreferencesParent parent_instance;
	GtkSwitch *duplicates_switch;
	GtkSwitch *confirm_delete_switch;
	GtkSwitch *convert_switch;
	AdwComboRow *format_row;
	GtkWidget *quality_row;
	GtkSpinButton *quality_spin;
	AdwEntryRow *template_row;
	AdwActionRow *backup_folder_row;
	GSettings *settings;
};

G_DEFINE_FINAL_TYPE(KmPreferencesWindow, km_preferences_window, KM_PREFERENCES_PARENT_TYPE)

#define TEMPLATE "/io/github/karmamanager/KarmaManager/ui/km-preferences-window.ui"

/*
 * The template names its parent, AdwPreferencesWindow, as the libadwaita 1.2
 * path needs it; from 1.5 the same content is an AdwPreferencesDialog's, the
 * properties it sets being the dialog's too.  Only that name is changed, here,
 * so that one .ui file serves both.
 */
static void set_template(GtkWidgetClass *widget_class)
{
#if ADW_CHECK_VERSION(1, 5, 0)
	g_autoptr(GBytes) bytes = g_resources_lookup_data(TEMPLATE, 0, NULL);
	GString *ui = g_string_new_len(g_bytes_get_data(bytes, NULL), g_bytes_get_size(bytes));
	g_autoptr(GBytes) template = NULL;

	if (g_string_replace(ui, "parent=\"AdwPreferencesWindow\"",
			     "parent=\"AdwPreferencesDialog\"", 1) != 1)
		g_error("%s: no AdwPreferencesWindow parent to replace", TEMPLATE);
	template = g_string_free_to_bytes(ui);
	gtk_widget_class_set_template(widget_class, template);
#else
	gtk_widget_class_set_template_from_resource(widget_class, TEMPLATE);
#endif
}

static void on_template_apply(KmPreferencesWindow *self)
{
	g_settings_set_string(self->settings, "export-template",
			      gtk_editable_get_text(GTK_EDITABLE(self->template_row)));
}

static void show_backup_folder(KmPreferencesWindow *self)
{
	g_autofree char *folder = km_backup_folder(self->settings);

	adw_action_row_set_subtitle(self->backup_folder_row, folder);
}

static void on_backup_folder_chosen(GObject *owner, GPtrArray *files)
{
	KmPreferencesWindow *self = KM_PREFERENCES_WINDOW(owner);
	g_autofree char *path = g_file_get_path(files->pdata[0]);

	if (path && self->settings)
		g_settings_set_string(self->settings, "backup-folder", path);
}

static void on_choose_backup_folder(KmPreferencesWindow *self)
{
	km_choose_files(GTK_WIDGET(self), _("Choose the Backup Folder"), _("_Choose"), TRUE,
			FALSE, on_backup_folder_chosen);
}

/* The combo's positions are the schema's enum values (KmConvertFormat's). */
static void show_format(KmPreferencesWindow *self)
{
	adw_combo_row_set_selected(self->format_row,
				   (guint)g_settings_get_enum(self->settings, "convert-format"));
}

static void on_format_selected(KmPreferencesWindow *self)
{
	guint selected = adw_combo_row_get_selected(self->format_row);

	if (selected != GTK_INVALID_LIST_POSITION)
		g_settings_set_enum(self->settings, "convert-format", (gint)selected);
}

/*
 * A row made insensitive with the focus inside (the quality being typed when
 * Alt+V turns conversion off) would keep it without a focus-out, and GTK
 * warns: the focus goes to the switch first.
 */
static void set_row_sensitive(KmPreferencesWindow *self, GtkWidget *row, gboolean sensitive)
{
	GtkRoot *root = gtk_widget_get_root(row);
	GtkWidget *focus = root ? gtk_root_get_focus(root) : NULL;

	if (!sensitive && focus && gtk_widget_is_ancestor(focus, row))
		gtk_widget_grab_focus(GTK_WIDGET(self->convert_switch));
	gtk_widget_set_sensitive(row, sensitive);
}

/* The format and quality matter only when converting, the quality only for a lossy format. */
static void update_conversion_rows(KmPreferencesWindow *self)
{
	gboolean converts = g_settings_get_boolean(self->settings, "convert");

	set_row_sensitive(self, GTK_WIDGET(self->format_row), converts);
	set_row_sensitive(self, self->quality_row,
			  converts && g_settings_get_enum(self->settings, "convert-format") !=
					      KM_CONVERT_FLAC);
}

static void on_setting_changed(KmPreferencesWindow *self, const char *key)
{
	if (g_str_equal(key, "convert-format"))
		show_format(self);
	if (g_str_has_prefix(key, "convert"))
		update_conversion_rows(self);
}

static void bind_conversion(KmPreferencesWindow *self)
{
	g_settings_bind(self->settings, "convert", self->convert_switch, "active",
			G_SETTINGS_BIND_DEFAULT);
	g_settings_bind(self->settings, "convert-quality", self->quality_spin, "value",
			G_SETTINGS_BIND_DEFAULT);
	show_format(self);
	update_conversion_rows(self);
	g_signal_connect_object(self->format_row, "notify::selected",
				G_CALLBACK(on_format_selected), self, G_CONNECT_SWAPPED);
	g_signal_connect_object(self->settings, "changed", G_CALLBACK(on_setting_changed), self,
				G_CONNECT_SWAPPED);
}

static void km_preferences_window_dispose(GObject *object)
{
	KmPreferencesWindow *self = KM_PREFERENCES_WINDOW(object);

	g_clear_object(&self->settings);
	gtk_widget_dispose_template(GTK_WIDGET(self), KM_TYPE_PREFERENCES_WINDOW);
	G_OBJECT_CLASS(km_preferences_window_parent_class)->dispose(object);
}

static void km_preferences_window_class_init(KmPreferencesWindowClass *klass)
{
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	G_OBJECT_CLASS(klass)->dispose = km_preferences_window_dispose;
	set_template(widget_class);
	gtk_widget_class_bind_template_child(widget_class, KmPreferencesWindow,
					     duplicates_switch);
	gtk_widget_class_bind_template_child(widget_class, KmPreferencesWindow,
					     confirm_delete_switch);
	gtk_widget_class_bind_template_child(widget_class, KmPreferencesWindow, convert_switch);
	gtk_widget_class_bind_template_child(widget_class, KmPreferencesWindow, format_row);
	gtk_widget_class_bind_template_child(widget_class, KmPreferencesWindow, quality_row);
	gtk_widget_class_bind_template_child(widget_class, KmPreferencesWindow, quality_spin);
	gtk_widget_class_bind_template_child(widget_class, KmPreferencesWindow, template_row);
	gtk_widget_class_bind_template_child(widget_class, KmPreferencesWindow,
					     backup_folder_row);
	gtk_widget_class_bind_template_callback(widget_class, on_template_apply);
	gtk_widget_class_bind_template_callback(widget_class, on_choose_backup_folder);
}

static void km_preferences_window_init(KmPreferencesWindow *self)
{
	g_autofree char *template = NULL;

	gtk_widget_init_template(GTK_WIDGET(self));
	self->settings = g_settings_new(APP_ID);
	g_settings_bind(self->settings, "copy-duplicates", self->duplicates_switch, "active",
			G_SETTINGS_BIND_DEFAULT);
	g_settings_bind(self->settings, "confirm-delete", self->confirm_delete_switch, "active",
			G_SETTINGS_BIND_DEFAULT);
	bind_conversion(self);
	template = g_settings_get_string(self->settings, "export-template");
	gtk_editable_set_text(GTK_EDITABLE(self->template_row), template);
	g_signal_connect_object(self->settings, "changed::backup-folder",
				G_CALLBACK(show_backup_folder), self, G_CONNECT_SWAPPED);
	show_backup_folder(self);
}

GtkWidget *km_preferences_window_new(void)
{
	return g_object_new(KM_TYPE_PREFERENCES_WINDOW, NULL);
}
