// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_randlayer: random LUTs for the CDP and the SDP: tables, start and
 * end points, index offsets, slopes and priorities. The SDP's fp16 path
 * takes fp32 start and end points and fp16 entries and slopes.
 */
#include <string.h>

#include "randlayer.h"

static uint32_t fp32_of(float f)
{
	uint32_t b;

	memcpy(&b, &f, 4);
	return b;
}

static void lut_priorities(struct dla_lut_param *lut)
{
	lut->hybrid_priority = rnd(2);
	lut->underflow_priority = rnd(2);
	lut->overflow_priority = rnd(2);
}

static void int_slope(union dla_slope *s)
{
	s->data_i.scale = rnd_range(-500, 500);
	s->data_i.shifter = rnd_range(-8, 8);
}

/* Integer tables and points (the CDP's, the SDP's in int8 and int16). */
static void int_lut(struct dla_lut_param *lut, uint32_t precision, bool sdp)
{
	uint32_t i;

	for (i = 0; i < DLA_LUT_LE_TABLE_ENTRIES; i++)
		lut->linear_exp_table[i] = rnd_range(-32768, 32767);
	for (i = 0; i < DLA_LUT_LO_TABLE_ENTRIES; i++)
		lut->linear_only_table[i] = rnd_range(-32768, 32767);
	lut->method = rnd(2);
	lut->linear_exp_offset.exp_offset = rnd_range(-4, 10);
	lut->linear_only_offset.frac_bits = rnd(8);
	lut->linear_exp_start = rnd(precision == DLA_PRECISION_FP16 ? 2 : 64);
	lut->linear_exp_end = lut->linear_exp_start + rnd_range(64, 1 << 20);
	lut->linear_only_start = rnd(256);
	lut->linear_only_end = lut->linear_only_start + 256 * rnd_range(1, 64);
	if (sdp) {	/* signed 32-bit points around the SDP's values */
		lut->linear_exp_start = (uint32_t)rnd_range(-70000, 100);
		lut->linear_exp_end = (uint32_t)((int32_t)lut->linear_exp_start +
						 rnd_range(64, 1 << 20));
		lut->linear_only_start = (uint32_t)rnd_range(-70000, 100);
		lut->linear_only_end = (uint32_t)((int32_t)lut->linear_only_start +
						  (256 << lut->linear_only_offset.frac_bits));
	}
	int_slope(&lut->linear_exp_underflow_slope);
	int_slope(&lut->linear_exp_overflow_slope);
	int_slope(&lut->linear_only_underflow_slope);
	int_slope(&lut->linear_only_overflow_slope);
	lut_priorities(lut);
}

/* 2^@e for small @e of either sign. */
static float pow2(int32_t e)
{
	return e >= 0 ? (float)(1u << e) : 1.0f / (float)(1u << -e);
}

static uint16_t rnd_fp16(int32_t range)
{
	return fp16_of((float)rnd_range(-range, range) / 1024.0f);
}

/* The SDP's fp16 LUT: fp16 entries and slopes, fp32 points. */
static void fp16_lut(struct dla_lut_param *lut)
{
	int32_t sel = rnd_range(-6, 2), lo_sel = rnd_range(-6, 2);
	float le_start = (float)rnd_range(-64, 8) / 8.0f;
	float lo_start = (float)rnd_range(-64, 8) / 8.0f;
	uint32_t i;

	for (i = 0; i < DLA_LUT_LE_TABLE_ENTRIES; i++)
		lut->linear_exp_table[i] = rnd_fp16(4096);
	for (i = 0; i < DLA_LUT_LO_TABLE_ENTRIES; i++)
		lut->linear_only_table[i] = rnd_fp16(4096);
	lut->method = rnd(2);
	lut->linear_exp_offset.exp_offset = rnd_range(-10, 2);
	if (lut->method)
		lut->linear_exp_offset.frac_bits = (uint8_t)sel;
	lut->linear_only_offset.frac_bits = (uint8_t)lo_sel;
	lut->linear_exp_start = fp32_of(le_start);
	lut->linear_exp_end = fp32_of(le_start + (float)rnd_range(1, 64));
	lut->linear_only_start = fp32_of(lo_start);
	lut->linear_only_end = fp32_of(lo_start + 256.0f * pow2(lo_sel));
	lut->linear_exp_underflow_slope.data_f.scale = rnd_fp16(1024);
	lut->linear_exp_overflow_slope.data_f.scale = rnd_fp16(1024);
	lut->linear_only_underflow_slope.data_f.scale = rnd_fp16(1024);
	lut->linear_only_overflow_slope.data_f.scale = rnd_fp16(1024);
	lut_priorities(lut);
}

void rnd_lut(struct dla_lut_param *lut, uint32_t precision, bool sdp)
{
	if (sdp && precision == DLA_PRECISION_FP16)
		fp16_lut(lut);
	else
		int_lut(lut, precision, sdp);
}
