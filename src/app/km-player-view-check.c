/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-player-view-check.c - Check & Repair: a banner at the top of the view
 * when opening found the player damaged ("This player has problems"),
 * player.check (the banner's button and the main menu), its dialog, which
 * runs the session's verify and says what it found in plain words, and the
 * repair, a row of the transfer panel; the session reloads the lists after
 * it, and the banner goes once nothing is left unrepaired.
 */
#define G_LOG_DOMAIN "km-player-view"

#include "config.h"

#include <glib/gi18n.h>

#include "km-app-util.h"
#include "km-player-view-private.h"

/* A damaged disk can give thousands of findings: the details list this many. */
#define MAX_DETAIL_LINES 100

/* the banner: an AdwBanner from libadwaita 1.3, a revealer that looks the same before */

#if ADW_CHECK_VERSION(1, 3, 0)
static GtkWidget *banner_new(const char *title, const char *button_label)
{
	GtkWidget *banner = adw_banner_new(title);

	adw_banner_set_button_label(ADW_BANNER(banner), button_label);
	gtk_actionable_set_action_name(GTK_ACTIONABLE(banner), "player.check");
	return banner;
}

static void banner_set_revealed(GtkWidget *banner, gboolean revealed)
{
	adw_banner_set_revealed(ADW_BANNER(banner), revealed);
}
#else
static GtkWidget *banner_new(const char *title, const char *button_label)
{
	GtkWidget *revealer = gtk_revealer_new();
	GtkWidget *box = gtk_center_box_new();
	GtkWidget *label = gtk_label_new(title);
	GtkWidget *button = gtk_button_new_with_label(button_label);

	gtk_label_set_wrap(GTK_LABEL(label), TRUE);
	gtk_widget_set_hexpand(label, TRUE);
	gtk_widget_add_css_class(label, "heading");
	gtk_actionable_set_action_name(GTK_ACTIONABLE(button), "player.check");
	gtk_widget_add_css_class(button, "suggested-action");
	gtk_center_box_set_center_widget(GTK_CENTER_BOX(box), label);
	gtk_center_box_set_end_widget(GTK_CENTER_BOX(box), button);
	gtk_widget_add_css_class(box, "km-banner");
	gtk_revealer_set_child(GTK_REVEALER(revealer), box);
	return revealer;
}

static void banner_set_revealed(GtkWidget *banner, gboolean revealed)
{
	gtk_revealer_set_reveal_child(GTK_REVEALER(banner), revealed);
}
#endif

static void on_found_damage(GObject *source, GAsyncResult *result, gpointer data)
{
	KmPlayerView *self = data;
	g_autoptr(GError) error = NULL;
	gboolean damaged = km_session_found_damage_finish(KM_SESSION(source), result, &error);

	/* not open (any more): the view closes anyway, nothing to say */
	if (damaged && !self->closing)
		banner_set_revealed(self->problems_banner, TRUE);
	g_object_unref(self);
}

void _km_player_view_init_check(KmPlayerView *self)
{
	self->problems_banner = banner_new(_("This player has problems"), _("Check Player…"));
	gtk_box_insert_child_after(self->main_box, self->problems_banner,
				   GTK_WIDGET(self->header_bar));
}

void _km_player_view_look_for_damage(KmPlayerView *self)
{
	km_session_found_damage_async(self->session, self->cancellable, on_found_damage,
				      g_object_ref(self));
}

/* what the check found, in plain words */

/* One sentence for the n findings of kind. */
static char *kind_words(KmVerifyKind kind, guint n)
{
	switch (kind) {
	case KM_VERIFY_JOURNAL:
		return g_strdup(_("A change was interrupted (the player was unplugged, or the "
				  "power failed) and is not finished."));
	case KM_VERIFY_SMALLDB_MISSING:
		return g_strdup(_("The player’s list of tracks is missing."));
	case KM_VERIFY_SMALLDB_CORRUPT:
		return g_strdup(_("The player’s list of tracks is damaged."));
	case KM_VERIFY_STALE_ROW:
		return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
			"%u track is listed differently from what its files say.",
			"%u tracks are listed differently from what their files say.", n), n);
	case KM_VERIFY_ORPHAN_DATA:
		return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
			"%u file has no track information: a repair keeps it in lost+found.",
			"%u files have no track information: a repair keeps them in lost+found.",
			n), n);
	case KM_VERIFY_ORPHAN_PROPERTIES:
		return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
			"%u track has no audio file.", "%u tracks have no audio file.", n), n);
	case KM_VERIFY_MISSING_PROPERTIES:
	case KM_VERIFY_BAD_PROPERTIES:
		return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
			"The information of %u track is missing or damaged.",
			"The information of %u tracks is missing or damaged.", n), n);
	case KM_VERIFY_PLAYLIST_DATA:
		return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
			"%u playlist is stored wrongly.", "%u playlists are stored wrongly.", n),
			n);
	case KM_VERIFY_PENDING_DELETE:
		return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
			"%u track deleted on the player still takes up room.",
			"%u tracks deleted on the player still take up room.", n), n);
	case KM_VERIFY_UNREADABLE:
		return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
			"%u file cannot be read: the disk is damaged there.",
			"%u files cannot be read: the disk is damaged there.", n), n);
	case KM_VERIFY_STRAY:
		return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
			"%u file on the player is not one of its tracks.",
			"%u files on the player are not among its tracks.", n), n);
	case KM_VERIFY_DANGLING_ENTRY:
		return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
			"%u playlist entry names a track that is gone.",
			"%u playlist entries name tracks that are gone.", n), n);
	case KM_VERIFY_BAD_VALUE:
		return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
			"%u value is out of the player’s range.",
			"%u values are out of the player’s range.", n), n);
	case KM_VERIFY_FILE_SYSTEM:
		return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
			"The player’s file system has %u problem, such as space marked used "
			"that nothing uses.",
			"The player’s file system has %u problems, such as space marked used "
			"that nothing uses.", n), n);
	default:
		return g_strdup_printf(g_dngettext(GETTEXT_PACKAGE, "%u other problem.",
						   "%u other problems.", n), n);
	}
}

