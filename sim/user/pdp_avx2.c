// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The PDP's integer pooling (pdp.h) compiled for AVX2, its loops over the
 * lanes vectorised by the compiler: the same source as the plain path, so
 * the same results. Called only where the CPU has AVX2 (elem_vector.c).
 */
#pragma GCC target("avx2")
#pragma GCC optimize("vect-cost-model=dynamic")

#include "accel.h"
#include "../pdp.h"

void sim_pdp_lanes_avx2(const struct pdp_params *p, u32 s, u32 ox, u32 oy,
			s32 *out)
{
	pdp_lanes(p, s, ox, oy, out);
}
