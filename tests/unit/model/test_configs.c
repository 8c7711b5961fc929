// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Loadables built for each hardware configuration (8-byte atoms and an 8x8
 * MAC array on nv_small, 32-byte atoms on nv_large and nv_full) run on it
 * through the runtime: an SDP, PDP max and average, CDP and a direct int8
 * convolution, each checked against a plain loop written here from the
 * hardware reference (nvdla-hardware.md sections 1.1, 1.3, 2, 3, 4, 5),
 * not against the model. A loadable that does not fit the device (an
 * engine it lacks, int16, 8-byte strides on 32-byte atoms) is refused when
 * it is loaded, with a message that names the task, the operation and the
 * reason.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/firmware.h>
#include <nvdla/pixel_formats.h>
#include <nvdla/runtime.h>
#include <nvdla/sim.h>
#include <nvdla_accel.h>

#include "../../../sim/sim_internal.h"
#include "builder.h"
#include "../lib/tap.h"

#define DATA_FORMAT_NCXHWX 3
#define DATA_CATEGORY_FEATURE 2

struct config {
	const char *name;
	uint32_t atom;		/* bytes, = int8 channels per atom */
	uint32_t atomic_c, atomic_k;
	uint8_t pixel_format;
};

static const struct config configs[] = {
	{ "nv_small", 8, 8, 8, NVDLA_TENSOR_FEATURE_X8 },
	{ "nv_large", 32, 64, 32, NVDLA_TENSOR_FEATURE },
	{ "nv_full", 32, 64, 32, NVDLA_TENSOR_FEATURE },
};

/* An int8 feature cube, packed, in a configuration's layout (1.1). */
struct cube {
	const struct config *cfg;
	uint32_t w, h, c, line, surf, size;
};

static struct cube cube_of(const struct config *cfg, uint32_t w, uint32_t h,
			   uint32_t c)
{
	struct cube q = { cfg, w, h, c, w * cfg->atom, 0, 0 };

	q.surf = h * q.line;
	q.size = (c + cfg->atom - 1) / cfg->atom * q.surf;
	return q;
}

static uint32_t at(const struct cube *q, uint32_t c, uint32_t y, uint32_t x)
{
	return c / q->cfg->atom * q->surf + y * q->line + x * q->cfg->atom +
	       c % q->cfg->atom;
}

static struct dla_data_cube dla_cube(const struct cube *q, int16_t address)
{
	return (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = address, .size = q->size,
		.width = q->w, .height = q->h, .channel = q->c,
		.line_stride = q->line, .surf_stride = q->surf,
	};
}

static struct nvdla_tensor_desc tensor(const struct cube *q, const char *name)
{
	struct nvdla_tensor_desc t = {
		.size = q->size, .n = 1, .c = q->c, .h = q->h, .w = q->w,
		.data_format = DATA_FORMAT_NCXHWX,
		.data_type = NVDLA_DATA_TYPE_INT8,
		.data_category = DATA_CATEGORY_FEATURE,
		.pixel_format = q->cfg->pixel_format,
		.stride = { 1, q->line, q->surf },
	};

	snprintf(t.name, sizeof(t.name), "%s", name);
	return t;
}

/* A cube of random values in [-range, range], padding channels too. */
static uint8_t *random_cube(const struct cube *q, int range)
{
	uint8_t *d = malloc(q->size);
	uint32_t i;

	for (i = 0; i < q->size; i++)
		d[i] = (uint8_t)(rand() % (2 * range + 1) - range);
	return d;
}

/* Round half away from zero of @v / 2^@s. */
static int64_t rha(int64_t v, unsigned int s)
{
	int64_t half = s ? 1ll << (s - 1) : 0;

	if (!s)
		return v;
	return v >= 0 ? (v + half) >> s : -((-v + half) >> s);
}

static int64_t sat(int64_t v, unsigned int bits)
{
	int64_t max = (1ll << (bits - 1)) - 1;

	return v > max ? max : v < -max - 1 ? -max - 1 : v;
}

/* A task's data: input (content), optional weights, output (bound). */
struct job {
	const struct config *cfg;
	struct nvdla_build_op ops[2];
	uint16_t num_ops;
	struct dla_lut_param lut;
	bool has_lut;
	const uint8_t *in, *wt;
	uint32_t in_size, wt_size;
	struct cube out;
};

static void job_free(struct job *j)
{
	free((void *)j->in);
	free((void *)j->wt);
}

/* Address index of the first data buffer: input, [weights,] output. */
static int16_t data_base(bool has_lut)
{
	return has_lut ? 5 : 4;
}

/*
 * Serialise @j; its input is a blob, or input 0 described by @in when
 * @in is not NULL.
 */
