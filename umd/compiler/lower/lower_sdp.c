// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The SDP, after a convolution or alone. Its stages, in the order the
 * hardware runs them, and what the back end uses them for:
 *   X1  bias and (int8) the per-channel rescale of the accumulator into
 *       an intermediate scale s_c, or the input's rescale; ReLU
 *   X2  the element-wise operand read from memory (sum, product, max),
 *       ReLU after it, or an affine's per-channel shift
 *   Y   other activations: Clip's upper bound, (P)ReLU slopes, the LUT
 *       (on a target without Y, nv_small's: X2 where it is free, Clip's
 *       upper bound else the output converter's saturation where the
 *       output's scale puts it at 127; the LUT activations are refused
 *       there)
 *   out (int8) s_c to the output's scale: one rounding at the end.
 * int8 element-wise sums bring the second operand to s_c with an exact
 * power-of-two shift and the first with the X1 multiplier, so both
 * inputs keep their own scales (the official compiler adds raw codes).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lower_internal.h"


/* Intermediate scale below the output's: 8 more bits before rounding. */
#define NVC_SC_BITS 8

void nvc_sdp_init(struct nvc_lower *L, struct nvdla_build_op *op)
{
	struct dla_sdp_op_desc *p = &op->op.sdp_op;

	p->src_precision = L->prec;
	p->dst_precision = L->prec;
	p->lut_index = -1;
	p->batch_num = 1;
	p->out_cvt = (struct dla_cvt_param){ .scale = 1, .enable = 1 };
	if (L->prec == DLA_PRECISION_FP16)
		p->out_cvt.enable = 0;
}

static uint32_t sdp_operands(struct nvc_lower *L, const int16_t *alu,
			     const int16_t *mul, int c,
			     struct dla_data_cube *cube);

/* @what needs the Y stage, which the target has not. */
static int sdp_no_y(struct nvc_lower *L, const struct nvc_node *n,
		    const char *what)
{
	return nvc_fail(L, n, -EOPNOTSUPP,
			"%s needs the SDP's Y stage, which %s has not (its hardware would pass the values through)",
			what, L->t.hw->name);
}

/*
 * The stage of an activation Y computes: Y, or on a target without it
 * X2 when the X stages before left it free (@x is X1); NULL if neither.
 */
static struct dla_sdp_op *sdp_y_stage(const struct nvc_lower *L,
				      struct dla_sdp_op_desc *p,
				      const struct dla_sdp_op *x)
{
	if (L->t.hw->sdp_y)
		return &p->y_op;
	return x == &p->x1_op && !p->x2_op.enable ? &p->x2_op : NULL;
}

/*
 * PReLU: the slope of each channel multiplies its negative values, in X2
 * when the X stages before left it free (@x is X1), else in Y.
 */
static int sdp_prelu(struct nvc_lower *L, const struct nvc_node *n,
		     struct nvdla_build_op *op, const struct dla_sdp_op *x,
		     const struct nvc_activation *act)
{
	struct dla_sdp_op_desc *p = &op->op.sdp_op;
	bool fp = L->prec == DLA_PRECISION_FP16, use_x2 = x == &p->x1_op;
	const struct nvc_tensor *st = &L->g->tensors[act->slope];
	int c = L->g->tensors[n->outputs[0]].c, k, t;
	struct dla_sdp_op *stage = use_x2 ? &p->x2_op : &p->y_op;
	struct dla_data_cube *cube = use_x2 ? &op->surf.sdp_surface.x2_data :
				     &op->surf.sdp_surface.y_data;
	int16_t *m;
	double top = 0;

	if (!use_x2 && !L->t.hw->sdp_y)
		return sdp_no_y(L, n, "PReLU after an element-wise operation");
	if (!st->data || st->n * st->c * st->h * st->w != c)
		return nvc_fail(L, n, -EINVAL, "PReLU slope of %d values for %d channels",
				st->n * st->c * st->h * st->w, c);
	m = calloc(c, sizeof(*m));
	if (!m)
		return -ENOMEM;
	for (k = 0; k < c; k++)
		top = fmax(top, fabs(st->data[k]));
	t = 14 - (int)floor(log2(top > 0 ? top : 1));
	t = t < 0 ? 0 : t > 31 ? 31 : t;
	for (k = 0; k < c; k++)
		m[k] = fp ? (int16_t)nvc_half(st->data[k]) :
		       (int16_t)lrint(fmax(fmin(ldexp(st->data[k], t), 32767),
					   -32767));
	*stage = (struct dla_sdp_op){ .enable = 1, .type = SDP_TYPE_MUL,
		.mode = SDP_MODE_PER_KERNEL, .act = SDP_ACT_PRELU,
		.precision = fp ? DLA_PRECISION_FP16 : DLA_PRECISION_INT16,
		.truncate = fp ? 0 : (uint8_t)t };
	k = sdp_operands(L, NULL, m, c, cube) == UINT32_MAX ? -ENOMEM : 0;
	free(m);
	return k;
}

