/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-export-provider.h - what a drag of tracks out of the library carries:
 * their fids (KM_TYPE_FID_LIST, for playlists in the app), and the tracks as
 * files (GDK_TYPE_FILE_LIST) for the file manager. The files are exported
 * by the session into a fresh folder under the cache folder, named by the
 * export template, as soon as the drag starts; a receiver asking before
 * they are there gets them when the export is done.
 */
#pragma once

#include <gdk/gdk.h>

#include "km-session.h"

G_BEGIN_DECLS

#define KM_TYPE_EXPORT_PROVIDER (km_export_provider_get_type())
G_DECLARE_FINAL_TYPE(KmExportProvider, km_export_provider, KM, EXPORT_PROVIDER,
		     GdkContentProvider)

/* fids: a KmFidList (km-app-util.h); folder: where the files go (made if needed). */
GdkContentProvider *km_export_provider_new(KmSession *session, GArray *fids, GFile *folder,
					   const char *template);
gboolean km_export_provider_is_ready(KmExportProvider *self);

G_END_DECLS
