// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The fp16 datapath's arithmetic against hand-worked cases: conversions
 * between fp16, fp17 and fp32 (zero, denormals, largest finite, infinity,
 * NaN payloads, rounding ties), add/multiply/compare with the hardware's
 * flush-to-zero and saturation, the CMAC partial sum and the CACC's
 * 48-bit accumulator with its rounding and fp32 conversion.
 */
#include <stdint.h>
#include <stdlib.h>

#include "../../../sim/cdp_fp16.h"
#include "../../../sim/conv_fp16.h"
#include "../../../sim/fp.h"
#include "../../../sim/lut.h"
#include "../../../sim/sim_internal.h"
#include "../lib/tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct case32 {
	uint32_t in, want;
	const char *what;
};

static void test_widen(void)
{
	static const struct case32 c[] = {
		{ 0x0000, 0x00000000, "+0" },
		{ 0x8000, 0x80000000, "-0" },
		{ 0x3c00, 0x3f800000, "1.0" },
		{ 0xc000, 0xc0000000, "-2.0" },
		{ 0x0001, 0x33800000, "smallest denormal 2^-24" },
		{ 0x03ff, 0x387fc000, "largest denormal" },
		{ 0x7bff, 0x477fe000, "largest finite 65504" },
		{ 0x7c00, 0x7f7fffff, "+inf becomes the largest fp32" },
		{ 0xfc00, 0xff7fffff, "-inf becomes the most negative fp32" },
		{ 0x7e01, 0x7f800201, "NaN keeps its payload in the low bits" },
	};
	size_t i;

	for (i = 0; i < N(c); i++)
		tap_ok(sim_fp16_to_fp32(c[i].in) == c[i].want,
		       "fp16 %04x -> fp32 %08x: %s", c[i].in, c[i].want,
		       c[i].what);
	tap_ok(sim_fp16_to_fp17(0x3c00) == 0x7c00 &&
	       sim_fp16_to_fp17(0x0001) == 0x1c00 &&
	       sim_fp16_to_fp17(0x7c00) == 0xfbff &&
	       sim_fp16_to_fp17(0xfe00) == 0x1fe00,
	       "fp16 -> fp17: 1.0, 2^-24 normalised, inf saturates, NaN");
	tap_ok(sim_fp17_to_fp32(0x7c00) == 0x3f800000 &&
	       sim_fp17_to_fp32(0x0001) == 0x30002000,
	       "fp17 -> fp32: 1.0; a denormal counts as if it had a hidden 1");
}

static void test_narrow(void)
{
	static const struct case32 c[] = {
		{ 0x3f800000, 0x3c00, "1.0" },
		{ 0x3f801000, 0x3c00, "1 + 2^-11: tie to even, down" },
		{ 0x3f803000, 0x3c02, "1 + 3*2^-11: tie to even, up" },
		{ 0x3f800800, 0x3c00, "1 + 2^-12: below half" },
		{ 0x477fe000, 0x7bff, "65504 exact" },
		{ 0x477ff000, 0x7bff, "65520 rounds up past 65504: saturates" },
		{ 0x7f800000, 0x7bff, "+inf saturates" },
		{ 0xff800000, 0xfbff, "-inf saturates" },
		{ 0x7f800155, 0x7d55, "NaN keeps the low payload bits" },
		{ 0x7fc00000, 0x7c00, "NaN with no low payload bits" },
		{ 0x33800000, 0x0001, "2^-24: smallest denormal" },
		{ 0x33000000, 0x0000, "2^-25: tie to even, zero" },
		{ 0x33400000, 0x0001, "1.5 * 2^-25 rounds up" },
		{ 0x387ff000, 0x0400, "denormal rounding up to the smallest normal" },
		{ 0x32800000, 0x0000, "2^-26 flushes" },
		{ 0xb2800000, 0x8000, "-2^-26 flushes to -0" },
		{ 0xc0000000, 0xc000, "-2.0" },
	};
	size_t i;

	for (i = 0; i < N(c); i++)
		tap_ok(sim_fp32_to_fp16(c[i].in) == c[i].want,
		       "fp32 %08x -> fp16 %04x: %s", c[i].in, c[i].want,
		       c[i].what);
	tap_ok(sim_fp32_to_fp17(0x3f800000) == 0x7c00 &&
	       sim_fp32_to_fp17(0x2f800000) == 0x0000 &&
	       sim_fp32_to_fp17(0x7f800000) == 0xfbff,
	       "fp32 -> fp17: 1.0, 2^-32 flushes, inf saturates");
	tap_ok(sim_fp17_to_fp16(0x7c00) == 0x3c00 &&
	       sim_fp17_to_fp16(0x1800) == 0x0000 &&
	       sim_fp17_to_fp16(0x1801) == 0x0001 &&
	       sim_fp17_to_fp16(0x1400) == 0x0000 &&
	       sim_fp17_to_fp16(0xfbff) == 0x7bff,
	       "fp17 -> fp16: 1.0, 2^-25 ties to 0, just above rounds up, 2^-26, saturation");
}

