// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_bench: throughput of the hardware model per engine, each next to a
 * plain C loop computing the same thing on the same data in the same run
 * (the ratio is what to watch; absolute figures depend on the machine).
 * Convolution in MAC/s, the other engines in elements/s. Arguments name
 * the benchmarks to run (the first word of their lines: conv, sdp, pdp,
 * cdp); none runs them all.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef SIM_AVX2
#include <immintrin.h>
#endif

#include <nvdla/firmware.h>
#include <nvdla/regs.h>
#include <nvdla/sim.h>

#define MEM_BASE 0x80000000ull
#define MEM_SIZE (64u << 20)
#define IN_OFF 0x0
#define WT_OFF 0x1000000
#define OUT_OFF 0x2000000
#define ATOM 32
#define REPEAT 5

static uint8_t *mem;
static struct nvdla_sim *sim;
static const uint32_t *base;
static volatile int64_t sink;	/* keeps reference loops from being elided */

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
	if (a < MEM_BASE || a - MEM_BASE + n > MEM_SIZE)
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

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void wr(int unit, uint32_t reg, uint32_t val)
{
	nvdla_sim_reg_write(sim, base[unit] + reg, val);
}

#define W(unit, reg, val) wr(NVDLA_UNIT_##unit, NVDLA_##unit##_##reg, val)

/* Point the units' producer at the group the datapath consumes next. */
static void select_groups(const int *units, int n)
{
	int i;

	for (i = 0; i < n; i++)
		wr(units[i], 4, nvdla_sim_reg_read(sim, base[units[i]] + 4) >> 16);
}

/* Enable the units (consumers first) and run the layer; its wall time. */
static double finish(const int *units, int n, const uint32_t *enable)
{
	double t = now();
	int i;

	for (i = 0; i < n; i++)
		wr(units[i], enable[i], 1);
	while (nvdla_sim_run(sim))
		;
	t = now() - t;
	for (i = 0; i < n; i++) {
		if (nvdla_sim_reg_read(sim, base[units[i]])) {	/* S_STATUS */
			fprintf(stderr, "nvdla_bench: a layer did not run\n");
			exit(1);
		}
	}
	return t;
}

static void fill(uint8_t *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = seed >> 16;
	}
}

/* Feature-format element (x, y, c) of a cube with packed lines/surfaces. */
static int32_t feat(const uint8_t *p, uint32_t bpe, uint32_t w, uint32_t h,
		    uint32_t x, uint32_t y, uint32_t c)
{
	uint32_t lanes = ATOM / bpe;
	const uint8_t *a = p + (uint64_t)(c / lanes) * w * h * ATOM +
			   (y * w + x) * ATOM + (c % lanes) * bpe;

	return bpe == 1 ? (int8_t)a[0] : (int16_t)(a[0] | a[1] << 8);
}

/*
 * The model's settings compared: the plain C path on one thread (what the
 * kernel module's virtual device runs: output by output), the vector path
 * on one thread, and on every online CPU.
 */
static const struct setting {
	const char *simd, *threads, *name;
} settings[] = {
	{ "off", "1", "plain 1T" },
	{ "auto", "1", "vector 1T" },
	{ "auto", "", "vector all" },
};

#define SETTINGS (sizeof(settings) / sizeof(settings[0]))

static void use_setting(const struct setting *st)
{
	setenv("NVDLA_SIM_SIMD", st->simd, 1);
	if (*st->threads)
		setenv("NVDLA_SIM_THREADS", st->threads, 1);
	else
		unsetenv("NVDLA_SIM_THREADS");
}

/*
 * One line per engine: the model under each setting, the plain C loop
 * computing the same result, and, where given, the machine's limit for
 * the same count of operations (@t_limit > 0).
 */
static void report(const char *what, const char *unit, double work,
		   const double *t_model, double t_ref, double t_limit)
{
	size_t i;

	printf("%-26s", what);
	for (i = 0; i < SETTINGS; i++)
		printf(" %s %8.1f", settings[i].name, work / t_model[i] / 1e6);
	printf(" | loop %7.1f", work / t_ref / 1e6);
	printf(" M%s/s | model/loop plain %.2f vector %.2f", unit,
	       t_ref / t_model[0], t_ref / t_model[1]);
	if (t_limit > 0)
		printf(" | limit %8.1f M%s/s (%.1f%%)", work / t_limit / 1e6,
		       unit, 100 * t_limit / t_model[1]);
	printf("\n");
}

/* A layer's shape, for the functions that program it. */
struct shape {
	uint32_t w, h, c;	/* input cube */
	uint32_t k, r, s;	/* kernels (convolution) */
	uint32_t ow, oh;	/* output (pooling) */
	uint32_t prec;		/* 0 int8, 1 int16, 2 fp16 */
};

/* The units a layer runs on, consumers first, and their enable registers. */
struct engine {
	const int *units;
	const uint32_t *enable;
	int n;
};

/*
 * The best wall time under each setting in @tm of the layer @program
 * writes to @e's registers: REPEAT runs of each, the settings in turn,
 * so that a slow spell of the host touches them all.
 */