void nvc_sdp_prelu_channels(struct nvdla_build_op *op, int c0, int n)
{
	struct dla_sdp_op_desc *p = &op->op.sdp_op;
	struct dla_data_cube *cube = NULL;
	uint32_t skip = (uint32_t)c0 * sizeof(int16_t);

	if (p->x2_op.act == SDP_ACT_PRELU &&
	    p->x2_op.mode == SDP_MODE_PER_KERNEL)
		cube = &op->surf.sdp_surface.x2_data;
	else if (p->y_op.act == SDP_ACT_PRELU &&
		 p->y_op.mode == SDP_MODE_PER_KERNEL)
		cube = &op->surf.sdp_surface.y_data;
	if (!cube)
		return;
	cube->offset += skip;
	cube->size -= skip;
	cube->channel = (uint16_t)n;
}

/*
 * X2 (@x2) as a bound of Clip: the maximum (@type SDP_ALU_MAX) or
 * minimum with @bound, a 16-bit operand shifted; the values are at scale
 * @s_c (int8).
 */
static void sdp_clip_x2(const struct nvc_lower *L, struct dla_sdp_op *x2,
			uint8_t type, float bound, float s_c)
{
	bool fp = L->prec == DLA_PRECISION_FP16;
	double v = bound / s_c;
	int sh = fp ? 0 : nvc_shift_for(v, 16);

	*x2 = (struct dla_sdp_op){ .enable = 1, .type = SDP_TYPE_ADD,
		.alu_type = type, .mode = SDP_MODE_PER_LAYER,
		.precision = fp ? DLA_PRECISION_FP16 : DLA_PRECISION_INT16,
		.shift_value = (uint8_t)sh,
		.alu_operand = fp ? nvc_half(bound) :
			       (int32_t)lrint(ldexp(v, -sh)) };
}

/*
 * Clip's lower bound @lo (not 0): a maximum with it in X2, which must be
 * free (@x is X1).
 */
static int sdp_clip_min(struct nvc_lower *L, const struct nvc_node *n,
			struct nvdla_build_op *op, const struct dla_sdp_op *x,
			float lo, float s_c)
{
	struct dla_sdp_op_desc *p = &op->op.sdp_op;

	if (x != &p->x1_op)
		return nvc_fail(L, n, -EOPNOTSUPP,
				"Clip with a lower bound of %g after an element-wise operation or affine",
				lo);
	sdp_clip_x2(L, &p->x2_op, SDP_ALU_MAX, lo, s_c);
	return 0;
}

/*
 * Whether the int8 output converter, saturating at 127 codes of @s_out,
 * computes Clip's upper bound @max on a target without Y: where @max
 * rounds to 127 codes or more, every value above it and @max itself
 * become 127 alike, the bound's own code (rounding keeps the order), as
 * they would clipped first. The output's calibrated range is the clip's
 * at most, so its scale puts the bound there unless something else set
 * it (a concatenation's, a QDQ model's).
 */
static bool sdp_clip_saturates(const struct nvc_lower *L, float max,
			       float s_out)
{
	return L->prec == DLA_PRECISION_INT8 && max / s_out >= 126.5f;
}

