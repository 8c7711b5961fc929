// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * A convolution layer's outputs computed ahead, a block of output rows at
 * a time, split over the thread pool: integer direct and image layers by
 * the dense kernels (conv_dense.c), every other layer by the reference's
 * own output function. The SDP then reads each output from the cache, as
 * often as it needs it, instead of computing it again.
 */
#include <stdlib.h>

#include "accel.h"
#include "../conv_fp16.h"
#include "../sim_math.h"

#define CACHE_MAX_OUTPUTS (1ull << 26)	/* 320 MB; larger layers go output by output */
#define CACHE_BLOCK_MACS (1ull << 25)	/* worth waking the pool for */

struct cache_priv {
	struct sim_dense dense;
	/* the job that fills rows from @dense; NULL: the reference fills */
	void (*fill)(void *ctx, u32 i, u32 n);
	/* what it computes with: one of them */
	sim_dense_tile_fn *tile;
	sim_fp16_block_fn *fp16_block;
	sim_wino_fp16_block_fn *wino_block;	/* fp16 Winograd */
};

#define GROUP_K 32		/* kernels of one fp16 work item */

struct cache_job {
	struct sim_conv_cache *cc;
	const struct sim_conv *cv;
	u32 y0, y1;
};

static void cache_store(struct sim_conv_cache *cc, u64 i, s64 out, bool fp16)
{
	s64 clipped = fp16 ? out : sim_sat(out, 32);

	cc->val[i] = (u32)clipped;
	cc->sat[i] = clipped != out;
}

/* Rows @y0..@y1 of kernel @k through the reference, one output at a time. */
static void cache_fill_ref(void *ctx, u32 i, u32 n)
{
	const struct cache_job *job = ctx;
	struct sim_conv_cache *cc = job->cc;
	struct sim_conv cv = *job->cv;
	u64 items = (u64)(job->y1 - job->y0) * cc->k, it;
	u32 count, x, y, k;
	s64 out;

	cv.cache = NULL;
	cv.sat_count = &count;
	for (it = items * i / n; it < items * (i + 1) / n; it++) {
		y = job->y0 + it / cc->k;
		k = it % cc->k;
		for (x = 0; x < cc->w; x++) {
			count = 0;
			out = cv.fp16 ? sim_conv_fp16_value(&cv, k, x, y) :
				sim_conv_value(&cv, k, x, y);
			cc->val[sim_conv_cache_at(cc, k, x, y)] = (u32)out;
			cc->sat[sim_conv_cache_at(cc, k, x, y)] = count != 0;
		}
	}
}

/*
 * The weights of kernels @k0 on (SIM_DENSE_KT of them, of @k) for the
 * dense tile into @w: a partial tile repeats its last kernel.
 */
static void dense_kernels(const struct sim_dense *dl, u32 k0, u32 k,
			  const s16 **w)
{
	u32 a;

	for (a = 0; a < SIM_DENSE_KT; a++)
		w[a] = dl->wt + (u64)(k0 + a < k ? k0 + a : k - 1) * dl->taps *
				dl->cp;
}

/* Items of SIM_DENSE_KT kernels of one row, through the dense tile. */
static void cache_fill_dense(void *ctx, u32 i, u32 n)
{
	const struct cache_job *job = ctx;
	struct sim_conv_cache *cc = job->cc;
	const struct cache_priv *pv = cc->priv;
	const struct sim_dense *dl = &pv->dense;
	u32 tiles = (cc->k + SIM_DENSE_KT - 1) / SIM_DENSE_KT, a, b, x, y, k0;
	u64 items = (u64)(job->y1 - job->y0) * tiles, it;
	s64 out[SIM_DENSE_KT][SIM_DENSE_XT];
	const s16 *w[SIM_DENSE_KT], *d[SIM_DENSE_XT];

	for (it = items * i / n; it < items * (i + 1) / n; it++) {
		y = job->y0 + it / tiles;
		k0 = it % tiles * SIM_DENSE_KT;
		/* a partial tile repeats its last output */
		dense_kernels(dl, k0, cc->k, w);
		for (x = 0; x < cc->w; x += SIM_DENSE_XT) {
			for (b = 0; b < SIM_DENSE_XT; b++)
				d[b] = dl->in + y * dl->ystep +
				       (x + b < cc->w ? x + b : cc->w - 1) *
				       dl->xstep;
			pv->tile(w, d, dl, out);
			for (a = 0; a < SIM_DENSE_KT && k0 + a < cc->k; a++)
				for (b = 0; b < SIM_DENSE_XT && x + b < cc->w; b++)
					cache_store(cc, sim_conv_cache_at(cc, k0 + a,
									  x + b, y),
						    sim_cacc_round(job->cv, out[a][b]),
						    false);
		}
	}
}

