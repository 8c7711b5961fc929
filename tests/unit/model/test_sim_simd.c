// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The user-space model's vector paths and threads against its plain C
 * reference, byte for byte: the fp16 CMAC block and the int8 and int16
 * dense tiles on random operands (int16's -32768 squared pairs, which
 * wrap vpmaddwd's int32, among them), then random direct convolution layers (int8, int16,
 * fp16 with NaNs and infinities among the values; padding, stride,
 * dilation, CACC truncation) run with NVDLA_SIM_SIMD=off on one thread
 * (the kernel module's path: output by output) and with the vector path
 * on one and on two threads, and random Winograd layers likewise (int8,
 * int16, fp16; padding, PRA truncation, odd numbers of tiles a row);
 * random SDP and CDP layers (int8, int16,
 * fp16; the SDP's precision conversions; every stage setting, register and memory operands, the LUTs)
 * with the vector path and the plain one, outputs and counters. Where
 * the CPU has no AVX2, or the target no vector path (SIM_AVX2: x86-64;
 * SIM_NEON, the integer dense tiles only: AArch64), the vector checks skip and the layers compare the plain path
 * with itself on threads.
 */
#include <fenv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/firmware.h>
#include <nvdla/regs.h>
#include <nvdla/sdp_precision.h>
#include <nvdla/sim.h>

#include "../../../sim/conv_fp16.h"
#include "../../../sim/user/accel.h"
#include "../lib/tap.h"

#define MEM_BASE 0x80000000ull
#define MEM_SIZE (4u << 20)
#define IN_OFF 0x0
#define WT_OFF 0x100000
#define OUT_OFF 0x200000
#define OUT_SIZE 0x100000
#define ATOM 32

static uint8_t *mem;
static struct nvdla_sim *sim;
static const uint32_t *base;
static uint32_t seed = 12345;

static uint32_t rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8;
}

/* A random fp16 value: zeros, denormals, every exponent, a few NaN/inf. */
static uint16_t rnd_fp16(bool specials)
{
	uint32_t r = rnd(), kind = r % 64;
	uint16_t sign = (r >> 6 & 1) << 15, frac = rnd() & 0x3ff;

	if (kind == 0)
		return sign;
	if (kind == 1)
		return sign | frac;	/* denormal */
	if (specials && kind == 2)
		return sign | 0x7c00 | (frac ? frac : 1);	/* NaN */
	if (specials && kind == 3)
		return sign | 0x7c00;	/* infinity */
	return sign | (rnd() % 30 + 1) << 10 | frac;
}

#ifdef SIM_AVX2
static void test_fp16_block(void)
{
	uint16_t d[SIM_CMAC_FP16_LANES + 8], w[SIM_CMAC_FP16_LANES + 8];
	struct sim_fp_psum a, b;
	uint32_t i, n, bad = 0, blocks = 200000;

	if (!__builtin_cpu_supports("avx2")) {
		tap_skip("no AVX2", "fp16 CMAC block: AVX2 = plain C");
		return;
	}
	for (i = 0; i < blocks; i++) {
		uint32_t narrow = rnd() % 4, j;

		n = rnd() % SIM_CMAC_FP16_LANES + 1;
		memset(d, 0, sizeof(d));
		memset(w, 0, sizeof(w));
		for (j = 0; j < n; j++) {
			d[j] = rnd_fp16(false);
			w[j] = rnd_fp16(false);
			if (narrow) {	/* exponents close together: small shifts */
				d[j] = (d[j] & 0x83ff) | (12 + rnd() % 6) << 10;
				w[j] = (w[j] & 0x83ff) | (12 + rnd() % 6) << 10;
			}
		}
		sim_fp16_block_c(d, w, n, &a);
		sim_fp16_block_avx2(d, w, n, &b);
		if (a.exp != b.exp || a.mant != b.mant) {
			if (!bad++)
				printf("# block %u (n %u): exp %u/%u mant %lld/%lld\n",
				       i, n, a.exp, b.exp, (long long)a.mant,
				       (long long)b.mant);
		}
	}
	tap_ok(!bad, "fp16 CMAC block: AVX2 = plain C on %u random blocks (%u differ)",
	       blocks, bad);
}

/* A random fp16 value, no NaN, of exponent @e0 + (0 .. @span - 1). */
static uint16_t rnd_fp16_near(uint32_t e0, uint32_t span)
{
	uint16_t v = rnd_fp16(false);

	return rnd() % 16 ? (v & 0x83ff) | (e0 + rnd() % span) << 10 : v;
}

/*
 * The AVX2 groups' block (sixteen outputs, one weight at a time: exact
 * products, carries lost at alignments 8 to 16, the whole multiplier
 * beyond) against the plain C block output by output: blocks of every
 * exponent, of exponents close together (the paths mixed in one vector),
 * of one exponent (exact only), of extreme mantissas.
 */
static void test_fp16_group_block(void)
{
	uint16_t d[SIM_FP16_GROUP_X][SIM_CMAC_FP16_LANES], w[SIM_CMAC_FP16_LANES];
	const u16 *dp[SIM_FP16_GROUP_X];
	struct sim_fp_psum a, b[SIM_FP16_GROUP_X];
	uint32_t i, j, x, n, kind, e0, span, bad = 0, blocks = 40000;
	bool ok = true;

	if (!__builtin_cpu_supports("avx2")) {
		tap_skip("no AVX2", "fp16 AVX2 group block = plain C");
		return;
	}
	for (x = 0; x < SIM_FP16_GROUP_X; x++)
		dp[x] = d[x];
	for (i = 0; i < blocks && ok; i++) {
		n = rnd() % SIM_CMAC_FP16_LANES + 1;
		kind = i % 4;
		e0 = 1 + rnd() % 24;
		span = kind == 0 ? 30 - e0 : kind == 1 ? 1 + rnd() % 7 : 1;
		for (j = 0; j < n; j++) {
			w[j] = rnd_fp16_near(e0, span);
			for (x = 0; x < SIM_FP16_GROUP_X; x++)
				d[x][j] = rnd_fp16_near(e0, span);
			if (kind == 3 && rnd() % 2) {	/* largest and smallest mantissas */
				w[j] |= 0x3ff;
				d[rnd() % SIM_FP16_GROUP_X][j] &= 0xfc00;
			}
		}
		ok = sim_fp16_group_block_avx2(dp, w, n, b);
		for (x = 0; x < SIM_FP16_GROUP_X && ok; x++) {
			sim_fp16_block_c(d[x], w, n, &a);
			if ((a.exp != b[x].exp || a.mant != b[x].mant) && !bad++)
				printf("# block %u (n %u) output %u: exp %u/%u mant %lld/%lld\n",
				       i, n, x, a.exp, b[x].exp, (long long)a.mant,
				       (long long)b[x].mant);
		}
	}
	tap_ok(ok && !bad, "fp16 AVX2 group block = plain C on %u random and edge blocks of %u outputs (%u outputs differ)",
	       blocks, SIM_FP16_GROUP_X, bad);
}

/*
 * Lanes aligned by 8 bits, the most in their block: the carry lost comes
 * from a table by the mantissas' low bytes. Lane 0 (group 4 by 4) sets
 * the block exponent, lane 1 (group 3 by 3) is aligned by 8: every data
 * value of group 3, both signs, against every 7th weight of group 3.
 */
static void test_fp16_align8(void)
{
	uint16_t d[SIM_FP16_GROUP_X][2], w[2] = { 0x4000 };
	const u16 *dp[SIM_FP16_GROUP_X];
	struct sim_fp_psum a, b[SIM_FP16_GROUP_X];
	uint32_t x, h, wh, n = 0, bad = 0;
	bool ok = true;

	if (!__builtin_cpu_supports("avx2")) {
		tap_skip("no AVX2", "fp16 lanes aligned by 8: AVX2 group block = plain C");
		return;
	}
	for (x = 0; x < SIM_FP16_GROUP_X; x++) {
		dp[x] = d[x];
		d[x][0] = 0x4000;
	}
	for (wh = 12 << 10; wh < 16 << 10 && ok; wh += 7) {
		w[1] = wh | (wh & 1) << 15;
		for (h = 0; h < 8 << 10 && ok; h += SIM_FP16_GROUP_X) {
			for (x = 0; x < SIM_FP16_GROUP_X; x++)
				d[x][1] = (12 << 10 | (h + x) % (4 << 10)) |
					  (h + x) / (4 << 10) << 15;
			ok = sim_fp16_group_block_avx2(dp, w, 2, b);
			for (x = 0; x < SIM_FP16_GROUP_X && ok; x++, n++) {
				sim_fp16_block_c(d[x], w, 2, &a);
				bad += a.exp != b[x].exp || a.mant != b[x].mant;
			}
		}
	}
	tap_ok(ok && !bad, "fp16 lanes aligned by 8: AVX2 group block = plain C (%u of %u differ)",
	       bad, n);
}

/* The integer tiles on random operands, extremes among them. */
/*
 * A single lane is aligned to its own group: its product is the exact one
 * the reference takes at alignment 0, and the AVX2 lanes the carry-save
 * tree's sum. Every data mantissa (exponents 0 to 4 cover them all), both
 * signs, against every 41st weight mantissa.
 */
static void test_fp16_exact(void)
{
	struct sim_fp_psum a, b;
	uint32_t bad = 0, n = 0;
	uint16_t d[8] = { 0 }, w[8] = { 0 }, dh, wh;

	if (!__builtin_cpu_supports("avx2")) {
		tap_skip("no AVX2", "fp16 lanes at alignment 0: AVX2 = exact");
		return;
	}
	for (dh = 0; dh < 5 << 10; dh++)
		for (wh = 0; wh < 5 << 10; wh += 41, n++) {
			d[0] = dh | (n & 1) << 15;
			w[0] = wh | (n & 2) << 14;
			sim_fp16_block_c(d, w, 1, &a);
			sim_fp16_block_avx2(d, w, 1, &b);
			bad += a.exp != b.exp || a.mant != b.mant;
		}
	tap_ok(!bad, "fp16 lanes at alignment 0: AVX2 = the exact product (%u of %u differ)",
	       bad, n);
}

#endif /* SIM_AVX2 */

#if defined(SIM_AVX2) || defined(SIM_NEON)
/* The integer dense tiles of the target's vector path. */
#ifdef SIM_AVX2
#define VECTOR_PATH SIM_SIMD_AVX2
#define VECTOR_NAME "AVX2"
#else
#define VECTOR_PATH SIM_SIMD_NEON
#define VECTOR_NAME "NEON"
#endif

static void test_int_tile(bool narrow)
{
	static s16 in[4096], wt[4096];
	u64 toff[4] = { 0, 100, 700, 1500 };
	struct sim_dense dl = {
		.in = in, .wt = wt, .toff = toff, .cp = 48, .taps = 4,
		.narrow = narrow,
	};
	s64 a[SIM_DENSE_KT][SIM_DENSE_XT], b[SIM_DENSE_KT][SIM_DENSE_XT];
	const s16 *wp[SIM_DENSE_KT], *dp[SIM_DENSE_XT];
	s16 least = narrow ? -128 : -32768;
	uint32_t i, j, t, bad = 0;

	if (sim_simd() == SIM_SIMD_OFF) {
		tap_skip("no " VECTOR_NAME, "%s dense tile: " VECTOR_NAME " = plain C",
			 narrow ? "int8" : "int16");
		return;
	}
	for (t = 0; t < 2000; t++) {
		for (i = 0; i < 4096; i++) {	/* every third all the least */
			in[i] = t % 3 ? (narrow ? (int8_t)rnd() : (int16_t)rnd()) : least;
			wt[i] = t % 3 ? (narrow ? (int8_t)rnd() : (int16_t)rnd()) : least;
		}
		for (i = 0; i < SIM_DENSE_KT; i++)
			wp[i] = wt + rnd() % 1800;
		for (j = 0; j < SIM_DENSE_XT; j++)
			dp[j] = in + rnd() % 2000;
		sim_dense_tile(&dl, SIM_SIMD_OFF)(wp, dp, &dl, a);
		sim_dense_tile(&dl, VECTOR_PATH)(wp, dp, &dl, b);
		bad += memcmp(a, b, sizeof(a)) != 0;
	}
	tap_ok(!bad, "%s dense tile: " VECTOR_NAME " = plain C on 2000 random tiles (%u differ)",
	       narrow ? "int8" : "int16", bad);
}
#endif

static int bus_read(void *ctx, uint64_t a, void *d, uint32_t n)
{
	(void)ctx;
	memcpy(d, mem + (a - MEM_BASE), n);
	return 0;
}

static int bus_write(void *ctx, uint64_t a, const void *s, uint32_t n)
{
	(void)ctx;
	memcpy(mem + (a - MEM_BASE), s, n);
	return 0;
}

static void *bus_map(void *ctx, uint64_t a, uint64_t n)
{
	(void)ctx;
	if (a < MEM_BASE || a - MEM_BASE > MEM_SIZE || n > MEM_SIZE - (a - MEM_BASE))
		return NULL;
	return mem + (a - MEM_BASE);
}

static void kick(void *ctx)
{
	(void)ctx;
}

static void irq(void *ctx, bool level)
{
	(void)ctx;
	(void)level;
}

static void wr(int unit, uint32_t reg, uint32_t val)
{
	nvdla_sim_reg_write(sim, base[unit] + reg, val);
}

#define W(unit, reg, val) wr(NVDLA_UNIT_##unit, NVDLA_##unit##_##reg, val)

struct layer {
	uint32_t prec;		/* 0 int8, 1 int16, 2 fp16 */
	uint32_t w, h, c, k, r, s, stride, dil, pad, pad_value, clip;
	uint32_t ow, oh;
	/*
	 * Winograd: the CDMA pads @w x @h to @ew x @eh (left @pad, top
	 * @pad_top), @c channels extended to @ec; @pra the CSC's truncation
	 */
	bool wino;
	uint32_t ew, eh, ec, pad_top, pra;
};

static const int conv_units[] = {
	NVDLA_UNIT_SDP, NVDLA_UNIT_CACC, NVDLA_UNIT_CMAC_A,
	NVDLA_UNIT_CMAC_B, NVDLA_UNIT_CSC, NVDLA_UNIT_CDMA,
};

static const uint32_t conv_enable[] = {
	NVDLA_SDP_D_OP_ENABLE, NVDLA_CACC_D_OP_ENABLE,
	NVDLA_CMAC_A_D_OP_ENABLE, NVDLA_CMAC_B_D_OP_ENABLE,
	NVDLA_CSC_D_OP_ENABLE, NVDLA_CDMA_D_OP_ENABLE,
};

/* What Winograd mode changes in run_layer's direct program of @l. */
static void wino_registers(const struct layer *l)
{
	uint32_t bpe = l->prec ? 2 : 1, mode = 1;

	W(CDMA, D_MISC_CFG, mode | l->prec << 8 | l->prec << 12);
	W(CDMA, D_DATAIN_SIZE_0, (l->h - 1) << 16 | (l->w - 1));
	W(CDMA, D_DATAIN_SIZE_1, l->c - 1);
	W(CDMA, D_ZERO_PADDING, l->pad | (l->ew - l->w - l->pad) << 8 |
	  l->pad_top << 16 | (l->eh - l->h - l->pad_top) << 24);
	W(CDMA, D_ZERO_PADDING_VALUE, l->pad_value);
	W(CDMA, D_CONV_STRIDE, 0);
	W(CDMA, D_WEIGHT_BYTES, l->k * 16 * l->ec * bpe);
	W(CSC, D_MISC_CFG, mode | l->prec << 8 | l->prec << 12);
	W(CSC, D_DATAIN_SIZE_EXT_0, (l->eh - 1) << 16 | (l->ew - 1));
	W(CSC, D_DATAIN_SIZE_EXT_1, l->ec - 1);
	W(CSC, D_WEIGHT_SIZE_EXT_0, 3 << 16 | 3);
	W(CSC, D_WEIGHT_SIZE_EXT_1, (l->k - 1) << 16 | (l->ec - 1));
	W(CSC, D_DATAOUT_SIZE_0, (l->oh - 1) << 16 | (l->ow - 1));
	W(CSC, D_ZERO_PADDING, 0);
	W(CSC, D_PRA_CFG, l->pra);
	W(CMAC_A, D_MISC_CFG, mode | l->prec << 12);
	W(CMAC_B, D_MISC_CFG, mode | l->prec << 12);
	W(CACC, D_MISC_CFG, mode | l->prec << 12);
	W(SDP, D_FEATURE_MODE_CFG, 1 | 1 << 2);
}

/* Program @l, run it; false if the model faulted. */
static bool run_layer(const struct layer *l)
{
	uint32_t surf = l->w * l->h * ATOM, osurf = l->ow * l->oh * ATOM, i;
	uint32_t faults = nvdla_sim_fault_count(sim);

	memset(mem + OUT_OFF, 0, OUT_SIZE);
	for (i = 0; i < 6; i++)	/* producer: the group consumed next */
		wr(conv_units[i], 4,
		   nvdla_sim_reg_read(sim, base[conv_units[i]] + 4) >> 16);
	W(CDMA, D_MISC_CFG, l->prec << 8 | l->prec << 12);
	W(CDMA, D_DAIN_ADDR_LOW_0, (uint32_t)(MEM_BASE + IN_OFF));
	W(CDMA, D_LINE_STRIDE, l->w * ATOM);
	W(CDMA, D_SURF_STRIDE, surf);
	W(CDMA, D_WEIGHT_ADDR_LOW, (uint32_t)(MEM_BASE + WT_OFF));
	W(CSC, D_DATAIN_SIZE_EXT_0, (l->h - 1) << 16 | (l->w - 1));
	W(CSC, D_DATAIN_SIZE_EXT_1, l->c - 1);
	W(CSC, D_WEIGHT_SIZE_EXT_0, (l->r - 1) << 16 | (l->s - 1));
	W(CSC, D_WEIGHT_SIZE_EXT_1, (l->k - 1) << 16 | (l->c - 1));
	W(CSC, D_ZERO_PADDING, l->pad << 16 | l->pad);
	W(CSC, D_ZERO_PADDING_VALUE, l->pad_value);
	W(CSC, D_CONV_STRIDE_EXT, (l->stride - 1) << 16 | (l->stride - 1));
	W(CSC, D_DILATION_EXT, (l->dil - 1) << 16 | (l->dil - 1));
	W(SDP, D_DATA_CUBE_WIDTH, l->ow - 1);
	W(SDP, D_DATA_CUBE_HEIGHT, l->oh - 1);
	W(SDP, D_DATA_CUBE_CHANNEL, l->k - 1);
	W(SDP, D_DST_BASE_ADDR_LOW, (uint32_t)(MEM_BASE + OUT_OFF));
	W(SDP, D_DST_LINE_STRIDE, l->ow * ATOM);
	W(SDP, D_DST_SURFACE_STRIDE, osurf);
	W(SDP, D_FEATURE_MODE_CFG, 1);
	W(SDP, D_DATA_FORMAT, l->prec | l->prec << 2);
	W(SDP, D_DP_BS_CFG, 1);
	W(SDP, D_DP_BN_CFG, 1);
	W(SDP, D_DP_EW_CFG, 1);
	W(SDP, D_CVT_SCALE, 1);
	W(SDP, D_PERF_ENABLE, 0xf);
	W(CACC, D_CLIP_CFG, l->clip);
	W(CSC, D_MISC_CFG, l->prec << 8 | l->prec << 12);
	W(CMAC_A, D_MISC_CFG, l->prec << 12);
	W(CMAC_B, D_MISC_CFG, l->prec << 12);
	W(CACC, D_MISC_CFG, l->prec << 12);
	if (l->wino)
		wino_registers(l);
	for (i = 0; i < 6; i++)
		wr(conv_units[i], conv_enable[i], 1);
	while (nvdla_sim_run(sim))
		;
	return nvdla_sim_fault_count(sim) == faults;
}

/* Random bytes, or random fp16 values (@prec 2), at @p. */
static void rnd_fill(uint8_t *p, uint32_t n, uint32_t prec)
{
	uint32_t i;
	uint16_t v;

	for (i = 0; i < n; i++)
		p[i] = rnd();
	for (i = 0; prec == 2 && i + 1 < n; i += 2) {
		v = rnd_fp16(rnd() % 50 == 0);
		p[i] = v;
		p[i + 1] = v >> 8;
	}
}

static void random_layer(struct layer *l, uint32_t prec)
{
	uint32_t bpe = prec ? 2 : 1, lanes = ATOM / bpe;

	memset(l, 0, sizeof(*l));
	l->prec = prec;
	l->w = rnd() % 12 + 1;
	l->h = rnd() % 10 + 1;
	l->c = rnd() % 90 + 1;
	l->k = rnd() % 40 + 1;
	l->r = rnd() % 4 + 1;
	l->s = rnd() % 4 + 1;
	l->stride = rnd() % 3 + 1;
	l->dil = rnd() % 2 + 1;
	l->pad = rnd() % 3;
	/* truncated into the output's range, but now and then saturating */
	l->clip = prec == 2 || rnd() % 8 == 0 ? 0 :
		  prec ? 16 + rnd() % 8 : 8 + rnd() % 6;
	l->pad_value = prec == 2 ? rnd_fp16(true) : rnd() & (bpe == 1 ? 0xff : 0xffff);
	/* the kernel fits the padded input */
	while ((l->s - 1) * l->dil + 1 > l->w + 2 * l->pad)
		l->s--;
	while ((l->r - 1) * l->dil + 1 > l->h + 2 * l->pad)
		l->r--;
	l->ow = (l->w + 2 * l->pad - (l->s - 1) * l->dil - 1) / l->stride + 1;
	l->oh = (l->h + 2 * l->pad - (l->r - 1) * l->dil - 1) / l->stride + 1;
	rnd_fill(mem + IN_OFF, (l->c + lanes - 1) / lanes * l->w * l->h * ATOM,
		 prec);
	rnd_fill(mem + WT_OFF, l->k * l->r * l->s * l->c * bpe, prec);
}

/*
 * A random Winograd layer: 2x2 output tiles, a multiple of 4 of them (the
 * CDMA's rule), over an input the CDMA pads to whole 4x4 tiles; widths
 * of 2 more than a multiple of 4 among them, which split the model's
 * blocks of rows unevenly if it does not keep tiles whole.
 */
static void random_wino(struct layer *l, uint32_t prec)
{
	uint32_t bpe = prec ? 2 : 1, lanes = ATOM / bpe;

	memset(l, 0, sizeof(*l));
	l->wino = true;
	l->prec = prec;
	do {
		l->ow = 2 * (rnd() % 8 + 1);
		l->oh = 2 * (rnd() % 8 + 1);
	} while (l->ow / 2 * (l->oh / 2) % 4);
	l->ew = (l->ow + 2 + 3) / 4 * 4;
	l->eh = (l->oh + 2 + 3) / 4 * 4;
	/* up to 2 pad elements a side, and at least one input element */
	l->pad = rnd() % 3;
	l->pad_top = rnd() % 3;
	l->w = l->ew - l->pad - rnd() % (l->ew - l->pad < 3 ? l->ew - l->pad : 3);
	l->h = l->eh - l->pad_top - rnd() % (l->eh - l->pad_top < 3 ? l->eh - l->pad_top : 3);
	l->c = rnd() % 70 + 1;
	l->ec = (l->c + lanes - 1) / lanes * lanes;
	l->k = rnd() % 40 + 1;
	l->r = 4;
	l->s = 4;
	/* the CSC's stride and dilation, which Winograd ignores */
	l->stride = rnd() % 3 + 1;
	l->dil = rnd() % 2 + 1;
	l->pra = prec == 2 ? 0 : rnd() % 4;
	l->clip = prec == 2 ? 0 : rnd() % 12;
	l->pad_value = prec == 2 ? rnd_fp16(true) : rnd() & (bpe == 1 ? 0xff : 0xffff);
	rnd_fill(mem + IN_OFF, l->ec / lanes * l->w * l->h * ATOM, prec);
	rnd_fill(mem + WT_OFF, l->k * 16 * l->ec * bpe, prec);
}

/* The layer's output and CACC saturation count under one setting. */
static bool layer_output(const struct layer *l, const char *simd,
			 const char *threads, uint8_t *out, uint32_t *sat)
{
	bool ok;

	setenv("NVDLA_SIM_SIMD", simd, 1);
	setenv("NVDLA_SIM_THREADS", threads, 1);
	ok = run_layer(l);
	memcpy(out, mem + OUT_OFF, OUT_SIZE);
	*sat = nvdla_sim_reg_read(sim, base[NVDLA_UNIT_CACC] +
				  NVDLA_CACC_D_OUT_SATURATION);
	return ok;
}

static void test_layers(uint32_t prec, uint32_t count, bool wino)
{
	static const char *const name[] = { "int8", "int16", "fp16" };
	static const char *const settings[][2] = {
		{ "auto", "1" }, { "auto", "2" }, { "off", "2" },
	};
	static uint8_t ref[OUT_SIZE], got[OUT_SIZE];
	uint32_t i, v, sat_ref, sat, bad = 0, faults = 0;
	struct layer l;

	for (i = 0; i < count; i++) {
		if (wino)
			random_wino(&l, prec);
		else
			random_layer(&l, prec);
		faults += !layer_output(&l, "off", "1", ref, &sat_ref);
		for (v = 0; v < 3; v++) {
			faults += !layer_output(&l, settings[v][0], settings[v][1],
						got, &sat);
			if (memcmp(ref, got, OUT_SIZE) || sat != sat_ref) {
				if (!bad++)
					printf("# %s layer %u: %ux%ux%u k%u %ux%u stride %u dil %u pad %u differs with SIMD %s, %s threads\n",
					       name[prec], i, l.w, l.h, l.c, l.k, l.r,
					       l.s, l.stride, l.dil, l.pad,
					       settings[v][0], settings[v][1]);
			}
		}
	}
	tap_ok(!bad && !faults,
	       "%u random %s%s layers: vector path and 2 threads = plain, 1 thread (%u differ, %u faults)",
	       count, wino ? "Winograd " : "", name[prec], bad, faults);
}

/* A random value of up to @bits bits, small ones as likely as large. */
static uint32_t rnd_bits(uint32_t bits)
{
	uint32_t b = rnd() % bits + 1;

	return ((uint64_t)rnd() << 8 ^ rnd()) & (((uint64_t)1 << b) - 1);
}

/* A random fp32 bit pattern: mostly moderate, now and then anything. */
static uint32_t rnd_fp32(void)
{
	uint32_t r = rnd();

	if (r % 16 == 0)
		return rnd() << 8 ^ rnd();
	return (r & 1) << 31 | (100 + r / 2 % 54) << 23 | (rnd() & 0x7fffff);
}

/* @n random bytes at @off: int values, or fp16 ones (@fp16). */
static void fill_random(uint32_t off, uint32_t n, bool fp16)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		mem[off + i] = rnd();
	for (i = 0; fp16 && i + 1 < n; i += 2) {
		uint16_t v = rnd_fp16(rnd() % 50 == 0);

		mem[off + i] = v;
		mem[off + i + 1] = v >> 8;
	}
}

