/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-track.c - KmTrack: an immutable snapshot of one tune's properties. */
#include "km-track.h"

/*
 * The fields are read and parsed once, in km_track_new(): sorting and
 * grouping 10,000 tracks call the getters many times per track, and a lookup
 * and parse on each call stalled the main loop. The title's collation key
 * too: tracks are made on the session's worker, and sorted on the main thread. The strings point into props,
 * the track's own copy, which nothing changes.
 */
struct _KmTrack {
	GObject parent_instance;
	KmProperties *props;
	const char *title;
	const char *artist;
	const char *album;
	const char *genre;
	const char *codec;
	const char *bitrate;
	char *title_sort_key;
	guint year;
	guint track_number;
	guint bitrate_kbps;
	guint play_count;
	guint64 duration;
	guint64 size;
};

G_DEFINE_FINAL_TYPE(KmTrack, km_track, G_TYPE_OBJECT)

enum {
	PROP_0,
	PROP_FID,
	PROP_TITLE,
	PROP_ARTIST,
	PROP_ALBUM,
	PROP_GENRE,
	PROP_YEAR,
	PROP_TRACK_NUMBER,
	PROP_DURATION,
	PROP_CODEC,
	PROP_BITRATE,
	PROP_BITRATE_KBPS,
	PROP_PLAY_COUNT,
	PROP_SIZE,
	N_PROPS
};

static GParamSpec *props[N_PROPS];

/* A number the player stores as text; 0 when absent or not a number that fits. */
static guint64 read_number(const KmProperties *properties, const char *key)
{
	guint64 value;

	return km_properties_get_uint(properties, key, &value) ? value : 0;
}

static guint read_small_number(const KmProperties *properties, const char *key)
{
	return (guint)MIN(read_number(properties, key), G_MAXUINT);
}

/* "fs128" -> 128: the digits after the two-letter fs/vs prefix (or none). */
static guint parse_kbps(const char *bitrate)
{
	guint64 kbps;

	if (!bitrate)
		return 0;
	while (*bitrate && !g_ascii_isdigit(*bitrate))
		bitrate++;
	if (!g_ascii_string_to_unsigned(bitrate, 10, 0, G_MAXUINT, &kbps, NULL))
		return 0;
	return (guint)kbps;
}

KmTrack *km_track_new(const KmProperties *properties)
{
	KmTrack *track = g_object_new(KM_TYPE_TRACK, NULL);
	const KmProperties *own = track->props = km_properties_copy(properties);
	const char *title = km_properties_get(own, "title");

	track->title = title ? title : "";
	track->title_sort_key = g_utf8_collate_key(track->title, -1);
	track->artist = km_properties_get(own, "artist");
	track->album = km_properties_get(own, "source");
	track->genre = km_properties_get(own, "genre");
	track->codec = km_properties_get(own, "codec");
	track->bitrate = km_properties_get(own, "bitrate");
	track->year = read_small_number(own, "year");
	track->track_number = read_small_number(own, "tracknr");
	track->bitrate_kbps = parse_kbps(track->bitrate);
	track->play_count = read_small_number(own, "play_count");
	track->duration = read_number(own, "duration");
	track->size = read_number(own, "length");
	return track;
}

guint32 km_track_get_fid(KmTrack *track)
{
	return km_properties_get_fid(track->props);
}

const char *km_track_get_title(KmTrack *track)
{
	return track->title;
}

const char *km_track_get_title_sort_key(KmTrack *track)
{
	return track->title_sort_key;
}

const char *km_track_get_artist(KmTrack *track)
{
	return track->artist;
}

const char *km_track_get_album(KmTrack *track)
{
	return track->album;
}

const char *km_track_get_genre(KmTrack *track)
{
	return track->genre;
}

guint km_track_get_year(KmTrack *track)
{
	return track->year;
}

guint km_track_get_track_number(KmTrack *track)
{
	return track->track_number;
}

guint64 km_track_get_duration(KmTrack *track)
{
	return track->duration;
}

