/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * A CDP layer's configuration, and its integer LRN of a whole atom:
 * cdp.c compiles it for every host, sim/user/ once more for a vector
 * unit, whose converter loops the compiler vectorises.
 */
#ifndef __NVDLA_SIM_CDP_H__
#define __NVDLA_SIM_CDP_H__

#include "cdp_fp16.h"
#include "lut.h"
#include "sim_internal.h"
#include "sim_math.h"

#define CDP_FRAC_BITS 16
#define CDP_START_BITS 38
#define CDP_FP16 2

struct cdp_lut {
	struct sim_lut_cfg cfg;		/* function, priorities, slopes */
	s64 le_start, le_end, lo_start, lo_end;
	s32 le_select, lo_select, le_offset;
};

struct cdp_params;
/* The outputs of every lane of surface @s at (@x, @y), into @out. */
typedef void cdp_atom_fn(const struct cdp_params *p, u32 s, u32 x, u32 y,
			 s32 *out);

#if defined(__KERNEL__) || !defined(SIM_AVX2)
/*
 * The kernel runs the plain C LRN (no vector registers), and so do
 * user-space builds for targets without a vector path.
 */
static inline cdp_atom_fn *sim_cdp_vector(void)
{
	return NULL;
}
#else
/* The user-space build's vector LRN for the next layer, or NULL. */
cdp_atom_fn *sim_cdp_vector(void);
#endif

struct cdp_params {
	u32 atom, lanes, surfaces, w, h, bpe, half_window, c;
	bool sqsum_bypass, mul_bypass;
	s32 in_offset, in_scale, in_shift;
	s64 out_offset;
	s32 out_scale, out_shift;
	struct cdp_lut lut;
	const struct sim_lut *table;
	bool fp16, nan_to_zero;
	struct sim_cdp_fp16 lrn16;
	const u8 *in;
	u32 in_line, in_surf;
	u8 *out;
	u32 out_line, out_surf;
	struct sim_lut_count *lut_count;
	u32 *sat_count;		/* output converter clips */
	/* 32-bit arithmetic is exact (sim_cdp_narrow): sums, outputs */
	bool narrow_in, narrow_out;
	cdp_atom_fn *atom_fn;	/* the integer LRN: plain or vector */
};

/* Set the layer's narrow_in and narrow_out (cdp.c). */
void sim_cdp_narrow(struct cdp_params *p);

struct cdp_index {
	enum sim_lut_state state;
	u32 idx;
	u32 frac;	/* 16 bits */
};

/* The low @bits bits of d, as a 16-bit fraction (truncating). */
static inline u32 cdp_frac(u64 d, u32 bits)
{
	d &= bits >= 64 ? ~0ull : ((u64)1 << bits) - 1;
	return bits >= CDP_FRAC_BITS ? d >> (bits - CDP_FRAC_BITS) :
				       d << (CDP_FRAC_BITS - bits);
}

static inline struct cdp_index cdp_linear(s64 x, s64 start, s32 sel, u32 entries)
{
	struct cdp_index r = { SIM_LUT_HIT, 0, 0 };
	s64 d = x - start;
	u64 idx;

	if (d <= 0) {
		r.state = SIM_LUT_UFLOW;
		return r;
	}
	if (sel >= 0) {
		idx = sel >= 63 ? 0 : (u64)d >> sel;
		r.frac = cdp_frac(d, sel);
	} else {
		idx = -sel >= 24 ? ~0ull : (u64)d << -sel;
	}
	if (idx >= entries - 1)
		r.state = SIM_LUT_OFLOW;
	else
		r.idx = idx;
	return r;
}

static inline struct cdp_index cdp_exponent(s64 x, s64 start, s32 offset)
{
	struct cdp_index r = { SIM_LUT_HIT, 0, 0 };
	s64 d = x - start, idx;
	u32 e;

	if (d <= 0) {
		r.state = SIM_LUT_UFLOW;
		return r;
	}
	e = sim_log2(d);
	idx = (s64)e - offset;
	if (idx < 0)
		r.state = SIM_LUT_UFLOW;
	else if (idx >= SIM_LUT_LE_ENTRIES - 1)
		r.state = SIM_LUT_OFLOW;
	else
		r.idx = idx;
	r.frac = cdp_frac((u64)d - ((u64)1 << e), e);
	return r;
}

