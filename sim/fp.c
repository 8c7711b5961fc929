// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * NVDLA's floating-point arithmetic (see fp.h) on bit patterns, written
 * from the behaviour of the hardware's C model: every rounding, flush and
 * saturation rule is the hardware's, including where it differs from IEEE.
 */
#include "fp.h"
#include "sim_math.h"

const struct sim_fp_fmt sim_fp16 = { 5, 10 };
const struct sim_fp_fmt sim_fp17 = { 6, 10 };
const struct sim_fp_fmt sim_fp32 = { 8, 23 };

#define MASK(n) ((1ull << (n)) - 1)
#define INT16_HIGH 32767
#define INT16_LOW (-32768)

struct fp_val {
	u32 s, e;
	u64 m;
};

static struct fp_val fp_split(u32 a, const struct sim_fp_fmt *f)
{
	struct fp_val v = {
		.s = a >> (f->e + f->m) & 1,
		.e = a >> f->m & MASK(f->e),
		.m = a & MASK(f->m),
	};

	return v;
}

static u32 fp_join(u32 s, u32 e, u64 m, const struct sim_fp_fmt *f)
{
	return s << (f->e + f->m) | (e & MASK(f->e)) << f->m | (u32)(m & MASK(f->m));
}

static u32 fp_emax(const struct sim_fp_fmt *f)
{
	return MASK(f->e);
}

static u32 fp_bias(const struct sim_fp_fmt *f)
{
	return MASK(f->e - 1);
}

static bool fp_nan(const struct fp_val *v, const struct sim_fp_fmt *f)
{
	return v->e == fp_emax(f) && v->m;
}

static bool fp_zero(const struct fp_val *v)
{
	return !v->e && !v->m;
}

bool sim_fp_is_nan(u32 a, const struct sim_fp_fmt *f)
{
	struct fp_val v = fp_split(a, f);

	return fp_nan(&v, f);
}

/* The largest finite value: what the hardware writes for "infinity". */
static u32 fp_max_finite(u32 s, const struct sim_fp_fmt *f)
{
	return fp_join(s, fp_emax(f) - 1, MASK(f->m), f);
}

/* Mantissa with its hidden bit; denormals count as if they had one. */
static u64 fp_mant1(const struct fp_val *v, const struct sim_fp_fmt *f)
{
	return fp_zero(v) ? 0 : v->m | 1ull << f->m;
}

/* Significant bits of @x: no loop over them, the adder calls it per sum. */
static u32 fp_bitlen(u64 x)
{
	return x ? sim_log2(x) + 1 : 0;
}

/*
 * Keep the top @out bits of the @in-bit @v, rounding to nearest even;
 * *@ovf tells that rounding carried out of them (the result wraps to 0).
 */
static u64 fp_rne(u64 v, u32 in, u32 out, bool *ovf)
{
	u32 cut = in - out;
	u64 kept = v >> cut;
	bool guard = v >> (cut - 1) & 1;
	bool sticky = v & MASK(cut - 1);
	bool carry = guard && (sticky || (kept & 1));

	*ovf = carry && kept == MASK(out);
	return (kept + carry) & MASK(out);
}

/* The first NaN of @a, @b, or 0 with *@nan false. */
static u32 fp_nan_of(u32 a, u32 b, const struct sim_fp_fmt *f, bool *nan)
{
	struct fp_val va = fp_split(a, f), vb = fp_split(b, f);

	*nan = true;
	if (fp_nan(&va, f))
		return a;
	if (fp_nan(&vb, f))
		return b;
	*nan = false;
	return 0;
}

/*
 * Both mantissas sit in a 2M+3-bit window, the larger at its top; bits of
 * the smaller one shifted below the window are lost (no sticky bit).
 */
