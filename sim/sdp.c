// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * SDP, the single-point data processor, integer pipelines: every element
 * goes through X1 (BS) and X2 (BN) (ALU, then MUL with truncation, then
 * ReLU), Y (EW: MUL, then ALU, then the LUT) and the output converter, each
 * stage bypassable. Operands come from registers or from memory through
 * the BRDMA, NRDMA and ERDMA read engines, per channel or per element.
 * The input is a data cube read by SDP_RDMA (offline) or the output of the
 * convolution pipeline (flying).
 */
#include <nvdla/sdp_layout.h>

#include "perf.h"
#include "sdp_run.h"

/*
 * Operand elements at @p, @step bytes apart, into @alu and @mul as the operand's use says.
 */
static void sdp_operand_load(const struct sdp_operand *o, const u8 *p,
			     u32 step, u32 n, s32 *alu, s32 *mul)
{
	const u32 size = o->two_byte ? 2 : 1;
	const u32 at_mul = o->use == USE_BOTH ? size : 0;
	const bool has_alu = o->use == USE_BOTH || o->use == USE_ALU;
	u32 i;

	for (i = 0; has_alu && i < n; i++)
		alu[i] = sim_load(p + i * step, size);
	for (i = 0; o->use != USE_ALU && i < n; i++)
		mul[i] = sim_load(p + i * step + at_mul, size);
}

void sim_sdp_operands(const struct sdp_operand *o, u32 lanes,
		      const struct sdp_run *r, s32 *alu, s32 *mul)
{
	u32 i, n, lane = r->c % lanes, c0 = r->c - lane;

	if (o->per_element) {	/* in memory order, as the run */
		sdp_operand_load(o, o->base + (r->c / lanes) * o->surf +
				 r->y * o->line +
				 (r->x * lanes + lane) * o->elem,
				 o->elem, r->n, alu, mul);
		return;
	}
	/* The atom's lanes, again for each further atom of the run. */
	for (i = 0; i < r->n; i += n, lane = 0) {
		n = r->n - i < lanes - lane ? r->n - i : lanes - lane;
		if (c0 + lane < o->channels)	/* padding lanes read 0 */
			sdp_operand_load(o, o->base + (c0 + lane) * o->elem,
					 o->elem, c0 + lane + n <= o->channels ?
					 n : o->channels - c0 - lane,
					 alu + i, mul + i);
	}
}

static void sdp_run_plain(const struct sdp_params *p, const struct sdp_run *r,
			  s32 *v, u8 *out)
{
	sdp_run_int(p, r, v, out);
}

/* The output streamed to the PDP. */
static s32 sdp_stream_value(const void *ctx, u32 c, u32 x, u32 y)
{
	const struct sdp_params *p = ctx;
	const struct sdp_run r = { c, 1, x, y };
	s32 v;

	if (sim_slice(p->sim, p->elem_work))
		return 0;
	p->run(p, &r, &v, NULL);
	return v;
}

/* Run @r's output @v to an int16 cube of 16-channel surfaces. */
static void sdp_store_pairs(const struct sdp_params *p,
			    const struct sdp_run *r, const s32 *v)
{
	u8 *o;
	u32 i;

	for (i = 0; i < r->n; i++) {
		o = p->out + sdp_pair_offset(p, r, i, p->out_line, p->out_surf);
		o[0] = v[i];
		o[1] = v[i] >> 8;
	}
}

/*
 * Every element once, an atom at a time, stored unless the output goes
 * elsewhere (@p->out NULL: streamed to the PDP, or compared), where this
 * pass only counts.
 */
static void sdp_compute(const struct sdp_params *p)
{
	const u32 atoms = SDP_RUN_MAX / p->lanes;
	s32 v[SDP_RUN_MAX];
	struct sdp_run r;
	u32 s;

	for (s = 0; s < p->surfaces; s++) {
		r.c = s * p->lanes;
		for (r.y = 0; r.y < p->h; r.y++) {
			for (r.x = 0; r.x < p->w; r.x += atoms) {
				r.n = (p->w - r.x < atoms ? p->w - r.x : atoms) *
				      p->lanes;
				if (sim_slice(p->sim, r.n * p->elem_work))
					return;
				p->run(p, &r, v, !p->out || p->out_pairs ?
				       NULL : p->out + s * p->out_surf +
				       r.y * p->out_line + r.x * p->atom);
				if (p->out && p->out_pairs)
					sdp_store_pairs(p, &r, v);
			}
		}
	}
}

