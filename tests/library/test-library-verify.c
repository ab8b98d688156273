/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-library-verify.c - km_library_verify() and km_library_rebuild_db()
 * against problems made by hand with the OMFS core; a missing smalldb; the
 * player's deletion bitmap and play counts; the commit journal (its format,
 * malformed journals, and a journal left by an interrupted commit); the file
 * system check (KM_VERIFY_FLAG_FILE_SYSTEM) beside it, and its repair.
 */
#include <string.h>

#include "km-fid.h"
#include "km-journal.h"
#include "km-playlist.h"
#include "km-smalldb.h"
#include "km-verify.h"
#include "library-test-util.h"

#define VOLUME_SIZE (16u << 20)
#define N_TRACKS 12

struct fixture {
	struct km_mem_device *m;
	guint32 fid[N_TRACKS];
	guint32 playlist;
};

/* N_TRACKS tracks and a playlist of the first three, committed; nothing open. */
static void setup(struct fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	KmLibrary *lib;
	KmTransaction *tx;

	f->m = tu_new_volume(VOLUME_SIZE);
	lib = tu_open(&f->m->bdev, TRUE);
	tx = km_library_begin(lib, &error);
	for (guint i = 0; i < N_TRACKS; i++) {
		g_autofree char *name = g_strdup_printf("v-%u", i);
		g_autofree char *path = tu_host_file(name, 2000 + i, 100 + i);

		f->fid[i] = tu_add(tx, path, i);
	}
	g_assert_true(km_transaction_playlist_create(tx, "List", &f->playlist, &error));
	for (guint i = 0; i < 3; i++)
		g_assert_true(km_transaction_playlist_insert(tx, f->playlist, f->fid[i], -1,
							     &error));
	g_assert_no_error(error);
	tu_commit(tx);
	g_object_unref(tx);
	tu_close(lib);
}

static void teardown(struct fixture *f, gconstpointer unused)
{
	tu_assert_fsck_leaks_only(&f->m->bdev);
	km_mem_device_free(f->m);
}

static char *fid_path(guint32 fid, KmFidFile which)
{
	return km_fid_to_path(fid, which);
}

static void write_props(struct omfs_fs *fs, KmProperties *p)
{
	g_autoptr(GBytes) text = km_properties_serialize(p);
	g_autofree char *path = fid_path(km_properties_get_fid(p), KM_FID_FILE_PROPERTIES);

	tu_fs_write(fs, path, g_bytes_get_data(text, NULL), g_bytes_get_size(text));
}

static const KmVerifyFinding *finding_for(KmVerifyReport *r, KmVerifyKind kind, guint32 fid)
{
	for (guint i = 0; i < r->findings->len; i++) {
		const KmVerifyFinding *f = r->findings->pdata[i];

		if (f->kind == kind && f->fid == fid)
			return f;
	}
	g_error("no %s finding for fid %u", km_verify_kind_name(kind), fid);
	return NULL;
}

static void log_report(KmVerifyReport *r)
{
	for (guint i = 0; i < r->findings->len; i++) {
		const KmVerifyFinding *f = r->findings->pdata[i];

		g_test_message("%s%s: %s", km_verify_kind_name(f->kind),
			       f->repaired ? " (repaired)" : "", f->message);
	}
}

static KmVerifyReport *verify(KmLibrary *lib, gboolean repair)
{
	g_autoptr(GError) error = NULL;
	KmVerifyReport *r = km_library_verify(lib, repair ? KM_VERIFY_FLAG_REPAIR : 0, NULL, &error);

	g_assert_no_error(error);
	log_report(r);
	return r;
}