/*
 * Winograd: items of SIM_DENSE_KT kernels of one row of tiles (two rows of
 * outputs), through the dense tile.
 */
static void cache_fill_wino(void *ctx, u32 i, u32 n)
{
	const struct cache_job *job = ctx;
	struct sim_conv_cache *cc = job->cc;
	const struct cache_priv *pv = cc->priv;
	const struct sim_dense *dl = &pv->dense;
	u32 ktiles = (cc->k + SIM_DENSE_KT - 1) / SIM_DENSE_KT;
	u32 tiles = cc->w / SIM_WINO_OUT, a, b, r, s, tx, ty, k0;
	u64 items = (u64)(job->y1 - job->y0) / SIM_WINO_OUT * ktiles, it;
	s64 out[SIM_DENSE_KT][SIM_DENSE_XT][SIM_WINO_OUT][SIM_WINO_OUT];
	const s16 *w[SIM_DENSE_KT], *d[SIM_DENSE_XT];

	for (it = items * i / n; it < items * (i + 1) / n; it++) {
		ty = job->y0 / SIM_WINO_OUT + it / ktiles;
		k0 = it % ktiles * SIM_DENSE_KT;
		/* a partial tile repeats its last input tile */
		dense_kernels(dl, k0, cc->k, w);
		for (tx = 0; tx < tiles; tx += SIM_DENSE_XT) {
			for (b = 0; b < SIM_DENSE_XT; b++)
				d[b] = dl->in + ty * dl->ystep +
				       (tx + b < tiles ? tx + b : tiles - 1) * dl->xstep;
			sim_dense_wino_tiles(dl, pv->tile, w, d, out);
			for (a = 0; a < SIM_DENSE_KT && k0 + a < cc->k; a++)
				for (b = 0; b < SIM_DENSE_XT && tx + b < tiles; b++)
					for (r = 0; r < SIM_WINO_OUT; r++)
						for (s = 0; s < SIM_WINO_OUT; s++)
							cache_store(cc, sim_conv_cache_at(cc, k0 + a,
								(tx + b) * SIM_WINO_OUT + s,
								ty * SIM_WINO_OUT + r),
								sim_cacc_round(job->cv,
									       out[a][b][r][s]),
								false);
		}
	}
}

/* fp16 Winograd: items of one kernel at one row of tiles. */
static void cache_fill_wino_fp16(void *ctx, u32 i, u32 n)
{
	const struct cache_job *job = ctx;
	struct sim_conv_cache *cc = job->cc;
	const struct cache_priv *pv = cc->priv;
	u32 tiles = cc->w / SIM_WINO_OUT, r, s, tx, ty, k;
	u64 items = (u64)(job->y1 - job->y0) / SIM_WINO_OUT * cc->k, it, at;
	u32 out[SIM_WINO_OUT][SIM_WINO_OUT];

	for (it = items * i / n; it < items * (i + 1) / n; it++) {
		ty = job->y0 / SIM_WINO_OUT + it / cc->k;
		k = it % cc->k;
		for (tx = 0; tx < tiles; tx++) {
			sim_dense_wino_fp16_outputs(&pv->dense, pv->wino_block, k,
						    tx, ty, out);
			for (r = 0; r < SIM_WINO_OUT; r++)
				for (s = 0; s < SIM_WINO_OUT; s++) {
					at = sim_conv_cache_at(cc, k,
							       tx * SIM_WINO_OUT + s,
							       ty * SIM_WINO_OUT + r);
					cc->val[at] = out[r][s];
					cc->sat[at] = 0;
				}
		}
	}
}

