/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-session-faults.c - device faults through the whole app stack: a
 * session (its worker, the library, OMFS) on a copy of the demo image behind
 * the simulated Karma and the real USB protocol code, with the sim's fault
 * switches armed (sim-source.h).
 *
 *   - A transient fault (stall, short or oversized transfer, timeout, bad
 *     CSW, dropping out of storage mode) is recovered from: adding and
 *     exporting succeed, the exported bytes are right, and the image,
 *     reopened by the library, verifies clean with the tracks added.
 *   - A lasting fault or an unplug, at a point spread over an add job's
 *     writes (data, commit): the session fails with a sentence and the job's
 *     report, later jobs fail cleanly and closing ends; the image, reopened
 *     by the library (which finishes or forgets a commit cut short),
 *     verifies clean and holds every track committed before the fault with
 *     its exact bytes, and fsck finds at worst leaked blocks.
 *   - An export that meets a lasting fault, and an open that does.
 *
 * Every wait is bounded (su_wait); the sim's virtual clock keeps timeouts fast.
 */
#include "session-test-util.h"
#include "sim-source.h"

#include <glib/gstdio.h>

#include "km-demo.h"
#include "km-image-device.h"
#include "km-karma-image.h"
#include "km-karma-label.h"

/* More files than one commit batch (8): a lasting fault can fall after a commit. */
#define N_FILES 10
#define FILE_SIZE (300u << 10)

/* Host files, made once: every case has an image of its own. */
static char *host_files[N_FILES];

static char **files(void)
{
	if (!host_files[0])
		for (guint i = 0; i < N_FILES; i++)
			host_files[i] = su_big_wav("fault.wav", FILE_SIZE - 4096 * i, 700 + i);
	return host_files;
}

/* ---- a session and what it reported -------------------------------------- */

typedef struct {
	char *image;
	SimSource *source;
	KmSession *session;
	guint n_failed;
	GError *fail_error;
	KmReport *fail_report;
} Fixture;

