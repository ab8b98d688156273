/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-player-view-backup.c - backups of the whole player: the offer made
 * before the first change to a player never offered one (the session holds
 * the change until the answer), player.backup, and player.restore (the list
 * of the folder's backups, then a warning) with a transfer row each.
 */
#define G_LOG_DOMAIN "km-player-view"

#include "config.h"

#include <glib/gi18n.h>

#include "km-app-util.h"
#include "km-player-view-private.h"
#include "km-session-backup.h"

/* the offer, once per player (by serial, else name) */

static gboolean was_offered(KmPlayerView *self)
{
	g_auto(GStrv) ids = g_settings_get_strv(self->settings, "offered-backup-serials");

	return g_strv_contains((const char *const *)ids, km_session_get_player_id(self->session));
}

static void mark_offered(KmPlayerView *self)
{
	g_auto(GStrv) ids = g_settings_get_strv(self->settings, "offered-backup-serials");
	g_autoptr(GStrvBuilder) builder = g_strv_builder_new();
	g_auto(GStrv) updated = NULL;

	if (was_offered(self))
		return;
	g_strv_builder_addv(builder, (const char **)ids);
	g_strv_builder_add(builder, km_session_get_player_id(self->session));
	updated = g_strv_builder_end(builder);
	g_settings_set_strv(self->settings, "offered-backup-serials",
			    (const char *const *)updated);
}

static void on_backed_up(GObject *source, GAsyncResult *result, gpointer data)
{
	KmViewJob *job = data;
	g_autoptr(GError) error = NULL;
	gboolean resumed = FALSE;
	g_autoptr(KmBackupEntry) entry = km_session_backup_finish(KM_SESSION(source), result,
								  &resumed, &error);
	g_autofree char *name = NULL, *text = NULL;

	if (entry) {
		name = g_path_get_basename(km_backup_entry_get_path(entry));
		text = g_strdup_printf(resumed ? _("Saved as %s (an unfinished backup, resumed)") :
				       _("Saved as %s"), name);
	}
	km_transfer_row_finish_text(job->row, text, error);
	_km_player_view_toast_error(job->self, error);
	_km_view_job_free(job);
}

static void backup_player(KmPlayerView *self)
{
	g_autofree char *folder = km_backup_folder(self->settings);
	g_autoptr(GFile) file = g_file_new_for_path(folder);
	g_autofree char *title = g_strdup_printf(_("Backing up “%s” to %s"),
						 km_session_get_name(self->session), folder);
	KmTransferRow *row = km_transfer_row_new(title, NULL, 0);
	g_autofree char *done = g_strdup_printf(_("Backup of “%s” in %s"),
						km_session_get_name(self->session), folder);

	km_transfer_row_set_finished_title(row, done);
	/* the folder is chosen once: the default, once used, stays until changed */
	g_settings_set_string(self->settings, "backup-folder", folder);
	km_transfer_panel_add(self->transfers, row);
	km_session_backup_async(self->session, file, _km_player_view_on_progress, g_object_ref(row),
				g_object_unref, km_transfer_row_get_cancellable(row), on_backed_up,
				_km_view_job_new(self, row));
}

static void on_offer_response(KmQuestionDialog *dialog, const char *response, gpointer data)
{
	KmPlayerView *self = KM_PLAYER_VIEW(data);

	if (!self->session)
		return;
	mark_offered(self);
	if (g_str_equal(response, "backup") && !self->closing)
		backup_player(self);
	/* the change asked for runs now, after the backup queued just before */
	km_session_release_changes(self->session);
}

static void on_changes_held(KmPlayerView *self)
{
	g_autofree char *folder = km_backup_folder(self->settings);
	g_autofree char *body = g_strdup_printf(
		_("Nothing has been changed on “%s” yet. A backup of the whole player, made "
		  "now, can put it back exactly as it is if anything goes wrong. It is saved in "
		  "%s (Preferences changes the folder); Restore Player… puts it back."),
		km_session_get_name(self->session), folder);
	const KmQuestion question = {
		.heading = _("Back Up This Player First?"), .body = body,
		.cancel_id = "later", .cancel_label = _("_Not Now"),
		.act_id = "backup", .act_label = _("_Back Up"),
		.appearance = ADW_RESPONSE_SUGGESTED,
	};

	km_dialog_present(GTK_WIDGET(km_question_new(&question, G_CALLBACK(on_offer_response), self)),
			  GTK_WIDGET(self));
}

static void on_incomplete(KmPlayerView *self)
{
	if (km_session_is_incomplete(self->session))
		km_widget_toast(GTK_WIDGET(self),
				_("The restore did not finish: the player cannot be used until a "
				  "restore of a backup finishes"));
	_km_player_view_update_actions(self);
}

void _km_player_view_init_backup(KmPlayerView *self)
{
	g_signal_connect_object(self->session, "changes-held", G_CALLBACK(on_changes_held), self,
				G_CONNECT_SWAPPED);
	g_signal_connect_object(self->session, "notify::incomplete", G_CALLBACK(on_incomplete),
				self, G_CONNECT_SWAPPED);
	if (!was_offered(self))
		km_session_hold_changes(self->session);
}

/* restore */

static void on_restored(GObject *source, GAsyncResult *result, gpointer data)
{
	KmViewJob *job = data;
	g_autoptr(GError) error = NULL;

	km_session_restore_finish(KM_SESSION(source), result, &error);
	km_transfer_row_finish_text(job->row, _("Restored"), error);
	_km_player_view_toast_error(job->self, error);
	_km_view_job_free(job);
}

static void restore_player(KmPlayerView *self, KmBackupEntry *entry)
{
	g_autoptr(GFile) file = g_file_new_for_path(km_backup_entry_get_path(entry));
	g_autofree char *name = g_file_get_basename(file);
	g_autofree char *title = g_strdup_printf(_("Restoring “%s” from %s"),
						 km_session_get_name(self->session), name);
	KmTransferRow *row = km_transfer_row_new(title, NULL, 0);
	g_autofree char *done = g_strdup_printf(_("Restore of “%s” from %s"),
						km_session_get_name(self->session), name);

	km_transfer_row_set_finished_title(row, done);
	km_transfer_panel_add(self->transfers, row);
	km_session_restore_async(self->session, file, _km_player_view_on_progress,
				 g_object_ref(row), g_object_unref,
				 km_transfer_row_get_cancellable(row), on_restored,
				 _km_view_job_new(self, row));
}

static char *entry_date(KmBackupEntry *entry)
{
	return g_date_time_format(km_backup_entry_get_created(entry), "%x %H:%M");
}

static void on_warning_response(KmQuestionDialog *dialog, const char *response, gpointer data)
{
	KmPlayerView *self = KM_PLAYER_VIEW(data);

	if (g_str_equal(response, "restore") && self->session && !self->closing)
		restore_player(self, g_object_get_data(G_OBJECT(dialog), "km-entry"));
}

static void warn_before_restore(KmPlayerView *self, KmBackupEntry *entry)
{
	g_autofree char *date = entry_date(entry);
	g_autofree char *body = g_strdup_printf(
		_("Everything on “%s” is replaced by the backup made on %s: the tracks and "
		  "playlists added since then are lost. This cannot be undone. Keep the player "
		  "plugged in until the restore is done."),
		km_session_get_name(self->session), date);
	const KmQuestion question = {
		.heading = _("Replace Everything on the Player?"), .body = body,
		.cancel_id = "cancel", .cancel_label = _("_Cancel"),
		.act_id = "restore", .act_label = _("_Replace Everything"),
		.appearance = ADW_RESPONSE_DESTRUCTIVE,
	};
	KmQuestionDialog *dialog = km_question_new(&question, G_CALLBACK(on_warning_response), self);

	g_object_set_data_full(G_OBJECT(dialog), "km-entry", g_object_ref(entry), g_object_unref);
	km_dialog_present(GTK_WIDGET(dialog), GTK_WIDGET(self));
}

static const char *status_text(KmBackupEntry *entry)
{
	switch (km_backup_entry_get_status(entry)) {
	case KM_BACKUP_COMPLETE:
		return _("complete");
	case KM_BACKUP_UNFINISHED:
		return _("unfinished: Back Up Player… resumes it");
	case KM_BACKUP_NO_CHECKSUM:
	default:
		return _("no checksum: it cannot be checked");
	}
}

/* "Demo Player — 256 MB disk, 1.5 MB in use — complete" */
static GtkWidget *backup_row(KmBackupEntry *entry)
{
	g_autofree char *date = entry_date(entry);
	g_autofree char *disk = g_format_size(km_backup_entry_get_disk_size(entry));
	g_autofree char *used = g_format_size(km_backup_entry_get_used_bytes(entry));
	/* Translators: the player's serial or name, disk size, bytes in use, status */
	g_autofree char *subtitle = g_strdup_printf(_("%s — %s disk, %s in use — %s"),
						    km_backup_entry_get_source(entry), disk, used,
						    status_text(entry));
	GtkWidget *row = adw_action_row_new();

	adw_preferences_row_set_title(ADW_PREFERENCES_ROW(row), date);
	adw_action_row_set_subtitle(ADW_ACTION_ROW(row), subtitle);
	gtk_widget_set_sensitive(row, km_backup_entry_get_status(entry) == KM_BACKUP_COMPLETE);
	g_object_set_data_full(G_OBJECT(row), "km-entry", g_object_ref(entry), g_object_unref);
	return row;
}

/* Rows are unselected (NULL) only as the dialog goes: nothing to update then. */
static void on_backup_selected(GtkListBox *list, GtkListBoxRow *row, KmQuestionDialog *dialog)
{
	if (row)
		km_question_dialog_set_response_enabled(dialog, "restore",
							gtk_widget_get_sensitive(GTK_WIDGET(row)));
}

static GtkWidget *backup_list(GListModel *backups, KmQuestionDialog *dialog)
{
	GtkWidget *scrolled = gtk_scrolled_window_new();
	GtkWidget *list = gtk_list_box_new();

	for (guint i = 0; i < g_list_model_get_n_items(backups); i++) {
		g_autoptr(KmBackupEntry) entry = g_list_model_get_item(backups, i);

		gtk_list_box_append(GTK_LIST_BOX(list), backup_row(entry));
	}
	gtk_widget_add_css_class(list, "boxed-list");
	g_signal_connect_object(list, "row-selected", G_CALLBACK(on_backup_selected), dialog, 0);
	g_object_set_data(G_OBJECT(dialog), "km-list", list);
	gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scrolled), list);
	gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scrolled), GTK_POLICY_NEVER,
				       GTK_POLICY_AUTOMATIC);
	gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(scrolled), TRUE);
	gtk_scrolled_window_set_max_content_height(GTK_SCROLLED_WINDOW(scrolled), 320);
	/* the newest complete backup is the likely choice */
	for (GtkListBoxRow *row = gtk_list_box_get_row_at_index(GTK_LIST_BOX(list), 0); row;
	     row = gtk_list_box_get_row_at_index(GTK_LIST_BOX(list),
						 gtk_list_box_row_get_index(row) + 1)) {
		if (gtk_widget_get_sensitive(GTK_WIDGET(row))) {
			gtk_list_box_select_row(GTK_LIST_BOX(list), row);
			break;
		}
	}
	return scrolled;
}

