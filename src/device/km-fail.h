/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-fail.h - the device layer's way to fail: a sentence in the caller's
 * msg buffer, and the negative errno handed back.
 */
#ifndef KM_FAIL_H
#define KM_FAIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Formats fmt into msg (msglen bytes, truncated as snprintf does) and returns err. */
static inline int km_fail(int err, char *msg, size_t msglen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static inline int km_fail(int err, char *msg, size_t msglen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, msglen, fmt, ap);
	va_end(ap);
	return err;
}

#endif
