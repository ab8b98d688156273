/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-progress.h - how far a session job has got: a snapshot handed to the
 * job's progress callback on the main context.
 *
 * The worker reports after every chunk it writes; those reports are merged so
 * that at most one update is pending on the main context at any time (one
 * idle source, as GNOME Disks' local job does): the callback sees the newest
 * snapshot when the main loop gets to it, never a queue of stale ones.
 */
#ifndef KM_PROGRESS_H
#define KM_PROGRESS_H

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct {
	/* The file being copied: its display name (host file, or the track's title). */
	char *file_name;
	/* 0-based index of that file among n_files (n_files when the job is done). */
	guint file_index;
	guint n_files;
	/* Bytes of the current file copied so far, and its size. */
	guint64 file_bytes_done;
	guint64 file_bytes_total;
	/* Bytes of the whole job: done so far, and the total (0 when not known yet). */
	guint64 bytes_done;
	guint64 bytes_total;
	/*
	 * The current file is being converted to one the Karma plays, before
	 * its copy (KM_PHASE_CONVERTING): milliseconds of its audio done, and
	 * its duration. The bytes above are the copy's.
	 */
	gboolean converting;
	guint64 convert_done_ms;
	guint64 convert_total_ms;
	/* what it is converted into while converting: "Ogg Vorbis", "MP3", "FLAC" (static) */
	const char *convert_format;
	/* Bytes per second, averaged over the last few seconds; 0 when not known yet. */
	double rate;
	/* Seconds until the job is done at that rate; -1 when not known. */
	gint64 seconds_left;
} KmProgress;

#define KM_TYPE_PROGRESS (km_progress_get_type())
GType km_progress_get_type(void);
KmProgress *km_progress_copy(const KmProgress *progress);
void km_progress_free(KmProgress *progress);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(KmProgress, km_progress_free)

/* The whole job's fraction done, 0.0 to 1.0 (by bytes, else by files). */
double km_progress_get_fraction(const KmProgress *progress);

G_END_DECLS

#endif
