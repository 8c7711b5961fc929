// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_randlayer: a random single-layer loadable for nv_full, to compare
 * the model with NVIDIA's C model on layers no network has
 * (tools/cmodel-layers.sh records each one and replays it on both). SEED
 * picks the layer: an SDP from memory (int8, int16 or fp16; X1 and X2
 * ALU/MUL/ReLU/PReLU with per-layer, per-channel or per-element operands;
 * the output converter), a PDP (max, min or average; kernels 1 to 8,
 * strides, padding and padding values), a CDP (LRN of 3 to 9 channels,
 * random LUT tables, slopes and priorities, converters) or a direct
 * convolution (int8, int16 or fp16; kernels up to 5x5, strides, dilation,
 * padding and pad values) streaming into an SDP that converts, over random
 * cube sizes and random data. Prints a line describing the layer, then
 * "output W H C BYTES_PER_ELEMENT" of its output cube (32-byte atoms).
 *
 *     nvdla_randlayer SEED OUT.nvdla
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/dla_interface.h>

#include "builder.h"

#define ATOM 32u			/* nv_full: bytes per atom */
#define FORMAT_FEATURE 36		/* tensor format of a feature cube */
#define DATA_FORMAT_NCXHWX 3
#define DATA_CATEGORY_FEATURE 2

/* The loadable ABI's values (firmware/sdp.c, firmware/pdp.c). */
static const char *const precision_names[] = { "int8", "int16", "fp16" };
static const char *const pool_names[] = { "avg", "max", "min" };

static uint64_t rng;

static uint32_t rnd(uint32_t n)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return n ? (uint32_t)(rng >> 33) % n : 0;
}

static int32_t rnd_range(int32_t lo, int32_t hi)
{
	return lo + (int32_t)rnd(hi - lo + 1);
}

/* The fp16 bits of @f (round to nearest even; |f| well inside the range). */
static uint16_t fp16_of(float f)
{
	uint32_t b, sign, exp, man;

	memcpy(&b, &f, 4);
	sign = b >> 16 & 0x8000;
	if (f == 0.0f)
		return sign;
	exp = (b >> 23 & 0xff) - 127 + 15;
	man = b & 0x7fffff;
	if ((int32_t)exp <= 0)
		return sign;	/* tiny values flushed; never generated */
	man = (man + 0xfff + (man >> 13 & 1)) >> 13;
	return sign | ((exp << 10) + man);
}

/* An element of @bpe bytes: int8/int16 in full range, fp16 in [-4, 4]. */
static void rnd_element(uint8_t *p, uint32_t precision)
{
	uint16_t h;

	switch (precision) {
	case DLA_PRECISION_INT8:
		p[0] = rnd(256);
		break;
	case DLA_PRECISION_INT16:
		h = rnd(65536);
		memcpy(p, &h, 2);
		break;
	default:
		h = fp16_of((float)rnd_range(-4096, 4096) / 1024.0f);
		memcpy(p, &h, 2);
	}
}

struct cube {
	uint32_t w, h, c, bpe, line, surf, size;
};

static struct cube cube_of(uint32_t w, uint32_t h, uint32_t c, uint32_t bpe)
{
	struct cube q = { w, h, c, bpe, w * ATOM, h * w * ATOM, 0 };

	q.size = (c * bpe + ATOM - 1) / ATOM * q.surf;
	return q;
}

static struct dla_data_cube dla_cube(const struct cube *q, int16_t address)
{
	return (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = address, .size = q->size,
		.width = q->w, .height = q->h, .channel = q->c,
		.line_stride = q->line, .surf_stride = q->surf,
	};
}

/*
 * Random elements of @precision, @q->bpe / @per bytes each, for the @q->c
 * channels of a cube of @lanes channels an atom; the padding lanes zero,
 * as NVIDIA's compiler leaves them (the model reads padding lanes as 0;
 * the hardware computes on what memory holds there: docs/recording.md).
 */
static uint8_t *rnd_lanes(const struct cube *q, uint32_t precision,
			  uint32_t lanes, uint32_t per)
{
	uint8_t *p = calloc(1, q->size);
	uint32_t ebytes = q->bpe / per, i;

	for (i = 0; p && i + ebytes <= q->size; i += ebytes) {
		uint32_t lane = i % q->line % (lanes * q->bpe) / q->bpe;
		uint32_t surface = i / q->surf;

		if (surface * lanes + lane < q->c)
			rnd_element(p + i, precision);
	}
	return p;
}

