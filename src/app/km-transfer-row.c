/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-transfer-row.c - a transfer job's row, built in code: it is a list of
 * labels and bars whose count depends on the job.
 */
#define G_LOG_DOMAIN "km-transfer-row"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "km-app-util.h"
#include "km-transfer-row.h"

struct _KmTransferRow {
	GtkListBoxRow parent_instance;
	GtkWidget *title, *status, *file_bar, *job_bar, *cancel, *files_box, *problems_box;
	GCancellable *cancellable;
	GPtrArray *item_cancellables;	/* GCancellable, one per file */
	GPtrArray *item_buttons;	/* GtkWidget (borrowed), one per file */
	guint64 pending;
	gboolean running;
	gboolean fills_player;
	char *finished_title;
	GHashTable *track_names;	/* fid -> "“Title”", or NULL */
};

G_DEFINE_FINAL_TYPE(KmTransferRow, km_transfer_row, GTK_TYPE_LIST_BOX_ROW)

enum { SIGNAL_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static char *time_left_text(gint64 seconds)
{
	if (seconds < 0)
		return g_strdup("");
	if (seconds < 60)
		return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE, "%u second left",
						   "%u seconds left", (gulong)seconds),
				       (guint)seconds);
	return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE, "%u minute left", "%u minutes left",
					   (gulong)(seconds / 60)),
			       (guint)(seconds / 60));
}

/* The status line: the file and its copy's speed, or that it is being converted first. */
static char *status_text(const KmProgress *p)
{
	g_autofree char *rate = NULL, *left = NULL;
	const char *name = p->file_name ? p->file_name : "";
	guint number = MIN(p->file_index + 1, p->n_files);

	if (p->converting)
		/* Translators: file name, the format (Ogg Vorbis, MP3, FLAC), its number, how many */
		return g_strdup_printf(_("Converting “%s” to %s… — %u of %u"), name,
				       p->convert_format, number, p->n_files);
	rate = p->rate > 0 ? g_format_size((guint64)p->rate) : g_strdup("");
	left = time_left_text(p->seconds_left);
	/* Translators: file name, its number, how many, speed per second, time left */
	return g_strdup_printf(_("“%s” — %u of %u — %s/s — %s"), name, number, p->n_files, rate,
			       left);
}

/* What the file bar shows: the conversion's share of the audio, else the copy's of the bytes. */
static double file_fraction(const KmProgress *p)
{
	if (p->converting)
		return p->convert_total_ms ?
		       MIN(1.0, (double)p->convert_done_ms / p->convert_total_ms) : 0.0;
	return p->file_bytes_total ? (double)p->file_bytes_done / p->file_bytes_total : 0.0;
}

void km_transfer_row_update(KmTransferRow *self, const KmProgress *p)
{
	g_autofree char *text = NULL;

	g_return_if_fail(KM_IS_TRANSFER_ROW(self) && p);
	if (!self->running)
		return;
	text = status_text(p);
	gtk_label_set_text(GTK_LABEL(self->status), text);
	gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->file_bar), file_fraction(p));
	gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->job_bar),
				      km_progress_get_fraction(p));
	self->pending = p->bytes_total > p->bytes_done ? p->bytes_total - p->bytes_done : 0;
	g_signal_emit(self, signals[SIGNAL_CHANGED], 0);
}

/* reason, without the "path: " or "name: " the reader's messages start with. */
static const char *reason_after_name(const char *reason, const char *path, const char *name)
{
	const char *prefixes[] = { path, name };

	for (guint i = 0; i < G_N_ELEMENTS(prefixes); i++) {
		gsize len = prefixes[i] ? strlen(prefixes[i]) : 0;

		if (len && g_str_has_prefix(reason, prefixes[i]) &&
		    g_str_has_prefix(reason + len, ": "))
			return reason + len + 2;
	}
	return reason;
}

/* "name: reason", the name once (a track's title when the item has no file). */
static GtkWidget *problem_label(KmTransferRow *self, KmReportItem *item)
{
	const char *title = self->track_names ?
			    g_hash_table_lookup(self->track_names, GUINT_TO_POINTER(item->fid)) : NULL;
	g_autofree char *name = item->file ? g_file_get_basename(item->file) : g_strdup(title);
	g_autofree char *path = item->file ? g_file_get_path(item->file) : NULL;
	const char *reason = reason_after_name(item->reason ? item->reason : "", path, name);
	g_autofree char *text = g_strdup_printf("%s: %s", name ? name : "?", reason);
	GtkWidget *label = gtk_label_new(text);

	gtk_label_set_xalign(GTK_LABEL(label), 0);
	gtk_label_set_wrap(GTK_LABEL(label), TRUE);
	gtk_label_set_selectable(GTK_LABEL(label), TRUE);
	gtk_widget_add_css_class(label, "caption");
	return label;
}

