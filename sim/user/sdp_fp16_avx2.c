// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The SDP's fp16 pipeline (sdp_fp16.c) on AVX2's fp32 arithmetic, eight
 * lanes at a time, for layers whose stages are the ALU's SUM, the MUL,
 * PReLU and ReLU (no LUT, no MAX, MIN or EQL). NVDLA's float arithmetic
 * (fp.h) rounds as IEEE does (to nearest even) wherever no operand is a
 * denormal, an infinity or a NaN, and the result is neither near the
 * exponent's ends nor a zero from a sum: there the host's result is the
 * hardware's. Its add loses bits below a 2M+3-bit window, but only from
 * an operand 2^26 below the other, under a quarter of the larger one's
 * last place, which leaves the larger one as IEEE rounding does; its
 * multiply flushes, and both saturate, only outside the exponent range
 * kept. Every lane that leaves that domain at any step is computed again,
 * whole, by the plain C pipeline, which also counts it.
 */
#include <immintrin.h>

#include "accel.h"
#include "../fp.h"
#include "../sdp_run.h"

#define AVX2 __attribute__((target("avx2")))

#define LANES 8
#define MXCSR_ROUNDING 0x6000	/* 0: round to nearest even */
#define FP32_EXP(x) _mm256_and_si256(_mm256_srli_epi32(x, 23), \
				     _mm256_set1_epi32(0xff))

/* Lanes of @x neither denormal, infinite nor NaN: zeros and normals. */
static inline AVX2 __m256i fp32_plain(__m256i x)
{
	__m256i e = FP32_EXP(x), zero = _mm256_setzero_si256();
	__m256i mag = _mm256_and_si256(x, _mm256_set1_epi32(0x7fffffff));

	return _mm256_or_si256(
		_mm256_cmpeq_epi32(mag, zero),
		_mm256_andnot_si256(
			_mm256_or_si256(_mm256_cmpeq_epi32(e, zero),
					_mm256_cmpeq_epi32(e, _mm256_set1_epi32(0xff))),
			_mm256_set1_epi32(-1)));
}

/* Lanes of the result @x with an exponent 2 to 253: clear of both ends. */
static inline AVX2 __m256i fp32_inner(__m256i x)
{
	__m256i e = FP32_EXP(x);

	return _mm256_and_si256(_mm256_cmpgt_epi32(e, _mm256_set1_epi32(1)),
				_mm256_cmpgt_epi32(_mm256_set1_epi32(254), e));
}

static inline AVX2 __m256i fp32_is_zero(__m256i x)
{
	return _mm256_cmpeq_epi32(
		_mm256_and_si256(x, _mm256_set1_epi32(0x7fffffff)),
		_mm256_setzero_si256());
}

/*
 * fp16 bit patterns (in 32-bit lanes) to fp32, exact for zeros and
 * normals; *@ok loses the rest (denormals, infinities, NaNs). In
 * integers: a host that sets DAZ would flush denormals in float.
 */
static inline AVX2 __m256i fp16_widen(__m256i h, __m256i *ok)
{
	__m256i mag = _mm256_and_si256(h, _mm256_set1_epi32(0x7fff));
	__m256i zero = _mm256_cmpeq_epi32(mag, _mm256_setzero_si256());
	__m256i v = _mm256_add_epi32(_mm256_slli_epi32(mag, 13),
				     _mm256_set1_epi32(112 << 23));
	__m256i sign = _mm256_slli_epi32(_mm256_and_si256(h, _mm256_set1_epi32(0x8000)),
					 16);
	__m256i normal = _mm256_and_si256(
		_mm256_cmpgt_epi32(mag, _mm256_set1_epi32(0x3ff)),
		_mm256_cmpgt_epi32(_mm256_set1_epi32(0x7c00), mag));

	*ok = _mm256_and_si256(*ok, _mm256_or_si256(normal, zero));
	return _mm256_or_si256(_mm256_andnot_si256(zero, v), sign);
}

/*
 * fp32 to fp16, to nearest even, where the result is a normal fp16 or
 * the input a zero; *@ok loses the other lanes (denormal or overflowing
 * results, which the plain C converts).
 */
static inline AVX2 __m256i fp16_narrow(__m256i x, __m256i *ok)
{
	__m256i mag = _mm256_and_si256(x, _mm256_set1_epi32(0x7fffffff));
	__m256i e = FP32_EXP(x), odd, h, normal;
	__m256i sign = _mm256_and_si256(_mm256_srli_epi32(x, 16),
					_mm256_set1_epi32(0x8000));

	odd = _mm256_and_si256(_mm256_srli_epi32(mag, 13), _mm256_set1_epi32(1));
	h = _mm256_sub_epi32(mag, _mm256_set1_epi32(112 << 23));
	h = _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(h, odd),
					       _mm256_set1_epi32(0xfff)), 13);
	/* fp32 exponents 113 to 142, not rounded up to fp16's infinity */
	normal = _mm256_and_si256(
		_mm256_and_si256(_mm256_cmpgt_epi32(e, _mm256_set1_epi32(112)),
				 _mm256_cmpgt_epi32(_mm256_set1_epi32(143), e)),
		_mm256_cmpgt_epi32(_mm256_set1_epi32(0x7c00), h));
	*ok = _mm256_and_si256(*ok, _mm256_or_si256(normal, fp32_is_zero(x)));
	return _mm256_or_si256(_mm256_and_si256(h, normal), sign);
}

