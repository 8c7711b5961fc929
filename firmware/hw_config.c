// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* What the firmware may drive on each hardware configuration. */
#include "engine.h"

static const u32 dla_bases_v1[NVDLA_UNIT_COUNT] = NVDLA_UNIT_BASES_NV_FULL;
static const u32 dla_bases_v2[NVDLA_UNIT_COUNT] = NVDLA_UNIT_BASES_NV_SMALL;

static const struct {
	const char *name;
	struct dla_hw_config config;
} dla_hw_configs[] = {
	{ "nv_full", { dla_bases_v1, 32, true, true, true, 64 } },
	{ "nv_large", { dla_bases_v2, 32, false, false, false, 64 } },
	{ "nv_small", { dla_bases_v2, 8, false, false, false, 32 } },
};

const struct dla_hw_config *dla_hw_config_get(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dla_hw_configs); i++)
		if (!strcmp(dla_hw_configs[i].name, name))
			return &dla_hw_configs[i].config;
	return NULL;
}
