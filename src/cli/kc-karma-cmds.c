/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-karma-cmds.c - the Karma-level commands: mkkarma (a whole Karma disk
 * image, optionally with generated demo tracks), tracks, verify, rebuild-db.
 */
#include "kc-library.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "km-image-device.h"
#include "km-import.h"
#include "km-karma-label.h"
#include "km-smalldb.h"
#include "km-transaction.h"
#include "km-verify.h"

/* ---- mkkarma: the disk ---- */

/*
 * The label sector, then the system partition up to 16 MiB (the player keeps
 * its firmware there; we leave it an empty OMFS volume), then the music
 * partition: it starts at 16 MiB, so `--offset 16M` reaches it directly.
 */
#define MUSIC_START_SECTOR ((16u << 20) / KM_KARMA_SECTOR_SIZE)
/* Room for the music partition's metadata and a few tracks. */
#define MIN_DISK_SIZE ((uint64_t)32 << 20)
#define DEFAULT_DISK_SIZE "256M"
#define MAX_DEMO_TRACKS 1000

static char *mkkarma_size;
static char *mkkarma_demo;

static const GOptionEntry mkkarma_options[] = {
	{ "size", 's', 0, G_OPTION_ARG_STRING, &mkkarma_size,
	  "Disk size (K, M, G suffixes; default " DEFAULT_DISK_SIZE "), sparse", "SIZE" },
	{ "demo", 0, 0, G_OPTION_ARG_STRING, &mkkarma_demo,
	  "Add N generated tracks (real audio and tags)", "N" },
	{ NULL }
};

static int write_label(struct kc_ctx *ctx, const struct omfs_blockdev *disk,
		       const struct km_karma_label *label, uint64_t size)
{
	uint8_t sector[KM_KARMA_SECTOR_SIZE];
	char msg[OMFS_ERRMSG_MAX] = "";
	int err;

	err = km_karma_label_build(sector, label, size, msg, sizeof(msg));
	if (err < 0)
		return kc_failf(ctx, "%s: label: %s", ctx->image, msg);
	err = disk->write(disk->ctx, 0, sector, sizeof(sector));
	if (err < 0)
		return kc_fail_errno(ctx, ctx->image, -err);
	return KC_EXIT_OK;
}

/* mkfs on one partition; the music partition also gets fids0/, var/ and smalldb. */
static int format_partition(struct kc_ctx *ctx, const struct omfs_blockdev *disk,
			    const struct km_karma_partition *part, const char *name, bool music)
{
	struct omfs_mkfs_opts opts = { .label = name };
	char msg[OMFS_ERRMSG_MAX] = "";
	struct km_window_device *win;
	GError *error = NULL;
	int status = KC_EXIT_OK;
	int err;

	win = km_karma_partition_open(disk, part, msg, sizeof(msg));
	if (!win)
		return kc_failf(ctx, "%s: partition %u: %s", ctx->image, part->number, msg);
	err = omfs_mkfs(km_window_device_blockdev(win), &opts, msg, sizeof(msg));
	if (err < 0) {
		status = kc_failf(ctx, "%s: partition %u: %s (%s)", ctx->image, part->number,
				  g_strerror(-err), msg);
	} else if (music && !km_library_create_layout(km_window_device_blockdev(win),
						      (guint32)time(NULL), &error)) {
		status = kc_failf(ctx, "%s: partition %u: %s", ctx->image, part->number,
				  error->message);
		g_error_free(error);
	}
	km_window_device_close(win);
	return status;
}

static int parse_disk_size(struct kc_ctx *ctx, uint64_t *sectors)
{
	const char *s = mkkarma_size ? mkkarma_size : DEFAULT_DISK_SIZE;
	uint64_t size;

	if (!kc_parse_size(s, &size))
		return kc_usage(ctx, "--size: not a size: '%s'", s);
	if (size < MIN_DISK_SIZE)
		return kc_usage(ctx, "--size: %s is too small for a Karma disk (32M at least)", s);
	/* the label counts sectors in 32 bits */
	if (size / KM_KARMA_SECTOR_SIZE > UINT32_MAX)
		return kc_usage(ctx, "--size: %s is too large for a Karma label", s);
	*sectors = size / KM_KARMA_SECTOR_SIZE;
	return KC_EXIT_OK;
}

