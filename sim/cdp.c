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
#include "cdp.h"
#include "fp.h"
#include "perf.h"

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

static void cdp_atom_plain(const struct cdp_params *p, u32 s, u32 x, u32 y,
			   s32 *out)
{
	cdp_atom(p, s, x, y, out, NULL);
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
				p->atom_fn(p, s, x, y, v);
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

/*
 * Which stages of an integer layer may compute in 32 bits (cdp.h): int8's
 * converter and sums always; its multiplier and output converter where
 * the LUT's 16-bit result times the 9-bit input, less the offset, times
 * the scale, and the rounding stay in s32.
 */
void sim_cdp_narrow(struct cdp_params *p)
{
	u64 rv = (u64)1 << (p->mul_bypass ? 15 : 15 + 8);
	u64 off = p->out_offset < 0 ? -p->out_offset : p->out_offset;
	u64 scale = p->out_scale < 0 ? -(s64)p->out_scale : p->out_scale;

	p->narrow_in = p->bpe == 1;
	p->narrow_out = p->narrow_in && rv + off < SIM_S32_BOUND &&
			sim_fits32((rv + off) * scale, p->out_shift);
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
	sim_cdp_narrow(p);
	cdp_lut_params(sim, p);
	p->table = &sim->cdp_lut;
	p->atom_fn = sim_cdp_vector();
	if (!p->atom_fn)
		p->atom_fn = cdp_atom_plain;
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
 * as saturated; the WDMA's stall is the estimate's (perf_cdp.c).
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
}

/* The elements and their status, unless only times are wanted. */
static void cdp_compute_values(struct nvdla_sim *sim, const struct cdp_params *p)
{
	if (sim->no_values)
		return;
	if (p->fp16) {
		cdp_compute_fp16(sim, p);
		cdp_fp16_status(sim, p);
	} else {
		cdp_compute(sim, p);
	}
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
	} else {
		sim_perf_cdp(sim, &p);
		cdp_compute_values(sim, &p);
	}
	cdp_count_finish(sim, &count, sat);
	sim_perf_end(sim);
	sim_unit_finish(sim, NVDLA_UNIT_CDP);
	sim_unit_finish(sim, NVDLA_UNIT_CDP_RDMA);
	sim_glb_done(sim, group ? NVDLA_GLB_S_INTR_STATUS_CDP_DONE_STATUS1_MASK :
			   NVDLA_GLB_S_INTR_STATUS_CDP_DONE_STATUS0_MASK);
	return true;
}
