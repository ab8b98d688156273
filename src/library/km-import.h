/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-import.h - read one host file and make the properties of the Karma
 * object that will hold it (docs/KARMA.md §7.3 and §10).
 *
 * The format is recognised by content, never by the file name: MP3 (MPEG
 * Layer III, versions 1, 2 and 2.5), Ogg Vorbis, FLAC, PCM WAV and WMA (ASF
 * with a WMA 1 or 2 audio stream) become tunes. Everything else is refused
 * with a sentence saying why (not audio; a format the Karma cannot play such
 * as AAC, MP2 or Opus; too small; damaged or truncated; unreadable), unless
 * KM_IMPORT_TAXI_FALLBACK asks to keep such a file as a "taxi" data object.
 *
 * A tune gets: type=tune, codec, title (the file name without its extension
 * when the file has no title tag), artist, source (the album), genre, year
 * (four digits), tracknr (1-255), length (file size), duration (ms),
 * samplerate (Hz), bitrate ("fs" or "vs" + kbit/s), offset (bytes of a leading
 * ID3v2 tag), trailer (bytes of trailing tags), ctime and fid_generation (the
 * time of the import, as libkarma does at upload), rid and an empty profile.
 * A tag that is absent or blank is left out (smalldb stores it as "").
 * The fid is not set: the library allocates it.
 *
 * Where this differs from libkarma 0.1.2 (riocp), on purpose:
 * - the untagged title drops the extension ("Song", not "Song.mp3"), and
 *   absent artist, album and genre stay absent (riocp writes "unTagged");
 * - trailer is written: 128 for an ID3v1 tag, plus the size of an APE tag
 *   (v1 or v2, as MP3 taggers append) in front of it or at the end of the
 *   file: neither is audio. riocp writes no trailer (but hashes as if
 *   trailer were 128 for an ID3v1 tag);
 * - fs/vs tells constant from variable bitrate: MP3 with a Xing or VBRI
 *   header is vs, other MP3 and WAV and WMA are fs, Ogg and FLAC always vs;
 *   riocp's choice for MP3 does not follow the stream (a CBR file can come
 *   out vs, a VBR one fs with the first frame's rate). As libkarma, the
 *   number stops at 999 (libkarma writes fs999 for WAV);
 * - duration comes from the stream headers to the millisecond (riocp: whole
 *   seconds from TagLib, or file size / bitrate for MP3);
 * - file_id (riocp copies the track number there) and bpm (riocp's file mode
 *   of a taxi) are not written.
 * rid is computed exactly as libkarma's lk_generate_rid does (see km-import.c),
 * so the same file has the same rid whoever uploaded it, except for the rare
 * files with an APE tag or an ID3v2 footer, whose audio region libkarma
 * takes to include them.
 *
 * TagLib's C binding reads the tags. km_import_file() switches it, once for
 * the process, to UTF-8 strings that the caller frees (not TagLib's global
 * string list, which is not safe with two threads).
 */
#ifndef KM_IMPORT_H
#define KM_IMPORT_H

#include "km-properties.h"

G_BEGIN_DECLS

#define KM_IMPORT_ERROR (km_import_error_quark())
GQuark km_import_error_quark(void);
typedef enum {
	KM_IMPORT_ERROR_READ,		/* cannot open or read the file, or not a regular file */
	KM_IMPORT_ERROR_TOO_LARGE,	/* 4 GiB or more: no Karma file can hold it */
	KM_IMPORT_ERROR_TOO_SMALL,	/* 128 bytes or less (libkarma refuses those too) */
	KM_IMPORT_ERROR_NOT_AUDIO,	/* no audio format recognised */
	KM_IMPORT_ERROR_UNSUPPORTED,	/* what the Karma cannot play: AAC, MP2, Opus, video, DRM… */
	KM_IMPORT_ERROR_DAMAGED,	/* a supported format, but truncated or malformed */
} KmImportError;

typedef enum {
	KM_IMPORT_FLAGS_NONE = 0,
	/*
	 * Keep a file that is no playable tune (any error but READ and
	 * TOO_LARGE) as a data object: type=taxi, codec=taxi, title = the file
	 * name, length, duration=0, offset=0, ctime, fid_generation, rid.
	 */
	KM_IMPORT_TAXI_FALLBACK = 1 << 0,
} KmImportFlags;

/* The largest file a Karma object can hold (OMFS and smalldb keep 32-bit sizes). */
#define KM_IMPORT_MAX_SIZE G_GUINT64_CONSTANT(0xffffffff)
/* A tune must be larger than this (libkarma: "tune file is too small"). */
#define KM_IMPORT_MIN_TUNE_SIZE 128

/*
 * The properties of the object for the file at path (a host file name,
 * in the file system's encoding), or NULL and an error whose message names
 * the file and the reason.
 */
KmProperties *km_import_file(const char *path, KmImportFlags flags, GError **error);

/*
 * Whether the Karma plays the file at path as it is (the probe of
 * km_import_file(), without the tags and the rid): FALSE with the error
 * km_import_file() would give. The import converts files refused with
 * NOT_AUDIO or UNSUPPORTED (km-import-convert.h).
 */
gboolean km_import_playable(const char *path, GError **error);

/*
 * The identity of a source file an import converts (docs/KARMA.md §11.1):
 * its size in hex, '-', and the rid of the whole file (as if it had no
 * tags). NULL with a READ or TOO_LARGE error.
 */
char *km_import_source_id(const char *path, GError **error);

G_END_DECLS

#endif
