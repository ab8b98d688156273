/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-library-import.c - an add from walk to commit (km-library-import.h). */
#include "km-library-import.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/stat.h>

#include "km-import-convert.h"

typedef struct {
	KmLibrary *lib;
	const KmLibraryImportOptions *options;
	GPtrArray *files;	/* KmWalkFile*: what the walk found */
	KmConversions *conversions;	/* NULL: nothing is converted */
	KmTransaction *tx;	/* the batch's, opened by the first file that needs one */
	GPtrArray *batch;	/* KmWalkFile* copied into tx (owned by files) */
	gint64 batch_start;
	gint64 last_commit_us;	/* how long the last commit took; 0: none yet */
	gboolean player_failed;	/* nothing more is written, not even a commit */
} Import;

static void report(Import *im, const KmWalkFile *file, guint index, KmImportOutcome outcome,
		   const GError *error, gboolean stops)
{
	KmImportFileResult result = { file, index, outcome, 0, NULL, { 0 }, error, stops };

	im->options->done(&result, im->options->data);
}

/*
 * The batch's files were copied but will not be committed (or the commit
 * failed: one cut short is finished or forgotten by the next open, we
 * cannot say which).
 */
static void batch_not_saved(Import *im, const GError *why)
{
	for (guint i = 0; i < im->batch->len; i++)
		report(im, im->batch->pdata[i], 0, KM_IMPORT_NOT_SAVED, why, FALSE);
	g_ptr_array_set_size(im->batch, 0);
}

/* Commit the batch (nothing when it is empty); a commit that fails reports its files NOT_SAVED. */
static gboolean commit_batch(Import *im, GError **error)
{
	g_autoptr(KmTransaction) tx = g_steal_pointer(&im->tx);
	g_autoptr(GError) local = NULL;
	gint64 start = g_get_monotonic_time();
	gboolean ok;

	if (!tx || im->batch->len == 0)
		return TRUE;	/* dropping tx leaves smalldb as it is */
	ok = km_transaction_commit(tx, &local);
	im->last_commit_us = MAX(g_get_monotonic_time() - start, 1);
	if (!ok) {
		batch_not_saved(im, local);
		g_propagate_error(error, g_steal_pointer(&local));
		return FALSE;
	}
	if (im->options->committed)
		im->options->committed((KmWalkFile *const *)im->batch->pdata, im->batch->len,
				       im->options->data);
	g_ptr_array_set_size(im->batch, 0);
	return TRUE;
}

/* KmImportBatching's rule, for the first batch and the later ones. */
static gboolean batch_is_due(const Import *im)
{
	const KmImportBatching *b = &im->options->batching;
	guint share = b->library_share ? km_library_get_n_objects(im->lib) / b->library_share : 0;
	gint64 age = g_get_monotonic_time() - im->batch_start;

	if (b->files == 0 || im->batch->len < b->files)
		return FALSE;
	if (im->last_commit_us == 0)
		return im->batch->len >= share || (b->max_us > 0 && age >= b->max_us);
	return age >= (gint64)b->commit_ratio * im->last_commit_us;
}

static GCancellable *root_cancellable(const Import *im, const KmWalkFile *file)
{
	return im->options->root_cancellables ? im->options->root_cancellables[file->root] : NULL;
}

static void cancel_other(GCancellable *cancelled, gpointer other)
{
	g_cancellable_cancel(other);
}

/* The size of the file at path, or keep. */
static guint64 file_size(const char *path, guint64 keep)
{
	struct stat st;

	return stat(path, &st) == 0 ? (guint64)st.st_size : keep;
}

/*
 * A file to convert: a duplicate when its source is on the player already;
 * else its converted file (waited for) is imported, and its source noted.
 */
