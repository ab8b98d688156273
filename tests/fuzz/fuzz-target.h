/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-target.h - what every fuzz target provides: one input checked against
 * the promises of the code under test. The libFuzzer entry point
 * (fuzz-main.c) and the corpus replay test (fuzz-replay.c) both call it.
 */
#ifndef FUZZ_TARGET_H
#define FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>

/*
 * Runs one input. Returns NULL when every promise held, else a sentence
 * saying which broke (static storage). note gets a one-line summary of what
 * the input did, for the replay log.
 */
const char *fuzz_target_run(const uint8_t *data, size_t size, char *note, size_t notelen);

#endif
