/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-usb-hostile.c - a broken or malicious player: garbage
 * acknowledgements, a sequence number never echoed, short or absurd SCSI
 * data, invalid command blocks, bad opcodes, and a transport that answers
 * random bytes. Each gives an error with a sentence, never a crash or hang.
 */
#include <errno.h>
#include <string.h>

#include "device-test-util.h"
#include "omfs.h"

/* Opening fails with err, and the sentence says needle. */
static void assert_open_fails(const struct km_sim_karma_options *opts, int err,
			      const char *needle)
{
	g_autofree char *path = dt_image(DT_IMAGE_SIZE, 21);
	struct km_sim_karma *sim = dt_sim(path, opts);
	char msg[OMFS_ERRMSG_MAX] = "";

	errno = 0;
	g_assert_null(km_karma_usb_open(km_sim_karma_transport(sim), msg, sizeof(msg)));
	g_assert_cmpint(errno, ==, err);
	g_test_message("%s", msg);
	dt_assert_msg(msg, needle);
}

/* The kernel's ums-karma never looks at the acknowledgement's byte 0: neither do we. */
static void test_garbage_ack(void)
{
	g_autofree char *path = dt_image(DT_IMAGE_SIZE, 21);
	struct km_sim_karma_options opts = { .faults.bad_acks = 1 };
	struct km_karma_usb *k = dt_open(dt_sim(path, &opts));

	g_test_message("%s", km_karma_usb_protocol_note(k));
	dt_assert_msg(km_karma_usb_protocol_note(k),
		      "RIOP enter storage (0x01): the acknowledgement starts with 0x0f, not 0xf0");
	dt_close(k);
}

/* Wrong sequence numbers forever: the 6 s limit, in virtual time. */
static void test_never_echoed(void)
{
	struct km_sim_karma_stats st = { 0 };
	struct km_sim_karma_options opts = { .faults.never_echo = true, .final_stats = &st };

	assert_open_fails(&opts, ETIMEDOUT, "did not echo sequence number 1 within 6000 ms");
	g_assert_cmpuint(st.time_us, >=, 6000000);
	g_assert_cmpuint(st.time_us, <, 7000000);
	/* one poll after each 50 ms wait, as the kernel polls */
	g_assert_cmpuint(st.riop_polls, ==, 6000 / 50);
}

static void test_short_inquiry(void)
{
	struct km_sim_karma_options opts = { .faults.short_inquiry = true };

	assert_open_fails(&opts, EPROTO, "INQUIRY: 20 bytes of data");
}

static void test_short_capacity(void)
{
	struct km_sim_karma_options opts = { .faults.short_capacity = true };

	assert_open_fails(&opts, EPROTO, "READ CAPACITY(10): 4 bytes of data, not 8");
}

static void test_absurd_capacity(void)
{
	struct km_sim_karma_options zero = { .faults = { .fake_capacity = true } };
	struct km_sim_karma_options big = {
		.faults = { .fake_capacity = true, .fake_last_lba = UINT32_MAX,
			    .fake_block_len = 512 }
	};
	struct km_sim_karma_options sector4k = {
		.faults = { .fake_capacity = true, .fake_last_lba = 100, .fake_block_len = 4096 }
	};

	assert_open_fails(&zero, EPROTO, "sectors of 0 bytes, not 512");
	assert_open_fails(&big, EPROTO, "2 TiB or more");
	assert_open_fails(&sector4k, EPROTO, "sectors of 4096 bytes");
}

/* A sim already in storage mode, driven command by command. */
static struct km_sim_karma *storage_sim(struct km_scsi *s, const char *path)
{
	struct km_sim_karma *sim = dt_sim(path, NULL);
	struct km_usb_transport *t = km_sim_karma_transport(sim);
	struct km_riop r;
	char msg[256];

	km_scsi_init(s, t);
	km_riop_init(&r);
	g_assert_cmpint(km_riop_command(&r, t, KM_RIOP_ENTER_STORAGE, NULL, msg, sizeof(msg)), ==,
			0);
	return sim;
}

