/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-details-pane.c - the tag editor and the property list.
 *
 * With several tracks selected, a tag shows its value when all share it and
 * is empty otherwise; only the tags the user changed are saved, so a mixed
 * tag left alone stays as each track has it.
 */
#define G_LOG_DOMAIN "km-details-pane"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "km-app-util.h"
#include "km-details-pane.h"
#include "km-library-columns.h"

enum { TAG_TITLE, TAG_ARTIST, TAG_ALBUM, TAG_GENRE, TAG_YEAR, TAG_TRACK_NUMBER, N_TAGS };

struct _KmDetailsPane {
	GtkWidget parent_instance;

	/* Template widgets */
	GtkStack *stack;
	AdwEntryRow *title_row, *artist_row, *album_row, *genre_row, *year_row, *track_number_row;
	GtkWidget *revert_button;
	GtkListBox *properties_list;

	/* Owned references */
	KmSession *session;
	GPtrArray *tracks;
	GCancellable *cancellable;
	char *shown[N_TAGS];	/* what each row showed before the user's edits */
	gboolean loading;
};

G_DEFINE_FINAL_TYPE(KmDetailsPane, km_details_pane, GTK_TYPE_WIDGET)

/* A tag's text as its column in the library shows it. */
static char *tag_text(KmTrack *track, guint tag)
{
	static const KmColumn columns[N_TAGS] = {
		[TAG_TITLE] = KM_COLUMN_TITLE, [TAG_ARTIST] = KM_COLUMN_ARTIST,
		[TAG_ALBUM] = KM_COLUMN_ALBUM, [TAG_GENRE] = KM_COLUMN_GENRE,
		[TAG_YEAR] = KM_COLUMN_YEAR, [TAG_TRACK_NUMBER] = KM_COLUMN_TRACK_NUMBER,
	};

	return km_column_format(columns[tag], track);
}

static GtkEditable *tag_row(KmDetailsPane *self, guint tag)
{
	AdwEntryRow *rows[N_TAGS] = { self->title_row, self->artist_row, self->album_row,
				      self->genre_row, self->year_row, self->track_number_row };

	return GTK_EDITABLE(rows[tag]);
}

/* The value all tracks share, or "" when they differ. */
static char *common_text(GPtrArray *tracks, guint tag)
{
	char *first = tag_text(tracks->pdata[0], tag);

	for (guint i = 1; i < tracks->len; i++) {
		g_autofree char *other = tag_text(tracks->pdata[i], tag);

		if (g_strcmp0(first, other) != 0) {
			g_free(first);
			return g_strdup("");
		}
	}
	return first;
}

static gboolean is_edited(KmDetailsPane *self, guint tag)
{
	return g_strcmp0(gtk_editable_get_text(tag_row(self, tag)), self->shown[tag]) != 0;
}

static gboolean has_edits(KmDetailsPane *self)
{
	for (guint t = 0; t < N_TAGS; t++)
		if (is_edited(self, t))
			return TRUE;
	return FALSE;
}

static void on_row_changed(KmDetailsPane *self)
{
	gboolean edited;

	if (self->loading)
		return;
	edited = has_edits(self);
	gtk_widget_action_set_enabled(GTK_WIDGET(self), "details.save", edited);
	gtk_widget_set_sensitive(self->revert_button, edited);
}

static void show_tags(KmDetailsPane *self)
{
	self->loading = TRUE;
	for (guint t = 0; t < N_TAGS; t++) {
		g_free(self->shown[t]);
		self->shown[t] = common_text(self->tracks, t);
		gtk_editable_set_text(tag_row(self, t), self->shown[t]);
	}
	self->loading = FALSE;
	on_row_changed(self);
}

static void on_revert(KmDetailsPane *self)
{
	if (self->tracks && self->tracks->len)
		show_tags(self);
}

/* raw is what the player stores; the row shows value, raw on hover. */
static GtkWidget *property_row(const char *key, const char *value, const char *raw)
{
	GtkWidget *row = adw_action_row_new();

	adw_preferences_row_set_title(ADW_PREFERENCES_ROW(row), key);
	adw_action_row_set_subtitle(ADW_ACTION_ROW(row), value);
#if ADW_CHECK_VERSION(1, 3, 0)
	adw_action_row_set_subtitle_selectable(ADW_ACTION_ROW(row), TRUE);
#endif
	if (g_strcmp0(value, raw) != 0)
		gtk_widget_set_tooltip_text(row, raw);
	gtk_widget_add_css_class(row, "property");
	return row;
}

