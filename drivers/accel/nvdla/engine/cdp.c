// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * CDP processor: local response normalisation across channels, with its
 * LUT loaded at program time. The LUT is one copy for both register groups,
 * so operations run one at a time.
 */
#include "engine.h"
#include "processors.h"

#define CDP_MIN_LOCAL 3
#define CDP_MAX_LOCAL 9

static int cdp_addresses(struct dla_engine *engine,
			 const struct dla_cdp_op_desc *p,
			 const struct dla_cdp_surface_desc *s, u64 *src,
			 u64 *dst)
{
	u32 bpe = dla_bytes_per_element(p->in_precision);
	int ret;

	ret = dla_check_precision(engine, "cdp", p->in_precision);
	if (ret)
		return ret;
	if (p->in_precision != p->out_precision)
		return dla_reject(engine, "cdp: precision %u to %u invalid",
				  p->in_precision, p->out_precision);
	if (p->local_size < CDP_MIN_LOCAL || p->local_size > CDP_MAX_LOCAL ||
	    !(p->local_size & 1))
		return dla_reject(engine, "cdp: local size %u invalid",
				  p->local_size);
	ret = dla_lut_check(engine, p->lut_index);
	if (!ret)
		ret = dla_cube_address(engine, &s->src_data, bpe, src);
	if (!ret)
		ret = dla_cube_address(engine, &s->dst_data, bpe, dst);
	return ret;
}

static int cdp_validate(struct dla_engine *engine,
			const union dla_operation_container *op,
			const union dla_surface_container *surf)
{
	u64 src, dst;

	return cdp_addresses(engine, &op->cdp_op, &surf->cdp_surface, &src,
			     &dst);
}

