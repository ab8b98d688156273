/* SPDX-License-Identifier: GPL-2.0-or-later */
/* session-test-util.c - helpers of the KmSession tests (session-test-util.h). */
#include "session-test-util.h"
#include "omfs.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "km-demo.h"
#include "km-image-device.h"
#include "km-karma-image.h"
#include "km-verify.h"

static char *tmpdir;
static guint counter;

static void remove_tmpdir(void)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", tmpdir);

	g_assert_cmpint(system(cmd), ==, 0);
}

static const char *su_tmpdir(void)
{
	if (!tmpdir) {
		g_autoptr(GError) error = NULL;

		tmpdir = g_dir_make_tmp("km-session-XXXXXX", &error);
		g_assert_no_error(error);
		atexit(remove_tmpdir);
	}
	return tmpdir;
}

char *su_tmp_path(const char *name)
{
	g_autofree char *unique = g_strdup_printf("%u-%s", ++counter, name);

	return g_build_filename(su_tmpdir(), unique, NULL);
}

void su_store_result(GObject *source, GAsyncResult *result, gpointer data)
{
	GAsyncResult **out = data;

	g_assert_null(*out);
	*out = g_object_ref(result);
}

/* A job that never ends is a hang: fail the test rather than wait for meson's timeout. */
static gboolean wait_too_long(gpointer data)
{
	g_error("a session job did not end within %u s", SU_WAIT_LIMIT_S);
	return G_SOURCE_REMOVE;
}

GAsyncResult *su_wait(GAsyncResult **result)
{
	guint guard = g_timeout_add_seconds(SU_WAIT_LIMIT_S, wait_too_long, NULL);

	while (!*result)
		g_main_context_iteration(NULL, TRUE);
	g_source_remove(guard);
	return *result;
}

static void copy_file(const char *from, const char *to)
{
	g_autoptr(GFile) src = g_file_new_for_path(from);
	g_autoptr(GFile) dst = g_file_new_for_path(to);
	g_autoptr(GError) error = NULL;

	g_file_copy(src, dst, G_FILE_COPY_NONE, NULL, NULL, NULL, &error);
	g_assert_no_error(error);
}

char *su_demo_image(void)
{
	static char *master;
	char *path = su_tmp_path("demo.img");

	if (!master) {
		g_autoptr(GError) error = NULL;

		master = g_build_filename(su_tmpdir(), "demo-master.img", NULL);
		g_assert_true(km_demo_create_image(master, KM_DEMO_IMAGE_SIZE, KM_DEMO_TRACKS,
						   NULL, &error));
		g_assert_no_error(error);
	}
	copy_file(master, path);
	return path;
}

char *su_empty_image(guint64 size)
{
	char *path = su_tmp_path("empty.img");
	g_autoptr(GError) error = NULL;

	g_assert_true(km_karma_image_create(path, size, 1700000000, &error));
	g_assert_no_error(error);
	return path;
}

gboolean su_open_session(KmSession *session, GError **error)
{
	g_autoptr(GAsyncResult) result = NULL;

	km_session_open_async(session, NULL, NULL, NULL, NULL, su_store_result, &result);
	return km_session_open_finish(session, su_wait(&result), error);
}

KmSession *su_open(const char *image)
{
	KmSession *session = km_session_new_for_path(image);
	g_autoptr(GError) error = NULL;

	g_assert_true(su_open_session(session, &error));
	g_assert_no_error(error);
	g_assert_cmpint(km_session_get_state(session), ==, KM_SESSION_STATE_OPEN);
	return session;
}

void su_close(KmSession *session)
{
	g_autoptr(GAsyncResult) result = NULL;
	g_autoptr(GError) error = NULL;

	km_session_close_async(session, NULL, su_store_result, &result);
	g_assert_true(km_session_close_finish(session, su_wait(&result), &error));
	g_assert_no_error(error);
	/* The result is the task, which holds the session; so do pending progress updates. */
	g_clear_object(&result);
	while (g_main_context_pending(NULL))
		g_main_context_iteration(NULL, FALSE);
	g_assert_cmpint(km_session_get_state(session), ==, KM_SESSION_STATE_CLOSED);
	g_assert_finalize_object(session);
}

char *su_demo_wav(const char *folder, guint i)
{
	g_autofree char *name = g_strdup_printf("demo-%u.wav", i);
	g_autoptr(GBytes) wav = km_demo_track_wav(i);
	char *path = folder ? g_build_filename(folder, name, NULL) : su_tmp_path(name);
	gsize len;
	const char *data = g_bytes_get_data(wav, &len);

	g_assert_true(g_file_set_contents(path, data, (gssize)len, NULL));
	return path;
}

static void put_le32(guint8 *p, guint32 v)
{
	for (guint i = 0; i < 4; i++)
		p[i] = (guint8)(v >> (8 * i));
}

static void put_le16(guint8 *p, guint16 v)
{
	p[0] = (guint8)v;
	p[1] = (guint8)(v >> 8);
}

