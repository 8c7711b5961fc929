// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * SDP processor: the X1 (BS), X2 (BN) and Y (EW) stages and the output
 * converter, with input from memory (SDP_RDMA) or from the convolution,
 * operands from the descriptor or from memory (BRDMA, NRDMA, ERDMA), and
 * output to memory or into the PDP.
 */
#include <nvdla/sdp_layout.h>

#include "engine.h"
#include "processors.h"

enum { RDMA_USE_MUL, RDMA_USE_ALU, RDMA_USE_BOTH };

static bool sdp_uses_alu(const struct dla_sdp_op *o)
{
	return o->type == SDP_TYPE_ADD || o->type == SDP_TYPE_BOTH;
}

static bool sdp_uses_mul(const struct dla_sdp_op *o)
{
	return o->type == SDP_TYPE_MUL || o->type == SDP_TYPE_BOTH;
}

/* The stage reads its operands from memory. */
static bool sdp_reads(const struct dla_sdp_op *o)
{
	return o->enable && o->type != SDP_TYPE_NONE &&
	       o->mode != SDP_MODE_PER_LAYER;
}

static int sdp_check_op(struct dla_engine *engine, const char *name,
			const struct dla_sdp_op *o,
			const struct dla_data_cube *data, u64 *addr)
{
	int ret;

	if (!o->enable)
		return 0;
	if (o->type > SDP_TYPE_BOTH || o->mode > SDP_MODE_PER_POINT ||
	    o->act > SDP_ACT_PRELU || o->alu_type > SDP_ALU_EQL ||
	    o->precision > DLA_PRECISION_FP16)
		return dla_reject(engine, "sdp %s: type %u, mode %u, act %u, precision %u invalid",
				  name, o->type, o->mode, o->act, o->precision);
	if (!sdp_reads(o))
		return 0;
	/*
	 * Every configuration's operand read DMAs take one- or two-byte
	 * data and its X and Y stages 16-bit integer operands, whatever it
	 * computes in; fp16 operands need an fp16 datapath.
	 */
	if (o->precision != DLA_PRECISION_INT16) {
		ret = dla_check_precision(engine, "sdp operand", o->precision);
		if (ret)
			return ret;
	}
	if (data->type > DLA_MEM_CV || !data->size)
		return dla_reject(engine, "sdp %s: operand data missing", name);
	return dla_dma_range(engine, data->address, data->offset, data->size,
			     addr);
}

/* The LUT the operation loads, for its Y stage's activation, or -1. */
static s16 sdp_lut(const union dla_operation_container *op)
{
	const struct dla_sdp_op *y = &op->sdp_op.y_op;

	return y->enable && y->act == SDP_ACT_LUT ? op->sdp_op.lut_index : -1;
}

/* The LUT is a step of the Y stage only; the one it names must exist. */
static int sdp_check_lut(struct dla_engine *engine,
			 const union dla_operation_container *op)
{
	const struct dla_sdp_op_desc *p = &op->sdp_op;

	if ((p->x1_op.enable && p->x1_op.act == SDP_ACT_LUT) ||
	    (p->x2_op.enable && p->x2_op.act == SDP_ACT_LUT))
		return dla_reject(engine, "sdp: LUT activation exists on y only");
	if (p->y_op.enable && p->y_op.act == SDP_ACT_LUT)
		return dla_lut_check(engine, p->lut_index);
	return 0;
}

/*
 * Y on a configuration built without it (sdp_y, nvdla/hw_configs.h): its
 * RTL would pass the data through unchanged, a silently wrong result.
 */
static int sdp_check_y(struct dla_engine *engine,
		       const struct dla_sdp_op_desc *p)
{
	if (p->y_op.enable && !engine->config->sdp_y)
		return dla_reject(engine,
				  "sdp: y (element-wise, LUT) enabled; %s has no such stage",
				  engine->config->name);
	return 0;
}

/* The processing precision of the operation (nvdla/sdp_precision.h). */
static u32 sdp_proc(const struct dla_sdp_op_desc *p)
{
	return nvdla_sdp_proc_precision(p->src_precision, p->dst_precision);
}

