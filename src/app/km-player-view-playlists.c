/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-player-view-playlists.c - the playlist actions: new, rename, delete,
 * add tracks (dropped on a playlist), remove tracks, move a track up or down.
 */
#define G_LOG_DOMAIN "km-player-view"

#include "config.h"

#include <glib/gi18n.h>

#include "km-app-util.h"
#include "km-player-view-private.h"

static void on_edited(GObject *source, GAsyncResult *result, gpointer data)
{
	g_autoptr(KmPlayerView) self = data;
	g_autoptr(GError) error = NULL;

	km_session_edit_finish(KM_SESSION(source), result, &error);
	_km_player_view_toast_error(self, error);
}

static void on_created(GObject *source, GAsyncResult *result, gpointer data)
{
	g_autoptr(KmPlayerView) self = data;
	g_autoptr(GError) error = NULL;
	guint32 fid = 0;

	if (km_session_playlist_create_finish(KM_SESSION(source), result, &fid, &error))
		km_playlist_sidebar_select(self->sidebar, fid);
	_km_player_view_toast_error(self, error);
}

static void on_name_response(AdwMessageDialog *dialog, const char *response, gpointer data)
{
	KmPlayerView *self = KM_PLAYER_VIEW(data);
	GtkEditable *entry = GTK_EDITABLE(adw_message_dialog_get_extra_child(dialog));
	const char *name = gtk_editable_get_text(entry);
	guint32 fid = GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(dialog), "km-playlist"));

	if (self->closing || !*name)
		return;
	if (g_str_equal(response, "create"))
		km_session_playlist_create_async(self->session, name, self->cancellable,
						 on_created, g_object_ref(self));
	else if (g_str_equal(response, "rename"))
		km_session_playlist_rename_async(self->session, fid, name, self->cancellable,
						 on_edited, g_object_ref(self));
}

