/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-import-probe.c - what kind of file is this? Reading helpers, the tags
 * that frame the audio (ID3v2 in front; ID3v1 and APE at the end) and the
 * dispatch on the signature found where the audio starts.
 */
#include "km-import-private.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#define ID3V2_HEADER 10
#define ID3V1_SIZE 128
#define APE_FOOTER 32
#define HEAD_LEN 16

void km_import_set_error(GError **error, KmImportError code, const char *format, ...)
{
	va_list args;
	char *message;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error_literal(error, KM_IMPORT_ERROR, code, message);
	g_free(message);
}

gssize km_import_read(const KmImportReader *reader, guint64 offset, void *buf, gsize len,
		      GError **error)
{
	gsize done = 0;

	if (offset >= reader->size)
		return 0;
	len = MIN(len, reader->size - offset);
	while (done < len) {
		ssize_t n = pread(reader->fd, (char *)buf + done, len - done,
				  (off_t)(offset + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int saved = errno;

			km_import_set_error(error, KM_IMPORT_ERROR_READ, "cannot read at byte %"
					    G_GUINT64_FORMAT ": %s", offset + done, g_strerror(saved));
			return -1;
		}
		if (n == 0)	/* the file shrank under us */
			break;
		done += (gsize)n;
	}
	return (gssize)done;
}

gboolean km_import_read_exact(const KmImportReader *reader, guint64 offset, void *buf,
			      gsize len, const char *what, GError **error)
{
	gssize n = km_import_read(reader, offset, buf, len, error);

	if (n < 0)
		return FALSE;
	if ((gsize)n < len) {
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    "the file ends inside %s (truncated?)", what);
		return FALSE;
	}
	return TRUE;
}

void km_import_tags_clear(KmImportTags *tags)
{
	g_clear_pointer(&tags->title, g_free);
	g_clear_pointer(&tags->artist, g_free);
	g_clear_pointer(&tags->album, g_free);
	g_clear_pointer(&tags->genre, g_free);
	tags->year = 0;
	tags->track = 0;
}

/* ---- tags around the audio ---------------------------------------------- */

/* Bytes of an ID3v2 tag at the start (header, body and footer), or 0. */
static gboolean id3v2_size(const KmImportReader *reader, guint64 *size, GError **error)
{
	guint8 h[ID3V2_HEADER];
	gssize n = km_import_read(reader, 0, h, sizeof(h), error);
	guint64 body;

	*size = 0;
	if (n < 0)
		return FALSE;
	/* "ID3", major version 2-4, revision < 0xff, four 7-bit size bytes. */
	if (n < ID3V2_HEADER || memcmp(h, "ID3", 3) != 0 || h[3] < 2 || h[3] > 4 ||
	    h[4] == 0xff || ((h[6] | h[7] | h[8] | h[9]) & 0x80))
		return TRUE;
	body = (guint64)h[6] << 21 | h[7] << 14 | h[8] << 7 | h[9];
	*size = ID3V2_HEADER + body + (h[3] == 4 && (h[5] & 0x10) ? ID3V2_HEADER : 0);
	if (*size >= reader->size) {
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    "its ID3v2 tag says %" G_GUINT64_FORMAT " bytes, but the file "
				    "has only %" G_GUINT64_FORMAT " (truncated?)",
				    *size, reader->size);
		return FALSE;
	}
	return TRUE;
}

/* Like libkarma: "TAG" 128 bytes before the end, whatever the format. */
gboolean km_import_id3v1_size(const KmImportReader *reader, guint64 *size, GError **error)
{
	guint8 tag[3];

	*size = 0;
	if (reader->size < ID3V1_SIZE)
		return TRUE;
	if (!km_import_read_exact(reader, reader->size - ID3V1_SIZE, tag, sizeof(tag),
				  "the ID3v1 tag", error))
		return FALSE;
	if (memcmp(tag, "TAG", 3) == 0)
		*size = ID3V1_SIZE;
	return TRUE;
}

/*
 * Bytes of an APE tag (v1 or v2) that ends where the ID3v1 tag or the file
 * begins, footer and optional header included, or 0. A footer whose size
 * does not fit the file is not an APE tag we can skip: it is left as audio.
 */
