/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-import-wav.c - RIFF WAVE: the fmt chunk (PCM only), the data chunk,
 * and the tags of a LIST/INFO chunk.
 *
 * The tags are read here because TagLib's C binding cannot: for WAV it only
 * shows an ID3v2 chunk, and it picks the format by file name. INFO text has
 * no declared encoding: UTF-8 when it is valid UTF-8, else Windows-1252.
 */
#include "km-import-private.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_HEADER 8
#define RIFF_HEADER 12
#define FMT_MIN 16
#define FMT_EXTENSIBLE 40
#define WAVE_FORMAT_PCM 0x0001
#define WAVE_FORMAT_EXTENSIBLE 0xfffe
#define MAX_CHUNKS 4096
#define MAX_INFO_TEXT 4096

typedef struct {
	gboolean have_fmt;
	guint16 format;
	guint16 channels;
	guint16 block_align;
	guint16 bits;
	guint32 rate;
	guint32 byte_rate;
	gboolean have_data;
	guint64 data_size;
} Wave;

static gboolean read_fmt(const KmImportReader *reader, guint64 pos, guint32 size, Wave *w,
			 GError **error)
{
	guint8 f[FMT_EXTENSIBLE];

	if (size < FMT_MIN) {
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    "its WAV fmt chunk is too short (%u bytes)", size);
		return FALSE;
	}
	if (!km_import_read_exact(reader, pos, f, MIN(size, sizeof(f)), "the WAV fmt chunk", error))
		return FALSE;
	w->have_fmt = TRUE;
	w->format = km_le16(f);
	w->channels = km_le16(f + 2);
	w->rate = km_le32(f + 4);
	w->byte_rate = km_le32(f + 8);
	w->block_align = km_le16(f + 12);
	w->bits = km_le16(f + 14);
	/* WAVE_FORMAT_EXTENSIBLE: the real format opens the sub-format GUID. */
	if (w->format == WAVE_FORMAT_EXTENSIBLE && size >= FMT_EXTENSIBLE)
		w->format = km_le16(f + 24);
	return TRUE;
}

static char *info_text(const guint8 *data, gsize len)
{
	while (len && data[len - 1] == '\0')
		len--;
	if (memchr(data, '\0', len))
		len = strlen((const char *)data);
	if (g_utf8_validate((const char *)data, (gssize)len, NULL))
		return g_strndup((const char *)data, len);
	return g_convert((const char *)data, (gssize)len, "UTF-8", "WINDOWS-1252", NULL, NULL,
			 NULL);
}

static void set_info_tag(KmImportTags *tags, const guint8 *id, const guint8 *data, gsize len)
{
	char **slot = NULL;
	g_autofree char *text = info_text(data, len);

	if (!text)
		return;
	if (memcmp(id, "INAM", 4) == 0)
		slot = &tags->title;
	else if (memcmp(id, "IART", 4) == 0)
		slot = &tags->artist;
	else if (memcmp(id, "IPRD", 4) == 0)
		slot = &tags->album;
	else if (memcmp(id, "IGNR", 4) == 0)
		slot = &tags->genre;
	else if (memcmp(id, "ICRD", 4) == 0)
		tags->year = (guint)strtoul(text, NULL, 10);	/* "2004" or "2004-05-06" */
	else if (memcmp(id, "ITRK", 4) == 0 || memcmp(id, "IPRT", 4) == 0)
		tags->track = (guint)strtoul(text, NULL, 10);	/* "3" or "3/12" */
	if (slot) {
		g_free(*slot);
		*slot = g_steal_pointer(&text);
	}
}

/* A LIST chunk of type INFO: sub-chunks of text. Others are skipped. */
static gboolean read_list(const KmImportReader *reader, guint64 pos, guint32 size,
			  KmImportTags *tags, GError **error)
{
	g_autofree guint8 *list = NULL;
	guint32 at;

	if (size < 4 || size > MAX_CHUNKS * MAX_INFO_TEXT)
		return TRUE;
	list = g_malloc(size);
	if (!km_import_read_exact(reader, pos, list, size, "a WAV LIST chunk", error))
		return FALSE;
	if (memcmp(list, "INFO", 4) != 0)
		return TRUE;
	for (at = 4; size - at >= CHUNK_HEADER;) {
		guint32 len = km_le32(list + at + 4);

		if (len > size - at - CHUNK_HEADER)
			break;	/* a damaged INFO list: keep what was good */
		if (len <= MAX_INFO_TEXT)
			set_info_tag(tags, list + at, list + at + CHUNK_HEADER, len);
		at += CHUNK_HEADER + len;
		if ((len & 1) && at < size)
			at++;
	}
	return TRUE;
}

static gboolean read_chunks(const KmImportReader *reader, KmAudioInfo *info, Wave *w,
			    GError **error)
{
	guint64 end = reader->size - info->trailer;
	guint64 pos = info->offset + RIFF_HEADER;
	guint8 h[CHUNK_HEADER];
	guint n;

	for (n = 0; n < MAX_CHUNKS && pos + CHUNK_HEADER <= end; n++) {
		guint32 size;

		if (!km_import_read_exact(reader, pos, h, sizeof(h), "a WAV chunk", error))
			return FALSE;
		size = km_le32(h + 4);
		pos += CHUNK_HEADER;
		if (memcmp(h, "fmt ", 4) == 0 && !w->have_fmt) {
			if (!read_fmt(reader, pos, size, w, error))
				return FALSE;
		} else if (memcmp(h, "data", 4) == 0 && !w->have_data) {
			w->have_data = TRUE;
			w->data_size = size;
			if (size > end - pos) {
				km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
						    "its WAV data chunk says %u bytes, but the file "
						    "has %" G_GUINT64_FORMAT " (truncated?)",
						    size, end - pos);
				return FALSE;
			}
		} else if (memcmp(h, "LIST", 4) == 0 && size <= end - pos) {
			if (!read_list(reader, pos, size, &info->tags, error))
				return FALSE;
		}
		pos += (guint64)size + (size & 1);
	}
	return TRUE;
}

static gboolean check_format(const Wave *w, GError **error)
{
	if (!w->have_fmt || !w->have_data || !w->data_size) {
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    "a WAV file without %s",
				    !w->have_fmt ? "a fmt chunk" : "audio data");
		return FALSE;
	}
	if (w->format != WAVE_FORMAT_PCM) {
		km_import_set_error(error, KM_IMPORT_ERROR_UNSUPPORTED,
				    "a WAV file of format 0x%04x, not PCM, which the Karma "
				    "cannot play", w->format);
		return FALSE;
	}
	if (!w->channels || !w->rate || !w->bits || w->bits % 8 ||
	    w->block_align != w->channels * (w->bits / 8) ||
	    w->byte_rate != w->rate * w->block_align) {
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    "its WAV fmt chunk does not add up (%u channels, %u Hz, %u bits, "
				    "%u bytes a frame, %u bytes a second)", w->channels, w->rate,
				    w->bits, w->block_align, w->byte_rate);
		return FALSE;
	}
	return TRUE;
}

gboolean km_import_probe_wav(const KmImportReader *reader, KmAudioInfo *info, GError **error)
{
	Wave w = { 0 };

	info->own_tags = TRUE;
	if (!read_chunks(reader, info, &w, error) || !check_format(&w, error))
		return FALSE;
	info->codec = KM_CODEC_WAVE;
	info->samplerate = w.rate;
	info->duration_ms = w.data_size * 1000 / w.byte_rate;
	info->kbps = (guint32)((guint64)w.byte_rate * 8 / 1000);
	info->vbr = FALSE;
	return TRUE;
}
