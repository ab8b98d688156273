/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-convert.c - km_convert_plan() and km_convert_file() on real files
 * that ffmpeg makes here: tagged AAC, ALAC, Opus, AIFF and WavPack, and a
 * 96 kHz six-channel 24-bit FLAC. Each is planned, converted, and the
 * result read back by km_import_file(): the codec, the duration, the rate
 * and the tags must be the source's (the disc number and the track count,
 * which the import does not read, by GStreamer's discoverer). Also: the other targets for a lossy
 * source, progress, cancels, hostile and missing files, an existing
 * destination, and two conversions at once. The ratio of each estimate to
 * the real size is printed (docs/KARMA.md §10.1 records them).
 * Without ffmpeg the cases that need it are skipped (scripts/install-deps.sh
 * installs it); GStreamer and its plugins must be there.
 */
#include "km-convert-private.h"
#include "km-convert-temp.h"
#include "km-convert.h"
#include "km-import.h"
#include "spawn-util.h"

#include <gst/pbutils/pbutils.h>

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SECONDS 6
#define LONG_SECONDS 30
#define CANCEL_SECONDS 120
/* The tolerance of durations: a lossy codec's priming and padding. */
#define DURATION_SLACK_MS 1000

static char *tmpdir;

/* The tags every source gets, and the properties km_import_file() must read back. */
static const char *const tags[] = {
	"title=Convert Tïtle", "artist=Ärtist Näme", "album=The Älbum", "genre=Rock",
	"date=2004", "track=3/12", "disc=1/2", NULL,
};
static const struct {
	const char *key, *value;
} want_props[] = {
	{ "title", "Convert Tïtle" }, { "artist", "Ärtist Näme" }, { "source", "The Älbum" },
	{ "genre", "Rock" }, { "year", "2004" }, { "tracknr", "3" },
};

/* ---- making files ------------------------------------------------------- */

static char *tmp_path(const char *name)
{
	return g_build_filename(tmpdir, name, NULL);
}

static void run(const char *const *argv)
{
	run_in(tmpdir, argv);
}

/*
 * Something like music for the encoders: a few partials under a slow
 * swell, a vibrato and a little noise, each channel a little different.
 */
static char *music_expression(guint channels)
{
	GString *expr = g_string_new("aevalsrc=");
	guint c;

	for (c = 0; c < channels; c++)
		g_string_append_printf(expr, "%s(0.25*sin(2*PI*%u*t)+0.12*sin(2*PI*%u*t+"
				       "2*sin(2*PI*5*t))+0.06*sin(2*PI*%u*t))"
				       "*(0.6+0.4*sin(2*PI*0.3*t+%u))+0.03*(random(%u)-0.5)",
				       c ? "|" : "", 220 + 30 * c, 331 + 20 * c, 1240 + 50 * c,
				       c, c);
	return g_string_free(expr, FALSE);
}

/* A file made by ffmpeg from the music above: codec are ffmpeg's output options. */
static char *make_source(const char *name, guint rate, guint channels, guint seconds,
			 const char *const *codec)
{
	g_autofree char *expr = music_expression(channels);
	g_autofree char *lavfi = g_strdup_printf("%s:s=%u:d=%u", expr, rate, seconds);
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	char *path = tmp_path(name);
	const char *const *p;

	argv_add(argv, "ffmpeg");
	argv_add(argv, "-loglevel");
	argv_add(argv, "error");
	argv_add(argv, "-y");
	argv_add(argv, "-f");
	argv_add(argv, "lavfi");
	argv_add(argv, "-i");
	argv_add(argv, lavfi);
	for (p = tags; *p; p++) {
		argv_add(argv, "-metadata");
		argv_add(argv, *p);
	}
	for (p = codec; *p; p++)
		argv_add(argv, *p);
	argv_add(argv, path);
	g_ptr_array_add(argv, NULL);
	run((const char *const *)argv->pdata);
	return path;
}

static char *make_aac(const char *name, guint seconds)
{
	return make_source(name, 44100, 2, seconds,
			   (const char *const[]){ "-c:a", "aac", "-b:a", "160k", NULL });
}

static void write_file(const char *path, const void *data, gsize len)
{
	g_autoptr(GError) error = NULL;

	g_assert_true(g_file_set_contents(path, data, (gssize)len, &error));
	g_assert_no_error(error);
}

static guint64 file_size(const char *path)
{
	GStatBuf st;

	g_assert_cmpint(g_stat(path, &st), ==, 0);
	return st.st_size;
}

/* ---- converting and checking ---------------------------------------------- */

/* What the progress callback saw. */
struct progress {
	guint calls;
	guint64 last_done, total;
	gboolean rising;		/* done never went back */
	GCancellable *cancel;		/* when set, cancelled at the first call with */
	guint64 cancel_at;		/* done >= cancel_at */
	guint64 cancelled_at;		/* that call's done */
};

