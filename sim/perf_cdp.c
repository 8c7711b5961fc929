// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The CDP's part of an operation: every element at the configuration's
 * throughput (the window's sum of squares slides along the channels),
 * the cube read from memory and written back.
 */
#include "perf.h"

void sim_perf_cdp(struct nvdla_sim *sim, const struct cdp_params *p)
{
	struct nvdla_sim_perf_op *op =
		sim_perf_add(sim, NVDLA_SIM_ENGINE_CDP,
			     sim->units[NVDLA_UNIT_CDP].consumer);
	u64 bytes = (u64)p->surfaces * p->h * p->w * p->atom;
	u64 cycles = sim_perf_div_up(bytes / p->bpe, sim->config->perf.cdp_tput);

	op->post_cycles = op->post_cycles > cycles ? op->post_cycles : cycles;
	op->read_bytes += bytes;
	op->write_bytes += bytes;
	if (SIM_FIELD(sim, CDP, D_PERF_ENABLE, DMA_EN))
		sim_set_status(sim, NVDLA_UNIT_CDP, NVDLA_CDP_D_PERF_WRITE_STALL,
			       sim_perf_stall(sim, bytes, cycles));
}
