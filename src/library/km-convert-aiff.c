/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-convert-aiff.c - an AIFF's format read from its COMM chunk, so that an
 * AIFF is planned without GStreamer's discoverer and converted without
 * decodebin (km-convert-private.h says why). The file is untrusted: at most
 * MAX_CHUNKS chunks are walked, each inside the file. Also the opening of a
 * header both readers share (km_convert_open_header(): the MP4 one too).
 */
#include "km-convert-private.h"

#include <stdio.h>
#include <string.h>

#define MAX_CHUNKS 64
#define MAX_RATE_HZ 1000000

/*
 * The IEEE 754 80-bit extended float of AIFF's sample rate, whole hertz, or
 * 0 when absurd: mantissa x 2^(exponent - 63), the exponent unbiased.
 */
static guint extended_rate(const guint8 *p)
{
	int exponent = ((p[0] & 0x7f) << 8 | p[1]) - 16383;
	guint64 mantissa = (guint64)km_convert_be32(p + 2) << 32 | km_convert_be32(p + 6);
	guint64 rate;

	if (p[0] & 0x80 || exponent < 0 || exponent > 63)
		return 0;
	rate = mantissa >> (63 - exponent);
	return rate >= 1 && rate <= MAX_RATE_HZ ? (guint)rate : 0;
}

/* COMM: channels (2), frames (4), sample size (2), rate (10). */
static gboolean read_comm(FILE *f, KmAiffFormat *format)
{
	guint8 comm[18];

	if (fread(comm, 1, sizeof(comm), f) != sizeof(comm))
		return FALSE;
	format->channels = (guint)comm[0] << 8 | comm[1];
	format->frames = km_convert_be32(comm + 2);
	format->rate = extended_rate(comm + 8);
	return format->channels > 0 && format->rate > 0;
}

static gboolean is_aiff(FILE *f)
{
	guint8 head[12];

	return fread(head, 1, sizeof(head), f) == sizeof(head) && memcmp(head, "FORM", 4) == 0 &&
	       (memcmp(head + 8, "AIFF", 4) == 0 || memcmp(head + 8, "AIFC", 4) == 0);
}

/* Walks the chunks after the 12-byte FORM header, f positioned after it. */
static gboolean find_comm(FILE *f, guint64 file_size, KmAiffFormat *format)
{
	guint8 chunk[8];
	guint64 pos = 12;

	for (guint i = 0; i < MAX_CHUNKS && pos + sizeof(chunk) <= file_size; i++) {
		guint64 size;

		if (fseeko(f, (off_t)pos, SEEK_SET) != 0 || fread(chunk, 1, sizeof(chunk), f) !=
							     sizeof(chunk))
			return FALSE;
		size = km_convert_be32(chunk + 4);
		if (memcmp(chunk, "COMM", 4) == 0)
			return size >= 18 && read_comm(f, format);
		pos += sizeof(chunk) + size + (size & 1);	/* chunks are padded to even sizes */
	}
	return FALSE;
}

/*
 * An AIFF without a usable COMM is BROKEN rather than handed to the
 * discoverer, which would meet the aiffparse race (km-convert-private.h).
 */
FILE *km_convert_open_header(const char *path, guint64 *size)
{
	FILE *f = fopen(path, "rbe");
	off_t end;

	if (f && fseeko(f, 0, SEEK_END) == 0 && (end = ftello(f)) > 0) {
		rewind(f);
		*size = (guint64)end;
		return f;
	}
	if (f)
		fclose(f);
	return NULL;
}

KmAiffRead km_convert_aiff_format(const char *path, KmAiffFormat *format)
{
	KmAiffRead read = KM_AIFF_NONE;
	guint64 size;
	FILE *f = km_convert_open_header(path, &size);

	if (!f)
		return KM_AIFF_NONE;
	if (is_aiff(f))
		read = find_comm(f, size, format) ? KM_AIFF_READ : KM_AIFF_BROKEN;
	fclose(f);
	return read;
}
