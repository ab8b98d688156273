/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-add.c - the job that copies host files to the player: the
 * library's import (km_library_import, karmactl add's too: walk, probe,
 * duplicate and room checks, copy, commits) run on the worker, committing
 * in batches so that tracks appear as they land and a failure loses at
 * most the batch in flight; files the Karma cannot play converted as the
 * session said when the job was queued. This file only turns its callbacks
 * into the job's progress and report, and the per-item cancellables into
 * the import's per-root ones.
 */
#include "km-session-private.h"

#include <glib/gi18n.h>

#include "km-library-import.h"
#include "km-playlist-import.h"

/*
 * A batch: at least 8 files; the first, half the library's objects or 2
 * seconds of copying, whichever comes first; the later ones, 8 times what
 * the last commit took. So tracks appear soon, and commits take at most
 * about a ninth of the time however big the library: adding stays linear in
 * the files (KmImportBatching).
 */
#define ADD_BATCH_FILES 8
#define ADD_BATCH_US (2 * G_USEC_PER_SEC)
#define ADD_BATCH_LIBRARY_SHARE 2
#define ADD_BATCH_COMMIT_RATIO 8

typedef struct {
	GPtrArray *roots;	/* GFile* */
	GPtrArray *cancellables;	/* GCancellable* or NULL, one per root */
	KmAddFlags flags;
	gboolean is_list;	/* roots holds one playlist file, made a playlist */
	gboolean converts;	/* the session's conversion when the job was queued */
	KmConvertSettings convert;

	/* worker */
	KmProgress progress;
	guint64 bytes_before;	/* bytes of the files copied before the current one */
	KmJob *job;
} AddJob;

/* An item without a cancellable holds NULL. */
static void unref_if_set(gpointer object)
{
	if (object)
		g_object_unref(object);
}

static void add_job_free(gpointer data)
{
	AddJob *add = data;

	g_ptr_array_unref(add->roots);
	g_ptr_array_unref(add->cancellables);
	g_free(add->progress.file_name);
	g_free(add);
}

static void report_file(KmReport *report, const KmWalkFile *file, guint32 fid,
			KmItemOutcome outcome, const char *reason)
{
	g_autoptr(GFile) gfile = g_file_new_for_path(file->path);

	km_report_add(report, gfile, fid, outcome, reason);
}

static void on_walk_problem(const char *path, guint root, gboolean is_root,
			    KmWalkProblem problem, const char *message, gpointer data)
{
	AddJob *add = data;
	g_autoptr(GFile) file = g_file_new_for_path(path);

	if (problem == KM_WALK_NOT_REGULAR)
		km_report_add(add->job->report, file, 0, KM_ITEM_UNSUPPORTED,
			      _("Not a regular file"));
	else if (problem == KM_WALK_TOO_DEEP)
		km_report_add(add->job->report, file, 0, KM_ITEM_FAILED,
			      _("Folders nested too deep"));
	else	/* unreadable (the walk is recursive: a folder is no problem) */
		km_report_add(add->job->report, file, 0, KM_ITEM_FAILED, message);
}

static void on_walked(GPtrArray *files, guint64 total, gpointer data)
{
	AddJob *add = data;

	add->progress.n_files = files->len;
	add->progress.bytes_total = total;
}

static void on_begin(const KmWalkFile *file, guint index, gpointer data)
{
	AddJob *add = data;

	km_worker_report_file(add->job, &add->progress, g_filename_display_basename(file->path),
			      index, file->size, add->bytes_before);
}

/* The copy's bytes, or (CONVERTING) the ms of audio converted while the copy waits. */
static void on_copied(const KmLibraryProgress *p, gpointer data)
{
	AddJob *add = data;

	if (p->phase == KM_PHASE_CONVERTING)
		km_worker_report_converting(add->job, &add->progress, p->done, p->total, p->format);
	else
		km_worker_report_copied(add->job, &add->progress, add->bytes_before, p->done);
}

/* The total counted the file's estimated size: its real one now, so that the time left holds. */
static void on_converted(const KmWalkFile *file, guint index, guint64 estimate, gpointer data)
{
	AddJob *add = data;
	KmProgress *p = &add->progress;
	guint64 with_real = p->bytes_total + file->size;

	p->bytes_total = with_real - MIN(estimate, with_real);
	if (index == p->file_index)
		p->file_bytes_total = file->size;
}

