/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-sim-private.h - the simulated Karma's state, shared by its transport
 * and RIOP side (km-sim-karma.c), its Bulk-Only Transport device side
 * (km-sim-bot.c) and its SCSI target (km-sim-scsi.c).
 */
#ifndef KM_SIM_PRIVATE_H
#define KM_SIM_PRIVATE_H

#include "km-image-device.h"
#include "km-riop.h"
#include "km-sim-karma.h"

/* What the device expects next on its pipes. */
enum sim_phase { SIM_IDLE, SIM_RIOP_REPLY, SIM_DATA_IN, SIM_DATA_OUT, SIM_CSW };

struct km_sim_karma {
	struct km_usb_transport t;	/* first: the transport is the sim */
	struct km_image_device *img;
	const struct omfs_blockdev *disk;
	uint64_t sectors;
	struct km_sim_karma_options opts;
	char device_info[KM_RIOP_REPLY_LEN - KM_RIOP_INFO_OFFSET];
	struct km_sim_karma_faults faults;
	struct km_sim_karma_stats stats;
	uint64_t time_ns;
	enum sim_phase phase;
	bool halted_in, halted_out;
	bool needs_reset;		/* an invalid CBW: both pipes stall until the reset */
	unsigned becoming_ready_left;

	/* the Bulk-Only command in progress */
	uint32_t tag;
	uint32_t expected;		/* the CBW's data transfer length */
	bool dir_in;
	uint8_t cdb[16];
	uint8_t *buf;			/* data to send, or data received */
	size_t buf_cap;
	size_t data_len, data_pos;	/* of the data phase */
	bool keep_out;			/* the OUT data is the command's (not dropped) */
	uint32_t residue;
	uint8_t status;
	uint8_t sense_key;
	uint16_t asc;

	/* RIOP */
	uint8_t riop_reply[KM_RIOP_REPLY_LEN];
	bool riop_busy;
	uint8_t riop_cmd, riop_seq;
	unsigned riop_polls_left;
};

/* Takes one from a fault counter; true when the fault strikes now. */
static inline bool sim_take(unsigned *counter)
{
	if (*counter == 0)
		return false;
	(*counter)--;
	return true;
}

/* km-sim-karma.c: the clock */
void sim_spend_ns(struct km_sim_karma *sim, uint64_t ns);
void sim_spend_bytes(struct km_sim_karma *sim, size_t bytes);

/* km-sim-bot.c: the Bulk-Only device side of the pipes */
int sim_bot_out(struct km_sim_karma *sim, const uint8_t *buf, size_t len, size_t *done);
int sim_bot_in(struct km_sim_karma *sim, uint8_t *buf, size_t len, size_t *done);
/* A failed data phase (stalled by a fault): the CSW will say so. */
void sim_bot_abort_data(struct km_sim_karma *sim);

/* km-sim-scsi.c: runs sim->cdb; sets the data phase, status, residue and sense */
void sim_scsi_command(struct km_sim_karma *sim);
/* The data of a WRITE(10) has all arrived. */
void sim_scsi_data_out_done(struct km_sim_karma *sim);
void sim_scsi_set_sense(struct km_sim_karma *sim, uint8_t key, uint16_t asc);

#endif
