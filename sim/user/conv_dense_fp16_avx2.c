// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The CMAC's fp16 block on AVX2, eight channels a vector, bit for bit
 * conv_fp16.c's arithmetic: the block exponent from the lanes' group
 * exponents, then per lane the radix-4 Booth multiplier of conv_fp16.c
 * (sim_cmac_product) as bit operations on 32-bit lanes: each Booth digit's
 * partial product from table lookups (vpshufb) and variable shifts, the
 * same carry-save tree, its sum and carry vectors truncated separately to
 * the lane's alignment, then the sign-extension constant. The reference
 * takes the exact product where the alignment is 0; there the tree's sum
 * with its constant is that product, for every pair of CMAC mantissas and
 * both signs (52,428,800 cases, checked outside the repository; a sample
 * in test_sim_simd), so the lanes need no second path.
 */
#include <immintrin.h>
#include <pthread.h>
#include <stdlib.h>

#include "accel.h"
#include "../conv_fp16.h"

#define AVX2 __attribute__((target("avx2")))
#define BOOTH_DIGITS 8

/* radix-4 Booth digit of each 3-bit code: magnitude, negated */
static const u8 booth_mult[8] = { 0, 1, 1, 2, 2, 1, 1, 0 };
static const u8 booth_neg = 0x70;
/* the constant that restores the sign extension, by alignment / 4 */
static const u32 booth_comp[8] = {
	0xaaab0000, 0xfaaab000, 0xffaaab00, 0xfffaaab0,
	0xffffaaab, 0xfffffaab, 0xffffffab, 0xfffffffb,
};

/* One carry-save adder row on eight lanes: majority (x & y) | (z & (x ^ y)). */
static AVX2 void csa8(__m256i *x, __m256i *y, __m256i z)
{
	__m256i t = _mm256_xor_si256(*x, *y);
	__m256i maj = _mm256_or_si256(_mm256_and_si256(*x, *y),
				      _mm256_and_si256(z, t));

	*y = _mm256_slli_epi32(maj, 1);
	*x = _mm256_xor_si256(t, z);
}

/* The CMAC mantissa: hidden bit, pre-shifted by the low exponent bits. */
static AVX2 __m256i mant8(__m256i h, __m256i e)
{
	__m256i hid = _mm256_cmpgt_epi32(e, _mm256_setzero_si256());
	__m256i m = _mm256_or_si256(_mm256_and_si256(h, _mm256_set1_epi32(0x3ff)),
				    _mm256_and_si256(hid, _mm256_set1_epi32(0x400)));
	__m256i sh = _mm256_blendv_epi8(_mm256_set1_epi32(1),
					_mm256_and_si256(e, _mm256_set1_epi32(3)),
					hid);

	return _mm256_sllv_epi32(m, sh);
}

/*
 * Lookup tables of digit @j, by code: the left shift of the multiplicand
 * that makes its partial product at bit 2j (32, past the lane, for 0),
 * and whether the digit is negative.
 */
struct booth_tables {
	__m256i shift[BOOTH_DIGITS], neg;
};

static AVX2 void booth_tables(struct booth_tables *t)
{
	u8 s[32], n[32];
	u32 j, c;

	for (j = 0; j < BOOTH_DIGITS; j++) {
		for (c = 0; c < 32; c++)
			s[c] = c % 16 >= 8 || !booth_mult[c % 16] ? 32 :
			       booth_mult[c % 16] - 1 + 2 * j;
		t->shift[j] = _mm256_loadu_si256((const __m256i *)s);
	}
	for (c = 0; c < 32; c++)
		n[c] = c % 16 < 8 && (booth_neg >> (c % 16) & 1) ? 0xff : 0;
	t->neg = _mm256_loadu_si256((const __m256i *)n);
}

/*
 * sim_cmac_product on eight lanes: @mw Booth-encoded times @md, negative
 * where @neg is all ones, aligned down by @shift (a multiple of 4 below 32).
 */
static AVX2 __m256i booth8(const struct booth_tables *t, __m256i mw,
			   __m256i md, __m256i neg, __m256i shift)
{
	const __m256i bytes_hi = _mm256_set1_epi32(0x80808000);
	__m256i flip = _mm256_and_si256(neg, _mm256_set1_epi32(7));
	__m256i w2 = _mm256_slli_epi32(mw, 1), v[10], inv[BOOTH_DIGITS];
	__m256i code, pp, k, x0, y0, x1, y1, comp;
	u32 j;

	for (j = 0; j < BOOTH_DIGITS; j++) {
		code = _mm256_and_si256(_mm256_srli_epi32(w2, 2 * j),
					_mm256_set1_epi32(7));
		code = _mm256_or_si256(_mm256_xor_si256(code, flip), bytes_hi);
		inv[j] = _mm256_cmpgt_epi32(_mm256_shuffle_epi8(t->neg, code),
					    _mm256_setzero_si256());
		pp = _mm256_sllv_epi32(md, _mm256_shuffle_epi8(t->shift[j], code));
		/* ~pp & 0xffff if negative, else pp | 0x10000; at bit 2j */
		k = _mm256_blendv_epi8(_mm256_set1_epi32(0x10000 << 2 * j),
				       _mm256_set1_epi32(0xffff << 2 * j), inv[j]);
		pp = _mm256_xor_si256(pp, k);
		if (j && j != 4)	/* the digit before's negation bit */
			pp = _mm256_or_si256(pp, _mm256_and_si256(inv[j - 1],
					_mm256_set1_epi32(1 << (2 * j - 2))));
		v[j < 4 ? j : j + 1] = pp;
	}
	v[4] = _mm256_and_si256(inv[3], _mm256_set1_epi32(1 << 6));
	v[9] = _mm256_and_si256(inv[7], _mm256_set1_epi32(1 << 14));
	x0 = v[0];
	y0 = v[1];
	csa8(&x0, &y0, v[2]);
	csa8(&x0, &y0, v[3]);
	csa8(&x0, &y0, v[4]);
	x1 = v[5];
	y1 = v[6];
	csa8(&x1, &y1, v[7]);
	csa8(&x1, &y1, v[8]);
	csa8(&x1, &y1, v[9]);
	csa8(&x0, &y0, x1);
	csa8(&x0, &y0, y1);
	comp = _mm256_permutevar8x32_epi32(
		_mm256_loadu_si256((const __m256i *)booth_comp),
		_mm256_srli_epi32(shift, 2));
	return _mm256_add_epi32(_mm256_add_epi32(_mm256_srlv_epi32(x0, shift),
						 _mm256_srlv_epi32(y0, shift)),
				comp);
}