/* Every kind of problem, each made by hand; repair fixes all it can. */
static void test_verify_and_repair(struct fixture *f, gconstpointer unused)
{
	struct omfs_fs *fs = tu_mount(&f->m->bdev);
	g_autoptr(KmVerifyReport) before = NULL;
	g_autoptr(KmVerifyReport) repaired = NULL;
	g_autoptr(KmVerifyReport) after = NULL;
	g_autofree char *p = NULL;
	KmProperties *edited, *stray_obj, *long_obj;
	KmLibrary *lib;
	guint64 n_findings;

	/* 0x500: data without properties; 0x510: properties without data. */
	tu_fs_write(fs, "fids0/_00000/500", "orphan", 6);
	tu_fs_write(fs, "fids0/_00000/511", "type=tune\ntitle=ghost\n", 22);
	/* fid[0]: the title changed in its properties file only. */
	edited = tu_fs_props(fs, f->fid[0]);
	km_properties_set(edited, "title", "Changed elsewhere");
	write_props(fs, edited);
	/* fid[1]: both files gone, smalldb still lists it. */
	p = fid_path(f->fid[1], KM_FID_FILE_DATA);
	tu_fs_unlink(fs, p);
	g_clear_pointer(&p, g_free);
	p = fid_path(f->fid[1], KM_FID_FILE_PROPERTIES);
	tu_fs_unlink(fs, p);
	g_clear_pointer(&p, g_free);
	/* fid[2]: properties file lost; fid[3]: properties file garbled. */
	p = fid_path(f->fid[2], KM_FID_FILE_PROPERTIES);
	tu_fs_unlink(fs, p);
	g_clear_pointer(&p, g_free);
	p = fid_path(f->fid[3], KM_FID_FILE_PROPERTIES);
	tu_fs_write(fs, p, "title=cut short", 15);
	g_clear_pointer(&p, g_free);
	/* fid[4]: `length` that is not the data's size. */
	long_obj = tu_fs_props(fs, f->fid[4]);
	km_properties_set_uint(long_obj, "length", 999999);
	write_props(fs, long_obj);
	/* The playlist's data file cut short. */
	p = fid_path(f->playlist, KM_FID_FILE_DATA);
	tu_fs_write(fs, p, "\xff\x02\x00\x00", 4);
	g_clear_pointer(&p, g_free);
	/* An object another tool wrote without updating smalldb, at 0x600. */
	stray_obj = tu_track_props(77);
	km_properties_set_fid(stray_obj, 0x600);
	km_properties_set_uint(stray_obj, "length", 3);
	write_props(fs, stray_obj);
	tu_fs_write(fs, "fids0/_00000/600", "abc", 3);
	/* Names that are no fid file, and a leftover temporary smalldb. */
	tu_fs_write(fs, "fids0/_00000/ABC", "x", 1);
	tu_fs_write(fs, "fids0/readme", "x", 1);
	tu_fs_write(fs, "var/smalldb.new", "x", 1);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);

	lib = tu_open(&f->m->bdev, TRUE);
	before = verify(lib, FALSE);
	g_assert_true(finding_for(before, KM_VERIFY_ORPHAN_DATA, 0x500)->repairable);
	g_assert_true(finding_for(before, KM_VERIFY_ORPHAN_PROPERTIES, 0x510)->repairable);
	g_assert_nonnull(strstr(finding_for(before, KM_VERIFY_STALE_ROW, f->fid[0])->message,
				"title"));
	g_assert_nonnull(strstr(finding_for(before, KM_VERIFY_STALE_ROW, f->fid[1])->message,
				"no files"));
	finding_for(before, KM_VERIFY_MISSING_PROPERTIES, f->fid[2]);
	g_assert_true(finding_for(before, KM_VERIFY_BAD_PROPERTIES, f->fid[3])->repairable);
	g_assert_false(finding_for(before, KM_VERIFY_UNREADABLE, f->fid[4])->repairable);
	finding_for(before, KM_VERIFY_STALE_ROW, f->fid[4]);
	finding_for(before, KM_VERIFY_PLAYLIST_DATA, f->playlist);
	finding_for(before, KM_VERIFY_STALE_ROW, 0x600);
	/* fid[1] was the playlist's second entry */
	g_assert_nonnull(strstr(finding_for(before, KM_VERIFY_DANGLING_ENTRY, f->playlist)->message,
				"entry 1"));
	g_assert_cmpuint(km_verify_report_count(before, KM_VERIFY_STRAY), ==, 3);
	n_findings = before->findings->len;
	g_assert_cmpuint(n_findings, ==, 14);
	g_assert_cmpuint(before->n_unrepaired, ==, n_findings);
	g_assert_false(before->smalldb_written);
	/* Verifying changed nothing. */
	g_assert_cmpstr(tu_get(lib, f->fid[0], "title"), ==, "Track 0");

	repaired = verify(lib, TRUE);
	g_assert_cmpuint(repaired->findings->len, ==, n_findings);
	g_assert_true(repaired->smalldb_written);
	/* Not repaired: the length, and two names that are not ours to remove. */
	g_assert_cmpuint(repaired->n_unrepaired, ==, 3);
	g_assert_cmpstr(tu_get(lib, f->fid[0], "title"), ==,
			"Changed elsewhere");
	g_assert_null(km_library_lookup(lib, f->fid[1]));
	g_assert_cmpstr(tu_get(lib, f->fid[2], "title"), ==, "Track 2");
	g_assert_cmpstr(tu_get(lib, f->fid[3], "title"), ==, "Track 3");
	g_assert_cmpstr(tu_get(lib, 0x600, "title"), ==, "Track 77");
	g_assert_null(km_library_lookup(lib, 0x510));

	after = verify(lib, FALSE);
	g_assert_cmpuint(after->findings->len, ==, 3);
	finding_for(after, KM_VERIFY_UNREADABLE, f->fid[4]);
	g_assert_cmpuint(km_verify_report_count(after, KM_VERIFY_STRAY), ==, 2);
	tu_close(lib);

	fs = tu_mount(&f->m->bdev);
	g_assert_false(tu_fs_exists(fs, "fids0/_00000/500"));
	g_assert_false(tu_fs_exists(fs, "fids0/_00000/511"));
	g_assert_false(tu_fs_exists(fs, "var/smalldb.new"));
	g_assert_true(tu_fs_exists(fs, "fids0/_00000/ABC"));
	{
		g_autoptr(KmProperties) restored = tu_fs_props(fs, f->fid[3]);
		g_autofree char *data_path = fid_path(f->playlist, KM_FID_FILE_DATA);
		g_autoptr(GBytes) data = tu_fs_read(fs, data_path);

		g_assert_cmpstr(km_properties_get(restored, "title"), ==, "Track 3");
		/* rewritten from its list, without the entry of fid[1] */
		g_assert_cmpuint(g_bytes_get_size(data), ==, 4 + 2 * 8);
	}
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	km_properties_unref(edited);
	km_properties_unref(long_obj);
	km_properties_unref(stray_obj);
}

