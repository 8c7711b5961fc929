/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Integer arithmetic primitives of the NVDLA datapaths. */
#ifndef __NVDLA_SIM_MATH_H__
#define __NVDLA_SIM_MATH_H__

#include <nvdla/deps.h>

/*
 * x / 2^shift rounded half away from zero, as the hardware's AC_RND_INF
 * rounding does; |x| < 2^62.
 */
static inline s64 sim_rha_shift(s64 x, u32 shift)
{
	s64 half;

	if (!shift)
		return x;
	if (shift > 62)
		return 0;
	half = (s64)1 << (shift - 1);
	return x >= 0 ? (x + half) >> shift : -((-x + half) >> shift);
}

/* Clamp to the signed @bits-bit range. */
static inline s64 sim_sat(s64 x, u32 bits)
{
	s64 max = ((s64)1 << (bits - 1)) - 1;

	return x > max ? max : x < -max - 1 ? -max - 1 : x;
}

/* Sign-extend the low @bits bits of @v. */
static inline s32 sim_sext(u32 v, u32 bits)
{
	u32 m = 1u << (bits - 1);

	v &= (m << 1) - 1;
	return (s32)((v ^ m) - m);
}

#endif /* __NVDLA_SIM_MATH_H__ */
