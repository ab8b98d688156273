/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-convert-mp4.c - whether an MP4 (.m4a, ALAC or AAC) still has its index,
 * the moov box, before the discoverer is asked (km-convert-private.h says
 * why). The file is untrusted: at most MAX_BOXES top-level boxes are
 * walked, and a box that runs past the end of the file ends the walk.
 */
#include "km-convert-private.h"

#include <string.h>

#define MAX_BOXES 64

/*
 * The size of the box whose 8-byte header is head, f positioned after the
 * header; 0 when its size is absurd. Size 1 means a 64-bit size follows;
 * size 0 means the box runs to the end of the file.
 */
static guint64 box_size(FILE *f, const guint8 *head, guint64 pos, guint64 file_size)
{
	guint64 size = km_convert_be32(head);
	guint8 large[8];

	if (size == 0)
		return file_size - pos;
	if (size == 1) {
		if (fread(large, 1, sizeof(large), f) != sizeof(large))
			return 0;
		size = (guint64)km_convert_be32(large) << 32 | km_convert_be32(large + 4);
		return size >= 16 ? size : 0;
	}
	return size >= 8 ? size : 0;
}

/* The top-level boxes from the start, looking for a whole moov. */
static KmMp4Index walk_boxes(FILE *f, guint64 file_size)
{
	guint8 head[8];
	guint64 pos = 0;

	if (fread(head, 1, sizeof(head), f) != sizeof(head) || memcmp(head + 4, "ftyp", 4) != 0)
		return KM_MP4_NONE;
	for (guint i = 0; i < MAX_BOXES && pos + sizeof(head) <= file_size; i++) {
		guint64 size;

		if (fseeko(f, (off_t)pos, SEEK_SET) != 0 ||
		    fread(head, 1, sizeof(head), f) != sizeof(head))
			return KM_MP4_NO_INDEX;
		size = box_size(f, head, pos, file_size);
		if (size == 0 || size > file_size - pos)
			return KM_MP4_NO_INDEX;	/* cut inside this box */
		if (memcmp(head + 4, "moov", 4) == 0)
			return KM_MP4_INDEXED;
		pos += size;
	}
	return pos + sizeof(head) <= file_size ? KM_MP4_INDEXED /* gave up: GStreamer decides */
					       : KM_MP4_NO_INDEX;
}

KmMp4Index km_convert_mp4_index(const char *path)
{
	guint64 size;
	FILE *f = km_convert_open_header(path, &size);
	KmMp4Index index;

	if (!f)
		return KM_MP4_NONE;
	index = walk_boxes(f, size);
	fclose(f);
	return index;
}
