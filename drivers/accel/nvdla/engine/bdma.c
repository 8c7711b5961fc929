// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * BDMA processor: memory-to-memory copies of up to 20 line/surface
 * transfers per operation. The unit has no shadow registers: transfers are
 * pushed into a 20-entry FIFO and a launch closes them into an interrupt
 * group, so one operation at a time is in flight.
 */
#include "engine.h"

#define BDMA_ALIGN BIT(5)
#define BDMA_MAX_LINE (8192u * BDMA_ALIGN)	/* 13-bit size in atoms */
#define BDMA_MAX_REPEAT BIT(24)		/* 24-bit repeat counts */

/* Device memory type (MC or CV, validated) to CFG_CMD RAM type. */
static u32 bdma_ram_type(u8 type)
{
	return type == DLA_MEM_MC ? 1 : 0;	/* 0 is CVSRAM, 1 is MCIF */
}

/* Bytes from the first to the last byte one side of a transfer touches. */
static u64 bdma_extent(const struct dla_bdma_transfer_desc *x, u32 line,
		       u32 surf)
{
	return (u64)(x->surface_repeat - 1) * surf +
	       (u64)(x->line_repeat - 1) * line + x->line_size;
}

static int bdma_check_side(struct dla_engine *engine, int n, s16 index,
			   const struct dla_bdma_transfer_desc *x, u32 line,
			   u32 surf, u64 *addr)
{
	int ret;

	if (line % BDMA_ALIGN || surf % BDMA_ALIGN)
		return dla_reject(engine, "bdma transfer %d: stride not 32-byte aligned", n);
	if (x->line_repeat > 1 && line < x->line_size)
		return dla_reject(engine, "bdma transfer %d: line stride %u below line size %u",
				  n, line, x->line_size);
	if (x->surface_repeat > 1 && (u64)surf < (u64)line * x->line_repeat)
		return dla_reject(engine, "bdma transfer %d: surfaces overlap", n);
	ret = dla_dma_range(engine, index, 0, bdma_extent(x, line, surf), addr);
	if (ret)
		return ret;
	if (*addr % BDMA_ALIGN)
		return dla_reject(engine, "bdma transfer %d: address not 32-byte aligned", n);
	return 0;
}

static int bdma_check_transfer(struct dla_engine *engine, int n,
			       const struct dla_bdma_transfer_desc *x)
{
	u64 src, dst;
	int ret;

	if (!x->line_size || x->line_size % BDMA_ALIGN ||
	    x->line_size > BDMA_MAX_LINE)
		return dla_reject(engine, "bdma transfer %d: line size %u invalid",
				  n, x->line_size);
	if (!x->line_repeat || x->line_repeat > BDMA_MAX_REPEAT ||
	    !x->surface_repeat || x->surface_repeat > BDMA_MAX_REPEAT)
		return dla_reject(engine, "bdma transfer %d: repeat count invalid", n);

	ret = bdma_check_side(engine, n, x->source_address, x, x->source_line,
			      x->source_surface, &src);
	if (!ret)
		ret = bdma_check_side(engine, n, x->destination_address, x,
				      x->destination_line,
				      x->destination_surface, &dst);
	return ret;
}

