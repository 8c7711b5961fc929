// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Data cubes in memory: their extent and device address, checked. */
#include "engine.h"
#include "processors.h"

u32 dla_bytes_per_element(u8 precision)
{
	return precision == DLA_PRECISION_INT8 ? 1 : 2;
}

static const char *const dla_precision_names[] = { "int8", "int16", "fp16" };

int dla_check_precision(struct dla_engine *engine, const char *what,
			u8 precision)
{
	const struct dla_hw_config *config = engine->config;

	if (precision > DLA_PRECISION_FP16)
		return dla_reject(engine, "%s: precision %u invalid", what,
				  precision);
	if (!(config->precisions & BIT(precision)))
		return dla_reject(engine, "%s: %s, which %s does not compute",
				  what, dla_precision_names[precision],
				  config->name);
	return 0;
}

const char *dla_precision_name(u8 precision)
{
	return precision <= DLA_PRECISION_FP16 ?
	       dla_precision_names[precision] : "invalid";
}

/* What every cube shares: in memory, not empty, on atom boundaries. */
static int cube_placement(struct dla_engine *engine,
			  const struct dla_data_cube *cube)
{
	u32 atom = engine->config->atom_size;

	if (cube->type > DLA_MEM_CV)
		return dla_reject(engine, "data cube in memory type %u", cube->type);
	if (!cube->width || !cube->height || !cube->channel)
		return dla_reject(engine, "empty data cube %ux%ux%u", cube->width,
				  cube->height, cube->channel);
	if (cube->offset % atom || cube->line_stride % atom ||
	    cube->surf_stride % atom)
		return dla_reject(engine,
				  "data cube offset %u, strides %u/%u not aligned to %s's %u-byte atom",
				  cube->offset, cube->line_stride,
				  cube->surf_stride, engine->config->name, atom);
	return 0;
}

int dla_cube_address(struct dla_engine *engine,
		     const struct dla_data_cube *cube, u32 bpe, u64 *addr)
{
	u32 atom = engine->config->atom_size;
	u64 surfaces, extent;
	int ret;

	ret = cube_placement(engine, cube);
	if (ret)
		return ret;
	surfaces = ((u64)cube->channel * bpe + atom - 1) / atom;
	if (cube->height > 1 && cube->line_stride < (u64)cube->width * atom)
		return dla_reject(engine, "cube lines overlap");
	if (surfaces > 1 &&
	    cube->surf_stride < (u64)cube->height * cube->line_stride)
		return dla_reject(engine, "cube surfaces overlap");
	extent = (surfaces - 1) * cube->surf_stride +
		 (u64)(cube->height - 1) * cube->line_stride +
		 (u64)cube->width * atom;
	ret = dla_dma_range(engine, cube->address, cube->offset, extent, addr);
	if (ret)
		return dla_log(engine, DLA_LOG_ERROR, ret,
			       "data cube %ux%ux%u in %llu surfaces of %u-byte atoms does not fit address %d",
			       cube->width, cube->height, cube->channel,
			       (unsigned long long)surfaces, atom,
			       cube->address);
	return 0;
}

/*
 * One plane of an image: lines of @cube->width pixels of @bpp bytes,
 * @stride apart from @offset in the cube's buffer. The CDMA fetches a
 * whole line from each line start, so a line must fit its stride.
 */
static int image_plane(struct dla_engine *engine,
		       const struct dla_data_cube *cube, const char *plane,
		       u64 offset, u32 stride, u32 bpp, u64 *addr)
{
	u64 line = (u64)cube->width * bpp;
	int ret;

	if (stride < line)
		return dla_reject(engine,
				  "image %s lines overlap: stride %u below %u pixels of %u bytes",
				  plane, stride, cube->width, bpp);
	ret = dla_dma_range(engine, cube->address, offset,
			    (u64)(cube->height - 1) * stride + line, addr);
	if (ret)
		return dla_log(engine, DLA_LOG_ERROR, ret,
			       "image %s of %ux%u pixels of %u bytes, stride %u, does not fit address %d",
			       plane, cube->width, cube->height, bpp, stride,
			       cube->address);
	return 0;
}

int dla_image_address(struct dla_engine *engine,
		      const struct dla_data_cube *cube,
		      const struct nvdla_pixel_layout *layout, s64 uv_offset,
		      u32 uv_stride, u64 *addr, u64 *uv_addr)
{
	u32 atom = engine->config->atom_size;
	int ret;

	ret = cube_placement(engine, cube);
	if (!ret && cube->channel > layout->comps)
		ret = dla_reject(engine, "image of %u components with %u channels",
				 layout->comps, cube->channel);
	if (!ret)
		ret = image_plane(engine, cube, "plane 0", cube->offset,
				  cube->line_stride, layout->bpp[0], addr);
	*uv_addr = 0;
	if (ret || layout->planes == 1)
		return ret;
	if (uv_offset < 0 || (cube->offset + uv_offset) % atom ||
	    uv_stride % atom)
		return dla_reject(engine,
				  "image plane 1 offset %lld, stride %u not aligned to %s's %u-byte atom",
				  (long long)uv_offset, uv_stride,
				  engine->config->name, atom);
	return image_plane(engine, cube, "plane 1", cube->offset + uv_offset,
			   uv_stride, layout->bpp[1], uv_addr);
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

u8 dla_consumer_group(struct dla_engine *engine, enum nvdla_unit unit)
{
	return (dla_reg_read(engine, unit, 4) >> 16) & 1;	/* S_POINTER */
}
