/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-playlist-cmd.c - karmactl playlist: list, show, and the changes
 * (create, rename, delete, add, remove, move), each change one transaction;
 * import, an M3U/M3U8 or XSPF list made a playlist through add's import
 * (kc_import()).
 * A playlist is named by its fid or by its name (its title), when only one
 * playlist has that name.
 */
#include "kc-library.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "kc-convert-opts.h"
#include "km-playlist.h"

static char *playlist_name_option;
static gboolean playlist_progress;

static const GOptionEntry playlist_options[] = {
	{ "name", 'n', 0, G_OPTION_ARG_STRING, &playlist_name_option,
	  "import: the new playlist's name (default: the file's, without .m3u, .m3u8 or .xspf)",
	  "NAME" },
	{ "progress", 0, 0, G_OPTION_ARG_NONE, &playlist_progress,
	  "import: show progress on standard error even when standard output is no terminal",
	  NULL },
	KC_CONVERT_OPTIONS,
	{ NULL }
};

static const char *title_of(const KmProperties *p)
{
	const char *t = km_properties_get(p, "title");

	return t ? t : "";
}

/* A name or tag as printed (kc_shown()); a new string. */
static char *shown(const KmProperties *p, const char *key)
{
	const char *v = km_properties_get(p, key);

	return kc_shown(v ? v : "");
}

int kc_find_playlist(struct kc_ctx *ctx, KmLibrary *lib, const char *arg, guint32 *fid)
{
	g_autoptr(GPtrArray) all = NULL;
	unsigned found = 0;

	if (kc_fid_from_string(arg, fid) &&
	    km_properties_get_object_type(km_library_lookup(lib, *fid)) == KM_OBJECT_PLAYLIST)
		return KC_EXIT_OK;
	all = km_library_list(lib);
	g_autoptr(GString) fids = g_string_new(NULL);

	for (guint i = 0; i < all->len; i++) {
		if (km_properties_get_object_type(all->pdata[i]) != KM_OBJECT_PLAYLIST ||
		    strcmp(title_of(all->pdata[i]), arg) != 0)
			continue;
		*fid = km_properties_get_fid(all->pdata[i]);
		g_string_append_printf(fids, "%s%" G_GUINT32_FORMAT, found ? ", " : "", *fid);
		found++;
	}
	if (found == 1)
		return KC_EXIT_OK;
	/* older tools let two playlists share a name: the fid still names each */
	if (found)
		return kc_failf(ctx, "%u playlists are named '%s' (fids %s): give the fid of one, "
				"e.g. 'playlist rename FID NEW'", found, arg, fids->str);
	return kc_failf(ctx, "no playlist named '%s'", arg);
}

static int parse_index(struct kc_ctx *ctx, const char *s, guint *index)
{
	guint64 v;

	if (!g_ascii_string_to_unsigned(s, 10, 0, KM_PLAYLIST_MAX_ENTRIES, &v, NULL))
		return kc_usage(ctx, "not an entry index: '%s'", s);
	*index = (guint)v;
	return KC_EXIT_OK;
}

static GArray *entries_of(struct kc_ctx *ctx, const KmProperties *pl)
{
	g_autoptr(GError) error = NULL;
	GArray *entries = km_playlist_from_properties(pl, &error);

	if (!entries)
		kc_fail_gerror(ctx, title_of(pl), error);
	return entries;
}

/* ---- list, show (read-only) ---- */

/* A playlist whose list cannot be read says so (not "0 entries"), and the command fails. */
static int list_playlists(struct kc_ctx *ctx, KmLibrary *lib)
{
	g_autoptr(GPtrArray) all = km_library_list(lib);
	guint malformed = 0;

	for (guint i = 0; i < all->len; i++) {
		g_autoptr(GArray) entries = NULL;
		g_autoptr(GError) error = NULL;
		g_autofree char *name = NULL;
		g_autofree char *why = NULL;

		if (km_properties_get_object_type(all->pdata[i]) != KM_OBJECT_PLAYLIST)
			continue;
		name = shown(all->pdata[i], "title");
		entries = km_playlist_from_properties(all->pdata[i], &error);
		if (entries) {
			printf("fid %" G_GUINT32_FORMAT ": %s (%u entries)\n",
			       km_properties_get_fid(all->pdata[i]), name, entries->len);
			continue;
		}
		why = kc_shown(error->message);
		printf("fid %" G_GUINT32_FORMAT ": %s (malformed: %s)\n",
		       km_properties_get_fid(all->pdata[i]), name, why);
		malformed++;
	}
	if (malformed)
		return kc_failf(ctx, "%u playlist%s malformed (verify says more)", malformed,
				malformed == 1 ? " is" : "s are");
	return KC_EXIT_OK;
}

