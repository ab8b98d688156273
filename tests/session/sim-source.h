/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sim-source.h - a session source for the fault tests: an image behind the
 * simulated Karma and the real USB protocol code (km_karma_usb), as the demo
 * player is reached, with the sim kept at hand so that a test can arm its
 * fault switches.
 *
 * The sim is not thread-safe: it belongs to the worker while a job runs. A
 * test touches it only between jobs, when the worker is idle (the job queue
 * orders the two), or through ss_arm_at_write() and ss_arm_at_read(), whose
 * faults the worker itself arms in the middle of the next job.
 */
#ifndef SIM_SOURCE_H
#define SIM_SOURCE_H

#include "omfs.h"
#include "km-session-source.h"
#include "km-sim-karma.h"

/* Smaller than the tracks: a file's data takes several WRITE(10)s, a fault can cut it. */
#define SS_MAX_REQUEST (64u << 10)
/* "For the rest of the job": more transfers than any test job makes. */
#define SS_FOREVER 1000000u

typedef struct {
	char *image;
	struct km_sim_karma_faults at_open;	/* armed when the sim opens */
	struct km_sim_karma_stats final;	/* the sim's state when it was freed */

	/* the worker's while a job runs */
	struct km_sim_karma *sim;	/* NULL when closed */
	struct omfs_blockdev bdev;	/* the player's, counting reads and writes */
	const struct omfs_blockdev *usb_bdev;
	struct km_karma_usb *usb;
	guint64 reads, writes;	/* block-device requests since the source was made */
	guint64 arm_at_read, arm_at_write;	/* at this request (0: never), ... */
	struct km_sim_karma_faults mid_job;	/* ... these replace the sim's switches */
} SimSource;

/* A session over a sim on image; *source stays the session's (freed with it). */
KmSession *ss_session(const char *image, const struct km_sim_karma_faults *at_open,
		      SimSource **source);
/* Between jobs: the sim's switches (the session must be open). */
struct km_sim_karma_faults *ss_faults(SimSource *source);
/* Between jobs: the sim's counters. */
struct km_sim_karma_stats ss_stats(SimSource *source);
/*
 * Between jobs (or before the open): in the next job, faults replace the
 * sim's switches just before the nth block-device write (or read) from now.
 */
void ss_arm_at_write(SimSource *source, guint64 n, const struct km_sim_karma_faults *faults);
void ss_arm_at_read(SimSource *source, guint64 n, const struct km_sim_karma_faults *faults);

#endif
