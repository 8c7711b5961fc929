// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * LUT lookup, integer path. Each table yields an index and a 35-bit
 * fraction, or an underflow or overflow; the priorities pick the table;
 * a hit interpolates between two entries, a miss extrapolates from the
 * end entry with the slope registers.
 */
#include "lut.h"
#include "sim_internal.h"
#include "sim_math.h"

#define LUT_ADDR_MASK 0x3ffu
#define LUT_TABLE_LO BIT(16)
#define LUT_ACCESS_WRITE BIT(17)
#define LUT_FRAC_BITS 35
#define LUT_INDEX_MAX 511	/* the index is saturated to 9 bits */

#define LUT_HIT SIM_LUT_HIT
#define LUT_UFLOW SIM_LUT_UFLOW
#define LUT_OFLOW SIM_LUT_OFLOW

struct lut_index {
	enum sim_lut_state state;
	u32 idx;
	u64 frac;		/* 0 .. 2^35 - 1 */
};

static s16 *lut_entry(struct sim_lut *lut, u32 *n)
{
	u32 addr = lut->access & LUT_ADDR_MASK;
	bool lo = lut->access & LUT_TABLE_LO;

	*n = lo ? SIM_LUT_LO_ENTRIES : SIM_LUT_LE_ENTRIES;
	if (addr >= *n)
		return NULL;
	lut->access = (lut->access & ~LUT_ADDR_MASK) | (addr + 1);
	return lo ? &lut->lo[addr] : &lut->le[addr];
}

void sim_lut_write(struct sim_lut *lut, u32 data)
{
	u32 n;
	s16 *e = lut->access & LUT_ACCESS_WRITE ? lut_entry(lut, &n) : NULL;

	if (e)
		*e = (s16)data;
}

u32 sim_lut_read(struct sim_lut *lut)
{
	u32 n;
	s16 *e = lut->access & LUT_ACCESS_WRITE ? NULL : lut_entry(lut, &n);

	return e ? (u16)*e : 0;
}

static struct lut_index lut_linear(s32 x, s32 start, s8 sel, u32 entries)
{
	struct lut_index r = { LUT_HIT, 0, 0 };
	u64 d;

	if (x <= start) {
		r.state = LUT_UFLOW;
		return r;
	}
	d = (u32)((s64)x - start);
	if (sel >= 0) {
		r.idx = sel >= 32 ? 0 : d >> sel;
		d &= sel >= 32 ? ~0ull : ((u64)1 << sel) - 1;
		/* The 32-bit d shifted right by 32 or more has no bits left. */
		r.frac = sel <= LUT_FRAC_BITS ? d << (LUT_FRAC_BITS - sel) :
			 sel < LUT_FRAC_BITS + 32 ? d >> (sel - LUT_FRAC_BITS) : 0;
	} else {
		r.idx = -sel >= 10 ? LUT_INDEX_MAX : d << -sel;
	}
	if (r.idx > LUT_INDEX_MAX)
		r.idx = LUT_INDEX_MAX;
	if (r.idx >= entries - 1)
		r.state = LUT_OFLOW;
	return r;
}

static struct lut_index lut_exponent(s32 x, s32 start, s8 offset)
{
	struct lut_index r = { LUT_HIT, 0, 0 };
	u64 d;
	u32 e;

	if (x <= start) {
		r.state = LUT_UFLOW;
		return r;
	}
	d = (u64)((s64)x - start);
	e = sim_log2(d);
	if ((s32)e < offset) {
		r.state = LUT_UFLOW;
		return r;
	}
	r.idx = e - offset;
	r.frac = (d - ((u64)1 << e)) << (LUT_FRAC_BITS - e);
	if (r.idx >= SIM_LUT_LE_ENTRIES - 1)
		r.state = LUT_OFLOW;
	return r;
}

/* Signed shift: right with rounding, or left saturated to 32 bits. */
static s64 lut_srs(s64 v, s8 shift)
{
	if (shift >= 0)
		return sim_rha_shift(v, shift);
	if (v > (S32_MAX >> -shift))
		return S32_MAX;
	if (v < (S32_MIN >> -shift))
		return S32_MIN;
	return v * ((s64)1 << -shift);
}

/*
 * (x - origin) * scale. The exponent bias puts the origin up to 2^62 away;
 * a difference beyond 2^46 is clamped there, which leaves the product
 * at 2^46 or more and the output saturated after any shift (at most 15
 * right), as the exact product would.
 */
static s64 lut_slope(s32 x, s64 origin, s16 scale)
{
	const s64 lim = (s64)1 << 46;
	s64 d = (s64)x - origin;

	return (d > lim ? lim : d < -lim ? -lim : d) * scale;
}

static s32 lut_output(const s16 *t, u32 last, const struct lut_index *r,
		      s32 x, s64 origin, s16 scale, s8 shift)
{
	s64 y;

	if (r->state == LUT_HIT) {
		y = (s64)t[r->idx] * (((s64)1 << LUT_FRAC_BITS) - (s64)r->frac) +
		    (s64)t[r->idx + 1] * (s64)r->frac;
		return sim_sat(sim_rha_shift(y, LUT_FRAC_BITS), 32);
	}
	y = sim_sat(lut_srs(lut_slope(x, origin, scale), shift), 32);
	return sim_sat(y + t[r->state == LUT_UFLOW ? 0 : last], 32);
}

void sim_lut_count_sdp(struct sim_lut_count *n, enum sim_lut_state le,
		       enum sim_lut_state lo, bool pick_lo)
{
	enum sim_lut_state used = pick_lo ? lo : le;

