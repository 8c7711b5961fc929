/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/* The table of processors, indexed by enum dla_op_type. */
#ifndef __NVDLA_FW_PROCESSORS_H__
#define __NVDLA_FW_PROCESSORS_H__

#include <nvdla/pixel_formats.h>

#include "engine.h"

extern const struct dla_processor_ops *const dla_processor_ops[DLA_OP_NUM];

/* The firmware implements type @t and the device has its engine. */
bool dla_processor_available(struct dla_engine *engine, int t);

/*
 * Validation of the task's copy (validate.c): the network descriptor
 * alone, before the arrays it sizes are copied; then every operation and
 * the per-type chains.
 */
int dla_validate_network(struct dla_engine *engine);
int dla_validate_task(struct dla_engine *engine);
/* The dependency graph as a whole: counts and order (graph.c). */
int dla_validate_graph(struct dla_engine *engine);

/*
 * Statistics (stat.c), for a task whose network names a stat list:
 * dla_stat_validate() returns 0 or -EINVAL with the reason logged.
 */
int dla_stat_validate(struct dla_engine *engine);
void dla_stat_enable(struct dla_engine *engine, u8 type,
		     struct dla_group *group, u8 gid);
/* Turn on group @gid's counters before any of its units starts. */
void dla_stat_arm(struct dla_engine *engine, u8 type,
		  const struct dla_group *group, u8 gid);
int dla_stat_write(struct dla_engine *engine, u8 type,
		   const struct dla_group *group, u8 gid);

u32 dla_bytes_per_element(u8 precision);
/* "int8", "int16", "fp16" or "invalid". */
const char *dla_precision_name(u8 precision);
/* Check that @precision is valid and computed by the device. */
int dla_check_precision(struct dla_engine *engine, const char *what,
			u8 precision);

/* Check that LUT @index exists; -EINVAL otherwise. */
int dla_lut_check(struct dla_engine *engine, s16 index);
/* Load LUT @index into the unit's tables and S_LUT_* registers. */
int dla_lut_program(struct dla_engine *engine, enum nvdla_unit unit,
		    s16 index);
/*
 * Device address of @cube (elements of @bpe bytes) after checking that it
 * is in memory, non-empty, atom aligned and wholly inside its buffer.
 */
int dla_cube_address(struct dla_engine *engine,
		     const struct dla_data_cube *cube, u32 bpe, u64 *addr);
/*
 * Device addresses of the image @cube of pixels laid out as @layout (and
 * of its chroma plane, @uv_offset bytes after the luma, lines @uv_stride
 * apart, if it has one; else 0) after checking that it is in memory,
 * atom aligned, has no more channels than components, that each line fits
 * its stride and every plane its buffer.
 */
int dla_image_address(struct dla_engine *engine,
		      const struct dla_data_cube *cube,
		      const struct nvdla_pixel_layout *layout, s64 uv_offset,
		      u32 uv_stride, u64 *addr, u64 *uv_addr);
void dla_reg_write_addr(struct dla_engine *engine, enum nvdla_unit unit,
			u32 low, u32 high, u64 addr);
/* CFG RAM type field of a cube's memory: 1 for MCIF, 0 for CVSRAM. */
u32 dla_ram_type(const struct dla_data_cube *cube);
/* S_POINTER of a unit with register groups. */
void dla_select_group(struct dla_engine *engine, enum nvdla_unit unit, u8 gid);
u8 dla_consumer_group(struct dla_engine *engine, enum nvdla_unit unit);

#endif /* __NVDLA_FW_PROCESSORS_H__ */
