/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-sim-karma.c - the simulated Karma's transport: the faults every
 * transfer may meet, the RIOP command side, the clock, open and close.
 * Bulk-Only Transport and SCSI are in km-sim-bot.c and km-sim-scsi.c.
 */
#include "km-sim-private.h"
#include "omfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_COMMAND_US 1000
#define DEFAULT_BYTES_PER_S 25000000ull
#define DEFAULT_DEVICE_INFO "Rio Karma (simulated) firmware 1.68 serial 0000000000000000"

static struct km_sim_karma *sim_of(struct km_usb_transport *t)
{
	return (struct km_sim_karma *)t;
}

void sim_spend_ns(struct km_sim_karma *sim, uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	sim->time_ns += ns;
	sim->stats.time_us = sim->time_ns / 1000;
	if (sim->opts.real_time)
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
}

void sim_spend_bytes(struct km_sim_karma *sim, size_t bytes)
{
	sim_spend_ns(sim, (uint64_t)bytes * 1000000000u / sim->opts.bytes_per_s);
}

/* What any transfer may meet before it reaches the device logic. */
static int transfer_faults(struct km_sim_karma *sim, bool in, unsigned timeout_ms)
{
	bool *halted = in ? &sim->halted_in : &sim->halted_out;

	if (sim->faults.unplugged)
		return -ENODEV;
	if (sim_take(&sim->faults.timeouts)) {
		sim_spend_ns(sim, (uint64_t)timeout_ms * 1000000u);
		return -ETIMEDOUT;
	}
	if (sim->needs_reset || *halted)
		return -EPIPE;
	if (sim_take(&sim->faults.stall_transfers) ||
	    ((sim->phase == SIM_DATA_IN || sim->phase == SIM_DATA_OUT) &&
	     sim_take(&sim->faults.stall_data_phases))) {
		*halted = true;
		sim_bot_abort_data(sim);
		return -EPIPE;
	}
	return 0;
}

static void riop_complete(struct km_sim_karma *sim)
{
	struct km_sim_karma_stats *st = &sim->stats;

	switch (sim->riop_cmd) {
	case KM_RIOP_ENTER_STORAGE:
		sim->stats.mode = KM_SIM_STORAGE;
		sim->becoming_ready_left = sim->opts.becoming_ready;
		break;
	case KM_RIOP_LEAVE_STORAGE:
		sim->stats.mode = KM_SIM_LEFT;
		break;
	case KM_RIOP_RETURN_TO_NORMAL:
		sim->stats.mode = KM_SIM_NORMAL;
		break;
	case KM_RIOP_DEVICE_INFO:
		memcpy(sim->riop_reply + KM_RIOP_INFO_OFFSET, sim->device_info,
		       strlen(sim->device_info));
		break;
	default:
		break;
	}
	st->riop_commands++;
	if (st->n_last_riop == sizeof(st->last_riop)) {
		memmove(st->last_riop, st->last_riop + 1, sizeof(st->last_riop) - 1);
		st->n_last_riop--;
	}
	st->last_riop[st->n_last_riop++] = sim->riop_cmd;
	sim->riop_busy = false;
}

/* A 40-byte RIOP packet: a new command (answered by the ack) or a poll. */
static void riop_packet(struct km_sim_karma *sim, const uint8_t *pkt)
{
	uint8_t *rep = sim->riop_reply;

	memset(rep, 0, KM_RIOP_REPLY_LEN);
	sim->phase = SIM_RIOP_REPLY;
	if (pkt[4] == KM_RIOP_NEW_COMMAND) {
		sim->riop_busy = true;
		sim->riop_cmd = pkt[5];
		sim->riop_seq = pkt[6];
		sim->riop_polls_left = sim->opts.riop_polls;
		rep[0] = sim_take(&sim->faults.bad_acks) ? 0x0F : KM_RIOP_ACK;
		return;
	}
	if (pkt[4] != KM_RIOP_POLL)
		return;
	sim->stats.riop_polls++;
	memcpy(rep, "RIOP", 4);
	rep[4] = KM_RIOP_POLL;
	rep[6] = sim->riop_cmd;
	if (pkt[6] != sim->riop_seq || sim->faults.never_echo) {
		rep[KM_RIOP_SEQ_ECHO] = (uint8_t)(pkt[6] + 1);
		return;
	}
	if (sim->riop_busy && sim_take(&sim->riop_polls_left))
		return;		/* busy: byte 5 stays 0, never a sequence number */
	if (sim->riop_busy)
		riop_complete(sim);
	rep[KM_RIOP_SEQ_ECHO] = sim->riop_seq;
}

static bool is_riop_packet(const struct km_sim_karma *sim, const void *buf, size_t len)
{
	return len == KM_RIOP_CMD_LEN && km_riop_looks_like_riop(buf, len) &&
	       (sim->phase == SIM_IDLE || sim->phase == SIM_RIOP_REPLY);
}

static int sim_bulk_out(struct km_usb_transport *t, const void *buf, size_t len, size_t *done,
			unsigned timeout_ms)
{
	struct km_sim_karma *sim = sim_of(t);
	int err = transfer_faults(sim, false, timeout_ms);

	*done = 0;
	if (err)
		return err;
	if (is_riop_packet(sim, buf, len)) {
		sim_spend_ns(sim, (uint64_t)sim->opts.command_us * 1000u);
		riop_packet(sim, buf);
		*done = len;
		return 0;
	}
	if (sim->stats.mode == KM_SIM_NORMAL) {
		/* as plugged in, the player only understands RIOP */
		sim->halted_out = true;
		return -EPIPE;
	}
	return sim_bot_out(sim, buf, len, done);
}

