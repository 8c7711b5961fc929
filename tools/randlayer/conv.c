// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_randlayer: direct (one or more batches) and Winograd convolutions
 * from a feature cube, streaming into an SDP that converts. The
 * convolution buffer's data and weight banks are counted as NVIDIA's
 * compiler counts them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "randlayer.h"

#define WINO_TILE 4u		/* input tile; 2x2 outputs each */

uint8_t *rnd_weights(uint32_t n, uint32_t size, uint32_t prec)
{
	uint8_t *wt = calloc(1, size);
	uint32_t bpe = bpe_of(prec), i;

	for (i = 0; wt && i + bpe <= n; i += bpe)
		rnd_element(wt + i, prec);
	if (wt && prec == DLA_PRECISION_INT8)
		for (i = 0; i < n; i++)
			wt[i] = (uint8_t)rnd_range(-8, 8);
	return wt;
}

/*
 * Convolution buffer entries a slice of a feature cube @w wide of @c
 * channels takes, as NVIDIA's compiler and C model count them: the atoms
 * of a pixel fill whole entries, and a remainder of half an entry or less
 * packs two or four pixels into one.
 */
static uint32_t feature_entries(uint32_t w, uint32_t c, uint32_t bpe)
{
	uint32_t per = target->bank_bytes / target->bank_entries / target->atom;
	uint32_t atoms = div_up(c * bpe, target->atom), rest = atoms % per;
	uint32_t eps = atoms / per * w;

	if (rest > per / 2)
		eps += w;
	else if (rest && rest == per / 2)
		eps += div_up(w, 2);
	else if (rest)
		eps += div_up(w, 4);
	return eps;
}

/* Data and weight banks for @eps entries a slice over @h slices. */
static bool cbuf_banks(struct dla_conv_op_desc *p, uint32_t eps, uint32_t h,
		       uint32_t wsize)
{
	p->entry_per_slice = eps;
	p->data_bank = div_up(eps * h, target->bank_entries);
	p->weight_bank = div_up(wsize, target->bank_bytes);
	return p->data_bank + p->weight_bank <= target->cbuf_banks;
}

void conv_sdp(struct layer *l, struct nvdla_build_op *conv,
	      struct nvdla_build_op *sdp, uint32_t prec)
{
	struct dla_conv_surface_desc *cs = &conv->surf.conv_surface;
	struct dla_sdp_op_desc *q = &sdp->op.sdp_op;

	cs->dst_data = dla_cube(&l->out, -1);
	cs->dst_data.type = DLA_MEM_HW;
	nvdla_build_op_init(sdp, DLA_OP_SDP);
	nvdla_build_fuse(conv, 0, sdp, 1);
	q->src_precision = prec;
	q->dst_precision = prec;
	q->conv_mode = conv->op.conv_op.conv_mode;
	q->lut_index = -1;
	q->out_cvt = (struct dla_cvt_param){ .scale = 1, .enable = 1 };
	if (prec != DLA_PRECISION_FP16)
		q->out_cvt = (struct dla_cvt_param){ .scale = rnd_range(1, 64),
			.truncate = rnd_range(4, 16), .enable = 1,
			.offset = rnd_range(-64, 64) };
	sdp->surf.sdp_surface.src_data = cs->dst_data;
	l->num_ops = 2;
}

/* The input cube, weights and their descriptors of a convolution. */
static void conv_data(struct layer *l, uint32_t prec, uint32_t wbytes,
		      uint32_t wsize, uint32_t kw, uint32_t kh, uint32_t kc)
{
	struct dla_conv_surface_desc *cs = &l->ops[0].surf.conv_surface;

	l->out_precision = prec;
	add_data(l, rnd_cube(&l->in, prec), l->in.size);
	add_data(l, rnd_weights(wbytes, wsize, prec), wsize);
	cs->src_data = dla_cube(&l->in, data_index(l, 0));
	cs->weight_data = (struct dla_data_cube){ .type = DLA_MEM_MC,
		.address = data_index(l, 1), .size = wsize, .width = kw,
		.height = kh, .channel = kc };
}

/*
 * A direct convolution (kernels up to 5x5, strides, dilation, padding,
 * pad values); false if it does not fit the convolution buffer.
 */
