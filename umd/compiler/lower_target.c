// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The target: the facts the firmware knows of a configuration
 * (nvdla/hw_configs.h: atom, precisions, engines) and those of its
 * convolution core the model knows (MAC array, CBUF).
 */
#include <errno.h>

#include "lower_internal.h"

int nvc_target_get(const char *name, struct nvc_target *t)
{
	if (!name)
		return -EINVAL;
	t->hw = dla_hw_config_get(name);
	if (!t->hw || nvdla_sim_conv_core(name, &t->core))
		return -EINVAL;
	t->atom = t->hw->atom_size;
	return 0;
}

bool nvc_target_fp16(const struct nvc_target *t)
{
	return t->hw->precisions & (1u << DLA_PRECISION_FP16);
}
