/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-convert.c - files the player cannot play, from the window (issue
 * 17): the Conversion group of Preferences writes its keys and the open
 * player's session follows them; an AAC file made here with ffmpeg,
 * dropped on the library, is converted (the transfer row says so while it
 * is) and lands as an Ogg Vorbis track with its title; with conversion
 * off it is refused; cancelled while it converts, nothing of it is left;
 * Sync Folder converts too, once.
 */
#include "config.h"

#include "km-test-util.h"

#include <glib/gstdio.h>

#include "km-test-input.h"
#include "km-test-screen.h"
#include "km-preferences-window.h"

#define N_TRACKS 4
#define TITLE "A Sine Converted"

static char *work_dir;

static gboolean session_converts(KmWindow *win, KmConvertFormat format, guint quality)
{
	KmConvertSettings convert;

	return km_session_get_conversion(km_test_session(win), &convert) &&
	       convert.lossy_to == format && convert.quality == quality;
}

/* The activatable widget of the action row with this title. */
static GtkWidget *row_widget(GtkWidget *prefs, const char *title)
{
	GtkWidget *row = km_test_find_row(prefs, ADW_TYPE_ACTION_ROW, title);

	g_assert_nonnull(row);
	return adw_action_row_get_activatable_widget(ADW_ACTION_ROW(row));
}

/* Whether the focus of window is widget or inside it. */
static gboolean focus_within(GtkWindow *window, GtkWidget *widget)
{
	GtkWidget *focus = gtk_window_get_focus(window);

	return focus && (focus == widget || gtk_widget_is_ancestor(focus, widget));
}

/* Alt+key, the mnemonic of row: the focus goes into it. */
static void press_mnemonic(GtkWindow *window, guint key, GtkWidget *row)
{
	km_test_press_key(window, key, GDK_ALT_MASK);
	km_test_wait_until(focus_within(window, row));
}

/*
 * The switch, the format and the quality, each through its widget (the
 * switch and the quality also with their mnemonics and the keyboard):
 * each writes its key, the session of the open player follows, and the
 * rows that do not apply are insensitive.
 */
