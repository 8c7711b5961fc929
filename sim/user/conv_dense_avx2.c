// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The dense integer tiles on AVX2 (conv_dense.c). int8: vpmaddwd
 * multiplies 16 int16 pairs and adds neighbours into 8 int32 lanes; a
 * layer is narrow only when no int32 sum can overflow, so the result is
 * the exact sum. 4 kernels by 3 outputs keep 12 accumulators in registers
 * and load each weight and data vector once per tile.
 */
#include <immintrin.h>

#include "accel.h"

#define AVX2 __attribute__((target("avx2")))

static AVX2 s64 hsum(__m256i v)
{
	__m128i lo = _mm256_castsi256_si128(v);
	__m128i hi = _mm256_extracti128_si256(v, 1);
	__m256i wide = _mm256_add_epi64(_mm256_cvtepi32_epi64(lo),
					_mm256_cvtepi32_epi64(hi));
	__m128i s = _mm_add_epi64(_mm256_castsi256_si128(wide),
				  _mm256_extracti128_si256(wide, 1));

	return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
}

static AVX2 s64 hsum64(__m256i v)
{
	__m128i s = _mm_add_epi64(_mm256_castsi256_si128(v),
				  _mm256_extracti128_si256(v, 1));

	return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
}

/* acc += a . w on 16 int16 pairs; an int8 layer's sums stay in int32 */
#define MADD(acc, a, w) ((acc) = _mm256_add_epi32((acc), _mm256_madd_epi16((a), (w))))

AVX2 void sim_dense_tile_avx2(const s16 *const *w, const s16 *const *d,
			      const struct sim_dense *dl,
			      s64 out[SIM_DENSE_KT][SIM_DENSE_XT])
{
	/* twelve accumulators, named so that they stay in registers */
	__m256i a00 = _mm256_setzero_si256(), a01 = a00, a02 = a00;
	__m256i a10 = a00, a11 = a00, a12 = a00, a20 = a00, a21 = a00;
	__m256i a22 = a00, a30 = a00, a31 = a00, a32 = a00;
	__m256i d0, d1, d2, wv;
	u32 t, c;

	for (t = 0; t < dl->taps; t++) {
		const s16 *p0 = d[0] + dl->toff[t], *p1 = d[1] + dl->toff[t];
		const s16 *p2 = d[2] + dl->toff[t];
		u64 wo = (u64)t * dl->cp;

		for (c = 0; c < dl->cp; c += 16) {
			d0 = _mm256_loadu_si256((const __m256i *)(p0 + c));
			d1 = _mm256_loadu_si256((const __m256i *)(p1 + c));
			d2 = _mm256_loadu_si256((const __m256i *)(p2 + c));
			wv = _mm256_loadu_si256((const __m256i *)(w[0] + wo + c));
			MADD(a00, d0, wv);
			MADD(a01, d1, wv);
			MADD(a02, d2, wv);
			wv = _mm256_loadu_si256((const __m256i *)(w[1] + wo + c));
			MADD(a10, d0, wv);
			MADD(a11, d1, wv);
			MADD(a12, d2, wv);
			wv = _mm256_loadu_si256((const __m256i *)(w[2] + wo + c));
			MADD(a20, d0, wv);
			MADD(a21, d1, wv);
			MADD(a22, d2, wv);
			wv = _mm256_loadu_si256((const __m256i *)(w[3] + wo + c));
			MADD(a30, d0, wv);
			MADD(a31, d1, wv);
			MADD(a32, d2, wv);
		}
	}
	out[0][0] = hsum(a00);
	out[0][1] = hsum(a01);
	out[0][2] = hsum(a02);
	out[1][0] = hsum(a10);
	out[1][1] = hsum(a11);
	out[1][2] = hsum(a12);
	out[2][0] = hsum(a20);
	out[2][1] = hsum(a21);
	out[2][2] = hsum(a22);
	out[3][0] = hsum(a30);
	out[3][1] = hsum(a31);
	out[3][2] = hsum(a32);
}

/*
 * The int16 tile: vpmaddwd's pair sums fit int32 except 2 x (-32768)^2
 * = 2^31, which wraps to INT32_MIN, a sum no other pair makes (the least
 * is 2 x -32768 x 32767); so each pair sum is widened to int64 and every
 * INT32_MIN counted as 2^32 more. One kernel at a time by three outputs.
 */
/* One pair-sum vector @r into the three int64 partial sums of an output. */
#define WIDEN(lo, hi, ovf, r) do { \
	(lo) = _mm256_add_epi64((lo), _mm256_cvtepi32_epi64(_mm256_castsi256_si128(r))); \
	(hi) = _mm256_add_epi64((hi), _mm256_cvtepi32_epi64(_mm256_extracti128_si256((r), 1))); \
	(ovf) = _mm256_sub_epi32((ovf), _mm256_cmpeq_epi32((r), wrapped)); \
} while (0)

AVX2 void sim_dense_tile16_avx2(const s16 *const *w, const s16 *const *d,
				const struct sim_dense *dl,
				s64 out[SIM_DENSE_KT][SIM_DENSE_XT])
{
	const __m256i wrapped = _mm256_set1_epi32(S32_MIN);
	__m256i l0, l1, l2, h0, h1, h2, o0, o1, o2, wv, r;
	u32 i, t, c;

	for (i = 0; i < SIM_DENSE_KT; i++) {
		l0 = _mm256_setzero_si256();
		l1 = l0, l2 = l0, h0 = l0, h1 = l0, h2 = l0, o0 = l0, o1 = l0, o2 = l0;
		for (t = 0; t < dl->taps; t++) {
			const s16 *wt = w[i] + (u64)t * dl->cp;
			const s16 *p0 = d[0] + dl->toff[t], *p1 = d[1] + dl->toff[t];
			const s16 *p2 = d[2] + dl->toff[t];

			for (c = 0; c < dl->cp; c += 16) {
				wv = _mm256_loadu_si256((const __m256i *)(wt + c));
				r = _mm256_madd_epi16(wv, _mm256_loadu_si256((const __m256i *)(p0 + c)));
				WIDEN(l0, h0, o0, r);
				r = _mm256_madd_epi16(wv, _mm256_loadu_si256((const __m256i *)(p1 + c)));
				WIDEN(l1, h1, o1, r);
				r = _mm256_madd_epi16(wv, _mm256_loadu_si256((const __m256i *)(p2 + c)));
				WIDEN(l2, h2, o2, r);
			}
		}
		out[i][0] = hsum64(_mm256_add_epi64(l0, h0)) + hsum(o0) * (1ll << 32);
		out[i][1] = hsum64(_mm256_add_epi64(l1, h1)) + hsum(o1) * (1ll << 32);
		out[i][2] = hsum64(_mm256_add_epi64(l2, h2)) + hsum(o2) * (1ll << 32);
	}
}
