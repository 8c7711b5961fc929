// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The fp16 convolution datapath, bit-exact: the CMAC sums the products of
 * up to 64 channels at one kernel tap in block floating point (radix-4
 * Booth multipliers whose two carry-save outputs are each truncated to
 * the block's exponent), the CACC accumulates those partial sums into its
 * 48-bit float (8-bit exponent, 40-bit two's-complement mantissa, its own
 * rounding) in the CSC's order (channel blocks, then kernel rows, then
 * columns), and converts the result to an fp32 bit pattern for the SDP.
 */
#include "conv_fp16.h"
#include "sim_math.h"

#define MASK(n) ((1ull << (n)) - 1)
#define PSUM_BITS 38		/* CMAC mantissa */
#define ACC_BITS 40		/* CACC mantissa */
#define PSUM_NAN_EXP 0x3f
#define ACC_NAN_EXP 0xff
#define PSUM_TO_ACC_EXP 49	/* rebias after a 2-bit widening */
#define ACC_TO_FP32_EXP 64

static s64 sext64(u64 v, u32 bits)
{
	return (s64)(v << (64 - bits)) >> (64 - bits);
}

/*
 * Bits below the sign bit that equal it: the left shift that normalises.
 * Those below the sign, flipped where it is set: their leading zeros.
 */
static u32 redundant_signs(u64 v, u32 bits)
{
	u64 x = (v >> (bits - 1) & 1 ? ~v : v) & MASK(bits - 1);

	return bits - 1 - (x ? sim_log2(x) + 1 : 0);
}

static bool fp16_zero(u16 h)
{
	return !(h & 0x7fff);
}

static bool fp16_nan(u16 h)
{
	return (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
}

static u32 fp16_exp(u16 h)
{
	return h >> 10 & 0x1f;
}

/* Mantissa with hidden bit, pre-shifted by the low two exponent bits. */
static u32 cmac_mant(u16 h)
{
	u32 e = fp16_exp(h);

	return ((h & 0x3ff) | (e ? 0x400 : 0)) << (e ? e & 3 : 1);
}

/* One full adder row: three vectors in, sum and carry out. */
static void csa(u32 *x, u32 *y, u32 z)
{
	u32 s = *x ^ *y ^ z;

	*y = ((*x & *y) | (*y & z) | (*x & z)) << 1;
	*x = s;
}

/*
 * Signed product of two pre-shifted mantissas, aligned down by @shift
 * bits: each of the multiplier's sum and carry vectors is shifted
 * separately, then a constant restores the Booth sign extension.
 */
s32 sim_cmac_product(u32 w, u32 d, bool negative, u32 shift)
{
	static const u32 sign_comp[8] = {
		0xaaab0000, 0xfaaab000, 0xffaaab00, 0xfffaaab0,
		0xffffaaab, 0xfffffaab, 0xffffffab, 0xfffffffb,
	};
	/* radix-4 Booth digit of each 3-bit code: magnitude, negated */
	static const u8 booth_mult[8] = { 0, 1, 1, 2, 2, 1, 1, 0 };
	static const u8 booth_neg = 0x70;	/* codes 4, 5, 6 */
	u32 pp[8], inv[8], v[10], x0, y0, x1, y1;
	u32 code, i, flip = negative ? 7 : 0;

	if (shift >= 32)
		return 0;
	if (!shift)	/* nothing truncated: the exact product */
		return negative ? -(s32)(w * d) : (s32)(w * d);
	w <<= 1;
	for (i = 0; i < 8; i++, w >>= 2) {
		code = (w & 7) ^ flip;
		inv[i] = booth_neg >> code & 1;
		pp[i] = d * booth_mult[code];
		pp[i] = inv[i] ? ~pp[i] & 0xffff : pp[i] | 0x10000;
	}
	v[0] = pp[0];
	v[4] = inv[3] << 6;
	v[5] = pp[4] << 8;
	v[9] = inv[7] << 14;
	for (i = 1; i < 4; i++) {
		v[i] = pp[i] << (2 * i) | inv[i - 1] << (2 * i - 2);
		v[i + 5] = pp[i + 4] << (2 * i + 8) | inv[i + 3] << (2 * i + 6);
	}
	x0 = v[0];
	y0 = v[1];
	csa(&x0, &y0, v[2]);
	csa(&x0, &y0, v[3]);
	csa(&x0, &y0, v[4]);
	x1 = v[5];
	y1 = v[6];
	csa(&x1, &y1, v[7]);
	csa(&x1, &y1, v[8]);
	csa(&x1, &y1, v[9]);
	csa(&x0, &y0, x1);
	csa(&x0, &y0, y1);
	return (s32)((x0 >> shift) + (y0 >> shift) +
		     (shift <= 28 ? sign_comp[shift / 4] : 0));
}

/* A NaN partial sum: its sign and payload at the top of the mantissa. */
static struct sim_fp_psum psum_nan(u16 h)
{
	struct sim_fp_psum p = {
		.exp = PSUM_NAN_EXP,
		.mant = sext64((u64)(h >> 15) << 37 | (u64)(h & 0x3ff) << 27,
			       PSUM_BITS),
	};

	return p;
}

bool sim_cmac_fp16_nan(const u16 *d, const u16 *w, u32 n,
		       struct sim_fp_psum *p)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (fp16_nan(w[i])) {
			*p = psum_nan(w[i]);
			return true;
		}
	for (i = 0; i < n; i++)
		if (fp16_nan(d[i])) {
			*p = psum_nan(d[i]);
			return true;
		}
	return false;
}

