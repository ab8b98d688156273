/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-convert-private.h - what the plan (km-convert.c) and the pipeline
 * (km-convert-run.c) of a conversion share: each format's elements and
 * LAME's quality scale (docs/KARMA.md §10.1).
 */
#ifndef KM_CONVERT_PRIVATE_H
#define KM_CONVERT_PRIVATE_H

#include "km-convert.h"

#include <stdio.h>

G_BEGIN_DECLS

/* The elements after the capsfilter, in order: an encoder, then its muxers. */
typedef struct {
	const char *encoder;
	const char *muxers[2];		/* NULL-padded */
} KmConvertChain;

const KmConvertChain *km_convert_chain(KmConvertFormat format);

/* LAME's VBR quality (-V, 0 best to 9) for a quality on Vorbis's scale (0 to 10, 10 best). */
guint km_convert_lame_vbr(guint quality);

/*
 * A regular file that can be opened for reading; else a G_IO_ERROR naming
 * it. Not a FIFO or a device, whose open or reads could wait for ever.
 */
gboolean km_convert_check_source(const char *path, GError **error);

/* The quality the settings ask for, at most KM_CONVERT_MAX_QUALITY. */
guint km_convert_quality(guint quality);

/*
 * An AIFF is planned from its COMM chunk and converted by aiffparse alone
 * (km-convert-aiff.c): inside decodebin and the discoverer, GStreamer's
 * aiffparse (1.22, 1.26) can push its first buffer before decodebin has
 * linked it, and the pipeline then waits for ever.
 */
typedef struct {
	guint channels;
	guint64 frames;
	guint rate;	/* Hz */
} KmAiffFormat;
typedef enum {
	KM_AIFF_NONE,	/* no AIFF or AIFF-C: the FORM header is not there */
	KM_AIFF_READ,	/* format filled from the COMM chunk */
	KM_AIFF_BROKEN,	/* an AIFF whose COMM chunk is missing, cut or absurd */
} KmAiffRead;

KmAiffRead km_convert_aiff_format(const char *path, KmAiffFormat *format);

/*
 * An MP4 cut before its index (the moov box, which ffmpeg and many
 * taggers write at the end) is refused without the discoverer
 * (km-convert-mp4.c): decodebin (1.22) drops the error qtdemux posts on it
 * when it comes while decodebin is still trying qtdemux, and the discovery
 * then waits for its timeout (one in 25 idle, one in 5 with the cores busy).
 */
typedef enum {
	KM_MP4_NONE,		/* not an MP4: no ftyp box first */
	KM_MP4_INDEXED,		/* a whole moov box, or too many boxes to tell */
	KM_MP4_NO_INDEX,	/* the file ends, or is cut, before any moov */
} KmMp4Index;

KmMp4Index km_convert_mp4_index(const char *path);

/*
 * path opened for reading its header, at its start, with its size in
 * *size; NULL when it cannot be opened or is empty (km-convert-aiff.c).
 */
FILE *km_convert_open_header(const char *path, guint64 *size);

/* A big-endian 32-bit number, as AIFF and MP4 headers write them. */
static inline guint32 km_convert_be32(const guint8 *p)
{
	return (guint32)p[0] << 24 | (guint32)p[1] << 16 | (guint32)p[2] << 8 | p[3];
}

G_END_DECLS

#endif
