// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * PDP processor: pooling (max, min, average) of a cube from memory through
 * PDP_RDMA, or of the SDP's output on the fly.
 */
#include "engine.h"
#include "processors.h"

#define PDP_MAX_KERNEL 8
#define PDP_MAX_STRIDE 16
#define PDP_MAX_SPLIT 64
#define PDP_POOL_MIN 2

/* Reciprocals of kernel sizes 1..8 (0.16 fixed point; fp17 for fp16). */
static const u32 pdp_recip_int[PDP_MAX_KERNEL] = {
	0x10000, 0x8000, 0x5555, 0x4000, 0x3333, 0x2aaa, 0x2492, 0x2000,
};

static const u32 pdp_recip_fp[PDP_MAX_KERNEL] = {
	0x7c00, 0x7800, 0x7555, 0x7400, 0x7266, 0x7155, 0x7092, 0x7000,
};

static int pdp_validate(struct dla_engine *engine,
			const union dla_operation_container *op,
			const union dla_surface_container *surf)
{
	const struct dla_pdp_op_desc *p = &op->pdp_op;
	const struct dla_pdp_surface_desc *s = &surf->pdp_surface;
	u32 bpe = dla_bytes_per_element(p->precision);
	u64 addr;
	int ret;

	ret = dla_check_precision(engine, "pdp", p->precision);
	if (ret)
		return ret;
	if (p->pool_mode > PDP_POOL_MIN)
		return dla_reject(engine, "pdp: mode %u invalid", p->pool_mode);
	if (p->pool_width >= PDP_MAX_KERNEL || p->pool_height >= PDP_MAX_KERNEL ||
	    !p->stride_x || p->stride_x > PDP_MAX_STRIDE ||
	    !p->stride_y || p->stride_y > PDP_MAX_STRIDE)
		return dla_reject(engine, "pdp: kernel %ux%u or stride %ux%u invalid",
				  p->pool_width + 1, p->pool_height + 1,
				  p->stride_x, p->stride_y);
	if (!p->split_num || p->split_num > PDP_MAX_SPLIT)
		return dla_reject(engine, "pdp: split %u invalid", p->split_num);
	if (s->dst_data.type == DLA_MEM_HW)
		return dla_reject(engine, "pdp: output must go to memory");
	if (s->src_data.type == DLA_MEM_HW) {
		if (p->split_num != 1)
			return dla_reject(engine, "pdp: on-the-fly input cannot split");
	} else {
		ret = dla_cube_address(engine, &s->src_data, bpe, &addr);
		if (ret)
			return ret;
	}
	return dla_cube_address(engine, &s->dst_data, bpe, &addr);
}

