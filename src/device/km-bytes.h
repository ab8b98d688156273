/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * km-bytes.h - fixed-endian integers in byte buffers, for the device layer:
 * the partition label and the USB protocol are little-endian, SCSI is
 * big-endian.
 */
#ifndef KM_BYTES_H
#define KM_BYTES_H

#include <stdint.h>

static inline uint16_t km_get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t km_get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void km_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void km_put_le32(uint8_t *p, uint32_t v)
{
	km_put_le16(p, (uint16_t)v);
	km_put_le16(p + 2, (uint16_t)(v >> 16));
}

static inline uint32_t km_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void km_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

#endif
