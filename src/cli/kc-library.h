/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kc-library.h - the Karma library of -i IMAGE for karmactl's Karma-level
 * commands: a whole Karma disk or a bare music volume (the library tells
 * which), --partition to choose one of a disk's partitions.
 */
#ifndef KC_LIBRARY_H
#define KC_LIBRARY_H

#include "kc.h"
#include "km-library.h"

struct kc_library {
	struct kc_device *dev;
	KmLibrary *lib;
};

/* --partition N, shared by the commands that open a library. */
extern char *kc_opt_partition;
#define KC_PARTITION_OPTION                                                              \
	{ "partition", 'p', 0, G_OPTION_ARG_STRING, &kc_opt_partition,                   \
	  "On a whole Karma disk: use partition N (1 or 2) rather than finding the "     \
	  "music partition", "N" }

/*
 * Opens ctx->image (from ctx->offset on) and its library; prints the warnings
 * of open. scan: read every properties file instead of trusting var/smalldb.
 */
int kc_library_open(struct kc_ctx *ctx, bool writable, bool scan, struct kc_library *kl);
/* Closes the library and the image; returns the final status. */
int kc_library_close(struct kc_ctx *ctx, struct kc_library *kl, int status);
/* "karmactl: CMD: WHAT: the error's message"; returns KC_EXIT_FAIL. */
int kc_fail_gerror(const struct kc_ctx *ctx, const char *what, const GError *error);

#endif
