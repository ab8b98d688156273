/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-convert.h - a file the Karma cannot play (AAC, ALAC, Opus, AIFF,
 * WavPack, APE, Musepack…), decoded by GStreamer and encoded to one it
 * plays, with its tags (docs/KARMA.md §10.1).
 *
 * Lossless sources become FLAC; lossy ones become Ogg Vorbis at a quality
 * (default 5, about 160 kbit/s), MP3 (LAME VBR at the same scale) or FLAC,
 * as the settings say. The audio is made what the Karma plays: at most two
 * channels, at most 48 kHz, FLAC at 16 bits. The tags the decoder finds
 * (title, artist, album, genre, date, track and disc numbers…) go into the
 * new file, where the import reads them (km_import_file()).
 *
 * Each call is synchronous and runs one GStreamer pipeline, whose streaming
 * thread does the work; several calls may run at once on different threads.
 */
#ifndef KM_CONVERT_H
#define KM_CONVERT_H

#include <gio/gio.h>

#include "km-library-progress.h"

G_BEGIN_DECLS

#define KM_CONVERT_ERROR (km_convert_error_quark())
GQuark km_convert_error_quark(void);
typedef enum {
	KM_CONVERT_ERROR_UNAVAILABLE,	/* GStreamer or a needed element is missing: the message names it */
	KM_CONVERT_ERROR_NOT_AUDIO,	/* nothing GStreamer decodes, or no audio stream, or video */
	KM_CONVERT_ERROR_FAILED,	/* decoding or encoding failed part-way: the message says where */
} KmConvertError;

typedef enum {
	KM_CONVERT_VORBIS,
	KM_CONVERT_MP3,
	KM_CONVERT_FLAC,
} KmConvertFormat;

#define KM_CONVERT_DEFAULT_QUALITY 5
#define KM_CONVERT_MAX_QUALITY 10

typedef struct {
	KmConvertFormat lossy_to;	/* for lossy sources; lossless ones always become FLAC */
	guint quality;			/* 0 to 10, Vorbis's scale (5: about 160 kbit/s) */
} KmConvertSettings;

/* What a source will become, found before it is converted. */
typedef struct {
	KmConvertFormat format;
	gboolean lossless;		/* the source's codec is lossless */
	guint64 duration_ms;
	guint rate;			/* Hz of the output */
	guint channels;			/* of the output */
	guint64 estimated_size;		/* bytes of the output: duration x the target's bit rate */
	guint quality;			/* of a lossy format: the settings' (at most 10) */
} KmConvertPlan;

/* "vorbis", "mp3", "flac" (also the names --convert-to and the settings take). */
const char *km_convert_format_name(KmConvertFormat format);
gboolean km_convert_format_from_name(const char *name, KmConvertFormat *format);
/* The format as people call it: "Ogg Vorbis", "MP3", "FLAC" (a static string). */
const char *km_convert_format_title(KmConvertFormat format);
/* The extension of the output, without the dot: "ogg", "mp3", "flac". */
const char *km_convert_format_extension(KmConvertFormat format);

/*
 * Whether conversions can run at all (GStreamer initialised, the encoders
 * and muxers of every format there); FALSE with KM_CONVERT_ERROR_UNAVAILABLE
 * naming what is missing. Cheap after the first call.
 */
gboolean km_convert_available(GError **error);

/*
 * Find what the file at path holds (GStreamer's discoverer): FALSE with
 * KM_CONVERT_ERROR_NOT_AUDIO when it is nothing to convert, or
 * _UNAVAILABLE when a decoder is missing (the message names the format and
 * the package that has it, when GStreamer says). A path that cannot be
 * opened or is no regular file (a FIFO, a device) gives a G_IO_ERROR, as a
 * cancel gives G_IO_ERROR_CANCELLED.
 */
gboolean km_convert_plan(const char *path, const KmConvertSettings *settings,
			 KmConvertPlan *plan, GCancellable *cancellable, GError **error);

/*
 * Convert path to a new file dest (it must not exist; created with mode
 * 0600). progress (may be NULL) gets KM_PHASE_CONVERTING with done and
 * total in milliseconds of audio. On failure or cancel (G_IO_ERROR_CANCELLED)
 * dest is removed. An existing dest is a G_IO_ERROR_EXISTS (and is left
 * alone), a source that is no regular file a G_IO_ERROR as in
 * km_convert_plan(); a pipeline that fails or stops making progress for 60 s
 * is KM_CONVERT_ERROR_FAILED, saying how far it got ("…failed after 1:23:").
 */
gboolean km_convert_file(const char *path, const KmConvertPlan *plan, const char *dest,
			 KmProgressFunc progress, gpointer data, GCancellable *cancellable,
			 GError **error);

G_END_DECLS

#endif