/*
 * Activation @act on values at scale @s_c (int8; fp16: real values)
 * after the X stages. ReLU goes into the last X stage in use (@x);
 * others into Y. Returns 0 or a refusal.
 */
static int sdp_act(struct nvc_lower *L, const struct nvc_node *n,
		   struct nvdla_build_op *op, struct dla_sdp_op *x,
		   const struct nvc_activation *act, float s_c, float s_out)
{
	struct dla_sdp_op_desc *p = &op->op.sdp_op;
	struct dla_sdp_op *y;
	bool fp = L->prec == DLA_PRECISION_FP16;
	int16_t m;
	uint8_t sh;
	int lut, ret;

	switch (act->type) {
	case NVC_ACT_NONE:
		return 0;
	case NVC_ACT_RELU:
		x->enable = 1;
		x->act = SDP_ACT_RELU;
		return 0;
	case NVC_ACT_PRELU:
		return sdp_prelu(L, n, op, x, act);
	case NVC_ACT_CLIP:
		if (act->min == 0.0f) {
			x->enable = 1;
			x->act = SDP_ACT_RELU;
		} else if (act->min != -INFINITY) {
			ret = sdp_clip_min(L, n, op, x, act->min, s_c);
			if (ret)
				return ret;
		}
		y = sdp_y_stage(L, p, x);
		if (!y && sdp_clip_saturates(L, act->max, s_out))
			return 0;
		if (!y)
			return nvc_fail(L, n, -EOPNOTSUPP,
					"Clip's upper bound %g at %g codes of the output's scale %g needs the SDP's Y stage, which %s has not (its hardware would pass the values through; only a bound at 127 codes saturates)",
					act->max, act->max / s_out, s_out,
					L->t.hw->name);
		if (y == &p->y_op) {
			*y = (struct dla_sdp_op){ .enable = 1,
				.alu_type = SDP_ALU_MIN, .type = SDP_TYPE_ADD,
				.precision = L->prec,
				.alu_operand = fp ? nvc_f32_bits(act->max) :
					(int32_t)lrintf(act->max / s_c) };
			return 0;
		}
		sdp_clip_x2(L, y, SDP_ALU_MIN, act->max, s_c);
		return 0;
	case NVC_ACT_LEAKY:
		y = sdp_y_stage(L, p, x);
		if (!y)
			return sdp_no_y(L, n, "LeakyRelu after an element-wise operation or affine");
		/* Y's operands are fp32 registers, X's 16 bits. */
		*y = (struct dla_sdp_op){ .enable = 1, .type = SDP_TYPE_MUL,
			.act = SDP_ACT_PRELU, .precision = L->prec };
		if (fp && y == &p->y_op) {
			y->mul_operand = nvc_f32_bits(act->alpha);
		} else if (fp) {
			y->mul_operand = nvc_half(act->alpha);
			y->precision = DLA_PRECISION_FP16;
		} else {
			nvc_fixed(act->alpha, 16, &m, &sh);
			y->mul_operand = m;
			y->truncate = sh;
			if (y != &p->y_op)
				y->precision = DLA_PRECISION_INT16;
		}
		return 0;
	case NVC_ACT_SIGMOID:
	case NVC_ACT_TANH:
		if (!L->t.hw->sdp_y)
			return nvc_fail(L, n, -EOPNOTSUPP,
					"%s (the SDP's LUT) needs the SDP's Y stage, which %s has not; it runs as a CPU task with --cpu-fallback",
					act->type == NVC_ACT_SIGMOID ?
					"Sigmoid" : "Tanh", L->t.hw->name);
		y = &p->y_op;
		lut = nvc_lut_add(L, n, act->type, s_c, s_out);
		if (lut < 0)
			return lut;
		*y = (struct dla_sdp_op){ .enable = 1, .act = SDP_ACT_LUT,
					  .precision = L->prec };
		p->lut_index = (int16_t)lut;
		return 0;
	default:
		return nvc_fail(L, n, -EOPNOTSUPP,
				"activation %d after this operation is not supported",
				act->type);
	}
}

