/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-backup-entry.c - a backup in a folder, read from its side files
 * (km-backup-entry.h). The side files may have been edited or damaged:
 * a field that does not parse reads as unknown (0, ""), never as a crash;
 * the checksum decides, at restore, whether the backup is good.
 */
#include "km-backup-entry.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#define GROUP "backup"

struct _KmBackupEntry {
	GObject parent_instance;
	char *path;
	GDateTime *created;
	guint64 disk_size;
	guint64 used_bytes;
	char *source;
	KmBackupStatus status;
};

G_DEFINE_FINAL_TYPE(KmBackupEntry, km_backup_entry, G_TYPE_OBJECT)

static gboolean side_exists(const char *path, const char *suffix)
{
	g_autofree char *side = g_strconcat(path, suffix, NULL);

	return g_file_test(side, G_FILE_TEST_IS_REGULAR);
}

/* The image's own size and time: what an unfinished backup has to show. */
static gboolean read_image(KmBackupEntry *self, GError **error)
{
	GStatBuf st;

	if (g_stat(self->path, &st) != 0) {
		int err = errno;

		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(err), "%s: %s", self->path,
			    g_strerror(err));
		return FALSE;
	}
	if (!self->created)
		self->created = g_date_time_new_from_unix_local(st.st_mtime);
	if (!self->disk_size && st.st_size > 0)
		self->disk_size = (guint64)st.st_size;
	return TRUE;
}

static void read_info(KmBackupEntry *self, GKeyFile *kf)
{
	g_autofree char *created = g_key_file_get_string(kf, GROUP, "created", NULL);
	g_autoptr(GDateTime) utc = created ? g_date_time_new_from_iso8601(created, NULL) : NULL;

	self->created = utc ? g_date_time_to_local(utc) : NULL;
	/* a missing or malformed number reads as 0: unknown */
	self->disk_size = g_key_file_get_uint64(kf, GROUP, "disk-size", NULL);
	self->used_bytes = g_key_file_get_uint64(kf, GROUP, "used-bytes", NULL);
	self->source = g_key_file_get_string(kf, GROUP, "source", NULL);
}

KmBackupEntry *km_backup_entry_new_for_path(const char *path, GError **error)
{
	g_autoptr(KmBackupEntry) self = g_object_new(KM_TYPE_BACKUP_ENTRY, NULL);
	g_autofree char *info = g_strconcat(path, ".info", NULL);
	g_autoptr(GKeyFile) kf = g_key_file_new();

	self->path = g_strdup(path);
	if (side_exists(path, ".partial"))
		self->status = KM_BACKUP_UNFINISHED;
	else if (g_key_file_load_from_file(kf, info, G_KEY_FILE_NONE, error))
		read_info(self, kf);
	else
		return NULL;
	if (self->status != KM_BACKUP_UNFINISHED && !side_exists(path, ".sha256"))
		self->status = KM_BACKUP_NO_CHECKSUM;
	if (!self->source)
		self->source = g_strdup("");
	if (!read_image(self, error))
		return NULL;
	return g_steal_pointer(&self);
}

const char *km_backup_entry_get_path(KmBackupEntry *self)
{
	return self->path;
}

GDateTime *km_backup_entry_get_created(KmBackupEntry *self)
{
	return self->created;
}

guint64 km_backup_entry_get_disk_size(KmBackupEntry *self)
{
	return self->disk_size;
}

guint64 km_backup_entry_get_used_bytes(KmBackupEntry *self)
{
	return self->used_bytes;
}

const char *km_backup_entry_get_source(KmBackupEntry *self)
{
	return self->source;
}

KmBackupStatus km_backup_entry_get_status(KmBackupEntry *self)
{
	return self->status;
}

static gint newest_first(gconstpointer a, gconstpointer b, gpointer data)
{
	KmBackupEntry *x = (KmBackupEntry *)a, *y = (KmBackupEntry *)b;
	gint order = g_date_time_compare(y->created, x->created);

	return order ? order : g_strcmp0(y->path, x->path);
}

/* name is "X.img.info" or "X.img.partial": the image "X.img", else NULL. */
static char *image_name(const char *name)
{
	static const char *const suffixes[] = { ".img.info", ".img.partial" };

	for (guint i = 0; i < G_N_ELEMENTS(suffixes); i++)
		if (g_str_has_suffix(name, suffixes[i]) && strlen(name) > strlen(suffixes[i]))
			return g_strndup(name, strlen(name) - strlen(suffixes[i]) + 4);
	return NULL;
}

GListModel *km_backup_list_folder(const char *folder)
{
	GListStore *store = g_list_store_new(KM_TYPE_BACKUP_ENTRY);
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GDir) dir = folder ? g_dir_open(folder, 0, NULL) : NULL;
	const char *name;

	while (dir && (name = g_dir_read_name(dir))) {
		char *image = image_name(name);
		g_autofree char *path = NULL;
		g_autoptr(KmBackupEntry) entry = NULL;

		if (!image || !g_hash_table_add(seen, image))
			continue;
		path = g_build_filename(folder, image, NULL);
		entry = km_backup_entry_new_for_path(path, NULL);
		if (entry)
			g_list_store_insert_sorted(store, entry, newest_first, NULL);
	}
	return G_LIST_MODEL(store);
}

static void km_backup_entry_finalize(GObject *object)
{
	KmBackupEntry *self = KM_BACKUP_ENTRY(object);

	g_free(self->path);
	g_free(self->source);
	g_clear_pointer(&self->created, g_date_time_unref);
	G_OBJECT_CLASS(km_backup_entry_parent_class)->finalize(object);
}

static void km_backup_entry_class_init(KmBackupEntryClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = km_backup_entry_finalize;
}

static void km_backup_entry_init(KmBackupEntry *self)
{
}
