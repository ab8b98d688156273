/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-transaction.c - staging changes to a library: adds (data written at
 * once), removals, property edits; commit and rollback. Playlist changes
 * are in km-transaction-playlist.c, the commit's writes in km-commit.c.
 */
#include "km-transaction-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "km-property-rules.h"

/* Data is written in requests this large: big enough for the device, small enough for memory. */
#define CHUNK_SIZE (1u << 20)

G_DEFINE_FINAL_TYPE(KmTransaction, km_transaction, G_TYPE_OBJECT)

static void staged_free(gpointer data)
{
	KmStaged *s = data;

	if (s->object)
		km_properties_unref(s->object);
	g_free(s);
}

static void km_transaction_dispose(GObject *object)
{
	KmTransaction *tx = KM_TRANSACTION(object);

	if (tx->lib && !tx->done)
		km_transaction_abandon(tx);
	g_clear_object(&tx->lib);
	G_OBJECT_CLASS(km_transaction_parent_class)->dispose(object);
}

static void km_transaction_finalize(GObject *object)
{
	KmTransaction *tx = KM_TRANSACTION(object);

	g_hash_table_unref(tx->staged);
	g_hash_table_unref(tx->rid_index);
	g_hash_table_unref(tx->edited);
	km_room_tally_clear(&tx->room);
	g_hash_table_unref(tx->sources);
	G_OBJECT_CLASS(km_transaction_parent_class)->finalize(object);
}

static void km_transaction_class_init(KmTransactionClass *klass)
{
	G_OBJECT_CLASS(klass)->dispose = km_transaction_dispose;
	G_OBJECT_CLASS(klass)->finalize = km_transaction_finalize;
}

static void km_transaction_init(KmTransaction *tx)
{
	tx->staged = g_hash_table_new_full(NULL, NULL, NULL, staged_free);
	tx->rid_index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      (GDestroyNotify)g_array_unref);
	tx->edited = g_hash_table_new(NULL, NULL);
	km_room_tally_init(&tx->room);
	tx->sources = km_sources_new();
}

KmTransaction *km_library_begin(KmLibrary *lib, GError **error)
{
	KmTransaction *tx;

	g_return_val_if_fail(KM_IS_LIBRARY(lib), NULL);
	if (!km_library_check_usable(lib, TRUE, error))
		return NULL;
	if (lib->tx) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_BUSY,
			    _("another transaction is open on this library"));
		return NULL;
	}
	tx = g_object_new(KM_TYPE_TRANSACTION, NULL);
	tx->lib = g_object_ref(lib);
	lib->tx = tx;
	return tx;
}

KmLibrary *km_transaction_get_library(KmTransaction *tx)
{
	g_return_val_if_fail(KM_IS_TRANSACTION(tx), NULL);
	return tx->lib;
}

gboolean km_transaction_check(KmTransaction *tx, GError **error)
{
	if (tx->done) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID,
			    "the transaction was committed or rolled back");
		return FALSE;
	}
	return km_library_check_usable(tx->lib, TRUE, error);
}

/* ---- the transaction's view ---- */

KmProperties *km_transaction_lookup(KmTransaction *tx, guint32 fid)
{
	KmStaged *s;

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), NULL);
	s = g_hash_table_lookup(tx->staged, GUINT_TO_POINTER(fid));
	return s ? s->object : km_library_lookup(tx->lib, fid);
}

KmProperties *km_transaction_get(KmTransaction *tx, guint32 fid, GError **error)
{
	KmProperties *object = km_transaction_lookup(tx, fid);

	if (!object)
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NOT_FOUND,
			    "no object has fid %u", fid);
	return object;
}

/*
 * The properties file as it is on the disk (keys smalldb does not hold are
 * kept byte for byte), seen through the library's row; the row alone when
 * the file cannot be read.
 */
