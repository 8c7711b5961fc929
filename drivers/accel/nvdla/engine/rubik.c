// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * RUBIK processor: data reshaping without arithmetic. Contract (the second
 * half of a deconvolution), split (feature cube to planes) and merge
 * (planes to a feature cube).
 */
#include "engine.h"
#include "processors.h"

enum { RUBIK_CONTRACT, RUBIK_SPLIT, RUBIK_MERGE };

#define RUBIK_MAX_STRIDE 32
#define RUBIK_PLANE_ALIGN 32

/* Feature-format sides are cubes; plane sides are checked by their size. */
static int rubik_side(struct dla_engine *engine, const struct dla_data_cube *d,
		      bool planes, u32 bpe, u64 *addr)
{
	if (!planes)
		return dla_cube_address(engine, d, bpe, addr);
	if (d->type > DLA_MEM_CV || !d->plane_stride ||
	    d->plane_stride % RUBIK_PLANE_ALIGN)
		return dla_reject(engine, "rubik: planes need a 32-byte aligned stride");
	return dla_dma_range(engine, d->address, d->offset, d->size, addr);
}

static int rubik_addresses(struct dla_engine *engine,
			   const struct dla_rubik_op_desc *p,
			   const struct dla_rubik_surface_desc *s, u64 *src,
			   u64 *dst)
{
	u32 bpe = dla_bytes_per_element(p->precision);
	int ret;

	ret = dla_check_precision(engine, "rubik", p->precision);
	if (ret)
		return ret;
	if (p->mode > RUBIK_MERGE || !p->stride_x || p->stride_x > RUBIK_MAX_STRIDE ||
	    !p->stride_y || p->stride_y > RUBIK_MAX_STRIDE)
		return dla_reject(engine, "rubik: mode %u, stride %ux%u invalid",
				  p->mode, p->stride_x, p->stride_y);
	ret = rubik_side(engine, &s->src_data, p->mode == RUBIK_MERGE, bpe, src);
	if (!ret)
		ret = rubik_side(engine, &s->dst_data, p->mode == RUBIK_SPLIT, bpe,
				 dst);
	return ret;
}

static int rubik_validate(struct dla_engine *engine,
			  const union dla_operation_container *op,
			  const union dla_surface_container *surf)
{
	u64 src, dst;

	return rubik_addresses(engine, &op->rubik_op, &surf->rubik_surface,
			       &src, &dst);
}

#define RBK_W(reg, val) dla_reg_write(engine, NVDLA_UNIT_RBK, NVDLA_RBK_##reg, val)
#define FIELD(reg, f, v) \
	(((u32)(v) << NVDLA_RBK_##reg##_##f##_SHIFT) & NVDLA_RBK_##reg##_##f##_MASK)

static int rubik_program(struct dla_engine *engine, struct dla_group *group,
			 u8 gid)
{
	const struct dla_rubik_op_desc *p = &group->op->rubik_op;
	const struct dla_rubik_surface_desc *s = &group->surf->rubik_surface;
	const struct dla_data_cube *in = &s->src_data, *out = &s->dst_data;
	u32 atom = engine->config->atom_size;
	u32 out_surfaces = (out->channel * dla_bytes_per_element(p->precision) +
			    atom - 1) / atom;
	u64 src, dst;
	int ret;

	ret = rubik_addresses(engine, p, s, &src, &dst);
	if (ret)
		return ret;
	dla_select_group(engine, NVDLA_UNIT_RBK, gid);
	RBK_W(D_MISC_CFG, FIELD(D_MISC_CFG, RUBIK_MODE, p->mode) |
			  FIELD(D_MISC_CFG, IN_PRECISION, p->precision));
	RBK_W(D_DAIN_RAM_TYPE, dla_ram_type(in));
	RBK_W(D_DATAIN_SIZE_0, FIELD(D_DATAIN_SIZE_0, DATAIN_WIDTH, in->width - 1) |
			       FIELD(D_DATAIN_SIZE_0, DATAIN_HEIGHT, in->height - 1));
	RBK_W(D_DATAIN_SIZE_1, in->channel - 1);
	dla_reg_write_addr(engine, NVDLA_UNIT_RBK, NVDLA_RBK_D_DAIN_ADDR_LOW,
			   NVDLA_RBK_D_DAIN_ADDR_HIGH, src);
	RBK_W(D_DAIN_LINE_STRIDE, in->line_stride);
	RBK_W(D_DAIN_SURF_STRIDE, in->surf_stride);
	RBK_W(D_DAIN_PLANAR_STRIDE, in->plane_stride);
	RBK_W(D_DAOUT_RAM_TYPE, dla_ram_type(out));
	RBK_W(D_DATAOUT_SIZE_1, out->channel - 1);
	dla_reg_write_addr(engine, NVDLA_UNIT_RBK, NVDLA_RBK_D_DAOUT_ADDR_LOW,
			   NVDLA_RBK_D_DAOUT_ADDR_HIGH, dst);
	RBK_W(D_DAOUT_LINE_STRIDE, out->line_stride);
	RBK_W(D_DAOUT_SURF_STRIDE, out->surf_stride);
	RBK_W(D_DAOUT_PLANAR_STRIDE, out->plane_stride);
	/* Contract: input surface groups and output line groups. */
	RBK_W(D_CONTRACT_STRIDE_0, out_surfaces * in->surf_stride);
	RBK_W(D_CONTRACT_STRIDE_1, p->stride_y * out->line_stride);
	RBK_W(D_DECONV_STRIDE,
	      FIELD(D_DECONV_STRIDE, DECONV_X_STRIDE, p->stride_x - 1) |
	      FIELD(D_DECONV_STRIDE, DECONV_Y_STRIDE, p->stride_y - 1));
	return 0;
}

static int rubik_enable(struct dla_engine *engine, struct dla_group *group,
			u8 gid)
{
	(void)group;
	dla_select_group(engine, NVDLA_UNIT_RBK, gid);
	RBK_W(D_OP_ENABLE, 1);
	return 0;
}

static void rubik_stat_enable(struct dla_engine *engine,
			      const struct dla_group *group, u8 gid)
{
	(void)group;
	dla_select_group(engine, NVDLA_UNIT_RBK, gid);
	RBK_W(D_PERF_ENABLE, NVDLA_RBK_D_PERF_ENABLE_PERF_EN_MASK);
}

static void rubik_stat_read(struct dla_engine *engine,
			    const struct dla_group *group, u8 gid,
			    union dla_stat_container *stat)
{
	(void)group;
	dla_select_group(engine, NVDLA_UNIT_RBK, gid);
	stat->rubik_stat.read_stall =
		dla_reg_read(engine, NVDLA_UNIT_RBK, NVDLA_RBK_D_PERF_READ_STALL);
	stat->rubik_stat.write_stall =
		dla_reg_read(engine, NVDLA_UNIT_RBK, NVDLA_RBK_D_PERF_WRITE_STALL);
}

const struct dla_processor_ops dla_rubik_ops = {
	.name = "rubik",
	.groups = 2,
	.pointer_unit = NVDLA_UNIT_RBK,
	.done_bits = {
		NVDLA_GLB_S_INTR_STATUS_RUBIK_DONE_STATUS0_MASK,
		NVDLA_GLB_S_INTR_STATUS_RUBIK_DONE_STATUS1_MASK,
	},
	.validate = rubik_validate,
	.program = rubik_program,
	.enable = rubik_enable,
	.stat_enable = rubik_stat_enable,
	.stat_read = rubik_stat_read,
};
