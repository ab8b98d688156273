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
 *     by the library (which finishes or forgets a commit cut short), holds
 *     every track committed before the fault with its exact bytes and
 *     verifies clean, once the data files of tracks never committed (orphans,
 *     which the write ordering allows) are repaired away; fsck finds at worst
 *     leaked blocks (and, as the device left it, a mirror copy left old).
 *   - An export that meets a lasting fault, and an open that does.
 *
 * Every wait is bounded (su_wait); the sim's virtual clock keeps timeouts fast.
 */
#include "fault-util.h"

#include <glib/gstdio.h>

#include "km-demo.h"
#include "km-verify.h"

/* ---- transient faults ------------------------------------------------------ */

typedef struct {
	struct km_sim_karma_faults faults;
	gboolean data_in;	/* met by data-in phases only: armed for the export alone */
} Transient;

/*
 * After a job run with t armed: every switch went back to 0 (the fault was
 * met), and a player that dropped out of storage mode was put back in it.
 */
static void assert_spent(FuFixture *f, const Transient *t, guint64 riop_before)
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
	FuFsckCount fsck;
	FuFixture f;
	guint64 riop;
	guint n_tunes;

	fu_open(&f);
	if (!t->data_in)
		*ss_faults(f.source) = t->faults;
	riop = ss_stats(f.source).riop_commands;
	added = su_add(f.session, fu_files(), 3, KM_ADD_FLAGS_NONE, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(added->counts[KM_ITEM_DONE], ==, 3);
	if (!t->data_in)
		assert_spent(&f, t, riop);

	*ss_faults(f.source) = t->faults;
	riop = ss_stats(f.source).riop_commands;
	fids = fu_done_fids(added);
	exported = fu_export(&f, fids, folder, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(exported->counts[KM_ITEM_DONE], ==, 3);
	assert_spent(&f, t, riop);
	for (guint i = 0; i < 3; i++) {
		const KmReportItem *item = exported->items->pdata[i];
		g_autofree char *path = g_file_get_path(item->file);

		su_assert_same_bytes(path, fu_files()[i]);
	}
	g_assert_cmpuint(f.n_failed, ==, 0);
	g_assert_cmpint(km_session_get_state(f.session), ==, KM_SESSION_STATE_OPEN);
	fu_close(&f);

	su_verify_image(f.image, &n_tunes);
	g_assert_cmpuint(n_tunes, ==, KM_DEMO_TRACKS + 3);
	fu_assert_image_tracks(f.image, added);
	fsck = fu_fsck_music(f.image);
	g_assert_cmpuint(fsck.errors + fsck.stale_mirrors + fsck.leaks, ==, 0);
	fu_free(&f);
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

/* ---- lasting faults and unplugs in the middle of an add job --------------- */

/* How many block-device writes adding the N_FILES makes when nothing goes wrong. */
static guint64 add_job_writes(void)
{
	static guint64 writes;

	if (!writes) {
		g_autoptr(KmReport) report = NULL;
		g_autoptr(GError) error = NULL;
		FuFixture f;

		fu_open(&f);
		writes = f.source->writes;
		report = su_add(f.session, fu_files(), N_FILES, KM_ADD_FLAGS_NONE, &error);
		g_assert_no_error(error);
		g_assert_cmpuint(report->counts[KM_ITEM_DONE], ==, N_FILES);
		writes = f.source->writes - writes;
		fu_close(&f);
		fu_free(&f);
	}
	return writes;
}

typedef struct {
	struct km_sim_karma_faults faults;
	guint at;	/* armed at the write at/16 of the way through the job */
} Lasting;

/*
 * The library on the image after a failed add, opened writable (which
 * finishes or forgets a commit cut short): verify finds at worst the data
 * files of tracks not committed, without properties (the write ordering
 * allows those orphans, km-commit.c), at most one per failed file, and
 * repair removes them. Returns how many.
 */
static guint verify_after_failure(const char *image, const KmReport *added)
{
	struct km_image_device *dev;
	KmLibrary *lib = su_image_open(image, &dev);
	g_autoptr(GError) error = NULL;
	g_autoptr(KmVerifyReport) report = km_library_verify(lib, KM_VERIFY_FLAGS_NONE, NULL,
							     &error);
	g_autoptr(KmVerifyReport) repaired = NULL;
	guint orphans;

	g_assert_no_error(error);
	for (guint i = 0; i < report->findings->len; i++)
		g_test_message("finding: %s",
			       ((KmVerifyFinding *)report->findings->pdata[i])->message);
	orphans = km_verify_report_count(report, KM_VERIFY_ORPHAN_DATA);
	g_assert_cmpuint(report->findings->len, ==, orphans);
	g_assert_cmpuint(orphans, <=, added->counts[KM_ITEM_FAILED]);
	repaired = km_library_verify(lib, KM_VERIFY_FLAG_REPAIR, NULL, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(repaired->n_unrepaired, ==, 0);
	su_image_close(lib, dev);
	return orphans;
}

/*
 * The image after a failed add: fsck finds nothing worse than leaked blocks,
 * as the device left it and after the library's recovery; the library
 * verifies clean (once its orphans are removed) and holds every track
 * committed, and perhaps those of the commit cut short, finished by the
 * reopen.
 */
static void assert_image_after_failure(const char *image, const KmReport *added)
{
	guint done = added->counts[KM_ITEM_DONE], n_tunes, orphans;
	FuFsckCount cut = fu_fsck_music(image), after;

	/* As the device left it (the library's power-cut test accepts the same). */
	g_assert_cmpuint(cut.errors, ==, 0);
	orphans = verify_after_failure(image, added);
	su_verify_image(image, &n_tunes);
	g_assert_cmpuint(n_tunes, >=, KM_DEMO_TRACKS + done);
	g_assert_cmpuint(n_tunes, <=, KM_DEMO_TRACKS + done + added->counts[KM_ITEM_FAILED]);
	fu_assert_image_tracks(image, added);
	after = fu_fsck_music(image);
	g_assert_cmpuint(after.errors, ==, 0);
	g_assert_cmpuint(after.stale_mirrors, <=, cut.stale_mirrors);
	g_test_message("%u of %u files committed, %u tracks after reopening, %u orphans; "
		       "fsck as cut: %u leaks, %u stale mirrors; after: %u leaks, %u stale mirrors",
		       done, added->items->len, n_tunes - KM_DEMO_TRACKS, orphans, cut.leaks,
		       cut.stale_mirrors, after.leaks, after.stale_mirrors);
}

static void test_lasting(gconstpointer data)
{
	const Lasting *l = data;
	guint64 total = add_job_writes();
	guint64 at = 1 + (total - 1) * l->at / 16;
	g_autoptr(KmReport) report = NULL;
	g_autoptr(GError) error = NULL;
	FuFixture f;

	fu_open(&f);
	ss_arm_at_write(f.source, at, &l->faults);
	report = su_add(f.session, fu_files(), N_FILES, KM_ADD_FLAGS_NONE, &error);
	g_test_message("armed at write %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT ": %s", at,
		       total, error ? error->message : "no error");
	fu_assert_failed_report(&f, report, error);
	fu_assert_listed(&f, report);
	fu_assert_later_jobs_fail(&f);
	fu_close(&f);
	assert_image_after_failure(f.image, report);
	fu_free(&f);
}

static const Lasting timeouts = { { .timeouts = SS_FOREVER }, 5 };
static const Lasting stalls = { { .stall_transfers = SS_FOREVER }, 9 };
static const Lasting data_phase_stalls = { { .stall_data_phases = SS_FOREVER }, 13 };
static const Lasting bad_tags = { { .bad_tag_csws = SS_FOREVER }, 3 };
static const Lasting bad_signatures = { { .bad_signature_csws = SS_FOREVER }, 16 };

/* Unplugs over the whole job: before a write at k even, in the middle of one at k odd. */
#define N_UNPLUGS 17
static Lasting unplugs[N_UNPLUGS];

static void add_unplugs(void)
{
	for (guint k = 0; k < N_UNPLUGS; k++) {
		g_autofree char *path = g_strdup_printf("/session-faults/unplug/%s-%02u",
							k % 2 ? "in-write" : "before-write", k);

		unplugs[k].at = k;
		if (k % 2)
			unplugs[k].faults.unplug_after_writes = 1;
		else
			unplugs[k].faults.unplugged = true;
		g_test_add_data_func(path, &unplugs[k], test_lasting);
	}
}

/* ---- an export, and an open, that meet a lasting fault ------------------- */

/* How many files folder holds. */
static guint count_files(const char *folder)
{
	g_autoptr(GDir) dir = g_dir_open(folder, 0, NULL);
	guint n = 0;

	while (dir && g_dir_read_name(dir))
		n++;
	return n;
}

/* The export stops; the folder holds the tracks exported before, whole, and no part of one. */
static void test_export_fails(void)
{
	g_autofree char *folder = su_tmp_path("export");
	const struct km_sim_karma_faults stall_forever = { .stall_transfers = SS_FOREVER };
	g_autoptr(KmReport) added = NULL, exported = NULL;
	g_autoptr(GArray) fids = NULL;
	g_autoptr(GError) error = NULL;
	guint n_tunes;
	FuFsckCount fsck;
	FuFixture f;

	fu_open(&f);
	added = su_add(f.session, fu_files(), 3, KM_ADD_FLAGS_NONE, &error);
	g_assert_no_error(error);
	fids = fu_done_fids(added);
	g_assert_cmpuint(fids->len, ==, 3);
	/* The second read of the job: the first track's data is read whole. */
	ss_arm_at_read(f.source, 2, &stall_forever);
	exported = fu_export(&f, fids, folder, &error);
	g_assert_nonnull(error);
	g_test_message("%s", error->message);
	fu_assert_failed_report(&f, exported, error);
	for (guint i = 0; i < exported->items->len; i++) {
		const KmReportItem *item = exported->items->pdata[i];
		g_autofree char *path = item->file ? g_file_get_path(item->file) : NULL;

		g_assert_cmpuint(item->fid, ==, g_array_index(fids, guint32, i));
		g_assert_true((item->outcome == KM_ITEM_DONE) == (path != NULL));
		if (path)
			su_assert_same_bytes(path, fu_files()[i]);
	}
	g_assert_cmpuint(exported->counts[KM_ITEM_DONE], ==, 1);
	g_assert_cmpuint(count_files(folder), ==, 1);
	fu_assert_later_jobs_fail(&f);
	fu_close(&f);

	su_verify_image(f.image, &n_tunes);
	g_assert_cmpuint(n_tunes, ==, KM_DEMO_TRACKS + 3);
	fsck = fu_fsck_music(f.image);
	g_assert_cmpuint(fsck.errors + fsck.stale_mirrors + fsck.leaks, ==, 0);
	fu_free(&f);
}

typedef struct {
	struct km_sim_karma_faults faults;
	/* 0: armed when the sim opens (the USB open fails: G_IO_ERROR); else at this
	 * block-device read, while the library mounts (KM_LIBRARY_ERROR_IO) */
	guint at_read;
} OpenFault;

/* The open job fails with a sentence; the session is closed, the image untouched. */
static void test_open_fails(gconstpointer data)
{
	const OpenFault *fault = data;
	g_autofree char *image = su_demo_image();
	g_autoptr(GError) error = NULL;
	g_autoptr(KmReport) report = NULL;
	SimSource *source;
	KmSession *session;
	guint n_tunes;

	session = ss_session(image, fault->at_read ? NULL : &fault->faults, &source);
	if (fault->at_read)
		ss_arm_at_read(source, fault->at_read, &fault->faults);
	g_assert_false(su_open_session(session, &error));
	g_assert_nonnull(error);
	g_assert_cmpstr(error->message, !=, "");
	g_test_message("%s", error->message);
	if (fault->at_read)
		g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO);
	else
		g_assert_true(error->domain == G_IO_ERROR);
	g_assert_cmpint(km_session_get_state(session), ==, KM_SESSION_STATE_CLOSED);
	g_assert_null(source->sim);
	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_tracks(session)), ==, 0);
	g_clear_error(&error);
	report = su_add(session, fu_files(), 1, KM_ADD_FLAGS_NONE, &error);
	g_assert_null(report);
	g_assert_error(error, KM_SESSION_ERROR, KM_SESSION_ERROR_NOT_OPEN);
	su_close(session);
	su_verify_image(image, &n_tunes);
	g_assert_cmpuint(n_tunes, ==, KM_DEMO_TRACKS);
	g_unlink(image);
}

