/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-session-walk.c - host files and folders to the files an add job copies. */
#include "km-session-walk.h"

#include <glib/gi18n.h>

/* Folders nested deeper than this are not walked (a loop, or a hostile tree). */
#define ADD_MAX_DEPTH 32
#define ADD_MAX_FILES 1000000u
#define WALK_ATTRIBUTES G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE "," \
	G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_UNIX_DEVICE "," G_FILE_ATTRIBUTE_UNIX_INODE

typedef struct {
	GPtrArray *roots;
	GCancellable *cancellable;
	KmReport *report;
	guint64 *total;
	GPtrArray *files;
	GHashTable *folders;	/* "device:inode" of the folders walked: a bind mount can loop */
} Walk;

static void walk_file_free(gpointer data)
{
	KmWalkFile *file = data;

	g_object_unref(file->file);
	g_free(file->path);
	g_free(file);
}

static void add_found(Walk *walk, GFile *file, GFileInfo *info, guint root)
{
	KmWalkFile *found = g_new0(KmWalkFile, 1);

	found->file = g_object_ref(file);
	found->path = g_file_get_path(file);
	found->size = (guint64)g_file_info_get_size(info);
	found->root = root;
	g_ptr_array_add(walk->files, found);
	*walk->total += found->size;
}

static gint compare_names(gconstpointer a, gconstpointer b)
{
	return g_strcmp0(g_file_info_get_name(*(GFileInfo *const *)a),
			 g_file_info_get_name(*(GFileInfo *const *)b));
}

static void walk_file(Walk *walk, GFile *file, GFileInfo *info, guint root, guint depth);

/* Whether the folder was walked already: its files are queued once. */
static gboolean seen_before(Walk *walk, GFileInfo *info)
{
	char *id = g_strdup_printf("%u:%" G_GUINT64_FORMAT,
				   g_file_info_get_attribute_uint32(info, G_FILE_ATTRIBUTE_UNIX_DEVICE),
				   g_file_info_get_attribute_uint64(info, G_FILE_ATTRIBUTE_UNIX_INODE));

	return !g_hash_table_add(walk->folders, id);
}

/* A folder's entries in name order; hidden ones (.DS_Store, .directory) are not music. */
static void walk_folder(Walk *walk, GFile *folder, guint root, guint depth)
{
	GCancellable *cancellable = walk->cancellable;
	g_autoptr(GFileEnumerator) children = NULL;
	g_autoptr(GPtrArray) infos = g_ptr_array_new_with_free_func(g_object_unref);
	g_autoptr(GError) error = NULL;
	GFileInfo *info;

	children = g_file_enumerate_children(folder, WALK_ATTRIBUTES,
					     G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, cancellable,
					     &error);
	while (children && infos->len < ADD_MAX_FILES &&
	       (info = g_file_enumerator_next_file(children, cancellable, &error)))
		g_ptr_array_add(infos, info);
	if (error && !g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		km_report_add(walk->report, folder, 0, KM_ITEM_FAILED, error->message);
	g_ptr_array_sort(infos, compare_names);
	for (guint i = 0; i < infos->len; i++) {
		const char *name = g_file_info_get_name(infos->pdata[i]);
		g_autoptr(GFile) child = g_file_get_child(folder, name);

		if (name[0] != '.')
			walk_file(walk, child, infos->pdata[i], root, depth + 1);
	}
}

/* Symlinks to files are followed; to folders, not (a link back up would loop). */
static void walk_file(Walk *walk, GFile *file, GFileInfo *info, guint root, guint depth)
{
	g_autoptr(GFileInfo) target = NULL;

	if (walk->files->len >= ADD_MAX_FILES ||
	    g_cancellable_is_cancelled(walk->cancellable))
		return;
	if (g_file_info_get_file_type(info) == G_FILE_TYPE_SYMBOLIC_LINK) {
		target = g_file_query_info(file, WALK_ATTRIBUTES, G_FILE_QUERY_INFO_NONE, NULL,
					   NULL);
		if (!target || g_file_info_get_file_type(target) != G_FILE_TYPE_REGULAR)
			return;
		info = target;
	}
	switch (g_file_info_get_file_type(info)) {
	case G_FILE_TYPE_DIRECTORY:
		if (seen_before(walk, info))
			break;
		if (depth < ADD_MAX_DEPTH)
			walk_folder(walk, file, root, depth);
		else
			km_report_add(walk->report, file, 0, KM_ITEM_FAILED,
				      _("Folders nested too deep"));
		break;
	case G_FILE_TYPE_REGULAR:
		add_found(walk, file, info, root);
		break;
	default:
		km_report_add(walk->report, file, 0, KM_ITEM_UNSUPPORTED,
			      _("Not a regular file"));
		break;
	}
}

GPtrArray *km_walk_files(GPtrArray *roots, GCancellable *cancellable, KmReport *report,
			 guint64 *total)
{
	g_autoptr(GHashTable) folders = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	Walk walk_state = { roots, cancellable, report, total,
			    g_ptr_array_new_with_free_func(walk_file_free), folders };
	Walk *walk = &walk_state;

	*total = 0;
	for (guint i = 0; i < walk->roots->len; i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(GFileInfo) info = g_file_query_info(walk->roots->pdata[i],
							      WALK_ATTRIBUTES,
							      G_FILE_QUERY_INFO_NONE, NULL, &error);

		if (info)
			walk_file(walk, walk->roots->pdata[i], info, i, 0);
		else
			km_report_add(walk->report, walk->roots->pdata[i], 0, KM_ITEM_FAILED,
				      error->message);
	}
	return walk->files;
}