static KmProperties *load_for_edit(KmLibrary *lib, KmProperties *row)
{
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(KmProperties) file = NULL;
	guint32 fid = km_properties_get_fid(row);
	char name[4];
	uint64_t dir, ino = OMFS_NIL;

	if (km_files_fid_dir(lib, fid, FALSE, &dir, NULL) && dir != OMFS_NIL) {
		km_files_fid_name(fid, KM_FID_FILE_PROPERTIES, name);
		km_files_lookup(lib, dir, name, &ino, NULL);
	}
	if (ino != OMFS_NIL)
		bytes = km_files_read(lib, ino, KM_PROPERTIES_MAX_SIZE, name, NULL);
	if (bytes)
		file = km_properties_parse(g_bytes_get_data(bytes, NULL), g_bytes_get_size(bytes),
					   NULL);
	if (!file)
		return km_properties_copy(row);
	km_properties_set_fid(file, fid);
	return km_library_effective(file, row);
}

KmProperties *km_transaction_edit(KmTransaction *tx, guint32 fid, GError **error)
{
	KmStaged *s = g_hash_table_lookup(tx->staged, GUINT_TO_POINTER(fid));
	KmProperties *row;

	if (s && s->object) {
		g_hash_table_add(tx->edited, GUINT_TO_POINTER(fid));
		km_room_tally_forget(&tx->room, fid);
		return s->object;
	}
	row = s ? NULL : km_library_lookup(tx->lib, fid);
	if (!row) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_NOT_FOUND,
			    "no object has fid %u", fid);
		return NULL;
	}
	s = g_new0(KmStaged, 1);
	s->object = load_for_edit(tx->lib, row);
	g_hash_table_insert(tx->staged, GUINT_TO_POINTER(fid), s);
	g_hash_table_add(tx->edited, GUINT_TO_POINTER(fid));
	return s->object;
}

static void index_rid(KmTransaction *tx, const KmProperties *object)
{
	const char *rid = km_properties_get(object, "rid");
	guint32 fid = km_properties_get_fid(object);
	GArray *fids;

	if (!rid || !*rid)
		return;
	fids = g_hash_table_lookup(tx->rid_index, rid);
	if (!fids) {
		fids = g_array_new(FALSE, FALSE, sizeof(guint32));
		g_hash_table_insert(tx->rid_index, g_strdup(rid), fids);
	}
	g_array_append_val(fids, fid);
}

void km_transaction_stage_new(KmTransaction *tx, KmProperties *object, gboolean data_written)
{
	KmStaged *s = g_new0(KmStaged, 1);

	s->object = object;
	s->added = TRUE;
	s->data_written = data_written;
	g_hash_table_insert(tx->staged, GUINT_TO_POINTER(km_properties_get_fid(object)), s);
	index_rid(tx, object);
	km_room_tally_staged(&tx->room, km_properties_get_fid(object));
}

/* ---- fids ---- */

/* Whether fid's data or properties file is on the disk. */
static gboolean fid_has_files(KmLibrary *lib, guint32 fid, gboolean *has, GError **error)
{
	const KmFidFile which[] = { KM_FID_FILE_DATA, KM_FID_FILE_PROPERTIES };
	char name[4];
	uint64_t dir, ino;

	*has = FALSE;
	if (!km_files_fid_dir(lib, fid, FALSE, &dir, error))
		return FALSE;
	for (guint i = 0; dir != OMFS_NIL && i < G_N_ELEMENTS(which) && !*has; i++) {
		km_files_fid_name(fid, which[i], name);
		if (!km_files_lookup(lib, dir, name, &ino, error))
			return FALSE;
		*has = ino != OMFS_NIL;
	}
	return TRUE;
}

/*
 * The allocator knows the fids smalldb names; a file it does not name (an
 * orphan, or another tool's object) keeps its fid, which stays marked used.
 */
gboolean km_transaction_new_fid(KmTransaction *tx, guint32 *fid, guint32 *generation,
				GError **error)
{
	KmLibrary *lib = tx->lib;
	gboolean taken;

	for (;;) {
		if (!km_fid_allocator_allocate(lib->fids, fid)) {
			g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_FULL,
				    _("every fid is in use"));
			return FALSE;
		}
		if (!fid_has_files(lib, *fid, &taken, error)) {
			km_fid_allocator_release(lib->fids, *fid);
			return FALSE;
		}
		*generation = taken ? 0 : km_library_new_generation(lib, *fid);
		if (*generation)
			return TRUE;
	}
}

