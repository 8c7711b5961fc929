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
 * on one and on two threads. Where the CPU has no AVX2, the vector checks
 * skip and the layers compare the plain path with itself on threads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/firmware.h>
#include <nvdla/regs.h>
#include <nvdla/sim.h>

#include "../../sim/conv_fp16.h"
#include "../../sim/user/accel.h"
#include "tap.h"

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

	if (!__builtin_cpu_supports("avx2")) {
		tap_skip("no AVX2", "%s dense tile: AVX2 = plain C",
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
		sim_dense_tile(&dl, SIM_SIMD_AVX2)(wp, dp, &dl, b);
		bad += memcmp(a, b, sizeof(a)) != 0;
	}
	tap_ok(!bad, "%s dense tile: AVX2 = plain C on 2000 random tiles (%u differ)",
	       narrow ? "int8" : "int16", bad);
}

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
	for (i = 0; i < 6; i++)
		wr(conv_units[i], conv_enable[i], 1);
	while (nvdla_sim_run(sim))
		;
	return nvdla_sim_fault_count(sim) == faults;
}

static void random_layer(struct layer *l, uint32_t prec)
{
	uint32_t bpe = prec ? 2 : 1, lanes = ATOM / bpe, i, n;

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
	n = (l->c + lanes - 1) / lanes * l->w * l->h * ATOM;
	for (i = 0; i < n; i++)
		mem[IN_OFF + i] = rnd();
	n = l->k * l->r * l->s * l->c * bpe;
	for (i = 0; i < n; i++)
		mem[WT_OFF + i] = rnd();
	if (prec == 2) {
		for (i = 0; i < n; i += 2) {
			uint16_t v = rnd_fp16(rnd() % 50 == 0);

			mem[WT_OFF + i] = v;
			mem[WT_OFF + i + 1] = v >> 8;
		}
		n = (l->c + lanes - 1) / lanes * l->w * l->h * ATOM;
		for (i = 0; i < n; i += 2) {
			uint16_t v = rnd_fp16(rnd() % 50 == 0);

			mem[IN_OFF + i] = v;
			mem[IN_OFF + i + 1] = v >> 8;
		}
	}
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

static void test_layers(uint32_t prec, uint32_t count)
{
	static const char *const name[] = { "int8", "int16", "fp16" };
	static const char *const settings[][2] = {
		{ "auto", "1" }, { "auto", "2" }, { "off", "2" },
	};
	static uint8_t ref[OUT_SIZE], got[OUT_SIZE];
	uint32_t i, v, sat_ref, sat, bad = 0, faults = 0;
	struct layer l;

	for (i = 0; i < count; i++) {
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
	       "%u random %s layers: vector path and 2 threads = plain, 1 thread (%u differ, %u faults)",
	       count, name[prec], bad, faults);
}

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
	test_fp16_block();
	test_fp16_exact();
	test_fp16_group_block();
	test_fp16_align8();
	test_int_tile(true);
	test_int_tile(false);
	test_layers(0, 150);
	test_layers(1, 60);
	test_layers(2, 60);
	free(sim);
	free(mem);
	return tap_done();
}
