/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Integer arithmetic primitives of the NVDLA datapaths. */
#ifndef __NVDLA_SIM_MATH_H__
#define __NVDLA_SIM_MATH_H__

#include <nvdla/deps.h>

/*
 * x / 2^shift rounded half away from zero, as the hardware's AC_RND_INF
 * rounding does (0 < shift < 63).
 */
static inline s64 sim_rha_shift(s64 x, u32 shift)
{
	s64 half = (s64)1 << (shift - 1);

	return x >= 0 ? (x + half) >> shift : -((-x + half) >> shift);
}

/* Sign-extend the low @bits bits of @v. */
static inline s32 sim_sext(u32 v, u32 bits)
{
	u32 m = 1u << (bits - 1);

	v &= (m << 1) - 1;
	return (s32)((v ^ m) - m);
}

#endif /* __NVDLA_SIM_MATH_H__ */
