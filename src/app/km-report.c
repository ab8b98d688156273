/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-report.c - KmReport: what a copying job did with each file. */
#include "km-report.h"

typedef struct {
	KmReport report;
	gatomicrefcount refs;
} RefReport;

G_DEFINE_BOXED_TYPE(KmReport, km_report, km_report_ref, km_report_unref)

static void item_free(gpointer data)
{
	KmReportItem *item = data;

	g_clear_object(&item->file);
	g_free(item->reason);
	g_free(item);
}

KmReport *km_report_new(void)
{
	RefReport *ref = g_new0(RefReport, 1);

	g_atomic_ref_count_init(&ref->refs);
	ref->report.items = g_ptr_array_new_with_free_func(item_free);
	return &ref->report;
}

KmReport *km_report_ref(KmReport *report)
{
	g_atomic_ref_count_inc(&((RefReport *)report)->refs);
	return report;
}

void km_report_unref(KmReport *report)
{
	RefReport *ref = (RefReport *)report;

	if (!g_atomic_ref_count_dec(&ref->refs))
		return;
	g_ptr_array_unref(report->items);
	g_clear_error(&report->error);
	g_free(ref);
}

void km_report_add(KmReport *report, GFile *file, guint32 fid, KmItemOutcome outcome,
		   const char *reason)
{
	KmReportItem *item;

	g_return_if_fail(outcome < KM_N_ITEM_OUTCOMES);
	item = g_new0(KmReportItem, 1);
	item->file = file ? g_object_ref(file) : NULL;
	item->fid = fid;
	item->outcome = outcome;
	item->reason = g_strdup(reason);
	g_ptr_array_add(report->items, item);
	report->counts[outcome]++;
}
