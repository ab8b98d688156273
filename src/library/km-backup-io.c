/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-backup-io.c - the side files of a backup, and I/O that reports where it failed. */
#include "km-backup-private.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

char *km_backup_side_path(const char *path, const char *suffix)
{
	return g_strconcat(path, suffix, NULL);
}

static gboolean is_hex_sha256(const char *s)
{
	for (int i = 0; i < 64; i++)
		if (!g_ascii_isxdigit(s[i]) || g_ascii_isupper(s[i]))
			return FALSE;
	return TRUE;
}

/* sha256sum's line: 64 lowercase hex digits, two spaces (or " *"), the name. */
gboolean km_backup_read_checksum(const char *path, char sha256[65], GError **error)
{
	char *side = km_backup_side_path(path, ".sha256");
	char *text = NULL;
	gsize len = 0;
	gboolean ok;

	ok = g_file_get_contents(side, &text, &len, error);
	if (ok && (len < 66 || !is_hex_sha256(text) || text[64] != ' ')) {
		g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_CORRUPT,
			    "%s: not a SHA-256 checksum line", side);
		ok = FALSE;
	}
	if (ok)
		g_strlcpy(sha256, text, 65);
	g_free(text);
	g_free(side);
	return ok;
}

/*
 * A backup image is read once, from start to end (a restore, a check, a
 * resumed backup's re-hash): its pages need not stay in the page cache,
 * where a 30 GB image would push out every other file. Pages that were
 * still being read ahead when their range was dropped stay cached, so the
 * last DROP_LAG bytes before the range are dropped again: what stays is
 * the kernel's read-ahead window past the reader (about twice the disk's
 * read_ahead_kb), whatever the image's size (docs/PERFORMANCE.md, "Writing
 * to a block device").
 */
#define DROP_LAG ((guint64)4 << 20)

static void drop_read_pages(int fd, guint64 offset, gsize len)
{
	guint64 from = offset > DROP_LAG ? offset - DROP_LAG : 0;

	posix_fadvise(fd, (off_t)from, (off_t)(offset + len - from), POSIX_FADV_DONTNEED);
}

void km_backup_close_image(int fd)
{
	/* what the read-ahead brought past the last read, and the last writes */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
}

gboolean km_backup_pread(int fd, const char *path, void *buf, gsize len, guint64 offset,
			 GError **error)
{
	gsize done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(offset + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			g_set_error(error, G_IO_ERROR, g_io_error_from_errno(n ? errno : EIO),
				    "%s: reading at byte %" G_GUINT64_FORMAT ": %s", path,
				    offset + done, n ? g_strerror(errno) : "unexpected end of file");
			return FALSE;
		}
		done += (gsize)n;
	}
	drop_read_pages(fd, offset, len);
	return TRUE;
}

gboolean km_backup_pwrite(int fd, const char *path, const void *buf, gsize len,
			  guint64 offset, GError **error)
{
	gsize done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, (const char *)buf + done, len - done, (off_t)(offset + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno),
				    "%s: writing at byte %" G_GUINT64_FORMAT ": %s", path,
				    offset + done, g_strerror(errno));
			return FALSE;
		}
		done += (gsize)n;
	}
	return TRUE;
}

gboolean km_backup_errno_error(const char *path, GError **error)
{
	int err = errno;

	g_set_error(error, G_IO_ERROR, g_io_error_from_errno(err), "%s: %s", path,
		    g_strerror(err));
	return FALSE;
}

gboolean km_backup_device_error(int err, const char *what, guint64 offset, GError **error)
{
	g_set_error(error, KM_LIBRARY_ERROR, KM_LIBRARY_ERROR_IO,
		    "%s at byte %" G_GUINT64_FORMAT ": %s", what, offset, g_strerror(-err));
	return FALSE;
}

void km_backup_checksum_zeros(GChecksum *checksum, guint64 len)
{
	static const guint8 zeros[64 * 1024];

	while (len) {
		gsize n = (gsize)MIN(len, sizeof(zeros));

		g_checksum_update(checksum, zeros, (gssize)n);
		len -= n;
	}
}

void km_backup_report(const KmBackupOptions *options, KmPhase phase, guint64 done,
		      guint64 total)
{
	km_progress_report(options->progress, options->progress_data, phase, done, total);
}