/* One line per entry: its index, its fid, and the track, or why it names none. */
static int show_playlist(struct kc_ctx *ctx, KmLibrary *lib, const char *name)
{
	g_autoptr(GArray) entries = NULL;
	guint32 fid;
	int status = kc_find_playlist(ctx, lib, name, &fid);

	if (status)
		return status;
	entries = entries_of(ctx, km_library_lookup(lib, fid));
	if (!entries)
		return KC_EXIT_FAIL;
	for (guint i = 0; i < entries->len; i++) {
		const KmPlaylistEntry *e = &g_array_index(entries, KmPlaylistEntry, i);
		KmProperties *t = km_library_resolve(lib, e->fid, e->generation);
		g_autofree char *artist = t ? shown(t, "artist") : NULL;
		g_autofree char *title = t ? shown(t, "title") : NULL;

		printf("%u: fid %" G_GUINT32_FORMAT ": ", i, e->fid);
		if (t)
			printf("%s%s%s\n", artist, *artist ? " - " : "", title);
		else if (km_library_lookup(lib, e->fid))
			printf("(dangling: the fid now holds another object)\n");
		else
			printf("(dangling: the track is gone)\n");
	}
	return KC_EXIT_OK;
}

static int run_read_only(struct kc_ctx *ctx, const char *sub)
{
	struct kc_library kl;
	int status;

	if (strcmp(sub, "list") == 0 && ctx->argc != 1)
		return kc_usage(ctx, "playlist list takes no argument");
	if (strcmp(sub, "show") == 0 && ctx->argc != 2)
		return kc_usage(ctx, "playlist show NAME|FID");
	status = kc_library_open(ctx, false, false, &kl);
	if (status)
		return status;
	if (strcmp(sub, "list") == 0)
		status = list_playlists(ctx, kl.lib);
	else
		status = show_playlist(ctx, kl.lib, ctx->argv[1]);
	return kc_library_close(ctx, &kl, status);
}

/* ---- the changes ---- */

static int create(struct kc_ctx *ctx, KmTransaction *tx)
{
	g_autoptr(GError) error = NULL;
	guint32 fid;

	g_autofree char *name = NULL;

	if (!km_transaction_playlist_create(tx, ctx->argv[1], &fid, &error))
		return kc_fail_gerror(ctx, ctx->argv[1], error);
	name = kc_shown(ctx->argv[1]);
	kc_say("created playlist fid %" G_GUINT32_FORMAT ": %s\n", fid, name);
	return KC_EXIT_OK;
}

/* add NAME FID...: appended in the order given. */
static int add_entries(struct kc_ctx *ctx, KmTransaction *tx, guint32 pl, GError **error)
{
	for (int i = 2; i < ctx->argc; i++) {
		guint32 fid;
		int status = kc_parse_fid(ctx, ctx->argv[i], &fid);

		if (status)
			return status;
		if (!km_transaction_playlist_insert(tx, pl, fid, -1, error))
			return KC_EXIT_FAIL;
	}
	return KC_EXIT_OK;
}

static gint compare_uint(gconstpointer a, gconstpointer b)
{
	guint x = *(const guint *)a, y = *(const guint *)b;

	return x < y ? -1 : x > y;
}

/* remove NAME INDEX...: the indexes of the list as it was, so removed from the last. */
static int remove_entries(struct kc_ctx *ctx, KmTransaction *tx, guint32 pl, GError **error)
{
	g_autoptr(GArray) indexes = g_array_new(FALSE, FALSE, sizeof(guint));

	for (int i = 2; i < ctx->argc; i++) {
		guint index;
		int status = parse_index(ctx, ctx->argv[i], &index);

		if (status)
			return status;
		g_array_append_val(indexes, index);
	}
	g_array_sort(indexes, compare_uint);
	for (guint i = indexes->len; i-- > 0;) {
		guint index = g_array_index(indexes, guint, i);

		if (i + 1 < indexes->len && index == g_array_index(indexes, guint, i + 1))
			continue;
		if (!km_transaction_playlist_remove_at(tx, pl, index, error))
			return KC_EXIT_FAIL;
	}
	return KC_EXIT_OK;
}

static int move_entry(struct kc_ctx *ctx, KmTransaction *tx, guint32 pl, GError **error)
{
	guint from = 0, to = 0;
	int status = parse_index(ctx, ctx->argv[2], &from);

	if (!status)
		status = parse_index(ctx, ctx->argv[3], &to);
	if (status)
		return status;
	return km_transaction_playlist_move(tx, pl, from, to, error) ? KC_EXIT_OK : KC_EXIT_FAIL;
}