/* 44.1 kHz 16-bit stereo PCM: noise from seed, so every file has its own rid. */
char *su_big_wav(const char *name, gsize size, guint seed)
{
	char *path = su_tmp_path(name);
	gsize data_len = (size - 44) & ~(gsize)3;
	guint8 *file = g_malloc0(44 + data_len);
	guint32 x = seed * 2654435761u + 1;

	memcpy(file, "RIFF", 4);
	put_le32(file + 4, (guint32)(36 + data_len));
	memcpy(file + 8, "WAVEfmt ", 8);
	put_le32(file + 16, 16);
	put_le16(file + 20, 1);
	put_le16(file + 22, 2);
	put_le32(file + 24, 44100);
	put_le32(file + 28, 44100 * 4);
	put_le16(file + 32, 4);
	put_le16(file + 34, 16);
	memcpy(file + 36, "data", 4);
	put_le32(file + 40, (guint32)data_len);
	for (gsize i = 0; i < data_len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		file[44 + i] = (guint8)x;
	}
	g_assert_true(g_file_set_contents(path, (const char *)file, (gssize)(44 + data_len), NULL));
	g_free(file);
	return path;
}

char *su_text_file(const char *name)
{
	char *path = su_tmp_path(name);
	GString *text = g_string_new(NULL);

	for (guint i = 0; i < 100; i++)
		g_string_append_printf(text, "line %u of a file that is not music\n", i);
	g_assert_true(g_file_set_contents(path, text->str, (gssize)text->len, NULL));
	g_string_free(text, TRUE);
	return path;
}

KmReport *su_add(KmSession *session, char **paths, guint n, KmAddFlags flags, GError **error)
{
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_object_unref);
	g_autoptr(GAsyncResult) result = NULL;

	for (guint i = 0; i < n; i++)
		g_ptr_array_add(files, g_file_new_for_path(paths[i]));
	km_session_add_files_async(session, (GFile *const *)files->pdata, n, NULL, flags, NULL,
				   NULL, NULL, NULL, su_store_result, &result);
	return km_session_add_files_finish(session, su_wait(&result), error);
}

gboolean su_edit_wait(KmSession *session, GAsyncResult **result, GError **error)
{
	gboolean ok = km_session_edit_finish(session, su_wait(result), error);

	g_clear_object(result);
	return ok;
}

KmLibrary *su_image_open(const char *image, struct km_image_device **dev)
{
	const KmLibraryOptions options = { .writable = TRUE };
	g_autoptr(GError) error = NULL;
	char msg[OMFS_ERRMSG_MAX];
	KmLibrary *lib;

	*dev = km_image_device_open(image, true, 0, 0, msg, sizeof(msg));
	g_assert_nonnull(*dev);
	lib = km_library_open(km_image_device_blockdev(*dev), &options, &error);
	g_assert_no_error(error);
	return lib;
}

void su_image_close(KmLibrary *lib, struct km_image_device *dev)
{
	g_autoptr(GError) error = NULL;

	g_assert_true(km_library_close(lib, &error));
	g_assert_no_error(error);
	g_object_unref(lib);
	g_assert_cmpint(km_image_device_close(dev), ==, 0);
}

guint su_verify_image(const char *image, guint *n_tunes)
{
	struct km_image_device *dev;
	KmLibrary *lib = su_image_open(image, &dev);
	g_autoptr(GError) error = NULL;
	g_autoptr(KmVerifyReport) report = km_library_verify(lib, KM_VERIFY_FLAGS_NONE, NULL, &error);
	g_autoptr(GPtrArray) objects = km_library_list(lib);
	guint n = km_library_get_n_objects(lib);

	g_assert_no_error(error);
	for (guint i = 0; i < report->findings->len; i++) {
		KmVerifyFinding *finding = report->findings->pdata[i];

		g_test_message("finding: %s", finding->message);
	}
	g_assert_cmpuint(report->findings->len, ==, 0);
	*n_tunes = 0;
	for (guint i = 0; i < objects->len; i++)
		if (g_strcmp0(km_properties_get(objects->pdata[i], "type"), "tune") == 0)
			(*n_tunes)++;
	su_image_close(lib, dev);
	return n;
}

char *su_image_get(const char *image, guint32 fid, const char *key)
{
	struct km_image_device *dev;
	KmLibrary *lib = su_image_open(image, &dev);
	KmProperties *props = km_library_lookup(lib, fid);
	char *value;

	g_assert_nonnull(props);
	value = g_strdup(km_properties_get(props, key));
	su_image_close(lib, dev);
	return value;
}

GArray *su_track_fids(KmSession *session)
{
	GListModel *tracks = km_session_get_tracks(session);
	GArray *fids = g_array_new(FALSE, FALSE, sizeof(guint32));

	for (guint i = 0; i < g_list_model_get_n_items(tracks); i++) {
		g_autoptr(KmTrack) track = g_list_model_get_item(tracks, i);
		guint32 fid = km_track_get_fid(track);

		g_array_append_val(fids, fid);
	}
	return fids;
}

