/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-import-mpeg.c - MPEG audio: find the first frame after the ID3v2 tag,
 * refuse Layer I/II (MP1/MP2) and AAC in ADTS frames, and read the Xing,
 * Info or VBRI header that encoders put in the first frame of an MP3.
 *
 * MPEG audio has no file signature: a frame is only believed when the frames
 * after it follow on with the same version, layer and sample rate, so that
 * a text or binary file is not taken for an MP3 by a chance 0xFF byte.
 */
#include "km-import-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* How far after the ID3v2 tag the first frame may start (some taggers pad). */
#define SCAN_LIMIT (64 * 1024)
/* Frames that must follow each other before we believe in the first. */
#define CHAIN_FRAMES 3
#define MAX_FRAME 2881		/* Layer II/III, 384 kbit/s at 8 kHz (MPEG-2.5) */
#define XING_FRAMES 0x1
#define XING_BYTES 0x2
#define XING_TOC 0x4
#define XING_QUALITY 0x8
#define LAME_DELAY 21		/* the 12-bit delay and padding, after the LAME tag's start */

static const guint16 kbps_table[2][3][15] = {
	{	/* MPEG-1: layers I, II, III */
		{ 0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448 },
		{ 0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384 },
		{ 0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320 },
	},
	{	/* MPEG-2 and 2.5 */
		{ 0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256 },
		{ 0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160 },
		{ 0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160 },
	},
};

static const guint rate_table[3] = { 44100, 48000, 32000 };	/* MPEG-1 */

/* Free-format frames (bitrate index 0) are not accepted: players rarely handle them. */
gboolean km_import_mpeg_frame(const guint8 *b, KmMpegFrame *f)
{
	guint version_bits = b[1] >> 3 & 3, layer_bits = b[1] >> 1 & 3;
	guint bitrate_index = b[2] >> 4, rate_index = b[2] >> 2 & 3, padding = b[2] >> 1 & 1;
	gboolean mpeg1;

	if (b[0] != 0xff || (b[1] & 0xe0) != 0xe0 || version_bits == 1 || layer_bits == 0 ||
	    bitrate_index == 0 || bitrate_index == 15 || rate_index == 3 || (b[3] & 3) == 2)
		return FALSE;
	mpeg1 = version_bits == 3;
	f->version = mpeg1 ? 10 : version_bits == 2 ? 20 : 25;
	f->layer = 4 - layer_bits;
	f->kbps = kbps_table[!mpeg1][f->layer - 1][bitrate_index];
	f->samplerate = rate_table[rate_index] >> (mpeg1 ? 0 : version_bits == 2 ? 1 : 2);
	f->crc = !(b[1] & 1);
	f->mono = (b[3] >> 6) == 3;
	if (f->layer == 1) {
		f->samples = 384;
		f->length = (12000 * f->kbps / f->samplerate + padding) * 4;
	} else {
		f->samples = f->layer == 3 && !mpeg1 ? 576 : 1152;
		f->length = 125 * f->kbps * f->samples / f->samplerate + padding;
	}
	return TRUE;
}

static gboolean same_stream(const KmMpegFrame *a, const KmMpegFrame *b)
{
	return a->version == b->version && a->layer == b->layer && a->samplerate == b->samplerate;
}

/*
 * Do CHAIN_FRAMES frames follow each other from pos (or fewer that end
 * exactly where the audio ends)? *ok says; FALSE only on a read error.
 */
static gboolean frames_follow(const KmImportReader *reader, guint64 pos, guint64 end,
			      const KmMpegFrame *first, gboolean *ok, GError **error)
{
	KmMpegFrame f = *first;
	guint8 b[4];
	guint n;

	*ok = FALSE;
	for (n = 1;; n++) {
		pos += f.length;
		if (pos == end || n == CHAIN_FRAMES) {
			*ok = pos <= end;
			return TRUE;
		}
		if (pos + sizeof(b) > end)
			return TRUE;
		if (km_import_read(reader, pos, b, sizeof(b), error) < 0)
			return FALSE;
		if (!km_import_mpeg_frame(b, &f) || !same_stream(&f, first))
			return TRUE;
	}
}

