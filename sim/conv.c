// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The convolution pipeline (CDMA, CSC, CMAC_A/B, CACC), integer
 * precisions (fp16 in conv_fp16.c): direct mode from a feature cube here, from an image in
 * cdma_image.c, with compressed weights in conv_compress.c, batches in
 * conv_batch.c, Winograd mode in winograd.c. Each output of direct mode
 * is the exact sum of input times weight over the kernel taps, taps
 * outside the input taking the CSC padding value; CACC saturates it to 48
 * bits and truncates it by CLIP_TRUNCATE with rounding. The result streams
 * into the SDP, which is where this layer's output is written. The CSC
 * copies of the geometry registers drive the arithmetic, as in the
 * hardware.
 */
#include "sim_internal.h"
#include "sim_math.h"

#define CONV_ACC_BITS 48

/* Units the layer runs on, in the order their done bits are raised. */
static const int conv_units[NVDLA_CBUF_CONV_UNITS] = {
	NVDLA_UNIT_CDMA, NVDLA_UNIT_CSC, NVDLA_UNIT_CMAC_A, NVDLA_UNIT_CMAC_B,
	NVDLA_UNIT_CACC,
};

/* Offset, in elements, of weight (k, c, r, s) in the direct layout. */
static inline u64 conv_weight_index(const struct sim_conv *cv, u32 k, u32 c,
				    u32 r, u32 s)
{
	u32 kg = cv->kernels_per_group;
	u32 group = k / kg, in_group = kg;
	u32 block = c / cv->atomic_c;
	u32 block_c = cv->c - block * cv->atomic_c;

	if (cv->k - group * kg < kg)
		in_group = cv->k - group * kg;
	if (block_c > cv->atomic_c)
		block_c = cv->atomic_c;
	return (u64)group * kg * cv->r * cv->s * cv->c +
	       (u64)block * cv->atomic_c * in_group * cv->r * cv->s +
	       (((u64)r * cv->s + s) * in_group + k % kg) * block_c +
	       c % cv->atomic_c;
}

/* The same for the other engines' files; inlined in the hot loop here. */
u64 sim_conv_weight_index(const struct sim_conv *cv, u32 k, u32 c, u32 r,
			  u32 s)
{
	return conv_weight_index(cv, k, c, r, s);
}

/*
 * Sum of products over @n channels whose data and weights both lie
 * contiguously (one data atom, one weight channel block).
 */
static s64 conv_dot(const u8 *d, const u8 *w, u32 n, u32 bpe)
{
	s64 acc = 0;
	u32 i;

	if (bpe == 1) {
		for (i = 0; i < n; i++)
			acc += (s32)(s8)d[i] * (s8)w[i];
		return acc;
	}
	for (i = 0; i < n; i++)
		acc += (s32)sim_load(d + 2 * i, 2) * sim_load(w + 2 * i, 2);
	return acc;
}

static s64 conv_weight_sum(const u8 *w, u32 n, u32 bpe)
{
	s64 acc = 0;
	u32 i;

	for (i = 0; i < n; i++)
		acc += sim_load(w + i * bpe, bpe);
	return acc;
}

/* One kernel tap over every channel, in runs contiguous on both sides. */
static s64 conv_tap(const struct sim_conv *cv, u32 k, u32 r, u32 s, s32 ix,
		    s32 iy)
{
	bool pad = ix < 0 || ix >= (s32)cv->w || iy < 0 || iy >= (s32)cv->h;
	s64 acc = 0;
	u32 c = 0, n;

	while (c < cv->c) {
		const u8 *w = cv->wt + conv_weight_index(cv, k, c, r, s) * cv->bpe;

		n = cv->lanes - c % cv->lanes;
		if (n > cv->atomic_c - c % cv->atomic_c)
			n = cv->atomic_c - c % cv->atomic_c;
		if (n > cv->c - c)
			n = cv->c - c;
		if (pad)
			acc += (s64)cv->pad_value * conv_weight_sum(w, n, cv->bpe);
		else
			acc += conv_dot(sim_conv_input_at(cv, c, ix, iy), w, n,
					cv->bpe);
		c += n;
	}
	return acc;
}

s32 sim_conv_input(const struct sim_conv *cv, u32 c, s32 ix, s32 iy)
{
	if (ix < 0 || ix >= (s32)cv->w || iy < 0 || iy >= (s32)cv->h)
		return cv->pad_value;
	return sim_load(sim_conv_input_at(cv, c, ix, iy), cv->bpe);
}

s32 sim_conv_weight_at(const struct sim_conv *cv, u64 index)
{
	if (cv->compressed)
		return sim_wcomp_weight(&cv->wcomp, index, cv->bpe);
	return sim_load(cv->wt + index * cv->bpe, cv->bpe);
}

s32 sim_conv_weight(const struct sim_conv *cv, u32 k, u32 c, u32 r, u32 s)
{
	return sim_conv_weight_at(cv, conv_weight_index(cv, k, c, r, s));
}

