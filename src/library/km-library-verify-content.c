/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-verify-content.c - the checks of verify that look inside
 * objects rather than at which files exist: properties read from the
 * audio itself when nothing else has them, numbers smalldb cannot hold and
 * playlists longer than the player's limit, every playlist entry names a
 * track that is there (repair drops the ones that do not), and, when asked,
 * every data file reads in full (a damaged extent shows only when read).
 */
#include "km-verify-plan.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "km-import.h"
#include "km-playlist.h"

/* Bytes per read: large requests, as the core serves a whole extent per call. */
#define READ_CHUNK (1u << 20)

/* ---- numbers and lengths smalldb and the player cannot hold ---- */

/*
 * Numbers smalldb would store cut to its column's width. A tune's length is
 * its data file's size, so that one is set; the others only the user knows.
 * Returns the object to go on with (object, or its repaired copy).
 */
KmProperties *km_verify_check_numbers(Plan *plan, const KmScanEntry *e, KmProperties *object)
{
	guint n_keys;
	const char *const *keys = km_properties_keys(object, &n_keys);
	gboolean set_length = FALSE;
	KmProperties *fixed;

	for (guint i = 0; i < n_keys; i++) {
		const char *value = km_properties_get(object, keys[i]);
		guint64 max;

		if (!value || km_smalldb_number_fits(keys[i], value, &max))
			continue;
		if (strcmp(keys[i], "length") == 0 && !e->data_problem && e->data_size <= max) {
			km_verify_add_finding(plan, KM_VERIFY_BAD_VALUE, e->fid, TRUE,
				g_strdup_printf("fid %u: length=%s is not a number smalldb can "
						"hold: set to the data file's size, %"
						G_GUINT64_FORMAT, e->fid, value, e->data_size));
			set_length = TRUE;
			continue;
		}
		km_verify_add_finding(plan, KM_VERIFY_BAD_VALUE, e->fid, FALSE,
			g_strdup_printf("fid %u: %s=%s is not a number smalldb can hold (0 to %"
					G_GUINT64_FORMAT "): set it (karmactl tag %u %s=N) or "
					"remove it (karmactl tag %u %s=)", e->fid, keys[i], value,
					max, e->fid, keys[i], e->fid, keys[i]));
	}
	if (!set_length)
		return object;
	fixed = km_properties_copy(object);
	km_properties_set_uint(fixed, "length", e->data_size);
	km_change_set_put(plan->cs, fixed);
	return fixed;
}

/* A playlist the player cannot hold whole: the limit is the one playlist add keeps. */
void km_verify_check_playlist_length(Plan *plan, guint32 fid, KmProperties *object)
{
	g_autoptr(GArray) entries = NULL;
	const char *title = km_properties_get(object, "title");

	if (g_strcmp0(km_properties_get(object, "type"), "playlist") != 0)
		return;
	entries = km_playlist_from_properties(object, NULL);
	if (!entries || entries->len <= KM_PLAYLIST_MAX_ENTRIES)
		return;
	km_verify_add_finding(plan, KM_VERIFY_BAD_VALUE, fid, FALSE,
			      g_strdup_printf("fid %u: playlist '%s' has %u entries, more than "
					      "the player's %u: remove some (karmactl playlist "
					      "remove)", fid, title ? title : "", entries->len,
					      KM_PLAYLIST_MAX_ENTRIES));
}

/* ---- properties from the audio itself ---- */

static gboolean copy_failed(int fd, const char *path, GError **error, const char *why)
{
	close(fd);
	g_unlink(path);
	g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO, "copying the data file out: %s",
		    why);
	return FALSE;
}

/* The data file into the host file fd (path, removed when this fails). */
static gboolean copy_out(Plan *plan, const KmScanEntry *e, int fd, const char *path,
			 GError **error)
{
	g_autofree guint8 *buf = g_malloc(READ_CHUNK);

	for (guint64 off = 0; off < e->data_size;) {
		int64_t n = omfs_read(plan->lib->fs, e->data_ino, off, buf,
				      (size_t)MIN(READ_CHUNK, e->data_size - off));

		if (n <= 0)
			return copy_failed(fd, path, error, n < 0 ? g_strerror((int)-n) :
					   "it ends early");
		if (write(fd, buf, (size_t)n) != n)
			return copy_failed(fd, path, error, g_strerror(errno));
		off += (guint64)n;
	}
	return close(fd) == 0 || copy_failed(-1, path, error, g_strerror(errno));
}

KmProperties *km_verify_props_from_audio(Plan *plan, const KmScanEntry *e, GError **error)
{
	static const char *const kept[] = { "fid_generation", "ctime" };
	g_autofree char *path = NULL;
	KmProperties *props;
	int fd = g_file_open_tmp("karma-verify-XXXXXX", &path, error);

	if (fd < 0 || !copy_out(plan, e, fd, path, error))
		return NULL;
	props = km_import_file(path, KM_IMPORT_FLAGS_NONE, error);
	g_unlink(path);
	if (!props)
		return NULL;
	km_properties_set_fid(props, e->fid);
	for (guint i = 0; e->damaged && i < G_N_ELEMENTS(kept); i++)
		if (km_properties_get(e->damaged, kept[i]))
			km_properties_set(props, kept[i], km_properties_get(e->damaged, kept[i]));
	return props;
}

