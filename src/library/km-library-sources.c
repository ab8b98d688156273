/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-sources.c - var/km-sources on the player (docs/KARMA.md
 * §11.1): read at open, looked up by an import that converts, rewritten by
 * the commit of a transaction that added converted tracks.
 *
 * An entry counts only while its fid is a tune with the rid it had when it
 * was added: the file is written before the commit's journal (a cut may
 * leave entries for tracks that never were), and it is not rewritten when
 * tracks are removed. Such stale entries are dropped at the next rewrite.
 */
#include "km-library-private.h"

#include <string.h>

#include "km-sources.h"

#define SOURCES_PATH KM_VAR "/" KM_SOURCES_NAME

void km_library_load_sources(KmLibrary *lib)
{
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(GError) local = NULL;
	GHashTable *sources;
	guint bad_lines = 0;
	uint64_t ino;

	if (!km_files_lookup(lib, lib->var_ino, KM_SOURCES_NAME, &ino, &local)) {
		km_library_warn(lib, "%s cannot be read: %s", SOURCES_PATH, local->message);
		return;
	}
	if (ino == OMFS_NIL)
		return;
	bytes = km_files_read(lib, ino, KM_SOURCES_MAX_SIZE, SOURCES_PATH, &local);
	sources = bytes ? km_sources_parse(bytes, &bad_lines, &local) : NULL;
	if (!sources) {
		km_library_warn(lib, "%s was ignored (%s): files converted before may be "
				"converted again", SOURCES_PATH, local->message);
		return;
	}
	if (bad_lines)
		km_library_warn(lib, "%s: %u lines that are no source were ignored", SOURCES_PATH,
				bad_lines);
	g_hash_table_unref(lib->sources);
	lib->sources = sources;
}

gboolean km_source_matches(const KmSource *source, const KmProperties *object)
{
	const char *rid = object ? km_properties_get(object, "rid") : NULL;

	return rid && strcmp(rid, source->rid) == 0 &&
	       km_properties_get_object_type(object) == KM_OBJECT_TUNE;
}

/* The committed entries still true, with extra's added. */
static GHashTable *merged_sources(KmLibrary *lib, GHashTable *extra)
{
	GHashTable *merged = km_sources_new();
	GHashTableIter iter;
	gpointer id, value;

	g_hash_table_iter_init(&iter, lib->sources);
	while (g_hash_table_iter_next(&iter, &id, &value)) {
		const KmSource *source = value;

		if (km_source_matches(source, g_hash_table_lookup(lib->objects,
								  GUINT_TO_POINTER(source->fid))))
			km_sources_insert(merged, id, source->fid, source->rid);
	}
	g_hash_table_iter_init(&iter, extra);
	while (g_hash_table_iter_next(&iter, &id, &value)) {
		const KmSource *source = value;

		km_sources_insert(merged, id, source->fid, source->rid);
	}
	return merged;
}

GHashTable *km_library_write_sources(KmLibrary *lib, GHashTable *extra, GError **error)
{
	g_autoptr(GHashTable) merged = merged_sources(lib, extra);
	g_autoptr(GBytes) bytes = km_sources_build(merged);

	if (g_bytes_get_size(bytes) > KM_SOURCES_MAX_SIZE) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_FULL,
			    "%s would hold more than %u bytes", SOURCES_PATH, KM_SOURCES_MAX_SIZE);
		return NULL;
	}
	if (!km_files_replace(lib, lib->var_ino, KM_SOURCES_NAME, bytes, SOURCES_PATH, error))
		return NULL;
	return g_steal_pointer(&merged);
}

gboolean km_library_find_source(KmLibrary *lib, const char *id, guint32 *fid)
{
	const KmSource *source = g_hash_table_lookup(lib->sources, id);

	if (!source || !km_source_matches(source, g_hash_table_lookup(
				  lib->objects, GUINT_TO_POINTER(source->fid))))
		return FALSE;
	*fid = source->fid;
	return TRUE;
}
