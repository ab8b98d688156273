/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-source.h - where a session's blocks come from. A source opens
 * its device on the session's worker (opening can block: a USB player takes
 * seconds to enter storage mode) and hands the library a struct
 * omfs_blockdev; close releases it (for a USB player: leave storage mode).
 *
 * Adding a kind of player is one constructor: its open and close functions
 * and km_session_new_for_source(). Image files are in km-session-source.c,
 * players over USB (libusb, and the simulated Karma of the demo) in
 * km-session-karma.c.
 */
#ifndef KM_SESSION_SOURCE_H
#define KM_SESSION_SOURCE_H

#include "km-session.h"

struct omfs_blockdev;	/* the device layer's (km-image-device.h, km-karma-usb.h) */

/* Room for the sentence a device call writes on failure (cut to fit). */
#define KM_SOURCE_MSG_MAX 320

G_BEGIN_DECLS

typedef struct {
	/*
	 * On the worker: open the device. Slow preparations (the demo image
	 * being made) report with km_session_report_progress() and stop when
	 * cancellable is cancelled. The blockdev belongs to the source and
	 * stays valid until close.
	 */
	const struct omfs_blockdev *(*open)(gpointer data, KmSession *session,
					    GCancellable *cancellable, GError **error);
	/* On the worker, after the library is closed: release the device. */
	gboolean (*close)(gpointer data, GError **error);
	/* On any thread, once: free data (closing first when still open). */
	void (*free)(gpointer data);
} KmSessionSourceFuncs;

/*
 * A session over any source; name is what the window calls the player.
 * funcs must be static; data is the source's own, freed with funcs->free.
 */
KmSession *km_session_new_for_source(const char *name, const KmSessionSourceFuncs *funcs,
				     gpointer data);

/*
 * On the worker, during a job: report its progress (copied, merged, and
 * handed to the job's progress callback on the main context).
 */
void km_session_report_progress(KmSession *session, const KmProgress *progress);
/*
 * A source's open failure as a GError: err (positive errno) and the device
 * layer's sentence. Storage another program holds (EBUSY) says so plainly,
 * with who holds it where known.
 */
void km_session_source_set_error(GError **error, int err, const char *msg);

G_END_DECLS

#endif
