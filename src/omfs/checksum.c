/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * checksum.c - the sysblock header's CRC-16/XMODEM (poly 0x1021, init 0,
 * MSB first, the kernel's crc_itu_t) and its XOR check byte.
 */
#include "omfs-private.h"

static uint16_t crc_table[256];
static bool crc_table_ready;

static void crc_table_build(void)
{
	for (unsigned i = 0; i < 256; i++) {
		uint16_t crc = (uint16_t)(i << 8);

		for (int bit = 0; bit < 8; bit++)
			crc = (uint16_t)((crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1);
		crc_table[i] = crc;
	}
	crc_table_ready = true;
}

uint16_t omfs_crc16(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint16_t crc = 0;

	/* Idempotent, so a race between two first callers is harmless. */
	if (!crc_table_ready)
		crc_table_build();
	while (len--)
		crc = (uint16_t)(crc << 8) ^ crc_table[(uint8_t)(crc >> 8) ^ *p++];
	return crc;
}

uint8_t omfs_header_xor(const uint8_t *blk)
{
	uint8_t x = 0;

	for (int i = 0; i < OMFS_XOR_COUNT; i++)
		x ^= blk[i];
	return x;
}

void omfs_seal_header(uint8_t *blk, uint32_t sys_blocksize)
{
	uint32_t body = omfs_be32(blk + OMFS_H_BODY_SIZE);

	if (body > sys_blocksize - OMFS_HDR_SIZE)
		body = sys_blocksize - OMFS_HDR_SIZE;
	omfs_put_be16(blk + OMFS_H_CRC, omfs_crc16(blk + OMFS_HDR_SIZE, body));
	blk[OMFS_H_XOR] = omfs_header_xor(blk);
}

const char *omfs_header_problem(const uint8_t *blk, uint32_t sys_blocksize)
{
	uint32_t body = omfs_be32(blk + OMFS_H_BODY_SIZE);

	if (blk[OMFS_H_MAGIC] != OMFS_HDR_MAGIC)
		return "bad header magic";
	if (blk[OMFS_H_VERSION] != OMFS_HDR_VERSION)
		return "unknown header version";
	if (body > sys_blocksize - OMFS_HDR_SIZE)
		return "header body size larger than the sysblock";
	if (blk[OMFS_H_XOR] != omfs_header_xor(blk))
		return "header XOR check byte mismatch";
	if (omfs_be16(blk + OMFS_H_CRC) != omfs_crc16(blk + OMFS_HDR_SIZE, body))
		return "header CRC mismatch";
	return NULL;
}
