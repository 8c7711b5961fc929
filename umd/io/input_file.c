// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* Raw input data from a file: the tensor's bytes in its own layout. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "runtime_internal.h"

NVDLA_EXPORT int nvdla_network_set_input_file(struct nvdla_network *net,
					      unsigned int index,
					      const char *path)
{
	struct nvdla_runtime *rt = net->rt;
	struct nvdla_tensor_desc d;
	struct nvdla_buffer *buf;
	uint8_t *map;
	uint64_t size;
	FILE *f;
	int ret;

	ret = nvdla_network_input_desc(net, index, &d);
	if (ret)
		return ret;
	buf = nvdla_network_input(net, index);
	if (d.size > nvdla_buffer_size(buf))
		return nvdla_rt_error(rt, -EINVAL,
				      "input %u: tensor of %llu bytes in a %llu-byte buffer",
				      index, (unsigned long long)d.size,
				      (unsigned long long)nvdla_buffer_size(buf));
	ret = nvdla_rt_open_file(rt, path, &f, &size);
	if (ret)
		return ret;
	if (size != d.size)
		ret = nvdla_rt_error(rt, -EINVAL,
				     "%s: %llu bytes; input %u (%dx%dx%d) takes %llu",
				     path, (unsigned long long)size, index, d.w,
				     d.h, d.c, (unsigned long long)d.size);
	if (!ret) {
		map = nvdla_buffer_map(buf);
		memset(map, 0, nvdla_buffer_size(buf));
		if (fread(map, 1, d.size, f) != d.size)
			ret = nvdla_rt_error(rt, -EIO, "%s: short read", path);
	}
	fclose(f);
	return ret;
}
