/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-import.c - one host file in, the properties of its Karma object out:
 * the probes (km-import-probe.c) say what the file is, TagLib reads its tags,
 * and the rid is computed here.
 */
#include "km-import-private.h"

#include <glib/gi18n-lib.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "km-property-rules.h"
#include "km-taglib.h"

G_DEFINE_QUARK(km-import-error-quark, km_import_error)

#define RID_CHUNK 65536
#define MD5_LEN 16
/* libkarma caps the kbit/s of the bitrate string at 999 (it writes fs999 for WAV). */
#define MAX_KBPS 999
#define MAX_TRACK 255		/* tracknr is a byte in smalldb */

/* The Karma's codec names (docs/KARMA.md §10). */
static const char *const codec_names[] = {
	[KM_CODEC_MP3] = "mp3",
	[KM_CODEC_VORBIS] = "vorbis",
	[KM_CODEC_FLAC] = "flac",
	[KM_CODEC_WAVE] = "wave",
	[KM_CODEC_WMA] = "wma",
};

/* ---- tags --------------------------------------------------------------- */

/* By content, not by name: TagLib's own choice goes by the file name. */
static TagLib_File_Type taglib_type(KmCodec codec)
{
	switch (codec) {
	case KM_CODEC_VORBIS:
		return TagLib_File_OggVorbis;
	case KM_CODEC_FLAC:
		return TagLib_File_FLAC;
	case KM_CODEC_WMA:
		return TagLib_File_ASF;
	case KM_CODEC_WAVE:	/* its probe reads the tags: never asked */
	case KM_CODEC_MP3:
	default:
		return TagLib_File_MPEG;
	}
}

static char *taglib_take(const struct km_taglib *tl, char *s)
{
	char *copy = g_strdup(s);

	tl->free(s);
	return copy;
}

static gboolean read_taglib(const char *path, KmAudioInfo *info, GError **error)
{
	const char *why;
	const struct km_taglib *tl = km_taglib(&why);
	TagLib_File *file;
	TagLib_Tag *tag;
	const TagLib_AudioProperties *audio;

	if (!tl) {
		km_import_set_error(error, KM_IMPORT_ERROR_READ, "%s", why);
		return FALSE;
	}
	file = tl->file_new_type(path, taglib_type(info->codec));
	if (!file || !tl->file_is_valid(file)) {
		if (file)
			tl->file_free(file);
		km_import_set_error(error, KM_IMPORT_ERROR_DAMAGED,
				    "TagLib cannot read it as %s", codec_names[info->codec]);
		return FALSE;
	}
	tag = tl->file_tag(file);
	if (tag) {
		info->tags.title = taglib_take(tl, tl->tag_title(tag));
		info->tags.artist = taglib_take(tl, tl->tag_artist(tag));
		info->tags.album = taglib_take(tl, tl->tag_album(tag));
		info->tags.genre = taglib_take(tl, tl->tag_genre(tag));
		info->tags.year = tl->tag_year(tag);
		info->tags.track = tl->tag_track(tag);
	}
	/* The stream headers' figures are more precise; TagLib's fill the gaps. */
	audio = tl->file_audioproperties(file);
	if (audio && !info->kbps && tl->audioproperties_bitrate(audio) > 0)
		info->kbps = (guint32)tl->audioproperties_bitrate(audio);
	if (audio && !info->duration_ms && tl->audioproperties_length(audio) > 0)
		info->duration_ms = (guint64)tl->audioproperties_length(audio) * 1000;
	tl->file_free(file);
	return TRUE;
}

/*
 * One line of valid UTF-8 without surrounding blanks, at most
 * KM_PROPERTY_MAX_TEXT bytes (a tag can be megabytes long), or NULL when
 * nothing is left.
 */
