/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-karma-cmds.c - the Karma-level commands: mkkarma (a whole Karma disk
 * image, optionally with generated demo tracks), tracks, verify, rebuild-db.
 */
#include "kc-library.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "km-demo.h"
#include "km-karma-image.h"
#include "km-karma-label.h"
#include "km-smalldb.h"
#include "km-verify.h"

/* ---- mkkarma ---- */

#define DEFAULT_DISK_SIZE "256M"

static char *mkkarma_size;
static char *mkkarma_demo;

static const GOptionEntry mkkarma_options[] = {
	{ "size", 's', 0, G_OPTION_ARG_STRING, &mkkarma_size,
	  "Disk size (K, M, G suffixes; default " DEFAULT_DISK_SIZE "), sparse", "SIZE" },
	{ "demo", 0, 0, G_OPTION_ARG_STRING, &mkkarma_demo,
	  "Add N generated tracks (real audio and tags)", "N" },
	{ NULL }
};

static int parse_disk_size(struct kc_ctx *ctx, uint64_t *size)
{
	const char *s = mkkarma_size ? mkkarma_size : DEFAULT_DISK_SIZE;

	if (!kc_parse_size(s, size))
		return kc_usage(ctx, "--size: not a size: '%s'", s);
	if (*size < KM_KARMA_IMAGE_MIN_SIZE)
		return kc_usage(ctx, "--size: %s is too small for a Karma disk (32M at least)", s);
	/* the label counts sectors in 32 bits */
	if (*size / KM_KARMA_SECTOR_SIZE > UINT32_MAX)
		return kc_usage(ctx, "--size: %s is too large for a Karma label", s);
	return KC_EXIT_OK;
}

static int mkkarma_run(struct kc_ctx *ctx)
{
	uint64_t size = 0, demo = 0;
	GError *error = NULL;
	gboolean ok;
	int status;

	ctx->image = ctx->argv[0];
	if (ctx->offset)
		return kc_usage(ctx, "--offset: a Karma disk starts at the start of its image");
	if (mkkarma_demo && (!kc_parse_size(mkkarma_demo, &demo) || demo > KM_DEMO_MAX_TRACKS))
		return kc_usage(ctx, "--demo: not a number of tracks from 0 to %d: '%s'",
				KM_DEMO_MAX_TRACKS, mkkarma_demo);
	status = parse_disk_size(ctx, &size);
	if (!status)
		status = kc_check_not_mounted(ctx, ctx->image, true);
	if (status)
		return status;
	if (demo)
		ok = km_demo_create_image(ctx->image, size, (guint)demo, NULL, &error);
	else
		ok = km_karma_image_create(ctx->image, size, (guint32)time(NULL), &error);
	if (!ok) {
		status = kc_fail_gerror(ctx, "mkkarma", error);
		g_error_free(error);
		return status;
	}
	size -= size % KM_KARMA_SECTOR_SIZE;
	printf("%s: Karma disk of %" PRIu64 " bytes: partition 1 (system) at 512, "
	       "partition 2 (music) at %" PRIu64 "\n", ctx->image, size,
	       (uint64_t)KM_KARMA_IMAGE_MUSIC_OFFSET);
	if (demo)
		printf("%s: %u demo tracks added\n", ctx->image, (unsigned)demo);
	return KC_EXIT_OK;
}

const struct kc_command kc_cmd_mkkarma = {
	.name = "mkkarma",	/* its arguments and summary: ../kc-karma-commands.c */
	.options = mkkarma_options, .min_args = 1, .max_args = 1, .access = KC_NO_VOLUME,
	.makes_image_file = true, .run = mkkarma_run,
};

/* ---- tracks ---- */

static gboolean tracks_json;
static gboolean tracks_scan;

static const GOptionEntry tracks_options[] = {
	{ "json", 'j', 0, G_OPTION_ARG_NONE, &tracks_json,
	  "One JSON array of objects keyed by the Karma property names", NULL },
	{ "scan", 0, 0, G_OPTION_ARG_NONE, &tracks_scan,
	  "Read every properties file rather than var/smalldb (slower; shows the keys "
	  "smalldb does not keep, and those whose value is 0 or empty)", NULL },
	{ NULL }
};

