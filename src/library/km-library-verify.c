/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-verify.c - every file under fids0/ against var/smalldb, and
 * the repairs, which are made as one commit without a journal (km-commit.c):
 * orphaned properties and the player's deletions are removed, orphaned data
 * moved to lost+found (never deleted), lost or damaged properties files
 * restored from their smalldb row, playlist data files rewritten from their
 * blob, and smalldb rewritten from the properties files when it disagreed.
 * What a repair cannot do (a directory in the way, a row too large or
 * damaged itself, a number only the user knows) is not promised, and the
 * files are verified again afterwards: only what is gone counts as repaired.
 */
#include "km-verify-plan.h"

#include <string.h>

static const char *const kind_names[] = {
	[KM_VERIFY_JOURNAL] = "interrupted-commit",
	[KM_VERIFY_SMALLDB_MISSING] = "smalldb-missing",
	[KM_VERIFY_SMALLDB_CORRUPT] = "smalldb-corrupt",
	[KM_VERIFY_STALE_ROW] = "stale-row",
	[KM_VERIFY_ORPHAN_DATA] = "orphan-data",
	[KM_VERIFY_ORPHAN_PROPERTIES] = "orphan-properties",
	[KM_VERIFY_MISSING_PROPERTIES] = "missing-properties",
	[KM_VERIFY_BAD_PROPERTIES] = "bad-properties",
	[KM_VERIFY_PLAYLIST_DATA] = "playlist-data",
	[KM_VERIFY_PENDING_DELETE] = "player-deleted",
	[KM_VERIFY_UNREADABLE] = "unreadable",
	[KM_VERIFY_STRAY] = "stray",
	[KM_VERIFY_DANGLING_ENTRY] = "dangling-entry",
	[KM_VERIFY_BAD_VALUE] = "bad-value",
	[KM_VERIFY_FILE_SYSTEM] = "file-system",
};

const char *km_verify_kind_name(KmVerifyKind kind)
{
	return kind < G_N_ELEMENTS(kind_names) ? kind_names[kind] : "unknown";
}

static void finding_free(gpointer data)
{
	KmVerifyFinding *f = data;

	g_free(f->message);
	g_free(f);
}

void km_verify_report_free(KmVerifyReport *report)
{
	if (!report)
		return;
	g_ptr_array_unref(report->findings);
	g_free(report);
}

guint km_verify_report_count(const KmVerifyReport *report, KmVerifyKind kind)
{
	guint n = 0;

	for (guint i = 0; i < report->findings->len; i++)
		n += ((const KmVerifyFinding *)report->findings->pdata[i])->kind == kind;
	return n;
}

void km_verify_add_finding(Plan *plan, KmVerifyKind kind, guint32 fid, gboolean repairable,
			   char *message)
{
	KmVerifyFinding *f = g_new0(KmVerifyFinding, 1);

	f->kind = kind;
	f->fid = fid;
	f->repairable = repairable;
	f->message = message;
	g_ptr_array_add(plan->report->findings, f);
}

static void G_GNUC_PRINTF(5, 6)
find(Plan *plan, KmVerifyKind kind, guint32 fid, gboolean repairable, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	km_verify_add_finding(plan, kind, fid, repairable, g_strdup_vprintf(fmt, ap));
	va_end(ap);
}

static void plan_free(Plan *plan)
{
	g_clear_pointer(&plan->cs, km_change_set_free);
	g_clear_pointer(&plan->objects, g_hash_table_unref);
	g_clear_pointer(&plan->rows, g_hash_table_unref);
	g_clear_pointer(&plan->deleted, g_hash_table_unref);
	g_clear_pointer(&plan->moves, g_array_unref);
}

/* ---- one fid ---- */

/* props (a row, or read from the audio) becomes fid's properties file. */
static void restore_from_row(Plan *plan, guint32 fid, KmProperties *row)
{
	km_change_set_put(plan->cs, row);
	g_hash_table_insert(plan->objects, GUINT_TO_POINTER(fid), km_properties_ref(row));
}

