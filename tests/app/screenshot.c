/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * screenshot.c - PNG screenshots of the main states of the window, for the
 * README and the metainfo: the start page, the library of the demo player
 * with a track's details, and a transfer in progress. Usage: screenshot
 * OUTPUT_DIR [WIDTH] (a test of the gui suite writes them into the build
 * folder; copy them to docs/screenshots/ to update the README). Each is the
 * whole window with its own frame (the header bar and border GTK draws), at
 * most 1000x700 as software centres want them.  WIDTH shoots the window at
 * another width instead, to look at the layout there (360: a phone).
 */
#include "km-test-util.h"

#include "km-demo.h"

#include <stdlib.h>

static const char *out_dir;
static int shot_width;

/* The window's size: its frame is drawn inside it. */
#define SHOT_WIDTH 1000
#define SHOT_HEIGHT 680

/* The window as GTK draws it: paintable -> render node -> texture -> PNG. */
static void shoot(KmWindow *win, const char *name)
{
	GtkWidget *widget = GTK_WIDGET(win);
	g_autoptr(GdkPaintable) paintable = NULL;
	g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new();
	g_autoptr(GskRenderNode) node = NULL;
	g_autoptr(GdkTexture) texture = NULL;
	g_autofree char *path = g_strdup_printf("%s/%s.png", out_dir, name);
	int w, h;

	/* let allocations, animations and the revealers settle */
	for (int i = 0; i < 60; i++) {
		g_main_context_iteration(NULL, FALSE);
		g_usleep(10000);
	}
	gtk_test_widget_wait_for_draw(widget);
	w = gtk_widget_get_width(widget);
	h = gtk_widget_get_height(widget);
	paintable = gtk_widget_paintable_new(widget);
	gdk_paintable_snapshot(paintable, GDK_SNAPSHOT(snapshot), w, h);
	node = gtk_snapshot_free_to_node(g_steal_pointer(&snapshot));
	g_assert_nonnull(node);
	texture = gsk_renderer_render_texture(gtk_native_get_renderer(GTK_NATIVE(win)), node,
					      &GRAPHENE_RECT_INIT(0, 0, w, h));
	g_assert_true(gdk_texture_save_to_png(texture, path));
	g_assert_true(g_file_test(path, G_FILE_TEST_IS_REGULAR));
	if (shot_width == SHOT_WIDTH) {
		g_assert_cmpint(w, <=, 1000);
		g_assert_cmpint(h, <=, 700);
	}
}

static void test_start_page(void)
{
	KmWindow *win = g_object_ref(km_window_new(NULL));

	gtk_window_set_default_size(GTK_WINDOW(win), shot_width, SHOT_HEIGHT);
	gtk_window_present(GTK_WINDOW(win));
	shoot(win, "start-page");
	km_test_close_window(win);
}

static void test_library(gconstpointer image)
{
	KmWindow *win = km_test_open_window_sized(image, shot_width, SHOT_HEIGHT);
	KmPlayerView *pv = km_test_player_view(win);
	KmLibraryView *view = _km_player_view_get_library_view(pv);
	GListModel *model;

	/* the first two artists open, a track selected */
	model = G_LIST_MODEL(km_library_view_get_model(view));
	for (guint i = 0, opened = 0; opened < 2 && i < g_list_model_get_n_items(model); i++) {
		g_autoptr(GtkTreeListRow) row = g_list_model_get_item(model, i);

		if (gtk_tree_list_row_get_depth(row) < 2 && gtk_tree_list_row_is_expandable(row)) {
			gtk_tree_list_row_set_expanded(row, TRUE);
			opened += gtk_tree_list_row_get_depth(row) == 1;
		}
	}
	km_test_select(pv, km_test_first_track_row(pv));
	shoot(win, "library");
	km_test_close_window(win);
}

/* A copy job as it looks half-way (a real one is over before it can be shot). */
static void test_transfer(gconstpointer image)
{
	KmWindow *win = km_test_open_window_sized(image, shot_width, SHOT_HEIGHT);
	KmPlayerView *pv = km_test_player_view(win);
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_object_unref);
	g_autoptr(GError) cancelled = g_error_new_literal(G_IO_ERROR, G_IO_ERROR_CANCELLED, "");
	KmTransferRow *row;
	KmProgress p = { .file_name = (char *)"02 Harbour Lights.flac", .file_index = 1,
			 .n_files = 3, .file_bytes_done = 14 << 20, .file_bytes_total = 31 << 20,
			 .bytes_done = 40 << 20, .bytes_total = 92 << 20,
			 .rate = 11.5 * (1 << 20), .seconds_left = 13 };

	for (guint i = 1; i <= 3; i++) {
		g_autofree char *path = g_strdup_printf("/home/user/Music/Harbour/%02u Harbour Lights.flac", i);

		g_ptr_array_add(files, g_file_new_for_path(path));
	}
	row = km_transfer_row_new("Copying 3 items to the player", (GFile *const *)files->pdata,
				  files->len);
	km_transfer_panel_add(_km_player_view_get_transfers(pv), row);
	km_transfer_row_update(row, &p);
	shoot(win, "transfer");
	/* the job never ran: end the row as cancelled so the window closes plainly */
	km_transfer_row_finish(row, NULL, cancelled);
	km_test_close_window(win);
}

int main(int argc, char **argv)
{
	g_autofree char *image = NULL;

	km_test_init(&argc, &argv);
	if (argc != 2 && argc != 3) {
		g_printerr("usage: screenshot OUTPUT_DIR [WIDTH]\n");
		return 2;
	}
	out_dir = argv[1];
	shot_width = argc == 3 ? atoi(argv[2]) : SHOT_WIDTH;
	g_assert_cmpint(shot_width, >=, 360);
	g_assert_cmpint(g_mkdir_with_parents(out_dir, 0755), ==, 0);
	image = km_test_make_image(20);
	g_test_add_func("/app/screenshot/start-page", test_start_page);
	g_test_add_data_func("/app/screenshot/library", image, test_library);
	g_test_add_data_func("/app/screenshot/transfer", image, test_transfer);
	return g_test_run();
}