/* A read-only library verifies, but cannot repair. */
static void test_verify_read_only(struct fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	struct omfs_fs *fs = tu_mount(&f->m->bdev);
	KmLibrary *lib;

	tu_fs_write(fs, "fids0/_00000/500", "orphan", 6);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	lib = tu_open(&f->m->bdev, FALSE);
	g_autoptr(KmVerifyReport) r = verify(lib, FALSE);
	g_assert_cmpuint(r->findings->len, ==, 1);
	g_assert_null(km_library_verify(lib, KM_VERIFY_FLAG_REPAIR, NULL, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_READ_ONLY);
	tu_close(lib);
}

/* Marks n free blocks near the volume's end used in its bitmap: a leak only fsck finds. */
static void leak_blocks(struct km_mem_device *m, guint n)
{
	struct omfs_fs *fs = tu_mount(&m->bdev);
	struct omfs_info info;

	omfs_get_info(fs, &info);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	for (uint64_t block = info.s_num_blocks - 20; block < info.s_num_blocks - 20 + n; block++) {
		guint8 *byte = m->data + info.r_bitmap * info.s_blocksize + block / 8;

		g_assert_false(*byte & (1u << (block & 7)));
		*byte |= (guint8)(1u << (block & 7));
	}
}

/*
 * KM_VERIFY_FLAG_FILE_SYSTEM: fsck's problems are findings beside verify's;
 * a repair fixes both (the volume with the library's mount let go), and the
 * library, mounted again, takes a change; a check then finds nothing.
 */
static void test_file_system(struct fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	const KmVerifyFlags check = KM_VERIFY_FLAG_FILE_SYSTEM;
	struct omfs_fs *fs = tu_mount(&f->m->bdev);
	KmLibrary *lib;
	KmTransaction *tx;
	g_autofree char *path = tu_host_file("after-repair", 3000, 300);

	tu_fs_write(fs, "fids0/_00000/500", "orphan", 6);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	leak_blocks(f->m, 6);
	lib = tu_open(&f->m->bdev, TRUE);
	/* verify alone does not look at the bitmap */
	g_autoptr(KmVerifyReport) plain = verify(lib, FALSE);
	g_assert_cmpuint(km_verify_report_count(plain, KM_VERIFY_FILE_SYSTEM), ==, 0);

	g_autoptr(KmVerifyReport) r = km_library_verify(lib, check, NULL, &error);
	g_assert_no_error(error);
	log_report(r);
	g_assert_cmpuint(km_verify_report_count(r, KM_VERIFY_FILE_SYSTEM), ==, 1);
	g_assert_cmpuint(km_verify_report_count(r, KM_VERIFY_ORPHAN_DATA), ==, 1);
	g_assert_true(finding_for(r, KM_VERIFY_FILE_SYSTEM, 0)->repairable);
	g_assert_nonnull(strstr(finding_for(r, KM_VERIFY_FILE_SYSTEM, 0)->message, "blocks"));
	g_assert_cmpuint(r->n_unrepaired, ==, 2);

	g_autoptr(KmVerifyReport) fixed = km_library_verify(lib, check | KM_VERIFY_FLAG_REPAIR,
							    NULL, &error);
	g_assert_no_error(error);
	log_report(fixed);
	g_assert_cmpuint(fixed->findings->len, ==, 2);
	g_assert_true(finding_for(fixed, KM_VERIFY_FILE_SYSTEM, 0)->repaired);
	g_assert_cmpuint(fixed->n_unrepaired, ==, 0);

	tx = km_library_begin(lib, &error);
	g_assert_no_error(error);
	tu_add(tx, path, 1);
	tu_commit(tx);
	g_object_unref(tx);
	g_autoptr(KmVerifyReport) again = km_library_verify(lib, check, NULL, &error);
	g_assert_no_error(error);
	log_report(again);
	g_assert_cmpuint(again->findings->len, ==, 0);
	g_assert_cmpuint(km_library_get_n_objects(lib), ==, N_TRACKS + 2);
	tu_close(lib);
}

/* No smalldb: open reads the properties files and says so; rebuild-db writes it. */
static void test_missing_smalldb(struct fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) objects = NULL;
	g_autoptr(KmVerifyReport) r = NULL;
	struct omfs_fs *fs = tu_mount(&f->m->bdev);
	KmLibrary *lib;

	tu_fs_unlink(fs, "var/smalldb");
	g_assert_cmpint(omfs_unmount(fs), ==, 0);

	lib = tu_open(&f->m->bdev, FALSE);
	g_assert_nonnull(strstr(km_library_get_warnings(lib)[0], "no var/smalldb"));
	g_assert_true(km_library_found_damage(lib));
	g_assert_cmpuint(km_library_get_n_objects(lib), ==, N_TRACKS + 1);
	objects = km_library_list(lib);
	r = verify(lib, FALSE);
	finding_for(r, KM_VERIFY_SMALLDB_MISSING, 0);
	g_assert_cmpuint(km_verify_report_count(r, KM_VERIFY_STALE_ROW), ==, N_TRACKS + 1);
	tu_close(lib);

	lib = tu_open(&f->m->bdev, TRUE);
	g_clear_pointer(&r, km_verify_report_free);
	r = km_library_rebuild_db(lib, NULL, &error);
	g_assert_no_error(error);
	g_assert_true(r->smalldb_written);
	g_assert_cmpuint(r->n_unrepaired, ==, 0);
	tu_close(lib);

	lib = tu_open(&f->m->bdev, FALSE);
	g_assert_null(km_library_get_warnings(lib)[0]);
	g_assert_false(km_library_found_damage(lib));
	tu_assert_rows(lib, objects);
	tu_assert_verifies_clean(lib);
	tu_close(lib);
}

