/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-backup-plan.c - which byte ranges of a disk a backup must read: all of
 * it, except the blocks an OMFS volume's bitmap marks free. A volume that
 * does not mount is copied whole: its bitmap cannot be trusted.
 */
#include "km-backup-private.h"

#include "km-karma-label.h"

static void add_range(GArray *plan, guint64 offset, guint64 length)
{
	KmByteRange *last = plan->len ? &g_array_index(plan, KmByteRange, plan->len - 1) : NULL;
	KmByteRange r = { offset, length };

	if (length == 0)
		return;
	if (last && last->offset + last->length == offset)
		last->length += length;
	else
		g_array_append_val(plan, r);
}

/* The used blocks of the volume at [base, base + length), or all of it. */
static void plan_volume(GArray *plan, const struct omfs_blockdev *disk, guint64 base,
			guint64 length, const char *name, GPtrArray *notes)
{
	struct omfs_mount_opts opts = { .read_only = true };
	char msg[OMFS_ERRMSG_MAX] = "";
	struct km_partition_device *win;
	struct omfs_fs *fs = NULL;
	struct omfs_statfs sfs;
	guint64 start, count, block = 0, end = base;

	win = km_partition_device_open(disk, base, length, msg, sizeof(msg));
	if (win && omfs_mount(km_partition_device_blockdev(win), &opts, &fs, msg, sizeof(msg)) == 0) {
		omfs_statfs(fs, &sfs);
		while (omfs_next_used_run(fs, block, &start, &count)) {
			add_range(plan, base + start * sfs.blocksize, count * sfs.blocksize);
			block = start + count;
		}
		end = MIN(base + sfs.num_blocks * sfs.blocksize, base + length);
		omfs_unmount(fs);
	} else {
		g_ptr_array_add(notes, g_strdup_printf("%s does not mount (%s): copied whole",
						       name, msg));
	}
	if (win)
		km_partition_device_close(win);
	/* past the volume's last block: not OMFS's, so copied */
	add_range(plan, end, base + length - end);
}

GArray *km_backup_plan(const struct omfs_blockdev *disk, gboolean all, GPtrArray *notes)
{
	GArray *plan = g_array_new(FALSE, FALSE, sizeof(KmByteRange));
	guint64 size = disk->size(disk->ctx), pos = 0;
	struct km_karma_label label;
	char msg[OMFS_ERRMSG_MAX] = "", name[32];
	unsigned i;
	int err;

	if (all) {
		add_range(plan, 0, size);
		return plan;
	}
	err = km_karma_label_read(disk, &label, msg, sizeof(msg));
	if (err == -ENOENT) {
		plan_volume(plan, disk, 0, size, "the volume", notes);
		return plan;
	}
	if (err < 0) {
		g_ptr_array_add(notes, g_strdup_printf("%s: the whole disk is copied", msg));
		add_range(plan, 0, size);
		return plan;
	}
	/* the label checked that partitions lie inside the disk, apart; in disk order: */
	if (label.n_partitions == 2 &&
	    label.partitions[1].start_sector < label.partitions[0].start_sector) {
		struct km_karma_partition first = label.partitions[1];

		label.partitions[1] = label.partitions[0];
		label.partitions[0] = first;
	}
	for (i = 0; i < label.n_partitions; i++) {
		const struct km_karma_partition *part = &label.partitions[i];
		guint64 off = km_karma_partition_offset(part);

		add_range(plan, pos, off - pos);
		g_snprintf(name, sizeof(name), "partition %u", part->number);
		plan_volume(plan, disk, off, km_karma_partition_length(part), name, notes);
		pos = off + km_karma_partition_length(part);
	}
	add_range(plan, pos, size - pos);
	return plan;
}

guint64 km_backup_plan_bytes(const GArray *plan)
{
	guint64 sum = 0;

	for (guint i = 0; i < plan->len; i++)
		sum += g_array_index(plan, KmByteRange, i).length;
	return sum;
}