/* v + a where exact (see above); *@ok loses the other lanes. */
static inline AVX2 __m256i fp32_sum(__m256i v, __m256i a, __m256i *ok)
{
	__m256i r = _mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(v),
						      _mm256_castsi256_ps(a)));

	*ok = _mm256_and_si256(*ok, _mm256_and_si256(
		_mm256_and_si256(fp32_plain(v), fp32_plain(a)), fp32_inner(r)));
	return r;
}

/*
 * v * m where exact, a zero operand giving a signed zero as NVDLA's
 * multiplier does; applied where @use; *@ok loses the other lanes.
 */
static inline AVX2 __m256i fp32_product(__m256i v, __m256i m, __m256i use,
				 __m256i *ok)
{
	__m256i r = _mm256_castps_si256(_mm256_mul_ps(_mm256_castsi256_ps(v),
						      _mm256_castsi256_ps(m)));
	__m256i exact = _mm256_and_si256(
		_mm256_and_si256(fp32_plain(v), fp32_plain(m)),
		_mm256_or_si256(fp32_inner(r),
				_mm256_or_si256(fp32_is_zero(v), fp32_is_zero(m))));

	*ok = _mm256_and_si256(*ok, _mm256_or_si256(exact, _mm256_andnot_si256(
		use, _mm256_set1_epi32(-1))));
	return _mm256_blendv_epi8(v, r, use);
}

/* The lanes PReLU leaves to the multiplier: all, or the negative ones. */
static inline AVX2 __m256i fp32_mul_lanes(__m256i v, bool prelu)
{
	return prelu ? _mm256_srai_epi32(v, 31) : _mm256_set1_epi32(-1);
}

/* One stage's operands, as fp32: [0] the ALU's, [1] the MUL's. */
struct fp16_ops {
	u32 op[2][SDP_RUN_MAX];
	u32 bad[2][SDP_RUN_MAX];	/* ~0 where not exact */
};

/*
 * A stage's operands: fp16 memory elements widened (with @reg16, the
 * register operands too, fp16; else fp32 bit patterns).
 */
static AVX2 void fp16_stage_ops(const struct sdp_params *p,
				const struct sdp_operand *o, bool alu_mem,
				u32 alu_reg, bool mul_mem, u32 mul_reg,
				bool reg16, const struct sdp_run *r,
				struct fp16_ops *f)
{
	s32 raw[2][SDP_RUN_MAX];
	const bool mem[2] = { alu_mem, mul_mem };
	const u32 reg[2] = { alu_reg, mul_reg };
	__m256i ok, v, regv;
	u32 k, i;

	sdp_run_operands(p, o, alu_mem, alu_reg, mul_mem, mul_reg, r, raw[0],
			 raw[1]);
	for (k = 0; k < 2; k++) {
		regv = _mm256_set1_epi32(mem[k] ? 0 : reg16 ?
					 sim_fp16_to_fp32(reg[k]) : reg[k]);
		for (i = 0; i < r->n; i += LANES) {
			ok = _mm256_set1_epi32(-1);
			v = mem[k] ? fp16_widen(_mm256_loadu_si256((void *)&raw[k][i]),
						&ok) : regv;
			_mm256_storeu_si256((void *)&f->op[k][i], v);
			_mm256_storeu_si256((void *)&f->bad[k][i],
					    _mm256_xor_si256(ok, _mm256_set1_epi32(-1)));
		}
	}
}

static inline AVX2 __m256i ops_at(const struct fp16_ops *f, u32 k, u32 i,
			   __m256i *ok)
{
	*ok = _mm256_andnot_si256(_mm256_loadu_si256((void *)&f->bad[k][i]),
				  *ok);
	return _mm256_loadu_si256((void *)&f->op[k][i]);
}

static inline AVX2 __m256i fp16_x(const struct sdp_x *s, const struct fp16_ops *f,
			   u32 i, __m256i v, __m256i *ok)
{
	__m256i a, m;

	a = ops_at(f, 0, i, ok);
	m = ops_at(f, 1, i, ok);
	if (!s->alu_bypass)
		v = fp32_sum(v, a, ok);
	if (!s->mul_bypass)
		v = fp32_product(v, m, fp32_mul_lanes(v, s->prelu), ok);
	if (!s->relu_bypass)
		v = _mm256_andnot_si256(_mm256_srai_epi32(v, 31), v);
	return v;
}