/* Intermediate scale for output scale @s_out and activation @act. */
static float sdp_mid_scale(const struct nvc_activation *act, float s_out)
{
	if (act->type == NVC_ACT_SIGMOID || act->type == NVC_ACT_TANH)
		return 1.0f / 4096;	/* LUT input: +-8 in 16 bits */
	return s_out / (1 << NVC_SC_BITS);
}

/* The output converter: s_c to s_out (LUT outputs are at s_out). */
static void sdp_out_cvt(struct nvc_lower *L, struct dla_sdp_op_desc *p,
			float s_c, float s_out, bool lut)
{
	int16_t m;
	uint8_t sh;

	if (L->prec != DLA_PRECISION_INT8 || lut)
		return;
	nvc_fixed((double)s_c / s_out, 16, &m, &sh);
	p->out_cvt = (struct dla_cvt_param){ .scale = m, .truncate = sh,
					     .enable = 1 };
}

/*
 * X2 with the element-wise operand @other (type @elt) read from memory,
 * given the output scale @s_out (int8): *@s_x1 is the scale the values
 * must reach X2 at, *@s_post theirs after it.
 */
static int sdp_elt_x2(struct nvc_lower *L, const struct nvc_node *n,
		      struct nvdla_build_op *op, const struct nvc_operand *other,
		      enum nvc_eltwise elt, float s_out, float *s_x1,
		      float *s_post)
{
	struct dla_sdp_op *x2 = &op->op.sdp_op.x2_op;
	float s_b = other->scale;
	int a2;

	*x2 = (struct dla_sdp_op){ .enable = 1, .mode = SDP_MODE_PER_POINT,
				   .precision = L->prec };
	op->surf.sdp_surface.x2_data = other->cube;
	if (nvc_per_channel(L->g, n)) {
		/* A C x 1 x 1 cube is its channels' values one after another. */
		if (other->cube.surf_stride != L->t.atom)
			return nvc_fail(L, n, -EOPNOTSUPP,
					"the per-channel operand is not packed (surface stride %u)",
					other->cube.surf_stride);
		x2->mode = SDP_MODE_PER_KERNEL;
	}
	if (elt == NVC_ELT_MUL) {
		/* Codes times codes: the product's scale is s_x1 * s_b. */
		x2->type = SDP_TYPE_MUL;
		*s_post = s_out / (1 << NVC_SC_BITS);
		*s_x1 = *s_post / s_b;
		return 0;
	}
	x2->type = SDP_TYPE_ADD;
	x2->alu_type = elt == NVC_ELT_MAX ? SDP_ALU_MAX : SDP_ALU_SUM;
	if (L->prec != DLA_PRECISION_INT8)
		return 0;
	/* s_b / 2^a2, near s_out / 2^8: the operand shifts exactly. */
	a2 = (int)lrint(log2((double)s_b / s_out)) + NVC_SC_BITS;
	if (a2 < 0 || a2 > 24)
		return nvc_fail(L, n, -ERANGE,
				"operand scales %g and %g too far apart",
				s_b, s_out);
	x2->shift_value = (uint8_t)a2;
	*s_x1 = s_b / (float)(1 << a2);
	*s_post = *s_x1;
	return 0;
}

struct nvc_operand nvc_operand(const struct nvc_lower *L, int tensor)
{
	return (struct nvc_operand){ .cube = nvc_cube(L, tensor),
		.scale = L->ir.ts[nvc_read(L, tensor)].scale };
}

/*
 * Everything after X1: @elt_other (or NULL) through X2, the activation,
 * the output converter. *@s_c is the scale X1 must produce (int8).
 */