/* smalldb keeps the row it has; no file is written. */
static void keep_row(Plan *plan, guint32 fid, KmProperties *row)
{
	g_hash_table_insert(plan->objects, GUINT_TO_POINTER(fid), km_properties_ref(row));
}

/* Why smalldb's row cannot become the properties file, or NULL when it can. */
static const char *unrestorable(KmProperties *row)
{
	g_autoptr(GBytes) text = NULL;

	if (km_library_object_damage(row))
		return km_library_object_damage(row);
	text = km_properties_serialize(row);
	if (g_bytes_get_size(text) > KM_PROPERTIES_MAX_SIZE)
		return "larger than a properties file may be";
	return NULL;
}

/* A bad or lost properties file, and a row that cannot restore it. */
static void cannot_restore(Plan *plan, const KmScanEntry *e, KmProperties *row)
{
	const char *why = e->problem;

	find(plan, why ? KM_VERIFY_BAD_PROPERTIES : KM_VERIFY_MISSING_PROPERTIES, e->fid, FALSE,
	     "fid %u: %s%s, and smalldb's row cannot restore it (%s): remove the track "
	     "(karmactl rm-track %u)", e->fid, why ? "bad properties file: " : "no properties file",
	     why ? why : "", unrestorable(row), e->fid);
	keep_row(plan, e->fid, row);
}

/* A bad properties file without a row: the audio's own tags, when it has any. */
static void restore_from_audio(Plan *plan, const KmScanEntry *e)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmProperties) props = km_verify_props_from_audio(plan, e, &error);
	char path[KM_FID_PATH_SIZE];

	if (props) {
		find(plan, KM_VERIFY_BAD_PROPERTIES, e->fid, TRUE,
				"fid %u: bad properties file: %s; no smalldb row, the audio's own "
				"tags restore it", e->fid, e->problem);
		restore_from_row(plan, e->fid, props);
		return;
	}
	/* (the error names the temporary copy: not said, so the sentence stays the same) */
	km_fid_format_path(e->fid, KM_FID_FILE_DATA, path);
	find(plan, KM_VERIFY_BAD_PROPERTIES, e->fid, FALSE,
			"fid %u: bad properties file (%s), no smalldb row to restore it from, "
			"and its data is no audio add would take: copy it out (karmactl get /%s "
			"DEST) and remove both files (karmactl rm)", e->fid, e->problem, path);
}

/* No usable properties file: orphan, or restored from smalldb or the audio. */
static void check_without_props(Plan *plan, const KmScanEntry *e, KmProperties *row)
{
	const char *why = e->problem;

	if (e->data_ino == OMFS_NIL) {
		find(plan, KM_VERIFY_ORPHAN_PROPERTIES, e->fid, TRUE,
		     "fid %u: properties file%s%s without a data file", e->fid, why ? ": " : "",
		     why ? why : "");
		km_change_set_delete(plan->cs, e->fid);
	} else if (row && unrestorable(row)) {
		cannot_restore(plan, e, row);
	} else if (row) {
		find(plan, why ? KM_VERIFY_BAD_PROPERTIES : KM_VERIFY_MISSING_PROPERTIES, e->fid,
		     TRUE, "fid %u: %s%s; smalldb's row restores it", e->fid,
		     why ? "bad properties file: " : "no properties file", why ? why : "");
		restore_from_row(plan, e->fid, row);
	} else if (why) {
		restore_from_audio(plan, e);
	} else {
		/* never deleted: it may be the only copy of a song */
		find(plan, KM_VERIFY_ORPHAN_DATA, e->fid, TRUE,
		     "fid %u: data file without properties or smalldb row: moved to "
		     KM_LOST_FOUND "/fid-%u (karmactl get it and add it again, or karmactl rm it)",
		     e->fid, e->fid);
		g_array_append_val(plan->moves, e->fid);
	}
}