static void on_failed(KmSession *session, GError *error, KmReport *report, gpointer data)
{
	Fixture *f = data;

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

static void fx_open(Fixture *f)
{
	g_autoptr(GError) error = NULL;

	*f = (Fixture){ .image = su_demo_image() };
	f->session = ss_session(f->image, NULL, &f->source);
	g_assert_true(su_open_session(f->session, &error));
	g_assert_no_error(error);
	g_signal_connect(f->session, "failed", G_CALLBACK(on_failed), f);
}

/* Closing ends, and succeeds, whatever happened to the device. */
static void fx_close(Fixture *f)
{
	su_close(g_steal_pointer(&f->session));
}

static void fx_free(Fixture *f)
{
	g_clear_error(&f->fail_error);
	g_clear_pointer(&f->fail_report, km_report_unref);
	g_unlink(f->image);
	g_free(f->image);
}

static KmReport *export_tracks(Fixture *f, const GArray *fids, const char *folder,
			       GError **error)
{
	g_autoptr(GFile) dir = g_file_new_for_path(folder);
	g_autoptr(GAsyncResult) result = NULL;

	km_session_export_async(f->session, (const guint32 *)fids->data, fids->len, dir, "%t.%c",
				NULL, NULL, NULL, NULL, su_store_result, &result);
	return km_session_export_finish(f->session, su_wait(&result), error);
}

/* The fids of the report's items that are done. */
static GArray *done_fids(const KmReport *report)
{
	GArray *fids = g_array_new(FALSE, FALSE, sizeof(guint32));

	for (guint i = 0; i < report->items->len; i++) {
		const KmReportItem *item = report->items->pdata[i];

		if (item->outcome == KM_ITEM_DONE)
			g_array_append_val(fids, item->fid);
	}
	return fids;
}

static void assert_same_bytes(const char *path, const char *want_path)
{
	g_autofree char *got = NULL, *want = NULL;
	gsize got_len, want_len;

	g_assert_true(g_file_get_contents(path, &got, &got_len, NULL));
	g_assert_true(g_file_get_contents(want_path, &want, &want_len, NULL));
	g_assert_cmpmem(got, got_len, want, want_len);
}

/* ---- the image after the session: library, tracks, fsck ------------------ */

/* Each done item of the add report is on the image with the bytes of its host file. */
static void assert_image_tracks(const char *image, const KmReport *added)
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

typedef struct {
	guint errors;	/* worse than leaked blocks */
	guint leaks;
} FsckCount;

static void count_finding(void *ctx, enum omfs_fsck_severity severity, const char *msg)
{
	FsckCount *count = ctx;

	if (severity == OMFS_FSCK_LEAK)
		count->leaks++;
	else if (severity == OMFS_FSCK_ERROR)
		count->errors++;
	else
		return;
	g_test_message("fsck: %s", msg);
}

/* fsck of the image's music partition (read-only). */
static FsckCount fsck_music(const char *image)
{
	char msg[OMFS_ERRMSG_MAX] = "";
	struct km_image_device *dev = km_image_device_open(image, false, 0, 0, msg, sizeof(msg));
	FsckCount count = { 0 };
	struct omfs_fsck_opts opts = { .report = count_finding, .report_ctx = &count };
	struct omfs_fsck_result result;
	struct km_karma_label label;
	struct km_window_device *win = NULL;

	g_assert_nonnull(dev);
	g_assert_cmpint(km_karma_label_read(km_image_device_blockdev(dev), &label, msg,
					    sizeof(msg)), ==, 0);
	for (guint i = 0; i < label.n_partitions; i++)
		if (km_karma_partition_offset(&label.partitions[i]) == KM_KARMA_IMAGE_MUSIC_OFFSET)
			win = km_karma_partition_open(km_image_device_blockdev(dev),
						      &label.partitions[i], msg, sizeof(msg));
	g_assert_nonnull(win);
	g_assert_cmpint(omfs_fsck(km_window_device_blockdev(win), &opts, &result), >=, 0);
	km_window_device_close(win);
	g_assert_cmpint(km_image_device_close(dev), ==, 0);
	return count;
}

/* ---- transient faults ------------------------------------------------------ */

typedef struct {
	struct km_sim_karma_faults faults;
	gboolean data_in;	/* met by data-in phases only: armed for the export alone */
} Transient;

/*
 * After a job run with t armed: every switch went back to 0 (the fault was
 * met), and a player that dropped out of storage mode was put back in it.
 */
static void assert_spent(Fixture *f, const Transient *t, guint64 riop_before)
{
	const struct km_sim_karma_faults *faults = ss_faults(f->source);
	struct km_sim_karma_stats stats = ss_stats(f->source);

	g_assert_cmpuint(faults->stall_transfers, ==, 0);
	g_assert_cmpuint(faults->stall_data_phases, ==, 0);
	g_assert_cmpuint(faults->short_transfers, ==, 0);
	g_assert_cmpuint(faults->oversized_replies, ==, 0);
	g_assert_cmpuint(faults->timeouts, ==, 0);
	g_assert_cmpuint(faults->bad_tag_csws, ==, 0);
	g_assert_cmpuint(faults->bad_signature_csws, ==, 0);
	g_assert_cmpuint(faults->bad_residue_csws, ==, 0);
	g_assert_cmpuint(faults->drop_after_commands, ==, 0);
	g_assert_cmpint(stats.mode, ==, KM_SIM_STORAGE);
	if (t->faults.drop_after_commands)
		g_assert_cmpuint(stats.riop_commands, >, riop_before);
}

static void test_transient(gconstpointer data)
{
	const Transient *t = data;
	g_autofree char *folder = su_tmp_path("export");
	g_autoptr(KmReport) added = NULL, exported = NULL;
	g_autoptr(GArray) fids = NULL;
	g_autoptr(GError) error = NULL;
	FsckCount fsck;
	Fixture f;
	guint64 riop;
	guint n_tunes;

	fx_open(&f);
	if (!t->data_in)
		*ss_faults(f.source) = t->faults;
	riop = ss_stats(f.source).riop_commands;
	added = su_add(f.session, files(), 3, KM_ADD_FLAGS_NONE, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(added->counts[KM_ITEM_DONE], ==, 3);
	if (!t->data_in)
		assert_spent(&f, t, riop);

	*ss_faults(f.source) = t->faults;
	riop = ss_stats(f.source).riop_commands;
	fids = done_fids(added);
	exported = export_tracks(&f, fids, folder, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(exported->counts[KM_ITEM_DONE], ==, 3);
	assert_spent(&f, t, riop);
	for (guint i = 0; i < 3; i++) {
		const KmReportItem *item = exported->items->pdata[i];
		g_autofree char *path = g_file_get_path(item->file);

		assert_same_bytes(path, files()[i]);
	}
	g_assert_cmpuint(f.n_failed, ==, 0);
	g_assert_cmpint(km_session_get_state(f.session), ==, KM_SESSION_STATE_OPEN);
	fx_close(&f);

	su_verify_image(f.image, &n_tunes);
	g_assert_cmpuint(n_tunes, ==, KM_DEMO_TRACKS + 3);
	assert_image_tracks(f.image, added);
	fsck = fsck_music(f.image);
	g_assert_cmpuint(fsck.errors + fsck.leaks, ==, 0);
	fx_free(&f);
}

static const Transient stall = { { .stall_transfers = 2 } };
static const Transient data_phase_stall = { { .stall_data_phases = 1 } };
static const Transient short_transfer = { { .short_transfers = 1 }, TRUE };
static const Transient oversized_reply = { { .oversized_replies = 2 } };
static const Transient timeout = { { .timeouts = 1 } };
static const Transient bad_tag = { { .bad_tag_csws = 1 } };
static const Transient bad_signature = { { .bad_signature_csws = 1 } };
static const Transient bad_residue = { { .bad_residue_csws = 1 } };
static const Transient drop_to_left = { { .drop_after_commands = 1 } };
static const Transient drop_to_normal = { { .drop_after_commands = 1,
					    .drop_to_normal = true } };

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_data_func("/session-faults/transient/stall", &stall, test_transient);
	g_test_add_data_func("/session-faults/transient/data-phase-stall", &data_phase_stall,
			     test_transient);
	g_test_add_data_func("/session-faults/transient/short-transfer", &short_transfer,
			     test_transient);
	g_test_add_data_func("/session-faults/transient/oversized-reply", &oversized_reply,
			     test_transient);
	g_test_add_data_func("/session-faults/transient/timeout", &timeout, test_transient);
	g_test_add_data_func("/session-faults/transient/bad-csw-tag", &bad_tag, test_transient);
	g_test_add_data_func("/session-faults/transient/bad-csw-signature", &bad_signature,
			     test_transient);
	g_test_add_data_func("/session-faults/transient/bad-csw-residue", &bad_residue,
			     test_transient);
	g_test_add_data_func("/session-faults/transient/drop-to-left", &drop_to_left,
			     test_transient);
	g_test_add_data_func("/session-faults/transient/drop-to-normal", &drop_to_normal,
			     test_transient);
	return g_test_run();
}
