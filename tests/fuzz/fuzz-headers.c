/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-headers.c - fuzz target: the input is the start of an audio file
 * that is to be converted, whose header we read ourselves rather than
 * through GStreamer (km-convert-private.h): an AIFF's chunks up to COMM,
 * an MP4's top-level boxes up to moov. Each answer must fit the bytes: an
 * AIFF read has channels and a rate of 1 Hz to 1 MHz, only a FORM/AIFF or
 * FORM/AIFC header is an AIFF at all, and only an ftyp box first is an MP4.
 */
#include "fuzz-target.h"
#include "km-convert-private.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static gboolean is_form_aiff(const uint8_t *data, size_t size)
{
	return size >= 12 && memcmp(data, "FORM", 4) == 0 &&
	       (memcmp(data + 8, "AIFF", 4) == 0 || memcmp(data + 8, "AIFC", 4) == 0);
}

static const char *check_aiff(const char *path, const uint8_t *data, size_t size,
			      char *note, size_t notelen)
{
	KmAiffFormat format = { 0 };
	KmAiffRead read = km_convert_aiff_format(path, &format);

	if ((read == KM_AIFF_NONE) != !is_form_aiff(data, size))
		return "an AIFF was told from a file that is not one, or the other way";
	if (read == KM_AIFF_READ && (format.channels == 0 || format.rate < 1 ||
				     format.rate > 1000000))
		return "an AIFF read has no channels or an absurd rate";
	snprintf(note, notelen, "aiff %d (%u ch, %u Hz)", read, format.channels, format.rate);
	return NULL;
}

static const char *check_mp4(const char *path, const uint8_t *data, size_t size,
			     char *note, size_t notelen)
{
	KmMp4Index index = km_convert_mp4_index(path);
	gboolean ftyp_first = size >= 8 && memcmp(data + 4, "ftyp", 4) == 0;
	size_t len = strlen(note);

	if ((index == KM_MP4_NONE) != !ftyp_first)
		return "an MP4 was told from a file without an ftyp box first, or the other way";
	if (index == KM_MP4_INDEXED && !memmem(data, size, "moov", 4) && size < 64 * 8)
		return "an MP4 of fewer boxes than are walked is indexed without a moov";
	snprintf(note + len, notelen - len, ", mp4 %d", index);
	return NULL;
}

const char *fuzz_target_run(const uint8_t *data, size_t size, char *note, size_t notelen)
{
	int fd = memfd_create("fuzz-headers", MFD_CLOEXEC);
	char path[64];
	const char *broken;

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size)) {
		if (fd >= 0)
			close(fd);
		return "the input could not be written to a memfd";
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	broken = check_aiff(path, data, size, note, notelen);
	if (!broken)
		broken = check_mp4(path, data, size, note, notelen);
	close(fd);
	return broken;
}