/* AAC in ADTS frames: a 12-bit sync, layer 0, and a 13-bit frame length. */
static gboolean adts_frames_follow(const KmImportReader *reader, guint64 pos, guint64 end,
				   gboolean *ok, GError **error)
{
	guint8 b[7];
	guint n;

	*ok = FALSE;
	for (n = 0; n < CHAIN_FRAMES && pos < end; n++) {
		guint length;
		gssize got = km_import_read(reader, pos, b, sizeof(b), error);

		if (got < 0)
			return FALSE;
		if (got < (gssize)sizeof(b) || b[0] != 0xff || (b[1] & 0xf6) != 0xf0)
			return TRUE;
		length = (b[3] & 3) << 11 | b[4] << 3 | b[5] >> 5;
		if (length < sizeof(b))
			return TRUE;
		pos += length;
	}
	*ok = n == CHAIN_FRAMES || pos == end;
	return TRUE;
}

/* Searches [offset, offset + SCAN_LIMIT) for the first believable frame. */
static gboolean find_first_frame(const KmImportReader *reader, const KmAudioInfo *info,
				 guint64 end, guint64 *where, KmMpegFrame *frame,
				 gboolean *adts, GError **error)
{
	g_autofree guint8 *buf = g_malloc(SCAN_LIMIT + 3);
	gssize len = km_import_read(reader, info->offset, buf, SCAN_LIMIT + 3, error);
	gssize i;

	*where = G_MAXUINT64;
	*adts = FALSE;
	if (len < 0)
		return FALSE;
	len = MIN(len, (gssize)(end - info->offset));
	for (i = 0; i + 4 <= len; i++) {
		guint64 pos = info->offset + (guint64)i;
		gboolean ok;

		if (buf[i] != 0xff || (buf[i + 1] & 0xe0) != 0xe0)
			continue;
		if ((buf[i + 1] & 0xf6) == 0xf0) {
			if (!adts_frames_follow(reader, pos, end, &ok, error))
				return FALSE;
			if (ok) {
				*adts = TRUE;
				return TRUE;
			}
			continue;
		}
		if (!km_import_mpeg_frame(buf + i, frame))
			continue;
		if (!frames_follow(reader, pos, end, frame, &ok, error))
			return FALSE;
		if (ok) {
			*where = pos;
			return TRUE;
		}
	}
	return TRUE;
}

static gboolean refuse_not_mp3(const KmAudioInfo *info, guint64 where, const KmMpegFrame *f,
			       gboolean adts, GError **error)
{
	static const char *const version_names[] = { [10] = "1", [20] = "2", [25] = "2.5" };

	if (adts) {
		km_import_set_error(error, KM_IMPORT_ERROR_UNSUPPORTED,
				    _("AAC audio (ADTS stream), which the Karma cannot play"));
	} else if (where == G_MAXUINT64 && info->offset) {
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    _("an ID3v2 tag with no MPEG audio frames after it "
				      "(truncated or damaged MP3?)"));
	} else if (where == G_MAXUINT64) {
		km_import_set_error(error, KM_IMPORT_ERROR_NOT_AUDIO,
				    _("not an audio file: no MP3, Ogg Vorbis, FLAC, WAV or WMA "
				      "stream found"));
	} else if (f->layer != 3) {
		km_import_set_error(error, KM_IMPORT_ERROR_UNSUPPORTED,
				    "MPEG-%s Layer %s audio (MP%u), which the Karma cannot play",
				    version_names[f->version], f->layer == 1 ? "I" : "II",
				    f->layer);
	} else {
		return FALSE;
	}
	return TRUE;
}

/*
 * The Xing/Info header's frame and byte counts (0 when absent), whether it
 * is VBR, and the samples of encoder delay and padding from a LAME tag.
 */
typedef struct {
	guint32 frames;
	guint32 bytes;
	gboolean vbr;
	guint delay;
} VbrHeader;

/* The LAME tag after a full Xing header: "LAME3.100" or the like, then its fields. */
static void read_lame_tag(const guint8 *frame, gsize len, gsize at, VbrHeader *vbr)
{
	const guint8 *p = frame + at;
	guint i;

	if (at + LAME_DELAY + 3 > len)
		return;
	for (i = 0; i < 4; i++)
		if (!g_ascii_isalnum(p[i]))
			return;
	p += LAME_DELAY;
	vbr->delay = (guint)(p[0] << 4 | p[1] >> 4) + (guint)((p[1] & 0x0f) << 8 | p[2]);
}

