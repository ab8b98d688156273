/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-progress.h - how far a long library call has got, one type for
 * them all: an import's or an export's copy of each file, a backup's and a
 * restore's passes over the disk. The faces say the phase in their own
 * words (the app translated, karmactl in English).
 */
#ifndef KM_LIBRARY_PROGRESS_H
#define KM_LIBRARY_PROGRESS_H

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
	KM_PHASE_COPYING,	/* a file's data, to the player (import) or from it (export) */
	KM_PHASE_READING,	/* a backup reads the disk */
	KM_PHASE_CHECKING,	/* the image's checksum is checked (a restore, a resumed backup) */
	KM_PHASE_WRITING,	/* a restore writes the disk */
	KM_PHASE_VERIFYING,	/* a restore reads back what it wrote */
	KM_PHASE_CONVERTING,	/* a file the Karma cannot play is converted (done, total: ms of audio) */
} KmPhase;

typedef struct {
	KmPhase phase;
	guint64 done;		/* bytes of the current file or pass handled so far (CONVERTING: ms) */
	guint64 total;		/* bytes it has (0 when unknown) */
	/* CONVERTING: the target format's title (km_convert_format_title(), static); else NULL */
	const char *format;
} KmLibraryProgress;

/* Called on the caller's thread, between chunks; progress is valid during the call. */
typedef void (*KmProgressFunc)(const KmLibraryProgress *progress, gpointer user_data);

/* Call func (when there is one) with these figures. */
static inline void km_progress_report(KmProgressFunc func, gpointer user_data, KmPhase phase,
				      guint64 done, guint64 total)
{
	KmLibraryProgress progress = { phase, done, total, NULL };

	if (func)
		func(&progress, user_data);
}

/* The same for KM_PHASE_CONVERTING: done and total in ms of audio, into format (its title). */
static inline void km_progress_report_converting(KmProgressFunc func, gpointer user_data,
						 guint64 done_ms, guint64 total_ms,
						 const char *format)
{
	KmLibraryProgress progress = { KM_PHASE_CONVERTING, done_ms, total_ms, format };

	if (func)
		func(&progress, user_data);
}

G_END_DECLS

#endif
