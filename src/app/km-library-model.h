/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-model.h - the library tree's top level: a session's flat list
 * of KmTrack grouped by artist, then album (KmLibraryGroup), kept up to date
 * as the list changes. Artists and albums are in name order, tracks in
 * track-number order; the column view sorts on top of that.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define KM_TYPE_LIBRARY_MODEL (km_library_model_get_type())
G_DECLARE_FINAL_TYPE(KmLibraryModel, km_library_model, KM, LIBRARY_MODEL, GObject)

/* tracks: a GListModel of KmTrack (a reference is kept). */
KmLibraryModel *km_library_model_new(GListModel *tracks);
/* The artists, a GListModel of KmLibraryGroup (owned by the model). */
GListModel *km_library_model_get_artists(KmLibraryModel *self);

G_END_DECLS
