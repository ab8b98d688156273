/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-sim-scsi.c - the simulated Karma's SCSI target over the image: the
 * commands the player is known to take, sense data for everything else,
 * and the Bulk-Only "thirteen cases" reduced to what a host can get wrong:
 * a data phase in the wrong direction or shorter than the data is a phase
 * error.
 */
#include "km-sim-private.h"
#include "omfs.h"

#include <stdlib.h>
#include <string.h>

#include "km-bytes.h"
#include "km-bot.h"
#include "km-scsi.h"

#define SIM_MAX_TRANSFER ((size_t)0xFFFF * KM_SCSI_SECTOR)

enum want { WANT_NONE, WANT_IN, WANT_OUT };

void sim_scsi_set_sense(struct km_sim_karma *sim, uint8_t key, uint16_t asc)
{
	sim->sense_key = key;
	sim->asc = asc;
}

static void check_condition(struct km_sim_karma *sim, uint8_t key, uint16_t asc)
{
	sim_scsi_set_sense(sim, key, asc);
	sim->status = KM_BOT_FAILED;
}

static bool reserve(struct km_sim_karma *sim, size_t len)
{
	uint8_t *p;

	if (len <= sim->buf_cap)
		return true;
	p = realloc(sim->buf, len);
	if (!p)
		return false;
	sim->buf = p;
	sim->buf_cap = len;
	return true;
}

/*
 * Medium commands wait for the disk to be ready: this only checks "becoming
 * ready", since run_cdb() has already refused them outside storage mode (and
 * a WRITE(10) it refused reaches no data-out rw_range(): its status failed).
 */
static bool medium_ready(struct km_sim_karma *sim)
{
	if (sim->becoming_ready_left) {
		sim->becoming_ready_left--;
		check_condition(sim, KM_SENSE_NOT_READY, KM_ASC_BECOMING_READY);
		return false;
	}
	return true;
}

static size_t inquiry(struct km_sim_karma *sim)
{
	static const uint8_t std[KM_SCSI_INQUIRY_LEN] = {
		0x00, 0x00, 0x02, 0x02, KM_SCSI_INQUIRY_LEN - 5, 0, 0, 0,
		'R', 'i', 'o', ' ', ' ', ' ', ' ', ' ',
		'R', 'i', 'o', ' ', 'K', 'a', 'r', 'm', 'a', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
		'0', '1', '0', '1',
	};
	size_t alloc = (size_t)sim->cdb[3] << 8 | sim->cdb[4];
	size_t n = sim->faults.short_inquiry ? 20 : sizeof(std);

	memcpy(sim->buf, std, n);
	return n < alloc ? n : alloc;
}

static size_t request_sense(struct km_sim_karma *sim)
{
	size_t alloc = sim->cdb[4];

	memset(sim->buf, 0, KM_SCSI_SENSE_LEN);
	sim->buf[0] = 0x70;
	sim->buf[2] = sim->sense_key;
	sim->buf[7] = KM_SCSI_SENSE_LEN - 8;
	sim->buf[12] = (uint8_t)(sim->asc >> 8);
	sim->buf[13] = (uint8_t)sim->asc;
	sim_scsi_set_sense(sim, KM_SENSE_NO_SENSE, 0);
	return alloc < KM_SCSI_SENSE_LEN ? alloc : KM_SCSI_SENSE_LEN;
}

static size_t read_capacity(struct km_sim_karma *sim)
{
	const struct km_sim_karma_faults *f = &sim->faults;

	if (!medium_ready(sim))
		return 0;
	km_put_be32(sim->buf, f->fake_capacity ? f->fake_last_lba : (uint32_t)(sim->sectors - 1));
	km_put_be32(sim->buf + 4, f->fake_capacity ? f->fake_block_len : KM_SCSI_SECTOR);
	return f->short_capacity ? 4 : KM_SCSI_CAPACITY_LEN;
}

/* READ(10) and WRITE(10): in range, and with a transfer the model can hold. */
static bool rw_range(struct km_sim_karma *sim, uint64_t *off, size_t *len)
{
	uint32_t lba = km_get_be32(sim->cdb + 2);
	uint32_t count = (uint32_t)sim->cdb[7] << 8 | sim->cdb[8];

	if (!medium_ready(sim))
		return false;
	if ((uint64_t)lba + count > sim->sectors) {
		check_condition(sim, KM_SENSE_ILLEGAL_REQUEST, KM_ASC_LBA_OUT_OF_RANGE);
		return false;
	}
	*off = (uint64_t)lba * KM_SCSI_SECTOR;
	*len = (size_t)count * KM_SCSI_SECTOR;
	return true;
}

static size_t read10(struct km_sim_karma *sim)
{
	uint64_t off;
	size_t len;

	if (!rw_range(sim, &off, &len))
		return 0;
	if (!reserve(sim, len)) {
		check_condition(sim, KM_SENSE_HARDWARE_ERROR, 0);
		return 0;
	}
	if (sim->disk->read(sim->disk->ctx, off, sim->buf, len) < 0) {
		check_condition(sim, KM_SENSE_MEDIUM_ERROR, KM_ASC_READ_ERROR);
		return 0;
	}
	sim->stats.bytes_read += len;
	return len;
}