/* Random LUT tables and settings of the SDP or CDP at @lut (S_LUT_*). */
static void random_lut(int unit, uint32_t lut_cfg)
{
	uint32_t i;

	wr(unit, lut_cfg, rnd() & 0x71);	/* LE linear or exponent */
	wr(unit, lut_cfg - 8, 1 << 17);		/* S_LUT_ACCESS_CFG: LE */
	for (i = 0; i < 65; i++)
		wr(unit, lut_cfg - 4, rnd());
	wr(unit, lut_cfg - 8, 1 << 17 | 1 << 16);	/* LO */
	for (i = 0; i < 257; i++)
		wr(unit, lut_cfg - 4, rnd());
}

/* One X stage (BS: @d 0, BN: @d 0x14) or the EW stage's registers. */
static void random_sdp_stage(uint32_t d, bool fp16)
{
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_BS_CFG + d,
	   (rnd() & 0x7e) | (rnd() % 3 == 0));
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_BS_ALU_CFG + d,
	   (rnd() & 1) | (rnd() % 2 ? 0 : rnd_bits(6)) << 8);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_BS_ALU_SRC_VALUE + d,
	   fp16 ? rnd_fp16(false) : rnd_bits(16));
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_BS_MUL_CFG + d,
	   (rnd() & 1) | (rnd() % 2 ? 8 + rnd() % 10 : rnd_bits(8)) << 8);
	wr(NVDLA_UNIT_SDP, NVDLA_SDP_D_DP_BS_MUL_SRC_VALUE + d,
	   fp16 ? rnd_fp16(false) : rnd_bits(16));
}