int nvc_sdp_tail(struct nvc_lower *L, const struct nvc_node *n,
		 struct nvdla_build_op *op, const struct nvc_operand *elt_other,
		 enum nvc_eltwise elt, const struct nvc_activation *act,
		 float s_out, float *s_c)
{
	struct dla_sdp_op_desc *p = &op->op.sdp_op;
	bool lut = act->type == NVC_ACT_SIGMOID || act->type == NVC_ACT_TANH;
	float s_post;
	int ret;

	*s_c = sdp_mid_scale(act, s_out);
	s_post = *s_c;
	if (elt_other) {
		if (lut && L->prec == DLA_PRECISION_INT8 && L->t.hw->sdp_y)
			return nvc_fail(L, n, -EOPNOTSUPP,
					"a LUT activation after an int8 element-wise operation");
		ret = sdp_elt_x2(L, n, op, elt_other, elt, s_out, s_c, &s_post);
		if (!ret)
			ret = sdp_act(L, n, op, &p->x2_op, act, s_post, s_out);
	} else {
		ret = sdp_act(L, n, op, &p->x1_op, act, s_post, s_out);
	}
	if (!ret)
		sdp_out_cvt(L, p, s_post, s_out, lut);
	return ret;
}

/* Per-channel int16/fp16 operands for X1 or X2, in the constants. */
static uint32_t sdp_operands(struct nvc_lower *L, const int16_t *alu,
			     const int16_t *mul, int c, struct dla_data_cube *cube)
{
	int n = (c + 31) / 32 * 32, per = (alu && mul) ? 2 : 1, i;
	int16_t *v = calloc((size_t)n * per, sizeof(*v));
	uint32_t off;

	if (!v)
		return UINT32_MAX;
	for (i = 0; i < c; i++) {
		if (alu)
			v[i * per] = alu[i];
		if (mul)
			v[i * per + per - 1] = mul[i];
	}
	off = nvc_const_add(L, v, (size_t)n * per * sizeof(*v), 0);
	free(v);
	*cube = nvc_const_cube(off, (uint32_t)(n * per * sizeof(*v)), 1, 1, c);
	/*
	 * The RDMA fetches the operands of each atom of channels a surface
	 * stride apart: here they follow each other, as NVIDIA's compiler
	 * lays them out (the C model and RTL read stride 0 as one atom's
	 * operands for every surface).
	 */
	cube->line_stride = L->epa * per * sizeof(*v);
	cube->surf_stride = cube->line_stride;
	return off;
}

/*
 * X1 per channel: (x + alu[k] << ashift) * mul[k] >> mshift (int8), or
 * x + bias[k] (fp16; @mul NULL). @alu or @mul may be NULL.
 */
int nvc_sdp_x1(struct nvc_lower *L, struct nvdla_build_op *op,
	       const int16_t *alu, const int16_t *mul, int c, uint8_t ashift,
	       uint8_t mshift)
{
	struct dla_sdp_op *x1 = &op->op.sdp_op.x1_op;

	x1->enable = 1;
	if (!alu && !mul)
		return 0;
	x1->type = alu && mul ? SDP_TYPE_BOTH : alu ? SDP_TYPE_ADD : SDP_TYPE_MUL;
	x1->alu_type = SDP_ALU_SUM;
	x1->mode = SDP_MODE_PER_KERNEL;
	x1->precision = L->prec == DLA_PRECISION_FP16 ? DLA_PRECISION_FP16 :
			DLA_PRECISION_INT16;
	x1->shift_value = ashift;
	x1->truncate = mshift;
	if (sdp_operands(L, alu, mul, c, &op->surf.sdp_surface.x1_data) ==
	    UINT32_MAX)
		return -ENOMEM;
	return 0;
}

/*
 * X1 multiplying every value by @v (int8: into the intermediate scale),
 * keeping the ReLU the activation may have put there.
 */
static void sdp_x1_scale(struct dla_sdp_op *x1, double v)
{
	uint8_t act = x1->act;
	int16_t m;
	uint8_t sh;

	nvc_fixed(v, 16, &m, &sh);
	*x1 = (struct dla_sdp_op){ .enable = 1, .type = SDP_TYPE_MUL,
				   .mode = SDP_MODE_PER_LAYER,
				   .precision = DLA_PRECISION_INT16,
				   .mul_operand = m, .truncate = sh, .act = act };
}

