// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Integer direct and image layers as dense int16 arrays (Winograd ones:
 * conv_dense_wino.c): the input cube (or the pre-extended image lines)
 * decoded once per layer with the padding in place, the weights once in
 * kernel, tap, channel order, so that every output is a sum of contiguous
 * dot products that vector units run. The values come from the reference's own accessors and layout
 * (sim_conv_input_at, sim_conv_weight_at, cdma_image.c's), so the sum is
 * the reference's, exactly.
 */
#include <stdlib.h>

#include "accel.h"
#include "../conv_fp16.h"
#include "../sim_math.h"

#define DENSE_LANES 16		/* int16 elements of one 256-bit vector */
/* int8 products are at most 2^14 in magnitude: a sum of fewer fits int32 */
#define DENSE_NARROW_MAX ((1u << 31) / (128 * 128))

static u64 round_up(u64 v, u64 to)
{
	return (v + to - 1) / to * to;
}

/* Padded input geometry of a @w x @h output, and the tap offsets. */
static bool dense_geometry(struct sim_dense *dl, const struct sim_conv *cv,
			   u32 w, u32 h)
{
	u32 r, s;

	dl->c = cv->c;
	dl->cp = round_up(cv->c, DENSE_LANES);
	if (cv->winograd) {	/* a tap per tile position; a line per tile row */
		dl->taps = SIM_WINO_TILE * SIM_WINO_TILE;
		dl->rows = h / SIM_WINO_OUT;
		dl->xstep = (u64)dl->taps * dl->cp;
		dl->line = w / SIM_WINO_OUT * dl->xstep;
		dl->ystep = dl->line;	/* the CSC's stride: not Winograd's */
	} else if (cv->is_image) {	/* one tap per kernel row of pre-extended lines */
		dl->taps = cv->r;
		dl->rows = (h - 1) * cv->stride_y + cv->r;
		dl->xstep = (u64)cv->stride_x * cv->image.channels;
		dl->line = (w - 1) * dl->xstep + dl->cp;
	} else {
		dl->taps = cv->r * cv->s;
		dl->rows = (h - 1) * cv->stride_y +
			   (cv->r - 1) * cv->dilation_y + 1;
		dl->xstep = (u64)cv->stride_x * dl->cp;
		dl->line = ((u64)(w - 1) * cv->stride_x +
			    (u64)(cv->s - 1) * cv->dilation_x + 1) * dl->cp;
	}
	if (!cv->winograd)
		dl->ystep = dl->line * cv->stride_y;
	dl->in_len = dl->line * dl->rows;
	if (dl->in_len > SIM_DENSE_MAX_ELEMS ||
	    (u64)cv->k * dl->taps * dl->cp > SIM_DENSE_MAX_ELEMS)
		return false;
	dl->toff = malloc(dl->taps * sizeof(*dl->toff));
	if (!dl->toff)
		return false;
	for (r = 0; cv->winograd && r < dl->taps; r++)
		dl->toff[r] = (u64)r * dl->cp;
	for (r = 0; !cv->winograd && r < cv->r; r++)
		for (s = 0; s < dl->taps / cv->r; s++)
			dl->toff[r * (dl->taps / cv->r) + s] =
				(u64)r * cv->dilation_y * dl->line +
				(u64)s * cv->dilation_x * dl->cp;
	return true;
}

bool sim_dense_open(struct sim_dense *dl, const struct sim_conv *cv, u32 w,
		    u32 h)
{
	memset(dl, 0, sizeof(*dl));
	if ((cv->winograd && cv->fp16) || !dense_geometry(dl, cv, w, h))
		return false;
	dl->narrow = cv->bpe == 1 && (u64)dl->taps * dl->cp < DENSE_NARROW_MAX;
	dl->in = malloc(dl->in_len * sizeof(*dl->in));
	dl->wt = calloc((u64)cv->k * dl->taps * dl->cp, sizeof(*dl->wt));
	if (!dl->in || !dl->wt) {
		sim_dense_close(dl);
		return false;
	}
	return true;
}

/*
 * @n int8 elements widened, eight at a time through copies of their own
 * that the compiler vectorises (nothing there can alias the output).
 */
static void dense_s8(s16 *p, const u8 *src, u32 n)
{
	u8 b[8];
	s16 v[8];
	u32 i, j;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(b, src + i, sizeof(b));
		for (j = 0; j < 8; j++)
			v[j] = (s8)b[j];
		memcpy(p + i, v, sizeof(v));
	}
	for (; i < n; i++)
		p[i] = (s8)src[i];
}

