/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-player-view-actions.c - the player.* actions: add files, export,
 * search, details, eject (delete: km-player-view-delete.c). Each copy job gets a row in the transfer
 * queue; the row is the job's progress target and holds its cancellables.
 */
#define G_LOG_DOMAIN "km-player-view"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "km-app-util.h"
#include "km-file-chooser.h"
#include "km-player-view-private.h"

void _km_player_view_on_progress(KmSession *session, const KmProgress *progress, gpointer data)
{
	km_transfer_row_update(KM_TRANSFER_ROW(data), progress);
}

KmViewJob *_km_view_job_new(KmPlayerView *self, KmTransferRow *row)
{
	KmViewJob *job = g_new(KmViewJob, 1);

	job->self = g_object_ref(self);
	job->row = g_object_ref(row);
	return job;
}

void _km_view_job_free(KmViewJob *job)
{
	g_object_unref(job->self);
	g_object_unref(job->row);
	g_free(job);
}

void _km_player_view_toast_error(KmPlayerView *self, const GError *error)
{
	if (error && !km_error_is_cancelled(error) && !self->closing)
		km_widget_toast(GTK_WIDGET(self), error->message);
}

static void toast_report_error(KmPlayerView *self, KmReport *report, const GError *error)
{
	if (!error && report)
		error = report->error;
	if (!error || km_error_is_cancelled(error))
		return;
	if (g_error_matches(error, KM_SESSION_ERROR, KM_SESSION_ERROR_FULL))
		km_widget_toast(GTK_WIDGET(self), _("The player is full: the rest was not copied"));
	else
		km_widget_toast(GTK_WIDGET(self), error->message);
}

static void on_files_added(GObject *source, GAsyncResult *result, gpointer data)
{
	KmViewJob *job = data;
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) report = km_session_add_files_finish(KM_SESSION(source), result,
								  &error);

	km_transfer_row_finish(job->row, report, error);
	if (!job->self->closing)
		toast_report_error(job->self, report, error);
	_km_view_job_free(job);
}

void km_player_view_add_files(KmPlayerView *self, GFile *const *files, guint n_files)
{
	g_autofree char *title = NULL;
	KmTransferRow *row;
	KmAddFlags flags = KM_ADD_FLAGS_NONE;

	g_return_if_fail(KM_IS_PLAYER_VIEW(self));
	if (n_files == 0 || self->closing)
		return;
	if (g_settings_get_boolean(self->settings, "copy-duplicates"))
		flags |= KM_ADD_COPY_DUPLICATES;
	title = g_strdup_printf(g_dngettext(GETTEXT_PACKAGE, "Copying %u item to the player",
					    "Copying %u items to the player", n_files), n_files);
	row = km_transfer_row_new(title, files, n_files);
	km_transfer_row_set_fills_player(row, TRUE);
	km_transfer_row_set_finished_title(row, _("Files for the player"));
	km_transfer_panel_add(self->transfers, row);
	km_session_add_files_async(self->session, files, n_files,
				   km_transfer_row_get_item_cancellables(row), flags,
				   _km_player_view_on_progress, g_object_ref(row), g_object_unref,
				   km_transfer_row_get_cancellable(row), on_files_added,
				   _km_view_job_new(self, row));
}

gboolean km_file_is_playlist(GFile *file)
{
	g_autofree char *name = g_file_get_basename(file);
	const char *dot = name ? strrchr(name, '.') : NULL;

	return dot && (g_ascii_strcasecmp(dot, ".m3u") == 0 || g_ascii_strcasecmp(dot, ".m3u8") == 0 ||
		       g_ascii_strcasecmp(dot, ".xspf") == 0);
}

