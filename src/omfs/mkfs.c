/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkfs.c - a fresh volume in mkomfs's layout (superblock 0, root block 1 and
 * mirrors, root directory after it, bitmap after that), without mkomfs's
 * bugs: every bitmap block written whole with the bits past the end set, the
 * root block sealed, and every sysblock zeroed in full.
 */
#include "omfs-private.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define DEFAULT_BLOCKSIZE 8192
#define DEFAULT_SYS_BLOCKSIZE 2048
#define DEFAULT_MIRRORS 2
#define DEFAULT_CLUSTERSIZE 8

struct mkfs {
	const struct omfs_blockdev *dev;
	struct omfs_mkfs_opts o;
	uint64_t root_block, root_dir, bitmap, bitmap_blocks, first_free;
	char *msg;
	size_t msglen;
};

static int mkfs_fail(struct mkfs *m, int err, const char *what)
{
	snprintf(m->msg, m->msglen, "%s", what);
	return -err;
}

static bool is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

static int mkfs_check(struct mkfs *m)
{
	const struct omfs_mkfs_opts *o = &m->o;
	uint64_t dev_blocks = m->dev->size(m->dev->ctx) / o->blocksize;

	if (!is_pow2(o->sys_blocksize) || o->sys_blocksize < OMFS_MIN_SYS_BLOCKSIZE ||
	    o->sys_blocksize > 4096)
		return mkfs_fail(m, EINVAL, "sysblock size must be a power of two from 512 to 4096");
	if (!is_pow2(o->blocksize) || o->blocksize < o->sys_blocksize ||
	    o->blocksize > OMFS_MAX_BLOCKSIZE)
		return mkfs_fail(m, EINVAL,
				 "block size must be a power of two from the sysblock size to 8192");
	if (o->mirrors < 1 || o->mirrors > OMFS_MAX_MIRRORS)
		return mkfs_fail(m, EINVAL, "mirror count must be 1 to 8");
	if (o->clustersize < 1 || o->clustersize > OMFS_MAX_CLUSTERSIZE)
		return mkfs_fail(m, EINVAL, "cluster size must be 1 to 8 blocks");
	if (o->label && strlen(o->label) > 63)
		return mkfs_fail(m, EINVAL, "the label is longer than 63 bytes");
	if (!o->num_blocks)
		m->o.num_blocks = dev_blocks < OMFS_MAX_BLOCKS ? dev_blocks : OMFS_MAX_BLOCKS;
	if (m->o.num_blocks > dev_blocks)
		return mkfs_fail(m, ENOSPC, "the device is smaller than the requested volume");
	m->root_block = 1;
	m->root_dir = m->root_block + o->mirrors;
	m->bitmap = m->root_dir + o->mirrors;
	m->bitmap_blocks = ((m->o.num_blocks + 7) / 8 + o->blocksize - 1) / o->blocksize;
	m->first_free = m->bitmap + m->bitmap_blocks;
	/* Room for the metadata and at least a little data. */
	if (m->o.num_blocks < m->first_free + 2 * o->mirrors)
		return mkfs_fail(m, ENOSPC, "the device is too small for an OMFS volume");
	return 0;
}

static int mkfs_write(struct mkfs *m, uint64_t block, const void *buf, size_t len)
{
	int err = m->dev->write(m->dev->ctx, block * m->o.blocksize, buf, len);

	if (err) {
		snprintf(m->msg, m->msglen, "writing block %llu failed: %s",
			 (unsigned long long)block, strerror(-err));
	}
	return err;
}

/* A whole FS block of zeros with the sysblock at its start, written to every mirror. */
static int write_mirrored(struct mkfs *m, uint64_t block, uint8_t *fsblock)
{
	omfs_seal_header(fsblock, m->o.sys_blocksize);
	for (uint32_t i = 0; i < m->o.mirrors; i++) {
		int err = mkfs_write(m, block + i, fsblock, m->o.blocksize);

		if (err)
			return err;
	}
	return 0;
}

static void init_header(uint8_t *blk, uint64_t self, uint32_t body, char type)
{
	omfs_put_be64(blk + OMFS_H_SELF, self);
	omfs_put_be32(blk + OMFS_H_BODY_SIZE, body);
	blk[OMFS_H_VERSION] = OMFS_HDR_VERSION;
	blk[OMFS_H_TYPE] = (uint8_t)type;
	blk[OMFS_H_MAGIC] = OMFS_HDR_MAGIC;
}

static int write_superblock(struct mkfs *m, uint8_t *fsblock, const char *label)
{
	memset(fsblock, 0, m->o.blocksize);
	memcpy(fsblock + OMFS_SB_NAME, label, strlen(label));
	omfs_put_be64(fsblock + OMFS_SB_ROOT_BLOCK, m->root_block);
	omfs_put_be64(fsblock + OMFS_SB_NUM_BLOCKS, m->o.num_blocks);
	omfs_put_be32(fsblock + OMFS_SB_MAGIC, OMFS_MAGIC);
	omfs_put_be32(fsblock + OMFS_SB_BLOCKSIZE, m->o.blocksize);
	omfs_put_be32(fsblock + OMFS_SB_MIRRORS, m->o.mirrors);
	omfs_put_be32(fsblock + OMFS_SB_SYS_BLOCKSIZE, m->o.sys_blocksize);
	return mkfs_write(m, 0, fsblock, m->o.blocksize);
}

