/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-player-view-dnd.c - drag and drop: files from the file manager dropped
 * on the library are queued for copying (folders recursively, on the
 * session's worker); tracks dragged out of the library carry their fids
 * (for playlists) and the exported files (KmExportProvider).
 */
#define G_LOG_DOMAIN "km-player-view"

#include "config.h"

#include "km-app-util.h"
#include "km-drag-folder.h"
#include "km-export-provider.h"
#include "km-player-view-private.h"

static GdkDragAction on_drop_enter(GtkDropTarget *target, double x, double y, gpointer data)
{
	/* never MOVE: the file manager must not delete what it gave us */
	return GDK_ACTION_COPY;
}

static gboolean on_drop(GtkDropTarget *target, const GValue *value, double x, double y,
			KmPlayerView *self)
{
	GdkFileList *list = g_value_get_boxed(value);
	GSList *files = list ? gdk_file_list_get_files(list) : NULL;
	g_autoptr(GPtrArray) array = g_ptr_array_new();

	gboolean any = FALSE;

	/* a playlist file dropped is imported as a playlist, the rest added */
	for (GSList *l = files; l; l = l->next) {
		any = TRUE;
		if (km_file_is_playlist(l->data) && !self->closing)
			km_player_view_import_playlist(self, l->data);
		else
			g_ptr_array_add(array, l->data);
	}
	g_slist_free(files);
	if (!any || self->closing)
		return FALSE;
	if (array->len)
		km_player_view_add_files(self, (GFile *const *)array->pdata, array->len);
	return TRUE;
}

static GdkContentProvider *on_prepare_drag(KmPlayerView *self, GtkWidget *cell)
{
	g_autoptr(GPtrArray) tracks = km_library_view_get_selected_tracks(self->library_view);
	g_autoptr(GArray) fids = NULL;
	g_autoptr(GFile) folder = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *template = NULL;

	if (tracks->len == 0 || self->closing)
		return NULL;
	folder = km_drag_folder_new(&error);
	if (!folder) {
		km_widget_toast(GTK_WIDGET(self), error->message);
		return NULL;
	}
	fids = km_fid_list_new_for_tracks(tracks);
	template = g_settings_get_string(self->settings, "export-template");
	return km_export_provider_new(self->session, fids, folder, template);
}

/* Files dropped on widget: lists imported as playlists, the rest added. */
static GtkDropTarget *file_drop_target(KmPlayerView *self, GtkWidget *widget)
{
	GtkDropTarget *target = gtk_drop_target_new(GDK_TYPE_FILE_LIST,
						    GDK_ACTION_COPY | GDK_ACTION_MOVE);

	g_signal_connect(target, "enter", G_CALLBACK(on_drop_enter), NULL);
	g_signal_connect(target, "motion", G_CALLBACK(on_drop_enter), NULL);
	g_signal_connect_object(target, "drop", G_CALLBACK(on_drop), self, 0);
	gtk_widget_add_controller(widget, GTK_EVENT_CONTROLLER(target));
	return target;
}

void _km_player_view_init_dnd(KmPlayerView *self)
{
	self->drop_target = file_drop_target(self, GTK_WIDGET(self->library_view));
	/* the playlists' sidebar takes files too: an .m3u or .xspf dropped there is a new playlist */
	file_drop_target(self, GTK_WIDGET(self->sidebar));
	g_signal_connect_object(self->library_view, "prepare-drag", G_CALLBACK(on_prepare_drag),
				self, G_CONNECT_SWAPPED);
}

GtkDropTarget *_km_player_view_get_drop_target(KmPlayerView *self)
{
	return self->drop_target;
}
