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

void km_dialog_present(GtkWidget *dialog, GtkWidget *parent)
{
#if ADW_CHECK_VERSION(1, 5, 0)
	adw_dialog_present(ADW_DIALOG(dialog), parent);
#else
	GtkRoot *root = parent ? gtk_widget_get_root(parent) : NULL;

	if (GTK_IS_WINDOW(root))
		gtk_window_set_transient_for(GTK_WINDOW(dialog), GTK_WINDOW(root));
	gtk_window_set_modal(GTK_WINDOW(dialog), TRUE);
	gtk_window_present(GTK_WINDOW(dialog));
#endif
}

void km_dialog_close(GtkWidget *dialog)
{
#if ADW_CHECK_VERSION(1, 5, 0)
	adw_dialog_force_close(ADW_DIALOG(dialog));
#else
	gtk_window_destroy(GTK_WINDOW(dialog));
#endif
}

KmQuestionDialog *km_question_new(const KmQuestion *question, GCallback on_response,
				  gpointer owner)
{
#if ADW_CHECK_VERSION(1, 5, 0)
	KmQuestionDialog *dialog = ADW_ALERT_DIALOG(adw_alert_dialog_new(question->heading,
									 question->body));
#else
	KmQuestionDialog *dialog = ADW_MESSAGE_DIALOG(adw_message_dialog_new(NULL,
									     question->heading,
									     question->body));
#endif

	/* without act, the list of responses ends after cancel */
	km_question_dialog_add_responses(dialog, question->cancel_id, question->cancel_label,
					 question->act_id, question->act_label, NULL);
	if (question->act_id)
		km_question_dialog_set_response_appearance(dialog, question->act_id,
							   question->appearance);
	km_question_dialog_set_default_response(dialog,
						question->appearance == ADW_RESPONSE_DESTRUCTIVE ||
						!question->act_id ?
						question->cancel_id : question->act_id);
	km_question_dialog_set_close_response(dialog, question->cancel_id);
	if (on_response)
		g_signal_connect_object(dialog, "response", on_response, owner, 0);
	return dialog;
}

void km_question_answer(KmQuestionDialog *dialog, const char *response)
{
	/* what a click on the button does: the response, then the dialog closes */
	g_signal_emit_by_name(dialog, "response", response);
	km_dialog_close(GTK_WIDGET(dialog));
}

#if ADW_CHECK_VERSION(1, 4, 0)
GtkWidget *km_toolbar_view_new_from_box(GtkBox *box, GtkWidget *content)
{
	AdwToolbarView *view = ADW_TOOLBAR_VIEW(adw_toolbar_view_new());
	gboolean before_content = TRUE;
	GtkWidget *child;

	while ((child = gtk_widget_get_first_child(GTK_WIDGET(box)))) {
		g_object_ref(child);
		gtk_box_remove(box, child);
		if (child == content) {
			adw_toolbar_view_set_content(view, child);
			before_content = FALSE;
		} else if (before_content) {
			adw_toolbar_view_add_top_bar(view, child);
		} else {
			adw_toolbar_view_add_bottom_bar(view, child);
		}
		g_object_unref(child);
	}
	return GTK_WIDGET(view);
}
#endif

/* Beyond this, the text of a details expander scrolls (about 14 lines of small print). */
#define DETAILS_MAX_HEIGHT 240

GtkWidget *km_details_expander_new(const char *mnemonic_label, const char *text)
{
	GtkWidget *expander = gtk_expander_new_with_mnemonic(mnemonic_label);
	GtkWidget *scroller = gtk_scrolled_window_new();
	GtkWidget *label = gtk_label_new(text);

	gtk_label_set_wrap(GTK_LABEL(label), TRUE);
	gtk_label_set_wrap_mode(GTK_LABEL(label), PANGO_WRAP_WORD_CHAR);
	gtk_label_set_selectable(GTK_LABEL(label), TRUE);
	gtk_label_set_xalign(GTK_LABEL(label), 0);
	gtk_label_set_yalign(GTK_LABEL(label), 0);
	gtk_widget_add_css_class(label, "caption");
	gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroller), GTK_POLICY_NEVER,
				       GTK_POLICY_AUTOMATIC);
	gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(scroller), TRUE);
	gtk_scrolled_window_set_max_content_height(GTK_SCROLLED_WINDOW(scroller),
						   DETAILS_MAX_HEIGHT);
	gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroller), label);
	gtk_widget_set_margin_top(scroller, 6);
	gtk_expander_set_child(GTK_EXPANDER(expander), scroller);
	return expander;
}

KmQuestionDialog *km_problem_dialog_present(GtkWidget *widget, const char *heading,
					     const char *body, const char *details)
{
#if ADW_CHECK_VERSION(1, 5, 0)
	KmQuestionDialog *dialog = ADW_ALERT_DIALOG(adw_alert_dialog_new(heading, body));
#else
	KmQuestionDialog *dialog = ADW_MESSAGE_DIALOG(adw_message_dialog_new(NULL, heading, body));
#endif

	km_question_dialog_set_extra_child(dialog, km_details_expander_new(_("_Details"), details));
	km_question_dialog_add_responses(dialog, "close", _("_Close"), NULL);
	km_dialog_present(GTK_WIDGET(dialog), widget);
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

gboolean km_conversion_from_settings(GSettings *settings, KmConvertSettings *convert)
{
	if (!g_settings_get_boolean(settings, "convert"))
		return FALSE;
	/* the schema's enum has KmConvertFormat's values and names, its range the library's */
	convert->lossy_to = (KmConvertFormat)g_settings_get_enum(settings, "convert-format");
	convert->quality = (guint)g_settings_get_int(settings, "convert-quality");
	return TRUE;
}
