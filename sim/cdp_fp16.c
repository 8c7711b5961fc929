// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The CDP's fp16 LRN, in the hardware's mix of formats: inputs widen to
 * fp17, squares and their sum are fp32 (a fixed tree: the nearest pair
 * plus the centre, then one pair further out at a time), the LUT
 * indexes with x - START in fp32 and interpolates or extrapolates in fp17
 * with a 16-bit fraction, the result multiplies the fp17 input and
 * narrows to fp16. The C model divides by 2^SELECT in host float, which is
 * exact wherever the fraction it keeps is not zero; this does the same in
 * integers.
 */
#include "cdp_fp16.h"
#include "fp.h"

#define MASK(n) ((1ull << (n)) - 1)
#define CDP_FRAC_BITS 16
#define FP32_BIAS 127
#define FP32_MANT 23
#define CENTRE (SIM_CDP_FP16_WINDOW / 2)

struct cdp_pos {
	enum sim_lut_state state;
	u32 idx;
	u32 frac;	/* 16 bits */
};

/* d <= 0 or NaN (as a host float compares) */
static bool cdp_below(u32 d)
{
	return (d >> 31) || !(d & 0x7fffffff) || sim_fp_is_nan(d, &sim_fp32);
}

static struct cdp_pos cdp_exponent(u32 d, s8 offset)
{
	struct cdp_pos r = { SIM_LUT_UFLOW, 0, 0 };
	s32 idx = (s32)(d >> FP32_MANT & 0xff) - FP32_BIAS - offset;

	if (cdp_below(d) || idx < 0)
		return r;
	r.state = idx >= SIM_LUT_LE_ENTRIES - 1 ? SIM_LUT_OFLOW : SIM_LUT_HIT;
	r.idx = idx;
	r.frac = d >> 7 & MASK(CDP_FRAC_BITS);	/* mantissa bits 22..7 */
	return r;
}

/* d / 2^sel: integer index and the fraction's top 16 bits (truncated). */
static struct cdp_pos cdp_linear(u32 d, s8 sel, u32 entries)
{
	struct cdp_pos r = { SIM_LUT_UFLOW, 0, 0 };
	u64 m = (d & MASK(FP32_MANT)) | 1ull << FP32_MANT;
	s32 shift = (s32)(d >> FP32_MANT & 0xff) - FP32_BIAS - FP32_MANT - sel;

	if (cdp_below(d))
		return r;
	r.state = SIM_LUT_OFLOW;
	if (shift >= 0)		/* m >= 2^23: past every table */
		return r;
	if (-shift < 64 && (m >> -shift) >= entries - 1)
		return r;
	r.state = SIM_LUT_HIT;
	r.idx = -shift < 64 ? m >> -shift : 0;
	r.frac = -shift < 64 - CDP_FRAC_BITS ?
		 (m << CDP_FRAC_BITS >> -shift) & MASK(CDP_FRAC_BITS) : 0;
	return r;
}

/* fp17 result of one table for the fp32 square sum @x. */
static u32 cdp_table(const s16 *t, u32 last, const struct cdp_pos *r, u32 x,
		     u32 origin, s16 scale)
{
	u32 a, b;

	if (r->state == SIM_LUT_HIT) {
		a = sim_fp_sub(sim_fp16_to_fp32(t[r->idx + 1]),
			       sim_fp16_to_fp32(t[r->idx]), &sim_fp32);
		b = sim_fp_mul(sim_fp32_to_fp17(a),
			       sim_fp_frac_to_fp17(r->frac, CDP_FRAC_BITS),
			       &sim_fp17);
		return sim_fp_add(b, sim_fp16_to_fp17(t[r->idx]), &sim_fp17);
	}
	a = sim_fp_sub(x, origin, &sim_fp32);
	b = sim_fp_mul(sim_fp32_to_fp17(a), sim_fp16_to_fp17(scale), &sim_fp17);
	return sim_fp_add(b, sim_fp16_to_fp17(t[r->state == SIM_LUT_UFLOW ?
						 0 : last]), &sim_fp17);
}

/* 2^offset as fp32; 0 at or below 2^-127, as the C model's float does. */
static u32 cdp_pow2(s8 offset)
{
	return offset <= -FP32_BIAS ? 0 : (u32)(FP32_BIAS + offset) << FP32_MANT;
}

static u32 cdp_lookup(const struct sim_cdp_fp16 *c, u32 x)
{
	const struct sim_lut_cfg *g = c->cfg;
	u32 dle = sim_fp_sub(x, c->le_start, &sim_fp32);
	u32 dlo = sim_fp_sub(x, c->lo_start, &sim_fp32);
	struct cdp_pos le, lo;
	u32 origin;
	bool uf;

	le = g->le_linear ? cdp_linear(dle, c->le_select, SIM_LUT_LE_ENTRIES) :
	     cdp_exponent(dle, c->le_offset);
	lo = cdp_linear(dlo, c->lo_select, SIM_LUT_LO_ENTRIES);
	sim_lut_count_cdp(c->lut_count, le.state, lo.state);
	if (sim_lut_pick_lo(g, le.state, lo.state)) {
		uf = lo.state == SIM_LUT_UFLOW;
		return cdp_table(c->table->lo, SIM_LUT_LO_ENTRIES - 1, &lo, x,
				 uf ? c->lo_start : c->lo_end,
				 uf ? g->lo_uflow_scale : g->lo_oflow_scale);
	}
	uf = le.state == SIM_LUT_UFLOW;
	origin = uf ? c->le_start : c->le_end;
	if (uf && !g->le_linear)	/* exponent underflow: START + 2^offset */
		origin = sim_fp_add(origin, cdp_pow2(c->le_offset), &sim_fp32);
	return cdp_table(c->table->le, SIM_LUT_LE_ENTRIES - 1, &le, x, origin,
			 uf ? g->le_uflow_scale : g->le_oflow_scale);
}

u16 sim_cdp_fp16_lrn(const struct sim_cdp_fp16 *c, const u16 *win)
{
	u32 sq[SIM_CDP_FP16_WINDOW], x17 = sim_fp16_to_fp17(win[CENTRE]);
	u32 sum, lut, i, k;

	for (i = 0; i < SIM_CDP_FP16_WINDOW; i++) {
		u32 v = sim_fp17_to_fp32(sim_fp16_to_fp17(win[i]));

		sq[i] = c->sqsum_bypass ? v : sim_fp_mul(v, v, &sim_fp32);
	}
	sum = sq[CENTRE];
	for (k = 1; !c->sqsum_bypass && k <= c->half_window; k++) {
		u32 pair = sim_fp_add(sq[CENTRE - k], sq[CENTRE + k], &sim_fp32);

		sum = k == 1 ? sim_fp_add(pair, sum, &sim_fp32) :
			       sim_fp_add(sum, pair, &sim_fp32);
	}
	lut = cdp_lookup(c, sum);
	if (c->mul_bypass)	/* a NaN input passes through */
		return sim_fp17_to_fp16(sim_fp_is_nan(x17, &sim_fp17) ? x17 : lut);
	return sim_fp17_to_fp16(sim_fp_mul(x17, lut, &sim_fp17));
}
