/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-backup.c - backups from the window: the offer made before the first
 * change to a player (the change held until answered, the backup holding
 * the player as it was) and not again; Back Up Player… writing the files
 * into the folder of the backup-folder key; Restore Player… listing the
 * backup and, after the destructive warning, restoring it; restore refused
 * while a transfer runs; the folder in Preferences. Windows and dialogs are
 * checked for leaks.
 */
#include "config.h"
#include "omfs.h"

#include "km-test-screen.h"
#include "km-test-util.h"

#include <glib/gstdio.h>

#include "km-app-util.h"
#include "km-backup.h"
#include "km-image-device.h"
#include "km-library.h"
#include "km-preferences-window.h"
#include "km-session-backup.h"

#define N_TRACKS 6

/* A fresh, empty backup folder, set as the backup-folder key. */
static char *use_backup_folder(void)
{
	g_autoptr(GSettings) settings = g_settings_new(APP_ID);
	char *folder = g_dir_make_tmp("km-backups-XXXXXX", NULL);

	g_assert_nonnull(folder);
	g_settings_set_string(settings, "backup-folder", folder);
	return folder;
}

/* Removes folder and the files in it. */
static void remove_folder(const char *folder)
{
	g_autoptr(GDir) dir = g_dir_open(folder, 0, NULL);
	const char *name;

	g_assert_nonnull(dir);
	while ((name = g_dir_read_name(dir))) {
		g_autofree char *path = g_build_filename(folder, name, NULL);

		g_assert_cmpint(g_unlink(path), ==, 0);
	}
	g_assert_cmpint(g_rmdir(folder), ==, 0);
}

static void add_wavs(KmWindow *win, guint first, guint n)
{
	g_autofree char *dir = g_dir_make_tmp("km-wavs-XXXXXX", NULL);
	g_autoptr(GPtrArray) files = km_test_write_wavs(dir, first, n);

	km_player_view_add_files(km_test_player_view(win), (GFile *const *)files->pdata,
				 files->len);
}

static GtkWidget *wait_for_dialog(void)
{
	km_test_wait_until(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG) != NULL);
	return km_test_find_dialog(KM_TYPE_QUESTION_DIALOG);
}

/* Answers dialog when the answer opens another one (km_test_answer() asserts none). */
static void answer_and_destroy(GtkWidget *dialog, const char *response)
{
	g_object_ref(dialog);
	km_question_answer(KM_QUESTION_DIALOG(dialog), response);
	g_assert_finalize_object(dialog);
}

/* The tunes of the backup, read by the library straight from the image file. */
static guint backup_tunes(KmBackupEntry *entry)
{
	char msg[OMFS_ERRMSG_MAX];
	struct km_image_device *dev = km_image_device_open(km_backup_entry_get_path(entry), false,
							   0, 0, msg, sizeof(msg));
	g_autoptr(GError) error = NULL;
	g_autoptr(KmLibrary) lib = NULL;
	g_autoptr(GPtrArray) objects = NULL;
	guint n = 0;

	g_assert_nonnull(dev);
	lib = km_library_open(km_image_device_blockdev(dev), NULL, &error);
	g_assert_no_error(error);
	objects = km_library_list(lib);
	for (guint i = 0; i < objects->len; i++)
		if (g_strcmp0(km_properties_get(objects->pdata[i], "type"), "tune") == 0)
			n++;
	g_assert_true(km_library_close(lib, &error));
	g_clear_object(&lib);
	km_image_device_close(dev);
	return n;
}

/* The folder's one backup, complete, with its side files. */
static KmBackupEntry *only_backup(const char *folder)
{
	g_autoptr(GListModel) list = km_backup_list_folder(folder);
	KmBackupEntry *entry;
	char sha[65];
	g_autoptr(GError) error = NULL;
	g_autofree char *partial = NULL;

	g_assert_cmpuint(g_list_model_get_n_items(list), ==, 1);
	entry = g_list_model_get_item(list, 0);
	g_assert_cmpint(km_backup_entry_get_status(entry), ==, KM_BACKUP_COMPLETE);
	g_assert_true(km_backup_check(km_backup_entry_get_path(entry), NULL, sha, &error));
	g_assert_no_error(error);
	partial = g_strconcat(km_backup_entry_get_path(entry), ".partial", NULL);
	g_assert_false(g_file_test(partial, G_FILE_TEST_EXISTS));
	return entry;
}