u32 sim_fp_add(u32 a, u32 b, const struct sim_fp_fmt *f)
{
	struct fp_val va = fp_split(a, f), vb = fp_split(b, f);
	const u32 w = 2 * f->m + 3, room = f->m + 2, emax = fp_emax(f);
	bool a_big = va.e > vb.e || (va.e == vb.e && va.m >= vb.m);
	const struct fp_val *big = a_big ? &va : &vb;
	const struct fp_val *small = a_big ? &vb : &va;
	u32 diff = big->e - small->e, s = big->s, e = big->e, nan_bits;
	u64 hi = fp_mant1(big, f) << room, lo = fp_mant1(small, f), sum;
	bool inf = false, ovf, nan;

	if (diff <= room)
		lo <<= room - diff;
	else
		lo = diff - room < 64 ? lo >> (diff - room) : 0;
	sum = va.s == vb.s ? hi + lo : hi - lo;
	if (sum >> w & 1) {
		if (e < emax - 1) {
			e++;
			sum >>= 1;
		} else {
			inf = true;
		}
	} else {
		u32 zeros = w - fp_bitlen(sum);

		if (e <= zeros || !sum) {	/* denormal or zero: flush */
			e = 0;
			sum = 0;
		} else {
			e -= zeros;
			sum <<= zeros;
		}
	}
	sum = fp_rne(sum & MASK(w), w, f->m + 1, &ovf);
	if (ovf) {
		if (e < emax - 1)
			e++;
		else
			inf = true;
	}
	nan_bits = fp_nan_of(a, b, f, &nan);
	if (nan)
		return nan_bits;
	return inf ? fp_max_finite(s, f) : fp_join(s, e, sum, f);
}

u32 sim_fp_sub(u32 a, u32 b, const struct sim_fp_fmt *f)
{
	return sim_fp_add(a, b ^ 1u << (f->e + f->m), f);
}

u32 sim_fp_mul(u32 a, u32 b, const struct sim_fp_fmt *f)
{
	struct fp_val va = fp_split(a, f), vb = fp_split(b, f);
	const u32 pw = 2 * f->m + 1, emax = fp_emax(f), bias = fp_bias(f);
	u64 p = fp_mant1(&va, f) * fp_mant1(&vb, f), m;
	u32 s = va.s ^ vb.s, e = 0, nan_bits;
	bool inf = false, zero = false, ovf, nan;

	if (fp_zero(&va) || fp_zero(&vb) || va.e + vb.e < bias) {
		zero = true;
	} else if (va.e + vb.e >= emax + bias) {
		inf = true;
	} else {
		e = va.e + vb.e - bias;
		if (p >> pw & 1) {
			if (e < emax - 1)
				e++;
			else
				inf = true;
		} else {
			p <<= 1;
		}
	}
	/* 1.p rounded to M fraction bits */
	m = fp_rne((p & MASK(pw)) | 1ull << pw, pw + 1, f->m + 1, &ovf);
	if (ovf && ++e == emax)
		inf = true;
	nan_bits = fp_nan_of(a, b, f, &nan);
	if (nan)
		return nan_bits;
	if (inf)
		return fp_max_finite(s, f);
	if (zero || !e)
		return fp_join(s, 0, 0, f);
	return fp_join(s, e, m, f);
}

u32 sim_fp_cmp(u32 a, u32 b, bool max, const struct sim_fp_fmt *f)
{
	struct fp_val va = fp_split(a, f), vb = fp_split(b, f);
	bool abs_a = va.e > vb.e || (va.e == vb.e && va.m > vb.m);
	bool a_greater, nan;
	u32 nan_bits;

	if (!va.s)
		a_greater = vb.s || abs_a;
	else
		a_greater = vb.s && !abs_a;
	nan_bits = fp_nan_of(a, b, f, &nan);
	if (nan)
		return nan_bits;
	return a_greater == max ? a : b;
}

u32 sim_fp_relu(u32 a, const struct sim_fp_fmt *f)
{
	struct fp_val v = fp_split(a, f);

	return fp_nan(&v, f) || !v.s ? a : 0;
}

/* Wider exponent (and mantissa): exact, infinity saturates. */
static u32 fp_widen(u32 a, const struct sim_fp_fmt *in,
		    const struct sim_fp_fmt *out, bool denorm)
{
	struct fp_val v = fp_split(a, in);
	u32 delta = fp_bias(out) - fp_bias(in), shift = out->m - in->m, zeros;

	if (fp_nan(&v, in))	/* the payload stays in the low bits */
		return fp_join(v.s, fp_emax(out), v.m, out);
	if (v.e == fp_emax(in))
		return fp_max_finite(v.s, out);
	if (fp_zero(&v))
		return fp_join(v.s, 0, 0, out);
	if (!v.e && denorm) {
		zeros = in->m - fp_bitlen(v.m);
		return fp_join(v.s, delta - zeros,
			       v.m << (shift + zeros + 1), out);
	}
	return fp_join(v.s, v.e + delta, v.m << shift, out);
}

u32 sim_fp16_to_fp32(u16 h)
{
	return fp_widen(h, &sim_fp16, &sim_fp32, true);
}

