// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* The SDP integer pipeline's vector path for the next layer. */
#include "accel.h"

sdp_run_fn *sim_sdp_vector(void)
{
	return sim_simd() == SIM_SIMD_AVX2 ? sim_sdp_run_avx2 : NULL;
}