/* Rows @y0..@y1 of every kernel, fp16, through the block function. */
static void cache_fill_fp16(void *ctx, u32 i, u32 n)
{
	const struct cache_job *job = ctx;
	struct sim_conv_cache *cc = job->cc;
	const struct cache_priv *pv = cc->priv;
	u64 items = (u64)(job->y1 - job->y0) * cc->k, it, at;
	u32 y, k, x;

	for (it = items * i / n; it < items * (i + 1) / n; it++) {
		y = job->y0 + it / cc->k;
		k = it % cc->k;
		at = sim_conv_cache_at(cc, k, 0, y);
		sim_dense_fp16_row(&pv->dense, pv->fp16_block, k, y,
				   cc->w, cc->val + at, cc->k);
		for (x = 0; x < cc->w; x++)
			cc->sat[at + (u64)x * cc->k] = 0;
	}
}

#ifdef SIM_AVX2
/*
 * Items of SIM_FP16_GROUP_X outputs (in row order, across rows: narrow
 * layers fill the vectors too) by GROUP_K kernels, fp16 on AVX2.
 */
static void cache_fill_fp16_groups(void *ctx, u32 i, u32 n)
{
	const struct cache_job *job = ctx;
	struct sim_conv_cache *cc = job->cc;
	const struct cache_priv *pv = cc->priv;
	u64 outs = (u64)(job->y1 - job->y0) * cc->w, o0, at, o;
	u32 xg = (outs + SIM_FP16_GROUP_X - 1) / SIM_FP16_GROUP_X;
	u32 kg = (cc->k + GROUP_K - 1) / GROUP_K, no, k0, k1, k, x;
	u64 items = (u64)xg * kg, it;
	struct sim_fp_acc acc[GROUP_K * SIM_FP16_GROUP_X];

	for (it = items * i / n; it < items * (i + 1) / n; it++) {
		o0 = (u64)job->y0 * cc->w + it / kg * SIM_FP16_GROUP_X;
		k0 = it % kg * GROUP_K;
		no = (u64)job->y1 * cc->w - o0 < SIM_FP16_GROUP_X ?
		     (u64)job->y1 * cc->w - o0 : SIM_FP16_GROUP_X;
		k1 = cc->k - k0 < GROUP_K ? cc->k : k0 + GROUP_K;
		memset(acc, 0, sizeof(acc));
		sim_dense_fp16_group_avx2(&pv->dense, cc->w, o0, no, k0, k1, acc);
		for (k = k0; k < k1; k++)
			for (x = 0; x < no; x++) {
				o = o0 + x;
				at = sim_conv_cache_at(cc, k, o % cc->w, o / cc->w);
				cc->val[at] = sim_cacc_fp16_to_fp32(
					&acc[(k - k0) * SIM_FP16_GROUP_X + x]);
				cc->sat[at] = 0;
			}
	}
}
#endif /* SIM_AVX2 */

static void cache_decode(void *ctx, u32 i, u32 n)
{
	const struct cache_job *job = ctx;
	struct cache_priv *pv = job->cc->priv;
	u32 rows = pv->dense.rows;
	u32 row0 = (u64)rows * i / n, row1 = (u64)rows * (i + 1) / n;

	sim_dense_input(&pv->dense, job->cv, row0, row1);
	if (pv->fp16_block)
		sim_dense_fp16_input(&pv->dense, row0, row1);
}

static void cache_weights(void *ctx, u32 i, u32 n)
{
	const struct cache_job *job = ctx;
	struct cache_priv *pv = job->cc->priv;
	u32 k = job->cc->k;

	if (pv->fp16_block) {
		sim_dense_fp16_weights(&pv->dense, job->cv, (u64)k * i / n,
				       (u64)k * (i + 1) / n);
#ifdef SIM_AVX2
		if (pv->fill == cache_fill_fp16_groups)
			sim_dense_fp16_wdec(&pv->dense, (u64)k * i / n,
					    (u64)k * (i + 1) / n);
#endif
	} else
		sim_dense_weights(&pv->dense, job->cv, (u64)k * i / n,
				  (u64)k * (i + 1) / n);
}

static void cache_fill(struct sim_conv_cache *cc, const struct sim_conv *cv,
		       u32 y0, u32 y1)
{
	struct cache_priv *pv = cc->priv;
	struct cache_job job = { cc, cv, y0, y1 };

	if (!pv->fill) {
		sim_threads_run(cache_fill_ref, &job);
		return;
	}
	if (!pv->dense.decoded || pv->dense.batch_in != cv->in) {
		sim_threads_run(cache_decode, &job);
		pv->dense.decoded = true;
		pv->dense.batch_in = cv->in;
	}
	sim_threads_run(pv->fill, &job);
}

