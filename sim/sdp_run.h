/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The SDP's integer pipeline on a run of lanes of one atom, a stage at a
 * time over the whole run: sdp.c compiles it for every host, sim/user/
 * once more for a vector unit. Each stage first gathers its operands,
 * from memory or registers, into arrays, so that its arithmetic is one
 * branch-free loop per setting, which compilers vectorise; the settings
 * are copied to locals, which the stores to the values cannot alias.
 */
#ifndef __NVDLA_SIM_SDP_RUN_H__
#define __NVDLA_SIM_SDP_RUN_H__

#include "fp.h"
#include "sdp.h"
#include "sim_math.h"

/* The ALU and MUL operands of a stage reading @o. */
static inline void sdp_run_operands(const struct sdp_params *p,
				    const struct sdp_operand *o,
				    bool alu_mem, s32 alu_reg, bool mul_mem,
				    s32 mul_reg, const struct sdp_run *r,
				    s32 *alu, s32 *mul)
{
	const u32 n = r->n;
	u32 i;

	for (i = 0; i < n; i++) {
		alu[i] = alu_mem ? 0 : alu_reg;
		mul[i] = mul_mem ? 0 : mul_reg;
	}
	if ((alu_mem || mul_mem) && o->enabled) {
		s32 a[SDP_RUN_MAX] = { 0 }, m[SDP_RUN_MAX] = { 0 };

		sim_sdp_operands(o, p->lanes, r, a, m);
		for (i = 0; i < n; i++) {
			alu[i] = alu_mem ? a[i] : alu[i];
			mul[i] = mul_mem ? m[i] : mul[i];
		}
	}
}

/* @t = @v op @op, per element, for ALU_MAX, ALU_MIN or ALU_SUM. */
static inline void sdp_run_alu(u32 algo, const s32 *v, const s64 *op, u32 n,
			       s64 *t)
{
	u32 i;

	if (algo == ALU_MAX)
		for (i = 0; i < n; i++)
			t[i] = v[i] > op[i] ? v[i] : op[i];
	else if (algo == ALU_MIN)
		for (i = 0; i < n; i++)
			t[i] = v[i] < op[i] ? v[i] : op[i];
	else
		for (i = 0; i < n; i++)
			t[i] = (s64)v[i] + op[i];
}

/* sdp_run_alu in 32 bits (no sum overflows), in place on @v. */
static inline void sdp_run_alu32(u32 algo, s32 *v, const s32 *op, u32 n)
{
	u32 i;

	if (algo == ALU_MAX)
		for (i = 0; i < n; i++)
			v[i] = v[i] > op[i] ? v[i] : op[i];
	else if (algo == ALU_MIN)
		for (i = 0; i < n; i++)
			v[i] = v[i] < op[i] ? v[i] : op[i];
	else
		for (i = 0; i < n; i++)
			v[i] += op[i];
}

/*
 * sdp_stage_x's arithmetic in 32 bits, where the inputs' and operands'
 * ranges (sdp_narrow) leave no sum, product or rounding beyond them: the
 * operand's shift saturates nothing, the product needs no clip.
 */
static inline void sdp_stage_x32(const struct sdp_x *s, const s32 *alu,
				 const s32 *mul, u32 n, s32 *v)
{
	const u32 mshift = s->mul_shift, ashift = s->alu_shift;
	const bool keep = !s->mul_bypass && s->prelu;
	const s32 low = s->relu_bypass ? S32_MIN : 0;
	s32 op[SDP_RUN_MAX], m;
	u32 i;

	for (i = 0; i < n; i++)
		op[i] = (s32)((u32)alu[i] << ashift);
	if (!s->alu_bypass)
		sdp_run_alu32(s->algo == ALU_EQL ? ALU_SUM : s->algo, v, op, n);
	for (i = 0; i < n; i++) {
		m = sim_rha_shift32(v[i] * mul[i], mshift);
		m = (keep & (v[i] >= 0)) ? v[i] : m;	/* no branch on data */
		v[i] = m < low ? low : m;
	}
}

/*
 * X: the ALU (EQL is not an X operation: SUM) on a 33-bit sum, its
 * operand shifted left with saturation; the MUL, where PReLU passes a
 * non-negative sum's low 32 bits, else (sum * operand) >> shift, rounded,
 * clipped to 32 bits, the shift applying also with the multiplier
 * bypassed (a shift of 49 or more leaves 0); then ReLU.
 */