static inline AVX2 __m256i fp16_y(const struct sdp_y *s, const struct fp16_ops *f,
			   u32 i, __m256i v, __m256i *ok)
{
	__m256i a, m;

	a = ops_at(f, 0, i, ok);
	m = ops_at(f, 1, i, ok);
	if (!s->mul_bypass)
		v = fp32_product(v, m, fp32_mul_lanes(v, s->prelu), ok);
	if (!s->alu_bypass)
		v = fp32_sum(v, a, ok);
	return v;
}

/* The run's inputs as fp32; *@ok: which are exact. */
static inline AVX2 __m256i fp16_in(const u8 *at,
			    const u32 *conv, u32 i, __m256i *ok)
{
	if (!at)
		return _mm256_loadu_si256((void *)&conv[i]);
	return fp16_widen(_mm256_cvtepu16_epi32(
				_mm_loadu_si128((void *)(at + 2 * i))), ok);
}

/* The plain C pipeline for element @i of @r. */
static void fp16_plain_elem(const struct sdp_params *p,
			    const struct sdp_run *r, u32 i, s32 *out)
{
	u32 lane = r->c % p->lanes + i;
	struct sdp_run one = { r->c - r->c % p->lanes + lane % p->lanes, 1,
			       r->x + lane / p->lanes, r->y };

	sim_sdp_fp16_run(p, &one, out, NULL);
}

AVX2 void sim_sdp_fp16_run_avx2(const struct sdp_params *p,
				const struct sdp_run *r, s32 *out, u8 *dst)
{
	struct fp16_ops ops[3];
	const struct sdp_x *x = p->x;
	u32 conv[SDP_RUN_MAX], h[LANES], sat = 0, i, j, bad;
	const u8 *at = NULL;
	__m256i ok, v;

	if (r->n % LANES) {	/* single elements streamed to the PDP */
		sim_sdp_fp16_run(p, r, out, dst);
		return;
	}
	if (p->conv)
		sim_sdp_fp16_input(p, r, conv);
	else
		at = sdp_run_in(p, r);
	for (j = 0; j < 2; j++)
		if (!x[j].bypass)
			fp16_stage_ops(p, &x[j].op, x[j].alu_mem, x[j].alu_reg,
				       x[j].mul_mem, x[j].mul_reg, true, r,
				       &ops[j]);
	if (!p->y.bypass)
		fp16_stage_ops(p, &p->y.op, p->y.alu_mem, p->y.alu_reg,
			       p->y.mul_mem, p->y.mul_reg, false, r, &ops[2]);
	for (i = 0; i < r->n; i += LANES) {
		ok = _mm256_set1_epi32(-1);
		v = fp16_in(at, conv, i, &ok);
		/* NaNs (and NaN_TO_ZERO's zeros) are the plain C's */
		ok = _mm256_and_si256(ok, _mm256_cmpgt_epi32(
			_mm256_set1_epi32(0xff), FP32_EXP(v)));
		for (j = 0; j < 2; j++)
			if (!x[j].bypass)
				v = fp16_x(&x[j], &ops[j], i, v, &ok);
		if (!p->y.bypass)
			v = fp16_y(&p->y, &ops[2], i, v, &ok);
		v = fp16_narrow(v, &ok);
		_mm256_storeu_si256((void *)h, v);
		bad = ~_mm256_movemask_ps(_mm256_castsi256_ps(ok)) & 0xff;
		for (j = 0; j < LANES; j++) {
			if (bad >> j & 1) {
				fp16_plain_elem(p, r, i + j, &out[i + j]);
			} else if (p->fp16_to_int16) {
				out[i + j] = (u16)sim_fp16_to_int16(h[j]);
			} else {
				out[i + j] = h[j];
				sat += (h[j] & 0x7fff) == SIM_FP16_MAX;
			}
		}
	}
	if (p->sat_count)
		sim_count_add(p->sat_count, sat);
	sdp_run_store(dst, out, r->n, p->out_bpe);
}

/*
 * Whether the layer's stages are all the ones above, and the host rounds
 * to nearest: an application may have set another rounding mode.
 */
bool sim_sdp_fp16_avx2_fits(const struct sdp_params *p)
{
	const struct sdp_y *y = &p->y;
	u32 j;

	if (_mm_getcsr() & MXCSR_ROUNDING)
		return false;

	for (j = 0; j < 2; j++)
		if (!p->x[j].bypass && !p->x[j].alu_bypass &&
		    p->x[j].algo != ALU_SUM)
			return false;
	return y->bypass || (y->lut_bypass &&
			     (y->alu_bypass || y->algo == ALU_SUM));
}