static int write_root_block(struct mkfs *m, uint8_t *fsblock, const char *label)
{
	memset(fsblock, 0, m->o.blocksize);
	init_header(fsblock, m->root_block, OMFS_R_BODY_SIZE, OMFS_TYPE_SYSTEM);
	omfs_put_be64(fsblock + OMFS_R_NUM_BLOCKS, m->o.num_blocks);
	omfs_put_be64(fsblock + OMFS_R_ROOT_DIR, m->root_dir);
	omfs_put_be64(fsblock + OMFS_R_BITMAP, m->bitmap);
	omfs_put_be32(fsblock + OMFS_R_BLOCKSIZE, m->o.blocksize);
	omfs_put_be32(fsblock + OMFS_R_CLUSTERSIZE, m->o.clustersize);
	omfs_put_be64(fsblock + OMFS_R_MIRRORS, m->o.mirrors);
	memcpy(fsblock + OMFS_R_NAME, label, strlen(label));
	return write_mirrored(m, m->root_block, fsblock);
}

static int write_root_dir(struct mkfs *m, uint8_t *fsblock)
{
	uint64_t now = m->o.time_ms;

	if (!now) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		now = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
	}
	memset(fsblock, 0, m->o.blocksize);
	init_header(fsblock, m->root_dir, m->o.sys_blocksize - OMFS_HDR_SIZE, OMFS_TYPE_INODE);
	omfs_put_be64(fsblock + OMFS_I_PARENT, OMFS_NIL);
	omfs_put_be64(fsblock + OMFS_I_SIBLING, OMFS_NIL);
	omfs_put_be64(fsblock + OMFS_I_CTIME, now);
	fsblock[OMFS_I_TYPE] = OMFS_ITYPE_DIR;
	omfs_put_be32(fsblock + OMFS_I_FILL2, 1);
	omfs_put_be64(fsblock + OMFS_I_SIZE, m->o.sys_blocksize);
	memset(fsblock + OMFS_DIR_START, 0xFF, m->o.sys_blocksize - OMFS_DIR_START);
	return write_mirrored(m, m->root_dir, fsblock);
}

/* One bitmap block at a time: the metadata area and every bit past the end are set. */
static int write_bitmap(struct mkfs *m, uint8_t *fsblock)
{
	uint64_t bits_per_block = (uint64_t)m->o.blocksize * 8;

	for (uint64_t i = 0; i < m->bitmap_blocks; i++) {
		uint64_t first = i * bits_per_block;
		int err;

		memset(fsblock, 0, m->o.blocksize);
		for (uint64_t bit = 0; bit < bits_per_block; bit++) {
			uint64_t n = first + bit;

			if (n < m->first_free || n >= m->o.num_blocks)
				fsblock[bit >> 3] |= (uint8_t)(1u << (bit & 7));
		}
		err = mkfs_write(m, m->bitmap + i, fsblock, m->o.blocksize);
		if (err)
			return err;
	}
	return 0;
}

int omfs_mkfs(const struct omfs_blockdev *dev, const struct omfs_mkfs_opts *opts,
	      char *msg, size_t msglen)
{
	struct mkfs m = { .dev = dev, .msg = msg, .msglen = msglen };
	const char *label;
	uint8_t *fsblock;
	int err;

	if (opts)
		m.o = *opts;
	m.o.blocksize = m.o.blocksize ? m.o.blocksize : DEFAULT_BLOCKSIZE;
	m.o.sys_blocksize = m.o.sys_blocksize ? m.o.sys_blocksize : DEFAULT_SYS_BLOCKSIZE;
	m.o.mirrors = m.o.mirrors ? m.o.mirrors : DEFAULT_MIRRORS;
	m.o.clustersize = m.o.clustersize ? m.o.clustersize : DEFAULT_CLUSTERSIZE;
	label = m.o.label ? m.o.label : "omfs";
	err = mkfs_check(&m);
	if (err)
		return err;
	fsblock = malloc(m.o.blocksize);
	if (!fsblock)
		return mkfs_fail(&m, ENOMEM, "out of memory");
	err = write_bitmap(&m, fsblock);
	if (!err)
		err = write_root_dir(&m, fsblock);
	if (!err)
		err = write_root_block(&m, fsblock, label);
	/* The superblock last: a volume interrupted before it does not look like OMFS. */
	if (!err && dev->flush)
		err = dev->flush(dev->ctx);
	if (!err)
		err = write_superblock(&m, fsblock, label);
	if (!err && dev->flush)
		err = dev->flush(dev->ctx);
	free(fsblock);
	return err;
}