static void test_preferences(gconstpointer image)
{
	g_autoptr(GSettings) settings = g_settings_new(APP_ID);
	KmWindow *win = km_test_open_window(image);
	GtkWidget *prefs = g_object_ref(km_preferences_window_new());
	GtkSwitch *convert;
	AdwComboRow *format;
	GtkWidget *quality_row, *convert_row;
	GtkSpinButton *quality;
	GtkWindow *window;

	km_dialog_present(prefs, GTK_WIDGET(win));
	window = GTK_WINDOW(gtk_widget_get_root(prefs));
	convert = km_test_find_switch_row(prefs, "Con_vert Files the Player Cannot Play");
	convert_row = km_test_find_row(prefs, ADW_TYPE_ACTION_ROW,
				       "Con_vert Files the Player Cannot Play");
	format = ADW_COMBO_ROW(km_test_find_row(prefs, ADW_TYPE_COMBO_ROW,
						"Convert _Lossy Files To"));
	quality_row = km_test_find_row(prefs, ADW_TYPE_ACTION_ROW, "_Quality");
	quality = GTK_SPIN_BUTTON(row_widget(prefs, "_Quality"));

	/* the defaults: Ogg Vorbis at 5, which the session has already */
	g_assert_true(gtk_switch_get_active(convert));
	g_assert_cmpuint(adw_combo_row_get_selected(format), ==, 0);
	g_assert_cmpfloat(gtk_spin_button_get_value(quality), ==, 5);
	g_assert_true(session_converts(win, KM_CONVERT_VORBIS, 5));
	g_assert_true(gtk_widget_get_sensitive(GTK_WIDGET(format)));
	g_assert_true(gtk_widget_get_sensitive(quality_row));

	adw_combo_row_set_selected(format, 1);
	g_assert_cmpint(g_settings_get_enum(settings, "convert-format"), ==, KM_CONVERT_MP3);
	{
		g_autofree char *name = g_settings_get_string(settings, "convert-format");

		g_assert_cmpstr(name, ==, "mp3");
	}
	g_assert_true(session_converts(win, KM_CONVERT_MP3, 5));
	gtk_spin_button_set_value(quality, 8);
	g_assert_cmpint(g_settings_get_int(settings, "convert-quality"), ==, 8);
	g_assert_true(session_converts(win, KM_CONVERT_MP3, 8));

	/* by keyboard: Alt+Q goes to the quality, Up raises it */
	km_test_focus_window(window);
	/* keys go to the dialog once it is in place (libadwaita 1.5's slides in) */
	km_test_wait_until(km_test_stands_still(GTK_WIDGET(convert)));
	press_mnemonic(window, GDK_KEY_q, quality_row);
	g_assert_true(focus_within(window, GTK_WIDGET(quality)));
	km_test_press_key(window, GDK_KEY_Up, 0);
	km_test_wait_until(g_settings_get_int(settings, "convert-quality") == 9);
	g_assert_true(session_converts(win, KM_CONVERT_MP3, 9));

	/* FLAC has no quality */
	adw_combo_row_set_selected(format, 2);
	g_assert_true(session_converts(win, KM_CONVERT_FLAC, 9));
	g_assert_false(gtk_widget_get_sensitive(quality_row));
	g_assert_true(gtk_widget_get_sensitive(GTK_WIDGET(format)));
	/* the focus was in the quality, now insensitive: it went to the switch */
	g_assert_true(gtk_widget_has_focus(GTK_WIDGET(convert)));

	/* Alt+V turns conversion off: the session refuses such files again */
	press_mnemonic(window, GDK_KEY_v, convert_row);
	km_test_wait_until(!g_settings_get_boolean(settings, "convert"));
	g_assert_false(gtk_switch_get_active(convert));
	g_assert_false(km_session_get_conversion(km_test_session(win), &(KmConvertSettings){ 0 }));
	g_assert_false(gtk_widget_get_sensitive(GTK_WIDGET(format)));
	g_assert_false(gtk_widget_get_sensitive(quality_row));

	/* the keys, set elsewhere, show in the widgets and reach the session */
	g_settings_set_boolean(settings, "convert", TRUE);
	g_settings_set_string(settings, "convert-format", "vorbis");
	g_settings_set_int(settings, "convert-quality", 3);
	g_assert_true(gtk_switch_get_active(convert));
	g_assert_cmpuint(adw_combo_row_get_selected(format), ==, 0);
	g_assert_cmpfloat(gtk_spin_button_get_value(quality), ==, 3);
	g_assert_true(gtk_widget_get_sensitive(quality_row));
	g_assert_true(session_converts(win, KM_CONVERT_VORBIS, 3));

	for (const char *const *key = (const char *const[]){ "convert", "convert-format",
							       "convert-quality", NULL }; *key; key++)
		g_settings_reset(settings, *key);
	g_assert_true(session_converts(win, KM_CONVERT_VORBIS, KM_CONVERT_DEFAULT_QUALITY));
	/* from libadwaita 1.5 the dialog is in the window until it is closed */
	km_dialog_close(prefs);
	km_test_wait_until(gtk_widget_get_parent(prefs) == NULL);
	g_assert_finalize_object(prefs);
	km_test_close_window(win);
}

/* The row's bar for the file (the first of its two). */
static GtkProgressBar *file_bar(GtkWidget *widget)
{
	if (GTK_IS_PROGRESS_BAR(widget))
		return GTK_PROGRESS_BAR(widget);
	for (GtkWidget *c = gtk_widget_get_first_child(widget); c; c = gtk_widget_get_next_sibling(c)) {
		GtkProgressBar *found = file_bar(c);

		if (found)
			return found;
	}
	return NULL;
}

/*
 * A snapshot of a file being converted: the row says so, its file bar shows
 * the audio converted, and the bytes still to copy are the job's (the
 * milliseconds are no bytes); then its copy, as any file's.
 */
static void test_progress_row(void)
{
	g_autoptr(GFile) file = g_file_new_for_path("/music/a.m4a");
	KmTransferRow *row = g_object_ref_sink(km_transfer_row_new("Copying", &file, 1));
	KmProgress p = { .file_name = (char *)"a.m4a", .file_index = 1, .n_files = 4,
			 .file_bytes_total = 1000000, .bytes_done = 3000000,
			 .bytes_total = 5000000, .rate = 1000000, .seconds_left = 2,
			 .converting = TRUE, .convert_done_ms = 1500, .convert_total_ms = 6000,
			 .convert_format = "FLAC" };

	km_transfer_row_set_fills_player(row, TRUE);
	km_transfer_row_update(row, &p);
	g_assert_cmpstr(km_transfer_row_get_status(row), ==, "Converting “a.m4a” to FLAC… — 2 of 4");
	g_assert_cmpfloat_with_epsilon(gtk_progress_bar_get_fraction(file_bar(GTK_WIDGET(row))),
				       0.25, 1e-9);
	g_assert_cmpuint(km_transfer_row_get_pending_bytes(row), ==, 2000000);
	p.converting = FALSE;
	p.file_bytes_done = 500000;
	p.bytes_done = 3500000;
	km_transfer_row_update(row, &p);
	g_assert_cmpstr(km_transfer_row_get_status(row), ==,
			"“a.m4a” — 2 of 4 — 1.0\u00a0MB/s — 2 seconds left");
	g_assert_cmpfloat_with_epsilon(gtk_progress_bar_get_fraction(file_bar(GTK_WIDGET(row))),
				       0.5, 1e-9);
	g_assert_cmpuint(km_transfer_row_get_pending_bytes(row), ==, 1500000);
	g_assert_finalize_object(row);
}

