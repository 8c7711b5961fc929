// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The quantisation pass, after the split. int8 scales: every activation
 * tensor gets the symmetric scale of its calibrated range (max |x| /
 * 127), except where the hardware passes values through unchanged
 * (pooling, views), where the output takes the input's; the inputs of a
 * concatenation written in place (lower_views.c) take the
 * concatenation's, their producers rescaling into it. With mixed
 * precision only the int8 tensors have scales (an fp16 tensor's twin in
 * int8 that of the fp16 one's calibrated range); temporaries have none
 * (their operations say at which scale they hold values).
 *
 * Weights get one scale per kernel (output channel; quant_weights.c:
 * max |w| / 127, no smaller than 1/64 of the largest, so that dead
 * channels neither lose the shared multiplier's precision nor blow the
 * shared bias shift up); the SDP multiplies each channel's accumulator
 * by s_in * s_w[k] / s_c (lower_conv_weights.c). Fixed-point factors for the
 * SDP's multipliers and shifts.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lower_internal.h"
#include "quality.h"

uint16_t nvc_half(float f)
{
	uint32_t x, sign, mant, half, rem;
	int e;

	memcpy(&x, &f, sizeof(x));
	sign = x >> 16 & 0x8000;
	if ((x & 0x7f800000) == 0x7f800000)
		return sign | 0x7c00 | ((x & 0x7fffff) ? 0x200 : 0);
	e = (int)(x >> 23 & 0xff) - 127 + 15;
	mant = (x & 0x7fffff) | 0x800000;
	if (e >= 31)
		return sign | 0x7bff;	/* the largest finite, as the SDP */
	if (e <= 0) {			/* subnormal or zero */
		if (e < -10)
			return sign;
		mant >>= 1 - e;
		e = 0;
		half = mant >> 13;
		rem = mant & 0x1fff;
		if (rem > 0x1000 || (rem == 0x1000 && (half & 1)))
			half++;
		return sign | half;
	}
	half = (uint32_t)e << 10 | (mant >> 13 & 0x3ff);
	rem = mant & 0x1fff;
	if (rem > 0x1000 || (rem == 0x1000 && (half & 1)))
		half++;			/* a carry steps the exponent */
	if ((half & 0x7c00) == 0x7c00)
		half = 0x7bff;
	return sign | half;
}

int32_t nvc_f32_bits(float f)
{
	int32_t v;

	memcpy(&v, &f, sizeof(v));
	return v;
}

/* Smallest shift s with |@maxabs| / 2^s inside a signed @bits integer. */
int nvc_shift_for(double maxabs, int bits)
{
	double lim = ldexp(1.0, bits - 1) - 1;
	int s = 0;

	while (s < 63 && fabs(maxabs) / ldexp(1.0, s) > lim)
		s++;
	return s;
}

/*
 * @v as m / 2^shift with m a signed @bits integer as large as it can be
 * (most precision), shift at most 63.
 */
void nvc_fixed(double v, int bits, int16_t *m, uint8_t *shift)
{
	double lim = ldexp(1.0, bits - 1) - 1;
	int s = 0;

	if (v == 0) {
		*m = 0;
		*shift = 0;
		return;
	}
	while (s < 63 && fabs(v) * ldexp(1.0, s + 1) <= lim)
		s++;
	*m = (int16_t)fmax(fmin(round(v * ldexp(1.0, s)), lim), -lim);
	*shift = (uint8_t)s;
}

/*
 * The precision of the int8 softmax probabilities that only graph
 * outputs are: fp16, in the layout of NVC_FP16_ATOM bytes (lower_emu.c).
 */
static void softmax_fp16(struct nvc_lower *L)
{
	int i;

	for (i = 0; i < L->g->num_tensors; i++)
		if (nvc_softmax_fp16(L, i))
			nvc_lir_precision(&L->ir.ts[i], DLA_PRECISION_FP16,
					  NVC_FP16_ATOM);
}

/*
 * The scales of @k kernels whose largest |weight| @ws holds, in place:
 * int8's, or 1 for fp16 weights, which keep their values.
 */
static void kernel_scales(uint8_t prec, float *ws, int k)
{
	int i;

	if (prec == DLA_PRECISION_INT8) {
		nvc_weight_scales(ws, k);
		return;
	}
	for (i = 0; i < k; i++)
		ws[i] = 1.0f;
}

/* A convolution's: one a kernel of its weights. */
static int conv_wscales(struct nvc_lower *L, struct nvc_lir_op *op)
{
	const struct nvc_node *n = &L->g->nodes[op->node];
	const struct nvc_tensor *wt = &L->g->tensors[n->conv.weights];
	int k = L->g->tensors[n->outputs[0]].c;

	if (wt->n != k)
		return nvc_fail(L, n, -EINVAL, "weights for %d kernels, not %d",
				wt->n, k);
	op->wscale = calloc(k, sizeof(float));
	if (!op->wscale)
		return -ENOMEM;
	nvc_weight_absmax(wt->data, k, (size_t)wt->c * wt->h * wt->w,
			  op->wscale);
	kernel_scales(op->prec, op->wscale, k);
	return 0;
}

/* Largest |weight (c, @k, @j, @i)| of @wt over its input channels c. */
static float deconv_absmax(const struct nvc_tensor *wt, int k, int j, int i)
{
	float m = 0;
	int c;

	for (c = 0; c < wt->n; c++)
		m = fmaxf(m, fabsf(wt->data[(((size_t)c * wt->c + k) * wt->h +
					     j) * wt->w + i]));
	return m;
}

/*
 * A transposed convolution's (kernel = stride, the split checked):
 * kernel k of output phase (j, i) of its 1x1 half, the phase's kernels
 * padded to whole atoms, weighs input channel c by weight (c, k, j, i).
 * Scaled over all the phases (one convolution into the RUBIK's input),
 * else over each phase's own (a convolution a phase and row).
 */
static int deconv_wscales(struct nvc_lower *L, struct nvc_lir_op *op)
{
	const struct nvc_node *n = &L->g->nodes[op->node];
	const struct nvc_tensor *wt = &L->g->tensors[n->conv.weights];
	int cin = nvc_t(L, n->inputs[0])->c, kout = nvc_t(L, n->outputs[0])->c;
	int kh = n->conv.kh, kw = n->conv.kw, sx = n->conv.stride[1];
	int sy = n->conv.stride[0];
	int phase = (int)(nvc_surfaces(L, kout) * L->epa), p, k;
	float *ws;

	if (wt->n != cin || wt->c != kout || wt->h != kh || wt->w != kw)
		return nvc_fail(L, n, -EINVAL, "weights are %d x %d x %d x %d, not %d x %d x %d x %d",
				wt->n, wt->c, wt->h, wt->w, cin, kout, kh, kw);
	ws = calloc((size_t)sx * sy * phase, sizeof(float));
	if (!ws)
		return -ENOMEM;
	op->wscale = ws;
	for (p = 0; p < sx * sy; p++)
		for (k = 0; k < kout; k++)
			ws[p * phase + k] = deconv_absmax(wt, k, p / sx, p % sx);
	if (L->t.hw->rubik)
		kernel_scales(op->prec, ws, sx * sy * phase);
	for (p = 0; !L->t.hw->rubik && p < sx * sy; p++)
		kernel_scales(op->prec, ws + p * phase, kout);
	return 0;
}

/*
 * A concatenation off the atoms: each input copied into a cube of all
 * the channels by kernels of one weight 1 (its channels) or none.
 */
static int concat_wscales(struct nvc_lower *L, struct nvc_lir_op *op)
{
	const struct nvc_node *n = &L->g->nodes[op->node];
	int c = nvc_t(L, n->outputs[0])->c, i, j, coff = 0;
	float *ws = calloc((size_t)n->num_inputs * c, sizeof(float));

	if (!ws)
		return -ENOMEM;
	op->wscale = ws;
	for (i = 0; i < n->num_inputs; i++, ws += c) {
		int ci = nvc_t(L, n->inputs[i])->c;

		for (j = coff; j < coff + ci; j++)
			ws[j] = 1.0f;
		kernel_scales(op->prec, ws, c);
		coff += ci;
	}
	return 0;
}

/* A Split's copies: kernels of one weight 1, by the channel they copy. */
static int split_wscales(struct nvc_lower *L, struct nvc_lir_op *op)
{
	const struct nvc_node *n = &L->g->nodes[op->node];
	int c = nvc_t(L, n->inputs[0])->c, j;

	op->wscale = calloc(c, sizeof(float));
	if (!op->wscale)
		return -ENOMEM;
	for (j = 0; j < c; j++)
		op->wscale[j] = 1.0f;
	kernel_scales(op->prec, op->wscale, c);
	return 0;
}

/* Operation @op's weight scales, where it has weights. */
static int op_wscales(struct nvc_lower *L, struct nvc_lir_op *op)
{
	if (op->kind != NVC_LIR_CONV)
		return 0;
	switch (L->g->nodes[op->node].op) {
	case NVC_CONV:
		return conv_wscales(L, op);
	case NVC_CONV_TRANSPOSE:
		return deconv_wscales(L, op);
	case NVC_CONCAT:
		return concat_wscales(L, op);
	default:	/* NVC_SPLIT */
		return split_wscales(L, op);
	}
}

/* Activations: each tensor's int8 scale (and an int8 softmax's fp16). */
static int act_scales(struct nvc_lower *L)
{
	const struct nvc_graph *g = L->g;
	int i, k;

	for (i = 0; i < g->num_tensors; i++) {
		const struct nvc_tensor *t = &g->tensors[i];

		L->ir.ts[i].scale = 1.0f;
		if (L->ir.ts[i].prec != DLA_PRECISION_INT8 || t->data)
			continue;
		if (!t->calibrated && t->alias_of < 0) {
			const struct nvc_node *n = t->producer >= 0 ?
						   &g->nodes[t->producer] : NULL;

			return nvc_fail(L, n, -EINVAL,
					"tensor '%s' has no calibrated range (int8 needs one)",
					t->name);
		}
		L->ir.ts[i].scale = nvc_act_scale(t);
	}
	/* A conversion into int8 writes at its tensor's calibrated scale. */
	for (i = g->num_tensors; i < L->ir.num_tensors; i++)
		if (L->ir.ts[i].of >= 0 &&
		    L->ir.ts[i].prec == DLA_PRECISION_INT8)
			L->ir.ts[i].scale = nvc_act_scale(&g->tensors[L->ir.ts[i].of]);
	for (i = 0; i < g->num_tensors; i++)
		if (L->ir.ts[i].root >= 0)
			L->ir.ts[i].scale = L->ir.ts[L->ir.ts[i].root].scale;
	/* Values that pass through unchanged keep their scale. */
	for (i = 0; i < g->num_nodes; i++) {
		const struct nvc_node *n = &g->nodes[i];

		if (L->ir.ts[n->outputs[0]].prec != DLA_PRECISION_INT8)
			continue;
		switch (n->op) {
		case NVC_POOL:
		case NVC_PAD:
		case NVC_RESHAPE:
		case NVC_SPLIT:
			for (k = 0; k < n->num_outputs; k++)
				L->ir.ts[n->outputs[k]].scale =
					L->ir.ts[n->inputs[0]].scale;
			break;
		case NVC_SOFTMAX:
			L->ir.ts[n->outputs[0]].scale =
				nvc_softmax_fp16(L, n->outputs[0]) ? 1.0f :
				1.0f / 127.0f;
			break;
		default:
			break;
		}
	}
	softmax_fp16(L);
	/* The RUBIK moves bytes: its input at its output's scale. */
	for (i = 0; i < L->ir.num_ops; i++)
		if (L->ir.ops[i].kind == NVC_LIR_RUBIK)
			L->ir.ts[L->ir.ops[i].inputs[0]].scale =
				L->ir.ts[L->ir.ops[i].outputs[0]].scale;
	return 0;
}

int nvc_scales(struct nvc_lower *L)
{
	int i, ret = act_scales(L);

	for (i = 0; !ret && i < L->ir.num_ops; i++) {
		nvc_op_begin(L, &L->ir.ops[i]);
		ret = op_wscales(L, &L->ir.ops[i]);
	}
	return ret;
}