static char *summary_text(KmReport *report, const GError *error)
{
	guint done = report ? report->counts[KM_ITEM_DONE] : 0;
	guint total = report ? report->items->len : 0;
	g_autofree char *counts = g_strdup_printf(
		/* Translators: "3 of 12 files copied" */
		g_dngettext(GETTEXT_PACKAGE, "%u of %u file copied", "%u of %u files copied",
			    total), done, total);

	if (error && !km_error_is_cancelled(error))
		return g_strdup_printf("%s — %s", counts, error->message);
	if (error)
		return g_strdup_printf(_("%s — cancelled"), counts);
	return g_steal_pointer(&counts);
}

/* The job ended: summary in the status line, report's problems below it. */
static void finish(KmTransferRow *self, const char *summary, KmReport *report,
		   const GError *error)
{
	self->running = FALSE;
	self->pending = 0;
	if (self->finished_title) {
		gtk_label_set_text(GTK_LABEL(self->title), self->finished_title);
		gtk_widget_set_tooltip_text(self->title, self->finished_title);
	}
	gtk_label_set_text(GTK_LABEL(self->status), summary);
	gtk_widget_set_visible(self->file_bar, FALSE);
	gtk_widget_set_visible(self->job_bar, FALSE);
	gtk_widget_set_visible(self->files_box, FALSE);
	gtk_button_set_icon_name(GTK_BUTTON(self->cancel), "window-close-symbolic");
	gtk_widget_set_tooltip_text(self->cancel, _("Dismiss"));
	for (guint i = 0; report && i < report->items->len; i++) {
		KmReportItem *item = report->items->pdata[i];

		if (item->outcome != KM_ITEM_DONE)
			gtk_box_append(GTK_BOX(self->problems_box), problem_label(self, item));
	}
	gtk_widget_set_visible(self->problems_box,
			       gtk_widget_get_first_child(self->problems_box) != NULL);
	if (error && !km_error_is_cancelled(error))
		gtk_widget_add_css_class(self->status, "error");
	g_signal_emit(self, signals[SIGNAL_CHANGED], 0);
}

void km_transfer_row_finish(KmTransferRow *self, KmReport *report, const GError *error)
{
	g_autofree char *summary = NULL;

	g_return_if_fail(KM_IS_TRANSFER_ROW(self));
	if (report && !error)
		error = report->error;
	summary = summary_text(report, error);
	finish(self, summary, report, error);
}

void km_transfer_row_finish_text(KmTransferRow *self, const char *text, const GError *error)
{
	g_return_if_fail(KM_IS_TRANSFER_ROW(self));
	if (error && km_error_is_cancelled(error))
		text = _("Cancelled");
	else if (error)
		text = error->message;
	finish(self, text, NULL, error);
}

static void on_cancel_clicked(KmTransferRow *self)
{
	GtkWidget *list = gtk_widget_get_parent(GTK_WIDGET(self));

	if (self->running) {
		g_cancellable_cancel(self->cancellable);
		return;
	}
	if (!GTK_IS_LIST_BOX(list))
		return;
	/* dismissed: the panel hears it once the row is gone */
	g_object_ref(self);
	gtk_list_box_remove(GTK_LIST_BOX(list), GTK_WIDGET(self));
	g_signal_emit(self, signals[SIGNAL_CHANGED], 0);
	g_object_unref(self);
}

static void on_item_cancel_clicked(GtkButton *button, KmTransferRow *self)
{
	guint i;

	if (!g_ptr_array_find(self->item_buttons, button, &i))
		return;
	g_cancellable_cancel(self->item_cancellables->pdata[i]);
	gtk_widget_set_sensitive(GTK_WIDGET(button), FALSE);
}

