/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-player-view-sync.c - player.sync-folder: a folder chosen (where the
 * player was last synced from), compared with the player on the worker
 * (km_session_plan_sync_async()), then a question that shows what would be
 * added, what the folder lacks (deleted only when the box is ticked, off by
 * default), each track in an expander, and the space after; Sync queues
 * the removal and the add, the jobs Delete and Add Files run.
 */
#define G_LOG_DOMAIN "km-player-view"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "km-app-util.h"
#include "km-file-chooser.h"
#include "km-player-view-private.h"

/* The preview lists this many tracks to add, and as many to delete, at most. */
#define MAX_PREVIEW_LINES 500

typedef struct {
	KmPlayerView *self;	/* a reference */
	GFile *folder;
	KmSyncPlan *plan;
	GtkCheckButton *delete_box;	/* NULL when the folder lacks nothing */
	GtkLabel *space;
} SyncQuestion;

static void sync_question_free(SyncQuestion *q)
{
	g_object_unref(q->self);
	g_object_unref(q->folder);
	km_sync_plan_free(q->plan);
	g_free(q);
}

/* The synced-folders entry of this player: "ID\tURI". */
static char *folder_entry_prefix(KmPlayerView *self)
{
	return g_strconcat(km_session_get_player_id(self->session), "\t", NULL);
}

static GFile *last_synced_folder(KmPlayerView *self)
{
	g_auto(GStrv) entries = g_settings_get_strv(self->settings, "synced-folders");
	g_autofree char *prefix = folder_entry_prefix(self);

	for (guint i = 0; entries[i]; i++)
		if (g_str_has_prefix(entries[i], prefix))
			return g_file_new_for_uri(entries[i] + strlen(prefix));
	return NULL;
}

static void remember_folder(KmPlayerView *self, GFile *folder)
{
	g_auto(GStrv) entries = g_settings_get_strv(self->settings, "synced-folders");
	g_autofree char *prefix = folder_entry_prefix(self);
	g_autofree char *uri = g_file_get_uri(folder);
	g_autofree char *entry = g_strconcat(prefix, uri, NULL);
	g_autoptr(GStrvBuilder) builder = g_strv_builder_new();
	g_auto(GStrv) updated = NULL;

	g_strv_builder_add(builder, entry);
	for (guint i = 0; entries[i]; i++)
		if (!g_str_has_prefix(entries[i], prefix))
			g_strv_builder_add(builder, entries[i]);
	updated = g_strv_builder_end(builder);
	g_settings_set_strv(self->settings, "synced-folders", (const char *const *)updated);
}

static gboolean deleting(SyncQuestion *q)
{
	return q->delete_box && gtk_check_button_get_active(q->delete_box);
}

static void update_space(SyncQuestion *q)
{
	gint64 after = (gint64)km_session_get_free_bytes(q->self->session) -
		       (gint64)q->plan->add_bytes + (deleting(q) ? (gint64)q->plan->remove_bytes : 0);
	g_autofree char *size = g_format_size((guint64)ABS(after));
	g_autofree char *text = after < 0 ?
		g_strdup_printf(_("The player is %s too small for this."), size) :
		g_strdup_printf(_("About %s will be free afterwards."), size);

	gtk_label_set_text(q->space, text);
}

/* The plan's files as GFile (a new array). */
static GPtrArray *files_to_add(const KmSyncPlan *plan)
{
	GPtrArray *files = g_ptr_array_new_with_free_func(g_object_unref);

	for (guint i = 0; i < plan->add->len; i++)
		g_ptr_array_add(files,
				g_file_new_for_path(((KmSyncFile *)plan->add->pdata[i])->path));
	return files;
}

static void on_sync_response(KmQuestionDialog *dialog, const char *response, gpointer data)
{
	SyncQuestion *q = g_object_get_data(G_OBJECT(dialog), "km-sync");
	KmPlayerView *self = KM_PLAYER_VIEW(data);
	g_autoptr(GPtrArray) files = NULL;

	if (!g_str_equal(response, "sync") || self->closing)
		return;
	remember_folder(self, q->folder);
	/* removed first, in one job, so that the space is there for the adds queued after it */
	if (deleting(q))
		_km_player_view_remove_tracks(self, q->plan->remove);
	files = files_to_add(q->plan);
	if (files->len)
		km_player_view_add_files(self, (GFile *const *)files->pdata, files->len);
}

/* "Artist – Title", with the app's words for what the tags leave out. */
static void append_track_line(GString *text, const char *artist, const char *title,
			      const char *untitled)
{
	g_string_append_printf(text, "\n%s – %s", artist && *artist ? artist : _("Unknown Artist"),
			       title && *title ? title : untitled);
}

/* After the first MAX_PREVIEW_LINES of a list of n, how many more there are. */
static void append_more(GString *text, guint n)
{
	if (n <= MAX_PREVIEW_LINES)
		return;
	g_string_append_c(text, '\n');
	g_string_append_printf(text, g_dngettext(GETTEXT_PACKAGE, "… and %u more",
						 "… and %u more", n - MAX_PREVIEW_LINES),
			       n - MAX_PREVIEW_LINES);
}

static void append_files_to_add(GString *text, const KmSyncPlan *plan)
{
	g_string_append(text, _("To add:"));
	for (guint i = 0; i < plan->add->len && i < MAX_PREVIEW_LINES; i++) {
		const KmSyncFile *f = plan->add->pdata[i];
		g_autofree char *name = g_filename_display_basename(f->path);

		if (!f->conversion) {
			append_track_line(text, km_properties_get(f->props, "artist"),
					  km_properties_get(f->props, "title"), name);
			continue;
		}
		/* its tags are read once it is converted */
		g_string_append_c(text, '\n');
		g_string_append_printf(text, _("%s (converted to %s)"), name,
				       km_convert_format_title(f->conversion->format));
	}
	append_more(text, plan->add->len);
}

