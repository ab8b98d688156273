/* SPDX-License-Identifier: GPL-2.0-or-later */
/* library-test-util.c - see library-test-util.h. */
#include "library-test-util.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "km-fid.h"
#include "km-smalldb.h"
#include "km-verify.h"

gint64 tu_now = TU_START_TIME;

static gint64 test_clock(gpointer data)
{
	return tu_now;
}

void tu_make_volume(const struct omfs_blockdev *dev)
{
	struct omfs_mkfs_opts mkfs = { .time_ms = (guint64)TU_START_TIME * 1000 };
	g_autoptr(GError) error = NULL;
	char msg[OMFS_ERRMSG_MAX] = "";

	g_assert_cmpint(omfs_mkfs(dev, &mkfs, msg, sizeof(msg)), ==, 0);
	km_library_create_layout(dev, TU_START_TIME, &error);
	g_assert_no_error(error);
}

struct km_mem_device *tu_new_volume(guint64 size)
{
	struct km_mem_device *m = km_mem_device_new(size, NULL);

	g_assert_nonnull(m);
	tu_make_volume(&m->bdev);
	return m;
}

static KmLibrary *open_with(const struct omfs_blockdev *dev, gboolean writable, gboolean scan)
{
	KmLibraryOptions opts = { .writable = writable, .scan = scan, .clock = test_clock };
	g_autoptr(GError) error = NULL;
	KmLibrary *lib = km_library_open(dev, &opts, &error);

	g_assert_no_error(error);
	g_assert_nonnull(lib);
	return lib;
}

KmLibrary *tu_open(const struct omfs_blockdev *dev, gboolean writable)
{
	return open_with(dev, writable, FALSE);
}

KmLibrary *tu_open_scan(const struct omfs_blockdev *dev)
{
	return open_with(dev, FALSE, TRUE);
}

void tu_close(KmLibrary *lib)
{
	g_autoptr(GError) error = NULL;

	km_library_close(lib, &error);
	g_assert_no_error(error);
	g_assert_finalize_object(lib);
}

/* ---- host files ---- */

static char *tmpdir;

static void remove_tree(const char *path)
{
	g_autoptr(GDir) dir = g_dir_open(path, 0, NULL);
	const char *name;

	while (dir && (name = g_dir_read_name(dir))) {
		g_autofree char *child = g_build_filename(path, name, NULL);

		if (g_file_test(child, G_FILE_TEST_IS_DIR) &&
		    !g_file_test(child, G_FILE_TEST_IS_SYMLINK))
			remove_tree(child);
		else
			g_remove(child);
	}
	g_rmdir(path);
}

static void remove_tmpdir(void)
{
	if (tmpdir)
		remove_tree(tmpdir);
	g_free(tmpdir);
}

const char *tu_tmpdir(void)
{
	if (!tmpdir) {
		g_autoptr(GError) error = NULL;

		tmpdir = g_dir_make_tmp("km-library-test-XXXXXX", &error);
		g_assert_no_error(error);
		atexit(remove_tmpdir);
	}
	return tmpdir;
}

char *tu_host_file(const char *name, gsize size, guint seed)
{
	char *path = g_build_filename(tu_tmpdir(), name, NULL);
	guint8 *data = g_malloc(size ? size : 1);
	guint32 x = seed * 2654435761u + 1;

	for (gsize i = 0; i < size; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		data[i] = (guint8)x;
	}
	g_assert_true(g_file_set_contents(path, (const char *)data, (gssize)size, NULL));
	g_free(data);
	return path;
}

static void put_le(guint8 *p, guint32 v, guint n)
{
	for (guint i = 0; i < n; i++)
		p[i] = (guint8)(v >> (8 * i));
}

/* A PCM WAV (16-bit stereo, 44.1 kHz) of silence, of about size bytes. */
char *tu_wav_file(const char *name, gsize size)
{
	char *path = g_build_filename(tu_tmpdir(), name, NULL);
	guint32 data_len = (guint32)((size - 44) & ~(gsize)3);
	guint8 *file = g_malloc0(44 + data_len);

	memcpy(file, "RIFF", 4);
	put_le(file + 4, 36 + data_len, 4);
	memcpy(file + 8, "WAVEfmt ", 8);
	put_le(file + 16, 16, 4);
	put_le(file + 20, 1, 2);
	put_le(file + 22, 2, 2);
	put_le(file + 24, 44100, 4);
	put_le(file + 28, 44100 * 4, 4);
	put_le(file + 32, 4, 2);
	put_le(file + 34, 16, 2);
	memcpy(file + 36, "data", 4);
	put_le(file + 40, data_len, 4);
	g_assert_true(g_file_set_contents(path, (const char *)file, 44 + data_len, NULL));
	g_free(file);
	return path;
}