/* An invalid CBW stalls both pipes; clearing a halt does not help, reset recovery does. */
static void test_invalid_cbw(void)
{
	g_autofree char *path = dt_image(DT_IMAGE_SIZE, 22);
	struct km_scsi s;
	struct km_sim_karma *sim = storage_sim(&s, path);
	struct km_usb_transport *t = km_sim_karma_transport(sim);
	guint8 cbw[31] = "USBX not a command block";
	char msg[256];
	size_t done;

	g_assert_cmpint(t->ops->bulk_out(t, cbw, sizeof(cbw), &done, 1000), ==, 0);
	g_assert_cmpint(t->ops->bulk_in(t, cbw, 13, &done, 1000), ==, -EPIPE);
	g_assert_cmpint(t->ops->clear_halt(t, KM_KARMA_EP_IN), ==, 0);
	g_assert_cmpint(t->ops->bulk_in(t, cbw, 13, &done, 1000), ==, -EPIPE);
	g_assert_cmpint(km_bot_reset_recovery(&s.bot, msg, sizeof(msg)), ==, 0);
	g_assert_cmpint(km_scsi_test_unit_ready(&s, msg, sizeof(msg)), ==, 0);
	t->ops->close(t);
}

/* Before storage mode the player only takes RIOP: a command block stalls. */
static void test_normal_mode_stalls(void)
{
	g_autofree char *path = dt_image(DT_IMAGE_SIZE, 23);
	struct km_sim_karma *sim = dt_sim(path, NULL);
	struct km_usb_transport *t = km_sim_karma_transport(sim);
	struct km_scsi s;
	char msg[256];

	km_scsi_init(&s, t);
	g_assert_cmpint(km_scsi_test_unit_ready(&s, msg, sizeof(msg)), ==, -EPIPE);
	dt_assert_msg(msg, "TEST UNIT READY: sending the command block failed");
	t->ops->close(t);
}

static void test_sense_sentences(void)
{
	g_autofree char *path = dt_image(DT_IMAGE_SIZE, 24);
	struct km_scsi s;
	struct km_sim_karma *sim = storage_sim(&s, path);
	struct km_usb_transport *t = km_sim_karma_transport(sim);
	const guint8 bad_op[6] = { 0xEE };
	struct km_bot_command c = { .cdb = bad_op, .cdb_len = 6, .timeout_ms = 1000 };
	struct km_scsi_sense sense;
	struct km_riop r = { .seq = 2 };
	guint8 buf[1024];
	char msg[256];

	g_assert_cmpint(km_bot_command(&s.bot, &c, "opcode 0xEE", msg, sizeof(msg)), ==, 0);
	g_assert_cmpint(c.status, ==, KM_BOT_FAILED);
	g_assert_cmpint(km_scsi_request_sense(&s, &sense, msg, sizeof(msg)), ==, 0);
	km_scsi_describe_sense(&sense, msg, sizeof(msg));
	g_assert_cmpstr(msg, ==, "ILLEGAL REQUEST, invalid command operation code (05/20/00)");

	g_assert_cmpint(km_scsi_read10(&s, DT_IMAGE_SIZE / 512 - 1, 2, buf, msg, sizeof(msg)),
			==, -EIO);
	g_assert_cmpstr(msg, ==, "READ(10) of 2 sectors at 8191: the player answered ILLEGAL "
			"REQUEST, logical block address out of range (05/21/00)");

	/* a READ(10) whose CBW announces an OUT phase: a phase error, then recovery */
	c = (struct km_bot_command){ .cdb = (const guint8[10]){ 0x28, 0, 0, 0, 0, 0, 0, 0, 1 },
				     .cdb_len = 10, .dir = KM_BOT_OUT, .data = buf, .len = 512,
				     .timeout_ms = 1000 };
	g_assert_cmpint(km_bot_command(&s.bot, &c, "READ(10) out", msg, sizeof(msg)), ==, -EIO);
	dt_assert_msg(msg, "phase error");
	g_assert_cmpint(km_scsi_test_unit_ready(&s, msg, sizeof(msg)), ==, 0);

	/* after "leave storage", the medium is not ready */
	g_assert_cmpint(km_riop_command(&r, t, KM_RIOP_LEAVE_STORAGE, NULL, msg, sizeof(msg)),
			==, 0);
	g_assert_cmpint(km_scsi_test_unit_ready(&s, msg, sizeof(msg)), ==, -EIO);
	g_assert_cmpstr(msg, ==, "TEST UNIT READY: the player answered NOT READY, initializing "
			"command required (02/04/02)");
	t->ops->close(t);
}

