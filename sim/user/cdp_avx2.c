// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The CDP's integer LRN (cdp.h) compiled for AVX2, its converter loops
 * vectorised by the compiler: the same source as the plain path, so the
 * same results. Called only where the CPU has AVX2 (elem_vector.c).
 */
#pragma GCC target("avx2")
#pragma GCC optimize("vect-cost-model=dynamic")

#include "accel.h"
#include "../cdp.h"

void sim_cdp_atom_avx2(const struct cdp_params *p, u32 s, u32 x, u32 y,
		       s32 *out)
{
	cdp_atom(p, s, x, y, out);
}