/* smalldb rewritten with the player's changes: a play count, and a deletion bit. */
static GBytes *player_smalldb(struct omfs_fs *fs, guint32 played_fid, guint deleted_row)
{
	g_autoptr(GPtrArray) rows = tu_smalldb_rows(fs);
	g_autoptr(GBytes) built = NULL;
	GByteArray *out = g_byte_array_new();
	const guint8 *b;
	gsize len;

	for (guint i = 0; i < rows->len; i++)
		if (km_properties_get_fid(rows->pdata[i]) == played_fid)
			km_properties_set_uint(rows->pdata[i], "play_count", 5);
	built = km_smalldb_build(rows, NULL, TU_START_TIME + 50, NULL);
	b = g_bytes_get_data(built, &len);
	/* The file ends with an empty bitmap (LE32 0) and the timestamp: put one byte in. */
	g_assert_cmpmem(b + len - 8, 4, "\0\0\0\0", 4);
	g_byte_array_append(out, b, len - 8);
	g_byte_array_append(out, (const guint8 *)"\1\0\0\0", 4);
	g_byte_array_append(out, (guint8[]){ 1u << deleted_row }, 1);
	g_byte_array_append(out, b + len - 4, 4);
	return g_byte_array_free_to_bytes(out);
}

/* The player deleted fid[6] (not in the playlist: test_player_deleted_member). */
static void test_player_changes(struct fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	struct omfs_fs *fs = tu_mount(&f->m->bdev);
	g_autoptr(GBytes) db = player_smalldb(fs, f->fid[5], 6);
	g_autofree char *gone_data = fid_path(f->fid[6], KM_FID_FILE_DATA);
	g_autofree char *gone_props = fid_path(f->fid[6], KM_FID_FILE_PROPERTIES);
	g_autoptr(KmProperties) file = NULL;
	g_autoptr(KmVerifyReport) r = NULL;
	KmTransaction *tx;
	KmLibrary *lib;
	guint64 count = 0;

	tu_fs_write(fs, "var/smalldb", g_bytes_get_data(db, NULL), g_bytes_get_size(db));
	g_assert_cmpint(omfs_unmount(fs), ==, 0);

	/* Read-only: the deleted object is gone, its files still there. */
	lib = tu_open(&f->m->bdev, FALSE);
	g_assert_null(km_library_lookup(lib, f->fid[6]));
	g_assert_nonnull(strstr(km_library_get_warnings(lib)[0], "player deleted 1"));
	/* the player's own deletions are news, not damage */
	g_assert_false(km_library_found_damage(lib));
	g_assert_true(km_properties_get_uint(km_library_lookup(lib, f->fid[5]), "play_count",
					     &count));
	g_assert_cmpuint(count, ==, 5);
	r = verify(lib, FALSE);
	/* The play count kept only in smalldb is not a difference. */
	g_assert_cmpuint(r->findings->len, ==, 1);
	finding_for(r, KM_VERIFY_PENDING_DELETE, f->fid[6]);
	tu_close(lib);

	/* The next commit removes the files; an edit keeps the play count. */
	lib = tu_open(&f->m->bdev, TRUE);
	tx = km_library_begin(lib, &error);
	g_assert_true(km_transaction_set_property(tx, f->fid[5], "title", "Played", &error));
	tu_commit(tx);
	g_object_unref(tx);
	tu_assert_verifies_clean(lib);
	tu_close(lib);
	fs = tu_mount(&f->m->bdev);
	g_assert_false(tu_fs_exists(fs, gone_data));
	g_assert_false(tu_fs_exists(fs, gone_props));
	file = tu_fs_props(fs, f->fid[5]);
	g_assert_cmpstr(km_properties_get(file, "play_count"), ==, "5");
	g_assert_cmpstr(km_properties_get(file, "title"), ==, "Played");
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
}

