/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-mem-device.c - the in-memory device, with its faults: a write error
 * after the Nth write, and a power cut that may also lose unflushed writes
 * (a volatile write cache) and tear the write in progress.
 */
#include "km-mem-device.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define TEAR_UNIT 512u

/* One write since the last flush: where, and the bytes it replaced and wrote. */
struct km_mem_write {
	uint64_t off;
	size_t len;
	uint8_t *old;
	uint8_t *new;
};

struct km_mem_unflushed {
	struct km_mem_write *w;
	size_t n, cap;
};

static bool mem_in_range(const struct km_mem_device *m, uint64_t off, size_t len)
{
	return off <= m->size && len <= m->size - off;
}

/* xorshift32: the same seed loses the same writes and tears at the same byte. */
static uint32_t next_random(uint32_t *state)
{
	uint32_t x = *state ? *state : 0x9e3779b9u;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

static void forget_unflushed(struct km_mem_unflushed *u)
{
	for (size_t i = 0; u && i < u->n; i++) {
		free(u->w[i].old);
		free(u->w[i].new);
	}
	if (u)
		u->n = 0;
}

/* Keep what a write replaces, to undo it if the cut loses it. -ENOMEM when out of memory. */
static int log_write(struct km_mem_device *m, uint64_t off, const void *buf, size_t len)
{
	struct km_mem_unflushed *u = m->unflushed;
	struct km_mem_write *w;

	if (u->n == u->cap) {
		size_t cap = u->cap ? 2 * u->cap : 64;
		struct km_mem_write *grown = realloc(u->w, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		u->w = grown;
		u->cap = cap;
	}
	w = &u->w[u->n];
	w->old = malloc(len ? len : 1);
	w->new = malloc(len ? len : 1);
	if (!w->old || !w->new) {
		free(w->old);
		free(w->new);
		return -ENOMEM;
	}
	w->off = off;
	w->len = len;
	memcpy(w->old, m->data + off, len);
	memcpy(w->new, buf, len);
	u->n++;
	return 0;
}

/*
 * The medium after the cut: back to the last flush, then each unflushed
 * write again unless the cache lost it (about half of them), in order.
 */
static void lose_unflushed(struct km_mem_device *m, uint32_t *rng)
{
	struct km_mem_unflushed *u = m->unflushed;

	for (size_t i = u->n; i-- > 0;)
		memcpy(m->data + u->w[i].off, u->w[i].old, u->w[i].len);
	for (size_t i = 0; i < u->n; i++) {
		if (next_random(rng) & 1)
			memcpy(m->data + u->w[i].off, u->w[i].new, u->w[i].len);
		else
			m->lost_writes++;
	}
}

/* The write in progress lands up to a byte inside one of its 512-byte pieces. */
static void tear(struct km_mem_device *m, uint64_t off, const void *buf, size_t len,
		 uint32_t *rng)
{
	size_t pieces = (len + TEAR_UNIT - 1) / TEAR_UNIT;
	size_t start, span, at;

	if (!len)
		return;
	start = (next_random(rng) % pieces) * TEAR_UNIT;
	span = len - start < TEAR_UNIT ? len - start : TEAR_UNIT;
	at = start + (span > 1 ? 1 + next_random(rng) % (span - 1) : 0);
	memcpy(m->data + off, buf, at);
}

static void power_cut(struct km_mem_device *m, uint64_t off, const void *buf, size_t len)
{
	uint32_t rng = m->cut_seed;

	if ((m->cut_mode & KM_MEM_CUT_CACHE) && m->unflushed)
		lose_unflushed(m, &rng);
	if (m->cut_mode & KM_MEM_CUT_TORN)
		tear(m, off, buf, len, &rng);
	forget_unflushed(m->unflushed);
	m->powered_off = true;
}

static int mem_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	struct km_mem_device *m = ctx;

	if (!mem_in_range(m, off, len))
		return -EIO;
	memcpy(buf, m->data + off, len);
	return 0;
}

static int mem_write(void *ctx, uint64_t off, const void *buf, size_t len)
{
	struct km_mem_device *m = ctx;

	if (!mem_in_range(m, off, len) || m->powered_off)
		return -EIO;
	if (m->fail_armed) {
		if (m->writes_left == 0) {
			if (m->cut_armed)
				power_cut(m, off, buf, len);
			return -EIO;
		}
		m->writes_left--;
	}
	if (m->unflushed && (m->cut_mode & KM_MEM_CUT_CACHE) && log_write(m, off, buf, len))
		return -ENOMEM;
	memcpy(m->data + off, buf, len);
	m->writes++;
	return 0;
}

static int mem_flush(void *ctx)
{
	struct km_mem_device *m = ctx;

	if (m->powered_off)
		return -EIO;
	forget_unflushed(m->unflushed);
	m->flushes++;
	return 0;
}

static uint64_t mem_size(void *ctx)
{
	return ((struct km_mem_device *)ctx)->size;
}

struct km_mem_device *km_mem_device_new(uint64_t size, const void *init)
{
	struct km_mem_device *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->data = init ? malloc(size ? size : 1) : calloc(1, size ? size : 1);
	if (!m->data) {
		free(m);
		return NULL;
	}
	if (init)
		memcpy(m->data, init, size);
	m->size = size;
	m->bdev = (struct omfs_blockdev){
		.ctx = m, .read = mem_read, .write = mem_write, .flush = mem_flush, .size = mem_size,
	};
	return m;
}

int km_mem_device_arm_cut(struct km_mem_device *m, uint64_t writes, unsigned int mode,
			  uint32_t seed)
{
	if ((mode & KM_MEM_CUT_CACHE) && !m->unflushed) {
		m->unflushed = calloc(1, sizeof(*m->unflushed));
		if (!m->unflushed)
			return -ENOMEM;
	}
	forget_unflushed(m->unflushed);
	m->cut_armed = true;
	m->fail_armed = true;
	m->writes_left = writes;
	m->cut_mode = mode;
	m->cut_seed = seed;
	m->powered_off = false;
	return 0;
}

void km_mem_device_free(struct km_mem_device *m)
{
	if (!m)
		return;
	forget_unflushed(m->unflushed);
	if (m->unflushed)
		free(m->unflushed->w);
	free(m->unflushed);
	free(m->data);
	free(m);
}