/* Group exponent of a lane: the high exponent bits of both operands. */
static u32 cmac_group(u16 d, u16 w)
{
	return (fp16_exp(d) >> 2) + (fp16_exp(w) >> 2);
}

u32 sim_cmac_fp16_top(const u16 *d, const u16 *w, u32 n)
{
	u32 i, g, top = 0;

	for (i = 0; i < n; i++) {
		g = cmac_group(d[i], w[i]);
		if (!fp16_zero(d[i]) && !fp16_zero(w[i]) && g > top)
			top = g;
	}
	return top;
}

s32 sim_cmac_fp16_lane(u16 d, u16 w, u32 top)
{
	if (fp16_zero(d) || fp16_zero(w))
		return 0;	/* masked lane */
	return sim_cmac_product(cmac_mant(w), cmac_mant(d), (d ^ w) >> 15,
				4 * (top - cmac_group(d, w)));
}

struct sim_fp_psum sim_cmac_fp16(const u16 *d, const u16 *w, u32 n)
{
	struct sim_fp_psum p = { 0, 0 };
	u32 i, top;

	if (sim_cmac_fp16_nan(d, w, n, &p))
		return p;
	top = sim_cmac_fp16_top(d, w, n);
	for (i = 0; i < n; i++)
		p.mant += sim_cmac_fp16_lane(d[i], w[i], top);
	p.exp = 4 * top;
	return p;
}

void sim_cacc_fp16_add(struct sim_fp_acc *acc, struct sim_fp_psum p)
{
	u64 out = 0, sum_u, round_u;
	s64 mac, a = acc->mant, sum, rnd;
	u32 n, diff, shifted_bit = 0;
	int e, big;
	bool ovf = false, neg, up;

	if (!p.mant)
		return;
	if (acc->exp == ACC_NAN_EXP) {
		acc->mant = sext64((u64)acc->mant & MASK(11) << 29, ACC_BITS);
		return;
	}
	if (p.exp == PSUM_NAN_EXP) {
		acc->exp = ACC_NAN_EXP;
		acc->mant = sext64(((u64)p.mant >> 27 & MASK(11)) << 29,
				   ACC_BITS);
		return;
	}
	n = redundant_signs((u64)p.mant & MASK(PSUM_BITS), PSUM_BITS);
	mac = sext64((u64)p.mant << n & MASK(PSUM_BITS), PSUM_BITS) * 4;
	big = (p.exp - n + PSUM_TO_ACC_EXP) & 0xff;
	if (!a)
		acc->exp = 0;
	/* Align the smaller exponent; keep what falls off for rounding. */
	if (big > (int)acc->exp) {
		diff = big - acc->exp;
		out = diff <= ACC_BITS ? ((u64)a & MASK(diff)) << (ACC_BITS - diff) : 0;
		a = diff <= ACC_BITS ? a >> diff : 0;
	} else if (big < (int)acc->exp) {
		diff = acc->exp - big;
		out = diff <= ACC_BITS ? ((u64)mac & MASK(diff)) << (ACC_BITS - diff) : 0;
		mac = diff <= ACC_BITS ? mac >> diff : 0;
		big = acc->exp;
	}
	sum = sext64((u64)(a + mac) & MASK(ACC_BITS), ACC_BITS);
	/* Same signs in, another sign out: the sum overflowed. */
	if ((mac ^ a) >= 0 && (sum ^ mac) < 0) {
		shifted_bit = sum & 1;
		ovf = true;
		sum_u = ((u64)sum & MASK(ACC_BITS)) >> 1 |
			(u64)(mac < 0) << (ACC_BITS - 1);
		sum = sext64(sum_u, ACC_BITS);
		e = big + 1;
	} else {
		n = redundant_signs((u64)sum & MASK(ACC_BITS), ACC_BITS);
		sum_u = ((u64)sum << n | out >> (ACC_BITS - n)) & MASK(ACC_BITS);
		sum = sext64(sum_u, ACC_BITS);
		out = out << n & MASK(ACC_BITS);
		e = big - n;
	}
	/* Round half up on magnitude: a negative value needs a sticky bit. */
	neg = sum < 0;
	if (ovf)
		up = shifted_bit && (!neg || out);
	else
		up = (out >> (ACC_BITS - 1) & 1) &&
		     (!neg || (out & MASK(ACC_BITS - 1)));
	rnd = sext64((u64)(sum + up) & MASK(ACC_BITS), ACC_BITS);
	if ((rnd ^ sum) < 0) {	/* rounding carried into the sign */
		round_u = ((u64)rnd & MASK(ACC_BITS)) >> 1 |
			  (u64)neg << (ACC_BITS - 1);
		rnd = sext64(round_u, ACC_BITS);
		e++;
	}
	acc->exp = rnd ? e & 0xff : 0;
	acc->mant = rnd;
}

