/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Decoded images, the one form every reader produces for the conversion
 * into input tensors (image.c): 8-bit samples, gray or BGR.
 */
#ifndef __NVDLA_UMD_IMAGE_H__
#define __NVDLA_UMD_IMAGE_H__

#include <stdint.h>
#include <stdio.h>

#include "runtime_internal.h"

#define NVDLA_IMAGE_MAX_SIDE 16384

struct nvdla_image {
	uint32_t w, h, c;	/* c: 1 (gray) or 3 (BGR) */
	uint8_t *pix;		/* h rows of w pixels of c bytes */
};

/* A sample of 0..@maxval as 8 bits, rounded: the one scaling rule. */
static inline uint8_t nvdla_image_sample(unsigned long v, unsigned long maxval)
{
	return (v * 255 + maxval / 2) / maxval;
}

/*
 * Decode @path, whichever of the formats its first bytes announce (the
 * runtime's inputs, the compiler's calibration images); on failure a
 * message is left on @rt and nothing is allocated.
 */
int nvdla_image_read(struct nvdla_runtime *rt, const char *path,
		     struct nvdla_image *img);

/*
 * Readers of an open file positioned at its start, named @path in
 * messages. On success *@img holds the pixels (free img->pix); on failure
 * a message is left on @rt and nothing is allocated.
 */
int nvdla_image_read_pnm(struct nvdla_runtime *rt, const char *path, FILE *f,
			 struct nvdla_image *img);
int nvdla_image_read_jpeg(struct nvdla_runtime *rt, const char *path, FILE *f,
			  struct nvdla_image *img);
int nvdla_image_read_png(struct nvdla_runtime *rt, const char *path, FILE *f,
			 struct nvdla_image *img);

#endif /* __NVDLA_UMD_IMAGE_H__ */
