/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fault-util.c - what the session fault tests share (fault-util.h). */
#include "fault-util.h"

#include <glib/gstdio.h>
#include <string.h>

#include "km-image-device.h"
#include "km-karma-image.h"
#include "km-karma-label.h"

/* Host files, made once: every case has an image of its own. */
static char *host_files[N_FILES];

char **fu_files(void)
{
	if (!host_files[0])
		for (guint i = 0; i < N_FILES; i++)
			host_files[i] = su_big_wav("fault.wav", FILE_SIZE - 4096 * i, 700 + i);
	return host_files;
}

/* ---- a session and what it reported -------------------------------------- */

static void on_failed(KmSession *session, GError *error, KmReport *report, gpointer data)
{
	FuFixture *f = data;

	/* Before the job that met the failure ends. */
	g_assert_true(km_session_is_busy(session));
	g_assert_cmpint(km_session_get_state(session), ==, KM_SESSION_STATE_FAILED);
	g_assert_cmpstr(error->message, !=, "");
	f->n_failed++;
	g_clear_error(&f->fail_error);
	f->fail_error = g_error_copy(error);
	g_clear_pointer(&f->fail_report, km_report_unref);
	f->fail_report = report ? km_report_ref(report) : NULL;
}

void fu_open(FuFixture *f)
{
	g_autoptr(GError) error = NULL;

	*f = (FuFixture){ .image = su_demo_image() };
	f->session = ss_session(f->image, NULL, &f->source);
	g_assert_true(su_open_session(f->session, &error));
	g_assert_no_error(error);
	g_signal_connect(f->session, "failed", G_CALLBACK(on_failed), f);
}

/* Closing ends, and succeeds, whatever happened to the device. */
void fu_close(FuFixture *f)
{
	su_close(g_steal_pointer(&f->session));
}

void fu_free(FuFixture *f)
{
	g_clear_error(&f->fail_error);
	g_clear_pointer(&f->fail_report, km_report_unref);
	g_unlink(f->image);
	g_free(f->image);
}

KmReport *fu_export(FuFixture *f, const GArray *fids, const char *folder,
			       GError **error)
{
	g_autoptr(GFile) dir = g_file_new_for_path(folder);
	g_autoptr(GAsyncResult) result = NULL;

	km_session_export_async(f->session, (const guint32 *)(void *)fids->data, fids->len, dir, "%t.%c",
				NULL, NULL, NULL, NULL, su_store_result, &result);
	return km_session_export_finish(f->session, su_wait(&result), error);
}

/* The fids of the report's items that are done. */
GArray *fu_done_fids(const KmReport *report)
{
	GArray *fids = g_array_new(FALSE, FALSE, sizeof(guint32));

	for (guint i = 0; i < report->items->len; i++) {
		const KmReportItem *item = report->items->pdata[i];

		if (item->outcome == KM_ITEM_DONE)
			g_array_append_val(fids, item->fid);
	}
	return fids;
}

/* ---- the image after the session: library, tracks, fsck ------------------ */

/* Each done item of the add report is on the image with the bytes of its host file. */
void fu_assert_image_tracks(const char *image, const KmReport *added)
{
	struct km_image_device *dev;
	KmLibrary *lib = su_image_open(image, &dev);

	for (guint i = 0; i < added->items->len; i++) {
		const KmReportItem *item = added->items->pdata[i];
		g_autofree char *path = g_file_get_path(item->file);
		g_autofree char *want = NULL, *got = NULL;
		g_autoptr(GError) error = NULL;
		gsize len;
		guint64 size;

		if (item->outcome != KM_ITEM_DONE)
			continue;
		g_assert_true(g_file_get_contents(path, &want, &len, NULL));
		g_assert_true(km_library_get_data_size(lib, item->fid, &size, &error));
		g_assert_no_error(error);
		g_assert_cmpuint(size, ==, len);
		got = g_malloc(len);
		g_assert_cmpint(km_library_read_data(lib, item->fid, 0, got, len, &error), ==,
				(gssize)len);
		g_assert_no_error(error);
		g_assert_cmpmem(got, len, want, len);
	}
	su_image_close(lib, dev);
}

static void count_finding(void *ctx, enum omfs_fsck_severity severity, const char *msg)
{
	FuFsckCount *count = ctx;

	if (severity == OMFS_FSCK_LEAK)
		count->leaks++;
	else if (severity != OMFS_FSCK_ERROR)
		return;
	else if (strstr(msg, "mirror copy") && strstr(msg, "differs from the primary copy"))
		count->stale_mirrors++;
	else
		count->errors++;
	g_test_message("fsck: %s", msg);
}

