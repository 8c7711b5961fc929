// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Batching of a direct convolution (D_BATCH_NUMBER): the CDMA fetches
 * batch b's input cube at the input base plus b * D_BATCH_STRIDE, all
 * batches share the weights, and the SDP writes batch b's output at its
 * base plus b * D_DST_BATCH_STRIDE. The arithmetic of each batch is that
 * of one layer; the hardware only interleaves them.
 */
#include "sim_internal.h"

/*
 * Read the batch count the convolution units agree on; false when they
 * disagree, the configuration has fewer batches, or the input is an image
 * (the CSC has no batched image mode).
 */
bool sim_conv_batch_params(const struct nvdla_sim *sim, struct sim_conv *cv)
{
	u32 n = SIM_FIELD(sim, CDMA, D_BATCH_NUMBER, BATCHES);

	cv->batches = n + 1;
	cv->batch_stride = SIM_STRIDE(sim, CDMA, D_BATCH_STRIDE);
	return n == SIM_FIELD(sim, CSC, D_BATCH_NUMBER, BATCHES) &&
	       n == SIM_FIELD(sim, CACC, D_BATCH_NUMBER, BATCHES) &&
	       cv->batches <= sim->config->max_batch &&
	       (!cv->is_image || cv->batches == 1);
}

/* Bytes the input cubes of every batch span, from the first's base. */
u64 sim_conv_batch_extent(const struct sim_conv *cv, u64 one)
{
	return (u64)(cv->batches - 1) * cv->batch_stride + one;
}

void sim_conv_batch(struct sim_conv *cv, u32 batch)
{
	cv->in = cv->in_batch0 + (u64)batch * cv->batch_stride;
}
