// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* PGM and PPM images: P2, P3 (text) and P5, P6 (binary), any maxval. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"

/* Next header token of a PNM file, skipping blanks and # comments. */
static int pnm_token(FILE *f, unsigned long *v)
{
	int ch;

	for (;;) {
		ch = fgetc(f);
		if (ch == '#')
			while (ch != '\n' && ch != EOF)
				ch = fgetc(f);
		else if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n')
			break;
	}
	if (ch < '0' || ch > '9')
		return -EINVAL;
	*v = 0;
	while (ch >= '0' && ch <= '9') {
		if (*v > 1000000)
			return -EINVAL;
		*v = *v * 10 + (ch - '0');
		ch = fgetc(f);
	}
	return 0;
}

static int pnm_sample(FILE *f, bool ascii, unsigned long maxval,
		      unsigned long *v)
{
	int hi, lo;

	if (ascii)
		return pnm_token(f, v);
	hi = fgetc(f);
	if (maxval < 256) {
		*v = hi;
		return hi == EOF ? -EINVAL : 0;
	}
	lo = fgetc(f);
	*v = (unsigned long)hi << 8 | lo;
	return hi == EOF || lo == EOF ? -EINVAL : 0;
}

int nvdla_image_read_pnm(struct nvdla_runtime *rt, const char *path, FILE *f,
			 struct nvdla_image *img)
{
	unsigned long w, h, maxval, v;
	char magic[2];
	bool ascii;
	size_t i, n;
	int ret = 0;

	if (fread(magic, 1, 2, f) != 2 || magic[0] != 'P' ||
	    !strchr("2356", magic[1]) || pnm_token(f, &w) || pnm_token(f, &h) ||
	    pnm_token(f, &maxval) || !w || !h || w > NVDLA_IMAGE_MAX_SIDE ||
	    h > NVDLA_IMAGE_MAX_SIDE || !maxval || maxval > 65535)
		return nvdla_rt_error(rt, -EINVAL,
				      "%s: not a PGM or PPM image (P2, P3, P5, P6) of sane size",
				      path);
	ascii = magic[1] == '2' || magic[1] == '3';
	img->w = w;
	img->h = h;
	img->c = magic[1] == '3' || magic[1] == '6' ? 3 : 1;
	n = (size_t)w * h * img->c;
	img->pix = malloc(n);
	if (!img->pix)
		return nvdla_rt_error(rt, -ENOMEM, "%s: out of memory", path);
	/* pnm_token() consumed the single blank after maxval. */
	for (i = 0; i < n && !ret; i++) {
		ret = pnm_sample(f, ascii, maxval, &v);
		if (!ret && v > maxval)
			ret = -EINVAL;
		/* RGB becomes BGR. */
		img->pix[img->c == 3 ? i - i % 3 + 2 - i % 3 : i] =
			nvdla_image_sample(v, maxval);
	}
	if (ret) {
		free(img->pix);
		return nvdla_rt_error(rt, -EINVAL, "%s: pixel data short or out of range",
				      path);
	}
	return 0;
}