/* X1 multiplying every value by @v: fp16 as a register operand. */
static void sdp_x1_mul(struct nvc_lower *L, struct dla_sdp_op *x1, double v)
{
	if (L->prec == DLA_PRECISION_INT8) {
		sdp_x1_scale(x1, v);
		return;
	}
	*x1 = (struct dla_sdp_op){ .enable = 1, .type = SDP_TYPE_MUL,
				   .mode = SDP_MODE_PER_LAYER,
				   .precision = DLA_PRECISION_FP16,
				   .mul_operand = (int16_t)nvc_half((float)v) };
}

/* A new SDP operation reading cube @src of @in from memory into @dst. */
static int sdp_offline(struct nvc_lower *L, int in,
		       const struct dla_data_cube *src,
		       const struct dla_data_cube *dst)
{
	int op = nvc_op_new(L, DLA_OP_SDP);

	if (op < 0)
		return op;
	nvc_sdp_init(L, &L->ops[op]);
	L->ops[op].surf.sdp_surface.src_data = *src;
	L->ops[op].surf.sdp_surface.dst_data = *dst;
	nvc_depend_tensor(L, in, op);
	return op;
}

/* y = x * scale[c] + shift[c]: X1 multiplies, X2 adds. */
static int sdp_affine(struct nvc_lower *L, const struct nvc_node *n, int op,
		      float s_in, float s_c)
{
	const struct nvc_graph *g = L->g;
	const float *sc = n->affine.scale >= 0 ?
			  g->tensors[n->affine.scale].data : NULL;
	const float *sh = n->affine.shift >= 0 ?
			  g->tensors[n->affine.shift].data : NULL;
	int c = g->tensors[n->inputs[0]].c, k, ret = -ENOMEM;
	bool fp = L->prec == DLA_PRECISION_FP16;
	int16_t *mul = calloc(c, sizeof(*mul)), *add = calloc(c, sizeof(*add));
	double maxm = 0, maxa = 0;
	struct dla_sdp_op *x2 = &L->ops[op].op.sdp_op.x2_op;
	int ms, as;

	if (!mul || !add)
		goto out;
	for (k = 0; k < c; k++) {
		maxm = fmax(maxm, fabs((sc ? sc[k] : 1.0) * s_in / s_c));
		maxa = fmax(maxa, fabs((sh ? sh[k] : 0.0) / s_c));
	}
	ms = 15 - 1 - (int)floor(log2(maxm > 0 ? maxm : 1));
	ms = ms < 0 ? 0 : ms > 63 ? 63 : ms;
	as = nvc_shift_for(maxa, 16);
	for (k = 0; k < c; k++) {
		double m = sc ? sc[k] : 1.0, a = sh ? sh[k] : 0.0;

		mul[k] = fp ? (int16_t)nvc_half((float)m) :
			 (int16_t)lrint(fmin(fmax(m * s_in / s_c * ldexp(1, ms),
						  -32767), 32767));
		add[k] = fp ? (int16_t)nvc_half((float)a) :
			 (int16_t)lrint(fmin(fmax(a / s_c / ldexp(1, as), -32767),
					     32767));
	}
	ret = nvc_sdp_x1(L, &L->ops[op], NULL, mul, c, 0, fp ? 0 : (uint8_t)ms);
	if (ret)
		goto out;
	*x2 = (struct dla_sdp_op){ .enable = 1, .type = SDP_TYPE_ADD,
		.alu_type = SDP_ALU_SUM, .mode = SDP_MODE_PER_KERNEL,
		.precision = fp ? DLA_PRECISION_FP16 : DLA_PRECISION_INT16,
		.shift_value = fp ? 0 : (uint8_t)as };
	if (sdp_operands(L, add, NULL, c, &L->ops[op].surf.sdp_surface.x2_data) ==
	    UINT32_MAX)
		ret = -ENOMEM;
out:
	free(mul);
	free(add);
	return ret;
}

