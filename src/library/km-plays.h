/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-plays.h - the plays the player counted, out for scrobbling: an
 * Audioscrobbler portable-player log (docs/KARMA.md §12), and a ledger per
 * player of what was already written out, so that no play is written twice.
 *
 * The player keeps only a count and the time of the last play per track
 * (`play_count`, `play_last`). The newest play gets `play_last`; the earlier
 * ones are placed before it, one track's duration apart, and never at or
 * before the last play the ledger has for the track (they are then spread
 * evenly between the two).
 */
#ifndef KM_PLAYS_H
#define KM_PLAYS_H

#include "km-library.h"

G_BEGIN_DECLS

/* At most this many plays in one export; the rest wait for the next one. */
#define KM_PLAYS_MAX 1000000u

typedef struct {
	guint n_written;	/* plays written to the log */
	guint n_tracks;		/* tracks they belong to */
	guint n_undated;	/* plays left out: their track has no `play_last` */
	gboolean more;		/* KM_PLAYS_MAX was reached: run again for the rest */
} KmPlaysResult;

/*
 * The ledger file of a player (serial, else name): in the user's state
 * folder (g_get_user_state_dir()), karma-manager/plays/ID.ledger, with the
 * characters of id that are not [A-Za-z0-9._-] as '_'. A new string.
 */
char *km_plays_ledger_path(const char *player_id);

/*
 * Appends the plays counted since the ledger at ledger_path (none: every
 * play counted) to the log at log_path (made with its header when new or
 * empty; "#CLIENT/client"), flushed to disk, then saves the ledger. With
 * log_path NULL, the log's lines go to *preview (a new string, header
 * included) and the ledger is left as it is. FALSE with error when the
 * ledger is unreadable or malformed (the message names the file and line),
 * or a file cannot be written; a ledger that cannot be saved after the log
 * was written says that the next export repeats these plays.
 */
gboolean km_plays_export(KmLibrary *lib, const char *ledger_path, const char *log_path,
			 const char *client, char **preview, KmPlaysResult *result,
			 GError **error);

G_END_DECLS

#endif
