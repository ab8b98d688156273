/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-session-backup.c - the backup and restore jobs (km-session-backup.h):
 * the engine (km-backup.h) run on the worker, on the whole disk the source
 * opened, its passes turned into the session's progress.
 */
#include "km-session-private.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <string.h>

#include "km-backup.h"
#include "km-session-backup.h"

/* What both jobs carry: the file or folder, and the progress of their passes. */
typedef struct {
	KmJob *job;
	char *path;		/* the restore's backup; the backup's folder */
	char *player_id;	/* the backup's name and source (copied on the main context) */
	char *stamp;		/* the backup's time in its name: YYYY-MM-DD-HHMM */
	KmProgress progress;
	KmPhase phase;		/* the engine's pass, once started */
	gboolean started;
	guint64 passes_done;	/* bytes of the passes before this one */
	gboolean resumed;
} DiskJob;

static void disk_job_free(gpointer data)
{
	DiskJob *disk = data;

	g_free(disk->path);
	g_free(disk->player_id);
	g_free(disk->stamp);
	g_free(disk);
}

static const char *phase_label(KmPhase phase)
{
	if (phase == KM_PHASE_READING)
		return _("Reading the player");
	if (phase == KM_PHASE_CHECKING)
		return _("Checking the backup");
	if (phase == KM_PHASE_WRITING)
		return _("Writing the player");
	return _("Verifying the player");
}

/*
 * On the worker, from the engine: each pass is one "file" of the job; the
 * job's bytes add the passes up, so the rate (measured on them) never goes
 * back when a new pass starts at 0.
 */
static void report_pass(const KmLibraryProgress *p, gpointer data)
{
	DiskJob *disk = data;
	KmProgress *progress = &disk->progress;

	if (!disk->started || disk->phase != p->phase) {
		if (disk->started) {
			disk->passes_done += progress->file_bytes_total;
			progress->file_index++;
			progress->n_files = progress->file_index + 1;
		}
		disk->phase = p->phase;
		disk->started = TRUE;
		progress->file_name = (char *)phase_label(p->phase);
	}
	progress->file_bytes_done = p->done;
	progress->file_bytes_total = p->total;
	progress->bytes_done = disk->passes_done + p->done;
	progress->bytes_total = disk->passes_done + p->total;
	km_worker_report(disk->job, progress);
}

static KmBackupOptions disk_options(KmJob *job)
{
	DiskJob *disk = job->data;
	KmBackupOptions options = {
		.source = disk->player_id,
		.progress = report_pass,
		.progress_data = disk,
		.cancellable = km_job_cancellable(job),
	};

	disk->job = job;
	disk->progress.n_files = 1;
	return options;
}

/* backup */

/* "Demo Player" -> "Demo-Player": a file name part, whatever the player says. */
static char *file_name_part(const char *id)
{
	GString *part = g_string_new(NULL);

	for (const char *c = id; *c && part->len < 64; c++)
		g_string_append_c(part, g_ascii_isalnum(*c) || *c == '_' ? *c : '-');
	if (part->len == 0)
		g_string_append(part, "player");
	return g_string_free(part, FALSE);
}

/* s begins with YYYY-MM-DD-HHMM. */
static gboolean is_stamp(const char *s)
{
	static const char pattern[] = "dddd-dd-dd-dddd";

	for (guint i = 0; i < sizeof(pattern) - 1; i++)
		if (pattern[i] == 'd' ? !g_ascii_isdigit(s[i]) : s[i] != pattern[i])
			return FALSE;
	return TRUE;
}

/* The newest unfinished backup of this player in the folder, or NULL. */
static char *find_unfinished(const char *folder, const char *prefix)
{
	g_autoptr(GDir) dir = g_dir_open(folder, 0, NULL);
	g_autofree char *best = NULL;
	const char *name;

	while (dir && (name = g_dir_read_name(dir))) {
		if (!g_str_has_prefix(name, prefix) || !g_str_has_suffix(name, ".img.partial") ||
		    !is_stamp(name + strlen(prefix)))
			continue;
		if (!best || strcmp(name, best) > 0) {
			g_free(best);
			best = g_strdup(name);
		}
	}
	if (!best)
		return NULL;
	best[strlen(best) - strlen(".partial")] = '\0';
	return g_build_filename(folder, best, NULL);
}

/* Resume an unfinished backup, else a new name (never an existing file's). */
static char *backup_path(DiskJob *disk)
{
	g_autofree char *part = file_name_part(disk->player_id);
	g_autofree char *prefix = g_strdup_printf("karma-%s-", part);
	char *path = find_unfinished(disk->path, prefix);

	/* two in the same minute: -2, -3…; past 99 the engine refuses the taken name */
	for (guint n = 1; !path; n++) {
		g_autofree char *name = n == 1 ?
			g_strdup_printf("%s%s.img", prefix, disk->stamp) :
			g_strdup_printf("%s%s-%u.img", prefix, disk->stamp, n);

		path = g_build_filename(disk->path, name, NULL);
		if (n < 99 && g_file_test(path, G_FILE_TEST_EXISTS))
			g_clear_pointer(&path, g_free);
	}
	return path;
}

/* Whatever the library still holds goes to the disk before it is read. */
static gboolean flush_library(KmJob *job, GError **error)
{
	if (km_library_flush(km_worker_library(job->session), error))
		return TRUE;
	g_prefix_error(error, _("Writing back the player before the backup failed: "));
	km_worker_check_device(job, *error);
	return FALSE;
}