static const OpenFault unplugged = { { .unplugged = true } };
static const OpenFault riop_silent = { { .never_echo = true } };
static const OpenFault unplug_mounting = { { .unplugged = true }, 3 };
static const OpenFault stalls_mounting = { { .stall_transfers = SS_FOREVER }, 2 };

/*
 * A player whose every RIOP acknowledgement starts with another byte than
 * 0xF0 opens all the same: the kernel's ums-karma never looks at it.
 */
static void test_odd_acks_open(void)
{
	g_autofree char *image = su_demo_image();
	struct km_sim_karma_faults faults = { .bad_acks = SS_FOREVER };
	g_autoptr(GError) error = NULL;
	SimSource *source;
	KmSession *session = ss_session(image, &faults, &source);

	g_assert_true(su_open_session(session, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(g_list_model_get_n_items(km_session_get_tracks(session)), ==,
			 KM_DEMO_TRACKS);
	su_close(session);
	g_unlink(image);
}

/*
 * A failed session dropped without a close (the window went away): finalize
 * lets the device go as close does, without writing back and without a
 * warning, and the image is as after a close.
 */
static void test_finalize_failed(void)
{
	const struct km_sim_karma_faults unplug = { .unplugged = true };
	g_autoptr(KmReport) report = NULL;
	g_autoptr(GError) error = NULL;
	FuFixture f;

	fu_open(&f);
	ss_arm_at_write(f.source, add_job_writes() / 2, &unplug);
	report = su_add(f.session, fu_files(), N_FILES, KM_ADD_FLAGS_NONE, &error);
	fu_assert_failed_report(&f, report, error);
	/* Pending updates hold references on the session. */
	while (g_main_context_pending(NULL))
		g_main_context_iteration(NULL, FALSE);
	g_assert_finalize_object(g_steal_pointer(&f.session));
	assert_image_after_failure(f.image, report);
	fu_free(&f);
}

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
	g_test_add_data_func("/session-faults/lasting/timeouts", &timeouts, test_lasting);
	g_test_add_data_func("/session-faults/lasting/stalls", &stalls, test_lasting);
	g_test_add_data_func("/session-faults/lasting/data-phase-stalls", &data_phase_stalls,
			     test_lasting);
	g_test_add_data_func("/session-faults/lasting/bad-csw-tags", &bad_tags, test_lasting);
	g_test_add_data_func("/session-faults/lasting/bad-csw-signatures", &bad_signatures,
			     test_lasting);
	add_unplugs();
	g_test_add_func("/session-faults/unplug/finalize-without-close", test_finalize_failed);
	g_test_add_func("/session-faults/export/lasting-stalls", test_export_fails);
	g_test_add_data_func("/session-faults/open/unplugged", &unplugged, test_open_fails);
	g_test_add_data_func("/session-faults/open/riop-never-echoes", &riop_silent,
			     test_open_fails);
	g_test_add_func("/session-faults/open/riop-odd-acks-accepted", test_odd_acks_open);
	g_test_add_data_func("/session-faults/open/unplug-while-mounting", &unplug_mounting,
			     test_open_fails);
	g_test_add_data_func("/session-faults/open/stalls-while-mounting", &stalls_mounting,
			     test_open_fails);
	return g_test_run();
}
