// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Loading a LUT descriptor into the SDP or CDP: both tables through the
 * S_LUT_ACCESS port, then the single-group S_LUT_* registers. The two
 * units lay these registers out alike; the CDP's start and end points are
 * 38 bits (a HIGH register after each LOW one), the SDP's 32.
 */
#include "engine.h"
#include "processors.h"

#define LUT_TABLE_LO BIT(16)
#define LUT_ACCESS_WRITE BIT(17)

/* Offsets of the S_LUT_* registers, identical in SDP and CDP up to INFO. */
#define LUT_ACCESS_CFG NVDLA_CDP_S_LUT_ACCESS_CFG
#define LUT_ACCESS_DATA NVDLA_CDP_S_LUT_ACCESS_DATA
#define LUT_CFG NVDLA_CDP_S_LUT_CFG
#define LUT_INFO NVDLA_CDP_S_LUT_INFO

/* Two register offsets that must be equal. */
#define LUT_SAME(a, b) ((a) - (b) == 0)

static_assert(LUT_SAME(NVDLA_SDP_S_LUT_INFO, NVDLA_CDP_S_LUT_INFO) &&
	      LUT_SAME(NVDLA_SDP_S_LUT_CFG, NVDLA_CDP_S_LUT_CFG) &&
	      LUT_SAME(NVDLA_SDP_S_LUT_ACCESS_DATA, NVDLA_CDP_S_LUT_ACCESS_DATA),
	      "SDP and CDP LUT registers differ");
/* After INFO: four start/end points (CDP: LOW and HIGH), then slopes. */
static_assert(LUT_SAME(NVDLA_SDP_S_LUT_LE_SLOPE_SCALE, NVDLA_SDP_S_LUT_INFO + 4 + 4 * 4) &&
	      LUT_SAME(NVDLA_CDP_S_LUT_LE_SLOPE_SCALE, NVDLA_CDP_S_LUT_INFO + 4 + 8 * 4) &&
	      LUT_SAME(NVDLA_CDP_S_LUT_LO_SLOPE_SHIFT, NVDLA_CDP_S_LUT_LE_SLOPE_SCALE + 12),
	      "LUT point and slope registers moved");

int dla_lut_check(struct dla_engine *engine, s16 index)
{
	if (index < 0 || index >= engine->task->network.num_luts)
		return dla_reject(engine, "LUT %d of %u does not exist", index,
				  engine->task->network.num_luts);
	return 0;
}

static void lut_table(struct dla_engine *engine, enum nvdla_unit unit,
		      u32 table, const s16 *entries, int n)
{
	int i;

	dla_reg_write(engine, unit, LUT_ACCESS_CFG, table | LUT_ACCESS_WRITE);
	for (i = 0; i < n; i++)
		dla_reg_write(engine, unit, LUT_ACCESS_DATA, (u16)entries[i]);
}

static u32 lut_slope_scale(const union dla_slope *uflow,
			   const union dla_slope *oflow)
{
	return (u16)uflow->data_i.scale | (u32)(u16)oflow->data_i.scale << 16;
}

static u32 lut_slope_shift(const union dla_slope *uflow,
			   const union dla_slope *oflow)
{
	return ((u32)uflow->data_i.shifter & 0x1f) |
	       ((u32)oflow->data_i.shifter & 0x1f) << 5;
}

/* START/END and slopes, from S_LUT_LE_START on. */
static void lut_points(struct dla_engine *engine, enum nvdla_unit unit,
		       const struct dla_lut_param *l)
{
	const u64 points[4] = {
		l->linear_exp_start, l->linear_exp_end,
		l->linear_only_start, l->linear_only_end,
	};
	bool wide = unit == NVDLA_UNIT_CDP;
	u32 reg = LUT_INFO + 4;
	int i;

	for (i = 0; i < 4; i++) {
		dla_reg_write(engine, unit, reg, (u32)points[i]);
		reg += 4;
		if (wide) {
			dla_reg_write(engine, unit, reg,
				      (u32)(points[i] >> 32) & 0x3f);
			reg += 4;
		}
	}
	dla_reg_write(engine, unit, reg,
		      lut_slope_scale(&l->linear_exp_underflow_slope,
				      &l->linear_exp_overflow_slope));
	dla_reg_write(engine, unit, reg + 4,
		      lut_slope_shift(&l->linear_exp_underflow_slope,
				      &l->linear_exp_overflow_slope));
	dla_reg_write(engine, unit, reg + 8,
		      lut_slope_scale(&l->linear_only_underflow_slope,
				      &l->linear_only_overflow_slope));
	dla_reg_write(engine, unit, reg + 12,
		      lut_slope_shift(&l->linear_only_underflow_slope,
				      &l->linear_only_overflow_slope));
}

int dla_lut_program(struct dla_engine *engine, enum nvdla_unit unit,
		    s16 index)
{
	const struct dla_lut_param *l;
	bool linear;
	int ret;

	ret = dla_lut_check(engine, index);
	if (ret)
		return ret;
	l = &engine->task->luts[index];

	linear = l->method != 0;		/* EXPONENTIAL 0, LINEAR 1 */
	lut_table(engine, unit, 0, l->linear_exp_table, DLA_LUT_LE_TABLE_ENTRIES);
	lut_table(engine, unit, LUT_TABLE_LO, l->linear_only_table,
		  DLA_LUT_LO_TABLE_ENTRIES);
	dla_reg_write(engine, unit, LUT_CFG,
		      linear << NVDLA_CDP_S_LUT_CFG_LUT_LE_FUNCTION_SHIFT |
		      (u32)(l->underflow_priority & 1) <<
		      NVDLA_CDP_S_LUT_CFG_LUT_UFLOW_PRIORITY_SHIFT |
		      (u32)(l->overflow_priority & 1) <<
		      NVDLA_CDP_S_LUT_CFG_LUT_OFLOW_PRIORITY_SHIFT |
		      (u32)(l->hybrid_priority & 1) <<
		      NVDLA_CDP_S_LUT_CFG_LUT_HYBRID_PRIORITY_SHIFT);
	dla_reg_write(engine, unit, LUT_INFO,
		      (u32)(u8)(linear ? 0 : l->linear_exp_offset.exp_offset) |
		      (u32)(u8)(linear ? l->linear_exp_offset.frac_bits : 0) << 8 |
		      (u32)(u8)l->linear_only_offset.frac_bits << 16);
	lut_points(engine, unit, l);
	return 0;
}
