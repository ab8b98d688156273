/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-karma-label.h - the Rio Karma partition label (sector 0 of the whole
 * disk, docs/KARMA.md §5.1), and partition devices: a partition, or
 * any byte range (a window), of an omfs_blockdev seen as an omfs_blockdev of
 * its own.
 *
 * Everything in the label is little-endian. A label read from a disk is
 * never trusted: every entry is checked against the device before use.
 */
#ifndef KM_KARMA_LABEL_H
#define KM_KARMA_LABEL_H

#include "omfs.h"

#define KM_KARMA_SECTOR_SIZE 512u
#define KM_KARMA_LABEL_MAGIC 0xAB56u
#define KM_KARMA_FSTYPE_OMFS 0x4Du
#define KM_KARMA_MAX_PARTITIONS 2u

struct km_karma_partition {
	unsigned int number;	/* 1 or 2 (sda1, sda2): the label entry it came from */
	uint32_t start_sector;
	uint32_t n_sectors;
};

struct km_karma_label {
	unsigned int n_partitions;	/* used entries, in label order */
	struct km_karma_partition partitions[KM_KARMA_MAX_PARTITIONS];
};

static inline uint64_t km_karma_partition_offset(const struct km_karma_partition *part)
{
	return (uint64_t)part->start_sector * KM_KARMA_SECTOR_SIZE;
}

static inline uint64_t km_karma_partition_length(const struct km_karma_partition *part)
{
	return (uint64_t)part->n_sectors * KM_KARMA_SECTOR_SIZE;
}

/*
 * Parses sector 0 of a device of device_size bytes. An entry is used when its
 * fstype is 0x4D and its size is not zero. Returns 0; -ENOENT when the magic
 * is missing (not a Karma label: maybe a bare volume); -EINVAL when the label
 * is damaged (an entry over sector 0, starting or ending past the device,
 * entries overlapping, no used entry). msg gets a sentence either way.
 */
int km_karma_label_parse(const uint8_t sector[KM_KARMA_SECTOR_SIZE], uint64_t device_size,
			 struct km_karma_label *label, char *msg, size_t msglen);
/* Reads sector 0 of dev, then parses it (same returns, or the read's -errno). */
int km_karma_label_read(const struct omfs_blockdev *dev, struct km_karma_label *label,
			char *msg, size_t msglen);
/*
 * The music partition as the file system commands take it without asking
 * the volumes: the largest (on a Karma, partition 2; partition 1 holds the
 * system). label has at least one partition.
 */
const struct km_karma_partition *km_karma_label_music(const struct km_karma_label *label);
/*
 * Fills sector with a label holding `label`'s partitions (their number says
 * which entry: 1 at byte 270, 2 at byte 286), all else zero. The result must
 * parse on a device of device_size bytes, or -EINVAL with a sentence.
 */
int km_karma_label_build(uint8_t sector[KM_KARMA_SECTOR_SIZE], const struct km_karma_label *label,
			 uint64_t device_size, char *msg, size_t msglen);

/*
 * Sector 0 while a restore writes the rest of the disk: a mark that parses as
 * a damaged label (-EINVAL, "a restore … did not finish"), so a restore cut
 * short is never taken for a good disk. It is neither a label (byte 510 is
 * zero) nor an OMFS superblock (no OMFS magic at byte 24).
 */
#define KM_UNFINISHED_RESTORE_MARK "Karma Manager: unfinished restore"
void km_karma_label_build_unfinished(uint8_t sector[KM_KARMA_SECTOR_SIZE]);

/*
 * A window [offset, offset + length) of parent, as a device of its own; length
 * 0 means up to the end. The parent must outlive the window. Returns NULL with
 * errno set (EINVAL when the window lies past the parent's end) and a sentence.
 */
struct km_partition_device;
struct km_partition_device *km_partition_device_open(const struct omfs_blockdev *parent,
						     uint64_t offset, uint64_t length,
						     char *msg, size_t msglen);
/* The window onto one partition of the whole disk `parent`. */
struct km_partition_device *km_karma_partition_open(const struct omfs_blockdev *parent,
						    const struct km_karma_partition *part,
						    char *msg, size_t msglen);
const struct omfs_blockdev *km_partition_device_blockdev(struct km_partition_device *win);
void km_partition_device_close(struct km_partition_device *win);

#endif
