/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * device-test-util.h - what the USB protocol tests share: image files with
 * known content, a simulated Karma opened through the whole protocol stack,
 * and checks against the image's bytes.
 */
#ifndef DEVICE_TEST_UTIL_H
#define DEVICE_TEST_UTIL_H

#include <glib.h>

#include "km-karma-usb.h"
#include "km-sim-karma.h"

#define DT_IMAGE_SIZE ((gsize)4 << 20)

/* A temporary image of size bytes filled from seed; g_free the path. The folder goes at exit. */
char *dt_image(gsize size, guint32 seed);
/* The whole content of a file. */
GBytes *dt_file_bytes(const char *path);

/* A simulated Karma on path; *sim gets the sim (valid until the transport is closed). */
struct km_sim_karma *dt_sim(const char *path, const struct km_sim_karma_options *opts);
/* Opens the sim through the protocol; asserts success. */
struct km_karma_usb *dt_open(struct km_sim_karma *sim);
/* Closes; asserts success. */
void dt_close(struct km_karma_usb *k);

/* Reads len bytes at off through k and compares them with want + off. */
void dt_assert_reads(struct km_karma_usb *k, const guint8 *want, guint64 off, gsize len);
/* The message contains needle (and says so when it does not). */
void dt_assert_msg(const char *msg, const char *needle);

#endif