bool conv_layer(struct layer *l)
{
	struct nvdla_build_op *conv = &l->ops[0];
	struct dla_conv_op_desc *p = &conv->op.conv_op;
	uint32_t prec = rnd_precision(), bpe = bpe_of(prec), dst;
	uint32_t r = rnd_range(1, 5), s = rnd_range(1, 5);
	uint32_t dx = rnd(4) ? 1 : 2, dy = rnd(4) ? 1 : 2;
	uint32_t sx = rnd_range(1, 3), sy = rnd_range(1, 3);
	uint32_t pl = rnd(s), pr = rnd(s), pt = rnd(r), pb = rnd(r);
	uint32_t ew = (s - 1) * dx + 1, eh = (r - 1) * dy + 1;
	/* small: NVIDIA's C model takes about 10 us a multiply-add */
	uint32_t w = rnd_range(ew > pl + pr ? ew - pl - pr : 1, 12);
	uint32_t h = rnd_range(eh > pt + pb ? eh - pt - pb : 1, 8);
	uint32_t c = rnd_range(1, 72), k = rnd_range(1, 40);
	uint32_t wo = (w + pl + pr - ew) / sx + 1, ho = (h + pt + pb - eh) / sy + 1;
	uint32_t bpk = r * s * c * bpe, wsize = div_up(k * bpk, 128) * 128;

	l->in = cube_of(w, h, c, bpe);
	l->out = cube_of(wo, ho, k, bpe);
	nvdla_build_op_init(conv, DLA_OP_CONV);
	if (!cbuf_banks(p, feature_entries(w, c, bpe), h, wsize))
		return false;
	conv_data(l, prec, k * bpk, wsize, s, r, c);
	*p = (struct dla_conv_op_desc){
		.entry_per_slice = p->entry_per_slice,
		.data_format = NVDLA_DATA_FORMAT_FEATURE, .fetch_grain = 1,
		.batch = 1,
		.data_bank = p->data_bank, .weight_bank = p->weight_bank,
		.release = h, .input_width_csc = w, .input_height_csc = h,
		.input_channel_csc = c, .kernel_width_csc = s,
		.kernel_height_csc = r, .kernel_channel_csc = c,
		.input_width_cmac = wo, .input_height_cmac = ho,
		.bytes_per_kernel = bpk, .conv_stride_x = sx,
		.conv_stride_y = sy, .pad_x_left = pl, .pad_x_right = pr,
		.pad_y_top = pt, .pad_y_bottom = pb, .dilation_x = dx,
		.dilation_y = dy, .in_precision = prec, .out_precision = prec,
		.pad_val = prec == DLA_PRECISION_FP16 ? 0 :
			   rnd_operand(prec, bpe * 8),
		.in_cvt = { .scale = 1 },
		.out_cvt = { .scale = 1, .enable = 1,
			     .truncate = prec == DLA_PRECISION_FP16 ? 0 : rnd(8) },
	};
	conv_sdp(l, conv, &l->ops[1], prec);
	dst = sdp_rnd_dst(prec, true);	/* the SDP's conversion */
	l->ops[1].op.sdp_op.dst_precision = dst;
	l->out_precision = dst;
	l->out = sdp_cube(wo, ho, k, dst, prec);
	snprintf(l->desc, sizeof(l->desc),
		 "conv %s to %s %ux%ux%u kernel %ux%ux%u stride %ux%u dilation %ux%u pad %u,%u,%u,%u banks %u+%u",
		 precision_names[prec], precision_names[dst], w, h, c, s, r,
		 k, sx, sy, dx, dy, pl, pr, pt, pb, p->data_bank,
		 p->weight_bank);
	return true;
}

/*
 * A Winograd convolution (nv_full): a 3x3 kernel of stride 1 computed in
 * 4x4 tiles over the input the CDMA pads to whole tiles, pre-transformed
 * 4x4 weights (random), 2x2 outputs a tile, an output of a multiple of 4
 * rows and columns: NVIDIA's C model's SDP takes 4 rows at a time (and
 * otherwise waits for the rest forever), its operand reads assert 4
 * columns, and its fp16 path shifts the output of 2 columns more than a
 * multiple of 4 into the next rows. False to draw again.
 */