static void random_sdp_ew(bool fp16)
{
	W(SDP, D_DP_EW_CFG, (rnd() & 0x7e) | (rnd() % 3 == 0));
	W(SDP, D_DP_EW_ALU_CFG, rnd() & 3);
	W(SDP, D_DP_EW_ALU_SRC_VALUE, fp16 ? rnd_fp32() : rnd_bits(32));
	W(SDP, D_DP_EW_ALU_CVT_OFFSET_VALUE, rnd_bits(32));
	W(SDP, D_DP_EW_ALU_CVT_SCALE_VALUE, rnd_bits(16));
	W(SDP, D_DP_EW_ALU_CVT_TRUNCATE_VALUE, rnd_bits(6));
	W(SDP, D_DP_EW_MUL_CFG, rnd() & 3);
	W(SDP, D_DP_EW_MUL_SRC_VALUE, fp16 ? rnd_fp32() : rnd_bits(32));
	W(SDP, D_DP_EW_MUL_CVT_OFFSET_VALUE, rnd_bits(32));
	W(SDP, D_DP_EW_MUL_CVT_SCALE_VALUE, rnd_bits(16));
	W(SDP, D_DP_EW_MUL_CVT_TRUNCATE_VALUE, rnd_bits(6));
	W(SDP, D_DP_EW_TRUNCATE_VALUE, rnd_bits(10));
	W(SDP, S_LUT_INFO, rnd_bits(8) | rnd_bits(8) << 8 | rnd_bits(8) << 16);
	W(SDP, S_LUT_LE_START, fp16 ? rnd_fp32() : rnd_bits(32));
	W(SDP, S_LUT_LE_END, fp16 ? rnd_fp32() : rnd_bits(32));
	W(SDP, S_LUT_LO_START, fp16 ? rnd_fp32() : rnd_bits(32));
	W(SDP, S_LUT_LO_END, fp16 ? rnd_fp32() : rnd_bits(32));
	W(SDP, S_LUT_LE_SLOPE_SCALE, rnd() << 8 ^ rnd());
	W(SDP, S_LUT_LE_SLOPE_SHIFT, rnd());
	W(SDP, S_LUT_LO_SLOPE_SCALE, rnd() << 8 ^ rnd());
	W(SDP, S_LUT_LO_SLOPE_SHIFT, rnd());
	random_lut(NVDLA_UNIT_SDP, NVDLA_SDP_S_LUT_CFG);
}

