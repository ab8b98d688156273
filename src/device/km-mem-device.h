/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-mem-device.h - a volume held in memory, for tests, fuzzing and the
 * fault-injection harness. It can fail or "lose power" after the Nth write.
 */
#ifndef KM_MEM_DEVICE_H
#define KM_MEM_DEVICE_H

#include "omfs.h"

struct km_mem_device {
	struct omfs_blockdev bdev;
	uint8_t *data;
	uint64_t size;
	/* fault injection: when writes_left reaches 0, every later write fails with -EIO */
	bool fail_armed;
	uint64_t writes_left;
	uint64_t writes;	/* writes done so far */
	uint64_t flushes;
};

/* Zero-filled, or a copy of `init` when not NULL. NULL on allocation failure. */
struct km_mem_device *km_mem_device_new(uint64_t size, const void *init);
void km_mem_device_free(struct km_mem_device *dev);

#endif
