// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The per-element engines' vector paths for the next layer, chosen as
 * the convolution's are (NVDLA_SIM_SIMD); NULL keeps the plain C. Built
 * for x86-64 targets, for any of their CPUs: it only chooses.
 */
#include "accel.h"

sdp_run_fn *sim_sdp_vector(const struct sdp_params *p)
{
	if (sim_simd() != SIM_SIMD_AVX2)
		return NULL;
	if (!p->fp16)
		return sim_sdp_run_avx2;
	return sim_sdp_fp16_avx2_fits(p) ? sim_sdp_fp16_run_avx2 : NULL;
}

pdp_lanes_fn *sim_pdp_vector(void)
{
	return sim_simd() == SIM_SIMD_AVX2 ? sim_pdp_lanes_avx2 : NULL;
}

cdp_atom_fn *sim_cdp_vector(void)
{
	return sim_simd() == SIM_SIMD_AVX2 ? sim_cdp_atom_avx2 : NULL;
}
