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

/*
 * Winograd (winograd_fp16.c): the CSC's transform of extended channel
 * @c's tile whose first output is (@x0, @y0), as the CDMA stored it; the
 * transformed weight @pos of kernel @k, channel @c, as the CDMA stored it;
 * the CMAC's partial sums @p[i][j] of a tile's four outputs from one
 * block, lane pos * 4 + channel holding transformed data @d and weight @w.
 */
#define SIM_WINO_POS (SIM_WINO_TILE * SIM_WINO_TILE)
#define SIM_WINO_LANES (SIM_WINO_POS * SIM_WINO_BLOCK)
void sim_wino_fp16_tile(const struct sim_conv *cv, u32 c, u32 x0, u32 y0,
			u16 out[SIM_WINO_POS]);
u16 sim_wino_fp16_weight(const struct sim_conv *cv, u32 k, u32 c, u32 pos);
void sim_wino_fp16_block(const u16 *d, const u16 *w,
			 struct sim_fp_psum p[SIM_WINO_OUT][SIM_WINO_OUT]);
/* The same from the lanes' sums by position @sum at group exponent @top. */
void sim_wino_fp16_psums(const s64 sum[SIM_WINO_POS], u32 top,
			 struct sim_fp_psum p[SIM_WINO_OUT][SIM_WINO_OUT]);

#endif /* __NVDLA_SIM_CONV_FP16_H__ */
