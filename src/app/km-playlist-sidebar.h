/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-playlist-sidebar.h - "Library" and the player's playlists. A playlist
 * row takes tracks dropped on it (KM_TYPE_FID_LIST, from the library view).
 *
 * Property selected (KmPlaylistItem, NULL for the library).
 * Signal tracks-dropped (KmPlaylistItem *playlist, GArray *fids).
 */
#pragma once

#include <gtk/gtk.h>

#include "km-playlist-item.h"

G_BEGIN_DECLS

#define KM_TYPE_PLAYLIST_SIDEBAR (km_playlist_sidebar_get_type())
G_DECLARE_FINAL_TYPE(KmPlaylistSidebar, km_playlist_sidebar, KM, PLAYLIST_SIDEBAR, GtkWidget)

/* playlists: a GListModel of KmPlaylistItem (a reference is kept). */
void km_playlist_sidebar_set_playlists(KmPlaylistSidebar *self, GListModel *playlists);
/* The selected playlist (borrowed), or NULL for the whole library. */
KmPlaylistItem *km_playlist_sidebar_get_selected(KmPlaylistSidebar *self);
/* Select the playlist with this fid (0: the library). */
void km_playlist_sidebar_select(KmPlaylistSidebar *self, guint32 fid);
/* The drop target of the playlist with this fid (for tests), or NULL. */
GtkDropTarget *km_playlist_sidebar_get_drop_target(KmPlaylistSidebar *self, guint32 fid);

G_END_DECLS