static GtkWidget *wrapped_label(const char *text)
{
	GtkWidget *label = gtk_label_new(text);

	gtk_label_set_wrap(GTK_LABEL(label), TRUE);
	gtk_label_set_xalign(GTK_LABEL(label), 0);
	return label;
}

/* The findings' messages, as the library words them (the first MAX_DETAIL_LINES). */
static GtkWidget *details_expander(const KmVerifyReport *report)
{
	GString *text = g_string_new(NULL);
	g_autofree char *all = NULL;

	for (guint i = 0; i < report->findings->len && i < MAX_DETAIL_LINES; i++) {
		const KmVerifyFinding *f = report->findings->pdata[i];

		g_string_append_printf(text, "%s%s", i ? "\n" : "", f->message);
	}
	if (report->findings->len > MAX_DETAIL_LINES)
		g_string_append_printf(text, "\n…");
	all = g_string_free(g_steal_pointer(&text), FALSE);
	return km_details_expander_new(_("_Details"), all);
}

/* A line per kind found, "• …", then the details. */
static void list_findings(GtkBox *box, const KmVerifyReport *report)
{
	/* by kind: KM_VERIFY_FILE_SYSTEM is the last */
	guint counts[KM_VERIFY_FILE_SYSTEM + 1] = { 0 };

	for (guint i = 0; i < report->findings->len; i++) {
		const KmVerifyFinding *f = report->findings->pdata[i];

		if ((guint)f->kind < G_N_ELEMENTS(counts))
			counts[f->kind]++;
	}
	for (guint kind = 0; kind < G_N_ELEMENTS(counts); kind++) {
		g_autofree char *words = NULL, *line = NULL;

		/* MISSING_ and BAD_PROPERTIES say the same: one line for both */
		if (kind == KM_VERIFY_MISSING_PROPERTIES)
			counts[KM_VERIFY_BAD_PROPERTIES] += counts[kind];
		if (!counts[kind] || kind == KM_VERIFY_MISSING_PROPERTIES)
			continue;
		words = kind_words(kind, counts[kind]);
		line = g_strdup_printf("• %s", words);
		gtk_box_append(box, wrapped_label(line));
	}
	gtk_box_append(box, details_expander(report));
}