	if (!n)
		return;
	sim_count_add(&n->uflow, used == LUT_UFLOW);
	sim_count_add(&n->oflow, used == LUT_OFLOW);
	sim_count_add(&n->hybrid, used == LUT_HIT);
	sim_count_add(&n->le_hit, le == LUT_HIT);
	sim_count_add(&n->lo_hit, lo == LUT_HIT);
}

s32 sim_lut_lookup(const struct sim_lut *lut, const struct sim_lut_cfg *c,
		   s32 x, struct sim_lut_count *n)
{
	struct lut_index le, lo;
	s64 bias = 0;
	bool pick_lo;

	le = c->le_linear ?
	     lut_linear(x, c->le_start, c->le_select, SIM_LUT_LE_ENTRIES) :
	     lut_exponent(x, c->le_start, c->le_offset);
	lo = lut_linear(x, c->lo_start, c->lo_select, SIM_LUT_LO_ENTRIES);

	pick_lo = sim_lut_pick_lo(c, le.state, lo.state);
	sim_lut_count_sdp(n, le.state, lo.state, pick_lo);
	if (pick_lo)
		return lut_output(lut->lo, SIM_LUT_LO_ENTRIES - 1, &lo, x,
				  lo.state == LUT_UFLOW ? c->lo_start : c->lo_end,
				  lo.state == LUT_UFLOW ? c->lo_uflow_scale :
							  c->lo_oflow_scale,
				  lo.state == LUT_UFLOW ? c->lo_uflow_shift :
							  c->lo_oflow_shift);
	if (!c->le_linear && le.state == LUT_UFLOW && c->le_offset > 0)
		bias = (s64)1 << (c->le_offset < 62 ? c->le_offset : 62);
	return lut_output(lut->le, SIM_LUT_LE_ENTRIES - 1, &le, x,
			  (le.state == LUT_UFLOW ? c->le_start : c->le_end) + bias,
			  le.state == LUT_UFLOW ? c->le_uflow_scale :
						  c->le_oflow_scale,
			  le.state == LUT_UFLOW ? c->le_uflow_shift :
						  c->le_oflow_shift);
}

/* The SDP and CDP lay out S_LUT_CFG, S_LUT_INFO and the slopes alike. */
static_assert(NVDLA_SDP_S_LUT_CFG == NVDLA_CDP_S_LUT_CFG &&
	      NVDLA_SDP_S_LUT_INFO == NVDLA_CDP_S_LUT_INFO &&
	      NVDLA_SDP_S_LUT_LE_SLOPE_SHIFT_LUT_LE_SLOPE_OFLOW_SHIFT_MASK ==
	      NVDLA_CDP_S_LUT_LE_SLOPE_SHIFT_LUT_LE_SLOPE_OFLOW_SHIFT_MASK,
	      "SDP and CDP LUT registers differ");

#define LUT_FIELD(v, reg, f) \
	(((v) & NVDLA_SDP_##reg##_##f##_MASK) >> NVDLA_SDP_##reg##_##f##_SHIFT)
#define SLOPE(v, t, f) \
	LUT_FIELD(v, S_LUT_LE_SLOPE_##t, LUT_LE_SLOPE_##f##_##t)

void sim_lut_cfg_read(const struct nvdla_sim *sim, int unit, u32 slopes,
		      struct sim_lut_cfg *c)
{
	u32 cfg = sim_single(sim, unit, NVDLA_SDP_S_LUT_CFG);
	u32 info = sim_single(sim, unit, NVDLA_SDP_S_LUT_INFO);
	u32 le_scale = sim_single(sim, unit, slopes);
	u32 le_shift = sim_single(sim, unit, slopes + 4);
	u32 lo_scale = sim_single(sim, unit, slopes + 8);
	u32 lo_shift = sim_single(sim, unit, slopes + 12);

	c->le_linear = LUT_FIELD(cfg, S_LUT_CFG, LUT_LE_FUNCTION);
	c->uflow_lo = LUT_FIELD(cfg, S_LUT_CFG, LUT_UFLOW_PRIORITY);
	c->oflow_lo = LUT_FIELD(cfg, S_LUT_CFG, LUT_OFLOW_PRIORITY);
	c->hybrid_lo = LUT_FIELD(cfg, S_LUT_CFG, LUT_HYBRID_PRIORITY);
	c->le_offset = LUT_FIELD(info, S_LUT_INFO, LUT_LE_INDEX_OFFSET);
	c->le_select = LUT_FIELD(info, S_LUT_INFO, LUT_LE_INDEX_SELECT);
	c->lo_select = LUT_FIELD(info, S_LUT_INFO, LUT_LO_INDEX_SELECT);
	c->le_uflow_scale = SLOPE(le_scale, SCALE, UFLOW);
	c->le_oflow_scale = SLOPE(le_scale, SCALE, OFLOW);
	c->lo_uflow_scale = SLOPE(lo_scale, SCALE, UFLOW);
	c->lo_oflow_scale = SLOPE(lo_scale, SCALE, OFLOW);
	c->le_uflow_shift = sim_sext(SLOPE(le_shift, SHIFT, UFLOW), 5);
	c->le_oflow_shift = sim_sext(SLOPE(le_shift, SHIFT, OFLOW), 5);
	c->lo_uflow_shift = sim_sext(SLOPE(lo_shift, SHIFT, UFLOW), 5);
	c->lo_oflow_shift = sim_sext(SLOPE(lo_shift, SHIFT, OFLOW), 5);
}
