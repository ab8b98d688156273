/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-import-convert.c - conversions ahead of an import's copies (km-import-convert.h). */
#include "km-import-convert.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "km-convert-temp.h"
#include "km-import-walk.h"
#include "km-import.h"
#include "km-library-private.h"

/* How often a wait for a conversion relays its progress and looks at its cancellable. */
#define TAKE_POLL_US (100 * G_TIME_SPAN_MILLISECOND)

typedef enum {
	JOB_WAITING,	/* not started */
	JOB_QUEUED,	/* handed to a converter */
	JOB_DONE,	/* converted (dest) or failed (error) */
	JOB_RELEASED,	/* its file removed */
} JobState;

typedef struct {
	KmConversions *cv;
	guint index;
	KmConvertPlan plan;
	char *source_id;
	GError *problem;	/* why it cannot be converted (a decoder missing) */
	gboolean known;		/* the player has it converted already: not converted ahead */
	JobState state;
	guint64 done_ms;
	char *dest;		/* when converted */
	GError *error;		/* when the conversion failed */
	GCancellable *cancellable;
} Job;

struct _KmConversions {
	GPtrArray *files;	/* KmWalkFile*, a reference */
	Job **jobs;		/* one per file; NULL: not converted */
	KmConvertSettings settings;
	char *folder;		/* the temporary files', made when the first conversion starts */
	GThreadPool *converters;
	guint ahead;		/* conversions queued or done but not yet taken, at most */
	guint in_flight;	/* conversions queued or done, not yet released */
	guint next;		/* the first file not yet considered for converting ahead */
	GMutex lock;		/* state, done_ms, dest, error and in_flight of the jobs */
	GCond changed;
};

static void job_free(Job *job)
{
	g_free(job->source_id);
	g_clear_error(&job->problem);
	g_free(job->dest);
	g_clear_error(&job->error);
	g_clear_object(&job->cancellable);
	g_free(job);
}

/* ---- what to convert: looked at several files at once ---- */

typedef struct {
	KmConversions *cv;
	GCancellable *cancellable;
	guint pending;
} Planning;

/* A file the Karma plays as it is (or that is no audio at all) is not converted. */
static gboolean needs_converting(const char *path)
{
	g_autoptr(GError) error = NULL;

	if (km_import_playable(path, &error))
		return FALSE;
	return g_error_matches(error, KM_IMPORT_ERROR, KM_IMPORT_ERROR_NOT_AUDIO) ||
	       g_error_matches(error, KM_IMPORT_ERROR, KM_IMPORT_ERROR_UNSUPPORTED);
}

static Job *plan_job(KmConversions *cv, guint index, GCancellable *cancellable)
{
	const KmWalkFile *file = cv->files->pdata[index];
	g_autoptr(GError) error = NULL;
	Job *job;

	if (!needs_converting(file->path))
		return NULL;
	job = g_new0(Job, 1);
	job->cv = cv;
	job->index = index;
	if (km_convert_plan(file->path, &cv->settings, &job->plan, cancellable, &error))
		job->source_id = km_import_source_id(file->path, &error);
	if (!job->source_id) {
		gboolean missing = g_error_matches(error, KM_CONVERT_ERROR,
						   KM_CONVERT_ERROR_UNAVAILABLE);

		/* not audio GStreamer knows either: the import's own refusal says it */
		job->problem = missing ? g_steal_pointer(&error) : NULL;
		if (!missing)
			g_clear_pointer(&job, job_free);
	}
	return job;
}

static void plan_one(gpointer index_ptr, gpointer data)
{
	Planning *planning = data;
	KmConversions *cv = planning->cv;
	guint index = GPOINTER_TO_UINT(index_ptr) - 1;
	Job *job = g_cancellable_is_cancelled(planning->cancellable)
			   ? NULL : plan_job(cv, index, planning->cancellable);

	g_mutex_lock(&cv->lock);
	cv->jobs[index] = job;
	planning->pending--;
	g_cond_broadcast(&cv->changed);
	g_mutex_unlock(&cv->lock);
}

static void plan_all(KmConversions *cv, GCancellable *cancellable)
{
	Planning planning = { cv, cancellable, cv->files->len };
	GThreadPool *pool = g_thread_pool_new(plan_one, &planning,
					      (gint)MAX(g_get_num_processors(), 1u), FALSE, NULL);

	for (guint i = 0; i < cv->files->len; i++)
		g_thread_pool_push(pool, GUINT_TO_POINTER(i + 1), NULL);
	g_mutex_lock(&cv->lock);
	while (planning.pending)
		g_cond_wait(&cv->changed, &cv->lock);
	g_mutex_unlock(&cv->lock);
	g_thread_pool_free(pool, FALSE, TRUE);
}

