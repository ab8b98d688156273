/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-sync.c - the plan of a sync (km-sync.h): each file under the folders
 * probed as an import probes it, then looked up among the player's tunes.
 */
#include "km-sync.h"

#include "km-import-convert.h"
#include "km-import.h"
#include "km-library-private.h"
#include "km-properties.h"

static void sync_file_free(KmSyncFile *file)
{
	g_free(file->path);
	if (file->props)
		km_properties_unref(file->props);
	g_free(file->conversion);
	g_free(file);
}

void km_sync_plan_free(KmSyncPlan *plan)
{
	if (!plan)
		return;
	g_ptr_array_unref(plan->add);
	g_array_unref(plan->remove);
	g_free(plan);
}

static guint64 object_length(const KmProperties *props)
{
	guint64 length = 0;

	km_properties_get_uint(props, "length", &length);
	return length;
}

/* The tunes of lib that no file matched (matched: fid set), and their bytes. */
static void plan_removals(KmLibrary *lib, GHashTable *matched, KmSyncPlan *plan)
{
	g_autoptr(GPtrArray) objects = km_library_list(lib);

	for (guint i = 0; i < objects->len; i++) {
		KmProperties *p = objects->pdata[i];
		guint32 fid = km_properties_get_fid(p);

		if (km_properties_get_object_type(p) != KM_OBJECT_TUNE ||
		    g_hash_table_contains(matched, GUINT_TO_POINTER(fid)))
			continue;
		g_array_append_val(plan->remove, fid);
		plan->remove_bytes += object_length(p);
	}
}

/* Whether fid is a tune of lib. */
static gboolean is_tune(KmLibrary *lib, guint32 fid)
{
	return km_properties_get_object_type(km_library_lookup(lib, fid)) == KM_OBJECT_TUNE;
}

/*
 * Marks the first tune with rid (in fid order: the library's rid index)
 * that no file matched yet; FALSE when there is none.
 */
static gboolean match_tune(KmLibrary *lib, const char *rid, GHashTable *matched)
{
	const GArray *fids = km_library_fids_with_rid(lib, rid);

	for (guint i = 0; fids && i < fids->len; i++) {
		guint32 fid = g_array_index(fids, guint32, i);

		if (is_tune(lib, fid) && g_hash_table_add(matched, GUINT_TO_POINTER(fid)))
			return TRUE;
	}
	return FALSE;
}

/* Whether a tune of lib has rid. */
static gboolean has_tune(KmLibrary *lib, const char *rid)
{
	const GArray *fids = km_library_fids_with_rid(lib, rid);

	for (guint i = 0; fids && i < fids->len; i++)
		if (is_tune(lib, g_array_index(fids, guint32, i)))
			return TRUE;
	return FALSE;
}

typedef struct {
	KmLibrary *lib;
	KmConversions *conversions;	/* NULL: nothing is converted */
	GHashTable *planned_sources;	/* source ids of the files to convert and add */
	GHashTable *matched;		/* fids a file is */
	GHashTable *planned_rids;	/* of the files to add */
	KmSyncPlan *plan;
	void (*unplayable)(const char *, const GError *, gpointer);
	gpointer data;
} Planner;

/*
 * Where one file goes in the plan: present (a tune with its rid, the same
 * audio whatever tags were edited since, marked matched), to add (unless an
 * earlier file of the plan has its rid: the import would call it a
 * duplicate of that one), or unplayable.
 */
static void plan_unplayable(Planner *pl, const KmWalkFile *file, const GError *error)
{
	pl->plan->n_unplayable++;
	if (pl->unplayable)
		pl->unplayable(file->path, error, pl->data);
}

static void plan_add(Planner *pl, const KmWalkFile *file, KmProperties *props,
		     const KmConvertPlan *conversion)
{
	KmSyncFile *add = g_new0(KmSyncFile, 1);

	add->path = g_strdup(file->path);
	add->size = file->size;
	add->props = props;
	add->conversion = conversion ? g_memdup2(conversion, sizeof(*conversion)) : NULL;
	g_ptr_array_add(pl->plan->add, add);
	pl->plan->add_bytes += file->size;
}

/*
 * A file to convert (FALSE when it is not one): present when its source is
 * a tune's (var/km-sources), else to add, converted, unless an earlier file
 * of the plan is the same source.
 */
static gboolean plan_converted(Planner *pl, const KmWalkFile *file, guint index)
{
	const GError *problem = km_conversions_problem(pl->conversions, index);
	const char *id = km_conversions_source_id(pl->conversions, index);
	guint32 fid;

	if (problem) {
		plan_unplayable(pl, file, problem);
		return TRUE;
	}
	if (!id)
		return FALSE;
	if (km_library_find_source(pl->lib, id, &fid) &&
	    g_hash_table_add(pl->matched, GUINT_TO_POINTER(fid))) {
		pl->plan->n_present++;
		return TRUE;
	}
	if (g_hash_table_add(pl->planned_sources, g_strdup(id)))
		plan_add(pl, file, NULL, km_conversions_plan(pl->conversions, index));
	return TRUE;
}

static void plan_file(Planner *pl, const KmWalkFile *file)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmProperties) props = km_import_file(file->path, KM_IMPORT_FLAGS_NONE, &error);
	const char *rid;

	if (!props) {
		plan_unplayable(pl, file, error);
		return;
	}
	rid = km_properties_get(props, "rid");
	/* a tune with its rid; or another copy of a tune an earlier file is (add skips it) */
	if (match_tune(pl->lib, rid, pl->matched) || has_tune(pl->lib, rid)) {
		pl->plan->n_present++;
		return;
	}
	if (rid && !g_hash_table_add(pl->planned_rids, g_strdup(rid)))
		return;
	plan_add(pl, file, g_steal_pointer(&props), NULL);
}

KmSyncPlan *km_library_plan_sync(KmLibrary *lib, const char *const *folders, guint n_folders,
				 const KmConvertSettings *convert, GCancellable *cancellable,
				 KmWalkProblemFunc problem,
				 void (*unplayable)(const char *path, const GError *error,
						    gpointer data),
				 gpointer data, GError **error)
{
	g_autoptr(GHashTable) matched = g_hash_table_new(NULL, NULL);
	g_autoptr(GHashTable) planned_rids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
								   NULL);
	guint64 total;
	g_autoptr(GPtrArray) files = km_import_walk(folders, n_folders, TRUE, cancellable, problem,
						    data, &total);
	g_autoptr(KmSyncPlan) plan = g_new0(KmSyncPlan, 1);
	g_autoptr(GHashTable) planned_sources = g_hash_table_new_full(g_str_hash, g_str_equal,
								      g_free, NULL);
	g_autoptr(KmConversions) conversions = NULL;
	Planner pl = { lib, NULL, planned_sources, matched, planned_rids, plan, unplayable, data };

	plan->add = g_ptr_array_new_with_free_func((GDestroyNotify)sync_file_free);
	plan->remove = g_array_new(FALSE, FALSE, sizeof(guint32));
	if (convert)
		pl.conversions = conversions = km_conversions_new(lib, files, convert, TRUE,
								  cancellable);
	for (guint i = 0; i < files->len; i++) {
		if (g_cancellable_set_error_if_cancelled(cancellable, error))
			return NULL;
		if (!pl.conversions || !plan_converted(&pl, files->pdata[i], i))
			plan_file(&pl, files->pdata[i]);
	}
	if (g_cancellable_set_error_if_cancelled(cancellable, error))
		return NULL;
	plan_removals(lib, matched, plan);
	return g_steal_pointer(&plan);
}