static AVX2 __m256i load8(const u16 *p)
{
	return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p));
}

static AVX2 __m256i exp8(__m256i h)
{
	return _mm256_and_si256(_mm256_srli_epi32(h, 10), _mm256_set1_epi32(31));
}

/* Lanes where neither operand is zero (the CMAC masks the others). */
static AVX2 __m256i live8(__m256i d, __m256i w)
{
	const __m256i mag = _mm256_set1_epi32(0x7fff), zero = _mm256_setzero_si256();

	return _mm256_andnot_si256(
		_mm256_or_si256(_mm256_cmpeq_epi32(_mm256_and_si256(d, mag), zero),
				_mm256_cmpeq_epi32(_mm256_and_si256(w, mag), zero)),
		_mm256_set1_epi32(-1));
}

static AVX2 __m256i group8(__m256i d, __m256i w)
{
	return _mm256_add_epi32(_mm256_srli_epi32(exp8(d), 2),
				_mm256_srli_epi32(exp8(w), 2));
}

static struct booth_tables tables;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void tables_build(void)
{
	booth_tables(&tables);
}

/* The group exponent of @n lanes (past @n, to a multiple of 8: zero). */
static AVX2 u32 block_top(const u16 *d, const u16 *w, u32 n)
{
	__m256i dv, wv, g, topv = _mm256_setzero_si256();
	__m128i t4;
	u32 c;

	for (c = 0; c < n; c += 8) {
		dv = load8(d + c);
		wv = load8(w + c);
		g = _mm256_and_si256(group8(dv, wv), live8(dv, wv));
		topv = _mm256_max_epi32(topv, g);
	}
	t4 = _mm_max_epi32(_mm256_castsi256_si128(topv),
			   _mm256_extracti128_si256(topv, 1));
	t4 = _mm_max_epi32(t4, _mm_shuffle_epi32(t4, 0x4e));
	t4 = _mm_max_epi32(t4, _mm_shuffle_epi32(t4, 0xb1));
	return _mm_cvtsi128_si32(t4);
}

/* sim_cmac_fp16_lane of the eight lanes @d, @w at group exponent @top. */
static AVX2 __m256i block_lanes(const u16 *d, const u16 *w, u32 top)
{
	__m256i dv = load8(d), wv = load8(w), live = live8(dv, wv), g, shift, neg;
	__m256i mw, md, p;

	/* 4 (top - g): lanes 8 groups below the top align to 0 */
	g = _mm256_sub_epi32(_mm256_set1_epi32(top), group8(dv, wv));
	live = _mm256_and_si256(live, _mm256_cmpgt_epi32(_mm256_set1_epi32(8), g));
	shift = _mm256_and_si256(_mm256_slli_epi32(g, 2), live);
	neg = _mm256_srai_epi32(_mm256_slli_epi32(_mm256_xor_si256(dv, wv), 16), 31);
	mw = mant8(wv, exp8(wv));
	md = mant8(dv, exp8(dv));
	/* aligned by 4 bits at most: the exact product's floor (see below) */
	if (!_mm256_movemask_epi8(_mm256_cmpgt_epi32(shift, _mm256_set1_epi32(4)))) {
		p = _mm256_mullo_epi32(mw, md);
		p = _mm256_sub_epi32(_mm256_xor_si256(p, neg), neg);
		return _mm256_and_si256(live, _mm256_srav_epi32(p, shift));
	}
	return _mm256_and_si256(live, booth8(&tables, mw, md, neg, shift));
}

/* Lanes past @n (to the next multiple of 8) are zero in both arrays. */
AVX2 void sim_fp16_block_avx2(const u16 *d, const u16 *w, u32 n,
			      struct sim_fp_psum *p)
{
	__m256i r, acc = _mm256_setzero_si256();
	__m128i t4;
	u32 c, top;

	pthread_once(&tables_once, tables_build);
	top = block_top(d, w, n);
	for (c = 0; c < n; c += 8) {
		r = block_lanes(d + c, w + c, top);
		acc = _mm256_add_epi64(acc, _mm256_add_epi64(
			_mm256_cvtepi32_epi64(_mm256_castsi256_si128(r)),
			_mm256_cvtepi32_epi64(_mm256_extracti128_si256(r, 1))));
	}
	t4 = _mm_add_epi64(_mm256_castsi256_si128(acc),
			   _mm256_extracti128_si256(acc, 1));
	p->mant = _mm_cvtsi128_si64(t4) + _mm_extract_epi64(t4, 1);
	p->exp = 4 * top;
}

/* Each position's four lanes sum within int32: products are below 2^28. */
AVX2 void sim_wino_fp16_block_avx2(const u16 *d, const u16 *w,
				   struct sim_fp_psum p[SIM_WINO_OUT][SIM_WINO_OUT])
{
	s32 half[SIM_WINO_POS / 2][8];
	s64 sum[SIM_WINO_POS];
	__m256i r;
	u32 c, top, pos;

	pthread_once(&tables_once, tables_build);
	top = block_top(d, w, SIM_WINO_LANES);
	for (c = 0; c < SIM_WINO_LANES; c += 8) {
		r = block_lanes(d + c, w + c, top);
		/* lanes 0+1 and 2+3 of each position, then the two halves */
		r = _mm256_hadd_epi32(r, r);
		r = _mm256_hadd_epi32(r, r);
		_mm256_storeu_si256((__m256i *)half[c / 8], r);
	}
	for (pos = 0; pos < SIM_WINO_POS; pos++)
		sum[pos] = half[pos / 2][pos % 2 * 4];
	sim_wino_fp16_psums(sum, top, p);
}

