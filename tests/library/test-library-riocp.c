/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-library-riocp.c - the library against libkarma's riocp (Debian
 * karma-tools), which works on a plain directory laid out like the music
 * partition:
 *   - a tree riocp wrote (audio made here), copied into an OMFS image with
 *     the core's API, opens with riocp's properties and data, and verifies
 *     clean; tracks we add to it are then read by riocp;
 *   - a library we wrote (tracks, playlists, an edit), copied out of the
 *     image, is read by riocp with our properties, from our smalldb and from
 *     our properties files (-b), and riocp downloads our audio bytes.
 * riocp's view: `riocp -a DIR -w -s fid=` with a fresh HOME lists what it
 * loaded in ~/.openrio/pearl-0/fileinfo. Skipped when riocp is missing.
 */
#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "km-fid.h"
#include "km-library-fs.h"
#include "km-smalldb.h"
#include "library-test-util.h"

#define IMAGE_SIZE (32u << 20)

/* ---- running riocp ---- */

static char *run_in(const char *cwd, const char *home, const char *const *argv)
{
	g_auto(GStrv) env = g_environ_setenv(g_get_environ(), "HOME", home, TRUE);
	g_autoptr(GError) error = NULL;
	g_autofree char *err = NULL;
	char *out = NULL;
	int status;

	if (!g_spawn_sync(cwd, (char **)argv, env, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
			  &status, &error))
		g_error("%s: %s", argv[0], error->message);
	if (!g_spawn_check_wait_status(status, &error))
		g_error("%s failed (%s): %s%s", argv[0], error->message, out, err);
	return out;
}

static char *fresh_dir(const char *name)
{
	char *path = g_build_filename(tu_tmpdir(), name, NULL);

	g_assert_cmpint(g_mkdir_with_parents(path, 0755), ==, 0);
	return path;
}

static gint by_fid(gconstpointer a, gconstpointer b)
{
	guint32 fa = km_properties_get_fid(*(KmProperties *const *)a);
	guint32 fb = km_properties_get_fid(*(KmProperties *const *)b);

	return fa < fb ? -1 : fa > fb;
}

/* What riocp loaded from music (its smalldb, or its "…1" files with -b). */
static GPtrArray *riocp_view(const char *music, const char *home_name, gboolean scan)
{
	g_autofree char *home = fresh_dir(home_name);
	g_autofree char *out = NULL;
	g_autofree char *path = g_build_filename(home, ".openrio", "pearl-0", "fileinfo", NULL);
	g_autoptr(GBytes) text = NULL;
	g_auto(GStrv) records = NULL;
	const char *argv[] = { "riocp", "-a", music, "-w", "-s", "fid=", scan ? "-b" : NULL, NULL };
	GPtrArray *all = g_ptr_array_new_with_free_func((GDestroyNotify)km_properties_unref);

	out = run_in(NULL, home, argv);
	g_assert_null(strstr(out, "Could not read smalldb"));
	text = tu_host_bytes(path);
	records = g_strsplit(g_bytes_get_data(text, NULL), "\n\n", -1);
	for (guint i = 0; records[i]; i++) {
		g_autofree char *rec = g_strconcat(records[i], "\n", NULL);
		g_autoptr(GError) error = NULL;
		KmProperties *p;
		guint64 fid;

		if (!*records[i] || strcmp(records[i], "\n") == 0)
			continue;
		p = km_properties_parse(rec, strlen(rec), &error);
		g_assert_no_error(error);
		g_assert_true(km_properties_get_uint(p, "fid", &fid));
		km_properties_set_fid(p, (guint32)fid);
		g_ptr_array_add(all, p);
	}
	g_ptr_array_sort(all, by_fid);
	return all;
}

