/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-test-util.c - helpers of the GUI tests.
 */
#include "config.h"

#include "km-test-util.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "km-demo.h"
#include "km-image-device.h"
#include "km-karma-image.h"
#include "omfs.h"

static char *test_dir;

#if ADW_CHECK_VERSION(1, 6, 0)
/* The value of field key of a structured log message, or NULL. */
static const char *log_field(const GLogField *fields, gsize n_fields, const char *key)
{
	for (gsize i = 0; i < n_fields; i++)
		if (g_str_equal(fields[i].key, key) && fields[i].length < 0)
			return fields[i].value;
	return NULL;
}

/*
 * libadwaita 1.6 and later measure the labels of an AdwAlertDialog narrower
 * than the longest word in them (a long German word, a folder's path), and
 * GTK warns.  That warning, about a label inside an alert dialog and in
 * exactly these words, is printed but not fatal; every other warning is
 * (GTK logs structured messages: g_test_log_set_fatal_handler() does not
 * see them, a writer does).
 */
static GLogWriterOutput write_log(GLogLevelFlags level, const GLogField *fields, gsize n_fields,
				  gpointer data)
{
	const char *message = log_field(fields, n_fields, "MESSAGE");
	void *label = NULL;
	int end = 0;

	if ((level & G_LOG_LEVEL_WARNING) && message &&
	    g_strcmp0(log_field(fields, n_fields, "GLIB_DOMAIN"), "Gtk") == 0 &&
	    sscanf(message, "Trying to measure GtkLabel %p for width of %*d, but it needs at least %*d%n",
		   &label, &end) == 1 && end > 0 && message[end] == '\0' &&
	    /* the label is being measured: it is alive */
	    GTK_IS_LABEL(label) && gtk_widget_get_ancestor(label, ADW_TYPE_ALERT_DIALOG))
		return g_log_writer_standard_streams(level, fields, n_fields, data);
	return g_log_writer_default(level, fields, n_fields, data);
}
#endif

