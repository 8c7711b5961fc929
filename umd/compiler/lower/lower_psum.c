// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The partial sums of an int8 convolution in chunks of input channels
 * (lower_conv.c), carried from one chunk to the next in the cube each
 * chunk but the last has its SDP write, which the next chunk adds as its
 * X2 operand, per element (X2 also on nv_small, which has no Y stage),
 * shifted exactly to its intermediate scale (lower_sdp.c); the last
 * chunk writes the output at its scale. Their precision and scale:
 *
 * int16 where the configuration computes int16 (nv_full) and the output
 * is one pixel (a fully connected layer): int8 processing writes int16
 * (docs/model.md, "SDP precision conversions"), at the output's scale /
 * 2^NVC_PSUM_BITS16, so that int16 holds 16 times the output's
 * calibrated range and each chunk rounds by 1/32 of an output step. It
 * writes int16 as two surfaces of half an atom's channels each, an atom
 * apart per pixel, but reads a per-element operand as an atom's channels
 * of two bytes, twice an atom per pixel: the same bytes only for one
 * pixel, the channels one after another.
 *
 * int8 elsewhere: NVIDIA's C models of the v2 configurations (nv_small,
 * nv_large) stop on an int8-to-int16 conversion ("openDLA doesn't
 * support precision conversion"), and their firmware refuses int16. At
 * twice the output's scale (NVC_PSUM_BITS8), so that int8 holds twice its
 * range, each chunk rounding by one output step at most.
 *
 * The partial sums have no calibrated range of their own: one beyond
 * that saturates (the output converter clips, it never wraps), which
 * needs the chunks before to reach beyond what the whole layer reaches
 * and the chunks after to take it back; after a ReLU the negative side
 * clips to 0 anyway.
 */
#include <math.h>

#include "lower_internal.h"

/* The partial sums' scale against the output's, in bits. */
#define NVC_PSUM_BITS16 (-4)
#define NVC_PSUM_BITS8 1

uint8_t nvc_psum_prec(const struct nvc_lower *L, uint8_t prec,
		      const struct nvc_conv_shape *cs)
{
	if (prec == DLA_PRECISION_INT8 && cs->wo == 1 && cs->ho == 1 &&
	    (L->t.hw->precisions & (1u << DLA_PRECISION_INT16)))
		return DLA_PRECISION_INT16;
	return prec;
}

float nvc_psum_scale(const struct nvc_lower *L, int temp, float s_out)
{
	switch (L->ir.ts[temp].prec) {
	case DLA_PRECISION_INT16:
		return ldexpf(s_out, NVC_PSUM_BITS16);
	case DLA_PRECISION_INT8:
		return ldexpf(s_out, NVC_PSUM_BITS8);
	default:
		return s_out;
	}
}

struct dla_data_cube nvc_psum_cube(const struct nvc_lower *L, int temp)
{
	struct dla_data_cube c = nvc_cube(L, temp);

	/* As the operand is read: an int8 atom's channels, two bytes each. */
	if (L->ir.ts[temp].prec == DLA_PRECISION_INT16) {
		c.line_stride = 2 * L->t.atom;
		c.surf_stride = 2 * L->t.atom;
	}
	return c;
}

void nvc_psum_ops(struct nvc_lower *L, int temp, int from, bool writes,
		  bool reads)
{
	struct dla_sdp_op_desc *p;
	struct dla_data_cube *dst;
	int j;

	if (L->ir.ts[temp].prec != DLA_PRECISION_INT16)
		return;
	for (j = from; j < L->nops; j++) {
		if (L->ops[j].graph.op_type != DLA_OP_SDP)
			continue;
		p = &L->ops[j].op.sdp_op;
		dst = &L->ops[j].surf.sdp_surface.dst_data;
		if (writes) {
			/* As int8 processing writes int16: half an atom's. */
			p->dst_precision = DLA_PRECISION_INT16;
			dst->line_stride = L->t.atom;
			dst->surf_stride = L->t.atom;
		}
		if (reads)
			p->x2_op.precision = DLA_PRECISION_INT16;
	}
}