static void check_data(Plan *plan, const KmScanEntry *e, KmProperties *object)
{
	g_autoptr(GBytes) blob = NULL;
	guint64 length;

	if (e->data_problem) {
		find(plan, KM_VERIFY_UNREADABLE, e->fid, FALSE, "fid %u: the data file: %s", e->fid,
		     e->data_problem);
		return;
	}
	if (g_strcmp0(km_properties_get(object, "type"), "playlist") == 0) {
		blob = km_properties_get_blob(object, "playlist");
		if ((blob ? g_bytes_get_size(blob) : 0) == e->data_size)
			return;
		find(plan, KM_VERIFY_PLAYLIST_DATA, e->fid, TRUE,
		     "fid %u: the playlist's data file (%" G_GUINT64_FORMAT " bytes) is not "
		     "its list", e->fid, e->data_size);
		km_change_set_put(plan->cs, object);
		return;
	}
	if (km_properties_get_uint(object, "length", &length) && length != e->data_size)
		find(plan, KM_VERIFY_UNREADABLE, e->fid, FALSE,
		     "fid %u: the data file has %" G_GUINT64_FORMAT " bytes, `length` says %"
		     G_GUINT64_FORMAT, e->fid, e->data_size, length);
}

static void check_row(Plan *plan, guint32 fid, KmProperties *object, KmProperties *row)
{
	g_autofree char *columns = NULL;
	guint n_columns = 0;

	if (row) {
		columns = km_smalldb_row_diff(object, row, &n_columns);
		if (!columns)
			return;
		find(plan, KM_VERIFY_STALE_ROW, fid, TRUE,
		     "fid %u: smalldb's %s differ%s from the properties file", fid, columns,
		     n_columns == 1 ? "s" : "");
	} else {
		find(plan, KM_VERIFY_STALE_ROW, fid, TRUE, "fid %u: not in smalldb", fid);
	}
	plan->rewrite = TRUE;
}

/* A directory where a file of the fid belongs: nothing is written there. */
static void check_blocked(Plan *plan, const KmScanEntry *e, KmProperties *row)
{
	find(plan, KM_VERIFY_STRAY, e->fid, FALSE,
	     "%s: a directory where fid %u's %s file belongs: remove it (karmactl rm -r /%s)",
	     e->blocked, e->fid, e->blocked_file == KM_FID_FILE_DATA ? "data" : "properties",
	     e->blocked);
	/* what smalldb knows of it stays */
	if (row)
		keep_row(plan, e->fid, row);
}

static void check_entry(Plan *plan, const KmScanEntry *e)
{
	gpointer key = GUINT_TO_POINTER(e->fid);
	KmProperties *row = g_hash_table_lookup(plan->rows, key);
	g_autoptr(KmProperties) object = NULL;
	KmProperties *fixed;

	if (e->blocked) {
		check_blocked(plan, e, row);
		return;
	}
	if (g_hash_table_contains(plan->deleted, key)) {
		find(plan, KM_VERIFY_PENDING_DELETE, e->fid, TRUE,
		     "fid %u: deleted on the player, its files are still there", e->fid);
		km_change_set_delete(plan->cs, e->fid);
		return;
	}
	if (e->props && e->data_ino == OMFS_NIL &&
	    g_strcmp0(km_properties_get(e->props, "type"), "playlist") == 0) {
		/* A playlist's data is its blob: it can be written again. */
		object = km_library_effective(e->props, row);
		find(plan, KM_VERIFY_PLAYLIST_DATA, e->fid, TRUE,
		     "fid %u: the playlist has no data file", e->fid);
		km_change_set_put(plan->cs, object);
		g_hash_table_insert(plan->objects, key, km_properties_ref(object));
		check_row(plan, e->fid, object, row);
		return;
	}
	if (!e->props || e->data_ino == OMFS_NIL) {
		check_without_props(plan, e, row);
		return;
	}
	object = km_library_effective(e->props, row);
	fixed = km_verify_check_numbers(plan, e, object);
	g_hash_table_insert(plan->objects, key, km_properties_ref(fixed));
	km_verify_check_playlist_length(plan, e->fid, fixed);
	check_data(plan, e, fixed);
	check_row(plan, e->fid, object, row);
	if (fixed != object)
		km_properties_unref(fixed);
}