/* Each object of want is in got with the same smalldb row, and nothing else. */
static void assert_same_objects(GPtrArray *want, GPtrArray *got, const char *what)
{
	g_assert_cmpuint(got->len, ==, want->len);
	for (guint i = 0; i < want->len; i++) {
		const char *column = NULL;

		if (!km_smalldb_row_equal(want->pdata[i], got->pdata[i], &column))
			g_error("%s: fid %u: %s differs", what,
				km_properties_get_fid(want->pdata[i]), column);
		g_test_message("%s: fid %u (%s, %s) agrees", what,
			       km_properties_get_fid(want->pdata[i]),
			       km_properties_get(want->pdata[i], "type"),
			       km_properties_contains(want->pdata[i], "codec") ?
			       km_properties_get(want->pdata[i], "codec") : "no codec");
	}
}

/* ---- trees between the host and an image ---- */

static void copy_into_image(struct omfs_fs *fs, const char *host, uint64_t dir)
{
	g_autoptr(GDir) d = g_dir_open(host, 0, NULL);
	const char *name;

	g_assert_nonnull(d);
	while ((name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(host, name, NULL);
		uint64_t ino;

		if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
			g_assert_cmpint(omfs_mkdir(fs, dir, name, strlen(name), &ino), ==, 0);
			copy_into_image(fs, path, ino);
		} else {
			g_autoptr(GBytes) data = tu_host_bytes(path);

			g_assert_cmpint(omfs_create(fs, dir, name, strlen(name), &ino), ==, 0);
			if (g_bytes_get_size(data))
				g_assert_cmpint(omfs_write(fs, ino, 0, g_bytes_get_data(data, NULL),
							   g_bytes_get_size(data)), ==,
						(gint64)g_bytes_get_size(data));
		}
	}
}

static void copy_out_of_image(struct omfs_fs *fs, uint64_t dir, const char *host)
{
	struct omfs_dirent ent;
	uint64_t pos = 0;
	int ret;

	g_assert_cmpint(g_mkdir_with_parents(host, 0755), ==, 0);
	while ((ret = omfs_readdir(fs, dir, &pos, &ent)) == 1) {
		g_autofree char *path = g_build_filename(host, ent.name, NULL);
		struct omfs_stat st;
		g_autofree guint8 *data = NULL;

		if (ent.is_dir) {
			copy_out_of_image(fs, ent.ino, path);
			continue;
		}
		g_assert_cmpint(omfs_stat(fs, ent.ino, &st), ==, 0);
		data = g_malloc(st.size + 1);
		g_assert_cmpint(omfs_read(fs, ent.ino, 0, data, st.size), ==, (gint64)st.size);
		g_assert_true(g_file_set_contents(path, (const char *)data, (gssize)st.size, NULL));
	}
	g_assert_cmpint(ret, ==, 0);
}

static struct km_mem_device *image_of_tree(const char *music)
{
	struct km_mem_device *m = km_mem_device_new(IMAGE_SIZE, NULL);
	struct omfs_mkfs_opts mkfs = { 0 };
	char msg[256];
	struct omfs_fs *fs;

	g_assert_cmpint(omfs_mkfs(&m->bdev, &mkfs, msg, sizeof(msg)), ==, 0);
	fs = tu_mount(&m->bdev);
	copy_into_image(fs, music, omfs_root_ino(fs));
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	return m;
}

static char *tree_of_image(struct km_mem_device *m, const char *name)
{
	char *host = g_build_filename(tu_tmpdir(), name, NULL);
	struct omfs_fs *fs = tu_mount(&m->bdev);

	copy_out_of_image(fs, omfs_root_ino(fs), host);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	return host;
}

/* ---- audio riocp accepts ---- */

static void put_le(GByteArray *a, guint32 v, guint n)
{
	for (guint i = 0; i < n; i++)
		g_byte_array_append(a, (guint8[]){ v >> (8 * i) }, 1);
}