/* The CDMA converter's 17-bit integers to fp16. */
static void test_from_int(void)
{
	static const struct {
		s32 in;
		u16 want;
		const char *what;
	} c[] = {
		{ 0, 0x0000, "0 is +0" },
		{ 1, 0x3c00, "1" },
		{ -3, 0xc200, "-3" },
		{ 2047, 0x67ff, "2047: 11 bits, exact" },
		{ 2049, 0x6800, "2049: tie to even, down to 2048" },
		{ 2051, 0x6802, "2051: tie to even, up to 2052" },
		{ 2053, 0x6802, "2053: tie to even, down to 2052" },
		{ -4099, 0xec01, "-4099: above half, away to -4100" },
		{ 65504, 0x7bff, "65504 exact" },
		{ 65519, 0x7bff, "65519: below half, 65504" },
		{ 65520, 0x7bff, "65520 rounds past 65504: saturates" },
		{ 65535, 0x7bff, "65535, the largest int17, saturates" },
		{ -65536, 0xfbff, "-65536, the smallest int17, saturates" },
	};
	size_t i;

	for (i = 0; i < N(c); i++)
		tap_ok(sim_int_to_fp16(c[i].in) == c[i].want,
		       "int %d -> fp16 %04x: %s (got %04x)", c[i].in, c[i].want,
		       c[i].what, sim_int_to_fp16(c[i].in));
}

static void test_to_int16(void)
{
	tap_ok(sim_fp16_to_int16(0x3c00) == 1 &&
	       sim_fp16_to_int16(0x3e00) == 2 &&	/* 1.5: half away */
	       sim_fp16_to_int16(0xbe00) == -2 &&
	       sim_fp16_to_int16(0x3dff) == 1 &&	/* 1.4995 */
	       sim_fp16_to_int16(0x3800) == 1 &&	/* 0.5 */
	       sim_fp16_to_int16(0x37ff) == 0 &&
	       sim_fp16_to_int16(0x0001) == 0 && sim_fp16_to_int16(0x8000) == 0,
	       "fp16 -> int16 rounds half away from zero");
	tap_ok(sim_fp16_to_int16(0x77ff) == 32752 &&
	       sim_fp16_to_int16(0x7800) == 32767 &&	/* 32768 */
	       sim_fp16_to_int16(0xf800) == -32768 &&
	       sim_fp16_to_int16(0x7c00) == 32767 &&
	       sim_fp16_to_int16(0xfc00) == -32768 &&
	       sim_fp16_to_int16(0x7e00) == -32768 &&
	       sim_fp16_to_int16(0x7e00 | 0x8000) == -32768,
	       "fp16 -> int16 saturates; infinities saturate; NaN is -32768");
}

