// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Convolution processor: CDMA (fetch), CSC (sequencing), CMAC_A/B and CACC,
 * whose output streams into the SDP operation fused with it. The CDMA's
 * data and weight done interrupts are events of their own.
 */
#include <nvdla/pixel_formats.h>

#include "engine.h"
#include "processors.h"

#define CONV_MAX_STRIDE 8

/* The input precision of pixels of @layout: fp16, or integers of their width. */
static u8 conv_pixel_precision(const struct nvdla_pixel_layout *layout)
{
	if (layout->fp16)
		return DLA_PRECISION_FP16;
	return layout->bits == 8 ? DLA_PRECISION_INT8 : DLA_PRECISION_INT16;
}

/* The input cube's addresses: a feature cube, or an image of 1 or 2 planes. */
static int conv_input_address(struct dla_engine *engine,
			      const struct dla_conv_op_desc *p,
			      const struct dla_conv_surface_desc *s, u64 *src,
			      u64 *uv)
{
	const struct nvdla_pixel_layout *layout;

	*uv = 0;
	if (p->data_format == NVDLA_DATA_FORMAT_FEATURE && p->in_precision != p->out_precision)
		return dla_reject(engine, "conv: %s feature input into %s: only pixels convert",
				  dla_precision_name(p->in_precision),
				  dla_precision_name(p->out_precision));
	if (p->data_format == NVDLA_DATA_FORMAT_FEATURE)
		return dla_cube_address(engine, &s->src_data,
					dla_bytes_per_element(p->in_precision),
					src);
	layout = nvdla_pixel_layout(p->data_format);
	if (!layout)
		return dla_reject(engine, "conv: data format %u invalid",
				  p->data_format);
	if (conv_pixel_precision(layout) != p->in_precision)
		return dla_reject(engine,
				  "conv input: pixel format %u holds %s, not %s",
				  p->data_format,
				  dla_precision_name(conv_pixel_precision(layout)),
				  dla_precision_name(p->in_precision));
	if (p->in_precision != p->out_precision && !p->in_cvt.enable)
		return dla_reject(engine,
				  "conv: %s pixels into %s need the input converter",
				  dla_precision_name(p->in_precision),
				  dla_precision_name(p->out_precision));
	return dla_image_address(engine, &s->src_data, layout, s->offset_u,
				 s->in_line_uv_stride, src, uv);
}

static int conv_addresses(struct dla_engine *engine,
			  const struct dla_conv_op_desc *p,
			  const struct dla_conv_surface_desc *s, u64 *src,
			  u64 *uv, u64 *wt)
{
	int ret;

	ret = dla_check_precision(engine, "conv input", p->in_precision);
	if (!ret)
		ret = dla_check_precision(engine, "conv output", p->out_precision);
	if (ret)
		return ret;
	if (p->conv_mode > 1)
		return dla_reject(engine, "conv: mode %u invalid", p->conv_mode);
	if (p->conv_mode && !engine->config->winograd)
		return dla_reject(engine, "conv: Winograd mode unsupported here");
	if (!p->conv_stride_x || p->conv_stride_x > CONV_MAX_STRIDE ||
	    !p->conv_stride_y || p->conv_stride_y > CONV_MAX_STRIDE ||
	    !p->dilation_x || !p->dilation_y || !p->batch)
		return dla_reject(engine, "conv: stride %ux%u, dilation %ux%u or batch %u invalid",
				  p->conv_stride_x, p->conv_stride_y,
				  p->dilation_x, p->dilation_y, p->batch);
	if (p->weight_format && !engine->config->weight_compress)
		return dla_reject(engine, "conv: compressed weights unsupported here");
	if (!p->kernel_width_csc || !p->kernel_height_csc ||
	    !p->kernel_channel_csc || !s->dst_data.channel)
		return dla_reject(engine, "conv: empty kernel");
	if (s->dst_data.type != DLA_MEM_HW)
		return dla_reject(engine, "conv: output must stream into the SDP");
	ret = conv_input_address(engine, p, s, src, uv);
	if (!ret && s->weight_data.type > DLA_MEM_CV)
		ret = dla_reject(engine, "conv: weights not in memory");
	if (!ret)
		ret = dla_dma_range(engine, s->weight_data.address,
				    s->weight_data.offset, s->weight_data.size, wt);
	return ret;
}

