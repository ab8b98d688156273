/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * library-test-util.h - what the KmLibrary tests share: volumes in memory,
 * host files, tracks described by hand (km-import is tested on its own),
 * and checks that read the disk through the OMFS core, not the library.
 */
#ifndef LIBRARY_TEST_UTIL_H
#define LIBRARY_TEST_UTIL_H

#include <gio/gio.h>

#include "km-library.h"
#include "km-mem-device.h"
#include "km-transaction.h"

/* The time the test clock shows (Unix seconds); tests may move it. */
extern gint64 tu_now;
#define TU_START_TIME 1700000000

/* A fresh OMFS volume of size bytes with fids0/, var/ and an empty smalldb. */
struct km_mem_device *tu_new_volume(guint64 size);
/* mkfs + create_layout on any device. */
void tu_make_volume(const struct omfs_blockdev *dev);
/* Open with the test clock; asserts success. */
KmLibrary *tu_open(const struct omfs_blockdev *dev, gboolean writable);
KmLibrary *tu_open_scan(const struct omfs_blockdev *dev);
void tu_close(KmLibrary *lib);

/* A temporary folder, removed at exit. */
const char *tu_tmpdir(void);
/* A host file of size bytes, its content a function of seed. */
char *tu_host_file(const char *name, gsize size, guint seed);
/* A PCM WAV (16-bit stereo, 44.1 kHz) of silence, of about size bytes. */
char *tu_wav_file(const char *name, gsize size);
GBytes *tu_host_bytes(const char *path);
/* A tune as km-import would describe one (no length: the library sets it). */
KmProperties *tu_track_props(guint i);
/* Add host file path as track i; returns its fid. */
guint32 tu_add(KmTransaction *tx, const char *path, guint i);
void tu_commit(KmTransaction *tx);

/* Reading the volume with the core alone. */
struct omfs_fs *tu_mount(const struct omfs_blockdev *dev);
/* A whole file, or NULL when path does not exist. */
GBytes *tu_fs_read(struct omfs_fs *fs, const char *path);
gboolean tu_fs_exists(struct omfs_fs *fs, const char *path);
void tu_fs_write(struct omfs_fs *fs, const char *path, const void *data, gsize len);
void tu_fs_unlink(struct omfs_fs *fs, const char *path);
/* The rows of var/smalldb (asserts it parses). */
GPtrArray *tu_smalldb_rows(struct omfs_fs *fs);
/* The properties file of fid (asserts it parses). */
KmProperties *tu_fs_props(struct omfs_fs *fs, guint32 fid);

GBytes *tu_library_data(KmLibrary *lib, guint32 fid);
/* A property of the committed object fid (which must exist). */
const char *tu_get(KmLibrary *lib, guint32 fid, const char *key);
/* Each object of want (KmProperties*, ascending fid) has the same smalldb row in lib. */
void tu_assert_rows(KmLibrary *lib, GPtrArray *want);
/* No finding at all. */
void tu_assert_verifies_clean(KmLibrary *lib);
/* Everything fsck finds is leaked blocks at worst. */
void tu_assert_fsck_leaks_only(const struct omfs_blockdev *dev);
/*
 * The same after a power cut, except for a sysblock whose mirror copy was not
 * rewritten yet (the core writes the primary, then each mirror: a cut in
 * between leaves the mirror old, which fsck reports). Returns how many.
 */
guint tu_assert_fsck_after_cut(const struct omfs_blockdev *dev);

#endif