/* rha((v) * scale / 2^shift) with a signed 5-bit shift, saturated to 56. */
static inline s64 cdp_slope(s64 v, s32 scale, s32 shift)
{
	s64 p;

	if (v > ((s64)1 << 46) || v < -((s64)1 << 46))
		return v * scale > 0 ? ((s64)1 << 55) - 1 : -((s64)1 << 55);
	p = v * scale;
	if (shift >= 0)
		return sim_sat(sim_rha_shift(p, shift), 56);
	if (p > ((s64)1 << (55 + shift)) || p < -((s64)1 << (55 + shift)))
		return p > 0 ? ((s64)1 << 55) - 1 : -((s64)1 << 55);
	return p * ((s64)1 << -shift);
}

static inline s64 cdp_lut_output(const s16 *t, u32 last, const struct cdp_index *r,
				 s64 x, s64 origin, s32 scale, s32 shift)
{
	s64 y;

	if (r->state == SIM_LUT_HIT) {
		y = sim_rha_shift(((s64)t[r->idx + 1] - t[r->idx]) * r->frac,
				  CDP_FRAC_BITS);
		return sim_sat(t[r->idx] + y, 16);
	}
	y = cdp_slope(x - origin, scale, shift);
	return sim_sat(t[r->state == SIM_LUT_UFLOW ? 0 : last] + y, 16);
}

/* The LUT's output for @x, counted in @n: an atom's, far from clipping. */
static inline s64 cdp_lookup(const struct cdp_params *p, s64 x,
			     struct sim_lut_count *n)
{
	const struct cdp_lut *l = &p->lut;
	const struct sim_lut_cfg *c = &l->cfg;
	struct cdp_index le, lo;
	bool uf;
	s64 origin;

	le = c->le_linear ?
	     cdp_linear(x, l->le_start, l->le_select, SIM_LUT_LE_ENTRIES) :
	     cdp_exponent(x, l->le_start, l->le_offset);
	lo = cdp_linear(x, l->lo_start, l->lo_select, SIM_LUT_LO_ENTRIES);

	(*sim_lut_cdp_counter(n, le.state, lo.state))++;
	if (sim_lut_pick_lo(c, le.state, lo.state)) {
		uf = lo.state == SIM_LUT_UFLOW;
		return cdp_lut_output(p->table->lo, SIM_LUT_LO_ENTRIES - 1, &lo,
				      x, uf ? l->lo_start : l->lo_end,
				      uf ? c->lo_uflow_scale : c->lo_oflow_scale,
				      uf ? c->lo_uflow_shift : c->lo_oflow_shift);
	}
	uf = le.state == SIM_LUT_UFLOW;
	origin = uf ? l->le_start : l->le_end;
	if (uf && !c->le_linear && l->le_offset >= 0)
		origin += (s64)1 << (l->le_offset < 40 ? l->le_offset : 40);
	return cdp_lut_output(p->table->le, SIM_LUT_LE_ENTRIES - 1, &le, x,
			      origin,
			      uf ? c->le_uflow_scale : c->le_oflow_scale,
			      uf ? c->le_uflow_shift : c->le_oflow_shift);
}

/*
 * Where lane @l of surface @s is at (@x, @y), for -lanes <= @l < 2 * lanes:
 * a window's ends lie in the surfaces either side. NULL past the cube's
 * channels, where the inputs count as 0.
 */
static inline const u8 *cdp_at(const struct cdp_params *p, u32 s, s32 l, u32 x,
			       u32 y)
{
	s64 c = (s64)s * p->lanes + l;

	if (c < 0 || c >= p->c)
		return NULL;
	if (l < 0) {
		s--;
		l += p->lanes;
	} else if (l >= (s32)p->lanes) {
		s++;
		l -= p->lanes;
	}
	return p->in + s * p->in_surf + y * p->in_line +
	       (x * p->lanes + l) * p->bpe;
}

