/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-convert-run.c - one conversion's GStreamer pipeline (km-convert.h,
 * docs/KARMA.md §10.1):
 *
 *   filesrc ! decodebin ! audioconvert ! audioresample
 *           ! capsfilter (rate, channels; FLAC: S16LE) ! encoder [! muxers] ! fdsink
 *
 * The calling thread creates the output, starts the pipeline and then only
 * watches it: it polls the bus, reports progress, and stops the pipeline on
 * a cancel, an error or a stall. GStreamer's streaming threads do the work.
 */
#include "km-convert-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <gst/gst.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* How often the bus, the cancellable and the position are looked at. */
#define POLL_INTERVAL (100 * GST_MSECOND)
/* A pipeline that neither decodes nor writes anything for this long has hung. */
#define STALL_LIMIT_US (60 * G_USEC_PER_SEC)
/*
 * A try that has not started after this is dropped for a new one, up to
 * START_TRIES in all (the last one waits STALL_LIMIT_US). GStreamer's
 * aiffparse (1.22, 1.26), which decodebin runs in pull mode, can push its
 * first buffer from its own thread before decodebin has linked its pad;
 * decodebin keeps the error to itself and the pipeline waits for ever. An
 * AIFF no longer meets decodebin (km-convert-private.h); the tries stay for
 * any other parser with the same race. A local file starts in well under
 * a second.
 */
#define START_LIMIT_US (5 * G_USEC_PER_SEC)
#define START_TRIES 3

struct run {
	GstElement *pipeline;
	GstElement *convert;	/* the first element after the decoder */
	GstElement *capsfilter;	/* asked for the position: the decoder answers upstream */
	int fd;			/* the output, which fdsink writes */
	guint64 done_ms;	/* the furthest position seen */
	guint64 written;	/* bytes in the output when last looked */
	gint64 last_change;	/* monotonic time the position or the size last moved */
	gboolean retry;		/* this try may end at START_LIMIT_US for another */
	gboolean never_started;	/* it did: nothing was decoded, nothing written */
};

/* decodebin's pads appear once it knows the stream: the first audio one is linked. */
static void on_pad_added(GstElement *decodebin, GstPad *pad, gpointer data)
{
	GstElement *convert = data;
	g_autoptr(GstPad) sink = gst_element_get_static_pad(convert, "sink");
	g_autoptr(GstCaps) caps = gst_pad_get_current_caps(pad);
	const char *name;

	if (!caps)
		caps = gst_pad_query_caps(pad, NULL);
	if (!caps || gst_caps_is_empty(caps) || gst_caps_is_any(caps))
		return;
	name = gst_structure_get_name(gst_caps_get_structure(caps, 0));
	if (g_str_has_prefix(name, "audio/") && !gst_pad_is_linked(sink))
		gst_pad_link(pad, sink);
}

/*
 * A date as a GstDateTime: some demuxers (APE tags, as WavPack and Monkey's
 * Audio have) give a GDate, which the Vorbis comment writer of vorbisenc and
 * flacenc leaves out; id3v2mux writes either. A Year tag arrives as 1 January.
 */
static void date_to_date_time(GstTagList *tags)
{
	g_autoptr(GDate) date = NULL;
	g_autoptr(GstDateTime) date_time = NULL;

	if (gst_tag_list_get_tag_size(tags, GST_TAG_DATE_TIME) ||
	    !gst_tag_list_get_date(tags, GST_TAG_DATE, &date) || !g_date_valid(date))
		return;
	if (g_date_get_month(date) == G_DATE_JANUARY && g_date_get_day(date) == 1)
		date_time = gst_date_time_new_y(g_date_get_year(date));
	else
		date_time = gst_date_time_new_ymd(g_date_get_year(date), g_date_get_month(date),
						  g_date_get_day(date));
	gst_tag_list_add(tags, GST_TAG_MERGE_REPLACE, GST_TAG_DATE_TIME, date_time, NULL);
}