static char *clean_text(const char *text)
{
	g_autofree char *valid = NULL;
	char *clean, *p;

	if (!text)
		return NULL;
	valid = g_utf8_make_valid(text, -1);
	for (p = valid; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	g_strstrip(valid);
	clean = km_property_cap_text(valid);
	g_strchomp(clean);
	if (!*clean)
		g_clear_pointer(&clean, g_free);
	return clean;
}

/* The file name without its extension ("Song.mp3" gives "Song"), as UTF-8. */
static char *title_from_name(const char *path)
{
	g_autofree char *name = g_filename_display_basename(path);
	char *dot = strrchr(name, '.');
	char *title;

	if (dot && dot != name)
		*dot = '\0';
	title = clean_text(name);
	return title ? title : g_strdup("?");
}

static void set_text(KmProperties *props, const char *key, const char *text)
{
	g_autofree char *clean = clean_text(text);

	if (clean)
		km_properties_set(props, key, clean);
}

/* ---- rid ---------------------------------------------------------------- */

static gboolean md5_of(const KmImportReader *reader, guint64 pos, gsize len,
		       guint8 digest[MD5_LEN], GError **error)
{
	g_autofree guint8 *buf = g_malloc(RID_CHUNK);
	g_autoptr(GChecksum) md5 = g_checksum_new(G_CHECKSUM_MD5);
	gsize digest_len = MD5_LEN;
	gssize n = km_import_read(reader, pos, buf, MIN(len, RID_CHUNK), error);

	if (n < 0)
		return FALSE;
	g_checksum_update(md5, buf, n);
	g_checksum_get_digest(md5, digest, &digest_len);
	return TRUE;
}

/*
 * libkarma's lk_generate_rid() over [start, end): a region of 64 KiB or more
 * gives MD5(first 64 KiB) ^ MD5(last 64 KiB) ^ MD5(64 KiB at (start+end-64K)/2).
 * A shorter one gives the MD5 of up to 64 KiB from start, to the end of the
 * *file*: libkarma reads that much and hashes what it got, so the trailing
 * tags of a short file count. We do the same, for the same rid.
 */
static gboolean compute_rid(const KmImportReader *reader, guint64 start, guint64 end,
			    char rid[2 * MD5_LEN + 1], GError **error)
{
	guint8 a[MD5_LEN], b[MD5_LEN], c[MD5_LEN];
	guint i;

	if (end - start < RID_CHUNK) {
		if (!md5_of(reader, start, RID_CHUNK, a, error))
			return FALSE;
	} else {
		if (!md5_of(reader, start, RID_CHUNK, a, error) ||
		    !md5_of(reader, end - RID_CHUNK, RID_CHUNK, b, error) ||
		    !md5_of(reader, (start + end - RID_CHUNK) / 2, RID_CHUNK, c, error))
			return FALSE;
		for (i = 0; i < MD5_LEN; i++)
			a[i] ^= b[i] ^ c[i];
	}
	for (i = 0; i < MD5_LEN; i++)
		g_snprintf(rid + 2 * i, 3, "%02x", a[i]);
	return TRUE;
}

/* ---- properties --------------------------------------------------------- */

static void set_common_tail(KmProperties *props, const char *rid)
{
	g_autoptr(GBytes) empty = g_bytes_new_static("", 0);
	guint32 now = (guint32)MIN(g_get_real_time() / G_USEC_PER_SEC, G_MAXUINT32);

	/* As libkarma at upload: both the time now, and an empty profile. */
	km_properties_set_uint(props, "ctime", now);
	km_properties_set_uint(props, "fid_generation", now);
	km_properties_set(props, "rid", rid);
	km_properties_set_blob(props, "profile", empty);
}

static KmProperties *tune_properties(const char *path, const KmImportReader *reader,
				     const KmAudioInfo *info, const char *rid)
{
	KmProperties *props = km_properties_new();
	const KmImportTags *tags = &info->tags;
	g_autofree char *title = clean_text(tags->title);
	g_autofree char *bitrate = NULL;

	km_properties_set(props, "type", "tune");
	km_properties_set(props, "codec", codec_names[info->codec]);
	if (!title)
		title = title_from_name(path);
	km_properties_set(props, "title", title);
	set_text(props, "artist", tags->artist);
	set_text(props, "source", tags->album);
	set_text(props, "genre", tags->genre);
	if (tags->year >= 1000 && tags->year <= 9999)
		km_properties_set_uint(props, "year", tags->year);
	if (tags->track >= 1 && tags->track <= MAX_TRACK)
		km_properties_set_uint(props, "tracknr", tags->track);
	km_properties_set_uint(props, "length", reader->size);
	km_properties_set_uint(props, "duration", MIN(info->duration_ms, G_MAXUINT32));
	km_properties_set_uint(props, "samplerate", info->samplerate);
	if (info->kbps) {
		bitrate = g_strdup_printf("%s%u", info->vbr ? "vs" : "fs", MIN(info->kbps, MAX_KBPS));
		km_properties_set(props, "bitrate", bitrate);
	}
	km_properties_set_uint(props, "offset", info->offset);
	km_properties_set_uint(props, "trailer", info->trailer);
	set_common_tail(props, rid);
	return props;
}

/* As riocp stores a data file: its whole name as the title, and no audio. */
static KmProperties *taxi_properties(const char *path, const KmImportReader *reader,
				     GError **error)
{
	g_autofree char *name = g_filename_display_basename(path);
	g_autofree char *title = clean_text(name);
	char rid[2 * MD5_LEN + 1];
	KmProperties *props;
	guint64 id3v1;

	if (!km_import_id3v1_size(reader, &id3v1, error) ||
	    !compute_rid(reader, 0, reader->size - id3v1, rid, error))
		return NULL;
	props = km_properties_new();
	km_properties_set(props, "type", "taxi");
	km_properties_set(props, "codec", "taxi");
	km_properties_set(props, "title", title ? title : "?");
	km_properties_set_uint(props, "length", reader->size);
	km_properties_set_uint(props, "duration", 0);
	km_properties_set_uint(props, "offset", 0);
	set_common_tail(props, rid);
	return props;
}

/* ---- the file ----------------------------------------------------------- */

static KmProperties *import_tune(const char *path, const KmImportReader *reader,
				 GError **error)
{
	KmAudioInfo info = { 0 };
	char rid[2 * MD5_LEN + 1];
	KmProperties *props = NULL;

	if (reader->size <= KM_IMPORT_MIN_TUNE_SIZE)
		km_import_set_error(error, KM_IMPORT_ERROR_TOO_SMALL,
				    /* Translators: the file's size, then the least a tune has */
				    _("too small for a tune (%llu bytes; a tune needs more than %u)"),
				    (unsigned long long)reader->size, KM_IMPORT_MIN_TUNE_SIZE);
	else if (km_import_probe(reader, &info, error) &&
		 (info.own_tags || read_taglib(path, &info, error)) &&
		 compute_rid(reader, info.audio_start, reader->size - info.trailer, rid, error))
		props = tune_properties(path, reader, &info, rid);
	km_import_tags_clear(&info.tags);
	return props;
}

static KmProperties *import_open_file(const char *path, const KmImportReader *reader,
				      KmImportFlags flags, GError **error)
{
	GError *local = NULL;
	KmProperties *props = import_tune(path, reader, &local);

	if (!props && (flags & KM_IMPORT_TAXI_FALLBACK) &&
	    !g_error_matches(local, KM_IMPORT_ERROR, KM_IMPORT_ERROR_READ)) {
		g_clear_error(&local);
		props = taxi_properties(path, reader, &local);
	}
	if (local)
		g_propagate_error(error, local);
	return props;
}

/* Open path for reading as an import reads it: a regular file a Karma file can hold. */
static gboolean reader_open(const char *path, KmImportReader *reader, GError **error)
{
	struct stat st;

	reader->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (reader->fd < 0) {
		int saved = errno;

		km_import_set_error(error, KM_IMPORT_ERROR_READ, "cannot open it: %s",
				    g_strerror(saved));
		return FALSE;
	}
	if (fstat(reader->fd, &st) < 0) {
		int saved = errno;

		km_import_set_error(error, KM_IMPORT_ERROR_READ, _("cannot read it: %s"),
				    g_strerror(saved));
	} else if (!S_ISREG(st.st_mode)) {
		km_import_set_error(error, KM_IMPORT_ERROR_READ, "not a regular file");
	} else if ((guint64)st.st_size > KM_IMPORT_MAX_SIZE) {
		km_import_set_error(error, KM_IMPORT_ERROR_TOO_LARGE,
				    "%" G_GUINT64_FORMAT " bytes, more than a Karma file can hold "
				    "(4 GiB - 1)", (guint64)st.st_size);
	} else {
		reader->size = (guint64)st.st_size;
		return TRUE;
	}
	close(reader->fd);
	return FALSE;
}

/* The error of a public call, the file's name in front. */
static void propagate_named(const char *path, GError *local, GError **error)
{
	g_autofree char *name = g_filename_display_name(path);

	g_propagate_prefixed_error(error, local, "%s: ", name);
}

KmProperties *km_import_file(const char *path, KmImportFlags flags, GError **error)
{
	KmImportReader reader;
	GError *local = NULL;
	KmProperties *props = NULL;

	g_return_val_if_fail(path, NULL);
	g_return_val_if_fail(!error || !*error, NULL);

	if (reader_open(path, &reader, &local)) {
		props = import_open_file(path, &reader, flags, &local);
		close(reader.fd);
	}
	if (local)
		propagate_named(path, local, error);
	return props;
}

gboolean km_import_playable(const char *path, GError **error)
{
	KmImportReader reader;
	KmAudioInfo info = { 0 };
	GError *local = NULL;

	g_return_val_if_fail(path, FALSE);
	if (reader_open(path, &reader, &local)) {
		if (reader.size <= KM_IMPORT_MIN_TUNE_SIZE)
			km_import_set_error(&local, KM_IMPORT_ERROR_TOO_SMALL,
					    "too small for a tune");
		else
			km_import_probe(&reader, &info, &local);
		km_import_tags_clear(&info.tags);
		close(reader.fd);
	}
	if (!local)
		return TRUE;
	propagate_named(path, local, error);
	return FALSE;
}

char *km_import_source_id(const char *path, GError **error)
{
	KmImportReader reader;
	char rid[2 * MD5_LEN + 1];
	GError *local = NULL;
	char *id = NULL;

	g_return_val_if_fail(path, NULL);
	if (reader_open(path, &reader, &local)) {
		if (compute_rid(&reader, 0, reader.size, rid, &local))
			id = g_strdup_printf("%" G_GINT64_MODIFIER "x-%s", reader.size, rid);
		close(reader.fd);
	}
	if (local)
		propagate_named(path, local, error);
	return id;
}
