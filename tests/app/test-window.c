/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-window.c - ejecting the player and closing the window, idle and while
 * files are being copied (a transfer row that stays running keeps the view
 * busy for as long as the test needs).
 */
#include "km-test-util.h"

#define N_TRACKS 4

static void test_eject(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);

	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(km_test_player_view(win)),
						 "player.eject", NULL));
	km_test_wait_until(km_window_get_player_view(win) == NULL);
	g_assert_null(km_window_get_message(win));
	g_assert_true(km_test_find_label(GTK_WIDGET(win), "Plug in your Rio Karma"));
	km_test_close_window(win);
}

/* A transfer row that stays running: the view is busy for as long as the test needs. */
static KmTransferRow *add_running_row(KmPlayerView *pv)
{
	KmTransferRow *row = km_transfer_row_new("Copying", NULL, 0);

	km_transfer_panel_add(_km_player_view_get_transfers(pv), row);
	g_assert_true(km_player_view_is_busy(pv));
	return row;
}

static void test_eject_while_copying(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);
	KmTransferRow *row = add_running_row(pv);

	/* asked first; Keep Copying keeps everything */
	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), "player.eject", NULL));
	km_test_answer(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG), "keep");
	g_assert_false(g_cancellable_is_cancelled(km_transfer_row_get_cancellable(row)));
	g_assert_true(km_window_get_player_view(win) == GTK_WIDGET(pv));
	/* Stop and Eject cancels the transfers and closes the player */
	g_assert_true(gtk_widget_activate_action(GTK_WIDGET(pv), "player.eject", NULL));
	km_test_answer(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG), "eject");
	g_assert_true(g_cancellable_is_cancelled(km_transfer_row_get_cancellable(row)));
	km_test_wait_until(km_window_get_player_view(win) == NULL);
	km_test_close_window(win);
}

/* Whether win is still one of GTK's toplevels (gtk_window_destroy() drops it). */
static gboolean is_toplevel(KmWindow *win)
{
	GListModel *toplevels = gtk_window_get_toplevels();	/* owned by GTK */

	for (guint i = 0; i < g_list_model_get_n_items(toplevels); i++) {
		g_autoptr(GObject) w = g_list_model_get_item(toplevels, i);

		if (w == G_OBJECT(win))
			return TRUE;
	}
	return FALSE;
}

static void test_close_while_copying(gconstpointer image)
{
	KmWindow *win = km_test_open_window(image);
	KmPlayerView *pv = km_test_player_view(win);

	add_running_row(pv);
	gtk_window_close(GTK_WINDOW(win));
	/* refused until answered; Stop and Close ejects, then the window goes */
	g_assert_true(is_toplevel(win));
	km_test_answer(km_test_find_dialog(KM_TYPE_QUESTION_DIALOG), "close");
	km_test_wait_until(!is_toplevel(win));
	g_assert_null(km_window_get_player_view(win));
	km_test_close_window(win);
}

int main(int argc, char **argv)
{
	g_autofree char *image = NULL;

	km_test_init(&argc, &argv);
	image = km_test_make_image(N_TRACKS);
	g_test_add_data_func("/app/window/eject", image, test_eject);
	g_test_add_data_func("/app/window/eject-while-copying", image, test_eject_while_copying);
	g_test_add_data_func("/app/window/close-while-copying", image, test_close_while_copying);
	return g_test_run();
}
