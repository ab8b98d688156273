/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-libseeds.c - seeds for the library fuzz targets, written by the
 * library itself with a fixed library clock (the OMFS ctimes in the images
 * still take the real one, so only they change from run to run). Usage:
 * fuzz-libseeds CORPUS-DIR; writes into CORPUS-DIR/{library,smalldb,
 * properties,playlist,label}/ (which must exist):
 *   library/ours-volume     a small music partition: tracks and a playlist
 *   library/ours-disk       the same behind a Karma partition label
 *   library/ours-journal    a commit cut by a power cut after its journal
 *   smalldb/ours, playlist/ours, properties/ours-*, label/ours
 */
#include <gio/gio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "km-fid.h"
#include "km-karma-label.h"
#include "km-library.h"
#include "km-mem-device.h"
#include "km-transaction.h"

#define VOLUME_SIZE (160u << 10)
#define DISK_SECTORS (VOLUME_SIZE / KM_KARMA_SECTOR_SIZE + 8)
#define NOW 1700000000

static const char *outdir;

static gint64 fixed_clock(gpointer data)
{
	return NOW;
}

static void die(const char *what, const GError *error)
{
	fprintf(stderr, "fuzz-libseeds: %s: %s\n", what, error ? error->message : "failed");
	exit(1);
}

static void save(const char *name, const void *data, gsize len)
{
	g_autofree char *path = g_build_filename(outdir, name, NULL);
	g_autoptr(GError) error = NULL;

	if (!g_file_set_contents(path, data, len, &error))
		die(path, error);
}

static void format(const struct omfs_blockdev *dev)
{
	struct omfs_mkfs_opts mkfs = { .blocksize = 1024, .sys_blocksize = 512, .mirrors = 2,
				       .clustersize = 1, .time_ms = (guint64)NOW * 1000 };
	g_autoptr(GError) error = NULL;
	char msg[OMFS_ERRMSG_MAX] = "";

	if (omfs_mkfs(dev, &mkfs, msg, sizeof(msg)))
		die(msg, NULL);
	if (!km_library_create_layout(dev, NOW, &error))
		die("layout", error);
}

static KmLibrary *open_rw(const struct omfs_blockdev *dev)
{
	KmLibraryOptions opts = { .writable = TRUE, .clock = fixed_clock };
	g_autoptr(GError) error = NULL;
	KmLibrary *lib = km_library_open(dev, &opts, &error);

	if (!lib)
		die("open", error);
	return lib;
}

static guint32 add_track(KmTransaction *tx, guint i, gsize size)
{
	static const char *const titles[] = { "Zoë", "a \\ b = c", "Ünïcode\ttab" };
	g_autoptr(KmProperties) p = km_properties_new();
	g_autofree guint8 *data = g_malloc(size);
	g_autoptr(GInputStream) in = NULL;
	g_autoptr(GError) error = NULL;
	guint32 fid = 0;

	for (gsize k = 0; k < size; k++)
		data[k] = (guint8)(k * 7 + i);
	in = g_memory_input_stream_new_from_data(g_memdup2(data, size), size, g_free);
	km_properties_set(p, "codec", "wave");
	km_properties_set(p, "title", titles[i % G_N_ELEMENTS(titles)]);
	km_properties_set(p, "artist", i ? "Artist" : "the Band");
	km_properties_set(p, "source", "Album");
	km_properties_set_uint(p, "tracknr", i + 1);
	km_properties_set_uint(p, "duration", 1000 + i);
	if (!km_transaction_add_stream(tx, p, in, size, NULL, NULL, NULL, &fid, &error))
		die("add", error);
	return fid;
}

/* Three tracks and a playlist of two; the playlist's fid. */
static guint32 fill(KmLibrary *lib)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(KmTransaction) tx = km_library_begin(lib, &error);
	guint32 track[3], list = 0;

	for (guint i = 0; tx && i < 3; i++)
		track[i] = add_track(tx, i, 700 + 900 * i);
	if (!tx || !km_transaction_playlist_create(tx, "List", &list, &error) ||
	    !km_transaction_playlist_insert(tx, list, track[2], -1, &error) ||
	    !km_transaction_playlist_insert(tx, list, track[0], -1, &error) ||
	    !km_transaction_commit(tx, &error))
		die("fill", error);
	return list;
}

static void save_file(struct omfs_fs *fs, const char *path, const char *name)
{
	guint8 buf[16384];
	uint64_t ino;
	int64_t n;

	if (omfs_resolve(fs, path, &ino))
		die(path, NULL);
	n = omfs_read(fs, ino, 0, buf, sizeof(buf));
	if (n < 0)
		die(path, NULL);
	save(name, buf, (gsize)n);
}