static gboolean ape_size(const KmImportReader *reader, guint64 tags_end, guint64 audio_floor,
			 guint64 *size, GError **error)
{
	guint8 f[APE_FOOTER];
	guint64 total;
	gssize n;

	*size = 0;
	if (tags_end < audio_floor + APE_FOOTER)
		return TRUE;
	n = km_import_read(reader, tags_end - APE_FOOTER, f, sizeof(f), error);
	if (n < 0)
		return FALSE;
	if (n < APE_FOOTER || memcmp(f, "APETAGEX", 8) != 0)
		return TRUE;
	total = km_le32(f + 12);	/* items and footer */
	if (km_le32(f + 20) & 0x80000000u)
		total += APE_FOOTER;	/* a header in front */
	if (km_le32(f + 12) >= APE_FOOTER && total <= tags_end - audio_floor)
		*size = total;
	return TRUE;
}

/* ---- the dispatch ------------------------------------------------------- */

/* Formats we recognise but the Karma cannot play (docs/KARMA.md §10). */
static const struct {
	guint at;
	const char *magic;
	guint len;
	const char *what;
} unplayable[] = {
	{ 4, "ftyp", 4, "an MP4/M4A file (AAC or ALAC audio)" },
	{ 0, "FORM", 4, "an AIFF or other IFF file" },
	{ 0, "MAC ", 4, "a Monkey's Audio file" },
	{ 0, "wvpk", 4, "a WavPack file" },
	{ 0, "MPCK", 4, "a Musepack file" },
	{ 0, "MP+", 3, "a Musepack file" },
	{ 0, "TTA1", 4, "a TTA file" },
	{ 0, "#!AMR", 5, "an AMR file" },
	{ 0, ".RMF", 4, "a RealMedia file" },
	{ 0, "caff", 4, "a Core Audio file" },
	{ 0, "MThd", 4, "a MIDI file" },
	{ 0, "DSD ", 4, "a DSF file" },
	{ 0, "FRM8", 4, "a DSDIFF file" },
	{ 0, "\x1a\x45\xdf\xa3", 4, "a Matroska or WebM file" },
};

static const guint8 asf_header_guid[16] = {
	0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11,
	0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c,
};

static gboolean has_magic(const guint8 *head, gsize len, guint at, const void *magic, guint n)
{
	return len >= at + n && memcmp(head + at, magic, n) == 0;
}

static gboolean refuse_unplayable(const guint8 *head, gsize len, GError **error)
{
	gsize i;

	for (i = 0; i < G_N_ELEMENTS(unplayable); i++) {
		if (has_magic(head, len, unplayable[i].at, unplayable[i].magic, unplayable[i].len)) {
			km_import_set_error(error, KM_IMPORT_ERROR_UNSUPPORTED,
					    "%s, which the Karma cannot play", unplayable[i].what);
			return TRUE;
		}
	}
	if (has_magic(head, len, 0, "RIFF", 4) && !has_magic(head, len, 8, "WAVE", 4)) {
		km_import_set_error(error, KM_IMPORT_ERROR_UNSUPPORTED,
				    "a RIFF file of form \"%.4s\" (not WAVE), which the Karma "
				    "cannot play", len >= 12 ? (const char *)head + 8 : "????");
		return TRUE;
	}
	return FALSE;
}

static gboolean probe_by_signature(const KmImportReader *reader, KmAudioInfo *info,
				   GError **error)
{
	guint8 head[HEAD_LEN];
	gssize len = km_import_read(reader, info->offset, head, sizeof(head), error);

	if (len < 0)
		return FALSE;
	if (has_magic(head, len, 0, "fLaC", 4))
		return km_import_probe_flac(reader, info, error);
	if (has_magic(head, len, 0, "OggS", 4))
		return km_import_probe_ogg(reader, info, error);
	if (has_magic(head, len, 0, "RIFF", 4) && has_magic(head, len, 8, "WAVE", 4))
		return km_import_probe_wav(reader, info, error);
	if (has_magic(head, len, 0, asf_header_guid, sizeof(asf_header_guid)))
		return km_import_probe_asf(reader, info, error);
	if (refuse_unplayable(head, len, error))
		return FALSE;
	/* MPEG audio has no signature but its frames: the MPEG probe looks for them. */
	return km_import_probe_mpeg(reader, info, error);
}

gboolean km_import_probe(const KmImportReader *reader, KmAudioInfo *info, GError **error)
{
	guint64 ape;

	memset(info, 0, sizeof(*info));
	if (!id3v2_size(reader, &info->offset, error) ||
	    !km_import_id3v1_size(reader, &info->id3v1, error) ||
	    !ape_size(reader, reader->size - info->id3v1, info->offset, &ape, error))
		return FALSE;
	info->trailer = info->id3v1 + ape;
	if (info->offset + info->trailer >= reader->size) {
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    _("it holds tags but no audio"));
		return FALSE;
	}
	info->audio_start = info->offset;
	return probe_by_signature(reader, info, error);
}