/* Half a second of a sine, 8 kHz mono 16-bit PCM. */
static char *write_wav(const char *name, double hz)
{
	g_autoptr(GByteArray) w = g_byte_array_new();
	char *path = g_build_filename(tu_tmpdir(), name, NULL);
	const guint32 rate = 8000, samples = 4000;

	g_byte_array_append(w, (const guint8 *)"RIFF", 4);
	put_le(w, 36 + samples * 2, 4);
	g_byte_array_append(w, (const guint8 *)"WAVEfmt ", 8);
	put_le(w, 16, 4);
	put_le(w, 1, 2);
	put_le(w, 1, 2);
	put_le(w, rate, 4);
	put_le(w, rate * 2, 4);
	put_le(w, 2, 2);
	put_le(w, 16, 2);
	g_byte_array_append(w, (const guint8 *)"data", 4);
	put_le(w, samples * 2, 4);
	for (guint32 i = 0; i < samples; i++)
		put_le(w, (guint16)(gint16)(9000 * sin(2 * G_PI * hz * i / rate)), 2);
	g_assert_true(g_file_set_contents(path, (const char *)w->data, w->len, NULL));
	return path;
}

/* An Ogg and a FLAC (when their encoders are installed) and a WAV, with tags. */
static GPtrArray *make_audio(void)
{
	GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *wav = write_wav("tone.wav", 440);
	g_autofree char *home = fresh_dir("home-tools");
	g_autofree char *oggenc = g_find_program_in_path("oggenc");
	g_autofree char *flac = g_find_program_in_path("flac");

	if (oggenc) {
		char *ogg = g_build_filename(tu_tmpdir(), "a.ogg", NULL);
		const char *argv[] = { "oggenc", "-Q", "-q", "0", "-t", "Ogg Song",
				       "-a", "The Band", "-l", "Album", "-G", "Rock", "-d", "2001",
				       "-N", "4", "-o", ogg, wav, NULL };

		g_free(run_in(NULL, home, argv));
		g_ptr_array_add(files, ogg);
	}
	if (flac) {
		char *out = g_build_filename(tu_tmpdir(), "b.flac", NULL);
		const char *argv[] = { "flac", "-s", "-f", "--tag=TITLE=Flac Song",
				       "--tag=ARTIST=Ärtist", "--tag=ALBUM=Other",
				       "--tag=TRACKNUMBER=9", "-o", out, wav, NULL };

		g_free(run_in(NULL, home, argv));
		g_ptr_array_add(files, out);
	}
	g_ptr_array_add(files, write_wav("plain.wav", 660));
	return files;
}

/* ---- tests ---- */

static GPtrArray *host_properties(const char *music)
{
	g_autofree char *fids0 = g_build_filename(music, "fids0", NULL);
	g_autoptr(GDir) top = g_dir_open(fids0, 0, NULL);
	GPtrArray *all = g_ptr_array_new_with_free_func((GDestroyNotify)km_properties_unref);
	const char *dname, *fname;

	g_assert_nonnull(top);
	while ((dname = g_dir_read_name(top))) {
		g_autofree char *dpath = g_build_filename(fids0, dname, NULL);
		g_autoptr(GDir) dir = g_dir_open(dpath, 0, NULL);

		while (dir && (fname = g_dir_read_name(dir))) {
			g_autofree char *path = g_build_filename(dpath, fname, NULL);
			g_autoptr(GBytes) text = NULL;
			g_autoptr(GError) error = NULL;
			KmFidFile which;
			KmProperties *p;
			guint32 fid;

			g_assert_true(km_fid_from_names(dname, fname, &fid, &which));
			if (which != KM_FID_FILE_PROPERTIES)
				continue;
			text = tu_host_bytes(path);
			p = km_properties_parse(g_bytes_get_data(text, NULL),
						g_bytes_get_size(text), &error);
			g_assert_no_error(error);
			km_properties_set_fid(p, fid);
			g_ptr_array_add(all, p);
		}
	}
	g_ptr_array_sort(all, by_fid);
	return all;
}

/* smalldb in the image is riocp's var/smalldb but for the time (bytes 4-7 and the last 4). */
static void assert_same_smalldb(const char *music, struct omfs_fs *fs)
{
	g_autofree char *path = g_build_filename(music, "var", "smalldb", NULL);
	g_autoptr(GBytes) theirs = tu_host_bytes(path);
	g_autoptr(GBytes) ours = tu_fs_read(fs, "var/smalldb");
	gsize len;
	const guint8 *a = g_bytes_get_data(ours, &len);
	const guint8 *b = g_bytes_get_data(theirs, NULL);

	g_assert_cmpuint(len, ==, g_bytes_get_size(theirs));
	g_assert_cmpmem(a, 4, b, 4);
	g_assert_cmpmem(a + 8, len - 12, b + 8, len - 12);
	g_assert_cmpmem(a + 4, 4, a + len - 4, 4);
}

