/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-player-view-delete.c - player.delete. In a playlist, the selected
 * tracks leave the playlist; in the library, they leave the player.
 *
 * With confirm-delete on (the default) a dialog asks first. With it off,
 * GNOME's way: the tracks disappear from the view at once and a toast offers
 * Undo; they are deleted on the player only when the toast goes: its time
 * is up, another deletion replaces it, a playlist is shown (playlists would
 * list them), the player is ejected or the window closed. Until then the
 * tracks are only hidden: the library shows the session's list through a
 * filter.
 */
#define G_LOG_DOMAIN "km-player-view"

#include "config.h"

#include <glib/gi18n.h>

#include "km-app-util.h"
#include "km-player-view-private.h"

typedef struct {
	KmPlayerView *self;
	GArray *fids;
} RemoveJob;

static void remove_job_free(RemoveJob *job)
{
	g_object_unref(job->self);
	g_array_unref(job->fids);
	g_free(job);
}

static void set_hidden(KmPlayerView *self, GArray *fids, gboolean hidden)
{
	for (guint i = 0; i < fids->len; i++) {
		gpointer fid = GUINT_TO_POINTER(g_array_index(fids, guint32, i));

		if (hidden)
			g_hash_table_add(self->hidden_fids, fid);
		else
			g_hash_table_remove(self->hidden_fids, fid);
	}
	gtk_filter_changed(self->hide_filter, hidden ? GTK_FILTER_CHANGE_MORE_STRICT :
						       GTK_FILTER_CHANGE_LESS_STRICT);
}

static void on_removed(GObject *source, GAsyncResult *result, gpointer data)
{
	RemoveJob *job = data;
	KmPlayerView *self = job->self;
	g_autoptr(GError) error = NULL;

	km_session_edit_finish(KM_SESSION(source), result, &error);
	_km_player_view_toast_error(self, error);
	/* gone from the session's list now, or back if the deletion failed */
	if (self->hidden_fids)
		set_hidden(self, job->fids, FALSE);
	remove_job_free(job);
}

void _km_player_view_remove_tracks(KmPlayerView *self, GArray *fids)
{
	RemoveJob *job;

	if (self->closing) {
		set_hidden(self, fids, FALSE);
		return;
	}
	job = g_new(RemoveJob, 1);
	job->self = g_object_ref(self);
	job->fids = g_array_ref(fids);
	km_session_remove_async(self->session, (guint32 *)(void *)fids->data, fids->len,
				self->cancellable, on_removed, job);
}

static void on_delete_response(KmQuestionDialog *dialog, const char *response, gpointer data)
{
	if (g_str_equal(response, "delete"))
		_km_player_view_remove_tracks(KM_PLAYER_VIEW(data),
					      g_object_get_data(G_OBJECT(dialog), "km-fids"));
}

/* "“Title” by Artist", the way the question names a track. */
static char *track_name(KmTrack *track)
{
	const char *title = km_track_get_title(track), *artist = km_track_get_artist(track);

	if (!title || !*title)
		return g_strdup(_("a track without a title"));
	if (artist && *artist)
		/* Translators: a track's title and its artist */
		return g_strdup_printf(_("“%s” by %s"), title, artist);
	return g_strdup_printf("“%s”", title);
}

/* The tracks the question names: all of a few, the first ones of many. */
#define NAMED_TRACKS 5

static char *question_heading(GPtrArray *tracks)
{
	g_autofree char *name = NULL;

	if (tracks->len != 1)
		return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
						   "Delete %u track from the player?",
						   "Delete %u tracks from the player?", tracks->len),
				       tracks->len);
	name = track_name(tracks->pdata[0]);
	/* Translators: the track's name ("“Title” by Artist") */
	return g_strdup_printf(_("Delete %s from the player?"), name);
}

