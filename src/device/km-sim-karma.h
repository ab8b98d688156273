/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-sim-karma.h - the simulated Rio Karma: a model of the player's USB side
 * (RIOP, Bulk-Only Transport, SCSI) over an image file, behind the same
 * km_usb_transport as libusb. Tests, the demo and `karmactl --simulate` drive
 * it; the umockdev test of the libusb layer calls its transport ops as "the
 * device". It behaves only through those ops.
 *
 * Modes: NORMAL (as plugged in: only RIOP is understood, anything else on
 * the OUT pipe stalls), STORAGE (BOT + SCSI over the image) and LEFT (after
 * "leave storage": BOT still answers, every medium command is NOT READY).
 *
 * Time is virtual by default: each command, byte and sleep_ms advances a
 * clock, so a 6 s RIOP timeout costs no time; real_time makes it sleep.
 * Not thread-safe: one caller at a time.
 */
#ifndef KM_SIM_KARMA_H
#define KM_SIM_KARMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "km-usb-transport.h"

enum km_sim_mode { KM_SIM_NORMAL, KM_SIM_STORAGE, KM_SIM_LEFT };

/* Misbehaviour, armed in the options or at any time through km_sim_karma_faults(). */
struct km_sim_karma_faults {
	unsigned stall_transfers;	/* the next N bulk transfers stall their pipe */
	unsigned stall_data_phases;	/* the next N data phases stall (the CSW then says failed) */
	unsigned short_transfers;	/* the next N data-in phases send half the data */
	unsigned oversized_replies;	/* the next N bulk-in transfers babble (more than asked) */
	unsigned timeouts;		/* the next N bulk transfers time out */
	unsigned bad_tag_csws;		/* the next N CSWs carry the wrong tag */
	unsigned bad_signature_csws;	/* ... a wrong signature */
	unsigned bad_residue_csws;	/* ... a residue larger than the request */
	unsigned drop_after_commands;	/* leave storage mode after N more SCSI commands (0: never) */
	bool drop_to_normal;		/* dropping out lands in NORMAL rather than LEFT */
	unsigned unplug_after_writes;	/* gone (-ENODEV) after N more WRITE(10)s (0: never) */
	bool unplugged;			/* gone now */
	unsigned bad_acks;		/* the next N RIOP acknowledgements are not 0xF0 */
	bool never_echo;		/* RIOP polls never echo the sequence number */
	bool short_inquiry;		/* INQUIRY sends 20 bytes */
	bool short_capacity;		/* READ CAPACITY sends 4 bytes */
	bool fake_capacity;		/* READ CAPACITY answers the two values below */
	uint32_t fake_last_lba;
	uint32_t fake_block_len;
	bool no_sync_cache;		/* SYNCHRONIZE CACHE is ILLEGAL REQUEST */
};

struct km_sim_karma_options {
	bool read_only;			/* WRITE(10) answers DATA PROTECT */
	unsigned riop_polls;		/* polls that answer "busy" before a RIOP command is done */
	unsigned becoming_ready;	/* TEST UNIT READYs that answer "becoming ready" after entering */
	const char *device_info;	/* RIOP 0x05's string; NULL: a default */
	/* timing of a USB 2.0 player; both 0 mean the defaults (1000 us, 25 MB/s) */
	unsigned command_us;		/* per BOT command or RIOP packet */
	uint64_t bytes_per_s;		/* bandwidth of the data phases */
	bool real_time;			/* really sleep, for benchmarks */
	struct km_sim_karma_faults faults;
	/* when not NULL, the state at the moment the sim is freed is copied here */
	struct km_sim_karma_stats *final_stats;
};

struct km_sim_karma_stats {
	enum km_sim_mode mode;
	uint64_t scsi_commands;
	uint64_t riop_commands;		/* completed (echoed) */
	uint64_t riop_polls;
	uint64_t bytes_read;		/* data sent to the host by READ(10) */
	uint64_t bytes_written;		/* data written to the image by WRITE(10) */
	uint64_t writes;		/* WRITE(10) commands done */
	uint64_t resets;		/* Bulk-Only Mass Storage Resets */
	uint64_t clear_halts;
	uint64_t time_us;		/* the clock: virtual, or slept for real */
	uint8_t last_riop[8];		/* the last completed RIOP command numbers, oldest first */
	unsigned n_last_riop;
};

struct km_sim_karma;

/* Opens the image read-write (read-only with opts->read_only). opts may be NULL. */
struct km_sim_karma *km_sim_karma_open(const char *image_path,
				       const struct km_sim_karma_options *opts, char *msg,
				       size_t msglen);
/* The sim as a transport; closing the transport frees the sim. */
struct km_usb_transport *km_sim_karma_transport(struct km_sim_karma *sim);
struct km_sim_karma_faults *km_sim_karma_faults(struct km_sim_karma *sim);
void km_sim_karma_get_stats(const struct km_sim_karma *sim, struct km_sim_karma_stats *stats);

#endif