/* A stored value as a person reads it: times, sizes, lengths (NULL: as stored). */
static char *readable_value(KmTrack *track, const char *key, const char *value)
{
	guint64 n;
	g_autoptr(GDateTime) time = NULL;

	if (!value || !g_ascii_string_to_unsigned(value, 10, 0, G_MAXINT64, &n, NULL))
		return NULL;
	if (g_str_equal(key, "duration"))
		return km_column_format(KM_COLUMN_DURATION, track);
	if (g_str_equal(key, "length"))
		return g_format_size(n);
	if ((g_str_equal(key, "ctime") || g_str_equal(key, "mtime")) &&
	    (time = g_date_time_new_from_unix_local((gint64)n)))
		return g_date_time_format(time, "%x %X");
	return NULL;
}

static int compare_keys(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void show_properties(KmDetailsPane *self)
{
	GtkWidget *child;
	const KmProperties *props;
	const char *const *keys;
	g_autoptr(GPtrArray) sorted = g_ptr_array_new();
	guint n_keys = 0;

	while ((child = gtk_widget_get_first_child(GTK_WIDGET(self->properties_list))))
		gtk_list_box_remove(self->properties_list, child);
	if (self->tracks->len != 1)
		return;
	props = km_track_get_properties(self->tracks->pdata[0]);
	keys = km_properties_keys(props, &n_keys);
	/* in name order, as the player keeps them in none */
	for (guint i = 0; i < n_keys; i++)
		g_ptr_array_add(sorted, (gpointer)keys[i]);
	g_ptr_array_sort(sorted, compare_keys);
	for (guint i = 0; i < sorted->len; i++) {
		const char *key = sorted->pdata[i];
		const char *value = km_properties_get(props, key);
		g_autofree char *blob_text = NULL, *readable = NULL;

		if (km_properties_is_blob_key(key)) {
			g_autoptr(GBytes) blob = km_properties_get_blob(props, key);
			gsize size = blob ? g_bytes_get_size(blob) : 0;

			/* Translators: a binary property's size */
			blob_text = g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
								"%zu byte of binary data",
								"%zu bytes of binary data", size),
						    size);
			value = blob_text;
		}
		readable = readable_value(self->tracks->pdata[0], key, value);
		gtk_list_box_append(self->properties_list,
				    property_row(key, readable ? readable : value ? value : "",
						 value ? value : ""));
	}
}

void km_details_pane_set_tracks(KmDetailsPane *self, GPtrArray *tracks)
{
	g_return_if_fail(KM_IS_DETAILS_PANE(self));
	g_clear_pointer(&self->tracks, g_ptr_array_unref);
	if (!tracks || tracks->len == 0) {
		gtk_stack_set_visible_child_name(self->stack, "none");
		gtk_widget_action_set_enabled(GTK_WIDGET(self), "details.save", FALSE);
		return;
	}
	self->tracks = g_ptr_array_ref(tracks);
	show_tags(self);
	show_properties(self);
	gtk_stack_set_visible_child_name(self->stack, "details");
}

void km_details_pane_refresh(KmDetailsPane *self)
{
	g_autoptr(GPtrArray) current = NULL;
	gboolean changed = FALSE;

	g_return_if_fail(KM_IS_DETAILS_PANE(self));
	if (!self->session || !self->tracks)
		return;
	current = g_ptr_array_new_with_free_func(g_object_unref);
	for (guint i = 0; i < self->tracks->len; i++) {
		KmTrack *old = self->tracks->pdata[i];
		KmTrack *now = km_session_lookup_track(self->session, km_track_get_fid(old));

		changed |= now != old;
		if (now)
			g_ptr_array_add(current, g_object_ref(now));
	}
	if (!changed)
		return;
	if (current->len == 0 || !has_edits(self)) {
		km_details_pane_set_tracks(self, current);
		return;
	}
	/* keep what the user is typing; the properties list may follow */
	g_ptr_array_unref(self->tracks);
	self->tracks = g_ptr_array_ref(current);
	show_properties(self);
}

void km_details_pane_set_session(KmDetailsPane *self, KmSession *session)
{
	g_return_if_fail(KM_IS_DETAILS_PANE(self));
	g_set_object(&self->session, session);
}

char *km_details_pane_dup_properties_text(KmDetailsPane *self)
{
	GString *text = g_string_new(NULL);

	g_return_val_if_fail(KM_IS_DETAILS_PANE(self), g_string_free(text, FALSE));
	for (GtkWidget *row = gtk_widget_get_first_child(GTK_WIDGET(self->properties_list)); row;
	     row = gtk_widget_get_next_sibling(row)) {
		if (!ADW_IS_ACTION_ROW(row))
			continue;
		g_string_append_printf(text, "%s=%s\n",
				       adw_preferences_row_get_title(ADW_PREFERENCES_ROW(row)),
				       adw_action_row_get_subtitle(ADW_ACTION_ROW(row)));
	}
	return g_string_free(text, FALSE);
}

static void on_tags_saved(GObject *source, GAsyncResult *result, gpointer user_data)
{
	g_autoptr(KmDetailsPane) self = user_data;
	g_autoptr(GError) error = NULL;

	if (km_session_edit_finish(KM_SESSION(source), result, &error) ||
	    km_error_is_cancelled(error))
		return;
	km_widget_toast(GTK_WIDGET(self), error->message);
	on_revert(self);
}