static int bdma_validate(struct dla_engine *engine,
			 const union dla_operation_container *op,
			 const union dla_surface_container *surf)
{
	const struct dla_bdma_surface_desc *s = &surf->bdma_surface;
	int i, ret;

	if (!s->num_transfers || s->num_transfers > DLA_BDMA_MAX_TRANSFERS)
		return dla_reject(engine, "bdma: %u transfers, need 1 to %d",
				  s->num_transfers, DLA_BDMA_MAX_TRANSFERS);
	if (op->bdma_op.num_transfers != s->num_transfers)
		return dla_reject(engine, "bdma: op and surface disagree on transfers (%u, %u)",
				  op->bdma_op.num_transfers, s->num_transfers);
	if (s->source_type > DLA_MEM_CV || s->destination_type > DLA_MEM_CV)
		return dla_reject(engine, "bdma: memory type %u/%u invalid",
				  s->source_type, s->destination_type);

	for (i = 0; i < s->num_transfers; i++) {
		ret = bdma_check_transfer(engine, i, &s->transfers[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static void bdma_write(struct dla_engine *engine, u32 reg, u32 val)
{
	dla_reg_write(engine, NVDLA_UNIT_BDMA, reg, val);
}

static int bdma_program_transfer(struct dla_engine *engine, u32 cmd,
				 const struct dla_bdma_transfer_desc *x)
{
	u64 src, dst;
	int ret;

	ret = dla_dma_range(engine, x->source_address, 0, 0, &src);
	if (!ret)
		ret = dla_dma_range(engine, x->destination_address, 0, 0, &dst);
	if (ret)
		return ret;

	bdma_write(engine, NVDLA_BDMA_CFG_SRC_ADDR_LOW, (u32)src);
	bdma_write(engine, NVDLA_BDMA_CFG_SRC_ADDR_HIGH, (u32)(src >> 32));
	bdma_write(engine, NVDLA_BDMA_CFG_DST_ADDR_LOW, (u32)dst);
	bdma_write(engine, NVDLA_BDMA_CFG_DST_ADDR_HIGH, (u32)(dst >> 32));
	bdma_write(engine, NVDLA_BDMA_CFG_LINE, x->line_size / BDMA_ALIGN - 1);
	bdma_write(engine, NVDLA_BDMA_CFG_CMD, cmd);
	bdma_write(engine, NVDLA_BDMA_CFG_LINE_REPEAT, x->line_repeat - 1);
	bdma_write(engine, NVDLA_BDMA_CFG_SRC_LINE, x->source_line);
	bdma_write(engine, NVDLA_BDMA_CFG_DST_LINE, x->destination_line);
	bdma_write(engine, NVDLA_BDMA_CFG_SURF_REPEAT, x->surface_repeat - 1);
	bdma_write(engine, NVDLA_BDMA_CFG_SRC_SURF, x->source_surface);
	bdma_write(engine, NVDLA_BDMA_CFG_DST_SURF, x->destination_surface);
	bdma_write(engine, NVDLA_BDMA_CFG_OP, NVDLA_BDMA_CFG_OP_EN_MASK);
	return 0;
}

static int bdma_program(struct dla_engine *engine, struct dla_group *group,
			u8 gid)
{
	const struct dla_bdma_surface_desc *s = &group->surf->bdma_surface;
	u32 status, free_slots, cmd;
	int i, ret;

	(void)gid;
	status = dla_reg_read(engine, NVDLA_UNIT_BDMA, NVDLA_BDMA_STATUS);
	free_slots = (status & NVDLA_BDMA_STATUS_FREE_SLOT_MASK) >>
		     NVDLA_BDMA_STATUS_FREE_SLOT_SHIFT;
	if (free_slots < s->num_transfers)
		return dla_log(engine, DLA_LOG_ERROR, -EIO,
			       "bdma: %u free slots for %u transfers",
			       free_slots, s->num_transfers);

	cmd = bdma_ram_type(s->source_type) << NVDLA_BDMA_CFG_CMD_SRC_RAM_TYPE_SHIFT |
	      bdma_ram_type(s->destination_type) << NVDLA_BDMA_CFG_CMD_DST_RAM_TYPE_SHIFT;

	for (i = 0; i < s->num_transfers; i++) {
		ret = bdma_program_transfer(engine, cmd, &s->transfers[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int bdma_enable(struct dla_engine *engine, struct dla_group *group,
		       u8 gid)
{
	(void)group;
	bdma_write(engine, gid ? NVDLA_BDMA_CFG_LAUNCH1 : NVDLA_BDMA_CFG_LAUNCH0,
		   1);
	return 0;
}

static void bdma_stat_enable(struct dla_engine *engine,
			     const struct dla_group *group, u8 gid)
{
	(void)group;
	(void)gid;
	bdma_write(engine, NVDLA_BDMA_CFG_STATUS,
		   NVDLA_BDMA_CFG_STATUS_STALL_COUNT_EN_MASK);
}

/* The stall counters of the launch group the operation ran in. */
static void bdma_stat_read(struct dla_engine *engine,
			   const struct dla_group *group, u8 gid,
			   union dla_stat_container *stat)
{
	(void)group;
	stat->bdma_stat.read_stall =
		dla_reg_read(engine, NVDLA_UNIT_BDMA,
			     gid ? NVDLA_BDMA_STATUS_GRP1_READ_STALL :
				   NVDLA_BDMA_STATUS_GRP0_READ_STALL);
	stat->bdma_stat.write_stall =
		dla_reg_read(engine, NVDLA_UNIT_BDMA,
			     gid ? NVDLA_BDMA_STATUS_GRP1_WRITE_STALL :
				   NVDLA_BDMA_STATUS_GRP0_WRITE_STALL);
}

const struct dla_processor_ops dla_bdma_ops = {
	.name = "bdma",
	.groups = 1,
	.pointer_unit = -1,
	.done_bits = {
		NVDLA_GLB_S_INTR_STATUS_BDMA_DONE_STATUS0_MASK,
		NVDLA_GLB_S_INTR_STATUS_BDMA_DONE_STATUS1_MASK,
	},
	.validate = bdma_validate,
	.program = bdma_program,
	.enable = bdma_enable,
	.stat_enable = bdma_stat_enable,
	.stat_read = bdma_stat_read,
};
