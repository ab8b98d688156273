/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-omfs.c - fuzz target: the input is a volume image. It is fsck'd,
 * mounted read-only and walked (every directory, every file read), mounted
 * read-write for creates, writes, truncates, renames and unlinks, and
 * repaired; see omfs-exercise.c for what is checked.
 *
 *   OMFS_FUZZ_FLAGS=N  run with omfs_exercise flags N instead of OMFS_EX_ALL
 *                      (e.g. 3 = write + repair, without the fsck-clean oracle)
 */
#include "fuzz-target.h"
#include "omfs-exercise.h"

#include <stdio.h>
#include <stdlib.h>

static unsigned fuzz_omfs_flags(void)
{
	static unsigned flags;
	static int ready;

	if (!ready) {
		const char *env = getenv("OMFS_FUZZ_FLAGS");

		flags = env ? (unsigned)strtoul(env, NULL, 0) : OMFS_EX_ALL;
		ready = 1;
	}
	return flags;
}

const char *fuzz_target_run(const uint8_t *data, size_t size, char *note, size_t notelen)
{
	static struct omfs_exercise_result r;

	omfs_exercise(data, size, fuzz_omfs_flags(), &r);
	snprintf(note, notelen, "fsck %d, repair %d, after repair %d, after writes %d; "
		 "%u dirs, %u files, %u errors", r.fsck, r.fsck_repair,
		 r.fsck_after_repair, r.fsck_after_write, r.dirs, r.files, r.errors);
	return r.violations ? r.violation : NULL;
}
