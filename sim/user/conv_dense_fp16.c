// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * fp16 direct layers on the dense arrays (conv_dense.c holds the data and
 * weights as the CDMA stored them, NaNs flushed where it flushes): per
 * output, the CMAC's blocks of atomic-C channels at each tap, in the
 * CSC's order, into the CACC's float accumulator, the arithmetic of
 * conv_fp16.c. Where a block has a NaN the reference's own NaN search
 * gives its partial sum; the others go to a block function, plain C
 * (conv_fp16.c's lanes) or vector (conv_dense_fp16_avx2.c).
 */
#include <stdlib.h>

#include "accel.h"
#include "../conv_fp16.h"

/* An fp16 NaN: all-ones exponent, non-zero fraction. */
static bool fp16_is_nan(u16 h)
{
	return (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
}

bool sim_dense_fp16_nan(const u16 *p, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (fp16_is_nan(p[i]))
			return true;
	return false;
}

static bool any_nan(const s16 *p, u32 n)
{
	return sim_dense_fp16_nan((const u16 *)p, n);
}

static u32 block_len(const struct sim_dense *dl, u32 b)
{
	u32 c0 = b * dl->block;

	return dl->c - c0 < dl->block ? dl->c - c0 : dl->block;
}

bool sim_dense_fp16_open(struct sim_dense *dl, const struct sim_conv *cv,
			 u32 w, u32 h)
{
	if (!cv->fp16 || !sim_dense_open(dl, cv, w, h))
		return false;
	dl->ext = cv->is_image ? cv->image.post_ext : 1;
	dl->block = cv->atomic_c;
	dl->blocks = (cv->c + dl->block - 1) / dl->block;
	dl->wnan = calloc((u64)cv->k * dl->taps * dl->blocks,
			  sizeof(*dl->wnan));
	/* image lines: each block searched as it comes */
	if (!cv->is_image)
		dl->dnan = calloc(dl->in_len / dl->cp * dl->blocks,
				  sizeof(*dl->dnan));
	if (!dl->wnan || (!cv->is_image && !dl->dnan)) {
		sim_dense_close(dl);
		return false;
	}
	return true;
}

void sim_dense_fp16_weights(struct sim_dense *dl, const struct sim_conv *cv,
			    u32 k0, u32 k1)
{
	u32 k, t, b;
	u64 kt;

	sim_dense_weights(dl, cv, k0, k1);
	for (k = k0; k < k1; k++)
		for (t = 0; t < dl->taps; t++) {
			kt = (u64)k * dl->taps + t;
			for (b = 0; b < dl->blocks; b++)
				dl->wnan[kt * dl->blocks + b] =
					any_nan(dl->wt + kt * dl->cp + b * dl->block,
						block_len(dl, b));
		}
}

void sim_dense_fp16_input(struct sim_dense *dl, u32 row0, u32 row1)
{
	u64 per_row = dl->line / dl->cp, pos, b;

	if (!dl->dnan)
		return;
	for (pos = row0 * per_row; pos < row1 * per_row; pos++)
		for (b = 0; b < dl->blocks; b++)
			dl->dnan[pos * dl->blocks + b] =
				any_nan(dl->in + pos * dl->cp + b * dl->block,
					block_len(dl, b));
}

void sim_fp16_block_c(const u16 *d, const u16 *w, u32 n,
		      struct sim_fp_psum *p)
{
	u32 i, top = sim_cmac_fp16_top(d, w, n);

	p->mant = 0;
	for (i = 0; i < n; i++)
		p->mant += sim_cmac_fp16_lane(d[i], w[i], top);
	p->exp = 4 * top;
}

/*
 * With post-extension the rows of a pass share one block, each row's
 * channels (at most atomic-C / ext, a single block) one after the other.
 */
static void dense_fp16_passes(const struct sim_dense *dl,
			      sim_fp16_block_fn *block, u32 k, u32 y, u32 w,
			      u32 *out, u32 stride)
{
	u16 d[SIM_CMAC_FP16_LANES + 8], wt[SIM_CMAC_FP16_LANES + 8];
	struct sim_fp_psum p;
	struct sim_fp_acc acc;
	u32 x, r0, r, n;
	u64 at;

	for (x = 0; x < w; x++) {
		acc.exp = 0;
		acc.mant = 0;
		for (r0 = 0; r0 < dl->taps; r0 += dl->ext) {
			for (n = 0, r = r0; r < dl->taps && r < r0 + dl->ext; r++) {
				at = y * dl->ystep + x * dl->xstep + dl->toff[r];
				memcpy(d + n, dl->in + at, dl->c * sizeof(*d));
				memcpy(wt + n, dl->wt + ((u64)k * dl->taps + r) * dl->cp,
				       dl->c * sizeof(*wt));
				n += dl->c;
			}
			memset(d + n, 0, 8 * sizeof(*d));
			memset(wt + n, 0, 8 * sizeof(*wt));
			if (!sim_cmac_fp16_nan(d, wt, n, &p))
				block(d, wt, n, &p);
			sim_cacc_fp16_add(&acc, p);
		}
		out[(u64)x * stride] = sim_cacc_fp16_to_fp32(&acc);
	}
}

void sim_dense_fp16_row(const struct sim_dense *dl, sim_fp16_block_fn *block,
			u32 k, u32 y, u32 w, u32 *out, u32 stride)
{
	struct sim_fp_psum p;
	struct sim_fp_acc acc;
	const u16 *dp, *wp;
	u32 x, b, t, n;
	u64 at, kt;

	if (dl->ext > 1) {
		dense_fp16_passes(dl, block, k, y, w, out, stride);
		return;
	}
	for (x = 0; x < w; x++) {
		acc.exp = 0;
		acc.mant = 0;
		for (b = 0; b < dl->blocks; b++) {
			n = block_len(dl, b);
			for (t = 0; t < dl->taps; t++) {
				at = y * dl->ystep + x * dl->xstep + dl->toff[t];
				kt = (u64)k * dl->taps + t;
				dp = (const u16 *)dl->in + at + b * dl->block;
				wp = (const u16 *)dl->wt + kt * dl->cp +
				     b * dl->block;
				if (!((!dl->dnan || dl->wnan[kt * dl->blocks + b] ||
				       dl->dnan[at / dl->cp * dl->blocks + b]) &&
				      sim_cmac_fp16_nan(dp, wp, n, &p)))
					block(dp, wp, n, &p);
				sim_cacc_fp16_add(&acc, p);
			}
		}
		out[(u64)x * stride] = sim_cacc_fp16_to_fp32(&acc);
	}
}