/*
 * Sixteen outputs at a time, one weight broadcast to all. What a weight's
 * Booth digits need (per sign of the product: the complement constant of
 * each digit with the carry-in of the digit before) comes from a table by
 * the weight's mantissa (fraction, low exponent bits, denormal or not:
 * 8192 entries, most of them in the core's second-level cache), built once.
 *
 * A lane's aligned product is floor(P / 2^s) less one carry: the
 * multiplier's sum and carry vectors x and y add up to P - C, where the
 * sign-extension constant C has 16 low zero bits, so for s <= 16 the two
 * vectors shifted separately lose exactly the carry out of
 * (x mod 2^s) + (y mod 2^s), which is 1 where y mod 2^s > P mod 2^s. The
 * low five bits of y are always zero: alignments 0 and 4 are the exact
 * floor, a signed product and a shift. Where 8 is the most, the carry is
 * a bit of lost8_table; alignments 12 and 16 take y's low 16 bits from
 * the carry-save tree on 16-bit lanes; 20 to 28 (a product 2^20 below the
 * block's largest) the whole multiplier on 32-bit lanes.
 * Checked against sim_cmac_product for every pair of CMAC mantissas, both
 * signs and every alignment (outside the repository); test_sim_simd
 * compares blocks of random and edge values.
 */
struct booth_weight {
	u32 shift[BOOTH_DIGITS];	/* partial product to bit 2j; 32: zero */
	u32 k[2][BOOTH_DIGITS];		/* by sign: v_j = (md << shift) ^ k */
	u32 v4[2], v9[2];		/* the negation bits of digits 3 and 7 */
} __attribute__((aligned(128)));	/* two cache lines */

/*
 * The same digits' low 16 bits, for the carry vector on 16-bit lanes: one
 * cache line a mantissa, 320 KB in all (the core's second-level cache).
 */
struct booth16 {
	u32 kk[BOOTH_DIGITS];		/* k[0] | k[1] << 16 */
	u16 mult[BOOTH_DIGITS];		/* 2^shift, 0 for a zero digit */
	u32 v4kk, v9kk;			/* v4 and v9 likewise */
} __attribute__((aligned(64)));

#define BOOTH_AHEAD 4	/* weights whose entries are fetched ahead */

#define BOOTH_KEYS 8192
#define BOOTH16_KEYS (5 << 10)	/* the keys of CMAC mantissas */

/* The table index of fp16 @h: what its CMAC mantissa depends on. */
static u32 booth_key(u16 h)
{
	return (h & 0x3ff) | (h >> 10 & 3) << 10 | !(h & 0x7c00) << 12;
}

static struct booth_weight *booth_table;
static struct booth16 *booth16_table;

/*
 * The carry lost by a lane aligned by 8 bits depends only on the low 8
 * bits of both mantissas and on the product's sign, as the multiplier's
 * carries run upwards only (checked for every pair of CMAC mantissas,
 * outside the repository; test_sim_simd runs every data mantissa of a
 * group): one bit per weight byte, sign and data byte, 16 KB. Row w holds
 * sign 0's bits, then sign 1's; data byte d at bit d % 8 of byte d / 8.
 */
#define LOST8_ROW 64
static u8 (*lost8_table)[LOST8_ROW];
static pthread_once_t booth_once = PTHREAD_ONCE_INIT;

static u32 mant_of(u16 h)
{
	u32 e = h >> 10 & 0x1f;

	return ((h & 0x3ff) | (e ? 0x400 : 0)) << (e ? e & 3 : 1);
}

/* Both signs' constants, their low 16 bits in one word. */
static u32 low16_pair(u32 k0, u32 k1)
{
	return (k0 & 0xffff) | k1 << 16;
}

static void booth_weight(struct booth_weight *b, u16 h)
{
	u32 j, f, code, inv[2][BOOTH_DIGITS], mant = mant_of(h);

	for (j = 0; j < BOOTH_DIGITS; j++) {
		code = (mant << 1) >> (2 * j) & 7;
		b->shift[j] = booth_mult[code] ? booth_mult[code] - 1 + 2 * j : 32;
		for (f = 0; f < 2; f++) {
			inv[f][j] = booth_neg >> (code ^ (f ? 7 : 0)) & 1;
			b->k[f][j] = (inv[f][j] ? 0xffffu : 0x10000u) << 2 * j;
			if (j && j != 4)
				b->k[f][j] |= inv[f][j - 1] << (2 * j - 2);
		}
	}
	for (f = 0; f < 2; f++) {
		b->v4[f] = inv[f][3] << 6;
		b->v9[f] = inv[f][7] << 14;
	}
}

static void booth16(struct booth16 *t, const struct booth_weight *b)
{
	u32 j;

	for (j = 0; j < BOOTH_DIGITS; j++) {
		t->mult[j] = b->shift[j] < 16 ? 1u << b->shift[j] : 0;
		t->kk[j] = low16_pair(b->k[0][j], b->k[1][j]);
	}
	t->v4kk = low16_pair(b->v4[0], b->v4[1]);
	t->v9kk = low16_pair(b->v9[0], b->v9[1]);
}

/* Each bit: the reference's product at alignment 8 is one below the floor. */
static void lost8_build(u8 (*t)[LOST8_ROW])
{
	u32 w, d, neg;
	s32 p;

	for (w = 0; w < 256; w++)
		for (neg = 0; neg < 2; neg++)
			for (d = 0; d < 256; d++) {
				p = neg ? -(s32)(w * d) : (s32)(w * d);
				if (p >> 8 != sim_cmac_product(w, d, neg, 8))
					t[w][neg * 32 + d / 8] |= 1 << d % 8;
			}
}