/* @n elements of @bpe bytes at @src, as the CMAC takes them. */
static void dense_elems(s16 *p, const u8 *src, u32 n, u32 bpe)
{
	u32 i;

	if (bpe == 1)
		dense_s8(p, src, n);
	else
		for (i = 0; i < n; i++)
			p[i] = sim_load(src + 2 * i, 2);
}

/* Weights @at to @at + @n of the direct layout, decoded for the CMAC. */
static void dense_run(s16 *p, const struct sim_conv *cv, u64 at, u32 n)
{
	u32 i;

	if (cv->compressed)
		for (i = 0; i < n; i++)
			p[i] = sim_conv_weight_at(cv, at + i);
	else
		dense_elems(p, cv->wt + at * cv->bpe, n, cv->bpe);
	for (i = 0; cv->fp16 && i < n; i++)
		p[i] = sim_cdma_fp16(cv->flush_weights, p[i]);
}

/*
 * Direct weights of kernels @k0..@k1, visited in the order they lie in
 * the layout (kernel groups, atomic-C channel blocks, taps, the group's
 * kernels, the block's channels), so that each run's offset is the last
 * one's end rather than worked out anew.
 */
static void dense_direct_weights(struct sim_dense *dl,
				 const struct sim_conv *cv, u32 k0, u32 k1)
{
	u32 kg = cv->kernels_per_group, taps = cv->r * cv->s;
	u32 g, in_group, c0, n, t, k;
	u64 at;

	for (g = k0 / kg; g * kg < k1; g++) {
		in_group = cv->k - g * kg < kg ? cv->k - g * kg : kg;
		at = (u64)g * kg * taps * cv->c;
		for (c0 = 0; c0 < cv->c; c0 += cv->atomic_c) {
			n = cv->c - c0 < cv->atomic_c ? cv->c - c0 : cv->atomic_c;
			for (t = 0; t < taps; t++)
				for (k = g * kg; k < g * kg + in_group; k++, at += n)
					if (k >= k0 && k < k1)
						dense_run(dl->wt + ((u64)k * dl->taps + t) *
							  dl->cp + c0, cv, at, n);
		}
	}
}

void sim_dense_weights(struct sim_dense *dl, const struct sim_conv *cv,
		       u32 k0, u32 k1)
{
	u32 k, t, c;
	s16 *p;

	if (cv->winograd) {
		if (cv->fp16)
			sim_dense_wino_fp16_weights(dl, cv, k0, k1);
		else
			sim_dense_wino_weights(dl, cv, k0, k1);
		return;
	}
	if (!cv->is_image) {
		dense_direct_weights(dl, cv, k0, k1);
		return;
	}
	for (k = k0; k < k1; k++)
		for (t = 0; t < dl->taps; t++) {
			p = dl->wt + ((u64)k * dl->taps + t) * dl->cp;
			for (c = 0; c < cv->c; c++)
				p[c] = cv->fp16 ?
				       sim_cdma_fp16(cv->flush_weights,
						     sim_image_weight(cv, k, c, t)) :
				       sim_image_weight(cv, k, c, t);
		}
}

void sim_dense_close(struct sim_dense *dl)
{
	free(dl->in);
	free(dl->wt);
	free(dl->toff);
	free(dl->wnan);
	free(dl->dnan);
#ifdef SIM_AVX2
	free(dl->wdec);
	free(dl->wcount);
#endif
	memset(dl, 0, sizeof(*dl));
}