static inline void sdp_stage_x(const struct sdp_x *s, bool narrow,
			       const struct sdp_params *p,
			       const struct sdp_run *r, s32 *v)
{
	const u32 n = r->n, ashift = s->alu_shift, mshift = s->mul_shift;
	const bool keep = !s->mul_bypass && s->prelu;
	const s64 low = s->relu_bypass ? S32_MIN : 0;
	s32 alu[SDP_RUN_MAX], mul[SDP_RUN_MAX];
	s64 t[SDP_RUN_MAX], op[SDP_RUN_MAX], m;
	u32 i;

	if (s->bypass)
		return;
	sdp_run_operands(p, &s->op, s->alu_mem, (s16)s->alu_reg,
			 s->mul_mem && !s->mul_bypass,
			 s->mul_bypass ? 1 : (s16)s->mul_reg, r, alu, mul);
	if (narrow) {
		sdp_stage_x32(s, alu, mul, n, v);
		return;
	}
	for (i = 0; i < n; i++)
		op[i] = sim_shl_sat(alu[i], ashift, 32);
	if (s->alu_bypass)
		for (i = 0; i < n; i++)
			t[i] = v[i];
	else
		sdp_run_alu(s->algo == ALU_EQL ? ALU_SUM : s->algo, v, op, n, t);
	for (i = 0; i < n; i++) {
		m = mshift >= 49 ? 0 :
		    sim_sat(sim_rha_shift(t[i] * mul[i], mshift), 32);
		m = keep && t[i] >= 0 ? (s32)t[i] : m;
		v[i] = m < low ? low : m;
	}
}

/* An EW memory operand through its converter (unless @bypass). */
static inline void sdp_ew_cvt(s32 *op, u32 n, bool bypass, s32 offset,
			      s16 scale, u32 shift)
{
	u32 i;

	for (i = 0; !bypass && i < n; i++)
		op[i] = sim_sat(sim_rha_shift(((s64)op[i] - offset) * scale,
					      shift), 32);
}

/*
 * Y: MUL (PReLU keeps non-negative values), ALU (EQL: 0 where equal,
 * else 1), then the LUT; register operands are 32-bit, memory ones go
 * through their converters.
 */
static inline void sdp_stage_y(const struct sdp_y *s,
			       const struct sdp_params *p,
			       const struct sdp_run *r, s32 *v)
{
	const u32 n = r->n, truncate = s->truncate;
	const bool prelu = s->prelu;
	s32 alu[SDP_RUN_MAX], mul[SDP_RUN_MAX];
	s64 op[SDP_RUN_MAX], t[SDP_RUN_MAX], m;
	u32 i;

	if (s->bypass)
		return;
	sdp_run_operands(p, &s->op, s->alu_mem, s->alu_reg, s->mul_mem,
			 s->mul_reg, r, alu, mul);
	if (s->mul_mem)
		sdp_ew_cvt(mul, n, s->mul_cvt_bypass, s->mul_cvt_offset,
			   s->mul_cvt_scale, s->mul_cvt_shift);
	if (s->alu_mem)
		sdp_ew_cvt(alu, n, s->alu_cvt_bypass, s->alu_cvt_offset,
			   s->alu_cvt_scale, s->alu_cvt_shift);
	for (i = 0; !s->mul_bypass && i < n; i++) {
		m = sim_sat(sim_rha_shift((s64)v[i] * mul[i], truncate), 32);
		v[i] = prelu && v[i] >= 0 ? v[i] : m;
	}
	for (i = 0; i < n; i++)
		op[i] = alu[i];
	if (!s->alu_bypass && s->algo == ALU_EQL) {
		for (i = 0; i < n; i++)
			v[i] = v[i] != op[i];
	} else if (!s->alu_bypass) {
		sdp_run_alu(s->algo, v, op, n, t);
		for (i = 0; i < n; i++)
			v[i] = sim_sat(t[i], 32);
	}
	for (i = 0; !s->lut_bypass && i < n; i++)
		v[i] = sim_lut_lookup(p->lut, &s->lut, v[i], p->lut_count);
}