static void booth_table_build(void)
{
	struct booth_weight *t = aligned_alloc(128, BOOTH_KEYS * sizeof(*t));
	struct booth16 *t16 = aligned_alloc(64, BOOTH16_KEYS * sizeof(*t16));
	u8 (*t8)[LOST8_ROW] = aligned_alloc(64, 256 * sizeof(*t8));
	u32 h;

	if (!t || !t16 || !t8) {
		free(t);
		free(t16);
		free(t8);
		return;
	}
	memset(t8, 0, 256 * sizeof(*t8));
	lost8_build(t8);
	lost8_table = t8;
	/* every key from the exponents 0 to 4 */
	for (h = 0; h < 5 << 10; h++) {
		booth_weight(&t[booth_key(h)], h);
		booth16(&t16[booth_key(h)], &t[booth_key(h)]);
	}
	booth_table = t;
	booth16_table = t16;
}

#define GX SIM_FP16_GROUP_X

/* One channel of a block at sixteen outputs, 16-bit lanes. */
struct xch {
	__m256i mant;	/* CMAC mantissa */
	__m256i smant;	/* the same with the value's sign */
	__m256i sign;	/* all ones where negative */
	__m256i gtop;	/* group exponent; -64 where zero: never the top */
	__m256i galign;	/* group exponent; 15 where zero: alignment < 0 */
	/* by the weight's sign: the bytes of k[0] or k[1] (negative product) */
	__m256i kidx[2];
	/*
	 * Where the lane's bit lies in a lost8_table row (for a positive
	 * weight): vpshufb indices into each 16-byte quarter, 0x80 in the
	 * others and in the high byte; the bit within the byte.
	 */
	__m256i q8[4], bit8;
};

struct xdata {
	struct xch ch[SIM_CMAC_FP16_LANES];
	__m256i gmax;	/* the largest gtop of each output's channels */
};

static AVX2 __m256i load16(const u16 *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}

/* 2^k for k = 0..7; the high byte of a 16-bit lane (index | 0x80) is 0 */
static const u8 pow2_bytes[16] = { 1, 2, 4, 8, 16, 32, 64, 128 };

static AVX2 __m256i pow2_16(__m256i k)
{
	return _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(
			_mm_loadu_si128((const __m128i *)pow2_bytes)),
			_mm256_or_si256(k, _mm256_set1_epi16(-0x8000)));
}

/* mant_of on sixteen lanes. */
static AVX2 __m256i mant16(__m256i h)
{
	__m256i e = _mm256_and_si256(_mm256_srli_epi16(h, 10), _mm256_set1_epi16(31));
	__m256i hid = _mm256_cmpgt_epi16(e, _mm256_setzero_si256());
	__m256i m = _mm256_or_si256(_mm256_and_si256(h, _mm256_set1_epi16(0x3ff)),
				    _mm256_and_si256(hid, _mm256_set1_epi16(0x400)));
	__m256i k = _mm256_blendv_epi8(_mm256_set1_epi16(1),
				       _mm256_and_si256(e, _mm256_set1_epi16(3)), hid);

	return _mm256_mullo_epi16(m, pow2_16(k));
}

/* xch's lost8_table positions of mantissas @m, @sign all ones if negative. */
static AVX2 void lost8_index(struct xch *xc, __m256i m, __m256i sign)
{
	const __m256i none = _mm256_set1_epi16(0x8080), low = _mm256_set1_epi16(0xff);
	__m256i d8 = _mm256_and_si256(m, low);
	__m256i byte = _mm256_or_si256(_mm256_srli_epi16(d8, 3),
				       _mm256_and_si256(sign, _mm256_set1_epi16(32)));
	__m256i quarter = _mm256_srli_epi16(byte, 4);
	__m256i in16 = _mm256_or_si256(_mm256_and_si256(byte, _mm256_set1_epi16(15)),
				       _mm256_set1_epi16(-0x8000));
	u32 k;

	for (k = 0; k < 4; k++)
		xc->q8[k] = _mm256_blendv_epi8(none, in16,
				_mm256_cmpeq_epi16(quarter, _mm256_set1_epi16(k)));
	xc->bit8 = pow2_16(_mm256_and_si256(d8, _mm256_set1_epi16(7)));
}

static AVX2 void xdata_fill(struct xdata *xd, const u16 *const *d, u32 n)
{
	const __m256i kpos = _mm256_set1_epi16(0x0100), kneg = _mm256_set1_epi16(0x0302);
	__m256i h, m, sign, g, zero;
	u16 hv[GX];
	u32 i, x;

	xd->gmax = _mm256_set1_epi16(-64);
	for (i = 0; i < n; i++) {
		for (x = 0; x < GX; x++)
			hv[x] = d[x][i];
		h = load16(hv);
		m = mant16(h);
		sign = _mm256_srai_epi16(h, 15);
		g = _mm256_and_si256(_mm256_srli_epi16(h, 12), _mm256_set1_epi16(7));
		zero = _mm256_cmpeq_epi16(_mm256_and_si256(h, _mm256_set1_epi16(0x7fff)),
					  _mm256_setzero_si256());
		xd->ch[i].mant = m;
		xd->ch[i].smant = _mm256_sub_epi16(_mm256_xor_si256(m, sign), sign);
		xd->ch[i].sign = sign;
		xd->ch[i].gtop = _mm256_blendv_epi8(g, _mm256_set1_epi16(-64), zero);
		xd->ch[i].galign = _mm256_blendv_epi8(g, _mm256_set1_epi16(15), zero);
		xd->gmax = _mm256_max_epi16(xd->gmax, xd->ch[i].gtop);
		xd->ch[i].kidx[0] = _mm256_blendv_epi8(kpos, kneg, sign);
		xd->ch[i].kidx[1] = _mm256_blendv_epi8(kneg, kpos, sign);
		lost8_index(&xd->ch[i], m, sign);
	}
}

static AVX2 __m256i bcast(u32 v)
{
	return _mm256_set1_epi32(v);
}

