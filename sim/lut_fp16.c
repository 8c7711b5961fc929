// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * LUT lookup, SDP fp16 path. x - START is computed in fp32 (START and END
 * registers hold fp32 bit patterns); a negative, zero or NaN difference is
 * an underflow. The exponent mode indexes by the difference's exponent,
 * the linear mode by the difference scaled by 2^-SELECT (9-bit saturated
 * integer part, 35-bit truncated fraction). A hit interpolates the two fp16
 * entries in fp17 with weights 1 - f and f rounded to fp17; a miss
 * extrapolates in fp17 from the end entry with the fp16 slope (the shift
 * registers are not used). The result is an fp32 bit pattern.
 */
#include "fp.h"
#include "lut.h"

#define MASK(n) ((1ull << (n)) - 1)
#define LUT_FRAC_BITS 35
#define LUT_INDEX_MAX 511
#define FP32_BIAS 127
#define FP32_MANT 23
#define FP17_ONE 0x7c00u

struct lut_pos {
	enum sim_lut_state state;
	u32 idx;
	u64 frac;
};

/* x - start; *below when it is negative, zero or NaN. */
static u32 lut_diff(u32 x, u32 start, bool *below)
{
	u32 d = sim_fp_sub(x, start, &sim_fp32);

	*below = (d >> 31) || !(d & 0x7fffffff) || sim_fp_is_nan(d, &sim_fp32);
	return d;
}

static struct lut_pos lut_exponent(u32 x, u32 start, s8 offset)
{
	struct lut_pos r = { SIM_LUT_UFLOW, 0, 0 };
	bool below;
	u32 d = lut_diff(x, start, &below);
	s32 e = (s32)(d >> FP32_MANT & 0xff) - FP32_BIAS;

	if (below || e < offset)
		return r;
	r.state = SIM_LUT_HIT;
	r.idx = e - offset;
	r.frac = (u64)(d & MASK(FP32_MANT)) << (LUT_FRAC_BITS - FP32_MANT);
	if (r.idx >= SIM_LUT_LE_ENTRIES - 1)
		r.state = SIM_LUT_OFLOW;
	return r;
}

/* (x - start) / 2^sel: integer part saturated to 9 bits, 35-bit fraction. */
static struct lut_pos lut_linear(u32 x, u32 start, s8 sel, u32 entries)
{
	struct lut_pos r = { SIM_LUT_UFLOW, 0, 0 };
	bool below;
	u32 d = lut_diff(x, start, &below);
	u64 m = (d & MASK(FP32_MANT)) | 1ull << FP32_MANT;
	/* the unbiased exponent is an 8-bit signed value in the hardware */
	s32 shift = (s8)((d >> FP32_MANT & 0xff) - FP32_BIAS) - sel - FP32_MANT;
	s32 fshift = LUT_FRAC_BITS + shift;

	if (below)
		return r;
	r.state = SIM_LUT_HIT;
	if (shift >= 0)		/* m >= 2^23 */
		r.idx = LUT_INDEX_MAX;
	else
		r.idx = -shift >= 64 ? 0 : m >> -shift;
	if (r.idx > LUT_INDEX_MAX)
		r.idx = LUT_INDEX_MAX;
	if (shift < 0 && fshift >= 0)	/* fshift < 35 */
		r.frac = (m << fshift) & MASK(LUT_FRAC_BITS);
	else if (shift < 0)
		r.frac = -fshift >= 64 ? 0 : m >> -fshift;
	if (r.idx >= entries - 1)
		r.state = SIM_LUT_OFLOW;
	return r;
}

/* 2^offset as an fp32 bit pattern (a denormal below 2^-126). */
static u32 lut_pow2(s8 offset)
{
	if (offset >= 1 - FP32_BIAS)
		return (u32)(FP32_BIAS + offset) << FP32_MANT;
	return 1u << (FP32_MANT - 1 + FP32_BIAS + offset);
}

static u32 lut_hit(const s16 *t, const struct lut_pos *r)
{
	u32 a0 = r->frac ? sim_fp_frac_to_fp17((1ull << LUT_FRAC_BITS) - r->frac,
					       LUT_FRAC_BITS) : FP17_ONE;
	u32 a1 = sim_fp_frac_to_fp17(r->frac, LUT_FRAC_BITS);
	u32 b0 = sim_fp_mul(a0, sim_fp16_to_fp17(t[r->idx]), &sim_fp17);
	u32 b1 = sim_fp_mul(a1, sim_fp16_to_fp17(t[r->idx + 1]), &sim_fp17);

	return sim_fp17_to_fp32(sim_fp_add(b0, b1, &sim_fp17));
}

static u32 lut_miss(u32 x, u32 origin, u32 bias, u16 scale, u16 end)
{
	u32 ob = sim_fp_add(origin, bias, &sim_fp32);
	u32 a = sim_fp32_to_fp17(sim_fp_sub(x, ob, &sim_fp32));
	u32 b = sim_fp_mul(a, sim_fp16_to_fp17(scale), &sim_fp17);

	return sim_fp17_to_fp32(sim_fp_add(sim_fp16_to_fp17(end), b,
					   &sim_fp17));
}

u32 sim_lut_lookup_fp16(const struct sim_lut *lut, const struct sim_lut_cfg *c,
			u32 x, struct sim_lut_count *n)
{
	struct lut_pos le, lo;
	bool uflow, pick_lo;

	le = c->le_linear ?
	     lut_linear(x, c->le_start, c->le_select, SIM_LUT_LE_ENTRIES) :
	     lut_exponent(x, c->le_start, c->le_offset);
	lo = lut_linear(x, c->lo_start, c->lo_select, SIM_LUT_LO_ENTRIES);
	pick_lo = sim_lut_pick_lo(c, le.state, lo.state);
	sim_lut_count_sdp(n, le.state, lo.state, pick_lo);
	if (pick_lo) {
		if (lo.state == SIM_LUT_HIT)
			return lut_hit(lut->lo, &lo);
		uflow = lo.state == SIM_LUT_UFLOW;
		return lut_miss(x, uflow ? c->lo_start : c->lo_end, 0,
				uflow ? c->lo_uflow_scale : c->lo_oflow_scale,
				lut->lo[uflow ? 0 : SIM_LUT_LO_ENTRIES - 1]);
	}
	if (le.state == SIM_LUT_HIT)
		return lut_hit(lut->le, &le);
	uflow = le.state == SIM_LUT_UFLOW;
	return lut_miss(x, uflow ? c->le_start : c->le_end,
			uflow && !c->le_linear ? lut_pow2(c->le_offset) : 0,
			uflow ? c->le_uflow_scale : c->le_oflow_scale,
			lut->le[uflow ? 0 : SIM_LUT_LE_ENTRIES - 1]);
}