static int build_job(const struct job *j, const struct nvdla_tensor_desc *in,
		     void **buf, size_t *len)
{
	struct nvdla_tensor_desc t = tensor(&j->out, "out");
	struct nvdla_builder b;
	int ret;

	nvdla_builder_init(&b);
	nvdla_builder_task(&b, j->ops, j->num_ops, j->has_lut ? &j->lut : NULL,
			   j->has_lut, j->wt ? 3 : 2);
	if (in)
		nvdla_builder_bind(&b, nvdla_builder_memory(&b, NULL, NULL,
							    in->size),
				   in, NVDLA_LBL_MEM_INPUT);
	else
		nvdla_builder_memory(&b, "input", j->in, j->in_size);
	if (j->wt)
		nvdla_builder_memory(&b, "weights", j->wt, j->wt_size);
	nvdla_builder_bind(&b, nvdla_builder_memory(&b, NULL, NULL, t.size), &t,
			   NVDLA_LBL_MEM_OUTPUT);
	ret = nvdla_builder_finish(&b, buf, len);
	nvdla_builder_fini(&b);
	return ret;
}

/* Run @j on @rt; the output bytes in *@out (to free) on success. */
static int run_on(struct nvdla_runtime *rt, const struct job *j, uint8_t **out)
{
	struct nvdla_network *net = NULL;
	void *buf = NULL;
	size_t len;
	int ret;

	*out = NULL;
	ret = build_job(j, NULL, &buf, &len);
	if (!ret)
		ret = nvdla_network_load(rt, buf, len, &net);
	if (!ret)
		ret = nvdla_network_submit(net, 0);
	if (!ret) {
		*out = malloc(j->out.size);
		memcpy(*out, nvdla_buffer_map(nvdla_network_output(net, 0)),
		       j->out.size);
	}
	nvdla_network_unload(net);
	free(buf);
	return ret;
}

/*
 * Build @j, load it on a new runtime on @device and run it. Returns 0 with
 * the output bytes in *@out (to free), or the error, with the runtime's
 * message in @msg.
 */
static int run_job(const struct job *j, const char *device, uint8_t **out,
		   char *msg, size_t msglen)
{
	struct nvdla_runtime *rt = NULL;
	int ret;

	*out = NULL;
	ret = nvdla_runtime_new(device, &rt, msg, msglen);
	if (!ret)
		ret = run_on(rt, j, out);
	if (ret && rt)
		snprintf(msg, msglen, "%s", nvdla_runtime_error(rt));
	nvdla_runtime_del(rt);
	return ret;
}

/* Compare every real element of @got with @want(c, y, x). */
static void check(const struct job *j, const char *what,
		  int (*want)(const struct job *j, uint32_t c, uint32_t y,
			      uint32_t x))
{
	const struct cube *q = &j->out;
	uint32_t c, y, x, bad = 0;
	uint8_t *got;
	char msg[512] = "", device[32];
	int ret;

	snprintf(device, sizeof(device), "sim:%s", j->cfg->name);
	ret = run_job(j, device, &got, msg, sizeof(msg));

	for (c = 0; !ret && c < q->c; c++)
		for (y = 0; y < q->h; y++)
			for (x = 0; x < q->w; x++)
				if ((int8_t)got[at(q, c, y, x)] != want(j, c, y, x) &&
				    !bad++)
					snprintf(msg, sizeof(msg),
						 "first difference at c%u y%u x%u: %d, want %d",
						 c, y, x, (int8_t)got[at(q, c, y, x)],
						 want(j, c, y, x));
	tap_ok(!ret && !bad, "%s: %s %ux%ux%u equals the reference loop (%s)",
	       j->cfg->name, what, q->w, q->h, q->c,
	       ret || bad ? msg : "every element");
	free(got);
}

/* SDP: X1 ALU sum, multiply, truncate, ReLU; output converter (3.2, 3.4). */
#define SDP_ALU 7
#define SDP_ALU_SHIFT 1
#define SDP_MUL 3
#define SDP_TRUNC 2
#define SDP_CVT_OFFSET 5
#define SDP_CVT_SCALE 3
#define SDP_CVT_SHIFT 1

/* The SDP's result for element (c, y, x) of the input cube @in. */
static int sdp_value(const struct job *j, const struct cube *in, uint32_t c,
		     uint32_t y, uint32_t x)
{
	int64_t v = (int8_t)j->in[at(in, c, y, x)];

	v += sat((int64_t)SDP_ALU << SDP_ALU_SHIFT, 32);
	v = sat(rha(v * SDP_MUL, SDP_TRUNC), 32);
	v = v < 0 ? 0 : v;
	v = sat(rha((v - SDP_CVT_OFFSET) * SDP_CVT_SCALE, SDP_CVT_SHIFT), 17);
	return (int)sat(v, 8);
}

static int sdp_want(const struct job *j, uint32_t c, uint32_t y, uint32_t x)
{
	struct cube in = cube_of(j->cfg, j->out.w, j->out.h, j->out.c);

	return sdp_value(j, &in, c, y, x);
}

