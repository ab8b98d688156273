/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-playlist-sidebar.c - a list box rebuilt when the playlists change (a
 * player has few), keeping the selection by fid: a changed playlist is a new
 * KmPlaylistItem with the same fid.
 */
#define G_LOG_DOMAIN "km-playlist-sidebar"

#include "config.h"

#include <glib/gi18n.h>

#include "km-app-util.h"
#include "km-playlist-sidebar.h"

struct _KmPlaylistSidebar {
	GtkWidget parent_instance;
	GtkListBox *list;
	GListModel *playlists;
	guint32 selected_fid;	/* 0: the library */
	gboolean rebuilding;
};

G_DEFINE_FINAL_TYPE(KmPlaylistSidebar, km_playlist_sidebar, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_SELECTED, N_PROPS };
static GParamSpec *properties[N_PROPS];
enum { SIGNAL_TRACKS_DROPPED, N_SIGNALS };
static guint signals[N_SIGNALS];

static gboolean on_drop(GtkDropTarget *target, const GValue *value, double x, double y,
			KmPlaylistSidebar *self)
{
	GtkWidget *row = gtk_event_controller_get_widget(GTK_EVENT_CONTROLLER(target));
	KmPlaylistItem *item = g_object_get_data(G_OBJECT(row), "km-playlist");
	GArray *fids = g_value_get_boxed(value);

	if (!item || !fids || fids->len == 0)
		return FALSE;
	g_signal_emit(self, signals[SIGNAL_TRACKS_DROPPED], 0, item, fids);
	return TRUE;
}

static GtkWidget *make_row(KmPlaylistSidebar *self, KmPlaylistItem *item)
{
	GtkWidget *row = gtk_list_box_row_new();
	GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
	GtkWidget *icon = gtk_image_new_from_icon_name(item ? "view-list-symbolic" :
						       "folder-music-symbolic");
	GtkWidget *label = gtk_label_new(item ? km_playlist_item_get_name(item) : _("Library"));
	GtkDropTarget *drop;

	gtk_label_set_xalign(GTK_LABEL(label), 0);
	gtk_label_set_ellipsize(GTK_LABEL(label), PANGO_ELLIPSIZE_END);
	gtk_widget_set_hexpand(label, TRUE);
	gtk_box_append(GTK_BOX(box), icon);
	gtk_box_append(GTK_BOX(box), label);
	if (item) {
		g_autofree char *count = g_strdup_printf(
			"%u", km_playlist_item_get_n_entries(item));
		GtkWidget *count_label = gtk_label_new(count);

		gtk_widget_add_css_class(count_label, "dim-label");
		gtk_box_append(GTK_BOX(box), count_label);
		g_object_set_data_full(G_OBJECT(row), "km-playlist", g_object_ref(item),
				       g_object_unref);
		drop = gtk_drop_target_new(KM_TYPE_FID_LIST, GDK_ACTION_COPY);
		g_signal_connect_object(drop, "drop", G_CALLBACK(on_drop), self, 0);
		gtk_widget_add_controller(row, GTK_EVENT_CONTROLLER(drop));
	}
	gtk_list_box_row_set_child(GTK_LIST_BOX_ROW(row), box);
	return row;
}

static GtkListBoxRow *row_for_fid(KmPlaylistSidebar *self, guint32 fid)
{
	for (int i = 0;; i++) {
		GtkListBoxRow *row = gtk_list_box_get_row_at_index(self->list, i);
		KmPlaylistItem *item;

		if (!row)
			return NULL;
		item = g_object_get_data(G_OBJECT(row), "km-playlist");
		if ((item ? km_playlist_item_get_fid(item) : 0) == fid)
			return row;
	}
}

static void rebuild(KmPlaylistSidebar *self)
{
	GtkWidget *child;
	guint n = self->playlists ? g_list_model_get_n_items(self->playlists) : 0;
	GtkListBoxRow *selected;

	self->rebuilding = TRUE;
	while ((child = gtk_widget_get_first_child(GTK_WIDGET(self->list))))
		gtk_list_box_remove(self->list, child);
	gtk_list_box_append(self->list, make_row(self, NULL));
	for (guint i = 0; i < n; i++) {
		g_autoptr(KmPlaylistItem) item = g_list_model_get_item(self->playlists, i);

		gtk_list_box_append(self->list, make_row(self, item));
	}
	selected = row_for_fid(self, self->selected_fid);
	if (!selected) {
		self->selected_fid = 0;
		selected = gtk_list_box_get_row_at_index(self->list, 0);
	}
	gtk_list_box_select_row(self->list, selected);
	self->rebuilding = FALSE;
	/* the item is new even when the fid is the same */
	g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_SELECTED]);
}