void su_assert_same_bytes(const char *path, const char *want_path)
{
	g_autofree char *got = NULL, *want = NULL;
	gsize got_len, want_len;

	g_assert_true(g_file_get_contents(path, &got, &got_len, NULL));
	g_assert_true(g_file_get_contents(want_path, &want, &want_len, NULL));
	g_assert_cmpmem(got, got_len, want, want_len);
}

struct _SuGate {
	struct omfs_blockdev bdev;
	char *path;
	struct km_image_device *image;
	const struct omfs_blockdev *inner;
	GMutex lock;
	GCond cond;
	guint64 written, read;
	guint64 stop_at;	/* 0: not armed */
	gboolean on_reads;	/* armed on the bytes read, not written */
	gboolean waiting;
};

/* Count len bytes read or written; once armed and past stop_at, wait for the release. */
static void gate_pass(SuGate *gate, gboolean reading, size_t len)
{
	g_mutex_lock(&gate->lock);
	if (reading)
		gate->read += len;
	else
		gate->written += len;
	if (gate->stop_at && gate->on_reads == reading &&
	    (reading ? gate->read : gate->written) >= gate->stop_at) {
		gate->waiting = TRUE;
		g_cond_broadcast(&gate->cond);
		while (gate->stop_at)
			g_cond_wait(&gate->cond, &gate->lock);
		gate->waiting = FALSE;
	}
	g_mutex_unlock(&gate->lock);
}

static int gate_read(void *ctx, uint64_t offset, void *buf, size_t len)
{
	SuGate *gate = ctx;

	gate_pass(gate, TRUE, len);
	return gate->inner->read(gate->inner->ctx, offset, buf, len);
}

static int gate_write(void *ctx, uint64_t offset, const void *buf, size_t len)
{
	SuGate *gate = ctx;

	gate_pass(gate, FALSE, len);
	return gate->inner->write(gate->inner->ctx, offset, buf, len);
}

static int gate_flush(void *ctx)
{
	SuGate *gate = ctx;

	return gate->inner->flush(gate->inner->ctx);
}

static uint64_t gate_size(void *ctx)
{
	SuGate *gate = ctx;

	return gate->inner->size(gate->inner->ctx);
}

static const struct omfs_blockdev *gate_open(gpointer data, KmSession *session,
					     GCancellable *cancellable, GError **error)
{
	SuGate *gate = data;
	char msg[OMFS_ERRMSG_MAX];

	gate->image = km_image_device_open(gate->path, true, 0, 0, msg, sizeof(msg));
	g_assert_nonnull(gate->image);
	gate->inner = km_image_device_blockdev(gate->image);
	gate->bdev = (struct omfs_blockdev){ gate, gate_read, gate_write, gate_flush, gate_size };
	return &gate->bdev;
}

static gboolean gate_close(gpointer data, GError **error)
{
	SuGate *gate = data;

	g_assert_cmpint(km_image_device_close(gate->image), ==, 0);
	gate->image = NULL;
	return TRUE;
}

static void gate_free(gpointer data)
{
	SuGate *gate = data;

	if (gate->image)
		km_image_device_close(gate->image);
	g_mutex_clear(&gate->lock);
	g_cond_clear(&gate->cond);
	g_free(gate->path);
	g_free(gate);
}

static const KmSessionSourceFuncs gate_funcs = { gate_open, gate_close, gate_free };

KmSession *su_gate_session(const char *image, SuGate **out)
{
	SuGate *gate = g_new0(SuGate, 1);

	g_mutex_init(&gate->lock);
	g_cond_init(&gate->cond);
	gate->path = g_strdup(image);
	*out = gate;
	return km_session_new_for_source("Gate", &gate_funcs, gate);
}

void su_gate_arm(SuGate *gate, guint64 bytes)
{
	g_mutex_lock(&gate->lock);
	gate->on_reads = FALSE;
	gate->stop_at = gate->written + bytes;
	g_mutex_unlock(&gate->lock);
}

void su_gate_arm_reads(SuGate *gate, guint64 bytes)
{
	g_mutex_lock(&gate->lock);
	gate->on_reads = TRUE;
	gate->stop_at = gate->read + bytes;
	g_mutex_unlock(&gate->lock);
}

void su_gate_wait(SuGate *gate)
{
	gboolean waiting = FALSE;

	while (!waiting) {
		g_main_context_iteration(NULL, FALSE);
		g_mutex_lock(&gate->lock);
		if (!gate->waiting)
			g_cond_wait_until(&gate->cond, &gate->lock,
					  g_get_monotonic_time() + G_TIME_SPAN_MILLISECOND * 10);
		waiting = gate->waiting;
		g_mutex_unlock(&gate->lock);
	}
}

void su_gate_release(SuGate *gate)
{
	g_mutex_lock(&gate->lock);
	gate->stop_at = 0;
	g_cond_broadcast(&gate->cond);
	g_mutex_unlock(&gate->lock);
}
