/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The lookup tables of SDP and CDP: two register-loaded RAMs, LE (65
 * entries, linear or exponent index) and LO (257 entries, linear index),
 * and the integer interpolation between their entries.
 */
#ifndef __NVDLA_SIM_LUT_H__
#define __NVDLA_SIM_LUT_H__

#include "sim_math.h"

#define SIM_LUT_LE_ENTRIES 65
#define SIM_LUT_LO_ENTRIES 257

struct sim_lut {
	s16 le[SIM_LUT_LE_ENTRIES];
	s16 lo[SIM_LUT_LO_ENTRIES];
	u32 access;		/* S_LUT_ACCESS_CFG as it advances */
};

/* How a lookup is configured (the unit's S_LUT_* registers). */
struct sim_lut_cfg {
	bool le_linear;
	bool uflow_lo, oflow_lo, hybrid_lo;	/* priority: LO over LE */
	s8 le_offset, le_select, lo_select;
	s32 le_start, le_end, lo_start, lo_end;
	s16 le_uflow_scale, le_oflow_scale, lo_uflow_scale, lo_oflow_scale;
	s8 le_uflow_shift, le_oflow_shift, lo_uflow_shift, lo_oflow_shift;
};

enum sim_lut_state { SIM_LUT_HIT, SIM_LUT_UFLOW, SIM_LUT_OFLOW };

/* The D_PERF_LUT_* counters of one operation. */
struct sim_lut_count {
	u32 uflow, oflow, hybrid, le_hit, lo_hit;
};

/* The table that answers (true: LO), from both tables' states. */
static inline bool sim_lut_pick_lo(const struct sim_lut_cfg *c,
				   enum sim_lut_state le,
				   enum sim_lut_state lo)
{
	if (le == SIM_LUT_UFLOW && lo == SIM_LUT_UFLOW)
		return c->uflow_lo;
	if (le == SIM_LUT_OFLOW && lo == SIM_LUT_OFLOW)
		return c->oflow_lo;
	if (le == lo || (le != SIM_LUT_HIT && lo != SIM_LUT_HIT))
		return c->hybrid_lo;
	return lo == SIM_LUT_HIT;
}

/*
 * Count one SDP lookup: under- and overflow of the table that answers,
 * HYBRID when it answered from an entry, and each table's own hit.
 * Nothing with @n NULL (not counting).
 */
void sim_lut_count_sdp(struct sim_lut_count *n, enum sim_lut_state le,
		       enum sim_lut_state lo, bool pick_lo);
/*
 * The counter of one CDP lookup: both tables under- or overflowing, only
 * LE or only LO hitting, HYBRID for the rest.
 */
static inline u32 *sim_lut_cdp_counter(struct sim_lut_count *n,
				       enum sim_lut_state le,
				       enum sim_lut_state lo)
{
	if (le == SIM_LUT_UFLOW && lo == SIM_LUT_UFLOW)
		return &n->uflow;
	if (le == SIM_LUT_OFLOW && lo == SIM_LUT_OFLOW)
		return &n->oflow;
	if (le == SIM_LUT_HIT && lo != SIM_LUT_HIT)
		return &n->le_hit;
	if (lo == SIM_LUT_HIT && le != SIM_LUT_HIT)
		return &n->lo_hit;
	return &n->hybrid;
}

/* Count one CDP lookup in @n; nothing with @n NULL. */
static inline void sim_lut_count_cdp(struct sim_lut_count *n,
				     enum sim_lut_state le,
				     enum sim_lut_state lo)
{
	if (n)
		sim_count_add(sim_lut_cdp_counter(n, le, lo), 1);
}

/* Add the counts @n to @to. */
static inline void sim_lut_count_merge(struct sim_lut_count *to,
				       const struct sim_lut_count *n)
{
	sim_count_add(&to->uflow, n->uflow);
	sim_count_add(&to->oflow, n->oflow);
	sim_count_add(&to->hybrid, n->hybrid);
	sim_count_add(&to->le_hit, n->le_hit);
	sim_count_add(&to->lo_hit, n->lo_hit);
}

/* S_LUT_ACCESS_DATA: store or fetch the next entry. */
void sim_lut_write(struct sim_lut *lut, u32 data);
u32 sim_lut_read(struct sim_lut *lut);

/* Look @x up (SDP integer pipelines); counted in @n unless NULL. */
s32 sim_lut_lookup(const struct sim_lut *lut, const struct sim_lut_cfg *cfg,
		   s32 x, struct sim_lut_count *n);
/* Look the fp32 bit pattern @x up (SDP fp16 pipeline, lut_fp16.c). */
u32 sim_lut_lookup_fp16(const struct sim_lut *lut, const struct sim_lut_cfg *cfg,
			u32 x, struct sim_lut_count *n);

#endif /* __NVDLA_SIM_LUT_H__ */