static int sim_bulk_in(struct km_usb_transport *t, void *buf, size_t len, size_t *done,
		       unsigned timeout_ms)
{
	struct km_sim_karma *sim = sim_of(t);
	int err = transfer_faults(sim, true, timeout_ms);

	*done = 0;
	if (err)
		return err;
	if (sim->phase == SIM_RIOP_REPLY) {
		*done = len < KM_RIOP_REPLY_LEN ? len : KM_RIOP_REPLY_LEN;
		memcpy(buf, sim->riop_reply, *done);
		sim->phase = SIM_IDLE;
		return len < KM_RIOP_REPLY_LEN ? -EOVERFLOW : 0;
	}
	if (sim->phase == SIM_DATA_IN || sim->phase == SIM_CSW)
		return sim_bot_in(sim, buf, len, done);
	/* nothing to send: the device NAKs until the host gives up */
	sim_spend_ns(sim, (uint64_t)timeout_ms * 1000000u);
	return -ETIMEDOUT;
}

static int sim_clear_halt(struct km_usb_transport *t, uint8_t endpoint)
{
	struct km_sim_karma *sim = sim_of(t);

	if (sim->faults.unplugged)
		return -ENODEV;
	if (endpoint != KM_KARMA_EP_IN && endpoint != KM_KARMA_EP_OUT)
		return -EINVAL;
	sim->stats.clear_halts++;
	/* after an invalid CBW only the reset ends the stall */
	if (!sim->needs_reset)
		*(endpoint == KM_KARMA_EP_IN ? &sim->halted_in : &sim->halted_out) = false;
	return 0;
}

static int sim_bot_reset(struct km_usb_transport *t)
{
	struct km_sim_karma *sim = sim_of(t);

	if (sim->faults.unplugged)
		return -ENODEV;
	sim->stats.resets++;
	sim->needs_reset = false;
	sim->phase = SIM_IDLE;
	return 0;
}

static void sim_sleep_ms(struct km_usb_transport *t, unsigned ms)
{
	sim_spend_ns(sim_of(t), (uint64_t)ms * 1000000u);
}

static void sim_close(struct km_usb_transport *t)
{
	struct km_sim_karma *sim = sim_of(t);

	if (sim->opts.final_stats)
		*sim->opts.final_stats = sim->stats;
	km_image_device_close(sim->img);
	free(sim->buf);
	free(sim);
}

static const struct km_usb_transport_ops sim_ops = {
	.bulk_out = sim_bulk_out,
	.bulk_in = sim_bulk_in,
	.clear_halt = sim_clear_halt,
	.bot_reset = sim_bot_reset,
	.sleep_ms = sim_sleep_ms,
	.close = sim_close,
};

static void apply_options(struct km_sim_karma *sim, const struct km_sim_karma_options *opts)
{
	if (opts)
		sim->opts = *opts;
	if (!sim->opts.command_us && !sim->opts.bytes_per_s)
		sim->opts.command_us = DEFAULT_COMMAND_US;
	if (!sim->opts.bytes_per_s)
		sim->opts.bytes_per_s = DEFAULT_BYTES_PER_S;
	snprintf(sim->device_info, sizeof(sim->device_info), "%s",
		 sim->opts.device_info ? sim->opts.device_info : DEFAULT_DEVICE_INFO);
	sim->opts.device_info = NULL;	/* not the caller's pointer: it may not outlive us */
	sim->faults = sim->opts.faults;
	sim->stats.mode = KM_SIM_NORMAL;
}

struct km_sim_karma *km_sim_karma_open(const char *image_path,
				       const struct km_sim_karma_options *opts, char *msg,
				       size_t msglen)
{
	struct km_sim_karma *sim = calloc(1, sizeof(*sim));

	if (!sim) {
		snprintf(msg, msglen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	apply_options(sim, opts);
	sim->img = km_image_device_open(image_path, !sim->opts.read_only, 0, 0, msg, msglen);
	if (!sim->img) {
		free(sim);
		return NULL;
	}
	sim->disk = km_image_device_blockdev(sim->img);
	sim->sectors = sim->disk->size(sim->disk->ctx) / 512;
	if (sim->sectors == 0 || sim->sectors > UINT32_MAX) {
		snprintf(msg, msglen, "%s: %llu sectors: a simulated Karma holds 1 to 2^32 - 1",
			 image_path, (unsigned long long)sim->sectors);
		km_image_device_close(sim->img);
		free(sim);
		errno = EINVAL;
		return NULL;
	}
	sim->t.ops = &sim_ops;
	return sim;
}

struct km_usb_transport *km_sim_karma_transport(struct km_sim_karma *sim)
{
	return &sim->t;
}

struct km_sim_karma_faults *km_sim_karma_faults(struct km_sim_karma *sim)
{
	return &sim->faults;
}

void km_sim_karma_get_stats(const struct km_sim_karma *sim, struct km_sim_karma_stats *stats)
{
	*stats = sim->stats;
}
