// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The integer CDP (cdp.h) compiled for AVX2, its converter loops
 * vectorised by the compiler, and for int8 its LUT lookups eight lanes
 * at a time where they fit 32-bit lanes: an int8 window's square sum is
 * under 2^20, so with the tables' starts within 2^30 every difference
 * x - START is exact in 32 bits. A lane whose picked table has an entry
 * for it (a hit) is interpolated here, the table's two entries read by
 * one 32-bit gather; the other lanes (under- and overflows, extrapolated
 * along the slopes) take the plain C lookup, which also counts them.
 * Called only where the CPU has AVX2 (elem_vector.c).
 */
#ifndef __clang__
/* The header's functions for AVX2 too (clang inlines them into these). */
#pragma GCC target("avx2")
#pragma GCC optimize("vect-cost-model=dynamic")
#endif

#include <immintrin.h>

#include "accel.h"
#include "../cdp.h"

#define AVX2 __attribute__((target("avx2")))

#define LANES 8
#define START_MAX (1ll << 30)

struct cdp_pos8 {
	__m256i hit, idx, frac;		/* frac: 16 bits */
};

/* The low @sel bits of @d as a 16-bit fraction (cdp_frac), per lane. */
static AVX2 __m256i frac16(__m256i d, __m256i sel)
{
	__m256i one = _mm256_set1_epi32(1), sixteen = _mm256_set1_epi32(16);
	__m256i low = _mm256_and_si256(d, _mm256_sub_epi32(
		_mm256_sllv_epi32(one, sel), one));

	/* a shift count of 32 or more gives 0: one of the two is exact */
	return _mm256_or_si256(
		_mm256_srlv_epi32(low, _mm256_sub_epi32(sel, sixteen)),
		_mm256_sllv_epi32(low, _mm256_sub_epi32(sixteen, sel)));
}

/* cdp_linear for 0 <= @sel < 32. */
static AVX2 struct cdp_pos8 linear8(__m256i x, s32 start, u32 sel,
				    u32 entries)
{
	__m256i d = _mm256_sub_epi32(x, _mm256_set1_epi32(start));
	__m256i s = _mm256_set1_epi32(sel);
	struct cdp_pos8 r;

	r.idx = _mm256_srlv_epi32(d, s);
	r.hit = _mm256_and_si256(
		_mm256_cmpgt_epi32(d, _mm256_setzero_si256()),
		_mm256_cmpgt_epi32(_mm256_set1_epi32(entries - 1), r.idx));
	r.frac = frac16(d, s);
	return r;
}

/* cdp_exponent: floor(log2(d)) from the float's exponent, corrected. */
static AVX2 struct cdp_pos8 exponent8(__m256i x, s32 start, s32 offset)
{
	__m256i d = _mm256_sub_epi32(x, _mm256_set1_epi32(start));
	__m256i one = _mm256_set1_epi32(1), e, idx;
	__m256 f = _mm256_cvtepi32_ps(d);
	struct cdp_pos8 r;

	e = _mm256_sub_epi32(_mm256_srli_epi32(_mm256_castps_si256(f), 23),
			     _mm256_set1_epi32(127));
	/* rounded up to the next power of two: d >> e is 0 */
	e = _mm256_add_epi32(e, _mm256_cmpeq_epi32(_mm256_srlv_epi32(d, e),
						   _mm256_setzero_si256()));
	idx = _mm256_sub_epi32(e, _mm256_set1_epi32(offset));
	r.hit = _mm256_and_si256(
		_mm256_and_si256(_mm256_cmpgt_epi32(d, _mm256_setzero_si256()),
				 _mm256_cmpgt_epi32(idx, _mm256_set1_epi32(-1))),
		_mm256_cmpgt_epi32(_mm256_set1_epi32(SIM_LUT_LE_ENTRIES - 1),
				   idx));
	r.idx = idx;
	r.frac = frac16(_mm256_sub_epi32(d, _mm256_sllv_epi32(one, e)), e);
	return r;
}

/*
 * t[idx] + rha((t[idx + 1] - t[idx]) * frac, 16), saturated to 16 bits
 * (cdp_lut_output of a hit); @idx 0 on the lanes not wanted.
 */
static inline AVX2 __m256i interpolate8(const s16 *t, __m256i idx, __m256i frac)
{
	__m256i pair = _mm256_i32gather_epi32((const int *)t, idx, 2);
	__m256i t0 = _mm256_srai_epi32(_mm256_slli_epi32(pair, 16), 16);
	__m256i t1 = _mm256_srai_epi32(pair, 16), diff, even, odd, half;

	diff = _mm256_sub_epi32(t1, t0);
	/* |diff * frac| < 2^32: 64-bit products, even lanes then odd */
	half = _mm256_set1_epi64x(1 << 15);
	even = _mm256_mul_epi32(diff, frac);
	odd = _mm256_mul_epi32(_mm256_srli_epi64(diff, 32),
			       _mm256_srli_epi64(frac, 32));
	/* rha: + 2^15, - 1 where negative (the 64-bit sign, as all ones) */
	even = _mm256_add_epi64(_mm256_add_epi64(even, half),
				_mm256_cmpgt_epi64(_mm256_setzero_si256(), even));
	odd = _mm256_add_epi64(_mm256_add_epi64(odd, half),
			       _mm256_cmpgt_epi64(_mm256_setzero_si256(), odd));
	/* bits 16 to 47 of each: the quotient, which fits 32 bits */
	diff = _mm256_blend_epi32(_mm256_srli_epi64(even, 16),
				  _mm256_slli_epi64(odd, 16), 0xaa);
	return _mm256_max_epi32(_mm256_min_epi32(_mm256_add_epi32(t0, diff),
						 _mm256_set1_epi32(32767)),
				_mm256_set1_epi32(-32768));
}

