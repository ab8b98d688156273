/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-import-ogg.c - Ogg Vorbis: the codec of the first stream, the end of
 * the three Vorbis header packets (where libkarma's rid starts: the first
 * audio page), and the duration from the granule position of the last page.
 */
#include "km-import-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define PAGE_HEADER 27
#define MAX_PAGE (PAGE_HEADER + 255 + 255 * 255)
#define VORBIS_ID_LEN 30
#define HEADER_PACKETS 3
/* Header pages we walk before giving up (a cover picture can take hundreds). */
#define MAX_HEADER_PAGES 65536
#define OGG_BOS 0x02

typedef struct {
	guint8 type;
	guint64 granule;
	guint32 serial;
	guint nsegs;
	guint8 lacing[255];
	guint64 body;		/* bytes after the lacing values */
	guint64 end;		/* file position just after the page */
} OggPage;

static gboolean read_page(const KmImportReader *reader, guint64 pos, OggPage *page,
			  GError **error)
{
	guint8 h[PAGE_HEADER];
	guint i;

	if (!km_import_read_exact(reader, pos, h, sizeof(h), "an Ogg page header", error))
		return FALSE;
	if (memcmp(h, "OggS", 4) != 0 || h[4] != 0) {
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    "no Ogg page where one should start (byte %" G_GUINT64_FORMAT
				    ")", pos);
		return FALSE;
	}
	page->type = h[5];
	page->granule = km_le64(h + 6);
	page->serial = km_le32(h + 14);
	page->nsegs = h[26];
	if (!km_import_read_exact(reader, pos + PAGE_HEADER, page->lacing, page->nsegs,
				  "an Ogg page header", error))
		return FALSE;
	page->body = 0;
	for (i = 0; i < page->nsegs; i++)
		page->body += page->lacing[i];
	page->end = pos + PAGE_HEADER + page->nsegs + page->body;
	if (page->end > reader->size) {
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    "the file ends inside the Ogg page at byte %" G_GUINT64_FORMAT
				    " (truncated?)", pos);
		return FALSE;
	}
	return TRUE;
}

static const struct {
	const char *magic;
	guint len;
	const char *what;
} ogg_codecs[] = {
	{ "OpusHead", 8, "Ogg Opus audio" },
	{ "\x7f" "FLAC", 5, "Ogg FLAC audio (the Karma plays FLAC files, not FLAC in Ogg)" },
	{ "Speex   ", 8, "Ogg Speex audio" },
	{ "\x80theora", 7, "Ogg Theora video" },
};

/* The first packet of the stream must be a Vorbis identification header. */
static gboolean read_vorbis_id(const KmImportReader *reader, guint64 pos, const OggPage *page,
			       KmAudioInfo *info, GError **error)
{
	guint8 id[VORBIS_ID_LEN];
	gssize len = km_import_read(reader, pos + PAGE_HEADER + page->nsegs, id,
				    (gsize)MIN(page->body, sizeof(id)), error);
	gsize i;

	if (len < 0)
		return FALSE;
	if (len == VORBIS_ID_LEN && memcmp(id, "\x01vorbis", 7) == 0 && km_le32(id + 7) == 0 &&
	    id[11] != 0 && km_le32(id + 12) != 0) {
		info->samplerate = km_le32(id + 12);
		return TRUE;
	}
	for (i = 0; i < G_N_ELEMENTS(ogg_codecs); i++) {
		if (len >= ogg_codecs[i].len &&
		    memcmp(id, ogg_codecs[i].magic, ogg_codecs[i].len) == 0) {
			km_import_set_error(error, KM_IMPORT_ERROR_UNSUPPORTED,
					    "%s, which the Karma cannot play", ogg_codecs[i].what);
			return FALSE;
		}
	}
	km_import_set_error(error, KM_IMPORT_ERROR_UNSUPPORTED,
			    _("an Ogg stream that is not Vorbis, which the Karma cannot play"));
	return FALSE;
}

/* Walks the pages of the header packets; returns where the audio pages start. */
static gboolean skip_headers(const KmImportReader *reader, KmAudioInfo *info, guint32 *serial,
			     GError **error)
{
	guint64 pos = info->offset;
	guint packets = 0, pages, i;
	OggPage page;

	for (pages = 0; packets < HEADER_PACKETS; pages++) {
		if (pages == MAX_HEADER_PAGES) {
			km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
					    "no end to its Ogg Vorbis headers in %u pages", pages);
			return FALSE;
		}
		if (!read_page(reader, pos, &page, error))
			return FALSE;
		if (pages == 0) {
			if (!(page.type & OGG_BOS)) {
				km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
						    "its first Ogg page does not begin a stream");
				return FALSE;
			}
			if (!read_vorbis_id(reader, pos, &page, info, error))
				return FALSE;
			*serial = page.serial;
		} else if (page.serial != *serial) {
			km_import_set_error(error, KM_IMPORT_ERROR_UNSUPPORTED,
					    _("an Ogg file with more than one stream, which the "
					      "Karma cannot play"));
			return FALSE;
		}
		for (i = 0; i < page.nsegs; i++)
			packets += page.lacing[i] < 255;
		pos = page.end;
	}
	info->audio_start = pos;
	return TRUE;
}

/*
 * The last page of our stream in the tail of the file gives the number of
 * samples; a page cut short there means the file was truncated.
 */
static gboolean read_duration(const KmImportReader *reader, KmAudioInfo *info, guint32 serial,
			      GError **error)
{
	guint64 end = reader->size - info->trailer;
	guint64 from = end - MIN(end - info->audio_start, (guint64)MAX_PAGE * 2);
	g_autofree guint8 *tail = g_malloc(end - from);
	gssize len = km_import_read(reader, from, tail, end - from, error);
	OggPage page;
	gssize i;

	if (len < 0)
		return FALSE;
	for (i = len - PAGE_HEADER; i >= 0; i--) {
		if (memcmp(tail + i, "OggS", 4) != 0 || tail[i + 4] != 0 ||
		    km_le32(tail + i + 14) != serial || km_le64(tail + i + 6) == G_MAXUINT64)
			continue;
		if (!read_page(reader, from + (guint64)i, &page, error))
			return FALSE;
		if (page.end > end) {
			km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
					    "the file ends inside its last Ogg page (truncated?)");
			return FALSE;
		}
		info->duration_ms = page.granule / info->samplerate * 1000 +
				    page.granule % info->samplerate * 1000 / info->samplerate;
		return TRUE;
	}
	return TRUE;	/* no granule found: TagLib's duration */
}

gboolean km_import_probe_ogg(const KmImportReader *reader, KmAudioInfo *info, GError **error)
{
	guint32 serial = 0;

	if (!skip_headers(reader, info, &serial, error))
		return FALSE;
	if (info->audio_start >= reader->size - info->trailer) {
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    "Ogg Vorbis headers but no audio after them (truncated?)");
		return FALSE;
	}
	info->codec = KM_CODEC_VORBIS;
	info->vbr = TRUE;	/* as libkarma: Vorbis is always "vs" */
	return read_duration(reader, info, serial, error);
}