#define PDP_W(reg, val) dla_reg_write(engine, NVDLA_UNIT_PDP, NVDLA_PDP_##reg, val)
#define RDMA_W(reg, val) \
	dla_reg_write(engine, NVDLA_UNIT_PDP_RDMA, NVDLA_PDP_RDMA_##reg, val)
#define FIELD(unit, reg, f, v) \
	(((u32)(v) << NVDLA_##unit##_##reg##_##f##_SHIFT) & \
	 NVDLA_##unit##_##reg##_##f##_MASK)

static void pdp_program_rdma(struct dla_engine *engine,
			     const struct dla_pdp_op_desc *p,
			     const struct dla_data_cube *src, u64 addr)
{
	RDMA_W(D_DATA_CUBE_IN_WIDTH, src->width - 1);
	RDMA_W(D_DATA_CUBE_IN_HEIGHT, src->height - 1);
	RDMA_W(D_DATA_CUBE_IN_CHANNEL, src->channel - 1);
	dla_reg_write_addr(engine, NVDLA_UNIT_PDP_RDMA,
			   NVDLA_PDP_RDMA_D_SRC_BASE_ADDR_LOW,
			   NVDLA_PDP_RDMA_D_SRC_BASE_ADDR_HIGH, addr);
	RDMA_W(D_SRC_LINE_STRIDE, src->line_stride);
	RDMA_W(D_SRC_SURFACE_STRIDE, src->surf_stride);
	RDMA_W(D_SRC_RAM_CFG, dla_ram_type(src));
	RDMA_W(D_DATA_FORMAT, p->precision);
	RDMA_W(D_FLYING_MODE, 1);	/* off: from memory */
	RDMA_W(D_OPERATION_MODE_CFG, p->split_num - 1);
	RDMA_W(D_POOLING_KERNEL_CFG,
	       FIELD(PDP_RDMA, D_POOLING_KERNEL_CFG, KERNEL_WIDTH, p->pool_width) |
	       FIELD(PDP_RDMA, D_POOLING_KERNEL_CFG, KERNEL_STRIDE_WIDTH,
		     p->stride_x - 1));
	RDMA_W(D_POOLING_PADDING_CFG, p->pad_left);
	RDMA_W(D_PARTIAL_WIDTH_IN,
	       FIELD(PDP_RDMA, D_PARTIAL_WIDTH_IN, PARTIAL_WIDTH_IN_FIRST,
		     p->partial_in_width_first) |
	       FIELD(PDP_RDMA, D_PARTIAL_WIDTH_IN, PARTIAL_WIDTH_IN_MID,
		     p->partial_in_width_mid) |
	       FIELD(PDP_RDMA, D_PARTIAL_WIDTH_IN, PARTIAL_WIDTH_IN_LAST,
		     p->partial_in_width_last));
}

/*
 * The trailing padding the last of @out windows of @kernel, @stride apart,
 * reaches past @before (the leading padding and the input), at most the
 * @pad asked for. Padding no window reaches changes no output, but the
 * RTL's PDP then computes the lines after the first wrong (a surplus
 * column of right padding on the nv_small RTL, docs/recording.md). A
 * split pooling keeps its own: the last split's width is not the cube's.
 */
static u32 pdp_pad_reached(u32 pad, u32 splits, u32 out, u32 stride,
			   u32 kernel, u32 before)
{
	u64 reach = (u64)(out - 1) * stride + kernel;

	if (splits != 1 || reach >= before + pad)
		return pad;
	return reach > before ? reach - before : 0;
}

static int pdp_program(struct dla_engine *engine, struct dla_group *group,
		       u8 gid)
{
	const struct dla_pdp_op_desc *p = &group->op->pdp_op;
	const struct dla_pdp_surface_desc *s = &group->surf->pdp_surface;
	const u32 *recip = p->precision == DLA_PRECISION_FP16 ? pdp_recip_fp :
			   pdp_recip_int;
	u32 bpe = dla_bytes_per_element(p->precision);
	bool flying = s->src_data.type == DLA_MEM_HW;
	u64 src = 0, dst;
	int i, ret;

	ret = dla_cube_address(engine, &s->dst_data, bpe, &dst);
	if (!ret && !flying)
		ret = dla_cube_address(engine, &s->src_data, bpe, &src);
	if (ret)
		return ret;

	dla_select_group(engine, NVDLA_UNIT_PDP, gid);
	if (!flying) {
		dla_select_group(engine, NVDLA_UNIT_PDP_RDMA, group->rdma_gid);
		pdp_program_rdma(engine, p, &s->src_data, src);
	}

	PDP_W(D_DATA_CUBE_IN_WIDTH, s->src_data.width - 1);
	PDP_W(D_DATA_CUBE_IN_HEIGHT, s->src_data.height - 1);
	PDP_W(D_DATA_CUBE_IN_CHANNEL, s->src_data.channel - 1);
	PDP_W(D_DATA_CUBE_OUT_WIDTH, s->dst_data.width - 1);
	PDP_W(D_DATA_CUBE_OUT_HEIGHT, s->dst_data.height - 1);
	PDP_W(D_DATA_CUBE_OUT_CHANNEL, s->dst_data.channel - 1);
	PDP_W(D_OPERATION_MODE_CFG,
	      FIELD(PDP, D_OPERATION_MODE_CFG, POOLING_METHOD, p->pool_mode) |
	      FIELD(PDP, D_OPERATION_MODE_CFG, FLYING_MODE, !flying) |
	      FIELD(PDP, D_OPERATION_MODE_CFG, SPLIT_NUM, p->split_num - 1));
	PDP_W(D_POOLING_KERNEL_CFG,
	      FIELD(PDP, D_POOLING_KERNEL_CFG, KERNEL_WIDTH, p->pool_width) |
	      FIELD(PDP, D_POOLING_KERNEL_CFG, KERNEL_HEIGHT, p->pool_height) |
	      FIELD(PDP, D_POOLING_KERNEL_CFG, KERNEL_STRIDE_WIDTH,
		    p->stride_x - 1) |
	      FIELD(PDP, D_POOLING_KERNEL_CFG, KERNEL_STRIDE_HEIGHT,
		    p->stride_y - 1));
	/* Below PDP_MAX_KERNEL: checked on the copy this runs from. */
	PDP_W(D_RECIP_KERNEL_WIDTH, recip[p->pool_width]);
	PDP_W(D_RECIP_KERNEL_HEIGHT, recip[p->pool_height]);
	PDP_W(D_POOLING_PADDING_CFG,
	      FIELD(PDP, D_POOLING_PADDING_CFG, PAD_LEFT, p->pad_left) |
	      FIELD(PDP, D_POOLING_PADDING_CFG, PAD_TOP, p->pad_top) |
	      FIELD(PDP, D_POOLING_PADDING_CFG, PAD_RIGHT,
		    pdp_pad_reached(p->pad_right, p->split_num,
				    s->dst_data.width, p->stride_x,
				    p->pool_width + 1,
				    s->src_data.width + p->pad_left)) |
	      FIELD(PDP, D_POOLING_PADDING_CFG, PAD_BOTTOM,
		    pdp_pad_reached(p->pad_bottom, 1, s->dst_data.height,
				    p->stride_y, p->pool_height + 1,
				    s->src_data.height + p->pad_top)));
	for (i = 0; i < DLA_PDP_PAD_VALUES; i++)
		PDP_W(D_POOLING_PADDING_VALUE_1_CFG + 4 * i, p->padding_value[i]);
	if (!flying) {
		dla_reg_write_addr(engine, NVDLA_UNIT_PDP,
				   NVDLA_PDP_D_SRC_BASE_ADDR_LOW,
				   NVDLA_PDP_D_SRC_BASE_ADDR_HIGH, src);
		PDP_W(D_SRC_LINE_STRIDE, s->src_data.line_stride);
		PDP_W(D_SRC_SURFACE_STRIDE, s->src_data.surf_stride);
	}
	dla_reg_write_addr(engine, NVDLA_UNIT_PDP, NVDLA_PDP_D_DST_BASE_ADDR_LOW,
			   NVDLA_PDP_D_DST_BASE_ADDR_HIGH, dst);
	PDP_W(D_DST_LINE_STRIDE, s->dst_data.line_stride);
	PDP_W(D_DST_SURFACE_STRIDE, s->dst_data.surf_stride);
	PDP_W(D_DST_RAM_CFG, dla_ram_type(&s->dst_data));
	PDP_W(D_DATA_FORMAT, p->precision);
	PDP_W(D_PARTIAL_WIDTH_IN,
	      FIELD(PDP, D_PARTIAL_WIDTH_IN, PARTIAL_WIDTH_IN_FIRST,
		    p->partial_in_width_first) |
	      FIELD(PDP, D_PARTIAL_WIDTH_IN, PARTIAL_WIDTH_IN_MID,
		    p->partial_in_width_mid) |
	      FIELD(PDP, D_PARTIAL_WIDTH_IN, PARTIAL_WIDTH_IN_LAST,
		    p->partial_in_width_last));
	PDP_W(D_PARTIAL_WIDTH_OUT,
	      FIELD(PDP, D_PARTIAL_WIDTH_OUT, PARTIAL_WIDTH_OUT_FIRST,
		    p->partial_width_first) |
	      FIELD(PDP, D_PARTIAL_WIDTH_OUT, PARTIAL_WIDTH_OUT_MID,
		    p->partial_width_mid) |
	      FIELD(PDP, D_PARTIAL_WIDTH_OUT, PARTIAL_WIDTH_OUT_LAST,
		    p->partial_width_last));
	return 0;
}

/* The PDP_RDMA runs only for input from memory (not flying from the SDP). */
static bool pdp_uses_rdma(const struct dla_group *group)
{
	return group->surf->pdp_surface.src_data.type != DLA_MEM_HW;
}

static int pdp_enable(struct dla_engine *engine, struct dla_group *group,
		      u8 gid)
{
	/* The group may no longer be the one the bus points at. */
	dla_select_group(engine, NVDLA_UNIT_PDP, gid);
	if (pdp_uses_rdma(group)) {
		dla_select_group(engine, NVDLA_UNIT_PDP_RDMA, group->rdma_gid);
		RDMA_W(D_OP_ENABLE, 1);
	}
	PDP_W(D_OP_ENABLE, 1);
	return 0;
}

static void pdp_stat_select(struct dla_engine *engine,
			    const struct dla_group *group, u8 gid)
{
	dla_select_group(engine, NVDLA_UNIT_PDP, gid);
	if (pdp_uses_rdma(group))
		dla_select_group(engine, NVDLA_UNIT_PDP_RDMA, group->rdma_gid);
}

static void pdp_stat_enable(struct dla_engine *engine,
			    const struct dla_group *group, u8 gid)
{
	pdp_stat_select(engine, group, gid);
	if (pdp_uses_rdma(group))
		RDMA_W(D_PERF_ENABLE, NVDLA_PDP_RDMA_D_PERF_ENABLE_DMA_EN_MASK);
	PDP_W(D_PERF_ENABLE, NVDLA_PDP_D_PERF_ENABLE_DMA_EN_MASK);
}

#define PDP_R(reg) dla_reg_read(engine, NVDLA_UNIT_PDP, NVDLA_PDP_##reg)

static void pdp_stat_read(struct dla_engine *engine,
			  const struct dla_group *group, u8 gid,
			  union dla_stat_container *stat)
{
	struct dla_pdp_stat_desc *s = &stat->pdp_stat;

	pdp_stat_select(engine, group, gid);
	s->inf_input_num = PDP_R(D_INF_INPUT_NUM);
	s->nan_input_num = PDP_R(D_NAN_INPUT_NUM);
	s->nan_output_num = PDP_R(D_NAN_OUTPUT_NUM);
	s->write_stall = PDP_R(D_PERF_WRITE_STALL);
}

const struct dla_processor_ops dla_pdp_ops = {
	.name = "pdp",
	.groups = 2,
	.pointer_unit = NVDLA_UNIT_PDP,
	.rdma_unit = NVDLA_UNIT_PDP_RDMA,
	.uses_rdma = pdp_uses_rdma,
	.done_bits = {
		NVDLA_GLB_S_INTR_STATUS_PDP_DONE_STATUS0_MASK,
		NVDLA_GLB_S_INTR_STATUS_PDP_DONE_STATUS1_MASK,
	},
	.validate = pdp_validate,
	.program = pdp_program,
	.enable = pdp_enable,
	.stat_enable = pdp_stat_enable,
	.stat_read = pdp_stat_read,
};