#define CDP_W(reg, val) dla_reg_write(engine, NVDLA_UNIT_CDP, NVDLA_CDP_##reg, val)
#define RDMA_W(reg, val) \
	dla_reg_write(engine, NVDLA_UNIT_CDP_RDMA, NVDLA_CDP_RDMA_##reg, val)

static int cdp_program(struct dla_engine *engine, struct dla_group *group,
		       u8 gid)
{
	const struct dla_cdp_op_desc *p = &group->op->cdp_op;
	const struct dla_cdp_surface_desc *s = &group->surf->cdp_surface;
	const struct dla_data_cube *in = &s->src_data, *out = &s->dst_data;
	const struct dla_cvt_param *ic = &p->in_cvt, *oc = &p->out_cvt;
	u64 src, dst;
	int ret;

	ret = cdp_addresses(engine, p, s, &src, &dst);
	if (!ret)
		ret = dla_lut_program(engine, NVDLA_UNIT_CDP, p->lut_index);
	if (ret)
		return ret;
	dla_select_group(engine, NVDLA_UNIT_CDP, gid);
	dla_select_group(engine, NVDLA_UNIT_CDP_RDMA, gid);

	RDMA_W(D_DATA_CUBE_WIDTH, in->width - 1);
	RDMA_W(D_DATA_CUBE_HEIGHT, in->height - 1);
	RDMA_W(D_DATA_CUBE_CHANNEL, in->channel - 1);
	dla_reg_write_addr(engine, NVDLA_UNIT_CDP_RDMA,
			   NVDLA_CDP_RDMA_D_SRC_BASE_ADDR_LOW,
			   NVDLA_CDP_RDMA_D_SRC_BASE_ADDR_HIGH, src);
	RDMA_W(D_SRC_LINE_STRIDE, in->line_stride);
	RDMA_W(D_SRC_SURFACE_STRIDE, in->surf_stride);
	RDMA_W(D_SRC_DMA_CFG, dla_ram_type(in));
	RDMA_W(D_DATA_FORMAT, p->in_precision);

	CDP_W(D_FUNC_BYPASS,
	      (p->bypass_sqsum ? NVDLA_CDP_D_FUNC_BYPASS_SQSUM_BYPASS_MASK : 0) |
	      (p->bypass_out_mul ? NVDLA_CDP_D_FUNC_BYPASS_MUL_BYPASS_MASK : 0));
	dla_reg_write_addr(engine, NVDLA_UNIT_CDP, NVDLA_CDP_D_DST_BASE_ADDR_LOW,
			   NVDLA_CDP_D_DST_BASE_ADDR_HIGH, dst);
	CDP_W(D_DST_LINE_STRIDE, out->line_stride);
	CDP_W(D_DST_SURFACE_STRIDE, out->surf_stride);
	CDP_W(D_DST_DMA_CFG, dla_ram_type(out));
	CDP_W(D_DATA_FORMAT, p->in_precision);
	CDP_W(D_LRN_CFG, (p->local_size - CDP_MIN_LOCAL) / 2);
	CDP_W(D_DATIN_OFFSET, ic->enable ? (u16)ic->offset : 0);
	CDP_W(D_DATIN_SCALE, ic->enable ? (u16)ic->scale : 1);
	CDP_W(D_DATIN_SHIFTER, ic->enable ? ic->truncate : 0);
	CDP_W(D_DATOUT_OFFSET, oc->enable ? (u32)oc->offset : 0);
	CDP_W(D_DATOUT_SCALE, oc->enable ? (u16)oc->scale : 1);
	CDP_W(D_DATOUT_SHIFTER, oc->enable ? oc->truncate : 0);
	return 0;
}

static int cdp_enable(struct dla_engine *engine, struct dla_group *group,
		      u8 gid)
{
	(void)group;
	dla_select_group(engine, NVDLA_UNIT_CDP, gid);
	dla_select_group(engine, NVDLA_UNIT_CDP_RDMA, gid);
	RDMA_W(D_OP_ENABLE, 1);
	CDP_W(D_OP_ENABLE, 1);
	return 0;
}

static void cdp_stat_enable(struct dla_engine *engine,
			    const struct dla_group *group, u8 gid)
{
	(void)group;
	dla_select_group(engine, NVDLA_UNIT_CDP, gid);
	dla_select_group(engine, NVDLA_UNIT_CDP_RDMA, gid);
	RDMA_W(D_PERF_ENABLE, NVDLA_CDP_RDMA_D_PERF_ENABLE_DMA_EN_MASK);
	CDP_W(D_PERF_ENABLE, NVDLA_CDP_D_PERF_ENABLE_DMA_EN_MASK |
	      NVDLA_CDP_D_PERF_ENABLE_LUT_EN_MASK);
}

#define CDP_R(reg) dla_reg_read(engine, NVDLA_UNIT_CDP, NVDLA_CDP_##reg)

static void cdp_stat_read(struct dla_engine *engine,
			  const struct dla_group *group, u8 gid,
			  union dla_stat_container *stat)
{
	struct dla_cdp_stat_desc *s = &stat->cdp_stat;

	(void)group;
	dla_select_group(engine, NVDLA_UNIT_CDP, gid);
	s->nan_input_num = CDP_R(D_NAN_INPUT_NUM);
	s->inf_input_num = CDP_R(D_INF_INPUT_NUM);
	s->nan_output_num = CDP_R(D_NAN_OUTPUT_NUM);
	s->write_stall = CDP_R(D_PERF_WRITE_STALL);
	s->lut_uflow = CDP_R(D_PERF_LUT_UFLOW);
	s->lut_oflow = CDP_R(D_PERF_LUT_OFLOW);
	s->lut_hybrid = CDP_R(D_PERF_LUT_HYBRID);
	s->lut_le_hit = CDP_R(D_PERF_LUT_LE_HIT);
	s->lut_lo_hit = CDP_R(D_PERF_LUT_LO_HIT);
	s->saturation_count = CDP_R(D_OUT_SATURATION);
}

const struct dla_processor_ops dla_cdp_ops = {
	.name = "cdp",
	.groups = 1,
	.pointer_unit = NVDLA_UNIT_CDP,
	.done_bits = {
		NVDLA_GLB_S_INTR_STATUS_CDP_DONE_STATUS0_MASK,
		NVDLA_GLB_S_INTR_STATUS_CDP_DONE_STATUS1_MASK,
	},
	.validate = cdp_validate,
	.program = cdp_program,
	.enable = cdp_enable,
	.stat_enable = cdp_stat_enable,
	.stat_read = cdp_stat_read,
};
