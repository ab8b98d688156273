/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kc-admin-cmds.c - mkfs, fsck, df, info. */
#include "kc.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "km-image-device.h"
#include "km-karma-label.h"

/* ---- mkfs ---- */

static char *mkfs_size;
static char *mkfs_blocksize;
static char *mkfs_sys_blocksize;
static char *mkfs_clustersize;
static char *mkfs_mirrors;
static char *mkfs_label;

static const GOptionEntry mkfs_options[] = {
	{ "size", 's', 0, G_OPTION_ARG_STRING, &mkfs_size,
	  "Volume size (K, M, G suffixes); the image file is created or resized, sparse",
	  "SIZE" },
	{ "blocksize", 'b', 0, G_OPTION_ARG_STRING, &mkfs_blocksize,
	  "FS block size in bytes (default 8192)", "N" },
	{ "sys-blocksize", 0, 0, G_OPTION_ARG_STRING, &mkfs_sys_blocksize,
	  "Metadata block size in bytes (default 2048)", "N" },
	{ "clustersize", 'c', 0, G_OPTION_ARG_STRING, &mkfs_clustersize,
	  "Blocks allocated at once for file data (default 8)", "N" },
	{ "mirrors", 0, 0, G_OPTION_ARG_STRING, &mkfs_mirrors,
	  "Copies of each metadata block (default 2)", "N" },
	{ "label", 'L', 0, G_OPTION_ARG_STRING, &mkfs_label,
	  "Volume label (default \"omfs\")", "NAME" },
	{ NULL }
};

static int parse_u32_option(struct kc_ctx *ctx, const char *name, const char *value,
			    uint32_t *out)
{
	uint64_t v;

	if (!value)
		return KC_EXIT_OK;
	if (!kc_parse_size(value, &v) || v > UINT32_MAX)
		return kc_usage(ctx, "--%s: not a number: '%s'", name, value);
	*out = (uint32_t)v;
	return KC_EXIT_OK;
}

static int parse_mkfs_options(struct kc_ctx *ctx, struct omfs_mkfs_opts *o)
{
	int status;

	status = parse_u32_option(ctx, "blocksize", mkfs_blocksize, &o->blocksize);
	if (!status)
		status = parse_u32_option(ctx, "sys-blocksize", mkfs_sys_blocksize,
					  &o->sys_blocksize);
	if (!status)
		status = parse_u32_option(ctx, "clustersize", mkfs_clustersize, &o->clustersize);
	if (!status)
		status = parse_u32_option(ctx, "mirrors", mkfs_mirrors, &o->mirrors);
	o->label = mkfs_label;
	return status;
}