static void add_file_line(KmTransferRow *self, GFile *file)
{
	GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
	g_autofree char *name = g_file_get_basename(file);
	GtkWidget *label = gtk_label_new(name);
	GtkWidget *button = gtk_button_new_from_icon_name("process-stop-symbolic");
	g_autofree char *tip = g_strdup_printf(_("Do not copy “%s”"), name);

	gtk_label_set_xalign(GTK_LABEL(label), 0);
	gtk_label_set_ellipsize(GTK_LABEL(label), PANGO_ELLIPSIZE_MIDDLE);
	gtk_widget_set_hexpand(label, TRUE);
	gtk_widget_add_css_class(label, "caption");
	gtk_widget_add_css_class(button, "flat");
	gtk_widget_set_tooltip_text(button, tip);
	gtk_accessible_update_property(GTK_ACCESSIBLE(button), GTK_ACCESSIBLE_PROPERTY_LABEL, tip,
				       -1);
	g_signal_connect(button, "clicked", G_CALLBACK(on_item_cancel_clicked), self);
	gtk_box_append(GTK_BOX(box), label);
	gtk_box_append(GTK_BOX(box), button);
	gtk_box_append(GTK_BOX(self->files_box), box);
	g_ptr_array_add(self->item_cancellables, g_cancellable_new());
	g_ptr_array_add(self->item_buttons, button);
}

static GtkWidget *bar_new(const char *name)
{
	GtkWidget *bar = gtk_progress_bar_new();

	gtk_accessible_update_property(GTK_ACCESSIBLE(bar), GTK_ACCESSIBLE_PROPERTY_LABEL, name,
				       -1);
	return bar;
}

static void build(KmTransferRow *self, const char *title)
{
	GtkWidget *outer = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
	GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);

	self->title = gtk_label_new(title);
	self->status = gtk_label_new(_("Waiting…"));
	self->file_bar = bar_new(_("This file"));
	self->job_bar = bar_new(_("All files"));
	self->cancel = gtk_button_new_from_icon_name("process-stop-symbolic");
	self->files_box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
	self->problems_box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
	gtk_label_set_xalign(GTK_LABEL(self->title), 0);
	/*
	 * a folder's path or a backup's name is long: shortened in the middle
	 * (whole on hover), it never widens the window; one line, as the
	 * panel's height is measured
	 */
	gtk_label_set_ellipsize(GTK_LABEL(self->title), PANGO_ELLIPSIZE_MIDDLE);
	gtk_widget_set_tooltip_text(self->title, title);
	gtk_widget_add_css_class(self->title, "heading");
	gtk_label_set_xalign(GTK_LABEL(self->status), 0);
	gtk_label_set_ellipsize(GTK_LABEL(self->status), PANGO_ELLIPSIZE_MIDDLE);
	gtk_widget_add_css_class(self->status, "caption");
	gtk_widget_set_visible(self->problems_box, FALSE);
	gtk_widget_set_tooltip_text(self->cancel, _("Cancel"));
	gtk_accessible_update_property(GTK_ACCESSIBLE(self->cancel),
				       GTK_ACCESSIBLE_PROPERTY_LABEL, _("Cancel"), -1);
	gtk_widget_set_valign(self->cancel, GTK_ALIGN_START);
	gtk_widget_add_css_class(self->cancel, "circular");
	g_signal_connect_swapped(self->cancel, "clicked", G_CALLBACK(on_cancel_clicked), self);
	gtk_widget_set_hexpand(box, TRUE);
	for (GtkWidget **w = (GtkWidget *[]){ self->title, self->status, self->file_bar,
					      self->job_bar, self->files_box,
					      self->problems_box, NULL }; *w; w++)
		gtk_box_append(GTK_BOX(box), *w);
	gtk_box_append(GTK_BOX(outer), box);
	gtk_box_append(GTK_BOX(outer), self->cancel);
	gtk_widget_set_margin_top(outer, 6);
	gtk_widget_set_margin_bottom(outer, 6);
	gtk_widget_set_margin_start(outer, 12);
	gtk_widget_set_margin_end(outer, 12);
	gtk_list_box_row_set_child(GTK_LIST_BOX_ROW(self), outer);
	gtk_list_box_row_set_activatable(GTK_LIST_BOX_ROW(self), FALSE);
}

KmTransferRow *km_transfer_row_new(const char *title, GFile *const *files, guint n_files)
{
	KmTransferRow *self = g_object_new(KM_TYPE_TRANSFER_ROW, NULL);

	build(self, title);
	for (guint i = 0; files && i < n_files; i++)
		add_file_line(self, files[i]);
	gtk_widget_set_visible(self->files_box, n_files > 1);
	return self;
}

GCancellable *km_transfer_row_get_cancellable(KmTransferRow *self)
{
	g_return_val_if_fail(KM_IS_TRANSFER_ROW(self), NULL);
	return self->cancellable;
}

