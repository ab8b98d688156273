/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-backup-cmds.c - backup (the whole disk of -i to a sparse image file,
 * resumable; or --verify a backup) and restore (a backup onto -i).
 * Ctrl-C stops a backup so that running it again resumes it.
 */
#include "kc-library.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "kc-progress.h"
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

/*
 * The progress line (kc-progress.h): each pass of the job ("Reading",
 * "Verifying"...) is shown as one file. Ctrl-C turns into a cancellation at
 * the next chunk, which leaves a backup that resumes.
 */
typedef struct {
	struct kc_progress line;
	GCancellable *cancellable;
	const char *phase;	/* the pass's name, once one started */
	struct sigaction old_sigint;
} Progress;

static void show_progress(const KmLibraryProgress *p, gpointer data)
{
	static const char *const names[] = {
		[KM_PHASE_COPYING] = "Copying", [KM_PHASE_READING] = "Reading",
		[KM_PHASE_CHECKING] = "Checking", [KM_PHASE_WRITING] = "Writing",
		[KM_PHASE_VERIFYING] = "Verifying", [KM_PHASE_CONVERTING] = "Converting",
	};
	Progress *pr = data;

	if (kc_sigint_caught())
		g_cancellable_cancel(pr->cancellable);
	if (pr->phase != names[p->phase]) {
		if (pr->phase)
			kc_progress_file_end(&pr->line);
		pr->phase = names[p->phase];
		kc_progress_init(&pr->line, false, 1, p->total);
		kc_progress_file_begin(&pr->line, pr->phase, p->total);
	}
	kc_progress_file_update(&pr->line, p->done);
}

static void progress_init(Progress *pr, KmBackupOptions *o)
{
	kc_progress_init(&pr->line, false, 0, 0);
	pr->cancellable = g_cancellable_new();
	o->progress = show_progress;
	o->progress_data = pr;
	o->cancellable = pr->cancellable;
	kc_sigint_catch(&pr->old_sigint);
}

/* Clears the progress line, so that what the command says next starts clean. */
static void progress_stop(Progress *pr)
{
	if (pr->phase)
		kc_progress_file_end(&pr->line);
	kc_progress_finish(&pr->line);
	sigaction(SIGINT, &pr->old_sigint, NULL);
	g_object_unref(pr->cancellable);
}

/* The job's error, if any, as the exit status; an interruption says what it left. */
static int job_status(struct kc_ctx *ctx, const char *what, GError *error, const char *cancelled)
{
	int status;

	if (!error)
		return KC_EXIT_OK;
	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		status = kc_failf(ctx, "%s: interrupted: %s", what, cancelled);
	else
		status = kc_fail_gerror(ctx, what, error);
	g_error_free(error);
	return status;
}

/* The whole disk of -i: an image, a block device, or (--simulate) a player. */
static int open_disk(struct kc_ctx *ctx, bool writable, struct kc_device **dev)
{
	if (!ctx->image)
		return kc_usage(ctx, "no disk given: use -i IMAGE, --device NODE or --usb");
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
	gboolean ok;
	int status = open_disk(ctx, false, &dev);

	if (status)
		return status;
	progress_init(&pr, &o);
	ok = km_backup_create(kc_device_blockdev(dev), backup_to, &o, &res, &error);
	progress_stop(&pr);
	for (guint i = 0; ok && i < res.notes->len; i++)
		printf("%s: %s\n", backup_to, (char *)res.notes->pdata[i]);
	if (ok)
		printf("%s: backup of %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT
		       " read from the disk%s\n%s  %s\n", backup_to, res.disk_size, res.copied,
		       res.resumed_from ? " (resumed)" : "", res.sha256, backup_to);
	km_backup_result_clear(&res);
	status = job_status(ctx, backup_to, error, "run the same command again to resume");
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
		struct km_partition_device *win = km_karma_partition_open(disk, &label.partitions[i],
								       msg, sizeof(msg));
		struct omfs_fsck_opts opts = { .report = print_finding, .report_ctx = name };
		struct omfs_fsck_result res;

		g_snprintf(name, sizeof(name), "partition %u", label.partitions[i].number);
		if (!win)
			return kc_failf(ctx, "%s: %s: %s", backup_verify, name, msg);
		worst = MAX(worst, omfs_fsck(km_partition_device_blockdev(win), &opts, &res));
		km_partition_device_close(win);
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
	km_backup_check(backup_verify, &o, sha256, &error);
	progress_stop(&pr);
	status = job_status(ctx, backup_verify, error, "not checked");
	if (status)
		return status;
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
	gboolean ok;
	int status;

	if (!restore_from)
		return kc_usage(ctx, "which backup? use --from FILE");
	status = open_disk(ctx, true, &dev);
	if (status)
		return status;
	progress_init(&pr, &o);
	ok = km_backup_restore(restore_from, kc_device_blockdev(dev), restore_force, &o, &res,
			       &error);
	progress_stop(&pr);
	if (ok)
		printf("%s: restored onto %s: %" G_GUINT64_FORMAT " bytes checked, %"
		       G_GUINT64_FORMAT " written\n", restore_from, ctx->image, res.checked,
		       res.written);
	status = job_status(ctx, restore_from, error,
			    "the disk is incomplete until a restore finishes");
	return kc_device_close(ctx, dev, status);
}

const struct kc_command kc_cmd_backup = {
	.name = "backup",	/* its arguments and summary: ../kc-karma-commands.c */
	.options = backup_options, .min_args = 0, .max_args = 0, .access = KC_NO_VOLUME,
	.run = backup_run,
};

const struct kc_command kc_cmd_restore = {
	.name = "restore",	/* its arguments and summary: ../kc-karma-commands.c */
	.options = restore_options, .min_args = 0, .max_args = 0, .access = KC_NO_VOLUME,
	.run = restore_run,
};
