/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-backup.c - making and checking a backup (km-backup.h).
 *
 * The image is written in disk order, so "how far it got" is one offset: the
 * .partial file records it (after an fdatasync) every RESUME_STEP bytes and
 * when cancelled. Resuming re-hashes the image up to there, which is fast
 * (a local file, its holes cost nothing), and goes on reading the disk. The
 * .partial file also holds a fingerprint of the disk (its size, sector 0 and
 * the plan, which changes with every allocation) so that a disk changed in
 * between makes the backup start over rather than mix two states.
 */
#include "km-backup-private.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "km-karma-label.h"
#include "km-write-through.h"

#define RESUME_STEP ((guint64)64 << 20)
#define GROUP "backup"

typedef struct {
	const struct omfs_blockdev *disk;
	const char *path;
	const KmBackupOptions *options;
	KmBackupResult *result;
	int fd;
	struct km_write_through through;	/* the image's pages leave the page cache */
	guint8 *buf;
	GChecksum *sum;
	char *fingerprint;
	guint64 pos;		/* the image is complete (and hashed) up to here */
	guint64 planned, read;	/* bytes of the plan, and of those read so far */
} Backup;

static char *disk_fingerprint(const struct omfs_blockdev *disk, const GArray *plan,
			      GError **error)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	guint8 sector[KM_KARMA_SECTOR_SIZE];
	guint64 size = disk->size(disk->ctx);
	char *fp = NULL;
	int err;

	err = disk->read(disk->ctx, 0, sector, sizeof(sector));
	if (err == 0) {
		g_checksum_update(sum, (const guint8 *)&size, sizeof(size));
		g_checksum_update(sum, sector, sizeof(sector));
		g_checksum_update(sum, (const guint8 *)plan->data,
				  (gssize)(plan->len * sizeof(KmByteRange)));
		fp = g_strdup(g_checksum_get_string(sum));
	} else {
		km_backup_device_error(err, "reading the disk", 0, error);
	}
	g_checksum_free(sum);
	return fp;
}

static gboolean save_partial(Backup *b, GError **error)
{
	char *side = km_backup_side_path(b->path, ".partial");
	GKeyFile *kf = g_key_file_new();
	gboolean ok;

	if (fdatasync(b->fd) < 0) {
		ok = km_backup_errno_error(b->path, error);
	} else {
		km_write_through_flushed(&b->through, b->fd);
		g_key_file_set_string(kf, GROUP, "fingerprint", b->fingerprint);
		g_key_file_set_uint64(kf, GROUP, "complete-up-to", b->pos);
		ok = g_key_file_save_to_file(kf, side, error);
	}
	g_key_file_free(kf);
	g_free(side);
	return ok;
}

/* Where an unfinished backup of this same disk stopped, or 0. */
static guint64 resume_offset(Backup *b, guint64 size)
{
	char *side = km_backup_side_path(b->path, ".partial");
	GKeyFile *kf = g_key_file_new();
	guint64 pos = 0;
	char *fp = NULL;
	GStatBuf st;

	if (!b->options->no_resume && g_key_file_load_from_file(kf, side, 0, NULL) &&
	    g_stat(b->path, &st) == 0 && (guint64)st.st_size == size) {
		fp = g_key_file_get_string(kf, GROUP, "fingerprint", NULL);
		if (g_strcmp0(fp, b->fingerprint) == 0)
			pos = g_key_file_get_uint64(kf, GROUP, "complete-up-to", NULL);
		else
			g_ptr_array_add(b->result->notes,
					g_strdup("the disk changed since the unfinished backup: "
						 "starting over"));
	}
	g_free(fp);
	g_key_file_free(kf);
	g_free(side);
	return MIN(pos, size);
}

static gboolean open_image(Backup *b, guint64 size, GError **error)
{
	char *partial = km_backup_side_path(b->path, ".partial");
	gboolean unfinished = g_file_test(partial, G_FILE_TEST_EXISTS);

	g_free(partial);
	if (!unfinished && g_file_test(b->path, G_FILE_TEST_EXISTS)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_EXISTS,
			    /* Translators: a file's name */
			    _("%s already exists: choose another name, or remove it first"),
			    b->path);
		return FALSE;
	}
	b->result->resumed_from = b->pos = resume_offset(b, size);
	b->fd = g_open(b->path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	km_write_through_init_file(&b->through);
	/* starting over: empty it, so that every byte past pos is a hole */
	if (b->fd >= 0 && (b->pos == 0 ? ftruncate(b->fd, 0) : 0) == 0 &&
	    ftruncate(b->fd, (off_t)size) == 0)
		return TRUE;
	return km_backup_errno_error(b->path, error);
}

