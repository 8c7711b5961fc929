// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Integer Winograd layers as dense int16 arrays, on the direct layers'
 * tiles: each input tile's transform V (sim_wino_tile, the reference's
 * own) once per layer instead of once per output and kernel, then per
 * tile position the dot product over channels of V with the transformed
 * weights U, as the CMAC does, and A^T M A of those sixteen sums. The
 * sums are exact, so they are the reference's.
 */
#include "accel.h"

#define POSITIONS (SIM_WINO_TILE * SIM_WINO_TILE)

void sim_dense_wino_weights(struct sim_dense *dl, const struct sim_conv *cv,
			    u32 k0, u32 k1)
{
	u32 k, c, pos;

	for (k = k0; k < k1; k++)
		for (pos = 0; pos < POSITIONS; pos++)
			for (c = 0; c < cv->c; c++)
				dl->wt[((u64)k * POSITIONS + pos) * dl->cp + c] =
					sim_conv_weight_at(cv,
						sim_wino_weight_index(cv, k, c, pos));
}

void sim_dense_wino_row(struct sim_dense *dl, const struct sim_conv *cv,
			u32 row)
{
	u32 tiles = dl->line / dl->xstep, x, c, pos;
	s32 t[POSITIONS];
	s16 *p;

	for (x = 0; x < tiles; x++) {
		p = dl->in + row * dl->ystep + x * dl->xstep;
		for (c = 0; c < cv->c; c++) {
			sim_wino_tile(cv, c, x * SIM_WINO_OUT, row * SIM_WINO_OUT, t);
			for (pos = 0; pos < POSITIONS; pos++)
				p[pos * dl->cp + c] = t[pos];
		}
		for (pos = 0; pos < POSITIONS; pos++)
			memset(p + pos * dl->cp + cv->c, 0,
			       (dl->cp - cv->c) * sizeof(*p));
	}
}

void sim_dense_wino_tiles(const struct sim_dense *dl, sim_dense_tile_fn *tile,
			  const s16 *const *w, const s16 *const *d,
			  s64 out[SIM_DENSE_KT][SIM_DENSE_XT][SIM_WINO_OUT][SIM_WINO_OUT])
{
	struct sim_dense one = *dl;	/* one position: one tap */
	s64 m[POSITIONS][SIM_DENSE_KT][SIM_DENSE_XT], mab[POSITIONS];
	const s16 *wp[SIM_DENSE_KT], *dp[SIM_DENSE_XT];
	u32 pos, a, b;

	one.taps = 1;
	for (pos = 0; pos < POSITIONS; pos++) {
		for (a = 0; a < SIM_DENSE_KT; a++)
			wp[a] = w[a] + (u64)pos * dl->cp;
		for (b = 0; b < SIM_DENSE_XT; b++)
			dp[b] = d[b] + (u64)pos * dl->cp;
		tile(wp, dp, &one, m[pos]);
	}
	for (a = 0; a < SIM_DENSE_KT; a++)
		for (b = 0; b < SIM_DENSE_XT; b++) {
			for (pos = 0; pos < POSITIONS; pos++)
				mab[pos] = m[pos][a][b];
			sim_wino_output(mab, out[a][b]);
		}
}