/* The player deleted fid[1], the playlist's second entry: the next commit drops the entry too. */
static void test_player_deleted_member(struct fixture *f, gconstpointer unused)
{
	g_autoptr(GError) error = NULL;
	struct omfs_fs *fs = tu_mount(&f->m->bdev);
	g_autoptr(GBytes) db = player_smalldb(fs, f->fid[5], 1);
	g_autoptr(GArray) entries = NULL;
	KmTransaction *tx;
	KmLibrary *lib;

	tu_fs_write(fs, "var/smalldb", g_bytes_get_data(db, NULL), g_bytes_get_size(db));
	g_assert_cmpint(omfs_unmount(fs), ==, 0);

	/* a commit with nothing of its own: the player's deletion goes with it */
	lib = tu_open(&f->m->bdev, TRUE);
	g_assert_null(km_library_lookup(lib, f->fid[1]));
	tx = km_library_begin(lib, &error);
	g_assert_no_error(error);
	tu_commit(tx);
	g_object_unref(tx);
	tu_assert_verifies_clean(lib);
	tu_close(lib);

	lib = tu_open(&f->m->bdev, FALSE);
	entries = km_playlist_from_properties(km_library_lookup(lib, f->playlist), &error);
	g_assert_no_error(error);
	g_assert_cmpuint(entries->len, ==, 2);
	g_assert_cmpuint(g_array_index(entries, KmPlaylistEntry, 0).fid, ==, f->fid[0]);
	g_assert_cmpuint(g_array_index(entries, KmPlaylistEntry, 1).fid, ==, f->fid[2]);
	tu_assert_verifies_clean(lib);
	tu_close(lib);
}

/* ---- the journal ---- */