GBytes *tu_host_bytes(const char *path)
{
	g_autoptr(GError) error = NULL;
	char *data;
	gsize len;

	g_file_get_contents(path, &data, &len, &error);
	g_assert_no_error(error);
	return g_bytes_new_take(data, len);
}

KmProperties *tu_track_props(guint i)
{
	static const char *const artists[] = { "The Who", "Zed", "Émile", "the Beatles", "Abba" };
	static const char *const genres[] = { "Rock", "Jazz", "Pop" };
	KmProperties *p = km_properties_new();
	g_autofree char *title = g_strdup_printf("Track %u", i);
	g_autofree char *album = g_strdup_printf("Album %u", i % 3);
	g_autofree char *rid = g_compute_checksum_for_string(G_CHECKSUM_MD5, title, -1);
	g_autoptr(GBytes) empty = g_bytes_new_static("", 0);

	km_properties_set(p, "type", "tune");
	km_properties_set(p, "codec", "mp3");
	km_properties_set(p, "title", title);
	km_properties_set(p, "artist", artists[i % G_N_ELEMENTS(artists)]);
	km_properties_set(p, "source", album);
	km_properties_set(p, "genre", genres[i % G_N_ELEMENTS(genres)]);
	km_properties_set_uint(p, "year", 1990 + i % 20);
	km_properties_set_uint(p, "tracknr", i % 20 + 1);
	km_properties_set_uint(p, "duration", 1000 * (i + 1));
	km_properties_set_uint(p, "samplerate", 44100);
	km_properties_set(p, "bitrate", "fs128");
	km_properties_set_uint(p, "offset", 0);
	km_properties_set(p, "rid", rid);
	km_properties_set_uint(p, "ctime", TU_START_TIME - 1000 + i);
	km_properties_set_blob(p, "profile", empty);
	return p;
}

guint32 tu_add(KmTransaction *tx, const char *path, guint i)
{
	g_autoptr(KmProperties) props = tu_track_props(i);
	g_autoptr(GError) error = NULL;
	guint32 fid = 0;

	km_transaction_add_file(tx, props, path, NULL, NULL, NULL, &fid, &error);
	g_assert_no_error(error);
	g_assert_true(km_fid_is_valid(fid) && fid >= KM_FID_FIRST);
	return fid;
}

void tu_commit(KmTransaction *tx)
{
	g_autoptr(GError) error = NULL;

	km_transaction_commit(tx, &error);
	g_assert_no_error(error);
}

/* ---- the core's view ---- */

struct omfs_fs *tu_mount(const struct omfs_blockdev *dev)
{
	struct omfs_mount_opts opts = { .read_only = FALSE };
	char msg[OMFS_ERRMSG_MAX] = "";
	struct omfs_fs *fs = NULL;
	int err = omfs_mount(dev, &opts, &fs, msg, sizeof(msg));

	if (err)
		g_error("mount: %s", msg);
	return fs;
}

GBytes *tu_fs_read(struct omfs_fs *fs, const char *path)
{
	struct omfs_stat st;
	uint64_t ino;
	guint8 *data;

	if (omfs_resolve(fs, path, &ino) != 0)
		return NULL;
	g_assert_cmpint(omfs_stat(fs, ino, &st), ==, 0);
	data = g_malloc(st.size + 1);
	g_assert_cmpint(omfs_read(fs, ino, 0, data, st.size), ==, (gint64)st.size);
	return g_bytes_new_take(data, st.size);
}

gboolean tu_fs_exists(struct omfs_fs *fs, const char *path)
{
	uint64_t ino;

	return omfs_resolve(fs, path, &ino) == 0;
}

static uint64_t parent_of(struct omfs_fs *fs, const char *path, const char **name)
{
	g_autofree char *dir = g_path_get_dirname(path);
	uint64_t ino;

	*name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	g_assert_cmpint(omfs_resolve(fs, strcmp(dir, ".") == 0 ? "" : dir, &ino), ==, 0);
	return ino;
}

void tu_fs_unlink(struct omfs_fs *fs, const char *path)
{
	const char *name;
	uint64_t dir = parent_of(fs, path, &name);

	g_assert_cmpint(omfs_unlink(fs, dir, name, strlen(name)), ==, 0);
}