/* Booth digit @j's partial product of @b times the eight mantissas @md. */
static AVX2 __m256i digit8(const struct booth_weight *b, u32 j, __m256i md,
			   __m256i neg)
{
	return _mm256_xor_si256(_mm256_sllv_epi32(md, bcast(b->shift[j])),
				_mm256_blendv_epi8(bcast(b->k[0][j]),
						   bcast(b->k[1][j]), neg));
}

/*
 * sim_cmac_product of weight @b and eight mantissas @md, negative where
 * @neg is all ones, aligned down by @shift: the whole multiplier.
 */
static AVX2 __m256i booth_weight8(const struct booth_weight *b, __m256i md,
				  __m256i neg, __m256i shift)
{
	const __m256i comp = _mm256_loadu_si256((const __m256i *)booth_comp);
	__m256i x0, y0, x1, y1;

	/* each digit's partial product goes into the tree as it comes */
	x0 = digit8(b, 0, md, neg);
	y0 = digit8(b, 1, md, neg);
	csa8(&x0, &y0, digit8(b, 2, md, neg));
	csa8(&x0, &y0, digit8(b, 3, md, neg));
	csa8(&x0, &y0, _mm256_blendv_epi8(bcast(b->v4[0]), bcast(b->v4[1]), neg));
	x1 = digit8(b, 4, md, neg);
	y1 = digit8(b, 5, md, neg);
	csa8(&x1, &y1, digit8(b, 6, md, neg));
	csa8(&x1, &y1, digit8(b, 7, md, neg));
	csa8(&x1, &y1, _mm256_blendv_epi8(bcast(b->v9[0]), bcast(b->v9[1]), neg));
	csa8(&x0, &y0, x1);
	csa8(&x0, &y0, y1);
	return _mm256_add_epi32(_mm256_add_epi32(_mm256_srlv_epi32(x0, shift),
						 _mm256_srlv_epi32(y0, shift)),
				_mm256_permutevar8x32_epi32(comp,
						_mm256_srli_epi32(shift, 2)));
}

#define INLINE AVX2 __attribute__((always_inline)) inline

/* A carry-save row on sixteen 16-bit lanes. */
static INLINE void csa16(__m256i *x, __m256i *y, __m256i z)
{
	__m256i t = _mm256_xor_si256(*x, *y);
	__m256i maj = _mm256_or_si256(_mm256_and_si256(*x, *y),
				      _mm256_and_si256(z, t));

	*y = _mm256_slli_epi16(maj, 1);
	*x = _mm256_xor_si256(t, z);
}

/* The same with a third input of zero: a row of half adders. */
static INLINE void half16(__m256i *x, __m256i *y)
{
	__m256i t = _mm256_xor_si256(*x, *y);

	*y = _mm256_slli_epi16(_mm256_and_si256(*x, *y), 1);
	*x = t;
}

/* One of both signs' 16-bit constants @kk, by the lanes' @kidx. */
static INLINE __m256i by_sign16(u32 kk, __m256i kidx)
{
	return _mm256_shuffle_epi8(bcast(kk), kidx);
}

/* digit8's low 16 bits, on sixteen lanes. */
static INLINE __m256i digit16(const struct booth16 *b, u32 j, __m256i md,
			      __m256i kidx)
{
	return _mm256_xor_si256(_mm256_mullo_epi16(md, _mm256_set1_epi16(b->mult[j])),
				by_sign16(b->kk[j], kidx));
}

/*
 * The low 16 bits of the multiplier's carry vector y, on sixteen lanes;
 * the low 12 only if @low12: digits 6 and 7 start at bit 12, so below it
 * they add only digit 5's negation bit, and the rows after add zeros.
 */
static INLINE __m256i carry16(const struct booth16 *b, __m256i md,
			      __m256i kidx, bool low12)
{
	__m256i x0, y0, x1, y1, t;

	x0 = digit16(b, 0, md, kidx);
	y0 = digit16(b, 1, md, kidx);
	csa16(&x0, &y0, digit16(b, 2, md, kidx));
	csa16(&x0, &y0, digit16(b, 3, md, kidx));
	csa16(&x0, &y0, by_sign16(b->v4kk, kidx));
	x1 = digit16(b, 4, md, kidx);
	y1 = digit16(b, 5, md, kidx);
	if (low12) {
		csa16(&x1, &y1, by_sign16(b->kk[6], kidx));
		half16(&x1, &y1);
		half16(&x1, &y1);
	} else {
		csa16(&x1, &y1, digit16(b, 6, md, kidx));
		csa16(&x1, &y1, digit16(b, 7, md, kidx));
		csa16(&x1, &y1, by_sign16(b->v9kk, kidx));
	}
	csa16(&x0, &y0, x1);
	t = _mm256_xor_si256(x0, y0);	/* the last row: its carries only */
	return _mm256_slli_epi16(_mm256_or_si256(_mm256_and_si256(x0, y0),
						 _mm256_and_si256(y1, t)), 1);
}

/*
 * 2^(16 - s) by alignment a = s / 4 (2^16 wraps to 0), low bytes at
 * a, high bytes at a + 8: the factor that leaves a lane's low s bits on top.
 */
static const u8 align_scale[16] = {
	0, 0, 0, 0x10, 0x01, 0, 0, 0,
	0, 0x10, 0x01, 0, 0, 0, 0, 0,
};

/* Sixteen bytes of a lost8_table row in both halves. */
static INLINE __m256i quarter(const u8 *p)
{
	return _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)p));
}

/*
 * The carry lost by lanes aligned by 4 @a <= 8 bits (-1 where lost, else
 * 0), of weight @wd and channel @xc: a bit of lost8_table. A negative
 * weight reads the row's other sign, the quarters two apart.
 */