/* A plain decimal number, as JSON writes one: no sign, no leading zero, no hex. */
static bool is_json_number(const char *v)
{
	size_t len = strspn(v, "0123456789");

	return len > 0 && v[len] == '\0' && len <= 20 && (v[0] != '0' || len == 1);
}

static bool is_numeric(const char *key, const char *value)
{
	return km_smalldb_column_is_numeric(key) && is_json_number(value);
}

/* A binary value (playlist, profile) in hex: text cannot carry it. */
static char *blob_hex(const KmProperties *p, const char *key)
{
	GBytes *blob = km_properties_get_blob(p, key);
	gsize len = 0;
	const guint8 *d = blob ? g_bytes_get_data(blob, &len) : NULL;
	GString *s = g_string_sized_new(2 * len);
	gsize i;

	for (i = 0; i < len; i++)
		g_string_append_printf(s, "%02x", d[i]);
	if (blob)
		g_bytes_unref(blob);
	return g_string_free(s, FALSE);
}

/* The value as shown: the decoded string, or the hex of a binary value. */
static char *shown_value(const KmProperties *p, const char *key)
{
	const char *v;

	if (km_properties_is_blob_key(key))
		return blob_hex(p, key);
	v = km_properties_get(p, key);
	return g_strdup(v ? v : "");
}

static void append_json_object(GString *out, const KmProperties *p)
{
	const char *const *keys;
	guint n, i;

	keys = km_properties_keys(p, &n);
	g_string_append_printf(out, "{\"fid\": %" G_GUINT32_FORMAT, km_properties_get_fid(p));
	for (i = 0; i < n; i++) {
		char *v;

		if (strcmp(keys[i], "fid") == 0)
			continue;
		v = shown_value(p, keys[i]);
		g_string_append(out, ", ");
		kc_json_string(out, keys[i]);
		g_string_append(out, ": ");
		if (is_numeric(keys[i], v))
			g_string_append(out, v);
		else
			kc_json_string(out, v);
		g_free(v);
	}
	g_string_append_c(out, '}');
}

/*
 * One block per object: "fid=N", then key=value lines (control characters
 * escaped: kc_shown()), then an empty line.
 */
static void append_plain_object(GString *out, const KmProperties *p)
{
	const char *const *keys;
	guint n, i;

	keys = km_properties_keys(p, &n);
	g_string_append_printf(out, "fid=%" G_GUINT32_FORMAT "\n", km_properties_get_fid(p));
	for (i = 0; i < n; i++) {
		char *v;
		g_autofree char *key = kc_shown(keys[i]);
		g_autofree char *value = NULL;

		if (strcmp(keys[i], "fid") == 0)
			continue;
		v = shown_value(p, keys[i]);
		value = kc_shown(v);
		g_string_append_printf(out, "%s=%s\n", key, value);
		g_free(v);
	}
	g_string_append_c(out, '\n');
}

static void print_tracks(GPtrArray *objects, const char *folded_query)
{
	GString *out = g_string_new(tracks_json ? "[" : "");
	bool first = true;
	guint i;

	for (i = 0; i < objects->len; i++) {
		const KmProperties *p = objects->pdata[i];

		if (!kc_library_matches(p, folded_query))
			continue;
		if (tracks_json) {
			g_string_append(out, first ? "\n  " : ",\n  ");
			append_json_object(out, p);
		} else {
			append_plain_object(out, p);
		}
		first = false;
	}
	if (tracks_json)
		g_string_append(out, first ? "]\n" : "\n]\n");
	fwrite(out->str, 1, out->len, stdout);
	g_string_free(out, TRUE);
}

static int tracks_run(struct kc_ctx *ctx)
{
	struct kc_library kl;
	GPtrArray *objects;
	char *folded_query = NULL;
	int status;

	if (ctx->argc && !g_utf8_validate(ctx->argv[0], -1, NULL))
		return kc_usage(ctx, "QUERY is not valid UTF-8");
	status = kc_library_open(ctx, false, tracks_scan, &kl);
	if (status)
		return status;
	if (ctx->argc)
		folded_query = g_utf8_casefold(ctx->argv[0], -1);
	objects = km_library_list(kl.lib);
	print_tracks(objects, folded_query);
	g_ptr_array_unref(objects);
	g_free(folded_query);
	return kc_library_close(ctx, &kl, KC_EXIT_OK);
}