static void on_row_selected(KmPlaylistSidebar *self, GtkListBoxRow *row)
{
	KmPlaylistItem *item = row ? g_object_get_data(G_OBJECT(row), "km-playlist") : NULL;

	if (self->rebuilding || !row)
		return;
	self->selected_fid = item ? km_playlist_item_get_fid(item) : 0;
	g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_SELECTED]);
}

void km_playlist_sidebar_set_playlists(KmPlaylistSidebar *self, GListModel *playlists)
{
	g_return_if_fail(KM_IS_PLAYLIST_SIDEBAR(self));
	if (self->playlists)
		g_signal_handlers_disconnect_by_data(self->playlists, self);
	g_set_object(&self->playlists, playlists);
	if (playlists)
		g_signal_connect_swapped(playlists, "items-changed", G_CALLBACK(rebuild), self);
	rebuild(self);
}

KmPlaylistItem *km_playlist_sidebar_get_selected(KmPlaylistSidebar *self)
{
	GtkListBoxRow *row;

	g_return_val_if_fail(KM_IS_PLAYLIST_SIDEBAR(self), NULL);
	row = gtk_list_box_get_selected_row(self->list);
	return row ? g_object_get_data(G_OBJECT(row), "km-playlist") : NULL;
}

void km_playlist_sidebar_select(KmPlaylistSidebar *self, guint32 fid)
{
	GtkListBoxRow *row;

	g_return_if_fail(KM_IS_PLAYLIST_SIDEBAR(self));
	row = row_for_fid(self, fid);
	if (row)
		gtk_list_box_select_row(self->list, row);
}

GtkDropTarget *km_playlist_sidebar_get_drop_target(KmPlaylistSidebar *self, guint32 fid)
{
	GtkListBoxRow *row = row_for_fid(self, fid);
	g_autoptr(GListModel) controllers = NULL;

	if (!row || fid == 0)
		return NULL;
	controllers = gtk_widget_observe_controllers(GTK_WIDGET(row));
	for (guint i = 0; i < g_list_model_get_n_items(controllers); i++) {
		g_autoptr(GObject) c = g_list_model_get_item(controllers, i);

		if (GTK_IS_DROP_TARGET(c))
			return GTK_DROP_TARGET(c);	/* the row holds it */
	}
	return NULL;
}

static void km_playlist_sidebar_get_property(GObject *object, guint prop_id, GValue *value,
					     GParamSpec *pspec)
{
	KmPlaylistSidebar *self = KM_PLAYLIST_SIDEBAR(object);

	switch (prop_id) {
	case PROP_SELECTED:
		g_value_set_object(value, km_playlist_sidebar_get_selected(self));
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
	}
}

static void km_playlist_sidebar_dispose(GObject *object)
{
	KmPlaylistSidebar *self = KM_PLAYLIST_SIDEBAR(object);

	if (self->playlists)
		g_signal_handlers_disconnect_by_data(self->playlists, self);
	g_clear_object(&self->playlists);
	gtk_widget_dispose_template(GTK_WIDGET(self), KM_TYPE_PLAYLIST_SIDEBAR);
	km_widget_unparent_children(GTK_WIDGET(self));
	G_OBJECT_CLASS(km_playlist_sidebar_parent_class)->dispose(object);
}

static void km_playlist_sidebar_class_init(KmPlaylistSidebarClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->get_property = km_playlist_sidebar_get_property;
	object_class->dispose = km_playlist_sidebar_dispose;
	properties[PROP_SELECTED] =
		g_param_spec_object("selected", NULL, NULL, KM_TYPE_PLAYLIST_ITEM,
				    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
	g_object_class_install_properties(object_class, N_PROPS, properties);
	signals[SIGNAL_TRACKS_DROPPED] =
		g_signal_new("tracks-dropped", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
			     NULL, NULL, NULL, G_TYPE_NONE, 2, KM_TYPE_PLAYLIST_ITEM,
			     KM_TYPE_FID_LIST);
	gtk_widget_class_set_template_from_resource(
		widget_class, "/io/github/karmamanager/KarmaManager/ui/km-playlist-sidebar.ui");
	gtk_widget_class_bind_template_child(widget_class, KmPlaylistSidebar, list);
	gtk_widget_class_bind_template_callback(widget_class, on_row_selected);
	gtk_widget_class_set_layout_manager_type(widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void km_playlist_sidebar_init(KmPlaylistSidebar *self)
{
	gtk_widget_init_template(GTK_WIDGET(self));
	rebuild(self);
}