static void sdp_job(struct job *j, const struct config *cfg, uint32_t c)
{
	struct cube in = cube_of(cfg, 5, 3, c);
	struct nvdla_build_op *op = &j->ops[0];
	struct dla_sdp_op_desc *p = &op->op.sdp_op;
	int16_t d = data_base(false);

	memset(j, 0, sizeof(*j));
	j->cfg = cfg;
	j->num_ops = 1;
	j->out = in;
	j->in = random_cube(&in, 128);
	j->in_size = in.size;
	nvdla_build_op_init(op, DLA_OP_SDP);
	p->lut_index = -1;
	p->out_cvt = (struct dla_cvt_param){ .scale = SDP_CVT_SCALE,
		.truncate = SDP_CVT_SHIFT, .enable = 1, .offset = SDP_CVT_OFFSET };
	p->x1_op = (struct dla_sdp_op){ .enable = 1, .alu_type = 2, .type = 3,
		.act = 1, .shift_value = SDP_ALU_SHIFT, .truncate = SDP_TRUNC,
		.alu_operand = SDP_ALU, .mul_operand = SDP_MUL };
	op->surf.sdp_surface.src_data = dla_cube(&in, d);
	op->surf.sdp_surface.dst_data = dla_cube(&in, d + 1);
}

/*
 * SDP with 16-bit per-channel operands from memory: the BRDMA reads an
 * ALU and a MUL operand per channel, two bytes each, interleaved (the
 * compiler's bias and scale layout on every configuration), and X1 adds
 * and multiplies with them unshifted, values outside int8 included.
 */
#define SDP16_TRUNC 9

static int16_t sdp16_alu(uint32_t c)
{
	return (int16_t)(c * 37 % 600) - 300;
}

static int16_t sdp16_mul(uint32_t c)
{
	return (int16_t)(200 + c * 13);
}

static int sdp16_want(const struct job *j, uint32_t c, uint32_t y, uint32_t x)
{
	struct cube in = cube_of(j->cfg, j->out.w, j->out.h, j->out.c);
	int64_t v = (int8_t)j->in[at(&in, c, y, x)];

	v = sat(v + sdp16_alu(c), 32);
	v = sat(rha(v * sdp16_mul(c), SDP16_TRUNC), 32);
	v = sat(rha((v - SDP_CVT_OFFSET) * SDP_CVT_SCALE, SDP_CVT_SHIFT), 17);
	return (int)sat(v, 8);
}

static void sdp16_job(struct job *j, const struct config *cfg, uint32_t c)
{
	struct dla_sdp_op_desc *p = &j->ops[0].op.sdp_op;
	struct dla_sdp_surface_desc *s = &j->ops[0].surf.sdp_surface;
	int16_t d = data_base(false);
	uint8_t *wt = malloc(4 * c);
	uint32_t i;

	sdp_job(j, cfg, c);
	for (i = 0; i < c; i++) {
		wt[4 * i] = (uint8_t)sdp16_alu(i);
		wt[4 * i + 1] = (uint8_t)(sdp16_alu(i) >> 8);
		wt[4 * i + 2] = (uint8_t)sdp16_mul(i);
		wt[4 * i + 3] = (uint8_t)(sdp16_mul(i) >> 8);
	}
	j->wt = wt;
	j->wt_size = 4 * c;
	p->x1_op = (struct dla_sdp_op){ .enable = 1, .alu_type = 2, .type = 3,
		.mode = 1,
		.precision = DLA_PRECISION_INT16, .truncate = SDP16_TRUNC };
	s->x1_data = (struct dla_data_cube){ .type = DLA_MEM_MC,
		.address = d + 1, .size = 4 * c, .width = 1, .height = 1,
		.channel = c, .line_stride = 4 * c, .surf_stride = 4 * c };
	s->dst_data.address = d + 2;
}

/*
 * PDP: 3x3 window, stride 2, padding 1 all round (section 4), over the
 * input or, when an SDP streams into it, over the SDP's results.
 */
static int pdp_want(const struct job *j, uint32_t c, uint32_t oy, uint32_t ox)
{
	const struct dla_pdp_op_desc *p = &j->ops[j->num_ops - 1].op.pdp_op;
	struct cube in = cube_of(j->cfg, 7, 6, j->out.c);
	int32_t best = p->pool_mode == 1 ? -129 : 129, sum = 0;
	int x, y;

	for (y = (int)oy * 2 - 1; y < (int)oy * 2 + 2; y++) {
		for (x = (int)ox * 2 - 1; x < (int)ox * 2 + 2; x++) {
			int32_t v;

			if (x < 0 || y < 0 || x >= (int)in.w || y >= (int)in.h)
				continue;	/* padding: value 0 */
			v = j->num_ops == 2 ? sdp_value(j, &in, c, y, x) :
			      (int8_t)j->in[at(&in, c, y, x)];
			sum += v;
			best = p->pool_mode == 1 ? (v > best ? v : best) :
			       (v < best ? v : best);
		}
	}
	if (p->pool_mode)
		return best;
	/* Average: two reciprocal multiplies, low 8 bits kept. */
	return (int8_t)rha(rha((int64_t)sum * 0x5555, 16) * 0x5555, 16);
}