static GstPadProbeReturn on_tags(GstPadProbeInfo *info)
{
	GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
	GstTagList *tags;

	if (GST_EVENT_TYPE(event) != GST_EVENT_TAG)
		return GST_PAD_PROBE_OK;
	gst_event_parse_tag(event, &tags);
	if (gst_tag_list_get_tag_size(tags, GST_TAG_DATE_TIME) ||
	    !gst_tag_list_get_tag_size(tags, GST_TAG_DATE))
		return GST_PAD_PROBE_OK;
	tags = gst_tag_list_copy(tags);
	date_to_date_time(tags);
	info->data = gst_event_new_tag(tags);
	gst_event_unref(event);
	return GST_PAD_PROBE_OK;
}

/*
 * Encoders ask for the duration in samples (flacenc writes it into
 * STREAMINFO): answered here, at the output's rate, from the duration in
 * time. Upstream, the samples would be the source's (another rate when
 * resampled), and aiffparse answers such a query with a GStreamer critical
 * (1.22). Other formats are refused; the encoders do without.
 */
static GstPadProbeReturn on_query(GstPad *pad, GstPadProbeInfo *info, const KmConvertPlan *plan)
{
	GstQuery *query = GST_PAD_PROBE_INFO_QUERY(info);
	g_autoptr(GstElement) capsfilter = NULL;
	g_autoptr(GstPad) sink = NULL;
	GstFormat format;
	gint64 duration;

	if (GST_QUERY_TYPE(query) != GST_QUERY_DURATION)
		return GST_PAD_PROBE_OK;
	gst_query_parse_duration(query, &format, NULL);
	if (format == GST_FORMAT_TIME)
		return GST_PAD_PROBE_OK;
	capsfilter = gst_pad_get_parent_element(pad);
	if (capsfilter)
		sink = gst_element_get_static_pad(capsfilter, "sink");
	if (format != GST_FORMAT_DEFAULT || !sink ||
	    !gst_pad_peer_query_duration(sink, GST_FORMAT_TIME, &duration) || duration < 0)
		return GST_PAD_PROBE_DROP;
	gst_query_set_duration(query, GST_FORMAT_DEFAULT,
			       gst_util_uint64_scale(duration, plan->rate, GST_SECOND));
	return GST_PAD_PROBE_HANDLED;
}

/* What goes through the capsfilter's source pad to the encoder: its tags and its queries. */
static GstPadProbeReturn on_encoder_pad(GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
	if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM)
		return on_tags(info);
	return on_query(pad, info, data);
}

/* The element, added to the pipeline, or NULL with an error naming it. */
static GstElement *add(struct run *r, const char *factory, GError **error)
{
	GstElement *element = gst_element_factory_make(factory, NULL);

	if (!element) {
		g_set_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_UNAVAILABLE,
			    "GStreamer's %s element is missing", factory);
		return NULL;
	}
	gst_bin_add(GST_BIN(r->pipeline), element);
	return element;
}

static GstCaps *output_caps(const KmConvertPlan *plan)
{
	GstCaps *caps = gst_caps_new_simple("audio/x-raw",
					    "rate", G_TYPE_INT, (int)plan->rate,
					    "channels", G_TYPE_INT, (int)plan->channels, NULL);

	/* the player's FLAC is 16-bit (docs/KARMA.md §10.1); audioconvert dithers */
	if (plan->format == KM_CONVERT_FLAC)
		gst_caps_set_simple(caps, "format", G_TYPE_STRING, "S16LE", NULL);
	return caps;
}

static void configure_encoder(GstElement *encoder, const KmConvertPlan *plan)
{
	switch (plan->format) {
	case KM_CONVERT_VORBIS:
		g_object_set(encoder, "quality", plan->quality / (double)KM_CONVERT_MAX_QUALITY,
			     NULL);
		break;
	case KM_CONVERT_MP3:
		/* VBR at LAME's -V: its "quality" target, without a bit rate */
		gst_util_set_object_arg(G_OBJECT(encoder), "target", "quality");
		g_object_set(encoder, "cbr", FALSE,
			     "quality", (double)km_convert_lame_vbr(plan->quality), NULL);
		break;
	case KM_CONVERT_FLAC:
	default:
		break;
	}
}