/*
 * The operand engines: per channel or per element, 1 or 2 bytes; BN and
 * EW two-byte where @wide (offline, neither input nor processing int8);
 * groups of @lanes, a 1x1 cube's packed (nvdla/sdp_layout.h).
 */
static void random_sdp_operands(uint32_t w, uint32_t h, uint32_t surfaces,
				uint32_t lanes, bool fp16, bool wide)
{
	static const uint32_t regs[3][4] = {
		{ NVDLA_SDP_RDMA_D_BRDMA_CFG, NVDLA_SDP_RDMA_D_BS_BASE_ADDR_LOW,
		  NVDLA_SDP_RDMA_D_BS_LINE_STRIDE,
		  NVDLA_SDP_RDMA_D_BS_SURFACE_STRIDE },
		{ NVDLA_SDP_RDMA_D_NRDMA_CFG, NVDLA_SDP_RDMA_D_BN_BASE_ADDR_LOW,
		  NVDLA_SDP_RDMA_D_BN_LINE_STRIDE,
		  NVDLA_SDP_RDMA_D_BN_SURFACE_STRIDE },
		{ NVDLA_SDP_RDMA_D_ERDMA_CFG, NVDLA_SDP_RDMA_D_EW_BASE_ADDR_LOW,
		  NVDLA_SDP_RDMA_D_EW_LINE_STRIDE,
		  NVDLA_SDP_RDMA_D_EW_SURFACE_STRIDE },
	};
	const uint32_t line = w * ATOM * 4, space = h * line;
	uint32_t i, off, use, two, surf;

	for (i = 0; i < 3; i++) {
		off = WT_OFF + i * surfaces * space;
		fill_random(off, surfaces * space, fp16);
		use = rnd() % 3;
		two = fp16 || rnd() % 2 || (wide && i);
		/* a 16-byte group, no stride nv_full's registers hold */
		two |= w == 1 && h == 1 && lanes < ATOM && use != 2;
		surf = w == 1 && h == 1 ?
		       lanes * (use == 2 ? 2 : 1) * (two ? 2 : 1) : space;
		wr(NVDLA_UNIT_SDP_RDMA, regs[i][0],
		   (rnd() % 4 == 0) | use << 1 | two << 3 | (rnd() % 2) << 4);
		wr(NVDLA_UNIT_SDP_RDMA, regs[i][1], (uint32_t)(MEM_BASE + off));
		wr(NVDLA_UNIT_SDP_RDMA, regs[i][2], line);
		wr(NVDLA_UNIT_SDP_RDMA, regs[i][3], surf);
	}
}