static inline s32 cdp_raw(const struct cdp_params *p, const u8 *at)
{
	return !at ? 0 : p->bpe == 1 ? (s8)at[0] : (s16)(at[0] | at[1] << 8);
}

/*
 * Lanes [-@half, lanes + @half) of surface @s at (@x, @y), raw; 0 past
 * the channels. The surface's own lanes are one atom.
 */
static inline void cdp_window_raw(const struct cdp_params *p, u32 s, u32 x, u32 y,
				  u32 half, s32 *raw)
{
	const u8 *at = p->in + s * p->in_surf + y * p->in_line + x * p->atom;
	const u32 n = p->lanes;
	u32 i, inside = p->c - s * n < n ? p->c - s * n : n;

	for (i = 0; i < half; i++) {
		raw[i] = cdp_raw(p, cdp_at(p, s, (s32)i - (s32)half, x, y));
		raw[half + n + i] = cdp_raw(p, cdp_at(p, s, n + i, x, y));
	}
	if (p->bpe == 1)
		for (i = 0; i < n; i++)
			raw[half + i] = (s8)at[i];
	else
		for (i = 0; i < n; i++)
			raw[half + i] = (s16)(at[2 * i] | at[2 * i + 1] << 8);
	for (i = inside; i < n; i++)
		raw[half + i] = 0;	/* padding lanes */
}

#define CDP_HALF_MAX 4		/* NORMALZ_LEN + 1: 9 channels at most */
#define CDP_SPAN_MAX (SIM_ATOM_MAX + 2 * CDP_HALF_MAX)

/*
 * The converted inputs @v of the lanes of @raw, 0 past the channels
 * (from channel @c0 on), and their squares.
 */
static inline void cdp_convert(const struct cdp_params *p, const s32 *raw,
			       s64 c0, u32 m, s64 *v, s64 *sq)
{
	const u32 in_bits = p->bpe * 8 + 1, in_shift = p->in_shift;
	const s64 in_offset = p->in_offset, in_scale = p->in_scale;
	u32 i;

	for (i = 0; i < m; i++)
		v[i] = sim_sat(sim_rha_shift((raw[i] - in_offset) * in_scale,
					     in_shift), in_bits);
	for (i = 0; i < m; i++)	/* 0 past the channels, unconverted */
		v[i] = c0 + i >= 0 && c0 + i < p->c ? v[i] : 0;
	for (i = 0; i < m; i++)
		sq[i] = v[i] * v[i];
}

/*
 * cdp_convert in 32 bits, for int8 (sim_cdp_narrow): an input less its
 * offset has 9 bits, times the scale 24, and the rounding at most 2^30;
 * the converted input has 9 bits, its square 17.
 */
static inline void cdp_convert32(const struct cdp_params *p, const s32 *raw,
				 s64 c0, u32 m, s64 *v, s64 *sq)
{
	const u32 in_bits = p->bpe * 8 + 1, in_shift = p->in_shift;
	const s32 in_offset = p->in_offset, in_scale = p->in_scale;
	const s32 first = c0 < 0 ? -c0 : 0, end = p->c - c0;
	s32 t;
	u32 i;

	for (i = 0; i < m; i++) {
		t = sim_sat32(sim_rha_shift32((raw[i] - in_offset) * in_scale,
					      in_shift), in_bits);
		t = (s32)i >= first && (s32)i < end ? t : 0;
		v[i] = t;
		sq[i] = t * t;
	}
}

/*
 * The LUT's inputs @sum of every lane of surface @s at (@x, @y) and the
 * converted inputs @v, a stage at a time over the lanes: each input
 * converted and squared once, for all the windows it is in, the window's
 * sum slid along the lanes (or the input itself, with SQSUM bypassed).
 */
static inline void cdp_sums(const struct cdp_params *p, u32 s, u32 x, u32 y,
			    s64 *v, s64 *sum)
{
	const u32 n = p->lanes, hw = p->half_window, span = 2 * hw + 1;
	const u32 m = n + span - 1;
	const s64 c0 = (s64)s * n - hw;
	s64 sq[CDP_SPAN_MAX], t = 0;
	s32 raw[CDP_SPAN_MAX];
	u32 i;

	cdp_window_raw(p, s, x, y, hw, raw);
	if (p->narrow_in)
		cdp_convert32(p, raw, c0, m, v, sq);
	else
		cdp_convert(p, raw, c0, m, v, sq);
	for (i = 0; i + 1 < span; i++)
		t += sq[i];
	for (i = 0; i < n; i++) {
		t += sq[i + span - 1];
		sum[i] = p->sqsum_bypass ? v[i + hw] : t;
		t -= sq[i];
	}
}

