/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-session-backup.c - backups of the whole player through the session:
 * backup then restore (the library reopened, its lists as they were), a
 * cancelled backup resumed, a damaged backup refused with nothing changed,
 * a cancelled restore that leaves the session incomplete until a restore
 * finishes, the changes held until released, and the folder's list (also
 * with damaged side files).
 */
#include "session-test-util.h"

#include <glib/gstdio.h>
#include <string.h>

#include "km-backup.h"
#include "km-demo.h"
#include "km-session-backup.h"

static KmBackupEntry *backup(KmSession *session, const char *folder, GCancellable *cancellable,
			     gboolean *resumed, GError **error)
{
	g_autoptr(GFile) file = g_file_new_for_path(folder);
	g_autoptr(GAsyncResult) result = NULL;

	km_session_backup_async(session, file, NULL, NULL, NULL, cancellable, su_store_result,
				&result);
	return km_session_backup_finish(session, su_wait(&result), resumed, error);
}

static gboolean restore(KmSession *session, const char *path, GCancellable *cancellable,
			GError **error)
{
	g_autoptr(GFile) file = g_file_new_for_path(path);
	g_autoptr(GAsyncResult) result = NULL;

	km_session_restore_async(session, file, NULL, NULL, NULL, cancellable, su_store_result,
				 &result);
	return km_session_restore_finish(session, su_wait(&result), error);
}

/* The session's tracks as text ("fid title" lines) and its playlists' count. */
static char *describe(KmSession *session)
{
	GListModel *tracks = km_session_get_tracks(session);
	GString *text = g_string_new(NULL);

	for (guint i = 0; i < g_list_model_get_n_items(tracks); i++) {
		g_autoptr(KmTrack) track = g_list_model_get_item(tracks, i);

		g_string_append_printf(text, "%08x %s\n", km_track_get_fid(track),
				       km_track_get_title(track));
	}
	g_string_append_printf(text, "%u playlists, %" G_GUINT64_FORMAT " free\n",
			       g_list_model_get_n_items(km_session_get_playlists(session)),
			       km_session_get_free_bytes(session));
	return g_string_free(text, FALSE);
}

static void remove_first_tracks(KmSession *session, guint n)
{
	g_autoptr(GArray) fids = su_track_fids(session);
	g_autoptr(GAsyncResult) result = NULL;
	g_autoptr(GError) error = NULL;

	km_session_remove_async(session, (guint32 *)(void *)fids->data, n, NULL, su_store_result,
				&result);
	g_assert_true(su_edit_wait(session, &result, &error));
	g_assert_no_error(error);
}

static char *file_sha256(const char *path)
{
	g_autofree char *data = NULL;
	gsize len = 0;

	g_assert_true(g_file_get_contents(path, &data, &len, NULL));
	return g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)data, len);
}

