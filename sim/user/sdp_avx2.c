// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The SDP's integer pipeline (sdp_run.h) compiled for AVX2, its loops
 * vectorised by the compiler wherever it judges the vectors pay: the same
 * source as the plain path, so the same results. Called only where the
 * CPU has AVX2 (elem_vector.c).
 */
#pragma GCC target("avx2")
#pragma GCC optimize("vect-cost-model=dynamic")

#include "accel.h"
#include "../sdp_run.h"

void sim_sdp_run_avx2(const struct sdp_params *p, const struct sdp_run *r,
		      s32 *v)
{
	sdp_run_int(p, r, v);
}