/* ---- adding ---- */

static gboolean forget_added(KmTransaction *tx, guint32 fid, GError **error);

/*
 * Copy in to the new file ino, chunk by chunk; *written is what was written.
 * A stream that ends before size bytes or goes on after them is refused: the
 * file changed, and the properties made from it describe another file.
 */
static gboolean copy_data(KmTransaction *tx, uint64_t ino, GInputStream *in, guint64 size,
			  KmProgressFunc progress, gpointer user_data, GCancellable *cancellable,
			  guint64 *written, GError **error)
{
	g_autofree guint8 *buf = g_malloc(CHUNK_SIZE);
	KmLibrary *lib = tx->lib;

	*written = 0;
	for (;;) {
		gsize n = 0;
		int64_t w;

		if (!g_input_stream_read_all(in, buf, CHUNK_SIZE, &n, cancellable, error))
			return FALSE;
		if (n == 0 && *written == size)
			return TRUE;
		if (n == 0 || n > size - *written) {
			g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID,
				    n ? _("the file changed while it was copied: longer than its "
					  "%llu bytes")
				      : _("the file changed while it was copied: shorter than its "
					  "%llu bytes"), (unsigned long long)size);
			return FALSE;
		}
		w = omfs_write(lib->fs, ino, *written, buf, n);
		if (w < 0)
			return km_files_error(lib, (int)w, error, _("writing the data file"));
		*written += n;
		km_progress_report(progress, user_data, KM_PHASE_COPYING, *written, size);
		if (g_cancellable_set_error_if_cancelled(cancellable, error))
			return FALSE;
	}
}

KmProperties *km_transaction_new_object(const KmProperties *props, guint32 fid,
					guint32 generation, guint64 length, gint64 now)
{
	KmProperties *object = km_properties_copy(props);

	km_properties_set_fid(object, fid);
	km_properties_set_uint(object, "length", length);
	km_properties_set_uint(object, "fid_generation", generation);
	if (!km_properties_contains(object, "ctime"))
		km_properties_set_uint(object, "ctime", (guint64)MAX(now, 0));
	if (!km_properties_get(object, "type"))
		km_properties_set(object, "type", "tune");
	return object;
}

gboolean km_transaction_add_stream(KmTransaction *tx, const KmProperties *props,
				   GInputStream *in, guint64 size, KmProgressFunc progress,
				   gpointer user_data, GCancellable *cancellable, guint32 *fid_out,
				   GError **error)
{
	KmLibrary *lib;
	char name[4], path[KM_FID_PATH_SIZE];
	guint32 fid, generation;
	uint64_t dir, ino;
	guint64 written = 0;
	int err;

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), FALSE);
	g_return_val_if_fail(props && G_IS_INPUT_STREAM(in), FALSE);
	lib = tx->lib;
	if (!km_transaction_check(tx, error) ||
	    g_cancellable_set_error_if_cancelled(cancellable, error) ||
	    !km_transaction_new_fid(tx, &fid, &generation, error))
		return FALSE;
	km_files_fid_name(fid, KM_FID_FILE_DATA, name);
	km_fid_format_path(fid, KM_FID_FILE_DATA, path);
	if (!km_files_fid_dir(lib, fid, TRUE, &dir, error))
		goto fail;
	err = omfs_create(lib->fs, dir, name, strlen(name), &ino);
	if (err) {
		km_files_error(lib, err, error, path);
		goto fail;
	}
	if (!copy_data(tx, ino, in, size, progress, user_data, cancellable, &written, error)) {
		/* What is left of it is an orphan, which verify --repair removes. */
		km_files_remove(lib, dir, name, path, NULL);
		goto fail;
	}
	km_transaction_stage_new(tx, km_transaction_new_object(props, fid, generation, written,
							      km_library_now(lib)), TRUE);
	if (fid_out)
		*fid_out = fid;
	return TRUE;
