/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-transfer-panel.c - a list box of transfer rows in a revealer.
 */
#define G_LOG_DOMAIN "km-transfer-panel"

#include "config.h"

#include "km-app-util.h"
#include "km-transfer-panel.h"

struct _KmTransferPanel {
	GtkWidget parent_instance;
	GtkRevealer *revealer;
	GtkListBox *list;
	GtkWidget *cancel_button;
};

G_DEFINE_FINAL_TYPE(KmTransferPanel, km_transfer_panel, GTK_TYPE_WIDGET)

enum { SIGNAL_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

#define for_each_row(self, row) \
	for (GtkWidget *row = gtk_widget_get_first_child(GTK_WIDGET((self)->list)); row; \
	     row = gtk_widget_get_next_sibling(row)) \
		if (KM_IS_TRANSFER_ROW(row))

static void on_row_changed(KmTransferPanel *self)
{
	gtk_revealer_set_reveal_child(self->revealer,
				      gtk_widget_get_first_child(GTK_WIDGET(self->list)) != NULL);
	gtk_widget_set_sensitive(self->cancel_button, km_transfer_panel_is_busy(self));
	g_signal_emit(self, signals[SIGNAL_CHANGED], 0);
}

void km_transfer_panel_add(KmTransferPanel *self, KmTransferRow *row)
{
	g_return_if_fail(KM_IS_TRANSFER_PANEL(self) && KM_IS_TRANSFER_ROW(row));
	g_signal_connect_object(row, "changed", G_CALLBACK(on_row_changed), self,
				G_CONNECT_SWAPPED);
	gtk_list_box_append(self->list, GTK_WIDGET(row));
	on_row_changed(self);
}

void km_transfer_panel_cancel_all(KmTransferPanel *self)
{
	g_return_if_fail(KM_IS_TRANSFER_PANEL(self));
	for_each_row(self, row)
		g_cancellable_cancel(km_transfer_row_get_cancellable(KM_TRANSFER_ROW(row)));
}

void km_transfer_panel_clear_finished(KmTransferPanel *self)
{
	GtkWidget *row = gtk_widget_get_first_child(GTK_WIDGET(self->list));

	while (row) {
		GtkWidget *next = gtk_widget_get_next_sibling(row);

		if (KM_IS_TRANSFER_ROW(row) && !km_transfer_row_is_running(KM_TRANSFER_ROW(row)))
			gtk_list_box_remove(self->list, row);
		row = next;
	}
	on_row_changed(self);
}

gboolean km_transfer_panel_is_busy(KmTransferPanel *self)
{
	g_return_val_if_fail(KM_IS_TRANSFER_PANEL(self), FALSE);
	for_each_row(self, row)
		if (km_transfer_row_is_running(KM_TRANSFER_ROW(row)))
			return TRUE;
	return FALSE;
}

guint64 km_transfer_panel_get_pending_bytes(KmTransferPanel *self)
{
	guint64 pending = 0;

	g_return_val_if_fail(KM_IS_TRANSFER_PANEL(self), 0);
	for_each_row(self, row)
		pending += km_transfer_row_get_pending_bytes(KM_TRANSFER_ROW(row));
	return pending;
}

KmTransferRow *km_transfer_panel_get_first_row(KmTransferPanel *self)
{
	g_return_val_if_fail(KM_IS_TRANSFER_PANEL(self), NULL);
	for_each_row(self, row)
		return KM_TRANSFER_ROW(row);
	return NULL;
}

static void km_transfer_panel_dispose(GObject *object)
{
	gtk_widget_dispose_template(GTK_WIDGET(object), KM_TYPE_TRANSFER_PANEL);
	km_widget_unparent_children(GTK_WIDGET(object));
	G_OBJECT_CLASS(km_transfer_panel_parent_class)->dispose(object);
}

static void km_transfer_panel_class_init(KmTransferPanelClass *klass)
{
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	G_OBJECT_CLASS(klass)->dispose = km_transfer_panel_dispose;
	signals[SIGNAL_CHANGED] = g_signal_new("changed", G_TYPE_FROM_CLASS(klass),
					       G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
					       G_TYPE_NONE, 0);
	gtk_widget_class_set_template_from_resource(
		widget_class, "/io/github/karmamanager/KarmaManager/ui/km-transfer-panel.ui");
	gtk_widget_class_bind_template_child(widget_class, KmTransferPanel, revealer);
	gtk_widget_class_bind_template_child(widget_class, KmTransferPanel, list);
	gtk_widget_class_bind_template_child(widget_class, KmTransferPanel, cancel_button);
	gtk_widget_class_bind_template_callback(widget_class, km_transfer_panel_cancel_all);
	gtk_widget_class_bind_template_callback(widget_class, km_transfer_panel_clear_finished);
	gtk_widget_class_set_layout_manager_type(widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void km_transfer_panel_init(KmTransferPanel *self)
{
	gtk_widget_init_template(GTK_WIDGET(self));
}