/* The library's files, one seed each, read back through the core. */
static void save_parts(const struct omfs_blockdev *dev, guint32 list)
{
	struct omfs_mount_opts opts = { .read_only = true };
	g_autofree char *props = km_fid_to_path(list, KM_FID_FILE_PROPERTIES);
	g_autofree char *blob = km_fid_to_path(list, KM_FID_FILE_DATA);
	g_autofree char *track = km_fid_to_path(list - 0x10, KM_FID_FILE_PROPERTIES);
	char msg[OMFS_ERRMSG_MAX];
	struct omfs_fs *fs;

	if (omfs_mount(dev, &opts, &fs, msg, sizeof(msg)))
		die(msg, NULL);
	save_file(fs, "var/smalldb", "smalldb/ours");
	save_file(fs, props, "properties/ours-playlist");
	save_file(fs, track, "properties/ours-tune");
	save_file(fs, blob, "playlist/ours");
	omfs_unmount(fs);
}

static gboolean has_journal(const struct omfs_blockdev *dev)
{
	struct omfs_mount_opts opts = { .read_only = true };
	char msg[OMFS_ERRMSG_MAX];
	struct omfs_fs *fs;
	uint64_t ino;
	gboolean found;

	if (omfs_mount(dev, &opts, &fs, msg, sizeof(msg)))
		die(msg, NULL);
	found = omfs_resolve(fs, "var/km-journal", &ino) == 0;
	omfs_unmount(fs);
	return found;
}

/* base with the next commit (a track added, the playlist renamed) cut at write k. */
static struct km_mem_device *cut_commit(const guint8 *base, guint32 list, guint64 k)
{
	struct km_mem_device *m = km_mem_device_new(VOLUME_SIZE, base);
	KmLibrary *lib = open_rw(&m->bdev);
	g_autoptr(GError) error = NULL;
	KmTransaction *tx = km_library_begin(lib, &error);

	add_track(tx, 3, 2000);
	if (!km_transaction_playlist_rename(tx, list, "Renamed", &error))
		die("rename", error);
	km_mem_device_arm_cut(m, k, KM_MEM_CUT_CLEAN, 0);
	km_transaction_commit(tx, NULL);
	g_object_unref(tx);
	km_library_close(lib, NULL);
	g_object_unref(lib);
	return m;
}

/* A volume, its files, and the first commit cut that leaves a journal (a few writes later). */
static void volume_seeds(void)
{
	struct km_mem_device *m = km_mem_device_new(VOLUME_SIZE, NULL);
	struct km_mem_device *cut;
	KmLibrary *lib;
	guint32 list;
	guint64 k;

	format(&m->bdev);
	lib = open_rw(&m->bdev);
	list = fill(lib);
	km_library_close(lib, NULL);
	g_object_unref(lib);
	save("library/ours-volume", m->data, VOLUME_SIZE);
	save_parts(&m->bdev, list);
	for (k = 0; k < 1000; k++) {
		gboolean found;

		cut = cut_commit(m->data, list, k);
		found = has_journal(&cut->bdev);

		km_mem_device_free(cut);
		if (found)
			break;
	}
	if (k == 1000)
		die("no cut leaves a journal", NULL);
	cut = cut_commit(m->data, list, k + 3);

	save("library/ours-journal", cut->data, VOLUME_SIZE);
	km_mem_device_free(cut);
	km_mem_device_free(m);
}

/* The same library behind a label: a small unformatted system partition, then music. */
static void disk_seeds(void)
{
	struct km_mem_device *m = km_mem_device_new((guint64)DISK_SECTORS * 512, NULL);
	struct km_karma_label label = {
		.n_partitions = 2,
		.partitions = { { 1, 1, 7 }, { 2, 8, DISK_SECTORS - 8 } },
	};
	struct km_partition_device *win;
	char msg[256];
	guint8 seed[KM_KARMA_SECTOR_SIZE + 8];
	guint64 size = m->size;
	KmLibrary *lib;

	if (km_karma_label_build(m->data, &label, m->size, msg, sizeof(msg)))
		die(msg, NULL);
	win = km_karma_partition_open(&m->bdev, &label.partitions[1], msg, sizeof(msg));
	if (!win)
		die(msg, NULL);
	format(km_partition_device_blockdev(win));
	km_partition_device_close(win);
	lib = open_rw(&m->bdev);
	fill(lib);
	km_library_close(lib, NULL);
	g_object_unref(lib);
	save("library/ours-disk", m->data, m->size);
	memcpy(seed, m->data, KM_KARMA_SECTOR_SIZE);
	for (guint i = 0; i < 8; i++)
		seed[KM_KARMA_SECTOR_SIZE + i] = (guint8)(size >> (8 * i));
	save("label/ours", seed, sizeof(seed));
	km_mem_device_free(m);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS-DIR\n", argv[0]);
		return 2;
	}
	outdir = argv[1];
	volume_seeds();
	disk_seeds();
	return 0;
}