static void on_progress(const KmLibraryProgress *p, gpointer data)
{
	struct progress *seen = data;

	g_assert_cmpint(p->phase, ==, KM_PHASE_CONVERTING);
	if (seen->calls && p->done < seen->last_done)
		seen->rising = FALSE;
	g_assert_cmpuint(p->done, <=, p->total);
	seen->last_done = p->done;
	seen->total = p->total;
	seen->calls++;
	if (seen->cancel && p->done >= seen->cancel_at &&
	    !g_cancellable_is_cancelled(seen->cancel)) {
		seen->cancelled_at = p->done;
		g_cancellable_cancel(seen->cancel);
	}
}

static KmConvertPlan plan_ok(const char *path, KmConvertFormat lossy_to)
{
	KmConvertSettings settings = { lossy_to, KM_CONVERT_DEFAULT_QUALITY };
	g_autoptr(GError) error = NULL;
	KmConvertPlan plan;
	gboolean ok;

	memset(&plan, 0xa5, sizeof(plan));
	ok = km_convert_plan(path, &settings, &plan, NULL, &error);
	g_assert_no_error(error);
	g_assert_true(ok);
	return plan;
}

static void assert_near_ms(guint64 got, guint64 want)
{
	if (got + DURATION_SLACK_MS < want || got > want + DURATION_SLACK_MS)
		g_error("duration %" G_GUINT64_FORMAT " ms, expected %" G_GUINT64_FORMAT " ms",
			got, want);
}

static const char *const import_codecs[] = {
	[KM_CONVERT_VORBIS] = "vorbis", [KM_CONVERT_MP3] = "mp3", [KM_CONVERT_FLAC] = "flac",
};

/*
 * The tags the import does not read, as GStreamer reads them back: the disc
 * number and the track count.
 */
static void assert_disc(const char *dest)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GstDiscoverer) discoverer = gst_discoverer_new(10 * GST_SECOND, &error);
	g_autofree char *uri = g_filename_to_uri(dest, NULL, &error);
	g_autoptr(GstDiscovererInfo) info = NULL;
	const GstTagList *found;
	guint disc = 0, discs = 0, tracks = 0;

	g_assert_no_error(error);
	info = gst_discoverer_discover_uri(discoverer, uri, &error);
	g_assert_no_error(error);
	found = gst_discoverer_info_get_tags(info);
	g_assert_nonnull(found);
	g_assert_true(gst_tag_list_get_uint(found, GST_TAG_ALBUM_VOLUME_NUMBER, &disc));
	g_assert_true(gst_tag_list_get_uint(found, GST_TAG_ALBUM_VOLUME_COUNT, &discs));
	g_assert_true(gst_tag_list_get_uint(found, GST_TAG_TRACK_COUNT, &tracks));
	g_assert_cmpuint(disc, ==, 1);
	g_assert_cmpuint(discs, ==, 2);
	g_assert_cmpuint(tracks, ==, 12);
}

/* The converted file as the import reads it: codec, duration, rate, tags. */
static void assert_imported(const char *dest, const KmConvertPlan *plan, guint64 want_ms)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmProperties) props = km_import_file(dest, KM_IMPORT_FLAGS_NONE, &error);
	guint64 duration = 0, rate = 0;
	guint i;

	g_assert_no_error(error);
	g_assert_cmpstr(km_properties_get(props, "codec"), ==, import_codecs[plan->format]);
	g_assert_true(km_properties_get_uint(props, "duration", &duration));
	assert_near_ms(duration, want_ms);
	g_assert_true(km_properties_get_uint(props, "samplerate", &rate));
	g_assert_cmpuint(rate, ==, plan->rate);
	g_assert_cmpuint(rate, <=, 48000);
	for (i = 0; i < G_N_ELEMENTS(want_props); i++)
		g_assert_cmpstr(km_properties_get(props, want_props[i].key), ==,
				want_props[i].value);
	assert_disc(dest);
	/* a VBR MP3 without xingmux's header would say fs (and a wrong duration) */
	if (plan->format == KM_CONVERT_MP3)
		g_assert_true(g_str_has_prefix(km_properties_get(props, "bitrate"), "vs"));
}