/* The image up to pos, hashed again from the file an earlier run wrote. */
static gboolean rehash_prefix(Backup *b, GError **error)
{
	for (guint64 off = 0; off < b->pos;) {
		gsize n = (gsize)MIN(KM_BACKUP_CHUNK, b->pos - off);

		if (!km_backup_pread(b->fd, b->path, b->buf, n, off, error))
			return FALSE;
		g_checksum_update(b->sum, b->buf, (gssize)n);
		off += n;
		km_backup_report(b->options, KM_PHASE_CHECKING, off, b->pos);
	}
	return TRUE;
}

/* A hole up to end: zeros in the image (an earlier run may have written there). */
static gboolean skip_to(Backup *b, guint64 end, GError **error)
{
	if (end <= b->pos)
		return TRUE;
	if (b->result->resumed_from &&
	    fallocate(b->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)b->pos,
		      (off_t)(end - b->pos)) < 0) {
		g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
			    "%s: clearing bytes %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT ": %s",
			    b->path, b->pos, end, g_strerror(errno));
		return FALSE;
	}
	km_backup_checksum_zeros(b->sum, end - b->pos);
	b->pos = end;
	return TRUE;
}

static gboolean copy_chunk(Backup *b, gsize n, GError **error)
{
	int err = b->disk->read(b->disk->ctx, b->pos, b->buf, n);

	if (err < 0)
		return km_backup_device_error(err, "reading the disk", b->pos, error);
	if (!km_backup_pwrite(b->fd, b->path, b->buf, n, b->pos, error))
		return FALSE;
	err = km_write_through_wrote(&b->through, b->fd, b->pos, n);
	if (err < 0) {
		errno = -err;
		return km_backup_errno_error(b->path, error);
	}
	g_checksum_update(b->sum, b->buf, (gssize)n);
	b->pos += n;
	b->read += n;
	b->result->copied += n;
	km_backup_report(b->options, KM_PHASE_READING, b->read, b->planned);
	if (b->pos % RESUME_STEP < n)
		return save_partial(b, error);
	return TRUE;
}

static gboolean copy_range(Backup *b, const KmByteRange *r, GError **error)
{
	guint64 end = r->offset + r->length;

	if (end <= b->pos) {
		b->read += r->length;
		return TRUE;
	}
	b->read += b->pos > r->offset ? b->pos - r->offset : 0;
	if (!skip_to(b, r->offset, error))
		return FALSE;
	while (b->pos < end) {
		if (g_cancellable_set_error_if_cancelled(b->options->cancellable, error)) {
			save_partial(b, NULL);
			return FALSE;
		}
		if (!copy_chunk(b, (gsize)MIN(KM_BACKUP_CHUNK, end - b->pos), error))
			return FALSE;
	}
	return TRUE;
}

static gboolean write_side_files(Backup *b, guint64 size, GError **error)
{
	char *sha = km_backup_side_path(b->path, ".sha256");
	char *info = km_backup_side_path(b->path, ".info");
	char *partial = km_backup_side_path(b->path, ".partial");
	char *base = g_path_get_basename(b->path);
	char *line = g_strdup_printf("%s  %s\n", b->result->sha256, base);
	GDateTime *now = g_date_time_new_now_utc();
	char *when = g_date_time_format_iso8601(now);
	GKeyFile *kf = g_key_file_new();
	gboolean ok;

	g_key_file_set_string(kf, GROUP, "created", when);
	g_key_file_set_uint64(kf, GROUP, "disk-size", size);
	g_key_file_set_uint64(kf, GROUP, "used-bytes", b->planned);
	g_key_file_set_string(kf, GROUP, "source", b->options->source ? b->options->source : "");
	g_key_file_set_string(kf, GROUP, "sha256", b->result->sha256);
	ok = g_file_set_contents(sha, line, -1, error) &&
	     g_key_file_save_to_file(kf, info, error);
	if (ok)
		g_unlink(partial);
	g_key_file_free(kf);
	g_free(when);
	g_date_time_unref(now);
	g_free(line);
	g_free(base);
	g_free(partial);
	g_free(info);
	g_free(sha);
	return ok;
}