static void backup_run(KmJob *job)
{
	DiskJob *disk = job->data;
	KmBackupOptions options = disk_options(job);
	KmBackupResult result = { 0 };
	g_autofree char *path = NULL;
	KmBackupEntry *entry = NULL;
	GError *error = NULL;

	if (g_mkdir_with_parents(disk->path, 0755) != 0) {
		int err = errno;

		error = g_error_new(G_IO_ERROR, g_io_error_from_errno(err), "%s: %s", disk->path,
				    g_strerror(err));
	} else if (flush_library(job, &error)) {
		path = backup_path(disk);
		if (km_backup_create(job->session->worker.dev, path, &options, &result, &error))
			entry = km_backup_entry_new_for_path(path, &error);
		else
			km_worker_check_device(job, error);
		disk->resumed = result.resumed_from > 0;
		km_backup_result_clear(&result);
	}
	if (entry)
		km_job_return_pointer(job, entry, g_object_unref);
	else
		km_job_return_error(job, error);
}

void km_session_backup_async(KmSession *session, GFile *folder, KmProgressCallback progress,
			     gpointer progress_data, GDestroyNotify progress_notify,
			     GCancellable *cancellable, GAsyncReadyCallback callback,
			     gpointer user_data)
{
	GTask *task;
	KmJob *job;
	DiskJob *disk;
	g_autoptr(GDateTime) now = g_date_time_new_now_local();

	g_return_if_fail(KM_IS_SESSION(session));
	g_return_if_fail(G_IS_FILE(folder));
	disk = g_new0(DiskJob, 1);
	disk->path = g_file_get_path(folder);
	disk->player_id = g_strdup(km_session_get_player_id(session));
	disk->stamp = g_date_time_format(now, "%Y-%m-%d-%H%M");
	task = g_task_new(session, cancellable, callback, user_data);
	g_task_set_source_tag(task, km_session_backup_async);
	job = km_job_new(task, backup_run, KM_JOB_NEEDS_LIBRARY);
	km_job_set_data(job, disk, disk_job_free);
	km_job_set_progress(job, progress, progress_data, progress_notify);
	km_session_queue(session, job);
}

KmBackupEntry *km_session_backup_finish(KmSession *session, GAsyncResult *result,
					gboolean *resumed, GError **error)
{
	KmJob *job;

	g_return_val_if_fail(km_session_result_is_valid(session, result,
							km_session_backup_async), NULL);
	job = g_task_get_task_data(G_TASK(result));
	if (resumed)
		*resumed = ((DiskJob *)job->data)->resumed;
	return g_task_propagate_pointer(G_TASK(result), error);
}

/* restore */

/* After the restore, done or not: the library again, or the player is incomplete. */
static void reopen_library(KmJob *job, GError **error)
{
	KmWorker *worker = &job->session->worker;
	const KmLibraryOptions options = { .writable = TRUE };

	worker->lib = km_library_open(worker->dev, &options, error && !*error ? error : NULL);
	worker->incomplete = worker->lib == NULL;
	km_session_post_incomplete(job->session, worker->incomplete);
	if (worker->lib)
		km_worker_publish(job->session, TRUE);
}

static void restore_run(KmJob *job)
{
	DiskJob *disk = job->data;
	KmWorker *worker = &job->session->worker;
	KmBackupOptions options = disk_options(job);
	KmRestoreResult result = { 0 };
	GError *error = NULL;

	if (worker->failed || !worker->dev) {
		km_job_return_error(job, g_error_new(KM_SESSION_ERROR, worker->failed ?
						     KM_SESSION_ERROR_FAILED :
						     KM_SESSION_ERROR_NOT_OPEN, "%s",
						     _("The player is not open")));
		return;
	}
	/* the restore writes under the library: it must not hold anything */
	if (worker->lib && !km_library_close(km_worker_library(job->session), &error)) {
		/* a closed library answers nothing: open it again, unless the device failed */
		g_clear_object(&worker->lib);
		if (!km_worker_check_device(job, error))
			reopen_library(job, NULL);
		km_job_return_error(job, error);
		return;
	}
	g_clear_object(&worker->lib);
	if (!km_backup_restore(disk->path, worker->dev, FALSE, &options, &result, &error))
		km_worker_check_device(job, error);
	if (!worker->failed)
		reopen_library(job, &error);
	if (error)
		km_job_return_error(job, error);
	else
		km_job_return_boolean(job, TRUE);
}

void km_session_restore_async(KmSession *session, GFile *file, KmProgressCallback progress,
			      gpointer progress_data, GDestroyNotify progress_notify,
			      GCancellable *cancellable, GAsyncReadyCallback callback,
			      gpointer user_data)
{
	GTask *task;
	KmJob *job;
	DiskJob *disk;

	g_return_if_fail(KM_IS_SESSION(session));
	g_return_if_fail(G_IS_FILE(file));
	disk = g_new0(DiskJob, 1);
	disk->path = g_file_get_path(file);
	/* a restore replaces everything: held like any change */
	task = g_task_new(session, cancellable, callback, user_data);
	g_task_set_source_tag(task, km_session_restore_async);
	job = km_job_new(task, restore_run, KM_JOB_CHANGES);
	km_job_set_data(job, disk, disk_job_free);
	km_job_set_progress(job, progress, progress_data, progress_notify);
	km_session_queue(session, job);
}

gboolean km_session_restore_finish(KmSession *session, GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(km_session_result_is_valid(session, result,
							km_session_restore_async), FALSE);
	return g_task_propagate_boolean(G_TASK(result), error);
}
