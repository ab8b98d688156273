/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-import-private.h - what km-import.c shares with the format probes
 * (km-import-probe.c and one km-import-FORMAT.c per format).
 *
 * The file is untrusted: a probe reads only through km_import_read*(), checks
 * every size and offset against the file size before it uses it, and bounds
 * every walk over chunks, blocks, objects or pages. A probe that meets a
 * damaged file sets KM_IMPORT_ERROR_DAMAGED with a sentence (without the file
 * name: km_import_file() puts it in front).
 */
#ifndef KM_IMPORT_PRIVATE_H
#define KM_IMPORT_PRIVATE_H

#include "km-import.h"

G_BEGIN_DECLS

typedef struct {
	int fd;
	guint64 size;
} KmImportReader;

typedef enum {
	KM_CODEC_MP3,
	KM_CODEC_VORBIS,
	KM_CODEC_FLAC,
	KM_CODEC_WAVE,
	KM_CODEC_WMA,
} KmCodec;

/* Tag text as found (UTF-8, not yet cleaned up); NULL or 0 when absent. */
typedef struct {
	char *title;
	char *artist;
	char *album;
	char *genre;
	guint year;
	guint track;
} KmImportTags;

typedef struct {
	KmCodec codec;
	guint64 offset;		/* bytes of the leading ID3v2 tag (the Karma's "offset") */
	guint64 trailer;	/* bytes of the trailing ID3v1 and APE tags ("trailer") */
	guint64 id3v1;		/* 128 when the file ends in an ID3v1 tag, else 0 */
	guint64 audio_start;	/* where libkarma's rid starts: after tags and codec headers */
	guint32 samplerate;	/* Hz, never 0 for a probed tune */
	guint64 duration_ms;	/* 0 when the headers do not say: TagLib's seconds then */
	guint32 kbps;		/* 0 when TagLib's figure is to be used */
	gboolean vbr;		/* bitrate "vs" rather than "fs" */
	gboolean own_tags;	/* tags were read by the probe (WAV): TagLib is not asked */
	KmImportTags tags;
} KmAudioInfo;

/* ---- km-import-probe.c: reading, tag framing, the format dispatch ---- */

/* Bytes read at offset (fewer only at the end of the file), or -1 and READ. */
gssize km_import_read(const KmImportReader *reader, guint64 offset, void *buf, gsize len,
		      GError **error);
/* Exactly len bytes, or FALSE: READ, or DAMAGED "the file ends inside WHAT". */
gboolean km_import_read_exact(const KmImportReader *reader, guint64 offset, void *buf,
			      gsize len, const char *what, GError **error);
void km_import_set_error(GError **error, KmImportError code, const char *format, ...)
	G_GNUC_PRINTF(3, 4);

/* Find the format of a file of more than KM_IMPORT_MIN_TUNE_SIZE bytes, fill info. */
gboolean km_import_probe(const KmImportReader *reader, KmAudioInfo *info, GError **error);
/* Bytes of an ID3v1 tag at the end of a file (0 or 128), as libkarma looks for it. */
gboolean km_import_id3v1_size(const KmImportReader *reader, guint64 *size, GError **error);
void km_import_tags_clear(KmImportTags *tags);

/*
 * ---- one probe per format ----
 * Each is called with info->offset (ID3v2), info->trailer and info->id3v1
 * set and the format's signature found at info->offset (MPEG, which has
 * none, is tried last); it checks the stream's headers and fills the rest
 * of info, or refuses the file.
 */
gboolean km_import_probe_mpeg(const KmImportReader *reader, KmAudioInfo *info, GError **error);
gboolean km_import_probe_ogg(const KmImportReader *reader, KmAudioInfo *info, GError **error);
gboolean km_import_probe_flac(const KmImportReader *reader, KmAudioInfo *info, GError **error);
gboolean km_import_probe_wav(const KmImportReader *reader, KmAudioInfo *info, GError **error);
gboolean km_import_probe_asf(const KmImportReader *reader, KmAudioInfo *info, GError **error);

/* km-import-mpeg.c: an MPEG audio frame header (any layer) at buf[0..3]. */
typedef struct {
	guint version;		/* 10 (MPEG-1), 20 (MPEG-2), 25 (MPEG-2.5) */
	guint layer;		/* 1, 2 or 3 */
	guint kbps;
	guint samplerate;
	guint samples;		/* per frame */
	guint length;		/* bytes, header included */
	gboolean crc;
	gboolean mono;
} KmMpegFrame;
gboolean km_import_mpeg_frame(const guint8 *buf, KmMpegFrame *frame);

/* ---- byte order helpers ---- */

static inline guint16 km_le16(const guint8 *p)
{
	return (guint16)(p[0] | p[1] << 8);
}

static inline guint32 km_le32(const guint8 *p)
{
	return (guint32)p[0] | (guint32)p[1] << 8 | (guint32)p[2] << 16 | (guint32)p[3] << 24;
}

static inline guint64 km_le64(const guint8 *p)
{
	return (guint64)km_le32(p) | (guint64)km_le32(p + 4) << 32;
}

static inline guint32 km_be24(const guint8 *p)
{
	return (guint32)p[0] << 16 | (guint32)p[1] << 8 | (guint32)p[2];
}

static inline guint32 km_be32(const guint8 *p)
{
	return (guint32)p[0] << 24 | km_be24(p + 1);
}

G_END_DECLS

#endif
