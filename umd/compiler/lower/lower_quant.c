// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * int8 scales: every activation tensor gets the symmetric scale of its
 * calibrated range (max |x| / 127), except where the hardware passes
 * values through unchanged (pooling, views), where the output takes the
 * input's; the inputs of a concatenation written in place (lower_views.c)
 * take the concatenation's, their producers rescaling into it. With mixed
 * precision only the int8 tensors have scales (an fp16 tensor's twin in
 * int8 that of the fp16 one's calibrated range). Fixed-point factors for
 * the SDP's multipliers and shifts.
 */
#include <errno.h>
#include <math.h>
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

int nvc_scales(struct nvc_lower *L)
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
		if (L->ir.ts[i].prec == DLA_PRECISION_INT8)
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
	return 0;
}
