// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The NaN and infinity counters of the fp16 engines: every element of the
 * atoms read or written counts, padding lanes included, as the hardware
 * counts what passes through its data path; like every performance
 * counter they hold at the 32-bit maximum.
 */
#include "sim_internal.h"
#include "sim_math.h"

void sim_fp16_count_value(struct sim_fp16_count *n, u16 v, u32 times)
{
	if ((v & 0x7c00) != 0x7c00)
		return;
	if (v & 0x3ff)
		sim_count_add(&n->nan, times);
	else
		sim_count_add(&n->inf, times);
}

struct sim_fp16_count sim_fp16_cube_count(const u8 *base, u32 surfaces,
					  u32 h, u32 w, u32 line, u32 surf,
					  u32 atom)
{
	struct sim_fp16_count n = { 0, 0 };
	u32 s, y, i;

	for (s = 0; s < surfaces; s++) {
		for (y = 0; y < h; y++) {
			const u8 *p = base + (u64)s * surf + (u64)y * line;

			for (i = 0; i < w * atom; i += 2)
				sim_fp16_count_value(&n, p[i] | p[i + 1] << 8, 1);
		}
	}
	return n;
}