static int make_disk(struct kc_ctx *ctx, uint64_t sectors)
{
	uint64_t size = sectors * KM_KARMA_SECTOR_SIZE;
	struct km_karma_label label = {
		.n_partitions = 2,
		.partitions = {
			{ 1, 1, MUSIC_START_SECTOR - 1 },
			{ 2, MUSIC_START_SECTOR, (uint32_t)(sectors - MUSIC_START_SECTOR) },
		},
	};
	char msg[OMFS_ERRMSG_MAX] = "";
	struct km_image_device *dev;
	const struct omfs_blockdev *disk;
	int status, err;

	dev = km_image_device_create(ctx->image, size, msg, sizeof(msg));
	if (!dev)
		return kc_failf(ctx, "%s", msg[0] ? msg : g_strerror(errno));
	disk = km_image_device_blockdev(dev);
	status = write_label(ctx, disk, &label, size);
	if (!status)
		status = format_partition(ctx, disk, &label.partitions[0], "system", false);
	if (!status)
		status = format_partition(ctx, disk, &label.partitions[1], "music", true);
	err = km_image_device_close(dev);
	if (err < 0 && !status)
		status = kc_failf(ctx, "%s: close: %s", ctx->image, g_strerror(-err));
	if (!status)
		printf("%s: Karma disk of %" PRIu64 " bytes: partition 1 (system) at 512, "
		       "partition 2 (music) at %" PRIu64 "\n", ctx->image, size,
		       (uint64_t)MUSIC_START_SECTOR * KM_KARMA_SECTOR_SIZE);
	return status;
}

/* ---- mkkarma --demo: generated WAV files with RIFF INFO tags ---- */

#define DEMO_RATE 8000u
#define DEMO_MIN_SECONDS 2u

struct demo_track {
	const char *artist;
	const char *album;
	const char *genre;
	char *title;
	unsigned year;
	unsigned tracknr;
	unsigned seconds;
	unsigned pitch;		/* Hz */
};

/*
 * Several artists with a leading "The ", which smalldb sorts by the rest of the
 * name; a quote and a backslash, which JSON must escape.
 */
static const struct {
	const char *artist;
	const char *genre;
	const char *albums[2];
	unsigned year;
} demo_artists[] = {
	{ "The Beatniks", "Rock", { "Sparse Files", "Cluster Bombs" }, 1966 },
	{ "Ada Lovelace Trio", "Jazz", { "Analytical Engine", "Notes" }, 1843 },
	{ "Mirror Block", "Electronic", { "Checksum", "Fresh\\Buffers" }, 2004 },
	{ "The Inodes", "Punk", { "Unlinked", "Orphans" }, 1979 },
	{ "Élodie Fréquence", "Chanson", { "Café Bitmap", "Été" }, 1998 },
	{ "Rio", "Pop", { "\"Live\" at Block 0", "Karma II" }, 2003 },
	{ "The The", "Alternative", { "Soul Mining", "Infected" }, 1983 },
};

static const char *const demo_words[] = {
	"Blue", "Midnight", "Signal", "Journal", "Falling", "Sector", "Echo", "Window",
	"Silver", "Mirror", "Quiet", "Orbit", "Static", "Harbour", "Paper", "Engine",
};

static void demo_track_init(struct demo_track *t, unsigned i)
{
	unsigned na = G_N_ELEMENTS(demo_artists), nw = G_N_ELEMENTS(demo_words);
	unsigned a = i % na, round = i / na;

	t->artist = demo_artists[a].artist;
	t->genre = demo_artists[a].genre;
	t->album = demo_artists[a].albums[round % 2];
	t->year = demo_artists[a].year + round % 2;
	t->tracknr = round / 2 + 1;
	t->title = g_strdup_printf("%s %s", demo_words[(i * 7) % nw], demo_words[(i * 3 + 5) % nw]);
	t->seconds = DEMO_MIN_SECONDS + i % 3;
	t->pitch = 220 + 55 * (i % 12);
}

