// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The SDP's fp16 pipeline: the input (fp16 from memory, or the CACC's
 * fp32) is processed in fp32 with NVDLA's float arithmetic (fp.h). X1/X2:
 * ALU (SUM, MAX, MIN) with an fp16 operand, MUL by an fp16 operand or
 * PReLU, ReLU; shifts are ignored. Y: MUL then ALU with fp16 memory
 * operands or fp32 register operands, then the LUT (lut_fp16.c). The output converter rounds to
 * fp16, then for an int16 output to an integer (half away from zero,
 * saturated, NaN as -32768). NaN_TO_ZERO turns NaN inputs and operands into +0. With their
 * PERF_NAN_INF_COUNT_EN, SDP_RDMA counts NaN and infinite inputs read from
 * memory and the SDP the NaN outputs it writes.
 */
#include "fp.h"
#include "sdp_run.h"

static u32 fp16_operand(const struct sdp_params *p, s32 v)
{
	u16 h = v;

	if (p->nan_to_zero && sim_fp_is_nan(h, &sim_fp16))
		h = 0;
	return sim_fp16_to_fp32(h);
}

static u32 fp32_alu(u32 algo, u32 a, u32 b)
{
	switch (algo) {
	case ALU_SUM:
		return sim_fp_add(a, b, &sim_fp32);
	case ALU_MAX:
		return sim_fp_cmp(a, b, true, &sim_fp32);
	case ALU_MIN:
		return sim_fp_cmp(a, b, false, &sim_fp32);
	default:	/* EQL: 0 when equal, else 1 */
		return a != b;
	}
}

/* fp16 operands (@mem) as fp32, or the register operand @reg as fp32. */
static void fp16_operands(const struct sdp_params *p, const s32 *raw,
			  bool mem, u32 reg, u32 n, u32 *op)
{
	u32 i;

	for (i = 0; i < n; i++)
		op[i] = mem ? fp16_operand(p, raw[i]) : reg;
}

static void fp16_stage_x(const struct sdp_x *s, const struct sdp_params *p,
			 const struct sdp_run *r, u32 *v)
{
	s32 alu[SDP_RUN_MAX], mul[SDP_RUN_MAX];
	u32 a[SDP_RUN_MAX], m[SDP_RUN_MAX], i;

	if (s->bypass)
		return;
	sdp_run_operands(p, &s->op, s->alu_mem, s->alu_reg, s->mul_mem,
			 s->mul_reg, r, alu, mul);
	/* Register operands are fp16 too, shifts are ignored. */
	fp16_operands(p, alu, s->alu_mem, fp16_operand(p, s->alu_reg), r->n, a);
	fp16_operands(p, mul, s->mul_mem, fp16_operand(p, s->mul_reg), r->n, m);
	for (i = 0; i < r->n; i++) {
		if (!s->alu_bypass)
			v[i] = fp32_alu(s->algo, v[i], a[i]);
		if (!s->mul_bypass && !(s->prelu && !(v[i] >> 31)))
			v[i] = sim_fp_mul(v[i], m[i], &sim_fp32);
		if (!s->relu_bypass)
			v[i] = sim_fp_relu(v[i], &sim_fp32);
	}
}

static void fp16_stage_y(const struct sdp_y *s, const struct sdp_params *p,
			 const struct sdp_run *r, u32 *v)
{
	s32 alu[SDP_RUN_MAX], mul[SDP_RUN_MAX];
	u32 a[SDP_RUN_MAX], m[SDP_RUN_MAX], i;

	if (s->bypass)
		return;
	sdp_run_operands(p, &s->op, s->alu_mem, s->alu_reg, s->mul_mem,
			 s->mul_reg, r, alu, mul);
	/* Memory operands are fp16; register operands fp32 bit patterns. */
	fp16_operands(p, alu, s->alu_mem, s->alu_reg, r->n, a);
	fp16_operands(p, mul, s->mul_mem, s->mul_reg, r->n, m);
	for (i = 0; i < r->n; i++) {
		if (!s->mul_bypass && !(s->prelu && !(v[i] >> 31)))
			v[i] = sim_fp_mul(v[i], m[i], &sim_fp32);
		if (!s->alu_bypass)
			v[i] = fp32_alu(s->algo, v[i], a[i]);
		if (!s->lut_bypass)
			v[i] = sim_lut_lookup_fp16(p->lut, &s->lut, v[i],
						   p->lut_count);
	}
}