void km_test_init(int *argc, char ***argv)
{
#if ADW_CHECK_VERSION(1, 6, 0)
	g_log_set_writer_func(write_log, NULL, NULL);
#endif
	gtk_test_init(argc, argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
	adw_init();
	test_dir = g_dir_make_tmp("km-gui-XXXXXX", NULL);
	g_assert_nonnull(test_dir);
}

char *km_test_make_image(guint n)
{
	static guint count;
	g_autoptr(GError) error = NULL;
	char *path = g_strdup_printf("%s/player-%u.img", test_dir, count++);

	g_assert_true(km_demo_create_image(path, KM_DEMO_IMAGE_SIZE, n, NULL, &error));
	g_assert_no_error(error);
	return path;
}

void km_test_mark_backup_offered(KmSession *session)
{
	g_autoptr(GSettings) settings = g_settings_new(APP_ID);
	g_auto(GStrv) ids = g_settings_get_strv(settings, "offered-backup-serials");
	g_autoptr(GStrvBuilder) builder = g_strv_builder_new();
	g_auto(GStrv) updated = NULL;

	g_strv_builder_addv(builder, (const char **)ids);
	g_strv_builder_add(builder, km_session_get_player_id(session));
	updated = g_strv_builder_end(builder);
	g_settings_set_strv(settings, "offered-backup-serials", (const char *const *)updated);
}

static KmWindow *open_window(const char *image, gboolean offered, int width, int height)
{
	KmWindow *win = g_object_ref(km_window_new(NULL));
	g_autoptr(KmSession) session = km_session_new_for_path(image);

	if (offered)
		km_test_mark_backup_offered(session);
	gtk_window_set_default_size(GTK_WINDOW(win), width, height);
	gtk_window_present(GTK_WINDOW(win));
	km_window_open_session(win, session);
	km_test_wait_until(km_window_get_player_view(win) != NULL);
	return win;
}

KmWindow *km_test_open_window(const char *image)
{
	return open_window(image, TRUE, 1200, 720);
}

KmWindow *km_test_open_window_sized(const char *image, int width, int height)
{
	return open_window(image, TRUE, width, height);
}

KmWindow *km_test_open_window_offering(const char *image)
{
	return open_window(image, FALSE, 1200, 720);
}

void km_test_close_window(KmWindow *win)
{
	gtk_window_destroy(GTK_WINDOW(win));
	/* let the session's worker hand back what it still holds */
	for (int i = 0; i < 50; i++)
		g_main_context_iteration(NULL, FALSE);
	g_assert_finalize_object(win);
}

KmPlayerView *km_test_player_view(KmWindow *win)
{
	GtkWidget *view = km_window_get_player_view(win);

	g_assert_true(KM_IS_PLAYER_VIEW(view));
	return KM_PLAYER_VIEW(view);
}

KmSession *km_test_session(KmWindow *win)
{
	return km_player_view_get_session(km_test_player_view(win));
}

guint km_test_n_tracks(KmWindow *win)
{
	return g_list_model_get_n_items(km_session_get_tracks(km_test_session(win)));
}

/* The dialog shown on window (libadwaita 1.5's AdwDialog), or NULL. */
static GtkWidget *visible_dialog(GObject *window)
{
#if ADW_CHECK_VERSION(1, 5, 0)
	if (ADW_IS_APPLICATION_WINDOW(window))
		return GTK_WIDGET(adw_application_window_get_visible_dialog(
			ADW_APPLICATION_WINDOW(window)));
	if (ADW_IS_WINDOW(window))
		return GTK_WIDGET(adw_window_get_visible_dialog(ADW_WINDOW(window)));
#endif
	return NULL;
}

GtkWidget *km_test_find_dialog(GType type)
{
	GListModel *toplevels = gtk_window_get_toplevels();	/* owned by GTK */

	for (guint i = 0; i < g_list_model_get_n_items(toplevels); i++) {
		g_autoptr(GObject) w = g_list_model_get_item(toplevels, i);
		GtkWidget *dialog = visible_dialog(w);

		/* GTK's toplevel list, or the window, holds them */
		if (G_TYPE_CHECK_INSTANCE_TYPE(w, type))
			return GTK_WIDGET(w);
		if (dialog && G_TYPE_CHECK_INSTANCE_TYPE(dialog, type))
			return dialog;
	}
	return NULL;
}

GtkWidget *km_test_sync_question(KmPlayerView *pv, GFile *folder)
{
	km_player_view_sync_folder(pv, folder);
	km_test_wait_until(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG) != NULL);
	return km_test_find_dialog(KM_TYPE_QUESTION_DIALOG);
}

void km_test_answer(GtkWidget *dialog, const char *response)
{
	km_question_answer(KM_QUESTION_DIALOG(dialog), response);
	g_assert_null(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG));
}

GtkWidget *km_test_find_widget_where(GtkWidget *widget, KmTestWidgetMatch match,
				     gconstpointer data)
{
	if (match(widget, data))
		return widget;
	for (GtkWidget *c = gtk_widget_get_first_child(widget); c; c = gtk_widget_get_next_sibling(c)) {
		GtkWidget *found = km_test_find_widget_where(c, match, data);

		if (found)
			return found;
	}
	return NULL;
}

static gboolean is_of_type(GtkWidget *widget, gconstpointer type)
{
	return G_TYPE_CHECK_INSTANCE_TYPE(widget, GPOINTER_TO_SIZE(type));
}

GtkWidget *km_test_find_widget(GtkWidget *widget, GType type)
{
	return km_test_find_widget_where(widget, is_of_type, GSIZE_TO_POINTER(type));
}

static gboolean is_label_of(GtkWidget *widget, gconstpointer text)
{
	return GTK_IS_LABEL(widget) && g_strcmp0(gtk_label_get_text(GTK_LABEL(widget)), text) == 0;
}

gboolean km_test_find_label(GtkWidget *widget, const char *text)
{
	return km_test_find_widget_where(widget, is_label_of, text) != NULL;
}

