/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-app-util.h - small helpers the app's widgets share.
 */
#pragma once

#include <adwaita.h>

#include "km-convert.h"
#include "km-track.h"

G_BEGIN_DECLS

/* Tracks dragged inside the app: a GArray of guint32 fids, boxed. */
typedef GArray KmFidList;
#define KM_TYPE_FID_LIST (km_fid_list_get_type())
GType km_fid_list_get_type(void);
/* The fids of tracks (KmTrack), as a KmFidList. */
KmFidList *km_fid_list_new_for_tracks(GPtrArray *tracks);

/*
 * For a widget's dispose, after gtk_widget_dispose_template(): unparents the
 * children left (4.8 unparents only the bound template children).
 */
void km_widget_unparent_children(GtkWidget *widget);
/*
 * The app's questions are AdwAlertDialogs where libadwaita has them (1.5),
 * AdwMessageDialogs (1.2, deprecated in 1.6) before: the two have the same
 * API under different names, so the widgets and tests use these names.
 */
#if ADW_CHECK_VERSION(1, 5, 0)
typedef AdwAlertDialog KmQuestionDialog;
#define KM_TYPE_QUESTION_DIALOG ADW_TYPE_ALERT_DIALOG
#define KM_QUESTION_DIALOG(obj) ADW_ALERT_DIALOG(obj)
#define km_question_dialog_get_heading adw_alert_dialog_get_heading
#define km_question_dialog_get_response_label adw_alert_dialog_get_response_label
#define km_question_dialog_get_response_appearance adw_alert_dialog_get_response_appearance
#define km_question_dialog_get_default_response adw_alert_dialog_get_default_response
#define km_question_dialog_get_response_enabled adw_alert_dialog_get_response_enabled
#define km_question_dialog_set_response_enabled adw_alert_dialog_set_response_enabled
#define km_question_dialog_get_extra_child adw_alert_dialog_get_extra_child
#define km_question_dialog_set_extra_child adw_alert_dialog_set_extra_child
#define km_question_dialog_add_responses adw_alert_dialog_add_responses
#define km_question_dialog_set_response_appearance adw_alert_dialog_set_response_appearance
#define km_question_dialog_set_default_response adw_alert_dialog_set_default_response
#define km_question_dialog_set_close_response adw_alert_dialog_set_close_response
#define km_question_dialog_set_response_label adw_alert_dialog_set_response_label
#define km_question_dialog_set_heading adw_alert_dialog_set_heading
#define km_question_dialog_set_body adw_alert_dialog_set_body
#else
typedef AdwMessageDialog KmQuestionDialog;
#define KM_TYPE_QUESTION_DIALOG ADW_TYPE_MESSAGE_DIALOG
#define KM_QUESTION_DIALOG(obj) ADW_MESSAGE_DIALOG(obj)
#define km_question_dialog_get_heading adw_message_dialog_get_heading
#define km_question_dialog_get_response_label adw_message_dialog_get_response_label
#define km_question_dialog_get_response_appearance adw_message_dialog_get_response_appearance
#define km_question_dialog_get_default_response adw_message_dialog_get_default_response
#define km_question_dialog_get_response_enabled adw_message_dialog_get_response_enabled
#define km_question_dialog_set_response_enabled adw_message_dialog_set_response_enabled
#define km_question_dialog_get_extra_child adw_message_dialog_get_extra_child
#define km_question_dialog_set_extra_child adw_message_dialog_set_extra_child
#define km_question_dialog_add_responses adw_message_dialog_add_responses
#define km_question_dialog_set_response_appearance adw_message_dialog_set_response_appearance
#define km_question_dialog_set_default_response adw_message_dialog_set_default_response
#define km_question_dialog_set_close_response adw_message_dialog_set_close_response
#define km_question_dialog_set_response_label adw_message_dialog_set_response_label
#define km_question_dialog_set_heading adw_message_dialog_set_heading
#define km_question_dialog_set_body adw_message_dialog_set_body
#endif
/* A question with two answers (km_question_new()). */
typedef struct {
	const char *heading;
	const char *body;	/* may be NULL */
	const char *cancel_id;	/* also what Escape and closing answer */
	const char *cancel_label;
	const char *act_id;	/* NULL: the one answer is cancel */
	const char *act_label;
	AdwResponseAppearance appearance;	/* of act */
} KmQuestion;
/*
 * A dialog (AdwDialog from libadwaita 1.5, a GtkWindow before) shown modal
 * over parent's window (a standalone window when parent is NULL).
 */
void km_dialog_present(GtkWidget *dialog, GtkWidget *parent);
/* Closes dialog (from km_dialog_present()) at once. */
void km_dialog_close(GtkWidget *dialog);
/*
 * The question as a dialog, not yet presented (the caller may add to it;
 * then km_dialog_present()). The default answer is act, unless it is
 * destructive (GNOME's HIG); response goes to on_response (if not NULL)
 * for owner's lifetime.
 */
KmQuestionDialog *km_question_new(const KmQuestion *question, GCallback on_response,
				  gpointer owner);
/* Answers dialog as a click on the button of response does: it closes. */
void km_question_answer(KmQuestionDialog *dialog, const char *response);
#if ADW_CHECK_VERSION(1, 4, 0)
/*
 * A new AdwToolbarView holding box's children: those before content (a
 * child of box) as top bars, content, those after as bottom bars. The .ui
 * files keep the libadwaita 1.2 layout, a vertical GtkBox; from 1.4 the
 * widgets move into this.
 */
GtkWidget *km_toolbar_view_new_from_box(GtkBox *box, GtkWidget *content);
#endif
/*
 * A closed expander over text that may be long (details, a list of tracks):
 * selectable small print, which scrolls beyond about 14 lines.
 */
GtkWidget *km_details_expander_new(const char *mnemonic_label, const char *text);
/*
 * A problem told in plain words (heading, body) on widget's window, with
 * the technical details (the error's own message) in a closed expander
 * below; one answer, Close. Presented.
 */
KmQuestionDialog *km_problem_dialog_present(GtkWidget *widget, const char *heading,
					     const char *body, const char *details);
/* Shows message in the toast overlay around widget (if any). */
void km_widget_toast(GtkWidget *widget, const char *message);
/* Whether error is a cancellation (the user's own: no message). */
gboolean km_error_is_cancelled(const GError *error);
/*
 * The folder for backups of the whole player: the backup-folder setting, or
 * until one is chosen, "Karma Backups" in the Music (else Documents, else
 * home) folder.
 */
char *km_backup_folder(GSettings *settings);
/*
 * Whether the settings (convert, convert-format, convert-quality) say to
 * convert files the player cannot play; if so, convert gets how.
 */
gboolean km_conversion_from_settings(GSettings *settings, KmConvertSettings *convert);

G_END_DECLS
