// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * CDP, cross-channel local response normalisation, integer pipelines:
 * out_c = ocvt(icvt(x_c) * LUT(sum of icvt(x_j)^2 over the window around
 * c)), for every lane of every surface. The padding lanes of the last
 * surface count as 0 after the input converter, as beyond the ends, as in
 * NVIDIA's C model: they add nothing to the windows of the last channels,
 * and their own outputs are the converter's result for 0 (compared with
 * the C model on random layers, docs/recording.md).
 * The LUT differs from the SDP's: 38-bit start and end, a 16-bit
 * interpolation fraction and 16-bit results. fp16 runs in cdp_fp16.c.
 */
#include "cdp_fp16.h"
#include "fp.h"
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
};

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
	u32 e = 0;

	if (d <= 0) {
		r.state = SIM_LUT_UFLOW;
		return r;
	}
	while ((u64)d >> (e + 1))
		e++;
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
static s64 cdp_slope(s64 v, s32 scale, s32 shift)
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

static s64 cdp_lut_output(const s16 *t, u32 last, const struct cdp_index *r,
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

static s64 cdp_lookup(const struct cdp_params *p, s64 x,
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

	sim_lut_count_cdp(n, le.state, lo.state);
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

/* The output converter, its clips counted in @sat. */
static s64 cdp_ocvt(const struct cdp_params *p, s64 v, u32 *sat)
{
	s64 r;

	v = (v - p->out_offset) * p->out_scale;
	r = sim_sat(sim_rha_shift(v, p->out_shift), p->bpe * 8);
	*sat += sim_shift_saturated(v, p->out_shift, r);
	return r;
}

/*
 * Where lane @l of surface @s is at (@x, @y), for -lanes <= @l < 2 * lanes:
 * a window's ends lie in the surfaces either side. NULL past the cube's
 * channels, where the inputs count as 0.
 */
static const u8 *cdp_at(const struct cdp_params *p, u32 s, s32 l, u32 x,
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

static s32 cdp_raw(const struct cdp_params *p, const u8 *at)
{
	return !at ? 0 : p->bpe == 1 ? (s8)at[0] : (s16)(at[0] | at[1] << 8);
}

/*
 * Lanes [-@half, lanes + @half) of surface @s at (@x, @y), raw; 0 past
 * the channels. The surface's own lanes are one atom.
 */
static void cdp_window_raw(const struct cdp_params *p, u32 s, u32 x, u32 y,
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

/* The input converter; 0 stays 0 past the channels (@inside false). */
static s64 cdp_in(const struct cdp_params *p, s32 raw, bool inside)
{
	if (!inside)
		return 0;
	return sim_sat(sim_rha_shift(((s64)raw - p->in_offset) * p->in_scale,
				     p->in_shift), p->bpe * 8 + 1);
}

/* fp16 inputs of the windows of surface @s at (@x, @y); NaN_TO_ZERO. */
static void cdp_window16(const struct cdp_params *p, u32 s, u32 x, u32 y,
			 u16 *win)
{
	s32 raw[SIM_ATOM_MAX + SIM_CDP_FP16_WINDOW - 1];
	u32 i;

	cdp_window_raw(p, s, x, y, SIM_CDP_FP16_WINDOW / 2, raw);
	for (i = 0; i < p->lanes + SIM_CDP_FP16_WINDOW - 1; i++) {
		win[i] = raw[i];
		if (p->nan_to_zero && sim_fp_is_nan(win[i], &sim_fp16))
			win[i] = 0;
	}
}

/* Store the @p->lanes outputs @v of surface @s at (@x, @y). */
static void cdp_store(const struct cdp_params *p, u32 s, u32 x, u32 y,
		      const s32 *v)
{
	u8 *o = p->out + s * p->out_surf + y * p->out_line + x * p->atom;
	u32 i;

	if (p->bpe == 1) {
		for (i = 0; i < p->lanes; i++)
			o[i] = v[i];
		return;
	}
	for (i = 0; i < p->lanes; i++) {
		o[2 * i] = v[i];
		o[2 * i + 1] = v[i] >> 8;
	}
}

static void cdp_compute_fp16(struct nvdla_sim *sim,
			     const struct cdp_params *p)
{
	u16 win[SIM_ATOM_MAX + SIM_CDP_FP16_WINDOW - 1];
	s32 v[SIM_ATOM_MAX];
	u32 s, x, y, i;

	for (s = 0; s < p->surfaces; s++) {
		for (y = 0; y < p->h; y++) {
			for (x = 0; x < p->w; x++) {
				if (sim_slice(sim, (u64)p->lanes *
					      SIM_CDP_FP16_WINDOW))
					return;
				cdp_window16(p, s, x, y, win);
				for (i = 0; i < p->lanes; i++)
					v[i] = sim_cdp_fp16_lrn(&p->lrn16,
								win + i);
				cdp_store(p, s, x, y, v);
			}
		}
	}
}

#define CDP_HALF_MAX 4		/* NORMALZ_LEN + 1: 9 channels at most */

/*
 * The outputs of every lane of surface @s at (@x, @y): each input
 * converted and squared once, for all the windows it is in, the window's
 * sum slid along the lanes; counted locally, then into the layer's
 * counters.
 */
static void cdp_atom(const struct cdp_params *p, u32 s, u32 x, u32 y, s32 *out)
{
	s64 v[SIM_ATOM_MAX + 2 * CDP_HALF_MAX], sq[SIM_ATOM_MAX + 2 * CDP_HALF_MAX];
	s32 raw[SIM_ATOM_MAX + 2 * CDP_HALF_MAX];
	const u32 n = p->lanes, hw = p->half_window, span = 2 * hw + 1;
	const s64 c0 = (s64)s * n - hw;
	struct sim_lut_count count = { 0 };
	s64 sum = 0, r;
	u32 i, sat = 0;

	cdp_window_raw(p, s, x, y, hw, raw);
	for (i = 0; i < n + span - 1; i++) {
		v[i] = cdp_in(p, raw[i], c0 + i >= 0 && c0 + i < p->c);
		sq[i] = v[i] * v[i];
	}
	for (i = 0; i + 1 < span; i++)
		sum += sq[i];
	for (i = 0; i < n; i++) {
		sum += sq[i + span - 1];
		r = cdp_lookup(p, p->sqsum_bypass ? v[i + hw] : sum, &count);
		if (!p->mul_bypass)
			r *= v[i + hw];
		out[i] = cdp_ocvt(p, r, &sat);
		sum -= sq[i];
	}
	sim_lut_count_merge(p->lut_count, &count);
	sim_count_add(p->sat_count, sat);
}

static void cdp_compute(struct nvdla_sim *sim, const struct cdp_params *p)
{
	s32 v[SIM_ATOM_MAX];
	u32 s, x, y;

	for (s = 0; s < p->surfaces; s++) {
		for (y = 0; y < p->h; y++) {
			for (x = 0; x < p->w; x++) {
				if (sim_slice(sim, (u64)p->lanes *
					      (2 * p->half_window + 1)))
					return;
				cdp_atom(p, s, x, y, v);
				cdp_store(p, s, x, y, v);
			}
		}
	}
}

static s64 cdp_wide(struct nvdla_sim *sim, u32 low, u32 high)
{
	u64 v = (u64)(sim_single(sim, NVDLA_UNIT_CDP, high) & 0x3f) << 32 |
		sim_single(sim, NVDLA_UNIT_CDP, low);

	return (s64)(v << (64 - CDP_START_BITS)) >> (64 - CDP_START_BITS);
}

static void cdp_lut_params(struct nvdla_sim *sim, struct cdp_params *p)
{
	struct cdp_lut *l = &p->lut;
	/* The index selects are 6-bit (int8) or 7-bit (int16) signed. */
	u32 sel_bits = p->bpe == 1 ? 6 : 7;

	sim_lut_cfg_read(sim, NVDLA_UNIT_CDP, NVDLA_CDP_S_LUT_LE_SLOPE_SCALE,
			 &l->cfg);
	l->le_offset = l->cfg.le_offset;
	l->le_select = sim_sext((u8)l->cfg.le_select, sel_bits);
	l->lo_select = sim_sext((u8)l->cfg.lo_select, sel_bits);
	l->le_start = cdp_wide(sim, NVDLA_CDP_S_LUT_LE_START_LOW,
			       NVDLA_CDP_S_LUT_LE_START_HIGH);
	l->le_end = cdp_wide(sim, NVDLA_CDP_S_LUT_LE_END_LOW,
			     NVDLA_CDP_S_LUT_LE_END_HIGH);
	l->lo_start = cdp_wide(sim, NVDLA_CDP_S_LUT_LO_START_LOW,
			       NVDLA_CDP_S_LUT_LO_START_HIGH);
	l->lo_end = cdp_wide(sim, NVDLA_CDP_S_LUT_LO_END_LOW,
			     NVDLA_CDP_S_LUT_LO_END_HIGH);
}

/* fp16: START/END are the LOW registers' fp32 bit patterns. */
static void cdp_fp16_params(struct nvdla_sim *sim, struct cdp_params *p)
{
	struct sim_cdp_fp16 *f = &p->lrn16;

	f->table = &sim->cdp_lut;
	f->cfg = &p->lut.cfg;
	f->le_start = sim_single(sim, NVDLA_UNIT_CDP, NVDLA_CDP_S_LUT_LE_START_LOW);
	f->le_end = sim_single(sim, NVDLA_UNIT_CDP, NVDLA_CDP_S_LUT_LE_END_LOW);
	f->lo_start = sim_single(sim, NVDLA_UNIT_CDP, NVDLA_CDP_S_LUT_LO_START_LOW);
	f->lo_end = sim_single(sim, NVDLA_UNIT_CDP, NVDLA_CDP_S_LUT_LO_END_LOW);
	f->le_offset = p->lut.cfg.le_offset;
	f->le_select = p->lut.cfg.le_select;	/* 8-bit signed in fp16 */
	f->lo_select = p->lut.cfg.lo_select;
	f->half_window = p->half_window;
	f->sqsum_bypass = p->sqsum_bypass;
	f->mul_bypass = p->mul_bypass;
	f->lut_count = p->lut_count;
	p->nan_to_zero = SIM_FIELD(sim, CDP, D_NAN_FLUSH_TO_ZERO, NAN_TO_ZERO);
}

/* fp16: NaN and infinite inputs, NaN outputs, whole atoms. */
static void cdp_fp16_status(struct nvdla_sim *sim, const struct cdp_params *p)
{
	struct sim_fp16_count n;

	n = sim_fp16_cube_count(p->in, p->surfaces, p->h, p->w, p->in_line,
				p->in_surf, p->atom);
	sim_set_status(sim, NVDLA_UNIT_CDP, NVDLA_CDP_D_NAN_INPUT_NUM, n.nan);
	sim_set_status(sim, NVDLA_UNIT_CDP, NVDLA_CDP_D_INF_INPUT_NUM, n.inf);
	n = sim_fp16_cube_count(p->out, p->surfaces, p->h, p->w, p->out_line,
				p->out_surf, p->atom);
	sim_set_status(sim, NVDLA_UNIT_CDP, NVDLA_CDP_D_NAN_OUTPUT_NUM, n.nan);
}

static u64 cdp_extent(const struct cdp_params *p, u32 line, u32 surf)
{
	return (u64)(p->surfaces - 1) * surf + (u64)(p->h - 1) * line +
	       (u64)p->w * p->atom;
}

static bool cdp_params(struct nvdla_sim *sim, struct cdp_params *p)
{
	u32 prec = SIM_FIELD(sim, CDP, D_DATA_FORMAT, INPUT_DATA_TYPE);
	u32 c = SIM_FIELD(sim, CDP_RDMA, D_DATA_CUBE_CHANNEL, CHANNEL) + 1;
	u32 in_offset = SIM_FIELD(sim, CDP, D_DATIN_OFFSET, DATIN_OFFSET);
	u32 out_offset = SIM_REG(sim, CDP, D_DATOUT_OFFSET);

	if (prec > CDP_FP16)
		return false;
	p->fp16 = prec == CDP_FP16;
	p->bpe = p->fp16 ? 2 : prec + 1;
	p->atom = sim->config->atom;
	p->lanes = p->atom / p->bpe;
	p->c = c;
	p->surfaces = (c + p->lanes - 1) / p->lanes;
	p->w = SIM_FIELD(sim, CDP_RDMA, D_DATA_CUBE_WIDTH, WIDTH) + 1;
	p->h = SIM_FIELD(sim, CDP_RDMA, D_DATA_CUBE_HEIGHT, HEIGHT) + 1;
	p->half_window = SIM_FIELD(sim, CDP, D_LRN_CFG, NORMALZ_LEN) + 1;
	if (!sim_work_ok(sim, (u64)p->surfaces * p->lanes * p->w * p->h *
			 (2 * p->half_window + 2)))
		return false;
	p->sqsum_bypass = SIM_FIELD(sim, CDP, D_FUNC_BYPASS, SQSUM_BYPASS);
	p->mul_bypass = SIM_FIELD(sim, CDP, D_FUNC_BYPASS, MUL_BYPASS);
	/* int8 takes the offsets as 8 and 25 bits, int16 as 16 and 32. */
	p->in_offset = sim_sext(in_offset, p->bpe == 1 ? 8 : 16);
	p->in_scale = (s16)SIM_FIELD(sim, CDP, D_DATIN_SCALE, DATIN_SCALE);
	p->in_shift = SIM_FIELD(sim, CDP, D_DATIN_SHIFTER, DATIN_SHIFTER);
	p->out_offset = p->bpe == 1 ? sim_sext(out_offset, 25) : (s32)out_offset;
	p->out_scale = (s16)SIM_FIELD(sim, CDP, D_DATOUT_SCALE, DATOUT_SCALE);
	p->out_shift = SIM_FIELD(sim, CDP, D_DATOUT_SHIFTER, DATOUT_SHIFTER);
	cdp_lut_params(sim, p);
	p->table = &sim->cdp_lut;
	if (p->fp16)
		cdp_fp16_params(sim, p);

	p->in_line = SIM_STRIDE(sim, CDP_RDMA, D_SRC_LINE_STRIDE);
	p->in_surf = SIM_STRIDE(sim, CDP_RDMA, D_SRC_SURFACE_STRIDE);
	p->out_line = SIM_STRIDE(sim, CDP, D_DST_LINE_STRIDE);
	p->out_surf = SIM_STRIDE(sim, CDP, D_DST_SURFACE_STRIDE);
	p->in = SIM_MAP(sim, CDP_RDMA, D_SRC_DMA_CFG, SRC_RAM_TYPE,
			SIM_ADDR(sim, CDP_RDMA, D_SRC_BASE_ADDR_LOW,
				 D_SRC_BASE_ADDR_HIGH),
			cdp_extent(p, p->in_line, p->in_surf));
	p->out = SIM_MAP_OUT(sim, CDP, D_DST_DMA_CFG, DST_RAM_TYPE,
			     SIM_ADDR(sim, CDP, D_DST_BASE_ADDR_LOW,
				      D_DST_BASE_ADDR_HIGH),
			     cdp_extent(p, p->out_line, p->out_surf));
	return p->in && p->out;
}

/*
 * The finished group's counters, which count whatever D_PERF_ENABLE says
 * (the RTL and the C model ignore its LUT_EN); fp16 outputs never count
 * as saturated, and the WDMA has no bus timing here to stall on.
 */
static void cdp_count_finish(struct nvdla_sim *sim,
			     const struct sim_lut_count *n, u32 sat)
{
	sim_set_status(sim, NVDLA_UNIT_CDP, NVDLA_CDP_D_PERF_LUT_UFLOW, n->uflow);
	sim_set_status(sim, NVDLA_UNIT_CDP, NVDLA_CDP_D_PERF_LUT_OFLOW, n->oflow);
	sim_set_status(sim, NVDLA_UNIT_CDP, NVDLA_CDP_D_PERF_LUT_HYBRID, n->hybrid);
	sim_set_status(sim, NVDLA_UNIT_CDP, NVDLA_CDP_D_PERF_LUT_LE_HIT, n->le_hit);
	sim_set_status(sim, NVDLA_UNIT_CDP, NVDLA_CDP_D_PERF_LUT_LO_HIT, n->lo_hit);
	sim_set_status(sim, NVDLA_UNIT_CDP, NVDLA_CDP_D_OUT_SATURATION, sat);
	sim_set_status(sim, NVDLA_UNIT_CDP, NVDLA_CDP_D_PERF_WRITE_STALL, 0);
}

bool sim_cdp_run(struct nvdla_sim *sim)
{
	struct sim_lut_count count = { 0 };
	struct cdp_params p;
	u32 sat = 0;
	u8 group;

	if (!sim_unit_ready(sim, NVDLA_UNIT_CDP) ||
	    !sim_unit_ready(sim, NVDLA_UNIT_CDP_RDMA))
		return false;

	group = sim->units[NVDLA_UNIT_CDP].consumer;
	p.lut_count = &count;
	p.sat_count = &sat;
	if (!cdp_params(sim, &p)) {
		sim->faults++;
	} else if (p.fp16) {
		cdp_compute_fp16(sim, &p);
		cdp_fp16_status(sim, &p);
	} else {
		cdp_compute(sim, &p);
	}
	cdp_count_finish(sim, &count, sat);
	sim_unit_finish(sim, NVDLA_UNIT_CDP);
	sim_unit_finish(sim, NVDLA_UNIT_CDP_RDMA);
	sim_glb_done(sim, group ? NVDLA_GLB_S_INTR_STATUS_CDP_DONE_STATUS1_MASK :
			   NVDLA_GLB_S_INTR_STATUS_CDP_DONE_STATUS0_MASK);
	return true;
}
