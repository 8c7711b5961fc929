// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_randlayer: convolutions over image input. Pixels of a random
 * format (one the configuration reads: 8-bit ones on nv_small), the input
 * converter with means, offset, scale, truncation and sign override (off
 * where the hardware allows it), a kernel pre-extended over the pixels'
 * components, strides, padding and pad value, post-extension by 2 or 4
 * rows where the kernel rows fit the MAC cells, several kernel groups,
 * streaming into an SDP that converts.
 */
#include <stdio.h>
#include <stdlib.h>

#include <nvdla/pixel_formats.h>

#include "randlayer.h"

struct image {
	const struct nvdla_pixel_layout *fmt;
	uint32_t code, in, proc;	/* pixel format; precisions */
	uint32_t w, h, s, r, c, sx, sy, pl, pr, pt, pb, ext;
	uint32_t line, line_uv, uv_offset;
};

/* A format whose pixels convert into @proc on this configuration. */
static void pick_format(struct image *im)
{
	do {
		im->code = rnd(NVDLA_PIXEL_FORMAT_COUNT);
		im->fmt = nvdla_pixel_layout(im->code);
	} while ((im->fmt->fp16 && im->proc != DLA_PRECISION_FP16) ||
		 (target->int8_only && im->fmt->bits != 8));
	im->in = im->fmt->fp16 ? DLA_PRECISION_FP16 :
		 im->fmt->bits == 8 ? DLA_PRECISION_INT8 : DLA_PRECISION_INT16;
}

/*
 * Post-extension the hardware takes: rows of at most atomic C / @ext
 * elements, the CSC's pixel step times @ext within atomic C, and the
 * compiler's rule that @ext - 1 further output pixels and the kernel fit
 * one atomic C.
 */
static bool ext_fits(const struct image *im, uint32_t ext)
{
	uint32_t lanes = target->atomic_c, step = im->fmt->comps * im->sx;

	return im->c <= lanes / ext && step * ext <= lanes &&
	       step * (ext - 1) + im->c <= lanes;
}

static bool image_geometry(struct image *im)
{
	uint32_t choices[3], n = 0, e;

	im->s = rnd_range(1, im->fmt->comps == 1 ? 11 : 7);
	im->c = im->s * im->fmt->comps;
	im->r = rnd_range(1, 8);
	im->sx = rnd_range(1, 4);
	im->sy = rnd_range(1, 4);
	im->w = rnd_range(1, 40);
	im->h = rnd_range(1, 24);
	im->pl = rnd(im->s);
	im->pr = rnd(im->s);
	im->pt = rnd(im->r);
	im->pb = rnd(im->r);
	if (im->c > (target->int8_only ? 32u : 64u) ||
	    im->pl + im->w + im->pr < im->s || im->pt + im->h + im->pb < im->r)
		return false;
	for (e = 1; e <= 4; e *= 2)
		if (e == 1 || ext_fits(im, e))
			choices[n++] = e;
	im->ext = choices[rnd(n)];
	im->line = div_up(im->w * im->fmt->bpp[0], target->atom) * target->atom +
		   rnd(3) * target->atom;
	im->uv_offset = im->line * im->h;
	im->line_uv = im->fmt->planes == 2 ?
		      div_up(im->w * im->fmt->bpp[1], target->atom) *
		      target->atom + rnd(2) * target->atom : 0;
	return true;
}

/* Both planes' pixels: random integers, or fp16 of magnitude below 8. */
static uint8_t *rnd_pixels(const struct image *im, uint32_t size)
{
	uint8_t *p = malloc(size);
	uint32_t i;

	for (i = 0; p && i < size; i++)
		p[i] = rnd(256);
	for (i = 0; p && im->fmt->fp16 && i + 2 <= size; i += 2)
		rnd_element(p + i, DLA_PRECISION_FP16);
	return p;
}

/* The input converter, means and sign override of the CDMA. */
static void image_cvt(const struct image *im, struct dla_conv_op_desc *p)
{
	bool b8 = im->fmt->bits == 8;
	bool cvt = im->in != im->proc || rnd(4) != 0;

	if (im->fmt->fp16)
		cvt = rnd(2);
	p->in_cvt = (struct dla_cvt_param){ .enable = cvt,
		.offset = (int16_t)rnd(b8 ? 256 : 65536),
		.scale = rnd_range(1, b8 ? 8 : 4), .truncate = rnd(b8 ? 3 : 10) };
	p->pixel_override = rnd(4) == 0;
	p->mean_format = rnd(2);
	p->mean_ry = (int16_t)rnd(b8 ? 256 : 65536);
	p->mean_gu = (int16_t)rnd(b8 ? 256 : 65536);
	p->mean_bv = (int16_t)rnd(b8 ? 256 : 65536);
	p->mean_ax = (int16_t)rnd(b8 ? 256 : 65536);
}

