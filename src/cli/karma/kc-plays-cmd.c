/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-plays-cmd.c - plays: the plays the player counted since the last
 * export, as an Audioscrobbler log for last.fm and ListenBrainz uploaders
 * (km-plays.h; docs/KARMA.md §12).
 */
#include "kc-library.h"

#include <stdio.h>

#include "km-plays.h"

static char *plays_log;
static char *plays_player_id;

static const GOptionEntry plays_options[] = {
	{ "scrobbler-log", 'o', 0, G_OPTION_ARG_FILENAME, &plays_log,
	  "Append the new plays to FILE and remember them, so that the next run writes "
	  "only later ones", "FILE" },
	{ "player-id", 0, 0, G_OPTION_ARG_STRING, &plays_player_id,
	  "Whose ledger of exported plays to use (default: the name of the image or "
	  "device, \"Rio Karma\" over USB)", "ID" },
	{ NULL }
};

/* The app names a player by its serial, else its name: the same names here. */
static char *default_player_id(const struct kc_ctx *ctx)
{
	if (plays_player_id)
		return g_strdup(plays_player_id);
	if (ctx->usb)
		return g_strdup("Rio Karma");
	return kc_host_basename(ctx->image);
}

/* The log's lines on a terminal: the fields' control characters escaped (kc_shown). */
static void print_preview(const char *log)
{
	g_auto(GStrv) lines = g_strsplit(log, "\n", -1);

	for (guint i = 0; lines[i] && lines[i][0]; i++) {
		g_auto(GStrv) fields = g_strsplit(lines[i], "\t", -1);

		for (guint f = 0; fields[f]; f++) {
			g_autofree char *shown = kc_shown(fields[f]);

			printf("%s%s", f ? "\t" : "", shown);
		}
		putchar('\n');
	}
}

static void print_summary(const KmPlaysResult *r, const char *log, const char *ledger)
{
	printf("%u plays of %u tracks written to %s\n", r->n_written, r->n_tracks, log);
	if (r->n_undated)
		printf("%u plays left out: their tracks have no time of last play\n", r->n_undated);
	if (r->more)
		printf("more plays than one export takes: run plays again for the rest\n");
	printf("ledger: %s\n", ledger);
}

static int plays_run(struct kc_ctx *ctx)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *id = default_player_id(ctx);
	g_autofree char *ledger = km_plays_ledger_path(id);
	g_autofree char *preview = NULL;
	KmPlaysResult result;
	struct kc_library kl;
	int status = kc_library_open(ctx, false, false, &kl);

	if (status)
		return status;
	if (!km_plays_export(kl.lib, ledger, plays_log, "Karma Manager (karmactl)",
			     plays_log ? NULL : &preview, &result, &error))
		return kc_library_close(ctx, &kl, kc_failf(ctx, "%s", error->message));
	if (preview)
		print_preview(preview);
	else
		print_summary(&result, plays_log, ledger);
	return kc_library_close(ctx, &kl, KC_EXIT_OK);
}

const struct kc_command kc_cmd_plays = {
	.name = "plays",	/* its arguments and summary: ../kc-karma-commands.c */
	.options = plays_options,
	.description = "Without --scrobbler-log, prints the log's lines and remembers nothing. "
		       "The ledger of exported plays is kept per player in "
		       "$XDG_STATE_HOME/karma-manager/plays (default ~/.local/state).",
	.min_args = 0, .max_args = 0, .access = KC_NO_VOLUME,
	.run = plays_run,
};
