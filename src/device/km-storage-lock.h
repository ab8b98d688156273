/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-storage-lock.h - one writer at a time (docs/RELIABILITY.md, "One
 * writer at a time"). A writer holds an exclusive flock(2) on the image
 * file or disk node for as long as it may write, a reader a shared one, so
 * that a reader never sees a half-written state and two writers never
 * interleave. flock rather than a POSIX lock: it is what udev and the other
 * disk tools take on a block device, it is bound to the open file (so a
 * holder killed with kill -9 releases it), and /proc/locks names the
 * process that took it.
 */
#ifndef KM_STORAGE_LOCK_H
#define KM_STORAGE_LOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Locks the file fd is open on (named path in messages), exclusive or
 * shared, without waiting. Returns 0, or -EBUSY with "PATH is in use by
 * NAME, pid N" (or "by another program" when the holder cannot be known)
 * in msg, or another -errno with a sentence.
 */
int km_storage_lock(int fd, const char *path, bool exclusive, char *msg, size_t msglen);

/*
 * "NAME, pid N" of the process that holds a flock on the file (st_dev, st_ino), from /proc/locks; false when there is none
 * or it cannot be known.
 */
bool km_storage_lock_holder(dev_t dev, ino_t ino, char *out, size_t outlen);

/*
 * "NAME, pid N" of a process other than this one that has the node at path
 * open (a USB device node, whose claim shows in no lock table), found by
 * its open files in /proc; false when none can be seen.
 */
bool km_storage_node_user(const char *path, char *out, size_t outlen);

#endif
