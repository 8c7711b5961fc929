/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The performance estimate: each engine's part of an operation (perf_*.c)
 * is added to the operation being estimated, which perf.c then places on
 * the time line and reports to the host (docs/performance.md).
 */
#ifndef __NVDLA_SIM_PERF_H__
#define __NVDLA_SIM_PERF_H__

#include "cdp.h"
#include "pdp.h"
#include "sdp.h"
#include "sim_internal.h"

/* @n / @d rounded up; 0 for @d 0. */
static inline u64 sim_perf_div_up(u64 n, u64 d)
{
	return d ? (n + d - 1) / d : 0;
}

/* Reset the time line, with the configuration's default parameters. */
void sim_perf_init(struct nvdla_sim *sim);

/* Cycles @read and @write bytes of memory traffic take. */
u64 sim_perf_mem(const struct nvdla_sim *sim, u64 read, u64 write);
/* Cycles of the memory's read latency. */
u64 sim_perf_latency(const struct nvdla_sim *sim);
/*
 * A stall counter: the cycles the @bytes of a unit's traffic take beyond
 * the @busy cycles of its own work, held at the 32-bit maximum.
 */
u32 sim_perf_stall(const struct nvdla_sim *sim, u64 bytes, u64 busy);

/* Add engine @e of group @group to the operation, opening it if needed. */
struct nvdla_sim_perf_op *sim_perf_add(struct nvdla_sim *sim,
				       enum nvdla_sim_engine e, u8 group);
/* Place the open operation on the time line and report it. */
void sim_perf_end(struct nvdla_sim *sim);
/* GLB status @bits are raised as the last operation ends. */
void sim_perf_done(struct nvdla_sim *sim, u32 bits);
/* The host cleared status @bits: it has handled them. */
void sim_perf_handled(struct nvdla_sim *sim, u32 bits);

/* Each engine's part, from its decoded registers. */
void sim_perf_conv(struct nvdla_sim *sim, const struct sim_conv *cv);
void sim_perf_sdp(struct nvdla_sim *sim, const struct sdp_params *p);
void sim_perf_pdp(struct nvdla_sim *sim, const struct pdp_params *p);
void sim_perf_cdp(struct nvdla_sim *sim, const struct cdp_params *p);
void sim_perf_bdma(struct nvdla_sim *sim,
		   const struct sim_bdma_transfer *x);
void sim_perf_rubik(struct nvdla_sim *sim, u64 bytes);

#endif
