/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The "input-mapping" blob of loadables made by nvdla_compile: how the
 * network was compiled to see image pixels p, (p - mean[c]) / normalize
 * with channel c in the order given, per bound input. Little-endian: the
 * magic, the number of entries, then one entry per input. Loadables
 * without the blob (the official compiler's) keep the runtime's
 * defaults; like "tensor-scales", no memory holds it.
 */
#ifndef __NVDLA_UMD_INPUT_MAP_H__
#define __NVDLA_UMD_INPUT_MAP_H__

#include "blob_table.h"

#define NVDLA_INPUT_MAP_BLOB	"input-mapping"
#define NVDLA_INPUT_MAP_MAGIC	0x4d49564eu	/* "NVIM" */
#define NVDLA_INPUT_MAP_ENTRY	24	/* one input: */
#define NVDLA_INPUT_MAP_BIND	0	/* u16 bind id */
#define NVDLA_INPUT_MAP_ORDER	2	/* u8 channel order: */
#define NVDLA_INPUT_MAP_BGR	0	/*   B, G, R planes (the only one) */
#define NVDLA_INPUT_MAP_MEAN	4	/* f32 mean per channel, 4 of them */
#define NVDLA_INPUT_MAP_NORM	20	/* f32 normalize, finite, not 0 */
/* Byte 3 of an entry is reserved, zero. */

#endif /* __NVDLA_UMD_INPUT_MAP_H__ */
