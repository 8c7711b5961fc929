// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * A convolution's constants: its dense weights (as the split cut it),
 * extended for pixel input, in the direct layout at the processing
 * precision (int8: each kernel at its scale, lower_quant.c), and the X1
 * operands of its SDP (bias, and in int8 the rescale into the output's
 * scale: s_in * s_w[k] / s_c).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "lower_internal.h"
#include "quality.h"

/* Offset in elements of weight (k, c, r, s) in the direct layout. */
static uint64_t weight_index(const struct nvc_conv_shape *cs, uint32_t kpg,
			     uint32_t ac, int k, int c, int r, int s)
{
	uint32_t group = k / kpg, in_group = kpg, block = c / ac;
	uint32_t block_c = cs->c - block * ac;

	if (cs->k - group * kpg < kpg)
		in_group = cs->k - group * kpg;
	if (block_c > ac)
		block_c = ac;
	return (uint64_t)group * kpg * cs->r * cs->s * cs->c +
	       (uint64_t)block * ac * in_group * cs->r * cs->s +
	       (((uint64_t)r * cs->s + s) * in_group + k % kpg) * block_c +
	       c % ac;
}

/* Dense weights and bias of @n. */
int nvc_conv_dense(struct nvc_lower *L, const struct nvc_node *n,
		   struct nvc_conv_shape *cs)
{
	const struct nvc_graph *g = L->g;
	const struct nvc_conv_attr *a = &n->conv;
	const struct nvc_tensor *wt = &g->tensors[a->weights];
	int kall = nvc_t(L, n->outputs[0])->c;
	int cin = cs->slice ? nvc_t(L, cs->in)->c : cs->c;
	int cg = cin / a->group, kg = kall / a->group, k, c, i;
	size_t per = (size_t)cs->r * cs->s;

	cs->w = calloc((size_t)cs->k * cs->c * per, sizeof(float));
	cs->bias = calloc(cs->k, sizeof(float));
	if (!cs->w || !cs->bias)
		return -ENOMEM;
	if ((size_t)wt->n * wt->c * wt->h * wt->w != (size_t)kall * cg * per)
		return nvc_fail(L, n, -EINVAL, "weights hold %d x %d x %d x %d values, not %d x %d x %d x %d",
				wt->n, wt->c, wt->h, wt->w, kall, cg, cs->r,
				cs->s);
	/* Kernels k0 on, over input channels c0 to c0 + c. */
	for (k = 0; k < cs->k; k++) {
		int gk = cs->k0 + k, lc = (gk / kg) * cg - cs->c0;

		for (c = lc < 0 ? -lc : 0; c < cg && lc + c < cs->c; c++)
			for (i = 0; i < (int)per; i++)
				cs->w[((size_t)k * cs->c + lc + c) * per + i] =
					wt->data[((size_t)gk * cg + c) * per + i];
		cs->bias[k] = a->bias >= 0 ? g->tensors[a->bias].data[gk] : 0;
	}
	return 0;
}

/* The kernel's shape after the pre-extension for pixel input (below). */
void nvc_conv_image_shape(struct nvc_conv_shape *cs)
{
	cs->c = cs->s * NVC_IMAGE_COMPS;
	cs->s = 1;
}

/*
 * Channel pre-extension for pixel input: the CSC reads each line of
 * pixels as one channel axis, so kernel column s of channel c becomes
 * channel s * 4 + c of a kernel one column wide (component 3, and those
 * beyond the network's channels, get zero weights).
 */
int nvc_conv_image_extend(struct nvc_conv_shape *cs)
{
	int ce = cs->s * NVC_IMAGE_COMPS, k, c, r, s;
	float *w = calloc((size_t)cs->k * ce * cs->r, sizeof(float));

	if (!w)
		return -ENOMEM;
	for (k = 0; k < cs->k; k++)
		for (c = 0; c < cs->c; c++)
			for (r = 0; r < cs->r; r++)
				for (s = 0; s < cs->s; s++)
					w[((size_t)k * ce + s * NVC_IMAGE_COMPS + c) *
					  cs->r + r] =
						cs->w[(((size_t)k * cs->c + c) * cs->r +
						       r) * cs->s + s];
	free(cs->w);
	cs->w = w;
	nvc_conv_image_shape(cs);
	return 0;
}