/* sdp_stage_c64's arithmetic in 32 bits, where sdp_narrow allows it. */
static inline u32 sdp_stage_c32(const struct sdp_params *p, u32 n, s32 *v)
{
	const s32 offset = p->cvt_offset, scale = p->cvt_scale;
	const u32 shift = p->cvt_shift, bits = p->out_bits;
	u32 i, sat = 0;
	s32 m, t;

	for (i = 0; i < n; i++) {
		m = (v[i] - offset) * scale;
		t = sim_sat32(sim_rha_shift32(m, shift), 17);
		sat += sim_shift_saturated32(m, shift, t);
		v[i] = sim_sat32(t, bits);
	}
	return sat;
}

/*
 * The output converter, its clips counted: the saturation counter sees
 * the 17-bit clip, not the output's (sim_shift_saturated).
 */
static inline u32 sdp_stage_c64(const struct sdp_params *p, u32 n, s32 *v)
{
	const s64 offset = p->cvt_offset, scale = p->cvt_scale;
	const u32 shift = p->cvt_shift, bits = p->out_bits;
	u32 i, sat = 0;
	s64 m, t;

	for (i = 0; i < n; i++) {
		m = ((s64)v[i] - offset) * scale;
		t = sim_sat(sim_rha_shift(m, shift), 17);
		sat += sim_shift_saturated(m, shift, t);
		v[i] = sim_sat(t, bits);
	}
	return sat;
}

/*
 * An fp16 output of integer processing: the 17-bit results to the nearest
 * even fp16 (beyond 65504 saturated there); the saturation counter counts
 * outputs of magnitude 65504 instead of clips, as for fp16 processing.
 */
static inline u32 sdp_stage_c_fp16(u32 n, s32 *v)
{
	u32 i, sat = 0;

	for (i = 0; i < n; i++) {
		v[i] = sim_int_to_fp16(v[i]);
		sat += (v[i] & 0x7fff) == SIM_FP16_MAX;
	}
	return sat;
}

static inline void sdp_stage_c(const struct sdp_params *p, u32 n, s32 *v)
{
	u32 sat = p->narrow_cvt ? sdp_stage_c32(p, n, v) :
				  sdp_stage_c64(p, n, v);

	if (p->out_fp16)
		sat = sdp_stage_c_fp16(n, v);

	if (p->sat_count)
		sim_count_add(p->sat_count, sat);
}

/* The inputs of @r: the convolution's outputs, or memory. */
static inline void sdp_run_input(const struct sdp_params *p,
				 const struct sdp_run *r, s32 *v)
{
	const u32 n = r->n;
	const u8 *at;
	u32 i;

	if (p->conv) {	/* an atom at a time: the cache keeps kernels inner */
		for (i = 0; i < n; i += p->lanes)
			sim_conv_values(p->conv, r->c, n - i < p->lanes ?
					n - i : p->lanes, r->x + i / p->lanes,
					r->y, v + i);
		return;
	}
	if (p->in_pairs) {
		for (i = 0; i < n; i++) {
			at = p->in + sdp_pair_offset(p, r, i, p->in_line,
						     p->in_surf);
			v[i] = (s16)(at[0] | at[1] << 8);
		}
		return;
	}
	at = sdp_run_in(p, r);
	if (p->in_bpe == 1)
		for (i = 0; i < n; i++)
			v[i] = (s8)at[i];
	else
		for (i = 0; i < n; i++)
			v[i] = (s16)(at[2 * i] | at[2 * i + 1] << 8);
}

/* The @n elements @v, of @bpe bytes, little endian, at @o unless NULL. */
static inline void sdp_run_store(u8 *restrict o, const s32 *restrict v, u32 n,
				 u32 bpe)
{
	u32 i;

	if (!o)
		return;
	if (bpe == 1) {
		for (i = 0; i < n; i++)
			o[i] = v[i];
		return;
	}
	for (i = 0; i < n; i++) {
		o[2 * i] = v[i];
		o[2 * i + 1] = v[i] >> 8;
	}
}

/* The output elements of @r through the integer pipeline (sdp_run_fn). */
static inline void sdp_run_int(const struct sdp_params *p,
			       const struct sdp_run *r, s32 *v, u8 *out)
{
	sdp_run_input(p, r, v);
	sdp_stage_x(&p->x[0], p->narrow_x[0], p, r, v);
	sdp_stage_x(&p->x[1], p->narrow_x[1], p, r, v);
	sdp_stage_y(&p->y, p, r, v);
	sdp_stage_c(p, r->n, v);
	sdp_run_store(out, v, r->n, p->out_bpe);
}

#endif /* __NVDLA_SIM_SDP_RUN_H__ */
