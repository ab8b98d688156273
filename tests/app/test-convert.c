/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-convert.c - files the player cannot play, from the window (issue
 * 17): the Conversion group of Preferences writes its keys and the open
 * player's session follows them; an AAC file made here with ffmpeg,
 * dropped on the library, is converted (the transfer row says so while it
 * is) and lands as an Ogg Vorbis track with its title; with conversion
 * off it is refused; cancelled while it converts, nothing of it is left.
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
	GtkWidget *quality_row;
	GtkSpinButton *quality;
	GtkWindow *window;

	km_dialog_present(prefs, GTK_WIDGET(win));
	window = GTK_WINDOW(gtk_widget_get_root(prefs));
	convert = km_test_find_switch_row(prefs, "Con_vert Files the Player Cannot Play");
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
	km_test_press_key(window, GDK_KEY_q, GDK_ALT_MASK);
	km_test_wait_until(gtk_widget_has_focus(GTK_WIDGET(quality)) ||
			   gtk_widget_is_ancestor(gtk_window_get_focus(window), GTK_WIDGET(quality)));
	km_test_press_key(window, GDK_KEY_Up, 0);
	km_test_wait_until(g_settings_get_int(settings, "convert-quality") == 9);
	g_assert_true(session_converts(win, KM_CONVERT_MP3, 9));

	/* FLAC has no quality */
	adw_combo_row_set_selected(format, 2);
	g_assert_true(session_converts(win, KM_CONVERT_FLAC, 9));
	g_assert_false(gtk_widget_get_sensitive(quality_row));
	g_assert_true(gtk_widget_get_sensitive(GTK_WIDGET(format)));

	/* Alt+V turns conversion off: the session refuses such files again */
	km_test_press_key(window, GDK_KEY_v, GDK_ALT_MASK);
	km_test_wait_until(!g_settings_get_boolean(settings, "convert"));
	g_assert_false(gtk_switch_get_active(convert));
	g_assert_false(km_session_get_conversion(km_test_session(win), &(KmConvertSettings){ 0 }));
	g_assert_false(gtk_widget_get_sensitive(GTK_WIDGET(format)));
	g_assert_false(gtk_widget_get_sensitive(quality_row));
	/* the focus was in the quality, now insensitive: it went to the switch */
	g_assert_true(gtk_widget_has_focus(GTK_WIDGET(convert)));

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
	km_dialog_close(prefs);
	g_assert_finalize_object(prefs);
	km_test_close_window(win);
}

int main(int argc, char **argv)
{
	g_autofree char *image = NULL;

	km_test_init(&argc, &argv);
	work_dir = g_dir_make_tmp("km-convert-XXXXXX", NULL);
	image = km_test_make_image(N_TRACKS);
	g_test_add_data_func("/app/convert/preferences", image, test_preferences);
	return g_test_run();
}