/*
 * The input or output cube @cube in @precision, as far as the SDP reads
 * or writes it: whole groups of its processing's lanes (int8 processing
 * takes an int16 cube 32 channels at a time).
 */
static int sdp_cube_address(struct dla_engine *engine,
			    const struct dla_sdp_op_desc *p,
			    const struct dla_data_cube *cube, u32 precision,
			    u64 *addr)
{
	u32 atom = engine->config->atom_size;
	u32 bpe = dla_bytes_per_element(precision);
	struct dla_data_cube touched = *cube;
	u32 channels = nvdla_sdp_surfaces(cube->channel, atom, sdp_proc(p),
					  bpe) * (atom / bpe);

	if (channels > 0xffff)
		return dla_reject(engine, "sdp: %u channels exceed the cube's field",
				  channels);
	touched.channel = channels;
	return dla_cube_address(engine, &touched, bpe, addr);
}

static int sdp_addresses(struct dla_engine *engine,
			 const struct dla_sdp_op_desc *p,
			 const struct dla_sdp_surface_desc *s, u64 addr[5])
{
	int ret = 0;

	if (s->src_data.type != DLA_MEM_HW)
		ret = sdp_cube_address(engine, p, &s->src_data,
				       p->src_precision, &addr[0]);
	if (!ret)
		ret = sdp_check_op(engine, "x1", &p->x1_op, &s->x1_data, &addr[1]);
	if (!ret)
		ret = sdp_check_op(engine, "x2", &p->x2_op, &s->x2_data, &addr[2]);
	if (!ret)
		ret = sdp_check_op(engine, "y", &p->y_op, &s->y_data, &addr[3]);
	if (!ret && s->dst_data.type != DLA_MEM_HW)
		ret = sdp_cube_address(engine, p, &s->dst_data,
				       p->dst_precision, &addr[4]);
	return ret;
}

/* Bytes of one element's operands of stage @o (BRDMA_DATA_USE, _SIZE). */
static u32 sdp_operand_elem(const struct dla_sdp_op *o)
{
	return (o->type == SDP_TYPE_BOTH ? 2 : 1) *
	       (o->precision != DLA_PRECISION_INT8 ? 2 : 1);
}

/* Y compares (EQL): the SDP writes nothing. */
static bool sdp_compares(const struct dla_sdp_op_desc *p)
{
	return p->y_op.enable && sdp_uses_alu(&p->y_op) &&
	       p->y_op.alu_type == SDP_ALU_EQL;
}

/*
 * A 1x1 cube's surface strides as its DMA engines move it, packed
 * (nvdla/sdp_layout.h): the engines this operation runs are those
 * sdp_program() turns on.
 */
static int sdp_check_layout(struct dla_engine *engine,
			    const struct dla_sdp_op_desc *p,
			    const struct dla_sdp_surface_desc *s)
{
	const struct dla_sdp_op *ops[3] = { &p->x1_op, &p->x2_op, &p->y_op };
	const struct dla_data_cube *data[3] = { &s->x1_data, &s->x2_data,
						&s->y_data };
	bool flying = s->src_data.type == DLA_MEM_HW;
	const struct dla_data_cube *dims = flying ? &s->dst_data : &s->src_data;
	struct nvdla_sdp_layout l = {
		.atom = engine->config->atom_size, .proc = sdp_proc(p),
		.width = dims->width, .height = dims->height,
	};
	struct nvdla_cbuf_verdict v;
	int i;

	l.on[NVDLA_SDP_STREAM_IN] = !flying;
	l.surf[NVDLA_SDP_STREAM_IN] = s->src_data.surf_stride;
	for (i = 0; i < 3; i++) {
		l.on[NVDLA_SDP_STREAM_BS + i] = sdp_reads(ops[i]);
		l.elem[NVDLA_SDP_STREAM_BS + i] = sdp_operand_elem(ops[i]);
		l.surf[NVDLA_SDP_STREAM_BS + i] = data[i]->surf_stride;
	}
	l.on[NVDLA_SDP_STREAM_OUT] = s->dst_data.type != DLA_MEM_HW &&
				     p->batch_num == 1 && !sdp_compares(p);
	l.surf[NVDLA_SDP_STREAM_OUT] = s->dst_data.surf_stride;
	if (nvdla_sdp_layout_check(&l, &v))
		return 0;
	return dla_hw_hazard(engine, &v);
}