static guint count_repairable(const KmVerifyReport *report)
{
	guint n = 0;

	for (guint i = 0; i < report->findings->len; i++)
		n += ((const KmVerifyFinding *)report->findings->pdata[i])->repairable;
	return n;
}

/* the repair: a transfer row */

static void on_repaired(GObject *source, GAsyncResult *result, gpointer data)
{
	KmViewJob *job = data;
	g_autoptr(GError) error = NULL;
	g_autoptr(KmVerifyReport) report = km_session_verify_finish(KM_SESSION(source), result,
								    &error);
	g_autofree char *text = NULL;

	if (report) {
		guint fixed = report->findings->len - report->n_unrepaired;

		text = report->n_unrepaired ?
		       g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
				"%u problem repaired; %u could not be: Check Player… lists them",
				"%u problems repaired; %u could not be: Check Player… lists them",
				fixed), fixed, report->n_unrepaired) :
		       g_strdup_printf(g_dngettext(GETTEXT_PACKAGE, "%u problem repaired",
						   "%u problems repaired", fixed), fixed);
		if (!report->n_unrepaired && !job->self->closing)
			banner_set_revealed(job->self->problems_banner, FALSE);
	}
	km_transfer_row_finish_text(job->row, text, error);
	_km_player_view_toast_error(job->self, error);
	_km_view_job_free(job);
}

static void repair_player(KmPlayerView *self)
{
	g_autofree char *title = g_strdup_printf(_("Repairing “%s”"),
						 km_session_get_name(self->session));
	g_autofree char *done = g_strdup_printf(_("Repair of “%s”"),
						km_session_get_name(self->session));
	KmTransferRow *row;

	if (self->closing)
		return;
	row = km_transfer_row_new(title, NULL, 0);
	km_transfer_row_set_finished_title(row, done);
	km_transfer_panel_add(self->transfers, row);
	km_transfer_row_set_unmeasured(row, _("Checking every file, repairing what can be…"));
	km_session_verify_async(self->session, TRUE, km_transfer_row_get_cancellable(row),
				on_repaired, _km_view_job_new(self, row));
}

/* the check: a dialog while it runs, another with what it found */

typedef struct {
	KmPlayerView *self;
	GtkWidget *checking;	/* the dialog while it runs */
} Check;

static void on_found_response(KmQuestionDialog *dialog, const char *response, gpointer data)
{
	if (g_str_equal(response, "repair"))
		repair_player(KM_PLAYER_VIEW(data));
}

/*
 * What the check found, in a dialog of its own: a dialog that grows while
 * it is shown is not made taller by every windowing system (GTK 4.8 on X
 * leaves the buttons below its edge).
 */
static void present_report(KmPlayerView *self, const KmVerifyReport *report)
{
	guint n = report->findings->len, repairable = count_repairable(report);
	g_autofree char *body = NULL;
	KmQuestion question = {
		.heading = _("Problems Found"),
		.cancel_id = "close", .cancel_label = _("_Close"),
		.act_id = "repair", .act_label = _("_Repair"),
		.appearance = ADW_RESPONSE_SUGGESTED,
	};
	KmQuestionDialog *dialog;
	GtkWidget *box;

	if (!n) {
		question.heading = _("No Problems Found");
		question.body = _("Every file on the player agrees with its list of tracks.");
		question.act_id = NULL;
		banner_set_revealed(self->problems_banner, FALSE);
		km_dialog_present(GTK_WIDGET(km_question_new(&question, NULL, self)),
				  GTK_WIDGET(self));
		return;
	}
	body = repairable == n ? g_strdup(_("Repair fixes all of them; tracks and playlists "
					    "then are as their files say.")) :
	       repairable ? g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
					"Repair fixes %u of them; the others stay as they are.",
					"Repair fixes %u of them; the others stay as they are.",
					repairable), repairable) :
	       g_strdup(_("Repair cannot fix these. A backup of the player keeps what can "
			  "still be read."));
	question.body = body;
	if (!repairable)
		question.act_id = NULL;
	dialog = km_question_new(&question, G_CALLBACK(on_found_response), self);
	box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
	list_findings(GTK_BOX(box), report);
	km_question_dialog_set_extra_child(dialog, box);
	km_dialog_present(GTK_WIDGET(dialog), GTK_WIDGET(self));
}

