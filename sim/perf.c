// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The performance estimate's memory model and time line. An operation
 * (one engine, or a pipeline fed on the fly) takes the memory's latency
 * once, then as long as the longest of: its memory traffic at the
 * bandwidth and the compute that needs its last fetch, or its first
 * fetches followed by its slowest engine (the convolution buffer lets
 * the fetch of the rest overlap the compute). It
 * starts when its engines are free and the host has handled what it
 * waited for: the done interrupts it cleared before enabling it. Its
 * first result also takes its pipeline's depth.
 */
#include "perf.h"

void sim_perf_init(struct nvdla_sim *sim)
{
	memset(&sim->perf, 0, sizeof(sim->perf));
	sim->perf.params = sim->config->perf.defaults;
}

int nvdla_sim_set_perf(struct nvdla_sim *sim,
		       const struct nvdla_sim_perf_params *params)
{
	if (!params->clock_khz || !params->dram_mbps)
		return -EINVAL;
	sim->perf.params = *params;
	return 0;
}

const char *nvdla_sim_engine_name(enum nvdla_sim_engine e)
{
	static const char *const names[NVDLA_SIM_ENGINES] = {
		[NVDLA_SIM_ENGINE_CONV] = "conv",
		[NVDLA_SIM_ENGINE_SDP] = "sdp",
		[NVDLA_SIM_ENGINE_PDP] = "pdp",
		[NVDLA_SIM_ENGINE_CDP] = "cdp",
		[NVDLA_SIM_ENGINE_BDMA] = "bdma",
		[NVDLA_SIM_ENGINE_RUBIK] = "rubik",
	};

	return e < NVDLA_SIM_ENGINES ? names[e] : "unknown";
}

const char *nvdla_sim_bound_name(enum nvdla_sim_bound b)
{
	static const char *const names[] = {
		[NVDLA_SIM_BOUND_MAC] = "mac",
		[NVDLA_SIM_BOUND_MEMORY] = "memory",
		[NVDLA_SIM_BOUND_POST] = "post",
	};

	return b < ARRAY_SIZE(names) ? names[b] : "unknown";
}

u64 nvdla_sim_perf_now(const struct nvdla_sim *sim)
{
	return sim->perf.now;
}

u64 sim_perf_latency(const struct nvdla_sim *sim)
{
	const struct nvdla_sim_perf_params *pp = &sim->perf.params;

	return sim_perf_div_up((u64)pp->latency_ns * pp->clock_khz, 1000000);
}

/*
 * The slowest of: the memory's bandwidth, which reads and writes share;
 * the interface's width, one word a cycle on its read channel and one on
 * its write channel; and the read channel's width scaled down where the
 * latency exceeds what its read path covers (its requests in flight).
 */
u64 sim_perf_mem(const struct nvdla_sim *sim, u64 read, u64 write)
{
	const struct nvdla_sim_perf_params *pp = &sim->perf.params;
	u64 width = sim->config->mem_width / 8;
	u64 latency = sim_perf_latency(sim), cover = sim->config->perf.memif_latency;
	u64 dram = sim_perf_div_up((read + write) * pp->clock_khz,
				   (u64)pp->dram_mbps * 1000);
	u64 rd = sim_perf_div_up(read, width), wr = sim_perf_div_up(write, width);

	if (latency > cover)
		rd = sim_perf_div_up(read * latency, width * cover);
	rd = rd > wr ? rd : wr;
	return dram > rd ? dram : rd;
}

u32 sim_perf_stall(const struct nvdla_sim *sim, u64 bytes, u64 busy)
{
	u64 mem = sim_perf_mem(sim, bytes, 0);

	if (mem <= busy)
		return 0;
	return mem - busy > U32_MAX ? U32_MAX : (u32)(mem - busy);
}

struct nvdla_sim_perf_op *sim_perf_add(struct nvdla_sim *sim,
				       enum nvdla_sim_engine e, u8 group)
{
	struct sim_perf *pf = &sim->perf;

	if (!pf->open) {
		memset(&pf->cur, 0, sizeof(pf->cur));
		pf->cur.group = group;
		pf->startup = 0;
		pf->tail = 0;
		pf->drain = 0;
		pf->conv = 0;
		pf->wait = 0;
		pf->open = true;
	}
	pf->cur.engines |= BIT(e);
	return &pf->cur;
}

