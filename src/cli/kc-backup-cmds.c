/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-backup-cmds.c - backup (the whole disk of -i to a sparse image file,
 * resumable; or --verify a backup) and restore (a backup onto -i).
 * Ctrl-C stops a backup so that running it again resumes it.
 */
#include "kc-library.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "km-backup.h"
#include "km-image-device.h"
#include "km-karma-label.h"

static char *backup_to;
static char *backup_verify;
static gboolean backup_no_resume;
static gboolean backup_all;
static char *restore_from;
static gboolean restore_force;

static const GOptionEntry backup_options[] = {
	{ "to", 0, 0, G_OPTION_ARG_FILENAME, &backup_to,
	  "Write the backup to FILE (resumes an unfinished backup there)", "FILE" },
	{ "verify", 0, 0, G_OPTION_ARG_FILENAME, &backup_verify,
	  "Check the backup FILE against its checksum and fsck its volumes", "FILE" },
	{ "no-resume", 0, 0, G_OPTION_ARG_NONE, &backup_no_resume,
	  "Start an unfinished backup over", NULL },
	{ "all", 0, 0, G_OPTION_ARG_NONE, &backup_all,
	  "Read every block, also those the bitmaps mark free", NULL },
	{ NULL }
};

static const GOptionEntry restore_options[] = {
	{ "from", 0, 0, G_OPTION_ARG_FILENAME, &restore_from,
	  "The backup FILE to restore", "FILE" },
	{ "force", 0, 0, G_OPTION_ARG_NONE, &restore_force,
	  "Restore a backup of a disk of another size", NULL },
	{ NULL }
};

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* Progress on a terminal; Ctrl-C turns into a cancellation at the next chunk. */
typedef struct {
	GCancellable *cancellable;
	gint64 started;
	const char *phase;
	bool tty;
} Progress;

static void show_progress(const KmBackupProgress *p, gpointer data)
{
	Progress *pr = data;
	gint64 now = g_get_monotonic_time();
	double secs, rate;

	if (interrupted)
		g_cancellable_cancel(pr->cancellable);
	if (!pr->tty)
		return;
	if (pr->phase != p->phase) {
		pr->phase = p->phase;
		pr->started = now;
	}
	secs = (double)(now - pr->started) / G_USEC_PER_SEC;
	rate = secs > 0.5 ? (double)p->done / secs : 0;
	fprintf(stderr, "\r%s: %5.1f%%  %8.1f MB/s  ", p->phase,
		p->total ? 100.0 * (double)p->done / (double)p->total : 100.0, rate / 1e6);
	if (rate > 0)
		fprintf(stderr, "%5.0f s left  ", (double)(p->total - p->done) / rate);
	if (p->done >= p->total)
		fputc('\n', stderr);
}

static void progress_init(Progress *pr, KmBackupOptions *o)
{
	struct sigaction sa = { .sa_handler = on_interrupt };

	pr->cancellable = g_cancellable_new();
	pr->tty = isatty(STDERR_FILENO);
	o->progress = show_progress;
	o->progress_data = pr;
	o->cancellable = pr->cancellable;
	sigaction(SIGINT, &sa, NULL);
}

static int finish(struct kc_ctx *ctx, Progress *pr, const char *what, GError *error)
{
	int status = KC_EXIT_OK;

	if (pr->tty)
		fputc('\n', stderr);
	if (error) {
		status = kc_fail_gerror(ctx, what, error);
		g_error_free(error);
	}
	g_object_unref(pr->cancellable);
	return status;
}

/* The whole disk of -i: an image, a block device, or (--simulate) a player. */
static int open_disk(struct kc_ctx *ctx, bool writable, struct kc_device **dev)
{
	if (!ctx->image)
		return kc_usage(ctx, "no disk given: use -i IMAGE (a disk image or block device)");
	if (ctx->offset)
		return kc_usage(ctx, "--offset: backups are of whole disks");
	return kc_device_open(ctx, writable, dev);
}

static int make_backup(struct kc_ctx *ctx)
{
	KmBackupOptions o = {
		.source = ctx->image, .no_resume = backup_no_resume, .all_blocks = backup_all,
	};
	KmBackupResult res = { 0 };
	struct kc_device *dev;
	GError *error = NULL;
	Progress pr = { 0 };
	int status = open_disk(ctx, false, &dev);

	if (status)
		return status;
	progress_init(&pr, &o);
	if (km_backup_create(kc_device_blockdev(dev), backup_to, &o, &res, &error)) {
		for (guint i = 0; i < res.notes->len; i++)
			printf("%s: %s\n", backup_to, (char *)res.notes->pdata[i]);
		printf("%s: backup of %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT
		       " read from the disk%s\n%s  %s\n", backup_to, res.disk_size, res.copied,
		       res.resumed_from ? " (resumed)" : "", res.sha256, backup_to);
	} else if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
		fprintf(stderr, "karmactl: backup: interrupted: run it again to resume\n");
	}
	km_backup_result_clear(&res);
	status = finish(ctx, &pr, backup_to, error);
	return kc_device_close(ctx, dev, status);
}