/* Asks for a playlist name; response is "create" or "rename". */
static void ask_name(KmPlayerView *self, const char *heading, const char *response,
		     const char *label, KmPlaylistItem *playlist)
{
	const KmQuestion question = {
		.heading = heading,
		.cancel_id = "cancel", .cancel_label = _("_Cancel"),
		.act_id = response, .act_label = label,
		.appearance = ADW_RESPONSE_SUGGESTED,
	};
	AdwMessageDialog *dialog = km_question_new(GTK_WIDGET(self), &question,
						   G_CALLBACK(on_name_response), self);
	GtkWidget *entry = gtk_entry_new();

	gtk_entry_set_activates_default(GTK_ENTRY(entry), TRUE);
	gtk_editable_set_text(GTK_EDITABLE(entry),
			      playlist ? km_playlist_item_get_name(playlist) : _("New Playlist"));
	gtk_accessible_update_property(GTK_ACCESSIBLE(entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
				       _("Playlist name"), -1);
	adw_message_dialog_set_extra_child(dialog, entry);
	if (playlist)
		g_object_set_data(G_OBJECT(dialog), "km-playlist",
				  GUINT_TO_POINTER(km_playlist_item_get_fid(playlist)));
	gtk_window_present(GTK_WINDOW(dialog));
}

static void new_playlist_action(GtkWidget *widget, const char *name, GVariant *param)
{
	ask_name(KM_PLAYER_VIEW(widget), _("New Playlist"), "create", _("C_reate"), NULL);
}

static void rename_playlist_action(GtkWidget *widget, const char *name, GVariant *param)
{
	KmPlayerView *self = KM_PLAYER_VIEW(widget);
	KmPlaylistItem *playlist = km_playlist_sidebar_get_selected(self->sidebar);

	if (playlist)
		ask_name(self, _("Rename Playlist"), "rename", _("_Rename"), playlist);
}

static void delete_playlist_action(GtkWidget *widget, const char *name, GVariant *param)
{
	KmPlayerView *self = KM_PLAYER_VIEW(widget);
	KmPlaylistItem *playlist = km_playlist_sidebar_get_selected(self->sidebar);
	g_autofree char *message = NULL;

	if (!playlist || self->closing)
		return;
	km_session_playlist_delete_async(self->session, km_playlist_item_get_fid(playlist),
					 self->cancellable, on_edited, g_object_ref(self));
	/* the tracks stay on the player: a toast is enough */
	message = g_strdup_printf(_("Playlist “%s” deleted"), km_playlist_item_get_name(playlist));
	km_widget_toast(widget, message);
}

/* The entry indexes of the playlist that hold one of tracks. */
static GArray *entry_indexes(KmPlaylistItem *playlist, GPtrArray *tracks)
{
	GListModel *model = km_playlist_item_get_tracks(playlist);
	GArray *indexes = g_array_new(FALSE, FALSE, sizeof(guint));

	for (guint pos = 0; pos < g_list_model_get_n_items(model); pos++) {
		g_autoptr(KmTrack) track = g_list_model_get_item(model, pos);

		if (g_ptr_array_find(tracks, track, NULL)) {
			guint index = km_playlist_item_get_entry_index(playlist, pos);

			g_array_append_val(indexes, index);
		}
	}
	return indexes;
}

void _km_player_view_remove_from_playlist(KmPlayerView *self, GPtrArray *tracks)
{
	KmPlaylistItem *playlist = km_playlist_sidebar_get_selected(self->sidebar);
	g_autoptr(GArray) indexes = NULL;

	if (!playlist || self->closing)
		return;
	indexes = entry_indexes(playlist, tracks);
	if (indexes->len)
		km_session_playlist_remove_async(self->session, km_playlist_item_get_fid(playlist),
						 (guint *)(void *)indexes->data, indexes->len,
						 self->cancellable, on_edited, g_object_ref(self));
}

void _km_player_view_playlist_tracks_dropped(KmPlayerView *self, KmPlaylistItem *playlist,
					     GArray *fids)
{
	if (self->closing)
		return;
	km_session_playlist_add_async(self->session, km_playlist_item_get_fid(playlist),
				      (guint32 *)(void *)fids->data, fids->len, -1,
				      self->cancellable, on_edited, g_object_ref(self));
}

static void move_action(GtkWidget *widget, const char *name, GVariant *param)
{
	KmPlayerView *self = KM_PLAYER_VIEW(widget);
	KmPlaylistItem *playlist = km_playlist_sidebar_get_selected(self->sidebar);
	g_autoptr(GPtrArray) tracks = km_library_view_get_selected_tracks(self->library_view);
	g_autoptr(GArray) indexes = NULL;
	gboolean up = g_str_equal(name, "player.move-up");
	guint from, n;

	if (!playlist || tracks->len != 1 || self->closing)
		return;
	indexes = entry_indexes(playlist, tracks);
	n = km_playlist_item_get_n_entries(playlist);
	if (indexes->len != 1)
		return;
	from = g_array_index(indexes, guint, 0);
	if ((up && from == 0) || (!up && from + 1 >= n))
		return;
	/* a move is seen in the playlist's order: a column's sort would hide it */
	km_library_view_unsort(self->library_view);
	self->moved_entry = up ? from - 1 : from + 1;
	km_session_playlist_move_async(self->session, km_playlist_item_get_fid(playlist), from,
				       up ? from - 1 : from + 1, self->cancellable, on_edited,
				       g_object_ref(self));
}

void _km_player_view_class_init_playlists(GtkWidgetClass *widget_class)
{
	static const KmViewAction actions[] = {
		{ "player.new-playlist", new_playlist_action, GDK_KEY_n, GDK_CONTROL_MASK },
		{ "player.rename-playlist", rename_playlist_action, GDK_KEY_F2, 0 },
		{ "player.delete-playlist", delete_playlist_action, GDK_KEY_Delete,
		  GDK_SHIFT_MASK },
		{ "player.move-up", move_action, GDK_KEY_Up, GDK_ALT_MASK },
		{ "player.move-down", move_action, GDK_KEY_Down, GDK_ALT_MASK },
	};

	_km_player_view_install_actions(widget_class, actions, G_N_ELEMENTS(actions));
}