static gboolean have(const char *tool)
{
	g_autofree char *found = g_find_program_in_path(tool);

	if (!found)
		g_test_skip_printf("%s is not installed", tool);
	return found != NULL;
}

static void run(const char *const *argv)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *err = NULL;
	int status;

	g_assert_true(g_spawn_sync(work_dir, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
				   NULL, &err, &status, &error));
	if (!g_spawn_check_wait_status(status, &error))
		g_error("%s: %s: %s", argv[0], error->message, err);
}

/*
 * An AAC file (.m4a, work_dir/path, tagged with title) of minutes of a
 * sine at hz, made by ffmpeg: a minute encoded, repeated without encoding
 * it again (an hour is made in a second; converting it takes far longer).
 */
static GFile *make_aac(const char *path, guint minutes, guint hz, const char *title)
{
	g_autofree char *full = g_build_filename(work_dir, path, NULL);
	g_autofree char *sine = g_strdup_printf("sine=frequency=%u:duration=60", hz);
	g_autofree char *loops = g_strdup_printf("%u", minutes - 1);
	g_autofree char *tag = g_strdup_printf("title=%s", title);
	g_autofree char *folder = g_path_get_dirname(full);

	g_assert_cmpint(g_mkdir_with_parents(folder, 0700), ==, 0);
	run((const char *const[]){ "ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
				   sine, "-c:a", "aac", "minute.m4a", NULL });
	run((const char *const[]){ "ffmpeg", "-loglevel", "error", "-y", "-stream_loop", loops,
				   "-i", "minute.m4a", "-c", "copy", "-metadata", tag, full,
				   NULL });
	return g_file_new_for_path(full);
}

/* Drops file on the library, as the file manager does: its transfer row (the only one). */
static KmTransferRow *drop(KmPlayerView *pv, GFile *file)
{
	KmTransferPanel *transfers = _km_player_view_get_transfers(pv);
	g_auto(GValue) value = G_VALUE_INIT;
	GSList *list = g_slist_append(NULL, file);
	gboolean accepted = FALSE;

	km_transfer_panel_clear_finished(transfers);
	g_value_init(&value, GDK_TYPE_FILE_LIST);
	g_value_take_boxed(&value, gdk_file_list_new_from_list(list));
	g_slist_free(list);
	g_signal_emit_by_name(_km_player_view_get_drop_target(pv), "drop", &value, 10.0, 10.0,
			      &accepted);
	g_assert_true(accepted);
	return km_transfer_panel_get_first_row(transfers);
}

/* Whether the row showed "Converting “NAME” to Ogg Vorbis…" (on every update, from the drop on). */
typedef struct {
	char *prefix;
	gboolean seen;
} ConvertingWatch;

static void on_row_changed(KmTransferRow *row, ConvertingWatch *watch)
{
	if (g_str_has_prefix(km_transfer_row_get_status(row), watch->prefix))
		watch->seen = TRUE;
}

static void watch_converting(KmTransferRow *row, GFile *file, ConvertingWatch *watch)
{
	g_autofree char *name = g_file_get_basename(file);

	/* Ogg Vorbis: the default for a lossy source */
	watch->prefix = g_strdup_printf("Converting “%s” to Ogg Vorbis…", name);
	g_signal_connect(row, "changed", G_CALLBACK(on_row_changed), watch);
}

