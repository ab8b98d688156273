/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-karma-label.c - the Rio Karma partition label, and partition devices.
 *
 * Sector 0 layout (docs/KARMA.md §5.1): entries of 16 bytes at 270 and 286
 * ({LE32 reserved, u8 fstype, 3 reserved, LE32 start, LE32 size}, in 512-byte
 * sectors), magic LE16 0xAB56 at 510.
 */
#include "km-karma-label.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "km-bytes.h"
#include "km-fail.h"

#define LABEL_ENTRY_OFFSET 270u
#define LABEL_ENTRY_SIZE 16u
#define LABEL_MAGIC_OFFSET 510u
#define ENTRY_FSTYPE 4u
#define ENTRY_START 8u
#define ENTRY_SIZE 12u

/* Where the entry of partition `number` (1 or 2) starts in sector 0. */
static size_t entry_offset(unsigned int number)
{
	return LABEL_ENTRY_OFFSET + (number - 1) * LABEL_ENTRY_SIZE;
}

static uint64_t partition_end(const struct km_karma_partition *part)
{
	return (uint64_t)part->start_sector + part->n_sectors;
}

/* The whole partition lies on the device, and not over the label itself. */
static int check_partition_bounds(const struct km_karma_partition *part, uint64_t device_sectors,
				  char *msg, size_t msglen)
{
	if (part->start_sector == 0)
		return km_fail(-EINVAL, msg, msglen,
			       "Karma label: partition %u starts at sector 0, over the label itself",
			       part->number);
	if (part->start_sector >= device_sectors)
		return km_fail(-EINVAL, msg, msglen,
			       "Karma label: partition %u starts at sector %u, past the end of the device (%llu sectors)",
			       part->number, part->start_sector,
			       (unsigned long long)device_sectors);
	if (partition_end(part) > device_sectors)
		return km_fail(-EINVAL, msg, msglen,
			       "Karma label: partition %u (sectors %u to %llu) ends past the end of the device (%llu sectors)",
			       part->number, part->start_sector,
			       (unsigned long long)partition_end(part) - 1,
			       (unsigned long long)device_sectors);
	return 0;
}

static int check_no_overlap(const struct km_karma_label *label, char *msg, size_t msglen)
{
	const struct km_karma_partition *a = &label->partitions[0];
	const struct km_karma_partition *b = &label->partitions[1];

	if (label->n_partitions < 2)
		return 0;
	if (a->start_sector < partition_end(b) && b->start_sector < partition_end(a))
		return km_fail(-EINVAL, msg, msglen,
			       "Karma label: partitions %u (sectors %u to %llu) and %u (sectors %u to %llu) overlap",
			       a->number, a->start_sector, (unsigned long long)partition_end(a) - 1,
			       b->number, b->start_sector, (unsigned long long)partition_end(b) - 1);
	return 0;
}

void km_karma_label_build_unfinished(uint8_t sector[KM_KARMA_SECTOR_SIZE])
{
	memset(sector, 0, KM_KARMA_SECTOR_SIZE);
	memcpy(sector, KM_UNFINISHED_RESTORE_MARK, sizeof(KM_UNFINISHED_RESTORE_MARK));
}

int km_karma_label_parse(const uint8_t sector[KM_KARMA_SECTOR_SIZE], uint64_t device_size,
			 struct km_karma_label *label, char *msg, size_t msglen)
{
	uint64_t device_sectors = device_size / KM_KARMA_SECTOR_SIZE;
	uint16_t magic = km_get_le16(sector + LABEL_MAGIC_OFFSET);
	unsigned int number;
	int err;

	memset(label, 0, sizeof(*label));
	if (memcmp(sector, KM_UNFINISHED_RESTORE_MARK, sizeof(KM_UNFINISHED_RESTORE_MARK)) == 0)
		return km_fail(-EINVAL, msg, msglen,
			       "a restore from a backup did not finish on this disk: "
			       "restore it again before using it");
	if (magic != KM_KARMA_LABEL_MAGIC)
		return km_fail(-ENOENT, msg, msglen,
			       "no Karma label: the magic at byte 510 is 0x%04x, not 0x%04x",
			       magic, KM_KARMA_LABEL_MAGIC);
	for (number = 1; number <= KM_KARMA_MAX_PARTITIONS; number++) {
		const uint8_t *entry = sector + entry_offset(number);
		struct km_karma_partition part = {
			.number = number,
			.start_sector = km_get_le32(entry + ENTRY_START),
			.n_sectors = km_get_le32(entry + ENTRY_SIZE),
		};

		/* Linux's rule: other types and empty entries are unused, not errors. */
		if (entry[ENTRY_FSTYPE] != KM_KARMA_FSTYPE_OMFS || part.n_sectors == 0)
			continue;
		err = check_partition_bounds(&part, device_sectors, msg, msglen);
		if (err)
			goto bad;
		label->partitions[label->n_partitions++] = part;
	}
	if (label->n_partitions == 0) {
		err = km_fail(-EINVAL, msg, msglen,
			      "Karma label: no entry of type 0x%02x with a non-zero size",
			      KM_KARMA_FSTYPE_OMFS);
		goto bad;
	}
	err = check_no_overlap(label, msg, msglen);
	if (err)
		goto bad;
	snprintf(msg, msglen, "Karma label with %u partition%s", label->n_partitions,
		 label->n_partitions == 1 ? "" : "s");
	return 0;
bad:
	memset(label, 0, sizeof(*label));
	return err;
}

