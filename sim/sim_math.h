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
	if (!shift)
		return x;
	if (shift > 62)
		return 0;
	/*
	 * -((-x + half) >> shift) for x < 0 is (x + half - 1) >> shift: no
	 * branch on the sign, which data predicts badly.
	 */
	return (x + ((s64)1 << (shift - 1)) - (x < 0)) >> shift;
}

#define SIM_S32_BOUND ((u64)1 << 31)	/* s32 holds magnitudes below */

/*
 * sim_rha_shift in 32 bits, for |x| + 2^(shift - 1) < 2^31 and
 * shift < 32: where the operands' ranges allow, vector units take twice
 * the lanes.
 */
static inline s32 sim_rha_shift32(s32 x, u32 shift)
{
	if (!shift)
		return x;
	return (x + (1 << (shift - 1)) - (x < 0)) >> shift;
}

/* Clamp to the signed @bits-bit range. */
static inline s64 sim_sat(s64 x, u32 bits)
{
	s64 max = ((s64)1 << (bits - 1)) - 1;

	return x > max ? max : x < -max - 1 ? -max - 1 : x;
}

/*
 * x * 2^shift clamped to the signed @bits-bit range, for |x| < 2^32 and
 * @bits <= 32: the hardware's saturating left shift, whatever the shift
 * field holds (a shift of @bits or more saturates every value but 0).
 */
static inline s64 sim_shl_sat(s64 x, u32 shift, u32 bits)
{
	if (shift >= bits)
		shift = bits;
	return sim_sat(x * ((s64)1 << shift), bits);
}

/* sim_sat in 32 bits, for @bits <= 32. */
static inline s32 sim_sat32(s32 x, u32 bits)
{
	s32 max = (s32)((1u << (bits - 1)) - 1);

	return x > max ? max : x < -max - 1 ? -max - 1 : x;
}

/* Sign-extend the low @bits bits of @v. */
static inline s32 sim_sext(u32 v, u32 bits)
{
	u32 m = 1u << (bits - 1);

	v &= (m << 1) - 1;
	return (s32)((v ^ m) - m);
}

/*
 * The saturation flag of a rounding shift into @out (the rounded, clamped
 * x / 2^shift): the hardware compares the floor of the quotient with the
 * result and flags a difference beyond rounding, so a quotient one past
 * the range does not count.
 */
static inline bool sim_shift_saturated(s64 x, u32 shift, s64 out)
{
	/* An arithmetic shift right is the floor, whatever the sign. */
	s64 floor = x >> (shift > 63 ? 63 : shift);

	return (u64)(floor - out + 1) > 2;
}

/* sim_shift_saturated in 32 bits, for @shift < 32. */
static inline bool sim_shift_saturated32(s32 x, u32 shift, s32 out)
{
	return (u32)((x >> shift) - out + 1) > 2;
}

/*
 * Whether magnitudes up to @max, with the rounding of a right shift by
 * @shift added, stay within s32: where 32-bit arithmetic is exact.
 */
static inline bool sim_fits32(u64 max, u32 shift)
{
	return shift < 31 && max + (shift ? 1ull << (shift - 1) : 0) < SIM_S32_BOUND;
}

/*
 * floor(log2(@d)) for @d > 0, by the CPU's leading-zero count (the
 * kernel's fls64() is the same builtin; lib/clz_ctz.c backs it where the
 * CPU has none).
 */
static inline u32 sim_log2(u64 d)
{
	return 63 - __builtin_clzll(d);
}

/* A signed element of @bpe bytes (1 or 2, little endian) in memory. */
static inline s32 sim_load(const u8 *p, u32 bpe)
{
	return bpe == 1 ? (s8)p[0] : (s16)(p[0] | p[1] << 8);
}

/* A performance counter: adds @n, holding at the 32-bit maximum. */
static inline void sim_count_add(u32 *counter, u32 n)
{
	*counter = *counter > U32_MAX - n ? U32_MAX : *counter + n;
}

#endif /* __NVDLA_SIM_MATH_H__ */
