// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The hardware configurations the model can be: one table entry each,
 * from the projects' hardware specifications (spec/defs/<name>.spec of
 * nvdla/hw). Everything that differs between builds of the NVDLA lives
 * here; the engines read it from the instance, never from the build.
 */
#include "sim_internal.h"

static const u32 sim_bases_full[NVDLA_UNIT_COUNT] = NVDLA_UNIT_BASES_NV_FULL;
static const u32 sim_bases_small[NVDLA_UNIT_COUNT] = NVDLA_UNIT_BASES_NV_SMALL;

#define SIM_INT8_ONLY BIT(SIM_PREC_INT8)
#define SIM_ALL_PRECISIONS \
	(BIT(SIM_PREC_INT8) | BIT(SIM_PREC_INT16) | BIT(SIM_PREC_FP16))

static const struct sim_config sim_configs[NVDLA_SIM_CONFIG_COUNT] = {
	[NVDLA_SIM_NV_FULL] = {
		.name = "nv_full",
		.unit_base = sim_bases_full,
		.bdma = true,
		.rubik = true,
		.cvsram = true,
		.winograd = true,
		.weight_compress = true,
		.max_batch = 32,
		.precisions = SIM_ALL_PRECISIONS,
		.atom = 32,
		.atomic_c = 64,
		.atomic_k = 32,
		.cbuf_banks = 16,
		.cbuf_bank_bytes = 64 * 512,
		.mem_width = 512,
		.addr_low_mask = 0xffffffe0u,
	},
	[NVDLA_SIM_NV_SMALL] = {
		.name = "nv_small",
		.unit_base = sim_bases_small,
		.max_batch = 1,
		.precisions = SIM_INT8_ONLY,
		.atom = 8,
		.atomic_c = 8,
		.atomic_k = 8,
		.cbuf_banks = 32,
		.cbuf_bank_bytes = 8 * 512,
		.mem_width = 64,
		.addr_low_mask = 0xffffffffu,
	},
	[NVDLA_SIM_NV_LARGE] = {
		.name = "nv_large",
		.unit_base = sim_bases_small,
		.cvsram = true,
		.max_batch = 1,
		.precisions = SIM_INT8_ONLY,
		.atom = 32,
		.atomic_c = 64,
		.atomic_k = 32,
		.cbuf_banks = 16,
		.cbuf_bank_bytes = 64 * 512,
		.mem_width = 256,
		.addr_low_mask = 0xffffffffu,
	},
	[NVDLA_SIM_NV_SMALL_256] = {
		.name = "nv_small_256",
		.unit_base = sim_bases_small,
		.max_batch = 1,
		.precisions = SIM_INT8_ONLY,
		.atom = 8,
		.atomic_c = 32,
		.atomic_k = 8,
		.cbuf_banks = 32,
		.cbuf_bank_bytes = 32 * 128,
		.mem_width = 64,
		.addr_low_mask = 0xffffffffu,
	},
	[NVDLA_SIM_NV_MEDIUM_512] = {
		.name = "nv_medium_512",
		.unit_base = sim_bases_small,
		.max_batch = 1,
		.precisions = SIM_INT8_ONLY,
		.atom = 16,
		.atomic_c = 32,
		.atomic_k = 16,
		.cbuf_banks = 32,
		.cbuf_bank_bytes = 32 * 512,
		.mem_width = 128,
		.addr_low_mask = 0xffffffffu,
	},
	[NVDLA_SIM_NV_MEDIUM_1024_FULL] = {
		.name = "nv_medium_1024_full",
		.unit_base = sim_bases_small,
		.cvsram = true,
		.max_batch = 1,
		.precisions = SIM_INT8_ONLY,
		.atom = 32,
		.atomic_c = 32,
		.atomic_k = 32,
		.cbuf_banks = 32,
		.cbuf_bank_bytes = 32 * 512,
		.mem_width = 256,
		.addr_low_mask = 0xffffffffu,
	},
	/* nv_small_256 with the second memory interface (and SDP LUT, EW). */
	[NVDLA_SIM_NV_SMALL_256_FULL] = {
		.name = "nv_small_256_full",
		.unit_base = sim_bases_small,
		.cvsram = true,
		.max_batch = 1,
		.precisions = SIM_INT8_ONLY,
		.atom = 8,
		.atomic_c = 32,
		.atomic_k = 8,
		.cbuf_banks = 32,
		.cbuf_bank_bytes = 32 * 128,
		.mem_width = 64,
		.addr_low_mask = 0xffffffffu,
	},
};

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