/* The elements from capsfilter to the sink, linked in order. */
static gboolean build_tail(struct run *r, const KmConvertPlan *plan, GError **error)
{
	const KmConvertChain *chain = km_convert_chain(plan->format);
	GstElement *prev = r->capsfilter, *next;
	g_autoptr(GstCaps) caps = output_caps(plan);
	g_autoptr(GstPad) src = gst_element_get_static_pad(r->capsfilter, "src");
	guint i;

	g_object_set(r->capsfilter, "caps", caps, NULL);
	gst_pad_add_probe(src,
			  GST_PAD_PROBE_TYPE_QUERY_UPSTREAM | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
			  on_encoder_pad, (gpointer)plan, NULL);
	if (!(next = add(r, chain->encoder, error)))
		return FALSE;
	configure_encoder(next, plan);
	for (i = 0;; i++) {
		if (!gst_element_link(prev, next)) {
			g_set_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_FAILED,
				    "GStreamer cannot link %s to %s", GST_OBJECT_NAME(prev),
				    GST_OBJECT_NAME(next));
			return FALSE;
		}
		prev = next;
		if (i == G_N_ELEMENTS(chain->muxers) || !chain->muxers[i])
			break;
		if (!(next = add(r, chain->muxers[i], error)))
			return FALSE;
	}
	if (!(next = add(r, "fdsink", error)))
		return FALSE;
	/* as fast as it goes, not in real time */
	g_object_set(next, "fd", r->fd, "sync", FALSE, NULL);
	return gst_element_link(prev, next);
}

static gboolean build(struct run *r, const char *path, const KmConvertPlan *plan,
		      GError **error)
{
	GstElement *src, *decode, *resample;
	KmAiffFormat format;
	/* an AIFF goes to aiffparse alone, linked before it starts (km-convert-private.h) */
	gboolean aiff = km_convert_aiff_format(path, &format) != KM_AIFF_NONE, linked;
	const char *decoder = aiff ? "aiffparse" : "decodebin";

	r->pipeline = gst_pipeline_new("km-convert");
	if (!(src = add(r, "filesrc", error)) || !(decode = add(r, decoder, error)) ||
	    !(r->convert = add(r, "audioconvert", error)) ||
	    !(resample = add(r, "audioresample", error)) ||
	    !(r->capsfilter = add(r, "capsfilter", error)))
		return FALSE;
	g_object_set(src, "location", path, NULL);
	if (aiff) {	/* aiffparse's source pad is there from the start */
		linked = gst_element_link(decode, r->convert);
	} else {
		g_signal_connect(decode, "pad-added", G_CALLBACK(on_pad_added), r->convert);
		linked = TRUE;
	}
	if (!linked || !gst_element_link(src, decode) ||
	    !gst_element_link_many(r->convert, resample, r->capsfilter, NULL)) {
		g_set_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_FAILED,
			    "GStreamer cannot link the decoder's elements");
		return FALSE;
	}
	return build_tail(r, plan, error);
}

/* "1:23", "61:02": how far into the audio. */
static char *format_ms(guint64 ms)
{
	return g_strdup_printf("%" G_GUINT64_FORMAT ":%02u", ms / 60000, (guint)(ms / 1000 % 60));
}

static void set_failed(struct run *r, const char *what, GError **error)
{
	g_autofree char *at = format_ms(r->done_ms);

	g_set_error(error, KM_CONVERT_ERROR, KM_CONVERT_ERROR_FAILED,
		    "Converting failed after %s: %s", at, what);
}

/* The error a message holds, as the caller's error. */
static void set_message_error(struct run *r, GstMessage *msg, GError **error)
{
	g_autoptr(GError) gst_error = NULL;
	g_autofree char *debug = NULL;

	gst_message_parse_error(msg, &gst_error, &debug);
	set_failed(r, gst_error->message, error);
}

/* Whether the pipeline got on since the last look: the position or the output's size. */
static gboolean moved(struct run *r)
{
	gint64 position;
	struct stat st;
	gboolean moving = FALSE;

	if (gst_element_query_position(r->capsfilter, GST_FORMAT_TIME, &position) &&
	    position >= 0 && (guint64)position / GST_MSECOND > r->done_ms) {
		r->done_ms = (guint64)position / GST_MSECOND;
		moving = TRUE;
	}
	if (fstat(r->fd, &st) == 0 && (guint64)st.st_size != r->written) {
		r->written = st.st_size;
		moving = TRUE;
	}
	return moving;
}

static gboolean stalled(struct run *r)
{
	gint64 idle = g_get_monotonic_time() - r->last_change;

	if (r->retry && !r->done_ms && !r->written && idle > START_LIMIT_US)
		return r->never_started = TRUE;
	return idle > STALL_LIMIT_US;
}