static void put_le16(GByteArray *b, unsigned v)
{
	guint8 x[2] = { v & 0xff, (v >> 8) & 0xff };

	g_byte_array_append(b, x, sizeof(x));
}

static void put_le32(GByteArray *b, uint32_t v)
{
	guint8 x[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24 };

	g_byte_array_append(b, x, sizeof(x));
}

static void put_chunk_header(GByteArray *b, const char *id, uint32_t size)
{
	g_byte_array_append(b, (const guint8 *)id, 4);
	put_le32(b, size);
}

/* An INFO sub-chunk: the text NUL-terminated, padded to an even size. */
static void put_info_text(GByteArray *b, const char *id, const char *text)
{
	uint32_t len = (uint32_t)strlen(text) + 1;
	static const guint8 zero[2];

	put_chunk_header(b, id, len);
	g_byte_array_append(b, (const guint8 *)text, len - 1);
	g_byte_array_append(b, zero, 1 + (len & 1));
}

static void put_info_list(GByteArray *b, const struct demo_track *t)
{
	GByteArray *list = g_byte_array_new();
	char year[16], track[16];

	g_snprintf(year, sizeof(year), "%u", t->year);
	g_snprintf(track, sizeof(track), "%u", t->tracknr);
	g_byte_array_append(list, (const guint8 *)"INFO", 4);
	put_info_text(list, "INAM", t->title);
	put_info_text(list, "IART", t->artist);
	put_info_text(list, "IPRD", t->album);
	put_info_text(list, "IGNR", t->genre);
	put_info_text(list, "ICRD", year);
	put_info_text(list, "ITRK", track);
	put_chunk_header(b, "LIST", list->len);
	g_byte_array_append(b, list->data, list->len);
	g_byte_array_unref(list);
}

/* A triangle wave at t->pitch, fading in and out so that it does not click. */
static void put_tone(GByteArray *b, const struct demo_track *t)
{
	uint32_t n = t->seconds * DEMO_RATE, fade = DEMO_RATE / 20, period = DEMO_RATE / t->pitch;
	uint32_t i;

	for (i = 0; i < n; i++) {
		int32_t phase = (int32_t)(i % period);
		int32_t tri = 4 * 12000 * phase / (int32_t)period;	/* 0 .. 48000 */
		uint32_t edge = MIN(i, n - 1 - i);
		int32_t v = tri < 24000 ? tri - 12000 : 36000 - tri;

		if (edge < fade)
			v = v * (int32_t)edge / (int32_t)fade;
		put_le16(b, (unsigned)(uint16_t)(int16_t)v);
	}
}

/* PCM 16-bit mono WAV: RIFF, fmt, LIST/INFO (the tags), data. */
static GByteArray *demo_wav(const struct demo_track *t)
{
	GByteArray *b = g_byte_array_new();
	uint32_t data_len = t->seconds * DEMO_RATE * 2;

	put_chunk_header(b, "RIFF", 0);	/* size patched below */
	g_byte_array_append(b, (const guint8 *)"WAVE", 4);
	put_chunk_header(b, "fmt ", 16);
	put_le16(b, 1);			/* PCM */
	put_le16(b, 1);			/* mono */
	put_le32(b, DEMO_RATE);
	put_le32(b, DEMO_RATE * 2);	/* bytes per second */
	put_le16(b, 2);			/* block align */
	put_le16(b, 16);		/* bits per sample */
	put_info_list(b, t);
	put_chunk_header(b, "data", data_len);
	put_tone(b, t);
	b->data[4] = (b->len - 8) & 0xff;
	b->data[5] = ((b->len - 8) >> 8) & 0xff;
	b->data[6] = ((b->len - 8) >> 16) & 0xff;
	b->data[7] = (b->len - 8) >> 24;
	return b;
}