/*
 * Bytes of @cs's weights: whole convolution-buffer entries, as NVIDIA's
 * compiler rounds them: the CDMA plans entries for this many bytes and
 * the CSC releases the entries its kernels fill; more padding is never
 * released, and the next layer that changes the weight banks waits
 * forever (NVIDIA's C model, nv_small, a recorded digits network).
 */
uint32_t nvc_conv_wsize(const struct nvc_lower *L,
			const struct nvc_conv_shape *cs)
{
	size_t n = (size_t)cs->k * cs->c * cs->r * cs->s;

	return (uint32_t)((n * L->bpe + L->t.cbuf->width - 1) /
			  L->t.cbuf->width * L->t.cbuf->width);
}

/* The weights in the direct layout at the processing precision. */
int nvc_conv_weights(struct nvc_lower *L, const struct nvc_conv_shape *cs,
		     const float *ws, uint32_t *off, uint32_t *size)
{
	uint32_t kpg = L->t.cbuf->atomic_k / L->bpe, ac = L->t.cbuf->atomic_c;
	size_t n = (size_t)cs->k * cs->c * cs->r * cs->s;
	uint8_t *buf = calloc(n, L->bpe);
	int k, c, r, s;

	if (!buf)
		return -ENOMEM;
	for (k = 0; k < cs->k; k++)
		for (c = 0; c < cs->c; c++)
			for (r = 0; r < cs->r; r++)
				for (s = 0; s < cs->s; s++) {
					float v = cs->w[(((size_t)k * cs->c + c) *
							 cs->r + r) * cs->s + s];
					uint64_t i = weight_index(cs, kpg, ac,
								  k, c, r, s);

					if (L->bpe == 1) {
						buf[i] = (uint8_t)nvc_weight_code(v, ws[k]);
					} else {
						uint16_t h = nvc_half(v);

						buf[2 * i] = h & 0xff;
						buf[2 * i + 1] = h >> 8;
					}
				}
	*size = nvc_conv_wsize(L, cs);
	*off = nvc_const_add(L, buf, n * L->bpe, 0);
	free(buf);
	return *off == UINT32_MAX ? -ENOMEM : 0;
}

/* X1 of the convolution's SDP: bias, and (int8) into scale @s_c. */
int nvc_conv_x1(struct nvc_lower *L, int sdp,
		const struct nvc_conv_shape *cs, const float *ws, float s_c)
{
	float s_in = L->ir.ts[nvc_read(L, cs->in)].scale;
	int16_t *alu = calloc(cs->k, sizeof(*alu)), *mul = calloc(cs->k, sizeof(*mul));
	double maxm = 0, maxb = 0;
	bool any_bias = false;
	int k, t, a, ret = -ENOMEM;

	if (!alu || !mul)
		goto out;
	for (k = 0; k < cs->k; k++)
		any_bias |= cs->bias[k] != 0;
	if (L->prec == DLA_PRECISION_FP16) {
		for (k = 0; k < cs->k; k++)
			alu[k] = (int16_t)nvc_half(cs->bias[k]);
		ret = nvc_sdp_x1(L, &L->ops[sdp], any_bias ? alu : NULL, NULL,
				 cs->k, 0, 0);
		goto out;
	}
	for (k = 0; k < cs->k; k++) {
		maxm = fmax(maxm, (double)s_in * ws[k] / s_c);
		maxb = fmax(maxb, fabs(cs->bias[k] / ((double)s_in * ws[k])));
	}
	t = 14 - (int)floor(log2(maxm));
	t = t < 0 ? 0 : t > 63 ? 63 : t;
	a = nvc_shift_for(maxb, 16);
	a = a > 31 ? 31 : a;
	for (k = 0; k < cs->k; k++) {
		double m = (double)s_in * ws[k] / s_c * ldexp(1, t);
		double b = cs->bias[k] / ((double)s_in * ws[k]) / ldexp(1, a);

		mul[k] = (int16_t)lrint(fmin(m, 32767));
		alu[k] = (int16_t)lrint(fmax(fmin(b, 32767), -32767));
	}
	ret = nvc_sdp_x1(L, &L->ops[sdp], any_bias ? alu : NULL, mul, cs->k,
			 (uint8_t)a, (uint8_t)t);
out:
	free(alu);
	free(mul);
	return ret;
}
