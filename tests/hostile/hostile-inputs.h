/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostile-inputs.h - what the hostile tests run: every case of the table,
 * and every image committed in tests/hostile/images/ (inputs that once found
 * a bug), the latter with no expectation beyond surviving with clear errors.
 */
#ifndef HOSTILE_INPUTS_H
#define HOSTILE_INPUTS_H

#include "hostile-images.h"

#include <glib.h>

struct hostile_input {
	struct hostile_case c;	/* for a file: its name and generic expectations */
	char *file;		/* NULL: built from the table */
	char *test_path;	/* /hostile/KIND/GROUP/NAME */
};

/* Every input, with test paths under /hostile/KIND; images_dir may be NULL. */
GPtrArray *hostile_inputs(const char *kind, const char *images_dir);
void hostile_input_image(const struct hostile_input *in, struct hostile_image *img);

#endif