static void test_add(void)
{
	tap_ok(sim_fp_add(0x3f800000, 0x3f800000, &sim_fp32) == 0x40000000,
	       "1 + 1 = 2");
	tap_ok(sim_fp_add(0x3f800000, 0xbf800000, &sim_fp32) == 0x00000000 &&
	       sim_fp_add(0xbf800000, 0x3f800000, &sim_fp32) == 0x80000000,
	       "x + -x takes the first operand's sign");
	tap_ok(sim_fp_sub(0x00c00000, 0x00800000, &sim_fp32) == 0,
	       "1.5*2^-126 - 2^-126: a denormal result flushes to +0");
	tap_ok(sim_fp_add(0x7f7fffff, 0x7f7fffff, &sim_fp32) == 0x7f7fffff,
	       "overflow saturates to the largest finite value");
	tap_ok(sim_fp_add(0x3f800000, 0x33800000, &sim_fp32) == 0x3f800000 &&
	       sim_fp_add(0x3f800001, 0x33800000, &sim_fp32) == 0x3f800002,
	       "1 + 2^-24 ties to even: down from 1, up from 1 + 2^-23");
	tap_ok(sim_fp_add(0x7fc00001, 0x3f800000, &sim_fp32) == 0x7fc00001 &&
	       sim_fp_add(0x3f800000, 0xffc00002, &sim_fp32) == 0xffc00002 &&
	       sim_fp_add(0x7fc00003, 0xffc00002, &sim_fp32) == 0x7fc00003,
	       "the first NaN propagates with its payload");
	tap_ok(sim_fp_add(0x7c00, 0x7c00, &sim_fp17) == 0x8000,
	       "fp17: 1 + 1 = 2");
}

static void test_mul(void)
{
	tap_ok(sim_fp_mul(0x3fc00000, 0x3fc00000, &sim_fp32) == 0x40100000,
	       "1.5 * 1.5 = 2.25");
	tap_ok(sim_fp_mul(0xc0000000, 0x40400000, &sim_fp32) == 0xc0c00000,
	       "-2 * 3 = -6");
	tap_ok(sim_fp_mul(0x3f800001, 0x3f800001, &sim_fp32) == 0x3f800002,
	       "(1 + 2^-23)^2 rounds to 1 + 2^-22");
	tap_ok(sim_fp_mul(0x0d800000, 0x30800000, &sim_fp32) == 0,
	       "2^-100 * 2^-30 flushes to zero");
	tap_ok(sim_fp_mul(0x71800000, 0x71800000, &sim_fp32) == 0x7f7fffff,
	       "2^100 * 2^100 saturates");
	tap_ok(sim_fp_mul(0x80000000, 0x40a00000, &sim_fp32) == 0x80000000,
	       "-0 * 5 = -0");
	tap_ok(sim_fp_mul(0x7fc00001, 0, &sim_fp32) == 0x7fc00001,
	       "NaN * 0 = the NaN");
	tap_ok(sim_fp_mul(0x7c00, 0x8000, &sim_fp17) == 0x8000,
	       "fp17: 1 * 2 = 2");
}

static void test_cmp_relu(void)
{
	tap_ok(sim_fp_cmp(0x0000, 0x8000, true, &sim_fp16) == 0x0000 &&
	       sim_fp_cmp(0x8000, 0x0000, true, &sim_fp16) == 0x0000,
	       "max(+0, -0) = +0 either way round");
	tap_ok(sim_fp_cmp(0x3c00, 0x4000, false, &sim_fp16) == 0x3c00 &&
	       sim_fp_cmp(0xbc00, 0xc000, true, &sim_fp16) == 0xbc00,
	       "min(1, 2) = 1, max(-1, -2) = -1");
	tap_ok(sim_fp_cmp(0x7e01, 0x3c00, true, &sim_fp16) == 0x7e01 &&
	       sim_fp_cmp(0x3c00, 0xfe02, false, &sim_fp16) == 0xfe02,
	       "a NaN wins a comparison");
	tap_ok(sim_fp_cmp(0x7c00, 0x7bff, true, &sim_fp16) == 0x7c00,
	       "infinity is the largest");
	tap_ok(sim_fp_relu(0xbf800000, &sim_fp32) == 0 &&
	       sim_fp_relu(0x3f800000, &sim_fp32) == 0x3f800000 &&
	       sim_fp_relu(0xffc00000, &sim_fp32) == 0xffc00000,
	       "ReLU: negative to +0, positive kept, NaN kept");
}