/* The changes to an existing playlist: argv[0] the subcommand, argv[1] the playlist. */
static int change(struct kc_ctx *ctx, KmTransaction *tx, void *data)
{
	const char *sub = ctx->argv[0];
	g_autoptr(GError) error = NULL;
	guint32 pl;
	int status;

	if (strcmp(sub, "create") == 0)
		return create(ctx, tx);
	status = kc_find_playlist(ctx, km_transaction_get_library(tx), ctx->argv[1], &pl);
	if (status)
		return status;
	if (strcmp(sub, "rename") == 0)
		status = km_transaction_playlist_rename(tx, pl, ctx->argv[2], &error) ?
			 KC_EXIT_OK : KC_EXIT_FAIL;
	else if (strcmp(sub, "delete") == 0)
		status = km_transaction_playlist_delete(tx, pl, &error) ? KC_EXIT_OK : KC_EXIT_FAIL;
	else if (strcmp(sub, "add") == 0)
		status = add_entries(ctx, tx, pl, &error);
	else if (strcmp(sub, "remove") == 0)
		status = remove_entries(ctx, tx, pl, &error);
	else
		status = move_entry(ctx, tx, pl, &error);
	if (error)
		return kc_fail_gerror(ctx, ctx->argv[1], error);
	if (!status)
		kc_say("playlist fid %" G_GUINT32_FORMAT ": %s done\n", pl, sub);
	return status;
}

/* import FILE: the list made a playlist, its files added (kc_import()). */
static int import_list(struct kc_ctx *ctx, const char *file)
{
	KmConvertSettings settings;
	const KmConvertSettings *convert;
	struct kc_library kl;
	int status = kc_convert_settings(ctx, &settings, &convert);

	if (status)
		return status;
	if (playlist_name_option && !g_utf8_validate(playlist_name_option, -1, NULL))
		return kc_usage(ctx, "--name is not valid UTF-8");
	status = kc_library_open(ctx, true, false, &kl);
	if (status)
		return status;
	status = kc_import(ctx, kl.lib, &(struct kc_import_request){
		.playlist_file = file, .playlist_name = playlist_name_option,
		.show_progress = playlist_progress, .convert = convert });
	return kc_library_close(ctx, &kl, status);
}

/* The subcommands and how many arguments each takes after its name (-1: at least). */
static const struct {
	const char *name;
	int n_args;
	const char *usage;
} subcommands[] = {
	{ "create", 1, "NAME" },	{ "rename", 2, "NAME|FID NEW" },
	{ "delete", 1, "NAME|FID" },	{ "add", -2, "NAME|FID FID..." },
	{ "remove", -2, "NAME|FID INDEX..." }, { "move", 3, "NAME|FID FROM TO" },
};

static int playlist_run(struct kc_ctx *ctx)
{
	const char *sub = ctx->argv[0];
	int n = ctx->argc - 1;

	if ((playlist_name_option || playlist_progress) && strcmp(sub, "import") != 0)
		return kc_usage(ctx, "--name and --progress are for playlist import");
	if (strcmp(sub, "list") == 0 || strcmp(sub, "show") == 0)
		return run_read_only(ctx, sub);
	if (strcmp(sub, "import") == 0)
		return n == 1 ? import_list(ctx, ctx->argv[1]) :
		       kc_usage(ctx, "playlist import FILE [--name NAME] [--progress]");
	for (size_t i = 0; i < G_N_ELEMENTS(subcommands); i++) {
		int want = subcommands[i].n_args;

		if (strcmp(sub, subcommands[i].name) != 0)
			continue;
		if (want >= 0 ? n != want : n < -want)
			return kc_usage(ctx, "playlist %s %s", sub, subcommands[i].usage);
		return kc_library_edit(ctx, change, NULL);
	}
	return kc_usage(ctx, "unknown playlist command '%s'", sub);
}

const struct kc_command kc_cmd_playlist = {
	.name = "playlist",	/* its arguments and summary: ../kc-karma-commands.c */
	.description = "Subcommands (a playlist is named by its name or its fid):\n"
		       "  list                         every playlist\n"
		       "  show NAME|FID                its entries, numbered from 0\n"
		       "  create NAME                  a new, empty playlist (a new name)\n"
		       "  rename NAME|FID NEW          (a name no other playlist has)\n"
		       "  delete NAME|FID\n"
		       "  add NAME|FID FID...          append tracks\n"
		       "  remove NAME|FID INDEX...     remove the entries at these indexes\n"
		       "  move NAME|FID FROM TO        move an entry to index TO\n"
		       "  import FILE [--name NAME] [--progress]\n"
		       "                               an M3U/M3U8 or XSPF list: its files added (those\n"
		       "                               there already reused), in its order",
	.options = playlist_options, .min_args = 1, .max_args = INT_MAX, .access = KC_NO_VOLUME,
	.run = playlist_run,
};