static void on_checked(GObject *source, GAsyncResult *result, gpointer data)
{
	Check *check = data;
	g_autoptr(GError) error = NULL;
	g_autoptr(KmVerifyReport) report = km_session_verify_finish(KM_SESSION(source), result,
								    &error);
	GCancellable *closed = g_object_get_data(G_OBJECT(check->checking),
						 "km-check-cancellable");

	/*
	 * nothing to show when the user closed the dialog (perhaps as the check
	 * ended) or the view went (disposed: its cancellable; ejecting: closing)
	 */
	if (!g_cancellable_is_cancelled(closed) &&
	    !g_cancellable_is_cancelled(check->self->cancellable) && !check->self->closing) {
		km_dialog_close(check->checking);
		if (report)
			present_report(check->self, report);
		else
			km_problem_dialog_present(GTK_WIDGET(check->self),
						  _("The Player Could Not Be Checked"),
						  _("Reading the player failed."), error->message);
	}
	g_object_unref(check->self);
	g_object_unref(check->checking);
	g_free(check);
}

static void on_checking_response(KmQuestionDialog *dialog, const char *response, gpointer data)
{
	g_cancellable_cancel(G_CANCELLABLE(data));
}

static GtkWidget *checking_spinner(void)
{
	GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
	GtkWidget *spinner = gtk_spinner_new();

	gtk_spinner_start(GTK_SPINNER(spinner));
	gtk_box_append(GTK_BOX(box), spinner);
	gtk_box_append(GTK_BOX(box), wrapped_label(_("Reading every file…")));
	gtk_widget_set_halign(box, GTK_ALIGN_CENTER);
	return box;
}

static void check_action(GtkWidget *widget, const char *name, GVariant *param)
{
	KmPlayerView *self = KM_PLAYER_VIEW(widget);
	g_autofree char *body = g_strdup_printf(_("Every file on “%s” is compared with the "
						  "player’s list of tracks."),
						km_session_get_name(self->session));
	const KmQuestion question = {
		.heading = _("Checking the Player…"),
		.body = body,
		.cancel_id = "cancel", .cancel_label = _("_Cancel"),
	};
	g_autoptr(GCancellable) cancellable = g_cancellable_new();
	KmQuestionDialog *dialog;
	Check *check;

	if (self->closing)
		return;
	dialog = km_question_new(&question, G_CALLBACK(on_checking_response), cancellable);
	km_question_dialog_set_extra_child(dialog, checking_spinner());
	/* the cancellable lives as long as the dialog that cancels it */
	g_object_set_data_full(G_OBJECT(dialog), "km-check-cancellable",
			       g_object_ref(cancellable), g_object_unref);
	check = g_new0(Check, 1);
	check->self = g_object_ref(self);
	check->checking = g_object_ref_sink(GTK_WIDGET(dialog));
	km_dialog_present(GTK_WIDGET(dialog), widget);
	km_session_verify_async(self->session, FALSE, cancellable, on_checked, check);
}

void _km_player_view_update_check_action(KmPlayerView *self)
{
	gtk_widget_action_set_enabled(GTK_WIDGET(self), "player.check",
				      !self->closing && self->session);
}

void _km_player_view_class_init_check(GtkWidgetClass *widget_class)
{
	gtk_widget_class_install_action(widget_class, "player.check", NULL, check_action);
}
