/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-plays.c - plays out for scrobbling (km-plays.h, docs/KARMA.md §12).
 *
 * The ledger is a text file of one line per track whose plays were written:
 * "fid ctime play_count play_last". A track is known by its fid and its
 * `ctime` together, so a fid reused by a later track, or two players that
 * share a ledger (every Karma seen reports the same serial), start afresh
 * instead of hiding plays.
 */
#include "km-plays.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "km-properties.h"

#define LEDGER_HEADER "# Karma Manager play ledger: fid ctime play_count play_last\n"
/* The largest play_count smalldb can hold (a u16 column, docs/KARMA.md §9.2). */
#define MAX_COUNT 65535u
/* Earlier plays are spaced at most a day apart, whatever a hostile `duration` says. */
#define MAX_STEP (24u * 3600u)
/* A ledger longer than this is no ledger of ours (15,000 tracks fit in under 1 MiB). */
#define LEDGER_MAX_SIZE (16u << 20)

typedef struct {
	guint64 ctime;
	guint64 count;
	guint64 last;
} LedgerEntry;

typedef struct {
	KmProperties *track;	/* borrowed from the library's list */
	gint64 time;
} Play;

char *km_plays_ledger_path(const char *player_id)
{
	g_autofree char *id = g_strdup(player_id && *player_id ? player_id : "player");
	g_autofree char *file = NULL;

	g_strcanon(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-", '_');
	if (id[0] == '.')
		id[0] = '_';
	file = g_strconcat(id, ".ledger", NULL);
	return g_build_filename(g_get_user_state_dir(), "karma-manager", "plays", file, NULL);
}

/* ---- the ledger ---- */

static gboolean parse_ledger_line(const char *line, guint32 *fid, LedgerEntry *entry)
{
	guint64 v[4];
	const char *p = line;

	for (guint i = 0; i < G_N_ELEMENTS(v); i++) {
		char *end;

		if (!g_ascii_isdigit(*p))
			return FALSE;
		errno = 0;
		v[i] = g_ascii_strtoull(p, &end, 10);
		if (errno)
			return FALSE;
		p = end;
		if (i + 1 < G_N_ELEMENTS(v) && *p++ != ' ')
			return FALSE;
	}
	if (*p || v[0] > G_MAXUINT32)
		return FALSE;
	*fid = (guint32)v[0];
	*entry = (LedgerEntry){ .ctime = v[1], .count = v[2], .last = v[3] };
	return TRUE;
}

/* fid -> LedgerEntry; a missing file is an empty ledger. */
static GHashTable *ledger_load(const char *path, GError **error)
{
	g_autoptr(GHashTable) ledger = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	g_autoptr(GError) local = NULL;
	g_autofree char *data = NULL;
	g_auto(GStrv) lines = NULL;
	gsize len;

	if (!g_file_get_contents(path, &data, &len, &local)) {
		if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			return g_steal_pointer(&ledger);
		g_propagate_error(error, g_steal_pointer(&local));
		return NULL;
	}
	if (len > LEDGER_MAX_SIZE || strlen(data) != len) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    _("%s is no play ledger (remove it to write every play again)"), path);
		return NULL;
	}
	lines = g_strsplit(data, "\n", -1);
	for (guint i = 0; lines[i]; i++) {
		LedgerEntry entry;
		guint32 fid;

		if (!lines[i][0] || lines[i][0] == '#')
			continue;
		if (!parse_ledger_line(lines[i], &fid, &entry)) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    _("%s, line %u: not “fid ctime play_count play_last” "
				      "(remove the file to write every play again)"), path, i + 1);
			return NULL;
		}
		g_hash_table_replace(ledger, GUINT_TO_POINTER(fid), g_memdup2(&entry, sizeof entry));
	}
	return g_steal_pointer(&ledger);
}

static gint compare_uint(guint32 x, guint32 y)
{
	return x < y ? -1 : x > y;
}