fail:
	km_fid_allocator_release(lib->fids, fid);
	return FALSE;
}

#define FILE_STATE G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_TIME_MODIFIED "," \
	G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC

static gboolean same_state(GFileInfo *a, GFileInfo *b)
{
	return g_file_info_get_size(a) == g_file_info_get_size(b) &&
	       g_file_info_get_attribute_uint64(a, G_FILE_ATTRIBUTE_TIME_MODIFIED) ==
	       g_file_info_get_attribute_uint64(b, G_FILE_ATTRIBUTE_TIME_MODIFIED) &&
	       g_file_info_get_attribute_uint32(a, G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC) ==
	       g_file_info_get_attribute_uint32(b, G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC);
}

static gboolean file_changed(const char *path, GError **error)
{
	g_autofree char *shown = g_filename_display_name(path);

	g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID,
		    /* Translators: a file's name */
		    _("%s changed while it was added (its size or time): not added"), shown);
	return FALSE;
}

/*
 * The file must be the one its properties were made from (their length),
 * and stay so until it is copied (size and modification time before and
 * after): a file being written or cut meanwhile would be stored truncated.
 */
gboolean km_transaction_add_file(KmTransaction *tx, const KmProperties *props, const char *path,
				 KmProgressFunc progress, gpointer user_data,
				 GCancellable *cancellable, guint32 *fid_out, GError **error)
{
	g_autoptr(GFile) file = g_file_new_for_path(path);
	g_autoptr(GFileInfo) before = NULL;
	g_autoptr(GFileInfo) after = NULL;
	g_autoptr(GFileInputStream) in = NULL;
	guint64 length;
	guint32 fid;

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), FALSE);
	if (!km_transaction_check(tx, error))
		return FALSE;
	before = g_file_query_info(file, FILE_STATE, G_FILE_QUERY_INFO_NONE, cancellable, error);
	in = before ? g_file_read(file, cancellable, error) : NULL;
	if (!in)
		return FALSE;
	if (km_properties_get_uint(props, "length", &length) &&
	    length != (guint64)g_file_info_get_size(before))
		return file_changed(path, error);
	if (!km_transaction_add_stream(tx, props, G_INPUT_STREAM(in),
				       (guint64)g_file_info_get_size(before), progress, user_data,
				       cancellable, &fid, error))
		return FALSE;
	after = g_file_query_info(file, FILE_STATE, G_FILE_QUERY_INFO_NONE, NULL, NULL);
	if (!after || !same_state(before, after)) {
		forget_added(tx, fid, NULL);
		return file_changed(path, error);
	}
	if (fid_out)
		*fid_out = fid;
	return TRUE;
}

/* ---- removing and editing ---- */

/* An object this transaction added: its data file goes now, its fid is free again. */
static gboolean forget_added(KmTransaction *tx, guint32 fid, GError **error)
{
	KmStaged *s = g_hash_table_lookup(tx->staged, GUINT_TO_POINTER(fid));
	char name[4], path[KM_FID_PATH_SIZE];
	uint64_t dir;

	if (s->data_written) {
		km_files_fid_name(fid, KM_FID_FILE_DATA, name);
		km_fid_format_path(fid, KM_FID_FILE_DATA, path);
		if (!km_files_fid_dir(tx->lib, fid, FALSE, &dir, error) ||
		    (dir != OMFS_NIL && !km_files_remove(tx->lib, dir, name, path, error)))
			return FALSE;
	}
	g_hash_table_remove(tx->staged, GUINT_TO_POINTER(fid));
	km_room_tally_forget(&tx->room, fid);
	km_fid_allocator_release(tx->lib->fids, fid);
	return TRUE;
}

