/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-import-asf.c - WMA: an ASF header object whose streams are audio in
 * WMA version 1 or 2 (the codecs of the Karma's time), no video and no DRM.
 * The File Properties object gives the duration, the audio stream's
 * WAVEFORMATEX the sample rate and bitrate.
 */
#include "km-import-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define GUID_LEN 16
#define OBJECT_HEADER 24
#define HEADER_OBJECT 30
#define FILE_PROPS_LEN (OBJECT_HEADER + 80)
#define STREAM_PROPS_LEN (OBJECT_HEADER + 54)
#define WAVEFORMATEX_LEN 16
#define MAX_OBJECTS 1024
#define BROADCAST_FLAG 0x1

#define WMA_V1 0x0160
#define WMA_V2 0x0161

static const guint8 file_props_guid[GUID_LEN] = {
	0xa1, 0xdc, 0xab, 0x8c, 0x47, 0xa9, 0xcf, 0x11,
	0x8e, 0xe4, 0x00, 0xc0, 0x0c, 0x20, 0x53, 0x65,
};
static const guint8 stream_props_guid[GUID_LEN] = {
	0x91, 0x07, 0xdc, 0xb7, 0xb7, 0xa9, 0xcf, 0x11,
	0x8e, 0xe6, 0x00, 0xc0, 0x0c, 0x20, 0x53, 0x65,
};
static const guint8 audio_media_guid[GUID_LEN] = {
	0x40, 0x9e, 0x69, 0xf8, 0x4d, 0x5b, 0xcf, 0x11,
	0xa8, 0xfd, 0x00, 0x80, 0x5f, 0x5c, 0x44, 0x2b,
};
static const guint8 video_media_guid[GUID_LEN] = {
	0xc0, 0xef, 0x19, 0xbc, 0x4d, 0x5b, 0xcf, 0x11,
	0xa8, 0xfd, 0x00, 0x80, 0x5f, 0x5c, 0x44, 0x2b,
};
static const guint8 content_encryption_guid[GUID_LEN] = {
	0xfb, 0xb3, 0x11, 0x22, 0x23, 0xbd, 0xd2, 0x11,
	0xb4, 0xb7, 0x00, 0xa0, 0xc9, 0x55, 0xfc, 0x6e,
};
static const guint8 ext_content_encryption_guid[GUID_LEN] = {
	0x14, 0xe6, 0x8a, 0x29, 0x22, 0x26, 0x17, 0x4c,
	0xb9, 0x35, 0xda, 0xe0, 0x7e, 0xe9, 0x28, 0x9c,
};

typedef struct {
	gboolean have_audio;
	guint16 codec;
	guint32 rate;
	guint32 byte_rate;
	guint64 duration_ms;
} Asf;

static void read_file_props(const guint8 *o, Asf *asf)
{
	guint64 play = km_le64(o + OBJECT_HEADER + 40);	/* 100 ns units */
	guint64 preroll = km_le64(o + OBJECT_HEADER + 56);	/* ms, counted in play */

	if (km_le32(o + OBJECT_HEADER + 64) & BROADCAST_FLAG)
		return;		/* a live stream: no duration */
	if (play / 10000 > preroll)
		asf->duration_ms = play / 10000 - preroll;
}

static gboolean read_stream_props(const KmImportReader *reader, guint64 pos, guint64 size,
				  Asf *asf, GError **error)
{
	guint8 o[STREAM_PROPS_LEN + WAVEFORMATEX_LEN];
	const guint8 *wfx = o + STREAM_PROPS_LEN;

	if (!km_import_read_exact(reader, pos, o, STREAM_PROPS_LEN, "an ASF stream object", error))
		return FALSE;
	if (memcmp(o + OBJECT_HEADER, video_media_guid, GUID_LEN) == 0) {
		km_import_set_error(error, KM_IMPORT_ERROR_UNSUPPORTED,
				    _("an ASF file with video (WMV), which the Karma cannot play"));
		return FALSE;
	}
	if (memcmp(o + OBJECT_HEADER, audio_media_guid, GUID_LEN) != 0 || asf->have_audio)
		return TRUE;
	if (size < sizeof(o) || km_le32(o + OBJECT_HEADER + 40) < WAVEFORMATEX_LEN) {
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    "its ASF audio stream has no format");
		return FALSE;
	}
	if (!km_import_read_exact(reader, pos + STREAM_PROPS_LEN, o + STREAM_PROPS_LEN,
				  WAVEFORMATEX_LEN, "an ASF stream object", error))
		return FALSE;
	asf->have_audio = TRUE;
	asf->codec = km_le16(wfx);
	asf->rate = km_le32(wfx + 4);
	asf->byte_rate = km_le32(wfx + 8);
	return TRUE;
}

