/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "km-mem-device.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool mem_in_range(const struct km_mem_device *m, uint64_t off, size_t len)
{
	return off <= m->size && len <= m->size - off;
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

	if (!mem_in_range(m, off, len))
		return -EIO;
	if (m->fail_armed) {
		if (m->writes_left == 0)
			return -EIO;
		m->writes_left--;
	}
	memcpy(m->data + off, buf, len);
	m->writes++;
	return 0;
}

static int mem_flush(void *ctx)
{
	struct km_mem_device *m = ctx;

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

void km_mem_device_free(struct km_mem_device *m)
{
	if (!m)
		return;
	free(m->data);
	free(m);
}