/* Rows of fids with no file at all. */
static void check_rows_without_files(Plan *plan, const KmScan *scan)
{
	GHashTableIter iter;
	gpointer key;

	g_hash_table_iter_init(&iter, plan->rows);
	while (g_hash_table_iter_next(&iter, &key, NULL)) {
		if (g_hash_table_contains(scan->entries, key))
			continue;
		find(plan, KM_VERIFY_STALE_ROW, GPOINTER_TO_UINT(key), TRUE,
		     "fid %u: in smalldb, but it has no files", GPOINTER_TO_UINT(key));
		plan->rewrite = TRUE;
	}
}

/* ---- the whole library ---- */

/* A directory named var/smalldb: no repair can write smalldb until the user removes it. */
static gboolean check_smalldb_name(KmLibrary *lib, Plan *plan, GError **error)
{
	struct omfs_stat st;
	gboolean found;

	if (!km_files_stat_smalldb(lib, &st, &found, error))
		return FALSE;
	if (!found || !st.is_dir)
		return TRUE;
	find(plan, KM_VERIFY_SMALLDB_CORRUPT, 0, FALSE,
	     KM_VAR "/" KM_SMALLDB_NAME ": a directory, not a file: remove it (karmactl rm -r /"
	     KM_VAR "/" KM_SMALLDB_NAME ")");
	plan->smalldb_blocked = TRUE;
	return TRUE;
}

static gboolean read_rows(KmLibrary *lib, Plan *plan, GError **error)
{
	g_autoptr(GPtrArray) rows = NULL;
	g_autoptr(GArray) deleted = NULL;
	g_autoptr(GError) local = NULL;
	gboolean missing;

	plan->deleted = g_hash_table_new(NULL, NULL);
	if (!check_smalldb_name(lib, plan, error))
		return FALSE;
	rows = plan->smalldb_blocked ? NULL :
	       km_files_read_smalldb(lib, &lib->smalldb_hdr, &deleted, &missing, &local);
	if (rows || plan->smalldb_blocked) {
		lib->have_smalldb_hdr = TRUE;
	} else if (missing) {
		find(plan, KM_VERIFY_SMALLDB_MISSING, 0, TRUE, "there is no var/smalldb");
		plan->rewrite = TRUE;
	} else if (local->domain == KM_SMALLDB_ERROR || local->code == KM_LIBRARY_ERROR_CORRUPT) {
		find(plan, KM_VERIFY_SMALLDB_CORRUPT, 0, TRUE, "var/smalldb: %s", local->message);
		plan->rewrite = TRUE;
	} else {
		g_propagate_error(error, g_steal_pointer(&local));
		return FALSE;
	}
	plan->rows = km_rows_by_fid(rows);
	for (guint i = 0; deleted && i < deleted->len; i++) {
		guint32 fid = g_array_index(deleted, guint32, i);

		g_hash_table_add(plan->deleted, GUINT_TO_POINTER(fid));
	}
	return TRUE;
}

static gboolean check_var(KmLibrary *lib, Plan *plan, GError **error)
{
	uint64_t ino;

	if (lib->pending_journal)
		find(plan, KM_VERIFY_JOURNAL, 0, TRUE,
		     "var/" KM_JOURNAL_NAME ": a commit was interrupted "
		     "(open writable to finish it)");
	if (!km_files_lookup(lib, lib->var_ino, KM_SMALLDB_TEMP_NAME, &ino, error))
		return FALSE;
	if (ino != OMFS_NIL) {
		find(plan, KM_VERIFY_STRAY, 0, TRUE,
		     "var/" KM_SMALLDB_TEMP_NAME ": left over by an interrupted commit");
		plan->remove_temp = TRUE;
	}
	return TRUE;
}