static void pdp_job(struct job *j, const struct config *cfg, uint32_t c,
		    uint8_t mode)
{
	struct cube in = cube_of(cfg, 7, 6, c);
	struct nvdla_build_op *op = &j->ops[0];
	struct dla_pdp_op_desc *p = &op->op.pdp_op;
	int16_t d = data_base(false);

	memset(j, 0, sizeof(*j));
	j->cfg = cfg;
	j->num_ops = 1;
	j->out = cube_of(cfg, 4, 3, c);
	j->in = random_cube(&in, 128);
	j->in_size = in.size;
	nvdla_build_op_init(op, DLA_OP_PDP);
	*p = (struct dla_pdp_op_desc){
		.partial_in_width_first = in.w, .partial_width_first = j->out.w,
		.split_num = 1, .pool_mode = mode, .pool_width = 2,
		.pool_height = 2, .stride_x = 2, .stride_y = 2, .pad_left = 1,
		.pad_right = 1, .pad_top = 1, .pad_bottom = 1,
	};
	op->surf.pdp_surface.src_data = dla_cube(&in, d);
	op->surf.pdp_surface.dst_data = dla_cube(&j->out, d + 1);
}

/* The SDP of sdp_job streaming its output into the PDP of pdp_job. */
static void sdp_pdp_job(struct job *j, const struct config *cfg, uint32_t c)
{
	struct cube in = cube_of(cfg, 7, 6, c);
	struct nvdla_build_op pdp;
	struct dla_sdp_surface_desc *ss = &j->ops[0].surf.sdp_surface;
	struct dla_pdp_surface_desc *ps = &pdp.surf.pdp_surface;

	pdp_job(j, cfg, c, 1);
	pdp = j->ops[0];
	job_free(j);
	sdp_job(j, cfg, c);
	job_free(j);
	j->in = random_cube(&in, 128);
	j->in_size = in.size;
	j->out = cube_of(cfg, 4, 3, c);
	ss->src_data = dla_cube(&in, data_base(false));
	ss->dst_data = dla_cube(&in, -1);
	ss->dst_data.type = DLA_MEM_HW;
	ps->src_data = ss->dst_data;
	nvdla_build_fuse(&j->ops[0], 0, &pdp, 1);
	j->ops[1] = pdp;
	j->num_ops = 2;
}

/*
 * CDP with a LUT whose every entry is LUT_K and whose slopes are 0, so the
 * LUT gives LUT_K whatever the window sums (section 5): out =
 * ocvt(x * LUT_K).
 */
#define LUT_K 3
#define CDP_OUT_SHIFT 2

static int cdp_want(const struct job *j, uint32_t c, uint32_t y, uint32_t x)
{
	int64_t v = (int8_t)j->in[at(&j->out, c, y, x)];

	return (int)sat(rha(v * LUT_K, CDP_OUT_SHIFT), 8);
}

static void cdp_job(struct job *j, const struct config *cfg, uint32_t c)
{
	struct cube in = cube_of(cfg, 4, 3, c);
	struct nvdla_build_op *op = &j->ops[0];
	struct dla_cdp_op_desc *p = &op->op.cdp_op;
	int16_t d = data_base(true);
	int i;

	memset(j, 0, sizeof(*j));
	j->cfg = cfg;
	j->num_ops = 1;
	j->out = in;
	j->in = random_cube(&in, 128);
	j->in_size = in.size;
	j->has_lut = true;
	for (i = 0; i < DLA_LUT_LE_TABLE_ENTRIES; i++)
		j->lut.linear_exp_table[i] = LUT_K;
	for (i = 0; i < DLA_LUT_LO_TABLE_ENTRIES; i++)
		j->lut.linear_only_table[i] = LUT_K;
	j->lut.linear_exp_end = 64;
	j->lut.linear_only_end = 256;
	nvdla_build_op_init(op, DLA_OP_CDP);
	p->lut_index = 0;
	p->local_size = 5;
	p->out_cvt = (struct dla_cvt_param){ .scale = 1,
		.truncate = CDP_OUT_SHIFT, .enable = 1 };
	op->surf.cdp_surface.src_data = dla_cube(&in, d);
	op->surf.cdp_surface.dst_data = dla_cube(&in, d + 1);
}

/*
 * Direct int8 convolution, 3x3, stride 1, padding 1, into an SDP that
 * shifts the sum down by CONV_SHIFT (sections 2.1, 2.2, 3.4).
 */
#define CONV_W 6
#define CONV_H 5
#define CONV_R 3
#define CONV_S 3
#define CONV_SHIFT 4

