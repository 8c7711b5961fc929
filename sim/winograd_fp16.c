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
	u32 in[SIM_WINO_POS], m[SIM_WINO_POS];
	u32 r, c;

	for (r = 0; r < SIM_WINO_POS; r++)
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

void sim_wino_fp16_psums(const s64 sum[SIM_WINO_POS], u32 top,
			 struct sim_fp_psum p[SIM_WINO_OUT][SIM_WINO_OUT])
{
	s64 out[SIM_WINO_OUT][SIM_WINO_OUT];
	u32 i, j;

	sim_wino_output(sum, out);
	for (i = 0; i < SIM_WINO_OUT; i++)
		for (j = 0; j < SIM_WINO_OUT; j++) {
			p[i][j].exp = 4 * top;
			p[i][j].mant = out[i][j];
		}
}

void sim_wino_fp16_block(const u16 *d, const u16 *w,
			 struct sim_fp_psum p[SIM_WINO_OUT][SIM_WINO_OUT])
{
	s64 sum[SIM_WINO_POS] = { 0 };
	u32 top, pos, ch;

	if (sim_cmac_fp16_nan(d, w, SIM_WINO_LANES, &p[0][0])) {
		p[0][1] = p[0][0];
		p[1][0] = p[0][0];
		p[1][1] = p[0][0];
		return;
	}
	top = sim_cmac_fp16_top(d, w, SIM_WINO_LANES);
	for (pos = 0; pos < SIM_WINO_POS; pos++)
		for (ch = 0; ch < SIM_WINO_BLOCK; ch++)
			sum[pos] += sim_cmac_fp16_lane(d[pos * SIM_WINO_BLOCK + ch],
						       w[pos * SIM_WINO_BLOCK + ch],
						       top);
	sim_wino_fp16_psums(sum, top, p);
}

void sim_wino_fp16_tile(const struct sim_conv *cv, u32 c, u32 x0, u32 y0,
			u16 out[SIM_WINO_POS])
{
	s64 d[SIM_WINO_POS];
	u16 tile[SIM_WINO_POS];
	u32 pos;

	sim_wino_inputs(cv, c, x0, y0, d);
	for (pos = 0; pos < SIM_WINO_POS; pos++)
		tile[pos] = sim_cdma_fp16(cv->flush_data, (u16)d[pos]);
	wino_pra_fp16(tile, out);
}

u16 sim_wino_fp16_weight(const struct sim_conv *cv, u32 k, u32 c, u32 pos)
{
	const u8 *wt = cv->wt + 2 * sim_wino_weight_index(cv, k, c, pos);

	return sim_cdma_fp16(cv->flush_weights, wt[0] | wt[1] << 8);
}

u32 sim_wino_fp16_value(const struct sim_conv *cv, u32 k, u32 x, u32 y)
{
	u32 tx = x - x % SIM_WINO_OUT, ty = y - y % SIM_WINO_OUT;
	u16 t[SIM_WINO_POS], d[SIM_WINO_LANES], w[SIM_WINO_LANES];
	struct sim_fp_psum p[SIM_WINO_OUT][SIM_WINO_OUT];
	struct sim_fp_acc acc = { 0, 0 };
	u32 c0, ch, pos;

	for (c0 = 0; c0 < cv->c; c0 += SIM_WINO_BLOCK) {
		for (ch = 0; ch < SIM_WINO_BLOCK; ch++) {
			sim_wino_fp16_tile(cv, c0 + ch, tx, ty, t);
			for (pos = 0; pos < SIM_WINO_POS; pos++) {
				d[pos * SIM_WINO_BLOCK + ch] = t[pos];
				w[pos * SIM_WINO_BLOCK + ch] =
					sim_wino_fp16_weight(cv, k, c0 + ch, pos);
			}
		}
		sim_wino_fp16_block(d, w, p);
		sim_cacc_fp16_add(&acc, p[y % SIM_WINO_OUT][x % SIM_WINO_OUT]);
	}
	return sim_cacc_fp16_to_fp32(&acc);
}