/* ---- playlist entries ---- */

/* Why entry e names no object of plan->objects, or NULL when it names one. */
static char *dangling_reason(Plan *plan, const KmPlaylistEntry *e)
{
	KmProperties *target = g_hash_table_lookup(plan->objects, GUINT_TO_POINTER(e->fid));
	guint64 generation;

	if (!target)
		return g_strdup_printf("fid %u is gone", e->fid);
	if (!km_properties_get_uint(target, "fid_generation", &generation))
		return g_strdup_printf("fid %u has no fid_generation (the entry has %u)", e->fid,
				       e->generation);
	if (generation != e->generation)
		return g_strdup_printf("fid %u is now another object (generation %" G_GUINT64_FORMAT
				       ", the entry has %u)", e->fid, generation, e->generation);
	return NULL;
}

static void check_playlist(Plan *plan, KmProperties *playlist)
{
	guint32 fid = km_properties_get_fid(playlist);
	g_autoptr(GArray) entries = NULL;
	g_autoptr(GArray) kept = NULL;
	g_autoptr(KmProperties) fixed = NULL;
	g_autoptr(GError) error = NULL;
	const char *title;

	entries = km_playlist_from_properties(playlist, &error);
	if (!entries) {
		km_verify_add_finding(plan, KM_VERIFY_BAD_PROPERTIES, fid, FALSE,
				      g_strdup_printf("fid %u: the playlist: %s", fid,
						      error->message));
		return;
	}
	title = km_properties_get(playlist, "title");
	kept = g_array_new(FALSE, FALSE, sizeof(KmPlaylistEntry));
	for (guint i = 0; i < entries->len; i++) {
		const KmPlaylistEntry *e = &g_array_index(entries, KmPlaylistEntry, i);
		char *why = dangling_reason(plan, e);

		if (!why) {
			g_array_append_val(kept, *e);
			continue;
		}
		km_verify_add_finding(plan, KM_VERIFY_DANGLING_ENTRY, fid, TRUE,
				      g_strdup_printf("fid %u: playlist '%s', entry %u: %s", fid,
						      title ? title : "", i, why));
		g_free(why);
	}
	if (kept->len == entries->len)
		return;
	/* Written last, this put wins over an earlier one of the same playlist. */
	fixed = km_properties_copy(playlist);
	km_playlist_to_properties(fixed, kept);
	km_change_set_put(plan->cs, fixed);
	g_hash_table_insert(plan->objects, GUINT_TO_POINTER(fid), km_properties_ref(fixed));
}

void km_verify_check_playlists(Plan *plan)
{
	g_autoptr(GPtrArray) objects = km_library_sorted(plan->objects);

	for (guint i = 0; i < objects->len; i++) {
		KmProperties *object = objects->pdata[i];

		if (g_strcmp0(km_properties_get(object, "type"), "playlist") == 0)
			check_playlist(plan, object);
	}
}

/* ---- track data ---- */

static void unreadable(Plan *plan, guint32 fid, char *message)
{
	km_verify_add_finding(plan, KM_VERIFY_UNREADABLE, fid, FALSE, message);
}

static void read_one(KmLibrary *lib, Plan *plan, const KmScanEntry *e, guint8 *buf)
{
	guint64 done = 0;

	while (done < e->data_size) {
		size_t want = (size_t)MIN((guint64)READ_CHUNK, e->data_size - done);
		int64_t n = omfs_read(lib->fs, e->data_ino, done, buf, want);

		if (n < 0) {
			unreadable(plan, e->fid,
				   g_strdup_printf("fid %u: reading the data file at byte %"
						   G_GUINT64_FORMAT ": %s (%s)", e->fid, done,
						   g_strerror((int)-n), omfs_errmsg(lib->fs)));
			return;
		}
		if (n == 0) {
			unreadable(plan, e->fid,
				   g_strdup_printf("fid %u: the data file ends at byte %"
						   G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT,
						   e->fid, done, e->data_size));
			return;
		}
		done += (guint64)n;
	}
}

gboolean km_verify_read_data(KmLibrary *lib, Plan *plan, const KmScan *scan,
			     GCancellable *cancellable, GError **error)
{
	g_autoptr(GPtrArray) objects = km_library_sorted(plan->objects);
	g_autofree guint8 *buf = g_malloc(READ_CHUNK);

	for (guint i = 0; i < objects->len; i++) {
		guint32 fid = km_properties_get_fid(objects->pdata[i]);
		const KmScanEntry *e = g_hash_table_lookup(scan->entries, GUINT_TO_POINTER(fid));

		if (g_cancellable_set_error_if_cancelled(cancellable, error))
			return FALSE;
		/* a problem found without reading is reported already */
		if (e && e->data_ino != OMFS_NIL && !e->data_problem)
			read_one(lib, plan, e, buf);
	}
	return TRUE;
}