/*
 * Every batch of a flying layer, each to its own output cube; the
 * operands are the same for all of them.
 */
static void sdp_compute_batches(struct sdp_params *p, struct sim_conv *cv)
{
	u8 *out = p->out;
	u32 b;

	for (b = 0; b < p->batches; b++) {
		if (p->batches > 1)	/* only direct feature input has batches */
			sim_conv_batch(cv, b);
		p->out = out ? out + (u64)b * p->out_batch : NULL;
		sdp_compute(p);
	}
	p->out = out;
}

/* The registers of one operand read engine, relative to SDP_RDMA. */
struct sdp_operand_regs {
	u32 cfg, addr_low, addr_high, line, surf;
};

static const struct sdp_operand_regs sdp_operand_regs[3] = {
	{ NVDLA_SDP_RDMA_D_BRDMA_CFG, NVDLA_SDP_RDMA_D_BS_BASE_ADDR_LOW,
	  NVDLA_SDP_RDMA_D_BS_BASE_ADDR_HIGH, NVDLA_SDP_RDMA_D_BS_LINE_STRIDE,
	  NVDLA_SDP_RDMA_D_BS_SURFACE_STRIDE },
	{ NVDLA_SDP_RDMA_D_NRDMA_CFG, NVDLA_SDP_RDMA_D_BN_BASE_ADDR_LOW,
	  NVDLA_SDP_RDMA_D_BN_BASE_ADDR_HIGH, NVDLA_SDP_RDMA_D_BN_LINE_STRIDE,
	  NVDLA_SDP_RDMA_D_BN_SURFACE_STRIDE },
	{ NVDLA_SDP_RDMA_D_ERDMA_CFG, NVDLA_SDP_RDMA_D_EW_BASE_ADDR_LOW,
	  NVDLA_SDP_RDMA_D_EW_BASE_ADDR_HIGH, NVDLA_SDP_RDMA_D_EW_LINE_STRIDE,
	  NVDLA_SDP_RDMA_D_EW_SURFACE_STRIDE },
};