static int conv_validate(struct dla_engine *engine,
			 const union dla_operation_container *op,
			 const union dla_surface_container *surf)
{
	u64 src, uv, wt;
	int ret;

	ret = conv_addresses(engine, &op->conv_op, &surf->conv_surface, &src,
			     &uv, &wt);
	return ret ? ret : dla_cbuf_validate(engine, &op->conv_op,
					     &surf->conv_surface);
}

#define CDMA_W(reg, val) dla_reg_write(engine, NVDLA_UNIT_CDMA, NVDLA_CDMA_##reg, val)
#define CSC_W(reg, val) dla_reg_write(engine, NVDLA_UNIT_CSC, NVDLA_CSC_##reg, val)
#define CACC_W(reg, val) dla_reg_write(engine, NVDLA_UNIT_CACC, NVDLA_CACC_##reg, val)
#define FIELD(unit, reg, f, v) \
	(((u32)(v) << NVDLA_##unit##_##reg##_##f##_SHIFT) & \
	 NVDLA_##unit##_##reg##_##f##_MASK)

static const enum nvdla_unit conv_units[] = {
	NVDLA_UNIT_CACC, NVDLA_UNIT_CMAC_A, NVDLA_UNIT_CMAC_B, NVDLA_UNIT_CSC,
	NVDLA_UNIT_CDMA,
};

static void conv_select(struct dla_engine *engine, u8 gid)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(conv_units); i++)
		dla_select_group(engine, conv_units[i], gid);
}

/*
 * D_MISC_CFG of the CDMA (@in: the input's precision) or the CSC (@in: the
 * processing precision, which the CDMA hands on): the pipeline processes
 * in the operation's output precision, into which the CDMA's input
 * converter turns pixels.
 */
static u32 conv_misc(const struct dla_conv_op_desc *p, u8 in)
{
	return FIELD(CDMA, D_MISC_CFG, CONV_MODE, p->conv_mode) |
	       FIELD(CDMA, D_MISC_CFG, IN_PRECISION, in) |
	       FIELD(CDMA, D_MISC_CFG, PROC_PRECISION, p->out_precision) |
	       FIELD(CDMA, D_MISC_CFG, DATA_REUSE, p->data_reuse) |
	       FIELD(CDMA, D_MISC_CFG, WEIGHT_REUSE, p->weight_reuse) |
	       FIELD(CDMA, D_MISC_CFG, SKIP_DATA_RLS, p->skip_data_rls) |
	       FIELD(CDMA, D_MISC_CFG, SKIP_WEIGHT_RLS, p->skip_weight_rls);
}

/*
 * Whether the input's lines, and its surfaces, follow each other with no
 * gap: the CDMA fetches a packed cube in longer bursts, and the hardware
 * expects these flags to agree with the strides.
 */
static u32 conv_dain_map(const struct dla_data_cube *in, u32 atom)
{
	u64 line = (u64)in->width * atom;

	return FIELD(CDMA, D_DAIN_MAP, LINE_PACKED, in->line_stride == line) |
	       FIELD(CDMA, D_DAIN_MAP, SURF_PACKED,
		     in->surf_stride == line * in->height);
}

/*
 * D_BANK of the CDMA and the CSC (the same layout): the fields are as wide
 * as the configuration's bank count needs, 5 bits on the 32-bank ones
 * where nv_full's register description has 4; validation keeps the
 * counts within the buffer.
 */
static u32 conv_bank(const struct dla_engine *engine,
		     const struct dla_conv_op_desc *p)
{
	u32 mask = engine->config->cbuf.banks - 1;

	return ((p->data_bank - 1u) & mask) <<
	       NVDLA_CDMA_D_BANK_DATA_BANK_SHIFT |
	       ((p->weight_bank - 1u) & mask) <<
	       NVDLA_CDMA_D_BANK_WEIGHT_BANK_SHIFT;
}