bool winograd_layer(struct layer *l)
{
	struct nvdla_build_op *conv = &l->ops[0];
	struct dla_conv_op_desc *p = &conv->op.conv_op;
	uint32_t prec = rnd_precision(), bpe = bpe_of(prec);
	uint32_t wo = 4 * rnd_range(1, 3), ho = 4 * rnd_range(1, 3);
	uint32_t we = div_up(wo + 2, WINO_TILE) * WINO_TILE;
	uint32_t he = div_up(ho + 2, WINO_TILE) * WINO_TILE;
	uint32_t pl = rnd(3), pr = rnd(3), pt = rnd(3), pb = rnd(3);
	uint32_t c = rnd_range(1, 64), k = rnd_range(1, 40);
	uint32_t lanes = target->atom / bpe, ce = div_up(c, lanes) * lanes;
	uint32_t bpk = WINO_TILE * WINO_TILE * ce * bpe, wsize = k * bpk;

	l->in = cube_of(we - pl - pr, he - pt - pb, c, bpe);
	l->out = cube_of(wo, ho, k, bpe);
	nvdla_build_op_init(conv, DLA_OP_CONV);
	/* the CSC's rule: entries of 128 bytes over the extended width */
	if (!cbuf_banks(p, we * ce * bpe / 128, he, wsize))
		return false;
	conv_data(l, prec, wsize, wsize, WINO_TILE, WINO_TILE, ce);
	*p = (struct dla_conv_op_desc){
		.conv_mode = 1, .entry_per_slice = p->entry_per_slice,
		.data_format = NVDLA_DATA_FORMAT_FEATURE, .fetch_grain = 1,
		.batch = 1,
		.data_bank = p->data_bank, .weight_bank = p->weight_bank,
		.release = he, .input_width_csc = we, .input_height_csc = he,
		.input_channel_csc = ce, .kernel_width_csc = WINO_TILE,
		.kernel_height_csc = WINO_TILE, .kernel_channel_csc = ce,
		.input_width_cmac = wo, .input_height_cmac = ho,
		.bytes_per_kernel = bpk, .conv_stride_x = 1,
		.conv_stride_y = 1, .pad_x_left = pl, .pad_x_right = pr,
		.pad_y_top = pt, .pad_y_bottom = pb, .dilation_x = 1,
		.dilation_y = 1, .in_precision = prec, .out_precision = prec,
		.pra_truncate = prec == DLA_PRECISION_FP16 ? 0 : rnd(3),
		.in_cvt = { .scale = 1 },
		.out_cvt = { .scale = 1, .enable = 1 },
	};
	if (prec != DLA_PRECISION_FP16) {
		p->pad_val = rnd_operand(prec, bpe * 8);
		p->out_cvt.truncate = rnd(8);
	}
	conv_sdp(l, conv, &l->ops[1], prec);
	snprintf(l->desc, sizeof(l->desc),
		 "winograd %s %ux%ux%u (extended %ux%ux%u) kernels %u pad %u,%u,%u,%u pra %u out %ux%u banks %u+%u",
		 precision_names[prec], l->in.w, l->in.h, c, we, he, ce, k,
		 pl, pr, pt, pb, p->pra_truncate, wo, ho, p->data_bank,
		 p->weight_bank);
	return true;
}

/*
 * A direct convolution over 2 to 4 batches (nv_full): the batches' input
 * cubes one after another, sharing the weights, their outputs likewise;
 * false to draw again.
 */
bool batch_layer(struct layer *l)
{
	struct dla_conv_op_desc *p = &l->ops[0].op.conv_op;
	struct dla_sdp_op_desc *q = &l->ops[1].op.sdp_op;
	uint32_t n = rnd_range(2, target->max_batch), b;
	uint8_t *in, *cube;
	size_t len;

	if (!conv_layer(l))
		return false;
	p->data_bank = div_up(p->entry_per_slice * l->in.h * n,
			      target->bank_entries);
	in = realloc(l->data[0], n * l->in.size);
	if (in)
		l->data[0] = in;
	if (!in || p->data_bank + p->weight_bank > target->cbuf_banks) {
		free(l->data[0]);
		free(l->data[1]);
		return false;
	}
	for (b = 1; b < n; b++) {
		cube = rnd_cube(&l->in, l->out_precision);
		if (cube)
			memcpy(in + b * l->in.size, cube, l->in.size);
		free(cube);
	}
	l->size[0] = n * l->in.size;
	l->batches = n;
	p->batch = n;
	p->batch_stride = l->in.size;
	q->batch_num = n;
	q->batch_stride = l->out.size;
	len = strlen(l->desc);
	snprintf(l->desc + len, sizeof(l->desc) - len, " batches %u", n);
	return true;
}