static u64 perf_max(u64 a, u64 b)
{
	return a > b ? a : b;
}

/*
 * Cycles each engine's pipeline adds to an operation, the deepest of its
 * engines counting: what NVIDIA's nv_small RTL takes beyond this estimate
 * on the smallest public test of each engine (dc_1x1x8_1x1x8x1,
 * sdp_3x3x33_bn_int8_reg_0, pdp_1x1x1_3x3_ave, cdp_1x1x1_lrn3;
 * docs/performance.md), taken for every configuration.
 */
static const u32 perf_fill[NVDLA_SIM_ENGINES] = {
	[NVDLA_SIM_ENGINE_CONV] = 67,
	[NVDLA_SIM_ENGINE_SDP] = 36,
	[NVDLA_SIM_ENGINE_PDP] = 33,
	[NVDLA_SIM_ENGINE_CDP] = 54,
};

/*
 * When the open operation starts: once the host has enabled it and its
 * engines are free. The convolution's units are free while the one
 * before still drains its last results into the SDP (the next one's
 * CDMA starts as the CSC finishes, NVIDIA's nv_small RTL shows), and the
 * engines it feeds receive nothing before its latency and first fetch.
 */
static u64 perf_start(const struct sim_perf *pf,
		      const struct nvdla_sim_perf_op *op)
{
	bool conv = op->engines & BIT(NVDLA_SIM_ENGINE_CONV);
	u64 lead = conv ? op->latency_cycles + pf->startup : 0;
	u64 start = pf->now, free;
	int e;

	for (e = 0; e < NVDLA_SIM_ENGINES; e++) {
		if (!(op->engines & BIT(e)))
			continue;
		free = pf->free[e];
		if (e != NVDLA_SIM_ENGINE_CONV)
			free = free > lead ? free - lead : 0;
		start = perf_max(start, free);
	}
	return start;
}

void sim_perf_end(struct nvdla_sim *sim)
{
	struct sim_perf *pf = &sim->perf;
	struct nvdla_sim_perf_op *op = &pf->cur;
	u64 compute, fetch, fill = 0;
	int e;

	if (!pf->open)
		return;
	pf->open = false;
	op->mem_cycles = sim_perf_mem(sim, op->read_bytes, op->write_bytes);
	op->latency_cycles = sim_perf_latency(sim);
	compute = perf_max(perf_max(op->mac_cycles, op->post_cycles),
			   pf->conv);
	fetch = perf_max(op->mem_cycles, pf->startup);
	for (e = 0; e < NVDLA_SIM_ENGINES; e++)
		if (op->engines & BIT(e))
			fill = perf_max(fill, perf_fill[e]);
	op->cycles = op->latency_cycles + fill + pf->drain +
		     perf_max(perf_max(op->mem_cycles,
				       sim_perf_mem(sim, op->read_bytes, 0) +
				       pf->tail),
			      pf->startup + compute);
	if (op->latency_cycles + fetch > compute ||
	    pf->conv > perf_max(op->mac_cycles, op->post_cycles))
		op->bound = NVDLA_SIM_BOUND_MEMORY;
	else
		op->bound = op->mac_cycles >= op->post_cycles ?
			    NVDLA_SIM_BOUND_MAC : NVDLA_SIM_BOUND_POST;
	op->start = perf_start(pf, op);
	pf->last_end = op->start + op->cycles;
	for (e = 0; e < NVDLA_SIM_ENGINES; e++)
		if (op->engines & BIT(e))
			pf->free[e] = pf->last_end;
	if (op->engines & BIT(NVDLA_SIM_ENGINE_CONV))
		pf->free[NVDLA_SIM_ENGINE_CONV] -= pf->drain;
	if (sim->host.perf_op)
		sim->host.perf_op(sim->host.ctx, op);
}

void sim_perf_done(struct nvdla_sim *sim, u32 bits)
{
	u32 b;

	for (b = 0; b < ARRAY_SIZE(sim->perf.done_at); b++)
		if (bits & BIT(b))
			sim->perf.done_at[b] = sim->perf.last_end;
}

void sim_perf_handled(struct nvdla_sim *sim, u32 bits)
{
	u32 b;

	for (b = 0; b < ARRAY_SIZE(sim->perf.done_at); b++)
		if (bits & BIT(b))
			sim->perf.now = perf_max(sim->perf.now,
						 sim->perf.done_at[b]);
}