GtkWidget *km_test_find_controller(GtkWidget *widget, GType type, GtkEventController **out)
{
	g_autoptr(GListModel) controllers = gtk_widget_observe_controllers(widget);

	for (guint i = 0; i < g_list_model_get_n_items(controllers); i++) {
		g_autoptr(GObject) c = g_list_model_get_item(controllers, i);

		if (G_TYPE_CHECK_INSTANCE_TYPE(c, type)) {
			*out = GTK_EVENT_CONTROLLER(c);
			return widget;
		}
	}
	for (GtkWidget *c = gtk_widget_get_first_child(widget); c;
	     c = gtk_widget_get_next_sibling(c)) {
		GtkWidget *found = km_test_find_controller(c, type, out);

		if (found)
			return found;
	}
	return NULL;
}

struct row_wanted {
	GType type;
	const char *title;
};

static gboolean is_row_wanted(GtkWidget *widget, gconstpointer data)
{
	const struct row_wanted *wanted = data;

	return G_TYPE_CHECK_INSTANCE_TYPE(widget, wanted->type) &&
	       g_str_equal(adw_preferences_row_get_title(ADW_PREFERENCES_ROW(widget)),
			   wanted->title);
}

GtkWidget *km_test_find_row(GtkWidget *widget, GType type, const char *title)
{
	return km_test_find_widget_where(widget, is_row_wanted,
					 &(struct row_wanted){ type, title });
}

GtkSwitch *km_test_find_switch_row(GtkWidget *widget, const char *title)
{
	GtkWidget *row = km_test_find_row(widget, ADW_TYPE_ACTION_ROW, title);

	g_assert_nonnull(row);
	return GTK_SWITCH(adw_action_row_get_activatable_widget(ADW_ACTION_ROW(row)));
}

void km_test_select(KmPlayerView *view, guint position)
{
	GtkSelectionModel *model = km_library_view_get_model(_km_player_view_get_library_view(view));

	g_assert_true(gtk_selection_model_select_item(model, position, TRUE));
}

KmTrack *km_test_row_track(KmPlayerView *view, guint position)
{
	GListModel *model = G_LIST_MODEL(km_library_view_get_model(
		_km_player_view_get_library_view(view)));
	g_autoptr(GObject) row = g_list_model_get_item(model, position);
	GObject *item;

	g_assert_nonnull(row);
	item = GTK_IS_TREE_LIST_ROW(row) ? gtk_tree_list_row_get_item(GTK_TREE_LIST_ROW(row)) :
	       g_object_ref(row);
	if (KM_IS_TRACK(item))
		return KM_TRACK(item);
	g_object_unref(item);
	return NULL;
}

guint km_test_first_track_row(KmPlayerView *view)
{
	GListModel *model = G_LIST_MODEL(km_library_view_get_model(
		_km_player_view_get_library_view(view)));

	for (guint i = 0; i < g_list_model_get_n_items(model); i++) {
		g_autoptr(KmTrack) track = km_test_row_track(view, i);

		if (track)
			return i;
	}
	return G_MAXUINT;
}

GPtrArray *km_test_write_wavs(const char *folder, guint first, guint n)
{
	GPtrArray *files = g_ptr_array_new_with_free_func(g_object_unref);

	g_assert_cmpint(g_mkdir_with_parents(folder, 0700), ==, 0);
	for (guint i = 0; i < n; i++) {
		g_autoptr(GBytes) wav = km_demo_track_wav(first + i);
		g_autofree char *path = g_strdup_printf("%s/track-%u.wav", folder, first + i);
		g_autoptr(GError) error = NULL;

		g_assert_true(g_file_set_contents(path, g_bytes_get_data(wav, NULL),
						  g_bytes_get_size(wav), &error));
		g_ptr_array_add(files, g_file_new_for_path(path));
	}
	return files;
}

static void put_le(guint8 *p, guint32 v, guint n)
{
	for (guint i = 0; i < n; i++)
		p[i] = (v >> (8 * i)) & 0xff;
}