static void time_layer(const struct engine *e,
		       void (*program)(const struct shape *sh),
		       const struct shape *sh, double tm[SETTINGS])
{
	double t;
	size_t st;
	int rep;

	for (st = 0; st < SETTINGS; st++)
		tm[st] = 1e9;
	for (rep = 0; rep < REPEAT; rep++)
		for (st = 0; st < SETTINGS; st++) {
			use_setting(&settings[st]);
			select_groups(e->units, e->n);
			program(sh);
			t = finish(e->units, e->n, e->enable);
			tm[st] = t < tm[st] ? t : tm[st];
		}
}

/* fp16 to float, for the fp16 reference loop. */
static float half(const uint8_t *p)
{
	uint16_t h = p[0] | p[1] << 8;
	int e = h >> 10 & 0x1f;
	float v = e ? ldexpf(1024 + (h & 0x3ff), e - 25) :
		  ldexpf(h & 0x3ff, -24);

	return h & 0x8000 ? -v : v;
}

/* Random fp16 values of moderate size (no infinities or NaNs). */
static void fill_fp16(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		p[i + 1] = (p[i + 1] & 0x83) | (10 + (p[i + 1] >> 2 & 7)) << 2;
}

/* The fp16 layer as float loops over the same memory. */
static double ref_conv_fp16(uint32_t w, uint32_t h, uint32_t c, uint32_t k,
			    uint32_t r, uint32_t s)
{
	const uint32_t lanes = ATOM / 2, kg = 16;
	const uint8_t *wt = mem + WT_OFF, *in = mem + IN_OFF;
	double t = now();
	float total = 0;
	uint32_t ko, y, x, rr, ss, cc;

	for (ko = 0; ko < k; ko++)
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++) {
				float acc = 0;

				for (rr = 0; rr < r; rr++)
					for (ss = 0; ss < s; ss++) {
						int32_t iy = y + rr - 1, ix = x + ss - 1;

						if (iy < 0 || ix < 0 || iy >= (int32_t)h ||
						    ix >= (int32_t)w)
							continue;
						for (cc = 0; cc < c; cc++)
							acc += half(in + (uint64_t)(cc / lanes) * w * h * ATOM +
								    (iy * w + ix) * ATOM + (cc % lanes) * 2) *
							       half(wt + ((uint64_t)(ko / kg) * kg * r * s * c +
									  ((rr * s + ss) * kg + ko % kg) * c + cc) * 2);
					}
				total += acc;
			}
	sink = (int64_t)total;
	return now() - t;
}

#ifdef SIM_AVX2
#define LIMIT_CHAINS 8	/* independent accumulators: throughput, not latency */
/* unrolled, so that the accumulators live in registers, not on the stack */
#define LIMIT_UNROLL _Pragma("GCC unroll 8")

/*
 * Seconds one core takes for @macs int16 multiply-adds at its peak:
 * vpmaddwd (16 a vector) into independent sums. The CPU has no AVX-512
 * VNNI (vpdpbusd) to measure int8 against, so int8 uses it too.
 */
__attribute__((target("avx2"))) static double limit_madd(double macs)
{
	__m256i acc[LIMIT_CHAINS], a[LIMIT_CHAINS], b = _mm256_set1_epi16(5);
	uint64_t n = (uint64_t)(macs / 16 / LIMIT_CHAINS) + 1, i;
	double t;
	int j;

	if (!__builtin_cpu_supports("avx2"))
		return 0;
	for (j = 0; j < LIMIT_CHAINS; j++) {
		acc[j] = _mm256_setzero_si256();
		a[j] = _mm256_set1_epi16(j + 1);	/* no common products */
	}
	t = now();
	for (i = 0; i < n; i++) {
		LIMIT_UNROLL
		for (j = 0; j < LIMIT_CHAINS; j++)
			acc[j] = _mm256_add_epi32(acc[j], _mm256_madd_epi16(a[j], b));
		__asm__ volatile("" : "+x"(b));	/* no hoisting */
	}
	t = now() - t;
	for (j = 1; j < LIMIT_CHAINS; j++)
		acc[0] = _mm256_add_epi32(acc[0], acc[j]);
	sink = _mm256_extract_epi32(acc[0], 0);
	return t;
}

/* The same for fp32 fused multiply-adds, 8 a vector. */
__attribute__((target("avx2,fma"))) static double limit_fma(double macs)
{
	__m256 acc[LIMIT_CHAINS], a = _mm256_set1_ps(1.0001f), b = _mm256_set1_ps(0.9999f);
	uint64_t n = (uint64_t)(macs / 8 / LIMIT_CHAINS) + 1, i;
	double t;
	int j;

	if (!__builtin_cpu_supports("fma"))
		return 0;
	for (j = 0; j < LIMIT_CHAINS; j++)
		acc[j] = _mm256_setzero_ps();
	t = now();
	for (i = 0; i < n; i++) {
		LIMIT_UNROLL
		for (j = 0; j < LIMIT_CHAINS; j++)
			acc[j] = _mm256_fmadd_ps(a, b, acc[j]);
		__asm__ volatile("" : "+x"(a));
	}
	t = now() - t;
	for (j = 1; j < LIMIT_CHAINS; j++)
		acc[0] = _mm256_add_ps(acc[0], acc[j]);
	sink = (int64_t)_mm256_cvtss_f32(acc[0]);
	return t;
}

