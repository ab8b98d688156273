/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-translations.c - the window in the language of $LANGUAGE (meson runs
 * it once per language: de, fr, es), with the catalogs the build compiled
 * into po/<lang>/LC_MESSAGES/ (KM_TEST_LOCALEDIR): the start page, the
 * library's column titles and sidebar, the subtitle's plural and a dialog
 * built in C show the translations, not the English.
 */
#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "km-test-util.h"

#define N_TRACKS 3

/* The start page's title in each language: the catalog really is that language's. */
static const struct {
	const char *lang, *start_title;
} start_titles[] = {
	{ "de", "Schließen Sie Ihren Rio Karma an" },
	{ "fr", "Branchez votre Rio Karma" },
	{ "es", "Conecte su Rio Karma" },
};

static const char *test_language(void)
{
	const char *lang = g_getenv("LANGUAGE");

	g_assert_nonnull(lang);
	return lang;
}

/* The translation of msgid, asserted to be one (not the English). */
static const char *translated(const char *msgid)
{
	const char *text = _(msgid);

	g_assert_cmpstr(text, !=, msgid);
	return text;
}

static void assert_label(GtkWidget *widget, const char *text)
{
	if (!km_test_find_label(widget, text))
		g_error("no label shows “%s”", text);
}

static void test_catalog(void)
{
	g_autofree char *language = g_strdup_printf("Language: %s\n", test_language());

	/* the header of the catalog found for the domain (the empty msgid) */
	g_assert_nonnull(strstr(gettext(""), language));
}

static void test_start_page(void)
{
	KmWindow *win = g_object_ref(km_window_new(NULL));
	const char *expected = NULL;

	for (guint i = 0; i < G_N_ELEMENTS(start_titles); i++)
		if (g_str_equal(start_titles[i].lang, test_language()))
			expected = start_titles[i].start_title;
	g_assert_nonnull(expected);
	gtk_window_present(GTK_WINDOW(win));
	g_assert_cmpstr(translated("Plug in your Rio Karma"), ==, expected);
	assert_label(GTK_WIDGET(win), expected);
	g_assert_false(km_test_find_label(GTK_WIDGET(win), "Plug in your Rio Karma"));
	/* from the template (ui/km-window.ui) */
	assert_label(GTK_WIDGET(win), translated("Connect the player with its USB cable and it "
						 "opens here. You can also open a disk image of a "
						 "Karma, or try the demo player."));
	km_test_close_window(win);
}

static void test_library_view(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	g_autofree char *subtitle = g_strdup_printf(g_dngettext(GETTEXT_PACKAGE, "%u track",
								"%u tracks", N_TRACKS), N_TRACKS);
	g_autofree char *english = g_strdup_printf("%u tracks", N_TRACKS);
	/* (not "Album": German and French write it the same) */
	static const char *const columns[] = { "Title", "Artist", "Length", "Year", "Plays" };

	for (guint i = 0; i < G_N_ELEMENTS(columns); i++)
		assert_label(GTK_WIDGET(win), translated(columns[i]));
	assert_label(GTK_WIDGET(win), translated("Library"));
	g_assert_cmpstr(subtitle, !=, english);
	assert_label(GTK_WIDGET(win), subtitle);
	km_test_close_window(win);
}

static void test_delete_dialog(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	GtkWidget *dialog;
	guint n = km_test_n_tracks(win);
	g_autofree char *heading = g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
							       "Delete %u track from the player?",
							       "Delete %u tracks from the player?",
							       n), n);
	g_autofree char *english = g_strdup_printf("Delete %u tracks from the player?", n);

	/* every track: one is named in the heading, several are counted */
	gtk_selection_model_select_all(km_library_view_get_model(
		_km_player_view_get_library_view(pv)));
	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), "player.delete", NULL));
	dialog = km_test_find_dialog(KM_TYPE_QUESTION_DIALOG);
	g_assert_nonnull(dialog);
	g_assert_cmpstr(heading, !=, english);
	g_assert_cmpstr(km_question_dialog_get_heading(KM_QUESTION_DIALOG(dialog)), ==, heading);
	g_assert_cmpstr(km_question_dialog_get_response_label(KM_QUESTION_DIALOG(dialog), "cancel"),
			==, translated("_Cancel"));
	km_test_answer(dialog, "cancel");
	km_test_close_window(win);
}

int main(int argc, char **argv)
{
	g_autofree char *image = NULL;

	/* as main.c does, with the catalogs of the build folder */
	setlocale(LC_ALL, "");
	bindtextdomain(GETTEXT_PACKAGE, KM_TEST_LOCALEDIR);
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);
	km_test_init(&argc, &argv);
	image = km_test_make_image(N_TRACKS);
	g_test_add_func("/translations/catalog", test_catalog);
	g_test_add_func("/translations/start-page", test_start_page);
	g_test_add_data_func("/translations/library-view", image, test_library_view);
	g_test_add_data_func("/translations/delete-dialog", image, test_delete_dialog);
	return g_test_run();
}