static int sdp_validate(struct dla_engine *engine,
			const union dla_operation_container *op,
			const union dla_surface_container *surf)
{
	const struct dla_sdp_op_desc *p = &op->sdp_op;
	u64 addr[5];
	int ret;

	/* The register holds the count less one: 0 would ask for the most. */
	if (!p->batch_num)
		return dla_reject(engine, "sdp: batch_num 0");
	ret = dla_check_precision(engine, "sdp input", p->src_precision);
	if (!ret)
		ret = dla_check_precision(engine, "sdp output", p->dst_precision);
	/* Flying, the convolution's precision is the processing one. */
	if (!ret && (!nvdla_sdp_conversion_ok(p->src_precision, sdp_proc(p),
					      p->dst_precision) ||
		     (surf->sdp_surface.src_data.type == DLA_MEM_HW &&
		      sdp_proc(p) != p->src_precision)))
		return dla_reject(engine, "sdp: no conversion from precision %u to %u",
				  p->src_precision, p->dst_precision);
	if (!ret)
		ret = sdp_check_y(engine, p);
	if (!ret)
		ret = sdp_check_lut(engine, op);
	if (!ret)
		ret = sdp_addresses(engine, p, &surf->sdp_surface, addr);
	if (!ret)
		ret = sdp_check_layout(engine, p, &surf->sdp_surface);
	return ret;
}