GCancellable *const *km_transfer_row_get_item_cancellables(KmTransferRow *self)
{
	g_return_val_if_fail(KM_IS_TRANSFER_ROW(self), NULL);
	if (self->item_cancellables->len == 0)
		return NULL;
	return (GCancellable *const *)self->item_cancellables->pdata;
}

gboolean km_transfer_row_is_running(KmTransferRow *self)
{
	g_return_val_if_fail(KM_IS_TRANSFER_ROW(self), FALSE);
	return self->running;
}

void km_transfer_row_set_fills_player(KmTransferRow *self, gboolean fills)
{
	g_return_if_fail(KM_IS_TRANSFER_ROW(self));
	self->fills_player = fills;
}

void km_transfer_row_set_track_names(KmTransferRow *self, GPtrArray *tracks)
{
	g_return_if_fail(KM_IS_TRANSFER_ROW(self));
	g_clear_pointer(&self->track_names, g_hash_table_unref);
	self->track_names = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	for (guint i = 0; i < tracks->len; i++)
		g_hash_table_insert(self->track_names,
				    GUINT_TO_POINTER(km_track_get_fid(tracks->pdata[i])),
				    g_strdup_printf("“%s”", km_track_get_title(tracks->pdata[i])));
}

/* A pulse every tenth of a second, while the job runs. */
static gboolean pulse_job_bar(GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
	KmTransferRow *self = KM_TRANSFER_ROW(widget);
	gint64 now = gdk_frame_clock_get_frame_time(clock);
	gint64 *last = data;

	if (!self->running)
		return G_SOURCE_REMOVE;
	if (now - *last >= G_USEC_PER_SEC / 10) {
		gtk_progress_bar_pulse(GTK_PROGRESS_BAR(self->job_bar));
		*last = now;
	}
	return G_SOURCE_CONTINUE;
}

void km_transfer_row_set_unmeasured(KmTransferRow *self, const char *status)
{
	g_return_if_fail(KM_IS_TRANSFER_ROW(self));
	gtk_label_set_text(GTK_LABEL(self->status), status);
	gtk_widget_set_visible(self->file_bar, FALSE);
	gtk_widget_add_tick_callback(GTK_WIDGET(self), pulse_job_bar, g_new0(gint64, 1), g_free);
}

void km_transfer_row_set_finished_title(KmTransferRow *self, const char *title)
{
	g_return_if_fail(KM_IS_TRANSFER_ROW(self));
	g_free(self->finished_title);
	self->finished_title = g_strdup(title);
}

guint64 km_transfer_row_get_pending_bytes(KmTransferRow *self)
{
	g_return_val_if_fail(KM_IS_TRANSFER_ROW(self), 0);
	return self->fills_player ? self->pending : 0;
}

const char *km_transfer_row_get_status(KmTransferRow *self)
{
	g_return_val_if_fail(KM_IS_TRANSFER_ROW(self), NULL);
	return gtk_label_get_text(GTK_LABEL(self->status));
}

char *km_transfer_row_dup_problems(KmTransferRow *self)
{
	GString *text = g_string_new(NULL);

	for (GtkWidget *l = gtk_widget_get_first_child(self->problems_box); l;
	     l = gtk_widget_get_next_sibling(l))
		g_string_append_printf(text, "%s\n", gtk_label_get_text(GTK_LABEL(l)));
	return g_string_free(text, FALSE);
}

static void km_transfer_row_finalize(GObject *object)
{
	KmTransferRow *self = KM_TRANSFER_ROW(object);

	g_free(self->finished_title);
	g_clear_pointer(&self->track_names, g_hash_table_unref);
	g_ptr_array_unref(self->item_cancellables);
	g_ptr_array_unref(self->item_buttons);
	g_object_unref(self->cancellable);
	G_OBJECT_CLASS(km_transfer_row_parent_class)->finalize(object);
}

static void km_transfer_row_class_init(KmTransferRowClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = km_transfer_row_finalize;
	signals[SIGNAL_CHANGED] = g_signal_new("changed", G_TYPE_FROM_CLASS(klass),
					       G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
					       G_TYPE_NONE, 0);
}

static void km_transfer_row_init(KmTransferRow *self)
{
	self->cancellable = g_cancellable_new();
	self->item_cancellables = g_ptr_array_new_with_free_func(g_object_unref);
	self->item_buttons = g_ptr_array_new();
	self->running = TRUE;
}
