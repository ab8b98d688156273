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