/* Byte offset of weight (k, c, r, s) in the direct layout (section 1.3). */
static uint32_t weight_at(const struct config *cfg, uint32_t kernels,
			  uint32_t channels, uint32_t k, uint32_t c, uint32_t r,
			  uint32_t s)
{
	uint32_t kg = cfg->atomic_k, group = k / kg;
	uint32_t in_group = kernels - group * kg < kg ? kernels - group * kg : kg;
	uint32_t block = c / cfg->atomic_c;
	uint32_t block_c = channels - block * cfg->atomic_c;

	if (block_c > cfg->atomic_c)
		block_c = cfg->atomic_c;
	return group * kg * CONV_R * CONV_S * channels +
	       block * cfg->atomic_c * in_group * CONV_R * CONV_S +
	       ((r * CONV_S + s) * in_group + k % kg) * block_c +
	       c % cfg->atomic_c;
}

static int conv_want(const struct job *j, uint32_t k, uint32_t oy, uint32_t ox)
{
	const struct dla_conv_op_desc *p = &j->ops[0].op.conv_op;
	struct cube in = cube_of(j->cfg, CONV_W, CONV_H, p->input_channel_csc);
	int64_t acc = 0;
	uint32_t c, r, s;

	for (r = 0; r < CONV_R; r++) {
		for (s = 0; s < CONV_S; s++) {
			int y = (int)(oy + r) - 1, x = (int)(ox + s) - 1;

			if (x < 0 || y < 0 || x >= CONV_W || y >= CONV_H)
				continue;	/* padding value 0 */
			for (c = 0; c < in.c; c++)
				acc += (int8_t)j->in[at(&in, c, y, x)] *
				       (int8_t)j->wt[weight_at(j->cfg, j->out.c,
							       in.c, k, c, r, s)];
		}
	}
	return (int)sat(sat(rha(acc, CONV_SHIFT), 17), 8);
}

static void conv_job(struct job *j, const struct config *cfg, uint32_t c,
		     uint32_t k)
{
	struct cube in = cube_of(cfg, CONV_W, CONV_H, c);
	struct nvdla_build_op *conv = &j->ops[0], *sdp = &j->ops[1];
	struct dla_conv_op_desc *p = &conv->op.conv_op;
	struct dla_conv_surface_desc *cs = &conv->surf.conv_surface;
	struct dla_sdp_surface_desc *ss = &sdp->surf.sdp_surface;
	uint32_t bpk = CONV_R * CONV_S * c;
	int16_t d = data_base(false);
	uint8_t *wt;
	uint32_t i;

	memset(j, 0, sizeof(*j));
	j->cfg = cfg;
	j->num_ops = 2;
	j->out = cube_of(cfg, CONV_W, CONV_H, k);
	j->in = random_cube(&in, 4);
	j->in_size = in.size;
	j->wt_size = (k * bpk + 127) / 128 * 128;
	wt = calloc(1, j->wt_size);
	for (i = 0; i < k * bpk; i++)
		wt[i] = (uint8_t)(rand() % 7 - 3);
	j->wt = wt;

	nvdla_build_op_init(conv, DLA_OP_CONV);
	*p = (struct dla_conv_op_desc){
		.entry_per_slice = nvdla_cbuf_feature_entries(
			&dla_hw_config_get(cfg->name)->cbuf, cfg->atom, CONV_W, c),
		.data_format = NVDLA_DATA_FORMAT_FEATURE, .fetch_grain = 1, .batch = 1,
		.data_bank = 1, .weight_bank = 1, .release = CONV_H,
		.input_width_csc = CONV_W, .input_height_csc = CONV_H,
		.input_channel_csc = c, .kernel_width_csc = CONV_S,
		.kernel_height_csc = CONV_R, .kernel_channel_csc = c,
		.input_width_cmac = CONV_W, .input_height_cmac = CONV_H,
		.bytes_per_kernel = bpk, .conv_stride_x = 1,
		.conv_stride_y = 1, .pad_x_left = 1, .pad_x_right = 1,
		.pad_y_top = 1, .pad_y_bottom = 1, .dilation_x = 1,
		.dilation_y = 1, .out_cvt = { .scale = 1, .enable = 1 },
	};
	cs->src_data = dla_cube(&in, d);
	cs->weight_data = (struct dla_data_cube){ .type = DLA_MEM_MC,
		.address = d + 1, .size = j->wt_size, .width = CONV_S,
		.height = CONV_R, .channel = c };
	cs->dst_data = dla_cube(&j->out, -1);
	cs->dst_data.type = DLA_MEM_HW;

	nvdla_build_op_init(sdp, DLA_OP_SDP);
	nvdla_build_fuse(conv, 0, sdp, 1);
	sdp->op.sdp_op.lut_index = -1;
	sdp->op.sdp_op.out_cvt = (struct dla_cvt_param){ .scale = 1,
		.truncate = CONV_SHIFT, .enable = 1 };
	ss->src_data = cs->dst_data;
	ss->dst_data = dla_cube(&j->out, d + 2);
}