/*
 * The multiplier and the output converter on the lookups @r, the
 * converted inputs at @v (the centres); the clips counted.
 */
static inline u32 cdp_outputs64(const struct cdp_params *p, s64 *r,
				const s64 *v, s32 *out)
{
	const u32 n = p->lanes, out_bits = p->bpe * 8, out_shift = p->out_shift;
	const s64 out_offset = p->out_offset, out_scale = p->out_scale;
	u32 i, sat = 0;
	s64 t;

	if (!p->mul_bypass)
		for (i = 0; i < n; i++)
			r[i] *= v[i];
	for (i = 0; i < n; i++) {
		t = (r[i] - out_offset) * out_scale;
		out[i] = sim_sat(sim_rha_shift(t, out_shift), out_bits);
		sat += sim_shift_saturated(t, out_shift, out[i]);
	}
	return sat;
}

/* cdp_outputs64 in 32 bits, where sim_cdp_narrow allows it. */
static inline u32 cdp_outputs32(const struct cdp_params *p, const s64 *r,
				const s64 *v, s32 *out)
{
	const u32 n = p->lanes, out_bits = p->bpe * 8, out_shift = p->out_shift;
	const s32 out_offset = p->out_offset, out_scale = p->out_scale;
	s32 rv[SIM_ATOM_MAX], t;
	u32 i, sat = 0;

	for (i = 0; i < n; i++)
		rv[i] = r[i];
	if (!p->mul_bypass)
		for (i = 0; i < n; i++)
			rv[i] *= (s32)v[i];
	for (i = 0; i < n; i++) {
		t = (rv[i] - out_offset) * out_scale;
		out[i] = sim_sat32(sim_rha_shift32(t, out_shift), out_bits);
		sat += sim_shift_saturated32(t, out_shift, out[i]);
	}
	return sat;
}

/*
 * The outputs from the lookups @r and the converted inputs @v (the
 * window's centre at @v + half_window); the saturations counted into the
 * layer's counter.
 */
static inline void cdp_outputs(const struct cdp_params *p, s64 *r,
			       const s64 *v, s32 *out)
{
	const s64 *centre = v + p->half_window;

	sim_count_add(p->sat_count, p->narrow_out ?
		      cdp_outputs32(p, r, centre, out) :
		      cdp_outputs64(p, r, centre, out));
}

/* The lookups of every lane's @sum into @r, counted in @n. */
typedef void cdp_lookups_fn(const struct cdp_params *p, const s64 *sum,
			    s64 *r, struct sim_lut_count *n);

static inline void cdp_lookups(const struct cdp_params *p, const s64 *sum,
			       s64 *r, struct sim_lut_count *n)
{
	u32 i;

	for (i = 0; i < p->lanes; i++)
		r[i] = cdp_lookup(p, sum[i], n);
}

/*
 * The outputs of every lane of surface @s at (@x, @y): the sums, the
 * @lookups (NULL: cdp_lookups, called directly, so that its lookup
 * inlines; counted locally, then into the layer's counters), the
 * outputs.
 */
static inline void cdp_atom(const struct cdp_params *p, u32 s, u32 x, u32 y,
			    s32 *out, cdp_lookups_fn *lookups)
{
	s64 v[CDP_SPAN_MAX], sum[SIM_ATOM_MAX], r[SIM_ATOM_MAX];
	struct sim_lut_count count = { 0 };

	cdp_sums(p, s, x, y, v, sum);
	if (lookups)
		lookups(p, sum, r, &count);
	else
		cdp_lookups(p, sum, r, &count);
	sim_lut_count_merge(p->lut_count, &count);
	cdp_outputs(p, r, v, out);
}

#endif /* __NVDLA_SIM_CDP_H__ */
