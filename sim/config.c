// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The hardware configurations the model can be: the facts the engine
 * scheduler shares (nvdla/hw_configs.h of drivers/accel/nvdla/engine), and
 * here those only the model needs, from the projects' hardware
 * specifications (spec/defs/<name>.spec of nvdla/hw). Everything that
 * differs between builds of the NVDLA lives in the two; the engines read
 * it from the instance, never from the build.
 */
#include "sim_internal.h"

#define SIM_PRECISIONS(int16, fp16) \
	(BIT(SIM_PREC_INT8) | ((int16) ? BIT(SIM_PREC_INT16) : 0) | \
	 ((fp16) ? BIT(SIM_PREC_FP16) : 0))

/*
 * What the performance estimate knows of a configuration: elements per
 * cycle of the SDP (bias/batch-norm stages, element-wise stage), PDP and
 * CDP, the memory latency in cycles its read path covers (the specs'
 * SDP_BS_THROUGHPUT, SDP_EW_THROUGHPUT, PDP_THROUGHPUT, CDP_THROUGHPUT,
 * PRIMARY_MEMIF_LATENCY; nv_full's as nv_large's), and the estimate's
 * default clock (MHz) and memory bandwidth (MB/s): NVIDIA's performance
 * spreadsheet's 1 GHz and 10 GB/s for the 2048-MAC configurations, our
 * choices for the others (docs/performance.md).
 */
#define SIM_PERF(sdp, sdp_ew, pdp, cdp, latency, mhz, mbps) \
	.perf = { .sdp_tput = sdp, .sdp_ew_tput = sdp_ew, .pdp_tput = pdp, \
		  .cdp_tput = cdp, .memif_latency = latency, \
		  .defaults = { .clock_khz = (mhz) * 1000, .dram_mbps = mbps, \
				.latency_ns = SIM_PERF_LATENCY_NS } }

/* The model-only facts of each configuration, SIM_ONLY_<id>. */
#define SIM_ONLY_NV_FULL \
	.cvsram = true, .max_batch = 32, \
	.mem_width = 512, .addr_low_mask = 0xffffffe0u, \
	SIM_PERF(16, 4, 8, 8, 1024, 1000, 10000)
#define SIM_ONLY_NV_SMALL \
	.max_batch = 1, \
	.mem_width = 64, .addr_low_mask = 0xffffffffu, \
	SIM_PERF(1, 1, 1, 1, 64, 400, 2000)
#define SIM_ONLY_NV_LARGE \
	.cvsram = true, .max_batch = 1, \
	.mem_width = 256, .addr_low_mask = 0xffffffffu, \
	SIM_PERF(16, 4, 8, 8, 1024, 1000, 10000)
#define SIM_ONLY_NV_SMALL_256 \
	.max_batch = 1, \
	.mem_width = 64, .addr_low_mask = 0xffffffffu, \
	SIM_PERF(1, 1, 1, 1, 64, 400, 2000)
/* nv_small_256 with the second memory interface (and SDP LUT, EW). */
#define SIM_ONLY_NV_SMALL_256_FULL \
	.cvsram = true, .max_batch = 1, \
	.mem_width = 64, .addr_low_mask = 0xffffffffu, \
	SIM_PERF(2, 1, 1, 1, 64, 400, 2000)
#define SIM_ONLY_NV_MEDIUM_512 \
	.max_batch = 1, \
	.mem_width = 128, .addr_low_mask = 0xffffffffu, \
	SIM_PERF(4, 1, 2, 2, 256, 800, 5000)
#define SIM_ONLY_NV_MEDIUM_1024_FULL \
	.cvsram = true, .max_batch = 1, \
	.mem_width = 256, .addr_low_mask = 0xffffffffu, \
	SIM_PERF(8, 2, 4, 4, 1024, 1000, 10000)

/* Each configuration's shared facts, then its SIM_ONLY_<id>, as an entry. */
#define NVDLA_HW_CONFIG(id, cfg_name, map, atom_bytes, has_bdma, has_rubik, \
			wcomp, wino, int16, fp16, addr_bits, mac_c, mac_k, \
			n_banks, n_entries, entry_bytes, early, has_sdp_y) \
	[NVDLA_SIM_##id] = { \
		.name = cfg_name, \
		.unit_base = (const u32[NVDLA_UNIT_COUNT])NVDLA_UNIT_BASES_##map, \
		.atom = atom_bytes, \
		.bdma = has_bdma, \
		.rubik = has_rubik, \
		.weight_compress = wcomp, \
		.winograd = wino, \
		.cdma_early = early, \
		.sdp_y = has_sdp_y, \
		.precisions = SIM_PRECISIONS(int16, fp16), \
		.cbuf = { .atomic_c = mac_c, .atomic_k = mac_k, \
			  .banks = n_banks, .depth = n_entries, .width = entry_bytes }, \
		SIM_ONLY_##id \
	},

static const struct sim_config sim_configs[NVDLA_SIM_CONFIG_COUNT] = {
#include <nvdla/hw_configs.h>
};

#undef NVDLA_HW_CONFIG

const struct sim_config *sim_config_get(enum nvdla_sim_config_id id)
{
	return id < NVDLA_SIM_CONFIG_COUNT ? &sim_configs[id] : NULL;
}

int nvdla_sim_config_by_name(const char *name, enum nvdla_sim_config_id *id)
{
	int i;

	for (i = 0; i < NVDLA_SIM_CONFIG_COUNT; i++) {
		if (!strcmp(sim_configs[i].name, name)) {
			*id = i;
			return 0;
		}
	}
	return -EINVAL;
}

bool sim_config_has_unit(const struct sim_config *config, int unit)
{
	if (unit == NVDLA_UNIT_BDMA)
		return config->bdma;
	if (unit == NVDLA_UNIT_RBK)
		return config->rubik;
	return true;
}

bool sim_precision_ok(const struct nvdla_sim *sim, u32 precision)
{
	return precision < SIM_PREC_COUNT &&
	       (sim->config->precisions & BIT(precision));
}

int nvdla_sim_perf_defaults(enum nvdla_sim_config_id id,
			    struct nvdla_sim_perf_params *params)
{
	const struct sim_config *c = sim_config_get(id);

	if (!c)
		return -EINVAL;
	*params = c->perf.defaults;
	return 0;
}
