// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The CDMA's fp16 NaN and infinity handling, as the RTL does it (cmod and
 * vmod/nvdla/cdma of nvdla/hw). Everything the CDMA writes into the
 * convolution buffer passes a counter: data when the input precision is
 * fp16, weights when the processing precision is. Data counts whole
 * fetched atoms (lanes past the last channel included) and, in Winograd
 * mode, the padding the CDMA adds; the CSC's padding of direct mode never
 * reaches the buffer. In image mode the pixels of the image (not those
 * PIXEL_X_OFFSET skips, nor the pad pixels, whose value the converter
 * inserts after the counter). Weights count all D_WEIGHT_BYTES. With
 * D_NAN_FLUSH_TO_ZERO, each counted NaN is stored as +0, in weights too
 * (the RTL masks both writes; NVIDIA's C model only the data). The
 * counters restart with each layer; the group's registers take them when
 * the layer ends and read 0 from the time OP_EN is set. A layer that
 * reuses the buffer's data or weights fetches nothing and counts 0 there.
 */
#include "sim_internal.h"
#include "sim_math.h"

/* The CDMA's fetch engines (the RTL's dc, wg and img): 0 is none yet. */
enum cdma_engine { CDMA_FEATURE = 1, CDMA_WINOGRAD, CDMA_IMAGE };

static u32 cdma_engine(const struct nvdla_sim *sim)
{
	if (SIM_FIELD(sim, CDMA, D_MISC_CFG, CONV_MODE))
		return CDMA_WINOGRAD;
	return SIM_FIELD(sim, CDMA, D_DATAIN_FORMAT, DATAIN_FORMAT) ?
	       CDMA_IMAGE : CDMA_FEATURE;
}

/*
 * The data stay in the buffer: D_DATA_REUSE after a layer of the same
 * engine that kept them, in the same data banks (else the RTL fetches).
 */
static bool cdma_reuses_data(const struct nvdla_sim *sim)
{
	const struct sim_cdma_last *l = &sim->cdma_last;
	u32 mask = NVDLA_CDMA_D_BANK_DATA_BANK_MASK;

	return SIM_FIELD(sim, CDMA, D_MISC_CFG, DATA_REUSE) && l->keep_data &&
	       l->engine == cdma_engine(sim) &&
	       !((l->banks ^ SIM_REG(sim, CDMA, D_BANK)) & mask);
}

/* The weights stay: D_WEIGHT_REUSE after a layer that kept them, same banks. */
static bool cdma_reuses_weights(const struct nvdla_sim *sim)
{
	const struct sim_cdma_last *l = &sim->cdma_last;
	u32 mask = NVDLA_CDMA_D_BANK_DATA_BANK_MASK |
		   NVDLA_CDMA_D_BANK_WEIGHT_BANK_MASK;

	return SIM_FIELD(sim, CDMA, D_MISC_CFG, WEIGHT_REUSE) &&
	       l->keep_weights &&
	       !((l->banks ^ SIM_REG(sim, CDMA, D_BANK)) & mask);
}

void sim_cdma_remember(struct nvdla_sim *sim)
{
	struct sim_cdma_last *l = &sim->cdma_last;

	l->engine = cdma_engine(sim);
	l->keep_data = SIM_FIELD(sim, CDMA, D_MISC_CFG, SKIP_DATA_RLS);
	l->keep_weights = SIM_FIELD(sim, CDMA, D_MISC_CFG, SKIP_WEIGHT_RLS);
	l->banks = SIM_REG(sim, CDMA, D_BANK);
}

void sim_cdma_nan_params(const struct nvdla_sim *sim, struct sim_conv *cv)
{
	bool flush = SIM_FIELD(sim, CDMA, D_NAN_FLUSH_TO_ZERO, NAN_TO_ZERO);

	cv->count_data = SIM_FIELD(sim, CDMA, D_MISC_CFG, IN_PRECISION) ==
			 SIM_PREC_FP16;
	cv->count_weights = cv->fp16;
	cv->flush_data = flush && cv->count_data;
	cv->flush_weights = flush && cv->count_weights;
}

static void count_add(struct sim_fp16_count *n, struct sim_fp16_count m)
{
	sim_count_add(&n->nan, m.nan);
	sim_count_add(&n->inf, m.inf);
}

/* The feature cube of every batch, as direct mode fetches it. */
static bool count_direct(struct nvdla_sim *sim, const struct sim_conv *cv,
			 struct sim_fp16_count *n)
{
	u32 w = SIM_FIELD(sim, CDMA, D_DATAIN_SIZE_0, DATAIN_WIDTH) + 1;
	u32 h = SIM_FIELD(sim, CDMA, D_DATAIN_SIZE_0, DATAIN_HEIGHT) + 1;
	u32 c = SIM_FIELD(sim, CDMA, D_DATAIN_SIZE_1, DATAIN_CHANNEL) + 1;
	u32 line = SIM_STRIDE(sim, CDMA, D_LINE_STRIDE);
	u32 surf = SIM_STRIDE(sim, CDMA, D_SURF_STRIDE);
	u32 atom = sim->config->atom, surfaces = (c + cv->lanes - 1) / cv->lanes;
	const u8 *in;
	u32 b;

	in = SIM_MAP(sim, CDMA, D_DAIN_RAM_TYPE, DATAIN_RAM_TYPE,
		     SIM_ADDR(sim, CDMA, D_DAIN_ADDR_LOW_0, D_DAIN_ADDR_HIGH_0),
		     sim_conv_batch_extent(cv, (u64)(surfaces - 1) * surf +
					   (u64)(h - 1) * line + (u64)w * atom));
	if (!in)
		return false;
	for (b = 0; b < cv->batches; b++)
		count_add(n, sim_fp16_cube_count(in + (u64)b * cv->batch_stride,
						 surfaces, h, w, line, surf,
						 atom));
	return true;
}

/* Winograd: the cube as fetched, and the CDMA's padding around it. */
static void count_wino(const struct nvdla_sim *sim, const struct sim_conv *cv,
		       struct sim_fp16_count *n)
{
	const struct sim_wino *wn = &cv->wino;
	u64 padded = (u64)cv->w * wn->sx * cv->h * wn->sy;

	count_add(n, sim_fp16_cube_count(cv->in, wn->surfaces, wn->h, wn->w,
					 cv->in_line, cv->in_surf,
					 sim->config->atom));
	sim_fp16_count_value(n, (u16)wn->cdma_pad,
			     (u32)((padded - (u64)wn->w * wn->h) *
				   wn->surfaces * cv->lanes));
}

/* D_WEIGHT_BYTES of weights, whatever the kernels use of them. */
static bool count_weights(struct nvdla_sim *sim, struct sim_fp16_count *n)
{
	u32 bytes = SIM_REG(sim, CDMA, D_WEIGHT_BYTES) &
		    NVDLA_CDMA_D_WEIGHT_BYTES_WEIGHT_BYTES_MASK;
	const u8 *wt;

	if (!bytes)
		return true;
	wt = SIM_MAP(sim, CDMA, D_WEIGHT_RAM_TYPE, WEIGHT_RAM_TYPE,
		     SIM_ADDR(sim, CDMA, D_WEIGHT_ADDR_LOW, D_WEIGHT_ADDR_HIGH),
		     bytes);
	if (!wt)
		return false;
	count_add(n, sim_fp16_cube_count(wt, 1, 1, bytes, 0, 0, 1));
	return true;
}

bool sim_cdma_nan_status(struct nvdla_sim *sim, const struct sim_conv *cv)
{
	struct sim_fp16_count d = { 0, 0 }, w = { 0, 0 };
	bool data = cv->count_data && !cdma_reuses_data(sim), ok = true;

	if (data && cv->winograd)
		count_wino(sim, cv, &d);
	else if (data && cv->is_image)
		d = sim_image_nan_count(cv);
	else if (data)
		ok = count_direct(sim, cv, &d);
	if (ok && cv->count_weights && !cdma_reuses_weights(sim))
		ok = count_weights(sim, &w);
	if (!ok)
		return false;
	sim_set_status(sim, NVDLA_UNIT_CDMA, NVDLA_CDMA_D_NAN_INPUT_DATA_NUM,
		       d.nan);
	sim_set_status(sim, NVDLA_UNIT_CDMA, NVDLA_CDMA_D_INF_INPUT_DATA_NUM,
		       d.inf);
	sim_set_status(sim, NVDLA_UNIT_CDMA, NVDLA_CDMA_D_NAN_INPUT_WEIGHT_NUM,
		       w.nan);
	sim_set_status(sim, NVDLA_UNIT_CDMA, NVDLA_CDMA_D_INF_INPUT_WEIGHT_NUM,
		       w.inf);
	return true;
}

void sim_cdma_nan_clear(struct nvdla_sim *sim, int group)
{
	u32 *regs = sim->units[NVDLA_UNIT_CDMA].group[group];

	regs[NVDLA_CDMA_D_NAN_INPUT_DATA_NUM / 4] = 0;
	regs[NVDLA_CDMA_D_INF_INPUT_DATA_NUM / 4] = 0;
	regs[NVDLA_CDMA_D_NAN_INPUT_WEIGHT_NUM / 4] = 0;
	regs[NVDLA_CDMA_D_INF_INPUT_WEIGHT_NUM / 4] = 0;
}
