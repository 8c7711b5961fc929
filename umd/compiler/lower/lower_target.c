// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The target: a configuration's entry of nvdla/hw_configs.h, the table
 * the firmware and the hardware model expand too (atom, precisions,
 * engines, MAC array, convolution buffer).
 */
#include <errno.h>

#include "lower_internal.h"

int nvc_target_get(const char *name, struct nvc_target *t)
{
	if (!name)
		return -EINVAL;
	t->hw = dla_hw_config_get(name);
	if (!t->hw)
		return -EINVAL;
	t->cbuf = &t->hw->cbuf;
	t->atom = t->hw->atom_size;
	t->bank_bytes = t->cbuf->depth * t->cbuf->width;
	return 0;
}

bool nvc_target_fp16(const struct nvc_target *t)
{
	return t->hw->precisions & (1u << DLA_PRECISION_FP16);
}