/* Writes track i to a file in dir, imports it and adds it to tx. */
static int add_demo_track(struct kc_ctx *ctx, KmTransaction *tx, const char *dir, unsigned i)
{
	struct demo_track t;
	char *path = g_strdup_printf("%s/demo-%u.wav", dir, i);
	GByteArray *wav;
	KmProperties *props = NULL;
	GError *error = NULL;
	int status = KC_EXIT_OK;
	guint32 fid;

	demo_track_init(&t, i);
	wav = demo_wav(&t);
	if (!g_file_set_contents(path, (const char *)wav->data, wav->len, &error))
		goto fail;
	props = km_import_file(path, KM_IMPORT_FLAGS_NONE, &error);
	if (!props)
		goto fail;
	if (!km_transaction_add_file(tx, props, path, NULL, NULL, NULL, &fid, &error))
		goto fail;
	goto out;
fail:
	status = kc_fail_gerror(ctx, "demo track", error);
	g_error_free(error);
out:
	if (props)
		km_properties_unref(props);
	g_unlink(path);
	g_byte_array_unref(wav);
	g_free(t.title);
	g_free(path);
	return status;
}

static int add_demo_tracks(struct kc_ctx *ctx, KmTransaction *tx, unsigned n)
{
	GError *error = NULL;
	char *dir = g_dir_make_tmp("karmactl-demo-XXXXXX", &error);
	int status = KC_EXIT_OK;
	unsigned i;

	if (!dir) {
		status = kc_fail_gerror(ctx, "temporary folder", error);
		g_error_free(error);
		return status;
	}
	for (i = 0; i < n && !status; i++)
		status = add_demo_track(ctx, tx, dir, i);
	g_rmdir(dir);
	g_free(dir);
	return status;
}

/* Every track in one transaction, committed once: smalldb is written once. */
static int fill_demo(struct kc_ctx *ctx, unsigned n)
{
	struct kc_library kl;
	KmTransaction *tx;
	GError *error = NULL;
	int status;

	status = kc_library_open(ctx, true, false, &kl);
	if (status)
		return status;
	tx = km_library_begin(kl.lib, &error);
	if (!tx) {
		status = kc_fail_gerror(ctx, ctx->image, error);
		g_error_free(error);
		return kc_library_close(ctx, &kl, status);
	}
	status = add_demo_tracks(ctx, tx, n);
	if (!status && !km_transaction_commit(tx, &error)) {
		status = kc_fail_gerror(ctx, ctx->image, error);
		g_error_free(error);
	}
	g_object_unref(tx);	/* an uncommitted transaction rolls back */
	if (!status)
		printf("%s: %u demo tracks added\n", ctx->image, n);
	return kc_library_close(ctx, &kl, status);
}

static int mkkarma_run(struct kc_ctx *ctx)
{
	uint64_t sectors = 0, demo = 0;
	int status;

	ctx->image = ctx->argv[0];
	if (ctx->offset)
		return kc_usage(ctx, "--offset: a Karma disk starts at the start of its image");
	if (mkkarma_demo && (!kc_parse_size(mkkarma_demo, &demo) || demo > MAX_DEMO_TRACKS))
		return kc_usage(ctx, "--demo: not a number of tracks from 0 to %d: '%s'",
				MAX_DEMO_TRACKS, mkkarma_demo);
	status = parse_disk_size(ctx, &sectors);
	if (!status)
		status = make_disk(ctx, sectors);
	if (!status && demo)
		status = fill_demo(ctx, (unsigned)demo);
	return status;
}

const struct kc_command kc_cmd_mkkarma = {
	.name = "mkkarma", .args = "IMAGE [--demo N]",
	.summary = "Make a whole Karma disk image: label, system and music partitions",
	.options = mkkarma_options, .min_args = 1, .max_args = 1, .access = KC_NO_VOLUME,
	.run = mkkarma_run,
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
	KC_PARTITION_OPTION,
	{ NULL }
};

/* Where QUERY is looked for. */
static const char *const query_keys[] = { "title", "artist", "source", "genre" };

