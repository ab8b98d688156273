/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-label.c - fuzz target: the input is sector 0 of a Karma disk (bytes
 * 0-511, zero-padded), then the disk's size in bytes (LE64, 1 GiB when
 * absent). A label km_karma_label_parse() accepts has one or two
 * partitions inside the disk, past sector 0, not overlapping; it builds
 * back into a sector that parses to the same label; each partition opens
 * as a window that reads its first and last byte and nothing past its end.
 * The disk is a device that is all zeros but for sector 0 (nothing is
 * allocated for its size).
 */
#include "fuzz-target.h"
#include "km-karma-label.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct zero_disk {
	uint8_t sector[KM_KARMA_SECTOR_SIZE];
	uint64_t size;
};

static int zero_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	struct zero_disk *d = ctx;

	if (off > d->size || len > d->size - off)
		return -EIO;
	memset(buf, 0, len);
	if (off < KM_KARMA_SECTOR_SIZE)
		memcpy(buf, d->sector + off,
		       len < KM_KARMA_SECTOR_SIZE - off ? len : KM_KARMA_SECTOR_SIZE - off);
	return 0;
}

static uint64_t zero_size(void *ctx)
{
	return ((struct zero_disk *)ctx)->size;
}

static const char *check_label(const struct km_karma_label *label, uint64_t disk_size)
{
	if (label->n_partitions < 1 || label->n_partitions > KM_KARMA_MAX_PARTITIONS)
		return "a label accepted with no partition or too many";
	for (unsigned int i = 0; i < label->n_partitions; i++) {
		const struct km_karma_partition *p = &label->partitions[i];
		uint64_t end = km_karma_partition_offset(p) + km_karma_partition_length(p);

		if (p->start_sector == 0 || p->n_sectors == 0 || end > disk_size)
			return "an accepted partition covers sector 0, is empty or passes the end";
		for (unsigned int j = 0; j < i; j++) {
			const struct km_karma_partition *q = &label->partitions[j];
			uint64_t qend = km_karma_partition_offset(q) + km_karma_partition_length(q);

			uint64_t qstart = km_karma_partition_offset(q);

			if (km_karma_partition_offset(p) < qend && qstart < end)
				return "two accepted partitions overlap";
		}
	}
	return NULL;
}

static const char *check_rebuild(const struct km_karma_label *label, uint64_t disk_size)
{
	uint8_t sector[KM_KARMA_SECTOR_SIZE];
	struct km_karma_label again;
	char msg[256];

	if (km_karma_label_build(sector, label, disk_size, msg, sizeof(msg)))
		return "build refused a label parse accepted";
	if (km_karma_label_parse(sector, disk_size, &again, msg, sizeof(msg)))
		return "the sector build wrote does not parse";
	if (again.n_partitions != label->n_partitions)
		return "the label built back parses to another label";
	for (unsigned int i = 0; i < label->n_partitions; i++)
		if (again.partitions[i].number != label->partitions[i].number ||
		    again.partitions[i].start_sector != label->partitions[i].start_sector ||
		    again.partitions[i].n_sectors != label->partitions[i].n_sectors)
			return "the label built back parses to another label";
	return NULL;
}

static const char *check_windows(const struct omfs_blockdev *disk,
				 const struct km_karma_label *label)
{
	for (unsigned int i = 0; i < label->n_partitions; i++) {
		uint64_t len = km_karma_partition_length(&label->partitions[i]);
		struct km_partition_device *w;
		const struct omfs_blockdev *dev;
		uint8_t byte;
		char msg[256];
		const char *broken = NULL;

		w = km_karma_partition_open(disk, &label->partitions[i], msg, sizeof(msg));
		if (!w)
			return "an accepted partition does not open";
		dev = km_partition_device_blockdev(w);
		if (dev->size(dev->ctx) != len)
			broken = "a partition window has the wrong size";
		else if (dev->read(dev->ctx, 0, &byte, 1) || dev->read(dev->ctx, len - 1, &byte, 1))
			broken = "a partition window does not read its own bytes";
		else if (dev->read(dev->ctx, len, &byte, 1) == 0)
			broken = "a partition window reads past its end";
		km_partition_device_close(w);
		if (broken)
			return broken;
	}
	return NULL;
}

const char *fuzz_target_run(const uint8_t *data, size_t size, char *note, size_t notelen)
{
	struct zero_disk disk = { .size = 1ull << 30 };
	struct omfs_blockdev dev = { .ctx = &disk, .read = zero_read, .size = zero_size };
	struct km_karma_label label, read_label;
	char msg[256];
	const char *broken;
	int err;

	memcpy(disk.sector, data, size < KM_KARMA_SECTOR_SIZE ? size : KM_KARMA_SECTOR_SIZE);
	if (size >= KM_KARMA_SECTOR_SIZE + 8) {
		disk.size = 0;
		for (int i = 7; i >= 0; i--)
			disk.size = disk.size << 8 | data[KM_KARMA_SECTOR_SIZE + i];
	}
	msg[0] = '\0';
	err = km_karma_label_parse(disk.sector, disk.size, &label, msg, sizeof(msg));
	snprintf(note, notelen, "%d: %s", err, msg);
	if (err && !msg[0])
		return "parse failed without a message";
	if (err != 0 && err != -ENOENT && err != -EINVAL)
		return "parse returned an error it does not document";
	/* A disk smaller than one sector cannot even be read. */
	if (disk.size < KM_KARMA_SECTOR_SIZE)
		return NULL;
	if (km_karma_label_read(&dev, &read_label, msg, sizeof(msg)) != err)
		return "reading the label from the disk gave another answer than parsing it";
	if (err)
		return NULL;
	broken = check_label(&label, disk.size);
	if (!broken)
		broken = check_rebuild(&label, disk.size);
	return broken ? broken : check_windows(&dev, &label);
}