static char *question_body(GPtrArray *tracks)
{
	GString *body = g_string_new(NULL);

	for (guint i = 0; tracks->len > 1 && i < MIN(tracks->len, NAMED_TRACKS); i++) {
		g_autofree char *name = track_name(tracks->pdata[i]);

		g_string_append_printf(body, "%s\n", name);
	}
	if (tracks->len > NAMED_TRACKS)
		g_string_append_printf(body, g_dngettext(GETTEXT_PACKAGE, "and %u more\n",
							 "and %u more\n",
							 tracks->len - NAMED_TRACKS),
				       tracks->len - NAMED_TRACKS);
	if (body->len)
		g_string_append_c(body, '\n');
	g_string_append(body, tracks->len == 1 ?
			_("It is removed from the player and from every playlist. This cannot "
			  "be undone.") :
			_("They are removed from the player and from every playlist. This "
			  "cannot be undone."));
	return g_string_free(body, FALSE);
}

static void confirm_delete(KmPlayerView *self, GPtrArray *tracks, GArray *fids)
{
	g_autofree char *heading = question_heading(tracks);
	g_autofree char *body = question_body(tracks);
	const KmQuestion question = {
		.heading = heading,
		.body = body,
		.cancel_id = "cancel", .cancel_label = _("_Cancel"),
		.act_id = "delete", .act_label = _("_Delete"),
		.appearance = ADW_RESPONSE_DESTRUCTIVE,
	};
	KmQuestionDialog *dialog = km_question_new(&question, G_CALLBACK(on_delete_response), self);

	g_object_set_data_full(G_OBJECT(dialog), "km-fids", g_array_ref(fids),
			       (GDestroyNotify)g_array_unref);
	km_dialog_present(GTK_WIDGET(dialog), GTK_WIDGET(self));
}

/* Forgets the toast. Returns the tracks it could still bring back. */
static GArray *let_go_of_toast(KmPlayerView *self)
{
	if (self->undo_toast) {
		g_signal_handlers_disconnect_by_data(self->undo_toast, self);
		g_clear_object(&self->undo_toast);
	}
	gtk_widget_action_set_enabled(GTK_WIDGET(self), "player.undo-delete", FALSE);
	return g_steal_pointer(&self->undoable_fids);
}

/* Undo: the toast closes itself (an idle later) and is no longer ours. */
static void on_undo(AdwToast *toast, KmPlayerView *self)
{
	g_autoptr(GArray) fids = let_go_of_toast(self);

	if (fids)
		set_hidden(self, fids, FALSE);
}

/* The toast went: what Undo did not bring back is deleted now. */
static void on_undo_toast_dismissed(AdwToast *toast, KmPlayerView *self)
{
	g_autoptr(GArray) fids = let_go_of_toast(self);

	if (fids)
		_km_player_view_remove_tracks(self, fids);
}

/* Ctrl+Z while the toast is up: as its button (in a text entry, the entry's own undo). */
static void undo_delete_action(GtkWidget *widget, const char *name, GVariant *param)
{
	KmPlayerView *self = KM_PLAYER_VIEW(widget);
	g_autoptr(AdwToast) toast = self->undo_toast ? g_object_ref(self->undo_toast) : NULL;

	if (!toast)
		return;
	on_undo(toast, self);
	adw_toast_dismiss(toast);
}

void _km_player_view_commit_delete(KmPlayerView *self)
{
	if (self->undo_toast)
		adw_toast_dismiss(self->undo_toast);
}

guint km_player_view_get_n_uncommitted_deletes(KmPlayerView *self)
{
	g_return_val_if_fail(KM_IS_PLAYER_VIEW(self), 0);
	return self->undoable_fids ? self->undoable_fids->len : 0;
}

