// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Winograd convolution in fp16 (nv_full), bit-exact. The CDMA's padding
 * and channel extension are those of the integer mode (winograd.c).
 *
 * The CSC widens each element of a channel's 4x4 tile to fp17 and forms
 * B^T d B with NVDLA's fp17 adder, rows first, then columns, each sum
 * with its operands in the order of sim_wino_bt (the order decides which
 * NaN wins); every result is narrowed to fp16, denormals kept. The CMAC
 * takes 4 channels at a time: 64 lanes (16 positions x 4 channels) with
 * one block exponent, the Booth products of a position summed over its
 * channels, then the output transform A^T M A on those block mantissas,
 * exactly (it fits the 38-bit partial sum). A NaN lane makes all four
 * outputs NaN. Each output's partial sums go to the CACC's float
 * accumulator one per 4 channels, in channel order, as in direct mode.
 */
#include "conv_fp16.h"
#include "fp.h"

#define WINO_POS (SIM_WINO_TILE * SIM_WINO_TILE)
#define WINO_LANES (WINO_POS * SIM_WINO_BLOCK)

/* Element @i of B^T v in fp17, v's elements @step apart. */
static u32 wino_bt_fp17(const u32 *v, u32 i, u32 step)
{
	const struct sim_wino_bt *t = &sim_wino_bt[i];
	u32 a = v[t->a * step], b = v[t->b * step];

	return t->sub ? sim_fp_sub(a, b, &sim_fp17) :
			sim_fp_add(a, b, &sim_fp17);
}

/* The CSC's transform of one channel's 4x4 tile @d (row major). */
static void wino_pra_fp16(const u16 *d, u16 *out)
{
	u32 in[WINO_POS], m[WINO_POS];
	u32 r, c;

	for (r = 0; r < WINO_POS; r++)
		in[r] = sim_fp16_to_fp17(d[r]);
	for (r = 0; r < SIM_WINO_TILE; r++)
		for (c = 0; c < SIM_WINO_TILE; c++)
			m[r * SIM_WINO_TILE + c] =
				wino_bt_fp17(in + c, r, SIM_WINO_TILE);
	for (r = 0; r < SIM_WINO_TILE; r++)
		for (c = 0; c < SIM_WINO_TILE; c++)
			out[r * SIM_WINO_TILE + c] =
				sim_fp17_to_fp16(wino_bt_fp17(m + r * SIM_WINO_TILE,
							      c, 1));
}

/*
 * The CMAC's partial sum for output (@i, @j) of the tile from one block:
 * lane pos * 4 + channel holds data @d and weight @w.
 */
static struct sim_fp_psum wino_cmac(const u16 *d, const u16 *w, u32 i, u32 j)
{
	struct sim_fp_psum p = { 0, 0 };
	u32 top, pos, ch, lane;
	s64 sum;

	if (sim_cmac_fp16_nan(d, w, WINO_LANES, &p))
		return p;
	top = sim_cmac_fp16_top(d, w, WINO_LANES);
	for (pos = 0; pos < WINO_POS; pos++) {
		sum = 0;
		for (ch = 0; ch < SIM_WINO_BLOCK; ch++) {
			lane = pos * SIM_WINO_BLOCK + ch;
			sum += sim_cmac_fp16_lane(d[lane], w[lane], top);
		}
		p.mant += sum * sim_wino_at(i, pos / SIM_WINO_TILE) *
			  sim_wino_at(j, pos % SIM_WINO_TILE);
	}
	p.exp = 4 * top;
	return p;
}

/* Channel @c's 4x4 input tile at (@tx, @ty) as the CDMA stored it. */
static void wino_tile_fp16(const struct sim_conv *cv, u32 c, u32 tx, u32 ty,
			   u16 *tile)
{
	u32 pos;
	u16 v;

	for (pos = 0; pos < WINO_POS; pos++) {
		v = (u16)sim_wino_input(cv, c, tx + pos % SIM_WINO_TILE,
					ty + pos / SIM_WINO_TILE);
		tile[pos] = sim_cdma_fp16(cv->flush_data, v);
	}
}

u32 sim_wino_fp16_value(const struct sim_conv *cv, u32 k, u32 x, u32 y)
{
	u32 tx = x - x % SIM_WINO_OUT, ty = y - y % SIM_WINO_OUT;
	u16 tile[WINO_POS], t[WINO_POS], d[WINO_LANES], w[WINO_LANES];
	struct sim_fp_acc acc = { 0, 0 };
	u32 c0, ch, pos;
	const u8 *wt;

	for (c0 = 0; c0 < cv->c; c0 += SIM_WINO_BLOCK) {
		for (ch = 0; ch < SIM_WINO_BLOCK; ch++) {
			wino_tile_fp16(cv, c0 + ch, tx, ty, tile);
			wino_pra_fp16(tile, t);
			for (pos = 0; pos < WINO_POS; pos++) {
				wt = cv->wt + 2 * sim_wino_weight_index(cv, k,
									c0 + ch,
									pos);
				d[pos * SIM_WINO_BLOCK + ch] = t[pos];
				w[pos * SIM_WINO_BLOCK + ch] =
					sim_cdma_fp16(cv->flush_weights,
						      wt[0] | wt[1] << 8);
			}
		}
		sim_cacc_fp16_add(&acc, wino_cmac(d, w, y % SIM_WINO_OUT,
						  x % SIM_WINO_OUT));
	}
	return sim_cacc_fp16_to_fp32(&acc);
}
