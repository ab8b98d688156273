/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-main.c - the libFuzzer entry point of every fuzz target: a broken
 * promise aborts, so libFuzzer keeps the input as a crash.
 */
#include "fuzz-target.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char note[256];
	const char *broken = fuzz_target_run(data, size, note, sizeof(note));

	if (broken) {
		fprintf(stderr, "promise broken: %s\n", broken);
		abort();
	}
	return 0;
}
