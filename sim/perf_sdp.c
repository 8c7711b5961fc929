// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The SDP's part of an operation: its elements at the configuration's
 * throughput (the element-wise stage's, lower, where Y is on), its
 * input read from memory when not fed on the fly, its operands (a
 * vector per channel, or a cube per element), and its output unless it
 * streams into the PDP or only compares.
 */
#include "perf.h"

static u64 sdp_operand_bytes(const struct sdp_params *p,
			     const struct sdp_operand *o)
{
	if (!o->enabled)
		return 0;
	if (o->per_element)
		return (u64)p->surfaces * p->h * p->w * p->lanes * o->elem;
	return (u64)p->c * o->elem;
}

void sim_perf_sdp(struct nvdla_sim *sim, const struct sdp_params *p)
{
	const struct sim_perf_config *pc = &sim->config->perf;
	struct nvdla_sim_perf_op *op =
		sim_perf_add(sim, NVDLA_SIM_ENGINE_SDP,
			     sim->units[NVDLA_UNIT_SDP].consumer);
	u64 atoms = (u64)p->batches * p->surfaces * p->h * p->w;
	u64 elements = atoms * p->lanes, in = 0, out = 0, cycles;
	u32 tput = p->y.bypass || pc->sdp_ew_tput > pc->sdp_tput ?
		   pc->sdp_tput : pc->sdp_ew_tput;

	if (!p->conv)
		in = elements * p->in_bpe;
	in += sdp_operand_bytes(p, &p->x[0].op) +
	      sdp_operand_bytes(p, &p->x[1].op) + sdp_operand_bytes(p, &p->y.op);
	if (p->write && !p->to_pdp)
		out = (u64)p->batches * p->h * p->w * p->atom *
		      nvdla_sdp_surfaces(p->c, p->atom, p->proc, p->out_bpe);
	cycles = sim_perf_div_up(elements, tput);
	op->post_cycles = op->post_cycles > cycles ? op->post_cycles : cycles;
	op->read_bytes += in;
	op->write_bytes += out;
	if (SIM_FIELD(sim, SDP, D_PERF_ENABLE, PERF_DMA_EN))
		sim_set_status(sim, NVDLA_UNIT_SDP,
			       NVDLA_SDP_D_PERF_WDMA_WRITE_STALL,
			       sim_perf_stall(sim, out, cycles));
}