/* The sizes the import counts are the converted sizes. */
static void apply_estimates(KmConversions *cv, KmLibrary *lib, gboolean copy_duplicates)
{
	for (guint i = 0; i < cv->files->len; i++) {
		Job *job = cv->jobs[i];
		guint32 fid;

		if (!job || job->problem)
			continue;
		((KmWalkFile *)cv->files->pdata[i])->size = job->plan.estimated_size;
		job->known = !copy_duplicates && km_library_find_source(lib, job->source_id, &fid);
	}
}

/* ---- converting ---- */

static void on_converter_progress(const KmLibraryProgress *progress, gpointer data)
{
	Job *job = data;

	g_mutex_lock(&job->cv->lock);
	job->done_ms = progress->done;
	g_mutex_unlock(&job->cv->lock);
}

/* "FOLDER/INDEX/NAME.EXT" for the source "…/NAME.SOMETHING". */
static char *dest_name(KmConversions *cv, const Job *job, GError **error)
{
	const KmWalkFile *file = cv->files->pdata[job->index];
	g_autofree char *base = g_path_get_basename(file->path);
	g_autofree char *index = g_strdup_printf("%u", job->index);
	g_autofree char *folder = g_build_filename(cv->folder, index, NULL);
	char *dot = strrchr(base, '.');
	g_autofree char *name = NULL;

	if (dot && dot != base)
		*dot = '\0';
	name = g_strdup_printf("%s.%s", base, km_convert_format_extension(job->plan.format));
	if (g_mkdir(folder, 0700) < 0) {
		int saved = errno;

		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(saved),
			    "cannot make a temporary folder: %s", g_strerror(saved));
		return NULL;
	}
	return g_build_filename(folder, name, NULL);
}

static void convert_one(gpointer job_ptr, gpointer data)
{
	KmConversions *cv = data;
	Job *job = job_ptr;
	const KmWalkFile *file = cv->files->pdata[job->index];
	g_autofree char *dest = NULL;
	GError *error = NULL;

	if (!g_cancellable_set_error_if_cancelled(job->cancellable, &error)) {
		dest = dest_name(cv, job, &error);
		if (dest && !km_convert_file(file->path, &job->plan, dest, on_converter_progress,
					     job, job->cancellable, &error)) {
			g_autofree char *folder = g_path_get_dirname(dest);

			g_rmdir(folder);	/* km_convert_file() removed dest */
			g_clear_pointer(&dest, g_free);
		}
	}
	g_mutex_lock(&cv->lock);
	job->dest = g_steal_pointer(&dest);
	job->error = error;
	job->state = JOB_DONE;
	g_cond_broadcast(&cv->changed);
	g_mutex_unlock(&cv->lock);
}

static void queue_job(KmConversions *cv, Job *job)
{
	job->state = JOB_QUEUED;
	job->cancellable = g_cancellable_new();
	cv->in_flight++;
	g_thread_pool_push(cv->converters, job, NULL);
}

/* Start the conversions of the files from `from` on, up to `ahead` of them in flight. Locked. */
static void queue_ahead(KmConversions *cv, guint from)
{
	if (cv->next < from)
		cv->next = from;
	for (; cv->next < cv->files->len && cv->in_flight < cv->ahead; cv->next++) {
		Job *job = cv->jobs[cv->next];

		if (job && !job->problem && !job->known && job->state == JOB_WAITING)
			queue_job(cv, job);
	}
}

KmConversions *km_conversions_new(KmLibrary *lib, GPtrArray *files,
				  const KmConvertSettings *settings, gboolean copy_duplicates,
				  GCancellable *cancellable)
{
	KmConversions *cv = g_new0(KmConversions, 1);
	guint converters = MAX(g_get_num_processors(), 2u) - 1;

	cv->files = g_ptr_array_ref(files);
	cv->jobs = g_new0(Job *, MAX(files->len, 1u));
	cv->settings = *settings;
	cv->ahead = converters + 1;
	g_mutex_init(&cv->lock);
	g_cond_init(&cv->changed);
	cv->converters = g_thread_pool_new(convert_one, cv, (gint)converters, FALSE, NULL);
	plan_all(cv, cancellable);
	apply_estimates(cv, lib, copy_duplicates);
	return cv;
}

static void remove_converted(KmConversions *cv, Job *job)
{
	g_autofree char *folder = NULL;

	if (!job->dest)
		return;
	folder = g_path_get_dirname(job->dest);
	g_unlink(job->dest);
	g_rmdir(folder);
}