static const char *vector_name(void)
{
	return __builtin_cpu_supports("avx2") ? "AVX2" : "none (no AVX2)";
}
#else
/* Targets without the model's AVX2 paths: no peak measured (0 is not shown). */
static double limit_madd(double macs)
{
	(void)macs;
	return 0;
}

static double limit_fma(double macs)
{
	(void)macs;
	return 0;
}

static const char *vector_name(void)
{
	return "none (plain C on this architecture)";
}
#endif

/* The convolution pipeline's units, consumers first. */
static const int conv_units[] = {
	NVDLA_UNIT_SDP, NVDLA_UNIT_CACC, NVDLA_UNIT_CMAC_A,
	NVDLA_UNIT_CMAC_B, NVDLA_UNIT_CSC, NVDLA_UNIT_CDMA,
};
static const uint32_t conv_enable[] = {
	NVDLA_SDP_D_OP_ENABLE, NVDLA_CACC_D_OP_ENABLE,
	NVDLA_CMAC_A_D_OP_ENABLE, NVDLA_CMAC_B_D_OP_ENABLE,
	NVDLA_CSC_D_OP_ENABLE, NVDLA_CDMA_D_OP_ENABLE,
};
static const struct engine conv_engine = { conv_units, conv_enable, 6 };

static void conv_program(const struct shape *sh)
{
	const uint32_t w = sh->w, h = sh->h, surf = w * h * ATOM;

	W(CDMA, D_MISC_CFG, sh->prec << 8 | sh->prec << 12);
	W(CDMA, D_DAIN_ADDR_LOW_0, (uint32_t)(MEM_BASE + IN_OFF));
	W(CDMA, D_LINE_STRIDE, w * ATOM);
	W(CDMA, D_SURF_STRIDE, surf);
	W(CDMA, D_WEIGHT_ADDR_LOW, (uint32_t)(MEM_BASE + WT_OFF));
	W(CSC, D_DATAIN_SIZE_EXT_0, (h - 1) << 16 | (w - 1));
	W(CSC, D_DATAIN_SIZE_EXT_1, sh->c - 1);
	W(CSC, D_WEIGHT_SIZE_EXT_0, (sh->r - 1) << 16 | (sh->s - 1));
	W(CSC, D_WEIGHT_SIZE_EXT_1, (sh->k - 1) << 16 | (sh->c - 1));
	W(CSC, D_ZERO_PADDING, 1 << 16 | 1);
	W(SDP, D_DATA_CUBE_WIDTH, w - 1);
	W(SDP, D_DATA_CUBE_HEIGHT, h - 1);
	W(SDP, D_DATA_CUBE_CHANNEL, sh->k - 1);
	W(SDP, D_DST_BASE_ADDR_LOW, (uint32_t)(MEM_BASE + OUT_OFF));
	W(SDP, D_DST_LINE_STRIDE, w * ATOM);
	W(SDP, D_DST_SURFACE_STRIDE, surf);
	W(SDP, D_FEATURE_MODE_CFG, 1);
	W(SDP, D_DATA_FORMAT, sh->prec | sh->prec << 2);
	W(SDP, D_DP_BS_CFG, 1);
	W(SDP, D_DP_BN_CFG, 1);
	W(SDP, D_DP_EW_CFG, 1);
	W(SDP, D_CVT_SCALE, 1);
	W(CACC, D_CLIP_CFG, 8);
}

