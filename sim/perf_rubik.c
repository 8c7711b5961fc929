// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * RUBIK's part of an operation: it moves @bytes of cube, one atom a
 * cycle at most, read once and written once in the new layout.
 */
#include "perf.h"

void sim_perf_rubik(struct nvdla_sim *sim, u64 bytes)
{
	struct nvdla_sim_perf_op *op =
		sim_perf_add(sim, NVDLA_SIM_ENGINE_RUBIK,
			     sim->units[NVDLA_UNIT_RBK].consumer);
	u64 cycles = sim_perf_div_up(bytes, sim->config->atom);

	op->post_cycles = op->post_cycles > cycles ? op->post_cycles : cycles;
	op->read_bytes += bytes;
	op->write_bytes += bytes;
	if (!SIM_FIELD(sim, RBK, D_PERF_ENABLE, PERF_EN))
		return;
	sim_set_status(sim, NVDLA_UNIT_RBK, NVDLA_RBK_D_PERF_READ_STALL,
		       sim_perf_stall(sim, bytes, cycles));
	sim_set_status(sim, NVDLA_UNIT_RBK, NVDLA_RBK_D_PERF_WRITE_STALL,
		       sim_perf_stall(sim, bytes, cycles));
}
