/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-omfs.c - libFuzzer target: the input is a volume image. It is
 * fsck'd, mounted read-only and walked (every directory, every file read),
 * mounted read-write for creates, writes, truncates, renames and unlinks,
 * and repaired; see omfs-exercise.c for what is checked. A broken promise
 * aborts, so libFuzzer keeps the input as a crash.
 *
 *   OMFS_FUZZ_FLAGS=N  run with omfs_exercise flags N instead of OMFS_EX_ALL
 *                      (e.g. 3 = write + repair, without the fsck-clean oracle)
 */
#include "fuzz-omfs.h"

#include <stdio.h>
#include <stdlib.h>

unsigned fuzz_omfs_flags(void)
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

void fuzz_omfs_one(const uint8_t *data, size_t size, struct omfs_exercise_result *r)
{
	omfs_exercise(data, size, fuzz_omfs_flags(), r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct omfs_exercise_result r;

	fuzz_omfs_one(data, size, &r);
	if (r.violations) {
		fprintf(stderr, "omfs promise broken: %s\n", r.violation);
		abort();
	}
	return 0;
}
