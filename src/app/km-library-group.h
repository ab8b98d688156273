/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-group.h - an artist or an album in the library tree: its name
 * and the GListStore of what it holds (albums, or KmTrack). Tracks without an
 * artist or album are grouped under "Unknown Artist" / "Unknown Album".
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum {
	KM_LIBRARY_GROUP_ARTIST,
	KM_LIBRARY_GROUP_ALBUM,
} KmLibraryGroupKind;

#define KM_TYPE_LIBRARY_GROUP (km_library_group_get_type())
G_DECLARE_FINAL_TYPE(KmLibraryGroup, km_library_group, KM, LIBRARY_GROUP, GObject)

/* name may be NULL: the group of tracks without one. */
KmLibraryGroup *km_library_group_new(KmLibraryGroupKind kind, const char *name);
/* The name, or NULL for the unknown artist or album. */
const char *km_library_group_get_name(KmLibraryGroup *group);
/* The name as shown ("Unknown Artist" for NULL). */
const char *km_library_group_get_label(KmLibraryGroup *group);
/* Albums of an artist, tracks of an album (owned by the group). */
GListStore *km_library_group_get_children(KmLibraryGroup *group);
/* Appends every track below the group to tracks (new references). */
void km_library_group_collect_tracks(KmLibraryGroup *group, GPtrArray *tracks);

G_END_DECLS