static void test_round_trip(void)
{
	g_autofree char *image = su_demo_image();
	g_autofree char *folder = su_tmp_path("backups");
	KmSession *session = su_open(image);
	g_autofree char *before = describe(session), *after = NULL, *changed = NULL;
	g_autoptr(KmBackupEntry) entry = NULL;
	g_autoptr(GListModel) list = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *expected_prefix = NULL, *base = NULL;
	gboolean resumed = TRUE;
	guint n_tunes = 0;
	char sha[65];

	entry = backup(session, folder, NULL, &resumed, &error);
	g_assert_no_error(error);
	g_assert_false(resumed);
	g_assert_cmpint(km_backup_entry_get_status(entry), ==, KM_BACKUP_COMPLETE);
	g_assert_cmpuint(km_backup_entry_get_disk_size(entry), ==, KM_DEMO_IMAGE_SIZE);
	g_assert_cmpuint(km_backup_entry_get_used_bytes(entry), >, 0);
	g_assert_cmpuint(km_backup_entry_get_used_bytes(entry), <, KM_DEMO_IMAGE_SIZE / 2);
	g_assert_cmpstr(km_backup_entry_get_source(entry), ==, km_session_get_name(session));
	/* karma-<name>-YYYY-MM-DD-HHMM.img, the name's dots made dashes */
	expected_prefix = g_strdelimit(g_strdup_printf("karma-%s-", km_session_get_name(session)),
				       ".", '-');
	base = g_path_get_basename(km_backup_entry_get_path(entry));
	g_assert_true(g_str_has_prefix(base, expected_prefix));
	g_assert_true(g_str_has_suffix(base, ".img"));
	g_assert_cmpuint(strlen(base), ==, strlen(expected_prefix) + strlen("YYYY-MM-DD-HHMM.img"));
	g_assert_true(km_backup_check(km_backup_entry_get_path(entry), NULL, sha, &error));
	g_assert_no_error(error);

	list = km_backup_list_folder(folder);
	g_assert_cmpuint(g_list_model_get_n_items(list), ==, 1);

	remove_first_tracks(session, 5);
	changed = describe(session);
	g_assert_cmpstr(changed, !=, before);

	g_assert_true(restore(session, km_backup_entry_get_path(entry), NULL, &error));
	g_assert_no_error(error);
	g_assert_false(km_session_is_incomplete(session));
	after = describe(session);
	g_assert_cmpstr(after, ==, before);
	su_close(session);
	su_verify_image(image, &n_tunes);
	g_assert_cmpuint(n_tunes, ==, KM_DEMO_TRACKS);
}

