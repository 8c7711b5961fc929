// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* What the firmware may drive on each hardware configuration. */
#include "engine.h"

static const u32 dla_bases_v1[NVDLA_UNIT_COUNT] = NVDLA_UNIT_BASES_NV_FULL;
static const u32 dla_bases_v2[NVDLA_UNIT_COUNT] = NVDLA_UNIT_BASES_NV_SMALL;

#define DLA_ALL_PRECISIONS (BIT(DLA_PRECISION_INT8) | BIT(DLA_PRECISION_INT16) | \
			    BIT(DLA_PRECISION_FP16))
#define DLA_INT8 BIT(DLA_PRECISION_INT8)

/*
 * The v2 configurations compute int8 only (nvdla v2 defines no other type);
 * the nv_small family drives 32-bit addresses (its CFGROM), the others 64.
 */
static const struct dla_hw_config dla_hw_configs[] = {
	{ "nv_full", dla_bases_v1, 32, true, true, true, DLA_ALL_PRECISIONS, 64 },
	{ "nv_large", dla_bases_v2, 32, false, false, false, DLA_INT8, 64 },
	{ "nv_small", dla_bases_v2, 8, false, false, false, DLA_INT8, 32 },
	{ "nv_small_256", dla_bases_v2, 8, false, false, false, DLA_INT8, 32 },
	{ "nv_small_256_full", dla_bases_v2, 8, false, false, false, DLA_INT8,
	  32 },
	{ "nv_medium_512", dla_bases_v2, 16, false, false, false, DLA_INT8, 64 },
	{ "nv_medium_1024_full", dla_bases_v2, 32, false, false, false, DLA_INT8,
	  64 },
};

const struct dla_hw_config *dla_hw_config_get(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dla_hw_configs); i++)
		if (!strcmp(dla_hw_configs[i].name, name))
			return &dla_hw_configs[i];
	return NULL;
}