/* The SDP's and SDP_RDMA's counters and status after a layer. */
static void sdp_counters(uint32_t *n)
{
	static const uint32_t sdp[] = {
		NVDLA_SDP_D_PERF_LUT_UFLOW, NVDLA_SDP_D_PERF_LUT_OFLOW,
		NVDLA_SDP_D_PERF_LUT_HYBRID, NVDLA_SDP_D_PERF_LUT_LE_HIT,
		NVDLA_SDP_D_PERF_LUT_LO_HIT, NVDLA_SDP_D_PERF_OUT_SATURATION,
		NVDLA_SDP_D_STATUS_NAN_OUTPUT_NUM, NVDLA_SDP_D_STATUS,
	};
	uint32_t i;

	for (i = 0; i < 8; i++)
		n[i] = nvdla_sim_reg_read(sim, base[NVDLA_UNIT_SDP] + sdp[i]);
	n[8] = nvdla_sim_reg_read(sim, base[NVDLA_UNIT_SDP_RDMA] +
				  NVDLA_SDP_RDMA_D_STATUS_NAN_INPUT_NUM);
	n[9] = nvdla_sim_reg_read(sim, base[NVDLA_UNIT_SDP_RDMA] +
				  NVDLA_SDP_RDMA_D_STATUS_INF_INPUT_NUM);
}

#define COUNTERS 10

/*
 * A random offline SDP layer from int8 (@prec 0), int16 or fp16, to its
 * own precision or, a quarter of the time, to another the hardware
 * converts it to (nvdla/sdp_precision.h), programmed.
 */