u32 sim_cacc_fp16_to_fp32(const struct sim_fp_acc *acc)
{
	u64 m = (u64)acc->mant & MASK(ACC_BITS), mag, t;
	u32 sign = m >> (ACC_BITS - 1) & 1, e, frac;

	if (acc->exp == ACC_NAN_EXP)
		return sign << 31 | 0xffu << 23 | (u32)(m >> 29 & 0x3ff);
	if (sign && !(m & MASK(ACC_BITS - 1)))	/* -2^39: a power of two */
		return 1u << 31 | ((acc->exp + ACC_TO_FP32_EXP + 1) & 0xff) << 23;
	mag = sign ? (-m & MASK(ACC_BITS - 1)) : m;
	e = m ? (acc->exp + ACC_TO_FP32_EXP) & 0xff : 0;
	if (mag >> 14 & 1) {	/* round half up on the 24 kept bits */
		t = ((mag >> 15 | (u64)sign << 24) + 1) & MASK(25);
		if ((t >> 24 & 1) != sign) {
			t = t >> 1 | (u64)sign << 24;
			e = (e + 1) & 0xff;
		}
		frac = t & MASK(23);
	} else {
		frac = mag >> 15 & MASK(23);
	}
	return sign << 31 | e << 23 | frac;
}

static u16 conv_fp16_load(const u8 *p)
{
	return p[0] | p[1] << 8;
}

/* Channel @c of input element (@ix, @iy) as the CDMA stored it. */
static u16 conv_fp16_data(const struct sim_conv *cv, u32 c, s32 ix, s32 iy)
{
	return sim_cdma_fp16(cv->flush_data,
			     conv_fp16_load(sim_conv_input_at(cv, c, ix, iy)));
}

u32 sim_conv_fp16_value(const struct sim_conv *cv, u32 k, u32 x, u32 y)
{
	u16 d[SIM_CMAC_FP16_LANES], w[SIM_CMAC_FP16_LANES];
	struct sim_fp_acc acc = { 0, 0 };
	const u8 *wt;
	u32 c0, r, s, i, n;
	s32 ix, iy;
	bool pad;
	s64 at;

	if (k >= cv->k)
		return 0;
	at = sim_conv_cache_index(cv, k, x, y);
	if (at >= 0)
		return cv->cache->val[at];
	if (cv->is_image)
		return sim_image_fp16_value(cv, k, x, y);
	if (cv->winograd)
		return sim_wino_fp16_value(cv, k, x, y);
	for (c0 = 0; c0 < cv->c; c0 += cv->atomic_c) {
		n = cv->c - c0 < cv->atomic_c ? cv->c - c0 : cv->atomic_c;
		for (r = 0; r < cv->r; r++) {
			for (s = 0; s < cv->s; s++) {
				ix = (s32)(x * cv->stride_x + s * cv->dilation_x) -
				     (s32)cv->pad_left;
				iy = (s32)(y * cv->stride_y + r * cv->dilation_y) -
				     (s32)cv->pad_top;
				pad = ix < 0 || ix >= (s32)cv->w || iy < 0 ||
				      iy >= (s32)cv->h;
				/* a block's weights lie contiguously */
				wt = cv->wt + 2 * sim_conv_weight_index(cv, k, c0,
									r, s);
				for (i = 0; i < n; i++) {
					w[i] = sim_cdma_fp16(cv->flush_weights,
							     conv_fp16_load(wt + 2 * i));
					d[i] = pad ? (u16)cv->pad_value :
					       conv_fp16_data(cv, c0 + i, ix, iy);
				}
				sim_cacc_fp16_add(&acc, sim_cmac_fp16(d, w, n));
			}
		}
	}
	return sim_cacc_fp16_to_fp32(&acc);
}
