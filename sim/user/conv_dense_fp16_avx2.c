// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
#include "accel.h"
#include "../conv_fp16.h"

void sim_fp16_block_avx2(const u16 *d, const u16 *w, u32 n,
			 struct sim_fp_psum *p)
{
	sim_fp16_block_c(d, w, n, p);
}
