// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Local response normalisation on the CDP:
 *   y = x * (bias + alpha / size * sum of x^2 over size channels)^-beta
 * The CDP squares and sums its (int8: code) inputs, looks the factor up
 * in a linear table over the sums' range and multiplies. int8: the
 * table holds the factor in 2^-F units, the output converter brings
 * code x factor to the output's scale; the official compiler refuses
 * int8 LRN.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "lower_internal.h"

#define CDP_MIN_LOCAL 3
#define CDP_MAX_LOCAL 9

/* The factor for a sum of squares @sq of real values. */
static double lrn_factor(const struct nvc_lrn_attr *a, double sq)
{
	return pow(a->bias + a->alpha / a->size * sq, -a->beta);
}

/* Index select putting @max within the 256 steps of the LO table. */
static int lrn_select(double max)
{
	int sel = -30;

	while (ldexp(256, sel) < max)
		sel++;
	return sel;
}

static int lrn_lut(struct nvc_lower *L, const struct nvc_node *n,
		   float s_in, int *frac)
{
	const struct nvc_lrn_attr *a = &n->lrn;
	bool fp = L->prec == DLA_PRECISION_FP16;
	const struct nvc_tensor *ti = nvc_t(L, nvc_resolve(L, n->inputs[0]));
	double xmax = fp ? fmax(fabs(ti->min), fabs(ti->max)) : 127;
	double unit = fp ? 1.0 : (double)s_in * s_in, top;
	struct dla_lut_param *p;
	uint64_t end;
	int sel, i;
	float f;
	uint32_t u;

	if (fp && !ti->calibrated)
		xmax = 64;	/* no range known: fp16 sums up to 64^2 x size */
	sel = lrn_select(xmax * xmax * a->size);
	top = lrn_factor(a, 0);
	*frac = fp ? 0 : 14 - (int)ceil(log2(fmax(top, 1e-6)));
	if (*frac > 30)
		*frac = 30;
	if (fp) {
		f = (float)ldexp(256, sel);
		memcpy(&u, &f, sizeof(u));
		end = u;
	} else {
		end = (uint64_t)1 << (sel + 8);
	}
	p = nvc_lut_new(L, n, 0, end, sel + 2, sel);
	if (!p)
		return -ENOSPC;
	for (i = 0; i < DLA_LUT_LO_TABLE_ENTRIES; i++) {
		double g = lrn_factor(a, ldexp(i, sel) * unit);

		p->linear_only_table[i] = fp ? (int16_t)nvc_half((float)g) :
			(int16_t)lrint(fmin(ldexp(g, *frac), 32767));
	}
	for (i = 0; i < DLA_LUT_LE_TABLE_ENTRIES; i++) {
		double g = lrn_factor(a, ldexp(i, sel + 2) * unit);

		p->linear_exp_table[i] = fp ? (int16_t)nvc_half((float)g) :
			(int16_t)lrint(fmin(ldexp(g, *frac), 32767));
	}
	return nvc_lut_dedup(L);
}

int nvc_lower_lrn(struct nvc_lower *L, int node)
{
	const struct nvc_node *n = &L->g->nodes[node];
	int in = nvc_resolve(L, n->inputs[0]), out = n->outputs[0];
	float s_in = L->ir.ts[in].scale, s_out = L->ir.ts[out].scale;
	struct dla_cdp_op_desc *p;
	int op, lut, frac;
	int16_t m;
	uint8_t sh;

	if (n->lrn.size < CDP_MIN_LOCAL || n->lrn.size > CDP_MAX_LOCAL ||
	    !(n->lrn.size & 1))
		return nvc_fail(L, n, -EOPNOTSUPP,
				"size %d: the CDP sums 3, 5, 7 or 9 channels",
				n->lrn.size);
	if (n->act.type != NVC_ACT_NONE)
		return nvc_fail(L, n, -EOPNOTSUPP, "an activation after LRN");
	lut = lrn_lut(L, n, s_in, &frac);
	if (lut < 0)
		return lut;
	op = nvc_op_new(L, DLA_OP_CDP);
	if (op < 0)
		return op;
	p = &L->ops[op].op.cdp_op;
	*p = (struct dla_cdp_op_desc){
		.in_precision = L->prec, .out_precision = L->prec,
		.lut_index = (int16_t)lut, .local_size = (uint8_t)n->lrn.size,
		.in_cvt = { .scale = 1, .enable = 1 },
		.out_cvt = { .scale = 1, .enable = 1 },
	};
	if (L->prec == DLA_PRECISION_INT8) {
		nvc_fixed(ldexp((double)s_in / s_out, -frac), 16, &m, &sh);
		p->out_cvt.scale = m;
		p->out_cvt.truncate = sh;
	}
	L->ops[op].surf.cdp_surface.src_data = nvc_cube(L, in);
	L->ops[op].surf.cdp_surface.dst_data = nvc_cube(L, out);
	nvc_depend_tensor(L, in, op);
	nvc_written(L, out, op);
	return 0;
}