static void random_sdp(uint32_t prec)
{
	static const uint32_t to[3] = { 1, 0, 1 }, int16_to[2] = { 0, 2 };
	const uint32_t w = rnd() % 12 + 1, h = rnd() % 6 + 1, c = rnd() % 70 + 1;
	const uint32_t out = rnd() % 4 ? prec :
			     prec == 1 ? int16_to[rnd() % 2] : to[prec];
	const uint32_t proc = nvdla_sdp_proc_precision(prec, out);
	const uint32_t lanes = proc ? ATOM / 2 : ATOM;
	const uint32_t surfaces = (c + lanes - 1) / lanes;

	fill_random(IN_OFF, nvdla_sdp_surfaces(c, ATOM, proc, prec ? 2 : 1) *
		    w * h * ATOM, prec == 2);
	W(SDP_RDMA, D_SRC_BASE_ADDR_LOW, (uint32_t)(MEM_BASE + IN_OFF));
	W(SDP_RDMA, D_SRC_LINE_STRIDE, w * ATOM);
	W(SDP_RDMA, D_SRC_SURFACE_STRIDE, w * h * ATOM);
	W(SDP_RDMA, D_FEATURE_MODE_CFG, prec << 2 | proc << 4 | out << 6);
	W(SDP_RDMA, D_PERF_ENABLE, 3);
	random_sdp_operands(w, h, surfaces, lanes, prec == 2, prec && proc);
	W(SDP, D_DATA_CUBE_WIDTH, w - 1);
	W(SDP, D_DATA_CUBE_HEIGHT, h - 1);
	W(SDP, D_DATA_CUBE_CHANNEL, c - 1);
	W(SDP, D_DST_BASE_ADDR_LOW, (uint32_t)(MEM_BASE + OUT_OFF));
	W(SDP, D_DST_LINE_STRIDE, w * ATOM);
	W(SDP, D_DST_SURFACE_STRIDE, w * h * ATOM);
	W(SDP, D_FEATURE_MODE_CFG, (rnd() % 2) << 5);	/* NaN to zero */
	W(SDP, D_DATA_FORMAT, proc | out << 2);
	random_sdp_stage(0, prec == 2);
	random_sdp_stage(NVDLA_SDP_D_DP_BN_CFG - NVDLA_SDP_D_DP_BS_CFG,
			 prec == 2);
	random_sdp_ew(prec == 2);
	W(SDP, D_CVT_OFFSET, rnd() % 4 ? rnd_bits(8) : rnd_bits(32));
	W(SDP, D_CVT_SCALE, rnd() % 4 ? 1 + rnd() % 4 : rnd_bits(16));
	W(SDP, D_CVT_SHIFT, rnd() % 2 ? rnd() % 4 : rnd_bits(6));
	W(SDP, D_PERF_ENABLE, 0xf);
}

/*
 * A 38-bit LUT start at @low: small, negative down to -2^30 (or just
 * above it, where differences round up to 2^30 in float), or any.
 */
static void cdp_start(uint32_t low)
{
	uint32_t kind = rnd() % 8;

	wr(NVDLA_UNIT_CDP, low, kind < 4 ? rnd_bits(8) : kind == 4 ?
	   -(1u << 30) + rnd() % 64 : kind == 5 ? -rnd_bits(30) :
	   rnd_bits(32));
	wr(NVDLA_UNIT_CDP, low + 4, kind == 4 || kind == 5 ? 0x3f :
	   kind == 6 ? rnd_bits(6) : 0);
}

/* A random integer or fp16 (@prec 2) CDP layer, programmed. */
static void random_cdp(uint32_t prec)
{
	const uint32_t w = rnd() % 12 + 1, h = rnd() % 6 + 1, c = rnd() % 90 + 1;
	const uint32_t lanes = prec ? ATOM / 2 : ATOM;
	const uint32_t surfaces = (c + lanes - 1) / lanes;
	/* a square sum's bits: indexes that mostly fall inside the tables */
	const uint32_t bits = prec == 0 ? 19 : prec == 1 ? 35 : 8;

	fill_random(IN_OFF, surfaces * w * h * ATOM, prec == 2);
	W(CDP_RDMA, D_SRC_BASE_ADDR_LOW, (uint32_t)(MEM_BASE + IN_OFF));
	W(CDP_RDMA, D_SRC_LINE_STRIDE, w * ATOM);
	W(CDP_RDMA, D_SRC_SURFACE_STRIDE, w * h * ATOM);
	W(CDP_RDMA, D_DATA_CUBE_WIDTH, w - 1);
	W(CDP_RDMA, D_DATA_CUBE_HEIGHT, h - 1);
	W(CDP_RDMA, D_DATA_CUBE_CHANNEL, c - 1);
	W(CDP_RDMA, D_DATA_FORMAT, prec);
	W(CDP, D_DATA_FORMAT, prec);
	W(CDP, D_DST_BASE_ADDR_LOW, (uint32_t)(MEM_BASE + OUT_OFF));
	W(CDP, D_DST_LINE_STRIDE, w * ATOM);
	W(CDP, D_DST_SURFACE_STRIDE, w * h * ATOM);
	W(CDP, D_LRN_CFG, rnd() % 4);
	W(CDP, D_FUNC_BYPASS, rnd() % 4 == 0 ? rnd() % 4 : 0);
	W(CDP, D_NAN_FLUSH_TO_ZERO, rnd() % 2);
	W(CDP, D_DATIN_OFFSET, rnd() % 4 ? rnd_bits(4) : rnd_bits(16));
	W(CDP, D_DATIN_SCALE, rnd() % 4 ? 1 : rnd_bits(16));
	W(CDP, D_DATIN_SHIFTER, rnd() % 4 ? 0 : rnd_bits(5));
	W(CDP, D_DATOUT_OFFSET, rnd() % 4 ? 0 : rnd_bits(32));
	W(CDP, D_DATOUT_SCALE, rnd() % 4 ? 1 : rnd_bits(16));
	W(CDP, D_DATOUT_SHIFTER, rnd() % 4 ? 12 + rnd() % 10 : rnd_bits(6));
	W(CDP, S_LUT_INFO, rnd() % 8 | (rnd() % 4 ? bits - rnd() % 8 :
					 rnd_bits(8)) << 8 |
			   (rnd() % 4 ? bits + 2 - rnd() % 8 : rnd_bits(8)) << 16);
	cdp_start(NVDLA_CDP_S_LUT_LE_START_LOW);
	W(CDP, S_LUT_LE_END_LOW, rnd_bits(32));
	cdp_start(NVDLA_CDP_S_LUT_LO_START_LOW);
	W(CDP, S_LUT_LO_END_LOW, rnd_bits(32));
	W(CDP, S_LUT_LE_SLOPE_SCALE, rnd() << 8 ^ rnd());
	W(CDP, S_LUT_LE_SLOPE_SHIFT, rnd());
	W(CDP, S_LUT_LO_SLOPE_SCALE, rnd() << 8 ^ rnd());
	W(CDP, S_LUT_LO_SLOPE_SHIFT, rnd());
	random_lut(NVDLA_UNIT_CDP, NVDLA_CDP_S_LUT_CFG);
	W(CDP, D_PERF_ENABLE, 3);
}

static void cdp_counters(uint32_t *n)
{
	static const uint32_t cdp[] = {
		NVDLA_CDP_D_PERF_LUT_UFLOW, NVDLA_CDP_D_PERF_LUT_OFLOW,
		NVDLA_CDP_D_PERF_LUT_HYBRID, NVDLA_CDP_D_PERF_LUT_LE_HIT,
		NVDLA_CDP_D_PERF_LUT_LO_HIT, NVDLA_CDP_D_OUT_SATURATION,
		NVDLA_CDP_D_NAN_INPUT_NUM, NVDLA_CDP_D_INF_INPUT_NUM,
		NVDLA_CDP_D_NAN_OUTPUT_NUM, NVDLA_CDP_S_STATUS,
	};
	uint32_t i;

	for (i = 0; i < COUNTERS; i++)
		n[i] = nvdla_sim_reg_read(sim, base[NVDLA_UNIT_CDP] + cdp[i]);
}

/*
 * Run the programmed layer of @units (the consumer group, programmed by
 * @program with the seed @s) under @simd: its output and counters.
 */