gboolean km_transaction_remove(KmTransaction *tx, guint32 fid, GError **error)
{
	g_autoptr(GHashTable) gone = g_hash_table_new(NULL, NULL);
	KmStaged *s;

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), FALSE);
	g_hash_table_add(gone, GUINT_TO_POINTER(fid));
	if (!km_transaction_check(tx, error) || !km_transaction_get(tx, fid, error) ||
	    !km_transaction_unlist(tx, gone, error))
		return FALSE;
	s = g_hash_table_lookup(tx->staged, GUINT_TO_POINTER(fid));
	if (s && s->added)
		return forget_added(tx, fid, error);
	if (!s) {
		s = g_new0(KmStaged, 1);
		g_hash_table_insert(tx->staged, GUINT_TO_POINTER(fid), s);
	}
	g_clear_pointer(&s->object, km_properties_unref);
	return TRUE;
}

/*
 * Not the fid (the file's name), nor the type (what the data file holds: a
 * playlist's is rewritten from its list), nor the binary properties.
 */
static gboolean key_is_settable(const char *key, GError **error)
{
	const char *why = NULL;

	if (km_properties_is_blob_key(key))
		why = "it is binary";
	else if (strcmp(key, "fid") == 0)
		why = "the fid is the file's name";
	else if (strcmp(key, "type") == 0)
		why = "an object's type is what its data file holds";
	if (!why)
		return TRUE;
	g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID, "'%s' cannot be set: %s",
		    key, why);
	return FALSE;
}

gboolean km_transaction_set_property(KmTransaction *tx, guint32 fid, const char *key,
				     const char *value, GError **error)
{
	KmProperties *object;

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), FALSE);
	g_return_val_if_fail(key != NULL, FALSE);
	if (!km_transaction_check(tx, error) || !km_property_check(key, value, error) ||
	    !key_is_settable(key, error))
		return FALSE;
	object = km_transaction_edit(tx, fid, error);
	if (!object)
		return FALSE;
	if (value)
		km_properties_set(object, key, value);
	else
		km_properties_remove(object, key);
	return TRUE;
}

/* ---- duplicates ---- */

static gboolean staged_duplicate(KmTransaction *tx, guint32 fid, const KmProperties *candidate)
{
	const KmStaged *s = g_hash_table_lookup(tx->staged, GUINT_TO_POINTER(fid));

	return s && s->object && km_library_is_duplicate(s->object, candidate);
}

/* Among the staged objects: those indexed under candidate's rid, then the edited ones. */
static gboolean find_staged_duplicate(KmTransaction *tx, const KmProperties *candidate,
				      guint32 *fid)
{
	const char *rid = km_properties_get(candidate, "rid");
	GArray *fids = rid ? g_hash_table_lookup(tx->rid_index, rid) : NULL;
	GHashTableIter iter;
	gpointer key;

	for (guint i = 0; fids && i < fids->len; i++) {
		*fid = g_array_index(fids, guint32, i);
		if (staged_duplicate(tx, *fid, candidate))
			return TRUE;
	}
	g_hash_table_iter_init(&iter, tx->edited);
	while (g_hash_table_iter_next(&iter, &key, NULL)) {
		*fid = GPOINTER_TO_UINT(key);
		if (staged_duplicate(tx, *fid, candidate))
			return TRUE;
	}
	return FALSE;
}

gboolean km_transaction_find_duplicate(KmTransaction *tx, const KmProperties *candidate,
				       guint32 *fid)
{
	guint32 found;

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), FALSE);
	if (find_staged_duplicate(tx, candidate, &found)) {
		if (fid)
			*fid = found;
		return TRUE;
	}
	/* A committed duplicate counts unless this transaction changed or removed it. */
	if (!km_library_find_duplicate(tx->lib, candidate, &found) ||
	    g_hash_table_contains(tx->staged, GUINT_TO_POINTER(found)))
		return FALSE;
	if (fid)
		*fid = found;
	return TRUE;
}

/* ---- commit and rollback ---- */

static gint compare_fids(gconstpointer a, gconstpointer b)
{
	guint32 fa = km_properties_get_fid(*(KmProperties *const *)a);
	guint32 fb = km_properties_get_fid(*(KmProperties *const *)b);

	return fa < fb ? -1 : fa > fb;
}

