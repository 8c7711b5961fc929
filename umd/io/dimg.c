// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * DIMG, the official runtime's output file: a 36-byte little-endian header
 * (magic, version 0, surface format, width, height, channel, line stride,
 * surface stride, buffer size) followed by the tensor's elements in C, H, W
 * order, each read from its place in the feature layout.
 *
 * The surface format codes are those the official regression goldens were
 * made with (before the x8 int8 format shifted the numbering).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime_internal.h"
#include "le_bytes.h"

#define DIMG_MAGIC "DIMG"

enum dimg_format {
	DIMG_F8_CXHWX_X32_I = 40,
	DIMG_F16_CXHWX_X16_I = 41,
	DIMG_F16_CXHWX_X16_F = 42,
};

/*
 * The DIMG format code of @d, with its layout; features only. 8-channel
 * atoms (nv_small) have no code in the goldens' numbering; their payload
 * is dense int8 either way, so they take the int8 code, as the official
 * nv_small goldens do.
 */
static int dimg_code(const struct nvdla_tensor_desc *d,
		     struct nvdla_layout *lay, uint32_t *format)
{
	if (nvdla_tensor_layout(d, lay) || !lay->lanes)
		return -EOPNOTSUPP;
	*format = lay->bpe == 1 ? DIMG_F8_CXHWX_X32_I :
		  d->data_type == NVDLA_DATA_TYPE_HALF ? DIMG_F16_CXHWX_X16_F :
		  DIMG_F16_CXHWX_X16_I;
	return 0;
}

/* Gather the elements into @out; -EINVAL if one lies outside @size. */
static int dimg_pack(const struct nvdla_tensor_desc *d,
		     const struct nvdla_layout *lay, const uint8_t *src,
		     uint64_t size, uint8_t *out)
{
	int32_t c, y, x;

	for (c = 0; c < d->c; c++) {
		for (y = 0; y < d->h; y++) {
			for (x = 0; x < d->w; x++) {
				uint64_t at = nvdla_tensor_at(d, lay, c, y, x);

				if (at + lay->bpe > size)
					return -EINVAL;
				memcpy(out, src + at, lay->bpe);
				out += lay->bpe;
			}
		}
	}
	return 0;
}

NVDLA_EXPORT int nvdla_network_output_values(struct nvdla_network *net,
					     unsigned int index, float *values,
					     size_t n)
{
	struct nvdla_tensor_desc d;
	struct nvdla_layout lay;
	const struct nvdla_binding *b;
	const uint8_t *map;
	uint64_t size, at, elems;
	int32_t c, y, x;
	float v;
	int ret;

	ret = nvdla_network_output_desc(net, index, &d);
	if (ret)
		return ret;
	if (nvdla_tensor_layout(&d, &lay) || !lay.lanes ||
	    nvdla_tensor_elements(&d, &elems) || n != elems)
		return nvdla_rt_error(net->rt, -EINVAL,
				      "output %u: no %zu feature values to read",
				      index, n);
	map = nvdla_buffer_map(nvdla_network_output(net, index));
	size = nvdla_buffer_size(nvdla_network_output(net, index));
	b = &net->outputs[index];
	for (c = 0; c < d.c; c++) {
		for (y = 0; y < d.h; y++) {
			for (x = 0; x < d.w; x++) {
				at = nvdla_tensor_at(&d, &lay, c, y, x);
				if (at + lay.bpe > size)
					return nvdla_rt_error(net->rt, -EINVAL,
							      "output %u: strides reach beyond its buffer",
							      index);
				if (lay.bpe == 1)
					v = (int8_t)map[at];
				else if (d.data_type == NVDLA_DATA_TYPE_HALF)
					v = nvdla_half_to_float(map[at] | map[at + 1] << 8);
				else
					v = (int16_t)(map[at] | map[at + 1] << 8);
				/* Integer codes as real numbers (the loadable's scale). */
				if (b->scaled && d.data_type != NVDLA_DATA_TYPE_HALF)
					v = (v - (float)b->zero) * b->scale;
				*values++ = v;
			}
		}
	}
	return 0;
}

NVDLA_EXPORT int nvdla_network_write_dimg(struct nvdla_network *net,
					  unsigned int index, const char *path)
{
	struct nvdla_runtime *rt = net->rt;
	struct nvdla_tensor_desc d;
	struct nvdla_layout lay;
	struct nvdla_buffer *buf;
	uint8_t header[36], *payload;
	uint64_t elems, len;
	uint32_t format;
	FILE *f;
	int ret;

	ret = nvdla_network_output_desc(net, index, &d);
	if (ret)
		return ret;
	if (dimg_code(&d, &lay, &format))
		return nvdla_rt_error(rt, -EOPNOTSUPP,
				      "output %u: pixel format %u, data type %u not writable as DIMG",
				      index, d.pixel_format, d.data_type);
	if (nvdla_tensor_elements(&d, &elems) ||
	    __builtin_mul_overflow(elems, lay.bpe, &len) || len > SIZE_MAX)
		return nvdla_rt_error(rt, -EINVAL, "output %u: %dx%dx%d tensor empty or too large",
				      index, d.w, d.h, d.c);
	payload = malloc(len);
	if (!payload)
		return nvdla_rt_error(rt, -ENOMEM, "out of memory");
	buf = nvdla_network_output(net, index);
	if (dimg_pack(&d, &lay, nvdla_buffer_map(buf), nvdla_buffer_size(buf),
		      payload)) {
		free(payload);
		return nvdla_rt_error(rt, -EINVAL,
				      "output %u: strides reach beyond its %llu-byte buffer",
				      index,
				      (unsigned long long)nvdla_buffer_size(buf));
	}

	memcpy(header, DIMG_MAGIC, 4);
	wr32(header + 4, 0);
	wr32(header + 8, format);
	wr32(header + 12, d.w);
	wr32(header + 16, d.h);
	wr32(header + 20, d.c);
	wr32(header + 24, d.stride[1]);
	wr32(header + 28, d.stride[2]);
	wr32(header + 32, (uint32_t)d.size);

	f = fopen(path, "wb");
	if (!f)
		ret = nvdla_rt_error(rt, -errno, "%s: %s", path, strerror(errno));
	else if (fwrite(header, 1, sizeof(header), f) != sizeof(header) ||
		 fwrite(payload, 1, len, f) != len)
		ret = nvdla_rt_error(rt, -EIO, "%s: write failed", path);
	if (f && fclose(f) && !ret)
		ret = nvdla_rt_error(rt, -EIO, "%s: write failed", path);
	free(payload);
	return ret;
}
