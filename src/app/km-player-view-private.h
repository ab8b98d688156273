/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-player-view-private.h - the player view's insides, shared by its files:
 * km-player-view.c (the session and the panes), km-player-view-actions.c
 * (the player.* actions), km-player-view-delete.c (delete, with a dialog or
 * an undo toast), km-player-view-dnd.c (drag in and out),
 * km-player-view-playlists.c (the playlist actions), km-player-view-backup.c
 * (back up and restore), km-player-view-check.c (Check & Repair).
 */
#pragma once

#include "km-capacity-bar.h"
#include "km-details-pane.h"
#include "km-library-view.h"
#include "km-player-view.h"
#include "km-playlist-sidebar.h"
#include "km-transfer-panel.h"

G_BEGIN_DECLS

struct _KmPlayerView {
	GtkWidget parent_instance;

	/* Template widgets */
	AdwWindowTitle *window_title;
	KmPlaylistSidebar *sidebar;
	KmLibraryView *library_view;
	GtkRevealer *details_revealer;
	KmDetailsPane *details_pane;
	KmTransferPanel *transfers;
	KmCapacityBar *capacity_bar;
	GtkBox *main_box;	/* the bars and panes, top to bottom */
	AdwHeaderBar *header_bar;
	GtkWidget *add_button;	/* these three are also in the menu: folded, only there */
	GtkWidget *export_button;
	GtkWidget *eject_button;
	GtkPaned *paned;	/* the playlists | the library and details */
	GtkWidget *content_box;	/* the library and details */
	/* km-player-view-layout.c: an AdwOverlaySplitView from libadwaita 1.4, else NULL */
	GtkWidget *playlists_split;
	GMenu *add_to_playlist_menu;	/* the main menu's submenu, in the track menu too */
	GMenu *playlists_section;	/* its items: one per playlist */
	GMenu *track_menu;
	GtkWidget *track_popover;	/* the track menu, shown at the pointer or the selection */
	GtkWidget *problems_banner;	/* km-player-view-check.c: opening found damage */

	/* Owned references */
	KmSession *session;
	GCancellable *cancellable;	/* cancelled in dispose: no late callbacks */
	GtkDropTarget *drop_target;
	GSettings *settings;
	gboolean closing;	/* ejecting or closed: no new jobs */
	gboolean closed;	/* `closed` was emitted */
	gboolean showing_library;	/* the library view shows the whole library */
	guint32 shown_playlist;	/* the fid of the playlist shown, 0 for the library */
	gint64 moved_entry;	/* the entry index a move put the selected entry at, or -1 */
	GListModel *shown_tracks;	/* the session's, without hidden_fids */
	/* km-player-view-delete.c */
	GHashTable *hidden_fids;	/* deleted, not yet gone from the session's list */
	GtkFilter *hide_filter;
	AdwToast *undo_toast;	/* while a deletion can be undone */
	GArray *undoable_fids;	/* its tracks, until Undo or the toast goes */
};

/*
 * From libadwaita 1.4, the adaptive layout in place of the .ui's (1.2's):
 * km-player-view-layout.c.
 */
void _km_player_view_init_layout(KmPlayerView *self);
/* In a narrow window, hides the playlists once one was chosen. */
void _km_player_view_playlist_chosen(KmPlayerView *self);

/* A job's callback data: the view and its row, both kept alive until it ends. */
typedef struct {
	KmPlayerView *self;
	KmTransferRow *row;
} KmViewJob;
KmViewJob *_km_view_job_new(KmPlayerView *self, KmTransferRow *row);
void _km_view_job_free(KmViewJob *job);
/* A job's progress callback: progress_data is its row (referenced). */
void _km_player_view_on_progress(KmSession *session, const KmProgress *progress, gpointer data);

/* An action of the view's class and its key. */
typedef struct {
	const char *name;
	void (*activate)(GtkWidget *widget, const char *name, GVariant *param);
	guint key;
	GdkModifierType mods;
} KmViewAction;
void _km_player_view_install_actions(GtkWidgetClass *widget_class, const KmViewAction *actions,
				     gsize n_actions);
void _km_player_view_class_init_actions(GtkWidgetClass *widget_class);
/* One more key for an action (the table's have one each). */
void _km_player_view_add_shortcut(guint key, GdkModifierType mods, const char *action);
/* The actions' keys, working wherever the window's focus is. */
void _km_player_view_init_shortcuts(KmPlayerView *self);
/* A job's error as a toast, unless there is none, it is a cancellation, or the view is closing. */
void _km_player_view_toast_error(KmPlayerView *self, const GError *error);
/* km-player-view-delete.c: player.delete, with a dialog or an undo toast. */
void _km_player_view_class_init_delete(GtkWidgetClass *widget_class);
/* The view's list: tracks without those deleted but not yet gone. */
GListModel *_km_player_view_init_delete(KmPlayerView *self, GListModel *tracks);
void _km_player_view_dispose_delete(KmPlayerView *self);
/* Removes the tracks fids (guint32) from the player (the session's job), no question asked. */
void _km_player_view_remove_tracks(KmPlayerView *self, GArray *fids);
/* km-player-view-sync.c: player.sync-folder. */
void _km_player_view_class_init_sync(GtkWidgetClass *widget_class);
/* Deletes now what the undo toast offers to bring back (before an eject). */
void _km_player_view_commit_delete(KmPlayerView *self);
/* km-player-view-plays.c: player.export-plays. */
void _km_player_view_class_init_plays(GtkWidgetClass *widget_class);
/* km-player-view-backup.c: player.backup, player.restore, the first-change offer. */
void _km_player_view_class_init_backup(GtkWidgetClass *widget_class);
void _km_player_view_init_backup(KmPlayerView *self);
void _km_player_view_update_backup_actions(KmPlayerView *self);
void _km_player_view_update_actions(KmPlayerView *self);
/* The selected tracks changed (or some left the view): details and actions follow. */
void _km_player_view_selection_changed(KmPlayerView *self);
/*
 * km-player-view-check.c: player.check (Check & Repair) and the banner that
 * offers it when opening found the player damaged; the banner goes in the
 * view's bars (before the layout), the question goes to the session.
 */
void _km_player_view_class_init_check(GtkWidgetClass *widget_class);
void _km_player_view_init_check(KmPlayerView *self);
void _km_player_view_look_for_damage(KmPlayerView *self);
void _km_player_view_update_check_action(KmPlayerView *self);
void _km_player_view_class_init_playlists(GtkWidgetClass *widget_class);
/* The Add to Playlist menu follows the session's playlists; the track menu. */
void _km_player_view_init_playlist_menus(KmPlayerView *self);
void _km_player_view_init_dnd(KmPlayerView *self);
void _km_player_view_remove_from_playlist(KmPlayerView *self, GPtrArray *tracks);
void _km_player_view_playlist_tracks_dropped(KmPlayerView *self, KmPlaylistItem *playlist,
					     GArray *fids);
/* The drop target for files from the file manager (tests emit "drop" on it). */
GtkDropTarget *_km_player_view_get_drop_target(KmPlayerView *self);
KmLibraryView *_km_player_view_get_library_view(KmPlayerView *self);
KmDetailsPane *_km_player_view_get_details_pane(KmPlayerView *self);
KmTransferPanel *_km_player_view_get_transfers(KmPlayerView *self);
KmPlaylistSidebar *_km_player_view_get_sidebar(KmPlayerView *self);
void _km_player_view_close(KmPlayerView *self, const char *message);

G_END_DECLS
