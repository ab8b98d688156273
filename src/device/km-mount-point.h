/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-mount-point.h - where the kernel has a disk (or one of its partitions) mounted. */
#ifndef KM_MOUNT_POINT_H
#define KM_MOUNT_POINT_H

#include <glib.h>

/*
 * Where the kernel has path (a block node or a file) mounted, also through
 * one of its partitions: the mount point (free with g_free), or NULL when it
 * is not mounted or that cannot be known. KARMACTL_TEST_MOUNTINFO names a
 * file to read instead of /proc/self/mountinfo (for the tests).
 */
char *km_mount_point_of(const char *path);

#endif
