// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Winograd convolution (CONV_MODE = WINOGRAD, nv_full), integer
 * precisions: a 3x3 kernel of stride 1 over a cube the CDMA pads and
 * channel-extends, computed in 4x4 tiles that give 2x2 outputs.
 *
 * The CDMA pads the input with the CDMA pad value and folds a stride
 * sx x sy into the channels: element (X, Y) of extended channel
 * ((iy * sx + ix) * surfaces + surface) * E + e is padded input element
 * (X * sx + ix, Y * sy + iy) of channel surface * E + e, E channels per
 * atom (padding channels of the last atom included). For the output tile
 * at (2 tx, 2 ty) the CSC transforms each channel's 4x4 input tile d at
 * that place with B^T d B, B^T = [[1,0,-1,0],[0,1,1,0],[0,-1,1,0],[0,1,0,-1]],
 * exact to 18 bits, then shifts it right by PRA_TRUNCATE (rounding half
 * away from zero) and saturates it to the precision. The CMAC multiplies it
 * by the pre-transformed 4x4 weights element by element, sums channels,
 * and transforms back with A^T M A, A^T = [[1,1,1,0],[0,1,-1,-1]]; all of
 * that is exact, so only the order-free sum over channels goes to the CACC.
 *
 * Weights: kernel groups as in direct mode; in a group, blocks of 4
 * channels; in a block, each kernel's 4x4x4 cube, position (y * 4 + x)
 * major, channel minor.
 */
#include "sim_internal.h"
#include "sim_math.h"

const struct sim_wino_bt sim_wino_bt[SIM_WINO_TILE] = {
	{ 0, 2, true }, { 1, 2, false }, { 2, 1, true }, { 1, 3, true },
};

/* Input transform rows: B^T[i] . v (B^T has entries 0, 1, -1). */
static inline s64 wino_bt(const s64 *v, u32 i, u32 step)
{
	const struct sim_wino_bt *t = &sim_wino_bt[i];

	return t->sub ? v[t->a * step] - v[t->b * step] :
			v[t->a * step] + v[t->b * step];
}

/* B^T d B of a 4x4 tile (row major), truncated and saturated. */
static void wino_pra(const struct sim_conv *cv, const s64 *d, s32 *out)
{
	s64 m[SIM_WINO_TILE * SIM_WINO_TILE];
	u32 r, c;

	for (r = 0; r < SIM_WINO_TILE; r++)
		for (c = 0; c < SIM_WINO_TILE; c++)
			m[r * SIM_WINO_TILE + c] = wino_bt(d + c, r, SIM_WINO_TILE);
	for (r = 0; r < SIM_WINO_TILE; r++)
		for (c = 0; c < SIM_WINO_TILE; c++)
			out[r * SIM_WINO_TILE + c] =
				sim_sat(sim_rha_shift(wino_bt(m + r * SIM_WINO_TILE,
							      c, 1),
						      cv->wino.pra_truncate),
					cv->bpe * 8);
}

void sim_wino_output(const s64 m[SIM_WINO_TILE * SIM_WINO_TILE],
		     s64 out[SIM_WINO_OUT][SIM_WINO_OUT])
{
	s64 ma[SIM_WINO_TILE][SIM_WINO_OUT];
	u32 r, s, i, j;

	for (r = 0; r < SIM_WINO_TILE; r++)
		for (j = 0; j < SIM_WINO_OUT; j++) {
			ma[r][j] = 0;
			for (s = 0; s < SIM_WINO_TILE; s++)
				ma[r][j] += sim_wino_at(j, s) * m[r * SIM_WINO_TILE + s];
		}
	for (i = 0; i < SIM_WINO_OUT; i++)
		for (j = 0; j < SIM_WINO_OUT; j++) {
			out[i][j] = 0;
			for (r = 0; r < SIM_WINO_TILE; r++)
				out[i][j] += sim_wino_at(i, r) * ma[r][j];
		}
}

/* Where extended channel @ce's elements are: surface and lane, phase. */
struct wino_chan {
	const u8 *p;
	s32 dx, dy;	/* element (X, Y) is (X * sx + dx, Y * sy + dy) */
};