static gboolean evaluate(KmLibrary *lib, Plan *plan, KmVerifyFlags flags, gboolean rebuild,
			 GCancellable *cancellable, GError **error)
{
	g_autoptr(KmScan) scan = NULL;
	GHashTableIter iter;
	gpointer value;

	plan->cs = km_change_set_new();
	plan->objects = km_library_objects_new();
	plan->moves = g_array_new(FALSE, FALSE, sizeof(guint32));
	if (!check_var(lib, plan, error) || !read_rows(lib, plan, error))
		return FALSE;
	scan = km_library_scan(lib, cancellable, error);
	if (!scan)
		return FALSE;
	g_hash_table_iter_init(&iter, scan->entries);
	while (g_hash_table_iter_next(&iter, NULL, &value))
		check_entry(plan, value);
	check_rows_without_files(plan, scan);
	for (guint i = 0; i < scan->strays->len; i++)
		find(plan, KM_VERIFY_STRAY, 0, FALSE, "%s: not a fid file (left alone)",
		     (const char *)scan->strays->pdata[i]);
	plan->report->n_objects = g_hash_table_size(plan->objects);
	/* rebuilding rewrites smalldb and changes nothing else */
	if (!rebuild)
		km_verify_check_playlists(plan);
	return !(flags & KM_VERIFY_FLAG_READ_DATA) ||
	       km_verify_read_data(lib, plan, scan, cancellable, error);
}

static void count_unrepaired(KmVerifyReport *report)
{
	report->n_unrepaired = 0;
	for (guint i = 0; i < report->findings->len; i++)
		report->n_unrepaired += !((KmVerifyFinding *)report->findings->pdata[i])->repaired;
}

/*
 * Rebuilding keeps orphans: of the removals, only the player's deletions
 * stay (rebuilding would bring them back otherwise), and no data file is
 * moved.
 */
static void keep_orphans(Plan *plan)
{
	GArray *deletes = plan->cs->deletes;

	for (guint i = deletes->len; i-- > 0;)
		if (!g_hash_table_contains(plan->deleted,
					   GUINT_TO_POINTER(g_array_index(deletes, guint32, i))))
			g_array_remove_index(deletes, i);
	g_array_set_size(plan->moves, 0);
}

static gboolean remove_temp(KmLibrary *lib, GError **error)
{
	return km_files_remove(lib, lib->var_ino, KM_SMALLDB_TEMP_NAME,
			       KM_VAR "/" KM_SMALLDB_TEMP_NAME, error) &&
	       km_files_sync(lib, error);
}

/* Orphaned data files go to lost+found: no object names them, so they go first. */
static gboolean move_orphans(KmLibrary *lib, Plan *plan, GError **error)
{
	for (guint i = 0; i < plan->moves->len; i++) {
		guint32 fid = g_array_index(plan->moves, guint32, i);
		g_autofree char *where = NULL;

		if (!km_files_move_aside(lib, fid, &where, error))
			return FALSE;
	}
	return !plan->moves->len || km_files_sync(lib, error);
}

/* The files' library becomes the library, and the plan is committed (without a journal). */
static gboolean apply(KmLibrary *lib, Plan *plan, gboolean rebuild, GError **error)
{
	if (rebuild)
		keep_orphans(plan);
	if (plan->smalldb_blocked)
		return TRUE;
	if (!move_orphans(lib, plan, error))
		return FALSE;
	km_library_set_objects(lib, g_steal_pointer(&plan->objects));
	if (!rebuild && !plan->rewrite && km_change_set_is_empty(plan->cs))
		return !plan->remove_temp || remove_temp(lib, error);
	if (!km_library_commit_changes(lib, plan->cs, KM_COMMIT_REPAIR, error))
		return FALSE;
	plan->report->smalldb_written = TRUE;
	return TRUE;
}

static gboolean found_again(const KmVerifyReport *again, const KmVerifyFinding *f)
{
	for (guint i = 0; i < again->findings->len; i++) {
		const KmVerifyFinding *g = again->findings->pdata[i];

		if (g->kind == f->kind && g->fid == f->fid && strcmp(g->message, f->message) == 0)
			return TRUE;
	}
	return FALSE;
}