static gboolean was_offered(KmSession *session)
{
	g_autoptr(GSettings) settings = g_settings_new(APP_ID);
	g_auto(GStrv) ids = g_settings_get_strv(settings, "offered-backup-serials");

	return g_strv_contains((const char *const *)ids, km_session_get_player_id(session));
}

static void test_offer_before_first_change(void)
{
	g_autofree char *image = km_test_make_image(N_TRACKS);
	g_autofree char *folder = use_backup_folder();
	KmWindow *win = km_test_open_window_offering(image);
	KmSession *session = km_test_session(win);
	g_autoptr(KmBackupEntry) entry = NULL;
	GtkWidget *dialog;

	g_assert_false(was_offered(session));
	g_assert_null(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG));
	add_wavs(win, 500, 2);
	dialog = wait_for_dialog();
	g_assert_cmpstr(km_question_dialog_get_heading(KM_QUESTION_DIALOG(dialog)), ==,
			"Back Up This Player First?");
	/* the change waits for the answer */
	for (int i = 0; i < 50; i++)
		g_main_context_iteration(NULL, FALSE);
	g_assert_true(km_session_is_holding_changes(session));
	g_assert_cmpuint(km_test_n_tracks(win), ==, N_TRACKS);

	km_test_answer(dialog, "backup");
	g_assert_true(was_offered(session));
	km_test_wait_until(!km_player_view_is_busy(km_test_player_view(win)) &&
			   km_test_n_tracks(win) == N_TRACKS + 2);
	/* the backup holds the player as it was before the change */
	entry = only_backup(folder);
	g_assert_cmpuint(backup_tunes(entry), ==, N_TRACKS);

	/* the next change is not held */
	add_wavs(win, 510, 1);
	km_test_wait_until(km_test_n_tracks(win) == N_TRACKS + 3);
	g_assert_null(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG));
	km_test_close_window(win);

	/* nor when the player is opened again */
	win = km_test_open_window_offering(image);
	add_wavs(win, 520, 1);
	km_test_wait_until(km_test_n_tracks(win) == N_TRACKS + 4);
	g_assert_null(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG));
	km_test_close_window(win);
	remove_folder(folder);
}

static void test_not_now(void)
{
	g_autofree char *image = km_test_make_image(N_TRACKS);
	g_autofree char *folder = use_backup_folder();
	KmWindow *win = km_test_open_window_offering(image);
	g_autoptr(GListModel) list = NULL;

	add_wavs(win, 530, 1);
	km_test_answer(wait_for_dialog(), "later");
	km_test_wait_until(km_test_n_tracks(win) == N_TRACKS + 1);
	g_assert_true(was_offered(km_test_session(win)));
	list = km_backup_list_folder(folder);
	g_assert_cmpuint(g_list_model_get_n_items(list), ==, 0);
	km_test_close_window(win);
	remove_folder(folder);
}

