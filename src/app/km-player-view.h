/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-player-view.h - everything about one open player (a KmSession): its
 * playlists, its library, the details pane, the transfer queue and its
 * capacity; the actions on them ("player.*").
 *
 * Signal closed (const char *message): the session was ejected (message
 * NULL) or failed (message says what happened and what was copied); the
 * window then drops the view.
 */
#pragma once

#include <adwaita.h>

#include "km-session.h"

G_BEGIN_DECLS

#define KM_TYPE_PLAYER_VIEW (km_player_view_get_type())
G_DECLARE_FINAL_TYPE(KmPlayerView, km_player_view, KM, PLAYER_VIEW, GtkWidget)

/* session: open. */
GtkWidget *km_player_view_new(KmSession *session);
KmSession *km_player_view_get_session(KmPlayerView *self);
/* Queue host files (and folders, recursively) for copying to the player. */
void km_player_view_add_files(KmPlayerView *self, GFile *const *files, guint n_files);
/* Copy the selected tracks into folder. */
void km_player_view_export_selected(KmPlayerView *self, GFile *folder);
/* Import the M3U/M3U8 or XSPF list file as a playlist: its files added, a transfer row for it. */
void km_player_view_import_playlist(KmPlayerView *self, GFile *list);
/* Whether file is named as a playlist file (.m3u, .m3u8, .xspf): a drop imports it. */
gboolean km_file_is_playlist(GFile *file);
/*
 * Compare folder with the player, then ask whether to sync: its tracks the
 * player lacks added, those the folder lacks deleted when ticked.
 */
void km_player_view_sync_folder(KmPlayerView *self, GFile *folder);
/* Export the playlist shown in the sidebar into folder, with NAME.m3u8 listing it. */
void km_player_view_export_playlist(KmPlayerView *self, GFile *folder);
/* Append the plays counted since the last export to folder/scrobbler.log (a toast says how many). */
void km_player_view_export_plays(KmPlayerView *self, GFile *folder);
/*
 * Cancel the transfers, write everything back and close the player, without
 * asking (the player.eject action asks first while files are being copied).
 */
void km_player_view_eject(KmPlayerView *self);
/* Whether transfers are running (eject and close ask first). */
gboolean km_player_view_is_busy(KmPlayerView *self);
/* How many tracks deleted the undo toast could still bring back (not yet deleted). */
guint km_player_view_get_n_uncommitted_deletes(KmPlayerView *self);

G_END_DECLS
