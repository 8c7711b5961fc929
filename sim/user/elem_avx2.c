// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The SDP's and PDP's integer paths (sdp_run.h, pdp.h; the CDP's is in
 * cdp_avx2.c) compiled for AVX2, their loops vectorised by the compiler:
 * the same source as the plain paths, so the same results. Called only
 * where the CPU has AVX2 (elem_vector.c).
 */
#ifndef __clang__
/*
 * Every function here, the headers' too, for AVX2, vectorised where the
 * compiler's full cost model says it pays (-O2 keeps the cheapest only).
 */
#pragma GCC target("avx2")
#pragma GCC optimize("vect-cost-model=dynamic")
#endif

#include "accel.h"
#include "../pdp.h"
#include "../sdp_run.h"

/* clang takes the target per function and inlines the headers' into it. */
#define AVX2 __attribute__((target("avx2")))

AVX2 void sim_sdp_run_avx2(const struct sdp_params *p,
			   const struct sdp_run *r, s32 *v, u8 *out)
{
	sdp_run_int(p, r, v, out);
}

AVX2 void sim_pdp_lanes_avx2(const struct pdp_params *p, u32 s, u32 ox,
			     u32 oy, s32 *out)
{
	pdp_lanes(p, s, ox, oy, out);
}
