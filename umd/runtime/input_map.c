// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Reading the "input-mapping" blob (input_map.h) into the bindings. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "input_map.h"
#include "le_bytes.h"
#include "runtime_internal.h"

static float rdf32(const uint8_t *p)
{
	uint32_t u = rd32(p);
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

static int input_map_entry(struct nvdla_network *net, const uint8_t *e,
			   uint32_t i)
{
	unsigned int bind = e[NVDLA_INPUT_MAP_BIND] |
			    e[NVDLA_INPUT_MAP_BIND + 1] << 8;
	struct nvdla_image_options map;
	bool ok;
	int c;

	map.normalize = rdf32(e + NVDLA_INPUT_MAP_NORM);
	ok = bind < net->num_inputs && !e[3] &&
	     e[NVDLA_INPUT_MAP_ORDER] == NVDLA_INPUT_MAP_BGR &&
	     isfinite(map.normalize) && map.normalize != 0;
	for (c = 0; c < 4; c++) {
		map.mean[c] = rdf32(e + NVDLA_INPUT_MAP_MEAN + 4 * c);
		ok = ok && isfinite(map.mean[c]);
	}
	if (!ok)
		return nvdla_rt_error(net->rt, -EINVAL,
				      "malformed loadable: %s entry %u: bind id %u, order %u, normalize %g",
				      NVDLA_INPUT_MAP_BLOB, i, bind,
				      e[NVDLA_INPUT_MAP_ORDER], map.normalize);
	net->inputs[bind].map = map;
	net->inputs[bind].mapped = true;
	return 0;
}

int nvdla_net_input_map(struct nvdla_network *net)
{
	return nvdla_net_blob_table(net, NVDLA_INPUT_MAP_BLOB, NVDLA_INPUT_MAP_MAGIC, NVDLA_INPUT_MAP_ENTRY,
				    input_map_entry);
}

NVDLA_EXPORT int nvdla_network_input_mapping(struct nvdla_network *net, unsigned int index,
				struct nvdla_image_options *opt)
{
	if (!net || !opt)
		return -EINVAL;
	if (index >= net->num_inputs)
		return nvdla_rt_error(net->rt, -EINVAL,
				      "input %u: the network has %u inputs",
				      index, net->num_inputs);
	if (!net->inputs[index].mapped)
		return 0;
	*opt = net->inputs[index].map;
	return 1;
}
