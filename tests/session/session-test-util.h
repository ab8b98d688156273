/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session-test-util.h - what the KmSession tests share: waiting for a job on
 * the main context, host audio files made here, Karma images, and checks
 * that open an image with the library directly (after the session closed).
 */
#ifndef SESSION_TEST_UTIL_H
#define SESSION_TEST_UTIL_H

#include "km-session-private.h"

/*
 * A fresh path in a temporary folder (removed at exit): name with a counter,
 * so tests never share files.
 */
char *su_tmp_path(const char *name);

/*
 * Iterate the main context until *result is set (by su_store_result). A job
 * that has not ended after SU_WAIT_LIMIT_S seconds fails the test: a hang.
 */
#define SU_WAIT_LIMIT_S 120
void su_store_result(GObject *source, GAsyncResult *result, gpointer data);
GAsyncResult *su_wait(GAsyncResult **result);

/* A copy of the demo image (made once per run), for a test to change. */
char *su_demo_image(void);
/* An empty whole Karma disk image of size bytes. */
char *su_empty_image(guint64 size);

/* A session on image, opened (asserts success); close it with su_close. */
KmSession *su_open(const char *image);
void su_close(KmSession *session);
/* Open and close only (for a job's error). */
gboolean su_open_session(KmSession *session, GError **error);

/* Demo WAV track i (km_demo_track_wav) as a host file in folder (NULL: a fresh one). */
char *su_demo_wav(const char *folder, guint i);
/* A PCM WAV file of about size bytes whose samples are a function of seed. */
char *su_big_wav(const char *name, gsize size, guint seed);
/* A file of text: no audio. */
char *su_text_file(const char *name);

/* Add paths; returns the report (error as the finish gives it). */
KmReport *su_add(KmSession *session, char **paths, guint n, KmAddFlags flags, GError **error);
gboolean su_edit_wait(KmSession *session, GAsyncResult **result, GError **error);

/* The image opened writable by the library directly (asserts success), and closed. */
struct km_image_device;
KmLibrary *su_image_open(const char *image, struct km_image_device **dev);
void su_image_close(KmLibrary *lib, struct km_image_device *dev);
/* The image, opened by the library directly: verifies clean; its objects' count. */
guint su_verify_image(const char *image, guint *n_tunes);
/* A property of fid in image, read by the library directly (NULL: absent). */
char *su_image_get(const char *image, guint32 fid, const char *key);
/* The fids of the session's tracks list, in order. */
GArray *su_track_fids(KmSession *session);
/* The file at path holds the same bytes as the one at want_path. */
void su_assert_same_bytes(const char *path, const char *want_path);


/*
 * A session on image whose device stops in a write once armed: the worker
 * waits there until released, so a test can act "in the middle" of a job
 * without depending on timing. The session owns the gate.
 */
typedef struct _SuGate SuGate;
KmSession *su_gate_session(const char *image, SuGate **gate);
/* Stop in the write that passes bytes more bytes written from now. */
void su_gate_arm(SuGate *gate, guint64 bytes);
/* The same, on the bytes read. */
void su_gate_arm_reads(SuGate *gate, guint64 bytes);
/* Iterate the main context until the worker waits at the gate. */
void su_gate_wait(SuGate *gate);
void su_gate_release(SuGate *gate);

#endif
