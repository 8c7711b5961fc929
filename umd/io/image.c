// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Images as network inputs: PGM/PPM, JPEG or PNG, told apart by their
 * first bytes, decoded to 8-bit gray or BGR (the order Caffe-trained
 * networks expect) and converted the way the official runtime does to the
 * input tensor's layout and precision: fp16 (pixel - mean) / normalize,
 * int8 round(pixel * 127 / 255), in feature (CxHWx) layout or as pixels
 * (R8, A8B8G8R8, A16B16G16R16_F: image channel c, gray or B, G, R, in
 * component c of its pixel, the others 0). Raw input data is copied as it
 * is, after a size check. Real values (nvdla_network_set_input_values())
 * take the same layouts, the inverse of nvdla_network_output_values().
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"


/* IEEE half precision of @f, rounded to nearest even. */
static uint16_t to_fp16(float f)
{
	uint32_t x, sign, mant;
	int32_t exp;

	memcpy(&x, &f, sizeof(x));
	sign = x >> 16 & 0x8000;
	exp = (int32_t)(x >> 23 & 0xff) - 127 + 15;
	mant = x & 0x7fffff;
	if ((x & 0x7fffffff) > 0x7f800000)
		return sign | 0x7e00;		/* NaN */
	if (exp >= 31)
		return sign | 0x7c00;		/* overflow: infinity */
	if (exp <= 0) {				/* subnormal or zero */
		if (exp < -10)
			return sign;
		mant |= 0x800000;
		x = mant >> (14 - exp);
		if ((mant >> (13 - exp) & 1) &&
		    ((mant & ((1u << (13 - exp)) - 1)) || (x & 1)))
			x++;
		return sign | x;
	}
	x = (uint32_t)exp << 10 | mant >> 13;
	if ((mant & 0x1000) && ((mant & 0x2fff) || (x & 1)))
		x++;			/* may carry into the exponent: right */
	return sign | x;
}

int nvdla_image_read(struct nvdla_runtime *rt, const char *path,
		     struct nvdla_image *img)
{
	static const uint8_t jpeg[] = { 0xff, 0xd8, 0xff };
	static const uint8_t png[] = { 0x89, 'P', 'N', 'G' };
	uint8_t magic[4] = { 0 };
	uint64_t size;
	FILE *f;
	int ret;

	ret = nvdla_rt_open_file(rt, path, &f, &size);
	if (ret)
		return ret;
	if (fread(magic, 1, sizeof(magic), f) < 2 || fseek(f, 0, SEEK_SET))
		ret = nvdla_rt_error(rt, -EINVAL, "%s: empty or unreadable", path);
	else if (!memcmp(magic, jpeg, sizeof(jpeg)))
		ret = nvdla_image_read_jpeg(rt, path, f, img);
	else if (!memcmp(magic, png, sizeof(png)))
		ret = nvdla_image_read_png(rt, path, f, img);
	else if (magic[0] == 'P' && magic[1] >= '1' && magic[1] <= '7')
		ret = nvdla_image_read_pnm(rt, path, f, img);
	else
		ret = nvdla_rt_error(rt, -EINVAL,
				     "%s: not a PGM, PPM, JPEG or PNG image", path);
	fclose(f);
	return ret;
}

static void put_element(uint8_t *at, const struct nvdla_tensor_desc *d,
			const struct nvdla_layout *l, float value)
{
	long v;

	switch (d->data_type) {
	case NVDLA_DATA_TYPE_HALF:
		v = to_fp16(value);
		break;
	case NVDLA_DATA_TYPE_INT16:
		v = nvdla_round_sat(value, -32768, 32767);
		break;
	default:
		v = nvdla_round_sat(value, -128, 127);
		break;
	}
	at[0] = v;
	if (l->bpe == 2)
		at[1] = v >> 8;
}

/*
 * Pixel @p of channel @c as the input's value: with the loadable's scale
 * (@b) the real value (p - mean) / normalize in its codes, else int8
 * round(p * 127 / 255) as the official runtime does.
 */
static float image_value(const struct nvdla_binding *b,
			 const struct nvdla_tensor_desc *d,
			 const struct nvdla_image_options *opt, float p,
			 uint32_t c)
{
	float real = (p - opt->mean[c < 4 ? c : 3]) / opt->normalize;

	if (b)
		return real / b->scale + (float)b->zero;
	return d->data_type == NVDLA_DATA_TYPE_INT8 ? p * 127.0f / 255.0f :
	       real;
}

