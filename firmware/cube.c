// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Data cubes in memory: their extent and device address, checked. */
#include "engine.h"
#include "processors.h"

u32 dla_bytes_per_element(u8 precision)
{
	return precision == DLA_PRECISION_INT8 ? 1 : 2;
}

int dla_cube_address(struct dla_engine *engine,
		     const struct dla_data_cube *cube, u32 bpe, u64 *addr)
{
	u32 atom = engine->config->atom_size;
	u64 surfaces, extent;

	if (cube->type > DLA_MEM_CV)
		return dla_reject(engine, "data cube in memory type %u", cube->type);
	if (!cube->width || !cube->height || !cube->channel)
		return dla_reject(engine, "empty data cube %ux%ux%u", cube->width,
				  cube->height, cube->channel);
	if (cube->line_stride % atom || cube->surf_stride % atom)
		return dla_reject(engine, "cube strides %u/%u not atom aligned",
				  cube->line_stride, cube->surf_stride);
	surfaces = ((u64)cube->channel * bpe + atom - 1) / atom;
	if (cube->height > 1 && cube->line_stride < (u64)cube->width * atom)
		return dla_reject(engine, "cube lines overlap");
	if (surfaces > 1 &&
	    cube->surf_stride < (u64)cube->height * cube->line_stride)
		return dla_reject(engine, "cube surfaces overlap");
	extent = (surfaces - 1) * cube->surf_stride +
		 (u64)(cube->height - 1) * cube->line_stride +
		 (u64)cube->width * atom;
	return dla_dma_range(engine, cube->address, cube->offset, extent, addr);
}

void dla_reg_write_addr(struct dla_engine *engine, enum nvdla_unit unit,
			u32 low, u32 high, u64 addr)
{
	dla_reg_write(engine, unit, high, (u32)(addr >> 32));
	dla_reg_write(engine, unit, low, (u32)addr);
}

u32 dla_ram_type(const struct dla_data_cube *cube)
{
	return cube->type == DLA_MEM_MC ? 1 : 0;	/* MCIF 1, CVSRAM 0 */
}

void dla_select_group(struct dla_engine *engine, enum nvdla_unit unit, u8 gid)
{
	dla_reg_write(engine, unit, 4, gid);	/* S_POINTER.PRODUCER */
}

u8 dla_rdma_group(struct dla_engine *engine, u8 type, struct dla_group *group,
		  bool uses)
{
	struct dla_processor *proc = &engine->processors[type];

	group->rdma_gid = proc->next_rdma_group;
	if (uses)
		proc->next_rdma_group = (group->rdma_gid + 1) %
					dla_processor_ops[type]->groups;
	return group->rdma_gid;
}

u8 dla_consumer_group(struct dla_engine *engine, enum nvdla_unit unit)
{
	return (dla_reg_read(engine, unit, 4) >> 16) & 1;	/* S_POINTER */
}
