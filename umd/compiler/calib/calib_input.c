// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Input values from images, through the runtime's readers: the pixels
 * the runtime would feed the network (.npy arrays: npy.c).
 */
#include <errno.h>
#include <stdlib.h>

#include "calib.h"
#include "graph.h"
#include "image.h"
#include "npy.h"

int nvc_image_input(const char *path, const struct nvc_tensor *t,
		    const struct nvc_pixel_map *m, float *out, char *err,
		    size_t errlen)
{
	struct nvdla_runtime rt = { 0 };
	struct nvdla_image img = { 0 };
	uint32_t x, y, c;

	if (nvdla_image_read(&rt, path, &img))
		return nvc_error(err, errlen, -EINVAL, "%s", rt.error);
	if ((int)img.w != t->w || (int)img.h != t->h || (int)img.c != t->c) {
		nvc_error(err, errlen, -EINVAL,
			  "%s: %ux%u with %u channels; input '%s' is %dx%d with %d",
			  path, img.w, img.h, img.c, t->name, t->w, t->h, t->c);
		free(img.pix);
		return -EINVAL;
	}
	for (c = 0; c < img.c; c++)
		for (y = 0; y < img.h; y++)
			for (x = 0; x < img.w; x++)
				out[((long)c * img.h + y) * img.w + x] =
					(img.pix[((long)y * img.w + x) * img.c + c] -
					 m->mean[c]) / m->normalize;
	free(img.pix);
	return 0;
}

int nvc_npy_read(const char *path, const struct nvc_tensor *t, float *out,
		 char *err, size_t errlen)
{
	return nvdla_npy_read(path, t->name, t->c, t->h, t->w, out, err,
			      errlen);
}