/* Convert path as the plan says into a new file, check it; returns the estimate's ratio. */
static double convert_ok(const char *path, const KmConvertPlan *plan, guint64 want_ms,
			 const char *label)
{
	g_autofree char *dest = g_strdup_printf("%s.%s.%s", path, label,
						km_convert_format_extension(plan->format));
	struct progress seen = { .rising = TRUE };
	g_autoptr(GError) error = NULL;
	GStatBuf st;
	double ratio;
	gboolean ok;

	ok = km_convert_file(path, plan, dest, on_progress, &seen, NULL, &error);
	g_assert_no_error(error);
	g_assert_true(ok);
	g_assert_cmpint(g_stat(dest, &st), ==, 0);
	g_assert_cmpint(st.st_mode & 0777, ==, 0600);
	g_assert_cmpuint(seen.calls, >=, 2);
	g_assert_true(seen.rising);
	g_assert_cmpuint(seen.total, ==, plan->duration_ms);
	g_assert_cmpuint(seen.last_done, ==, plan->duration_ms);
	assert_imported(dest, plan, want_ms);
	ratio = (double)plan->estimated_size / st.st_size;
	g_test_message("%s to %s: estimated %" G_GUINT64_FORMAT " bytes, real %" G_GUINT64_FORMAT
		       ", estimate/real %.2f", label, km_convert_format_name(plan->format),
		       plan->estimated_size, (guint64)st.st_size, ratio);
	g_assert_cmpfloat(ratio, >=, 0.5);
	g_assert_cmpfloat(ratio, <=, 2.0);
	return ratio;
}

struct source_case {
	const char *name;
	const char *const *codec;	/* ffmpeg's output options */
	guint rate, channels;
	gboolean lossless;
	guint out_rate, out_channels;
};

static void test_source(gconstpointer data)
{
	const struct source_case *c = data;
	g_autofree char *path = NULL;
	KmConvertPlan plan;

	if (!have("ffmpeg"))
		return;
	path = make_source(c->name, c->rate, c->channels, SECONDS, c->codec);
	plan = plan_ok(path, KM_CONVERT_VORBIS);
	g_assert_cmpint(plan.lossless, ==, c->lossless);
	g_assert_cmpint(plan.format, ==, c->lossless ? KM_CONVERT_FLAC : KM_CONVERT_VORBIS);
	assert_near_ms(plan.duration_ms, SECONDS * 1000);
	g_assert_cmpuint(plan.rate, ==, c->out_rate);
	g_assert_cmpuint(plan.channels, ==, c->out_channels);
	g_assert_cmpuint(plan.quality, ==, KM_CONVERT_DEFAULT_QUALITY);
	convert_ok(path, &plan, SECONDS * 1000, c->name);
}

static const struct source_case sources[] = {
	{ "aac.m4a", (const char *const[]){ "-c:a", "aac", "-b:a", "160k", NULL },
	  44100, 2, FALSE, 44100, 2 },
	{ "alac.m4a", (const char *const[]){ "-c:a", "alac", NULL }, 44100, 2, TRUE, 44100, 2 },
	/* Opus decodes at 48 kHz whatever went in */
	{ "opus.opus", (const char *const[]){ "-c:a", "libopus", "-b:a", "128k", NULL },
	  48000, 2, FALSE, 48000, 2 },
	/* ffmpeg writes AIFF's tags as an ID3v2 chunk only when asked */
	{ "pcm.aiff", (const char *const[]){ "-c:a", "pcm_s16be", "-write_id3v2", "1", NULL },
	  44100, 2, TRUE, 44100, 2 },
	/* APE tags call the date Year; ffmpeg writes it under its own name, date, as well */
	{ "wavpack.wv", (const char *const[]){ "-c:a", "wavpack", "-metadata", "Year=2004", NULL },
	  44100, 2, TRUE, 44100, 2 },
	/* resampled to 48 kHz, mixed down to stereo, 24 to 16 bits */
	{ "hires.flac", (const char *const[]){ "-c:a", "flac", "-sample_fmt", "s32", NULL },
	  96000, 6, TRUE, 48000, 2 },
	{ "mono.m4a", (const char *const[]){ "-c:a", "aac", "-b:a", "96k", NULL },
	  22050, 1, FALSE, 22050, 1 },
};

/* The other targets a lossy source may be given. */
static void test_lossy_targets(void)
{
	g_autofree char *path = NULL;
	KmConvertPlan plan;

	if (!have("ffmpeg"))
		return;
	path = make_aac("targets.m4a", SECONDS);
	plan = plan_ok(path, KM_CONVERT_MP3);
	g_assert_cmpint(plan.format, ==, KM_CONVERT_MP3);
	g_assert_false(plan.lossless);
	convert_ok(path, &plan, SECONDS * 1000, "mp3");
	plan = plan_ok(path, KM_CONVERT_FLAC);
	g_assert_cmpint(plan.format, ==, KM_CONVERT_FLAC);
	g_assert_false(plan.lossless);
	convert_ok(path, &plan, SECONDS * 1000, "flac");
}

