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

AVX2 void sim_dense_tile_avx2(const s16 *const *w, const s16 *const *d,
			      const struct sim_dense *dl,
			      s64 out[SIM_DENSE_KT][SIM_DENSE_XT])
{
	__m256i acc[SIM_DENSE_KT][SIM_DENSE_XT], dv[SIM_DENSE_XT], wv;
	u32 i, j, t, c;

	for (i = 0; i < SIM_DENSE_KT; i++)
		for (j = 0; j < SIM_DENSE_XT; j++)
			acc[i][j] = _mm256_setzero_si256();
	for (t = 0; t < dl->taps; t++) {
		const s16 *a0 = d[0] + dl->toff[t], *a1 = d[1] + dl->toff[t];
		const s16 *a2 = d[2] + dl->toff[t];
		u64 wo = (u64)t * dl->cp;

		for (c = 0; c < dl->cp; c += 16) {
			dv[0] = _mm256_loadu_si256((const __m256i *)(a0 + c));
			dv[1] = _mm256_loadu_si256((const __m256i *)(a1 + c));
			dv[2] = _mm256_loadu_si256((const __m256i *)(a2 + c));
			for (i = 0; i < SIM_DENSE_KT; i++) {
				wv = _mm256_loadu_si256((const __m256i *)
							(w[i] + wo + c));
				for (j = 0; j < SIM_DENSE_XT; j++)
					acc[i][j] = _mm256_add_epi32(acc[i][j],
						_mm256_madd_epi16(dv[j], wv));
			}
		}
	}
	for (i = 0; i < SIM_DENSE_KT; i++)
		for (j = 0; j < SIM_DENSE_XT; j++)
			out[i][j] = hsum(acc[i][j]);
}

/*
 * The int16 tile: vpmaddwd's pair sums fit int32 except 2 x (-32768)^2
 * = 2^31, which wraps to INT32_MIN, a sum no other pair makes (the least
 * is 2 x -32768 x 32767); so each pair sum is widened to int64 and every
 * INT32_MIN counted as 2^32 more. One kernel at a time by three outputs.
 */
AVX2 void sim_dense_tile16_avx2(const s16 *const *w, const s16 *const *d,
				const struct sim_dense *dl,
				s64 out[SIM_DENSE_KT][SIM_DENSE_XT])
{
	const __m256i wrapped = _mm256_set1_epi32(S32_MIN);
	__m256i lo[SIM_DENSE_XT], hi[SIM_DENSE_XT], ovf[SIM_DENSE_XT], r, wv;
	u32 i, j, t, c;

	for (i = 0; i < SIM_DENSE_KT; i++) {
		for (j = 0; j < SIM_DENSE_XT; j++) {
			lo[j] = _mm256_setzero_si256();
			hi[j] = _mm256_setzero_si256();
			ovf[j] = _mm256_setzero_si256();
		}
		for (t = 0; t < dl->taps; t++) {
			const s16 *wt = w[i] + (u64)t * dl->cp;

			for (c = 0; c < dl->cp; c += 16) {
				wv = _mm256_loadu_si256((const __m256i *)(wt + c));
				for (j = 0; j < SIM_DENSE_XT; j++) {
					r = _mm256_madd_epi16(wv, _mm256_loadu_si256(
						(const __m256i *)(d[j] + dl->toff[t] + c)));
					lo[j] = _mm256_add_epi64(lo[j], _mm256_cvtepi32_epi64(
						_mm256_castsi256_si128(r)));
					hi[j] = _mm256_add_epi64(hi[j], _mm256_cvtepi32_epi64(
						_mm256_extracti128_si256(r, 1)));
					ovf[j] = _mm256_sub_epi32(ovf[j],
						_mm256_cmpeq_epi32(r, wrapped));
				}
			}
		}
		for (j = 0; j < SIM_DENSE_XT; j++)
			out[i][j] = hsum64(_mm256_add_epi64(lo[j], hi[j])) +
				    hsum(ovf[j]) * (1ll << 32);
	}
}