static gboolean read_object(const KmImportReader *reader, guint64 pos, guint64 size, Asf *asf,
			    GError **error)
{
	guint8 o[FILE_PROPS_LEN];

	if (!km_import_read_exact(reader, pos, o, OBJECT_HEADER, "an ASF header object", error))
		return FALSE;
	if (memcmp(o, content_encryption_guid, GUID_LEN) == 0 ||
	    memcmp(o, ext_content_encryption_guid, GUID_LEN) == 0) {
		km_import_set_error(error, KM_IMPORT_ERROR_UNSUPPORTED,
				    _("DRM-protected WMA, which the Karma may not play (its DRM "
				      "support is unknown)"));
		return FALSE;
	}
	if (memcmp(o, stream_props_guid, GUID_LEN) == 0 && size >= STREAM_PROPS_LEN)
		return read_stream_props(reader, pos, size, asf, error);
	if (memcmp(o, file_props_guid, GUID_LEN) == 0 && size >= FILE_PROPS_LEN) {
		if (!km_import_read_exact(reader, pos, o, FILE_PROPS_LEN, "an ASF header object",
					  error))
			return FALSE;
		read_file_props(o, asf);
	}
	return TRUE;
}

static gboolean read_header(const KmImportReader *reader, const KmAudioInfo *info, Asf *asf,
			    GError **error)
{
	guint8 h[HEADER_OBJECT];
	guint64 pos = info->offset + HEADER_OBJECT, header_end, size;
	guint32 count, n;

	if (!km_import_read_exact(reader, info->offset, h, sizeof(h), "the ASF header", error))
		return FALSE;
	size = km_le64(h + GUID_LEN);
	count = km_le32(h + OBJECT_HEADER);
	if (size < HEADER_OBJECT || size >= reader->size - info->offset - info->trailer) {
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    "its ASF header says %" G_GUINT64_FORMAT " bytes, which leaves "
				    "no room for audio (truncated?)", size);
		return FALSE;
	}
	header_end = info->offset + size;
	for (n = 0; n < MIN(count, MAX_OBJECTS) && pos + OBJECT_HEADER <= header_end; n++) {
		guint8 o[OBJECT_HEADER];

		if (!km_import_read_exact(reader, pos, o, sizeof(o), "an ASF header object", error))
			return FALSE;
		size = km_le64(o + GUID_LEN);
		if (size < OBJECT_HEADER || size > header_end - pos) {
			km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
					    "a damaged ASF header object at byte %" G_GUINT64_FORMAT,
					    pos);
			return FALSE;
		}
		if (!read_object(reader, pos, size, asf, error))
			return FALSE;
		pos += size;
	}
	return TRUE;
}

static gboolean check_codec(const Asf *asf, GError **error)
{
	const char *name;

	if (!asf->have_audio || !asf->rate) {
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    _("an ASF file without an audio stream"));
		return FALSE;
	}
	if (asf->codec == WMA_V1 || asf->codec == WMA_V2)
		return TRUE;
	switch (asf->codec) {
	case 0x0162:
		name = "WMA Pro audio";
		break;
	case 0x0163:
		name = "WMA Lossless audio";
		break;
	case 0x000a:
		name = "WMA Voice audio";
		break;
	default:
		name = "audio of another codec";
		break;
	}
	km_import_set_error(error, KM_IMPORT_ERROR_UNSUPPORTED,
			    "an ASF file with %s (codec 0x%04x), which the Karma cannot play",
			    name, asf->codec);
	return FALSE;
}

gboolean km_import_probe_asf(const KmImportReader *reader, KmAudioInfo *info, GError **error)
{
	Asf asf = { 0 };

	if (!read_header(reader, info, &asf, error) || !check_codec(&asf, error))
		return FALSE;
	info->codec = KM_CODEC_WMA;
	info->samplerate = asf.rate;
	info->duration_ms = asf.duration_ms;
	info->kbps = (guint32)((guint64)asf.byte_rate * 8 / 1000);
	info->vbr = FALSE;
	return TRUE;
}