/* For qsort() of the ledger's keys. */
static gint compare_fids(gconstpointer a, gconstpointer b)
{
	return compare_uint(GPOINTER_TO_UINT(*(gconstpointer *)a), GPOINTER_TO_UINT(*(gconstpointer *)b));
}

static gboolean ledger_save(GHashTable *ledger, const char *path, GError **error)
{
	g_autoptr(GString) out = g_string_new(LEDGER_HEADER);
	guint n;
	g_autofree gpointer *fids = g_hash_table_get_keys_as_array(ledger, &n);
	g_autofree char *folder = g_path_get_dirname(path);

	qsort(fids, n, sizeof *fids, compare_fids);
	for (guint i = 0; i < n; i++) {
		const LedgerEntry *e = g_hash_table_lookup(ledger, fids[i]);

		g_string_append_printf(out, "%u %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
				       " %" G_GUINT64_FORMAT "\n", GPOINTER_TO_UINT(fids[i]),
				       e->ctime, e->count, e->last);
	}
	if (g_mkdir_with_parents(folder, 0700) < 0) {
		int err = errno;

		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
			    _("Cannot make the folder %s: %s"), folder, g_strerror(err));
		return FALSE;
	}
	return g_file_set_contents_full(path, out->str, (gssize)out->len,
					G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
					0600, error);
}

/* ---- which plays are new ---- */

static guint64 track_uint(const KmProperties *track, const char *key)
{
	guint64 v = 0;

	return km_properties_get_uint(track, key, &v) ? v : 0;
}

/*
 * The plays of track since the ledger's entry (updated to the track's
 * counts), appended to plays, at most room of them. FALSE when they did not
 * fit: the entry is then left as it was, for the next export.
 */
static gboolean add_track_plays(KmProperties *track, GHashTable *ledger, GArray *plays,
				guint room, KmPlaysResult *result)
{
	guint32 fid = km_properties_get_fid(track);
	guint64 count = MIN(track_uint(track, "play_count"), MAX_COUNT);
	guint64 last = MIN(track_uint(track, "play_last"), G_MAXUINT32);	/* a u32 column */
	guint64 ctime = track_uint(track, "ctime");
	guint64 step = CLAMP(track_uint(track, "duration") / 1000, 1, MAX_STEP), floor = 0;
	guint64 n = count;
	LedgerEntry *e = g_hash_table_lookup(ledger, GUINT_TO_POINTER(fid));

	if (e && e->ctime == ctime) {
		floor = e->last;
		/* A count lower than the ledger's: the player's counts were reset. */
		n = count >= e->count ? count - e->count : count;
		if (last <= e->last)
			n = 0;
	}
	if (n > room)
		return FALSE;
	if (n && !last) {
		result->n_undated += (guint)n;
		n = 0;
	}
	for (guint64 k = 0; k < n; k++) {
		/* After the ledger's last play (floor), spread evenly when a step is too long. */
		guint64 back = (n - 1) * step < last - floor ? (n - 1 - k) * step
							     : (n - 1 - k) * (last - floor) / n;
		Play play = { track, (gint64)(last - back) };

		g_array_append_val(plays, play);
	}
	if (n) {
		result->n_written += (guint)n;
		result->n_tracks++;
	}
	if (count || e) {
		LedgerEntry fresh = { .ctime = ctime, .count = count, .last = last };

		g_hash_table_replace(ledger, GUINT_TO_POINTER(fid), g_memdup2(&fresh, sizeof fresh));
	}
	return TRUE;
}

static gint compare_plays(gconstpointer a, gconstpointer b)
{
	const Play *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return compare_uint(km_properties_get_fid(x->track), km_properties_get_fid(y->track));
}

/* ---- the log ---- */

/* A field of a log line: tabs and line breaks would end it early. */
static void append_field(GString *out, const char *value)
{
	gsize start = out->len;

	g_string_append(out, value ? value : "");
	for (gsize i = start; i < out->len; i++)
		if (out->str[i] == '\t' || out->str[i] == '\n' || out->str[i] == '\r')
			out->str[i] = ' ';
	g_string_append_c(out, '\t');
}