/*
 * A stalled data phase: the host clears the halt and still reads the CSW,
 * which says the command failed; no reset recovery is needed.
 */
static void test_data_phase_stall(void)
{
	g_autofree char *path = dt_image(DT_IMAGE_SIZE, 25);
	struct km_scsi s;
	struct km_sim_karma *sim = storage_sim(&s, path);
	struct km_usb_transport *t = km_sim_karma_transport(sim);
	struct km_sim_karma_stats before, after;
	guint8 buf[4096] = { 0 };
	char msg[256];
	int write;

	for (write = 0; write < 2; write++) {
		km_sim_karma_get_stats(sim, &before);
		km_sim_karma_faults(sim)->stall_data_phases = 1;
		if (write)
			g_assert_cmpint(km_scsi_write10(&s, 8, 8, buf, msg, sizeof(msg)), ==, -EIO);
		else
			g_assert_cmpint(km_scsi_read10(&s, 8, 8, buf, msg, sizeof(msg)), ==, -EIO);
		dt_assert_msg(msg, "ABORTED COMMAND");
		km_sim_karma_get_stats(sim, &after);
		g_assert_cmpuint(after.resets, ==, before.resets);
		g_assert_cmpuint(after.clear_halts, ==, before.clear_halts + 1);
		g_assert_cmpint(km_scsi_read10(&s, 8, 8, buf, msg, sizeof(msg)), ==, 0);
	}
	t->ops->close(t);
}

/*
 * A "player" that answers most transfers plausibly (an ack or an echo to
 * RIOP, data and a CSW with the right tag to a CBW) with random status,
 * residue and data, and the rest with random lengths of random bytes and
 * random errors: so that every stage of the protocol meets garbage.
 */
struct random_transport {
	struct km_usb_transport t;
	GRand *rand;
	guint8 last[KM_RIOP_CMD_LEN];	/* the last RIOP packet or CBW */
	size_t last_len;
	bool data_given;
	gint32 one_in;		/* one transfer in this many is garbage */
};

static bool garbage(struct random_transport *r)
{
	return g_rand_int_range(r->rand, 0, r->one_in) == 0;
}

static int random_result(struct random_transport *r)
{
	static const int results[] = { 0, 0, 0, 0, -EPIPE, -ETIMEDOUT, -EOVERFLOW, -EIO };

	return results[g_rand_int_range(r->rand, 0, G_N_ELEMENTS(results))];
}

static int random_out(struct km_usb_transport *t, const void *buf, size_t len, size_t *done,
		      unsigned timeout_ms)
{
	struct random_transport *r = (struct random_transport *)t;

	(void)timeout_ms;
	if (len == KM_RIOP_CMD_LEN || len == KM_BOT_CBW_LEN) {
		memcpy(r->last, buf, len);
		r->last_len = len;
		r->data_given = false;
	}
	if (!garbage(r)) {
		*done = len;
		return 0;
	}
	*done = g_rand_boolean(r->rand) ? len : (size_t)g_rand_int_range(r->rand, 0, len + 1);
	return random_result(r);
}

/* What a player would answer, with random status, residue and data. */
static void plausible_in(struct random_transport *r, guint8 *p, size_t len, size_t *done)
{
	size_t i;

	*done = len;
	if (r->last_len == KM_RIOP_CMD_LEN) {
		memset(p, 0, len);
		if (len > KM_RIOP_SEQ_ECHO)
			p[r->last[4] == KM_RIOP_POLL ? KM_RIOP_SEQ_ECHO : 0] =
				r->last[4] == KM_RIOP_POLL ? r->last[6] : KM_RIOP_ACK;
		return;
	}
	for (i = 0; i < len; i++)
		p[i] = (guint8)g_rand_int(r->rand);
	if (len != KM_BOT_CSW_LEN || r->last_len != KM_BOT_CBW_LEN) {
		/* a disk, of a sane size, most of the time */
		if (r->last[15] == KM_SCSI_INQUIRY && len > 0 && !garbage(r))
			p[0] = 0;
		if (r->last[15] == KM_SCSI_READ_CAPACITY_10 && len >= 8 && !garbage(r))
			memcpy(p, "\0\0\x10\0\0\0\x02\0", 8);
		r->data_given = true;
		return;
	}
	memcpy(p, "USBS", 4);
	memcpy(p + 4, r->last + 4, 4);
	if (!garbage(r))
		memset(p + 8, 0, 4);
	p[12] = (guint8)(garbage(r) ? g_rand_int_range(r->rand, 0, 4) : 0);
}