static void print_finding(void *data, enum omfs_fsck_severity sev, const char *msg)
{
	(void)sev;
	printf("%s: %s\n", (const char *)data, msg);
}

/* fsck of every volume of the backup: both partitions, or a bare volume. */
static int fsck_backup(struct kc_ctx *ctx, const struct omfs_blockdev *disk)
{
	struct km_karma_label label;
	char msg[OMFS_ERRMSG_MAX] = "", name[64] = "volume";
	int err = km_karma_label_read(disk, &label, msg, sizeof(msg)), worst = 0;

	if (err == -ENOENT) {
		struct omfs_fsck_opts opts = { .report = print_finding, .report_ctx = name };
		struct omfs_fsck_result res;

		worst = omfs_fsck(disk, &opts, &res);
	} else if (err < 0) {
		return kc_failf(ctx, "%s: %s", backup_verify, msg);
	}
	for (unsigned i = 0; err == 0 && i < label.n_partitions; i++) {
		struct km_window_device *win = km_karma_partition_open(disk, &label.partitions[i],
								       msg, sizeof(msg));
		struct omfs_fsck_opts opts = { .report = print_finding, .report_ctx = name };
		struct omfs_fsck_result res;

		g_snprintf(name, sizeof(name), "partition %u", label.partitions[i].number);
		if (!win)
			return kc_failf(ctx, "%s: %s: %s", backup_verify, name, msg);
		worst = MAX(worst, omfs_fsck(km_window_device_blockdev(win), &opts, &res));
		km_window_device_close(win);
	}
	if (worst > OMFS_FSCK_CORRECTED)
		return kc_failf(ctx, "%s: the backed-up volumes have errors (fsck code %d)",
				backup_verify, worst);
	return KC_EXIT_OK;
}

static int verify_backup(struct kc_ctx *ctx)
{
	KmBackupOptions o = { 0 };
	char msg[OMFS_ERRMSG_MAX] = "", sha256[65];
	struct km_image_device *dev;
	GError *error = NULL;
	Progress pr = { 0 };
	int status;

	progress_init(&pr, &o);
	if (!km_backup_check(backup_verify, &o, sha256, &error))
		return finish(ctx, &pr, backup_verify, error);
	status = finish(ctx, &pr, backup_verify, NULL);
	printf("%s: checksum matches (%s)\n", backup_verify, sha256);
	dev = km_image_device_open(backup_verify, false, 0, 0, msg, sizeof(msg));
	if (!dev)
		return kc_failf(ctx, "%s", msg[0] ? msg : g_strerror(errno));
	status = fsck_backup(ctx, km_image_device_blockdev(dev));
	km_image_device_close(dev);
	if (!status)
		printf("%s: volumes clean\n", backup_verify);
	return status;
}

static int backup_run(struct kc_ctx *ctx)
{
	if (!!backup_to == !!backup_verify)
		return kc_usage(ctx, "give either --to FILE or --verify FILE");
	return backup_to ? make_backup(ctx) : verify_backup(ctx);
}

static int restore_run(struct kc_ctx *ctx)
{
	KmBackupOptions o = { 0 };
	KmRestoreResult res;
	struct kc_device *dev;
	GError *error = NULL;
	Progress pr = { 0 };
	int status;

	if (!restore_from)
		return kc_usage(ctx, "which backup? use --from FILE");
	status = open_disk(ctx, true, &dev);
	if (status)
		return status;
	progress_init(&pr, &o);
	if (km_backup_restore(restore_from, kc_device_blockdev(dev), restore_force, &o, &res,
			      &error))
		printf("%s: restored onto %s: %" G_GUINT64_FORMAT " bytes checked, %"
		       G_GUINT64_FORMAT " written\n", restore_from, ctx->image, res.checked,
		       res.written);
	else if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		fprintf(stderr, "karmactl: restore: interrupted: %s is incomplete until a "
			"restore finishes\n", ctx->image);
	status = finish(ctx, &pr, restore_from, error);
	return kc_device_close(ctx, dev, status);
}

const struct kc_command kc_cmd_backup = {
	.name = "backup", .args = "--to FILE | --verify FILE",
	.summary = "Back up the whole disk of -i into a sparse image file (with FILE.sha256)",
	.options = backup_options, .min_args = 0, .max_args = 0, .access = KC_NO_VOLUME,
	.run = backup_run,
};

const struct kc_command kc_cmd_restore = {
	.name = "restore", .args = "--from FILE [--force]",
	.summary = "Restore a backup onto the disk of -i, writing only what differs",
	.options = restore_options, .min_args = 0, .max_args = 0, .access = KC_NO_VOLUME,
	.run = restore_run,
};
