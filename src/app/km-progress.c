/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-progress.c - KmProgress snapshots, and the merger that carries them from
 * the worker to the main context with at most one idle source pending.
 */
#include "km-progress-merger.h"

/* The rate is averaged over this window, from samples at least this far apart. */
#define RATE_WINDOW_US (3 * G_USEC_PER_SEC)
#define RATE_SAMPLE_US (G_USEC_PER_SEC / 10)

G_DEFINE_BOXED_TYPE(KmProgress, km_progress, km_progress_copy, km_progress_free)

KmProgress *km_progress_copy(const KmProgress *progress)
{
	KmProgress *copy = g_memdup2(progress, sizeof(*progress));

	copy->file_name = g_strdup(progress->file_name);
	return copy;
}

void km_progress_free(KmProgress *progress)
{
	g_free(progress->file_name);
	g_free(progress);
}

double km_progress_get_fraction(const KmProgress *progress)
{
	if (progress->bytes_total)
		return MIN(1.0, (double)progress->bytes_done / (double)progress->bytes_total);
	if (progress->n_files)
		return MIN(1.0, (double)progress->file_index / (double)progress->n_files);
	return 0.0;
}

struct _KmProgressMerger {
	gatomicrefcount refs;
	GMainContext *context;
	KmSession *session;
	KmProgressCallback callback;
	gpointer data;
	GDestroyNotify notify;
	GCancellable *cancellable;
	KmProgressStats *stats;	/* the session's, for tests; written under lock */

	KmRateMeter rate;	/* worker only */

	GMutex lock;		/* guards what follows */
	KmProgress *pending;	/* the newest snapshot not yet delivered */
	gboolean idle_pending;	/* an idle source will deliver it */
};

static GMutex stats_lock;

void km_progress_stats_get(const KmProgressStats *stats, KmProgressStats *copy)
{
	g_mutex_lock(&stats_lock);
	*copy = *stats;
	g_mutex_unlock(&stats_lock);
}

KmProgressMerger *km_progress_merger_new(GMainContext *context, KmSession *session,
					 KmProgressCallback callback, gpointer data,
					 GDestroyNotify notify, GCancellable *cancellable,
					 KmProgressStats *stats)
{
	KmProgressMerger *merger = g_new0(KmProgressMerger, 1);

	g_atomic_ref_count_init(&merger->refs);
	merger->context = g_main_context_ref(context);
	merger->session = g_object_ref(session);
	merger->callback = callback;
	merger->data = data;
	merger->notify = notify;
	merger->cancellable = cancellable ? g_object_ref(cancellable) : NULL;
	merger->stats = stats;
	g_mutex_init(&merger->lock);
	return merger;
}

static KmProgressMerger *merger_ref(KmProgressMerger *merger)
{
	g_atomic_ref_count_inc(&merger->refs);
	return merger;
}

/* The last reference goes on the main context (idle sources, the job's end). */
static void merger_unref(gpointer data)
{
	KmProgressMerger *merger = data;

	if (!g_atomic_ref_count_dec(&merger->refs))
		return;
	g_clear_pointer(&merger->pending, km_progress_free);
	g_mutex_clear(&merger->lock);
	g_clear_object(&merger->cancellable);
	g_object_unref(merger->session);
	g_main_context_unref(merger->context);
	g_free(merger);
}

/* The last sample, then the one now if the last is old enough; the rate from the oldest kept. */
double km_rate_meter_add(KmRateMeter *meter, gint64 now, guint64 bytes)
{
	KmRateSample *last, *oldest;

	while (meter->n > 1 && now - meter->samples[meter->first].time > RATE_WINDOW_US) {
		meter->first = (meter->first + 1) % KM_RATE_SAMPLES;
		meter->n--;
	}
	last = &meter->samples[(meter->first + meter->n + KM_RATE_SAMPLES - 1) % KM_RATE_SAMPLES];
	if (meter->n == 0 || now - last->time >= RATE_SAMPLE_US) {
		if (meter->n == KM_RATE_SAMPLES) {
			meter->first = (meter->first + 1) % KM_RATE_SAMPLES;
			meter->n--;
		}
		last = &meter->samples[(meter->first + meter->n) % KM_RATE_SAMPLES];
		*last = (KmRateSample){ now, bytes };
		meter->n++;
	}
	oldest = &meter->samples[meter->first];
	if (now - oldest->time < RATE_SAMPLE_US || bytes < oldest->bytes)
		return 0.0;
	return (double)(bytes - oldest->bytes) * G_USEC_PER_SEC / (double)(now - oldest->time);
}

static gboolean deliver(gpointer data)
{
	KmProgressMerger *merger = data;
	KmProgress *progress;

	g_mutex_lock(&merger->lock);
	progress = g_steal_pointer(&merger->pending);
	merger->idle_pending = FALSE;
	g_mutex_unlock(&merger->lock);

	g_mutex_lock(&stats_lock);
	merger->stats->dispatches++;
	merger->stats->pending--;
	g_mutex_unlock(&stats_lock);
	if (progress && !g_cancellable_is_cancelled(merger->cancellable))
		merger->callback(merger->session, progress, merger->data);
	g_clear_pointer(&progress, km_progress_free);
	return G_SOURCE_REMOVE;
}

/* Below the redraw priority: progress never delays drawing, one update per frame at most. */
static void attach_idle(KmProgressMerger *merger, GSourceFunc func)
{
	GSource *source = g_idle_source_new();

	g_source_set_priority(source, G_PRIORITY_DEFAULT_IDLE);
	g_source_set_callback(source, func, merger_ref(merger), merger_unref);
	g_source_set_static_name(source, "[km] progress");
	g_source_attach(source, merger->context);
	g_source_unref(source);
}

void km_progress_merger_report(KmProgressMerger *merger, const KmProgress *progress)
{
	KmProgress *copy = km_progress_copy(progress);
	gboolean attach;

	copy->rate = km_rate_meter_add(&merger->rate, g_get_monotonic_time(), progress->bytes_done);
	copy->seconds_left = -1;
	if (copy->rate > 0 && copy->bytes_total >= copy->bytes_done)
		copy->seconds_left = (gint64)((double)(copy->bytes_total - copy->bytes_done) /
					      copy->rate + 0.5);

	g_mutex_lock(&merger->lock);
	g_clear_pointer(&merger->pending, km_progress_free);
	merger->pending = copy;
	attach = !merger->idle_pending;
	merger->idle_pending = TRUE;
	g_mutex_unlock(&merger->lock);

	g_mutex_lock(&stats_lock);
	merger->stats->reports++;
	if (attach) {
		merger->stats->pending++;
		merger->stats->max_pending = MAX(merger->stats->max_pending,
						 merger->stats->pending);
	}
	g_mutex_unlock(&stats_lock);
	if (attach)
		attach_idle(merger, deliver);
}

static gboolean notify_done(gpointer data)
{
	KmProgressMerger *merger = data;

	if (merger->notify)
		merger->notify(merger->data);
	return G_SOURCE_REMOVE;
}

void km_progress_merger_finish(KmProgressMerger *merger)
{
	attach_idle(merger, notify_done);
	merger_unref(merger);
}
