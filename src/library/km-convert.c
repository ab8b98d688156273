/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-convert.c - formats, GStreamer's presence, and the plan of a
 * conversion: what GStreamer's discoverer finds in the source and what it
 * will become (km-convert.h, docs/KARMA.md §10.1). The pipeline itself is
 * km-convert-run.c.
 */
#include "km-convert-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <gst/gst.h>
#include <gst/pbutils/pbutils.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

G_DEFINE_QUARK(km-convert-error-quark, km_convert_error)

/*
 * A local file answers the discoverer in well under a second, but it may
 * never answer at all: GStreamer's aiffparse (1.22, 1.26) can push its
 * first buffer before the discoverer has linked its pad, and decodebin
 * (1.22) drops an error that a demuxer posts from its own thread while it
 * is still being tried (qtdemux on an MP4 cut before its moov: one in 25
 * idle, one in 5 with the cores busy), and then it waits for a preroll that
 * never comes. So a discovery is given a short time (the discoverer's
 * shortest is 1 s), and one that timed out is tried again with these times,
 * in seconds: a slow disk still gets its 8 s (docs/KARMA.md §10.1).
 */
static const guint discover_timeouts[] = { 1, 1, 2, 4, 8 };
/* Our own bound on top of it, should the discoverer never answer. */
#define DISCOVER_GRACE_MS (15 * 1000)

/* The player plays at most 48 kHz (docs/KARMA.md §10.1). */
#define MAX_RATE 48000
#define MAX_CHANNELS 2

/*
 * FLAC of music at 16 bits is about 60% of the PCM (docs/KARMA.md §10.1
 * has the measured accuracy); the estimate is replaced by the real size
 * after the conversion.
 */
#define FLAC_RATIO 0.6
/* Lossy encoders at one channel spend about this share of their stereo rate. */
#define MONO_RATIO 0.6

static const struct {
	const char *name;
	const char *title;
	const char *extension;
	KmConvertChain chain;
} formats[] = {
	[KM_CONVERT_VORBIS] = { "vorbis", "Ogg Vorbis", "ogg",
				{ "vorbisenc", { "oggmux", NULL } } },
	/* xingmux writes the header a VBR MP3 needs for its duration; id3v2mux the tags */
	[KM_CONVERT_MP3] = { "mp3", "MP3", "mp3", { "lamemp3enc", { "xingmux", "id3v2mux" } } },
	/* flacenc writes the tags itself, as Vorbis comments */
	[KM_CONVERT_FLAC] = { "flac", "FLAC", "flac", { "flacenc", { NULL, NULL } } },
};

/* Each element a conversion uses, and the Debian package that has it. */
static const struct {
	const char *element;
	const char *package;
} elements[] = {
	{ "filesrc", "libgstreamer1.0-0" },
	{ "fdsink", "libgstreamer1.0-0" },
	{ "capsfilter", "libgstreamer1.0-0" },
	{ "decodebin", "gstreamer1.0-plugins-base" },
	{ "audioconvert", "gstreamer1.0-plugins-base" },
	{ "audioresample", "gstreamer1.0-plugins-base" },
	{ "vorbisenc", "gstreamer1.0-plugins-base" },
	{ "oggmux", "gstreamer1.0-plugins-base" },
	{ "lamemp3enc", "gstreamer1.0-plugins-good" },
	{ "xingmux",
	  "gstreamer1.0-plugins-good (gstreamer1.0-plugins-ugly before GStreamer 1.22)" },
	{ "id3v2mux", "gstreamer1.0-plugins-good" },
	{ "flacenc", "gstreamer1.0-plugins-good" },
};

/* Mean bit rates (kbit/s) of stereo music at 44.1 kHz. */
static const guint vorbis_kbits[KM_CONVERT_MAX_QUALITY + 1] = {
	64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 500,
};
/* LAME's -V 0 to 9 (its documentation's averages). */
static const guint lame_kbits[10] = { 245, 225, 190, 175, 165, 130, 115, 100, 85, 65 };