/* @prec: 0 int8, 1 int16, 2 fp16. */
static void bench_conv(uint32_t prec)
{
	static const char *const name[] = {
		"conv 3x3 int8 (nv_full)", "conv 3x3 int16 (nv_full)",
		"conv 3x3 fp16 (nv_full)",
	};
	uint32_t bpe = prec ? 2 : 1;
	/*
	 * Integer layers deep enough that the SDP's per-element work (the
	 * same for every setting) does not hide the convolution's rate;
	 * fp16 smaller, for the plain path's sake.
	 */
	const uint32_t w = prec == 2 ? 28 : 14, h = w, c = prec == 2 ? 64 : 512;
	const uint32_t k = 64, r = 3, s = 3;
	const struct shape sh = { w, h, c, k, r, s, w, h, prec };
	uint32_t surf = w * h * ATOM, kg = 32 / bpe;
	const uint8_t *wt = mem + WT_OFF;
	double tm[SETTINGS], tr = 1e9, t, macs = (double)w * h * c * k * r * s;
	int rep;

	fill(mem + IN_OFF, (size_t)surf * c * bpe / ATOM, 1);
	fill(mem + WT_OFF, (size_t)k * c * r * s * bpe, 2);
	if (prec == 2) {
		fill_fp16(mem + IN_OFF, (size_t)surf * c * bpe / ATOM);
		fill_fp16(mem + WT_OFF, (size_t)k * c * r * s * bpe);
	}
	time_layer(&conv_engine, conv_program, &sh, tm);
	for (rep = 0; rep < REPEAT && prec == 2; rep++) {
		t = ref_conv_fp16(w, h, c, k, r, s);
		tr = t < tr ? t : tr;
	}
	for (rep = 0; rep < REPEAT && prec < 2; rep++) {
		int64_t total = 0;
		uint32_t ko, y, x, rr, ss, cc;

		t = now();
		/* The same layer as nested loops over the same memory. */
		for (ko = 0; ko < k; ko++)
			for (y = 0; y < h; y++)
				for (x = 0; x < w; x++) {
					int64_t acc = 0;

					for (rr = 0; rr < r; rr++)
						for (ss = 0; ss < s; ss++) {
							int32_t iy = y + rr - 1, ix = x + ss - 1;

							if (iy < 0 || ix < 0 || iy >= (int32_t)h ||
							    ix >= (int32_t)w)
								continue;
							for (cc = 0; cc < c; cc++) {
								const uint8_t *wp = wt +
									((uint64_t)(ko / kg) * kg * r * s * c +
									 ((rr * s + ss) * kg + ko % kg) * c +
									 cc) * bpe;
								acc += feat(mem + IN_OFF, bpe, w, h,
									    ix, iy, cc) *
								       (bpe == 1 ? (int8_t)wp[0] :
									(int16_t)(wp[0] | wp[1] << 8));
							}
						}
					total += acc >> 8;
				}
		t = now() - t;
		sink = total;
		tr = t < tr ? t : tr;
	}
	for (t = 1e9, rep = 0; rep < REPEAT; rep++) {
		double tl = prec == 2 ? limit_fma(macs) : limit_madd(macs);

		t = tl < t ? tl : t;
	}
	report(name[prec], "MAC", macs, tm, tr, t);
}

/*
 * Winograd, int8: the input padded by 1 above and left, 3 below and right
 * (whole 4x4 tiles, as the CDMA requires), 2x2 outputs a tile.
 */
#define WINO_PAD_END 3
#define WINO_POS 16

static void wino_program(const struct shape *sh)
{
	const uint32_t ext = sh->w + 1 + WINO_PAD_END, cube = WINO_POS * sh->c;

	conv_program(sh);
	W(CDMA, D_MISC_CFG, 1 | sh->prec << 8 | sh->prec << 12);
	W(CDMA, D_DATAIN_SIZE_0, (sh->h - 1) << 16 | (sh->w - 1));
	W(CDMA, D_DATAIN_SIZE_1, sh->c - 1);
	W(CDMA, D_ZERO_PADDING, 1 | WINO_PAD_END << 8 | 1 << 16 | WINO_PAD_END << 24);
	W(CSC, D_DATAIN_SIZE_EXT_0, (ext - 1) << 16 | (ext - 1));
	W(CSC, D_WEIGHT_SIZE_EXT_0, 3 << 16 | 3);
	W(CSC, D_DATAOUT_SIZE_0, (sh->h - 1) << 16 | (sh->w - 1));
	W(CSC, D_ZERO_PADDING, 0);
	W(CSC, D_MISC_CFG, 1 | sh->prec << 8 | sh->prec << 12);
	W(CMAC_A, D_MISC_CFG, 1 | sh->prec << 12);
	W(CMAC_B, D_MISC_CFG, 1 | sh->prec << 12);
	W(CACC, D_MISC_CFG, 1 | sh->prec << 12);
	W(CDMA, D_WEIGHT_BYTES, sh->k * cube * (sh->prec ? 2 : 1));
	W(SDP, D_FEATURE_MODE_CFG, 1 | 1 << 2);
}

/* B^T row @i of a 4-element column or row @v (stride @st). */
static float wino_bt(const float *v, uint32_t i, uint32_t st)
{
	switch (i) {
	case 0:
		return v[0] - v[2 * st];
	case 1:
		return v[st] + v[2 * st];
	case 2:
		return v[2 * st] - v[st];
	default:
		return v[st] - v[3 * st];
	}
}

/* A^T: weight of tile row @r in output row @i. */
static float wino_at(uint32_t i, uint32_t r)
{
	return i ? (r == 0 ? 0 : r == 1 ? 1 : -1) : r == 3 ? 0 : 1;
}

/* Input element (@x, @y, @c) of the Winograd layer @sh: 0 in the padding. */
static float wino_in(const struct shape *sh, uint32_t bpe, int32_t x, int32_t y,
		     uint32_t c)
{
	uint32_t lanes = ATOM / bpe;

	if (x < 0 || y < 0 || x >= (int32_t)sh->w || y >= (int32_t)sh->h)
		return 0;
	if (bpe == 1)
		return feat(mem + IN_OFF, 1, sh->w, sh->h, x, y, c);
	return half(mem + IN_OFF + (uint64_t)(c / lanes) * sh->w * sh->h * ATOM +
		    (y * sh->w + x) * ATOM + c % lanes * 2);
}

