// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The convolution's part of an operation: the MAC array's cycles and the
 * CDMA's fetches, as NVIDIA's nv_small RTL shows them
 * (docs/performance.md).
 *
 * The CSC (vmod/nvdla/csc, sequence generator) issues one atomic
 * operation a cycle: atomic-C input channels (a block of the pre-extended
 * line for images, post-extension rows sharing one) times the kernels of
 * one group, at one kernel tap, for one output. It walks the outputs in
 * stripes and a stripe takes at least atomic-K cycles, so few or narrow
 * outputs cost more than one cycle each. Winograd takes a 4x4 input tile
 * of atomic-C/16 channels for a 2x2 output tile, all nine taps at once.
 *
 * The CDMA reads the input once (the convolution buffer holds it whole
 * for the layer) and each weight once. The CSC waits for the input and
 * the first kernel group's weights; the next groups' weights arrive
 * while it computes, so a layer whose weights come slower than it
 * computes ends one group's compute after its last weight.
 */
#include <nvdla/pixel_formats.h>

#include "perf.h"

/*
 * Cycles of one pass of the CSC over @outs outputs: it cuts them into
 * stripes of @upper outputs while two more fit, then of @lower, the last
 * one what is left, each rounded up to @round; a stripe takes at least
 * @min cycles (one atomic operation an output, but the MAC array loads a
 * stripe's weights, one kernel a cycle, and waits for @min).
 */
static u64 conv_stripes(u64 outs, u32 lower, u32 upper, u32 round, u32 min)
{
	u64 done = 0, cycles = 0, len;

	while (done < outs) {
		if (done + 2 * upper <= outs)
			len = upper;
		else if (done + upper >= outs)
			len = outs - done;
		else
			len = lower;
		done += len;
		len = sim_perf_div_up(len, round) * round;
		cycles += len > min ? len : min;
	}
	return cycles;
}

/*
 * Cycles of the MAC array. Direct: each kernel group, channel block and
 * kernel tap takes a pass over the outputs in stripes of atomic-K to
 * twice atomic-K outputs (one output of every batch where batching).
 * Image input: a pass for each output line, in stripes of the image's
 * length (rounded to the post-extension's rows), for each block of the
 * pre-extended line and each pass of post-extended rows.
 */
static u64 conv_mac_cycles(const struct nvdla_sim *sim,
			   const struct sim_conv *cv, u32 ow, u32 oh)
{
	u32 k = sim->config->cbuf.atomic_k;
	u32 img = cv->atomic_c / k > 2 ? 4 * k : 2 * k;
	u64 groups = sim_perf_div_up(cv->k, cv->kernels_per_group);

	if (cv->winograd)
		return (u64)cv->batches * sim_perf_div_up(ow, SIM_WINO_OUT) *
		       sim_perf_div_up(oh, SIM_WINO_OUT) * groups *
		       sim_perf_div_up(cv->c, cv->atomic_c /
				       (SIM_WINO_TILE * SIM_WINO_TILE));
	if (cv->is_image)
		return groups * oh *
		       conv_stripes(ow, img, img, cv->image.post_ext, k) *
		       sim_perf_div_up((u64)cv->c * cv->image.post_ext,
				       cv->atomic_c) *
		       sim_perf_div_up(cv->r, cv->image.post_ext);
	if (cv->batches > 1)
		return groups * (u64)ow * oh *
		       (cv->batches > k ? cv->batches : k) *
		       sim_perf_div_up(cv->c, cv->atomic_c) * cv->r * cv->s;
	return groups * conv_stripes((u64)ow * oh, k, 2 * k, 1, k) *
	       sim_perf_div_up(cv->c, cv->atomic_c) * cv->r * cv->s;
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
	u64 groups = sim_perf_div_up(cv->k, cv->kernels_per_group);
	u64 data = 0, weights = 0, mac;

	if (!SIM_FIELD(sim, CDMA, D_MISC_CFG, DATA_REUSE))
		data = conv_input_bytes(sim, cv) * cv->batches;
	if (!SIM_FIELD(sim, CDMA, D_MISC_CFG, WEIGHT_REUSE))
		weights = SIM_REG(sim, CDMA, D_WEIGHT_BYTES) +
			  (cv->compressed ? SIM_REG(sim, CDMA, D_WMB_BYTES) : 0);
	mac = conv_mac_cycles(sim, cv, ow, oh);
	op->mac_cycles += mac;
	sim->perf.tail = mac / groups;
	op->macs += (u64)cv->batches * ow * oh * cv->k * cv->c * cv->r *
		    (cv->is_image ? 1 : cv->s);
	op->peak_macs = cv->atomic_c * cv->kernels_per_group;
	op->read_bytes += data + weights;
	sim->perf.startup += sim_perf_mem(sim, data +
					  sim_perf_div_up(weights, groups), 0);
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
