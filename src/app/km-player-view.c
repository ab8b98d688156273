/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-player-view.c - one open player: wires the session's lists into the
 * sidebar, library view and details pane, and its space into the capacity
 * bar. Actions, drag and drop and playlists are in the other
 * km-player-view-*.c files.
 */
#define G_LOG_DOMAIN "km-player-view"

#include "config.h"

#include <glib/gi18n.h>

#include "km-app-util.h"
#include "km-player-view-private.h"

G_DEFINE_FINAL_TYPE(KmPlayerView, km_player_view, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_DETAILS_VISIBLE, N_PROPS };
static GParamSpec *properties[N_PROPS];
enum { SIGNAL_CLOSED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void update_capacity(KmPlayerView *self)
{
	if (!self->session)
		return;
	km_capacity_bar_set(self->capacity_bar, km_session_get_total_bytes(self->session),
			    km_session_get_used_bytes(self->session),
			    km_transfer_panel_get_pending_bytes(self->transfers));
	_km_player_view_update_actions(self);
}

static void on_tracks_changed(KmPlayerView *self)
{
	km_details_pane_refresh(self->details_pane);
	_km_player_view_update_actions(self);
}

/* The number of tracks shown: the library's, or the playlist's entries. */
static void update_subtitle(KmPlayerView *self)
{
	KmPlaylistItem *playlist = km_playlist_sidebar_get_selected(self->sidebar);
	guint n = playlist ? km_playlist_item_get_n_entries(playlist) :
		  g_list_model_get_n_items(self->shown_tracks);
	g_autofree char *text = g_strdup_printf(g_dngettext(GETTEXT_PACKAGE, "%u track",
							    "%u tracks", n), n);

	adw_window_title_set_subtitle(self->window_title, text);
}

void _km_player_view_selection_changed(KmPlayerView *self)
{
	g_autoptr(GPtrArray) tracks = km_library_view_get_selected_tracks(self->library_view);

	km_details_pane_set_tracks(self->details_pane, tracks);
	_km_player_view_update_actions(self);
}

/* The view's row of the playlist's entry index (its own order), or G_MAXUINT. */
static guint entry_position(KmPlaylistItem *playlist, guint index)
{
	guint n = g_list_model_get_n_items(km_playlist_item_get_tracks(playlist));

	for (guint pos = 0; pos < n; pos++)
		if (km_playlist_item_get_entry_index(playlist, pos) == index)
			return pos;
	return G_MAXUINT;
}

/* A new version of the playlist shown: what was selected stays so (a moved entry: its new place). */
static void reselect(KmPlayerView *self, KmPlaylistItem *playlist, GPtrArray *selected)
{
	GtkSelectionModel *model = km_library_view_get_model(self->library_view);
	guint pos = self->moved_entry >= 0 ? entry_position(playlist, self->moved_entry) : G_MAXUINT;

	self->moved_entry = -1;
	if (pos != G_MAXUINT) {
		gtk_selection_model_select_item(model, pos, TRUE);
		return;
	}
	for (guint i = 0; i < g_list_model_get_n_items(G_LIST_MODEL(model)); i++) {
		g_autoptr(KmTrack) track = g_list_model_get_item(G_LIST_MODEL(model), i);

		for (guint j = 0; j < selected->len; j++)
			if (km_track_get_fid(selected->pdata[j]) == km_track_get_fid(track))
				gtk_selection_model_select_item(model, i, FALSE);
	}
}

static void show_playlist(KmPlayerView *self, KmPlaylistItem *playlist)
{
	guint32 fid = km_playlist_item_get_fid(playlist);
	g_autoptr(GPtrArray) selected = NULL;

	/* a playlist lists the tracks an undo toast hides: they are deleted first */
	_km_player_view_commit_delete(self);
	if (fid == self->shown_playlist) {
		selected = km_library_view_get_selected_tracks(self->library_view);
	} else {
		/* a playlist opens in its own order, whatever the last header click sorted */
		km_library_view_unsort(self->library_view);
		self->moved_entry = -1;
	}
	self->shown_playlist = fid;
	km_library_view_set_tracks(self->library_view, km_playlist_item_get_tracks(playlist),
				   FALSE);
	if (selected)
		reselect(self, playlist, selected);
}

static void on_sidebar_selected(KmPlayerView *self)
{
	KmPlaylistItem *playlist = km_playlist_sidebar_get_selected(self->sidebar);

	_km_player_view_playlist_chosen(self);
	if (!self->session || (!playlist && self->showing_library))
		return;
	/* the library's tree follows the track list; a changed playlist is a new item */
	self->showing_library = playlist == NULL;
	if (playlist) {
		show_playlist(self, playlist);
	} else {
		self->shown_playlist = 0;
		km_library_view_set_tracks(self->library_view, self->shown_tracks, TRUE);
	}
	update_subtitle(self);
	_km_player_view_update_actions(self);
}

/* "3 of 5 files were copied; not copied: a.mp3, b.mp3" */
static char *report_text(KmReport *report)
{
	GString *text = g_string_new(NULL);
	guint not_done = 0;

	if (!report)
		return g_string_free(text, FALSE);
	g_string_append_printf(text, g_dngettext(GETTEXT_PACKAGE,
						 "%u of %u file was copied.",
						 "%u of %u files were copied.", report->items->len),
			       report->counts[KM_ITEM_DONE], report->items->len);
	for (guint i = 0; i < report->items->len; i++) {
		KmReportItem *item = report->items->pdata[i];
		g_autofree char *name = item->file ? g_file_get_basename(item->file) : NULL;

		if (item->outcome == KM_ITEM_DONE || !name)
			continue;
		/* Translators: follows the sentence before (hence the space);
		 * the names of the files not copied follow, separated by ", " */
		g_string_append(text, not_done++ ? ", " : _(" Not copied: "));
		g_string_append(text, name);
	}
	return g_string_free(text, FALSE);
}

static void on_session_failed(KmPlayerView *self, GError *error, KmReport *report)
{
	g_autofree char *copied = report_text(report);
	/* Translators: the player's name, why it stopped, then which files were copied */
	g_autofree char *message = g_strdup_printf(_("The player “%s” stopped working: %s %s"),
						   km_session_get_name(self->session),
						   error ? error->message : "", copied);

	_km_player_view_close(self, message);
}

void _km_player_view_close(KmPlayerView *self, const char *message)
{
	if (self->closed)
		return;
	self->closed = self->closing = TRUE;
	g_cancellable_cancel(self->cancellable);
	g_signal_emit(self, signals[SIGNAL_CLOSED], 0, message);
}

/* The conversion settings, for the adds and syncs queued from now on. */
static void apply_conversion(KmPlayerView *self)
{
	KmConvertSettings convert;

	km_session_set_conversion(self->session,
				  km_conversion_from_settings(self->settings, &convert) ? &convert
											: NULL);
}

static void on_setting_changed(KmPlayerView *self, const char *key)
{
	if (g_str_has_prefix(key, "convert"))
		apply_conversion(self);
}

static void set_session(KmPlayerView *self, KmSession *session)
{
	self->session = g_object_ref(session);
	self->shown_tracks = _km_player_view_init_delete(self, km_session_get_tracks(session));
	adw_window_title_set_title(self->window_title, km_session_get_name(session));
	km_details_pane_set_session(self->details_pane, session);
	km_playlist_sidebar_set_playlists(self->sidebar, km_session_get_playlists(session));
	on_sidebar_selected(self);
	g_signal_connect_object(self->shown_tracks, "items-changed",
				G_CALLBACK(update_subtitle), self, G_CONNECT_SWAPPED);
	g_signal_connect_object(km_session_get_tracks(session), "items-changed",
				G_CALLBACK(on_tracks_changed), self, G_CONNECT_SWAPPED);
	g_signal_connect_object(session, "notify::free-bytes", G_CALLBACK(update_capacity), self,
				G_CONNECT_SWAPPED);
	g_signal_connect_object(session, "notify::busy", G_CALLBACK(update_capacity), self,
				G_CONNECT_SWAPPED);
	g_signal_connect_object(session, "failed", G_CALLBACK(on_session_failed), self,
				G_CONNECT_SWAPPED);
	g_signal_connect_object(self->settings, "changed", G_CALLBACK(on_setting_changed), self,
				G_CONNECT_SWAPPED);
	apply_conversion(self);
	update_subtitle(self);
	update_capacity(self);
	_km_player_view_init_backup(self);
	_km_player_view_init_playlist_menus(self);
	_km_player_view_look_for_damage(self);
}

GtkWidget *km_player_view_new(KmSession *session)
{
	KmPlayerView *self;

	g_return_val_if_fail(KM_IS_SESSION(session), NULL);
	self = g_object_new(KM_TYPE_PLAYER_VIEW, NULL);
	set_session(self, session);
	return GTK_WIDGET(self);
}

KmSession *km_player_view_get_session(KmPlayerView *self)
{
	g_return_val_if_fail(KM_IS_PLAYER_VIEW(self), NULL);
	return self->session;
}

gboolean km_player_view_is_busy(KmPlayerView *self)
{
	g_return_val_if_fail(KM_IS_PLAYER_VIEW(self), FALSE);
	return km_transfer_panel_is_busy(self->transfers);
}

KmLibraryView *_km_player_view_get_library_view(KmPlayerView *self)
{
	return self->library_view;
}

KmDetailsPane *_km_player_view_get_details_pane(KmPlayerView *self)
{
	return self->details_pane;
}

KmTransferPanel *_km_player_view_get_transfers(KmPlayerView *self)
{
	return self->transfers;
}

KmPlaylistSidebar *_km_player_view_get_sidebar(KmPlayerView *self)
{
	return self->sidebar;
}

static void on_tracks_dropped(KmPlayerView *self, KmPlaylistItem *playlist, GArray *fids)
{
	_km_player_view_playlist_tracks_dropped(self, playlist, fids);
}

static void km_player_view_get_property(GObject *object, guint prop_id, GValue *value,
					GParamSpec *pspec)
{
	KmPlayerView *self = KM_PLAYER_VIEW(object);

	switch (prop_id) {
	case PROP_DETAILS_VISIBLE:
		g_value_set_boolean(value, gtk_revealer_get_reveal_child(self->details_revealer));
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
	}
}

static void km_player_view_set_property(GObject *object, guint prop_id, const GValue *value,
					GParamSpec *pspec)
{
	KmPlayerView *self = KM_PLAYER_VIEW(object);

	switch (prop_id) {
	case PROP_DETAILS_VISIBLE:
		gtk_revealer_set_reveal_child(self->details_revealer, g_value_get_boolean(value));
		g_object_notify_by_pspec(object, pspec);
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
	}
}

static void km_player_view_dispose(GObject *object)
{
	KmPlayerView *self = KM_PLAYER_VIEW(object);

	g_cancellable_cancel(self->cancellable);
	if (self->transfers)
		km_transfer_panel_cancel_all(self->transfers);
	/* changes held for the backup offer: they run now (cancelled) and let go of the session */
	if (self->session)
		km_session_release_changes(self->session);
	gtk_widget_dispose_template(GTK_WIDGET(self), KM_TYPE_PLAYER_VIEW);
	km_widget_unparent_children(GTK_WIDGET(self));
	_km_player_view_dispose_delete(self);
	g_clear_object(&self->shown_tracks);
	g_clear_object(&self->settings);
	g_clear_object(&self->session);
	G_OBJECT_CLASS(km_player_view_parent_class)->dispose(object);
}

static void km_player_view_finalize(GObject *object)
{
	KmPlayerView *self = KM_PLAYER_VIEW(object);

	g_clear_object(&self->cancellable);
	G_OBJECT_CLASS(km_player_view_parent_class)->finalize(object);
}

static void km_player_view_class_init(KmPlayerViewClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->get_property = km_player_view_get_property;
	object_class->set_property = km_player_view_set_property;
	object_class->dispose = km_player_view_dispose;
	object_class->finalize = km_player_view_finalize;
	properties[PROP_DETAILS_VISIBLE] =
		g_param_spec_boolean("details-visible", NULL, NULL, TRUE,
				     G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
				     G_PARAM_STATIC_STRINGS);
	g_object_class_install_properties(object_class, N_PROPS, properties);
	signals[SIGNAL_CLOSED] = g_signal_new("closed", G_TYPE_FROM_CLASS(klass),
					      G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
					      G_TYPE_NONE, 1, G_TYPE_STRING);

	g_type_ensure(KM_TYPE_CAPACITY_BAR);
	g_type_ensure(KM_TYPE_DETAILS_PANE);
	g_type_ensure(KM_TYPE_LIBRARY_VIEW);
	g_type_ensure(KM_TYPE_PLAYLIST_SIDEBAR);
	g_type_ensure(KM_TYPE_TRANSFER_PANEL);
	gtk_widget_class_set_template_from_resource(
		widget_class, "/io/github/karmamanager/KarmaManager/ui/km-player-view.ui");
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, window_title);
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, sidebar);
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, library_view);
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, details_revealer);
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, details_pane);
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, transfers);
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, capacity_bar);
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, main_box);
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, header_bar);
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, add_button);
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, export_button);
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, eject_button);
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, paned);
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, content_box);
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, add_to_playlist_menu);
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, playlists_section);
	gtk_widget_class_bind_template_child(widget_class, KmPlayerView, track_menu);
	gtk_widget_class_bind_template_callback(widget_class, _km_player_view_selection_changed);
	gtk_widget_class_bind_template_callback(widget_class, on_sidebar_selected);
	gtk_widget_class_bind_template_callback(widget_class, update_capacity);
	gtk_widget_class_set_layout_manager_type(widget_class, GTK_TYPE_BIN_LAYOUT);
	_km_player_view_class_init_actions(widget_class);
	_km_player_view_class_init_delete(widget_class);
	_km_player_view_class_init_playlists(widget_class);
	_km_player_view_class_init_backup(widget_class);
	_km_player_view_class_init_plays(widget_class);
	_km_player_view_class_init_sync(widget_class);
	_km_player_view_class_init_check(widget_class);
}

static void km_player_view_init(KmPlayerView *self)
{
	gtk_widget_init_template(GTK_WIDGET(self));
	/* the banner is one of the bars the layout arranges */
	_km_player_view_init_check(self);
	_km_player_view_init_layout(self);
	self->cancellable = g_cancellable_new();
	self->settings = g_settings_new(APP_ID);
	self->moved_entry = -1;
	g_settings_bind(self->settings, "details-visible", self, "details-visible",
			G_SETTINGS_BIND_DEFAULT);
	g_signal_connect_object(self->sidebar, "tracks-dropped", G_CALLBACK(on_tracks_dropped),
				self, G_CONNECT_SWAPPED);
	_km_player_view_init_dnd(self);
	_km_player_view_init_shortcuts(self);
}