static bool matches_query(const KmProperties *p, const char *folded_query)
{
	size_t i;

	if (!folded_query)
		return true;
	for (i = 0; i < G_N_ELEMENTS(query_keys); i++) {
		const char *v = km_properties_get(p, query_keys[i]);
		char *folded;
		bool hit;

		if (!v)
			continue;
		folded = g_utf8_casefold(v, -1);
		hit = strstr(folded, folded_query) != NULL;
		g_free(folded);
		if (hit)
			return true;
	}
	return false;
}

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

static void json_string(GString *out, const char *s)
{
	g_string_append_c(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			g_string_append_printf(out, "\\%c", c);
		else if (c == '\n')
			g_string_append(out, "\\n");
		else if (c == '\t')
			g_string_append(out, "\\t");
		else if (c == '\r')
			g_string_append(out, "\\r");
		else if (c < 0x20 || c == 0x7f)
			g_string_append_printf(out, "\\u%04x", c);
		else	/* the rest of valid UTF-8 (the library keeps no other) as it is */
			g_string_append_c(out, (char)c);
	}
	g_string_append_c(out, '"');
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
		json_string(out, keys[i]);
		g_string_append(out, ": ");
		if (is_numeric(keys[i], v))
			g_string_append(out, v);
		else
			json_string(out, v);
		g_free(v);
	}
	g_string_append_c(out, '}');
}

/* One block per object: "fid=N", then key=value lines, then an empty line. */
static void append_plain_object(GString *out, const KmProperties *p)
{
	const char *const *keys;
	guint n, i;

	keys = km_properties_keys(p, &n);
	g_string_append_printf(out, "fid=%" G_GUINT32_FORMAT "\n", km_properties_get_fid(p));
	for (i = 0; i < n; i++) {
		char *v;

		if (strcmp(keys[i], "fid") == 0)
			continue;
		v = shown_value(p, keys[i]);
		g_string_append_printf(out, "%s=%s\n", keys[i], v);
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

		if (!matches_query(p, folded_query))
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
	.name = "tracks", .args = "[QUERY]",
	.summary = "Every object with every property; QUERY filters title, artist, album, genre",
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

static const GOptionEntry verify_options[] = {
	{ "repair", 'r', 0, G_OPTION_ARG_NONE, &verify_repair,
	  "Rebuild what can be rebuilt, and say what changed", NULL },
	KC_PARTITION_OPTION,
	{ NULL }
};

static const GOptionEntry rebuild_options[] = {
	KC_PARTITION_OPTION,
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
		r = km_library_verify(kl.lib, verify_repair, NULL, &error);
	if (!r) {
		kc_fail_gerror(ctx, ctx->image, error);
		g_error_free(error);
		kc_library_close(ctx, &kl, KC_EXIT_FAIL);
		return VERIFY_FAILED;
	}
	print_report(r);
	status = rebuild ? KC_EXIT_OK : report_status(r);
	km_verify_report_free(r);
	if (kc_library_close(ctx, &kl, KC_EXIT_OK))
		return VERIFY_FAILED;
	return status;
}

static int verify_run(struct kc_ctx *ctx)
{
	return run_check(ctx, verify_repair, false);
}

static int rebuild_db_run(struct kc_ctx *ctx)
{
	return run_check(ctx, true, true) == VERIFY_FAILED ? KC_EXIT_FAIL : KC_EXIT_OK;
}

const struct kc_command kc_cmd_verify = {
	.name = "verify", .args = "",
	.summary = "Check the library against its files (exit 0 clean, 1 repaired, 4 problems)",
	.options = verify_options, .min_args = 0, .max_args = 0, .access = KC_NO_VOLUME,
	.run = verify_run,
};

const struct kc_command kc_cmd_rebuild_db = {
	.name = "rebuild-db", .args = "",
	.summary = "Rewrite var/smalldb from the properties files",
	.options = rebuild_options, .min_args = 0, .max_args = 0, .access = KC_NO_VOLUME,
	.run = rebuild_db_run,
};
