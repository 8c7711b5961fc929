/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* An SDP layer's configuration, shared by the integer and fp16 pipelines. */
#ifndef __NVDLA_SIM_SDP_H__
#define __NVDLA_SIM_SDP_H__

#include <nvdla/sdp_precision.h>

#include "lut.h"
#include "sim_internal.h"

enum { ALU_MAX, ALU_MIN, ALU_SUM, ALU_EQL, SDP_ALU_NONE };
enum { USE_MUL, USE_ALU, USE_BOTH };

/* One memory operand stream (BRDMA, NRDMA or ERDMA). */
struct sdp_operand {
	bool enabled, two_byte, per_element;
	u32 use;
	u32 channels;		/* per-channel operands beyond are 0 */
	const u8 *base;
	u32 line, surf, elem;	/* strides; bytes of one element */
};

/* X1/X2: BS or BN. */
struct sdp_x {
	bool bypass, alu_bypass, mul_bypass, prelu, relu_bypass;
	u32 algo, alu_shift, mul_shift;
	bool alu_mem, mul_mem;
	s32 alu_reg, mul_reg;
	struct sdp_operand op;
};

struct sdp_y {
	bool bypass, alu_bypass, mul_bypass, prelu, lut_bypass;
	u32 algo, truncate;
	bool alu_mem, mul_mem, alu_cvt_bypass, mul_cvt_bypass;
	s32 alu_reg, mul_reg;
	s32 alu_cvt_offset, mul_cvt_offset;
	s16 alu_cvt_scale, mul_cvt_scale;
	u32 alu_cvt_shift, mul_cvt_shift;
	struct sdp_operand op;
	struct sim_lut_cfg lut;
};

/* What an SDP layer counts, and which of its counters are on. */
struct sdp_count {
	struct sim_lut_count lut;
	u32 sat;		/* output converter clips */
	u32 cacc_sat;		/* CACC clips of a flying integer layer */
	bool lut_on, sat_on, cacc_on;
};

/*
 * A run of @n elements in memory order from channel @c at (x, y): lanes
 * of one atom, then on into the next atoms of the line (x + 1, ...), a
 * run that does so starting at lane 0.
 */
struct sdp_run {
	u32 c, n, x, y;
};

struct sdp_params;
/*
 * The output elements of run @r of the layer @p into @v, and stored at
 * @out unless NULL (streamed to the PDP, or only counted).
 */
typedef void sdp_run_fn(const struct sdp_params *p, const struct sdp_run *r,
			s32 *v, u8 *out);

#if defined(__KERNEL__) || !defined(SIM_AVX2)
/*
 * The kernel runs the plain C pipelines (no vector registers), and so do
 * user-space builds for targets without a vector path.
 */
static inline sdp_run_fn *sim_sdp_vector(const struct sdp_params *p)
{
	(void)p;
	return NULL;
}
#else
/* The user-space build's vector pipeline for the layer @p, or NULL. */
sdp_run_fn *sim_sdp_vector(const struct sdp_params *p);
#endif

struct sdp_params {
	struct nvdla_sim *sim;	/* for sim_slice() */
	u64 elem_work;		/* basic steps of one output element */
	u32 atom, lanes, c, surfaces, w, h;	/* lanes, surfaces: processing's */
	u32 in_prec, proc, out_prec;	/* nvdla/sdp_precision.h */
	u32 in_bpe, out_bpe;
	u32 out_bits;		/* the converter's clip: 8, 16, 17 for fp16 */
	/*
	 * int8 processing of int16 cubes: 32 lanes read from (in_pairs) or
	 * written to (out_pairs) two 16-channel surfaces.
	 */
	bool in_pairs, out_pairs;
	const u8 *in;
	u32 in_line, in_surf;
	u8 *out;
	u32 out_line, out_surf;
	u32 batches, out_batch;	/* flying batches; stride of their outputs */
	bool write;		/* false in EQL (compare) mode */
	bool to_pdp;		/* output streams into the PDP */
	sdp_run_fn *run;	/* the pipeline: plain or vector */
	struct sdp_x x[2];
	struct sdp_y y;
	s32 cvt_offset;
	s16 cvt_scale;
	u32 cvt_shift;
	/* The inputs' ranges make 32-bit arithmetic exact in X1, X2, CVT. */
	bool narrow_x[2], narrow_cvt;
	const struct sim_lut *lut;
	const struct sim_conv *conv;	/* flying input, or NULL */
	/* The counters the layer has enabled, NULL where off or not counting. */
	struct sim_lut_count *lut_count;
	u32 *sat_count;
	bool fp16, nan_to_zero;
	bool fp16_to_int16;	/* fp16 processing, int16 output */
	bool out_fp16;		/* integer processing, fp16 output */
};

/* Where run @r's first input element lies in an offline layer's cube. */
static inline const u8 *sdp_run_in(const struct sdp_params *p,
				   const struct sdp_run *r)
{
	return p->in + (r->c / p->lanes) * p->in_surf + r->y * p->in_line +
	       (r->x * p->lanes + r->c % p->lanes) * p->in_bpe;
}

/*
 * Where element @i of run @r lies in a cube of 2-byte elements, @line
 * and @surf apart, read or written by int8 processing: its 32-lane group
 * is two 16-channel surfaces.
 */
static inline u32 sdp_pair_offset(const struct sdp_params *p,
				  const struct sdp_run *r, u32 i, u32 line,
				  u32 surf)
{
	u32 lane = r->c % p->lanes + i, half = p->lanes / 2;
	u32 c = r->c - r->c % p->lanes + lane % p->lanes;

	return (c / half) * surf + r->y * line +
	       (r->x + lane / p->lanes) * p->atom + (c % half) * 2;
}

/* Elements of a run: an atom of int8 elements on the widest memory. */
#define SDP_RUN_MAX SIM_ATOM_MAX

/*
 * The ALU and MUL parts of the operand elements of run @r; those it does
 * not hold (per-channel operands past the channels) are left as they are.
 */
void sim_sdp_operands(const struct sdp_operand *o, u32 lanes,
		      const struct sdp_run *r, s32 *alu, s32 *mul);
/*
 * Which integer stages may compute in 32 bits (sdp_run.h), from the
 * inputs' range: offline int8 or int16 (the CACC's int32 has no room),
 * through X1 and X2, and on to the converter where EW is bypassed.
 */
void sim_sdp_narrow(struct sdp_params *p);
/* The fp16 pipeline models the stages @p uses (sdp_fp16.c). */
bool sim_sdp_fp16_supported(const struct sdp_params *p);
/*
 * Write the NaN and infinity counters the layer has enabled: fp16 inputs,
 * fp16 outputs (of integer processing too, which makes no NaN).
 */
void sim_sdp_fp16_status(struct nvdla_sim *sim, const struct sdp_params *p);
/* The run's inputs as fp32: the CACC's, or fp16 from memory. */
void sim_sdp_fp16_input(const struct sdp_params *p, const struct sdp_run *r,
			u32 *v);
/* The fp16 pipeline (fp16 or int16 bits), an sdp_run_fn. */
void sim_sdp_fp16_run(const struct sdp_params *p, const struct sdp_run *r,
		      s32 *v, u8 *out);

#endif /* __NVDLA_SIM_SDP_H__ */