static void test_cmac(void)
{
	u16 one[2] = { 0x3c00, 0x3c00 }, w[2] = { 0x3c00, 0xbc00 };
	u16 zero_w[2] = { 0x0000, 0x8000 }, nan_w[2] = { 0x3c00, 0x7e01 };
	u16 inf[1] = { 0x7c00 };
	struct sim_fp_psum p;
	int i, bad = 0;

	p = sim_cmac_fp16(one, one, 1);
	tap_ok(p.exp == 24 && p.mant == 1 << 26,
	       "CMAC: 1 * 1 = 2^26 * 2^(24 - 50)");
	p = sim_cmac_fp16(one, w, 2);
	tap_ok(p.exp == 24 && p.mant == 0, "CMAC: 1*1 + 1*-1 = 0");
	p = sim_cmac_fp16(one, zero_w, 2);
	tap_ok(p.exp == 0 && p.mant == 0, "CMAC: zero weights are masked");
	p = sim_cmac_fp16(one, nan_w, 2);
	tap_ok(p.exp == 0x3f && p.mant == (s64)0x201 << 27,
	       "CMAC: a NaN weight makes the sum NaN with its payload");
	p = sim_cmac_fp16(inf, one, 1);
	tap_ok(p.exp == 40 && p.mant == (s64)1 << 26,
	       "CMAC: infinity counts as 65536 (2^26 * 2^(40 - 50))");
	tap_ok(sim_cmac_product(0x2000, 0x2000, true, 0) == -(1 << 26) &&
	       sim_cmac_product(0x2000, 0x2000, false, 32) == 0,
	       "Booth product: exact unshifted, 0 when shifted out");
	/* Each truncated carry-save vector is off by less than one LSB. */
	srand(7);
	for (i = 0; i < 20000; i++) {
		u32 wm = rand() & 0x3fff, dm = rand() & 0x3fff;
		u32 shift = 4 * (rand() % 8);
		bool neg = rand() & 1;
		s64 exact = ((s64)wm * dm) * (neg ? -1 : 1);
		s64 diff = (exact >> shift) - sim_cmac_product(wm, dm, neg, shift);

		bad += diff > 1 || diff < -1;
	}
	tap_ok(!bad, "Booth product within one LSB of the exact shift: %d off",
	       bad);
}

static struct sim_fp_psum psum(u32 exp, s64 mant)
{
	struct sim_fp_psum p = { exp, mant };

	return p;
}

static void test_cacc(void)
{
	struct sim_fp_acc a = { 0, 0 };

	sim_cacc_fp16_add(&a, psum(24, 1 << 26));
	tap_ok(a.exp == 63 && a.mant == (s64)1 << 38 &&
	       sim_cacc_fp16_to_fp32(&a) == 0x3f800000,
	       "CACC: 1.0 into an empty accumulator, normalised; fp32 1.0");
	sim_cacc_fp16_add(&a, psum(24, 1 << 26));
	tap_ok(a.exp == 64 && a.mant == (s64)1 << 38 &&
	       sim_cacc_fp16_to_fp32(&a) == 0x40000000,
	       "CACC: 1 + 1 overflows the mantissa, exponent steps up");
	sim_cacc_fp16_add(&a, psum(24, -(1 << 26)));
	tap_ok(a.exp == 63 && a.mant == (s64)1 << 38, "CACC: 2 - 1 = 1");
	sim_cacc_fp16_add(&a, psum(0, 0));
	tap_ok(a.exp == 63 && a.mant == (s64)1 << 38,
	       "CACC: a zero partial sum changes nothing");

	a.exp = 0;
	a.mant = 0;
	sim_cacc_fp16_add(&a, psum(38, 3ll << 35));
	sim_cacc_fp16_add(&a, psum(0, 3ll << 35));
	tap_ok(a.exp == 87 && a.mant == (3ll << 37) + 2,
	       "CACC: positive half rounds up");
	a.exp = 0;
	a.mant = 0;
	sim_cacc_fp16_add(&a, psum(38, -(3ll << 35)));
	sim_cacc_fp16_add(&a, psum(0, -(3ll << 35)));
	tap_ok(a.exp == 87 && a.mant == -(3ll << 37) - 2,
	       "CACC: negative half rounds half up on the magnitude");
	tap_ok(sim_cacc_fp16_to_fp32(&a) == 0xcbc00000,
	       "CACC -> fp32: -1.5 * 2^24, low bits truncated");

	a.exp = 63;
	a.mant = ((s64)1 << 38) + (1 << 14);
	tap_ok(sim_cacc_fp16_to_fp32(&a) == 0x3f800001,
	       "CACC -> fp32: 1 + 2^-24 rounds half up");
	a.exp = 87;
	a.mant = -((s64)1 << 39);
	tap_ok(sim_cacc_fp16_to_fp32(&a) == 0xcc000000,
	       "CACC -> fp32: -2^39 mantissa, -2^25");
	a.exp = 0;
	a.mant = 0;
	tap_ok(sim_cacc_fp16_to_fp32(&a) == 0, "CACC -> fp32: zero is +0");

	sim_cacc_fp16_add(&a, psum(0x3f, (s64)0x201 << 27));
	sim_cacc_fp16_add(&a, psum(24, 1 << 26));
	tap_ok(a.exp == 0xff && sim_cacc_fp16_to_fp32(&a) == 0x7f800201 &&
	       sim_fp32_to_fp16(sim_cacc_fp16_to_fp32(&a)) == 0x7e01,
	       "CACC: NaN sticks and reaches fp16 with its payload");
}

