// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The model's arithmetic primitives against hand-worked cases: rounding
 * half away from zero, saturation, sign extension, and the SDP LUT's
 * linear and exponent indexing, interpolation and extrapolation.
 */
#include <stdint.h>
#include <string.h>

#include "../../../sim/lut.h"
#include "../../../sim/sim_math.h"
#include "../lib/tap.h"

static void test_rounding(void)
{
	static const struct { int64_t x; uint32_t s; int64_t want; } c[] = {
		{ 5, 1, 3 }, { -5, 1, -3 }, { 4, 1, 2 }, { -4, 1, -2 },
		{ 3, 2, 1 }, { -3, 2, -1 }, { 2, 2, 1 }, { -2, 2, -1 },
		{ 1, 2, 0 }, { -1, 2, 0 }, { 7, 0, 7 }, { -7, 0, -7 },
		{ (int64_t)1 << 40, 40, 1 }, { ((int64_t)1 << 39) - 1, 40, 0 },
		{ 12345, 63, 0 }, { -((int64_t)1 << 61) - 1, 62, -1 },
		{ -((int64_t)1 << 60), 62, 0 }, { -((int64_t)1 << 60) - 1, 61, -1 },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		tap_ok(sim_rha_shift(c[i].x, c[i].s) == c[i].want,
		       "rha(%lld / 2^%u) = %lld", (long long)c[i].x, c[i].s,
		       (long long)c[i].want);
}

static void test_saturation(void)
{
	tap_ok(sim_sat(200, 8) == 127 && sim_sat(-200, 8) == -128 &&
	       sim_sat(127, 8) == 127 && sim_sat(-128, 8) == -128,
	       "sat_8 clamps to [-128, 127]");
	tap_ok(sim_sat((int64_t)1 << 40, 32) == INT32_MAX &&
	       sim_sat(-((int64_t)1 << 40), 32) == INT32_MIN,
	       "sat_32 clamps 41-bit values");
	tap_ok(sim_sat(70000, 17) == 65535 && sim_sat(-70000, 17) == -65536,
	       "sat_17 clamps to [-65536, 65535]");
	tap_ok(sim_sext(0x80, 8) == -128 && sim_sext(0x7f, 8) == 127 &&
	       sim_sext(0x1f, 5) == -1 && sim_sext(0x10, 5) == -16 &&
	       sim_sext(0x3ffff, 19) == 262143 && sim_sext(0x40000, 19) == -262144,
	       "sign extension of 5, 8 and 19-bit fields");
}

/* The converters' saturation flag against the floor by division. */
static void test_shift_flags(void)
{
	bool same = true;
	int64_t x, floor, out;
	uint32_t sh;

	for (sh = 0; sh < 4; sh++) {
		for (x = -300; x <= 300; x++) {
			floor = x >= 0 ? x / (1 << sh) :
				-((-x + (1 << sh) - 1) / (1 << sh));
			out = sim_sat(sim_rha_shift(x, sh), 5);
			same &= sim_shift_saturated(x, sh, out) ==
				(floor - out > 1 || out - floor > 1);
		}
	}
	tap_ok(same, "saturation flag of x / 2^0..3 into 5 bits, x in [-300, 300]");
	tap_ok(sim_shift_saturated(-((int64_t)1 << 61), 63, -1) == 0 &&
	       sim_shift_saturated((int64_t)1 << 61, 63, 1) == 0 &&
	       sim_shift_saturated((int64_t)1 << 61, 63, -2) == 1,
	       "saturation flag of a shift past 62: the floor is 0 or -1");
	tap_ok(sim_log2(1) == 0 && sim_log2(2) == 1 && sim_log2(3) == 1 &&
	       sim_log2(((uint64_t)1 << 40) - 1) == 39 &&
	       sim_log2((uint64_t)1 << 63) == 63 && sim_log2(~0ull) == 63,
	       "floor(log2) of 1, 2, 3, 2^40 - 1, 2^63 and 2^64 - 1");
}

/* LE holds 100 * i; LO starts far above, so it underflows. */
static void lut_setup(struct sim_lut *lut, struct sim_lut_cfg *cfg)
{
	int i;

	memset(lut, 0, sizeof(*lut));
	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < SIM_LUT_LE_ENTRIES; i++)
		lut->le[i] = 100 * i;
	cfg->le_linear = true;
	cfg->le_select = 4;		/* 16 inputs per entry */
	cfg->le_end = 1024;
	cfg->le_oflow_scale = 2;
	cfg->le_oflow_shift = 1;
	cfg->le_uflow_scale = 3;
	cfg->lo_start = 1 << 30;
}

static void test_lut(void)
{
	struct sim_lut lut;
	struct sim_lut_cfg cfg;

	lut_setup(&lut, &cfg);
	tap_ok(sim_lut_lookup(&lut, &cfg, 8, NULL) == 50,
	       "linear LE: halfway between entries 0 and 1 gives 50");
	tap_ok(sim_lut_lookup(&lut, &cfg, 24, NULL) == 150,
	       "linear LE: halfway between entries 1 and 2 gives 150");
	tap_ok(sim_lut_lookup(&lut, &cfg, 4, NULL) == 25,
	       "linear LE: a quarter of the way gives 25");
	tap_ok(sim_lut_lookup(&lut, &cfg, 1030, NULL) == 6406,
	       "LE overflow: T[64] + (x - END) * 2 >> 1 = 6400 + 6");
	tap_ok(sim_lut_lookup(&lut, &cfg, -10, NULL) == -30,
	       "LE underflow (x <= START): T[0] + (x - START) * 3 = -30");

	cfg.le_linear = false;	/* exponent: index = log2(x - START) */
	tap_ok(sim_lut_lookup(&lut, &cfg, 12, NULL) == 350,
	       "exponent LE: 12 = 2^3 + 4, halfway between entries 3 and 4");
	tap_ok(sim_lut_lookup(&lut, &cfg, 1, NULL) == 0,
	       "exponent LE: 1 = 2^0 hits entry 0 exactly");

	cfg.le_linear = true;
	cfg.lo_start = 0;
	cfg.lo_select = 0;
	lut.lo[5] = 777;
	lut.lo[6] = 779;
	tap_ok(sim_lut_lookup(&lut, &cfg, 5, NULL) == 31,
	       "both hit: hybrid priority 0 picks LE");
	cfg.hybrid_lo = true;
	tap_ok(sim_lut_lookup(&lut, &cfg, 5, NULL) == 777,
	       "both hit: hybrid priority 1 picks LO entry 5");
}

int main(void)
{
	test_rounding();
	test_saturation();
	test_shift_flags();
	test_lut();
	return tap_done();
}
