/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-karma-image.h - a whole Karma disk in an image file, as the player's own
 * disk is laid out: the partition label, a small system partition and the
 * music partition with an empty library. The demo player and `karmactl
 * mkkarma` make their disks with it.
 */
#ifndef KM_KARMA_IMAGE_H
#define KM_KARMA_IMAGE_H

#include <glib.h>

G_BEGIN_DECLS

/* Room for the music partition's metadata and a few tracks. */
#define KM_KARMA_IMAGE_MIN_SIZE ((guint64)32 << 20)
/* The music partition starts at 16 MiB: `--offset 16M` reaches it directly. */
#define KM_KARMA_IMAGE_MUSIC_OFFSET ((guint64)16 << 20)

/*
 * Creates (or replaces) the sparse image path of size bytes (rounded down to
 * whole sectors; KM_KARMA_IMAGE_MIN_SIZE at least, and no more sectors than
 * the label can count). timestamp: Unix seconds for the empty smalldb.
 */
gboolean km_karma_image_create(const char *path, guint64 size, guint32 timestamp,
			       GError **error);

G_END_DECLS

#endif