/* How the report says a file the import did not add (FAILED, NO_ROOM, NOT_TRIED). */
static KmItemOutcome item_outcome(const KmImportFileResult *r)
{
	if (g_error_matches(r->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return KM_ITEM_CANCELLED;
	if (r->outcome == KM_IMPORT_NO_ROOM || r->outcome == KM_IMPORT_NOT_TRIED)
		return KM_ITEM_NOT_DONE;
	if (r->error->domain == KM_IMPORT_ERROR &&
	    !g_error_matches(r->error, KM_IMPORT_ERROR, KM_IMPORT_ERROR_READ))
		return KM_ITEM_UNSUPPORTED;	/* the file is no tune the Karma plays */
	return KM_ITEM_FAILED;
}

static void on_done(const KmImportFileResult *r, gpointer data)
{
	AddJob *add = data;
	KmReport *report = add->job->report;
	g_autofree char *reason = NULL;
	const char *title;

	switch (r->outcome) {
	case KM_IMPORT_ADDED:	/* reported when its batch is committed */
		add->bytes_before += r->file->size;
		km_worker_mark_dirty(add->job->session, r->fid);
		return;
	case KM_IMPORT_NOT_SAVED:
		reason = g_strdup_printf(_("Maybe not saved: %s"), r->error->message);
		report_file(report, r->file, 0, KM_ITEM_FAILED, reason);
		return;
	case KM_IMPORT_DUPLICATE:
		title = r->existing ? km_properties_get(r->existing, "title") : NULL;
		reason = g_strdup_printf(_("Already on the player as “%s”"), title ? title : "?");
		report_file(report, r->file, 0, KM_ITEM_DUPLICATE, reason);
		break;
	default:
		report_file(report, r->file, 0, item_outcome(r),
			    item_outcome(r) == KM_ITEM_CANCELLED ? _("Cancelled")
								 : r->error->message);
	}
	/* A file not copied no longer counts in the total. */
	add->progress.bytes_total -= MIN(r->file->size, add->progress.bytes_total);
}

/* The batch's files are on the player for good: their rows go out. */
static void on_committed(KmWalkFile *const *files, guint n_files, gpointer data)
{
	AddJob *add = data;

	km_worker_publish(add->job->session, FALSE);
	for (guint i = 0; i < n_files; i++)
		report_file(add->job->report, files[i], files[i]->fid, KM_ITEM_DONE, NULL);
}

/*
 * The stop, as the session says it: a full player is KM_SESSION_ERROR_FULL
 * (the window offers no retry), a failing player makes the session failed.
 */
static void take_stop(AddJob *add, GError *stop)
{
	if (g_error_matches(stop, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NO_ROOM)) {
		GError *full = g_error_new_literal(KM_SESSION_ERROR, KM_SESSION_ERROR_FULL,
						   stop->message);

		g_error_free(stop);
		stop = full;
	}
	km_worker_check_device(add->job, stop);
	add->job->report->error = stop;
}

/* A list's entry that names no file here: an item of the report. */
static void on_entry_skipped(const KmM3uEntry *entry, gpointer data)
{
	AddJob *add = data;
	g_autoptr(GFile) file = entry->path ? g_file_new_for_path(entry->path) : NULL;
	g_autofree char *reason =
		entry->path ? g_strdup_printf(_("Not found (line %u of the list)"), entry->line)
			    : g_strdup_printf(_("Not a local file (line %u of the list)"), entry->line);

	km_report_add(add->job->report, file, 0, KM_ITEM_FAILED, reason);
}

/* The list made a playlist: its files imported as below, then the playlist shown. */
static void import_list(AddJob *add, KmLibraryImportOptions *options)
{
	KmSession *session = add->job->session;
	g_autofree char *path = g_file_get_path(add->roots->pdata[0]);
	KmPlaylistImportResult pl;
	GError *stop = NULL;

	if (!path) {	/* as import_files() says it of a file */
		km_report_add(add->job->report, add->roots->pdata[0], 0, KM_ITEM_UNSUPPORTED,
			      _("Not a local file"));
		return;
	}
	if (!km_library_import_playlist(km_worker_library(session), path, NULL, options,
					on_entry_skipped, &pl, &stop)) {
		take_stop(add, stop);
		return;
	}
	km_worker_mark_dirty(session, pl.playlist);
	km_worker_publish(session, FALSE);
}

static void import_files(AddJob *add, KmLibraryImportOptions *options)
{
	KmJob *job = add->job;
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) cancellables = g_ptr_array_new();
	GError *stop = NULL;

	/* Only local files can be read (a drop from a network share may give others). */
	for (guint i = 0; i < add->roots->len; i++) {
		char *path = g_file_get_path(add->roots->pdata[i]);

		if (!path)
			km_report_add(job->report, add->roots->pdata[i], 0, KM_ITEM_UNSUPPORTED,
				      _("Not a local file"));
		else {
			g_ptr_array_add(paths, path);
			g_ptr_array_add(cancellables, add->cancellables->pdata[i]);
		}
	}
	options->root_cancellables = (GCancellable *const *)cancellables->pdata;
	if (!km_library_import(km_worker_library(job->session), (const char *const *)paths->pdata,
			       paths->len, options, &stop))
		take_stop(add, stop);
}

static void add_run(KmJob *job)
{
	AddJob *add = job->data;
	KmLibraryImportOptions options = {
		.recursive = TRUE, .flags = KM_IMPORT_FLAGS_NONE,
		.copy_duplicates = (add->flags & KM_ADD_COPY_DUPLICATES) != 0,
		.batching = { ADD_BATCH_FILES, ADD_BATCH_LIBRARY_SHARE, ADD_BATCH_US,
			      ADD_BATCH_COMMIT_RATIO },
		.cancellable = km_job_cancellable(job), .walk_problem = on_walk_problem,
		.walked = on_walked, .begin = on_begin, .progress = on_copied,
		.converted = on_converted, .done = on_done, .committed = on_committed, .data = add,
		.convert = add->converts ? &add->convert : NULL,
	};

	add->job = job;
	job->report = km_report_new();
	if (add->is_list)
		import_list(add, &options);
	else
		import_files(add, &options);
	add->progress.file_index = add->progress.n_files;
	add->progress.file_bytes_done = add->progress.file_bytes_total;
	add->progress.bytes_done = add->bytes_before;
	km_worker_report(job, &add->progress);
	km_job_return_pointer(job, km_report_ref(job->report), (GDestroyNotify)km_report_unref);
}

/* Queue add (its files or its list); both finish with km_session_add_files_finish(). */
static void queue_add(KmSession *session, AddJob *add, KmProgressCallback progress,
		      gpointer progress_data, GDestroyNotify progress_notify,
		      GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
	GTask *task = g_task_new(session, cancellable, callback, user_data);
	KmJob *job;

	g_task_set_source_tag(task, km_session_add_files_async);
	job = km_job_new(task, add_run, KM_JOB_NEEDS_LIBRARY | KM_JOB_CHANGES);
	km_job_set_data(job, add, add_job_free);
	km_job_set_progress(job, progress, progress_data, progress_notify);
	km_session_queue(session, job);
}

/* What the job needs of the session is copied now: the worker never reads the session's. */
static AddJob *add_job_new(KmSession *session, KmAddFlags flags)
{
	AddJob *add = g_new0(AddJob, 1);

	add->roots = g_ptr_array_new_with_free_func(g_object_unref);
	add->cancellables = g_ptr_array_new_with_free_func(unref_if_set);
	add->flags = flags;
	add->converts = km_session_get_conversion(session, &add->convert);
	return add;
}

void km_session_import_playlist_async(KmSession *session, GFile *list, KmAddFlags flags,
				      KmProgressCallback progress, gpointer progress_data,
				      GDestroyNotify progress_notify, GCancellable *cancellable,
				      GAsyncReadyCallback callback, gpointer user_data)
{
	AddJob *add;

	g_return_if_fail(KM_IS_SESSION(session));
	g_return_if_fail(G_IS_FILE(list));
	add = add_job_new(session, flags);
	add->is_list = TRUE;
	g_ptr_array_add(add->roots, g_object_ref(list));
	g_ptr_array_add(add->cancellables, NULL);
	queue_add(session, add, progress, progress_data, progress_notify, cancellable, callback,
		  user_data);
}

void km_session_add_files_async(KmSession *session, GFile *const *files, guint n_files,
				GCancellable *const *item_cancellables, KmAddFlags flags,
				KmProgressCallback progress, gpointer progress_data,
				GDestroyNotify progress_notify, GCancellable *cancellable,
				GAsyncReadyCallback callback, gpointer user_data)
{
	AddJob *add;

	g_return_if_fail(KM_IS_SESSION(session));
	add = add_job_new(session, flags);
	for (guint i = 0; i < n_files; i++) {
		GCancellable *item = item_cancellables ? item_cancellables[i] : NULL;

		g_ptr_array_add(add->roots, g_object_ref(files[i]));
		g_ptr_array_add(add->cancellables, item ? g_object_ref(item) : NULL);
	}
	queue_add(session, add, progress, progress_data, progress_notify, cancellable, callback,
		  user_data);
}

KmReport *km_session_add_files_finish(KmSession *session, GAsyncResult *result, GError **error)
{
	return km_session_report_finish(session, result, km_session_add_files_async, error);
}
