/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* The fp16 convolution arithmetic (conv_fp16.c). */
#ifndef __NVDLA_SIM_CONV_FP16_H__
#define __NVDLA_SIM_CONV_FP16_H__

#include "sim_internal.h"

#define SIM_CMAC_FP16_LANES 64

/* A CMAC partial sum: mant (38-bit two's complement) * 2^(exp - 50). */
struct sim_fp_psum {
	u32 exp;
	s64 mant;
};

/* The CACC accumulator: mant (40-bit two's complement) * 2^(exp - 101). */
struct sim_fp_acc {
	u32 exp;
	s64 mant;
};

/* @v as the CDMA stores it: a NaN as +0 if it flushes (D_NAN_FLUSH_TO_ZERO). */
static inline u16 sim_cdma_fp16(bool flush, u16 v)
{
	return flush && (v & 0x7c00) == 0x7c00 && (v & 0x3ff) ? 0 : v;
}

/*
 * Product of the pre-shifted mantissas @w and @d (negative if the signs
 * differ) through the Booth multiplier, aligned down by @shift bits.
 */
s32 sim_cmac_product(u32 w, u32 d, bool negative, u32 shift);
/* The NaN partial sum of the first NaN lane, weights first; else false. */
bool sim_cmac_fp16_nan(const u16 *d, const u16 *w, u32 n,
		       struct sim_fp_psum *p);
/* The block's group exponent G (its partial sum's exponent is 4G). */
u32 sim_cmac_fp16_top(const u16 *d, const u16 *w, u32 n);
/* One lane's product aligned to group exponent @top; 0 if masked. */
s32 sim_cmac_fp16_lane(u16 d, u16 w, u32 top);
/* Partial sum of @n <= 64 lanes of data @d times weights @w (fp16). */
struct sim_fp_psum sim_cmac_fp16(const u16 *d, const u16 *w, u32 n);
void sim_cacc_fp16_add(struct sim_fp_acc *acc, struct sim_fp_psum p);
/* The fp32 bit pattern the CACC hands the SDP. */
u32 sim_cacc_fp16_to_fp32(const struct sim_fp_acc *acc);

#endif /* __NVDLA_SIM_CONV_FP16_H__ */