static bool elem_output(const int *units, const uint32_t *enable,
			void (*program)(uint32_t), uint32_t prec, uint32_t s,
			void (*counters)(uint32_t *), const char *simd,
			uint8_t *out, uint32_t *n)
{
	uint32_t faults = nvdla_sim_fault_count(sim), i;

	setenv("NVDLA_SIM_SIMD", simd, 1);
	setenv("NVDLA_SIM_THREADS", "1", 1);
	memset(mem + OUT_OFF, 0, OUT_SIZE);
	for (i = 0; i < 2; i++)
		wr(units[i], 4, nvdla_sim_reg_read(sim, base[units[i]] + 4) >> 16);
	seed = s;
	program(prec);
	for (i = 0; i < 2; i++)
		wr(units[i], enable[i], 1);
	while (nvdla_sim_run(sim))
		;
	memcpy(out, mem + OUT_OFF, OUT_SIZE);
	counters(n);
	return nvdla_sim_fault_count(sim) == faults;
}

/*
 * @count random SDP (@cdp false) or CDP layers of precision @prec, each
 * run with the vector path and with the plain one: the same outputs
 * and counters.
 */
static void test_elem_layers(bool cdp, uint32_t prec, uint32_t count)
{
	static const char *const name[] = { "int8", "int16", "fp16" };
	static const int sdp_units[] = { NVDLA_UNIT_SDP, NVDLA_UNIT_SDP_RDMA };
	static const uint32_t sdp_enable[] = { NVDLA_SDP_D_OP_ENABLE,
					       NVDLA_SDP_RDMA_D_OP_ENABLE };
	static const int cdp_units[] = { NVDLA_UNIT_CDP, NVDLA_UNIT_CDP_RDMA };
	static const uint32_t cdp_enable[] = { NVDLA_CDP_D_OP_ENABLE,
					       NVDLA_CDP_RDMA_D_OP_ENABLE };
	static uint8_t ref[OUT_SIZE], got[OUT_SIZE];
	uint32_t i, s, n_ref[COUNTERS], n[COUNTERS], bad = 0, faults = 0;

	for (i = 0; i < count; i++) {
		s = rnd();
		faults += !elem_output(cdp ? cdp_units : sdp_units,
				       cdp ? cdp_enable : sdp_enable,
				       cdp ? random_cdp : random_sdp, prec, s,
				       cdp ? cdp_counters : sdp_counters,
				       "off", ref, n_ref);
		faults += !elem_output(cdp ? cdp_units : sdp_units,
				       cdp ? cdp_enable : sdp_enable,
				       cdp ? random_cdp : random_sdp, prec, s,
				       cdp ? cdp_counters : sdp_counters,
				       "auto", got, n);
		if ((memcmp(ref, got, OUT_SIZE) || memcmp(n, n_ref, sizeof(n))) &&
		    !bad++)
			printf("# %s %s layer %u (seed %u) differs\n",
			       cdp ? "cdp" : "sdp", name[prec], i, s);
		seed = s ^ 0x9e3779b9u;
	}
	tap_ok(!bad && !faults,
	       "%u random %s %s layers: vector path = plain (%u differ, %u faults)",
	       count, cdp ? "CDP" : "SDP", name[prec], bad, faults);
}

#ifdef SIM_AVX2
/*
 * The fp16 SDP's vector path computes on the host's fp32 units, which an
 * application may have set to another rounding mode: then it stands
 * aside (a layer's outputs seldom show it, being narrowed to fp16).
 */
static void test_sdp_fp16_rounding(void)
{
	struct sdp_params p;
	bool nearest, toward_zero;

	memset(&p, 0, sizeof(p));
	p.x[0].bypass = p.x[1].bypass = p.y.bypass = true;
	nearest = sim_sdp_fp16_avx2_fits(&p);
	fesetround(FE_TOWARDZERO);
	toward_zero = sim_sdp_fp16_avx2_fits(&p);
	fesetround(FE_TONEAREST);
	tap_ok(nearest && !toward_zero,
	       "fp16 SDP: the host's fp32 units only while they round to nearest");
}

/* A random 16-bit register value: small, or any. */
static int32_t rnd_reg16(void)
{
	return (int16_t)(rnd() % 2 ? rnd_bits(8) - 128 : rnd_bits(16));
}

/* One random X stage: its settings and, for memory operands, @mem. */
static void random_x(struct sdp_x *s, const uint8_t *mem_op, uint32_t lanes)
{
	uint32_t use = rnd() % 3;

	memset(s, 0, sizeof(*s));
	s->bypass = rnd() % 4 == 0;
	s->alu_bypass = rnd() % 4 == 0;
	s->algo = rnd() % 4;
	s->mul_bypass = rnd() % 4 == 0;
	s->prelu = rnd() % 3 == 0;
	s->relu_bypass = rnd() % 2;
	s->alu_mem = rnd() % 3 == 0;
	s->mul_mem = rnd() % 3 == 0;
	s->alu_shift = rnd() % 4 ? rnd() % 8 : rnd() % 64;
	s->mul_shift = rnd() % 4 ? rnd() % 16 : rnd() % 64;
	s->alu_reg = rnd_reg16();
	s->mul_reg = rnd_reg16();
	s->op.enabled = s->alu_mem || s->mul_mem;
	s->op.two_byte = rnd() % 2;
	s->op.use = use;
	s->op.channels = lanes;
	s->op.base = mem_op;
	s->op.elem = (use == USE_BOTH ? 2 : 1) * (s->op.two_byte ? 2 : 1);
}

/*
 * The integer SDP's 32-bit stages (sim_sdp_narrow) against its 64-bit
 * ones on random settings and inputs: where the ranges allow the narrow
 * arithmetic it must give the same outputs and saturation count.
 */
static void test_sdp_narrow(void)
{
	static uint8_t in[64], op[2][128];
	struct sdp_params p;
	struct sdp_run r = { 0, 0, 0, 0 };
	s32 wide[SDP_RUN_MAX], narrow[SDP_RUN_MAX];
	uint32_t i, j, sat_wide, sat_narrow, bad = 0, nx = 0, nc = 0;

	if (!__builtin_cpu_supports("avx2")) {
		tap_skip("no AVX2", "SDP 32-bit stages = 64-bit");
		return;
	}
	for (i = 0; i < 200000; i++) {
		memset(&p, 0, sizeof(p));
		p.in_bpe = p.out_bpe = rnd() % 2 + 1;
		p.out_bits = p.out_bpe * 8;
		p.lanes = ATOM / p.in_bpe;
		p.atom = ATOM;
		p.c = p.lanes;
		p.in = in;
		for (j = 0; j < sizeof(in); j++)
			in[j] = rnd() % 4 ? rnd() : rnd() % 2 ? 0x7f : 0x80;
		for (j = 0; j < sizeof(op); j++)
			op[j / 128][j % 128] = rnd() % 4 ? rnd() : 0x80;
		random_x(&p.x[0], op[0], p.lanes);
		random_x(&p.x[1], op[1], p.lanes);
		p.y.bypass = rnd() % 4 != 0;
		p.y.alu_bypass = p.y.mul_bypass = p.y.lut_bypass = true;
		p.cvt_offset = rnd() % 2 ? (int32_t)rnd_bits(8) - 128 :
			       (int32_t)(rnd() << 8 ^ rnd());
		p.cvt_scale = rnd_reg16();
		p.cvt_shift = rnd() % 4 ? rnd() % 20 : rnd() % 64;
		r.n = p.lanes;
		sim_sdp_narrow(&p);
		nx += p.narrow_x[0] + p.narrow_x[1];
		nc += p.narrow_cvt;
		p.sat_count = &sat_narrow;
		sat_narrow = 0;
		sim_sdp_run_avx2(&p, &r, narrow, NULL);
		p.narrow_x[0] = p.narrow_x[1] = p.narrow_cvt = false;
		p.sat_count = &sat_wide;
		sat_wide = 0;
		sim_sdp_run_avx2(&p, &r, wide, NULL);
		if (memcmp(wide, narrow, r.n * sizeof(s32)) ||
		    sat_wide != sat_narrow) {
			if (!bad++)
				printf("# SDP setting %u: 32-bit stages differ\n", i);
		}
	}
	tap_ok(!bad && nx > 50000 && nc > 20000,
	       "SDP 32-bit stages = 64-bit on 200000 random settings (%u differ; narrow X %u, converter %u)",
	       bad, nx, nc);
}