KmChangeSet *km_transaction_staged_changes(KmTransaction *tx)
{
	KmChangeSet *cs = km_change_set_new();
	GHashTableIter iter;
	gpointer key, value;

	g_hash_table_iter_init(&iter, tx->staged);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		const KmStaged *s = value;

		if (s->object)
			km_change_set_put(cs, s->object);
		else
			km_change_set_delete(cs, GPOINTER_TO_UINT(key));
	}
	g_ptr_array_sort(cs->puts, compare_fids);
	return cs;
}

static void finish(KmTransaction *tx)
{
	tx->done = TRUE;
	if (tx->lib->tx == tx)
		tx->lib->tx = NULL;
	g_hash_table_remove_all(tx->staged);
	g_hash_table_remove_all(tx->rid_index);
	g_hash_table_remove_all(tx->edited);
	km_room_tally_reset(&tx->room);
}

/*
 * The player's own deletions (its smalldb bitmap) go with every commit
 * (km-commit.c): their entries leave the playlists, as a removal's do.
 */
static gboolean unlist_player_deletions(KmTransaction *tx, GError **error)
{
	GArray *deleted = tx->lib->pending_deletes;
	g_autoptr(GHashTable) gone = g_hash_table_new(NULL, NULL);

	for (guint i = 0; i < deleted->len; i++)
		g_hash_table_add(gone, GUINT_TO_POINTER(g_array_index(deleted, guint32, i)));
	return deleted->len == 0 || km_transaction_unlist(tx, gone, error);
}

gboolean km_transaction_commit(KmTransaction *tx, GError **error)
{
	g_autoptr(KmChangeSet) cs = NULL;
	g_autoptr(GHashTable) sources = NULL;
	gboolean ok;

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), FALSE);
	if (!km_transaction_check(tx, error))
		return FALSE;
	/* Nothing changed: nothing is written, smalldb included (as libkarma). */
	if (g_hash_table_size(tx->staged) == 0 && tx->lib->pending_deletes->len == 0) {
		finish(tx);
		return TRUE;
	}
	if (!unlist_player_deletions(tx, error))
		return FALSE;
	cs = km_transaction_staged_changes(tx);
	ok = km_transaction_write_sources(tx, &sources, error) &&
	     km_library_commit_changes(tx->lib, cs, KM_COMMIT_JOURNAL, error);
	if (ok && sources) {
		g_hash_table_unref(tx->lib->sources);
		tx->lib->sources = g_steal_pointer(&sources);
	}
	/* A commit that wrote nothing can be retried or rolled back; one that wrote, not. */
	if (ok || tx->lib->failed)
		finish(tx);
	return ok;
}

gboolean km_transaction_rollback(KmTransaction *tx, GError **error)
{
	g_autoptr(GError) first = NULL;
	GHashTableIter iter;
	gpointer key, value;
	g_autoptr(GArray) added = g_array_new(FALSE, FALSE, sizeof(gpointer));

	g_return_val_if_fail(KM_IS_TRANSACTION(tx), FALSE);
	if (tx->done)
		return TRUE;
	g_hash_table_iter_init(&iter, tx->staged);
	while (g_hash_table_iter_next(&iter, &key, &value))
		if (((KmStaged *)value)->added)
			g_array_append_val(added, key);
	for (guint i = 0; i < added->len && tx->lib->fs; i++) {
		guint32 fid = GPOINTER_TO_UINT(g_array_index(added, gpointer, i));
		g_autoptr(GError) local = NULL;

		if (!forget_added(tx, fid, &local) && !first)
			first = g_steal_pointer(&local);
	}
	finish(tx);
	if (!first && tx->lib->fs && tx->lib->writable)
		km_files_sync(tx->lib, &first);
	if (first) {
		g_propagate_error(error, g_steal_pointer(&first));
		return FALSE;
	}
	return TRUE;
}

void km_transaction_abandon(KmTransaction *tx)
{
	km_transaction_rollback(tx, NULL);
}