const char *km_track_get_codec(KmTrack *track)
{
	return track->codec;
}

const char *km_track_get_bitrate(KmTrack *track)
{
	return track->bitrate;
}

guint km_track_get_bitrate_kbps(KmTrack *track)
{
	return track->bitrate_kbps;
}

guint km_track_get_play_count(KmTrack *track)
{
	return track->play_count;
}

guint64 km_track_get_size(KmTrack *track)
{
	return track->size;
}

const KmProperties *km_track_get_properties(KmTrack *track)
{
	return track->props;
}

static void km_track_get_property(GObject *object, guint prop_id, GValue *value,
				  GParamSpec *pspec)
{
	KmTrack *track = KM_TRACK(object);

	switch (prop_id) {
	case PROP_FID:
		g_value_set_uint(value, km_track_get_fid(track));
		break;
	case PROP_TITLE:
		g_value_set_string(value, km_track_get_title(track));
		break;
	case PROP_ARTIST:
		g_value_set_string(value, km_track_get_artist(track));
		break;
	case PROP_ALBUM:
		g_value_set_string(value, km_track_get_album(track));
		break;
	case PROP_GENRE:
		g_value_set_string(value, km_track_get_genre(track));
		break;
	case PROP_YEAR:
		g_value_set_uint(value, km_track_get_year(track));
		break;
	case PROP_TRACK_NUMBER:
		g_value_set_uint(value, km_track_get_track_number(track));
		break;
	case PROP_DURATION:
		g_value_set_uint64(value, km_track_get_duration(track));
		break;
	case PROP_CODEC:
		g_value_set_string(value, km_track_get_codec(track));
		break;
	case PROP_BITRATE:
		g_value_set_string(value, km_track_get_bitrate(track));
		break;
	case PROP_BITRATE_KBPS:
		g_value_set_uint(value, km_track_get_bitrate_kbps(track));
		break;
	case PROP_PLAY_COUNT:
		g_value_set_uint(value, km_track_get_play_count(track));
		break;
	case PROP_SIZE:
		g_value_set_uint64(value, km_track_get_size(track));
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
	}
}

static void km_track_finalize(GObject *object)
{
	KmTrack *track = KM_TRACK(object);

	g_clear_pointer(&track->props, km_properties_unref);
	g_clear_pointer(&track->title_sort_key, g_free);
	G_OBJECT_CLASS(km_track_parent_class)->finalize(object);
}

static GParamSpec *string_prop(const char *name)
{
	return g_param_spec_string(name, NULL, NULL, NULL,
				   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
}

static GParamSpec *uint_prop(const char *name)
{
	return g_param_spec_uint(name, NULL, NULL, 0, G_MAXUINT, 0,
				 G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
}

static GParamSpec *uint64_prop(const char *name)
{
	return g_param_spec_uint64(name, NULL, NULL, 0, G_MAXUINT64, 0,
				   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
}

static void km_track_class_init(KmTrackClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);

	object_class->get_property = km_track_get_property;
	object_class->finalize = km_track_finalize;

	props[PROP_FID] = uint_prop("fid");
	props[PROP_TITLE] = string_prop("title");
	props[PROP_ARTIST] = string_prop("artist");
	props[PROP_ALBUM] = string_prop("album");
	props[PROP_GENRE] = string_prop("genre");
	props[PROP_YEAR] = uint_prop("year");
	props[PROP_TRACK_NUMBER] = uint_prop("track-number");
	props[PROP_DURATION] = uint64_prop("duration");
	props[PROP_CODEC] = string_prop("codec");
	props[PROP_BITRATE] = string_prop("bitrate");
	props[PROP_BITRATE_KBPS] = uint_prop("bitrate-kbps");
	props[PROP_PLAY_COUNT] = uint_prop("play-count");
	props[PROP_SIZE] = uint64_prop("size");
	g_object_class_install_properties(object_class, N_PROPS, props);
}

static void km_track_init(KmTrack *track)
{
	(void)track;
}