void km_player_view_import_playlist(KmPlayerView *self, GFile *list)
{
	g_autofree char *name = NULL, *title = NULL;
	KmTransferRow *row;
	KmAddFlags flags = KM_ADD_FLAGS_NONE;

	g_return_if_fail(KM_IS_PLAYER_VIEW(self) && G_IS_FILE(list));
	if (self->closing)
		return;
	if (g_settings_get_boolean(self->settings, "copy-duplicates"))
		flags |= KM_ADD_COPY_DUPLICATES;
	name = g_file_get_basename(list);
	title = g_strdup_printf(_("Importing the playlist “%s”"), name);
	row = km_transfer_row_new(title, NULL, 0);
	km_transfer_row_set_fills_player(row, TRUE);
	km_transfer_row_set_finished_title(row, _("Playlist for the player"));
	km_transfer_panel_add(self->transfers, row);
	km_session_import_playlist_async(self->session, list, flags, _km_player_view_on_progress,
					 g_object_ref(row), g_object_unref,
					 km_transfer_row_get_cancellable(row), on_files_added,
					 _km_view_job_new(self, row));
}

static void on_list_chosen(GObject *owner, GPtrArray *files)
{
	km_player_view_import_playlist(KM_PLAYER_VIEW(owner), files->pdata[0]);
}

static void import_playlist_action(GtkWidget *widget, const char *name, GVariant *param)
{
	km_choose_files(widget, _("Import a Playlist"), _("_Import"), FALSE, FALSE,
			on_list_chosen);
}

static void on_exported(GObject *source, GAsyncResult *result, gpointer data)
{
	KmViewJob *job = data;
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) report = km_session_export_finish(KM_SESSION(source), result, &error);

	km_transfer_row_finish(job->row, report, error);
	if (!job->self->closing)
		toast_report_error(job->self, report, error);
	_km_view_job_free(job);
}

/* A transfer row for an export into folder (named name), running under title. */
static KmTransferRow *add_export_row(KmPlayerView *self, const char *name, const char *title,
				     GPtrArray *tracks)
{
	g_autofree char *finished = g_strdup_printf(_("Export to %s"), name);
	KmTransferRow *row = km_transfer_row_new(title, NULL, 0);

	km_transfer_row_set_finished_title(row, finished);
	if (tracks)
		km_transfer_row_set_track_names(row, tracks);
	km_transfer_panel_add(self->transfers, row);
	return row;
}

void km_player_view_export_selected(KmPlayerView *self, GFile *folder)
{
	g_autoptr(GPtrArray) tracks = NULL;
	g_autoptr(GArray) fids = NULL;
	g_autofree char *template = NULL, *title = NULL, *name = NULL;
	KmTransferRow *row;

	g_return_if_fail(KM_IS_PLAYER_VIEW(self) && G_IS_FILE(folder));
	tracks = km_library_view_get_selected_tracks(self->library_view);
	if (tracks->len == 0 || self->closing)
		return;
	fids = km_fid_list_new_for_tracks(tracks);
	template = g_settings_get_string(self->settings, "export-template");
	name = g_file_get_parse_name(folder);
	title = g_strdup_printf(g_dngettext(GETTEXT_PACKAGE, "Exporting %u track to %s",
					    "Exporting %u tracks to %s", tracks->len),
				tracks->len, name);
	row = add_export_row(self, name, title, tracks);
	km_session_export_async(self->session, (guint32 *)(void *)fids->data, fids->len, folder,
				template, _km_player_view_on_progress, g_object_ref(row), g_object_unref,
				km_transfer_row_get_cancellable(row), on_exported,
				_km_view_job_new(self, row));
}

void km_player_view_export_playlist(KmPlayerView *self, GFile *folder)
{
	KmPlaylistItem *playlist;
	g_autofree char *template = NULL, *title = NULL, *name = NULL;
	KmTransferRow *row;

	g_return_if_fail(KM_IS_PLAYER_VIEW(self) && G_IS_FILE(folder));
	playlist = km_playlist_sidebar_get_selected(self->sidebar);
	if (!playlist || self->closing)
		return;
	template = g_settings_get_string(self->settings, "export-template");
	name = g_file_get_parse_name(folder);
	title = g_strdup_printf(_("Exporting playlist “%s” to %s"),
				km_playlist_item_get_name(playlist), name);
	row = add_export_row(self, name, title, NULL);
	km_session_export_playlist_async(self->session, km_playlist_item_get_fid(playlist), folder,
					 template, _km_player_view_on_progress, g_object_ref(row),
					 g_object_unref, km_transfer_row_get_cancellable(row),
					 on_exported, _km_view_job_new(self, row));
}