static void conv_program_cdma(struct dla_engine *engine,
			      const struct dla_conv_op_desc *p,
			      const struct dla_conv_surface_desc *s, u64 src,
			      u64 uv, u64 wt)
{
	const struct dla_data_cube *in = &s->src_data;
	bool image = p->data_format != NVDLA_DATA_FORMAT_FEATURE;

	CDMA_W(D_MISC_CFG, conv_misc(p, p->in_precision));
	CDMA_W(D_DATAIN_FORMAT,
	       FIELD(CDMA, D_DATAIN_FORMAT, DATAIN_FORMAT, image) |
	       FIELD(CDMA, D_DATAIN_FORMAT, PIXEL_FORMAT, image ? p->data_format : 0) |
	       FIELD(CDMA, D_DATAIN_FORMAT, PIXEL_MAPPING, p->pixel_mapping) |
	       FIELD(CDMA, D_DATAIN_FORMAT, PIXEL_SIGN_OVERRIDE,
		     p->pixel_override));
	CDMA_W(D_DATAIN_SIZE_0,
	       FIELD(CDMA, D_DATAIN_SIZE_0, DATAIN_WIDTH, in->width - 1) |
	       FIELD(CDMA, D_DATAIN_SIZE_0, DATAIN_HEIGHT, in->height - 1));
	CDMA_W(D_DATAIN_SIZE_1, in->channel - 1);
	CDMA_W(D_DATAIN_SIZE_EXT_0,
	       FIELD(CDMA, D_DATAIN_SIZE_EXT_0, DATAIN_WIDTH_EXT,
		     p->input_width_csc - 1) |
	       FIELD(CDMA, D_DATAIN_SIZE_EXT_0, DATAIN_HEIGHT_EXT,
		     p->input_height_csc - 1));
	CDMA_W(D_DAIN_RAM_TYPE, dla_ram_type(in));
	dla_reg_write_addr(engine, NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DAIN_ADDR_LOW_0,
			   NVDLA_CDMA_D_DAIN_ADDR_HIGH_0, src);
	dla_reg_write_addr(engine, NVDLA_UNIT_CDMA, NVDLA_CDMA_D_DAIN_ADDR_LOW_1,
			   NVDLA_CDMA_D_DAIN_ADDR_HIGH_1, uv);
	CDMA_W(D_LINE_STRIDE, in->line_stride);
	CDMA_W(D_LINE_UV_STRIDE, s->in_line_uv_stride);
	CDMA_W(D_SURF_STRIDE, in->surf_stride);
	CDMA_W(D_DAIN_MAP, conv_dain_map(in, engine->config->atom_size));
	CDMA_W(D_BATCH_NUMBER, p->batch - 1);
	CDMA_W(D_BATCH_STRIDE, p->batch_stride);
	CDMA_W(D_ENTRY_PER_SLICE, p->entry_per_slice - 1);
	CDMA_W(D_FETCH_GRAIN, p->fetch_grain - 1);
	CDMA_W(D_WEIGHT_FORMAT, p->weight_format);
	CDMA_W(D_WEIGHT_SIZE_0, p->bytes_per_kernel - 1);
	CDMA_W(D_WEIGHT_SIZE_1, s->dst_data.channel - 1);
	CDMA_W(D_WEIGHT_RAM_TYPE, dla_ram_type(&s->weight_data));
	dla_reg_write_addr(engine, NVDLA_UNIT_CDMA, NVDLA_CDMA_D_WEIGHT_ADDR_LOW,
			   NVDLA_CDMA_D_WEIGHT_ADDR_HIGH, wt);
	CDMA_W(D_WEIGHT_BYTES, s->weight_data.size);
	CDMA_W(D_MEAN_FORMAT, p->mean_format);
	CDMA_W(D_MEAN_GLOBAL_0, (u16)p->mean_ry | (u32)(u16)p->mean_gu << 16);
	CDMA_W(D_MEAN_GLOBAL_1, (u16)p->mean_bv | (u32)(u16)p->mean_ax << 16);
	CDMA_W(D_CVT_CFG, FIELD(CDMA, D_CVT_CFG, CVT_EN, p->in_cvt.enable) |
			  FIELD(CDMA, D_CVT_CFG, CVT_TRUNCATE, p->in_cvt.truncate));
	CDMA_W(D_CVT_OFFSET, (u16)p->in_cvt.offset);
	CDMA_W(D_CVT_SCALE, (u16)p->in_cvt.scale);
	CDMA_W(D_CONV_STRIDE,
	       FIELD(CDMA, D_CONV_STRIDE, CONV_X_STRIDE, p->conv_stride_x - 1) |
	       FIELD(CDMA, D_CONV_STRIDE, CONV_Y_STRIDE, p->conv_stride_y - 1));
	CDMA_W(D_ZERO_PADDING,
	       FIELD(CDMA, D_ZERO_PADDING, PAD_LEFT, p->pad_x_left) |
	       FIELD(CDMA, D_ZERO_PADDING, PAD_RIGHT, p->pad_x_right) |
	       FIELD(CDMA, D_ZERO_PADDING, PAD_TOP, p->pad_y_top) |
	       FIELD(CDMA, D_ZERO_PADDING, PAD_BOTTOM, p->pad_y_bottom));
	CDMA_W(D_ZERO_PADDING_VALUE, (u16)p->pad_val);
	CDMA_W(D_BANK, conv_bank(engine, p));
}