/*
 * The layer as a plain float loop: each tile's transform once, 16 MACs a
 * channel (in int8 every value and sum here is exact in float).
 */
static double wino_loop(const struct shape *sh, float *v)
{
	const uint32_t bpe = sh->prec ? 2 : 1, kg = ATOM / bpe, c = sh->c;
	const uint32_t tiles = sh->w / 2, cube = WINO_POS * 4;
	const uint8_t *wt = mem + WT_OFF;
	double t = now(), total = 0;
	float d[WINO_POS], m[WINO_POS], o;
	uint32_t tx, ty, cc, p, ko, i, j;
	uint64_t at;

	for (ty = 0; ty < tiles; ty++)
		for (tx = 0; tx < tiles; tx++) {
			for (cc = 0; cc < c; cc++) {
				float *tv = v + cc * WINO_POS;

				for (p = 0; p < WINO_POS; p++)
					d[p] = wino_in(sh, bpe, 2 * tx + p % 4 - 1,
						       2 * ty + p / 4 - 1, cc);
				for (p = 0; p < WINO_POS; p++)	/* B^T d, then (.) B */
					m[p] = wino_bt(d + p % 4, p / 4, 4);
				for (p = 0; p < WINO_POS; p++) {
					tv[p] = wino_bt(m + p / 4 * 4, p % 4, 1);
					if (bpe == 1)
						tv[p] = fminf(fmaxf(tv[p], -128), 127);
				}
			}
			for (ko = 0; ko < sh->k; ko++) {
				for (p = 0; p < WINO_POS; p++)
					m[p] = 0;
				for (cc = 0; cc < c; cc++)
					for (p = 0; p < WINO_POS; p++) {
						at = (uint64_t)ko / kg * kg * WINO_POS * c +
						     cc / 4 * kg * cube + ko % kg * cube +
						     p * 4 + cc % 4;
						m[p] += v[cc * WINO_POS + p] *
							(bpe == 1 ? (int8_t)wt[at] :
							 half(wt + 2 * at));
					}
				for (i = 0; i < 2; i++)
					for (j = 0; j < 2; j++) {
						for (o = 0, p = 0; p < WINO_POS; p++)
							o += wino_at(i, p / 4) *
							     wino_at(j, p % 4) * m[p];
						total += o;
					}
			}
		}
	sink = (int64_t)total;
	return now() - t;
}

/*
 * @prec: 0 int8, 2 fp16. MACs in units of the direct convolution's (9 an
 * output and channel); the limit for the multiplies Winograd itself does
 * (16 a tile of 4 outputs).
 */
static void bench_wino(uint32_t prec)
{
	/* fp16 smaller, for the plain path's sake */
	const uint32_t w = prec ? 12 : 28, h = w, c = 64, k = 64, bpe = prec ? 2 : 1;
	const struct shape sh = { w, h, c, k, 3, 3, w, h, prec };
	double tm[SETTINGS], tr = 1e9, tl = 1e9, t;
	double macs = (double)w * h * c * k * 9;
	float *v = malloc(sizeof(*v) * WINO_POS * c);
	size_t in = (size_t)w * h * c * bpe, wts = (size_t)k * c * WINO_POS * bpe;
	int rep;

	if (!v)
		return;
	fill(mem + IN_OFF, in, 4);
	fill(mem + WT_OFF, wts, 5);
	if (prec) {
		fill_fp16(mem + IN_OFF, in);
		fill_fp16(mem + WT_OFF, wts);
	}
	time_layer(&conv_engine, wino_program, &sh, tm);
	for (rep = 0; rep < REPEAT; rep++) {
		t = wino_loop(&sh, v);
		tr = t < tr ? t : tr;
		t = prec ? limit_fma(macs * WINO_POS / (4 * 9)) :
		    limit_madd(macs * WINO_POS / (4 * 9));
		tl = t < tl ? t : tl;
	}
	free(v);
	report(prec ? "conv 3x3 winograd fp16" : "conv 3x3 winograd int8",
	       "MAC", macs, tm, tr, tl);
}

static void pdp_program(const struct shape *sh)
{
	W(PDP_RDMA, D_SRC_BASE_ADDR_LOW, (uint32_t)(MEM_BASE + IN_OFF));
	W(PDP_RDMA, D_SRC_LINE_STRIDE, sh->w * ATOM);
	W(PDP_RDMA, D_SRC_SURFACE_STRIDE, sh->w * sh->h * ATOM);
	W(PDP, D_DATA_CUBE_IN_WIDTH, sh->w - 1);
	W(PDP, D_DATA_CUBE_IN_HEIGHT, sh->h - 1);
	W(PDP, D_DATA_CUBE_IN_CHANNEL, sh->c - 1);
	W(PDP, D_DATA_CUBE_OUT_WIDTH, sh->ow - 1);
	W(PDP, D_DATA_CUBE_OUT_HEIGHT, sh->oh - 1);
	W(PDP, D_OPERATION_MODE_CFG, 0x11);	/* max, offline */
	W(PDP, D_POOLING_KERNEL_CFG, 2 << 8 | 2);
	W(PDP, D_DST_BASE_ADDR_LOW, (uint32_t)(MEM_BASE + OUT_OFF));
	W(PDP, D_DST_LINE_STRIDE, sh->ow * ATOM);
	W(PDP, D_DST_SURFACE_STRIDE, sh->ow * sh->oh * ATOM);
}