static void report(struct run *r, const KmConvertPlan *plan, KmProgressFunc progress,
		   gpointer data)
{
	guint64 total = plan->duration_ms;

	km_progress_report_converting(progress, data, total ? MIN(r->done_ms, total) : r->done_ms,
				      total, km_convert_format_title(plan->format));
}

/* Play the pipeline to its end, or until an error, a cancel or a stall. */
static gboolean watch(struct run *r, const KmConvertPlan *plan, KmProgressFunc progress,
		      gpointer data, GCancellable *cancellable, GError **error)
{
	g_autoptr(GstBus) bus = gst_element_get_bus(r->pipeline);
	GstMessageType types = GST_MESSAGE_ERROR | GST_MESSAGE_EOS;

	r->last_change = g_get_monotonic_time();
	if (gst_element_set_state(r->pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE)
		/* the error message that says why is on the bus already */
		types = GST_MESSAGE_ERROR;
	report(r, plan, progress, data);
	for (;;) {
		g_autoptr(GstMessage) msg = NULL;

		/* first: the progress callback may just have cancelled */
		if (g_cancellable_set_error_if_cancelled(cancellable, error))
			return FALSE;
		msg = gst_bus_timed_pop_filtered(bus, POLL_INTERVAL, types);
		if (msg && GST_MESSAGE_TYPE(msg) == GST_MESSAGE_EOS) {
			r->done_ms = MAX(r->done_ms, plan->duration_ms);
			report(r, plan, progress, data);
			return TRUE;
		}
		if (msg) {
			set_message_error(r, msg, error);
			return FALSE;
		}
		if (moved(r)) {
			r->last_change = g_get_monotonic_time();
			report(r, plan, progress, data);
		} else if (types == GST_MESSAGE_ERROR) {
			set_failed(r, "GStreamer could not start", error);
			return FALSE;
		} else if (stalled(r)) {
			set_failed(r, "GStreamer stopped making progress", error);
			return FALSE;
		}
	}
}

/* The output, new: an existing file is never overwritten, and no one else can slip one in. */
static int create_dest(const char *dest, GError **error)
{
	int fd = g_open(dest, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int saved = errno;

	if (fd < 0)
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(saved),
			    "Cannot create “%s”: %s", dest, g_strerror(saved));
	return fd;
}

/* One try: a pipeline built, played and dropped; r->fd stays open. */
static gboolean try_convert(struct run *r, const char *path, const KmConvertPlan *plan,
			    KmProgressFunc progress, gpointer data, GCancellable *cancellable,
			    GError **error)
{
	gboolean ok;

	r->done_ms = r->written = 0;
	ok = build(r, path, plan, error) && watch(r, plan, progress, data, cancellable, error);
	gst_element_set_state(r->pipeline, GST_STATE_NULL);
	g_clear_pointer(&r->pipeline, gst_object_unref);
	return ok;
}

gboolean km_convert_file(const char *path, const KmConvertPlan *plan, const char *dest,
			 KmProgressFunc progress, gpointer data, GCancellable *cancellable,
			 GError **error)
{
	struct run r = { .fd = -1 };
	g_autoptr(GError) last = NULL;
	gboolean ok;
	guint tries;

	g_return_val_if_fail(plan && plan->format <= KM_CONVERT_FLAC, FALSE);
	if (!km_convert_available(error) ||
	    g_cancellable_set_error_if_cancelled(cancellable, error) ||
	    !km_convert_check_source(path, error))
		return FALSE;
	r.fd = create_dest(dest, error);
	if (r.fd < 0)
		return FALSE;
	/* a try that never started wrote nothing: the file is still empty for the next */
	for (tries = 1;; tries++) {
		r.retry = tries < START_TRIES;
		r.never_started = FALSE;
		g_clear_error(&last);
		ok = try_convert(&r, path, plan, progress, data, cancellable, &last);
		if (ok || !r.never_started)
			break;
	}
	if (!ok)
		g_propagate_error(error, g_steal_pointer(&last));
	if (close(r.fd) != 0 && ok) {
		int saved = errno;

		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(saved),
			    "Cannot write “%s”: %s", dest, g_strerror(saved));
		ok = FALSE;
	}
	if (!ok)
		g_unlink(dest);
	return ok;
}