/* Random LUT settings of a CDP layer, its square sums under 2^20. */
static void random_cdp_lut(struct cdp_lut *l)
{
	struct sim_lut_cfg *c = &l->cfg;

	memset(l, 0, sizeof(*l));
	c->le_linear = rnd() % 2;
	c->uflow_lo = rnd() % 2;
	c->oflow_lo = rnd() % 2;
	c->hybrid_lo = rnd() % 2;
	c->le_uflow_scale = rnd_reg16();
	c->le_oflow_scale = rnd_reg16();
	c->lo_uflow_scale = rnd_reg16();
	c->lo_oflow_scale = rnd_reg16();
	c->le_uflow_shift = (int32_t)(rnd() % 32) - 16;
	c->le_oflow_shift = (int32_t)(rnd() % 32) - 16;
	c->lo_uflow_shift = (int32_t)(rnd() % 32) - 16;
	c->lo_oflow_shift = (int32_t)(rnd() % 32) - 16;
	l->le_start = (int32_t)rnd_bits(10) - 512;
	l->lo_start = (int32_t)rnd_bits(10) - 512;
	l->le_end = rnd_bits(20);
	l->lo_end = rnd_bits(20);
	l->le_select = rnd() % 20;
	l->lo_select = rnd() % 20;
	l->le_offset = rnd() % 8;
}

/*
 * The int8 CDP's 32-bit converters (sim_cdp_narrow) against its 64-bit
 * ones on random settings and inputs: the same outputs and counters.
 */
static void test_cdp_narrow(void)
{
	static uint8_t in[3 * ATOM];
	static struct sim_lut table;
	struct sim_lut_count lut_wide, lut_narrow;
	s32 wide[SIM_ATOM_MAX], narrow[SIM_ATOM_MAX];
	uint32_t i, j, s, sat_wide, sat_narrow, bad = 0, nout = 0;
	struct cdp_params p;

	if (!__builtin_cpu_supports("avx2")) {
		tap_skip("no AVX2", "CDP 32-bit converters = 64-bit");
		return;
	}
	for (i = 0; i < 100000; i++) {
		memset(&p, 0, sizeof(p));
		p.atom = ATOM;
		p.bpe = 1;
		p.lanes = ATOM;
		p.surfaces = 3;
		p.c = rnd() % (3 * ATOM) + 1;
		p.w = p.h = 1;
		p.half_window = rnd() % 4 + 1;
		p.sqsum_bypass = rnd() % 4 == 0;
		p.mul_bypass = rnd() % 4 == 0;
		p.in_offset = (int8_t)rnd();
		p.in_scale = rnd() % 2 ? 1 : rnd_reg16();
		p.in_shift = rnd() % 2 ? 0 : rnd() % 32;
		p.out_offset = rnd() % 2 ? (int32_t)rnd_bits(8) - 128 :
			       sim_sext(rnd() << 8 ^ rnd(), 25);
		p.out_scale = rnd() % 2 ? 1 : rnd_reg16();
		p.out_shift = rnd() % 4 ? 8 + rnd() % 16 : rnd() % 64;
		random_cdp_lut(&p.lut);
		for (j = 0; j < 65; j++)
			table.le[j] = rnd();
		for (j = 0; j < 257; j++)
			table.lo[j] = rnd();
		p.table = &table;
		p.in = in;
		p.in_surf = ATOM;
		for (j = 0; j < sizeof(in); j++)
			in[j] = rnd() % 4 ? rnd() : rnd() % 2 ? 0x7f : 0x80;
		s = rnd() % ((p.c + ATOM - 1) / ATOM);
		sim_cdp_narrow(&p);
		nout += p.narrow_out;
		memset(&lut_narrow, 0, sizeof(lut_narrow));
		sat_narrow = 0;
		p.lut_count = &lut_narrow;
		p.sat_count = &sat_narrow;
		sim_cdp_atom_avx2(&p, s, 0, 0, narrow);
		p.narrow_in = p.narrow_out = false;
		memset(&lut_wide, 0, sizeof(lut_wide));
		sat_wide = 0;
		p.lut_count = &lut_wide;
		p.sat_count = &sat_wide;
		sim_cdp_atom_avx2(&p, s, 0, 0, wide);
		if ((memcmp(wide, narrow, sizeof(wide)) || sat_wide != sat_narrow ||
		     memcmp(&lut_wide, &lut_narrow, sizeof(lut_wide))) && !bad++)
			printf("# CDP setting %u: 32-bit converters differ\n", i);
	}
	tap_ok(!bad && nout > 30000,
	       "CDP int8 32-bit converters = 64-bit on 100000 random settings (%u differ; narrow outputs %u)",
	       bad, nout);
}
#endif /* SIM_AVX2 */

int main(void)
{
	const struct nvdla_sim_host host = {
		.bus_read = bus_read, .bus_write = bus_write,
		.bus_map = bus_map, .kick = kick, .irq = irq,
	};

	mem = calloc(1, MEM_SIZE);
	sim = calloc(1, nvdla_sim_size());
	base = dla_hw_config_get("nv_full")->unit_base;
	if (!mem || !sim || nvdla_sim_init(sim, NVDLA_SIM_NV_FULL, &host)) {
		tap_ok(false, "model starts");
		return tap_done();
	}
#ifdef SIM_AVX2
	test_fp16_block();
	test_fp16_exact();
	test_fp16_group_block();
	test_fp16_align8();
	test_sdp_narrow();
	test_cdp_narrow();
	test_sdp_fp16_rounding();
#endif
#if defined(SIM_AVX2) || defined(SIM_NEON)
	test_int_tile(true);
	test_int_tile(false);
#else
	tap_skip("built without a vector path for this architecture",
		 "vector kernels against plain C");
#endif
	test_layers(0, 150, false);
	test_layers(1, 60, false);
	test_layers(2, 60, false);
	test_layers(0, 60, true);
	test_layers(1, 60, true);
	test_layers(2, 40, true);
	test_elem_layers(false, 0, 300);
	test_elem_layers(false, 1, 300);
	test_elem_layers(false, 2, 300);
	test_elem_layers(true, 0, 3000);
	test_elem_layers(true, 1, 300);
	test_elem_layers(true, 2, 300);
	free(sim);
	free(mem);
	return tap_done();
}
