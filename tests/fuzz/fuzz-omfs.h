/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz-omfs.h - the fuzz target's entry point, shared with the replay test. */
#ifndef FUZZ_OMFS_H
#define FUZZ_OMFS_H

#include "omfs-exercise.h"

/* The flags every fuzz input runs with: OMFS_EX_ALL unless OMFS_FUZZ_FLAGS says otherwise. */
unsigned fuzz_omfs_flags(void);
/* One input, as the fuzzer runs it: the image is the input. */
void fuzz_omfs_one(const uint8_t *data, size_t size, struct omfs_exercise_result *r);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
