/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-convert-temp.c - conversions' temporary folders (km-convert-temp.h). */
#include "km-convert-temp.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PREFIX "karma-manager-convert-"

/* The pid in "karma-manager-convert-PID-XXXXXX", or 0 when the name is not one of ours. */
static pid_t folder_pid(const char *name)
{
	const char *digits = name + strlen(PREFIX);
	char *end = NULL;
	long pid;

	if (!g_str_has_prefix(name, PREFIX) || !g_ascii_isdigit(*digits))
		return 0;
	errno = 0;
	pid = strtol(digits, &end, 10);
	if (errno || pid <= 0 || pid > G_MAXINT32 || *end != '-' || strlen(end + 1) != 6)
		return 0;
	return (pid_t)pid;
}

static gboolean process_gone(pid_t pid)
{
	return kill(pid, 0) < 0 && errno == ESRCH;
}

static gboolean is_real_dir(const char *path)
{
	GStatBuf st;

	return g_lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * Removes dir's entries, descending into real folders while levels > 0,
 * then dir: a symbolic link is removed, never followed.
 */
static void remove_levels(const char *dir, guint levels)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);

		if (levels > 0 && is_real_dir(path))
			remove_levels(path, levels - 1);
		else
			g_unlink(path);
	}
	if (d)
		g_dir_close(d);
	g_rmdir(dir);
}

guint km_convert_temp_sweep(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;
	guint removed = 0;

	while (d && (name = g_dir_read_name(d))) {
		pid_t pid = folder_pid(name);
		g_autofree char *path = NULL;

		if (!pid || pid == getpid() || !process_gone(pid))
			continue;
		path = g_build_filename(dir, name, NULL);
		if (!is_real_dir(path))
			continue;
		remove_levels(path, 1);	/* INDEX/NAME.EXT */
		removed += !g_file_test(path, G_FILE_TEST_EXISTS);
	}
	if (d)
		g_dir_close(d);
	return removed;
}

char *km_convert_temp_folder_new(GError **error)
{
	g_autofree char *tmpl = g_strdup_printf(PREFIX "%d-XXXXXX", (int)getpid());

	km_convert_temp_sweep(g_get_tmp_dir());
	return g_dir_make_tmp(tmpl, error);
}