/* fsck of the image's music partition (read-only). */
FuFsckCount fu_fsck_music(const char *image)
{
	char msg[OMFS_ERRMSG_MAX] = "";
	struct km_image_device *dev = km_image_device_open(image, false, 0, 0, msg, sizeof(msg));
	FuFsckCount count = { 0 };
	struct omfs_fsck_opts opts = { .report = count_finding, .report_ctx = &count };
	struct omfs_fsck_result result;
	struct km_karma_label label;
	struct km_partition_device *win = NULL;

	g_assert_nonnull(dev);
	g_assert_cmpint(km_karma_label_read(km_image_device_blockdev(dev), &label, msg,
					    sizeof(msg)), ==, 0);
	for (guint i = 0; i < label.n_partitions; i++)
		if (km_karma_partition_offset(&label.partitions[i]) == KM_KARMA_IMAGE_MUSIC_OFFSET)
			win = km_karma_partition_open(km_image_device_blockdev(dev),
						      &label.partitions[i], msg, sizeof(msg));
	g_assert_nonnull(win);
	g_assert_cmpint(omfs_fsck(km_partition_device_blockdev(win), &opts, &result), >=, 0);
	km_partition_device_close(win);
	g_assert_cmpint(km_image_device_close(dev), ==, 0);
	return count;
}

/* The report of a job the device failed: every file accounted for, with a reason. */
void fu_assert_failed_report(FuFixture *f, const KmReport *report, const GError *error)
{
	guint accounted = report->counts[KM_ITEM_DONE] + report->counts[KM_ITEM_FAILED] +
			  report->counts[KM_ITEM_NOT_DONE];

	g_assert_nonnull(error);
	g_assert_true(error->domain == KM_LIBRARY_ERROR);
	g_assert_true(error->code == KM_LIBRARY_ERROR_IO || error->code == KM_LIBRARY_ERROR_FAILED);
	g_assert_cmpuint(f->n_failed, ==, 1);
	g_assert_true(f->fail_report == report);
	g_assert_error(f->fail_error, error->domain, error->code);
	g_assert_cmpstr(f->fail_error->message, ==, error->message);
	g_assert_cmpuint(accounted, ==, report->items->len);
	g_assert_cmpuint(report->counts[KM_ITEM_DONE], <, report->items->len);
	for (guint i = 0; i < report->items->len; i++) {
		const KmReportItem *item = report->items->pdata[i];

		if (item->outcome != KM_ITEM_DONE)
			g_assert_cmpstr(item->reason, !=, "");
	}
	g_assert_cmpint(km_session_get_state(f->session), ==, KM_SESSION_STATE_FAILED);
}

/* The session's list shows the tracks of the demo and those committed. */
void fu_assert_listed(FuFixture *f, const KmReport *added)
{
	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_tracks(f->session)), ==,
			 KM_DEMO_TRACKS + added->counts[KM_ITEM_DONE]);
	for (guint i = 0; i < added->items->len; i++) {
		const KmReportItem *item = added->items->pdata[i];

		if (item->outcome == KM_ITEM_DONE)
			g_assert_nonnull(km_session_lookup_track(f->session, item->fid));
	}
}

/* After the failure, every job fails at once, and `failed` is not emitted again. */
void fu_assert_later_jobs_fail(FuFixture *f)
{
	g_autofree char *folder = su_tmp_path("after");
	g_autoptr(GArray) fids = su_track_fids(f->session);
	g_autoptr(GAsyncResult) result = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) report = NULL;

	km_session_remove_async(f->session, (const guint32 *)(void *)fids->data, 1, NULL,
				su_store_result, &result);
	g_assert_false(su_edit_wait(f->session, &result, &error));
	g_assert_error(error, KM_SESSION_ERROR, KM_SESSION_ERROR_FAILED);
	g_clear_error(&error);
	report = fu_export(f, fids, folder, &error);
	g_assert_null(report);
	g_assert_error(error, KM_SESSION_ERROR, KM_SESSION_ERROR_FAILED);
	g_assert_false(g_file_test(folder, G_FILE_TEST_EXISTS));
	g_assert_cmpuint(f->n_failed, ==, 1);
}
