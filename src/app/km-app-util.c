/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-app-util.c - small helpers the app's widgets share.
 */
#define G_LOG_DOMAIN "km-app-util"

#include "config.h"

#include <glib/gi18n.h>

#include "km-app-util.h"

G_DEFINE_BOXED_TYPE(KmFidList, km_fid_list, g_array_ref, g_array_unref)

KmFidList *km_fid_list_new_for_tracks(GPtrArray *tracks)
{
	GArray *fids = g_array_sized_new(FALSE, FALSE, sizeof(guint32), tracks->len);

	for (guint i = 0; i < tracks->len; i++) {
		guint32 fid = km_track_get_fid(tracks->pdata[i]);

		g_array_append_val(fids, fid);
	}
	return fids;
}

void km_widget_unparent_children(GtkWidget *widget)
{
	GtkWidget *child;

	while ((child = gtk_widget_get_first_child(widget)))
		gtk_widget_unparent(child);
}

AdwMessageDialog *km_question_new(GtkWidget *widget, const KmQuestion *question,
				  GCallback on_response, gpointer owner)
{
	GtkRoot *root = gtk_widget_get_root(widget);
	AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG(adw_message_dialog_new(
		GTK_IS_WINDOW(root) ? GTK_WINDOW(root) : NULL, question->heading, question->body));

	adw_message_dialog_add_responses(dialog, question->cancel_id, question->cancel_label,
					 question->act_id, question->act_label, NULL);
	adw_message_dialog_set_response_appearance(dialog, question->act_id,
						   question->appearance);
	adw_message_dialog_set_default_response(dialog,
						question->appearance == ADW_RESPONSE_DESTRUCTIVE ?
						question->cancel_id : question->act_id);
	adw_message_dialog_set_close_response(dialog, question->cancel_id);
	g_signal_connect_object(dialog, "response", on_response, owner, 0);
	return dialog;
}

AdwMessageDialog *km_problem_dialog_present(GtkWidget *widget, const char *heading,
					    const char *body, const char *details)
{
	GtkRoot *root = gtk_widget_get_root(widget);
	AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG(adw_message_dialog_new(
		GTK_IS_WINDOW(root) ? GTK_WINDOW(root) : NULL, heading, body));
	GtkWidget *expander = gtk_expander_new_with_mnemonic(_("_Details"));
	GtkWidget *label = gtk_label_new(details);

	gtk_label_set_wrap(GTK_LABEL(label), TRUE);
	gtk_label_set_wrap_mode(GTK_LABEL(label), PANGO_WRAP_WORD_CHAR);
	gtk_label_set_selectable(GTK_LABEL(label), TRUE);
	gtk_label_set_xalign(GTK_LABEL(label), 0);
	gtk_widget_add_css_class(label, "caption");
	gtk_widget_set_margin_top(label, 6);
	gtk_expander_set_child(GTK_EXPANDER(expander), label);
	adw_message_dialog_set_extra_child(dialog, expander);
	adw_message_dialog_add_response(dialog, "close", _("_Close"));
	gtk_window_present(GTK_WINDOW(dialog));
	return dialog;
}

void km_widget_toast(GtkWidget *widget, const char *message)
{
	GtkWidget *overlay = gtk_widget_get_ancestor(widget, ADW_TYPE_TOAST_OVERLAY);

	if (overlay)
		adw_toast_overlay_add_toast(ADW_TOAST_OVERLAY(overlay), adw_toast_new(message));
	else
		g_message("%s", message);
}

gboolean km_error_is_cancelled(const GError *error)
{
	return g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

char *km_backup_folder(GSettings *settings)
{
	g_autofree char *folder = g_settings_get_string(settings, "backup-folder");
	const char *parent = g_get_user_special_dir(G_USER_DIRECTORY_MUSIC);

	if (folder[0])
		return g_steal_pointer(&folder);
	if (!parent)
		parent = g_get_user_special_dir(G_USER_DIRECTORY_DOCUMENTS);
	if (!parent)
		parent = g_get_home_dir();
	/* Translators: the folder made for backups of the player */
	return g_build_filename(parent, _("Karma Backups"), NULL);
}
