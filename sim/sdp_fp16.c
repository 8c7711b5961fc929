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
#include "sdp.h"
#include "sim_math.h"

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

static u32 fp16_stage_x(const struct sdp_x *s, const struct sdp_params *p,
			u32 v, u32 c, u32 x, u32 y)
{
	const struct sdp_run r = { c, 1, x, y };
	s32 mem_alu = 0, mem_mul = 0;

	if (s->bypass)
		return v;
	if (s->op.enabled && (s->alu_mem || s->mul_mem))
		sim_sdp_operands(&s->op, p->lanes, &r, &mem_alu, &mem_mul);
	if (!s->alu_bypass)
		v = fp32_alu(s->algo, v, fp16_operand(p, s->alu_mem ? mem_alu :
						      s->alu_reg));
	if (!s->mul_bypass && !(s->prelu && !(v >> 31)))
		v = sim_fp_mul(v, fp16_operand(p, s->mul_mem ? mem_mul :
					       s->mul_reg), &sim_fp32);
	return s->relu_bypass ? v : sim_fp_relu(v, &sim_fp32);
}

static u32 fp16_stage_y(const struct sdp_y *s, const struct sdp_params *p,
			u32 v, u32 c, u32 x, u32 y)
{
	const struct sdp_run r = { c, 1, x, y };
	s32 mem_alu = 0, mem_mul = 0;

	if (s->bypass)
		return v;
	if (s->op.enabled && (s->alu_mem || s->mul_mem))
		sim_sdp_operands(&s->op, p->lanes, &r, &mem_alu, &mem_mul);
	/* Memory operands are fp16; register operands fp32 bit patterns. */
	if (!s->mul_bypass && !(s->prelu && !(v >> 31)))
		v = sim_fp_mul(v, s->mul_mem ? fp16_operand(p, mem_mul) :
			       (u32)s->mul_reg, &sim_fp32);
	if (!s->alu_bypass)
		v = fp32_alu(s->algo, v, s->alu_mem ? fp16_operand(p, mem_alu) :
			     (u32)s->alu_reg);
	if (!s->lut_bypass)
		v = sim_lut_lookup_fp16(p->lut, &s->lut, v, p->lut_count);
	return v;
}

bool sim_sdp_fp16_supported(const struct sdp_params *p)
{
	/* 16-bit operands only. */
	return (!p->x[0].op.enabled || p->x[0].op.two_byte) &&
	       (!p->x[1].op.enabled || p->x[1].op.two_byte) &&
	       (!p->y.op.enabled || p->y.op.two_byte);
}

u16 sim_sdp_fp16_value(const struct sdp_params *p, u32 c, u32 x, u32 y)
{
	u32 v;
	u16 out;

	if (p->conv) {
		v = sim_conv_fp16_value(p->conv, c, x, y);
	} else {
		const u8 *at = p->in + (c / p->lanes) * p->in_surf +
			       y * p->in_line + (x * p->lanes + c % p->lanes) * 2;

		v = sim_fp16_to_fp32(at[0] | at[1] << 8);
	}
	if (p->nan_to_zero && sim_fp_is_nan(v, &sim_fp32))
		v = 0;
	v = fp16_stage_x(&p->x[0], p, v, c, x, y);
	v = fp16_stage_x(&p->x[1], p, v, c, x, y);
	v = fp16_stage_y(&p->y, p, v, c, x, y);
	if (p->fp16_to_int16)
		return sim_fp16_to_int16(sim_fp32_to_fp16(v));
	out = sim_fp32_to_fp16(v);
	/* An fp16 output saturates to the largest finite magnitude. */
	if (p->sat_count && (out & 0x7fff) == SIM_FP16_MAX)
		sim_count_add(p->sat_count, 1);
	return out;
}

void sim_sdp_fp16_status(struct nvdla_sim *sim, const struct sdp_params *p)
{
	struct sim_fp16_count n;

	if (p->in && SIM_FIELD(sim, SDP_RDMA, D_PERF_ENABLE,
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