int km_karma_label_read(const struct omfs_blockdev *dev, struct km_karma_label *label,
			char *msg, size_t msglen)
{
	uint8_t sector[KM_KARMA_SECTOR_SIZE];
	uint64_t size = dev->size(dev->ctx);
	int err;

	memset(label, 0, sizeof(*label));
	if (size < KM_KARMA_SECTOR_SIZE)
		return km_fail(-ENOENT, msg, msglen,
			       "no Karma label: the device holds %llu bytes, less than one sector",
			       (unsigned long long)size);
	err = dev->read(dev->ctx, 0, sector, sizeof(sector));
	if (err)
		return km_fail(err, msg, msglen, "reading the Karma label (sector 0): %s",
			       strerror(-err));
	return km_karma_label_parse(sector, size, label, msg, msglen);
}

static int check_buildable(const struct km_karma_label *label, char *msg, size_t msglen)
{
	unsigned int i;

	if (label->n_partitions == 0 || label->n_partitions > KM_KARMA_MAX_PARTITIONS)
		return km_fail(-EINVAL, msg, msglen,
			       "a Karma label holds 1 or 2 partitions, not %u", label->n_partitions);
	for (i = 0; i < label->n_partitions; i++) {
		const struct km_karma_partition *part = &label->partitions[i];

		if (part->number < 1 || part->number > KM_KARMA_MAX_PARTITIONS)
			return km_fail(-EINVAL, msg, msglen,
				       "a Karma label has partitions 1 and 2, not %u", part->number);
		if (part->n_sectors == 0)
			return km_fail(-EINVAL, msg, msglen,
				       "partition %u is empty: an empty entry is unused", part->number);
	}
	if (label->n_partitions == 2 &&
	    label->partitions[0].number == label->partitions[1].number)
		return km_fail(-EINVAL, msg, msglen, "partition %u is given twice",
			       label->partitions[0].number);
	return 0;
}

int km_karma_label_build(uint8_t sector[KM_KARMA_SECTOR_SIZE], const struct km_karma_label *label,
			 uint64_t device_size, char *msg, size_t msglen)
{
	struct km_karma_label check;
	unsigned int i;
	int err;

	memset(sector, 0, KM_KARMA_SECTOR_SIZE);
	err = check_buildable(label, msg, msglen);
	if (err)
		return err;
	for (i = 0; i < label->n_partitions; i++) {
		const struct km_karma_partition *part = &label->partitions[i];
		uint8_t *entry = sector + entry_offset(part->number);

		entry[ENTRY_FSTYPE] = KM_KARMA_FSTYPE_OMFS;
		km_put_le32(entry + ENTRY_START, part->start_sector);
		km_put_le32(entry + ENTRY_SIZE, part->n_sectors);
	}
	km_put_le16(sector + LABEL_MAGIC_OFFSET, KM_KARMA_LABEL_MAGIC);
	/* The reader's checks are the only definition of a good label. */
	err = km_karma_label_parse(sector, device_size, &check, msg, msglen);
	if (err)
		memset(sector, 0, KM_KARMA_SECTOR_SIZE);
	return err;
}

struct km_partition_device {
	struct omfs_blockdev bdev;
	const struct omfs_blockdev *parent;
	uint64_t offset;
	uint64_t length;
};

static bool window_in_range(const struct km_partition_device *w, uint64_t off, size_t len)
{
	return off <= w->length && len <= w->length - off;
}

static int window_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	struct km_partition_device *w = ctx;

	if (!window_in_range(w, off, len))
		return -EIO;
	return w->parent->read(w->parent->ctx, w->offset + off, buf, len);
}

static int window_write(void *ctx, uint64_t off, const void *buf, size_t len)
{
	struct km_partition_device *w = ctx;

	if (!window_in_range(w, off, len))
		return -EIO;
	return w->parent->write(w->parent->ctx, w->offset + off, buf, len);
}

static int window_flush(void *ctx)
{
	struct km_partition_device *w = ctx;

	return w->parent->flush(w->parent->ctx);
}

static uint64_t window_size(void *ctx)
{
	return ((struct km_partition_device *)ctx)->length;
}

struct km_partition_device *km_partition_device_open(const struct omfs_blockdev *parent,
						     uint64_t offset, uint64_t length,
						     char *msg, size_t msglen)
{
	uint64_t size = parent->size(parent->ctx);
	struct km_partition_device *w;

	if (offset > size || length > size - offset) {
		snprintf(msg, msglen, "a window at offset %llu of %llu bytes lies past the end of the device (%llu bytes)",
			 (unsigned long long)offset, (unsigned long long)length,
			 (unsigned long long)size);
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		snprintf(msg, msglen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	w->parent = parent;
	w->offset = offset;
	w->length = length ? length : size - offset;
	w->bdev = (struct omfs_blockdev){
		.ctx = w, .read = window_read, .write = window_write,
		.flush = window_flush, .size = window_size,
	};
	return w;
}

struct km_partition_device *km_karma_partition_open(const struct omfs_blockdev *parent,
						 const struct km_karma_partition *part,
						 char *msg, size_t msglen)
{
	/* n_sectors 0 would mean "to the end" to the window: never a partition. */
	if (part->n_sectors == 0) {
		snprintf(msg, msglen, "partition %u is empty", part->number);
		errno = EINVAL;
		return NULL;
	}
	return km_partition_device_open(parent, km_karma_partition_offset(part),
					km_karma_partition_length(part), msg, msglen);
}

const struct omfs_blockdev *km_partition_device_blockdev(struct km_partition_device *w)
{
	return &w->bdev;
}

void km_partition_device_close(struct km_partition_device *w)
{
	free(w);
}

const struct km_karma_partition *km_karma_label_music(const struct km_karma_label *label)
{
	const struct km_karma_partition *best = &label->partitions[0];

	for (unsigned i = 1; i < label->n_partitions; i++)
		if (label->partitions[i].n_sectors >= best->n_sectors)
			best = &label->partitions[i];
	return best;
}