s64 sim_cacc_round(const struct sim_conv *cv, s64 acc)
{
	return sim_rha_shift(sim_sat(acc, CONV_ACC_BITS), cv->clip);
}

s64 sim_cacc_out(const struct sim_conv *cv, s64 acc)
{
	s64 out = sim_cacc_round(cv, acc);

	if (cv->sat_count && out != sim_sat(out, 32))
		sim_count_add(cv->sat_count, 1);
	return sim_sat(out, 32);
}

s64 sim_conv_cache_fill(const struct sim_conv *cv, u32 k, u32 x, u32 y)
{
	struct sim_conv_cache *cc = cv->cache;
	u32 block, end;

	if (cc->in != cv->in) {	/* another batch */
		memset(cc->ready, 0, (cc->h + cc->block_rows - 1) / cc->block_rows);
		cc->in = cv->in;
	}
	block = y / cc->block_rows;
	if (!cc->ready[block]) {
		end = (block + 1) * cc->block_rows;
		cc->fill(cc, cv, block * cc->block_rows, end < cc->h ? end : cc->h);
		cc->ready[block] = 1;
	}
	return sim_conv_cache_at(cc, k, x, y);
}

s64 sim_conv_compute(const struct sim_conv *cv, u32 k, u32 x, u32 y)
{
	s64 acc = 0;
	u32 r, s;

	if (cv->is_image)
		return sim_image_value(cv, k, x, y);
	if (cv->winograd)
		return sim_wino_value(cv, k, x, y);
	if (cv->compressed)
		return sim_wcomp_value(cv, k, x, y);
	for (r = 0; r < cv->r; r++)
		for (s = 0; s < cv->s; s++)
			acc += conv_tap(cv, k, r, s,
					(s32)(x * cv->stride_x + s * cv->dilation_x) -
					(s32)cv->pad_left,
					(s32)(y * cv->stride_y + r * cv->dilation_y) -
					(s32)cv->pad_top);
	return sim_cacc_out(cv, acc);
}

static u64 conv_in_extent(const struct sim_conv *cv)
{
	u32 surfaces = (cv->c + cv->lanes - 1) / cv->lanes;

	return (u64)(surfaces - 1) * cv->in_surf + (u64)(cv->h - 1) * cv->in_line +
	       (u64)cv->w * cv->lanes * cv->bpe;
}

