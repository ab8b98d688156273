/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-library-fsck.c - the file system check of verify (KM_VERIFY_FLAG_FILE_SYSTEM):
 * omfs_fsck on the library's volume, as karmactl fsck runs it, its problems
 * as KM_VERIFY_FILE_SYSTEM findings.
 *
 * fsck mounts the volume itself. A check (read-only) may run beside the
 * library's mount once the library has written everything back: nothing
 * changes the volume meanwhile (one thread owns the library), as the check
 * before a verify repair relies on too. A repair must not: the library's
 * mount would later write its cached blocks (the bitmap among them) over
 * what fsck repaired. So the library lets its mount go, fsck repairs, and
 * the library mounts the volume again; verify then reads the files afresh.
 */
#include "km-verify-plan.h"

#include <string.h>

/* The problems fsck reports (leaks included), one sentence each. */
static void on_finding(void *ctx, enum omfs_fsck_severity sev, const char *msg)
{
	if (sev == OMFS_FSCK_ERROR || sev == OMFS_FSCK_LEAK)
		g_ptr_array_add(ctx, g_strdup(msg));
}

/* What fsck found (problem sentences), or NULL when it could not check the volume. */
static GPtrArray *run_fsck(KmLibrary *lib, gboolean repair, GError **error)
{
	g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func(g_free);
	struct omfs_fsck_opts opts = {
		.repair = repair, .report = on_finding, .report_ctx = found,
	};
	struct omfs_fsck_result res;

	if (omfs_fsck(lib->volume, &opts, &res) == OMFS_FSCK_OPERATIONAL) {
		/* the last sentence says why fsck stopped */
		const char *why = found->len ? found->pdata[found->len - 1] : "unknown error";

		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO,
			    "the file system could not be checked: %s", why);
		return NULL;
	}
	return g_steal_pointer(&found);
}

/* fsck --repair with the library's mount let go, then mounted again. */
static GPtrArray *repair_fsck(KmLibrary *lib, GError **error)
{
	g_autoptr(GError) local = NULL;
	GPtrArray *found;

	/* written back already (km_verify_file_system) */
	omfs_unmount(lib->fs);
	lib->fs = NULL;
	found = run_fsck(lib, TRUE, &local);
	/* without its mount the library is closed: every later call says so */
	if (!km_library_mount_again(lib, local ? NULL : error)) {
		g_clear_pointer(&found, g_ptr_array_unref);
		if (lib->fs)
			g_clear_pointer(&lib->fs, omfs_unmount);
	}
	if (local)
		g_propagate_error(error, g_steal_pointer(&local));
	return found;
}

static gboolean in(GPtrArray *messages, const char *msg)
{
	for (guint i = 0; i < messages->len; i++)
		if (strcmp(messages->pdata[i], msg) == 0)
			return TRUE;
	return FALSE;
}

gboolean km_verify_file_system(KmLibrary *lib, Plan *plan, gboolean repair, GError **error)
{
	g_autoptr(GPtrArray) found = NULL;
	g_autoptr(GPtrArray) again = NULL;
	int err = omfs_sync(lib->fs);

	if (err)
		return km_files_error(lib, err, error, "writing back before the check");
	found = repair ? repair_fsck(lib, error) : run_fsck(lib, FALSE, error);
	if (!found)
		return FALSE;
	/* as verify's repair: only what a check after it no longer finds counts as repaired */
	if (repair && found->len && !(again = run_fsck(lib, FALSE, error)))
		return FALSE;
	for (guint i = 0; i < found->len; i++) {
		const char *msg = found->pdata[i];
		guint n = plan->report->findings->len;

		/* fsck --repair fixes what is safe to fix: every problem is worth the try */
		km_verify_add_finding(plan, KM_VERIFY_FILE_SYSTEM, 0, TRUE, g_strdup(msg));
		((KmVerifyFinding *)plan->report->findings->pdata[n])->repaired =
			again && !in(again, msg);
	}
	return TRUE;
}
