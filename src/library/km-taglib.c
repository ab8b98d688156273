/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-taglib.c - TagLib's C binding, loaded when first needed (km-taglib.h). */
#include "km-taglib.h"

#include <dlfcn.h>

/* KM_TAGLIB_SONAME: the soname of the libtag_c built against (src/library/meson.build). */

static struct km_taglib taglib;
static const char *load_error;

/* Every function of struct km_taglib, or FALSE (load_error says which is missing). */
static gboolean resolve(void *lib)
{
#define RESOLVE(field, name)                                            \
	do {                                                            \
		*(void **)&taglib.field = dlsym(lib, name);            \
		if (!taglib.field) {                                    \
			load_error = "TagLib's C library lacks " name; \
			return FALSE;                                   \
		}                                                       \
	} while (0)
	RESOLVE(file_new_type, "taglib_file_new_type");
	RESOLVE(file_is_valid, "taglib_file_is_valid");
	RESOLVE(file_free, "taglib_file_free");
	RESOLVE(file_tag, "taglib_file_tag");
	RESOLVE(file_audioproperties, "taglib_file_audioproperties");
	RESOLVE(tag_title, "taglib_tag_title");
	RESOLVE(tag_artist, "taglib_tag_artist");
	RESOLVE(tag_album, "taglib_tag_album");
	RESOLVE(tag_genre, "taglib_tag_genre");
	RESOLVE(tag_year, "taglib_tag_year");
	RESOLVE(tag_track, "taglib_tag_track");
	RESOLVE(audioproperties_bitrate, "taglib_audioproperties_bitrate");
	RESOLVE(audioproperties_length, "taglib_audioproperties_length");
	RESOLVE(free, "taglib_free");
#undef RESOLVE
	return TRUE;
}

/*
 * UTF-8 strings that the caller frees one by one: TagLib's own list of
 * strings (taglib_tag_free_strings) is global and would free another
 * thread's.
 */
static gboolean set_up(void *lib)
{
	__typeof__(taglib_set_strings_unicode) *unicode = dlsym(lib, "taglib_set_strings_unicode");
	__typeof__(taglib_set_string_management_enabled) *managed =
		dlsym(lib, "taglib_set_string_management_enabled");

	if (!unicode || !managed) {
		load_error = "TagLib's C library lacks its string settings";
		return FALSE;
	}
	unicode(TRUE);
	managed(FALSE);
	return TRUE;
}

static gboolean load(void)
{
	/* Never closed: TagLib's objects and strings live as long as the program. */
	void *lib = dlopen(KM_TAGLIB_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!lib) {
		load_error = "TagLib's C library (" KM_TAGLIB_SONAME ") cannot be loaded";
		return FALSE;
	}
	return resolve(lib) && set_up(lib);
}

const struct km_taglib *km_taglib(const char **why)
{
	static gsize state;	/* 0 until loaded or failed, then 1 + loaded */

	if (g_once_init_enter(&state))
		g_once_init_leave(&state, 1 + load());
	*why = load_error;
	return state == 2 ? &taglib : NULL;
}