bool sim_sdp_fp16_supported(const struct sdp_params *p)
{
	/* 16-bit operands only. */
	return (!p->x[0].op.enabled || p->x[0].op.two_byte) &&
	       (!p->x[1].op.enabled || p->x[1].op.two_byte) &&
	       (!p->y.op.enabled || p->y.op.two_byte);
}

void sim_sdp_fp16_input(const struct sdp_params *p, const struct sdp_run *r,
			u32 *v)
{
	u32 i, lane = r->c % p->lanes, x = r->x;
	const u8 *at;

	if (!p->conv) {
		at = sdp_run_in(p, r);
		for (i = 0; i < r->n; i++)
			v[i] = sim_fp16_to_fp32(at[2 * i] | at[2 * i + 1] << 8);
		return;
	}
	for (i = 0; i < r->n; i++) {
		v[i] = sim_conv_fp16_value(p->conv, r->c - r->c % p->lanes + lane,
					   x, r->y);
		if (++lane == p->lanes) {
			lane = 0;
			x++;
		}
	}
}

void sim_sdp_fp16_run(const struct sdp_params *p, const struct sdp_run *r,
		      s32 *out, u8 *dst)
{
	u32 v[SDP_RUN_MAX], i, sat = 0;

	sim_sdp_fp16_input(p, r, v);
	for (i = 0; p->nan_to_zero && i < r->n; i++)
		if (sim_fp_is_nan(v[i], &sim_fp32))
			v[i] = 0;
	fp16_stage_x(&p->x[0], p, r, v);
	fp16_stage_x(&p->x[1], p, r, v);
	fp16_stage_y(&p->y, p, r, v);
	for (i = 0; i < r->n; i++) {
		if (p->fp16_to_int16) {
			out[i] = (u16)sim_fp16_to_int16(sim_fp32_to_fp16(v[i]));
			continue;
		}
		out[i] = sim_fp32_to_fp16(v[i]);
		/* An fp16 output saturates to the largest finite magnitude. */
		sat += (out[i] & 0x7fff) == SIM_FP16_MAX;
	}
	if (p->sat_count)
		sim_count_add(p->sat_count, sat);
	sdp_run_store(dst, out, r->n, p->out_bpe);
}

void sim_sdp_fp16_status(struct nvdla_sim *sim, const struct sdp_params *p)
{
	struct sim_fp16_count n;

	if (p->in && p->fp16 && SIM_FIELD(sim, SDP_RDMA, D_PERF_ENABLE,
			       PERF_NAN_INF_COUNT_EN)) {
		n = sim_fp16_cube_count(p->in, p->surfaces, p->h, p->w,
					p->in_line, p->in_surf, p->atom);
		sim_set_status(sim, NVDLA_UNIT_SDP_RDMA,
			       NVDLA_SDP_RDMA_D_STATUS_NAN_INPUT_NUM, n.nan);
		sim_set_status(sim, NVDLA_UNIT_SDP_RDMA,
			       NVDLA_SDP_RDMA_D_STATUS_INF_INPUT_NUM, n.inf);
	}
	if (p->out && !p->fp16_to_int16 &&
	    SIM_FIELD(sim, SDP, D_PERF_ENABLE, PERF_NAN_INF_COUNT_EN)) {
		n = sim_fp16_cube_count(p->out, p->surfaces, p->h, p->w,
					p->out_line, p->out_surf, p->atom);
		sim_set_status(sim, NVDLA_UNIT_SDP,
			       NVDLA_SDP_D_STATUS_NAN_OUTPUT_NUM, n.nan);
	}
}