static void conv_program_csc(struct dla_engine *engine,
			     const struct dla_conv_op_desc *p,
			     const struct dla_conv_surface_desc *s)
{
	const struct dla_data_cube *out = &s->dst_data;

	CSC_W(D_MISC_CFG, conv_misc(p, p->out_precision));
	CSC_W(D_DATAIN_FORMAT, p->data_format != NVDLA_DATA_FORMAT_FEATURE);
	CSC_W(D_DATAIN_SIZE_EXT_0,
	      FIELD(CSC, D_DATAIN_SIZE_EXT_0, DATAIN_WIDTH_EXT,
		    p->input_width_csc - 1) |
	      FIELD(CSC, D_DATAIN_SIZE_EXT_0, DATAIN_HEIGHT_EXT,
		    p->input_height_csc - 1));
	CSC_W(D_DATAIN_SIZE_EXT_1, p->input_channel_csc - 1);
	CSC_W(D_BATCH_NUMBER, p->batch - 1);
	CSC_W(D_POST_Y_EXTENSION, p->post_extension);
	CSC_W(D_ENTRY_PER_SLICE, p->entry_per_slice - 1);
	CSC_W(D_WEIGHT_FORMAT, p->weight_format);
	CSC_W(D_WEIGHT_SIZE_EXT_0,
	      FIELD(CSC, D_WEIGHT_SIZE_EXT_0, WEIGHT_WIDTH_EXT,
		    p->kernel_width_csc - 1) |
	      FIELD(CSC, D_WEIGHT_SIZE_EXT_0, WEIGHT_HEIGHT_EXT,
		    p->kernel_height_csc - 1));
	CSC_W(D_WEIGHT_SIZE_EXT_1,
	      FIELD(CSC, D_WEIGHT_SIZE_EXT_1, WEIGHT_CHANNEL_EXT,
		    p->kernel_channel_csc - 1) |
	      FIELD(CSC, D_WEIGHT_SIZE_EXT_1, WEIGHT_KERNEL, out->channel - 1));
	CSC_W(D_WEIGHT_BYTES, s->weight_data.size);
	CSC_W(D_DATAOUT_SIZE_0,
	      FIELD(CSC, D_DATAOUT_SIZE_0, DATAOUT_WIDTH, out->width - 1) |
	      FIELD(CSC, D_DATAOUT_SIZE_0, DATAOUT_HEIGHT, out->height - 1));
	CSC_W(D_DATAOUT_SIZE_1, out->channel - 1);
	CSC_W(D_ATOMICS, (u32)out->width * out->height - 1);
	/* slices released after the layer, less one (0: all, as NVIDIA's) */
	CSC_W(D_RELEASE, FIELD(CSC, D_RELEASE, RLS_SLICES, p->release - 1));
	CSC_W(D_CONV_STRIDE_EXT,
	      FIELD(CSC, D_CONV_STRIDE_EXT, CONV_X_STRIDE_EXT,
		    p->conv_stride_x - 1) |
	      FIELD(CSC, D_CONV_STRIDE_EXT, CONV_Y_STRIDE_EXT,
		    p->conv_stride_y - 1));
	CSC_W(D_DILATION_EXT,
	      FIELD(CSC, D_DILATION_EXT, X_DILATION_EXT, p->dilation_x - 1) |
	      FIELD(CSC, D_DILATION_EXT, Y_DILATION_EXT, p->dilation_y - 1));
	CSC_W(D_ZERO_PADDING,
	      FIELD(CSC, D_ZERO_PADDING, PAD_LEFT, p->pad_x_left) |
	      FIELD(CSC, D_ZERO_PADDING, PAD_TOP, p->pad_y_top));
	CSC_W(D_ZERO_PADDING_VALUE, (u16)p->pad_val);
	CSC_W(D_BANK, conv_bank(engine, p));
	CSC_W(D_PRA_CFG, p->pra_truncate);
}

