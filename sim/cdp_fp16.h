/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* The CDP's fp16 LRN (cdp_fp16.c). */
#ifndef __NVDLA_SIM_CDP_FP16_H__
#define __NVDLA_SIM_CDP_FP16_H__

#include "lut.h"

#define SIM_CDP_FP16_WINDOW 9	/* channels c - 4 .. c + 4 */

struct sim_cdp_fp16 {
	const struct sim_lut *table;
	const struct sim_lut_cfg *cfg;	/* function, priorities, slopes */
	u32 le_start, le_end, lo_start, lo_end;	/* fp32 bit patterns */
	s8 le_offset, le_select, lo_select;
	u32 half_window;		/* 1 .. 4 */
	bool sqsum_bypass, mul_bypass;
	struct sim_lut_count *lut_count;	/* D_PERF_LUT_* */
};

/* The output (fp16) for the window @win of fp16 inputs, @win[4] its own. */
u16 sim_cdp_fp16_lrn(const struct sim_cdp_fp16 *c, const u16 *win);

#endif /* __NVDLA_SIM_CDP_FP16_H__ */