static uint8_t *rnd_cube(const struct cube *q, uint32_t precision)
{
	return rnd_lanes(q, precision, ATOM / q->bpe, 1);
}

static struct nvdla_tensor_desc tensor(const struct cube *q, uint32_t precision)
{
	return (struct nvdla_tensor_desc){
		.name = "out", .size = q->size, .n = 1, .c = q->c, .h = q->h,
		.w = q->w, .data_format = DATA_FORMAT_NCXHWX,
		.data_type = precision == DLA_PRECISION_FP16 ?
			     NVDLA_DATA_TYPE_HALF :
			     precision == DLA_PRECISION_INT16 ?
			     NVDLA_DATA_TYPE_INT16 : NVDLA_DATA_TYPE_INT8,
		.data_category = DATA_CATEGORY_FEATURE,
		.pixel_format = FORMAT_FEATURE,
		.stride = { q->bpe, q->line, q->surf },
	};
}

/*
 * One layer: its operations (a convolution streams into its SDP), input,
 * weights or operand buffers, output.
 */
struct layer {
	struct nvdla_build_op ops[2];
	uint32_t num_ops;
	struct dla_lut_param lut;
	bool has_lut;
	struct cube in, out;
	uint32_t out_precision;
	uint8_t *data[3];	/* input, then operand buffers (x1, x2) */
	uint32_t size[3];
	uint32_t num_data;
	char desc[256];
};

static int16_t data_index(const struct layer *l, uint32_t i)
{
	return (l->has_lut ? 5 : 4) + i;
}

/* A value of @precision fit for a register operand. */
static int32_t rnd_operand(uint32_t precision, uint32_t bits)
{
	if (precision == DLA_PRECISION_FP16)
		return fp16_of((float)rnd_range(-2048, 2048) / 512.0f);
	return rnd_range(-(1 << (bits - 1)), (1 << (bits - 1)) - 1);
}

/* X1 or X2: a random ALU/MUL stage whose operands come from @data. */
static void sdp_stage(struct layer *l, struct dla_sdp_op *o,
		      struct dla_data_cube *data, uint32_t precision,
		      const char *name, char *desc, size_t len)
{
	static const char *const types[] = { "none", "mul", "add", "both" };
	static const char *const modes[] = { "layer", "channel", "element" };
	uint32_t bpe = precision == DLA_PRECISION_INT8 ? 1 : 2;
	uint32_t per = o->type == SDP_TYPE_BOTH ? 2 : 1;
	bool int_ = precision != DLA_PRECISION_FP16;

	o->enable = 1;
	o->type = rnd_range(SDP_TYPE_MUL, SDP_TYPE_BOTH);
	o->alu_type = rnd_range(SDP_ALU_MAX, SDP_ALU_SUM);
	o->mode = rnd_range(SDP_MODE_PER_LAYER, SDP_MODE_PER_POINT);
	o->act = rnd(3) == 0 ? SDP_ACT_RELU :
		 rnd(4) == 0 ? SDP_ACT_PRELU : SDP_ACT_NONE;
	if (o->act == SDP_ACT_PRELU && o->type == SDP_TYPE_ADD)
		o->act = SDP_ACT_NONE;	/* PReLU multiplies */
	o->precision = precision;
	o->shift_value = int_ ? rnd(8) : 0;
	o->truncate = int_ ? rnd(12) : 0;
	o->alu_operand = rnd_operand(precision, precision ==
				     DLA_PRECISION_INT8 ? 8 : 16);
	o->mul_operand = rnd_operand(precision, precision ==
				     DLA_PRECISION_INT8 ? 8 : 16);
	per = o->type == SDP_TYPE_BOTH ? 2 : 1;
	if (o->mode != SDP_MODE_PER_LAYER) {
		/* per element: the data's lanes, each @per operands wide */
		uint32_t lanes = ATOM / bpe, i = l->num_data;
		struct cube q = { l->in.w, l->in.h, l->in.c, bpe * per,
				  l->in.w * lanes * bpe * per, 0, 0 };

		q.surf = q.h * q.line;
		q.size = (q.c + lanes - 1) / lanes * q.surf;
		if (o->mode == SDP_MODE_PER_KERNEL) {
			/* per channel: packed, no atoms */
			q.size = (l->in.c * bpe * per + ATOM - 1) / ATOM * ATOM;
			q.w = q.h = 1;
			q.line = q.surf = q.size;
		}
		l->data[i] = rnd_lanes(&q, precision, o->mode ==
				       SDP_MODE_PER_KERNEL ? q.size / q.bpe :
				       lanes, per);
		l->size[i] = q.size;
		*data = dla_cube(&q, data_index(l, i));
		l->num_data++;
	}
	snprintf(desc, len, " %s:%s/%s/alu%u/act%u/sh%u/tr%u", name,
		 types[o->type], modes[o->mode], o->alu_type, o->act,
		 o->shift_value, o->truncate);
}

