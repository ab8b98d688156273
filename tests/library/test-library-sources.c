/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-library-sources.c - var/km-sources (docs/KARMA.md §11.1) through
 * the library: a source noted for an added track is known after the commit
 * and a reopen; it is forgotten once its track is removed, and dropped from
 * the file at the next write; a file the library cannot read is a warning,
 * never damage, and verify stays clean.
 */
#include <string.h>

#include "library-test-util.h"

#define VOLUME_SIZE (8u << 20)
#define SOURCE_A "1f40-00112233445566778899aabbccddeeff"
#define SOURCE_B "3e80-ffeeddccbbaa99887766554433221100"

static gboolean knows(KmLibrary *lib, const char *id, guint32 *fid)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmTransaction) tx = km_library_begin(lib, &error);
	gboolean known;

	g_assert_no_error(error);
	known = km_transaction_find_source(tx, id, fid);
	g_assert_true(km_transaction_rollback(tx, NULL));
	return known;
}

/* Add a track for path, noting source id for it; its fid. */
static guint32 add_converted(KmLibrary *lib, const char *path, guint i, const char *id)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmTransaction) tx = km_library_begin(lib, &error);
	guint32 fid, found = 0;

	g_assert_no_error(error);
	fid = tu_add(tx, path, i);
	km_transaction_note_source(tx, id, fid);
	g_assert_true(km_transaction_find_source(tx, id, &found));
	g_assert_cmpuint(found, ==, fid);
	tu_commit(tx);
	return fid;
}

static guint n_lines(const struct omfs_blockdev *dev)
{
	struct omfs_fs *fs = tu_mount(dev);
	g_autoptr(GBytes) bytes = tu_fs_read(fs, "var/km-sources");
	gsize len;
	const char *text = g_bytes_get_data(bytes, &len);
	guint lines = 0;

	g_assert_cmpuint(len, >=, 7);
	g_assert_cmpmem(text, 7, "KMSRC1\n", 7);
	for (gsize i = 0; i < len; i++)
		lines += text[i] == '\n';
	omfs_unmount(fs);
	return lines - 1;
}

static void test_known_until_removed(void)
{
	struct km_mem_device *m = tu_new_volume(VOLUME_SIZE);
	g_autofree char *a = tu_host_file("a", 20000, 1);
	g_autofree char *b = tu_host_file("b", 30000, 2);
	g_autoptr(GError) error = NULL;
	KmTransaction *tx;
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	guint32 fid_a, fid_b, found = 0;

	g_assert_false(knows(lib, SOURCE_A, &found));
	fid_a = add_converted(lib, a, 1, SOURCE_A);
	tu_close(lib);
	g_assert_cmpuint(n_lines(&m->bdev), ==, 1);

	lib = tu_open(&m->bdev, TRUE);
	g_assert_true(knows(lib, SOURCE_A, &found));
	g_assert_cmpuint(found, ==, fid_a);
	tx = km_library_begin(lib, &error);
	g_assert_true(km_transaction_remove(tx, fid_a, &error));
	g_assert_false(km_transaction_find_source(tx, SOURCE_A, &found));
	tu_commit(tx);
	g_object_unref(tx);
	g_assert_false(knows(lib, SOURCE_A, &found));
	/* the removed track's line goes with the next write */
	fid_b = add_converted(lib, b, 2, SOURCE_B);
	tu_close(lib);
	g_assert_cmpuint(n_lines(&m->bdev), ==, 1);
	lib = tu_open(&m->bdev, TRUE);
	g_assert_false(knows(lib, SOURCE_A, &found));
	g_assert_true(knows(lib, SOURCE_B, &found));
	g_assert_cmpuint(found, ==, fid_b);
	tu_assert_verifies_clean(lib);
	tu_close(lib);
	km_mem_device_free(m);
}

/* A fid reused by another track after its source's track went: not that source. */
static void test_reused_fid_is_not_the_source(void)
{
	struct km_mem_device *m = tu_new_volume(VOLUME_SIZE);
	g_autofree char *a = tu_host_file("a", 20000, 3);
	g_autofree char *b = tu_host_file("b", 20000, 4);
	g_autoptr(GError) error = NULL;
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	KmTransaction *tx;
	guint32 fid_a, fid_b, found;

	fid_a = add_converted(lib, a, 1, SOURCE_A);
	tx = km_library_begin(lib, &error);
	g_assert_true(km_transaction_remove(tx, fid_a, &error));
	fid_b = tu_add(tx, b, 2);
	tu_commit(tx);
	g_object_unref(tx);
	g_test_message("fid %u removed, fid %u added", fid_a, fid_b);
	g_assert_false(knows(lib, SOURCE_A, &found));
	tu_close(lib);
	km_mem_device_free(m);
}

static void write_sources(const struct omfs_blockdev *dev, const char *text)
{
	struct omfs_fs *fs = tu_mount(dev);

	tu_fs_unlink(fs, "var/km-sources");
	tu_fs_write(fs, "var/km-sources", text, strlen(text));
	omfs_unmount(fs);
}

static gboolean warned(KmLibrary *lib, const char *what)
{
	const char *const *warnings = km_library_get_warnings(lib);

	for (guint i = 0; warnings && warnings[i]; i++)
		if (strstr(warnings[i], what))
			return TRUE;
	return FALSE;
}

/* A damaged or foreign file: a warning, never damage; the good lines count. */
static void test_bad_file_is_a_warning(void)
{
	struct km_mem_device *m = tu_new_volume(VOLUME_SIZE);
	g_autofree char *a = tu_host_file("a", 20000, 5);
	g_autofree char *text = NULL;
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	guint32 fid, found;

	fid = add_converted(lib, a, 1, SOURCE_A);
	text = g_strdup_printf("KMSRC1\ngarbage\n%s %u %s\n%s 0 nothex\n", SOURCE_A, fid,
			       tu_get(lib, fid, "rid"), SOURCE_B);
	tu_close(lib);

	write_sources(&m->bdev, text);
	lib = tu_open(&m->bdev, TRUE);
	g_assert_true(warned(lib, "2 lines that are no source were ignored"));
	g_assert_false(km_library_found_damage(lib));
	g_assert_true(knows(lib, SOURCE_A, &found));
	tu_assert_verifies_clean(lib);
	tu_close(lib);

	write_sources(&m->bdev, "PK\x03\x04 a zip file");
	lib = tu_open(&m->bdev, TRUE);
	g_assert_true(warned(lib, "var/km-sources was ignored"));
	g_assert_false(km_library_found_damage(lib));
	g_assert_false(knows(lib, SOURCE_A, &found));
	tu_close(lib);
	km_mem_device_free(m);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/library-sources/known-until-removed", test_known_until_removed);
	g_test_add_func("/library-sources/reused-fid", test_reused_fid_is_not_the_source);
	g_test_add_func("/library-sources/bad-file-is-a-warning", test_bad_file_is_a_warning);
	return g_test_run();
}
