// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Reading the "tensor-scales" blob (scales.h) into the bindings. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "le_bytes.h"
#include "runtime_internal.h"
#include "scales.h"

static int scales_entry(struct nvdla_network *net, const uint8_t *e,
			uint32_t i)
{
	unsigned int bind = e[NVDLA_SCALES_BIND] | e[NVDLA_SCALES_BIND + 1] << 8;
	uint8_t kind = e[NVDLA_SCALES_KIND];
	struct nvdla_binding *b;
	uint32_t u = rd32(e + NVDLA_SCALES_SCALE);
	float scale;

	memcpy(&scale, &u, sizeof(scale));
	if (kind > 1 || e[1] || rd32(e + 12) ||
	    bind >= (kind ? net->num_outputs : net->num_inputs) ||
	    !isfinite(scale) || scale <= 0)
		return nvdla_rt_error(net->rt, -EINVAL,
				      "malformed loadable: %s entry %u: kind %u, bind id %u, scale %g",
				      NVDLA_SCALES_BLOB, i, kind, bind, scale);
	b = kind ? &net->outputs[bind] : &net->inputs[bind];
	b->scale = scale;
	b->zero = (int32_t)rd32(e + NVDLA_SCALES_ZERO);
	b->scaled = true;
	return 0;
}

int nvdla_net_scales(struct nvdla_network *net)
{
	return nvdla_net_blob_table(net, NVDLA_SCALES_BLOB, NVDLA_SCALES_MAGIC, NVDLA_SCALES_ENTRY,
				    scales_entry);
}