static void sdp_layer(struct layer *l)
{
	struct dla_sdp_op_desc *p = &l->ops[0].op.sdp_op;
	struct dla_sdp_surface_desc *s = &l->ops[0].surf.sdp_surface;
	uint32_t prec = rnd(3), bpe = prec == DLA_PRECISION_INT8 ? 1 : 2;
	uint32_t out_prec = prec;	/* the SDP converts fp16 to int16 only */
	char x1[96] = "", x2[96] = "";

	nvdla_build_op_init(&l->ops[0], DLA_OP_SDP);
	l->in = cube_of(rnd_range(1, 24), rnd_range(1, 12), rnd_range(1, 80),
			bpe);
	l->out = cube_of(l->in.w, l->in.h, l->in.c,
			 out_prec == DLA_PRECISION_INT8 ? 1 : 2);
	l->out_precision = out_prec;
	l->data[0] = rnd_cube(&l->in, prec);
	l->size[0] = l->in.size;
	l->num_data = 1;
	p->src_precision = prec;
	p->dst_precision = out_prec;
	p->lut_index = -1;
	p->out_cvt = (struct dla_cvt_param){ .scale = 1, .enable = 1 };
	if (prec != DLA_PRECISION_FP16)
		p->out_cvt = (struct dla_cvt_param){
			.scale = rnd_range(-300, 300), .truncate = rnd(20),
			.enable = 1, .offset = rnd_range(-1000, 1000) };
	if (rnd(4))
		sdp_stage(l, &p->x1_op, &s->x1_data, prec, "x1", x1, sizeof(x1));
	if (rnd(3) == 0)
		sdp_stage(l, &p->x2_op, &s->x2_data, prec, "x2", x2, sizeof(x2));
	s->src_data = dla_cube(&l->in, data_index(l, 0));
	snprintf(l->desc, sizeof(l->desc),
		 "sdp %s->%s %ux%ux%u cvt(%d,%u,%d)%s%s",
		 precision_names[prec], precision_names[out_prec], l->in.w,
		 l->in.h, l->in.c, p->out_cvt.scale, p->out_cvt.truncate,
		 p->out_cvt.offset, x1, x2);
}

static void pdp_layer(struct layer *l)
{
	struct dla_pdp_op_desc *p = &l->ops[0].op.pdp_op;
	uint32_t prec = rnd(3), bpe = prec == DLA_PRECISION_INT8 ? 1 : 2;
	uint32_t kw = rnd_range(1, 8), kh = rnd_range(1, 8);
	uint32_t sx = rnd_range(1, kw), sy = rnd_range(1, kh);
	uint32_t pl = rnd(kw), pr = rnd(kw), pt = rnd(kh), pb = rnd(kh);
	uint32_t w = rnd_range(kw, 30), h = rnd_range(kh, 20), i;
	uint32_t ow = (w + pl + pr - kw) / sx + 1;
	uint32_t oh = (h + pt + pb - kh) / sy + 1;

	nvdla_build_op_init(&l->ops[0], DLA_OP_PDP);
	l->in = cube_of(w, h, rnd_range(1, 70), bpe);
	l->out = cube_of(ow, oh, l->in.c, bpe);
	l->out_precision = prec;
	l->data[0] = rnd_cube(&l->in, prec);
	l->size[0] = l->in.size;
	l->num_data = 1;
	*p = (struct dla_pdp_op_desc){
		.partial_in_width_first = w, .partial_width_first = ow,
		.split_num = 1, .pool_mode = rnd(3), .pool_width = kw - 1,
		.pool_height = kh - 1, .stride_x = sx, .stride_y = sy,
		.pad_left = pl, .pad_right = pr, .pad_top = pt,
		.pad_bottom = pb, .precision = prec,
	};
	for (i = 0; i < DLA_PDP_PAD_VALUES; i++)
		p->padding_value[i] = prec == DLA_PRECISION_FP16 ? 0 :
				      rnd_operand(prec, bpe * 8);
	l->ops[0].surf.pdp_surface.src_data = dla_cube(&l->in, data_index(l, 0));
	snprintf(l->desc, sizeof(l->desc),
		 "pdp %s %s %ux%ux%u kernel %ux%u stride %ux%u pad %u,%u,%u,%u",
		 precision_names[prec], pool_names[p->pool_mode], w, h,
		 l->in.c, kw, kh, sx, sy, pl, pr, pt, pb);
}