static void test_cancelled_backup_resumes(void)
{
	g_autofree char *image = su_demo_image();
	g_autofree char *folder = su_tmp_path("backups");
	SuGate *gate;
	KmSession *session = su_gate_session(image, &gate);
	g_autoptr(GCancellable) cancellable = g_cancellable_new();
	g_autoptr(GFile) file = g_file_new_for_path(folder);
	g_autoptr(GAsyncResult) result = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(KmBackupEntry) entry = NULL, first = NULL;
	g_autoptr(GListModel) list = NULL;
	gboolean resumed = FALSE;
	char sha[65];

	g_assert_true(su_open_session(session, &error));
	/* stop in the first data read (past the bitmaps): one chunk gets copied */
	su_gate_arm_reads(gate, 256 << 10);
	km_session_backup_async(session, file, NULL, NULL, NULL, cancellable, su_store_result,
				&result);
	su_gate_wait(gate);
	g_cancellable_cancel(cancellable);
	su_gate_release(gate);
	g_assert_null(km_session_backup_finish(session, su_wait(&result), NULL, &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
	g_clear_error(&error);
	g_clear_object(&result);

	list = km_backup_list_folder(folder);
	g_assert_cmpuint(g_list_model_get_n_items(list), ==, 1);
	first = g_list_model_get_item(list, 0);
	g_assert_cmpint(km_backup_entry_get_status(first), ==, KM_BACKUP_UNFINISHED);

	entry = backup(session, folder, NULL, &resumed, &error);
	g_assert_no_error(error);
	g_assert_true(resumed);
	g_assert_cmpstr(km_backup_entry_get_path(entry), ==, km_backup_entry_get_path(first));
	g_assert_cmpint(km_backup_entry_get_status(entry), ==, KM_BACKUP_COMPLETE);
	g_assert_true(km_backup_check(km_backup_entry_get_path(entry), NULL, sha, &error));
	g_assert_no_error(error);
	su_close(session);
}

static void corrupt_byte(const char *path, goffset offset)
{
	FILE *f = fopen(path, "r+b");
	int c;

	g_assert_nonnull(f);
	g_assert_cmpint(fseek(f, offset, SEEK_SET), ==, 0);
	c = fgetc(f);
	g_assert_cmpint(fseek(f, offset, SEEK_SET), ==, 0);
	g_assert_cmpint(fputc(c ^ 0x5a, f), !=, EOF);
	g_assert_cmpint(fclose(f), ==, 0);
}

static void test_damaged_backup_refused(void)
{
	g_autofree char *image = su_demo_image();
	g_autofree char *folder = su_tmp_path("backups");
	KmSession *session = su_open(image);
	g_autoptr(KmBackupEntry) entry = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *changed = NULL, *after = NULL, *disk_before = NULL, *disk_after = NULL;

	entry = backup(session, folder, NULL, NULL, &error);
	g_assert_no_error(error);
	remove_first_tracks(session, 2);
	changed = describe(session);
	disk_before = file_sha256(image);
	/* byte 100 of the label sector: always copied, so always data in the backup */
	corrupt_byte(km_backup_entry_get_path(entry), 100);

	g_assert_false(restore(session, km_backup_entry_get_path(entry), NULL, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_CORRUPT);
	g_assert_false(km_session_is_incomplete(session));
	after = describe(session);
	g_assert_cmpstr(after, ==, changed);
	disk_after = file_sha256(image);
	g_assert_cmpstr(disk_after, ==, disk_before);
	su_close(session);
}

static void test_cancelled_restore_incomplete(void)
{
	g_autofree char *image = su_demo_image();
	g_autofree char *folder = su_tmp_path("backups");
	SuGate *gate;
	KmSession *session = su_gate_session(image, &gate);
	g_autoptr(GCancellable) cancellable = g_cancellable_new();
	g_autoptr(KmBackupEntry) entry = NULL;
	g_autoptr(GFile) file = NULL;
	g_autoptr(GAsyncResult) result = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *before = NULL, *after = NULL;
	guint32 fid = 1;

	g_assert_true(su_open_session(session, &error));
	before = describe(session);
	entry = backup(session, folder, NULL, NULL, &error);
	g_assert_no_error(error);
	remove_first_tracks(session, 10);

	/* past the mark in sector 0: in the first range the restore writes back */
	su_gate_arm(gate, 513);
	file = g_file_new_for_path(km_backup_entry_get_path(entry));
	km_session_restore_async(session, file, NULL, NULL, NULL, cancellable, su_store_result,
				 &result);
	su_gate_wait(gate);
	g_cancellable_cancel(cancellable);
	su_gate_release(gate);
	g_assert_false(km_session_restore_finish(session, su_wait(&result), &error));
	g_assert_error(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
	g_clear_error(&error);
	g_clear_object(&result);
	g_assert_true(km_session_is_incomplete(session));
	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_tracks(session)), ==, 0);

	/* nothing else runs on a half-restored player (the fid does not matter) */
	km_session_remove_async(session, &fid, 1, NULL, su_store_result, &result);
	g_assert_false(su_edit_wait(session, &result, &error));
	g_assert_error(error, KM_SESSION_ERROR, KM_SESSION_ERROR_INCOMPLETE);
	g_clear_error(&error);

	g_assert_true(restore(session, km_backup_entry_get_path(entry), NULL, &error));
	g_assert_no_error(error);
	g_assert_false(km_session_is_incomplete(session));
	after = describe(session);
	g_assert_cmpstr(after, ==, before);
	su_close(session);
}

static void count_held(KmSession *session, gpointer data)
{
	(*(guint *)data)++;
}

/* outcome: 1 the edit succeeded, 2 it failed. */
static void edit_done(GObject *source, GAsyncResult *result, gpointer data)
{
	*(int *)data = km_session_edit_finish(KM_SESSION(source), result, NULL) ? 1 : 2;
}

static void test_changes_held(void)
{
	g_autofree char *image = su_demo_image();
	g_autofree char *folder = su_tmp_path("backups");
	KmSession *session = su_open(image);
	g_autoptr(GArray) fids = su_track_fids(session);
	g_autoptr(GAsyncResult) removed = NULL, removed2 = NULL;
	g_autoptr(KmBackupEntry) entry = NULL;
	g_autoptr(GError) error = NULL;
	guint held = 0;
	int outcome = 0;

	g_signal_connect(session, "changes-held", G_CALLBACK(count_held), &held);
	km_session_hold_changes(session);
	km_session_remove_async(session, &g_array_index(fids, guint32, 0), 1, NULL,
				su_store_result, &removed);
	km_session_remove_async(session, &g_array_index(fids, guint32, 1), 1, NULL,
				su_store_result, &removed2);
	g_assert_cmpuint(held, ==, 1);
	/* the backup runs while the changes wait: it holds every track */
	entry = backup(session, folder, NULL, NULL, &error);
	g_assert_no_error(error);
	g_assert_null(removed);
	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_tracks(session)), ==,
			 KM_DEMO_TRACKS);
	g_assert_true(km_session_is_holding_changes(session));
	km_session_release_changes(session);
	g_assert_false(km_session_is_holding_changes(session));
	g_assert_true(su_edit_wait(session, &removed, &error));
	g_assert_true(su_edit_wait(session, &removed2, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_tracks(session)), ==,
			 KM_DEMO_TRACKS - 2);
	g_signal_handlers_disconnect_by_data(session, &held);

	/* closing releases what is held: it runs before the close */
	km_session_hold_changes(session);
	km_session_remove_async(session, &g_array_index(fids, guint32, 2), 1, NULL, edit_done,
				&outcome);
	su_close(session);
	g_assert_cmpint(outcome, ==, 1);
}

