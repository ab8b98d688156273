/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-export-private.h - what the export files share (km-export-tracks.c,
 * km-export-playlist.c).
 */
#ifndef KM_EXPORT_PRIVATE_H
#define KM_EXPORT_PRIVATE_H

#include <glib.h>

G_BEGIN_DECLS

/* len bytes of data to fd, retrying short writes; the error names path. */
gboolean km_export_write_all(int fd, const guint8 *data, gsize len, const char *path,
			     GError **error);

G_END_DECLS

#endif
