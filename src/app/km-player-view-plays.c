/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-player-view-plays.c - player.export-plays: the plays the player counted
 * since the last export, appended to scrobbler.log in a folder the user
 * chooses, for a last.fm or ListenBrainz uploader (km-plays.h).
 */
#define G_LOG_DOMAIN "km-player-view"

#include "config.h"

#include <glib/gi18n.h>

#include "km-app-util.h"
#include "km-file-chooser.h"
#include "km-player-view-private.h"

/* Rockbox and the uploaders call it .scrobbler.log; a visible name is easier to find. */
#define LOG_NAME "scrobbler.log"

static char *plays_message(const KmPlaysResult *r)
{
	g_autofree char *written = NULL;

	if (!r->n_written && !r->n_undated)
		return g_strdup(_("No new plays since the last export"));
	written = g_strdup_printf(g_dngettext(GETTEXT_PACKAGE, "%u play written to scrobbler.log",
					      "%u plays written to scrobbler.log", r->n_written),
				  r->n_written);
	if (!r->n_undated)
		return g_steal_pointer(&written);
	/* Translators: the first %s is "N plays written to scrobbler.log". */
	return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE, "%s; %u play has no date and was left out",
					   "%s; %u plays have no date and were left out",
					   r->n_undated),
			       written, r->n_undated);
}

static void on_plays_exported(GObject *source, GAsyncResult *result, gpointer data)
{
	g_autoptr(KmPlayerView) self = data;
	g_autoptr(GError) error = NULL;
	g_autofree char *message = NULL;
	KmPlaysResult plays;

	if (!km_session_export_plays_finish(KM_SESSION(source), result, &plays, &error)) {
		_km_player_view_toast_error(self, error);
		return;
	}
	message = plays_message(&plays);
	if (!self->closing)
		km_widget_toast(GTK_WIDGET(self), message);
}

void km_player_view_export_plays(KmPlayerView *self, GFile *folder)
{
	g_autoptr(GFile) log = NULL;

	g_return_if_fail(KM_IS_PLAYER_VIEW(self));
	g_return_if_fail(G_IS_FILE(folder));
	if (self->closing)
		return;
	log = g_file_get_child(folder, LOG_NAME);
	km_session_export_plays_async(self->session, log, NULL, on_plays_exported,
				      g_object_ref(self));
}

static void on_plays_folder_chosen(GObject *owner, GPtrArray *files)
{
	km_player_view_export_plays(KM_PLAYER_VIEW(owner), files->pdata[0]);
}

static void export_plays_action(GtkWidget *widget, const char *name, GVariant *param)
{
	km_choose_files(widget, _("Export Plays to Folder"), _("_Export"), TRUE, FALSE,
			on_plays_folder_chosen);
}

void _km_player_view_class_init_plays(GtkWidgetClass *widget_class)
{
	gtk_widget_class_install_action(widget_class, "player.export-plays", NULL,
					export_plays_action);
}