static INLINE __m256i lost_carry8(const struct sim_fp16_wdec *wd,
				  const struct xch *xc, __m256i a)
{
	s16 sign = wd->smant >> 15;	/* |smant| without a branch */
	const u8 *row = lost8_table[(u16)((wd->smant ^ sign) - sign) & 0xff];
	const u8 *pos = row + 32 * wd->negative, *neg = row + 32 * !wd->negative;
	__m256i r;

	r = _mm256_or_si256(
		_mm256_or_si256(_mm256_shuffle_epi8(quarter(pos), xc->q8[0]),
				_mm256_shuffle_epi8(quarter(pos + 16), xc->q8[1])),
		_mm256_or_si256(_mm256_shuffle_epi8(quarter(neg), xc->q8[2]),
				_mm256_shuffle_epi8(quarter(neg + 16), xc->q8[3])));
	return _mm256_and_si256(_mm256_cmpeq_epi16(a, _mm256_set1_epi16(2)),
				_mm256_cmpgt_epi16(_mm256_and_si256(r, xc->bit8),
						   _mm256_setzero_si256()));
}

/*
 * The carry lost by lanes aligned by 4 @a <= 16 bits (-1 where lost, else
 * 0), of weight @wd (signed mantissa @smw) and channel @xc; 12 at most
 * if @low12.
 */
static INLINE __m256i lost_carry(const struct sim_fp16_wdec *wd,
				 const struct xch *xc, __m256i smw, __m256i a,
				 bool low12)
{
	const __m256i bias = _mm256_set1_epi16(-0x8000);
	__m256i y = carry16(&booth16_table[wd->key], xc->mant,
			    xc->kidx[wd->negative], low12);
	__m256i p = _mm256_mullo_epi16(xc->smant, smw);
	__m256i idx, scale, lost;

	idx = _mm256_add_epi16(_mm256_mullo_epi16(a, _mm256_set1_epi16(0x0101)),
			       _mm256_set1_epi16(0x0800));
	scale = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(
			_mm_loadu_si128((const __m128i *)align_scale)), idx);
	lost = _mm256_cmpgt_epi16(
		_mm256_xor_si256(_mm256_mullo_epi16(y, scale), bias),
		_mm256_xor_si256(_mm256_mullo_epi16(p, scale), bias));
	/* zero data: alignment below 0 */
	return _mm256_and_si256(lost, _mm256_cmpgt_epi16(a, _mm256_set1_epi16(-1)));
}

/* Eight outputs' lanes (@odd: 1, 3, ..., else 0, 2, ...) of 16-bit @v, sign-extended. */
static INLINE __m256i half32(__m256i v, bool odd)
{
	return _mm256_srai_epi32(odd ? v : _mm256_slli_epi32(v, 16), 16);
}

/* Lanes of alignment 20 to 28 in the block: the whole multiplier. */
static AVX2 __m256i far_lanes(const struct sim_fp16_wdec *wd,
			      const struct xch *xc, __m256i a, bool odd)
{
	const struct booth_weight *b = &booth_table[wd->key];
	__m256i a32 = half32(a, odd), live;
	__m256i md = odd ? _mm256_srli_epi32(xc->mant, 16) :
		     _mm256_and_si256(xc->mant, _mm256_set1_epi32(0xffff));

	live = _mm256_andnot_si256(_mm256_cmpgt_epi32(a32, _mm256_set1_epi32(7)),
				   _mm256_cmpgt_epi32(a32, _mm256_set1_epi32(-1)));
	return _mm256_and_si256(live, booth_weight8(b, md,
			half32(_mm256_xor_si256(xc->sign,
					_mm256_set1_epi16(-(s16)wd->negative)), odd),
			_mm256_and_si256(_mm256_slli_epi32(a32, 2), live)));
}

/* Sums of int32 lanes, into four int64 vectors. */
struct xacc {
	__m256i even, odd;		/* int32: at most eight products */
	__m256i lost;			/* int16: carries lost, negated */
};

/* Add @ac's int32 sums to @wide: even 0-3, 4-7, odd 0-3, 4-7 (of eight). */
static INLINE void xacc_widen(struct xacc *ac, __m256i wide[4])
{
	wide[0] = _mm256_add_epi64(wide[0],
		_mm256_cvtepi32_epi64(_mm256_castsi256_si128(ac->even)));
	wide[1] = _mm256_add_epi64(wide[1],
		_mm256_cvtepi32_epi64(_mm256_extracti128_si256(ac->even, 1)));
	wide[2] = _mm256_add_epi64(wide[2],
		_mm256_cvtepi32_epi64(_mm256_castsi256_si128(ac->odd)));
	wide[3] = _mm256_add_epi64(wide[3],
		_mm256_cvtepi32_epi64(_mm256_extracti128_si256(ac->odd, 1)));
	ac->even = _mm256_setzero_si256();
	ac->odd = _mm256_setzero_si256();
}

/* One decoded weight @wd at the sixteen outputs of its channel @xc. */
static INLINE void xweight(struct xacc *ac, const struct xch *xc,
			   const struct sim_fp16_wdec *wd, __m256i top)
{
	__m256i smw = _mm256_set1_epi16(wd->smant);
	__m256i a = _mm256_sub_epi16(top, _mm256_add_epi16(xc->galign,
					_mm256_set1_epi16(wd->group)));
	__m256i sh, even, odd;

	/*
	 * Alignment 8 at most: a table's bit, looked up whatever the lanes'
	 * alignments (0 where none is 8), as whether one is depends on the
	 * data and mispredicts a branch more often than not.
	 */
	if (_mm256_movemask_epi8(_mm256_cmpgt_epi16(a, _mm256_set1_epi16(2)))) {
		if (_mm256_movemask_epi8(_mm256_cmpgt_epi16(a, _mm256_set1_epi16(4)))) {
			ac->even = _mm256_add_epi32(ac->even, far_lanes(wd, xc, a, false));
			ac->odd = _mm256_add_epi32(ac->odd, far_lanes(wd, xc, a, true));
			return;
		}
		ac->lost = _mm256_add_epi16(ac->lost, lost_carry(wd, xc, smw, a,
			!_mm256_movemask_epi8(_mm256_cmpgt_epi16(a, _mm256_set1_epi16(3)))));
	} else {
		ac->lost = _mm256_add_epi16(ac->lost, lost_carry8(wd, xc, a));
	}
	/* exact floor: zero data has a zero product, any shift */
	sh = _mm256_slli_epi16(a, 2);
	even = _mm256_madd_epi16(xc->smant, _mm256_and_si256(smw, bcast(0xffff)));
	odd = _mm256_madd_epi16(xc->smant, _mm256_and_si256(smw, bcast(0xffff0000)));
	ac->even = _mm256_add_epi32(ac->even, _mm256_srav_epi32(even,
			_mm256_and_si256(sh, bcast(0xffff))));
	ac->odd = _mm256_add_epi32(ac->odd, _mm256_srav_epi32(odd,
			_mm256_srli_epi32(sh, 16)));
}

