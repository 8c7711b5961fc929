// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The BDMA's part of an operation (a launch group: its transfers one
 * after another): each byte read and written once, one interface word a
 * cycle at most; only memory limits it. Its stall counters take what
 * the memory adds to that.
 */
#include "perf.h"

void sim_perf_bdma(struct nvdla_sim *sim, const struct sim_bdma_transfer *x)
{
	struct nvdla_sim_perf_op *op =
		sim_perf_add(sim, NVDLA_SIM_ENGINE_BDMA, x->group);
	u64 bytes = (u64)x->line_bytes * x->lines * x->surfaces;
	u64 words = sim_perf_div_up(bytes, sim->config->mem_width / 8);
	u32 *stall = sim->bdma.stall[x->group];

	op->post_cycles += words;
	op->read_bytes += bytes;
	op->write_bytes += bytes;
	sim_count_add(&stall[0], sim_perf_stall(sim, bytes, words));
	sim_count_add(&stall[1], sim_perf_stall(sim, bytes, words));
}
