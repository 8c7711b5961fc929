// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Sigmoid and Tanh through the SDP's lookup table: both tables linear
 * over the input range [-8, 8], the 257-entry one answering (priority
 * to LO everywhere); outside the range the ends hold (slopes 0), where
 * both functions are within 3.4e-4 of their limits. int8 inputs arrive
 * at scale s_c (2^-12: +-8 is +-32768) and entries are output codes;
 * fp16 takes real values and fp16 entries.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "lower_internal.h"

#define LUT_RANGE 8.0	/* the tables cover [-8, 8] */
#define LO_SELECT 8	/* int8: 65536 / 256 codes a step */
#define LE_SELECT 10	/* int8: 65536 / 64 */

static double lut_f(enum nvc_act act, double x)
{
	return act == NVC_ACT_TANH ? tanh(x) : 1 / (1 + exp(-x));
}

static int16_t lut_entry(const struct nvc_lower *L, enum nvc_act act,
			 double x, float out_scale)
{
	double y = lut_f(act, x);

	if (L->prec == DLA_PRECISION_FP16)
		return (int16_t)nvc_half((float)y);
	return (int16_t)lrint(fmax(fmin(y / out_scale, 127), -128));
}

static uint64_t lut_point(const struct nvc_lower *L, double x, float in_scale)
{
	float f = (float)x;
	uint32_t u;

	if (L->prec == DLA_PRECISION_FP16) {
		memcpy(&u, &f, sizeof(u));
		return u;
	}
	return (uint32_t)(int32_t)lrint(x / in_scale);
}

/* A new LUT of the task, both tables linear from @start to @end. */
struct dla_lut_param *nvc_lut_new(struct nvc_lower *L,
				  const struct nvc_node *n, uint64_t start,
				  uint64_t end, int le_sel, int lo_sel)
{
	struct dla_lut_param *p;

	if (L->nluts == NVC_MAX_LUTS) {
		nvc_fail(L, n, -ENOSPC, "more than %d LUTs in one task",
			 NVC_MAX_LUTS);
		return NULL;
	}
	p = &L->luts[L->nluts++];
	memset(p, 0, sizeof(*p));
	p->linear_exp_offset.frac_bits = (int8_t)le_sel;
	p->linear_only_offset.frac_bits = (int8_t)lo_sel;
	p->linear_exp_start = start;
	p->linear_exp_end = end;
	p->linear_only_start = start;
	p->linear_only_end = end;
	p->hybrid_priority = 1;		/* LO answers */
	p->underflow_priority = 1;
	p->overflow_priority = 1;
	p->method = 1;			/* linear */
	return p;
}

/* The task's LUT equal to its last one, if any: the last is dropped. */
int nvc_lut_dedup(struct nvc_lower *L)
{
	int i, last = L->nluts - 1;

	for (i = 0; i < last; i++)
		if (!memcmp(&L->luts[i], &L->luts[last], sizeof(L->luts[i]))) {
			L->nluts--;
			return i;
		}
	return last;
}

int nvc_lut_add(struct nvc_lower *L, const struct nvc_node *n,
		enum nvc_act act, float in_scale, float out_scale)
{
	bool fp = L->prec == DLA_PRECISION_FP16;
	struct dla_lut_param *p;
	int i;

	p = nvc_lut_new(L, n, lut_point(L, -LUT_RANGE, in_scale),
			lut_point(L, LUT_RANGE, in_scale), fp ? -2 : LE_SELECT,
			fp ? -4 : LO_SELECT);
	if (!p)
		return -ENOSPC;
	for (i = 0; i < DLA_LUT_LO_TABLE_ENTRIES; i++)
		p->linear_only_table[i] = lut_entry(L, act, -LUT_RANGE +
			2 * LUT_RANGE * i / (DLA_LUT_LO_TABLE_ENTRIES - 1),
			out_scale);
	for (i = 0; i < DLA_LUT_LE_TABLE_ENTRIES; i++)
		p->linear_exp_table[i] = lut_entry(L, act, -LUT_RANGE +
			2 * LUT_RANGE * i / (DLA_LUT_LE_TABLE_ENTRIES - 1),
			out_scale);
	return nvc_lut_dedup(L);
}