static void on_files_chosen(GObject *owner, GPtrArray *files)
{
	km_player_view_add_files(KM_PLAYER_VIEW(owner), (GFile *const *)files->pdata, files->len);
}

static void on_folder_chosen(GObject *owner, GPtrArray *files)
{
	km_player_view_export_selected(KM_PLAYER_VIEW(owner), files->pdata[0]);
}

static void add_files_action(GtkWidget *widget, const char *name, GVariant *param)
{
	gboolean folder = g_str_equal(name, "player.add-folder");

	km_choose_files(widget, folder ? _("Add a Folder to the Player") :
			_("Add Files to the Player"), _("_Add"), folder, TRUE, on_files_chosen);
}

static void export_action(GtkWidget *widget, const char *name, GVariant *param)
{
	km_choose_files(widget, _("Export to Folder"), _("_Export"), TRUE, FALSE,
			on_folder_chosen);
}

static void on_playlist_folder_chosen(GObject *owner, GPtrArray *files)
{
	km_player_view_export_playlist(KM_PLAYER_VIEW(owner), files->pdata[0]);
}

static void export_playlist_action(GtkWidget *widget, const char *name, GVariant *param)
{
	if (km_playlist_sidebar_get_selected(KM_PLAYER_VIEW(widget)->sidebar))
		km_choose_files(widget, _("Export Playlist to Folder"), _("_Export"), TRUE, FALSE,
				on_playlist_folder_chosen);
}

static void search_action(GtkWidget *widget, const char *name, GVariant *param)
{
	km_library_view_start_search(KM_PLAYER_VIEW(widget)->library_view);
}

static void on_closed(GObject *source, GAsyncResult *result, gpointer data)
{
	g_autoptr(KmPlayerView) self = data;
	g_autoptr(GError) error = NULL;

	if (km_session_close_finish(KM_SESSION(source), result, &error)) {
		_km_player_view_close(self, NULL);
		return;
	}
	km_widget_toast(GTK_WIDGET(self), error->message);
	self->closing = FALSE;
	_km_player_view_update_actions(self);
}

void km_player_view_eject(KmPlayerView *self)
{
	g_return_if_fail(KM_IS_PLAYER_VIEW(self));
	if (self->closing)
		return;
	km_transfer_panel_cancel_all(self->transfers);
	/* a deletion the toast could still undo is done before */
	_km_player_view_commit_delete(self);
	/* no new jobs from now on; the close runs after the cancelled ones */
	self->closing = TRUE;
	_km_player_view_update_actions(self);
	km_session_close_async(self->session, NULL, on_closed, g_object_ref(self));
}

static void on_eject_response(KmQuestionDialog *dialog, const char *response, gpointer data)
{
	if (g_str_equal(response, "eject"))
		km_player_view_eject(KM_PLAYER_VIEW(data));
}

/* The transfers ended while the question was up: nothing is left to stop, the eject goes on. */
static void eject_when_done(KmTransferPanel *transfers, KmQuestionDialog *dialog)
{
	if (km_transfer_panel_is_busy(transfers))
		return;
	g_signal_handlers_disconnect_by_data(transfers, dialog);
	km_question_answer(dialog, "eject");
}

static void eject_action(GtkWidget *widget, const char *name, GVariant *param)
{
	KmPlayerView *self = KM_PLAYER_VIEW(widget);
	KmQuestionDialog *dialog;
	const KmQuestion question = {
		.heading = _("Files Are Being Copied"),
		.body = _("Ejecting now stops the transfers: the files copied so far stay on the "
			  "player, the file being copied is removed, the rest are not copied."),
		.cancel_id = "keep", .cancel_label = _("_Keep Copying"),
		.act_id = "eject", .act_label = _("_Stop and Eject"),
		.appearance = ADW_RESPONSE_DESTRUCTIVE,
	};

	if (self->closing)
		return;
	if (!km_player_view_is_busy(self)) {
		km_player_view_eject(self);
		return;
	}
	dialog = km_question_new(&question, G_CALLBACK(on_eject_response), self);
	g_signal_connect_object(self->transfers, "changed", G_CALLBACK(eject_when_done), dialog, 0);
	km_dialog_present(GTK_WIDGET(dialog), widget);
}

