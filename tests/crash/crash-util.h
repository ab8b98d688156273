/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crash-util.h - what the power-cut tests share: the kinds of cut the
 * in-memory device models (km_mem_device_arm_cut), which write indexes to
 * cut at, and what fsck must say about the volume a cut leaves.
 */
#ifndef CRASH_UTIL_H
#define CRASH_UTIL_H

#include <glib.h>

#include "km-mem-device.h"

struct crash_mode {
	const char *name;
	unsigned int flags;	/* enum km_mem_cut_mode */
};

/* clean, cache (unflushed writes lost), torn (the write in progress lands in part). */
extern const struct crash_mode crash_modes[3];

/*
 * The step between the write indexes cut at: 1 with KM_CRASH_EVERY=1 set,
 * else what gives about `target` cuts over n_writes writes.
 */
guint64 crash_stride(guint64 n_writes, guint target);

/* Seeds per write index: 1 for a clean cut, else KM_CRASH_SEEDS or `normal`. */
guint crash_seeds(const struct crash_mode *mode, guint normal);

/* A copy of image (size bytes) with a power cut armed after `writes` writes. */
struct km_mem_device *crash_device(const guint8 *image, guint64 size, guint64 writes,
				   const struct crash_mode *mode, guint32 seed);

/*
 * fsck on the volume a cut left: it mounts, and fsck finds nothing worse
 * than leaks (blocks nothing owns, a mirror copy older than its primary);
 * after a torn write, one sysblock copy failing its checksum too (fsck also
 * reports a block claimed by two owners as an error, so none is). Returns
 * how many findings.
 */
guint crash_assert_fsck_after_cut(const struct omfs_blockdev *dev, const struct crash_mode *mode);
/* fsck --repair fixes everything it found, and fsck is then clean. */
void crash_assert_repair_leaves_clean(const struct omfs_blockdev *dev);

#endif