static AVX2 u32 lanes_of(__m256i m)
{
	return _mm256_movemask_ps(_mm256_castsi256_ps(m));
}

/* Whether the layer's lookups fit lookup8. */
static bool lookup8_fits(const struct cdp_params *p)
{
	const struct cdp_lut *l = &p->lut;

	return p->bpe == 1 && p->lanes % LANES == 0 &&
	       l->le_start >= -START_MAX && l->le_start <= START_MAX &&
	       l->lo_start >= -START_MAX && l->lo_start <= START_MAX &&
	       l->lo_select >= 0 && (!l->cfg.le_linear || l->le_select >= 0);
}

/* The hits of table @t at @idx where @use (none: no gather), else 0. */
static AVX2 __m256i table8(const s16 *t, const struct cdp_pos8 *pos,
			   __m256i use)
{
	if (_mm256_testz_si256(use, use))
		return _mm256_setzero_si256();
	return interpolate8(t, _mm256_and_si256(pos->idx, use), pos->frac);
}

/* Eight 64-bit lanes @v, which fit 32 bits, as 32-bit lanes. */
static AVX2 __m256i narrow8(const s64 *v)
{
	const __m256i low = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
	__m256i a = _mm256_permutevar8x32_epi32(
		_mm256_loadu_si256((const void *)v), low);
	__m256i b = _mm256_permutevar8x32_epi32(
		_mm256_loadu_si256((const void *)(v + 4)), low);

	return _mm256_permute2x128_si256(a, b, 0x20);
}

/*
 * The lookups of eight lanes @sum into @r, counted in @n: the hits here,
 * the rest by cdp_lookup. A hit in both tables answers from the one the
 * hybrid priority picks (sim_lut_pick_lo).
 */
static AVX2 void lookup8(const struct cdp_params *p, const s64 *sum, s64 *r,
			 struct sim_lut_count *n)
{
	const struct cdp_lut *l = &p->lut;
	__m256i x = narrow8(sum), use_lo, use_le, y;
	struct cdp_pos8 le, lo;
	u32 i, hits;

	le = l->cfg.le_linear ?
	     linear8(x, l->le_start, l->le_select, SIM_LUT_LE_ENTRIES) :
	     exponent8(x, l->le_start, l->le_offset);
	lo = linear8(x, l->lo_start, l->lo_select, SIM_LUT_LO_ENTRIES);
	use_lo = l->cfg.hybrid_lo ? lo.hit : _mm256_andnot_si256(le.hit, lo.hit);
	use_le = _mm256_andnot_si256(use_lo, le.hit);
	y = _mm256_blendv_epi8(table8(p->table->le, &le, use_le),
			       table8(p->table->lo, &lo, use_lo), use_lo);
	_mm256_storeu_si256((void *)r, _mm256_cvtepi32_epi64(
		_mm256_castsi256_si128(y)));
	_mm256_storeu_si256((void *)(r + 4), _mm256_cvtepi32_epi64(
		_mm256_extracti128_si256(y, 1)));
	n->hybrid += __builtin_popcount(lanes_of(_mm256_and_si256(le.hit,
								   lo.hit)));
	n->le_hit += __builtin_popcount(lanes_of(_mm256_andnot_si256(lo.hit,
								      le.hit)));
	n->lo_hit += __builtin_popcount(lanes_of(_mm256_andnot_si256(le.hit,
								      lo.hit)));
	hits = lanes_of(_mm256_or_si256(le.hit, lo.hit));
	for (i = 0; hits != 0xff && i < LANES; i++)
		if (!(hits >> i & 1))
			r[i] = cdp_lookup(p, sum[i], n);
}

static AVX2 void lookups_avx2(const struct cdp_params *p, const s64 *sum,
			      s64 *r, struct sim_lut_count *n)
{
	u32 i;

	if (!lookup8_fits(p)) {
		cdp_lookups(p, sum, r, n);
		return;
	}
	for (i = 0; i < p->lanes; i += LANES)
		lookup8(p, sum + i, r + i, n);
}

AVX2 void sim_cdp_atom_avx2(const struct cdp_params *p, u32 s, u32 x, u32 y,
			    s32 *out)
{
	cdp_atom(p, s, x, y, out, lookups_avx2);
}