static void save_action(GtkWidget *widget, const char *action_name, GVariant *param)
{
	KmDetailsPane *self = KM_DETAILS_PANE(widget);
	const char *values[N_TAGS] = { NULL };
	g_autoptr(GArray) fids = NULL;
	KmTagEdit edit;

	if (!self->session || !self->tracks || !self->tracks->len)
		return;
	for (guint t = 0; t < N_TAGS; t++)
		if (is_edited(self, t))
			values[t] = gtk_editable_get_text(tag_row(self, t));
	edit = (KmTagEdit){ .title = values[TAG_TITLE], .artist = values[TAG_ARTIST],
			    .album = values[TAG_ALBUM], .genre = values[TAG_GENRE],
			    .year = values[TAG_YEAR], .track_number = values[TAG_TRACK_NUMBER] };
	fids = km_fid_list_new_for_tracks(self->tracks);
	km_session_set_tags_async(self->session, (guint32 *)(void *)fids->data, fids->len, &edit,
				  self->cancellable, on_tags_saved, g_object_ref(self));
	/* what is saved is now what is shown */
	for (guint t = 0; t < N_TAGS; t++)
	{
		g_free(self->shown[t]);
		self->shown[t] = g_strdup(gtk_editable_get_text(tag_row(self, t)));
	}
	on_row_changed(self);
}

static void km_details_pane_dispose(GObject *object)
{
	KmDetailsPane *self = KM_DETAILS_PANE(object);

	g_cancellable_cancel(self->cancellable);
	g_clear_object(&self->session);
	g_clear_pointer(&self->tracks, g_ptr_array_unref);
	gtk_widget_dispose_template(GTK_WIDGET(self), KM_TYPE_DETAILS_PANE);
	km_widget_unparent_children(GTK_WIDGET(self));
	G_OBJECT_CLASS(km_details_pane_parent_class)->dispose(object);
}

static void km_details_pane_finalize(GObject *object)
{
	KmDetailsPane *self = KM_DETAILS_PANE(object);

	for (guint t = 0; t < N_TAGS; t++)
		g_free(self->shown[t]);
	g_clear_object(&self->cancellable);
	G_OBJECT_CLASS(km_details_pane_parent_class)->finalize(object);
}

static void km_details_pane_class_init(KmDetailsPaneClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->dispose = km_details_pane_dispose;
	object_class->finalize = km_details_pane_finalize;
	gtk_widget_class_set_template_from_resource(
		widget_class, "/io/github/karmamanager/KarmaManager/ui/km-details-pane.ui");
	gtk_widget_class_bind_template_child(widget_class, KmDetailsPane, stack);
	gtk_widget_class_bind_template_child(widget_class, KmDetailsPane, title_row);
	gtk_widget_class_bind_template_child(widget_class, KmDetailsPane, artist_row);
	gtk_widget_class_bind_template_child(widget_class, KmDetailsPane, album_row);
	gtk_widget_class_bind_template_child(widget_class, KmDetailsPane, genre_row);
	gtk_widget_class_bind_template_child(widget_class, KmDetailsPane, year_row);
	gtk_widget_class_bind_template_child(widget_class, KmDetailsPane, track_number_row);
	gtk_widget_class_bind_template_child(widget_class, KmDetailsPane, revert_button);
	gtk_widget_class_bind_template_child(widget_class, KmDetailsPane, properties_list);
	gtk_widget_class_bind_template_callback(widget_class, on_row_changed);
	gtk_widget_class_bind_template_callback(widget_class, on_revert);
	gtk_widget_class_install_action(widget_class, "details.save", NULL, save_action);
	gtk_widget_class_set_layout_manager_type(widget_class, GTK_TYPE_BIN_LAYOUT);
}

/* Ctrl+S wherever the window's focus is (a class binding needs it in the pane). */
static void add_save_shortcut(KmDetailsPane *self)
{
	GtkEventController *controller = gtk_shortcut_controller_new();

	gtk_shortcut_controller_set_scope(GTK_SHORTCUT_CONTROLLER(controller),
					  GTK_SHORTCUT_SCOPE_MANAGED);
	gtk_shortcut_controller_add_shortcut(
		GTK_SHORTCUT_CONTROLLER(controller),
		gtk_shortcut_new(gtk_keyval_trigger_new(GDK_KEY_s, GDK_CONTROL_MASK),
				 gtk_named_action_new("details.save")));
	gtk_widget_add_controller(GTK_WIDGET(self), controller);
}

static void km_details_pane_init(KmDetailsPane *self)
{
	gtk_widget_init_template(GTK_WIDGET(self));
	add_save_shortcut(self);
	self->cancellable = g_cancellable_new();
	gtk_widget_action_set_enabled(GTK_WIDGET(self), "details.save", FALSE);
}
