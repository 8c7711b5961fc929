/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Little-endian fields of the loadable's blobs (EMU descriptors, the
 * tensor-scales blob) and of DIMG headers, read and written byte by byte
 * so that neither alignment nor the host's byte order matters.
 */
#ifndef __NVDLA_UMD_LE_BYTES_H__
#define __NVDLA_UMD_LE_BYTES_H__

#include <stdint.h>

static inline uint16_t rd16(const uint8_t *p)
{
	return p[0] | p[1] << 8;
}

static inline uint32_t rd32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void wr16(uint8_t *p, uint16_t v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8;
}

static inline void wr32(uint8_t *p, uint32_t v)
{
	wr16(p, v & 0xffff);
	wr16(p + 2, v >> 16);
}

#endif /* __NVDLA_UMD_LE_BYTES_H__ */