static struct wino_chan wino_chan(const struct sim_conv *cv, u32 ce)
{
	const struct sim_wino *wn = &cv->wino;
	u32 e = ce % cv->lanes, rest = ce / cv->lanes;
	u32 surface = rest % wn->surfaces, phase = rest / wn->surfaces;
	struct wino_chan ch = {
		.p = cv->in + surface * cv->in_surf + e * cv->bpe,
		.dx = (s32)(phase % wn->sx) - (s32)wn->pad_left,
		.dy = (s32)(phase / wn->sx) - (s32)wn->pad_top,
	};

	return ch;
}

static s64 wino_element(const struct sim_conv *cv, const struct wino_chan *ch,
			u32 x, u32 y)
{
	const struct sim_wino *wn = &cv->wino;
	s32 px = (s32)(x * wn->sx) + ch->dx, py = (s32)(y * wn->sy) + ch->dy;
	const u8 *p;

	if (px < 0 || px >= (s32)wn->w || py < 0 || py >= (s32)wn->h)
		return wn->cdma_pad;
	p = ch->p + py * cv->in_line + px * cv->lanes * cv->bpe;
	return cv->bpe == 1 ? (s8)p[0] : (s16)(p[0] | p[1] << 8);
}

void sim_wino_inputs(const struct sim_conv *cv, u32 c, u32 x0, u32 y0,
		     s64 d[SIM_WINO_TILE * SIM_WINO_TILE])
{
	struct wino_chan ch = wino_chan(cv, c);
	u32 pos;

	for (pos = 0; pos < SIM_WINO_TILE * SIM_WINO_TILE; pos++)
		d[pos] = wino_element(cv, &ch, x0 + pos % SIM_WINO_TILE,
				      y0 + pos / SIM_WINO_TILE);
}

u64 sim_wino_weight_index(const struct sim_conv *cv, u32 k, u32 c, u32 pos)
{
	u32 kg = cv->kernels_per_group, group = k / kg, in_group = kg;
	u32 cube = SIM_WINO_TILE * SIM_WINO_TILE * SIM_WINO_BLOCK;

	if (cv->k - group * kg < kg)
		in_group = cv->k - group * kg;
	return (u64)group * kg * cube / SIM_WINO_BLOCK * cv->c +
	       (u64)(c / SIM_WINO_BLOCK) * in_group * cube +
	       (u64)(k % kg) * cube + pos * SIM_WINO_BLOCK + c % SIM_WINO_BLOCK;
}

void sim_wino_tile(const struct sim_conv *cv, u32 c, u32 x0, u32 y0,
		   s32 out[SIM_WINO_TILE * SIM_WINO_TILE])
{
	s64 d[SIM_WINO_TILE * SIM_WINO_TILE];

	sim_wino_inputs(cv, c, x0, y0, d);
	wino_pra(cv, d, out);
}

s64 sim_wino_value(const struct sim_conv *cv, u32 k, u32 x, u32 y)
{
	u32 tx = x - x % SIM_WINO_OUT, ty = y - y % SIM_WINO_OUT;
	u32 i = y % SIM_WINO_OUT, j = x % SIM_WINO_OUT, c, r, s, pos;
	s32 t[SIM_WINO_TILE * SIM_WINO_TILE];
	s64 acc = 0;

	for (c = 0; c < cv->c; c++) {
		sim_wino_tile(cv, c, tx, ty, t);
		for (r = 0; r < SIM_WINO_TILE; r++)
			for (s = 0; s < SIM_WINO_TILE; s++) {
				pos = r * SIM_WINO_TILE + s;
				acc += (s64)sim_wino_at(i, r) * sim_wino_at(j, s) *
				       t[pos] * sim_conv_weight_at(cv,
						sim_wino_weight_index(cv, k, c, pos));
			}
	}
	return sim_cacc_out(cv, acc);
}

