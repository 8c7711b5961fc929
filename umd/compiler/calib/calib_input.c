// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Input values from files: images through the runtime's readers (the
 * pixels the runtime would feed the network), and .npy arrays of
 * float32 (C order, little-endian).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "graph.h"
#include "image.h"

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

/* The header's dictionary: float32, C order, @count elements. */
static int npy_header_ok(const char *h, long count)
{
	const char *s = strstr(h, "'shape':");
	long n = 1, d;
	char *end;

	if (!strstr(h, "'descr': '<f4'") || !strstr(h, "'fortran_order': False") ||
	    !s || !(s = strchr(s, '(')))
		return 0;
	for (s++; *s && *s != ')'; s = end) {
		while (*s == ' ' || *s == ',')
			s++;
		if (*s == ')')
			break;
		d = strtol(s, &end, 10);
		if (end == s || d < 0 || d > NVC_MAX_ELEMENTS)
			return 0;
		n *= d;
		if (n > NVC_MAX_ELEMENTS)
			return 0;
	}
	return *s == ')' && n == count;
}

int nvc_npy_read(const char *path, long count, float *out, char *err,
		 size_t errlen)
{
	unsigned char pre[12];
	char header[4096];
	size_t len;
	FILE *f = fopen(path, "rb");
	int ret = -EINVAL;

	if (!f)
		return nvc_error(err, errlen, -errno, "%s: %s", path, strerror(errno));
	if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6) ||
	    pre[6] < 1 || pre[6] > 3)
		goto bad;
	len = pre[8] | pre[9] << 8;
	if (pre[6] > 1) {	/* versions 2 and 3: a 4-byte length */
		if (fread(pre + 10, 1, 2, f) != 2)
			goto bad;
		len |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
	}
	if (len >= sizeof(header) || fread(header, 1, len, f) != len)
		goto bad;
	header[len] = 0;
	if (!npy_header_ok(header, count))
		goto bad;
	if (fread(out, sizeof(float), count, f) != (size_t)count || fgetc(f) != EOF)
		goto bad;
	ret = 0;
bad:
	fclose(f);
	if (ret)
		nvc_error(err, errlen, ret,
			  "%s: not a float32 .npy array of %ld values", path, count);
	return ret;
}
