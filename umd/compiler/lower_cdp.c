// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Local response normalisation on the CDP. */
#include <errno.h>

#include "lower_internal.h"

int nvc_lower_lrn(struct nvc_lower *L, int node)
{
	return nvc_fail(L, &L->g->nodes[node], -EOPNOTSUPP,
			"LRN is not lowered yet");
}
