// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * JPEG images through libjpeg: grayscale stays gray, colour is decoded
 * straight to BGR as the official runtime does. Corrupt data, which
 * libjpeg only warns about, is an error here.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>	/* before jpeglib.h, which needs FILE */
#include <stdlib.h>

#include <jpeglib.h>

#include "image.h"

struct jpeg_fail {
	struct jpeg_error_mgr mgr;
	jmp_buf jump;
	char msg[JMSG_LENGTH_MAX];
};

static void jpeg_fail_exit(j_common_ptr cinfo)
{
	struct jpeg_fail *fail = (struct jpeg_fail *)cinfo->err;

	cinfo->err->format_message(cinfo, fail->msg);
	longjmp(fail->jump, 1);
}

/* Warnings are counted (num_warnings), not printed. */
static void jpeg_quiet(j_common_ptr cinfo)
{
	(void)cinfo;
}

/* Decode the scanlines into @img->pix (allocated by the caller). */
static void jpeg_rows(struct jpeg_decompress_struct *cinfo,
		      struct nvdla_image *img)
{
	while (cinfo->output_scanline < cinfo->output_height) {
		JSAMPROW row = img->pix + (size_t)cinfo->output_scanline *
					  img->w * img->c;

		jpeg_read_scanlines(cinfo, &row, 1);
	}
}

int nvdla_image_read_jpeg(struct nvdla_runtime *rt, const char *path, FILE *f,
			  struct nvdla_image *img)
{
	struct jpeg_decompress_struct cinfo;
	struct jpeg_fail fail;
	uint8_t *volatile pix = NULL;
	volatile int ret = 0;

	cinfo.err = jpeg_std_error(&fail.mgr);
	fail.mgr.error_exit = jpeg_fail_exit;
	fail.mgr.output_message = jpeg_quiet;
	if (setjmp(fail.jump)) {
		free(pix);
		jpeg_destroy_decompress(&cinfo);
		return nvdla_rt_error(rt, -EINVAL, "%s: JPEG: %s", path, fail.msg);
	}
	jpeg_create_decompress(&cinfo);
	jpeg_stdio_src(&cinfo, f);
	jpeg_read_header(&cinfo, TRUE);
	if (cinfo.jpeg_color_space == JCS_GRAYSCALE)
		cinfo.out_color_space = JCS_GRAYSCALE;
	else if (cinfo.jpeg_color_space == JCS_YCbCr ||
		 cinfo.jpeg_color_space == JCS_RGB)
		cinfo.out_color_space = JCS_EXT_BGR;
	else
		ret = nvdla_rt_error(rt, -EINVAL,
				     "%s: JPEG colour space %d (CMYK?) unsupported",
				     path, cinfo.jpeg_color_space);
	if (!ret && (cinfo.image_width > NVDLA_IMAGE_MAX_SIDE ||
		     cinfo.image_height > NVDLA_IMAGE_MAX_SIDE))
		ret = nvdla_rt_error(rt, -EINVAL, "%s: JPEG of %ux%u too large",
				     path, cinfo.image_width, cinfo.image_height);
	if (!ret) {
		jpeg_start_decompress(&cinfo);
		img->w = cinfo.output_width;
		img->h = cinfo.output_height;
		img->c = cinfo.output_components;
		pix = malloc((size_t)img->w * img->h * img->c);
		img->pix = pix;
		if (!pix)
			ret = nvdla_rt_error(rt, -ENOMEM, "%s: out of memory", path);
	}
	if (!ret) {
		jpeg_rows(&cinfo, img);
		jpeg_finish_decompress(&cinfo);
		if (fail.mgr.num_warnings)
			ret = nvdla_rt_error(rt, -EINVAL,
					     "%s: JPEG data corrupt or truncated",
					     path);
	}
	jpeg_destroy_decompress(&cinfo);
	if (ret)
		free(pix);
	return ret;
}