/* The quality is honoured: the lowest makes a smaller file than the highest. */
static void test_quality(void)
{
	KmConvertSettings low = { KM_CONVERT_VORBIS, 0 }, high = { KM_CONVERT_VORBIS, 99 };
	g_autofree char *path = NULL, *small = NULL, *large = NULL;
	g_autoptr(GError) error = NULL;
	KmConvertPlan a, b;

	if (!have("ffmpeg"))
		return;
	path = make_aac("quality.m4a", SECONDS);
	small = tmp_path("quality-low.ogg");
	large = tmp_path("quality-high.ogg");
	g_assert_true(km_convert_plan(path, &low, &a, NULL, &error));
	g_assert_true(km_convert_plan(path, &high, &b, NULL, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(b.quality, ==, KM_CONVERT_MAX_QUALITY);
	g_assert_cmpuint(a.estimated_size, <, b.estimated_size);
	g_assert_true(km_convert_file(path, &a, small, NULL, NULL, NULL, &error));
	g_assert_true(km_convert_file(path, &b, large, NULL, NULL, NULL, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(file_size(small) * 2, <, file_size(large));
}

static void test_formats(void)
{
	KmConvertFormat format;

	g_assert_true(km_convert_format_from_name("vorbis", &format));
	g_assert_cmpint(format, ==, KM_CONVERT_VORBIS);
	g_assert_true(km_convert_format_from_name("mp3", &format));
	g_assert_cmpint(format, ==, KM_CONVERT_MP3);
	g_assert_true(km_convert_format_from_name("flac", &format));
	g_assert_cmpint(format, ==, KM_CONVERT_FLAC);
	g_assert_false(km_convert_format_from_name("aac", &format));
	g_assert_cmpstr(km_convert_format_name(KM_CONVERT_MP3), ==, "mp3");
	g_assert_cmpstr(km_convert_format_extension(KM_CONVERT_VORBIS), ==, "ogg");
	g_assert_cmpstr(km_convert_format_extension(KM_CONVERT_FLAC), ==, "flac");
}

/* ---- cancels -------------------------------------------------------------- */

/* Cancelled from the progress callback at cancel_at ms: no file is left. */
static void cancel_at(const char *path, guint64 at)
{
	g_autoptr(GCancellable) cancellable = g_cancellable_new();
	g_autofree char *dest = g_strdup_printf("%s.cancel-%" G_GUINT64_FORMAT ".ogg", path, at);
	struct progress seen = { .rising = TRUE, .cancel = cancellable, .cancel_at = at };
	g_autoptr(GError) error = NULL;
	KmConvertPlan plan = plan_ok(path, KM_CONVERT_VORBIS);

	g_assert_false(km_convert_file(path, &plan, dest, on_progress, &seen, cancellable,
				       &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
	g_assert_true(g_cancellable_is_cancelled(cancellable));
	g_assert_cmpuint(seen.cancelled_at, >=, at);
	g_assert_cmpuint(seen.cancelled_at, <, plan.duration_ms);
	g_test_message("cancelled at %" G_GUINT64_FORMAT " ms of %" G_GUINT64_FORMAT,
		       seen.cancelled_at, plan.duration_ms);
	g_assert_false(g_file_test(dest, G_FILE_TEST_EXISTS));
}

static void test_cancel(void)
{
	g_autoptr(GCancellable) cancelled = g_cancellable_new();
	g_autoptr(GError) error = NULL;
	g_autofree char *path = NULL;
	KmConvertPlan plan;

	if (!have("ffmpeg"))
		return;
	/* long enough that the conversion is still running at the second report */
	path = make_aac("cancel.m4a", CANCEL_SECONDS);
	cancel_at(path, 0);
	cancel_at(path, 1);
	/* a plan asked with a cancelled cancellable is not made either */
	g_cancellable_cancel(cancelled);
	g_assert_false(km_convert_plan(path, &(KmConvertSettings){ 0 }, &plan, cancelled,
				       &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* ---- refusals and failures ------------------------------------------------ */

static void assert_plan_refused(const char *path, GQuark domain, int code, const char *words)
{
	KmConvertSettings settings = { KM_CONVERT_VORBIS, KM_CONVERT_DEFAULT_QUALITY };
	g_autoptr(GError) error = NULL;
	KmConvertPlan plan;

	g_assert_false(km_convert_plan(path, &settings, &plan, NULL, &error));
	g_assert_error(error, domain, code);
	g_test_message("%s: %s", path, error->message);
	if (words && !strstr(error->message, words))
		g_error("“%s” does not say “%s”", error->message, words);
}

/* Random bytes and text: nothing to convert; nor from a plan made for another file. */
static void test_not_audio(void)
{
	g_autofree char *noise = tmp_path("noise.m4a");
	g_autofree char *text = tmp_path("notes.txt");
	g_autofree char *dest = tmp_path("noise.ogg");
	g_autoptr(GError) error = NULL;
	GRand *rand = g_rand_new_with_seed(17);
	guint32 bytes[16384];
	KmConvertPlan plan = { KM_CONVERT_VORBIS, FALSE, 5000, 44100, 2, 100000,
			       KM_CONVERT_DEFAULT_QUALITY };
	guint i;

	for (i = 0; i < G_N_ELEMENTS(bytes); i++)
		bytes[i] = g_rand_int(rand);
	g_rand_free(rand);
	write_file(noise, bytes, sizeof(bytes));
	assert_plan_refused(noise, KM_CONVERT_ERROR, KM_CONVERT_ERROR_NOT_AUDIO, "noise.m4a");
	write_file(text, "These are only words, and no song at all.\n", 42);
	assert_plan_refused(text, KM_CONVERT_ERROR, KM_CONVERT_ERROR_NOT_AUDIO, "notes.txt");
	g_assert_false(km_convert_file(noise, &plan, dest, NULL, NULL, NULL, &error));
	g_assert_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_FAILED);
	g_test_message("%s", error->message);
	g_assert_false(g_file_test(dest, G_FILE_TEST_EXISTS));
}

/* A video with a sound track is not music. */
static void test_video(void)
{
	g_autofree char *path = NULL;

	if (!have("ffmpeg"))
		return;
	path = tmp_path("video.mp4");
	run((const char *const[]){ "ffmpeg", "-loglevel", "error", "-y",
				   "-f", "lavfi", "-i", "testsrc=d=3:s=320x240:r=25",
				   "-f", "lavfi", "-i", "sine=d=3",
				   "-c:v", "mpeg4", "-c:a", "aac", path, NULL });
	assert_plan_refused(path, KM_CONVERT_ERROR, KM_CONVERT_ERROR_NOT_AUDIO, "video");
}

static void test_missing_source(void)
{
	g_autofree char *missing = tmp_path("missing.m4a");
	g_autofree char *fifo = tmp_path("fifo.m4a");
	g_autofree char *dest = tmp_path("missing.ogg");
	g_autoptr(GError) error = NULL;
	KmConvertPlan plan = { KM_CONVERT_VORBIS, FALSE, 5000, 44100, 2, 100000,
			       KM_CONVERT_DEFAULT_QUALITY };

	assert_plan_refused(missing, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "missing.m4a");
	assert_plan_refused(tmpdir, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE, NULL);
	g_assert_false(km_convert_file(missing, &plan, dest, NULL, NULL, NULL, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
	g_assert_false(g_file_test(dest, G_FILE_TEST_EXISTS));
	/* a FIFO nobody writes would hold GStreamer's open for ever */
	g_clear_error(&error);
	g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
	g_assert_false(km_convert_file(fifo, &plan, dest, NULL, NULL, NULL, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE);
	g_assert_false(g_file_test(dest, G_FILE_TEST_EXISTS));
}

/* The destination is never overwritten. */
static void test_dest_exists(void)
{
	g_autofree char *path = NULL, *dest = NULL, *kept = NULL;
	g_autoptr(GError) error = NULL;
	KmConvertPlan plan;

	if (!have("ffmpeg"))
		return;
	path = make_aac("exists.m4a", SECONDS);
	dest = tmp_path("exists.ogg");
	write_file(dest, "keep me", 7);
	plan = plan_ok(path, KM_CONVERT_VORBIS);
	g_assert_false(km_convert_file(path, &plan, dest, NULL, NULL, NULL, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_EXISTS);
	g_assert_true(g_file_get_contents(dest, &kept, NULL, NULL));
	g_assert_cmpstr(kept, ==, "keep me");
}

/*
 * A file cut in half: converted as far as it decodes, or refused with a
 * message; never a crash, and never a failed conversion's file left behind.
 */
static void convert_truncated(const char *path)
{
	KmConvertSettings settings = { KM_CONVERT_VORBIS, KM_CONVERT_DEFAULT_QUALITY };
	g_autofree char *data = NULL, *cut = g_strconcat(path, ".cut", NULL);
	g_autofree char *dest = g_strconcat(path, ".cut.ogg", NULL);
	g_autoptr(GError) error = NULL;
	KmConvertPlan plan;
	gsize len;

	g_assert_true(g_file_get_contents(path, &data, &len, NULL));
	write_file(cut, data, len / 2);
	if (!km_convert_plan(cut, &settings, &plan, NULL, &error)) {
		g_assert_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_NOT_AUDIO);
		g_test_message("truncated %s refused: %s", path, error->message);
		return;
	}
	if (km_convert_file(cut, &plan, dest, NULL, NULL, NULL, &error)) {
		g_autoptr(KmProperties) props = km_import_file(dest, KM_IMPORT_FLAGS_NONE, &error);

		g_assert_no_error(error);
		g_test_message("truncated %s converted: %s ms of %" G_GUINT64_FORMAT, path,
			       km_properties_get(props, "duration"), plan.duration_ms);
		return;
	}
	g_assert_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_FAILED);
	g_assert_nonnull(strstr(error->message, "after"));
	g_test_message("truncated %s failed: %s", path, error->message);
	g_assert_false(g_file_test(dest, G_FILE_TEST_EXISTS));
}

/*
 * An MP4 cut before its index is refused as one by our walk of its boxes,
 * not by GStreamer (km-convert-private.h: decodebin can lose qtdemux's
 * error, and the discovery then waits for its timeout).
 */
static void refuse_cut_mp4(const char *path, gsize divisor)
{
	KmConvertSettings settings = { KM_CONVERT_VORBIS, KM_CONVERT_DEFAULT_QUALITY };
	g_autofree char *data = NULL, *cut = g_strconcat(path, ".cut", NULL);
	g_autoptr(GError) error = NULL;
	KmConvertPlan plan;
	gsize len;

	g_assert_true(g_file_get_contents(path, &data, &len, NULL));
	write_file(cut, data, len / divisor);
	g_assert_cmpint(km_convert_mp4_index(cut), ==, KM_MP4_NO_INDEX);
	g_assert_false(km_convert_plan(cut, &settings, &plan, NULL, &error));
	g_assert_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_NOT_AUDIO);
	g_assert_nonnull(strstr(error->message, "moov"));
	g_test_message("%s cut to 1/%zu: %s", path, divisor, error->message);
}

static void test_truncated(void)
{
	g_autofree char *m4a = NULL, *faststart = NULL, *adts = NULL;

	if (!have("ffmpeg"))
		return;
	/* ffmpeg puts the index (moov) last: half the file has none */
	m4a = make_aac("cut.m4a", LONG_SECONDS);
	refuse_cut_mp4(m4a, 2);
	faststart = make_source("cut-faststart.m4a", 44100, 2, LONG_SECONDS,
				(const char *const[]){ "-c:a", "aac", "-movflags", "+faststart",
						       NULL });
	convert_truncated(faststart);
	/* the index first, but the file cut inside it */
	refuse_cut_mp4(faststart, 1000);
	adts = make_source("cut.aac", 44100, 2, LONG_SECONDS,
			   (const char *const[]){ "-c:a", "aac", "-f", "adts", NULL });
	convert_truncated(adts);
}

/*
 * An AIFF's format comes from its COMM chunk, read by us: what a hostile
 * header holds (no COMM within the chunks walked, a chunk running past the
 * end, a rate of 0 Hz or of 2^70 Hz) is refused at once, without
 * GStreamer; never a crash or a wait. A real AIFF cut in half
 * converts as far as it goes.
 */
static void test_hostile_aiff(void)
{
	static const guint8 comm_zero_rate[] = {
		'F', 'O', 'R', 'M', 0, 0, 0, 38, 'A', 'I', 'F', 'F',
		'C', 'O', 'M', 'M', 0, 0, 0, 18, 0, 2, 0, 0, 0, 100, 0, 16,
		0x3f, 0x00, 0x80, 0, 0, 0, 0, 0, 0, 0,	/* 2^-63 Hz */
	};
	static const guint8 comm_huge_rate[] = {
		'F', 'O', 'R', 'M', 0, 0, 0, 38, 'A', 'I', 'F', 'C',
		'C', 'O', 'M', 'M', 0, 0, 0, 18, 0, 2, 0, 0, 0, 100, 0, 16,
		0x40, 0x45, 0x80, 0, 0, 0, 0, 0, 0, 0,	/* 2^70 Hz */
	};
	static const guint8 chunk_past_end[] = {
		'F', 'O', 'R', 'M', 0xff, 0xff, 0xff, 0xff, 'A', 'I', 'F', 'F',
		'J', 'U', 'N', 'K', 0xff, 0xff, 0xff, 0xf0, 0, 0, 0, 0,
	};
	const struct {
		const char *name;
		const guint8 *bytes;
		gsize len;
	} cases[] = {
		{ "zero-rate.aiff", comm_zero_rate, sizeof(comm_zero_rate) },
		{ "huge-rate.aiff", comm_huge_rate, sizeof(comm_huge_rate) },
		{ "past-end.aiff", chunk_past_end, sizeof(chunk_past_end) },
	};
	KmConvertSettings settings = { KM_CONVERT_VORBIS, KM_CONVERT_DEFAULT_QUALITY };
	g_autofree char *real = NULL;

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *path = tmp_path(cases[i].name);
		g_autoptr(GError) error = NULL;
		KmConvertPlan plan;

		write_file(path, cases[i].bytes, cases[i].len);
		g_assert_false(km_convert_plan(path, &settings, &plan, NULL, &error));
		g_assert_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_NOT_AUDIO);
		g_assert_nonnull(strstr(error->message, "COMM chunk"));
		g_test_message("%s: %s", cases[i].name, error->message);
	}
	if (!have("ffmpeg"))
		return;
	real = make_source("cut.aiff", 44100, 2, LONG_SECONDS,
			   (const char *const[]){ "-c:a", "pcm_s16be", NULL });
	convert_truncated(real);
}

/* An MP4 box header: its 32-bit size and its type. */
static void put_box(GByteArray *bytes, guint32 size, const char *type)
{
	guint8 head[8] = { size >> 24, size >> 16, size >> 8, size };

	memcpy(head + 4, type, 4);
	g_byte_array_append(bytes, head, sizeof(head));
}

/* The walk of an MP4's boxes on what a hostile file holds (km-convert-mp4.c). */
static KmMp4Index mp4_index_of(const char *name, GByteArray *bytes)
{
	g_autofree char *path = tmp_path(name);

	write_file(path, bytes->data, bytes->len);
	return km_convert_mp4_index(path);
}

/*
 * The MP4 boxes we walk, hostile: absurd sizes, a 64-bit size past the
 * end, a box running to the end, more boxes than we walk, and files that
 * are not MP4 at all. Never a crash or a wait; a refusal names the moov.
 */
static void test_hostile_mp4(void)
{
	static const guint8 huge[8] = { 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	KmConvertSettings settings = { KM_CONVERT_VORBIS, KM_CONVERT_DEFAULT_QUALITY };
	g_autoptr(GByteArray) bytes = g_byte_array_new();
	g_autoptr(GError) error = NULL;
	g_autofree char *only_ftyp = tmp_path("only-ftyp.m4a");
	KmConvertPlan plan;

	put_box(bytes, 16, "ftyp");
	g_byte_array_append(bytes, (const guint8 *)"M4A \0\0\0\0", 8);
	g_assert_cmpint(mp4_index_of("only-ftyp.m4a", bytes), ==, KM_MP4_NO_INDEX);
	g_assert_false(km_convert_plan(only_ftyp, &settings, &plan, NULL, &error));
	g_assert_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_NOT_AUDIO);
	g_assert_nonnull(strstr(error->message, "moov"));

	g_byte_array_set_size(bytes, 16);
	put_box(bytes, 4, "free");		/* smaller than its own header */
	g_assert_cmpint(mp4_index_of("size-4.m4a", bytes), ==, KM_MP4_NO_INDEX);
	g_byte_array_set_size(bytes, 16);
	put_box(bytes, 1, "mdat");		/* a 64-bit size of 2^63 - 1 */
	g_byte_array_append(bytes, huge, sizeof(huge));
	put_box(bytes, 8, "moov");
	g_assert_cmpint(mp4_index_of("large-past-end.m4a", bytes), ==, KM_MP4_NO_INDEX);
	g_byte_array_set_size(bytes, 16);
	put_box(bytes, 0, "mdat");		/* to the end of the file: nothing after */
	put_box(bytes, 8, "moov");
	g_assert_cmpint(mp4_index_of("to-end.m4a", bytes), ==, KM_MP4_NO_INDEX);
	g_byte_array_set_size(bytes, 16);
	put_box(bytes, 8, "free");
	put_box(bytes, 8, "moov");
	g_assert_cmpint(mp4_index_of("indexed.m4a", bytes), ==, KM_MP4_INDEXED);
	g_byte_array_set_size(bytes, 16);
	for (guint i = 0; i < 1000; i++)	/* more than are walked: GStreamer decides */
		put_box(bytes, 8, "free");
	g_assert_cmpint(mp4_index_of("many.m4a", bytes), ==, KM_MP4_INDEXED);
	g_byte_array_set_size(bytes, 0);
	put_box(bytes, 8, "moov");		/* no ftyp first: not ours to judge */
	g_assert_cmpint(mp4_index_of("no-ftyp.mov", bytes), ==, KM_MP4_NONE);
	g_byte_array_set_size(bytes, 3);
	g_assert_cmpint(mp4_index_of("tiny.m4a", bytes), ==, KM_MP4_NONE);
}

/* ---- two at once ---------------------------------------------------------- */

struct job {
	const char *path;
	char *dest;
	KmConvertFormat lossy_to;
	KmConvertPlan plan;
	GError *error;
};

static gpointer convert_thread(gpointer data)
{
	struct job *job = data;
	KmConvertSettings settings = { job->lossy_to, KM_CONVERT_DEFAULT_QUALITY };

	if (km_convert_plan(job->path, &settings, &job->plan, NULL, &job->error))
		km_convert_file(job->path, &job->plan, job->dest, NULL, NULL, NULL, &job->error);
	return NULL;
}

static void test_concurrent(void)
{
	g_autofree char *aac = NULL;
	struct job jobs[2];
	GThread *threads[2];
	guint i;

	if (!have("ffmpeg"))
		return;
	aac = make_aac("together.m4a", LONG_SECONDS);
	jobs[0] = (struct job){ aac, tmp_path("together.ogg"), KM_CONVERT_VORBIS };
	jobs[1] = (struct job){ aac, tmp_path("together.mp3"), KM_CONVERT_MP3 };
	for (i = 0; i < 2; i++)
		threads[i] = g_thread_new("convert", convert_thread, &jobs[i]);
	for (i = 0; i < 2; i++) {
		g_thread_join(threads[i]);
		g_assert_no_error(jobs[i].error);
		assert_imported(jobs[i].dest, &jobs[i].plan, LONG_SECONDS * 1000);
		g_free(jobs[i].dest);
	}
}

/* ---- what killed imports left ----------------------------------------------- */

/* The pid of a process that has ended. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();
	int status;

	g_assert_cmpint(pid, >=, 0);
	if (pid == 0)
		_exit(0);
	g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
	return pid;
}

/* dir/name/0/file.ogg, a folder as an import leaves it. */
static char *left_folder(const char *dir, const char *name)
{
	char *folder = g_build_filename(dir, name, NULL);
	g_autofree char *sub = g_build_filename(folder, "0", NULL);
	g_autofree char *file = g_build_filename(sub, "file.ogg", NULL);

	g_assert_cmpint(g_mkdir_with_parents(sub, 0700), ==, 0);
	write_file(file, "OggS", 4);
	return folder;
}

/*
 * A folder a killed import left is removed when the next one starts; one
 * of a live process, or not named as ours, is not; a symbolic link inside
 * is removed, never followed.
 */
static void test_temp_sweep(void)
{
	g_autofree char *dir = tmp_path("sweep");
	g_autofree char *dead = g_strdup_printf("karma-manager-convert-%d-abcdef", (int)dead_pid());
	g_autofree char *live = g_strdup_printf("karma-manager-convert-%d-ghijkl", (int)getppid());
	g_autofree char *outside = g_build_filename(dir, "outside", NULL);
	g_autofree char *precious = g_build_filename(outside, "precious.flac", NULL);
	g_autofree char *dead_path = NULL, *live_path = NULL, *odd_path = NULL;
	g_autofree char *link_file = NULL, *link_dir = NULL;

	g_assert_cmpint(g_mkdir_with_parents(outside, 0700), ==, 0);
	write_file(precious, "fLaC", 4);
	dead_path = left_folder(dir, dead);
	live_path = left_folder(dir, live);
	odd_path = left_folder(dir, "karma-manager-convert-notapid-abcdef");
	link_file = g_build_filename(dead_path, "0", "link.ogg", NULL);
	link_dir = g_build_filename(dead_path, "1", NULL);
	g_assert_cmpint(symlink(precious, link_file), ==, 0);
	g_assert_cmpint(symlink(outside, link_dir), ==, 0);

	g_assert_cmpuint(km_convert_temp_sweep(dir), ==, 1);
	g_assert_false(g_file_test(dead_path, G_FILE_TEST_EXISTS));
	g_assert_true(g_file_test(precious, G_FILE_TEST_IS_REGULAR));
	g_assert_true(g_file_test(live_path, G_FILE_TEST_IS_DIR));
	g_assert_true(g_file_test(odd_path, G_FILE_TEST_IS_DIR));
	/* again: nothing more to remove */
	g_assert_cmpuint(km_convert_temp_sweep(dir), ==, 0);
}

int main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	int status;
	guint i;

	g_test_init(&argc, &argv, NULL);
	tmpdir = g_dir_make_tmp("km-convert-XXXXXX", &error);
	g_assert_no_error(error);
	/* GStreamer and the plugins are installed with the build's packages: not a skip */
	g_assert_true(km_convert_available(&error));
	g_assert_no_error(error);

	g_test_add_func("/convert/formats", test_formats);
	for (i = 0; i < G_N_ELEMENTS(sources); i++) {
		g_autofree char *name = g_strdup_printf("/convert/source/%s", sources[i].name);

		g_test_add_data_func(name, &sources[i], test_source);
	}
	g_test_add_func("/convert/lossy-targets", test_lossy_targets);
	g_test_add_func("/convert/quality", test_quality);
	g_test_add_func("/convert/cancel", test_cancel);
	g_test_add_func("/convert/refuse/not-audio", test_not_audio);
	g_test_add_func("/convert/refuse/video", test_video);
	g_test_add_func("/convert/refuse/missing", test_missing_source);
	g_test_add_func("/convert/refuse/dest-exists", test_dest_exists);
	g_test_add_func("/convert/truncated", test_truncated);
	g_test_add_func("/convert/hostile-aiff", test_hostile_aiff);
	g_test_add_func("/convert/hostile-mp4", test_hostile_mp4);
	g_test_add_func("/convert/concurrent", test_concurrent);
	g_test_add_func("/convert/temp-sweep", test_temp_sweep);
	status = g_test_run();

	remove_tree(tmpdir);
	g_free(tmpdir);
	return status;
}