static void write_file(const char *folder, const char *name, const char *text)
{
	g_autofree char *path = g_build_filename(folder, name, NULL);

	g_assert_true(g_file_set_contents(path, text, -1, NULL));
}

/* Side files edited or damaged: read as unknown, or left out; never a crash. */
static void test_list_hostile(void)
{
	g_autofree char *folder = su_tmp_path("hostile");
	g_autoptr(GListModel) list = NULL;
	g_autoptr(KmBackupEntry) entry = NULL;

	g_assert_cmpint(g_mkdir(folder, 0755), ==, 0);
	/* not a key file */
	write_file(folder, "a.img", "x");
	write_file(folder, "a.img.info", "\x01\x02 [[[ not a key file");
	/* numbers that are not numbers, no date, no checksum */
	write_file(folder, "b.img", "xyz");
	write_file(folder, "b.img.info",
		   "[backup]\ndisk-size=-12abc\nused-bytes=\ncreated=yesterday\n");
	/* an .info without its image */
	write_file(folder, "c.img.info", "[backup]\ndisk-size=100\n");
	/* a bare suffix */
	write_file(folder, ".img.info", "[backup]\n");
	list = km_backup_list_folder(folder);
	g_assert_cmpuint(g_list_model_get_n_items(list), ==, 1);
	entry = g_list_model_get_item(list, 0);
	g_assert_true(g_str_has_suffix(km_backup_entry_get_path(entry), "/b.img"));
	g_assert_cmpint(km_backup_entry_get_status(entry), ==, KM_BACKUP_NO_CHECKSUM);
	/* unknown: the image's own size and time stand in */
	g_assert_cmpuint(km_backup_entry_get_disk_size(entry), ==, 3);
	g_assert_cmpuint(km_backup_entry_get_used_bytes(entry), ==, 0);
	g_assert_nonnull(km_backup_entry_get_created(entry));
	g_assert_cmpstr(km_backup_entry_get_source(entry), ==, "");
	g_clear_object(&list);
	g_clear_object(&entry);
	list = km_backup_list_folder("/nonexistent/folder");
	g_assert_cmpuint(g_list_model_get_n_items(list), ==, 0);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/session-backup/round-trip", test_round_trip);
	g_test_add_func("/session-backup/cancelled-backup-resumes", test_cancelled_backup_resumes);
	g_test_add_func("/session-backup/damaged-backup-refused", test_damaged_backup_refused);
	g_test_add_func("/session-backup/cancelled-restore-incomplete",
			test_cancelled_restore_incomplete);
	g_test_add_func("/session-backup/changes-held", test_changes_held);
	g_test_add_func("/session-backup/list-hostile", test_list_hostile);
	return g_test_run();
}
