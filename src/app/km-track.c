/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-track.c - KmTrack: an immutable snapshot of one tune's properties. */
#include "km-track.h"

struct _KmTrack {
	GObject parent_instance;
	KmProperties *props;
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

KmTrack *km_track_new(const KmProperties *properties)
{
	KmTrack *track = g_object_new(KM_TYPE_TRACK, NULL);

	track->props = km_properties_copy(properties);
	return track;
}

/* A number the player stores as text; 0 when absent or not a number that fits. */
static guint64 get_number(KmTrack *track, const char *key)
{
	guint64 value;

	return km_properties_get_uint(track->props, key, &value) ? value : 0;
}

static guint get_small_number(KmTrack *track, const char *key)
{
	return (guint)MIN(get_number(track, key), G_MAXUINT);
}

guint32 km_track_get_fid(KmTrack *track)
{
	return km_properties_get_fid(track->props);
}

const char *km_track_get_title(KmTrack *track)
{
	const char *title = km_properties_get(track->props, "title");

	return title ? title : "";
}

const char *km_track_get_artist(KmTrack *track)
{
	return km_properties_get(track->props, "artist");
}

const char *km_track_get_album(KmTrack *track)
{
	return km_properties_get(track->props, "source");
}

const char *km_track_get_genre(KmTrack *track)
{
	return km_properties_get(track->props, "genre");
}

guint km_track_get_year(KmTrack *track)
{
	return get_small_number(track, "year");
}

guint km_track_get_track_number(KmTrack *track)
{
	return get_small_number(track, "tracknr");
}

guint64 km_track_get_duration(KmTrack *track)
{
	return get_number(track, "duration");
}

const char *km_track_get_codec(KmTrack *track)
{
	return km_properties_get(track->props, "codec");
}

const char *km_track_get_bitrate(KmTrack *track)
{
	return km_properties_get(track->props, "bitrate");
}

/* "fs128" -> 128: the digits after the two-letter fs/vs prefix (or none). */
guint km_track_get_bitrate_kbps(KmTrack *track)
{
	const char *bitrate = km_track_get_bitrate(track);
	guint64 kbps;

	if (!bitrate)
		return 0;
	while (*bitrate && !g_ascii_isdigit(*bitrate))
		bitrate++;
	if (!g_ascii_string_to_unsigned(bitrate, 10, 0, G_MAXUINT, &kbps, NULL))
		return 0;
	return (guint)kbps;
}

guint km_track_get_play_count(KmTrack *track)
{
	return get_small_number(track, "play_count");
}

guint64 km_track_get_size(KmTrack *track)
{
	return get_number(track, "length");
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