/* AFFINE, ACT or ELTWISE on tensors in memory. */
int nvc_lower_sdp_node(struct nvc_lower *L, int node)
{
	const struct nvc_node *n = &L->g->nodes[node];
	int in = n->inputs[0], out = n->outputs[0], op, ret;
	struct nvc_operand other;
	float s_in = L->ir.ts[nvc_read(L, in)].scale, s_out = L->ir.ts[out].scale;
	struct nvc_activation act = n->act;
	struct dla_data_cube src, dst;
	float s_c;

	if (n->op == NVC_ACT && act.type == NVC_ACT_NONE)
		return nvc_fail(L, n, -EINVAL, "no activation given");
	src = nvc_cube(L, in);
	dst = nvc_cube(L, out);
	op = sdp_offline(L, in, &src, &dst);
	if (op < 0)
		return op;
	if (n->op == NVC_ELTWISE) {
		other = nvc_operand(L, n->inputs[1]);
		nvc_depend_tensor(L, n->inputs[1], op);
	}
	if (n->op == NVC_AFFINE) {
		s_c = sdp_mid_scale(&act, s_out);
		ret = sdp_affine(L, n, op, s_in, s_c);
		if (!ret)
			ret = sdp_act(L, n, &L->ops[op],
				      &L->ops[op].op.sdp_op.x2_op, &act, s_c,
				      s_out);
		if (!ret)
			sdp_out_cvt(L, &L->ops[op].op.sdp_op, s_c, s_out,
				    L->ops[op].op.sdp_op.lut_index >= 0);
	} else {
		ret = nvc_sdp_tail(L, n, &L->ops[op],
				   n->op == NVC_ELTWISE ? &other : NULL,
				   n->eltwise, &act,
				   s_out, &s_c);
		if (!ret && L->prec == DLA_PRECISION_INT8)
			sdp_x1_scale(&L->ops[op].op.sdp_op.x1_op,
				     (double)s_in / s_c);
	}
	nvc_written(L, out, op);
	return ret;
}

int nvc_sdp_scale(struct nvc_lower *L, const struct nvc_node *n,
		  const struct dla_data_cube *src, float s_src, int out,
		  double v)
{
	struct nvc_activation none = { .type = NVC_ACT_NONE };
	int op = nvc_op_new(L, DLA_OP_SDP), ret;
	float s_c;

	if (op < 0)
		return op;
	nvc_sdp_init(L, &L->ops[op]);
	L->ops[op].surf.sdp_surface.src_data = *src;
	L->ops[op].surf.sdp_surface.dst_data = nvc_cube(L, out);
	ret = nvc_sdp_tail(L, n, &L->ops[op], NULL, NVC_ELT_ADD, &none,
			   L->ir.ts[out].scale, &s_c);
	if (ret)
		return ret;
	sdp_x1_mul(L, &L->ops[op].op.sdp_op.x1_op,
		   L->prec == DLA_PRECISION_INT8 ? v * s_src / s_c : v);
	return op;
}

/*
 * Copy @from into @dst at scale @s_dst (a concatenation's input):
 * the operation's index, or a negative errno.
 */
int nvc_sdp_copy(struct nvc_lower *L, const struct nvc_node *n, int from,
		 const struct nvc_place *dst, float s_dst)
{
	const struct nvc_tensor *t = nvc_t(L, nvc_resolve(L, from));
	struct dla_data_cube src = nvc_cube(L, from);
	struct dla_data_cube cube = nvc_cube_at(L, dst, t->w, t->h, t->c);

	return nvc_sdp_copy_cube(L, n, from, &src, &cube, s_dst);
}

int nvc_sdp_copy_cube(struct nvc_lower *L, const struct nvc_node *n,
		      int from, const struct dla_data_cube *src,
		      const struct dla_data_cube *dst, float s_dst)
{
	struct nvc_activation none = { .type = NVC_ACT_NONE };
	int op = sdp_offline(L, from, src, dst), ret;
	float s_c;

	if (op < 0)
		return op;
	ret = nvc_sdp_tail(L, n, &L->ops[op], NULL, NVC_ELT_ADD, &none, s_dst,
			   &s_c);
	if (ret)
		return ret;
	if (L->prec == DLA_PRECISION_INT8)
		sdp_x1_scale(&L->ops[op].op.sdp_op.x1_op,
			     (double)L->ir.ts[nvc_read(L, from)].scale / s_c);
	return op;
}
