/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The precision conversions the SDP runs (nvdla/doc format.rst,
 * "Precision conversion for SDP layer", as NVIDIA's C model runs them;
 * docs/model.md): the firmware programs them, the hardware model runs
 * them and refuses the rest, compilers plan with them; all from this one
 * header. Precisions are the registers' encoding, which the descriptors'
 * DLA_PRECISION_* share: 0 int8, 1 int16, 2 fp16.
 *
 * The input precision (SDP_RDMA IN_PRECISION; in flying mode the
 * convolution's, which is the processing one) and the processing one
 * (PROC_PRECISION of SDP_RDMA and SDP alike) pick the pipeline:
 *   int8 processing (int32 arithmetic): int8 or int16 in, int8 or int16 out;
 *   int16 processing (int32 arithmetic): int16 in, int16 or fp16 out;
 *   fp16 processing (fp32 arithmetic): fp16 in, fp16 or int16 out.
 * int8 processing works on 32-channel groups: an int16 input is read, and
 * an int16 output written, as two 16-channel surfaces per group (channel
 * c keeps its place, surface c / 16), so such a cube always has an even
 * number of surfaces, padding ones included.
 */
#ifndef __NVDLA_SDP_PRECISION_H__
#define __NVDLA_SDP_PRECISION_H__

#include <linux/types.h>

enum { NVDLA_SDP_INT8, NVDLA_SDP_INT16, NVDLA_SDP_FP16 };

/* The processing precision that converts @in to @out (int16 to int8: int8). */
static inline u32 nvdla_sdp_proc_precision(u32 in, u32 out)
{
	return in == NVDLA_SDP_INT16 && out == NVDLA_SDP_INT8 ?
	       NVDLA_SDP_INT8 : in;
}

/* Whether the SDP runs @in through processing precision @proc to @out. */
static inline bool nvdla_sdp_conversion_ok(u32 in, u32 proc, u32 out)
{
	switch (proc) {
	case NVDLA_SDP_INT8:
		return in <= NVDLA_SDP_INT16 && out <= NVDLA_SDP_INT16;
	case NVDLA_SDP_INT16:
		return in == NVDLA_SDP_INT16 && out != NVDLA_SDP_INT8 &&
		       out <= NVDLA_SDP_FP16;
	case NVDLA_SDP_FP16:
		return in == NVDLA_SDP_FP16 && out != NVDLA_SDP_INT8 &&
		       out <= NVDLA_SDP_FP16;
	default:
		return false;
	}
}

/*
 * Surfaces of a cube of @c channels of @bpe bytes that an SDP processing
 * in @proc reads or writes, atoms of @atom bytes: whole groups of the
 * processing's lanes.
 */
static inline u32 nvdla_sdp_surfaces(u32 c, u32 atom, u32 proc, u32 bpe)
{
	u32 lanes = proc == NVDLA_SDP_INT8 ? atom : atom / 2;

	return (c + lanes - 1) / lanes * (lanes * bpe / atom);
}

#endif /* __NVDLA_SDP_PRECISION_H__ */