GFile *km_test_write_silence(const char *path, guint32 size)
{
	g_autofree guint8 *data = g_malloc0(size);
	g_autoptr(GError) error = NULL;

	g_assert_cmpuint(size, >, 44);
	/* PCM, mono, 44100 Hz, 16 bits */
	memcpy(data, "RIFF", 4);
	put_le(data + 4, size - 8, 4);
	memcpy(data + 8, "WAVEfmt ", 8);
	put_le(data + 16, 16, 4);
	put_le(data + 20, 1, 2);
	put_le(data + 22, 1, 2);
	put_le(data + 24, 44100, 4);
	put_le(data + 28, 88200, 4);
	put_le(data + 32, 2, 2);
	put_le(data + 34, 16, 2);
	memcpy(data + 36, "data", 4);
	put_le(data + 40, size - 44, 4);
	g_assert_true(g_file_set_contents(path, (const char *)data, size, &error));
	return g_file_new_for_path(path);
}

struct km_image_device *km_test_open_music(const char *image, gboolean writable)
{
	struct km_image_device *dev = NULL;
	char msg[256];

	/* a closed window's session lets go of the image on its worker thread, a moment later */
	km_test_wait_until((dev = km_image_device_open(image, writable,
						       KM_KARMA_IMAGE_MUSIC_OFFSET, 0, msg,
						       sizeof(msg))) != NULL);
	return dev;
}

/* Overwrites the start of image's var/smalldb (its header) with garbage, through the OMFS core. */
void km_test_damage_smalldb(const char *image)
{
	char msg[256];
	struct km_image_device *dev = km_test_open_music(image, true);
	const struct omfs_mount_opts opts = { .read_only = false };
	struct omfs_fs *fs = NULL;
	guint8 garbage[64];
	uint64_t ino = 0;

	g_assert_nonnull(dev);
	memset(garbage, 0xa5, sizeof(garbage));
	g_assert_cmpint(omfs_mount(km_image_device_blockdev(dev), &opts, &fs, msg, sizeof(msg)), ==, 0);
	g_assert_cmpint(omfs_resolve(fs, "var/smalldb", &ino), ==, 0);
	g_assert_cmpint(omfs_write(fs, ino, 0, garbage, sizeof(garbage)), ==, sizeof(garbage));
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	km_image_device_close(dev);
}

/*
 * Marks blocks near the end of image's music volume used in its free-space
 * bitmap, though nothing owns them: a leak, as an interrupted write leaves,
 * which only the file system check finds (karmactl fsck).
 */
void km_test_leak_blocks(const char *image, guint n)
{
	char msg[256];
	struct km_image_device *dev = km_test_open_music(image, true);
	const struct omfs_blockdev *bdev = km_image_device_blockdev(dev);
	const struct omfs_mount_opts opts = { .read_only = true };
	struct omfs_fs *fs = NULL;
	struct omfs_info info;

	g_assert_cmpint(omfs_mount(bdev, &opts, &fs, msg, sizeof(msg)), ==, 0);
	omfs_get_info(fs, &info);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	for (uint64_t block = info.s_num_blocks - 20; block < info.s_num_blocks - 20 + n; block++) {
		uint64_t at = info.r_bitmap * info.s_blocksize + block / 8;
		guint8 byte;

		g_assert_cmpint(bdev->read(bdev->ctx, at, &byte, 1), ==, 0);
		g_assert_false(byte & (1u << (block & 7)));
		byte |= (guint8)(1u << (block & 7));
		g_assert_cmpint(bdev->write(bdev->ctx, at, &byte, 1), ==, 0);
	}
	km_image_device_close(dev);
}

static void on_verified(GObject *source, GAsyncResult *result, gpointer data)
{
	KmVerifyReport **report = data;
	g_autoptr(GError) error = NULL;

	*report = km_session_verify_finish(KM_SESSION(source), result, &error);
	g_assert_no_error(error);
}

void km_test_assert_verifies_clean(KmWindow *win)
{
	g_autoptr(KmVerifyReport) report = NULL;

	km_session_verify_async(km_test_session(win), FALSE, NULL, on_verified, &report);
	km_test_wait_until(report != NULL);
	for (guint i = 0; i < report->findings->len; i++)
		g_printerr("finding: %s\n", ((KmVerifyFinding *)report->findings->pdata[i])->message);
	g_assert_cmpuint(report->findings->len, ==, 0);
	g_assert_cmpuint(report->n_objects, >=, km_test_n_tracks(win));
}