/*
 * What the repair promised is checked on the files, not assumed: a finding
 * counts as repaired when it was repairable and a verify after the repair
 * no longer finds it.
 */
static gboolean mark_repaired(KmLibrary *lib, KmVerifyReport *report, GCancellable *cancellable,
			      GError **error)
{
	g_autoptr(KmVerifyReport) again = g_new0(KmVerifyReport, 1);
	Plan plan = { .lib = lib, .report = again };
	gboolean ok;

	again->findings = g_ptr_array_new_with_free_func(finding_free);
	ok = evaluate(lib, &plan, KM_VERIFY_FLAGS_NONE, FALSE, cancellable, error);
	plan_free(&plan);
	if (!ok)
		return FALSE;
	for (guint i = 0; i < report->findings->len; i++) {
		KmVerifyFinding *f = report->findings->pdata[i];

		/* the file system check marked its own (km-library-fsck.c) */
		if (f->kind != KM_VERIFY_FILE_SYSTEM)
			f->repaired = f->repairable && !found_again(again, f);
	}
	return TRUE;
}

/*
 * Repair writes (smalldb, restored files). On a volume whose free-space
 * bitmap marks blocks in use as free, the core would hand those out and
 * write over a live directory or file (fuzz-library found one image that
 * did): refuse, and say to repair the volume first. fsck reads the volume
 * as the library has written it back.
 */
static gboolean check_bitmap_trustworthy(KmLibrary *lib, GError **error)
{
	struct omfs_fsck_result res;
	int err = omfs_sync(lib->fs);

	if (err)
		return km_files_error(lib, err, error, "writing back before the repair");
	if (omfs_fsck(lib->volume, NULL, &res) == OMFS_FSCK_OPERATIONAL) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO,
			    "the volume could not be checked before the repair");
		return FALSE;
	}
	if (res.unmarked_blocks) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_CORRUPT,
			    "the volume's free-space bitmap marks %llu blocks in use as free, so a "
			    "repair could write over them: repair the volume first (karmactl fsck "
			    "--repair)", (unsigned long long)res.unmarked_blocks);
		return FALSE;
	}
	return TRUE;
}

static KmVerifyReport *run(KmLibrary *lib, KmVerifyFlags flags, gboolean rebuild,
			   GCancellable *cancellable, GError **error)
{
	g_autoptr(KmVerifyReport) report = g_new0(KmVerifyReport, 1);
	gboolean repair = (flags & KM_VERIFY_FLAG_REPAIR) != 0;
	Plan plan = { .lib = lib, .report = report };
	gboolean ok;

	report->findings = g_ptr_array_new_with_free_func(finding_free);
	if (!km_library_check_usable(lib, repair, error))
		return NULL;
	if (repair && lib->tx) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_BUSY,
			    "a transaction is open: commit it or roll it back first");
		return NULL;
	}
	ok = !(flags & KM_VERIFY_FLAG_FILE_SYSTEM) ||
	     km_verify_file_system(lib, &plan, repair, error);
	ok = ok && evaluate(lib, &plan, flags, rebuild, cancellable, error);
	if (ok && repair)
		ok = check_bitmap_trustworthy(lib, error) && apply(lib, &plan, rebuild, error);
	plan_free(&plan);
	if (ok && repair)
		ok = mark_repaired(lib, report, cancellable, error);
	if (!ok)
		return NULL;
	count_unrepaired(report);
	return g_steal_pointer(&report);
}

KmVerifyReport *km_library_verify(KmLibrary *lib, KmVerifyFlags flags, GCancellable *cancellable,
				  GError **error)
{
	g_return_val_if_fail(KM_IS_LIBRARY(lib), NULL);
	return run(lib, flags, FALSE, cancellable, error);
}

KmVerifyReport *km_library_rebuild_db(KmLibrary *lib, GCancellable *cancellable, GError **error)
{
	g_return_val_if_fail(KM_IS_LIBRARY(lib), NULL);
	return run(lib, KM_VERIFY_FLAG_REPAIR, TRUE, cancellable, error);
}
