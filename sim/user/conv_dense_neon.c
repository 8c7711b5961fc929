// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The dense integer tiles on AArch64's Advanced SIMD (conv_dense.c).
 * int8: smlal multiplies 8 int16 pairs into 4 int32 lanes; a layer is
 * narrow only when no int32 sum can overflow, so the result is the exact
 * sum. 4 kernels by 3 outputs keep 12 accumulators in registers and load
 * each weight and data vector once per tile. int16: every product fits
 * int32 (at most 2^30), and sadalp adds them pairwise into int64 lanes.
 */
#include <arm_neon.h>

#include "accel.h"

/* acc += a . w on 8 int16 pairs, into 4 int32 lanes */
#define MLAL(acc, a, w) \
	((acc) = vmlal_high_s16(vmlal_s16((acc), vget_low_s16(a), \
					  vget_low_s16(w)), (a), (w)))

void sim_dense_tile_neon(const s16 *const *w, const s16 *const *d,
			 const struct sim_dense *dl,
			 s64 out[SIM_DENSE_KT][SIM_DENSE_XT])
{
	int32x4_t a[SIM_DENSE_KT][SIM_DENSE_XT];
	int16x8_t d0, d1, d2, wv;
	u32 i, j, t, c;

	for (i = 0; i < SIM_DENSE_KT; i++)
		for (j = 0; j < SIM_DENSE_XT; j++)
			a[i][j] = vdupq_n_s32(0);
	for (t = 0; t < dl->taps; t++) {
		const s16 *p0 = d[0] + dl->toff[t], *p1 = d[1] + dl->toff[t];
		const s16 *p2 = d[2] + dl->toff[t];
		u64 wo = (u64)t * dl->cp;

		for (c = 0; c < dl->cp; c += 8) {
			d0 = vld1q_s16(p0 + c);
			d1 = vld1q_s16(p1 + c);
			d2 = vld1q_s16(p2 + c);
			for (i = 0; i < SIM_DENSE_KT; i++) {
				wv = vld1q_s16(w[i] + wo + c);
				MLAL(a[i][0], d0, wv);
				MLAL(a[i][1], d1, wv);
				MLAL(a[i][2], d2, wv);
			}
		}
	}
	for (i = 0; i < SIM_DENSE_KT; i++)
		for (j = 0; j < SIM_DENSE_XT; j++)
			out[i][j] = vaddlvq_s32(a[i][j]);
}

/* acc += a . w on 8 int16 pairs, into 2 int64 lanes */
#define MULL_ADD(acc, a, w) do { \
	(acc) = vpadalq_s32((acc), vmull_s16(vget_low_s16(a), vget_low_s16(w))); \
	(acc) = vpadalq_s32((acc), vmull_high_s16((a), (w))); \
} while (0)

void sim_dense_tile16_neon(const s16 *const *w, const s16 *const *d,
			   const struct sim_dense *dl,
			   s64 out[SIM_DENSE_KT][SIM_DENSE_XT])
{
	int64x2_t a0, a1, a2;
	int16x8_t wv;
	u32 i, t, c;

	for (i = 0; i < SIM_DENSE_KT; i++) {
		a0 = vdupq_n_s64(0);
		a1 = a0;
		a2 = a0;
		for (t = 0; t < dl->taps; t++) {
			const s16 *wt = w[i] + (u64)t * dl->cp;
			const s16 *p0 = d[0] + dl->toff[t];
			const s16 *p1 = d[1] + dl->toff[t];
			const s16 *p2 = d[2] + dl->toff[t];

			for (c = 0; c < dl->cp; c += 8) {
				wv = vld1q_s16(wt + c);
				MULL_ADD(a0, vld1q_s16(p0 + c), wv);
				MULL_ADD(a1, vld1q_s16(p1 + c), wv);
				MULL_ADD(a2, vld1q_s16(p2 + c), wv);
			}
		}
		out[i][0] = vaddvq_s64(a0);
		out[i][1] = vaddvq_s64(a1);
		out[i][2] = vaddvq_s64(a2);
	}
}
