// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The convolution's part of an operation: the MAC array's atomic
 * operations and the CDMA's fetches.
 *
 * One atomic operation a cycle: atomic-C input channels (a block of the
 * pre-extended line for images, post-extension rows sharing one) times
 * the kernels of one group (atomic-K bytes of them), at one kernel tap,
 * for one output element. Winograd takes a 4x4 input tile of atomic-C/16
 * channels for a 2x2 output tile, all nine taps at once. The CDMA reads
 * the input once (the convolution buffer holds it whole for the layer)
 * and each weight once. The MAC array starts once the CDMA has filled
 * the buffer: the whole input, and the weights as far as the weight banks
 * hold them; only weights beyond that stream while the array computes
 * (NVIDIA's nv_small RTL does not overlap the fetch it needs first with
 * the compute: docs/performance.md).
 */
#include <nvdla/pixel_formats.h>

#include "perf.h"

/* Atomic operations of the layer. */
static u64 conv_atomics(const struct sim_conv *cv, u32 ow, u32 oh)
{
	u64 groups = sim_perf_div_up(cv->k, cv->kernels_per_group);
	u64 outs = (u64)cv->batches * ow * oh * groups;

	if (cv->winograd)
		return (u64)cv->batches * sim_perf_div_up(ow, SIM_WINO_OUT) *
		       sim_perf_div_up(oh, SIM_WINO_OUT) * groups *
		       sim_perf_div_up(cv->c, cv->atomic_c /
				       (SIM_WINO_TILE * SIM_WINO_TILE));
	if (cv->is_image)
		return outs * sim_perf_div_up((u64)cv->c * cv->image.post_ext,
					      cv->atomic_c) *
		       sim_perf_div_up(cv->r, cv->image.post_ext);
	return outs * sim_perf_div_up(cv->c, cv->atomic_c) * cv->r * cv->s;
}

/* Bytes of one batch's input the CDMA reads. */
static u64 conv_input_bytes(const struct nvdla_sim *sim,
			    const struct sim_conv *cv)
{
	u32 atom = sim->config->atom;
	u32 w = SIM_FIELD(sim, CDMA, D_DATAIN_SIZE_0, DATAIN_WIDTH) + 1;
	u32 h = SIM_FIELD(sim, CDMA, D_DATAIN_SIZE_0, DATAIN_HEIGHT) + 1;
	u32 c = SIM_FIELD(sim, CDMA, D_DATAIN_SIZE_1, DATAIN_CHANNEL) + 1;

	if (cv->is_image)
		return (u64)h * (cv->image.line[0] +
				 (cv->image.layout->planes > 1 ?
				  cv->image.line[1] : 0));
	return (u64)w * h * sim_perf_div_up((u64)c * cv->bpe, atom) * atom;
}

void sim_perf_conv(struct nvdla_sim *sim, const struct sim_conv *cv)
{
	struct nvdla_sim_perf_op *op =
		sim_perf_add(sim, NVDLA_SIM_ENGINE_CONV,
			     sim->units[NVDLA_UNIT_CDMA].consumer);
	u32 ow = SIM_FIELD(sim, CSC, D_DATAOUT_SIZE_0, DATAOUT_WIDTH) + 1;
	u32 oh = SIM_FIELD(sim, CSC, D_DATAOUT_SIZE_0, DATAOUT_HEIGHT) + 1;
	const struct nvdla_cbuf *cb = &sim->config->cbuf;
	u64 held = (u64)sim_cbuf_weight_banks(sim) * cb->depth * cb->width;
	u64 data = 0, weights = 0;

	if (!SIM_FIELD(sim, CDMA, D_MISC_CFG, DATA_REUSE))
		data = conv_input_bytes(sim, cv) * cv->batches;
	if (!SIM_FIELD(sim, CDMA, D_MISC_CFG, WEIGHT_REUSE))
		weights = SIM_REG(sim, CDMA, D_WEIGHT_BYTES) +
			  (cv->compressed ? SIM_REG(sim, CDMA, D_WMB_BYTES) : 0);
	op->mac_cycles += conv_atomics(cv, ow, oh);
	op->macs += (u64)cv->batches * ow * oh * cv->k * cv->c * cv->r *
		    (cv->is_image ? 1 : cv->s);
	op->peak_macs = cv->atomic_c * cv->kernels_per_group;
	op->read_bytes += data + weights;
	sim->perf.startup += sim_perf_mem(sim, data +
					  (weights < held ? weights : held), 0);
	if (!SIM_FIELD(sim, CDMA, D_PERF_ENABLE, DMA_EN))
		return;
	sim_set_status(sim, NVDLA_UNIT_CDMA, NVDLA_CDMA_D_PERF_DAT_READ_STALL,
		       sim_perf_stall(sim, data, op->mac_cycles));
	sim_set_status(sim, NVDLA_UNIT_CDMA, NVDLA_CDMA_D_PERF_WT_READ_STALL,
		       sim_perf_stall(sim, weights, op->mac_cycles));
	sim_set_status(sim, NVDLA_UNIT_CDMA, NVDLA_CDMA_D_PERF_DAT_READ_LATENCY,
		       data ? (u32)sim_perf_latency(sim) : 0);
	sim_set_status(sim, NVDLA_UNIT_CDMA, NVDLA_CDMA_D_PERF_WT_READ_LATENCY,
		       weights ? (u32)sim_perf_latency(sim) : 0);
}