/*
 * Decode @cv's weights into dense arrays for a @w x @h output and choose
 * the filler, where one fits; else the reference fills.
 */
static void cache_dense(struct sim_conv_cache *cc, const struct sim_conv *cv,
			u32 w, u32 h, enum sim_simd simd)
{
	struct cache_priv *pv = cc->priv;
	struct cache_job job = { cc, cv, 0, 0 };

	if (sim_dense_wino_fp16_open(&pv->dense, cv, w, h)) {
		pv->wino_block = sim_wino_fp16_block;
#ifdef SIM_AVX2
		if (simd == SIM_SIMD_AVX2)
			pv->wino_block = sim_wino_fp16_block_avx2;
#endif
		pv->fill = cache_fill_wino_fp16;
	} else if (cv->fp16 && sim_dense_fp16_open(&pv->dense, cv, w, h)) {
		pv->fp16_block = sim_fp16_block_c;
		pv->fill = cache_fill_fp16;
#ifdef SIM_AVX2
		if (simd == SIM_SIMD_AVX2) {
			pv->fp16_block = sim_fp16_block_avx2;
			/* SIM_FP16_GROUP_X outputs at a time */
			if (sim_dense_fp16_group_ready() &&
			    sim_dense_fp16_wdec_open(&pv->dense, cv->k))
				pv->fill = cache_fill_fp16_groups;
		}
#endif
	} else if (!cv->fp16 && sim_dense_open(&pv->dense, cv, w, h)) {
		pv->tile = sim_dense_tile(&pv->dense, simd);
		pv->fill = cv->winograd ? cache_fill_wino : cache_fill_dense;
	} else {
		return;
	}
	sim_threads_run(cache_weights, &job);
}

void sim_conv_cache_open(struct sim_conv *cv, u32 w, u32 h)
{
	enum sim_simd simd = sim_simd();
	u64 outputs = (u64)cv->k * w * h;
	u64 row_macs = (u64)w * cv->k * cv->r * cv->s * cv->c;
	struct sim_conv_cache *cc;
	struct cache_priv *pv;

	cv->cache = NULL;
	/* Off and alone: output by output, as the kernel module computes. */
	if ((simd == SIM_SIMD_OFF && sim_threads() == 1) || !outputs ||
	    outputs > CACHE_MAX_OUTPUTS)
		return;
	cc = calloc(1, sizeof(*cc));
	pv = calloc(1, sizeof(*pv));
	if (!cc || !pv)
		goto fail;
	cc->w = w;
	cc->h = h;
	cc->k = cv->k;
	cc->block_rows = row_macs >= CACHE_BLOCK_MACS ? 1 :
			 CACHE_BLOCK_MACS / (row_macs ? row_macs : 1);
#ifdef SIM_AVX2
	/* the fp16 groups' vectors of outputs filled */
	if (cv->fp16 && cc->block_rows * w < SIM_FP16_GROUP_X)
		cc->block_rows = (SIM_FP16_GROUP_X + w - 1) / w;
#endif
	/* whole tiles of Winograd outputs */
	if (cv->winograd && cc->block_rows % SIM_WINO_OUT)
		cc->block_rows++;
	cc->ready = calloc((h + cc->block_rows - 1) / cc->block_rows, 1);
	cc->val = malloc(outputs * sizeof(*cc->val));
	cc->sat = malloc(outputs);
	if (!cc->ready || !cc->val || !cc->sat)
		goto fail;
	cc->fill = cache_fill;
	cc->priv = pv;
	cc->in = cv->in;
	cv->cache = cc;
	cache_dense(cc, cv, w, h, simd);
	return;
fail:
	if (cc) {
		free(cc->ready);
		free(cc->val);
		free(cc->sat);
	}
	free(cc);
	free(pv);
}

void sim_conv_cache_close(struct sim_conv *cv)
{
	struct sim_conv_cache *cc = cv->cache;
	struct cache_priv *pv;

	if (!cc)
		return;
	pv = cc->priv;
	sim_dense_close(&pv->dense);
	free(pv);
	free(cc->ready);
	free(cc->val);
	free(cc->sat);
	free(cc);
	cv->cache = NULL;
}