#define SDP_W(reg, val) dla_reg_write(engine, NVDLA_UNIT_SDP, NVDLA_SDP_##reg, val)
#define RDMA_W(reg, val) \
	dla_reg_write(engine, NVDLA_UNIT_SDP_RDMA, NVDLA_SDP_RDMA_##reg, val)
#define FIELD(unit, reg, f, v) \
	(((u32)(v) << NVDLA_##unit##_##reg##_##f##_SHIFT) & \
	 NVDLA_##unit##_##reg##_##f##_MASK)

/* The registers of one operand engine and one X stage. */
struct sdp_stage_regs {
	u32 rdma_cfg, addr_low, addr_high, line, surf;	/* SDP_RDMA */
	u32 cfg, alu_cfg, alu_value, mul_cfg, mul_value; /* SDP (X stages) */
};

#define SDP_RDMA_REGS(e, d) \
	.rdma_cfg = NVDLA_SDP_RDMA_D_##e##RDMA_CFG, \
	.addr_low = NVDLA_SDP_RDMA_D_##d##_BASE_ADDR_LOW, \
	.addr_high = NVDLA_SDP_RDMA_D_##d##_BASE_ADDR_HIGH, \
	.line = NVDLA_SDP_RDMA_D_##d##_LINE_STRIDE, \
	.surf = NVDLA_SDP_RDMA_D_##d##_SURFACE_STRIDE
#define SDP_X_REGS(x) \
	.cfg = NVDLA_SDP_D_DP_##x##_CFG, \
	.alu_cfg = NVDLA_SDP_D_DP_##x##_ALU_CFG, \
	.alu_value = NVDLA_SDP_D_DP_##x##_ALU_SRC_VALUE, \
	.mul_cfg = NVDLA_SDP_D_DP_##x##_MUL_CFG, \
	.mul_value = NVDLA_SDP_D_DP_##x##_MUL_SRC_VALUE

static const struct sdp_stage_regs sdp_x1_regs = { SDP_RDMA_REGS(B, BS), SDP_X_REGS(BS) };
static const struct sdp_stage_regs sdp_x2_regs = { SDP_RDMA_REGS(N, BN), SDP_X_REGS(BN) };
static const struct sdp_stage_regs sdp_y_regs = { SDP_RDMA_REGS(E, EW) };

/* BRDMA, NRDMA or ERDMA: same field layout. */
static void sdp_program_rdma(struct dla_engine *engine,
			     const struct sdp_stage_regs *r,
			     const struct dla_sdp_op *o,
			     const struct dla_data_cube *data, u64 addr)
{
	u32 use = o->type == SDP_TYPE_BOTH ? RDMA_USE_BOTH :
		  o->type == SDP_TYPE_ADD ? RDMA_USE_ALU : RDMA_USE_MUL;

	if (!sdp_reads(o)) {
		dla_reg_write(engine, NVDLA_UNIT_SDP_RDMA, r->rdma_cfg,
			      NVDLA_SDP_RDMA_D_BRDMA_CFG_BRDMA_DISABLE_MASK);
		return;
	}
	dla_reg_write(engine, NVDLA_UNIT_SDP_RDMA, r->rdma_cfg,
		      FIELD(SDP_RDMA, D_BRDMA_CFG, BRDMA_DATA_USE, use) |
		      FIELD(SDP_RDMA, D_BRDMA_CFG, BRDMA_DATA_SIZE,
			    o->precision != DLA_PRECISION_INT8) |
		      FIELD(SDP_RDMA, D_BRDMA_CFG, BRDMA_DATA_MODE,
			    o->mode == SDP_MODE_PER_POINT) |
		      FIELD(SDP_RDMA, D_BRDMA_CFG, BRDMA_RAM_TYPE,
			    dla_ram_type(data)));
	dla_reg_write_addr(engine, NVDLA_UNIT_SDP_RDMA, r->addr_low,
			   r->addr_high, addr);
	dla_reg_write(engine, NVDLA_UNIT_SDP_RDMA, r->line, data->line_stride);
	dla_reg_write(engine, NVDLA_UNIT_SDP_RDMA, r->surf, data->surf_stride);
}

static void sdp_program_x(struct dla_engine *engine,
			  const struct sdp_stage_regs *r,
			  const struct dla_sdp_op *o)
{
	bool mem = o->mode != SDP_MODE_PER_LAYER;

	dla_reg_write(engine, NVDLA_UNIT_SDP, r->cfg,
		      FIELD(SDP, D_DP_BS_CFG, BS_BYPASS, !o->enable) |
		      FIELD(SDP, D_DP_BS_CFG, BS_ALU_BYPASS, !sdp_uses_alu(o)) |
		      FIELD(SDP, D_DP_BS_CFG, BS_ALU_ALGO, o->alu_type) |
		      FIELD(SDP, D_DP_BS_CFG, BS_MUL_BYPASS, !sdp_uses_mul(o)) |
		      FIELD(SDP, D_DP_BS_CFG, BS_MUL_PRELU,
			    o->act == SDP_ACT_PRELU) |
		      FIELD(SDP, D_DP_BS_CFG, BS_RELU_BYPASS,
			    o->act != SDP_ACT_RELU));
	dla_reg_write(engine, NVDLA_UNIT_SDP, r->alu_cfg,
		      FIELD(SDP, D_DP_BS_ALU_CFG, BS_ALU_SRC, mem) |
		      FIELD(SDP, D_DP_BS_ALU_CFG, BS_ALU_SHIFT_VALUE,
			    o->shift_value));
	dla_reg_write(engine, NVDLA_UNIT_SDP, r->alu_value, o->alu_operand);
	dla_reg_write(engine, NVDLA_UNIT_SDP, r->mul_cfg,
		      FIELD(SDP, D_DP_BS_MUL_CFG, BS_MUL_SRC, mem) |
		      FIELD(SDP, D_DP_BS_MUL_CFG, BS_MUL_SHIFT_VALUE,
			    o->truncate));
	dla_reg_write(engine, NVDLA_UNIT_SDP, r->mul_value, o->mul_operand);
}

static void sdp_program_y(struct dla_engine *engine, const struct dla_sdp_op *o)
{
	const struct dla_cvt_param *ac = &o->cvt.alu_cvt, *mc = &o->cvt.mul_cvt;
	bool mem = o->mode != SDP_MODE_PER_LAYER;

	SDP_W(D_DP_EW_CFG,
	      FIELD(SDP, D_DP_EW_CFG, EW_BYPASS, !o->enable) |
	      FIELD(SDP, D_DP_EW_CFG, EW_ALU_BYPASS, !sdp_uses_alu(o)) |
	      FIELD(SDP, D_DP_EW_CFG, EW_ALU_ALGO, o->alu_type) |
	      FIELD(SDP, D_DP_EW_CFG, EW_MUL_BYPASS, !sdp_uses_mul(o)) |
	      FIELD(SDP, D_DP_EW_CFG, EW_MUL_PRELU, o->act == SDP_ACT_PRELU) |
	      FIELD(SDP, D_DP_EW_CFG, EW_LUT_BYPASS, o->act != SDP_ACT_LUT));
	SDP_W(D_DP_EW_ALU_CFG,
	      FIELD(SDP, D_DP_EW_ALU_CFG, EW_ALU_SRC, mem) |
	      FIELD(SDP, D_DP_EW_ALU_CFG, EW_ALU_CVT_BYPASS, !ac->enable));
	SDP_W(D_DP_EW_ALU_SRC_VALUE, o->alu_operand);
	SDP_W(D_DP_EW_ALU_CVT_OFFSET_VALUE, ac->offset);
	SDP_W(D_DP_EW_ALU_CVT_SCALE_VALUE, (u16)ac->scale);
	SDP_W(D_DP_EW_ALU_CVT_TRUNCATE_VALUE, ac->truncate);
	SDP_W(D_DP_EW_MUL_CFG,
	      FIELD(SDP, D_DP_EW_MUL_CFG, EW_MUL_SRC, mem) |
	      FIELD(SDP, D_DP_EW_MUL_CFG, EW_MUL_CVT_BYPASS, !mc->enable));
	SDP_W(D_DP_EW_MUL_SRC_VALUE, o->mul_operand);
	SDP_W(D_DP_EW_MUL_CVT_OFFSET_VALUE, mc->offset);
	SDP_W(D_DP_EW_MUL_CVT_SCALE_VALUE, (u16)mc->scale);
	SDP_W(D_DP_EW_MUL_CVT_TRUNCATE_VALUE, mc->truncate);
	SDP_W(D_DP_EW_TRUNCATE_VALUE, o->truncate);
}

/* The SDP_RDMA runs for input from memory or operands read from memory. */
static bool sdp_uses_rdma(const struct dla_group *group)
{
	const struct dla_sdp_op_desc *p = &group->op->sdp_op;

	return group->surf->sdp_surface.src_data.type != DLA_MEM_HW ||
	       sdp_reads(&p->x1_op) || sdp_reads(&p->x2_op) ||
	       sdp_reads(&p->y_op);
}

static void sdp_select(struct dla_engine *engine,
		       const struct dla_group *group, u8 gid)
{
	dla_select_group(engine, NVDLA_UNIT_SDP, gid);
	if (sdp_uses_rdma(group))
		dla_select_group(engine, NVDLA_UNIT_SDP_RDMA, group->rdma_gid);
}

/* The SDP_RDMA: main input (unless flying) and the operand engines. */
static void sdp_program_rdmas(struct dla_engine *engine,
			      const struct dla_sdp_op_desc *p,
			      const struct dla_sdp_surface_desc *s,
			      const u64 addr[5])
{
	bool flying = s->src_data.type == DLA_MEM_HW;
	const struct dla_data_cube *dims = flying ? &s->dst_data : &s->src_data;
	u32 mode;

	mode = FIELD(SDP_RDMA, D_FEATURE_MODE_CFG, FLYING_MODE, flying) |
	       FIELD(SDP_RDMA, D_FEATURE_MODE_CFG, WINOGRAD, p->conv_mode) |
	       FIELD(SDP_RDMA, D_FEATURE_MODE_CFG, IN_PRECISION, p->src_precision) |
	       FIELD(SDP_RDMA, D_FEATURE_MODE_CFG, PROC_PRECISION, sdp_proc(p)) |
	       FIELD(SDP_RDMA, D_FEATURE_MODE_CFG, OUT_PRECISION,
		     p->dst_precision) |
	       FIELD(SDP_RDMA, D_FEATURE_MODE_CFG, BATCH_NUMBER,
		     p->batch_num - 1);
	RDMA_W(D_FEATURE_MODE_CFG, mode);
	RDMA_W(D_DATA_CUBE_WIDTH, dims->width - 1);
	RDMA_W(D_DATA_CUBE_HEIGHT, dims->height - 1);
	RDMA_W(D_DATA_CUBE_CHANNEL, dims->channel - 1);
	if (!flying) {
		dla_reg_write_addr(engine, NVDLA_UNIT_SDP_RDMA,
				   NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_LOW,
				   NVDLA_SDP_RDMA_D_SRC_BASE_ADDR_HIGH, addr[0]);
		RDMA_W(D_SRC_LINE_STRIDE, s->src_data.line_stride);
		RDMA_W(D_SRC_SURFACE_STRIDE, s->src_data.surf_stride);
		RDMA_W(D_SRC_DMA_CFG, dla_ram_type(&s->src_data));
	}
	sdp_program_rdma(engine, &sdp_x1_regs, &p->x1_op, &s->x1_data, addr[1]);
	sdp_program_rdma(engine, &sdp_x2_regs, &p->x2_op, &s->x2_data, addr[2]);
	sdp_program_rdma(engine, &sdp_y_regs, &p->y_op, &s->y_data, addr[3]);
}

/*
 * Load the operation's LUT unless the other group's operation, which the
 * scheduler lets hold only the same one, has loaded it already.
 */
static int sdp_load_lut(struct dla_engine *engine,
			const struct dla_group *group, u8 gid)
{
	const struct dla_group *other =
		&engine->processors[DLA_OP_SDP].groups[gid ^ 1];
	s16 lut = sdp_lut(group->op);

	if (lut == -1 || (other->loaded && sdp_lut(other->op) == lut))
		return 0;
	return dla_lut_program(engine, NVDLA_UNIT_SDP, lut);
}

static int sdp_program(struct dla_engine *engine, struct dla_group *group,
		       u8 gid)
{
	const struct dla_sdp_op_desc *p = &group->op->sdp_op;
	const struct dla_sdp_surface_desc *s = &group->surf->sdp_surface;
	bool flying = s->src_data.type == DLA_MEM_HW;
	bool to_pdp = s->dst_data.type == DLA_MEM_HW;
	const struct dla_data_cube *dims = flying ? &s->dst_data : &s->src_data;
	u64 addr[5];
	int ret;

	ret = sdp_addresses(engine, p, s, addr);
	if (!ret)
		ret = sdp_load_lut(engine, group, gid);
	if (ret)
		return ret;
	sdp_select(engine, group, gid);

	/* An idle RDMA keeps its registers: another operation may own them. */
	if (sdp_uses_rdma(group))
		sdp_program_rdmas(engine, p, s, addr);

	SDP_W(D_DATA_CUBE_WIDTH, dims->width - 1);
	SDP_W(D_DATA_CUBE_HEIGHT, dims->height - 1);
	SDP_W(D_DATA_CUBE_CHANNEL, dims->channel - 1);
	if (!to_pdp) {
		dla_reg_write_addr(engine, NVDLA_UNIT_SDP,
				   NVDLA_SDP_D_DST_BASE_ADDR_LOW,
				   NVDLA_SDP_D_DST_BASE_ADDR_HIGH, addr[4]);
		SDP_W(D_DST_LINE_STRIDE, s->dst_data.line_stride);
		SDP_W(D_DST_SURFACE_STRIDE, s->dst_data.surf_stride);
		SDP_W(D_DST_DMA_CFG, dla_ram_type(&s->dst_data));
	}
	SDP_W(D_DST_BATCH_STRIDE, p->batch_stride);
	sdp_program_x(engine, &sdp_x1_regs, &p->x1_op);
	sdp_program_x(engine, &sdp_x2_regs, &p->x2_op);
	sdp_program_y(engine, &p->y_op);
	SDP_W(D_FEATURE_MODE_CFG,
	      FIELD(SDP, D_FEATURE_MODE_CFG, FLYING_MODE, flying) |
	      FIELD(SDP, D_FEATURE_MODE_CFG, OUTPUT_DST, to_pdp) |
	      FIELD(SDP, D_FEATURE_MODE_CFG, WINOGRAD, p->conv_mode) |
	      FIELD(SDP, D_FEATURE_MODE_CFG, BATCH_NUMBER,
		    p->batch_num - 1));
	SDP_W(D_DATA_FORMAT,
	      FIELD(SDP, D_DATA_FORMAT, PROC_PRECISION, sdp_proc(p)) |
	      FIELD(SDP, D_DATA_FORMAT, OUT_PRECISION, p->dst_precision));
	SDP_W(D_CVT_OFFSET, p->out_cvt.enable ? p->out_cvt.offset : 0);
	SDP_W(D_CVT_SCALE, p->out_cvt.enable ? (u16)p->out_cvt.scale : 1);
	SDP_W(D_CVT_SHIFT, p->out_cvt.enable ? p->out_cvt.truncate : 0);
	return 0;
}

static int sdp_enable(struct dla_engine *engine, struct dla_group *group,
		      u8 gid)
{
	sdp_select(engine, group, gid);
	if (sdp_uses_rdma(group))
		RDMA_W(D_OP_ENABLE, 1);
	SDP_W(D_OP_ENABLE, 1);
	return 0;
}

static void sdp_stat_enable(struct dla_engine *engine,
			    const struct dla_group *group, u8 gid)
{
	sdp_select(engine, group, gid);
	if (sdp_uses_rdma(group))
		RDMA_W(D_PERF_ENABLE,
		       NVDLA_SDP_RDMA_D_PERF_ENABLE_PERF_DMA_EN_MASK |
		       NVDLA_SDP_RDMA_D_PERF_ENABLE_PERF_NAN_INF_COUNT_EN_MASK);
	SDP_W(D_PERF_ENABLE, NVDLA_SDP_D_PERF_ENABLE_PERF_DMA_EN_MASK |
	      NVDLA_SDP_D_PERF_ENABLE_PERF_LUT_EN_MASK |
	      NVDLA_SDP_D_PERF_ENABLE_PERF_SAT_EN_MASK |
	      NVDLA_SDP_D_PERF_ENABLE_PERF_NAN_INF_COUNT_EN_MASK);
}

#define SDP_R(reg) dla_reg_read(engine, NVDLA_UNIT_SDP, NVDLA_SDP_##reg)
#define RDMA_R(reg) \
	dla_reg_read(engine, NVDLA_UNIT_SDP_RDMA, NVDLA_SDP_RDMA_##reg)

/* Input from memory is counted by the SDP_RDMA, flying input by the SDP. */
static void sdp_stat_read(struct dla_engine *engine,
			  const struct dla_group *group, u8 gid,
			  union dla_stat_container *stat)
{
	struct dla_sdp_stat_desc *s = &stat->sdp_stat;
	bool flying = group->surf->sdp_surface.src_data.type == DLA_MEM_HW;

	sdp_select(engine, group, gid);
	s->nan_input_num = flying ? SDP_R(D_STATUS_NAN_INPUT_NUM) :
			   RDMA_R(D_STATUS_NAN_INPUT_NUM);
	s->inf_input_num = flying ? SDP_R(D_STATUS_INF_INPUT_NUM) :
			   RDMA_R(D_STATUS_INF_INPUT_NUM);
	s->nan_output_num = SDP_R(D_STATUS_NAN_OUTPUT_NUM);
	s->wdma_write_stall = SDP_R(D_PERF_WDMA_WRITE_STALL);
	s->lut_underflow = SDP_R(D_PERF_LUT_UFLOW);
	s->lut_overflow = SDP_R(D_PERF_LUT_OFLOW);
	s->lut_hybrid = SDP_R(D_PERF_LUT_HYBRID);
	s->lut_le_hit = SDP_R(D_PERF_LUT_LE_HIT);
	s->lut_lo_hit = SDP_R(D_PERF_LUT_LO_HIT);
	s->saturation_count = SDP_R(D_PERF_OUT_SATURATION);
}

const struct dla_processor_ops dla_sdp_ops = {
	.name = "sdp",
	.groups = 2,
	.pointer_unit = NVDLA_UNIT_SDP,
	.rdma_unit = NVDLA_UNIT_SDP_RDMA,
	.uses_rdma = sdp_uses_rdma,
	.lut = sdp_lut,
	.done_bits = {
		NVDLA_GLB_S_INTR_STATUS_SDP_DONE_STATUS0_MASK,
		NVDLA_GLB_S_INTR_STATUS_SDP_DONE_STATUS1_MASK,
	},
	.validate = sdp_validate,
	.program = sdp_program,
	.enable = sdp_enable,
	.stat_enable = sdp_stat_enable,
	.stat_read = sdp_stat_read,
};
