/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-report.h - what a session job that copies files (adding to the player,
 * exporting from it) did with each one: done, skipped and why, failed and
 * why, or never reached because the job stopped. The transfer queue shows it,
 * and when the player is unplugged during a job the `failed` signal carries
 * it, so the user knows exactly what was and was not copied.
 */
#ifndef KM_REPORT_H
#define KM_REPORT_H

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum {
	KM_ITEM_DONE,		/* copied (added: committed to the player) */
	KM_ITEM_DUPLICATE,	/* add: the player already has this track (reason names it) */
	KM_ITEM_UNSUPPORTED,	/* add: not a file the Karma can play (reason says why) */
	KM_ITEM_FAILED,		/* tried, and failed (reason says why) */
	KM_ITEM_CANCELLED,	/* its own cancellable, or the job's, was cancelled */
	KM_ITEM_NOT_DONE,	/* the job stopped before it (full player, device gone) */
	KM_N_ITEM_OUTCOMES
} KmItemOutcome;

typedef struct {
	/* add: the host file; export: the file written, or NULL when none was. */
	GFile *file;
	/* add: the new track's fid (0 when none); export: the track copied. */
	guint32 fid;
	KmItemOutcome outcome;
	/* Why it is not KM_ITEM_DONE, for people; NULL when done. */
	char *reason;
} KmReportItem;

typedef struct {
	/* KmReportItem*, in the order the job met the files. */
	GPtrArray *items;
	/* How many items have each outcome. */
	guint counts[KM_N_ITEM_OUTCOMES];
	/* Why the job stopped before the end (full player, device gone, cancelled), or NULL. */
	GError *error;
} KmReport;

/* Reference-counted: the `failed` signal and the job's result share one. */
#define KM_TYPE_REPORT (km_report_get_type())
GType km_report_get_type(void);
KmReport *km_report_new(void);
KmReport *km_report_ref(KmReport *report);
void km_report_unref(KmReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(KmReport, km_report_unref)

/* Append an item (reason may be NULL); the counts follow. */
void km_report_add(KmReport *report, GFile *file, guint32 fid, KmItemOutcome outcome,
		   const char *reason);

G_END_DECLS

#endif
