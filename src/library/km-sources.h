/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-sources.h - var/km-sources, the sources of converted tracks
 * (docs/KARMA.md §11.1): which host file (by km_import_source_id()) became
 * which track, so that adding the same file again is a duplicate although
 * its converted bytes differ. Parsing and building only; the library reads
 * and writes the file (km-library-sources.c).
 *
 * The file is read from the player, so it is untrusted: a line that is not
 * "ID FID RID" is skipped and counted, the header must be there, and the
 * file is at most KM_SOURCES_MAX_SIZE bytes.
 */
#ifndef KM_SOURCES_H
#define KM_SOURCES_H

#include <glib.h>

G_BEGIN_DECLS

#define KM_SOURCES_NAME "km-sources"
#define KM_SOURCES_HEADER "KMSRC1\n"
/* About 90 bytes a line: far more converted tracks than a player holds. */
#define KM_SOURCES_MAX_SIZE (32u << 20)

/* One source: the track it became, and that track's rid when it was added. */
typedef struct {
	guint32 fid;
	char rid[33];
} KmSource;

/* source id (char*) -> KmSource*, both owned. */
GHashTable *km_sources_new(void);
/* Add or replace; id and rid must be valid (km_sources_id_is_valid, 32 hex digits). */
void km_sources_insert(GHashTable *sources, const char *id, guint32 fid, const char *rid);
gboolean km_sources_id_is_valid(const char *id);
/*
 * The sources the file's bytes hold, *bad_lines the lines skipped; NULL
 * with G_IO_ERROR_INVALID_DATA when the header is not there.
 */
GHashTable *km_sources_parse(GBytes *data, guint *bad_lines, GError **error);
/* The file for sources, its lines in id order (the same sources give the same bytes). */
GBytes *km_sources_build(GHashTable *sources);

G_END_DECLS

#endif