static void image_desc(struct layer *l, const struct image *im, uint32_t k,
		       uint32_t wo, uint32_t ho)
{
	const struct dla_conv_op_desc *p = &l->ops[0].op.conv_op;

	snprintf(l->desc, sizeof(l->desc),
		 "image %s pixels %u (%s) %ux%u line %u/%u kernel %ux%u over %u channels x%u stride %ux%u pad %u,%u,%u,%u post-ext %u cvt %u(%d,%d,%u) mean %u sign %u out %ux%u banks %u+%u",
		 precision_names[im->proc], im->code, precision_names[im->in],
		 im->w, im->h, im->line, im->line_uv, im->s, im->r, im->c, k,
		 im->sx, im->sy, im->pl, im->pr, im->pt, im->pb, im->ext,
		 p->in_cvt.enable, p->in_cvt.offset, p->in_cvt.scale,
		 p->in_cvt.truncate, p->mean_format, p->pixel_override, wo, ho,
		 p->data_bank, p->weight_bank);
}

/* An image-input convolution; false to draw again. */
bool image_layer(struct layer *l)
{
	struct nvdla_build_op *conv = &l->ops[0];
	struct dla_conv_op_desc *p = &conv->op.conv_op;
	struct dla_conv_surface_desc *cs = &conv->surf.conv_surface;
	struct image im = { .proc = rnd_precision() };
	uint32_t bpe = bpe_of(im.proc), k = rnd_range(1, 40);
	uint32_t entry = target->bank_bytes / target->bank_entries;
	uint32_t wo, ho, bpk, wsize, size, eps;

	pick_format(&im);
	if (!image_geometry(&im))
		return false;
	wo = (im.pl + im.w + im.pr - im.s) / im.sx + 1;
	ho = (im.pt + im.h + im.pb - im.r) / im.sy + 1;
	bpk = im.r * im.c * bpe;
	wsize = div_up(k * bpk, 128) * 128;
	eps = div_up((im.pl + im.w + im.pr) * im.fmt->comps * bpe, entry);
	nvdla_build_op_init(conv, DLA_OP_CONV);
	p->entry_per_slice = eps;
	p->data_bank = div_up(eps * im.h, target->bank_entries);
	p->weight_bank = div_up(wsize, target->bank_bytes);
	if (p->data_bank + p->weight_bank > target->cbuf_banks)
		return false;
	size = im.uv_offset + im.line_uv * im.h;
	add_data(l, rnd_pixels(&im, size), size);
	add_data(l, rnd_weights(k * bpk, wsize, im.proc), wsize);
	l->in = (struct cube){ im.w, im.h, im.fmt->comps, im.fmt->bpp[0],
			       im.line, 0, l->size[0] };
	l->out = cube_of(wo, ho, k, bpe);
	l->out_precision = im.proc;
	*p = (struct dla_conv_op_desc){
		.entry_per_slice = eps, .data_format = im.code,
		.fetch_grain = 1, .batch = 1, .data_bank = p->data_bank,
		.weight_bank = p->weight_bank, .release = im.h,
		.post_extension = im.ext == 4 ? 2 : im.ext == 2 ? 1 : 0,
		.input_width_csc = im.w, .input_height_csc = im.h,
		.input_channel_csc = im.fmt->comps, .kernel_width_csc = 1,
		.kernel_height_csc = im.r, .kernel_channel_csc = im.c,
		.input_width_cmac = wo, .input_height_cmac = ho,
		.bytes_per_kernel = bpk, .conv_stride_x = im.sx,
		.conv_stride_y = im.sy, .pad_x_left = im.pl,
		.pad_x_right = im.pr, .pad_y_top = im.pt,
		.pad_y_bottom = im.pb, .dilation_x = 1, .dilation_y = 1,
		.in_precision = im.in, .out_precision = im.proc,
		.out_cvt = { .scale = 1, .enable = 1 },
	};
	image_cvt(&im, p);
	p->pad_val = im.proc == DLA_PRECISION_FP16 ?
		     fp16_of((float)rnd_range(-4096, 4096) / 1024.0f) :
		     rnd_operand(im.proc, bpe * 8);
	if (im.proc != DLA_PRECISION_FP16)
		p->out_cvt.truncate = rnd(4);
	cs->src_data = (struct dla_data_cube){ .type = DLA_MEM_MC,
		.address = data_index(l, 0), .size = l->size[0],
		.width = im.w, .height = im.h, .channel = im.fmt->comps,
		.line_stride = im.line };
	cs->offset_u = im.uv_offset;
	cs->in_line_uv_stride = im.line_uv;
	cs->weight_data = (struct dla_data_cube){ .type = DLA_MEM_MC,
		.address = data_index(l, 1), .size = wsize, .width = 1,
		.height = im.r, .channel = im.c };
	conv_sdp(l, conv, &l->ops[1], im.proc);
	image_desc(l, &im, k, wo, ho);
	return true;
}
