/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-sim-bot.c - the simulated Karma's Bulk-Only Transport device side:
 * takes a CBW (an invalid one stalls both pipes until reset recovery, as the
 * class specification requires), moves the data phase, sends the CSW, and
 * applies the faults that concern them.
 */
#include "km-sim-private.h"

#include <errno.h>
#include <string.h>

#include "km-bytes.h"
#include "km-bot.h"
#include "km-scsi.h"

static bool cbw_valid(const uint8_t *cbw, size_t len)
{
	return len == KM_BOT_CBW_LEN && km_get_le32(cbw) == KM_BOT_CBW_SIGNATURE &&
	       cbw[13] == 0 && cbw[14] >= 1 && cbw[14] <= KM_BOT_CDB_MAX;
}

/* The command is done (or failed): count it, and maybe drop out of storage mode. */
static void command_done(struct km_sim_karma *sim)
{
	struct km_sim_karma_faults *f = &sim->faults;

	sim->stats.scsi_commands++;
	if (f->drop_after_commands && --f->drop_after_commands == 0)
		sim->stats.mode = f->drop_to_normal ? KM_SIM_NORMAL : KM_SIM_LEFT;
}

static int take_cbw(struct km_sim_karma *sim, const uint8_t *cbw, size_t len, size_t *done)
{
	/* the device accepts the packet, then stalls: that is how it says "invalid" */
	*done = len;
	if (sim->phase != SIM_IDLE || !cbw_valid(cbw, len)) {
		sim->needs_reset = true;
		sim->halted_in = sim->halted_out = true;
		return 0;
	}
	sim_spend_ns(sim, (uint64_t)sim->opts.command_us * 1000u);
	sim->tag = km_get_le32(cbw + 4);
	sim->expected = km_get_le32(cbw + 8);
	sim->dir_in = cbw[12] & KM_BOT_FLAG_IN;
	memset(sim->cdb, 0, sizeof(sim->cdb));
	memcpy(sim->cdb, cbw + 15, cbw[14]);
	sim->data_pos = 0;
	sim->data_len = 0;
	sim->residue = sim->expected;
	sim->status = KM_BOT_PASSED;
	sim_scsi_command(sim);
	if (sim->phase == SIM_CSW)
		command_done(sim);
	return 0;
}

static int take_data(struct km_sim_karma *sim, const uint8_t *buf, size_t len, size_t *done)
{
	size_t n = sim->data_len - sim->data_pos;

	if (n > len)
		n = len;
	if (sim->keep_out)
		memcpy(sim->buf + sim->data_pos, buf, n);
	sim->data_pos += n;
	sim_spend_bytes(sim, n);
	*done = n;
	if (sim->data_pos == sim->data_len) {
		sim_scsi_data_out_done(sim);
		sim->phase = SIM_CSW;
		command_done(sim);
	}
	return 0;
}

int sim_bot_out(struct km_sim_karma *sim, const uint8_t *buf, size_t len, size_t *done)
{
	if (sim->phase == SIM_DATA_OUT)
		return take_data(sim, buf, len, done);
	return take_cbw(sim, buf, len, done);
}

void sim_bot_abort_data(struct km_sim_karma *sim)
{
	if (sim->phase != SIM_DATA_IN && sim->phase != SIM_DATA_OUT)
		return;
	sim->status = KM_BOT_FAILED;
	sim->residue = sim->expected;
	sim_scsi_set_sense(sim, KM_SENSE_ABORTED_COMMAND, 0);
	sim->phase = SIM_CSW;
	command_done(sim);
}

static int send_data(struct km_sim_karma *sim, uint8_t *buf, size_t len, size_t *done)
{
	size_t n = sim->data_len - sim->data_pos;
	bool cut = sim_take(&sim->faults.short_transfers);

	if (n > len)
		n = len;
	if (cut)
		n /= 2;
	memcpy(buf, sim->buf + sim->data_pos, n);
	sim->data_pos += n;
	sim_spend_bytes(sim, n);
	*done = n;
	if (sim_take(&sim->faults.oversized_replies)) {
		/* babble: the host's buffer is full and the device had more */
		*done = len;
		sim->phase = SIM_CSW;
		command_done(sim);
		return -EOVERFLOW;
	}
	if (cut || sim->data_pos == sim->data_len) {
		/* a short packet ends the phase; the residue tells what was not sent */
		sim->residue = sim->expected - (uint32_t)sim->data_pos;
		sim->phase = SIM_CSW;
		command_done(sim);
	}
	return 0;
}

static int send_csw(struct km_sim_karma *sim, uint8_t *buf, size_t len, size_t *done)
{
	struct km_sim_karma_faults *f = &sim->faults;
	uint8_t csw[KM_BOT_CSW_LEN];

	km_put_le32(csw, sim_take(&f->bad_signature_csws) ? 0x50534952u : KM_BOT_CSW_SIGNATURE);
	km_put_le32(csw + 4, sim_take(&f->bad_tag_csws) ? sim->tag ^ 0x5A5A : sim->tag);
	km_put_le32(csw + 8, sim_take(&f->bad_residue_csws) ? sim->expected + 512 : sim->residue);
	csw[12] = sim->status;
	sim->phase = SIM_IDLE;
	*done = len < KM_BOT_CSW_LEN ? len : KM_BOT_CSW_LEN;
	memcpy(buf, csw, *done);
	/* a babbling device sends more than the 13 bytes the host asked for */
	return sim_take(&f->oversized_replies) || len < KM_BOT_CSW_LEN ? -EOVERFLOW : 0;
}

int sim_bot_in(struct km_sim_karma *sim, uint8_t *buf, size_t len, size_t *done)
{
	if (sim->phase == SIM_DATA_IN)
		return send_data(sim, buf, len, done);
	return send_csw(sim, buf, len, done);
}