bool sim_conv_params(struct nvdla_sim *sim, struct sim_conv *cv)
{
	u32 prec = SIM_FIELD(sim, CDMA, D_MISC_CFG, PROC_PRECISION);
	u64 weights;

	cv->sat_count = NULL;
	cv->cache = NULL;
	cv->in = NULL;		/* an image layer reads no cube */
	cv->is_image = SIM_FIELD(sim, CDMA, D_DATAIN_FORMAT, DATAIN_FORMAT) !=
		       DATAIN_FEATURE;
	if (prec > SIM_PREC_FP16 || !sim_precision_ok(sim, prec) ||
	    (!cv->is_image &&
	     prec != SIM_FIELD(sim, CDMA, D_MISC_CFG, IN_PRECISION)) ||
	    !sim_cbuf_ok(sim))
		return false;
	cv->winograd = SIM_FIELD(sim, CSC, D_MISC_CFG, CONV_MODE) !=
		       CONV_MODE_DIRECT;
	if (!cv->winograd && SIM_FIELD(sim, CDMA, D_MISC_CFG, CONV_MODE) !=
	    CONV_MODE_DIRECT)
		return false;	/* the CDMA would fetch Winograd tiles */
	/*
	 * Post-extension groups image rows; in direct mode on a cube the CSC
	 * would regroup the weights without the data. Winograd ignores it.
	 */
	if (!cv->is_image && !cv->winograd &&
	    SIM_FIELD(sim, CSC, D_POST_Y_EXTENSION, Y_EXTENSION))
		return false;
	cv->fp16 = prec == SIM_PREC_FP16;
	/* fp16 runs with plain weights only. */
	if (cv->fp16 && SIM_FIELD(sim, CDMA, D_WEIGHT_FORMAT, WEIGHT_FORMAT))
		return false;
	sim_cdma_nan_params(sim, cv);
	cv->bpe = cv->fp16 ? 2 : prec + 1;
	cv->lanes = sim->config->atom / cv->bpe;
	cv->atomic_c = sim->config->cbuf.atomic_c;
	cv->kernels_per_group = sim->config->cbuf.atomic_k / cv->bpe;
	cv->w = SIM_FIELD(sim, CSC, D_DATAIN_SIZE_EXT_0, DATAIN_WIDTH_EXT) + 1;
	cv->h = SIM_FIELD(sim, CSC, D_DATAIN_SIZE_EXT_0, DATAIN_HEIGHT_EXT) + 1;
	cv->c = SIM_FIELD(sim, CSC, D_DATAIN_SIZE_EXT_1, DATAIN_CHANNEL_EXT) + 1;
	cv->s = SIM_FIELD(sim, CSC, D_WEIGHT_SIZE_EXT_0, WEIGHT_WIDTH_EXT) + 1;
	cv->r = SIM_FIELD(sim, CSC, D_WEIGHT_SIZE_EXT_0, WEIGHT_HEIGHT_EXT) + 1;
	cv->k = SIM_FIELD(sim, CSC, D_WEIGHT_SIZE_EXT_1, WEIGHT_KERNEL) + 1;
	cv->stride_x = SIM_FIELD(sim, CSC, D_CONV_STRIDE_EXT, CONV_X_STRIDE_EXT) + 1;
	cv->stride_y = SIM_FIELD(sim, CSC, D_CONV_STRIDE_EXT, CONV_Y_STRIDE_EXT) + 1;
	cv->dilation_x = SIM_FIELD(sim, CSC, D_DILATION_EXT, X_DILATION_EXT) + 1;
	cv->dilation_y = SIM_FIELD(sim, CSC, D_DILATION_EXT, Y_DILATION_EXT) + 1;
	cv->pad_left = SIM_FIELD(sim, CSC, D_ZERO_PADDING, PAD_LEFT);
	cv->pad_top = SIM_FIELD(sim, CSC, D_ZERO_PADDING, PAD_TOP);
	cv->pad_value = sim_sext(SIM_FIELD(sim, CSC, D_ZERO_PADDING_VALUE,
					   PAD_VALUE), cv->bpe * 8);
	cv->clip = SIM_FIELD(sim, CACC, D_CLIP_CFG, CLIP_TRUNCATE);

	if (cv->is_image)	/* the kernel's channels after pre-extension */
		cv->c = SIM_FIELD(sim, CSC, D_WEIGHT_SIZE_EXT_1,
				  WEIGHT_CHANNEL_EXT) + 1;
	weights = (u64)cv->k * cv->r * cv->s * cv->c;
	cv->compressed = SIM_FIELD(sim, CDMA, D_WEIGHT_FORMAT, WEIGHT_FORMAT);
	if (cv->compressed && !sim_wcomp_params(sim, cv, weights))
		return false;
	/* The CSC expands what the CDMA calls compressed, nothing else. */
	if (!cv->compressed && SIM_FIELD(sim, CSC, D_WEIGHT_FORMAT, WEIGHT_FORMAT))
		return false;
	cv->wt = cv->compressed ? cv->wcomp.packed :
		 SIM_MAP(sim, CDMA, D_WEIGHT_RAM_TYPE, WEIGHT_RAM_TYPE,
			 SIM_ADDR(sim, CDMA, D_WEIGHT_ADDR_LOW,
				  D_WEIGHT_ADDR_HIGH), weights * cv->bpe);
	if (!sim_conv_batch_params(sim, cv))
		return false;
	if (cv->winograd)
		return cv->wt && sim_wino_params(sim, cv);
	if (cv->is_image)
		return cv->wt && sim_image_params(sim, cv);
	cv->in_line = SIM_STRIDE(sim, CDMA, D_LINE_STRIDE);
	cv->in_surf = SIM_STRIDE(sim, CDMA, D_SURF_STRIDE);
	cv->in_batch0 = SIM_MAP(sim, CDMA, D_DAIN_RAM_TYPE, DATAIN_RAM_TYPE,
				SIM_ADDR(sim, CDMA, D_DAIN_ADDR_LOW_0,
					 D_DAIN_ADDR_HIGH_0),
				sim_conv_batch_extent(cv, conv_in_extent(cv)));
	cv->in = cv->in_batch0;
	return cv->in && cv->wt;
}

bool sim_conv_ready(const struct nvdla_sim *sim)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(conv_units); i++)
		if (!sim_unit_ready(sim, conv_units[i]))
			return false;
	return true;
}

u8 sim_conv_enabled(const struct nvdla_sim *sim, int group)
{
	u8 n = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(conv_units); i++)
		n += sim->units[conv_units[i]].op_en[group];
	return n;
}

/* End the layer on the convolution units: data, weights, CACC done. */
void sim_conv_finish(struct nvdla_sim *sim)
{
	u8 g = sim->units[NVDLA_UNIT_CACC].consumer;
	size_t i;

	sim_cdma_remember(sim);
	sim_cbuf_finish(sim);
	for (i = 0; i < ARRAY_SIZE(conv_units); i++)
		sim_unit_finish(sim, conv_units[i]);
	sim_glb_done(sim, g ? NVDLA_GLB_S_INTR_STATUS_CDMA_DAT_DONE_STATUS1_MASK :
			      NVDLA_GLB_S_INTR_STATUS_CDMA_DAT_DONE_STATUS0_MASK);
	sim_glb_done(sim, g ? NVDLA_GLB_S_INTR_STATUS_CDMA_WT_DONE_STATUS1_MASK :
			      NVDLA_GLB_S_INTR_STATUS_CDMA_WT_DONE_STATUS0_MASK);
	sim_glb_done(sim, g ? NVDLA_GLB_S_INTR_STATUS_CACC_DONE_STATUS1_MASK :
			      NVDLA_GLB_S_INTR_STATUS_CACC_DONE_STATUS0_MASK);
}