static void bench_pdp(void)
{
	const uint32_t w = 64, h = 64, c = 64, ow = 62, oh = 62;
	static const int units[] = { NVDLA_UNIT_PDP, NVDLA_UNIT_PDP_RDMA };
	static const uint32_t enable[] = { NVDLA_PDP_D_OP_ENABLE,
					   NVDLA_PDP_RDMA_D_OP_ENABLE };
	static const struct engine pdp = { units, enable, 2 };
	const struct shape sh = { w, h, c, 0, 0, 0, ow, oh, 0 };
	double tm[SETTINGS], tr = 1e9, t;
	int rep;

	fill(mem + IN_OFF, (size_t)w * h * c, 3);
	time_layer(&pdp, pdp_program, &sh, tm);
	for (rep = 0; rep < REPEAT; rep++) {
		int64_t total = 0;
		uint32_t cc, y, x, i, j;

		t = now();
		for (cc = 0; cc < c; cc++)
			for (y = 0; y < oh; y++)
				for (x = 0; x < ow; x++) {
					int32_t m = -128;

					for (j = 0; j < 3; j++)
						for (i = 0; i < 3; i++) {
							int32_t v = feat(mem + IN_OFF, 1, w, h,
									 x + i, y + j, cc);
							m = v > m ? v : m;
						}
					total += m;
				}
		t = now() - t;
		sink = total;
		tr = t < tr ? t : tr;
	}
	report("pdp 3x3 max int8", "elem", (double)ow * oh * c, tm, tr, 0);
}

/*
 * The sum of the @n outputs at OUT_OFF of a cube whose channels fill its
 * atoms: int8 values (@bpe 1) or fp16 bit patterns (@bpe 2).
 */
static int64_t cube_total(size_t n, uint32_t bpe)
{
	int64_t total = 0;
	size_t i;

	for (i = 0; i < n; i++)
		total += bpe == 1 ? (int8_t)mem[OUT_OFF + i] :
			 mem[OUT_OFF + 2 * i] | mem[OUT_OFF + 2 * i + 1] << 8;
	return total;
}

/* A benchmark whose loop computes what the model did says if they differ. */
static void same_result(const char *what, int64_t model, int64_t loop)
{
	if (model != loop)
		printf("%s: the model's outputs (sum %lld) differ from the "
		       "loop's (%lld): the figures compare different work\n",
		       what, (long long)model, (long long)loop);
}

/*
 * float to fp16, rounding to nearest even; results below fp16's normal
 * range go to 0 (the bench's values stay far from them).
 */
static uint16_t to_half(float f)
{
	uint32_t x, m, h;
	int e;

	memcpy(&x, &f, sizeof(x));
	e = (int)(x >> 23 & 0xff) - 127 + 15;
	m = x & 0x7fffff;
	if (e <= 0)
		return x >> 16 & 0x8000;
	if (e >= 31)
		return (x >> 16 & 0x8000) | 0x7c00;
	h = (x >> 16 & 0x8000) | (uint32_t)e << 10 | m >> 13;
	if ((m & 0x1fff) > 0x1000 || ((m & 0x1fff) == 0x1000 && (h & 1)))
		h++;
	return h;
}

#define SDP_FP16_ADD 0x3800	/* 0.5 */
#define SDP_FP16_MUL 0x3e00	/* 1.5 */

/* The fp16 layer as a float loop: the sum of its fp16 outputs' bits. */
static int64_t sdp_loop_fp16(uint32_t n)
{
	const uint8_t add[2] = { SDP_FP16_ADD & 0xff, SDP_FP16_ADD >> 8 };
	const uint8_t mul[2] = { SDP_FP16_MUL & 0xff, SDP_FP16_MUL >> 8 };
	float a = half(add), m = half(mul), v;
	int64_t total = 0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		v = (half(mem + IN_OFF + 2 * i) + a) * m;
		total += to_half(v < 0 ? 0 : v);
	}
	return total;
}

/* The int8 layer as an integer loop: the sum of its outputs. */
static int64_t sdp_loop_int8(uint32_t n)
{
	int64_t total = 0, v;
	uint32_t i;

	for (i = 0; i < n; i++) {
		v = (((int8_t)mem[IN_OFF + i] + 3) * 5 + 2) >> 2;
		total += v < 0 ? 0 : v > 127 ? 127 : v;
	}
	return total;
}

