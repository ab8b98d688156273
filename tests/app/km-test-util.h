/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-test-util.h - helpers of the GUI tests (tests/app): a demo image, a
 * window showing it, waiting on the main loop (bounded), finding widgets.
 */
#pragma once

#include <adwaita.h>

#include "km-app-util.h"
#include "km-player-view-private.h"
#include "km-window.h"

G_BEGIN_DECLS

/* Iterates the main context until cond holds; fails the test after 30 s (a hang guard). */
#define km_test_wait_until(cond) \
	G_STMT_START { \
		gint64 _end = g_get_monotonic_time() + 30 * G_USEC_PER_SEC; \
		while (!(cond)) { \
			if (g_get_monotonic_time() > _end) \
				g_error("timed out waiting for %s", #cond); \
			g_main_context_iteration(NULL, FALSE); \
			g_usleep(1000); \
		} \
	} G_STMT_END

/* gtk_test_init, adw_init, a fresh demo image path (n tracks) in a temporary folder. */
void km_test_init(int *argc, char ***argv);
/* A new demo image with n tracks (path to free). */
char *km_test_make_image(guint n);
/*
 * A presented window with image open in its player view (a new reference),
 * the player marked as already offered a backup (km_test_mark_backup_offered),
 * so that its changes run at once.
 */
KmWindow *km_test_open_window(const char *image);
/* The same at a given size (the screenshots'). */
KmWindow *km_test_open_window_sized(const char *image, int width, int height);
/* The same, without the mark: the first change brings the backup offer. */
KmWindow *km_test_open_window_offering(const char *image);
/* Records session's player as offered a backup already (the GSettings key). */
void km_test_mark_backup_offered(KmSession *session);
/* Destroys the window and asserts that it is finalized. */
void km_test_close_window(KmWindow *win);
KmPlayerView *km_test_player_view(KmWindow *win);
KmSession *km_test_session(KmWindow *win);
/* The number of items of the session's tracks list. */
guint km_test_n_tracks(KmWindow *win);
/* Reads every file of the player's library and compares with its database: no findings. */
void km_test_assert_verifies_clean(KmWindow *win);
/* The first toplevel, or dialog shown on one (AdwDialog), of type, or NULL. */
GtkWidget *km_test_find_dialog(GType type);
/* Sync Folder's question for folder, once the comparison ended. */
GtkWidget *km_test_sync_question(KmPlayerView *pv, GFile *folder);
/* Answers dialog (a KmQuestionDialog) as a click on the button of response does. */
void km_test_answer(GtkWidget *dialog, const char *response);
/* Whether some GtkLabel below widget shows text. */
gboolean km_test_find_label(GtkWidget *widget, const char *text);
/* Whether widget is the one looked for; data is the caller's. */
typedef gboolean (*KmTestWidgetMatch)(GtkWidget *widget, gconstpointer data);
/* The first widget at or below widget (depth first) that match accepts, or NULL. */
GtkWidget *km_test_find_widget_where(GtkWidget *widget, KmTestWidgetMatch match,
				     gconstpointer data);
/* The first widget of type at or below widget, or NULL. */
GtkWidget *km_test_find_widget(GtkWidget *widget, GType type);
/* The first widget below widget with a controller of type, or NULL. */
GtkWidget *km_test_find_controller(GtkWidget *widget, GType type, GtkEventController **out);
/* The first row of type (an AdwPreferencesRow) below widget with this title, or NULL. */
GtkWidget *km_test_find_row(GtkWidget *widget, GType type, const char *title);
/* The switch (activatable widget) of the action row with this title; asserts it is there. */
GtkSwitch *km_test_find_switch_row(GtkWidget *widget, const char *title);
/* Selects the row at position of the library view's model (only it). */
void km_test_select(KmPlayerView *view, guint position);
/* The position of the first row showing a track, or G_MAXUINT. */
guint km_test_first_track_row(KmPlayerView *view);
/* The track of row position (a new reference), or NULL for a group row. */
KmTrack *km_test_row_track(KmPlayerView *view, guint position);
/* n WAV files of demo tracks first.. in folder (GFile, a new array). */
GPtrArray *km_test_write_wavs(const char *folder, guint first, guint n);

/*
 * The music partition of a demo image as a device (km-image-device.h), once
 * the session of a window closed on it has let go of it (a bounded wait).
 */
struct km_image_device *km_test_open_music(const char *image, gboolean writable);
/* Overwrites the header of image's var/smalldb with garbage (the player's list of tracks, damaged). */
void km_test_damage_smalldb(const char *image);
/* Marks n free blocks of image's music volume used: a leak only the file system check finds. */
void km_test_leak_blocks(const char *image, guint n);

/* A WAV file of size bytes of silence (big enough for progress to show). */
GFile *km_test_write_silence(const char *path, guint32 size);

G_END_DECLS