static gboolean import_converted(Import *im, KmWalkFile *file, guint index,
				 const KmImportOptions *options, KmImportResult *result,
				 GError **error)
{
	const char *id = km_conversions_source_id(im->conversions, index);
	guint64 estimate = file->size;
	const char *path;
	gboolean ok;

	if (!im->options->copy_duplicates && km_transaction_find_source(im->tx, id, &result->fid)) {
		result->outcome = KM_IMPORT_DUPLICATE;
		return TRUE;
	}
	path = km_conversions_take(im->conversions, index, options->progress, options->data,
				   options->cancellable, error);
	if (!path) {
		km_conversions_release(im->conversions, index);
		return FALSE;
	}
	file->size = file_size(path, file->size);
	if (im->options->converted)
		im->options->converted(file, index, estimate, im->options->data);
	ok = km_transaction_import(im->tx, path, file->size, options, result, error);
	if (ok && result->outcome == KM_IMPORT_ADDED)
		km_transaction_note_source(im->tx, id, result->fid);
	km_conversions_release(im->conversions, index);
	return ok;
}

/* A file the Karma does not play as it is, and that cannot be converted either. */
static const GError *conversion_problem(const Import *im, guint index)
{
	return im->conversions ? km_conversions_problem(im->conversions, index) : NULL;
}

static const KmConvertPlan *conversion_plan(const Import *im, guint index)
{
	return im->conversions ? km_conversions_plan(im->conversions, index) : NULL;
}

/*
 * km_transaction_import() of the file, or of what it is converted to; cut
 * short by the whole import's cancellable or by the file's root's.
 */
static gboolean import_file(Import *im, KmWalkFile *file, guint index, KmImportResult *result,
			    GError **error)
{
	GCancellable *sources[2] = { im->options->cancellable, root_cancellable(im, file) };
	g_autoptr(GCancellable) cancellable = g_cancellable_new();
	KmImportOptions options = {
		.flags = im->options->flags, .copy_duplicates = im->options->copy_duplicates,
		.progress = im->options->progress, .data = im->options->data,
		.cancellable = cancellable,
	};
	gulong handlers[2] = { 0, 0 };
	gboolean ok;

	memset(result, 0, sizeof(*result));
	if (conversion_problem(im, index)) {
		g_propagate_error(error, g_error_copy(conversion_problem(im, index)));
		return FALSE;
	}
	for (guint i = 0; i < 2; i++)
		if (sources[i])
			handlers[i] = g_cancellable_connect(sources[i], G_CALLBACK(cancel_other),
							    cancellable, NULL);
	if (conversion_plan(im, index))
		ok = import_converted(im, file, index, &options, result, error);
	else
		ok = km_transaction_import(im->tx, file->path, file->size, &options, result,
					   error);
	for (guint i = 0; i < 2; i++)
		if (sources[i])
			g_cancellable_disconnect(sources[i], handlers[i]);
	return ok;
}

static void set_no_room_error(const KmWalkFile *file, const KmRoom *room, GError **error)
{
	g_autofree char *name = g_filename_display_basename(file->path);
	g_autofree char *need_text = g_format_size(room->needed);
	g_autofree char *free_text = g_format_size(room->free_bytes);

	g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NO_ROOM,
		    /* Translators: a file's name, then two sizes such as "4.2 MB" */
		    _("The player is full: “%s” needs %s, %s are free"), name, need_text,
		    free_text);
}