/* A small non-negative integer as fp16. */
static u16 fp16_of(u32 n)
{
	u32 e = 0;

	if (!n)
		return 0;
	while (n >> (e + 1))
		e++;
	return (e + 15) << 10 | ((n << (10 - e)) & 0x3ff);
}

/*
 * LE: entries 2i (fp16), linear with SELECT 0 (index = floor(x)) from
 * START 0, or exponent mode with offset 0; LO always below its start.
 */
static void test_lut(void)
{
	static struct sim_lut lut;
	struct sim_lut_cfg c = {
		.le_linear = true,
		.le_start = 0, .le_end = 0x42800000,		/* 64.0 */
		.lo_start = 0x7f000000, .lo_end = 0x7f000000,	/* 2^127 */
		.le_uflow_scale = 0x3800, .le_oflow_scale = 0x3c00,	/* 0.5, 1 */
	};
	int i;

	for (i = 0; i < SIM_LUT_LE_ENTRIES; i++)
		lut.le[i] = fp16_of(2 * i);
	tap_ok(lut.le[1] == 0x4000 && lut.le[2] == 0x4400 && lut.le[3] == 0x4600 &&
	       lut.le[64] == 0x5800, "LUT test table: 2i");
	tap_ok(sim_lut_lookup_fp16(&lut, &c, 0x3fc00000, NULL) == 0x40400000,
	       "LUT fp16 linear hit: 1.5 halfway between 2 and 4 = 3");
	tap_ok(sim_lut_lookup_fp16(&lut, &c, 0x3faaaaab, NULL) == 0x402aa000,
	       "LUT fp16: 1 + 1/3: weights 0x7955, 0x7555 in fp17, 2.666015625");
	tap_ok(sim_lut_lookup_fp16(&lut, &c, 0x40000000, NULL) == 0x40800000,
	       "LUT fp16 linear hit on an entry: 2.0 -> 4");
	tap_ok(sim_lut_lookup_fp16(&lut, &c, 0xbf800000, NULL) == 0xbf000000,
	       "LUT fp16 underflow: 0 + (-1 - 0) * 0.5 = -0.5");
	tap_ok(sim_lut_lookup_fp16(&lut, &c, 0x42c80000, NULL) == 0x43240000,
	       "LUT fp16 overflow: 128 + (100 - 64) * 1 = 164");
	tap_ok(sim_lut_lookup_fp16(&lut, &c, 0x7f800201, NULL) == 0x7f800201,
	       "LUT fp16: a NaN with a low payload comes out unchanged");
	tap_ok(!sim_fp_is_nan(sim_lut_lookup_fp16(&lut, &c, 0x7fc00000, NULL),
			      &sim_fp32),
	       "LUT fp16: a NaN whose payload fp17 cannot hold is no NaN any more");
	c.le_linear = false;
	tap_ok(sim_lut_lookup_fp16(&lut, &c, 0x40400000, NULL) == 0x40400000,
	       "LUT fp16 exponent hit: 3 = 2^1 * 1.5, between 2 and 4 = 3");
	tap_ok(sim_lut_lookup_fp16(&lut, &c, 0x3f000000, NULL) == 0xbe800000,
	       "LUT fp16 exponent underflow from START + 2^0: (0.5 - 1) * 0.5");
}

