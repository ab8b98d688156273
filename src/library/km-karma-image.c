/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-karma-image.c - a whole Karma disk image: the label sector, then the
 * system partition up to 16 MiB (the player keeps its firmware there; we
 * leave it an empty OMFS volume), then the music partition.
 */
#include "km-karma-image.h"

#include <errno.h>

#include "km-image-device.h"
#include "km-karma-label.h"
#include "km-library.h"

#define MUSIC_START_SECTOR ((guint32)(KM_KARMA_IMAGE_MUSIC_OFFSET / KM_KARMA_SECTOR_SIZE))

static gboolean fail(GError **error, const char *path, const char *what, const char *msg)
{
	g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO, "%s: %s: %s", path, what, msg);
	return FALSE;
}

static gboolean write_label(const struct omfs_blockdev *disk, const struct km_karma_label *label,
			    guint64 size, const char *path, GError **error)
{
	guint8 sector[KM_KARMA_SECTOR_SIZE];
	char msg[OMFS_ERRMSG_MAX] = "";
	int err;

	err = km_karma_label_build(sector, label, size, msg, sizeof(msg));
	if (err < 0)
		return fail(error, path, "label", msg);
	err = disk->write(disk->ctx, 0, sector, sizeof(sector));
	if (err < 0)
		return fail(error, path, "label", g_strerror(-err));
	return TRUE;
}

/* mkfs on one partition; the music partition also gets fids0/, var/ and smalldb. */
static gboolean format_partition(const struct omfs_blockdev *disk,
				 const struct km_karma_partition *part, const char *name,
				 guint32 timestamp, const char *path, GError **error)
{
	struct omfs_mkfs_opts opts = { .label = name };
	char msg[OMFS_ERRMSG_MAX] = "", what[32];
	struct km_partition_device *win;
	gboolean ok = TRUE;
	int err;

	g_snprintf(what, sizeof(what), "partition %u", part->number);
	win = km_karma_partition_open(disk, part, msg, sizeof(msg));
	if (!win)
		return fail(error, path, what, msg);
	err = omfs_mkfs(km_partition_device_blockdev(win), &opts, msg, sizeof(msg));
	if (err < 0)
		ok = fail(error, path, what, msg[0] ? msg : g_strerror(-err));
	else if (part->number == 2)
		ok = km_library_create_layout(km_partition_device_blockdev(win), timestamp, error);
	km_partition_device_close(win);
	return ok;
}

gboolean km_karma_image_create(const char *path, guint64 size, guint32 timestamp,
			       GError **error)
{
	guint64 sectors = size / KM_KARMA_SECTOR_SIZE;
	struct km_karma_label label = {
		.n_partitions = 2,
		.partitions = {
			{ 1, 1, MUSIC_START_SECTOR - 1 },
			{ 2, MUSIC_START_SECTOR, (guint32)(sectors - MUSIC_START_SECTOR) },
		},
	};
	char msg[OMFS_ERRMSG_MAX] = "";
	struct km_image_device *dev;
	const struct omfs_blockdev *disk;
	gboolean ok;
	int err;

	if (size < KM_KARMA_IMAGE_MIN_SIZE || sectors > G_MAXUINT32) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID,
			    "%s: a Karma disk holds from 32 MiB to 2 TiB, not %" G_GUINT64_FORMAT
			    " bytes", path, size);
		return FALSE;
	}
	dev = km_image_device_create(path, sectors * KM_KARMA_SECTOR_SIZE, msg, sizeof(msg));
	if (!dev)
		return fail(error, path, "create", msg[0] ? msg : g_strerror(errno));
	disk = km_image_device_blockdev(dev);
	ok = write_label(disk, &label, sectors * KM_KARMA_SECTOR_SIZE, path, error) &&
	     format_partition(disk, &label.partitions[0], "system", timestamp, path, error) &&
	     format_partition(disk, &label.partitions[1], "music", timestamp, path, error);
	err = km_image_device_close(dev);
	if (err < 0 && ok)
		ok = fail(error, path, "close", g_strerror(-err));
	return ok;
}