const char *km_convert_format_name(KmConvertFormat format)
{
	g_return_val_if_fail(format < G_N_ELEMENTS(formats), NULL);
	return formats[format].name;
}

const char *km_convert_format_title(KmConvertFormat format)
{
	g_return_val_if_fail(format < G_N_ELEMENTS(formats), NULL);
	return formats[format].title;
}

gboolean km_convert_format_from_name(const char *name, KmConvertFormat *format)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(formats); i++) {
		if (g_ascii_strcasecmp(name, formats[i].name) == 0) {
			*format = i;
			return TRUE;
		}
	}
	return FALSE;
}

const char *km_convert_format_extension(KmConvertFormat format)
{
	g_return_val_if_fail(format < G_N_ELEMENTS(formats), NULL);
	return formats[format].extension;
}

const KmConvertChain *km_convert_chain(KmConvertFormat format)
{
	g_return_val_if_fail(format < G_N_ELEMENTS(formats), NULL);
	return &formats[format].chain;
}

guint km_convert_quality(guint quality)
{
	return MIN(quality, KM_CONVERT_MAX_QUALITY);
}

guint km_convert_lame_vbr(guint quality)
{
	return (KM_CONVERT_MAX_QUALITY - km_convert_quality(quality)) * 9 / KM_CONVERT_MAX_QUALITY;
}

/* ---- availability ------------------------------------------------------- */

/* NULL when everything is there; else why not (the same answer for the whole process). */
static gpointer check_gstreamer(gpointer unused)
{
	GError *error = NULL;
	guint i;

	if (!gst_init_check(NULL, NULL, &error)) {
		GError *why = g_error_new(KM_CONVERT_ERROR, KM_CONVERT_ERROR_UNAVAILABLE,
					  "GStreamer cannot start: %s", error->message);

		g_error_free(error);
		return why;
	}
	for (i = 0; i < G_N_ELEMENTS(elements); i++) {
		g_autoptr(GstElementFactory) factory = NULL;

		factory = gst_element_factory_find(elements[i].element);
		if (!factory)
			return g_error_new(KM_CONVERT_ERROR, KM_CONVERT_ERROR_UNAVAILABLE,
					   "GStreamer's %s element is missing (Debian package %s)",
					   elements[i].element, elements[i].package);
	}
	return NULL;
}

gboolean km_convert_available(GError **error)
{
	static GOnce once = G_ONCE_INIT;
	const GError *why = g_once(&once, check_gstreamer, NULL);

	if (why) {
		g_propagate_error(error, g_error_copy(why));
		return FALSE;
	}
	return TRUE;
}

/* ---- discovery ---------------------------------------------------------- */

/* O_NONBLOCK: the open of a FIFO without a writer returns at once. */
gboolean km_convert_check_source(const char *path, GError **error)
{
	struct stat st;
	int fd = g_open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0);
	int saved;

	if (fd < 0 || fstat(fd, &st) != 0) {
		saved = errno;
		if (fd >= 0)
			close(fd);
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(saved),
			    "Cannot open “%s”: %s", path, g_strerror(saved));
		return FALSE;
	}
	close(fd);
	if (!S_ISREG(st.st_mode)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
			    "“%s” is not a regular file", path);
		return FALSE;
	}
	return TRUE;
}

struct discovery {
	GstDiscovererInfo *info;
	char *why;		/* what GStreamer said when it failed */
	gboolean done;
	GstClockTime timeout;	/* the discoverer's */
};

static void on_discovered(GstDiscoverer *discoverer, GstDiscovererInfo *info, GError *error,
			  gpointer data)
{
	struct discovery *d = data;

	d->info = g_object_ref(info);
	d->why = error ? g_strdup(error->message) : NULL;
	d->done = TRUE;
}

static gboolean on_give_up(gpointer data)
{
	struct discovery *d = data;

	d->done = TRUE;
	return G_SOURCE_REMOVE;
}

