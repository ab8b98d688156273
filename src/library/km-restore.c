/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-restore.c - a backup back onto a disk (km-backup.h).
 *
 * Order: check the backup's checksum (a damaged backup never touches the
 * disk); put the unfinished-restore mark in sector 0; write every data
 * range of the backup (its holes are free blocks: nothing to restore) where
 * the target differs; read all of it back; only then write the real sector 0.
 * A restore stopped anywhere before the end leaves the mark, which the label
 * parser reports, so the disk is never taken for a good one.
 */
#include "km-backup-private.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "km-karma-label.h"

typedef struct {
	const char *path;
	const struct omfs_blockdev *target;
	const KmBackupOptions *options;
	KmRestoreResult *result;
	int fd;
	guint64 size;
	guint8 *want, *have;
	guint64 data_bytes, done;
} Restore;

/* The next data range of the backup at or after *pos, or FALSE at its end. */
static gboolean next_data(Restore *r, guint64 pos, KmByteRange *range)
{
	off_t start = lseek(r->fd, (off_t)pos, SEEK_DATA), end;

	if (start < 0 || (guint64)start >= r->size)
		return FALSE;
	end = lseek(r->fd, start, SEEK_HOLE);
	if (end < 0 || (guint64)end > r->size)
		end = (off_t)r->size;
	range->offset = (guint64)start;
	range->length = (guint64)(end - start);
	return TRUE;
}

typedef gboolean (*ChunkFunc)(Restore *r, guint64 offset, gsize len, GError **error);

/* Calls func on every chunk of the backup's data past sector 0. */
static gboolean for_each_chunk(Restore *r, KmPhase phase, ChunkFunc func, GError **error)
{
	guint64 pos = KM_KARMA_SECTOR_SIZE;
	KmByteRange range;

	r->done = 0;
	while (next_data(r, pos, &range)) {
		for (pos = range.offset; pos < range.offset + range.length;) {
			gsize n = (gsize)MIN(KM_BACKUP_CHUNK, range.offset + range.length - pos);

			if (g_cancellable_set_error_if_cancelled(r->options->cancellable, error) ||
			    !km_backup_pread(r->fd, r->path, r->want, n, pos, error) ||
			    !func(r, pos, n, error))
				return FALSE;
			pos += n;
			r->done += n;
			km_backup_report(r->options, phase, r->done, r->data_bytes);
		}
	}
	return TRUE;
}

/* The bytes of data past sector 0 (for progress): the holes cost nothing. */
static guint64 count_data(Restore *r)
{
	guint64 pos = KM_KARMA_SECTOR_SIZE, sum = 0;
	KmByteRange range;

	while (next_data(r, pos, &range)) {
		sum += range.length;
		pos = range.offset + range.length;
	}
	return sum;
}

static gboolean write_chunk(Restore *r, guint64 offset, gsize len, GError **error)
{
	int err;

	if (offset + len > r->size || offset + len > r->target->size(r->target->ctx)) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID,
			    "the backup holds data at byte %" G_GUINT64_FORMAT
			    ", past the end of the target", offset);
		return FALSE;
	}
	r->result->checked += len;
	/* a target that cannot be read is simply written */
	if (r->target->read(r->target->ctx, offset, r->have, len) == 0 &&
	    memcmp(r->want, r->have, len) == 0)
		return TRUE;
	err = r->target->write(r->target->ctx, offset, r->want, len);
	if (err < 0)
		return km_backup_device_error(err, "writing the target", offset, error);
	r->result->written += len;
	return TRUE;
}

static gboolean verify_chunk(Restore *r, guint64 offset, gsize len, GError **error)
{
	int err = r->target->read(r->target->ctx, offset, r->have, len);

	if (err < 0)
		return km_backup_device_error(err, "reading back the target", offset, error);
	if (memcmp(r->want, r->have, len) != 0) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO,
			    "the target did not read back as written near byte %" G_GUINT64_FORMAT,
			    offset);
		return FALSE;
	}
	return TRUE;
}

static gboolean flush_target(Restore *r, GError **error)
{
	int err = r->target->flush(r->target->ctx);

	return err == 0 || km_backup_device_error(err, "flushing the target", 0, error);
}

/* Sector 0: the mark first, the backup's own sector at the very end. */
static gboolean write_sector0(Restore *r, gboolean mark, GError **error)
{
	guint8 sector[KM_KARMA_SECTOR_SIZE], back[KM_KARMA_SECTOR_SIZE];
	int err;

	if (mark)
		km_karma_label_build_unfinished(sector);
	else if (!km_backup_pread(r->fd, r->path, sector, sizeof(sector), 0, error))
		return FALSE;
	err = r->target->write(r->target->ctx, 0, sector, sizeof(sector));
	if (err < 0)
		return km_backup_device_error(err, "writing the target", 0, error);
	if (!flush_target(r, error))
		return FALSE;
	err = r->target->read(r->target->ctx, 0, back, sizeof(back));
	if (err < 0)
		return km_backup_device_error(err, "reading back the target", 0, error);
	if (memcmp(sector, back, sizeof(sector)) != 0) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO,
			    "the target's sector 0 did not read back as written");
		return FALSE;
	}
	return TRUE;
}

static gboolean check_sizes(Restore *r, gboolean force, GError **error)
{
	guint64 target = r->target->size(r->target->ctx);
	GStatBuf st;

	if (fstat(r->fd, &st) < 0) {
		return km_backup_errno_error(r->path, error);
	}
	r->size = (guint64)st.st_size;
	if (r->size < KM_KARMA_SECTOR_SIZE || (r->size != target && !force)) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_INVALID,
			    "%s is a backup of a disk of %" G_GUINT64_FORMAT " bytes, but the "
			    "target holds %" G_GUINT64_FORMAT " bytes%s", r->path, r->size, target,
			    r->size < KM_KARMA_SECTOR_SIZE ? "" : " (force it to restore anyway)");
		return FALSE;
	}
	return TRUE;
}

static gboolean run_restore(Restore *r, gboolean force, GError **error)
{
	char sha256[65];

	if (!km_backup_check(r->path, r->options, sha256, error))
		return FALSE;
	r->fd = g_open(r->path, O_RDONLY | O_CLOEXEC, 0);
	if (r->fd < 0) {
		return km_backup_errno_error(r->path, error);
	}
	if (!check_sizes(r, force, error))
		return FALSE;
	r->data_bytes = count_data(r);
	return write_sector0(r, TRUE, error) &&
	       for_each_chunk(r, KM_PHASE_WRITING, write_chunk, error) && flush_target(r, error) &&
	       for_each_chunk(r, KM_PHASE_VERIFYING, verify_chunk, error) &&
	       write_sector0(r, FALSE, error);
}

gboolean km_backup_restore(const char *path, const struct omfs_blockdev *target, gboolean force,
			   const KmBackupOptions *options, KmRestoreResult *result,
			   GError **error)
{
	static const KmBackupOptions defaults;
	Restore r = {
		.path = path, .target = target, .options = options ? options : &defaults,
		.result = result, .fd = -1,
	};
	gboolean ok;

	memset(result, 0, sizeof(*result));
	r.want = g_malloc(KM_BACKUP_CHUNK);
	r.have = g_malloc(KM_BACKUP_CHUNK);
	ok = run_restore(&r, force, error);
	if (r.fd >= 0)
		km_backup_close_image(r.fd);
	g_free(r.want);
	g_free(r.have);
	return ok;
}