static void append_play(GString *out, const Play *play)
{
	const KmProperties *t = play->track;
	guint64 tracknr = track_uint(t, "tracknr");
	g_autofree char *number = tracknr ? g_strdup_printf("%" G_GUINT64_FORMAT, tracknr) : NULL;
	g_autofree char *seconds = g_strdup_printf("%" G_GUINT64_FORMAT,
						   (track_uint(t, "duration") + 500) / 1000);
	g_autofree char *time = g_strdup_printf("%" G_GINT64_FORMAT, play->time);

	append_field(out, km_properties_get(t, "artist"));
	append_field(out, km_properties_get(t, "source"));
	append_field(out, km_properties_get(t, "title"));
	append_field(out, number);
	append_field(out, seconds);
	append_field(out, "L");
	append_field(out, time);
	/* No MusicBrainz id: the player keeps none. */
	g_string_append_c(out, '\n');
}

static void append_header(GString *out, const char *client)
{
	g_string_append(out, "#AUDIOSCROBBLER/1.1\n#TZ/UTC\n#CLIENT/");
	append_field(out, client);
	out->str[out->len - 1] = '\n';
}

/* Appends text to path, header first when the file is new or empty; durable on return. */
static gboolean log_append(const char *path, const char *client, const GString *lines,
			   GError **error)
{
	g_autoptr(GString) out = g_string_new(NULL);
	struct stat st;
	int err = 0;
	int fd = g_open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0 || fstat(fd, &st) < 0)
		err = errno;
	if (!err && st.st_size == 0)
		append_header(out, client);
	g_string_append_len(out, lines->str, (gssize)lines->len);
	for (gsize done = 0; !err && done < out->len;) {
		ssize_t n = write(fd, out->str + done, out->len - done);

		if (n < 0 && errno != EINTR)
			err = errno;
		else if (n > 0)
			done += (gsize)n;
	}
	if (!err && fsync(fd) < 0)
		err = errno;
	if (fd >= 0 && close(fd) < 0 && !err)
		err = errno;
	if (err)
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
			    _("Writing %s failed: %s"), path, g_strerror(err));
	return !err;
}

gboolean km_plays_export(KmLibrary *lib, const char *ledger_path, const char *log_path,
			 const char *client, char **preview, KmPlaysResult *result,
			 GError **error)
{
	g_autoptr(GHashTable) ledger = ledger_load(ledger_path, error);
	g_autoptr(GPtrArray) objects = NULL;
	g_autoptr(GArray) plays = NULL;
	g_autoptr(GString) lines = g_string_new(NULL);

	g_return_val_if_fail(log_path || preview, FALSE);
	*result = (KmPlaysResult){ 0 };
	if (!ledger)
		return FALSE;
	objects = km_library_list(lib);
	plays = g_array_new(FALSE, FALSE, sizeof(Play));
	for (guint i = 0; i < objects->len; i++) {
		KmProperties *track = objects->pdata[i];

		if (km_properties_get_object_type(track) != KM_OBJECT_TUNE)
			continue;
		if (!add_track_plays(track, ledger, plays, KM_PLAYS_MAX - plays->len, result))
			result->more = TRUE;
	}
	g_array_sort(plays, compare_plays);
	for (guint i = 0; i < plays->len; i++)
		append_play(lines, &g_array_index(plays, Play, i));
	if (!log_path) {
		g_autoptr(GString) out = g_string_new(NULL);

		append_header(out, client);
		g_string_append_len(out, lines->str, (gssize)lines->len);
		*preview = g_string_free(g_steal_pointer(&out), FALSE);
		return TRUE;
	}
	if (plays->len && !log_append(log_path, client, lines, error))
		return FALSE;
	if (!ledger_save(ledger, ledger_path, error)) {
		g_prefix_error(error, _("The plays were written, but the ledger was not saved; "
					"the next export writes them again: "));
		return FALSE;
	}
	return TRUE;
}