/* A file km_transaction_import() did not take: FALSE when that stops the import. */
static gboolean file_failed(Import *im, const KmWalkFile *file, guint index, GError **error)
{
	gboolean whole_cancelled = g_cancellable_is_cancelled(im->options->cancellable);
	gboolean stops = km_library_error_is_device(*error) ||
			 (whole_cancelled &&
			  g_error_matches(*error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
	KmImportFileResult result = { file, index, KM_IMPORT_FAILED, 0, NULL, { 0 }, *error, stops,
				      conversion_plan(im, index) };

	im->player_failed = km_library_error_is_device(*error);
	im->options->done(&result, im->options->data);
	if (!stops)
		g_clear_error(error);
	return !stops;
}

/* One file: FALSE with error stops the import (the file reported). */
static gboolean import_one(Import *im, KmWalkFile *file, guint index, GError **error)
{
	KmImportFileResult result = { file, index };
	KmImportResult r;

	if (g_cancellable_set_error_if_cancelled(root_cancellable(im, file), error)) {
		report(im, file, index, KM_IMPORT_FAILED, *error, FALSE);
		g_clear_error(error);
		return TRUE;
	}
	if (!im->tx) {
		im->tx = km_library_begin(im->lib, error);
		im->batch_start = g_get_monotonic_time();
		if (!im->tx) {
			report(im, file, index, KM_IMPORT_NOT_TRIED, *error, TRUE);
			return FALSE;
		}
	}
	result.conversion = conversion_plan(im, index);
	if (!import_file(im, file, index, &r, error))
		return file_failed(im, file, index, error);
	result.outcome = r.outcome;
	result.fid = r.fid;
	result.room = r.room;
	if (r.outcome == KM_IMPORT_DUPLICATE)
		result.existing = km_transaction_lookup(im->tx, r.fid);
	if (r.outcome == KM_IMPORT_NO_ROOM) {
		set_no_room_error(file, &r.room, error);
		result.error = *error;
		result.stops = TRUE;
	}
	if (r.outcome == KM_IMPORT_ADDED) {
		file->fid = r.fid;
		g_ptr_array_add(im->batch, file);
	}
	if (im->options->root_fids && file->is_root &&
	    (r.outcome == KM_IMPORT_ADDED || r.outcome == KM_IMPORT_DUPLICATE))
		im->options->root_fids[file->root] = r.fid;
	im->options->done(&result, im->options->data);
	if (r.outcome == KM_IMPORT_NO_ROOM)
		return FALSE;
	return !batch_is_due(im) || commit_batch(im, error);
}

/*
 * After a stop at file `next - 1` (or the end): keep what was copied unless
 * the player failed; the files not tried are told why the import stopped.
 */
static gboolean finish(Import *im, guint next, GError **stop)
{
	GError *commit_error = NULL;

	if (im->player_failed) {
		g_clear_object(&im->tx);	/* the rollback removes what it can */
		batch_not_saved(im, *stop);
	} else if (!commit_batch(im, &commit_error)) {
		g_clear_error(stop);
		*stop = commit_error;
	}
	for (guint i = next; i < im->files->len; i++)
		report(im, im->files->pdata[i], i, KM_IMPORT_NOT_TRIED, *stop, FALSE);
	g_clear_object(&im->tx);
	return *stop == NULL;
}

/* The files' sizes, converted ones at their estimates. */
static guint64 walked_total(GPtrArray *files)
{
	guint64 total = 0;

	for (guint i = 0; i < files->len; i++)
		total += ((KmWalkFile *)files->pdata[i])->size;
	return total;
}

static void ignore_problem(const char *path, guint root, gboolean is_root, KmWalkProblem problem,
			   const char *message, gpointer data)
{
}

gboolean km_library_import(KmLibrary *lib, const char *const *roots, guint n_roots,
			   const KmLibraryImportOptions *options, GError **error)
{
	g_autoptr(GPtrArray) batch = g_ptr_array_new();
	Import im = { lib, options, NULL, NULL, NULL, batch, 0, 0, FALSE };
	GError *stop = NULL;
	guint64 total = 0;
	guint i;
	gboolean ok;

	g_return_val_if_fail(KM_IS_LIBRARY(lib), FALSE);
	g_return_val_if_fail(options && options->done, FALSE);
	im.files = km_import_walk(roots, n_roots, options->recursive, options->cancellable,
				  options->walk_problem ? options->walk_problem : ignore_problem,
				  options->data, &total);
	if (options->convert) {
		im.conversions = km_conversions_new(lib, im.files, options->convert,
						    options->copy_duplicates, options->cancellable);
		total = walked_total(im.files);
	}
	if (options->walked)
		options->walked(im.files, total, options->data);
	for (i = 0; i < im.files->len && !stop; i++) {
		KmWalkFile *file = im.files->pdata[i];

		if (options->begin)
			options->begin(file, i, options->data);
		if (g_cancellable_set_error_if_cancelled(options->cancellable, &stop))
			break;	/* this file is not tried either */
		import_one(&im, file, i, &stop);
	}
	ok = finish(&im, i, &stop);
	km_conversions_free(im.conversions);
	g_ptr_array_unref(im.files);
	if (!ok)
		g_propagate_error(error, stop);
	return ok;
}