void tu_fs_write(struct omfs_fs *fs, const char *path, const void *data, gsize len)
{
	const char *name;
	uint64_t dir = parent_of(fs, path, &name), ino;

	omfs_unlink(fs, dir, name, strlen(name));
	g_assert_cmpint(omfs_create(fs, dir, name, strlen(name), &ino), ==, 0);
	if (len)
		g_assert_cmpint(omfs_write(fs, ino, 0, data, len), ==, (gint64)len);
}

GPtrArray *tu_smalldb_rows(struct omfs_fs *fs)
{
	g_autoptr(GBytes) bytes = tu_fs_read(fs, "var/smalldb");
	g_autoptr(GError) error = NULL;
	GPtrArray *rows;

	g_assert_nonnull(bytes);
	rows = km_smalldb_parse(bytes, NULL, NULL, &error);
	g_assert_no_error(error);
	return rows;
}

KmProperties *tu_fs_props(struct omfs_fs *fs, guint32 fid)
{
	g_autofree char *path = km_fid_to_path(fid, KM_FID_FILE_PROPERTIES);
	g_autoptr(GBytes) bytes = tu_fs_read(fs, path);
	g_autoptr(GError) error = NULL;
	KmProperties *p;

	g_assert_nonnull(bytes);
	p = km_properties_parse(g_bytes_get_data(bytes, NULL), g_bytes_get_size(bytes), &error);
	g_assert_no_error(error);
	km_properties_set_fid(p, fid);
	return p;
}

GBytes *tu_library_data(KmLibrary *lib, guint32 fid)
{
	g_autoptr(GError) error = NULL;
	guint64 size = 0;
	guint8 *data;

	km_library_get_data_size(lib, fid, &size, &error);
	g_assert_no_error(error);
	data = g_malloc(size + 1);
	g_assert_cmpint(km_library_read_data(lib, fid, 0, data, size, &error), ==, (gssize)size);
	g_assert_no_error(error);
	return g_bytes_new_take(data, size);
}

const char *tu_get(KmLibrary *lib, guint32 fid, const char *key)
{
	KmProperties *object = km_library_lookup(lib, fid);

	g_assert_nonnull(object);
	return km_properties_get(object, key);
}

void tu_assert_rows(KmLibrary *lib, GPtrArray *want)
{
	g_assert_cmpuint(km_library_get_n_objects(lib), ==, want->len);
	for (guint i = 0; i < want->len; i++) {
		guint32 fid = km_properties_get_fid(want->pdata[i]);
		KmProperties *got = km_library_lookup(lib, fid);
		const char *column = NULL;

		g_assert_nonnull(got);
		if (!km_smalldb_row_equal(want->pdata[i], got, &column))
			g_error("fid %u: %s differs", fid, column);
	}
}

void tu_assert_verifies_clean(KmLibrary *lib)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmVerifyReport) report = km_library_verify(lib, KM_VERIFY_FLAGS_NONE, NULL, &error);

	g_assert_no_error(error);
	for (guint i = 0; i < report->findings->len; i++) {
		KmVerifyFinding *f = report->findings->pdata[i];

		g_test_message("finding: %s: %s", km_verify_kind_name(f->kind), f->message);
	}
	g_assert_cmpuint(report->findings->len, ==, 0);
}

struct fsck_count {
	guint errors;
	guint stale_mirrors;
};

static void count_errors(void *ctx, enum omfs_fsck_severity sev, const char *msg)
{
	struct fsck_count *c = ctx;

	if (sev != OMFS_FSCK_ERROR)
		return;
	g_test_message("fsck: %s", msg);
	if (strstr(msg, "mirror copy") && strstr(msg, "differs from the primary copy"))
		c->stale_mirrors++;
	else
		c->errors++;
}

static struct fsck_count fsck_count(const struct omfs_blockdev *dev)
{
	struct fsck_count c = { 0 };
	struct omfs_fsck_opts opts = { .report = count_errors, .report_ctx = &c };
	struct omfs_fsck_result res;

	omfs_fsck(dev, &opts, &res);
	return c;
}

void tu_assert_fsck_leaks_only(const struct omfs_blockdev *dev)
{
	struct fsck_count c = fsck_count(dev);

	g_assert_cmpuint(c.errors + c.stale_mirrors, ==, 0);
}

guint tu_assert_fsck_after_cut(const struct omfs_blockdev *dev)
{
	struct fsck_count c = fsck_count(dev);

	g_assert_cmpuint(c.errors, ==, 0);
	return c.stale_mirrors;
}