/* The track of the library view (every group open) with this title, or NULL. */
static KmTrack *shown_track(KmPlayerView *pv, const char *title)
{
	GListModel *rows = km_test_view_rows(pv);

	km_library_view_expand_all(_km_player_view_get_library_view(pv));
	for (guint i = 0; i < g_list_model_get_n_items(rows); i++) {
		g_autoptr(KmTrack) track = km_test_row_track(pv, i);

		if (track && g_strcmp0(km_track_get_title(track), title) == 0)
			return g_steal_pointer(&track);
	}
	return NULL;
}

/*
 * With conversion off, the AAC file is refused, with why; on (the
 * default), it is converted, the row says so while it is, and it lands as
 * an Ogg Vorbis track with its title, in the library view.
 */
static void test_drop_aac(gconstpointer image)
{
	g_autoptr(GSettings) settings = g_settings_new(APP_ID);
	KmWindow *win;
	KmPlayerView *pv;
	g_autoptr(GFile) file = NULL;
	g_autoptr(KmTrack) track = NULL;
	g_autofree char *problems = NULL;
	ConvertingWatch watch = { 0 };
	KmTransferRow *row;
	guint before;

	if (!have("ffmpeg"))
		return;
	file = make_aac("sine.m4a", 1, 440, TITLE);
	g_settings_set_boolean(settings, "convert", FALSE);
	win = km_test_open_window(image);
	pv = km_test_player_view(win);
	before = km_test_n_tracks(win);
	row = drop(pv, file);
	km_test_wait_until(!km_transfer_row_is_running(row));
	g_assert_cmpstr(km_transfer_row_get_status(row), ==, "0 of 1 file copied");
	problems = km_transfer_row_dup_problems(row);
	g_assert_true(g_str_has_prefix(problems, "sine.m4a: "));
	g_assert_cmpuint(km_test_n_tracks(win), ==, before);

	/* on again: the open player's next add converts */
	g_settings_reset(settings, "convert");
	row = drop(pv, file);
	watch_converting(row, file, &watch);
	km_test_wait_until(!km_transfer_row_is_running(row));
	g_assert_cmpstr(km_transfer_row_get_status(row), ==, "1 of 1 file copied");
	g_assert_true(watch.seen);
	g_assert_cmpuint(km_transfer_row_get_pending_bytes(row), ==, 0);
	g_assert_cmpuint(km_test_n_tracks(win), ==, before + 1);
	track = shown_track(pv, TITLE);
	g_assert_nonnull(track);
	g_assert_cmpstr(km_track_get_codec(track), ==, "vorbis");
	/* a minute, within a second */
	g_assert_cmpuint(km_track_get_duration(track), >=, 59000);
	g_assert_cmpuint(km_track_get_duration(track), <=, 61000);
	km_test_assert_verifies_clean(win);
	g_free(watch.prefix);
	km_test_close_window(win);
}

/*
 * Cancelled while it converts (the row's own button, clicked): the job
 * ends soon, cancelled, and nothing of the file is on the player.
 */
static void test_cancel_converting(gconstpointer image)
{
	KmWindow *win;
	KmPlayerView *pv;
	g_autoptr(GFile) file = NULL;
	ConvertingWatch watch = { 0 };
	KmTransferRow *row;
	GtkWidget *cancel = NULL;
	guint before;
	gint64 clicked;

	if (!have("ffmpeg"))
		return;
	/* an hour: its conversion takes far longer than the cancel may (5 s) */
	file = make_aac("long sine.m4a", 60, 440, TITLE);
	win = km_test_open_window(image);
	pv = km_test_player_view(win);
	before = km_test_n_tracks(win);
	km_test_focus_window(GTK_WINDOW(win));
	row = drop(pv, file);
	watch_converting(row, file, &watch);
	km_test_wait_until(watch.seen);
	km_test_wait_until((cancel = km_test_find_icon_button(GTK_WIDGET(row),
							      "process-stop-symbolic")) &&
			   km_test_stands_still(cancel));
	km_test_click(cancel, 1, 1);
	clicked = g_get_monotonic_time();
	km_test_wait_until(!km_transfer_row_is_running(row));
	g_assert_cmpint(g_get_monotonic_time() - clicked, <, 5 * G_USEC_PER_SEC);
	g_assert_cmpstr(km_transfer_row_get_status(row), ==, "0 of 1 file copied — cancelled");
	g_assert_cmpuint(km_test_n_tracks(win), ==, before);
	km_test_assert_verifies_clean(win);
	g_free(watch.prefix);
	km_test_close_window(win);
}

/* An add's progress, as the session delivers it, until its notify. */
typedef struct {
	KmProgress *last;
	gboolean converting;	/* some snapshot said so */
	gboolean notified;
	KmReport *report;
} AddWatch;