static void on_list_response(KmQuestionDialog *dialog, const char *response, gpointer data)
{
	KmPlayerView *self = KM_PLAYER_VIEW(data);
	GtkListBox *list = g_object_get_data(G_OBJECT(dialog), "km-list");
	GtkListBoxRow *row = gtk_list_box_get_selected_row(list);

	if (g_str_equal(response, "restore") && row && self->session && !self->closing)
		warn_before_restore(self, g_object_get_data(G_OBJECT(row), "km-entry"));
}

static void restore_action(GtkWidget *widget, const char *name, GVariant *param)
{
	KmPlayerView *self = KM_PLAYER_VIEW(widget);
	g_autofree char *folder = km_backup_folder(self->settings);
	g_autoptr(GListModel) backups = km_backup_list_folder(folder);
	g_autofree char *body = NULL;
	KmQuestion question = {
		.heading = _("Restore Player"),
		.cancel_id = "cancel", .cancel_label = _("_Cancel"),
		.act_id = "restore", .act_label = _("_Restore…"),
		.appearance = ADW_RESPONSE_DEFAULT,
	};
	KmQuestionDialog *dialog;

	if (self->closing)
		return;
	if (km_player_view_is_busy(self)) {
		km_widget_toast(widget, _("Wait until the transfers are done: a restore replaces "
					  "everything on the player"));
		return;
	}
	body = g_list_model_get_n_items(backups) ?
	       g_strdup_printf(_("Choose the backup to put back on “%s”, from %s."),
			       km_session_get_name(self->session), folder) :
	       g_strdup_printf(_("There is no backup in %s yet: Back Up Player… makes one."),
			       folder);
	question.body = body;
	dialog = km_question_new(&question, G_CALLBACK(on_list_response), self);
	/* until a backup is chosen in the list */
	km_question_dialog_set_response_enabled(dialog, "restore", FALSE);
	/* the list is the dialog's: it lives as long */
	km_question_dialog_set_extra_child(dialog, backup_list(backups, dialog));
	km_dialog_present(GTK_WIDGET(dialog), GTK_WIDGET(self));
}

static void backup_action(GtkWidget *widget, const char *name, GVariant *param)
{
	KmPlayerView *self = KM_PLAYER_VIEW(widget);

	if (!self->closing)
		backup_player(self);
}

void _km_player_view_update_backup_actions(KmPlayerView *self)
{
	gboolean open = !self->closing && self->session;
	gboolean readable = open && !km_session_is_incomplete(self->session);

	gtk_widget_action_set_enabled(GTK_WIDGET(self), "player.backup", readable);
	/* the other reader of the whole player (km-player-view-plays.c) */
	gtk_widget_action_set_enabled(GTK_WIDGET(self), "player.export-plays", readable);
	gtk_widget_action_set_enabled(GTK_WIDGET(self), "player.restore",
				      open && !km_player_view_is_busy(self));
}

void _km_player_view_class_init_backup(GtkWidgetClass *widget_class)
{
	gtk_widget_class_install_action(widget_class, "player.backup", NULL, backup_action);
	gtk_widget_class_install_action(widget_class, "player.restore", NULL, restore_action);
}