static KmChangeSet *sample_changes(void)
{
	KmChangeSet *cs = km_change_set_new();
	g_autoptr(KmProperties) a = tu_track_props(1);
	g_autoptr(KmProperties) b = km_properties_new();
	g_autoptr(GBytes) blob = g_bytes_new_static("\xff\x02\0\0\x10\x01\0\0\x01\0\0\0", 12);

	km_properties_set_fid(a, 0x110);
	km_properties_set_fid(b, 0x2340);
	km_properties_set(b, "type", "playlist");
	km_properties_set_blob(b, "playlist", blob);
	km_change_set_put(cs, a);
	km_change_set_put(cs, b);
	km_change_set_delete(cs, 0x120);
	return cs;
}

static void test_journal_round_trip(void)
{
	g_autoptr(KmChangeSet) cs = sample_changes();
	g_autoptr(GBytes) bytes = km_journal_build(cs);
	g_autoptr(GError) error = NULL;
	g_autoptr(KmChangeSet) back = km_journal_parse(bytes, &error);

	g_assert_no_error(error);
	g_assert_cmpuint(back->puts->len, ==, 2);
	g_assert_cmpuint(back->deletes->len, ==, 1);
	g_assert_cmpuint(g_array_index(back->deletes, guint32, 0), ==, 0x120);
	for (guint i = 0; i < 2; i++) {
		g_autoptr(GBytes) x = km_properties_serialize(cs->puts->pdata[i]);
		g_autoptr(GBytes) y = km_properties_serialize(back->puts->pdata[i]);

		g_assert_true(g_bytes_equal(x, y));
		g_assert_cmpuint(km_properties_get_fid(back->puts->pdata[i]), ==,
				 km_properties_get_fid(cs->puts->pdata[i]));
	}
}

static void put_le32(guint8 *p, guint32 v)
{
	p[0] = (guint8)v;
	p[1] = (guint8)(v >> 8);
	p[2] = (guint8)(v >> 16);
	p[3] = (guint8)(v >> 24);
}

/* data with its checksum made right again, so that only the change is wrong. */
static GBytes *resealed(const guint8 *data, gsize len)
{
	g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
	guint8 *copy = g_memdup2(data, len);
	gsize dlen = 32;

	g_checksum_update(sum, copy, len - 32);
	g_checksum_get_digest(sum, copy + len - 32, &dlen);
	return g_bytes_new_take(copy, len);
}

static void expect_corrupt(GBytes *bytes, const char *what)
{
	g_autoptr(GError) error = NULL;

	g_assert_null(km_journal_parse(bytes, &error));
	g_assert_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_CORRUPT);
	if (!strstr(error->message, what))
		g_error("'%s' does not say '%s'", error->message, what);
}

static void test_journal_malformed(void)
{
	g_autoptr(KmChangeSet) cs = sample_changes();
	g_autoptr(GBytes) good = km_journal_build(cs);
	gsize len;
	const guint8 *g = g_bytes_get_data(good, &len);
	g_autofree guint8 *d = g_memdup2(g, len);
	g_autoptr(GBytes) b = NULL;

	/* Cut short anywhere, one byte flipped anywhere: refused, never a crash. */
	for (gsize cut = 0; cut < len; cut++) {
		g_autoptr(GBytes) part = g_bytes_new(g, cut);

		g_assert_null(km_journal_parse(part, NULL));
	}
	for (gsize i = 0; i < len; i++) {
		g_autoptr(GBytes) flipped = NULL;

		d[i] ^= 0x40;
		flipped = g_bytes_new(d, len);
		g_assert_null(km_journal_parse(flipped, NULL));
		d[i] ^= 0x40;
	}
	d[len - 1] ^= 1;
	b = g_bytes_new(d, len);
	expect_corrupt(b, "checksum");
	d[len - 1] ^= 1;
	/* Each field wrong, with a right checksum. */
	put_le32(d + 8, 0x10000000);
	g_clear_pointer(&b, g_bytes_unref);
	b = resealed(d, len);
	expect_corrupt(b, "cannot fit");
	put_le32(d + 8, 3);
	put_le32(d + 12, 7);
	g_clear_pointer(&b, g_bytes_unref);
	b = resealed(d, len);
	expect_corrupt(b, "operation 7");
	put_le32(d + 12, 1);
	put_le32(d + 16, 0x111);
	g_clear_pointer(&b, g_bytes_unref);
	b = resealed(d, len);
	expect_corrupt(b, "not a fid");
	put_le32(d + 16, 0x110);
	put_le32(d + 20, 0xfffffff0);
	g_clear_pointer(&b, g_bytes_unref);
	b = resealed(d, len);
	expect_corrupt(b, "past the end");
	put_le32(d + 20, 3);
	g_clear_pointer(&b, g_bytes_unref);
	b = resealed(d, len);
	expect_corrupt(b, "entry 0");
	memcpy(d, "KMJRNL2\n", 8);
	g_clear_pointer(&b, g_bytes_unref);
	b = resealed(d, len);
	expect_corrupt(b, "magic");
}

