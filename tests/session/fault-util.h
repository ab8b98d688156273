/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fault-util.h - what the session fault tests share: host files, a session
 * over the simulated Karma with its `failed` signal recorded, what a failed
 * session must show, and checks of the image afterwards (the tracks' bytes,
 * fsck of the music partition).
 */
#ifndef FAULT_UTIL_H
#define FAULT_UTIL_H

#include "session-test-util.h"
#include "sim-source.h"

/* More files than one commit batch (8): a lasting fault can fall after a commit. */
#define N_FILES 10
#define FILE_SIZE (300u << 10)

/* N_FILES WAV files of about FILE_SIZE bytes, made once: every case has an image of its own. */
char **fu_files(void);

/* A session on a copy of the demo image behind the sim, and what `failed` said. */
typedef struct {
	char *image;
	SimSource *source;
	KmSession *session;
	guint n_failed;
	GError *fail_error;
	KmReport *fail_report;
} FuFixture;

/* Opened (asserts success), `failed` recorded. */
void fu_open(FuFixture *f);
/* Closing ends, and succeeds, whatever happened to the device. */
void fu_close(FuFixture *f);
/* After fu_close: the image is removed. */
void fu_free(FuFixture *f);

/* Export fids into folder ("%t.%c"); the report, as km_session_export_finish(). */
KmReport *fu_export(FuFixture *f, const GArray *fids, const char *folder, GError **error);
/* The fids of the report's items that are done. */
GArray *fu_done_fids(const KmReport *report);

/* The report of a job the device failed (error: the job's): every file accounted for. */
void fu_assert_failed_report(FuFixture *f, const KmReport *report, const GError *error);
/* The session's list shows the tracks of the demo and those the add committed. */
void fu_assert_listed(FuFixture *f, const KmReport *added);
/* After the failure, every job fails at once, and `failed` is not emitted again. */
void fu_assert_later_jobs_fail(FuFixture *f);

/* Each done item of the add report is on the image with the bytes of its host file. */
void fu_assert_image_tracks(const char *image, const KmReport *added);

typedef struct {
	guint errors;		/* worse than leaked blocks or a stale mirror */
	guint stale_mirrors;	/* a mirror copy left old (the core writes the primary first) */
	guint leaks;
} FuFsckCount;
/* fsck of the image's music partition (read-only), findings logged. */
FuFsckCount fu_fsck_music(const char *image);

#endif
