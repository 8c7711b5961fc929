// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * PNG images through libpng: gray stays gray, colour and palette images
 * become BGR, alpha is dropped, 16-bit samples are scaled to 8 bits by the
 * rule the PGM/PPM reader uses.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>

#include <png.h>

#include "image.h"

struct png_fail {
	char msg[160];
};

static void png_fail_exit(png_structp png, png_const_charp msg)
{
	struct png_fail *fail = png_get_error_ptr(png);

	snprintf(fail->msg, sizeof(fail->msg), "%s", msg);
	png_longjmp(png, 1);
}

static void png_quiet(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

/* Gray or BGR, 8 or 16 bits per sample, no alpha, no palette. */
static void png_transforms(png_structp png, png_infop info)
{
	int type = png_get_color_type(png, info);

	if (type == PNG_COLOR_TYPE_PALETTE)
		png_set_palette_to_rgb(png);
	if (type == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, info) < 8)
		png_set_expand_gray_1_2_4_to_8(png);
	if (type & PNG_COLOR_MASK_ALPHA)
		png_set_strip_alpha(png);
	if (type & PNG_COLOR_MASK_COLOR)
		png_set_bgr(png);
	png_set_interlace_handling(png);
	png_read_update_info(png, info);
}

/* Rows of @bytes-per-sample samples (16-bit ones big-endian) to 8 bits. */
static void png_to_8bit(const uint8_t *rows, size_t n, int bytes,
			uint8_t *pix)
{
	size_t i;

	for (i = 0; i < n; i++)
		pix[i] = bytes == 1 ? rows[i] :
			 nvdla_image_sample((unsigned long)rows[2 * i] << 8 |
					    rows[2 * i + 1], 65535);
}

int nvdla_image_read_png(struct nvdla_runtime *rt, const char *path, FILE *f,
			 struct nvdla_image *img)
{
	struct png_fail fail = { "" };
	png_structp png;
	png_infop info = NULL;
	uint8_t *volatile rows = NULL;
	uint8_t *volatile pix = NULL;
	png_bytep *volatile row_ptrs = NULL;
	size_t stride;
	uint32_t y;
	int bytes;

	png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &fail,
				     png_fail_exit, png_quiet);
	if (png)
		info = png_create_info_struct(png);
	if (!info) {
		png_destroy_read_struct(&png, NULL, NULL);
		return nvdla_rt_error(rt, -ENOMEM, "%s: out of memory", path);
	}
	if (setjmp(png_jmpbuf(png))) {
		free(row_ptrs);
		free(rows);
		free(pix);
		png_destroy_read_struct(&png, &info, NULL);
		return nvdla_rt_error(rt, -EINVAL, "%s: PNG: %s", path, fail.msg);
	}
	png_set_user_limits(png, NVDLA_IMAGE_MAX_SIDE, NVDLA_IMAGE_MAX_SIDE);
	png_init_io(png, f);
	png_read_info(png, info);
	png_transforms(png, info);
	img->w = png_get_image_width(png, info);
	img->h = png_get_image_height(png, info);
	img->c = png_get_channels(png, info);
	bytes = png_get_bit_depth(png, info) / 8;
	stride = png_get_rowbytes(png, info);
	rows = malloc(stride * img->h);
	pix = malloc((size_t)img->w * img->h * img->c);
	row_ptrs = malloc(img->h * sizeof(*row_ptrs));
	if (!rows || !pix || !row_ptrs)
		png_error(png, "out of memory");
	for (y = 0; y < img->h; y++)
		row_ptrs[y] = rows + y * stride;
	png_read_image(png, row_ptrs);
	png_read_end(png, NULL);
	for (y = 0; y < img->h; y++)
		png_to_8bit(rows + y * stride, (size_t)img->w * img->c, bytes,
			    pix + (size_t)y * img->w * img->c);
	free(row_ptrs);
	free(rows);
	png_destroy_read_struct(&png, &info, NULL);
	img->pix = pix;
	return 0;
}