static void read_vbr_header(const guint8 *frame, gsize len, const KmMpegFrame *f,
			    VbrHeader *vbr)
{
	/* The Xing header follows the side information (after the CRC, if any). */
	gsize side = f->version == 10 ? (f->mono ? 17 : 32) : (f->mono ? 9 : 17);
	gsize at = 4 + (f->crc ? 2 : 0) + side;

	memset(vbr, 0, sizeof(*vbr));
	if (at + 16 <= len && (memcmp(frame + at, "Xing", 4) == 0 ||
			       memcmp(frame + at, "Info", 4) == 0)) {
		guint32 flags = km_be32(frame + at + 4);
		gsize field = at + 8;

		vbr->vbr = frame[at] == 'X';
		if (flags & XING_FRAMES) {
			vbr->frames = km_be32(frame + field);
			field += 4;
		}
		if (flags & XING_BYTES) {
			vbr->bytes = km_be32(frame + field);
			field += 4;
		}
		field += (flags & XING_TOC ? 100 : 0) + (flags & XING_QUALITY ? 4 : 0);
		read_lame_tag(frame, len, field, vbr);
		return;
	}
	/* Fraunhofer's VBRI header sits 32 bytes after the frame header. */
	if (36 + 18 <= len && memcmp(frame + 36, "VBRI", 4) == 0) {
		vbr->vbr = TRUE;
		vbr->bytes = km_be32(frame + 36 + 10);
		vbr->frames = km_be32(frame + 36 + 14);
	}
}

/*
 * A Xing/VBRI header counts the bytes of the whole stream. Some encoders
 * count the ID3v2 tag in it too, so the file is only called truncated when
 * even that cannot account for the bytes promised.
 */
static gboolean check_not_truncated(const KmImportReader *reader, const KmAudioInfo *info,
				    guint64 where, const VbrHeader *vbr, GError **error)
{
	guint64 have = reader->size - where + info->offset;

	if (vbr->bytes <= have)
		return TRUE;
	km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
			    "truncated: its MP3 header promises %u bytes of audio, the file has "
			    "%" G_GUINT64_FORMAT, vbr->bytes, reader->size - where);
	return FALSE;
}

static void set_timing(KmAudioInfo *info, guint64 audio_bytes, const KmMpegFrame *f,
		       const VbrHeader *vbr)
{
	guint64 samples = (guint64)vbr->frames * f->samples;

	/* Gapless: the encoder's delay and padding are not part of the song. */
	if (vbr->delay < samples)
		samples -= vbr->delay;
	info->samplerate = f->samplerate;
	info->vbr = vbr->vbr;
	info->duration_ms = samples * 1000 / f->samplerate;
	if (!vbr->vbr) {
		info->kbps = f->kbps;
		if (!info->duration_ms)	/* kbit/s are bits per millisecond */
			info->duration_ms = audio_bytes * 8 / f->kbps;
	} else if (vbr->bytes && info->duration_ms) {
		info->kbps = (guint32)MIN((guint64)vbr->bytes * 8 / info->duration_ms, G_MAXUINT32);
	}
}

gboolean km_import_probe_mpeg(const KmImportReader *reader, KmAudioInfo *info, GError **error)
{
	guint64 end = reader->size - info->trailer, where;
	guint8 frame[MAX_FRAME];
	KmMpegFrame f;
	VbrHeader vbr;
	gboolean adts;
	gssize len;

	if (!find_first_frame(reader, info, end, &where, &f, &adts, error))
		return FALSE;
	if (refuse_not_mp3(info, where, &f, adts, error))
		return FALSE;
	len = km_import_read(reader, where, frame, MIN(f.length, sizeof(frame)), error);
	if (len < 0)
		return FALSE;
	read_vbr_header(frame, (gsize)len, &f, &vbr);
	if (!check_not_truncated(reader, info, where, &vbr, error))
		return FALSE;
	info->codec = KM_CODEC_MP3;
	set_timing(info, end - where, &f, &vbr);
	return TRUE;
}
