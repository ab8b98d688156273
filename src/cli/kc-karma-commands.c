/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-karma-commands.c - the commands of karmactl's Karma module
 * (kc-module.h) as `karmactl --help` lists them: name, arguments, summary.
 * They are here, in the executable, so that the list and an unknown
 * command's error need no module; the rest of each command (its options,
 * description and code) is in karma/, joined to this by name when the
 * command runs (kc_karma_command()).
 */
#include "kc-module.h"

const struct kc_command kc_karma_commands[] = {
	{ .name = "mkkarma", .args = "IMAGE [--demo N]",
	  .summary = "Make a whole Karma disk image: label, system and music partitions" },
	{ .name = "tracks", .args = "[QUERY]",
	  .summary = "Every object with every property; QUERY filters title, artist, album, "
		     "genre" },
	{ .name = "add", .args = "FILE|DIR...",
	  .summary = "Add tracks (MP3, Ogg Vorbis, FLAC, WAV, WMA; others converted); smalldb is "
		     "rewritten once" },
	{ .name = "sync", .args = "DIR...",
	  .summary = "Add the tracks under the folders that the player lacks (--delete: and "
		     "delete those it has that are not there)" },
	{ .name = "export", .args = "--to DIR [FID...]",
	  .summary = "Copy tracks (every one when no FID is given) out into a folder" },
	{ .name = "rm-track", .args = "FID...",
	  .summary = "Remove tracks (their files, and their entries in every playlist)" },
	{ .name = "tag", .args = "FID KEY=VALUE...",
	  .summary = "Set properties of an object (KEY= removes one); not fid, type, or binary "
		     "ones" },
	{ .name = "playlist", .args = "SUBCOMMAND ...",
	  .summary = "Playlists: list, show, create, rename, delete, add, remove, move, import" },
	{ .name = "plays", .args = "",
	  .summary = "The plays counted since the last export, as an Audioscrobbler log" },
	{ .name = "verify", .args = "",
	  .summary = "Check the library against its files (exit 0 clean, 1 repaired, 4 problems)" },
	{ .name = "rebuild-db", .args = "",
	  .summary = "Rewrite var/smalldb from the properties files (exit 0 done, 4 problems "
		     "left)" },
	{ .name = "backup", .args = "--to FILE | --verify FILE",
	  .summary = "Back up the whole disk of -i into a sparse image file (with FILE.sha256)" },
	{ .name = "restore", .args = "--from FILE [--force]",
	  .summary = "Restore a backup onto the disk of -i, writing only what differs" },
	{ .name = "devices", .args = "",
	  .summary = "List the Rio Karmas connected over USB" },
	{ .name = "eject", .args = "",
	  .summary = "Flush, and let the player leave storage mode" },
	{ NULL }
};