static gboolean run_backup(Backup *b, GError **error)
{
	guint64 size = b->disk->size(b->disk->ctx);
	GArray *plan = km_backup_plan(b->disk, b->options->all_blocks, b->result->notes);
	gboolean ok;
	guint i;

	b->result->disk_size = size;
	b->planned = km_backup_plan_bytes(plan);
	b->fingerprint = disk_fingerprint(b->disk, plan, error);
	ok = b->fingerprint && open_image(b, size, error) && rehash_prefix(b, error);
	for (i = 0; ok && i < plan->len; i++)
		ok = copy_range(b, &g_array_index(plan, KmByteRange, i), error);
	ok = ok && skip_to(b, size, error);
	if (ok && fdatasync(b->fd) < 0)
		ok = km_backup_errno_error(b->path, error);
	else if (ok)
		km_write_through_flushed(&b->through, b->fd);
	if (ok) {
		g_strlcpy(b->result->sha256, g_checksum_get_string(b->sum), 65);
		ok = write_side_files(b, size, error);
	}
	g_array_unref(plan);
	return ok;
}

gboolean km_backup_create(const struct omfs_blockdev *disk, const char *path,
			  const KmBackupOptions *options, KmBackupResult *result,
			  GError **error)
{
	static const KmBackupOptions defaults;
	Backup b = {
		.disk = disk, .path = path, .options = options ? options : &defaults,
		.result = result, .fd = -1,
	};
	gboolean ok;

	memset(result, 0, sizeof(*result));
	result->notes = g_ptr_array_new_with_free_func(g_free);
	b.buf = g_malloc(KM_BACKUP_CHUNK);
	b.sum = g_checksum_new(G_CHECKSUM_SHA256);
	ok = run_backup(&b, error);
	if (b.fd >= 0)
		km_backup_close_image(b.fd);
	g_checksum_free(b.sum);
	g_free(b.fingerprint);
	g_free(b.buf);
	return ok;
}

void km_backup_result_clear(KmBackupResult *result)
{
	g_clear_pointer(&result->notes, g_ptr_array_unref);
}

gboolean km_backup_check(const char *path, const KmBackupOptions *options, char sha256[65],
			 GError **error)
{
	static const KmBackupOptions defaults;
	const KmBackupOptions *o = options ? options : &defaults;
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	guint8 *buf = g_malloc(KM_BACKUP_CHUNK);
	char expected[65];
	int fd = -1;
	GStatBuf st = { .st_size = 0 };
	gboolean ok = km_backup_read_checksum(path, expected, error);

	if (ok && ((fd = g_open(path, O_RDONLY | O_CLOEXEC, 0)) < 0 || fstat(fd, &st) < 0)) {
		ok = km_backup_errno_error(path, error);
	}
	for (guint64 off = 0; ok && off < (guint64)st.st_size;) {
		gsize n = (gsize)MIN(KM_BACKUP_CHUNK, (guint64)st.st_size - off);

		ok = !g_cancellable_set_error_if_cancelled(o->cancellable, error) &&
		     km_backup_pread(fd, path, buf, n, off, error);
		g_checksum_update(sum, buf, (gssize)n);
		off += n;
		km_backup_report(o, KM_PHASE_CHECKING, off, (guint64)st.st_size);
	}
	if (ok) {
		g_strlcpy(sha256, g_checksum_get_string(sum), 65);
		if (strcmp(sha256, expected) != 0) {
			g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_CORRUPT,
				    /* Translators: a file, a checksum, the file, a checksum */
				    _("%s is damaged: its content's SHA-256 is %s, but %s.sha256 "
				      "says %s"), path, sha256, path, expected);
			ok = FALSE;
		}
	}
	if (fd >= 0)
		km_backup_close_image(fd);
	g_free(buf);
	g_checksum_free(sum);
	return ok;
}
