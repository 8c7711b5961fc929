// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Where a tensor's elements lie in its buffer: the feature layout (atoms
 * of 32 bytes, or 8 for int8 on nv_small, surface after surface) or
 * pitch-linear pixels of the image formats the official runtime fills
 * (R8 and A8B8G8R8 in int8, A16B16G16R16_F in fp16), with the strides of
 * its description.
 */
#include <assert.h>
#include <errno.h>

#include <nvdla/pixel_formats.h>

#include "runtime_internal.h"

/* The image formats and data types the official runtime reads images into. */
static const struct {
	uint8_t pixel_format;
	uint8_t data_type;
} image_tensors[] = {
	{ NVDLA_TENSOR_R8, NVDLA_DATA_TYPE_INT8 },
	{ NVDLA_TENSOR_A8B8G8R8, NVDLA_DATA_TYPE_INT8 },
	{ NVDLA_TENSOR_A16B16G16R16_F, NVDLA_DATA_TYPE_HALF },
};

static_assert((int)NVDLA_TENSOR_R8 == (int)NVDLA_PIXEL_R8 &&
	      (int)NVDLA_TENSOR_A8B8G8R8 == (int)NVDLA_PIXEL_A8B8G8R8 &&
	      (int)NVDLA_TENSOR_A16B16G16R16_F ==
	      (int)NVDLA_PIXEL_A16B16G16R16_F,
	      "tensor pixel formats are the hardware's image format codes");

static int image_layout(const struct nvdla_tensor_desc *d,
			struct nvdla_layout *l)
{
	const struct nvdla_pixel_layout *px;
	size_t i;

	for (i = 0; i < sizeof(image_tensors) / sizeof(image_tensors[0]); i++) {
		if (image_tensors[i].pixel_format != d->pixel_format ||
		    image_tensors[i].data_type != d->data_type)
			continue;
		px = nvdla_pixel_layout(d->pixel_format);
		*l = (struct nvdla_layout){ px->bits / 8, 0, px->comps };
		return 0;
	}
	return -EOPNOTSUPP;
}

int nvdla_tensor_layout(const struct nvdla_tensor_desc *d,
			struct nvdla_layout *l)
{
	if (!image_layout(d, l))
		return 0;
	if (d->pixel_format == NVDLA_TENSOR_FEATURE_X8 &&
	    d->data_type == NVDLA_DATA_TYPE_INT8) {
		*l = (struct nvdla_layout){ 1, 8, 0 };
		return 0;
	}
	if (d->pixel_format != NVDLA_TENSOR_FEATURE)
		return -EOPNOTSUPP;
	switch (d->data_type) {
	case NVDLA_DATA_TYPE_INT8:
		*l = (struct nvdla_layout){ 1, 32, 0 };
		return 0;
	case NVDLA_DATA_TYPE_INT16:
	case NVDLA_DATA_TYPE_HALF:
		*l = (struct nvdla_layout){ 2, 16, 0 };
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
		return (uint64_t)y * d->stride[1] +
		       ((uint64_t)x * l->pixel + c) * l->bpe;
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
