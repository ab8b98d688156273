/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-capacity-bar.c - a drawing area for the bar, a label for the words.
 */
#define G_LOG_DOMAIN "km-capacity-bar"

#include "config.h"

#include <glib/gi18n.h>

#include "km-capacity-bar.h"

struct _KmCapacityBar {
	GtkWidget parent_instance;
	GtkWidget *area;
	GtkWidget *label;
	guint64 total, used, pending;
};

G_DEFINE_FINAL_TYPE(KmCapacityBar, km_capacity_bar, GTK_TYPE_WIDGET)

static void lookup_color(GtkWidget *widget, const char *name, const char *fallback,
			 GdkRGBA *rgba)
{
	/* 4.8 has no other way to read a named color; deprecated from 4.10 */
	G_GNUC_BEGIN_IGNORE_DEPRECATIONS
	if (!gtk_style_context_lookup_color(gtk_widget_get_style_context(widget), name, rgba))
		gdk_rgba_parse(rgba, fallback);
	G_GNUC_END_IGNORE_DEPRECATIONS
}

static void fill(cairo_t *cr, const GdkRGBA *rgba, double x, double w, int height)
{
	if (w <= 0)
		return;
	gdk_cairo_set_source_rgba(cr, rgba);
	cairo_rectangle(cr, x, 0, w, height);
	cairo_fill(cr);
}

static void draw_bar(GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
	KmCapacityBar *self = data;
	GdkRGBA trough, used, pending;
	double used_w = 0, pending_w = 0;

	lookup_color(GTK_WIDGET(area), "accent_bg_color", "#3584e4", &used);
	lookup_color(GTK_WIDGET(area), "warning_color", "#c64600", &pending);
	lookup_color(GTK_WIDGET(area), "borders", "#cccccc", &trough);
	if (self->total) {
		used_w = width * MIN(1.0, (double)self->used / self->total);
		pending_w = MIN(width - used_w, width * (double)self->pending / self->total);
	}
	cairo_save(cr);
	fill(cr, &trough, 0, width, height);
	fill(cr, &used, 0, used_w, height);
	fill(cr, &pending, used_w, pending_w, height);
	cairo_restore(cr);
}

static void update_text(KmCapacityBar *self)
{
	g_autofree char *total = g_format_size(self->total);
	g_autofree char *free_now = g_format_size(self->total - MIN(self->used, self->total));
	g_autofree char *text = NULL;

	if (self->pending) {
		guint64 after = self->used + self->pending;
		g_autofree char *pending = g_format_size(self->pending);

		if (after > self->total) {
			g_autofree char *missing = g_format_size(after - self->total);

			/* Translators: the queued files need more than the free space */
			text = g_strdup_printf(_("%s free of %s — the queued %s need %s more"),
					       free_now, total, pending, missing);
		} else {
			g_autofree char *free_after = g_format_size(self->total - after);

			text = g_strdup_printf(_("%s free of %s — %s after the queued %s"),
					       free_now, total, free_after, pending);
		}
	} else {
		text = g_strdup_printf(_("%s free of %s"), free_now, total);
	}
	gtk_label_set_text(GTK_LABEL(self->label), text);
	gtk_accessible_update_property(GTK_ACCESSIBLE(self->area),
				       GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
}

void km_capacity_bar_set(KmCapacityBar *self, guint64 total, guint64 used, guint64 pending)
{
	g_return_if_fail(KM_IS_CAPACITY_BAR(self));
	self->total = total;
	self->used = used;
	self->pending = pending;
	update_text(self);
	gtk_widget_queue_draw(self->area);
}

const char *km_capacity_bar_get_text(KmCapacityBar *self)
{
	g_return_val_if_fail(KM_IS_CAPACITY_BAR(self), NULL);
	return gtk_label_get_text(GTK_LABEL(self->label));
}

static void km_capacity_bar_dispose(GObject *object)
{
	KmCapacityBar *self = KM_CAPACITY_BAR(object);

	g_clear_pointer(&self->area, gtk_widget_unparent);
	g_clear_pointer(&self->label, gtk_widget_unparent);
	G_OBJECT_CLASS(km_capacity_bar_parent_class)->dispose(object);
}

static void km_capacity_bar_class_init(KmCapacityBarClass *klass)
{
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	G_OBJECT_CLASS(klass)->dispose = km_capacity_bar_dispose;
	gtk_widget_class_set_layout_manager_type(widget_class, GTK_TYPE_BOX_LAYOUT);
	gtk_widget_class_set_css_name(widget_class, "capacitybar");
}

static void km_capacity_bar_init(KmCapacityBar *self)
{
	GtkLayoutManager *layout = gtk_widget_get_layout_manager(GTK_WIDGET(self));

	gtk_orientable_set_orientation(GTK_ORIENTABLE(layout), GTK_ORIENTATION_HORIZONTAL);
	gtk_box_layout_set_spacing(GTK_BOX_LAYOUT(layout), 12);
	self->area = gtk_drawing_area_new();
	gtk_widget_set_size_request(self->area, 160, 8);
	gtk_widget_set_valign(self->area, GTK_ALIGN_CENTER);
	gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(self->area), draw_bar, self, NULL);
	gtk_widget_add_css_class(self->area, "capacity-bar");
	gtk_widget_set_parent(self->area, GTK_WIDGET(self));
	self->label = gtk_label_new(NULL);
	gtk_label_set_xalign(GTK_LABEL(self->label), 0);
	gtk_label_set_ellipsize(GTK_LABEL(self->label), PANGO_ELLIPSIZE_END);
	gtk_widget_set_hexpand(self->label, TRUE);
	gtk_widget_add_css_class(self->label, "dim-label");
	gtk_widget_add_css_class(self->label, "caption");
	gtk_widget_set_parent(self->label, GTK_WIDGET(self));
	update_text(self);
}

GtkWidget *km_capacity_bar_new(void)
{
	return g_object_new(KM_TYPE_CAPACITY_BAR, NULL);
}
