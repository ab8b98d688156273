/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-mem-device.h - a volume held in memory, for tests, fuzzing and the
 * fault-injection harness. It can fail or "lose power" after the Nth write.
 */
#ifndef KM_MEM_DEVICE_H
#define KM_MEM_DEVICE_H

#include "omfs.h"

/* How a power cut (km_mem_device_arm_cut) treats what was written before it. */
enum km_mem_cut_mode {
	/* Every write before the cut is on the medium, nothing after. */
	KM_MEM_CUT_CLEAN = 0,
	/*
	 * A volatile write cache: of the writes since the last flush, a
	 * pseudo-random subset (picked by the seed) never reached the medium.
	 */
	KM_MEM_CUT_CACHE = 1 << 0,
	/*
	 * The write in progress at the cut lands in part: its first bytes up
	 * to a point inside one sector-sized (512-byte) piece, picked by the seed.
	 */
	KM_MEM_CUT_TORN = 1 << 1,
};

struct km_mem_unflushed;

struct km_mem_device {
	struct omfs_blockdev bdev;
	uint8_t *data;
	uint64_t size;
	/* fault injection: when writes_left reaches 0, every later write fails with -EIO */
	bool fail_armed;
	uint64_t writes_left;
	uint64_t writes;	/* writes done so far */
	uint64_t flushes;
	/* a power cut (km_mem_device_arm_cut): how, and whether it has happened */
	bool cut_armed;
	unsigned int cut_mode;
	uint32_t cut_seed;
	bool powered_off;
	uint64_t lost_writes;	/* writes the cut took back (KM_MEM_CUT_CACHE) */
	struct km_mem_unflushed *unflushed;	/* the writes since the last flush */
};

/* Zero-filled, or a copy of `init` when not NULL. NULL on allocation failure. */
struct km_mem_device *km_mem_device_new(uint64_t size, const void *init);
void km_mem_device_free(struct km_mem_device *dev);
/*
 * Lose power when `writes` more writes have been done: the next write (the
 * one in progress) and every later write and flush fail with -EIO, and
 * data becomes what the medium kept (mode: enum km_mem_cut_mode flags; seed
 * picks the lost writes and the tear, so a cut can be replayed). Reads still
 * work, and show the medium after the cut. 0, or -ENOMEM.
 */
int km_mem_device_arm_cut(struct km_mem_device *dev, uint64_t writes, unsigned int mode,
			  uint32_t seed);

#endif
