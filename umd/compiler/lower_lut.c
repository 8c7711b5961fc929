// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Sigmoid and Tanh through the SDP's lookup table. */
#include <errno.h>

#include "lower_internal.h"

int nvc_lut_add(struct nvc_lower *L, const struct nvc_node *n,
		enum nvc_act act, float in_scale, float out_scale)
{
	(void)act;
	(void)in_scale;
	(void)out_scale;
	return nvc_fail(L, n, -EOPNOTSUPP, "LUT activations are not lowered yet");
}
