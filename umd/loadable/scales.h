/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The "tensor-scales" blob of loadables made by nvdla_compile: the real
 * value of each int8 (or int16) input and output element is
 * (code - zero) * scale. Little-endian: the magic, the number of
 * entries, then one entry per bound tensor. Loadables without the blob
 * (the official compiler's) keep the runtime's defaults.
 */
#ifndef __NVDLA_UMD_SCALES_H__
#define __NVDLA_UMD_SCALES_H__

#include "blob_table.h"

#define NVDLA_SCALES_BLOB	"tensor-scales"
#define NVDLA_SCALES_MAGIC	0x4353564eu	/* "NVSC" */
#define NVDLA_SCALES_ENTRY	16	/* one tensor: */
#define NVDLA_SCALES_KIND	0	/* u8: 0 input, 1 output */
#define NVDLA_SCALES_BIND	2	/* u16 bind id */
#define NVDLA_SCALES_SCALE	4	/* f32 scale, > 0 */
#define NVDLA_SCALES_ZERO	8	/* s32 zero point */
/* Bytes 1 and 12..15 of an entry are reserved, zero. */

#endif /* __NVDLA_UMD_SCALES_H__ */