static void test_config(const struct config *cfg)
{
	struct job j;

	/* Channel counts that leave the last atom part empty. */
	sdp_job(&j, cfg, cfg->atom + 5);
	check(&j, "SDP (ALU, MUL, ReLU, converter)", sdp_want);
	job_free(&j);
	sdp16_job(&j, cfg, cfg->atom + 3);
	check(&j, "SDP with 16-bit per-channel ALU and MUL operands", sdp16_want);
	job_free(&j);
	pdp_job(&j, cfg, cfg->atom * 2, 1);
	check(&j, "PDP max 3x3/2", pdp_want);
	job_free(&j);
	pdp_job(&j, cfg, cfg->atom - 3, 0);
	check(&j, "PDP average 3x3/2", pdp_want);
	job_free(&j);
	sdp_pdp_job(&j, cfg, cfg->atom + 1);
	check(&j, "SDP streaming into PDP max 3x3/2", pdp_want);
	job_free(&j);
	cdp_job(&j, cfg, cfg->atom + 3);
	check(&j, "CDP (LRN, constant LUT)", cdp_want);
	job_free(&j);
	/* Channels over two MAC blocks, kernels over two groups. */
	conv_job(&j, cfg, cfg->atomic_c + 4, cfg->atomic_k + 2);
	check(&j, "int8 direct convolution 3x3", conv_want);
	job_free(&j);
}

/* Elements of the output that differ from the reference loop. */
static uint32_t count_wrong(const struct job *j, const uint8_t *got,
			    int (*want)(const struct job *j, uint32_t c,
					uint32_t y, uint32_t x))
{
	const struct cube *q = &j->out;
	uint32_t c, y, x, bad = 0;

	for (c = 0; c < q->c; c++)
		for (y = 0; y < q->h; y++)
			for (x = 0; x < q->w; x++)
				bad += (int8_t)got[at(q, c, y, x)] !=
				       want(j, c, y, x);
	return bad;
}

/*
 * Load a convolution (with dependencies, counted in the firmware's copy)
 * once and run it five times on new input data, given in turn through the
 * input's own buffer, a raw input file and an application buffer bound
 * to the input; every output is checked.
 */
static void test_resubmit(const struct config *cfg)
{
	const char *raw = "/tmp/nvdla-test-configs.raw";
	struct nvdla_runtime *rt = NULL;
	struct nvdla_network *net = NULL;
	struct nvdla_buffer *app = NULL;
	struct nvdla_tensor_desc in;
	char device[32];
	uint32_t wrong = 0;
	struct cube q;
	struct job j;
	FILE *f;
	void *buf;
	size_t len;
	int i, ret;

	conv_job(&j, cfg, cfg->atomic_c + 4, cfg->atomic_k + 2);
	q = cube_of(cfg, CONV_W, CONV_H, cfg->atomic_c + 4);
	in = tensor(&q, "in");
	snprintf(device, sizeof(device), "sim:%s", cfg->name);
	ret = build_job(&j, &in, &buf, &len);
	if (!ret)
		ret = nvdla_runtime_new(device, &rt, NULL, 0);
	if (!ret)
		ret = nvdla_network_load(rt, buf, len, &net);
	free(buf);
	for (i = 0; i < 5 && !ret; i++) {
		free((void *)j.in);
		j.in = random_cube(&q, 4);
		if (i == 2) {
			f = fopen(raw, "wb");
			fwrite(j.in, 1, q.size, f);
			fclose(f);
			ret = nvdla_network_set_input_file(net, 0, raw);
			remove(raw);
		} else if (i == 3) {
			ret = nvdla_buffer_new(rt, q.size, &app);
			if (!ret)
				ret = nvdla_network_bind_input(net, 0, app);
		}
		if (!ret && i != 2)
			memcpy(nvdla_buffer_map(nvdla_network_input(net, 0)),
			       j.in, q.size);
		if (!ret)
			ret = nvdla_network_submit(net, 0);
		if (!ret)
			wrong += count_wrong(&j, nvdla_buffer_map(
					     nvdla_network_output(net, 0)),
					     conv_want);
	}
	tap_ok(!ret && !wrong,
	       "%s: a convolution loaded once runs 5 times on new inputs (own buffer, raw file, bound buffer), every output right (%s, %u wrong)",
	       cfg->name, ret && rt ? nvdla_runtime_error(rt) : "ok", wrong);
	nvdla_network_unload(net);
	nvdla_buffer_del(app);
	nvdla_runtime_del(rt);
	job_free(&j);
}

/*
 * The CDP holds one operation at a time but the hardware still alternates
 * its two register groups: a second and third run of the same network
 * must go to the group the hardware expects.
 */
