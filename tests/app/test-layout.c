/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-layout.c - what differs by libadwaita version: the narrowest window
 * (the metainfo's display_length, KM_MIN_WIDTH), the side panes folding
 * away below 600 px (1.4), and the About window, made from the metainfo
 * (1.5) or given its data (1.2).
 */
#include "config.h"

#include <string.h>

#include "km-test-util.h"

#include "km-about.h"

#define N_TRACKS 4
#define HEIGHT 640

/* Lets allocations and breakpoints settle. */
static void settle(KmWindow *win)
{
	for (int i = 0; i < 30; i++) {
		g_main_context_iteration(NULL, FALSE);
		g_usleep(5000);
	}
	gtk_test_widget_wait_for_draw(GTK_WIDGET(win));
}

/*
 * What the window's frame adds to its content's width: without a compositor
 * (Xvfb) GTK draws a border inside the window; a maximized window on a phone
 * has none.  Measured once on a wide window.
 */
static int frame_width(const char *image)
{
	static int frame = -1;

	if (frame < 0) {
		KmWindow *win = km_test_open_window_sized(image, 1000, HEIGHT);

		settle(win);
		frame = gdk_surface_get_width(gtk_native_get_surface(GTK_NATIVE(win))) -
			gtk_widget_get_width(gtk_window_get_child(GTK_WINDOW(win)));
		g_assert_cmpint(frame, >=, 0);
		km_test_close_window(win);
	}
	return frame;
}

/* A window whose content is width wide. */
static KmWindow *open_window_for_content(const char *image, int width)
{
	KmWindow *win = km_test_open_window_sized(image, width + frame_width(image), HEIGHT);

	settle(win);
	return win;
}

/* At the width the metainfo requires, everything fits: GTK did not widen it. */
static void test_narrowest(gconstpointer image)
{
	KmWindow *win = open_window_for_content(image, KM_MIN_WIDTH);
	GtkWidget *content = gtk_window_get_child(GTK_WINDOW(win));
	int min;

	gtk_widget_measure(content, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
	g_test_message("the window's content: at least %d px wide", min);
	g_assert_cmpint(min, <=, KM_MIN_WIDTH);
	g_assert_cmpint(gtk_widget_get_width(content), ==, KM_MIN_WIDTH);
	km_test_close_window(win);
}

#if ADW_CHECK_VERSION(1, 4, 0)
static AdwOverlaySplitView *playlists_split(KmWindow *win)
{
	return ADW_OVERLAY_SPLIT_VIEW(km_test_player_view(win)->playlists_split);
}

static AdwOverlaySplitView *details_split(KmWindow *win)
{
	return ADW_OVERLAY_SPLIT_VIEW(gtk_widget_get_ancestor(
		GTK_WIDGET(km_test_player_view(win)->details_pane), ADW_TYPE_OVERLAY_SPLIT_VIEW));
}

static gboolean activates(GtkWidget *widget, gconstpointer action)
{
	return GTK_IS_ACTIONABLE(widget) &&
	       g_strcmp0(gtk_actionable_get_action_name(GTK_ACTIONABLE(widget)), action) == 0;
}

/* The first widget below widget that activates action, or NULL. */
static GtkWidget *find_actionable(GtkWidget *widget, const char *action)
{
	return km_test_find_widget_where(widget, activates, action);
}

static GtkToggleButton *details_button(KmPlayerView *pv)
{
	GtkWidget *button = find_actionable(GTK_WIDGET(pv), "player.details");

	g_assert_true(GTK_IS_TOGGLE_BUTTON(button));
	return GTK_TOGGLE_BUTTON(button);
}

/*
 * Narrow, the playlists and details fold over the library: hidden until the
 * header's button (or the details action) shows them; choosing a playlist
 * hides them again.  The folded layout fits in the width.
 */
static void test_folded(gconstpointer image)
{
	KmWindow *win = open_window_for_content(image, 360);
	KmPlayerView *pv = km_test_player_view(win);
	GtkWidget *bin;
	int min;

	g_assert_true(adw_overlay_split_view_get_collapsed(playlists_split(win)));
	g_assert_true(adw_overlay_split_view_get_collapsed(details_split(win)));
	g_assert_false(adw_overlay_split_view_get_show_sidebar(playlists_split(win)));
	g_assert_false(adw_overlay_split_view_get_show_sidebar(details_split(win)));
	/* what the header's details button shows */
	g_assert_false(gtk_toggle_button_get_active(details_button(pv)));
	bin = gtk_widget_get_ancestor(GTK_WIDGET(pv->library_view), ADW_TYPE_BREAKPOINT_BIN);
	gtk_widget_measure(adw_breakpoint_bin_get_child(ADW_BREAKPOINT_BIN(bin)),
			   GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
	g_assert_cmpint(min, <=, gtk_widget_get_width(bin));

	g_assert_false(gtk_widget_get_mapped(GTK_WIDGET(pv->sidebar)));
	adw_overlay_split_view_set_show_sidebar(playlists_split(win), TRUE);
	settle(win);
	g_assert_true(gtk_widget_get_mapped(GTK_WIDGET(pv->sidebar)));
	/* what choosing a row of the sidebar emits */
	g_object_notify(G_OBJECT(pv->sidebar), "selected");
	g_assert_false(adw_overlay_split_view_get_show_sidebar(playlists_split(win)));

	g_object_set(pv, "details-visible", TRUE, NULL);
	g_assert_true(adw_overlay_split_view_get_show_sidebar(details_split(win)));
	settle(win);
	g_assert_true(gtk_toggle_button_get_active(details_button(pv)));
	/* closed by a click beside it: the setting follows */
	adw_overlay_split_view_set_show_sidebar(details_split(win), FALSE);
	g_assert_false(gtk_revealer_get_reveal_child(pv->details_revealer));
	g_assert_false(g_settings_get_boolean(pv->settings, "details-visible"));
	settle(win);
	g_assert_false(gtk_toggle_button_get_active(details_button(pv)));
	km_test_close_window(win);
}

/* Wide, both panes stand beside the library, as the 1.2 layout's. */
static void test_unfolded(gconstpointer image)
{
	g_autoptr(GSettings) settings = g_settings_new(APP_ID);
	KmWindow *win;

	/* a window closed while folded keeps the details hidden */
	g_settings_reset(settings, "details-visible");
	win = open_window_for_content(image, 1000);

	g_assert_false(adw_overlay_split_view_get_collapsed(playlists_split(win)));
	g_assert_false(adw_overlay_split_view_get_collapsed(details_split(win)));
	g_assert_true(adw_overlay_split_view_get_show_sidebar(playlists_split(win)));
	g_assert_true(gtk_widget_get_mapped(GTK_WIDGET(km_test_player_view(win)->sidebar)));
	/* the details as the setting has them (shown by default) */
	g_assert_true(adw_overlay_split_view_get_show_sidebar(details_split(win)));
	g_assert_true(gtk_widget_get_mapped(GTK_WIDGET(km_test_player_view(win)->details_pane)));
	km_test_close_window(win);
}
#endif

/* The notes of one release, without the translated copies, as markup. */
static void test_release_notes(void)
{
	static const char metainfo[] =
		"<component><releases>\n"
		"  <release version=\"2.0\"><description><p>Later</p></description></release>\n"
		"  <release version=\"1.0\">\n"
		"    <description>\n"
		"      <p>First &amp; <em>best</em>\n        of all</p>\n"
		"      <p xml:lang=\"de\">Erste</p>\n"
		"      <ul>\n        <li>One</li>\n        <li><code>two</code></li>\n      </ul>\n"
		"    </description>\n"
		"  </release>\n"
		"</releases></component>";
	g_autofree char *notes = km_about_release_notes(metainfo, strlen(metainfo), "1.0");
	g_autofree char *none = km_about_release_notes(metainfo, strlen(metainfo), "3.0");
	g_autofree char *broken = km_about_release_notes(metainfo, 60, "2.0");

	g_assert_cmpstr(notes, ==, "<p>First &amp; <em>best</em> of all</p>"
			"<ul><li>One</li><li><code>two</code></li></ul>");
	g_assert_null(none);
	g_assert_null(broken);
}

#if ADW_CHECK_VERSION(1, 5, 0)
#define KM_TYPE_ABOUT ADW_TYPE_ABOUT_DIALOG
#define about_get(about, what) adw_about_dialog_get_##what(ADW_ABOUT_DIALOG(about))
#else
#define KM_TYPE_ABOUT ADW_TYPE_ABOUT_WINDOW
#define about_get(about, what) adw_about_window_get_##what(ADW_ABOUT_WINDOW(about))
#endif

/* The About window shows the metainfo's data, the same on 1.2 and 1.5. */
static void test_about(void)
{
	KmWindow *win = g_object_ref(km_window_new(NULL));
	GtkWidget *about;

	gtk_window_present(GTK_WINDOW(win));
	km_about_present(GTK_WIDGET(win));
	about = km_test_find_dialog(KM_TYPE_ABOUT);
	g_assert_nonnull(about);
	g_object_ref(about);
	g_assert_cmpstr(about_get(about, application_name), ==, "Karma Manager");
	g_assert_cmpstr(about_get(about, application_icon), ==, APP_ID);
	g_assert_cmpstr(about_get(about, version), ==, PACKAGE_VERSION);
	g_assert_cmpstr(about_get(about, comments), ==,
			"Copy music to and from a Rio Karma player");
	g_assert_cmpstr(about_get(about, developer_name), ==, "The Karma Manager developers");
	g_assert_cmpstr(about_get(about, website), ==, HOMEPAGE_URL);
	g_assert_cmpstr(about_get(about, issue_url), ==, HOMEPAGE_URL "/issues");
	g_assert_cmpint(about_get(about, license_type), ==, GTK_LICENSE_GPL_2_0);
	g_assert_cmpstr(about_get(about, release_notes_version), ==, PACKAGE_VERSION);
	g_assert_nonnull(strstr(about_get(about, release_notes),
				"<li>Back up and restore the whole player</li>"));
	km_dialog_close(about);
	g_assert_finalize_object(about);
	km_test_close_window(win);
}

int main(int argc, char **argv)
{
	g_autofree char *image = NULL;

	km_test_init(&argc, &argv);
	image = km_test_make_image(N_TRACKS);
	g_test_add_data_func("/app/layout/narrowest", image, test_narrowest);
#if ADW_CHECK_VERSION(1, 4, 0)
	g_test_add_data_func("/app/layout/folded", image, test_folded);
	g_test_add_data_func("/app/layout/unfolded", image, test_unfolded);
#endif
	g_test_add_func("/app/about/release-notes", test_release_notes);
	g_test_add_func("/app/about/window", test_about);
	return g_test_run();
}