static void test_backup_then_restore(void)
{
	g_autofree char *image = km_test_make_image(N_TRACKS);
	g_autofree char *folder = use_backup_folder();
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	GtkWidget *details = GTK_WIDGET(_km_player_view_get_details_pane(pv));
	g_autoptr(KmBackupEntry) entry = NULL;
	GtkWidget *dialog, *warning;

	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), "player.backup", NULL));
	/* refused while a transfer (the backup itself) runs */
	g_assert_true(km_player_view_is_busy(pv));
	gtk_widget_activate_action(GTK_WIDGET(pv), "player.restore", NULL);
	for (int i = 0; i < 20; i++)
		g_main_context_iteration(NULL, FALSE);
	g_assert_null(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG));
	km_test_wait_until(!km_player_view_is_busy(pv));
	entry = only_backup(folder);
	g_assert_cmpstr(km_backup_entry_get_source(entry), ==,
			km_session_get_player_id(km_test_session(win)));

	add_wavs(win, 540, 2);
	km_test_wait_until(km_test_n_tracks(win) == N_TRACKS + 2 && !km_player_view_is_busy(pv));
	/* a track is selected, its tags in the details pane */
	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	km_test_select(pv, km_test_first_track_row(pv));
	km_test_wait_until(km_test_find_shown_label(details, "Save Tags") != NULL);

	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), "player.restore", NULL));
	dialog = wait_for_dialog();
	g_assert_cmpstr(km_question_dialog_get_heading(KM_QUESTION_DIALOG(dialog)), ==,
			"Restore Player");
	/* the one backup, listed and chosen */
	g_assert_true(km_question_dialog_get_response_enabled(KM_QUESTION_DIALOG(dialog),
							      "restore"));
	answer_and_destroy(dialog, "restore");
	warning = wait_for_dialog();
	g_assert_cmpint(km_question_dialog_get_response_appearance(KM_QUESTION_DIALOG(warning),
								   "restore"), ==,
			ADW_RESPONSE_DESTRUCTIVE);
	g_assert_cmpstr(km_question_dialog_get_default_response(KM_QUESTION_DIALOG(warning)), ==,
			"cancel");
	/* nothing is written before the answer */
	g_assert_cmpuint(km_test_n_tracks(win), ==, N_TRACKS + 2);
	km_test_answer(warning, "restore");
	km_test_wait_until(!km_player_view_is_busy(pv) && km_test_n_tracks(win) == N_TRACKS);
	g_assert_false(km_session_is_incomplete(km_test_session(win)));
	/* the lists were replaced: the pane no longer edits a track that went with them */
	km_test_wait_until(km_test_find_shown_label(details, "No Track Selected") != NULL);
	g_assert_null(km_test_find_shown_label(details, "Save Tags"));
	km_test_close_window(win);
	remove_folder(folder);
}

static void test_restore_list_empty(void)
{
	g_autofree char *image = km_test_make_image(N_TRACKS);
	g_autofree char *folder = use_backup_folder();
	KmWindow *win = km_test_open_window(image);
	GtkWidget *dialog;

	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(km_test_player_view(win)),
						 "player.restore", NULL));
	dialog = wait_for_dialog();
	g_assert_false(km_question_dialog_get_response_enabled(KM_QUESTION_DIALOG(dialog),
							       "restore"));
	answer_and_destroy(dialog, "cancel");
	g_assert_null(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG));
	km_test_close_window(win);
	remove_folder(folder);
}

/* Preferences shows the folder: the default one, then the one the key holds. */
static void test_preferences_folder(void)
{
	g_autoptr(GSettings) settings = g_settings_new(APP_ID);
	GtkWidget *prefs;
	g_autofree char *default_folder = NULL;

	g_settings_reset(settings, "backup-folder");
	default_folder = km_backup_folder(settings);
	g_assert_true(g_str_has_suffix(default_folder, "/Karma Backups"));
	prefs = g_object_ref(km_preferences_window_new());
	km_dialog_present(prefs, NULL);
	g_assert_true(km_test_find_label(prefs, default_folder));
	g_settings_set_string(settings, "backup-folder", "/nowhere/backups");
	g_assert_true(km_test_find_label(prefs, "/nowhere/backups"));
	g_assert_false(km_test_find_label(prefs, default_folder));
	g_settings_reset(settings, "backup-folder");
	km_dialog_close(prefs);
	g_assert_finalize_object(prefs);
}

int main(int argc, char **argv)
{
	km_test_init(&argc, &argv);
	g_test_add_func("/app/backup/offer-before-first-change", test_offer_before_first_change);
	g_test_add_func("/app/backup/not-now", test_not_now);
	g_test_add_func("/app/backup/backup-then-restore", test_backup_then_restore);
	g_test_add_func("/app/backup/restore-list-empty", test_restore_list_empty);
	g_test_add_func("/app/backup/preferences-folder", test_preferences_folder);
	return g_test_run();
}
