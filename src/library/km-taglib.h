/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-taglib.h - TagLib's C binding, loaded (dlopen) when the first file's
 * tags are read, not when the program starts: TagLib brings libstdc++ and
 * its static constructors, which cost karmactl a third of its start
 * (docs/PERFORMANCE.md, "karmactl's start") in every command, most of
 * which never read a tag.
 */
#ifndef KM_TAGLIB_H
#define KM_TAGLIB_H

#include <glib.h>
#include <tag_c.h>

/* The functions of tag_c.h that the import uses, with their own types. */
struct km_taglib {
	__typeof__(taglib_file_new_type) *file_new_type;
	__typeof__(taglib_file_is_valid) *file_is_valid;
	__typeof__(taglib_file_free) *file_free;
	__typeof__(taglib_file_tag) *file_tag;
	__typeof__(taglib_file_audioproperties) *file_audioproperties;
	__typeof__(taglib_tag_title) *tag_title;
	__typeof__(taglib_tag_artist) *tag_artist;
	__typeof__(taglib_tag_album) *tag_album;
	__typeof__(taglib_tag_genre) *tag_genre;
	__typeof__(taglib_tag_year) *tag_year;
	__typeof__(taglib_tag_track) *tag_track;
	__typeof__(taglib_audioproperties_bitrate) *audioproperties_bitrate;
	__typeof__(taglib_audioproperties_length) *audioproperties_length;
	__typeof__(taglib_free) *free;
};

/*
 * TagLib, loaded on the first call (from any thread) and set to hand out
 * UTF-8 strings that the caller frees one by one; NULL with *why (static
 * text) when the library or one of its functions cannot be loaded.
 */
const struct km_taglib *km_taglib(const char **why);

#endif