/* A damaged journal is reported; a writable open removes it. */
static void test_damaged_journal(struct fixture *f, gconstpointer unused)
{
	struct omfs_fs *fs = tu_mount(&f->m->bdev);
	KmLibrary *lib;

	tu_fs_write(fs, "var/km-journal", "KMJRNL1\ngarbage", 15);
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
	lib = tu_open(&f->m->bdev, FALSE);
	g_assert_nonnull(strstr(km_library_get_warnings(lib)[0], "km-journal was ignored"));
	g_assert_cmpuint(km_library_get_n_objects(lib), ==, N_TRACKS + 1);
	tu_close(lib);
	lib = tu_open(&f->m->bdev, TRUE);
	tu_close(lib);
	fs = tu_mount(&f->m->bdev);
	g_assert_false(tu_fs_exists(fs, "var/km-journal"));
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
}

/*
 * A journal left by a commit that stopped right after writing it: read-only
 * shows the commit done; writable finishes it, and the library verifies clean.
 */
static void test_interrupted_commit(struct fixture *f, gconstpointer unused)
{
	g_autoptr(KmChangeSet) cs = km_change_set_new();
	g_autoptr(GBytes) journal = NULL;
	g_autoptr(KmVerifyReport) r = NULL;
	struct omfs_fs *fs = tu_mount(&f->m->bdev);
	g_autoptr(KmProperties) edited = tu_fs_props(fs, f->fid[6]);
	KmLibrary *lib;

	km_properties_set(edited, "title", "From the journal");
	km_change_set_put(cs, edited);
	km_change_set_delete(cs, f->fid[7]);
	journal = km_journal_build(cs);
	tu_fs_write(fs, "var/km-journal", g_bytes_get_data(journal, NULL),
		    g_bytes_get_size(journal));
	g_assert_cmpint(omfs_unmount(fs), ==, 0);

	lib = tu_open(&f->m->bdev, FALSE);
	g_assert_nonnull(strstr(km_library_get_warnings(lib)[0], "interrupted"));
	g_assert_cmpstr(tu_get(lib, f->fid[6], "title"), ==,
			"From the journal");
	g_assert_null(km_library_lookup(lib, f->fid[7]));
	r = verify(lib, FALSE);
	finding_for(r, KM_VERIFY_JOURNAL, 0);
	tu_close(lib);

	lib = tu_open(&f->m->bdev, TRUE);
	g_assert_nonnull(strstr(km_library_get_warnings(lib)[0], "finished"));
	g_assert_cmpstr(tu_get(lib, f->fid[6], "title"), ==,
			"From the journal");
	tu_assert_verifies_clean(lib);
	tu_close(lib);
	fs = tu_mount(&f->m->bdev);
	g_assert_false(tu_fs_exists(fs, "var/km-journal"));
	g_assert_false(tu_fs_exists(fs, "fids0/_00000/180"));
	g_assert_cmpint(omfs_unmount(fs), ==, 0);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
#define ADD(path, fn) g_test_add("/library-verify/" path, struct fixture, NULL, setup, fn, teardown)
	ADD("verify-and-repair", test_verify_and_repair);
	ADD("read-only", test_verify_read_only);
	ADD("missing-smalldb", test_missing_smalldb);
	ADD("player-changes", test_player_changes);
	ADD("player-deleted-member", test_player_deleted_member);
	ADD("damaged-journal", test_damaged_journal);
	ADD("interrupted-commit", test_interrupted_commit);
	ADD("file-system", test_file_system);
#undef ADD
	g_test_add_func("/library-verify/journal/round-trip", test_journal_round_trip);
	g_test_add_func("/library-verify/journal/malformed", test_journal_malformed);
	return g_test_run();
}