static void delete_with_undo(KmPlayerView *self, GArray *fids)
{
	GtkWidget *overlay = gtk_widget_get_ancestor(GTK_WIDGET(self), ADW_TYPE_TOAST_OVERLAY);
	g_autofree char *title = NULL;

	_km_player_view_commit_delete(self);	/* one deletion undoable at a time */
	if (!overlay) {
		_km_player_view_remove_tracks(self, fids);
		return;
	}
	set_hidden(self, fids, TRUE);
	/* the hidden rows left the selection: nothing of them stays editable or exportable */
	_km_player_view_selection_changed(self);
	self->undoable_fids = g_array_ref(fids);
	title = g_strdup_printf(g_dngettext(GETTEXT_PACKAGE, "%u track deleted",
					    "%u tracks deleted", fids->len),
				fids->len);
	self->undo_toast = adw_toast_new(title);
	adw_toast_set_button_label(self->undo_toast, _("_Undo"));
	/*
	 * At the normal priority it waits for a toast already shown. A high one
	 * would push that back into the queue, and libadwaita 1.2 aborts when
	 * the pushed one comes back before its hiding is over.
	 */
	g_signal_connect(self->undo_toast, "button-clicked", G_CALLBACK(on_undo), self);
	g_signal_connect(self->undo_toast, "dismissed", G_CALLBACK(on_undo_toast_dismissed), self);
	/* the overlay takes a reference; the view keeps its own until the toast goes */
	adw_toast_overlay_add_toast(ADW_TOAST_OVERLAY(overlay), g_object_ref(self->undo_toast));
	gtk_widget_action_set_enabled(GTK_WIDGET(self), "player.undo-delete", TRUE);
}

static void delete_action(GtkWidget *widget, const char *name, GVariant *param)
{
	KmPlayerView *self = KM_PLAYER_VIEW(widget);
	g_autoptr(GPtrArray) tracks = km_library_view_get_selected_tracks(self->library_view);
	g_autoptr(GArray) fids = NULL;

	if (tracks->len == 0)
		return;
	if (km_playlist_sidebar_get_selected(self->sidebar)) {
		_km_player_view_remove_from_playlist(self, tracks);
		return;
	}
	fids = km_fid_list_new_for_tracks(tracks);
	if (g_settings_get_boolean(self->settings, "confirm-delete"))
		confirm_delete(self, tracks, fids);
	else
		delete_with_undo(self, fids);
}

static gboolean is_shown(gpointer item, gpointer data)
{
	KmPlayerView *self = data;

	/* the list may outlive the view's dispose in a widget not yet disposed */
	return !self->hidden_fids ||
	       !g_hash_table_contains(self->hidden_fids,
				      GUINT_TO_POINTER(km_track_get_fid(KM_TRACK(item))));
}

GListModel *_km_player_view_init_delete(KmPlayerView *self, GListModel *tracks)
{
	gtk_widget_action_set_enabled(GTK_WIDGET(self), "player.undo-delete", FALSE);
	self->hidden_fids = g_hash_table_new(NULL, NULL);
	self->hide_filter = GTK_FILTER(gtk_custom_filter_new(is_shown, self, NULL));
	return G_LIST_MODEL(gtk_filter_list_model_new(g_object_ref(tracks),
						      g_object_ref(self->hide_filter)));
}

/* A deletion still undoable is dropped: the tracks stay on the player. */
void _km_player_view_dispose_delete(KmPlayerView *self)
{
	g_autoptr(AdwToast) toast = self->undo_toast ? g_object_ref(self->undo_toast) : NULL;
	GArray *dropped = let_go_of_toast(self);

	if (dropped)
		g_array_unref(dropped);
	if (toast)
		adw_toast_dismiss(toast);
	g_clear_object(&self->hide_filter);
	g_clear_pointer(&self->hidden_fids, g_hash_table_unref);
}

void _km_player_view_class_init_delete(GtkWidgetClass *widget_class)
{
	static const KmViewAction actions[] = {
		{ "player.delete", delete_action, GDK_KEY_Delete, 0 },
		{ "player.undo-delete", undo_delete_action, GDK_KEY_z, GDK_CONTROL_MASK },
	};

	_km_player_view_install_actions(widget_class, actions, G_N_ELEMENTS(actions));
}