void km_conversions_free(KmConversions *cv)
{
	if (!cv)
		return;
	g_mutex_lock(&cv->lock);
	for (guint i = 0; i < cv->files->len; i++)
		if (cv->jobs[i] && cv->jobs[i]->cancellable)
			g_cancellable_cancel(cv->jobs[i]->cancellable);
	g_mutex_unlock(&cv->lock);
	/* the running ones stop at their next check; the queued ones never start */
	g_thread_pool_free(cv->converters, TRUE, TRUE);
	for (guint i = 0; i < cv->files->len; i++) {
		if (!cv->jobs[i])
			continue;
		remove_converted(cv, cv->jobs[i]);
		job_free(cv->jobs[i]);
	}
	if (cv->folder)
		g_rmdir(cv->folder);
	g_free(cv->folder);
	g_free(cv->jobs);
	g_ptr_array_unref(cv->files);
	g_mutex_clear(&cv->lock);
	g_cond_clear(&cv->changed);
	g_free(cv);
}

static Job *job_at(KmConversions *cv, guint index)
{
	return index < cv->files->len ? cv->jobs[index] : NULL;
}

const KmConvertPlan *km_conversions_plan(KmConversions *cv, guint index)
{
	Job *job = job_at(cv, index);

	return job && !job->problem ? &job->plan : NULL;
}

const char *km_conversions_source_id(KmConversions *cv, guint index)
{
	Job *job = job_at(cv, index);

	return job ? job->source_id : NULL;
}

const GError *km_conversions_problem(KmConversions *cv, guint index)
{
	Job *job = job_at(cv, index);

	return job ? job->problem : NULL;
}

static gboolean make_folder(KmConversions *cv, GError **error)
{
	if (!cv->folder)
		cv->folder = km_convert_temp_folder_new(error);
	return cv->folder != NULL;
}

/* Wait until job is done, relaying its progress; FALSE when cancellable was cancelled. Locked. */
static gboolean wait_done(KmConversions *cv, Job *job, KmProgressFunc progress, gpointer data,
			  GCancellable *cancellable)
{
	while (job->state != JOB_DONE) {
		guint64 done = job->done_ms;

		if (g_cancellable_is_cancelled(cancellable)) {
			g_cancellable_cancel(job->cancellable);
			while (job->state != JOB_DONE)
				g_cond_wait(&cv->changed, &cv->lock);
			return FALSE;
		}
		g_mutex_unlock(&cv->lock);
		km_progress_report_converting(progress, data, done, job->plan.duration_ms,
					      km_convert_format_title(job->plan.format));
		g_mutex_lock(&cv->lock);
		g_cond_wait_until(&cv->changed, &cv->lock, g_get_monotonic_time() + TAKE_POLL_US);
	}
	return TRUE;
}

const char *km_conversions_take(KmConversions *cv, guint index, KmProgressFunc progress,
				gpointer data, GCancellable *cancellable, GError **error)
{
	Job *job = job_at(cv, index);
	gboolean finished;

	g_return_val_if_fail(job && !job->problem, NULL);
	if (!make_folder(cv, error))
		return NULL;
	g_mutex_lock(&cv->lock);
	if (job->state == JOB_WAITING)
		queue_job(cv, job);
	queue_ahead(cv, index + 1);
	finished = wait_done(cv, job, progress, data, cancellable);
	g_mutex_unlock(&cv->lock);
	if (!finished) {
		g_cancellable_set_error_if_cancelled(cancellable, error);
		return NULL;
	}
	km_progress_report_converting(progress, data, job->plan.duration_ms, job->plan.duration_ms,
				      km_convert_format_title(job->plan.format));
	if (!job->dest)
		g_propagate_error(error, g_error_copy(job->error));
	return job->dest;
}

void km_conversions_release(KmConversions *cv, guint index)
{
	Job *job = job_at(cv, index);

	g_return_if_fail(job);
	g_mutex_lock(&cv->lock);
	if (job->state == JOB_QUEUED) {	/* converted in vain (a duplicate after all) */
		g_cancellable_cancel(job->cancellable);
		while (job->state != JOB_DONE)
			g_cond_wait(&cv->changed, &cv->lock);
	}
	if (job->state == JOB_DONE) {
		remove_converted(cv, job);
		g_clear_pointer(&job->dest, g_free);
		job->state = JOB_RELEASED;
		cv->in_flight--;
	}
	queue_ahead(cv, index + 1);
	g_mutex_unlock(&cv->lock);
}
