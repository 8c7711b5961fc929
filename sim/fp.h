/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The floating-point arithmetic of NVDLA's fp16 datapaths, in integers.
 * It is not IEEE: denormal inputs count as if they had a hidden 1,
 * denormal results of add and multiply flush to zero (keeping the sign),
 * results too large saturate to the largest finite value, the adder keeps
 * no sticky bit beyond its 2M+3-bit window, and the first NaN operand
 * propagates with its payload. Formats are (exponent bits, mantissa bits):
 * fp16 (5, 10), fp17 (6, 10) and fp32 (8, 23); values are bit patterns.
 */
#ifndef __NVDLA_SIM_FP_H__
#define __NVDLA_SIM_FP_H__

#include <nvdla/deps.h>

struct sim_fp_fmt {
	u32 e, m;
};

extern const struct sim_fp_fmt sim_fp16, sim_fp17, sim_fp32;

#define SIM_FP16_MAX 0x7bff	/* the largest finite fp16 magnitude */

bool sim_fp_is_nan(u32 a, const struct sim_fp_fmt *f);
u32 sim_fp_add(u32 a, u32 b, const struct sim_fp_fmt *f);
u32 sim_fp_sub(u32 a, u32 b, const struct sim_fp_fmt *f);
u32 sim_fp_mul(u32 a, u32 b, const struct sim_fp_fmt *f);
/* The larger (@max) or smaller of @a and @b; a NaN wins, @a's first. */
u32 sim_fp_cmp(u32 a, u32 b, bool max, const struct sim_fp_fmt *f);
/* Negative values become +0; NaN stays. */
u32 sim_fp_relu(u32 a, const struct sim_fp_fmt *f);

/*
 * Widening conversions are exact; an infinity becomes the largest finite
 * value and a NaN keeps its payload in the low mantissa bits.
 */
u32 sim_fp16_to_fp32(u16 h);
u32 sim_fp16_to_fp17(u16 h);
u32 sim_fp17_to_fp32(u32 h);
/*
 * Narrowing conversions round to nearest even; fp16 results may be
 * denormal, fp17 ones flush to zero; overflow gives the largest finite
 * value; a NaN keeps the low bits of its payload.
 */
u16 sim_fp32_to_fp16(u32 x);
u32 sim_fp32_to_fp17(u32 x);
u16 sim_fp17_to_fp16(u32 x);
/*
 * An integer (at most 17 bits here) to fp16, to nearest even; beyond the
 * largest finite value it saturates there, as the CDMA converter does.
 */
u16 sim_int_to_fp16(s32 v);
/* The fraction @f / 2^@bits (10 < @bits < 64) as fp17, to nearest even. */
u32 sim_fp_frac_to_fp17(u64 f, u32 bits);
/*
 * fp16 to int16: rounded half away from zero, saturated; NaN gives
 * -32768.
 */
s16 sim_fp16_to_int16(u16 h);

#endif /* __NVDLA_SIM_FP_H__ */