static void append_tracks_missing(GString *text, SyncQuestion *q)
{
	const GArray *fids = q->plan->remove;

	g_string_append(text, _("On the player, not in the folder:"));
	for (guint i = 0; i < fids->len && i < MAX_PREVIEW_LINES; i++) {
		guint32 fid = g_array_index(fids, guint32, i);
		KmTrack *track = km_session_lookup_track(q->self->session, fid);
		g_autofree char *untitled = g_strdup_printf(_("Track %u"), fid);

		append_track_line(text, track ? km_track_get_artist(track) : NULL,
				  track ? km_track_get_title(track) : NULL, untitled);
	}
	append_more(text, fids->len);
}

/* What the sync would add, and what the folder lacks, a track a line. */
static GtkWidget *preview_expander(SyncQuestion *q)
{
	GString *text = g_string_new(NULL);
	g_autofree char *all = NULL;

	if (q->plan->add->len)
		append_files_to_add(text, q->plan);
	if (q->plan->add->len && q->plan->remove->len)
		g_string_append(text, "\n\n");
	if (q->plan->remove->len)
		append_tracks_missing(text, q);
	all = g_string_free(g_steal_pointer(&text), FALSE);
	return km_details_expander_new(_("Show the _Tracks"), all);
}

static GtkWidget *question_extra(SyncQuestion *q)
{
	GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);
	guint n_missing = q->plan->remove->len;

	gtk_box_append(GTK_BOX(box), preview_expander(q));

	if (n_missing) {
		g_autofree char *label = g_strdup_printf(
			g_dngettext(GETTEXT_PACKAGE,
				    "Also _delete the %u track on the player that is not in the folder",
				    "Also _delete the %u tracks on the player that are not in the folder",
				    n_missing), n_missing);
		GtkWidget *check = gtk_check_button_new_with_mnemonic(label);

		q->delete_box = GTK_CHECK_BUTTON(check);
		g_signal_connect_swapped(check, "toggled", G_CALLBACK(update_space), q);
		gtk_box_append(GTK_BOX(box), check);
	}
	q->space = GTK_LABEL(gtk_label_new(NULL));
	gtk_label_set_wrap(q->space, TRUE);
	gtk_box_append(GTK_BOX(box), GTK_WIDGET(q->space));
	update_space(q);
	return box;
}

static void ask_sync(SyncQuestion *q)
{
	g_autofree char *name = g_file_get_basename(q->folder);
	g_autofree char *heading = g_strdup_printf(_("Sync with “%s”"), name);
	g_autofree char *size = g_format_size(q->plan->add_bytes);
	g_autofree char *body = g_strdup_printf(
		g_dngettext(GETTEXT_PACKAGE, "%u track (%s) is in the folder and not on the player.",
			    "%u tracks (%s) are in the folder and not on the player.",
			    q->plan->add->len), q->plan->add->len, size);
	const KmQuestion question = {
		.heading = heading, .body = body,
		.cancel_id = "cancel", .cancel_label = _("_Cancel"),
		.act_id = "sync", .act_label = _("_Sync"),
		.appearance = ADW_RESPONSE_SUGGESTED,
	};
	KmQuestionDialog *dialog = km_question_new(&question, G_CALLBACK(on_sync_response),
						   q->self);

	km_question_dialog_set_extra_child(dialog, question_extra(q));
	g_object_set_data_full(G_OBJECT(dialog), "km-sync", q, (GDestroyNotify)sync_question_free);
	km_dialog_present(GTK_WIDGET(dialog), GTK_WIDGET(q->self));
}

static void on_planned(GObject *source, GAsyncResult *result, gpointer data)
{
	SyncQuestion *q = data;
	g_autoptr(GError) error = NULL;
	g_autofree char *name = g_file_get_basename(q->folder);
	g_autofree char *text = NULL;

	q->plan = km_session_plan_sync_finish(KM_SESSION(source), result, &error);
	if (!q->plan || q->self->closing) {
		_km_player_view_toast_error(q->self, error);
		sync_question_free(q);
		return;
	}
	if (q->plan->add->len || q->plan->remove->len) {
		ask_sync(q);
		return;
	}
	remember_folder(q->self, q->folder);
	text = g_strdup_printf(_("The player has every track in “%s” already"), name);
	km_widget_toast(GTK_WIDGET(q->self), text);
	sync_question_free(q);
}

void km_player_view_sync_folder(KmPlayerView *self, GFile *folder)
{
	SyncQuestion *q;

	g_return_if_fail(KM_IS_PLAYER_VIEW(self) && G_IS_FILE(folder));
	if (self->closing)
		return;
	q = g_new0(SyncQuestion, 1);
	q->self = g_object_ref(self);
	q->folder = g_object_ref(folder);
	km_session_plan_sync_async(self->session, folder, self->cancellable, on_planned, q);
}

static void on_folder_chosen(GObject *owner, GPtrArray *files)
{
	km_player_view_sync_folder(KM_PLAYER_VIEW(owner), files->pdata[0]);
}

static void sync_folder_action(GtkWidget *widget, const char *name, GVariant *param)
{
	g_autoptr(GFile) last = last_synced_folder(KM_PLAYER_VIEW(widget));

	km_choose_folder_from(widget, _("Sync a Folder to the Player"), _("_Compare"), last,
			      on_folder_chosen);
}

void _km_player_view_class_init_sync(GtkWidgetClass *widget_class)
{
	gtk_widget_class_install_action(widget_class, "player.sync-folder", NULL,
					sync_folder_action);
}
