// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The PDP's part of an operation: every input element passes its
 * pooling unit once, at the configuration's throughput (its line buffer
 * keeps the partial results of the windows a row reaches), read from
 * memory unless the SDP streams it in; then its output is written.
 */
#include "perf.h"

void sim_perf_pdp(struct nvdla_sim *sim, const struct pdp_params *p)
{
	struct nvdla_sim_perf_op *op =
		sim_perf_add(sim, NVDLA_SIM_ENGINE_PDP,
			     sim->units[NVDLA_UNIT_PDP].consumer);
	u64 in = (u64)p->surfaces * p->h * p->w * p->atom;
	u64 out = (u64)p->surfaces * p->oh * p->ow * p->atom;
	u64 cycles = sim_perf_div_up(in / p->bpe, sim->config->perf.pdp_tput);

	op->post_cycles = op->post_cycles > cycles ? op->post_cycles : cycles;
	op->read_bytes += p->stream ? 0 : in;
	op->write_bytes += out;
	if (SIM_FIELD(sim, PDP, D_PERF_ENABLE, DMA_EN))
		sim_set_status(sim, NVDLA_UNIT_PDP, NVDLA_PDP_D_PERF_WRITE_STALL,
			       sim_perf_stall(sim, out, cycles));
}