static int conv_program(struct dla_engine *engine, struct dla_group *group,
			u8 gid)
{
	const struct dla_conv_op_desc *p = &group->op->conv_op;
	const struct dla_conv_surface_desc *s = &group->surf->conv_surface;
	const struct dla_data_cube *out = &s->dst_data;
	u32 cmac = FIELD(CMAC_A, D_MISC_CFG, CONV_MODE, p->conv_mode) |
		   FIELD(CMAC_A, D_MISC_CFG, PROC_PRECISION, p->out_precision);
	u64 src, uv, wt;
	int ret;

	ret = conv_addresses(engine, p, s, &src, &uv, &wt);
	if (ret)
		return ret;
	conv_select(engine, gid);
	conv_program_cdma(engine, p, s, src, uv, wt);
	conv_program_csc(engine, p, s);
	dla_reg_write(engine, NVDLA_UNIT_CMAC_A, NVDLA_CMAC_A_D_MISC_CFG, cmac);
	dla_reg_write(engine, NVDLA_UNIT_CMAC_B, NVDLA_CMAC_B_D_MISC_CFG, cmac);
	CACC_W(D_MISC_CFG, cmac);
	CACC_W(D_DATAOUT_SIZE_0,
	       FIELD(CACC, D_DATAOUT_SIZE_0, DATAOUT_WIDTH, out->width - 1) |
	       FIELD(CACC, D_DATAOUT_SIZE_0, DATAOUT_HEIGHT, out->height - 1));
	CACC_W(D_DATAOUT_SIZE_1, out->channel - 1);
	CACC_W(D_BATCH_NUMBER, p->batch - 1);
	CACC_W(D_LINE_STRIDE, out->line_stride);
	CACC_W(D_SURF_STRIDE, out->surf_stride);
	/* a single output atom per surface is packed, as NVIDIA's firmware */
	CACC_W(D_DATAOUT_MAP, (out->width == 1 && out->height == 1) *
	       (NVDLA_CACC_D_DATAOUT_MAP_LINE_PACKED_MASK |
		NVDLA_CACC_D_DATAOUT_MAP_SURF_PACKED_MASK));
	/* The output converter is a plain truncation here. */
	CACC_W(D_CLIP_CFG, p->out_cvt.truncate);
	return 0;
}

/* The CDMA of a group started early (conv_enable_early) stays as it is. */
static int conv_enable(struct dla_engine *engine, struct dla_group *group,
		       u8 gid)
{
	size_t i;

	conv_select(engine, gid);
	/* Consumers first: the CDMA starts the data flowing. */
	for (i = 0; i < ARRAY_SIZE(conv_units); i++)
		if (conv_units[i] != NVDLA_UNIT_CDMA || !group->early)
			dla_reg_write(engine, conv_units[i],
				      conv_units[i] == NVDLA_UNIT_CDMA ?
				      NVDLA_CDMA_D_OP_ENABLE :
				      NVDLA_CSC_D_OP_ENABLE, 1);
	return 0;
}