static void cdp_lut(struct dla_lut_param *lut, uint32_t prec)
{
	uint32_t i;

	for (i = 0; i < DLA_LUT_LE_TABLE_ENTRIES; i++)
		lut->linear_exp_table[i] = rnd_range(-32768, 32767);
	for (i = 0; i < DLA_LUT_LO_TABLE_ENTRIES; i++)
		lut->linear_only_table[i] = rnd_range(-32768, 32767);
	lut->method = rnd(2);
	lut->linear_exp_offset.exp_offset = rnd_range(-4, 10);
	lut->linear_only_offset.frac_bits = rnd(8);
	lut->linear_exp_start = rnd(prec == DLA_PRECISION_FP16 ? 2 : 64);
	lut->linear_exp_end = lut->linear_exp_start + rnd_range(64, 1 << 20);
	lut->linear_only_start = rnd(256);
	lut->linear_only_end = lut->linear_only_start + 256 * rnd_range(1, 64);
	lut->linear_exp_underflow_slope.data_i.scale = rnd_range(-500, 500);
	lut->linear_exp_underflow_slope.data_i.shifter = rnd_range(-8, 8);
	lut->linear_exp_overflow_slope.data_i.scale = rnd_range(-500, 500);
	lut->linear_exp_overflow_slope.data_i.shifter = rnd_range(-8, 8);
	lut->linear_only_underflow_slope.data_i.scale = rnd_range(-500, 500);
	lut->linear_only_underflow_slope.data_i.shifter = rnd_range(-8, 8);
	lut->linear_only_overflow_slope.data_i.scale = rnd_range(-500, 500);
	lut->linear_only_overflow_slope.data_i.shifter = rnd_range(-8, 8);
	lut->hybrid_priority = rnd(2);
	lut->underflow_priority = rnd(2);
	lut->overflow_priority = rnd(2);
}

static void cdp_layer(struct layer *l)
{
	struct dla_cdp_op_desc *p = &l->ops[0].op.cdp_op;
	uint32_t prec = rnd(3), bpe = prec == DLA_PRECISION_INT8 ? 1 : 2;
	bool int_ = prec != DLA_PRECISION_FP16;

	nvdla_build_op_init(&l->ops[0], DLA_OP_CDP);
	l->has_lut = true;
	cdp_lut(&l->lut, prec);
	l->in = cube_of(rnd_range(1, 12), rnd_range(1, 8), rnd_range(1, 70),
			bpe);
	l->out = l->in;
	l->out_precision = prec;
	l->data[0] = rnd_cube(&l->in, prec);
	l->size[0] = l->in.size;
	l->num_data = 1;
	p->in_precision = prec;
	p->out_precision = prec;
	p->lut_index = 0;
	p->local_size = 3 + 2 * rnd(4);
	p->bypass_sqsum = rnd(6) == 0;
	p->bypass_out_mul = rnd(6) == 0;
	p->in_cvt = (struct dla_cvt_param){ .scale = 1, .enable = 1 };
	p->out_cvt = (struct dla_cvt_param){ .scale = 1, .enable = 1 };
	if (int_) {
		p->in_cvt = (struct dla_cvt_param){ .scale = rnd_range(1, 64),
			.truncate = rnd(6), .enable = 1,
			.offset = rnd_range(-8, 8) };
		p->out_cvt = (struct dla_cvt_param){
			.scale = rnd_range(1, 300), .truncate = rnd(24),
			.enable = 1, .offset = rnd_range(-100, 100) };
	}
	l->ops[0].surf.cdp_surface.src_data = dla_cube(&l->in, data_index(l, 0));
	snprintf(l->desc, sizeof(l->desc),
		 "cdp %s %ux%ux%u lrn%u sqsum%s mul%s lut(method %u, le %llu..%llu, lo %llu..%llu, prio %u%u%u)",
		 precision_names[prec], l->in.w, l->in.h, l->in.c,
		 p->local_size, p->bypass_sqsum ? "-bypass" : "",
		 p->bypass_out_mul ? "-bypass" : "", l->lut.method,
		 (unsigned long long)l->lut.linear_exp_start,
		 (unsigned long long)l->lut.linear_exp_end,
		 (unsigned long long)l->lut.linear_only_start,
		 (unsigned long long)l->lut.linear_only_end,
		 l->lut.hybrid_priority, l->lut.underflow_priority,
		 l->lut.overflow_priority);
}