static void on_add_progress(KmSession *session, const KmProgress *progress, gpointer data)
{
	AddWatch *watch = data;

	g_clear_pointer(&watch->last, km_progress_free);
	watch->last = km_progress_copy(progress);
	watch->converting |= progress->converting;
}

static void on_add_notify(gpointer data)
{
	((AddWatch *)data)->notified = TRUE;
}

static void on_added(GObject *source, GAsyncResult *result, gpointer data)
{
	AddWatch *watch = data;

	watch->report = km_session_add_files_finish(KM_SESSION(source), result, NULL);
}

/*
 * The job's total counted the converted file at its estimated size; once
 * it is converted, at its real one: at the end, all of it is done (the
 * bar full, no time left), and it is the track's size.
 */
static void test_progress_total(gconstpointer image)
{
	g_autoptr(GFile) file = NULL;
	AddWatch watch = { 0 };
	KmWindow *win;
	KmTrack *track;

	if (!have("ffmpeg"))
		return;
	file = make_aac("total.m4a", 2, 550, "A Sine Measured");
	win = km_test_open_window(image);
	km_session_add_files_async(km_test_session(win), &file, 1, NULL, KM_ADD_FLAGS_NONE,
				   on_add_progress, &watch, on_add_notify, NULL, on_added,
				   &watch);
	km_test_wait_until(watch.notified && watch.report);
	g_assert_cmpuint(watch.report->counts[KM_ITEM_DONE], ==, 1);
	g_assert_true(watch.converting);
	track = km_session_lookup_track(km_test_session(win),
					((KmReportItem *)watch.report->items->pdata[0])->fid);
	g_assert_nonnull(track);
	g_assert_cmpuint(watch.last->bytes_done, ==, km_track_get_size(track));
	g_assert_cmpuint(watch.last->bytes_total, ==, watch.last->bytes_done);
	g_assert_false(watch.last->converting);
	km_progress_free(watch.last);
	km_report_unref(watch.report);
	km_test_close_window(win);
}

/*
 * Sync Folder with an AAC file in the folder: the comparison counts it
 * (converted, it is a track the player lacks), Sync converts it, and a
 * second sync finds the player has it (it would not convert it again).
 */
static void test_sync_folder(gconstpointer image)
{
	const char *title = "A Sine Synced";
	g_autofree char *folder = g_build_filename(work_dir, "sync", NULL);
	g_autoptr(GFile) folder_file = g_file_new_for_path(folder);
	g_autoptr(GFile) file = NULL;
	g_autoptr(KmTrack) track = NULL;
	GtkWidget *dialog;
	KmWindow *win;
	KmPlayerView *pv;
	guint before;

	if (!have("ffmpeg"))
		return;
	file = make_aac("sync/synced.m4a", 1, 660, title);
	win = km_test_open_window(image);
	pv = km_test_player_view(win);
	before = km_test_n_tracks(win);
	km_test_answer(km_test_sync_question(pv, folder_file), "sync");
	km_test_wait_until(km_test_n_tracks(win) == before + 1 && !km_player_view_is_busy(pv));
	track = shown_track(pv, title);
	g_assert_nonnull(track);
	g_assert_cmpstr(km_track_get_codec(track), ==, "vorbis");

	/* the player's other tracks are not in the folder: the question comes, adding nothing */
	dialog = km_test_sync_question(pv, folder_file);
	g_assert_true(km_test_find_label(dialog, "0 tracks (0 bytes) are in the folder and not "
						 "on the player."));
	km_test_answer(dialog, "cancel");
	g_assert_cmpuint(km_test_n_tracks(win), ==, before + 1);
	km_test_close_window(win);
}

int main(int argc, char **argv)
{
	g_autofree char *image = NULL;

	km_test_init(&argc, &argv);
	work_dir = g_dir_make_tmp("km-convert-XXXXXX", NULL);
	image = km_test_make_image(N_TRACKS);
	g_test_add_data_func("/app/convert/preferences", image, test_preferences);
	g_test_add_func("/app/convert/progress-row", test_progress_row);
	g_test_add_data_func("/app/convert/drop-aac", image, test_drop_aac);
	g_test_add_data_func("/app/convert/cancel-converting", image, test_cancel_converting);
	g_test_add_data_func("/app/convert/progress-total", image, test_progress_total);
	g_test_add_data_func("/app/convert/sync-folder", image, test_sync_folder);
	return g_test_run();
}