/* A volume inside a larger image: the file only ever grows, never loses what follows. */
static int grow_image_file(struct kc_ctx *ctx, const char *image, uint64_t end)
{
	int fd = open(image, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	struct stat st;
	int err = 0;

	if (fd < 0)
		return kc_fail_errno(ctx, image, errno);
	if (fstat(fd, &st) < 0 || ((uint64_t)st.st_size < end && ftruncate(fd, (off_t)end) < 0))
		err = errno;
	close(fd);
	return err ? kc_fail_errno(ctx, image, err) : KC_EXIT_OK;
}

/*
 * A block device, or an existing file without --size, is formatted as it is;
 * otherwise the file is made `size` bytes long (sparse) after the offset.
 */
static int open_mkfs_device(struct kc_ctx *ctx, const char *image, struct km_image_device **dev)
{
	char msg[OMFS_ERRMSG_MAX] = "";
	uint64_t size = 0;
	struct stat st;
	bool exists = stat(image, &st) == 0;
	bool is_blockdev = exists && S_ISBLK(st.st_mode);
	int status;

	if (mkfs_size && !kc_parse_size(mkfs_size, &size))
		return kc_usage(ctx, "--size: not a size: '%s'", mkfs_size);
	if (!mkfs_size && !exists)
		return kc_usage(ctx, "%s does not exist: give its size with --size", image);
	if (exists && kc_check_not_mounted(ctx, image, true))
		return KC_EXIT_FAIL;
	if (!mkfs_size || is_blockdev) {
		*dev = km_image_device_open(image, true, ctx->offset, size, msg, sizeof(msg));
	} else if (ctx->offset == 0) {
		*dev = km_image_device_create(image, size, msg, sizeof(msg));
	} else {
		if (size > UINT64_MAX - ctx->offset)
			return kc_usage(ctx, "--offset plus --size is too large");
		status = grow_image_file(ctx, image, ctx->offset + size);
		if (status)
			return status;
		*dev = km_image_device_open(image, true, ctx->offset, size, msg, sizeof(msg));
	}
	if (!*dev)
		return kc_failf(ctx, "%s", msg[0] ? msg : g_strerror(errno));
	return KC_EXIT_OK;
}

/* Mounts the new volume, which checks it, and says what was made. */
static int describe_new_volume(struct kc_ctx *ctx)
{
	struct omfs_statfs s;
	int status, err;

	status = kc_volume_open(ctx, false);
	if (status)
		return status;
	err = omfs_statfs(ctx->fs, &s);
	if (err < 0)
		status = kc_fail(ctx, ctx->image, err);
	else
		printf("%s: OMFS volume of %" PRIu64 " blocks of %" PRIu32 " bytes, %" PRIu64
		       " free\n", ctx->image, s.num_blocks, s.blocksize, s.free_blocks);
	return kc_volume_close(ctx, status);
}

static int mkfs_run(struct kc_ctx *ctx)
{
	struct omfs_mkfs_opts opts = { 0 };
	struct km_image_device *dev;
	char msg[OMFS_ERRMSG_MAX] = "";
	int status, err;

	if (ctx->argc)
		ctx->image = ctx->argv[0];
	if (!ctx->image)
		return kc_usage(ctx, "missing argument: IMAGE");
	status = parse_mkfs_options(ctx, &opts);
	if (!status)
		status = open_mkfs_device(ctx, ctx->image, &dev);
	if (status)
		return status;
	err = omfs_mkfs(km_image_device_blockdev(dev), &opts, msg, sizeof(msg));
	if (err < 0) {
		km_image_device_close(dev);
		return kc_failf(ctx, "%s: %s (%s)", ctx->image, g_strerror(-err), msg);
	}
	err = km_image_device_close(dev);
	if (err < 0)
		return kc_failf(ctx, "%s: close: %s", ctx->image, g_strerror(-err));
	return describe_new_volume(ctx);
}

const struct kc_command kc_cmd_mkfs = {
	.name = "mkfs", .args = "IMAGE --size SIZE",
	.summary = "Make a new, empty OMFS volume",
	.options = mkfs_options, .min_args = 0, .max_args = 1, .access = KC_NO_VOLUME,
	.makes_image_file = true, .run = mkfs_run,
};

/* ---- fsck ---- */

static gboolean fsck_repair;

static const GOptionEntry fsck_options[] = {
	{ "repair", 'r', 0, G_OPTION_ARG_NONE, &fsck_repair,
	  "Fix what is safe to fix, and say what changed", NULL },
	{ NULL }
};

static void print_finding(void *report_ctx, enum omfs_fsck_severity sev, const char *msg)
{
	static const char *const names[] = {
		[OMFS_FSCK_INFO] = "info",
		[OMFS_FSCK_NOTE] = "note",
		[OMFS_FSCK_LEAK] = "leak",
		[OMFS_FSCK_ERROR] = "error",
		[OMFS_FSCK_FIXED] = "fixed",
	};
	const char *where = report_ctx;

	printf("%s%s: %s\n", where, (size_t)sev < G_N_ELEMENTS(names) ? names[sev] : "?", msg);
}

static void print_fsck_summary(const char *where, const struct omfs_fsck_result *res, int code)
{
	printf("%s", where);
	if (code == OMFS_FSCK_CLEAN)
		printf("clean");
	else
		printf("%u problem%s, %u fixed, %" PRIu64 " blocks leaked", res->errors,
		       res->errors == 1 ? "" : "s", res->fixed, res->leaked_blocks);
	printf(": %" PRIu64 " files, %" PRIu64 " directories (exit code %d)\n", res->files,
	       res->dirs, code);
}

/* One volume; where ("partition 2: " or "") starts each line. The fsck exit code. */
static int fsck_volume(struct kc_ctx *ctx, const struct omfs_blockdev *volume, const char *where)
{
	struct omfs_fsck_opts opts = {
		.repair = fsck_repair, .report = print_finding, .report_ctx = (void *)where,
	};
	struct omfs_fsck_result res = { 0 };
	int code = omfs_fsck(volume, &opts, &res);

	if (code < 0) {
		kc_failf(ctx, "%s: %s%s", ctx->image, where, g_strerror(-code));
		code = OMFS_FSCK_OPERATIONAL;
	}
	print_fsck_summary(where, &res, code);
	return code;
}

/* A whole disk: the label (read by kc_device_label), then each partition; the worst code. */
static int fsck_disk(struct kc_ctx *ctx, struct kc_device *dev, const struct km_karma_label *label)
{
	const struct omfs_blockdev *volume;
	int worst = OMFS_FSCK_CLEAN;

	printf("label: Karma partition label, %u partition%s\n", label->n_partitions,
	       label->n_partitions == 1 ? "" : "s");
	for (unsigned i = 0; i < label->n_partitions; i++) {
		unsigned number = label->partitions[i].number;
		char where[32];
		int code;

		snprintf(where, sizeof(where), "partition %u: ", number);
		code = kc_device_partition(ctx, dev, label, number, &volume) ?
			       OMFS_FSCK_OPERATIONAL :
			       fsck_volume(ctx, volume, where);
		worst = MAX(worst, code);
	}
	return worst;
}

/*
 * fsck takes the device, not a mount: it must cope with what mount refuses.
 * A whole Karma disk is checked whole unless -p names one partition.
 */
static int fsck_run(struct kc_ctx *ctx)
{
	const struct omfs_blockdev *volume;
	struct km_karma_label label;
	struct kc_device *dev;
	int code;

	if (!ctx->image)
		return kc_usage(ctx, "no volume given: use -i IMAGE, --device NODE or --usb");
	if (kc_device_open(ctx, fsck_repair, &dev))
		return OMFS_FSCK_OPERATIONAL;
	if (kc_device_label(ctx, dev, &label))
		/* sector 0 is neither a label nor a superblock, or it cannot be read */
		code = fsck_volume(ctx, kc_device_blockdev(dev), "");
	else if (label.n_partitions && !ctx->partition)
		code = fsck_disk(ctx, dev, &label);
	else if (kc_device_volume(ctx, dev, &volume))
		code = OMFS_FSCK_OPERATIONAL;
	else
		code = fsck_volume(ctx, volume, "");
	if (kc_device_close(ctx, dev, KC_EXIT_OK))
		code |= OMFS_FSCK_OPERATIONAL;
	return code;
}

const struct kc_command kc_cmd_fsck = {
	.name = "fsck", .args = "[--repair]",
	.summary = "Check the volume, or a whole disk's label and partitions (exit 0 clean, "
		   "1 fixed, 4 errors left, 8 failed)",
	.options = fsck_options, .min_args = 0, .max_args = 0, .access = KC_NO_VOLUME,
	.run = fsck_run,
};

/* ---- df ---- */

static int df_run(struct kc_ctx *ctx)
{
	struct omfs_statfs s;
	struct omfs_info info;
	uint64_t used;
	int err;

	err = omfs_statfs(ctx->fs, &s);
	if (err < 0)
		return kc_fail(ctx, ctx->image, err);
	omfs_get_info(ctx->fs, &info);
	used = s.num_blocks - s.free_blocks;
	printf("label:        %s\n", info.r_name);
	printf("block size:   %" PRIu32 "\n", s.blocksize);
	printf("total blocks: %" PRIu64 "\n", s.num_blocks);
	printf("used blocks:  %" PRIu64 "\n", used);
	printf("free blocks:  %" PRIu64 "\n", s.free_blocks);
	printf("total bytes:  %" PRIu64 "\n", s.num_blocks * s.blocksize);
	printf("used bytes:   %" PRIu64 "\n", used * s.blocksize);
	printf("free bytes:   %" PRIu64 "\n", s.free_blocks * s.blocksize);
	/* rounded up, as df(1) does: a volume with anything in use is not "0%" */
	printf("use:          %" PRIu64 "%%\n",
	       s.num_blocks ? (used * 100 + s.num_blocks - 1) / s.num_blocks : 0);
	return KC_EXIT_OK;
}

const struct kc_command kc_cmd_df = {
	.name = "df", .args = "", .summary = "Show used and free space",
	.min_args = 0, .max_args = 0, .access = KC_READ_ONLY, .run = df_run,
};

/* ---- info ---- */

static void print_volume_info(const struct omfs_fs *fs)
{
	struct omfs_info i;

	omfs_get_info(fs, &i);
	printf("%-17s %s\n", "s_name", i.s_name);
	printf("%-17s %" PRIu64 "\n", "s_root_block", i.s_root_block);
	printf("%-17s %" PRIu64 "\n", "s_num_blocks", i.s_num_blocks);
	printf("%-17s 0x%08" PRIx32 "\n", "s_magic", i.s_magic);
	printf("%-17s %" PRIu32 "\n", "s_blocksize", i.s_blocksize);
	printf("%-17s %" PRIu32 "\n", "s_mirrors", i.s_mirrors);
	printf("%-17s %" PRIu32 "\n", "s_sys_blocksize", i.s_sys_blocksize);
	printf("%-17s %" PRIu64 "\n", "r_num_blocks", i.r_num_blocks);
	printf("%-17s %" PRIu64 "\n", "r_root_dir", i.r_root_dir);
	if (i.r_bitmap == OMFS_NIL)
		printf("%-17s none (ReplayTV)\n", "r_bitmap");
	else
		printf("%-17s %" PRIu64 "\n", "r_bitmap", i.r_bitmap);
	printf("%-17s %" PRIu32 "\n", "r_blocksize", i.r_blocksize);
	printf("%-17s %" PRIu32 "\n", "r_clustersize", i.r_clustersize);
	printf("%-17s %" PRIu64 "\n", "r_mirrors", i.r_mirrors);
	printf("%-17s %s\n", "r_name", i.r_name);
	printf("%-17s %s\n", "root_checksum_ok", i.root_checksum_ok ? "yes" : "no");
	printf("%-17s %" PRIu64 "\n", "bitmap_blocks", i.bitmap_blocks);
}

/* Mounts volume read-only and prints its fields. */
static int info_volume(struct kc_ctx *ctx, const struct omfs_blockdev *volume, const char *where)
{
	struct omfs_mount_opts opts = { .read_only = true };
	char msg[OMFS_ERRMSG_MAX] = "";
	struct omfs_fs *fs;
	int err = omfs_mount(volume, &opts, &fs, msg, sizeof(msg));

	if (err < 0)
		return kc_failf(ctx, "%s%s: cannot mount: %s (%s)", ctx->image, where,
				g_strerror(-err), msg);
	print_volume_info(fs);
	omfs_unmount(fs);
	return KC_EXIT_OK;
}

static void print_label(const struct km_karma_label *label)
{
	const struct km_karma_partition *music = km_karma_label_music(label);

	printf("%-17s Karma partition label, %u partition%s\n", "label", label->n_partitions,
	       label->n_partitions == 1 ? "" : "s");
	for (unsigned i = 0; i < label->n_partitions; i++) {
		const struct km_karma_partition *p = &label->partitions[i];
		char name[32];

		snprintf(name, sizeof(name), "partition %u", p->number);
		printf("%-17s %s: sectors %" PRIu32 " to %" PRIu64 ", %" PRIu64 " bytes\n", name,
		       p == music ? "music" : "system", p->start_sector,
		       (uint64_t)p->start_sector + p->n_sectors - 1, km_karma_partition_length(p));
	}
}

/* A whole disk without -p: the label, then each partition's fields; a bare volume: its own. */
static int info_run(struct kc_ctx *ctx)
{
	const struct omfs_blockdev *volume;
	struct km_karma_label label;
	struct kc_device *dev;
	int status;

	if (!ctx->image)
		return kc_usage(ctx, "no volume given: use -i IMAGE, --device NODE or --usb");
	status = kc_device_open(ctx, false, &dev);
	if (status)
		return status;
	status = kc_device_label(ctx, dev, &label);
	if (!status && label.n_partitions && !ctx->partition) {
		print_label(&label);
		for (unsigned i = 0; i < label.n_partitions; i++) {
			unsigned number = label.partitions[i].number;
			int part_status = kc_device_partition(ctx, dev, &label, number, &volume);

			printf("\npartition %u:\n", number);
			if (!part_status)
				part_status = info_volume(ctx, volume, kc_device_volume_name(dev));
			status = status ? status : part_status;
		}
	} else if (!status) {
		status = kc_device_volume(ctx, dev, &volume);
		if (!status)
			status = info_volume(ctx, volume, kc_device_volume_name(dev));
	}
	return kc_device_close(ctx, dev, status);
}

const struct kc_command kc_cmd_info = {
	.name = "info", .args = "",
	.summary = "Show the superblock and root block fields (on a whole disk, the partition "
		   "label and each partition's)",
	.min_args = 0, .max_args = 0, .access = KC_NO_VOLUME, .run = info_run,
};