/* BS: add, multiply (int8: shift 2), ReLU; BN and EW bypassed. */
static void sdp_program(const struct shape *sh)
{
	const bool fp16 = sh->prec == 2;

	W(SDP_RDMA, D_SRC_BASE_ADDR_LOW, (uint32_t)(MEM_BASE + IN_OFF));
	W(SDP_RDMA, D_SRC_LINE_STRIDE, sh->w * ATOM);
	W(SDP_RDMA, D_SRC_SURFACE_STRIDE, sh->w * sh->h * ATOM);
	W(SDP_RDMA, D_BRDMA_CFG, 1);
	W(SDP_RDMA, D_NRDMA_CFG, 1);
	W(SDP_RDMA, D_ERDMA_CFG, 1);
	W(SDP_RDMA, D_FEATURE_MODE_CFG, sh->prec << 2);
	W(SDP, D_DATA_CUBE_WIDTH, sh->w - 1);
	W(SDP, D_DATA_CUBE_HEIGHT, sh->h - 1);
	W(SDP, D_DATA_CUBE_CHANNEL, sh->c - 1);
	W(SDP, D_DST_BASE_ADDR_LOW, (uint32_t)(MEM_BASE + OUT_OFF));
	W(SDP, D_DST_LINE_STRIDE, sh->w * ATOM);
	W(SDP, D_DST_SURFACE_STRIDE, sh->w * sh->h * ATOM);
	W(SDP, D_FEATURE_MODE_CFG, 0);
	W(SDP, D_DATA_FORMAT, sh->prec | sh->prec << 2);
	W(SDP, D_DP_BS_CFG, 2 << 2);
	W(SDP, D_DP_BS_ALU_SRC_VALUE, fp16 ? SDP_FP16_ADD : 3);
	W(SDP, D_DP_BS_MUL_SRC_VALUE, fp16 ? SDP_FP16_MUL : 5);
	W(SDP, D_DP_BS_MUL_CFG, fp16 ? 0 : 2 << 8);
	W(SDP, D_DP_BN_CFG, 1);
	W(SDP, D_DP_EW_CFG, 1);
	W(SDP, D_CVT_SCALE, 1);
}

/* @fp16: 0/1. */
static void bench_sdp(uint32_t fp16)
{
	const uint32_t w = 64, h = 64, c = 64, prec = fp16 ? 2 : 0;
	const uint32_t bpe = fp16 ? 2 : 1;
	static const int units[] = { NVDLA_UNIT_SDP, NVDLA_UNIT_SDP_RDMA };
	static const uint32_t enable[] = { NVDLA_SDP_D_OP_ENABLE,
					   NVDLA_SDP_RDMA_D_OP_ENABLE };
	static const struct engine sdp = { units, enable, 2 };
	const struct shape sh = { w, h, c, 0, 0, 0, w, h, prec };
	double tm[SETTINGS], tr = 1e9, t;
	int64_t loop = 0;
	int rep;

	fill(mem + IN_OFF, (size_t)w * h * c * bpe, 4);
	if (fp16)
		fill_fp16(mem + IN_OFF, (size_t)w * h * c * bpe);
	time_layer(&sdp, sdp_program, &sh, tm);
	for (rep = 0; rep < REPEAT; rep++) {
		t = now();
		loop = fp16 ? sdp_loop_fp16(w * h * c) : sdp_loop_int8(w * h * c);
		t = now() - t;
		sink = loop;
		tr = t < tr ? t : tr;
	}
	same_result("sdp", cube_total((size_t)w * h * c, bpe), loop);
	report(fp16 ? "sdp bias+scale+relu fp16" : "sdp bias+scale+relu int8",
	       "elem", (double)w * h * c, tm, tr, 0);
}

/* x / 2^s rounded half away from zero, for the reference loops. */
static int64_t rha(int64_t x, unsigned int s)
{
	return (x + ((int64_t)1 << (s - 1)) - (x < 0)) >> s;
}

#define CDP_HALF 2		/* LRN over 5 channels */
#define CDP_LE_SELECT 11	/* 5 x 128^2 >> 11 = 40 < 64 entries */
#define CDP_OUT_SHIFT 8

/* The LUT's LE table: a decreasing ramp, every lookup of the bench a hit. */
static int16_t cdp_entry(unsigned int i)
{
	return 20000 - 300 * i;
}

static void cdp_program(const struct shape *sh)
{
	const uint32_t w = sh->w, h = sh->h, c = sh->c;
	unsigned int i;

	W(CDP_RDMA, D_SRC_BASE_ADDR_LOW, (uint32_t)(MEM_BASE + IN_OFF));
	W(CDP_RDMA, D_SRC_LINE_STRIDE, w * ATOM);
	W(CDP_RDMA, D_SRC_SURFACE_STRIDE, w * h * ATOM);
	W(CDP_RDMA, D_DATA_CUBE_WIDTH, w - 1);
	W(CDP_RDMA, D_DATA_CUBE_HEIGHT, h - 1);
	W(CDP_RDMA, D_DATA_CUBE_CHANNEL, c - 1);
	W(CDP, D_DST_BASE_ADDR_LOW, (uint32_t)(MEM_BASE + OUT_OFF));
	W(CDP, D_DST_LINE_STRIDE, w * ATOM);
	W(CDP, D_DST_SURFACE_STRIDE, w * h * ATOM);
	W(CDP, D_LRN_CFG, CDP_HALF - 1);
	W(CDP, D_DATIN_SCALE, 1);
	W(CDP, D_DATOUT_SCALE, 1);
	W(CDP, D_DATOUT_SHIFTER, CDP_OUT_SHIFT);
	/* LE linear from 0, LO unused: LE answers every hit and underflow. */
	W(CDP, S_LUT_CFG, 1);
	W(CDP, S_LUT_INFO, CDP_LE_SELECT << 8);
	W(CDP, S_LUT_ACCESS_CFG, 1 << 17);
	for (i = 0; i < 65; i++)
		W(CDP, S_LUT_ACCESS_DATA, (uint16_t)cdp_entry(i));
}

