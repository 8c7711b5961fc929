// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * fp16 Winograd layers as dense arrays: each channel's input tile
 * transformed once per layer (sim_wino_fp16_tile, the reference's own)
 * instead of once per output and kernel, the weights decoded once, both
 * in the CMAC's lane order, so that a tile's four outputs take each
 * block's partial sums from one sim_wino_fp16_block, in channel order,
 * as the reference's outputs take them one at a time.
 */
#include <stdlib.h>

#include "accel.h"

/* Where channel @c's position @pos lies in a tile's or kernel's blocks. */
static u32 lane_of(u32 c, u32 pos)
{
	return c / SIM_WINO_BLOCK * SIM_WINO_LANES + pos * SIM_WINO_BLOCK +
	       c % SIM_WINO_BLOCK;
}

/* Whether each of the @n blocks at @p holds a NaN, into @nan. */
static void block_nans(u32 *nan, const s16 *p, u32 n)
{
	u32 b;

	for (b = 0; b < n; b++)
		nan[b] = sim_dense_fp16_nan((const u16 *)p + b * SIM_WINO_LANES,
					    SIM_WINO_LANES);
}

bool sim_dense_wino_fp16_open(struct sim_dense *dl, const struct sim_conv *cv,
			      u32 w, u32 h)
{
	memset(dl, 0, sizeof(*dl));
	if (!cv->winograd || !cv->fp16)
		return false;
	dl->c = cv->c;
	dl->blocks = cv->c / SIM_WINO_BLOCK;
	dl->rows = h / SIM_WINO_OUT;
	dl->xstep = (u64)dl->blocks * SIM_WINO_LANES;
	dl->line = w / SIM_WINO_OUT * dl->xstep;
	dl->ystep = dl->line;
	dl->in_len = dl->line * dl->rows;
	if (dl->in_len > SIM_DENSE_MAX_ELEMS ||
	    (u64)cv->k * dl->xstep > SIM_DENSE_MAX_ELEMS)
		return false;
	dl->in = malloc(dl->in_len * sizeof(*dl->in));
	dl->wt = malloc((u64)cv->k * dl->xstep * sizeof(*dl->wt));
	dl->wnan = malloc((u64)cv->k * dl->blocks * sizeof(*dl->wnan));
	dl->dnan = malloc(dl->in_len / SIM_WINO_LANES * sizeof(*dl->dnan));
	if (!dl->in || !dl->wt || !dl->wnan || !dl->dnan) {
		sim_dense_close(dl);
		return false;
	}
	return true;
}

void sim_dense_wino_fp16_weights(struct sim_dense *dl,
				 const struct sim_conv *cv, u32 k0, u32 k1)
{
	u32 k, c, pos;

	for (k = k0; k < k1; k++) {
		for (c = 0; c < cv->c; c++)
			for (pos = 0; pos < SIM_WINO_POS; pos++)
				dl->wt[k * dl->xstep + lane_of(c, pos)] =
					(s16)sim_wino_fp16_weight(cv, k, c, pos);
		block_nans(dl->wnan + (u64)k * dl->blocks,
			   dl->wt + k * dl->xstep, dl->blocks);
	}
}

void sim_dense_wino_fp16_row(struct sim_dense *dl, const struct sim_conv *cv,
			     u32 row)
{
	u32 tiles = dl->line / dl->xstep, x, c, pos;
	u16 t[SIM_WINO_POS];
	s16 *p;

	for (x = 0; x < tiles; x++) {
		p = dl->in + row * dl->ystep + x * dl->xstep;
		for (c = 0; c < cv->c; c++) {
			sim_wino_fp16_tile(cv, c, x * SIM_WINO_OUT,
					   row * SIM_WINO_OUT, t);
			for (pos = 0; pos < SIM_WINO_POS; pos++)
				p[lane_of(c, pos)] = (s16)t[pos];
		}
		block_nans(dl->dnan + (p - dl->in) / SIM_WINO_LANES, p,
			   dl->blocks);
	}
}

void sim_dense_wino_fp16_outputs(const struct sim_dense *dl,
				 sim_wino_fp16_block_fn *block, u32 k, u32 tx,
				 u32 ty, u32 out[SIM_WINO_OUT][SIM_WINO_OUT])
{
	u64 at = ty * dl->ystep + tx * dl->xstep;
	const u16 *d = (const u16 *)dl->in + at;
	const u16 *w = (const u16 *)dl->wt + k * dl->xstep;
	const u32 *dnan = dl->dnan + at / SIM_WINO_LANES;
	const u32 *wnan = dl->wnan + (u64)k * dl->blocks;
	struct sim_fp_acc acc[SIM_WINO_OUT][SIM_WINO_OUT];
	struct sim_fp_psum p[SIM_WINO_OUT][SIM_WINO_OUT];
	u32 b, i, j;

	memset(acc, 0, sizeof(acc));
	for (b = 0; b < dl->blocks; b++) {
		/* a NaN's partial sum comes from the reference's search */
		(dnan[b] || wnan[b] ? sim_wino_fp16_block : block)
			(d + b * SIM_WINO_LANES, w + b * SIM_WINO_LANES, p);
		for (i = 0; i < SIM_WINO_OUT; i++)
			for (j = 0; j < SIM_WINO_OUT; j++)
				sim_cacc_fp16_add(&acc[i][j], p[i][j]);
	}
	for (i = 0; i < SIM_WINO_OUT; i++)
		for (j = 0; j < SIM_WINO_OUT; j++)
			out[i][j] = sim_cacc_fp16_to_fp32(&acc[i][j]);
}