/* Input row @row of the padded lines of pre-extended image pixels. */
static void dense_image_row(struct sim_dense *dl, const struct sim_conv *cv,
			    u32 row)
{
	s16 *p = dl->in + (u64)row * dl->line;
	s32 iy = (s32)row - (s32)cv->pad_top;
	u64 e, used = dl->line - dl->cp + cv->c;

	for (e = 0; e < dl->line; e++)
		p[e] = e < used ? sim_image_input(cv, e, iy) : 0;
}

/*
 * Element (@ix, @iy) of the padded cube into @p, an atom at a time, its
 * channels past the layer's zero.
 */
static void dense_element(s16 *p, const struct sim_dense *dl,
			  const struct sim_conv *cv, s32 ix, s32 iy)
{
	u32 c, n;

	if (ix < 0 || ix >= (s32)cv->w || iy < 0 || iy >= (s32)cv->h) {
		/* the CSC's padding: the CDMA neither stores nor flushes it */
		for (c = 0; c < dl->cp; c++)
			p[c] = c < cv->c ? cv->pad_value : 0;
		return;
	}
	for (c = 0; c < cv->c; c += n) {
		n = cv->c - c < cv->lanes ? cv->c - c : cv->lanes;
		dense_elems(p + c, sim_conv_input_at(cv, c, ix, iy), n, cv->bpe);
	}
	for (c = cv->c; c < dl->cp; c++)
		p[c] = 0;
	for (c = 0; cv->fp16 && c < cv->c; c++)	/* what the CDMA stores */
		p[c] = sim_cdma_fp16(cv->flush_data, p[c]);
}

/* Input row @row of the padded cube. */
static void dense_cube_row(struct sim_dense *dl, const struct sim_conv *cv,
			   u32 row)
{
	s16 *p = dl->in + (u64)row * dl->line;
	u32 x, cols = dl->line / dl->cp;

	for (x = 0; x < cols; x++, p += dl->cp)
		dense_element(p, dl, cv, (s32)x - (s32)cv->pad_left,
			      (s32)row - (s32)cv->pad_top);
}

void sim_dense_input(struct sim_dense *dl, const struct sim_conv *cv,
		     u32 row0, u32 row1)
{
	u32 row;

	for (row = row0; row < row1; row++) {
		if (cv->winograd && cv->fp16)
			sim_dense_wino_fp16_row(dl, cv, row);
		else if (cv->winograd)
			sim_dense_wino_row(dl, cv, row);
		else if (cv->is_image)
			dense_image_row(dl, cv, row);
		else
			dense_cube_row(dl, cv, row);
	}
}

/* The plain C tile: int32 partial sums per tap where they are exact. */
static void dense_tile_c(const s16 *const *w, const s16 *const *d,
			 const struct sim_dense *dl,
			 s64 out[SIM_DENSE_KT][SIM_DENSE_XT])
{
	u32 i, j, t, c;

	for (i = 0; i < SIM_DENSE_KT; i++)
		for (j = 0; j < SIM_DENSE_XT; j++) {
			s64 acc = 0;

			for (t = 0; t < dl->taps; t++) {
				const s16 *a = d[j] + dl->toff[t];
				const s16 *b = w[i] + (u64)t * dl->cp;

				if (dl->narrow) {
					s32 part = 0;

					for (c = 0; c < dl->cp; c++)
						part += a[c] * b[c];
					acc += part;
				} else {
					for (c = 0; c < dl->cp; c++)
						acc += (s64)(a[c] * b[c]);
				}
			}
			out[i][j] = acc;
		}
}

sim_dense_tile_fn *sim_dense_tile(const struct sim_dense *dl,
				  enum sim_simd simd)
{
#if defined(SIM_AVX2)
	if (simd == SIM_SIMD_AVX2)
		return dl->narrow ? sim_dense_tile_avx2 : sim_dense_tile16_avx2;
#elif defined(SIM_NEON)
	if (simd == SIM_SIMD_NEON)
		return dl->narrow ? sim_dense_tile_neon : sim_dense_tile16_neon;
#else
	(void)dl;	/* plain C is the only path */
	(void)simd;
#endif
	return dense_tile_c;
}