void _km_player_view_update_actions(KmPlayerView *self)
{
	gboolean selected = km_library_view_has_selection(self->library_view);
	GtkWidget *w = GTK_WIDGET(self);
	gboolean open = !self->closing;

	gtk_widget_action_set_enabled(w, "player.add-files", open);
	gtk_widget_action_set_enabled(w, "player.add-folder", open);
	gtk_widget_action_set_enabled(w, "player.export", open && selected);
	gtk_widget_action_set_enabled(w, "player.delete", open && selected);
	gtk_widget_action_set_enabled(w, "player.add-to-playlist", open && selected);
	gtk_widget_action_set_enabled(w, "player.eject", open);
	_km_player_view_update_backup_actions(self);
	_km_player_view_update_check_action(self);
}

/* The keys of the view's actions (GtkShortcut), made once with the class. */
static GListStore *view_shortcuts;

void _km_player_view_add_shortcut(guint key, GdkModifierType mods, const char *action)
{
	if (!view_shortcuts)
		view_shortcuts = g_list_store_new(GTK_TYPE_SHORTCUT);
	g_list_store_append(view_shortcuts,
			    gtk_shortcut_new(gtk_keyval_trigger_new(key, mods),
					     gtk_named_action_new(action)));
}

void _km_player_view_install_actions(GtkWidgetClass *widget_class, const KmViewAction *actions,
				     gsize n_actions)
{
	for (gsize i = 0; i < n_actions; i++) {
		gtk_widget_class_install_action(widget_class, actions[i].name, NULL,
						actions[i].activate);
		_km_player_view_add_shortcut(actions[i].key, actions[i].mods, actions[i].name);
	}
}

/*
 * Class bindings work only while the focus is inside the view: after a
 * focused button goes (a dismissed transfer, a closed toast) the keys went
 * to the window alone. Managed by the window, they work wherever its focus
 * is; a focused entry still gets its own keys (Ctrl+A, Delete) first.
 */
void _km_player_view_init_shortcuts(KmPlayerView *self)
{
	GtkEventController *controller =
		gtk_shortcut_controller_new_for_model(G_LIST_MODEL(view_shortcuts));

	gtk_shortcut_controller_set_scope(GTK_SHORTCUT_CONTROLLER(controller),
					  GTK_SHORTCUT_SCOPE_MANAGED);
	gtk_widget_add_controller(GTK_WIDGET(self), controller);
}

static void select_all_action(GtkWidget *widget, const char *name, GVariant *param)
{
	gtk_selection_model_select_all(
		km_library_view_get_model(KM_PLAYER_VIEW(widget)->library_view));
}

void _km_player_view_class_init_actions(GtkWidgetClass *widget_class)
{
	static const KmViewAction actions[] = {
		{ "player.add-files", add_files_action, GDK_KEY_i, GDK_CONTROL_MASK },
		{ "player.add-folder", add_files_action, GDK_KEY_i,
		  GDK_CONTROL_MASK | GDK_SHIFT_MASK },
		{ "player.export", export_action, GDK_KEY_e, GDK_CONTROL_MASK },
		{ "player.export-playlist", export_playlist_action, GDK_KEY_e,
		  GDK_CONTROL_MASK | GDK_SHIFT_MASK },
		{ "player.import-playlist", import_playlist_action, GDK_KEY_o,
		  GDK_CONTROL_MASK | GDK_SHIFT_MASK },
		{ "player.search", search_action, GDK_KEY_f, GDK_CONTROL_MASK },
		{ "player.eject", eject_action, GDK_KEY_j, GDK_CONTROL_MASK },
		{ "player.select-all", select_all_action, GDK_KEY_a, GDK_CONTROL_MASK },
	};

	_km_player_view_install_actions(widget_class, actions, G_N_ELEMENTS(actions));
	gtk_widget_class_install_property_action(widget_class, "player.details",
						 "details-visible");
	_km_player_view_add_shortcut(GDK_KEY_F9, 0, "player.details");
}
