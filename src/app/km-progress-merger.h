/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-progress-merger.h - one job's progress, from the worker to the main
 * context: the worker reports as often as it likes, the main context sees at
 * most one pending update (one idle source carrying the newest snapshot), as
 * GNOME Disks' local job does. The merger also measures the rate.
 */
#ifndef KM_PROGRESS_MERGER_H
#define KM_PROGRESS_MERGER_H

#include "km-session.h"

G_BEGIN_DECLS

typedef struct _KmProgressMerger KmProgressMerger;

/* The counts a test checks: merged means reports >> dispatches, max_pending 1. */
typedef struct {
	guint64 reports;	/* km_progress_merger_report() calls */
	guint64 dispatches;	/* callbacks run on the main context */
	guint pending;		/* idle sources pending now */
	guint max_pending;	/* most idle sources pending at once */
} KmProgressStats;

/* The rate: samples of (time, bytes done) over the last few seconds, a ring. */
#define KM_RATE_SAMPLES 32
typedef struct {
	gint64 time;		/* monotonic microseconds */
	guint64 bytes;
} KmRateSample;
typedef struct {
	KmRateSample samples[KM_RATE_SAMPLES];
	guint first, n;
} KmRateMeter;
/*
 * bytes done at time now: bytes per second over the last 3 seconds (samples
 * kept 0.1 s apart at least), or 0 when that is not known yet.
 */
double km_rate_meter_add(KmRateMeter *meter, gint64 now, guint64 bytes);

/* A consistent copy of stats (the worker may be writing them). */
void km_progress_stats_get(const KmProgressStats *stats, KmProgressStats *copy);

/* On the main context (context): callback gets session (referenced) and data. */
KmProgressMerger *km_progress_merger_new(GMainContext *context, KmSession *session,
					 KmProgressCallback callback, gpointer data,
					 GDestroyNotify notify, GCancellable *cancellable,
					 KmProgressStats *stats);
/*
 * On the worker: keep a copy of progress (rate and seconds_left filled in
 * here) and make sure one idle source will deliver it.
 */
void km_progress_merger_report(KmProgressMerger *merger, const KmProgress *progress);
/* The job is over: notify runs on the main context after the last update. */
void km_progress_merger_finish(KmProgressMerger *merger);

G_END_DECLS

#endif