static void test_cdp_reruns(const struct config *cfg)
{
	struct nvdla_runtime *rt = NULL;
	struct nvdla_network *net = NULL;
	uint32_t wrong = 0;
	char device[32];
	struct job j;
	void *buf = NULL;
	size_t len;
	int i, ret;

	cdp_job(&j, cfg, cfg->atom + 3);
	snprintf(device, sizeof(device), "sim:%s", cfg->name);
	ret = build_job(&j, NULL, &buf, &len);
	if (!ret)
		ret = nvdla_runtime_new(device, &rt, NULL, 0);
	if (!ret)
		ret = nvdla_network_load(rt, buf, len, &net);
	for (i = 0; i < 3 && !ret; i++) {
		memset(nvdla_buffer_map(nvdla_network_output(net, 0)), 0,
		       j.out.size);
		ret = nvdla_network_submit(net, 0);
		if (!ret)
			wrong += count_wrong(&j, nvdla_buffer_map(
					     nvdla_network_output(net, 0)),
					     cdp_want);
	}
	tap_ok(!ret && !wrong, "%s: a CDP network runs three times, every output right (%s, %u wrong)",
	       cfg->name, ret && rt ? nvdla_runtime_error(rt) : "ok", wrong);
	nvdla_network_unload(net);
	nvdla_runtime_del(rt);
	free(buf);
	job_free(&j);
}

/*
 * One device, one job after another: a convolution whose SDP takes its
 * input on the fly (the SDP_RDMA stays idle, its group pointer behind the
 * SDP's), then SDP and PDP operations reading memory, which must find
 * the RDMA groups the hardware runs next.
 */
static void test_after_fused(const struct config *cfg)
{
	enum { CONV, SDP, SDP_PDP, PDP };
	static const int order[] = { CONV, SDP, CONV, PDP, SDP_PDP, PDP, SDP };
	struct nvdla_runtime *rt = NULL;
	uint32_t wrong = 0;
	char device[32];
	unsigned int i;
	uint8_t *out;
	struct job j;
	int ret;

	snprintf(device, sizeof(device), "sim:%s", cfg->name);
	ret = nvdla_runtime_new(device, &rt, NULL, 0);
	for (i = 0; i < sizeof(order) / sizeof(order[0]) && !ret; i++) {
		if (order[i] == CONV)
			conv_job(&j, cfg, cfg->atomic_c, cfg->atomic_k);
		else if (order[i] == SDP)
			sdp_job(&j, cfg, cfg->atom);
		else if (order[i] == SDP_PDP)
			sdp_pdp_job(&j, cfg, cfg->atom);
		else
			pdp_job(&j, cfg, cfg->atom, 1);
		ret = run_on(rt, &j, &out);
		if (!ret)
			wrong += count_wrong(&j, out, order[i] == CONV ? conv_want :
					     order[i] == SDP ? sdp_want : pdp_want);
		free(out);
		job_free(&j);
	}
	tap_ok(!ret && !wrong,
	       "%s: conv with flying SDP, SDP, conv, PDP, SDP into flying PDP, PDP, SDP in turn on one device, every output right (%s, %u wrong)",
	       cfg->name, ret && rt ? nvdla_runtime_error(rt) : "ok", wrong);
	nvdla_runtime_del(rt);
}

/* The job on @device must fail with a message containing @what. */
static void expect_refused(const struct job *j, const char *device,
			   const char *what, const char *name)
{
	char msg[512] = "";
	uint8_t *out;
	int ret = run_job(j, device, &out, msg, sizeof(msg));

	tap_ok(ret == -EINVAL && strstr(msg, what), "%s refused on %s: %s",
	       name, device, msg);
	free(out);
}