u32 sim_fp16_to_fp17(u16 h)
{
	return fp_widen(h, &sim_fp16, &sim_fp17, true);
}

u32 sim_fp17_to_fp32(u32 h)
{
	return fp_widen(h, &sim_fp17, &sim_fp32, false);
}

/*
 * To a 10-bit mantissa with a 5- or 6-bit exponent: round to nearest
 * even; below the normal range, @denorm keeps denormals, else they flush.
 */
static u32 fp_narrow(u32 a, const struct sim_fp_fmt *in,
		     const struct sim_fp_fmt *out, bool denorm)
{
	struct fp_val v = fp_split(a, in);
	u32 delta = fp_bias(in) - fp_bias(out), cut = in->m - out->m;
	u32 emax = fp_emax(out), e, shift;
	u64 m1 = v.m | 1ull << in->m, kept;
	bool ovf, guard, sticky, carry;

	if (fp_nan(&v, in))
		return fp_join(v.s, emax, v.m, out);
	if (v.e >= emax + delta)
		return fp_max_finite(v.s, out);
	if (v.e + out->m < delta)
		return fp_join(v.s, 0, 0, out);
	if (v.e > delta) {
		e = v.e - delta;
		kept = cut ? fp_rne(m1, in->m + 1, out->m + 1, &ovf) : m1;
		if (cut && ovf && ++e == emax)
			return fp_max_finite(v.s, out);
		return fp_join(v.s, e, kept, out);
	}
	/* 1.m * 2^(e - delta) as a denormal: shift right, round */
	shift = delta - v.e + 1;
	guard = m1 >> (cut + shift - 1) & 1;
	sticky = m1 & MASK(cut + shift - 1);
	kept = m1 >> (cut + shift);
	carry = guard && (sticky || (kept & 1));
	kept += carry;
	if (kept >> out->m)		/* rounded up to the smallest normal */
		return fp_join(v.s, 1, 0, out);
	return fp_join(v.s, 0, denorm ? kept : 0, out);
}

u16 sim_fp32_to_fp16(u32 x)
{
	return fp_narrow(x, &sim_fp32, &sim_fp16, true);
}

u32 sim_fp32_to_fp17(u32 x)
{
	return fp_narrow(x, &sim_fp32, &sim_fp17, false);
}

u16 sim_fp17_to_fp16(u32 x)
{
	return fp_narrow(x, &sim_fp17, &sim_fp16, true);
}

s16 sim_fp16_to_int16(u16 h)
{
	struct fp_val v = fp_split(h, &sim_fp16);
	s32 shift = 25 - (s32)v.e;	/* value = (1.m << 10) * 2^-shift */
	u64 m = v.m | 1ull << 10, mag;

	if (fp_nan(&v, &sim_fp16))
		return INT16_LOW;
	mag = shift > 0 ? (m + (1ull << (shift - 1))) >> shift : m << -shift;
	if (mag > INT16_HIGH)
		return v.s ? INT16_LOW : INT16_HIGH;
	return v.s ? -(s16)mag : (s16)mag;
}

u16 sim_int_to_fp16(s32 v)
{
	u32 s = v < 0, e, bits;
	u64 mag = s ? -(s64)v : v, m;
	bool ovf = false;

	if (!v)
		return 0;
	bits = fp_bitlen(mag);
	e = bits - 1 + fp_bias(&sim_fp16);
	m = bits > sim_fp16.m + 1 ?
	    fp_rne(mag, bits, sim_fp16.m + 1, &ovf) :
	    mag << (sim_fp16.m + 1 - bits);
	if (ovf)		/* rounded up to the next power of two */
		e++;
	if (e >= fp_emax(&sim_fp16))
		return fp_max_finite(s, &sim_fp16);
	return fp_join(s, e, m & MASK(sim_fp16.m), &sim_fp16);
}

u32 sim_fp_frac_to_fp17(u64 f, u32 bits)
{
	u32 zeros, e = fp_bias(&sim_fp17), kept;
	bool ovf;

	if (!f)
		return 0;
	zeros = bits - fp_bitlen(f);
	/* the leading 1 at the top of a bits + 1 wide field */
	kept = fp_rne(f << (zeros + 1), bits + 1, sim_fp17.m + 1, &ovf);
	if (ovf)		/* rounded up to a power of two */
		return (e - zeros) << sim_fp17.m;
	if (e <= zeros + 1)
		return 0;
	return (e - zeros - 1) << sim_fp17.m | (kept & MASK(sim_fp17.m));
}
