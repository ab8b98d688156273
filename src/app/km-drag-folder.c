/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-drag-folder.c - the drag folders and their removal.
 */
#define G_LOG_DOMAIN "km-drag-folder"

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "km-drag-folder.h"

/* Deeper than any export template makes (artist/album/file): a bound on hostile trees. */
#define MAX_DEPTH 16

static char *drag_base(void)
{
	return g_build_filename(g_get_user_cache_dir(), "karma-manager", "drag", NULL);
}

GFile *km_drag_folder_new(GError **error)
{
	g_autofree char *base = drag_base();
	g_autofree char *tmpl = g_build_filename(base, "XXXXXX", NULL);

	if (g_mkdir_with_parents(base, 0700) != 0 || !g_mkdtemp_full(tmpl, 0700)) {
		int err = errno;

		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(err), "%s: %s", base,
			    g_strerror(err));
		return NULL;
	}
	return g_file_new_for_path(tmpl);
}

static void remove_tree(GFile *file, guint depth)
{
	g_autoptr(GFileEnumerator) children = NULL;
	GFileInfo *info;

	if (depth < MAX_DEPTH &&
	    g_file_query_file_type(file, G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL) ==
	    G_FILE_TYPE_DIRECTORY)
		children = g_file_enumerate_children(file, G_FILE_ATTRIBUTE_STANDARD_NAME,
						     G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL,
						     NULL);
	while (children && (info = g_file_enumerator_next_file(children, NULL, NULL))) {
		g_autoptr(GFile) child = g_file_get_child(file, g_file_info_get_name(info));

		remove_tree(child, depth + 1);
		g_object_unref(info);
	}
	g_file_delete(file, NULL, NULL);
}

void km_drag_folders_clean(void)
{
	g_autofree char *base = drag_base();
	g_autoptr(GFile) file = g_file_new_for_path(base);

	remove_tree(file, 0);
}