/* Partial sums of the @n decoded weights @wl at the sixteen outputs of @xd. */
static AVX2 void xblock(const struct xdata *xd, const struct sim_fp16_wdec *wl,
			u32 n, s64 mant[GX], u32 top[GX])
{
	const __m256i zero = _mm256_setzero_si256();
	struct xacc ac = { zero, zero, zero };
	__m256i topv = zero, widev[4] = { zero, zero, zero, zero };
	s64 wide[4][4];
	s16 lost[GX], t16[GX];
	u32 i, j, x, summed = 0;
	__m256i run;

	/*
	 * The weights come by group, the largest first: one add a group, not
	 * a weight, and none once no output's data can raise its top.
	 */
	for (i = 0; i < n; i = j) {
		if (!_mm256_movemask_epi8(_mm256_cmpgt_epi16(_mm256_add_epi16(
				xd->gmax, _mm256_set1_epi16(wl[i].group)), topv)))
			break;
		run = xd->ch[wl[i].ch].gtop;
		for (j = i + 1; j < n && wl[j].group == wl[i].group; j++)
			run = _mm256_max_epi16(run, xd->ch[wl[j].ch].gtop);
		topv = _mm256_max_epi16(topv, _mm256_add_epi16(run,
					_mm256_set1_epi16(wl[i].group)));
	}
	for (i = 0; i < n; i++) {
		if (i + BOOTH_AHEAD < n)	/* most entries are not in L1 */
			__builtin_prefetch(&booth16_table[wl[i + BOOTH_AHEAD].key]);
		xweight(&ac, &xd->ch[wl[i].ch], &wl[i], topv);
		if (++summed == 8) {	/* eight products stay within int32 */
			xacc_widen(&ac, widev);
			summed = 0;
		}
	}
	xacc_widen(&ac, widev);
	for (i = 0; i < 4; i++)
		_mm256_storeu_si256((__m256i *)wide[i], widev[i]);
	_mm256_storeu_si256((__m256i *)lost, ac.lost);
	_mm256_storeu_si256((__m256i *)t16, topv);
	/* wide[h] lane l: output 2 (4 (h & 1) + l) + (h >> 1) */
	for (x = 0; x < GX; x++) {
		mant[x] = wide[x % 2 * 2 + x / 8][x / 2 % 4] + lost[x];
		top[x] = t16[x];
	}
}

/*
 * The non-zero weights of block @w[0..n), largest group first: a block's
 * lanes then change path (exact, carry, whole multiplier) a few times
 * only, and the branches stay predicted. Their count.
 */
static u32 wdec_block(struct sim_fp16_wdec *out, const u16 *w, u32 n)
{
	u32 at[9] = { 0 }, g, i, m, mant;

	for (i = 0; i < n; i++)	/* after the weights of larger groups */
		if (w[i] & 0x7fff)
			at[8 - (w[i] >> 12 & 7)]++;
	for (g = 1; g < 9; g++)
		at[g] += at[g - 1];
	for (i = 0; i < n; i++) {
		if (!(w[i] & 0x7fff))
			continue;
		g = w[i] >> 12 & 7;
		m = at[7 - g]++;
		mant = w[i] & 0x8000 ? -mant_of(w[i]) : mant_of(w[i]);
		out[m].smant = mant;
		out[m].group = g;
		out[m].negative = w[i] >> 15;
		out[m].key = booth_key(w[i]);
		out[m].ch = i;
	}
	return at[8];
}

AVX2 bool sim_fp16_group_block_avx2(const u16 *const *d, const u16 *w, u32 n,
				    struct sim_fp_psum *p)
{
	struct xdata *xd = aligned_alloc(32, sizeof(*xd));
	struct sim_fp16_wdec wl[SIM_CMAC_FP16_LANES];
	u32 top[GX], x;
	s64 mant[GX];

	if (!xd || !sim_dense_fp16_group_ready()) {
		free(xd);
		return false;
	}
	xdata_fill(xd, d, n);
	xblock(xd, wl, wdec_block(wl, w, n), mant, top);
	for (x = 0; x < GX; x++) {
		p[x].exp = 4 * top[x];
		p[x].mant = mant[x];
	}
	free(xd);
	return true;
}

/*
 * Post-extension: the weights of kernel @k's pass from kernel row @r0 into
 * @w, as the CSC feeds them (ext rows of the layer's channels, one block
 * in all); their count.
 */
static u32 pass_weights(const struct sim_dense *dl, u32 k, u32 r0, u16 *w)
{
	u32 n = 0, r;

	for (r = r0; r < dl->taps && r < r0 + dl->ext; r++) {
		memcpy(w + n, dl->wt + ((u64)k * dl->taps + r) * dl->cp,
		       dl->c * sizeof(u16));
		n += dl->c;
	}
	return n;
}

static u32 passes(const struct sim_dense *dl)
{
	return (dl->taps + dl->ext - 1) / dl->ext;
}

/* The decoded block of kernel @k at tap (or pass) @t, channel block @b. */
static u64 wdec_slot(const struct sim_dense *dl, u32 k, u32 t, u32 b)
{
	return ((u64)b * dl->taps + t) * dl->wkernels + k;
}

/* Room for a block: with post-extension, a pass's rows. */
static u32 wdec_size(const struct sim_dense *dl)
{
	return dl->ext > 1 ? SIM_CMAC_FP16_LANES : dl->block;
}

