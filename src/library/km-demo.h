/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-demo.h - the demo player's music: generated tracks with real audio (a
 * short WAV tone) and real tags (RIFF INFO), so that anyone can try Karma
 * Manager and karmactl without the hardware. The names exercise the awkward
 * cases: leading "The ", accents, quotes and backslashes.
 */
#ifndef KM_DEMO_H
#define KM_DEMO_H

#include "km-transaction.h"

G_BEGIN_DECLS

#define KM_DEMO_MAX_TRACKS 1000
/* The demo player's disk: room for its tracks and for the user's own. */
#define KM_DEMO_IMAGE_SIZE ((guint64)256 << 20)

/* Track i (any number) as the bytes of a WAV file. */
GBytes *km_demo_track_wav(guint i);

/* Imports tracks 0 .. n-1 into tx; cancellable between tracks. */
gboolean km_demo_add_tracks(KmTransaction *tx, guint n, GCancellable *cancellable,
			    GError **error);

/*
 * A whole Karma disk image (km-karma-image.h) of size bytes holding n demo
 * tracks, committed in one transaction. On failure the image is removed.
 */
gboolean km_demo_create_image(const char *path, guint64 size, guint n,
			      GCancellable *cancellable, GError **error);

G_END_DECLS

#endif