static void test_refusals(void)
{
	struct nvdla_bdma_copy copy = {
		.transfer = { .line_size = 32, .line_repeat = 1,
			      .source_line = 32, .destination_line = 32,
			      .surface_repeat = 1, .source_surface = 32,
			      .destination_surface = 32 },
		.src = "0123456789abcdef0123456789abcdef", .src_size = 32,
		.dst_size = 32,
		.out = { .name = "out", .size = 32, .n = 1, .c = 32, .h = 1,
			 .w = 1, .data_type = NVDLA_DATA_TYPE_INT8,
			 .pixel_format = NVDLA_TENSOR_FEATURE },
	};
	struct nvdla_runtime *rt;
	struct nvdla_network *net = NULL;
	struct job j;
	void *buf;
	size_t len;
	int ret;

	nvdla_build_bdma_copy(&copy, &buf, &len);
	nvdla_runtime_new("sim:nv_large", &rt, NULL, 0);
	ret = nvdla_network_load(rt, buf, len, &net);
	tap_ok(ret == -EINVAL && !net &&
	       !strcmp(nvdla_runtime_error(rt),
		       "task 0: bdma: nv_large has no such engine"),
	       "BDMA refused on nv_large when the network is loaded: %s",
	       nvdla_runtime_error(rt));
	nvdla_network_unload(net);
	nvdla_runtime_del(rt);
	free(buf);

	/* A RUBIK contract on a v2 configuration, which has no RUBIK. */
	sdp_job(&j, &configs[0], 8);
	j.ops[0].graph.op_type = DLA_OP_RUBIK;
	j.ops[0].op.rubik_op = (struct dla_rubik_op_desc){ .stride_x = 1,
							   .stride_y = 1 };
	expect_refused(&j, "sim:nv_small", "rubik: nv_small has no such engine",
		       "RUBIK");
	job_free(&j);

	sdp_job(&j, &configs[0], 8);
	j.ops[0].op.sdp_op.src_precision = DLA_PRECISION_INT16;
	j.ops[0].op.sdp_op.dst_precision = DLA_PRECISION_INT16;
	expect_refused(&j, "sim:nv_small",
		       "op 0: sdp input: int16, which nv_small does not compute",
		       "int16 SDP");
	expect_refused(&j, "sim:nv_large",
		       "op 0: sdp input: int16, which nv_large does not compute",
		       "int16 SDP");
	job_free(&j);

	/* fp16 operands need an fp16 datapath, which v2 lacks. */
	sdp16_job(&j, &configs[0], 8);
	j.ops[0].op.sdp_op.x1_op.precision = DLA_PRECISION_FP16;
	expect_refused(&j, "sim:nv_small",
		       "op 0: sdp operand: fp16, which nv_small does not compute",
		       "fp16 SDP operands");
	job_free(&j);

	/* No batch: the register would ask for the most. */
	sdp_job(&j, &configs[0], 8);
	j.ops[0].op.sdp_op.batch_num = 0;
	expect_refused(&j, "sim:nv_small", "op 0: sdp: batch_num 0",
		       "SDP of no batch");
	job_free(&j);

	/* nv_small's 8-byte atom layout: 40-byte lines. */
	sdp_job(&j, &configs[0], 8);
	expect_refused(&j, "sim:nv_large",
		       "op 0: data cube offset 0, strides 40/120 not aligned to nv_large's 32-byte atom",
		       "an nv_small SDP");
	job_free(&j);

	/* nv_large's layout on nv_small: 4 surfaces where one was made. */
	sdp_job(&j, &configs[1], 32);
	expect_refused(&j, "sim:nv_small",
		       "op 0: data cube 5x3x32 in 4 surfaces of 8-byte atoms does not fit address 4",
		       "an nv_large SDP");
	job_free(&j);
}

/*
 * The configurations the driver reports (DRM_NVDLA_CONFIG_NAMES, in the
 * order of enum drm_nvdla_config) are exactly those of the firmware and of
 * the model, in the same order, and the firmware's facts of each are the
 * model's: atom, engines, compressed weights, the SDP's Y stage,
 * precisions, address map.
 */
static void test_shared_facts(void)
{
	static const char *const names[] = DRM_NVDLA_CONFIG_NAMES;
	const struct dla_hw_config *fw;
	const struct sim_config *sim;
	enum nvdla_sim_config_id id;
	size_t i;

	tap_ok(sizeof(names) / sizeof(names[0]) == NVDLA_SIM_CONFIG_COUNT,
	       "the driver names %zu configurations, the model has %d",
	       sizeof(names) / sizeof(names[0]), NVDLA_SIM_CONFIG_COUNT);
	tap_ok(!dla_hw_config_get("nv_tiny") && !sim_config_get(NVDLA_SIM_CONFIG_COUNT),
	       "nv_tiny is no configuration of the firmware, nor id %d of the model",
	       NVDLA_SIM_CONFIG_COUNT);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		fw = dla_hw_config_get(names[i]);
		sim = nvdla_sim_config_by_name(names[i], &id) ? NULL :
		      sim_config_get(id);
		tap_ok(fw && sim && id == i && !strcmp(fw->name, names[i]) &&
		       !strcmp(sim->name, names[i]) &&
		       fw->atom_size == sim->atom && fw->bdma == sim->bdma &&
		       fw->rubik == sim->rubik &&
		       fw->weight_compress == sim->weight_compress &&
		       fw->sdp_y == sim->sdp_y &&
		       fw->precisions == sim->precisions &&
		       !memcmp(fw->unit_base, sim->unit_base,
			       NVDLA_UNIT_COUNT * sizeof(fw->unit_base[0])),
		       "%s: configuration %zu of the driver, the firmware and the model, with the same facts",
		       names[i], i);
	}
}

int main(void)
{
	size_t i;

	srand(7);
	for (i = 0; i < sizeof(configs) / sizeof(configs[0]); i++)
		test_config(&configs[i]);
	test_resubmit(&configs[0]);
	test_resubmit(&configs[1]);
	for (i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
		test_cdp_reruns(&configs[i]);
		test_after_fused(&configs[i]);
	}
	test_refusals();
	test_shared_facts();
	return tap_done();
}