static int random_in(struct km_usb_transport *t, void *buf, size_t len, size_t *done,
		     unsigned timeout_ms)
{
	struct random_transport *r = (struct random_transport *)t;
	guint8 *p = buf;
	size_t i;

	(void)timeout_ms;
	if (!garbage(r)) {
		plausible_in(r, p, len, done);
		return 0;
	}
	*done = g_rand_boolean(r->rand) ? len : (size_t)g_rand_int_range(r->rand, 0, len + 1);
	for (i = 0; i < *done; i++)
		p[i] = (guint8)g_rand_int(r->rand);
	/* sometimes a plausible ack or CSW start, so that later stages are reached */
	if (*done >= 4 && g_rand_boolean(r->rand))
		memcpy(p, g_rand_boolean(r->rand) ? "\xf0\0\0\0" : "USBS", 4);
	return random_result(r);
}

static int random_control(struct km_usb_transport *t, uint8_t ep)
{
	(void)ep;
	return g_rand_int_range(((struct random_transport *)t)->rand, 0, 8) ? 0 : -EIO;
}

static int random_reset(struct km_usb_transport *t)
{
	return random_control(t, 0);
}

static void random_sleep(struct km_usb_transport *t, unsigned ms)
{
	(void)t;
	(void)ms;
}

static void random_close(struct km_usb_transport *t)
{
	struct random_transport *r = (struct random_transport *)t;

	g_rand_free(r->rand);
	g_free(r);
}

static const struct km_usb_transport_ops random_ops = {
	random_out, random_in, random_control, random_reset, random_sleep, random_close,
};

static void test_random_player(void)
{
	guint32 seed;
	int opened = 0;

	for (seed = 0; seed < 2000; seed++) {
		struct random_transport *r = g_new0(struct random_transport, 1);
		char msg[OMFS_ERRMSG_MAX] = "";
		struct km_karma_usb *k;

		r->t.ops = &random_ops;
		r->rand = g_rand_new_with_seed(seed);
		r->one_in = 4 << (seed % 4 * 2);
		k = km_karma_usb_open(&r->t, msg, sizeof(msg));
		if (k) {
			/* it got through by luck: reading must still end, one way or another */
			guint8 buf[4096] = { 0 };
			const struct omfs_blockdev *dev = km_karma_usb_blockdev(k);
			guint64 size = dev->size(dev->ctx);

			opened++;
			g_assert_cmpuint(size, >, 0);
			/* each failure comes with its sentence */
			if (dev->read(dev->ctx, 0, buf, MIN(sizeof(buf), size)))
				g_assert_cmpstr(km_karma_usb_errmsg(k), !=, "");
			if (dev->write(dev->ctx, size - 1, buf, 1))
				g_assert_cmpstr(km_karma_usb_errmsg(k), !=, "");
			if (dev->read(dev->ctx, size / 2 + 7, buf, MIN(sizeof(buf), size / 2)))
				g_assert_cmpstr(km_karma_usb_errmsg(k), !=, "");
			km_karma_usb_close(k, msg, sizeof(msg));
		} else {
			g_assert_cmpstr(msg, !=, "");
		}
	}
	g_test_message("%d of 2000 random players opened", opened);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/usb-hostile/garbage-ack", test_garbage_ack);
	g_test_add_func("/usb-hostile/never-echoed", test_never_echoed);
	g_test_add_func("/usb-hostile/short-inquiry", test_short_inquiry);
	g_test_add_func("/usb-hostile/short-capacity", test_short_capacity);
	g_test_add_func("/usb-hostile/absurd-capacity", test_absurd_capacity);
	g_test_add_func("/usb-hostile/invalid-cbw", test_invalid_cbw);
	g_test_add_func("/usb-hostile/normal-mode-stalls", test_normal_mode_stalls);
	g_test_add_func("/usb-hostile/sense-sentences", test_sense_sentences);
	g_test_add_func("/usb-hostile/data-phase-stall", test_data_phase_stall);
	g_test_add_func("/usb-hostile/random-player", test_random_player);
	return g_test_run();
}
