/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * usb-exercise.h - drive the Karma's USB storage protocol (km_karma_usb over
 * any km_usb_transport: a scripted hostile player, or the simulated Karma
 * when the seeds are recorded) and check what must hold whatever the player
 * answers. Shared by the libFuzzer target, its corpus replay and the seed
 * generator, so that they all run the same conversation.
 */
#ifndef USB_EXERCISE_H
#define USB_EXERCISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "km-usb-transport.h"

/* The largest READ(10)/WRITE(10) the exercise lets the protocol send. */
#define USB_EXERCISE_MAX_REQUEST 4096

struct usb_exercise_result {
	int open_err;			/* 0 or -errno */
	char open_msg[256];
	uint64_t sectors;		/* the capacity, when open succeeded */
	unsigned reads_ok, reads_failed, writes_ok, writes_failed;
	int flush_err, mount_err, close_err;
	unsigned dirents;		/* root directory entries, when OMFS mounted */
	uint64_t ops;			/* transport operations */
	uint64_t sleep_ms;		/* virtual time spent waiting */
	/* Broken promises; the first one in words. A correct protocol has none. */
	unsigned violations;
	char violation[512];
};

/* The byte the exercise writes at disk offset off. */
static inline uint8_t usb_exercise_byte(uint64_t off)
{
	return (uint8_t)(off * 7 + 1);
}

/* Takes ownership of t (km_karma_usb closes it). Never crashes or hangs on a correct stack. */
void usb_exercise(struct km_usb_transport *t, struct usb_exercise_result *r);

/* Counts a broken promise; the first one's sentence is kept. */
void usb_exercise_violation(struct usb_exercise_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
