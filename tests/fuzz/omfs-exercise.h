/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * omfs-exercise.h - drive the OMFS core over an arbitrary, possibly hostile
 * image and check what must hold whatever the image holds. Shared by the
 * libFuzzer harness, its replay test and the hostile-image tests, so that
 * they all exercise the core the same way. Plain libc, like the core.
 */
#ifndef OMFS_EXERCISE_H
#define OMFS_EXERCISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	/* Read-write phase on a copy: creates, writes, truncates, renames, unlinks. */
	OMFS_EX_WRITE = 1 << 0,
	/* fsck --repair on a copy, then fsck again. */
	OMFS_EX_REPAIR = 1 << 1,
	/* The volume must read in full without an error even if fsck finds problems
	 * (a damaged primary copy that a mirror stands in for). */
	OMFS_EX_MUST_READ = 1 << 2,
	/*
	 * When the first fsck finds the volume clean, everything must work on it
	 * and our own operations must leave it clean. Off, only crashes, hangs,
	 * error sentences and writes by read-only paths are checked.
	 */
	OMFS_EX_ORACLE = 1 << 3,
	OMFS_EX_ALL = OMFS_EX_WRITE | OMFS_EX_REPAIR | OMFS_EX_ORACLE,
};

#define OMFS_EX_NO_FSCK (-1)

struct omfs_exercise_result {
	int mount_err;		/* read-only mount: 0 or -errno */
	char mount_msg[320];
	int fsck;		/* exit code of fsck without repair */
	unsigned fsck_notes;	/* its notes: clean, but a repair normalises them (exit 1) */
	int fsck_repair;	/* of fsck --repair, or OMFS_EX_NO_FSCK */
	int fsck_after_repair;	/* of the fsck that follows a repair, or OMFS_EX_NO_FSCK */
	int fsck_after_write;	/* after the read-write phase, or OMFS_EX_NO_FSCK */
	unsigned dirs, files, errors;
	uint64_t bytes_read;
	/* Broken promises; the first one in words. A correct core has none. */
	unsigned violations;
	char violation[512];
};

/* Runs the phases selected by flags; never crashes or hangs on a correct core. */
void omfs_exercise(const uint8_t *image, size_t size, unsigned flags,
		   struct omfs_exercise_result *r);

#endif
