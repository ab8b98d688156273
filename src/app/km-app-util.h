/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-app-util.h - small helpers the app's widgets share.
 */
#pragma once

#include <adwaita.h>

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
/* A question with two answers (km_question_new()). */
typedef struct {
	const char *heading;
	const char *body;	/* may be NULL */
	const char *cancel_id;	/* also what Escape and closing answer */
	const char *cancel_label;
	const char *act_id;
	const char *act_label;
	AdwResponseAppearance appearance;	/* of act */
} KmQuestion;
/*
 * The question as a dialog on widget's window, not yet presented (the
 * caller may add to it). The default answer is act, unless it is
 * destructive (GNOME's HIG); response goes to on_response for owner's
 * lifetime.
 */
AdwMessageDialog *km_question_new(GtkWidget *widget, const KmQuestion *question,
				  GCallback on_response, gpointer owner);
/*
 * A problem told in plain words (heading, body) on widget's window, with
 * the technical details (the error's own message) in a closed expander
 * below; one answer, Close. Presented.
 */
AdwMessageDialog *km_problem_dialog_present(GtkWidget *widget, const char *heading,
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

G_END_DECLS