/* The bench's LRN as a plain loop: the sum of the outputs. */
static int64_t cdp_loop(uint32_t w, uint32_t h, uint32_t c)
{
	int64_t total = 0, sum, lut, out;
	uint32_t cc, y, x, idx, frac;
	int32_t j, v;

	for (cc = 0; cc < c; cc++)
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++) {
				for (sum = 0, j = -CDP_HALF; j <= CDP_HALF; j++) {
					if ((int32_t)cc + j < 0 || cc + j >= c)
						continue;
					v = feat(mem + IN_OFF, 1, w, h, x, y, cc + j);
					sum += v * v;
				}
				idx = sum >> CDP_LE_SELECT;
				frac = (sum & ((1 << CDP_LE_SELECT) - 1)) <<
				       (16 - CDP_LE_SELECT);
				lut = cdp_entry(idx) +
				      rha((int64_t)(cdp_entry(idx + 1) - cdp_entry(idx)) *
					  frac, 16);
				out = rha(lut * feat(mem + IN_OFF, 1, w, h, x, y, cc),
					  CDP_OUT_SHIFT);
				total += out > 127 ? 127 : out < -128 ? -128 : out;
			}
	return total;
}

static void bench_cdp(void)
{
	const uint32_t w = 32, h = 32, c = 64;
	static const int units[] = { NVDLA_UNIT_CDP, NVDLA_UNIT_CDP_RDMA };
	static const uint32_t enable[] = { NVDLA_CDP_D_OP_ENABLE,
					   NVDLA_CDP_RDMA_D_OP_ENABLE };
	static const struct engine cdp = { units, enable, 2 };
	const struct shape sh = { w, h, c, 0, 0, 0, w, h, 0 };
	double tm[SETTINGS], tr = 1e9, t;
	int64_t model, loop = 0;
	int rep;

	fill(mem + IN_OFF, (size_t)w * h * c, 5);
	time_layer(&cdp, cdp_program, &sh, tm);
	model = cube_total((size_t)w * h * c, 1);	/* every run's output */
	for (rep = 0; rep < REPEAT; rep++) {
		t = now();
		loop = cdp_loop(w, h, c);
		t = now() - t;
		sink = loop;
		tr = t < tr ? t : tr;
	}
	same_result("cdp", model, loop);
	report("cdp lrn5 int8", "elem", (double)w * h * c, tm, tr, 0);
}

/* Whether the benchmark @name runs: named by an argument, or none given. */
static bool wanted(int argc, char **argv, const char *name)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return true;
	return argc < 2;
}

int main(int argc, char **argv)
{
	const struct nvdla_sim_host host = {
		.bus_read = bus_read, .bus_write = bus_write,
		.bus_map = bus_map, .kick = kick, .irq = irq,
	};
	uint32_t faults;

	mem = calloc(1, MEM_SIZE);
	sim = calloc(1, nvdla_sim_size());
	base = dla_hw_config_get("nv_full")->unit_base;
	if (!mem || !sim || nvdla_sim_init(sim, NVDLA_SIM_NV_FULL, &host)) {
		fprintf(stderr, "nvdla_bench: cannot start the model\n");
		return 1;
	}
	printf("best of %d runs, the settings in turn; "
	       "plain: the C path the kernel module runs; "
	       "vector: %s; all: %ld threads; limit: %s\n", REPEAT,
	       vector_name(),
	       sysconf(_SC_NPROCESSORS_ONLN),
	       "one core's peak for the same operation count (int: AVX2 "
	       "vpmaddwd, 16 MACs; fp16: fp32 FMA, 8 MACs)");
	if (wanted(argc, argv, "conv")) {
		bench_conv(0);
		bench_conv(1);
		bench_conv(2);
		bench_wino(0);
		bench_wino(2);
	}
	if (wanted(argc, argv, "sdp")) {
		bench_sdp(0);
		bench_sdp(1);
	}
	if (wanted(argc, argv, "pdp"))
		bench_pdp();
	if (wanted(argc, argv, "cdp"))
		bench_cdp();
	faults = nvdla_sim_fault_count(sim);
	if (faults)
		printf("model faults: %u (the figures above are void)\n", faults);
	free(sim);
	free(mem);
	return faults ? 1 : 0;
}