const struct kc_command kc_cmd_tracks = {
	.name = "tracks",	/* its arguments and summary: ../kc-karma-commands.c */
	.options = tracks_options, .min_args = 0, .max_args = 1, .access = KC_NO_VOLUME,
	.run = tracks_run,
};

/* ---- verify, rebuild-db ---- */

/* Exit codes as fsck's. */
enum {
	VERIFY_CLEAN = 0,
	VERIFY_REPAIRED = 1,
	VERIFY_PROBLEMS_LEFT = 4,
	VERIFY_FAILED = 8,
};

static gboolean verify_repair;
static gboolean verify_data;

static const GOptionEntry verify_options[] = {
	{ "repair", 'r', 0, G_OPTION_ARG_NONE, &verify_repair,
	  "Rebuild what can be rebuilt, and say what changed", NULL },
	{ "data", 'd', 0, G_OPTION_ARG_NONE, &verify_data,
	  "Read every track's data in full (slow: reads the whole library)", NULL },
	{ NULL }
};

static const GOptionEntry rebuild_options[] = {
	{ NULL }
};

static void print_report(const KmVerifyReport *r)
{
	guint i;

	for (i = 0; i < r->findings->len; i++) {
		const KmVerifyFinding *f = r->findings->pdata[i];

		/* the message names the fid itself */
		printf("%s: %s%s\n", km_verify_kind_name(f->kind), f->message,
		       f->repaired ? " (repaired)" : f->repairable ? " (repairable)" : "");
	}
	printf("%u object%s, %u finding%s, %u not repaired%s\n", r->n_objects,
	       r->n_objects == 1 ? "" : "s", r->findings->len, r->findings->len == 1 ? "" : "s",
	       r->n_unrepaired, r->smalldb_written ? ", smalldb rewritten" : "");
}

static int report_status(const KmVerifyReport *r)
{
	if (r->n_unrepaired)
		return VERIFY_PROBLEMS_LEFT;
	return r->findings->len ? VERIFY_REPAIRED : VERIFY_CLEAN;
}

static KmVerifyFlags verify_flags(void)
{
	return (verify_repair ? KM_VERIFY_FLAG_REPAIR : 0) |
	       (verify_data ? KM_VERIFY_FLAG_READ_DATA : 0);
}

/* Opens the library, runs verify (or rebuild), prints the report. */
static int run_check(struct kc_ctx *ctx, bool writable, bool rebuild)
{
	struct kc_library kl;
	KmVerifyReport *r;
	GError *error = NULL;
	int status;

	if (kc_library_open(ctx, writable, false, &kl))
		return VERIFY_FAILED;
	if (rebuild)
		r = km_library_rebuild_db(kl.lib, NULL, &error);
	else
		r = km_library_verify(kl.lib, verify_flags(), NULL, &error);
	if (!r) {
		kc_fail_gerror(ctx, ctx->image, error);
		g_error_free(error);
		kc_library_close(ctx, &kl, KC_EXIT_FAIL);
		return VERIFY_FAILED;
	}
	print_report(r);
	status = rebuild && !r->n_unrepaired ? KC_EXIT_OK : report_status(r);
	km_verify_report_free(r);
	if (kc_library_close(ctx, &kl, KC_EXIT_OK))
		return VERIFY_FAILED;
	return status;
}

static int verify_run(struct kc_ctx *ctx)
{
	return run_check(ctx, verify_repair, false);
}

/* 0 done, 4 something left unrepaired (as verify), 1 failed. */
static int rebuild_db_run(struct kc_ctx *ctx)
{
	int status = run_check(ctx, true, true);

	return status == VERIFY_FAILED ? KC_EXIT_FAIL : status;
}

const struct kc_command kc_cmd_verify = {
	.name = "verify",	/* its arguments and summary: ../kc-karma-commands.c */
	.options = verify_options, .min_args = 0, .max_args = 0, .access = KC_NO_VOLUME,
	.run = verify_run,
};

const struct kc_command kc_cmd_rebuild_db = {
	.name = "rebuild-db",	/* its arguments and summary: ../kc-karma-commands.c */
	.options = rebuild_options, .min_args = 0, .max_args = 0, .access = KC_NO_VOLUME,
	.run = rebuild_db_run,
};