static void test_riocp_tree_in_image(void)
{
	g_autofree char *music = fresh_dir("riocp-tree");
	g_autofree char *fids0 = g_build_filename(music, "fids0", NULL);
	g_autofree char *var = g_build_filename(music, "var", NULL);
	g_autofree char *home = fresh_dir("home-upload");
	g_autoptr(GPtrArray) audio = make_audio();
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_autoptr(GPtrArray) theirs = NULL;
	g_autoptr(GPtrArray) ours = NULL;
	g_autoptr(GPtrArray) seen = NULL;
	g_autofree char *out = NULL;
	g_autofree char *back = NULL;
	g_autofree char *added_path = tu_host_file("added.mp3", 12345, 500);
	struct km_mem_device *m;
	KmTransaction *tx;
	KmLibrary *lib;

	g_assert_cmpint(g_mkdir_with_parents(fids0, 0755), ==, 0);
	g_assert_cmpint(g_mkdir_with_parents(var, 0755), ==, 0);
	g_ptr_array_add(argv, (gpointer)"riocp");
	g_ptr_array_add(argv, (gpointer)"-a");
	g_ptr_array_add(argv, music);
	for (guint i = 0; i < audio->len; i++)
		g_ptr_array_add(argv, audio->pdata[i]);
	g_ptr_array_add(argv, NULL);
	out = run_in(NULL, home, (const char *const *)argv->pdata);
	theirs = host_properties(music);
	/* Each file, and riocp's own __libkarma_fdb__.gz. */
	g_assert_cmpuint(theirs->len, ==, audio->len + 1);

	m = image_of_tree(music);
	lib = tu_open(&m->bdev, FALSE);
	g_assert_null(km_library_get_warnings(lib)[0]);
	ours = km_library_list(lib);
	assert_same_objects(theirs, ours, "riocp's smalldb, opened by us");
	for (guint i = 0; i < theirs->len; i++) {
		guint32 fid = km_properties_get_fid(theirs->pdata[i]);
		g_autofree char *rel = km_fid_to_path(fid, KM_FID_FILE_DATA);
		g_autofree char *host = g_build_filename(music, rel, NULL);
		g_autoptr(GBytes) a = tu_host_bytes(host);
		g_autoptr(GBytes) b = tu_library_data(lib, fid);

		g_assert_true(g_bytes_equal(a, b));
	}
	tu_assert_verifies_clean(lib);
	tu_close(lib);
	/* From the properties files: byte for byte what riocp wrote. */
	lib = tu_open_scan(&m->bdev);
	for (guint i = 0; i < theirs->len; i++) {
		KmProperties *got = km_library_lookup(lib, km_properties_get_fid(theirs->pdata[i]));
		g_autoptr(GBytes) a = km_properties_serialize(theirs->pdata[i]);
		g_autoptr(GBytes) b = NULL;

		g_assert_nonnull(got);
		b = km_properties_serialize(got);
		g_assert_true(g_bytes_equal(a, b));
	}
	tu_close(lib);

	/*
	 * A change smalldb does not hold (a key of our own): the smalldb we write
	 * is riocp's, byte for byte, but for the time in its header and trailer.
	 */
	lib = tu_open(&m->bdev, TRUE);
	tx = km_library_begin(lib, NULL);
	g_assert_true(km_transaction_set_property(tx, km_properties_get_fid(theirs->pdata[0]),
						  "x_note", "kept", NULL));
	tu_commit(tx);
	g_object_unref(tx);
	assert_same_smalldb(music, km_library_get_fs(lib));

	/* We add a track to riocp's library; riocp reads the result. */
	tx = km_library_begin(lib, NULL);
	tu_add(tx, added_path, 3);
	tu_commit(tx);
	g_object_unref(tx);
	g_clear_pointer(&ours, g_ptr_array_unref);
	ours = km_library_list(lib);
	g_assert_cmpuint(ours->len, ==, theirs->len + 1);
	tu_close(lib);
	back = tree_of_image(m, "riocp-tree-back");
	seen = riocp_view(back, "home-back", FALSE);
	assert_same_objects(ours, seen, "riocp reading riocp's library after our add");
	km_mem_device_free(m);
}

