/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-import-flac.c - native FLAC: STREAMINFO (sample rate, total samples),
 * then the walk over the metadata blocks to the first audio frame, which is
 * where libkarma's rid starts.
 */
#include "km-import-private.h"

#define BLOCK_HEADER 4
#define STREAMINFO_LEN 34
#define BLOCK_INVALID 127
#define LAST_BLOCK 0x80
/* Far more than any real file; bounds the walk over a hostile one. */
#define MAX_BLOCKS 65536

static gboolean read_streaminfo(const KmImportReader *reader, guint64 pos, KmAudioInfo *info,
				GError **error)
{
	guint8 h[BLOCK_HEADER + STREAMINFO_LEN];
	const guint8 *s = h + BLOCK_HEADER;
	guint64 samples;

	if (!km_import_read_exact(reader, pos, h, sizeof(h), "the FLAC STREAMINFO block", error))
		return FALSE;
	if ((h[0] & ~LAST_BLOCK) != 0 || km_be24(h + 1) != STREAMINFO_LEN) {
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    "its FLAC metadata does not begin with STREAMINFO");
		return FALSE;
	}
	info->samplerate = km_be24(s + 10) >> 4;
	if (!info->samplerate) {
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    "its FLAC STREAMINFO gives a sample rate of 0");
		return FALSE;
	}
	samples = (guint64)(s[13] & 0x0f) << 32 | km_be32(s + 14);
	/* 0 samples means "unknown": TagLib's duration then. */
	info->duration_ms = samples * 1000 / info->samplerate;
	return TRUE;
}

/* Returns the position after the last metadata block. */
static gboolean skip_metadata(const KmImportReader *reader, guint64 pos, guint64 end,
			      guint64 *audio, GError **error)
{
	guint8 h[BLOCK_HEADER];
	guint n;

	for (n = 0; n < MAX_BLOCKS; n++) {
		if (!km_import_read_exact(reader, pos, h, sizeof(h), "the FLAC metadata", error))
			return FALSE;
		if ((h[0] & ~LAST_BLOCK) == BLOCK_INVALID) {
			km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
					    "an invalid FLAC metadata block at byte %"
					    G_GUINT64_FORMAT, pos);
			return FALSE;
		}
		pos += BLOCK_HEADER + km_be24(h + 1);
		if (pos >= end) {
			km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
					    "its FLAC metadata runs to the end of the file, with "
					    "no audio (truncated?)");
			return FALSE;
		}
		if (h[0] & LAST_BLOCK) {
			*audio = pos;
			return TRUE;
		}
	}
	km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
			    "more than %u FLAC metadata blocks", MAX_BLOCKS);
	return FALSE;
}

gboolean km_import_probe_flac(const KmImportReader *reader, KmAudioInfo *info, GError **error)
{
	guint64 end = reader->size - info->trailer, audio = 0;
	guint8 sync[2];

	if (!read_streaminfo(reader, info->offset + 4, info, error) ||
	    !skip_metadata(reader, info->offset + 4, end, &audio, error))
		return FALSE;
	if (!km_import_read_exact(reader, audio, sync, sizeof(sync), "the first FLAC frame", error))
		return FALSE;
	/* A frame starts with the 14-bit sync code 0x3ffe and a reserved 0 bit. */
	if (sync[0] != 0xff || (sync[1] & 0xfe) != 0xf8) {
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    "no FLAC audio frame after its metadata (byte %" G_GUINT64_FORMAT
				    ")", audio);
		return FALSE;
	}
	info->codec = KM_CODEC_FLAC;
	info->audio_start = audio;
	info->vbr = TRUE;	/* as libkarma: FLAC is always "vs" */
	return TRUE;
}
