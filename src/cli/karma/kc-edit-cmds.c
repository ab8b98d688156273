/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-edit-cmds.c - rm-track and tag: removing tracks and editing their
 * properties, each command one transaction (all of it or nothing).
 *
 * Removing is `rm-track`, not `rm`: `rm` removes files of the volume (the
 * OMFS level), which on a Karma would leave the library out of step.
 */
#include "kc-library.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "km-property-rules.h"

/* ---- rm-track ---- */

static const GOptionEntry edit_options[] = {
	{ NULL }
};

static int remove_tracks(struct kc_ctx *ctx, KmTransaction *tx, void *data)
{
	for (int i = 0; i < ctx->argc; i++) {
		g_autoptr(GError) error = NULL;
		g_autofree char *title = NULL;
		KmProperties *p;
		guint32 fid;
		int status = kc_parse_fid(ctx, ctx->argv[i], &fid);

		if (status)
			return status;
		p = km_transaction_lookup(tx, fid);
		title = kc_shown(p && km_properties_get(p, "title") ? km_properties_get(p, "title") : "");
		if (!km_transaction_remove(tx, fid, &error))
			return kc_fail_gerror(ctx, ctx->argv[i], error);
		kc_say("removed fid %" G_GUINT32_FORMAT ": %s\n", fid, title);
	}
	return KC_EXIT_OK;
}

static int rm_track_run(struct kc_ctx *ctx)
{
	return kc_library_edit(ctx, remove_tracks, NULL);
}

const struct kc_command kc_cmd_rm_track = {
	.name = "rm-track",	/* its arguments and summary: ../kc-karma-commands.c */
	.options = edit_options, .min_args = 1, .max_args = INT_MAX, .access = KC_NO_VOLUME,
	.run = rm_track_run,
};

/* ---- tag ---- */

/*
 * KEY=VALUE: *key and *value point into a copy (free *key). An empty value
 * removes. A key or value the library would refuse is a usage error.
 */
static int split_assignment(struct kc_ctx *ctx, const char *arg, char **key, char **value)
{
	g_autoptr(GError) error = NULL;
	char *eq;

	if (!g_utf8_validate(arg, -1, NULL))
		return kc_usage(ctx, "not valid UTF-8: '%s'", arg);
	*key = g_strdup(arg);
	eq = strchr(*key, '=');
	if (!eq || eq == *key) {
		g_clear_pointer(key, g_free);
		return kc_usage(ctx, "not KEY=VALUE: '%s'", arg);
	}
	*eq = '\0';
	*value = eq[1] ? eq + 1 : NULL;
	if (!km_property_check(*key, *value, &error)) {
		g_clear_pointer(key, g_free);
		return kc_usage(ctx, "%s", error->message);
	}
	return KC_EXIT_OK;
}

static int set_tags(struct kc_ctx *ctx, KmTransaction *tx, void *data)
{
	guint32 fid = *(guint32 *)data;

	for (int i = 1; i < ctx->argc; i++) {
		g_autoptr(GError) error = NULL;
		g_autofree char *shown = NULL;
		char *key = NULL, *value = NULL;
		int status = split_assignment(ctx, ctx->argv[i], &key, &value);

		if (status)
			return status;
		shown = kc_shown(ctx->argv[i]);
		if (!km_transaction_set_property(tx, fid, key, value, &error))
			status = kc_fail_gerror(ctx, ctx->argv[i], error);
		else if (value)
			kc_say("fid %" G_GUINT32_FORMAT ": %s\n", fid, shown);
		else
			kc_say("fid %" G_GUINT32_FORMAT ": %s removed\n", fid, key);
		g_free(key);
		if (status)
			return status;
	}
	return KC_EXIT_OK;
}

/* Every KEY=VALUE is checked before the library is opened: a bad one changes nothing. */
static int check_assignments(struct kc_ctx *ctx)
{
	for (int i = 1; i < ctx->argc; i++) {
		char *key = NULL, *value = NULL;
		int status = split_assignment(ctx, ctx->argv[i], &key, &value);

		g_free(key);
		if (status)
			return status;
	}
	return KC_EXIT_OK;
}

static int tag_run(struct kc_ctx *ctx)
{
	guint32 fid;
	int status = kc_parse_fid(ctx, ctx->argv[0], &fid);

	if (!status)
		status = check_assignments(ctx);
	if (status)
		return status;
	return kc_library_edit(ctx, set_tags, &fid);
}

const struct kc_command kc_cmd_tag = {
	.name = "tag",	/* its arguments and summary: ../kc-karma-commands.c */
	.options = edit_options, .min_args = 2, .max_args = INT_MAX, .access = KC_NO_VOLUME,
	.run = tag_run,
};