/* The cancellable's source only wakes the loop, which looks at the cancellable itself. */
static gboolean on_cancelled(GCancellable *cancellable, gpointer data)
{
	return G_SOURCE_CONTINUE;
}

/* Iterate context until the discoverer answers, gives up, or the cancellable is cancelled. */
static void wait_for(struct discovery *d, GMainContext *context, GCancellable *cancellable)
{
	GSource *give_up = g_timeout_source_new(d->timeout / GST_MSECOND + DISCOVER_GRACE_MS);
	GSource *cancel = cancellable ? g_cancellable_source_new(cancellable) : NULL;

	g_source_set_callback(give_up, on_give_up, d, NULL);
	g_source_attach(give_up, context);
	if (cancel) {
		g_source_set_callback(cancel, G_SOURCE_FUNC(on_cancelled), NULL, NULL);
		g_source_attach(cancel, context);
	}
	while (!d->done && !g_cancellable_is_cancelled(cancellable))
		g_main_context_iteration(context, TRUE);
	g_source_destroy(give_up);
	g_source_unref(give_up);
	if (cancel) {
		g_source_destroy(cancel);
		g_source_unref(cancel);
	}
}

/*
 * Run the discoverer on its own main context, so that the calling thread
 * can be any thread and a cancel stops the wait.
 */
static GstDiscovererInfo *discover(const char *uri, GstClockTime timeout, char **why,
				   GCancellable *cancellable, GError **error)
{
	GMainContext *context = g_main_context_new();
	struct discovery d = { NULL, NULL, FALSE, timeout };
	GstDiscoverer *discoverer;

	g_main_context_push_thread_default(context);
	discoverer = gst_discoverer_new(timeout, error);
	if (discoverer) {
		g_signal_connect(discoverer, "discovered", G_CALLBACK(on_discovered), &d);
		gst_discoverer_start(discoverer);
		d.done = !gst_discoverer_discover_uri_async(discoverer, uri);
		wait_for(&d, context, cancellable);
		gst_discoverer_stop(discoverer);
		g_object_unref(discoverer);
	}
	g_main_context_pop_thread_default(context);
	g_main_context_unref(context);
	if (!discoverer)
		return NULL;
	*why = d.why;
	if (g_cancellable_set_error_if_cancelled(cancellable, error)) {
		g_clear_object(&d.info);
		return NULL;
	}
	if (!d.info)
		g_set_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_FAILED,
			    "GStreamer did not answer what the file holds");
	return d.info;
}

/* ---- the plan ----------------------------------------------------------- */

/* Codecs that keep every sample: their files become FLAC, not a lossy format. */
static gboolean caps_lossless(const GstCaps *caps)
{
	static const char *const lossless[] = {
		"audio/x-raw", "audio/x-wav", "audio/x-aiff", "audio/x-flac", "audio/x-alac",
		"audio/x-wavpack", "audio/x-ape", "audio/x-tta", "audio/x-shorten",
	};
	const char *name;
	guint i;

	if (!caps || gst_caps_is_empty(caps) || gst_caps_is_any(caps))
		return FALSE;
	name = gst_structure_get_name(gst_caps_get_structure(caps, 0));
	for (i = 0; i < G_N_ELEMENTS(lossless); i++) {
		if (strcmp(name, lossless[i]) == 0)
			return TRUE;
	}
	return FALSE;
}

/* A video stream that is not a still picture (cover art shows up as an image). */
static gboolean has_video(GstDiscovererInfo *info)
{
	GList *videos = gst_discoverer_info_get_video_streams(info);
	gboolean found = FALSE;
	GList *l;

	for (l = videos; l; l = l->next)
		found |= !gst_discoverer_video_info_is_image(l->data);
	gst_discoverer_stream_info_list_free(videos);
	return found;
}