/*
 * nv_full's convolution buffer: 16 banks of 32 KiB; feature rows take
 * entries of atomic C (64) elements, as NVIDIA's compiler counts them.
 */
#define CBUF_BANKS 16u
#define CBUF_BANK_BYTES 32768u
#define ATOMIC_C 64u

static uint32_t div_up(uint32_t a, uint32_t b)
{
	return (a + b - 1) / b;
}

/*
 * A direct convolution streaming into an SDP that scales, offsets and
 * converts its output; false if it does not fit the convolution buffer.
 */
static bool conv_layer(struct layer *l)
{
	struct nvdla_build_op *conv = &l->ops[0], *sdp = &l->ops[1];
	struct dla_conv_op_desc *p = &conv->op.conv_op;
	struct dla_conv_surface_desc *cs = &conv->surf.conv_surface;
	struct dla_sdp_op_desc *q = &sdp->op.sdp_op;
	uint32_t prec = rnd(3), bpe = prec == DLA_PRECISION_INT8 ? 1 : 2;
	uint32_t r = rnd_range(1, 5), s = rnd_range(1, 5);
	uint32_t dx = rnd(4) ? 1 : 2, dy = rnd(4) ? 1 : 2;
	uint32_t sx = rnd_range(1, 3), sy = rnd_range(1, 3);
	uint32_t pl = rnd(s), pr = rnd(s), pt = rnd(r), pb = rnd(r);
	uint32_t ew = (s - 1) * dx + 1, eh = (r - 1) * dy + 1;
	/* small: NVIDIA's C model takes about 10 us a multiply-add */
	uint32_t w = rnd_range(ew > pl + pr ? ew - pl - pr : 1, 12);
	uint32_t h = rnd_range(eh > pt + pb ? eh - pt - pb : 1, 8);
	uint32_t c = rnd_range(1, 72), k = rnd_range(1, 40), i;
	uint32_t wo = (w + pl + pr - ew) / sx + 1, ho = (h + pt + pb - eh) / sy + 1;
	uint32_t bpk = r * s * c * bpe, wsize = div_up(k * bpk, 128) * 128;
	uint32_t eps, dbank, wbank;
	uint8_t *wt;

	l->in = cube_of(w, h, c, bpe);
	l->out = cube_of(wo, ho, k, bpe);
	eps = div_up(w * (l->in.size / l->in.surf) * ATOM, ATOMIC_C * bpe);
	/* room for entries of 128 bytes whatever the precision */
	dbank = div_up(eps * 128 * h, CBUF_BANK_BYTES);
	wbank = div_up(wsize, CBUF_BANK_BYTES);
	if (dbank + wbank > CBUF_BANKS)
		return false;
	l->out_precision = prec;
	l->data[0] = rnd_cube(&l->in, prec);
	l->size[0] = l->in.size;
	wt = calloc(1, wsize);
	for (i = 0; wt && i + bpe <= k * bpk; i += bpe)
		rnd_element(wt + i, prec);
	if (wt && prec == DLA_PRECISION_INT8)	/* keep sums in range */
		for (i = 0; i < k * bpk; i++)
			wt[i] = (uint8_t)rnd_range(-8, 8);
	l->data[1] = wt;
	l->size[1] = wsize;
	l->num_data = 2;
	l->num_ops = 2;

	nvdla_build_op_init(conv, DLA_OP_CONV);
	*p = (struct dla_conv_op_desc){
		.entry_per_slice = eps, .data_format = FORMAT_FEATURE,
		.fetch_grain = 1, .batch = 1, .data_bank = dbank,
		.weight_bank = wbank, .release = h,
		.input_width_csc = w, .input_height_csc = h,
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
	cs->src_data = dla_cube(&l->in, data_index(l, 0));
	cs->weight_data = (struct dla_data_cube){ .type = DLA_MEM_MC,
		.address = data_index(l, 1), .size = wsize, .width = s,
		.height = r, .channel = c };
	cs->dst_data = dla_cube(&l->out, -1);
	cs->dst_data.type = DLA_MEM_HW;

	nvdla_build_op_init(sdp, DLA_OP_SDP);
	nvdla_build_fuse(conv, 0, sdp, 1);
	q->src_precision = prec;
	q->dst_precision = prec;
	q->lut_index = -1;
	q->out_cvt = (struct dla_cvt_param){ .scale = 1, .enable = 1 };
	if (prec != DLA_PRECISION_FP16)
		q->out_cvt = (struct dla_cvt_param){ .scale = rnd_range(1, 64),
			.truncate = rnd_range(4, 16), .enable = 1,
			.offset = rnd_range(-64, 64) };
	sdp->surf.sdp_surface.src_data = cs->dst_data;
	snprintf(l->desc, sizeof(l->desc),
		 "conv %s %ux%ux%u kernel %ux%ux%u stride %ux%u dilation %ux%u pad %u,%u,%u,%u banks %u+%u",
		 precision_names[prec], w, h, c, s, r, k, sx, sy, dx, dy, pl,
		 pr, pt, pb, dbank, wbank);
	return true;
}

static int write_layer(struct layer *l, const char *path)
{
	static const char *const names[] = { "input", "data1", "data2" };
	struct nvdla_tensor_desc t = tensor(&l->out, l->out_precision);
	struct nvdla_build_op *last = &l->ops[l->num_ops - 1];
	struct dla_data_cube *dst;
	struct nvdla_builder b;
	void *buf = NULL;
	size_t len;
	uint32_t i;
	FILE *f;
	int ret;

	dst = last->graph.op_type == DLA_OP_SDP ? &last->surf.sdp_surface.dst_data :
	      last->graph.op_type == DLA_OP_PDP ? &last->surf.pdp_surface.dst_data :
	      &last->surf.cdp_surface.dst_data;
	*dst = dla_cube(&l->out, data_index(l, l->num_data));
	nvdla_builder_init(&b);
	nvdla_builder_task(&b, l->ops, l->num_ops, l->has_lut ? &l->lut : NULL,
			   l->has_lut, l->num_data + 1);
	for (i = 0; i < l->num_data; i++)
		nvdla_builder_memory(&b, names[i], l->data[i], l->size[i]);
	nvdla_builder_bind(&b, nvdla_builder_memory(&b, NULL, NULL, t.size), &t,
			   NVDLA_LBL_MEM_OUTPUT);
	ret = nvdla_builder_finish(&b, &buf, &len);
	nvdla_builder_fini(&b);
	if (ret)
		return ret;
	f = fopen(path, "wb");
	ret = !f || fwrite(buf, 1, len, f) != len;
	if (f && fclose(f))
		ret = 1;
	free(buf);
	return ret;
}

int main(int argc, char **argv)
{
	struct layer l;
	uint32_t i;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: nvdla_randlayer SEED OUT.nvdla\n");
		return 2;
	}
	memset(&l, 0, sizeof(l));
	l.num_ops = 1;
	rng = strtoull(argv[1], NULL, 0) * 0x9e3779b97f4a7c15ull + 1;
	rnd(1);
	switch (rnd(4)) {
	case 0:
		sdp_layer(&l);
		break;
	case 1:
		pdp_layer(&l);
		break;
	case 2:
		cdp_layer(&l);
		break;
	default:
		while (!conv_layer(&l))
			;
	}
	ret = write_layer(&l, argv[2]);
	if (ret)
		fprintf(stderr, "nvdla_randlayer: cannot write %s\n", argv[2]);
	else
		printf("%s\noutput %u %u %u %u\n", l.desc, l.out.w, l.out.h,
		       l.out.c, l.out.bpe);
	for (i = 0; i < l.num_data; i++)
		free(l.data[i]);
	return ret ? 1 : 0;
}