void sim_scsi_data_out_done(struct km_sim_karma *sim)
{
	struct km_sim_karma_faults *f = &sim->faults;
	uint64_t off;
	size_t len;

	if (sim->status != KM_BOT_PASSED || sim->cdb[0] != KM_SCSI_WRITE_10 ||
	    !rw_range(sim, &off, &len))
		return;
	if (sim->opts.read_only) {
		check_condition(sim, KM_SENSE_DATA_PROTECT, KM_ASC_WRITE_PROTECTED);
		return;
	}
	if (sim->disk->write(sim->disk->ctx, off, sim->buf, len) < 0) {
		check_condition(sim, KM_SENSE_MEDIUM_ERROR, KM_ASC_WRITE_ERROR);
		return;
	}
	sim->residue = sim->expected - (uint32_t)len;
	sim->stats.bytes_written += len;
	sim->stats.writes++;
	if (f->unplug_after_writes && --f->unplug_after_writes == 0)
		f->unplugged = true;
}

static void sync_cache(struct km_sim_karma *sim)
{
	if (sim->faults.no_sync_cache)
		check_condition(sim, KM_SENSE_ILLEGAL_REQUEST, KM_ASC_INVALID_OPCODE);
	else if (medium_ready(sim) && !sim->opts.read_only && sim->disk->flush(sim->disk->ctx) < 0)
		check_condition(sim, KM_SENSE_MEDIUM_ERROR, KM_ASC_WRITE_ERROR);
}

/* Runs the command; returns the direction and length of the data it has or wants. */
static enum want run_cdb(struct km_sim_karma *sim, size_t *len)
{
	uint8_t op = sim->cdb[0];

	*len = 0;
	if (op != KM_SCSI_REQUEST_SENSE)
		sim_scsi_set_sense(sim, KM_SENSE_NO_SENSE, 0);
	if (sim->stats.mode != KM_SIM_STORAGE && op != KM_SCSI_INQUIRY &&
	    op != KM_SCSI_REQUEST_SENSE) {
		check_condition(sim, KM_SENSE_NOT_READY, KM_ASC_INIT_REQUIRED);
		return op == KM_SCSI_WRITE_10 ? WANT_OUT : WANT_NONE;
	}
	switch (op) {
	case KM_SCSI_TEST_UNIT_READY:
		medium_ready(sim);
		return WANT_NONE;
	case KM_SCSI_START_STOP_UNIT:
		return WANT_NONE;
	case KM_SCSI_REQUEST_SENSE:
		*len = request_sense(sim);
		return WANT_IN;
	case KM_SCSI_INQUIRY:
		*len = inquiry(sim);
		return WANT_IN;
	case KM_SCSI_READ_CAPACITY_10:
		*len = read_capacity(sim);
		return WANT_IN;
	case KM_SCSI_READ_10:
		*len = read10(sim);
		return WANT_IN;
	case KM_SCSI_WRITE_10:
		*len = (size_t)((uint32_t)sim->cdb[7] << 8 | sim->cdb[8]) * KM_SCSI_SECTOR;
		return WANT_OUT;
	case KM_SCSI_SYNCHRONIZE_CACHE_10:
		sync_cache(sim);
		return WANT_NONE;
	default:
		check_condition(sim, KM_SENSE_ILLEGAL_REQUEST, KM_ASC_INVALID_OPCODE);
		return WANT_NONE;
	}
}

/* The host's data phase against the device's: a mismatch is a phase error. */
static void set_data_phase(struct km_sim_karma *sim, enum want want, size_t len)
{
	bool phase_error = (want == WANT_IN && len > 0 && (!sim->dir_in || len > sim->expected)) ||
			   (want == WANT_OUT && (sim->dir_in || len > sim->expected));

	if (phase_error)
		sim->status = KM_BOT_PHASE_ERROR;
	sim->data_len = 0;
	sim->keep_out = false;
	if (sim->dir_in && want == WANT_IN && sim->status == KM_BOT_PASSED)
		sim->data_len = len;
	if (!sim->dir_in) {
		/* data the device does not want is taken and dropped */
		sim->data_len = sim->expected;
		sim->keep_out = want == WANT_OUT && sim->status == KM_BOT_PASSED;
	}
	sim->residue = sim->expected - (uint32_t)(sim->dir_in ? sim->data_len : 0);
	if (sim->expected == 0)
		sim->phase = SIM_CSW;
	else
		sim->phase = sim->dir_in ? SIM_DATA_IN : SIM_DATA_OUT;
}

void sim_scsi_command(struct km_sim_karma *sim)
{
	enum want want = WANT_NONE;
	size_t len = 0;

	/* more than READ(10) can ask for: the model will not buffer it */
	if (sim->expected > SIM_MAX_TRANSFER ||
	    !reserve(sim, sim->expected > 64 ? sim->expected : 64))
		check_condition(sim, KM_SENSE_ILLEGAL_REQUEST, KM_ASC_INVALID_FIELD);
	else
		want = run_cdb(sim, &len);
	set_data_phase(sim, want, len);
}
