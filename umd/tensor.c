// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Where a tensor's elements lie in its buffer: the feature layout (atoms
 * of 32 bytes, or 8 for int8 on nv_small, surface after surface) or
 * planar 8-bit pixels, with the strides of its description.
 */
#include <errno.h>

#include "runtime_internal.h"

int nvdla_tensor_layout(const struct nvdla_tensor_desc *d,
			struct nvdla_layout *l)
{
	if (d->pixel_format == NVDLA_TENSOR_R8 &&
	    d->data_type == NVDLA_DATA_TYPE_INT8) {
		*l = (struct nvdla_layout){ 1, 0 };
		return 0;
	}
	if (d->pixel_format == NVDLA_TENSOR_FEATURE_X8 &&
	    d->data_type == NVDLA_DATA_TYPE_INT8) {
		*l = (struct nvdla_layout){ 1, 8 };
		return 0;
	}
	if (d->pixel_format != NVDLA_TENSOR_FEATURE)
		return -EOPNOTSUPP;
	switch (d->data_type) {
	case NVDLA_DATA_TYPE_INT8:
		*l = (struct nvdla_layout){ 1, 32 };
		return 0;
	case NVDLA_DATA_TYPE_INT16:
	case NVDLA_DATA_TYPE_HALF:
		*l = (struct nvdla_layout){ 2, 16 };
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

uint64_t nvdla_tensor_at(const struct nvdla_tensor_desc *d,
			 const struct nvdla_layout *l, uint32_t c, uint32_t y,
			 uint32_t x)
{
	if (!l->lanes)
		return (uint64_t)y * d->stride[1] + (uint64_t)x * l->bpe;
	return (uint64_t)(c / l->lanes) * d->stride[2] +
	       (uint64_t)y * d->stride[1] +
	       ((uint64_t)x * l->lanes + c % l->lanes) * l->bpe;
}

int nvdla_tensor_elements(const struct nvdla_tensor_desc *d, uint64_t *n)
{
	if (d->c <= 0 || d->h <= 0 || d->w <= 0 ||
	    __builtin_mul_overflow((uint64_t)d->c, (uint64_t)d->h, n) ||
	    __builtin_mul_overflow(*n, (uint64_t)d->w, n))
		return -EINVAL;
	return 0;
}
