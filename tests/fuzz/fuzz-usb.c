/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-usb.c - fuzz target: the input is the script of a hostile Rio Karma
 * (usb-script.h: every bulk reply, transfer result and short length the
 * player gives, in order). The USB storage protocol opens it, reads and
 * writes, flushes, mounts OMFS read-only on it and closes it; see
 * usb-exercise.c and usb-checker.c for the promises checked.
 */
#include "fuzz-target.h"
#include "usb-exercise.h"
#include "usb-script.h"

#include <stdio.h>

const char *fuzz_target_run(const uint8_t *data, size_t size, char *note, size_t notelen)
{
	static struct usb_exercise_result r;
	struct km_usb_transport *t = usb_script_transport_new(data, size);

	if (!t) {
		snprintf(note, notelen, "out of memory");
		return NULL;
	}
	usb_exercise(t, &r);
	snprintf(note, notelen, "open %d (%s); %llu sectors; reads %u ok %u failed; writes %u "
		 "ok %u failed; flush %d, mount %d (%u entries), close %d; %llu operations, "
		 "%llu ms waited", r.open_err, r.open_err ? r.open_msg : "",
		 (unsigned long long)r.sectors, r.reads_ok, r.reads_failed, r.writes_ok,
		 r.writes_failed, r.flush_err, r.mount_err, r.dirents, r.close_err,
		 (unsigned long long)r.ops, (unsigned long long)r.sleep_ms);
	return r.violations ? r.violation : NULL;
}