/* What GStreamer said is missing, as its descriptions ("MPEG-4 AAC decoder"…). */
static char *missing_plugins(GstDiscovererInfo *info)
{
	const char **details = gst_discoverer_info_get_missing_elements_installer_details(info);
	GString *names = g_string_new(NULL);

	for (; details && *details; details++) {
		/* gstreamer|1.0|app|DESCRIPTION|detail */
		g_auto(GStrv) fields = g_strsplit(*details, "|", 5);

		if (g_strv_length(fields) < 4)
			continue;
		g_string_append_printf(names, "%s%s", names->len ? ", " : "", fields[3]);
	}
	if (!names->len)
		g_string_append(names, "a plugin to decode it");
	return g_string_free(names, FALSE);
}

/* How long all the tries of a discovery that never answers take. */
static guint discover_seconds(void)
{
	guint i, sum = 0;

	for (i = 0; i < G_N_ELEMENTS(discover_timeouts); i++)
		sum += discover_timeouts[i];
	return sum;
}

/* A refusal for what the discoverer found, or TRUE when it is audio to convert. */
static gboolean check_discovered(const char *path, GstDiscovererInfo *info, const char *why,
				 GError **error)
{
	g_autofree char *missing = NULL;
	GList *audio;

	if (has_video(info)) {
		g_set_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_NOT_AUDIO,
			    "“%s” is a video, not music", path);
		return FALSE;
	}
	switch (gst_discoverer_info_get_result(info)) {
	case GST_DISCOVERER_OK:
		break;
	case GST_DISCOVERER_MISSING_PLUGINS:
		missing = missing_plugins(info);
		g_set_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_UNAVAILABLE,
			    "GStreamer cannot decode “%s”: it lacks the %s (Debian packages "
			    "gstreamer1.0-libav, gstreamer1.0-plugins-bad, "
			    "gstreamer1.0-plugins-ugly have most)", path, missing);
		return FALSE;
	case GST_DISCOVERER_TIMEOUT:
		g_set_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_FAILED,
			    "GStreamer gave no answer about “%s”, asked %u times over %u s",
			    path, (guint)G_N_ELEMENTS(discover_timeouts), discover_seconds());
		return FALSE;
	default:
		g_set_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_NOT_AUDIO,
			    "GStreamer does not recognise “%s” as audio%s%s%s", path,
			    why ? " (" : "", why ? why : "", why ? ")" : "");
		return FALSE;
	}
	audio = gst_discoverer_info_get_audio_streams(info);
	if (!audio) {
		g_set_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_NOT_AUDIO,
			    "“%s” has no audio", path);
		return FALSE;
	}
	gst_discoverer_stream_info_list_free(audio);
	return TRUE;
}

/* The rate the output gets: the source's, unless the player cannot play it. */
static guint output_rate(guint rate, KmConvertFormat format)
{
	/* LAME writes only the MPEG rates; anything else goes up to the next one */
	static const guint mpeg_rates[] = {
		8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000,
	};
	guint i;

	if (rate == 0)
		return 44100;
	if (rate > MAX_RATE)
		/* 88.2 and 176.4 kHz divide exactly to 44.1 kHz */
		return rate % 44100 == 0 ? 44100 : MAX_RATE;
	if (format != KM_CONVERT_MP3)
		return rate;
	for (i = 0; i < G_N_ELEMENTS(mpeg_rates) && mpeg_rates[i] < rate; i++)
		;
	return mpeg_rates[MIN(i, G_N_ELEMENTS(mpeg_rates) - 1)];
}

/* Bytes the output will have (km-convert.h: duration x the target's bit rate). */
static guint64 estimate_size(const KmConvertPlan *plan)
{
	double seconds = plan->duration_ms / 1000.0;
	double kbits;

	switch (plan->format) {
	case KM_CONVERT_FLAC:
		return (guint64)(seconds * plan->rate * plan->channels * 2 * FLAC_RATIO);
	case KM_CONVERT_MP3:
		kbits = lame_kbits[km_convert_lame_vbr(plan->quality)];
		break;
	case KM_CONVERT_VORBIS:
	default:
		kbits = vorbis_kbits[plan->quality];
		break;
	}
	if (plan->channels < 2)
		kbits *= MONO_RATIO;
	/* less spent on lower rates (22.05 kHz: three quarters), a guess halfway to linear */
	if (plan->rate < 44100)
		kbits *= (plan->rate + 44100.0) / (2 * 44100.0);
	return (guint64)(seconds * kbits * 1000 / 8);
}

