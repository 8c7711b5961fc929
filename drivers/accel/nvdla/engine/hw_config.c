// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* What the firmware may drive on each hardware configuration. */
#include "engine.h"

#define DLA_PRECISIONS(int16, fp16) \
	(BIT(DLA_PRECISION_INT8) | ((int16) ? BIT(DLA_PRECISION_INT16) : 0) | \
	 ((fp16) ? BIT(DLA_PRECISION_FP16) : 0))

/* The configurations' indices, in the order of nvdla/hw_configs.h. */
enum dla_hw_config_id {
#define NVDLA_HW_CONFIG(id, ...) DLA_HW_CONFIG_##id,
#include <nvdla/hw_configs.h>
#undef NVDLA_HW_CONFIG
};

/* Each configuration's shared facts (nvdla/hw_configs.h) as an entry. */
#define NVDLA_HW_CONFIG(id, cfg_name, map, atom, has_bdma, has_rubik, wcomp, \
			wino, int16, fp16, bits, mac_c, mac_k, n_banks, \
			n_entries, entry_bytes, early, y) \
	[DLA_HW_CONFIG_##id] = { \
		.name = cfg_name, \
		.unit_base = (const u32[NVDLA_UNIT_COUNT])NVDLA_UNIT_BASES_##map, \
		.atom_size = atom, \
		.bdma = has_bdma, \
		.rubik = has_rubik, \
		.weight_compress = wcomp, \
		.winograd = wino, \
		.cdma_early = early, \
		.sdp_y = y, \
		.precisions = DLA_PRECISIONS(int16, fp16), \
		.addr_bits = bits, \
		.cbuf = { .atomic_c = mac_c, .atomic_k = mac_k, \
			  .banks = n_banks, .depth = n_entries, .width = entry_bytes }, \
	},

static const struct dla_hw_config dla_hw_configs[] = {
#include <nvdla/hw_configs.h>
};

#undef NVDLA_HW_CONFIG

const struct dla_hw_config *dla_hw_config_get(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dla_hw_configs); i++)
		if (!strcmp(dla_hw_configs[i].name, name))
			return &dla_hw_configs[i];
	return NULL;
}