/* Files riocp downloaded (-d, named fid.codec) are our data files. */
static void assert_riocp_downloads(const char *music, KmLibrary *lib, GPtrArray *objects)
{
	g_autofree char *dl = fresh_dir("downloads");
	g_autofree char *home = fresh_dir("home-download");
	g_autofree char *out = NULL;
	const char *argv[] = { "riocp", "-a", music, "-w", "-s", "type=tune", "-d", NULL };
	guint n = 0;

	out = run_in(dl, home, argv);
	for (guint i = 0; i < objects->len; i++) {
		KmProperties *p = objects->pdata[i];
		guint32 fid = km_properties_get_fid(p);
		g_autofree char *name = NULL, *path = NULL;
		g_autoptr(GBytes) got = NULL, want = NULL;

		if (g_strcmp0(km_properties_get(p, "type"), "tune") != 0)
			continue;
		name = g_strdup_printf("%u.%s", fid, km_properties_get(p, "codec"));
		path = g_build_filename(dl, name, NULL);
		if (!g_file_test(path, G_FILE_TEST_EXISTS))
			g_error("riocp did not download %s: %s", name, out);
		got = tu_host_bytes(path);
		want = tu_library_data(lib, fid);
		g_assert_true(g_bytes_equal(got, want));
		n++;
	}
	g_assert_cmpuint(n, >, 3);
}

static void test_our_library_read_by_riocp(void)
{
	g_autoptr(GError) error = NULL;
	struct km_mem_device *m = tu_new_volume(IMAGE_SIZE);
	g_autoptr(GPtrArray) ours = NULL;
	g_autoptr(GPtrArray) seen = NULL;
	g_autoptr(GPtrArray) scanned = NULL;
	g_autofree char *music = NULL;
	KmLibrary *lib = tu_open(&m->bdev, TRUE);
	KmTransaction *tx = km_library_begin(lib, &error);
	guint32 fids[6], list;

	for (guint i = 0; i < G_N_ELEMENTS(fids); i++) {
		g_autofree char *name = g_strdup_printf("ours-%u.mp3", i);
		g_autofree char *path = tu_host_file(name, 4000 + 1000 * i, 600 + i);

		fids[i] = tu_add(tx, path, i);
	}
	g_assert_true(km_transaction_playlist_create(tx, "Ünïcode list", &list, &error));
	for (guint i = 0; i < 4; i++)
		g_assert_true(km_transaction_playlist_insert(tx, list, fids[5 - i], -1, &error));
	g_assert_true(km_transaction_set_property(tx, fids[1], "title", "Édité \"quoted\" = \\",
						  &error));
	g_assert_true(km_transaction_remove(tx, fids[2], &error));
	tu_commit(tx);
	g_object_unref(tx);
	ours = km_library_list(lib);

	music = tree_of_image(m, "ours");
	seen = riocp_view(music, "home-ours", FALSE);
	assert_same_objects(ours, seen, "riocp reading our smalldb");
	scanned = riocp_view(music, "home-ours-b", TRUE);
	assert_same_objects(ours, scanned, "riocp reading our properties files");
	assert_riocp_downloads(music, lib, ours);
	tu_close(lib);
	km_mem_device_free(m);
}

int main(int argc, char **argv)
{
	g_autofree char *riocp = g_find_program_in_path("riocp");

	if (!riocp) {
		printf("1..0 # SKIP riocp (Debian karma-tools) is not installed\n");
		return 0;
	}
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/library-riocp/riocp-tree-in-image", test_riocp_tree_in_image);
	g_test_add_func("/library-riocp/our-library-read-by-riocp", test_our_library_read_by_riocp);
	return g_test_run();
}