#define RDMA_FIELD(v, f) \
	(((v) & NVDLA_SDP_RDMA_D_BRDMA_CFG_BRDMA_##f##_MASK) >> \
	 NVDLA_SDP_RDMA_D_BRDMA_CFG_BRDMA_##f##_SHIFT)

/* Bytes of one element's operands, by the engine's D_*RDMA_CFG @cfg. */
static u32 sdp_operand_elem(u32 cfg)
{
	return (RDMA_FIELD(cfg, DATA_USE) == USE_BOTH ? 2 : 1) *
	       (RDMA_FIELD(cfg, DATA_SIZE) ? 2 : 1);
}

/*
 * Map operand stream @i if a stage reads memory; false on a fault. Those
 * of a 1x1 cube are read packed (@l, nvdla/sdp_layout.h).
 */
static bool sdp_operand(struct nvdla_sim *sim, const struct sdp_params *p,
			const struct nvdla_sdp_layout *l, int i, bool used,
			struct sdp_operand *o)
{
	const struct sdp_operand_regs *r = &sdp_operand_regs[i];
	u32 cfg = sim_reg(sim, NVDLA_UNIT_SDP_RDMA, r->cfg);
	u64 addr, len;

	o->enabled = !RDMA_FIELD(cfg, DISABLE) && used;
	if (!o->enabled)
		return true;
	o->use = RDMA_FIELD(cfg, DATA_USE);
	o->two_byte = RDMA_FIELD(cfg, DATA_SIZE);
	o->per_element = RDMA_FIELD(cfg, DATA_MODE);
	o->elem = sdp_operand_elem(cfg);
	o->line = sim_reg(sim, NVDLA_UNIT_SDP_RDMA, r->line) &
		  sim->config->addr_low_mask;
	o->surf = nvdla_sdp_packed(l) ?
		  nvdla_sdp_packed_stride(l, NVDLA_SDP_STREAM_BS + i) :
		  l->surf[NVDLA_SDP_STREAM_BS + i];
	addr = (u64)sim_reg(sim, NVDLA_UNIT_SDP_RDMA, r->addr_high) << 32 |
	       (sim_reg(sim, NVDLA_UNIT_SDP_RDMA, r->addr_low) &
		sim->config->addr_low_mask);
	if (o->per_element)
		len = (u64)(p->surfaces - 1) * o->surf +
		      (u64)(p->h - 1) * o->line + (u64)p->w * p->lanes * o->elem;
	else
		len = (u64)p->c * o->elem;
	o->channels = p->c;
	o->base = sim_map_ram(sim, RDMA_FIELD(cfg, RAM_TYPE), addr, len);
	return !!o->base;
}

/* BS (delta 0) or BN: the same registers 0x14 apart. */
#define BN_DELTA (NVDLA_SDP_D_DP_BN_CFG - NVDLA_SDP_D_DP_BS_CFG)
#define X_FIELD(sim, d, reg, f) \
	sim_field(sim, NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_BS_##reg + (d), \
		  NVDLA_SDP_D_DP_BS_##reg##_BS_##f##_MASK, \
		  NVDLA_SDP_D_DP_BS_##reg##_BS_##f##_SHIFT)

static void sdp_x_params(struct nvdla_sim *sim, u32 d, struct sdp_x *s)
{
	s->bypass = X_FIELD(sim, d, CFG, BYPASS);
	s->alu_bypass = X_FIELD(sim, d, CFG, ALU_BYPASS);
	s->algo = X_FIELD(sim, d, CFG, ALU_ALGO);
	s->mul_bypass = X_FIELD(sim, d, CFG, MUL_BYPASS);
	s->prelu = X_FIELD(sim, d, CFG, MUL_PRELU);
	s->relu_bypass = X_FIELD(sim, d, CFG, RELU_BYPASS);
	s->alu_mem = X_FIELD(sim, d, ALU_CFG, ALU_SRC);
	s->alu_shift = X_FIELD(sim, d, ALU_CFG, ALU_SHIFT_VALUE);
	s->alu_reg = X_FIELD(sim, d, ALU_SRC_VALUE, ALU_OPERAND);
	s->mul_mem = X_FIELD(sim, d, MUL_CFG, MUL_SRC);
	/* An 8-bit field feeding a 6-bit datapath. */
	s->mul_shift = X_FIELD(sim, d, MUL_CFG, MUL_SHIFT_VALUE) & 0x3f;
	s->mul_reg = X_FIELD(sim, d, MUL_SRC_VALUE, MUL_OPERAND);
}

/*
 * Y; on a configuration built without it (sdp_y, nvdla/hw_configs.h)
 * bypassed whatever D_DP_EW_CFG says, its operand engine unused: the
 * nv_small RTL ties the stage's enable to 0 and ERDMA's disable to 1.
 */
static void sdp_y_params(struct nvdla_sim *sim, struct sdp_y *s)
{
	s->bypass = !sim->config->sdp_y ||
		    SIM_FIELD(sim, SDP, D_DP_EW_CFG, EW_BYPASS);
	s->alu_bypass = SIM_FIELD(sim, SDP, D_DP_EW_CFG, EW_ALU_BYPASS);
	s->algo = SIM_FIELD(sim, SDP, D_DP_EW_CFG, EW_ALU_ALGO);
	s->mul_bypass = SIM_FIELD(sim, SDP, D_DP_EW_CFG, EW_MUL_BYPASS);
	s->prelu = SIM_FIELD(sim, SDP, D_DP_EW_CFG, EW_MUL_PRELU);
	s->lut_bypass = SIM_FIELD(sim, SDP, D_DP_EW_CFG, EW_LUT_BYPASS);
	s->alu_mem = SIM_FIELD(sim, SDP, D_DP_EW_ALU_CFG, EW_ALU_SRC);
	s->alu_cvt_bypass = SIM_FIELD(sim, SDP, D_DP_EW_ALU_CFG, EW_ALU_CVT_BYPASS);
	s->alu_reg = SIM_REG(sim, SDP, D_DP_EW_ALU_SRC_VALUE);
	s->alu_cvt_offset = SIM_REG(sim, SDP, D_DP_EW_ALU_CVT_OFFSET_VALUE);
	s->alu_cvt_scale = SIM_FIELD(sim, SDP, D_DP_EW_ALU_CVT_SCALE_VALUE,
				     EW_ALU_CVT_SCALE);
	s->alu_cvt_shift = SIM_FIELD(sim, SDP, D_DP_EW_ALU_CVT_TRUNCATE_VALUE,
				     EW_ALU_CVT_TRUNCATE);
	s->mul_mem = SIM_FIELD(sim, SDP, D_DP_EW_MUL_CFG, EW_MUL_SRC);
	s->mul_cvt_bypass = SIM_FIELD(sim, SDP, D_DP_EW_MUL_CFG, EW_MUL_CVT_BYPASS);
	s->mul_reg = SIM_REG(sim, SDP, D_DP_EW_MUL_SRC_VALUE);
	s->mul_cvt_offset = SIM_REG(sim, SDP, D_DP_EW_MUL_CVT_OFFSET_VALUE);
	s->mul_cvt_scale = SIM_FIELD(sim, SDP, D_DP_EW_MUL_CVT_SCALE_VALUE,
				     EW_MUL_CVT_SCALE);
	s->mul_cvt_shift = SIM_FIELD(sim, SDP, D_DP_EW_MUL_CVT_TRUNCATE_VALUE,
				     EW_MUL_CVT_TRUNCATE);
	s->truncate = SIM_FIELD(sim, SDP, D_DP_EW_TRUNCATE_VALUE, EW_TRUNCATE);
}

#define LUT_REG(sim, reg) sim_single(sim, NVDLA_UNIT_SDP, NVDLA_SDP_##reg)

static void sdp_lut_params(struct nvdla_sim *sim, struct sim_lut_cfg *l)
{
	sim_lut_cfg_read(sim, NVDLA_UNIT_SDP, NVDLA_SDP_S_LUT_LE_SLOPE_SCALE, l);
	l->le_start = LUT_REG(sim, S_LUT_LE_START);
	l->le_end = LUT_REG(sim, S_LUT_LE_END);
	l->lo_start = LUT_REG(sim, S_LUT_LO_START);
	l->lo_end = LUT_REG(sim, S_LUT_LO_END);
}

/* The bytes a cube of @bpe-byte elements spans as the layer reads it. */
static u64 cube_extent(const struct sdp_params *p, u32 bpe, u32 line,
		       u32 surf)
{
	u32 surfaces = nvdla_sdp_surfaces(p->c, p->atom, p->proc, bpe);

	return (u64)(surfaces - 1) * surf + (u64)(p->h - 1) * line +
	       (u64)p->w * p->atom;
}

/* The stages' registers, which say whether the operand engines are used. */
static void sdp_stage_params(struct nvdla_sim *sim, struct sdp_params *p)
{
	sdp_x_params(sim, 0, &p->x[0]);
	sdp_x_params(sim, BN_DELTA, &p->x[1]);
	sdp_y_params(sim, &p->y);
}

static bool sdp_x_reads(const struct sdp_x *x)
{
	return !x->bypass && (x->alu_mem || x->mul_mem);
}

static bool sdp_y_reads(const struct sdp_y *y)
{
	return !y->bypass && (y->alu_mem || y->mul_mem);
}

/*
 * The largest magnitude of a stage's operand: memory's (0 with its read
 * engine off), or @reg.
 */
static u64 sdp_operand_max(const struct sdp_operand *o, bool mem, s32 reg)
{
	if (mem)
		return !o->enabled ? 0 : o->two_byte ? 1 << 15 : 1 << 7;
	return reg < 0 ? -(s64)reg : reg;
}

/*
 * Whether X's arithmetic (sdp_stage_x) is exact in 32 bits for inputs of
 * magnitude up to *@max, and the bound of its outputs into *@max.
 */
static bool sdp_x_narrow(const struct sdp_x *s, u64 *max)
{
	u64 op = sdp_operand_max(&s->op, s->alu_mem, (s16)s->alu_reg);
	u64 mul = s->mul_bypass ? 1 :
		  sdp_operand_max(&s->op, s->mul_mem, (s16)s->mul_reg);
	u64 t = *max;
	bool ok;

	if (s->bypass)
		return true;
	op = s->alu_shift < 32 ? op << s->alu_shift : SIM_S32_BOUND;
	if (!s->alu_bypass)
		t = s->algo == ALU_MAX || s->algo == ALU_MIN ?
		    (t > op ? t : op) : t + op;
	ok = op < SIM_S32_BOUND && t < SIM_S32_BOUND &&
	     sim_fits32(t * mul, s->mul_shift);
	*max = ok ? (t * mul >> s->mul_shift) + 1 : SIM_S32_BOUND;
	if (ok && !s->mul_bypass && s->prelu && t > *max)
		*max = t;	/* PReLU passes non-negative sums */
	return ok;
}

void sim_sdp_narrow(struct sdp_params *p)
{
	u64 max = p->conv ? SIM_S32_BOUND : (u64)1 << (p->in_bpe * 8 - 1);
	u64 off = p->cvt_offset < 0 ? -(s64)p->cvt_offset : p->cvt_offset;
	u64 scale = p->cvt_scale < 0 ? -p->cvt_scale : p->cvt_scale;

	p->narrow_x[0] = !p->conv && sdp_x_narrow(&p->x[0], &max);
	p->narrow_x[1] = p->narrow_x[0] && sdp_x_narrow(&p->x[1], &max);
	p->narrow_cvt = p->narrow_x[1] && p->y.bypass &&
			max + off < SIM_S32_BOUND &&
			sim_fits32((max + off) * scale, p->cvt_shift);
}

/*
 * NVIDIA's C model stops on one-byte BN or EW operands (their read engines
 * on, used or not) to an offline layer with neither input nor processing
 * in int8.
 */
static bool sdp_operand_sizes_ok(struct nvdla_sim *sim,
				 const struct sdp_params *p)
{
	u32 n = sim_reg(sim, NVDLA_UNIT_SDP_RDMA, NVDLA_SDP_RDMA_D_NRDMA_CFG);
	u32 e = sim_reg(sim, NVDLA_UNIT_SDP_RDMA, NVDLA_SDP_RDMA_D_ERDMA_CFG);

	if (p->conv || p->in_prec == NVDLA_SDP_INT8 ||
	    p->proc == NVDLA_SDP_INT8)
		return true;
	return (RDMA_FIELD(n, DISABLE) || RDMA_FIELD(n, DATA_SIZE)) &&
	       (RDMA_FIELD(e, DISABLE) || RDMA_FIELD(e, DATA_SIZE));
}

/*
 * The precisions (nvdla/sdp_precision.h), false for a combination the
 * hardware does not run, or SDP_RDMA, when it runs, processing in
 * another precision than the SDP. The model also refuses what it has not
 * been checked on: a conversion into the PDP, and int8 processing into
 * int16 after a batch or Winograd convolution (the C model stops there).
 */
static bool sdp_precisions(struct nvdla_sim *sim, struct sdp_params *p,
			   const struct sim_conv *conv, bool rdma)
{
	u32 rdma_proc = SIM_FIELD(sim, SDP_RDMA, D_FEATURE_MODE_CFG,
				  PROC_PRECISION);

	p->in_prec = SIM_FIELD(sim, SDP_RDMA, D_FEATURE_MODE_CFG, IN_PRECISION);
	p->proc = SIM_FIELD(sim, SDP, D_DATA_FORMAT, PROC_PRECISION);
	p->out_prec = SIM_FIELD(sim, SDP, D_DATA_FORMAT, OUT_PRECISION);
	if (conv)	/* int32 or fp32 from CACC */
		p->in_prec = conv->fp16 ? NVDLA_SDP_FP16 :
			     conv->bpe == 1 ? NVDLA_SDP_INT8 : NVDLA_SDP_INT16;
	if (!nvdla_sdp_conversion_ok(p->in_prec, p->proc, p->out_prec) ||
	    (conv && p->in_prec != p->proc) || (rdma && rdma_proc != p->proc))
		return false;
	p->fp16 = p->proc == NVDLA_SDP_FP16;
	p->fp16_to_int16 = p->fp16 && p->out_prec == NVDLA_SDP_INT16;
	p->out_fp16 = !p->fp16 && p->out_prec == NVDLA_SDP_FP16;
	p->in_bpe = p->in_prec == NVDLA_SDP_INT8 ? 1 : 2;
	p->out_bpe = p->out_prec == NVDLA_SDP_INT8 ? 1 : 2;
	p->out_bits = p->out_fp16 ? 17 : p->out_bpe * 8;
	p->atom = sim->config->atom;
	p->lanes = p->proc == NVDLA_SDP_INT8 ? p->atom : p->atom / 2;
	p->in_pairs = !conv && p->lanes * p->in_bpe > p->atom;
	p->out_pairs = p->lanes * p->out_bpe > p->atom;
	if (p->to_pdp && (p->in_prec != p->proc ||
			  (p->out_prec != p->proc && !p->fp16_to_int16)))
		return false;
	return !(p->out_pairs && conv && (conv->batches > 1 || conv->winograd));
}

/*
 * What the layer asks of the SDP's DMA engines (nvdla/sdp_layout.h): the
 * input from memory, the operand engines that are on when SDP_RDMA runs
 * (@rdma; ERDMA only where the SDP has Y, the nv_small RTL ties it off),
 * the output to memory unless in batches or not written (EQL). Returns
 * whether NVIDIA's C models run it, or the host allows it (the engines
 * then move a 1x1 cube packed, as the RTL).
 */
static bool sdp_layout(struct nvdla_sim *sim, const struct sdp_params *p,
		       bool rdma, struct nvdla_sdp_layout *l)
{
	struct nvdla_cbuf_verdict v;
	u32 cfg;
	int i;

	*l = (struct nvdla_sdp_layout){
		.atom = p->atom, .proc = p->proc, .width = p->w,
		.height = p->h,
	};
	l->on[NVDLA_SDP_STREAM_IN] = !p->conv;
	l->surf[NVDLA_SDP_STREAM_IN] =
		SIM_STRIDE(sim, SDP_RDMA, D_SRC_SURFACE_STRIDE);
	for (i = 0; i < 3; i++) {
		cfg = sim_reg(sim, NVDLA_UNIT_SDP_RDMA, sdp_operand_regs[i].cfg);
		l->on[NVDLA_SDP_STREAM_BS + i] =
			rdma && !RDMA_FIELD(cfg, DISABLE) &&
			(i < 2 || sim->config->sdp_y);
		l->elem[NVDLA_SDP_STREAM_BS + i] = sdp_operand_elem(cfg);
		l->surf[NVDLA_SDP_STREAM_BS + i] =
			sim_reg(sim, NVDLA_UNIT_SDP_RDMA,
				sdp_operand_regs[i].surf) &
			sim->config->addr_low_mask;
	}
	l->on[NVDLA_SDP_STREAM_OUT] = !p->to_pdp && p->write &&
				      p->batches == 1;
	l->surf[NVDLA_SDP_STREAM_OUT] =
		SIM_STRIDE(sim, SDP, D_DST_SURFACE_STRIDE);
	return nvdla_sdp_layout_check(l, &v) || sim_hazard(sim, &v, false);
}

/*
 * Read the registers and map the memory; false for a combination the model
 * does not run (sdp_precisions; 8-bit operands with fp16; sdp_layout) or
 * memory the host does not map. The stage registers are already in @p.
 */
static bool sdp_params(struct nvdla_sim *sim, struct sdp_params *p,
		       const struct sim_conv *conv)
{
	u32 c = SIM_FIELD(sim, SDP, D_DATA_CUBE_CHANNEL, CHANNEL) + 1;
	bool rdma = !conv || sdp_x_reads(&p->x[0]) || sdp_x_reads(&p->x[1]) ||
		    sdp_y_reads(&p->y);
	struct nvdla_sdp_layout l;
	int i;

	p->conv = conv;
	p->to_pdp = SIM_FIELD(sim, SDP, D_FEATURE_MODE_CFG, OUTPUT_DST);
	if (!sdp_precisions(sim, p, conv, rdma) ||
	    !sdp_operand_sizes_ok(sim, p))
		return false;
	p->batches = SIM_FIELD(sim, SDP, D_FEATURE_MODE_CFG, BATCH_NUMBER) + 1;
	if (p->batches != (conv ? conv->batches : 1) ||
	    (p->batches > 1 && SIM_FIELD(sim, SDP, D_FEATURE_MODE_CFG,
					 OUTPUT_DST)))
		return false;	/* batches come only from the convolution */
	p->run = sim_sdp_vector(p);
	if (!p->run)
		p->run = p->fp16 ? sim_sdp_fp16_run : sdp_run_plain;
	p->nan_to_zero = SIM_FIELD(sim, SDP, D_FEATURE_MODE_CFG, NAN_TO_ZERO);
	p->c = c;
	p->surfaces = (c + p->lanes - 1) / p->lanes;
	p->w = SIM_FIELD(sim, SDP, D_DATA_CUBE_WIDTH, WIDTH) + 1;
	p->h = SIM_FIELD(sim, SDP, D_DATA_CUBE_HEIGHT, HEIGHT) + 1;
	p->sim = sim;
	p->elem_work = conv ? (u64)conv->r * conv->s * conv->c : 1;
	if (!sim_work_ok(sim, (u64)p->batches * p->surfaces * p->lanes *
			 p->w * p->h * p->elem_work))
		return false;

	sdp_lut_params(sim, &p->y.lut);
	p->lut = &sim->sdp_lut;
	p->cvt_offset = SIM_REG(sim, SDP, D_CVT_OFFSET);
	p->cvt_scale = SIM_FIELD(sim, SDP, D_CVT_SCALE, CVT_SCALE);
	p->cvt_shift = SIM_FIELD(sim, SDP, D_CVT_SHIFT, CVT_SHIFT);
	p->write = p->y.bypass || p->y.alu_bypass || p->y.algo != ALU_EQL;
	if (!sdp_layout(sim, p, rdma, &l))
		return false;

	for (i = 0; i < 2; i++)
		if (!sdp_operand(sim, p, &l, i, sdp_x_reads(&p->x[i]),
				 &p->x[i].op))
			return false;
	if (!sdp_operand(sim, p, &l, 2, sdp_y_reads(&p->y), &p->y.op) ||
	    (p->fp16 && !sim_sdp_fp16_supported(p)))
		return false;
	sim_sdp_narrow(p);

	p->in_line = SIM_STRIDE(sim, SDP_RDMA, D_SRC_LINE_STRIDE);
	p->in_surf = nvdla_sdp_packed(&l) ? p->atom :
		     l.surf[NVDLA_SDP_STREAM_IN];
	p->out_line = SIM_STRIDE(sim, SDP, D_DST_LINE_STRIDE);
	/* Batches of a 1x1 cube are written surface by surface. */
	p->out_surf = nvdla_sdp_packed(&l) && p->batches == 1 ? p->atom :
		      l.surf[NVDLA_SDP_STREAM_OUT];
	p->in = conv ? NULL :
		SIM_MAP(sim, SDP_RDMA, D_SRC_DMA_CFG, SRC_RAM_TYPE,
			SIM_ADDR(sim, SDP_RDMA, D_SRC_BASE_ADDR_LOW,
				 D_SRC_BASE_ADDR_HIGH),
			cube_extent(p, p->in_bpe, p->in_line, p->in_surf));
	/* Nothing is written when streaming to the PDP or comparing (EQL). */
	p->out_batch = SIM_STRIDE(sim, SDP, D_DST_BATCH_STRIDE);
	p->out = p->to_pdp || !p->write ? NULL :
		 SIM_MAP_OUT(sim, SDP, D_DST_DMA_CFG, DST_RAM_TYPE,
			     SIM_ADDR(sim, SDP, D_DST_BASE_ADDR_LOW,
				      D_DST_BASE_ADDR_HIGH),
			     (u64)(p->batches - 1) * p->out_batch +
			     cube_extent(p, p->out_bpe, p->out_line,
					 p->out_surf));
	return (conv || p->in) && (p->out || p->to_pdp || !p->write);
}

/* Count from now on (@n) or not (NULL: a pass that repeats elements). */
static void sdp_count_attach(struct sdp_params *p, struct sim_conv *cv,
			     struct sdp_count *n)
{
	p->lut_count = n && n->lut_on ? &n->lut : NULL;
	p->sat_count = n && n->sat_on ? &n->sat : NULL;
	if (cv)
		cv->sat_count = n && n->cacc_on ? &n->cacc_sat : NULL;
}

/* The layer's counters, cleared; the ones it has enabled take counts. */
static void sdp_count_start(struct nvdla_sim *sim, struct sdp_params *p,
			    struct sim_conv *cv, struct sdp_count *n)
{
	memset(n, 0, sizeof(*n));
	n->lut_on = SIM_FIELD(sim, SDP, D_PERF_ENABLE, PERF_LUT_EN) &&
		    !p->y.bypass && !p->y.lut_bypass;
	n->sat_on = SIM_FIELD(sim, SDP, D_PERF_ENABLE, PERF_SAT_EN);
	n->cacc_on = cv && !cv->fp16;
	sdp_count_attach(p, cv, n);
}

/*
 * Status registers of the finished group: what was counted, 0 where the
 * counter is off (cleared when the operation was enabled); the WDMA's
 * stall is the estimate's (perf_sdp.c).
 */
static void sdp_count_finish(struct nvdla_sim *sim, const struct sdp_count *n,
			     bool flying)
{
	sim_set_status(sim, NVDLA_UNIT_SDP, NVDLA_SDP_D_PERF_LUT_UFLOW, n->lut.uflow);
	sim_set_status(sim, NVDLA_UNIT_SDP, NVDLA_SDP_D_PERF_LUT_OFLOW, n->lut.oflow);
	sim_set_status(sim, NVDLA_UNIT_SDP, NVDLA_SDP_D_PERF_LUT_HYBRID, n->lut.hybrid);
	sim_set_status(sim, NVDLA_UNIT_SDP, NVDLA_SDP_D_PERF_LUT_LE_HIT, n->lut.le_hit);
	sim_set_status(sim, NVDLA_UNIT_SDP, NVDLA_SDP_D_PERF_LUT_LO_HIT, n->lut.lo_hit);
	sim_set_status(sim, NVDLA_UNIT_SDP, NVDLA_SDP_D_PERF_OUT_SATURATION, n->sat);
	if (flying)	/* fp16 layers count no CACC saturation */
		sim_set_status(sim, NVDLA_UNIT_CACC, NVDLA_CACC_D_OUT_SATURATION,
			       n->cacc_sat);
}

/*
 * An SDP layer runs once SDP and what feeds it are enabled: SDP_RDMA for
 * offline input or memory operands, the convolution units when flying,
 * and the PDP when the output streams into it.
 */
bool sim_sdp_run(struct nvdla_sim *sim)
{
	bool flying, rdma, to_pdp, ok, values;
	struct sim_stream stream;
	u32 pdp_done = 0;
	struct sdp_params p;
	struct sdp_count count;
	struct sim_conv cv;
	u8 group;

	if (!sim_unit_ready(sim, NVDLA_UNIT_SDP))
		return false;
	sdp_stage_params(sim, &p);
	flying = SIM_FIELD(sim, SDP, D_FEATURE_MODE_CFG, FLYING_MODE);
	to_pdp = SIM_FIELD(sim, SDP, D_FEATURE_MODE_CFG, OUTPUT_DST);
	rdma = !flying || sdp_x_reads(&p.x[0]) || sdp_x_reads(&p.x[1]) ||
	       sdp_y_reads(&p.y);
	if ((flying && !sim_conv_ready(sim)) ||
	    (rdma && !sim_unit_ready(sim, NVDLA_UNIT_SDP_RDMA)) ||
	    (to_pdp && !sim_pdp_flying_ready(sim)))
		return false;

	group = sim->units[NVDLA_UNIT_SDP].consumer;
	ok = flying ? sim_conv_params(sim, &cv) && sdp_params(sim, &p, &cv) :
		      sdp_params(sim, &p, NULL);
	if (sim->hung)
		return true;	/* the layer never finishes (cbuf.c) */
	if (ok && flying)
		ok = sim_cdma_nan_status(sim, &cv);
	values = ok && !sim->no_values;
	if (values && flying)
		sim_conv_cache_open(&cv, p.w, p.h);
	if (ok)
		sdp_count_start(sim, &p, flying ? &cv : NULL, &count);
	if (ok && flying)
		sim_perf_conv(sim, &cv);
	if (ok)
		sim_perf_sdp(sim, &p);
	if (to_pdp) {
		/* The PDP reads elements as often as its windows cover them. */
		sdp_count_attach(&p, flying ? &cv : NULL, NULL);
		stream.value = sdp_stream_value;
		stream.ctx = &p;
		pdp_done = sim_pdp_run_flying(sim, ok ? &stream : NULL);
		if (ok)
			sdp_count_attach(&p, flying ? &cv : NULL, &count);
	}
	/* Stores the output, or just counts where it went elsewhere. */
	if (values && (p.out || count.lut_on || count.sat_on || count.cacc_on))
		sdp_compute_batches(&p, flying ? &cv : NULL);
	if (values && (p.fp16 || p.out_fp16))
		sim_sdp_fp16_status(sim, &p);
	if (ok)
		sdp_count_finish(sim, &count, flying);
	else
		sim->faults++;
	if (values && flying)
		sim_conv_cache_close(&cv);
	sim_perf_end(sim);
	if (flying)
		sim_conv_finish(sim);
	sim_unit_finish(sim, NVDLA_UNIT_SDP);
	if (rdma)
		sim_unit_finish(sim, NVDLA_UNIT_SDP_RDMA);
	sim_glb_done(sim, group ? NVDLA_GLB_S_INTR_STATUS_SDP_DONE_STATUS1_MASK :
			   NVDLA_GLB_S_INTR_STATUS_SDP_DONE_STATUS0_MASK);
	if (pdp_done)
		sim_glb_done(sim, pdp_done);
	return true;
}