bool sim_dense_fp16_wdec_open(struct sim_dense *dl, u32 k)
{
	u64 slots;

	dl->wkernels = k;
	slots = wdec_slot(dl, 0, 0, dl->ext > 1 ? 1 : dl->blocks);
	dl->wdec = malloc(slots * wdec_size(dl) * sizeof(*dl->wdec));
	dl->wcount = malloc(slots);
	return dl->wdec && dl->wcount;
}

void sim_dense_fp16_wdec(struct sim_dense *dl, u32 k0, u32 k1)
{
	u16 w[SIM_CMAC_FP16_LANES];
	u32 b, n, k, t;
	u64 at;

	for (k = k0; k < k1; k++) {
		for (t = 0; dl->ext > 1 && t < passes(dl); t++) {
			at = wdec_slot(dl, k, t, 0);
			n = pass_weights(dl, k, t * dl->ext, w);
			dl->wcount[at] = wdec_block(dl->wdec + at * wdec_size(dl),
						    w, n);
		}
		for (t = 0; dl->ext == 1 && t < dl->taps; t++)
			for (b = 0; b < dl->blocks; b++) {
				n = dl->c - b * dl->block < dl->block ?
				    dl->c - b * dl->block : dl->block;
				at = wdec_slot(dl, k, t, b);
				dl->wcount[at] = wdec_block(
					dl->wdec + at * wdec_size(dl),
					(const u16 *)dl->wt +
					((u64)k * dl->taps + t) * dl->cp +
					b * dl->block, n);
			}
	}
}

bool sim_dense_fp16_group_ready(void)
{
	pthread_once(&booth_once, booth_table_build);
	return booth_table;
}

/* Where output @x of the group's @no from @o0 takes tap @t's data in @dl. */
static u64 group_at(const struct sim_dense *dl, u32 w, u64 o0, u32 no, u32 x,
		    u32 t)
{
	u64 o = o0 + (x < no ? x : no - 1);	/* past the end: the last again */

	return o / w * dl->ystep + o % w * dl->xstep + dl->toff[t];
}

/*
 * Post-extension: a pass's kernel rows (ext of them, each of the layer's
 * channels, one block in all) gathered into one block per output and per
 * kernel, as the CSC feeds them.
 */
static AVX2 void group_passes(const struct sim_dense *dl, struct xdata *xd,
			      u32 w, u64 o0, u32 no, u32 k0, u32 k1,
			      struct sim_fp_acc *acc)
{
	u16 d[GX][SIM_CMAC_FP16_LANES + 8], wt[SIM_CMAC_FP16_LANES + 8];
	const u16 *dp[GX];
	struct sim_fp_psum p;
	bool dnan[GX], wnan;
	u32 r0, r, n, x, k, top[GX];
	s64 mant[GX];
	u64 at;

	for (r0 = 0; r0 < dl->taps; r0 += dl->ext) {
		for (x = 0; x < GX; x++) {
			for (n = 0, r = r0; r < dl->taps && r < r0 + dl->ext; r++) {
				memcpy(d[x] + n, dl->in + group_at(dl, w, o0, no, x, r),
				       dl->c * sizeof(u16));
				n += dl->c;
			}
			dnan[x] = sim_dense_fp16_nan(d[x], n);
			dp[x] = d[x];
		}
		xdata_fill(xd, dp, n);
		for (k = k0; k < k1; k++) {
			at = wdec_slot(dl, k, r0 / dl->ext, 0);
			n = pass_weights(dl, k, r0, wt);
			wnan = sim_dense_fp16_nan(wt, n);
			xblock(xd, dl->wdec + at * wdec_size(dl), dl->wcount[at],
			       mant, top);
			for (x = 0; x < no; x++) {
				p.exp = 4 * top[x];
				p.mant = mant[x];
				if (wnan || dnan[x])
					sim_cmac_fp16_nan(d[x], wt, n, &p);
				sim_cacc_fp16_add(&acc[(k - k0) * GX + x], p);
			}
		}
	}
}

AVX2 void sim_dense_fp16_group_avx2(const struct sim_dense *dl, u32 w, u64 o0,
				    u32 no, u32 k0, u32 k1, struct sim_fp_acc *acc)
{
	struct xdata *xd = aligned_alloc(32, sizeof(*xd));
	const u16 *d[GX], *wp;
	struct sim_fp_psum p;
	bool dnan[GX], any_dnan;
	u32 b, t, n, x, k, top[GX];
	s64 mant[GX];
	u64 at, kt;

	if (!xd)
		return;
	if (dl->ext > 1) {
		group_passes(dl, xd, w, o0, no, k0, k1, acc);
		free(xd);
		return;
	}
	for (b = 0; b < dl->blocks; b++) {
		n = dl->c - b * dl->block < dl->block ? dl->c - b * dl->block :
		    dl->block;
		for (t = 0; t < dl->taps; t++) {
			any_dnan = false;
			for (x = 0; x < GX; x++) {
				at = group_at(dl, w, o0, no, x, t);
				d[x] = (const u16 *)dl->in + at + b * dl->block;
				dnan[x] = dl->dnan ?
					  dl->dnan[at / dl->cp * dl->blocks + b] :
					  sim_dense_fp16_nan(d[x], n);
				any_dnan |= dnan[x];
			}
			xdata_fill(xd, d, n);
			for (k = k0; k < k1; k++) {
				kt = (u64)k * dl->taps + t;
				wp = (const u16 *)dl->wt + kt * dl->cp + b * dl->block;
				at = wdec_slot(dl, k, t, b);
				xblock(xd, dl->wdec + at * wdec_size(dl),
				       dl->wcount[at], mant, top);
				for (x = 0; x < no; x++) {
					p.exp = 4 * top[x];
					p.mant = mant[x];
					if ((any_dnan || dl->wnan[kt * dl->blocks + b]) &&
					    (dnan[x] || dl->wnan[kt * dl->blocks + b]))
						sim_cmac_fp16_nan(d[x], wp, n, &p);
					sim_cacc_fp16_add(&acc[(k - k0) * GX + x], p);
				}
			}
		}
	}
	free(xd);
}
