/* SPDX-License-Identifier: GPL-2.0-or-later */
/* km-usb-transport.c - the one helper the transport interface offers its users. */
#include "km-usb-transport.h"

#include <errno.h>
#include <time.h>

void km_usb_sleep(struct km_usb_transport *t, unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	if (t->ops->sleep_ms) {
		t->ops->sleep_ms(t, ms);
		return;
	}
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* One decimal number 1..255 at *s, which is moved past it. */
static bool parse_byte(const char **s, uint8_t *out)
{
	unsigned v = 0;
	int digits = 0;

	while (**s >= '0' && **s <= '9' && digits < 3) {
		v = v * 10 + (unsigned)(**s - '0');
		(*s)++;
		digits++;
	}
	if (!digits || !v || v > 255)
		return false;
	*out = (uint8_t)v;
	return true;
}

bool km_usb_parse_location(const char *s, uint8_t *bus, uint8_t *address)
{
	uint8_t b, a;

	if (!parse_byte(&s, &b) || *s++ != ':' || !parse_byte(&s, &a) || *s)
		return false;
	*bus = b;
	*address = a;
	return true;
}