static void fill_plan_from(gboolean lossless, guint64 duration_ms, guint rate, guint channels,
			   const KmConvertSettings *settings, KmConvertPlan *plan)
{
	plan->lossless = lossless;
	plan->format = lossless ? KM_CONVERT_FLAC : settings->lossy_to;
	plan->quality = km_convert_quality(settings->quality);
	plan->duration_ms = duration_ms;
	plan->rate = output_rate(rate, plan->format);
	/* unknown (0) is left to the player's usual two */
	plan->channels = channels ? MIN(channels, MAX_CHANNELS) : MAX_CHANNELS;
	plan->estimated_size = estimate_size(plan);
}

static void fill_plan(GstDiscovererInfo *info, const KmConvertSettings *settings,
		      KmConvertPlan *plan)
{
	GList *audio = gst_discoverer_info_get_audio_streams(info);
	GstDiscovererAudioInfo *stream = audio->data;
	g_autoptr(GstCaps) caps = gst_discoverer_stream_info_get_caps(audio->data);

	fill_plan_from(caps_lossless(caps), gst_discoverer_info_get_duration(info) / GST_MSECOND,
		       gst_discoverer_audio_info_get_sample_rate(stream),
		       gst_discoverer_audio_info_get_channels(stream), settings, plan);
	gst_discoverer_stream_info_list_free(audio);
}

gboolean km_convert_plan(const char *path, const KmConvertSettings *settings,
			 KmConvertPlan *plan, GCancellable *cancellable, GError **error)
{
	g_autofree char *absolute = NULL, *uri = NULL, *why = NULL;
	GstDiscovererInfo *info;
	KmAiffFormat aiff;
	guint tries;
	gboolean ok;

	g_return_val_if_fail(settings && settings->lossy_to <= KM_CONVERT_FLAC, FALSE);
	if (!km_convert_available(error) || !km_convert_check_source(path, error))
		return FALSE;
	switch (km_convert_aiff_format(path, &aiff)) {	/* not by the discoverer */
	case KM_AIFF_READ:
		fill_plan_from(TRUE, aiff.frames * 1000 / aiff.rate, aiff.rate, aiff.channels,
			       settings, plan);
		return TRUE;
	case KM_AIFF_BROKEN:
		g_set_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_NOT_AUDIO,
			    "“%s” is an AIFF file whose COMM chunk (channels, length, "
			    "sample rate) is missing, cut or absurd", path);
		return FALSE;
	case KM_AIFF_NONE:
	default:
		break;
	}
	if (km_convert_mp4_index(path) == KM_MP4_NO_INDEX) {
		g_set_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_NOT_AUDIO,
			    "“%s” is an MP4 file cut short: its index (the moov box) is missing",
			    path);
		return FALSE;
	}
	absolute = g_canonicalize_filename(path, NULL);
	uri = g_filename_to_uri(absolute, NULL, error);
	if (!uri)
		return FALSE;
	info = discover(uri, discover_timeouts[0] * GST_SECOND, &why, cancellable, error);
	for (tries = 1; tries < G_N_ELEMENTS(discover_timeouts) && info &&
	     gst_discoverer_info_get_result(info) == GST_DISCOVERER_TIMEOUT; tries++) {
		g_object_unref(info);
		g_clear_pointer(&why, g_free);
		info = discover(uri, discover_timeouts[tries] * GST_SECOND, &why, cancellable,
				error);
	}
	if (!info)
		return FALSE;
	ok = check_discovered(path, info, why, error);
	if (ok)
		fill_plan(info, settings, plan);
	g_object_unref(info);
	return ok;
}