/*
 * The descriptor and element layout of input @index, which takes @what
 * ("an image", "values"): -EOPNOTSUPP, said, for a format without one.
 */
static int input_layout(struct nvdla_network *net, unsigned int index,
			const char *what, struct nvdla_tensor_desc *d,
			struct nvdla_layout *l)
{
	int ret = nvdla_network_input_desc(net, index, d);

	if (ret)
		return ret;
	if (nvdla_tensor_layout(d, l))
		return nvdla_rt_error(net->rt, -EOPNOTSUPP,
				      "input %u: pixel format %u, data type %u cannot take %s",
				      index, d->pixel_format, d->data_type, what);
	return 0;
}

NVDLA_EXPORT int nvdla_network_set_image(struct nvdla_network *net,
					 unsigned int index, const char *path,
					 const struct nvdla_image_options *opt)
{
	struct nvdla_runtime *rt = net->rt;
	struct nvdla_tensor_desc d;
	struct nvdla_layout l;
	struct nvdla_buffer *buf;
	struct nvdla_image img = { 0 };
	uint32_t x, y, c;
	uint8_t *map;
	uint64_t size;
	int ret;

	ret = input_layout(net, index, "an image", &d, &l);
	if (ret)
		return ret;
	ret = nvdla_image_read(rt, path, &img);
	if (ret)
		return ret;
	if ((int32_t)img.w != d.w || (int32_t)img.h != d.h ||
	    (int32_t)img.c > d.c || (!l.lanes && img.c > l.pixel)) {
		ret = nvdla_rt_error(rt, -EINVAL,
				     "%s: %ux%u, %u channels; input %u is %dx%d, %d channels",
				     path, img.w, img.h, img.c, index, d.w, d.h, d.c);
		goto out;
	}
	buf = nvdla_network_input(net, index);
	map = nvdla_buffer_map(buf);
	size = nvdla_buffer_size(buf);
	memset(map, 0, size);
	for (y = 0; y < img.h; y++) {
		for (x = 0; x < img.w; x++) {
			for (c = 0; c < img.c; c++) {
				float p = img.pix[((uint64_t)y * img.w + x) * img.c + c];
				uint64_t at = nvdla_tensor_at(&d, &l, c, y, x);
				float v = image_value(net->inputs[index].scaled ?
						      &net->inputs[index] : NULL,
						      &d, opt, p, c);

				if (at + l.bpe > size) {
					ret = nvdla_rt_error(rt, -EINVAL,
							     "input %u: strides reach beyond its buffer",
							     index);
					goto out;
				}
				put_element(map + at, &d, &l, v);
			}
		}
	}
out:
	free(img.pix);
	return ret;
}

/* Fill the whole buffer of input @index, element by element. */
NVDLA_EXPORT int nvdla_network_set_input_values(struct nvdla_network *net,
						unsigned int index,
						const float *values, size_t n)
{
	struct nvdla_runtime *rt = net->rt;
	const struct nvdla_binding *b;
	struct nvdla_tensor_desc d;
	struct nvdla_layout l;
	struct nvdla_buffer *buf;
	uint64_t size, at, elems;
	int32_t c, y, x;
	uint8_t *map;
	float v;
	int ret;

	ret = input_layout(net, index, "values", &d, &l);
	if (ret)
		return ret;
	if (nvdla_tensor_elements(&d, &elems) || n != elems ||
	    (!l.lanes && (uint32_t)d.c > l.pixel))
		return nvdla_rt_error(rt, -EINVAL,
				      "input %u: %zu values for %d x %d x %d elements",
				      index, n, d.c, d.h, d.w);
	buf = nvdla_network_input(net, index);
	map = nvdla_buffer_map(buf);
	size = nvdla_buffer_size(buf);
	b = &net->inputs[index];
	memset(map, 0, size);
	for (c = 0; c < d.c; c++) {
		for (y = 0; y < d.h; y++) {
			for (x = 0; x < d.w; x++) {
				at = nvdla_tensor_at(&d, &l, c, y, x);
				if (at + l.bpe > size)
					return nvdla_rt_error(rt, -EINVAL,
							      "input %u: strides reach beyond its buffer",
							      index);
				v = *values++;
				/* Real numbers as integer codes (the loadable's scale). */
				if (b->scaled && d.data_type != NVDLA_DATA_TYPE_HALF)
					v = v / b->scale + (float)b->zero;
				put_element(map + at, &d, &l, v);
			}
		}
	}
	return 0;
}