/* The units agree on Winograd mode and the output is whole 2x2 tiles. */
static bool wino_modes_ok(const struct nvdla_sim *sim, const struct sim_conv *cv)
{
	u32 ow = SIM_FIELD(sim, CSC, D_DATAOUT_SIZE_0, DATAOUT_WIDTH) + 1;
	u32 oh = SIM_FIELD(sim, CSC, D_DATAOUT_SIZE_0, DATAOUT_HEIGHT) + 1;

	return sim->config->winograd &&
	       SIM_FIELD(sim, CDMA, D_MISC_CFG, CONV_MODE) &&
	       SIM_FIELD(sim, CMAC_A, D_MISC_CFG, CONV_MODE) &&
	       SIM_FIELD(sim, CMAC_B, D_MISC_CFG, CONV_MODE) &&
	       SIM_FIELD(sim, CACC, D_MISC_CFG, CONV_MODE) &&
	       SIM_FIELD(sim, SDP, D_FEATURE_MODE_CFG, WINOGRAD) &&
	       !cv->is_image && cv->batches == 1 &&
	       cv->r == SIM_WINO_TILE && cv->s == SIM_WINO_TILE &&
	       cv->c % SIM_WINO_BLOCK == 0 && ow % SIM_WINO_OUT == 0 &&
	       oh % SIM_WINO_OUT == 0 &&
	       (ow / SIM_WINO_OUT * oh / SIM_WINO_OUT) % 4 == 0 &&
	       ow - SIM_WINO_OUT + SIM_WINO_TILE <= cv->w &&
	       oh - SIM_WINO_OUT + SIM_WINO_TILE <= cv->h;
}

/*
 * Read the CDMA's padding and channel extension and map the input; false
 * for a program the hardware cannot run (the conditions its models check)
 * or memory the host does not map.
 */
bool sim_wino_params(struct nvdla_sim *sim, struct sim_conv *cv)
{
	struct sim_wino *wn = &cv->wino;
	u32 pad_right = SIM_FIELD(sim, CDMA, D_ZERO_PADDING, PAD_RIGHT);
	u32 pad_bottom = SIM_FIELD(sim, CDMA, D_ZERO_PADDING, PAD_BOTTOM);
	u32 c = SIM_FIELD(sim, CDMA, D_DATAIN_SIZE_1, DATAIN_CHANNEL) + 1;

	if (!wino_modes_ok(sim, cv))
		return false;
	wn->sx = SIM_FIELD(sim, CDMA, D_CONV_STRIDE, CONV_X_STRIDE) + 1;
	wn->sy = SIM_FIELD(sim, CDMA, D_CONV_STRIDE, CONV_Y_STRIDE) + 1;
	wn->w = SIM_FIELD(sim, CDMA, D_DATAIN_SIZE_0, DATAIN_WIDTH) + 1;
	wn->h = SIM_FIELD(sim, CDMA, D_DATAIN_SIZE_0, DATAIN_HEIGHT) + 1;
	wn->pad_left = SIM_FIELD(sim, CDMA, D_ZERO_PADDING, PAD_LEFT);
	wn->pad_top = SIM_FIELD(sim, CDMA, D_ZERO_PADDING, PAD_TOP);
	wn->surfaces = (c + cv->lanes - 1) / cv->lanes;
	wn->cdma_pad = sim_sext(SIM_FIELD(sim, CDMA, D_ZERO_PADDING_VALUE,
					  PAD_VALUE), cv->bpe * 8);
	wn->pra_truncate = SIM_FIELD(sim, CSC, D_PRA_CFG, PRA_TRUNCATE);
	if (wn->pad_left + wn->w + pad_right != cv->w * wn->sx ||
	    wn->pad_top + wn->h + pad_bottom != cv->h * wn->sy ||
	    cv->w % SIM_WINO_TILE || cv->h % SIM_WINO_TILE ||
	    cv->c != wn->surfaces * cv->lanes * wn->sx * wn->sy)
		return false;
	cv->in_line = SIM_STRIDE(sim, CDMA, D_LINE_STRIDE);
	cv->in_surf = SIM_STRIDE(sim, CDMA, D_SURF_STRIDE);
	cv->in_batch0 = SIM_MAP(sim, CDMA, D_DAIN_RAM_TYPE, DATAIN_RAM_TYPE,
				SIM_ADDR(sim, CDMA, D_DAIN_ADDR_LOW_0,
					 D_DAIN_ADDR_HIGH_0),
				(u64)(wn->surfaces - 1) * cv->in_surf +
				(u64)(wn->h - 1) * cv->in_line +
				(u64)wn->w * cv->lanes * cv->bpe);
	cv->in = cv->in_batch0;
	return cv->in;
}