/*
 * Enable the CDMA of @group while its input may still be being written,
 * when the convolution before, @before, is enabled: nv_small's CDMA
 * counts the CSC's weight releases on a clock that runs only while its
 * current group is enabled, and a count that misses the releases of the
 * layer before can stop a later layer's weights for good (docs/model.md).
 * A CDMA whose data banks differ from the layer before's waits for its
 * CSC in the bank-change handshake before it fetches anything; with the
 * same banks it would fetch at once, so it is enabled with the rest.
 * Only where the configuration allows it (cdma_early): nv_full's CDMA
 * does not wait for its CSC, whose count of the kernels fetched restarts
 * when a layer's banks change, so the CSC would wait for them forever.
 */
static bool conv_enable_early(struct dla_engine *engine,
			      const struct dla_group *group, u8 gid,
			      const struct dla_group *before)
{
	if (!engine->config->cdma_early ||
	    group->op->conv_op.data_bank == before->op->conv_op.data_bank)
		return false;
	dla_stat_arm(engine, DLA_OP_CONV, group, gid);
	dla_select_group(engine, NVDLA_UNIT_CDMA, gid);
	CDMA_W(D_OP_ENABLE, 1);
	return true;
}

static void conv_stat_enable(struct dla_engine *engine,
			     const struct dla_group *group, u8 gid)
{
	(void)group;
	conv_select(engine, gid);
	dla_reg_write(engine, NVDLA_UNIT_CDMA, NVDLA_CDMA_D_PERF_ENABLE,
		      NVDLA_CDMA_D_PERF_ENABLE_DMA_EN_MASK);
}

#define CDMA_R(reg) dla_reg_read(engine, NVDLA_UNIT_CDMA, NVDLA_CDMA_##reg)

static void conv_stat_read(struct dla_engine *engine,
			   const struct dla_group *group, u8 gid,
			   union dla_stat_container *stat)
{
	struct dla_conv_stat_desc *s = &stat->conv_stat;

	(void)group;
	conv_select(engine, gid);
	s->data_read_stall = CDMA_R(D_PERF_DAT_READ_STALL);
	s->weight_read_stall = CDMA_R(D_PERF_WT_READ_STALL);
	s->data_read_latency = CDMA_R(D_PERF_DAT_READ_LATENCY);
	s->weight_read_latency = CDMA_R(D_PERF_WT_READ_LATENCY);
	s->saturation_count = dla_reg_read(engine, NVDLA_UNIT_CACC,
					   NVDLA_CACC_D_OUT_SATURATION);
	s->nan_data_num = CDMA_R(D_NAN_INPUT_DATA_NUM);
	s->nan_weight_num = CDMA_R(D_NAN_INPUT_WEIGHT_NUM);
	s->inf_data_num = CDMA_R(D_INF_INPUT_DATA_NUM);
	s->inf_weight_num = CDMA_R(D_INF_INPUT_WEIGHT_NUM);
}

const struct dla_processor_ops dla_conv_ops = {
	.name = "conv",
	.groups = 2,
	.pointer_unit = NVDLA_UNIT_CACC,
	.done_bits = {
		NVDLA_GLB_S_INTR_STATUS_CACC_DONE_STATUS0_MASK,
		NVDLA_GLB_S_INTR_STATUS_CACC_DONE_STATUS1_MASK,
	},
	.data_bits = {
		NVDLA_GLB_S_INTR_STATUS_CDMA_DAT_DONE_STATUS0_MASK,
		NVDLA_GLB_S_INTR_STATUS_CDMA_DAT_DONE_STATUS1_MASK,
	},
	.weight_bits = {
		NVDLA_GLB_S_INTR_STATUS_CDMA_WT_DONE_STATUS0_MASK,
		NVDLA_GLB_S_INTR_STATUS_CDMA_WT_DONE_STATUS1_MASK,
	},
	.validate = conv_validate,
	.program = conv_program,
	.enable = conv_enable,
	.enable_early = conv_enable_early,
	.stat_enable = conv_stat_enable,
	.stat_read = conv_stat_read,
};
