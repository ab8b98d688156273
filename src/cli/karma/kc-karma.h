/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-karma.h - what the files of karmactl's Karma module share beyond
 * kc.h: its commands (../kc-module.h says why they are a module). Each
 * command here has its name, options and code; its arguments and summary,
 * which `karmactl --help` lists without loading the module, are in
 * ../kc-karma-commands.c.
 */
#ifndef KC_KARMA_H
#define KC_KARMA_H

#include "kc.h"

/* kc-karma-cmds.c: the Karma library (kc-library.h) */
extern const struct kc_command kc_cmd_mkkarma, kc_cmd_tracks, kc_cmd_verify, kc_cmd_rebuild_db;
/* kc-backup-cmds.c */
extern const struct kc_command kc_cmd_backup, kc_cmd_restore;
/* kc-add-cmd.c, kc-export-cmd.c, kc-edit-cmds.c (rm-track, tag), kc-playlist-cmd.c */
extern const struct kc_command kc_cmd_add, kc_cmd_export, kc_cmd_rm_track, kc_cmd_tag,
	kc_cmd_playlist;
/* kc-plays-cmd.c, kc-sync-cmd.c */
extern const struct kc_command kc_cmd_plays, kc_cmd_sync;
/* kc-player-cmds.c: the players connected, and leaving storage mode */
extern const struct kc_command kc_cmd_devices, kc_cmd_eject;

/* kc-player-cmds.c: --usb refuses (prints why, KC_EXIT_FAIL) a player whose disk is mounted. */
int kc_check_usb_not_mounted(const struct kc_ctx *ctx);

#endif
