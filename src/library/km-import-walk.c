/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-import-walk.c - the host files an add imports (km-import-walk.h). */
#include "km-import-walk.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
	gboolean recursive;
	GCancellable *cancellable;
	KmWalkProblemFunc problem;
	gpointer data;
	guint64 *total;
	GPtrArray *files;
	GHashTable *folders;	/* "device:inode" of the folders walked */
} Walk;

static void walk_file_free(gpointer data)
{
	KmWalkFile *file = data;

	g_free(file->path);
	g_free(file);
}

static gboolean stopped(const Walk *walk)
{
	return walk->files->len >= KM_WALK_MAX_FILES ||
	       g_cancellable_is_cancelled(walk->cancellable);
}

static void add_found(Walk *walk, const char *path, const struct stat *st, guint root,
		      gboolean is_root)
{
	KmWalkFile *found = g_new0(KmWalkFile, 1);

	found->path = g_strdup(path);
	found->size = (guint64)st->st_size;
	found->root = root;
	found->is_root = is_root;
	g_ptr_array_add(walk->files, found);
	*walk->total += found->size;
}

/* Whether the folder was walked already: its files are found once. */
static gboolean seen_before(Walk *walk, const struct stat *st)
{
	return !g_hash_table_add(walk->folders,
				 g_strdup_printf("%ju:%ju", (uintmax_t)st->st_dev,
						 (uintmax_t)st->st_ino));
}

static void walk_path(Walk *walk, const char *path, const struct stat *st, guint root,
		      guint depth);

static gint compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A folder's entries in name order, so that tracks get fids in a predictable order. */
static void walk_folder(Walk *walk, const char *path, guint root, guint depth)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	GDir *dir = g_dir_open(path, 0, &error);
	const char *name;

	if (!dir) {
		walk->problem(path, root, depth == 0, KM_WALK_UNREADABLE, error->message,
			      walk->data);
		return;
	}
	while (names->len < KM_WALK_MAX_FILES && (name = g_dir_read_name(dir)))
		if (name[0] != '.')
			g_ptr_array_add(names, g_strdup(name));
	g_dir_close(dir);
	g_ptr_array_sort(names, compare_names);
	for (guint i = 0; i < names->len && !stopped(walk); i++) {
		g_autofree char *child = g_build_filename(path, names->pdata[i], NULL);
		struct stat st;

		if (lstat(child, &st) != 0) {
			walk->problem(child, root, FALSE, KM_WALK_UNREADABLE, g_strerror(errno),
				      walk->data);
			continue;
		}
		/* a link to a file is that file; to a folder, nothing */
		if (S_ISLNK(st.st_mode) && (stat(child, &st) != 0 || !S_ISREG(st.st_mode)))
			continue;
		walk_path(walk, child, &st, root, depth + 1);
	}
}

static void walk_path(Walk *walk, const char *path, const struct stat *st, guint root,
		      guint depth)
{
	KmWalkProblem problem;

	if (S_ISREG(st->st_mode)) {
		add_found(walk, path, st, root, depth == 0);
		return;
	}
	if (!S_ISDIR(st->st_mode))
		problem = KM_WALK_NOT_REGULAR;
	else if (!walk->recursive)
		problem = KM_WALK_FOLDER;
	else if (seen_before(walk, st))
		return;
	else if (depth >= KM_WALK_MAX_DEPTH)
		problem = KM_WALK_TOO_DEEP;
	else {
		walk_folder(walk, path, root, depth);
		return;
	}
	walk->problem(path, root, depth == 0, problem, NULL, walk->data);
}

GPtrArray *km_import_walk(const char *const *roots, guint n_roots, gboolean recursive,
			  GCancellable *cancellable, KmWalkProblemFunc problem, gpointer data,
			  guint64 *total)
{
	g_autoptr(GHashTable) folders = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
							      NULL);
	Walk walk = { recursive, cancellable, problem, data, total,
		      g_ptr_array_new_with_free_func(walk_file_free), folders };

	*total = 0;
	for (guint i = 0; i < n_roots && !stopped(&walk); i++) {
		struct stat st;

		if (stat(roots[i], &st) == 0)
			walk_path(&walk, roots[i], &st, i, 0);
		else
			problem(roots[i], i, TRUE, KM_WALK_UNREADABLE, g_strerror(errno), data);
	}
	return walk.files;
}