/* CDP fp16: LE entries i, linear from 0 with SELECT 0; LO below start. */
static void test_cdp(void)
{
	static struct sim_lut lut;
	struct sim_lut_cfg g = {
		.le_linear = true,
		.le_uflow_scale = 0x3c00, .le_oflow_scale = 0x3c00,
	};
	struct sim_cdp_fp16 c = {
		.table = &lut, .cfg = &g,
		.le_start = 0, .le_end = 0x42800000,		/* 64.0 */
		.lo_start = 0x7f000000, .lo_end = 0x7f000000,
		.half_window = 1,
	};
	u16 w[SIM_CDP_FP16_WINDOW] = { 0 };
	int i;

	for (i = 0; i < SIM_LUT_LE_ENTRIES; i++)
		lut.le[i] = fp16_of(i);
	w[3] = 0x3c00;
	w[4] = 0x3c00;
	tap_ok(sim_cdp_fp16_lrn(&c, w) == 0x4000,
	       "CDP fp16: 1 * LUT(1 + 1 + 0) = 2");
	w[3] = 0;
	w[4] = 0x3e00;
	tap_ok(sim_cdp_fp16_lrn(&c, w) == 0x42c0,
	       "CDP fp16: 1.5 * LUT(2.25) = 1.5 * (2 + 0.25) = 3.375");
	w[4] = 0x4900;
	tap_ok(sim_cdp_fp16_lrn(&c, w) == 0x63d0,
	       "CDP fp16 overflow: 10 * (64 + (100 - 64) * 1) = 1000");
	c.mul_bypass = true;
	w[4] = 0x7e01;
	tap_ok(sim_cdp_fp16_lrn(&c, w) == 0x7e01,
	       "CDP fp16 MUL_BYPASS: a NaN input passes through");
	c.mul_bypass = false;
	c.sqsum_bypass = true;
	w[4] = 0x3e00;
	tap_ok(sim_cdp_fp16_lrn(&c, w) == 0x4080,
	       "CDP fp16 SQSUM_BYPASS: 1.5 * LUT(1.5) = 2.25");
	c.sqsum_bypass = false;
	g.le_linear = false;
	c.le_offset = 2;
	tap_ok(sim_cdp_fp16_lrn(&c, w) == 0xc140,
	       "CDP fp16 exponent underflow: 1.5 * (2.25 - (0 + 2^2)) = -2.625");
	g.le_linear = true;
	c.half_window = 4;
	for (i = 0; i < SIM_CDP_FP16_WINDOW; i++)
		w[i] = 0x3c00;
	tap_ok(sim_cdp_fp16_lrn(&c, w) == 0x4880,
	       "CDP fp16 window of 9: LUT(9) = 9");
}

/* The NaN and infinity counters hold at the 32-bit maximum, as the RTL's. */
static void test_nan_count(void)
{
	struct sim_fp16_count n = { 0xfffffffe, 7 };

	sim_fp16_count_value(&n, 0x7e00, 5);	/* quiet NaN */
	sim_fp16_count_value(&n, 0xfc00, 2);	/* -infinity */
	sim_fp16_count_value(&n, 0x7bff, 9);	/* 65504: counts nowhere */
	tap_ok(n.nan == 0xffffffff && n.inf == 9,
	       "NaN counter holds at 2^32-1, infinities add (%u, %u)", n.nan,
	       n.inf);
}

int main(void)
{
	test_nan_count();
	test_widen();
	test_narrow();
	test_from_int();
	test_to_int16();
	test_add();
	test_mul();
	test_cmp_relu();
	test_cmac();
	test_cacc();
	test_lut();
	test_cdp();
	return tap_done();
}
