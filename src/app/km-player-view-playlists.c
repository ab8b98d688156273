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

static void on_name_response(KmQuestionDialog *dialog, const char *response, gpointer data)
{
	KmPlayerView *self = KM_PLAYER_VIEW(data);
	GtkEditable *entry = GTK_EDITABLE(km_question_dialog_get_extra_child(dialog));
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
	KmQuestionDialog *dialog = km_question_new(&question, G_CALLBACK(on_name_response), self);
	GtkWidget *entry = gtk_entry_new();

	gtk_entry_set_activates_default(GTK_ENTRY(entry), TRUE);
	gtk_editable_set_text(GTK_EDITABLE(entry),
			      playlist ? km_playlist_item_get_name(playlist) : _("New Playlist"));
	gtk_accessible_update_property(GTK_ACCESSIBLE(entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
				       _("Playlist name"), -1);
	km_question_dialog_set_extra_child(dialog, entry);
	if (playlist)
		g_object_set_data(G_OBJECT(dialog), "km-playlist",
				  GUINT_TO_POINTER(km_playlist_item_get_fid(playlist)));
	km_dialog_present(GTK_WIDGET(dialog), GTK_WIDGET(self));
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

static void on_added_to_playlist(GObject *source, GAsyncResult *result, gpointer data)
{
	g_autoptr(KmPlayerView) self = data;
	g_autoptr(GError) error = NULL;

	km_session_edit_finish(KM_SESSION(source), result, &error);
	_km_player_view_toast_error(self, error);
}

/* player.add-to-playlist(u): the selected tracks at the end of the playlist of that fid. */
static void add_to_playlist_action(GtkWidget *widget, const char *name, GVariant *param)
{
	KmPlayerView *self = KM_PLAYER_VIEW(widget);
	g_autoptr(GPtrArray) tracks = km_library_view_get_selected_tracks(self->library_view);
	g_autoptr(GArray) fids = NULL;

	if (tracks->len == 0 || self->closing)
		return;
	fids = km_fid_list_new_for_tracks(tracks);
	km_session_playlist_add_async(self->session, g_variant_get_uint32(param),
				      (guint32 *)(void *)fids->data, fids->len, -1,
				      self->cancellable, on_added_to_playlist, g_object_ref(self));
}

static void fill_playlists_section(KmPlayerView *self)
{
	GListModel *playlists = km_session_get_playlists(self->session);
	guint n = g_list_model_get_n_items(playlists);

	g_menu_remove_all(self->playlists_section);
	for (guint i = 0; i < n; i++) {
		g_autoptr(KmPlaylistItem) p = g_list_model_get_item(playlists, i);
		g_autoptr(GMenuItem) item = g_menu_item_new(km_playlist_item_get_name(p), NULL);

		g_menu_item_set_action_and_target(item, "player.add-to-playlist", "u",
						  km_playlist_item_get_fid(p));
		g_menu_append_item(self->playlists_section, item);
	}
	/* no action: shown, and insensitive */
	if (n == 0)
		g_menu_append(self->playlists_section, _("No Playlists Yet"), NULL);
}

/* The track menu at (x, y) of the view, or under the selection's first row (x < 0). */
static void show_track_menu(KmPlayerView *self, double x, double y)
{
	GdkRectangle at = { (int)x, (int)y, 1, 1 };

	if (x < 0) {
		graphene_rect_t bounds;

		if (!gtk_widget_compute_bounds(GTK_WIDGET(self->library_view), GTK_WIDGET(self),
					       &bounds))
			return;
		at = (GdkRectangle){ (int)bounds.origin.x + 48, (int)bounds.origin.y + 48, 1, 1 };
	}
	gtk_popover_set_pointing_to(GTK_POPOVER(self->track_popover), &at);
	gtk_popover_popup(GTK_POPOVER(self->track_popover));
}

static void track_menu_action(GtkWidget *widget, const char *name, GVariant *param)
{
	KmPlayerView *self = KM_PLAYER_VIEW(widget);

	if (km_library_view_has_selection(self->library_view))
		show_track_menu(self, -1, -1);
}

/* A right-click selects the row under the pointer (unless it is selected) and shows the menu. */
static void on_secondary_click(GtkGestureClick *gesture, int n_press, double x, double y,
			       KmPlayerView *self)
{
	graphene_point_t in = GRAPHENE_POINT_INIT(x, y), out;

	if (!km_library_view_select_at(self->library_view, x, y) ||
	    !gtk_widget_compute_point(GTK_WIDGET(self->library_view), GTK_WIDGET(self), &in, &out))
		return;
	gtk_gesture_set_state(GTK_GESTURE(gesture), GTK_EVENT_SEQUENCE_CLAIMED);
	show_track_menu(self, out.x, out.y);
}

void _km_player_view_init_playlist_menus(KmPlayerView *self)
{
	GtkGesture *click = gtk_gesture_click_new();
	g_autoptr(GMenu) menu = g_menu_new();

	g_signal_connect_object(km_session_get_playlists(self->session), "items-changed",
				G_CALLBACK(fill_playlists_section), self, G_CONNECT_SWAPPED);
	fill_playlists_section(self);
	/* the track menu: Add to Playlist first, then the template's items */
	g_menu_append_submenu(menu, _("Add to _Playlist"), G_MENU_MODEL(self->add_to_playlist_menu));
	g_menu_append_section(menu, NULL, G_MENU_MODEL(self->track_menu));
	self->track_popover = gtk_popover_menu_new_from_model(G_MENU_MODEL(menu));
	gtk_popover_set_has_arrow(GTK_POPOVER(self->track_popover), FALSE);
	gtk_widget_set_halign(self->track_popover, GTK_ALIGN_START);
	gtk_widget_set_parent(self->track_popover, GTK_WIDGET(self));
	gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(click), GDK_BUTTON_SECONDARY);
	g_signal_connect_object(click, "pressed", G_CALLBACK(on_secondary_click), self, 0);
	gtk_widget_add_controller(GTK_WIDGET(self->library_view), GTK_EVENT_CONTROLLER(click));
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
		{ "player.track-menu", track_menu_action, GDK_KEY_Menu, 0 },
	};

	_km_player_view_install_actions(widget_class, actions, G_N_ELEMENTS(actions));
	_km_player_view_add_shortcut(GDK_KEY_F10, GDK_SHIFT_MASK, "player.track-menu");
	gtk_widget_class_install_action(widget_class, "player.add-to-playlist", "u",
					add_to_playlist_action);
}
