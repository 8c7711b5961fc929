// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * CPU (EMU1) tasks: the emulator's fp16 rounding against hand-worked
 * cases; power and softmax on hand-worked inputs, in a one-task network
 * cut from the official MNIST loadable; this stack's erf, channel-height
 * swap, layer normalisation and bilinear resize against plain references,
 * its sigmoid, tanh and SiLU against their closed forms (fp16 and int8);
 * every malformed descriptor refused with its message when the network is
 * loaded; and the whole MNIST network
 * equal to its golden output, also after a convolution left the register
 * groups on the other side.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/runtime.h>

#include "emu.h"
#include "loadable.h"
#include "runtime_internal.h"
#include "../lib/tap.h"

#define NN "../shared/conformance/loadables/NN_L0_0/NN_L0_0.nvdla"
#define NN_GOLDEN "../shared/conformance/loadables/NN_L0_0/golden/o_000000.dimg"
#define CONV "../shared/conformance/loadables/CONV_D_L0_0/CONV_D_L0_0.nvdla"
#define DIMG_HEADER 36

static void test_half(void)
{
	static const struct { float f; uint16_t h; const char *what; } c[] = {
		{ 1.0f, 0x3c00, "1.0" },
		{ 1.00048828125f, 0x3c01, "1 + 2^-11: a tie rounds away from zero" },
		{ -1.00048828125f, 0xbc01, "-(1 + 2^-11): away from zero" },
		{ 1.000244140625f, 0x3c00, "1 + 2^-12: below half" },
		{ 65504.0f, 0x7bff, "largest finite" },
		{ 65520.0f, 0x7c00, "65520 rounds to infinity" },
		{ 5.9604644775390625e-8f, 0x0001, "2^-24: smallest denormal" },
		{ 2.98023223876953125e-8f, 0x0001, "2^-25: tie, away from zero" },
		{ 1.4901161193847656e-8f, 0x0000, "2^-26: zero" },
		{ -0.0f, 0x8000, "-0" },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		tap_ok(nvdla_emu_half(c[i].f) == c[i].h, "emulator fp16 %04x: %s",
		       c[i].h, c[i].what);
	tap_ok(nvdla_emu_half(__builtin_inff()) == 0x7c00 &&
	       nvdla_emu_half(__builtin_nanf("")) == 0x7e00,
	       "emulator fp16: infinity and NaN");
}

static void *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	void *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET)) {
		buf = malloc(n);
		if (buf && fread(buf, 1, n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = n;
	}
	fclose(f);
	return buf;
}

static struct nvdla_lbl_blob *blob(struct nvdla_loadable *l, const char *name)
{
	return (struct nvdla_lbl_blob *)nvdla_loadable_blob(l, name);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

static void put_f32(uint8_t *p, float f)
{
	memcpy(p, &f, 4);
}

/*
 * NN_L0_0 cut down to its first task, a power operation reading four
 * channels of the input (1x1) and writing the network's output.
 */
static struct nvdla_loadable *one_task(const void *file, size_t len)
{
	struct nvdla_loadable *l;
	uint8_t *ops, *bufs;
	char err[256];
	int i;

	if (nvdla_loadable_parse(file, len, &l, err, sizeof(err)))
		return NULL;
	for (i = 0; i < (int)l->num_submits; i++)	/* task 0 only */
		l->submits[i].num_tasks = 0;
	l->submits[0].num_tasks = 1;
	l->submits[0].task_ids[0] = 0;
	ops = blob(l, "task-0-op_list")->data;
	put_f32(ops + EMU_V1_POWER, 2.0f);	/* power */
	put_f32(ops + EMU_V1_POWER + 4, 2.0f);	/* scale */
	put_f32(ops + EMU_V1_POWER + 8, 1.0f);	/* shift */
	bufs = blob(l, "task-0-op_buf_list")->data;
	for (i = 0; i < 2; i++) {
		uint8_t *d = bufs + i * EMU_BUF_SIZE + EMU_V1_BUF_WIDTH;

		put16(d, 1);
		put16(d + EMU_BUF_HEIGHT, 1);
		put16(d + EMU_BUF_CHANNEL, 4);
	}
	put16(bufs + EMU_BUF_SIZE + EMU_BUF_INDEX, 12);	/* the output */
	return l;
}

/* Whether the last run() loaded its network. */
static bool loaded;

/* Run @l with fp16 input @in[4]; output into @out[4]. */
static int run(struct nvdla_runtime *rt, const struct nvdla_loadable *l,
	       const uint16_t *in, uint16_t *out)
{
	struct nvdla_network *net;
	size_t len;
	void *buf;
	uint8_t *p;
	int ret, i;

	memset(out, 0xff, 4 * sizeof(*out));
	loaded = false;
	if (nvdla_loadable_write(l, &buf, &len))
		return -ENOMEM;
	ret = nvdla_network_load(rt, buf, len, &net);
	free(buf);
	if (ret)
		return ret;
	loaded = true;
	p = nvdla_buffer_map(nvdla_network_input(net, 0));
	for (i = 0; i < 4; i++)
		put16(p + 2 * i, in[i]);
	ret = nvdla_network_submit(net, 0);
	p = nvdla_buffer_map(nvdla_network_output(net, 0));
	for (i = 0; i < 4; i++)
		out[i] = p[2 * i] | p[2 * i + 1] << 8;
	nvdla_network_unload(net);
	return ret;
}

static void test_ops(struct nvdla_runtime *rt, struct nvdla_loadable *l)
{
	const uint16_t x[4] = { 0x0000, 0x3800, 0xbc00, 0x3e00 };
	const uint16_t ones[4] = { 0x3c00, 0, 0, 0 };
	uint16_t y[4];
	uint8_t *ops = blob(l, "task-0-op_list")->data;

	tap_ok(!run(rt, l, x, y) && y[0] == 0x3c00 && y[1] == 0x4400 &&
	       y[2] == 0x3c00 && y[3] == 0x4c00,
	       "power: (1 + 2x)^2 of 0, 0.5, -1, 1.5 = 1, 4, 1, 16");
	ops[EMU_OP_TYPE] = EMU_OP_SOFTMAX;
	ops[EMU_V1_AXIS] = 1;
	tap_ok(!run(rt, l, x + 0, y) && y[0] != 0, "softmax runs");
	tap_ok(!run(rt, l, ones, y) && y[0] == 0x379b && y[1] == 0x3199 &&
	       y[2] == 0x3199 && y[3] == 0x3199,
	       "softmax of 1, 0, 0, 0 = e/(e+3), 1/(e+3) x3");
	put16(blob(l, "task-0-op_buf_list")->data + EMU_BUF_SIZE +
	      EMU_V1_BUF_WIDTH + EMU_BUF_CHANNEL, 2);
	tap_ok(run(rt, l, ones, y) == -EINVAL &&
	       strstr(nvdla_runtime_error(rt), "softmax source wider") &&
	       !loaded, "softmax into a narrower destination refused at load: %s",
	       nvdla_runtime_error(rt));
	put16(blob(l, "task-0-op_buf_list")->data + EMU_BUF_SIZE +
	      EMU_V1_BUF_WIDTH + EMU_BUF_CHANNEL, 4);
	ops[EMU_OP_TYPE] = EMU_OP_POWER;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v);
	put16(p + 2, v >> 16);
}

/* Turn the one-task network's descriptors into the 2019 layout. */
static void to_v2(struct nvdla_loadable *l, uint16_t format, float in_scale,
		  float out_scale)
{
	struct nvdla_lbl_blob *ops = blob(l, "task-0-op_list");
	uint8_t *bufs = blob(l, "task-0-op_buf_list")->data;
	uint32_t m;
	int i;

	free(ops->data);
	ops->data = calloc(1, EMU_OP_SIZE_V2);
	ops->data_len = EMU_OP_SIZE_V2;
	ops->size = EMU_OP_SIZE_V2;
	for (m = 0; m < l->num_memories; m++)
		if (l->memories[m].num_contents &&
		    !strcmp(l->memories[m].contents[0], "task-0-op_list"))
			l->memories[m].size = EMU_OP_SIZE_V2;
	put_f32(ops->data + EMU_V2_IN_SCALE, in_scale);
	put_f32(ops->data + EMU_V2_OUT_SCALE, out_scale);
	put_f32(ops->data + EMU_V2_POWER, 1.0f);
	put_f32(ops->data + EMU_V2_POWER + 4, 2.0f);
	put_f32(ops->data + EMU_V2_POWER + 8, 1.0f);
	for (i = 0; i < 2; i++) {
		uint8_t *d = bufs + i * EMU_BUF_SIZE;
		uint8_t *dims = d + EMU_V2_BUF_WIDTH;

		put16(d + EMU_BUF_INDEX, i ? 12 : 2);
		put32(d + EMU_V2_BUF_OFFSET, 0);
		put16(d + EMU_V2_BUF_FORMAT, format);
		put16(dims, 1);
		put16(dims + EMU_BUF_HEIGHT, 1);
		put16(dims + EMU_BUF_CHANNEL, 4);
		put32(dims + EMU_BUF_LINE_STRIDE, 32);
		put32(dims + EMU_BUF_SURF_STRIDE, 32);
	}
}

/* The int8 formats scale in and out: (1 + 2 * x / 2) * 4, saturated. */
static void test_v2(struct nvdla_runtime *rt, const void *file, size_t len)
{
	const uint16_t x8[4] = { 0xec0a, 0x8064, 0, 0 };	/* 10 -20 100 -128 */
	const uint16_t x16[4] = { 0x3c00, 0xc000, 0, 0 };	/* 1, -2 */
	uint16_t y[4] = { 0 };
	struct nvdla_loadable *l = one_task(file, len);

	if (!l) {
		tap_ok(0, "2019 layout");
		return;
	}
	to_v2(l, EMU_V2_FORMAT_INT8, 0.5f, 0.25f);
	tap_ok(!run(rt, l, x8, y) && y[0] == 0xb42c && y[1] == 0x807f,
	       "2019 layout, int8 power with scales: 44 -76 127 -128 (%04x %04x)",
	       y[0], y[1]);
	to_v2(l, EMU_V2_FORMAT_INT8_8, 0.5f, 0.25f);
	tap_ok(!run(rt, l, x8, y) && y[0] == 0xb42c && y[1] == 0x807f,
	       "2019 layout, int8 with 8-byte atoms");
	put16(blob(l, "task-0-op_buf_list")->data + EMU_BUF_SIZE +
	      EMU_V2_BUF_FORMAT, EMU_V2_FORMAT_FP16);
	tap_ok(run(rt, l, x8, y) == -EOPNOTSUPP &&
	       strstr(nvdla_runtime_error(rt), "formats differ") && !loaded,
	       "int8 into fp16 refused: %s", nvdla_runtime_error(rt));
	blob(l, "task-0-op_list")->data[EMU_OP_TYPE] = EMU_OP_SOFTMAX;
	put_f32(blob(l, "task-0-op_list")->data + EMU_V2_IN_SCALE, 0.01f);
	tap_ok(!run(rt, l, x8, y) &&
	       fabsf(nvdla_half_to_float(y[0]) - 0.2246f) < 1e-3f &&
	       fabsf(nvdla_half_to_float(y[1]) - 0.1664f) < 1e-3f &&
	       fabsf(nvdla_half_to_float(y[2]) - 0.5525f) < 1e-3f &&
	       fabsf(nvdla_half_to_float(y[3]) - 0.0565f) < 1e-3f,
	       "int8 softmax into fp16 (nvdla_compile's network outputs): of 0.1 -0.2 1 -1.28 = 0.2246 0.1664 0.5525 0.0565");
	to_v2(l, EMU_V2_FORMAT_FP16, 1.0f, 1.0f);
	tap_ok(!run(rt, l, x16, y) && y[0] == 0x4200 && y[1] == 0xc200,
	       "2019 layout, fp16 power: 1 + 2x of 1, -2 = 3, -3");
	blob(l, "task-0-op_list")->data[EMU_OP_TYPE] = EMU_OP_ERF;
	tap_ok(!run(rt, l, x16, y) && y[0] == 0x3abe && y[1] == 0xbbf6,
	       "2019 layout, fp16 erf (this stack's): erf(1), erf(-2) = 0.8428, -0.9951");
	to_v2(l, EMU_V2_FORMAT_INT8, 0.01f, 1.0f / 104);
	blob(l, "task-0-op_list")->data[EMU_OP_TYPE] = EMU_OP_ERF;
	tap_ok(!run(rt, l, x8, y) && y[0] == 0xe90c && y[1] == 0x9f58,
	       "2019 layout, int8 erf with scales: 104 erf(0.1, -0.2, 1, -1.28) = 11.70 -23.16 87.64 -96.69, rounded to 12 -23 88 -97");
	nvdla_loadable_free(l);
}

/* The dims and strides of buffer @i (0 source, 1 destination), 2019 layout. */
static void set_dims(struct nvdla_loadable *l, int i, uint16_t w, uint16_t h,
		     uint16_t c, uint32_t line, uint32_t surf)
{
	uint8_t *dims = blob(l, "task-0-op_buf_list")->data + i * EMU_BUF_SIZE +
			EMU_V2_BUF_WIDTH;

	put16(dims, w);
	put16(dims + EMU_BUF_HEIGHT, h);
	put16(dims + EMU_BUF_CHANNEL, c);
	put32(dims + EMU_BUF_LINE_STRIDE, line);
	put32(dims + EMU_BUF_SURF_STRIDE, surf);
}

/* Whether fp16 @y[4] are @ref[4] to within @tol. */
static bool near4(const uint16_t *y, const double *ref, double tol)
{
	int i;

	for (i = 0; i < 4; i++)
		if (!(fabs(nvdla_half_to_float(y[i]) - ref[i]) <= tol))
			return false;
	return true;
}

/* Whether fp16 @y[4] are @ref[4] to within half an fp16 step of each. */
static bool half_near4(const uint16_t *y, const double *ref)
{
	int i;

	for (i = 0; i < 4; i++)
		if (!(fabs(nvdla_half_to_float(y[i]) - ref[i]) <=
		      ldexp(1, ilogb(fmax(fabs(ref[i]), 0x1p-14)) - 11)))
			return false;
	return true;
}

/* (x - mean) / sqrt(var + eps) of @n values at @x, step @step, into @y. */
static void layernorm_ref(const double *x, int n, int step, double eps,
			  double *y)
{
	double mean = 0, var = 0;
	int i;

	for (i = 0; i < n; i++)
		mean += x[i * step] / n;
	for (i = 0; i < n; i++)
		var += (x[i * step] - mean) * (x[i * step] - mean) / n;
	for (i = 0; i < n; i++)
		y[i * step] = (x[i * step] - mean) / sqrt(var + eps);
}

/*
 * This stack's layout operations on small fp16 cubes whose strides pack
 * them into the task's four values: a 2 x 2 swap, layer normalisation
 * over 4 channels and over 2 channels at 2 positions, and bilinear
 * resizes of 2 rows to 4 in each coordinate mapping, against plain
 * double references (fp16: within half a step).
 */
static void test_own_ops(struct nvdla_runtime *rt, const void *file,
			 size_t len)
{
	const uint16_t x[4] = { 0x3c00, 0x4000, 0x4200, 0x4400 };	/* 1 2 3 4 */
	const double xd[4] = { 1, 2, 3, 4 };
	static const struct {
		uint8_t coord;
		double y[4];
		const char *what;
	} rs[] = {
		{ EMU_COORD_HALF_PIXEL, { 1, 1.25, 1.75, 2 }, "half_pixel" },
		{ EMU_COORD_PYTORCH_HALF_PIXEL, { 1, 1.25, 1.75, 2 },
		  "pytorch_half_pixel" },
		{ EMU_COORD_ALIGN_CORNERS, { 1, 4 / 3.0, 5 / 3.0, 2 },
		  "align_corners" },
		{ EMU_COORD_ASYMMETRIC, { 1, 1.5, 2, 2 }, "asymmetric" },
	};
	struct nvdla_loadable *l = one_task(file, len);
	uint16_t y[4];
	double ref[4];
	uint8_t *op;
	size_t i;

	if (!l) {
		tap_ok(0, "this stack's CPU operations");
		return;
	}
	to_v2(l, EMU_V2_FORMAT_FP16, 1.0f, 1.0f);
	op = blob(l, "task-0-op_list")->data;
	op[EMU_OP_TYPE] = EMU_OP_SWAP_CH;
	set_dims(l, 0, 1, 2, 2, 4, 32);	/* (c, h) at 2 h + c */
	set_dims(l, 1, 1, 2, 2, 4, 32);
	tap_ok(!run(rt, l, x, y) && y[0] == x[0] && y[1] == x[2] &&
	       y[2] == x[1] && y[3] == x[3],
	       "channel-height swap of a 2 x 2 cube: 1 2 3 4 -> 1 3 2 4");
	op[EMU_OP_TYPE] = EMU_OP_LAYERNORM;
	put_f32(op + EMU_V2_PARAM, 1e-5f);
	set_dims(l, 0, 1, 1, 4, 32, 32);
	set_dims(l, 1, 1, 1, 4, 32, 32);
	layernorm_ref(xd, 4, 1, 1e-5, ref);
	tap_ok(!run(rt, l, x, y) && near4(y, ref, 1e-3),
	       "layer normalisation of 1 2 3 4 over channels: -1.3416 -0.4472 0.4472 1.3416");
	put_f32(op + EMU_V2_PARAM, 0.5f);
	set_dims(l, 0, 1, 2, 2, 4, 32);	/* position h: channels 2 h, 2 h + 1 */
	set_dims(l, 1, 1, 2, 2, 4, 32);
	layernorm_ref(xd, 2, 1, 0.5, ref);
	layernorm_ref(xd + 2, 2, 1, 0.5, ref + 2);
	tap_ok(!run(rt, l, x, y) && near4(y, ref, 1e-3),
	       "layer normalisation at 2 positions of 2 channels, eps 0.5: -0.5774 0.5774 twice");
	op[EMU_OP_TYPE] = EMU_OP_RESIZE;
	put_f32(op + EMU_V2_RESIZE_STEP, 0.5f);	/* 2 rows to 4 */
	put_f32(op + EMU_V2_RESIZE_STEP + 4, 1);
	set_dims(l, 0, 1, 2, 1, 2, 32);	/* rows 1, 2 */
	set_dims(l, 1, 1, 4, 1, 2, 32);
	for (i = 0; i < sizeof(rs) / sizeof(rs[0]); i++) {
		op[EMU_V2_PARAM] = rs[i].coord;
		tap_ok(!run(rt, l, x, y) && near4(y, rs[i].y, 1e-3),
		       "bilinear resize of rows 1, 2 to 4 rows, %s: %.4f %.4f %.4f %.4f",
		       rs[i].what, rs[i].y[0], rs[i].y[1], rs[i].y[2],
		       rs[i].y[3]);
	}
	/* ONNX scale 2.2: 4 rows, sampled by 1 / 2.2, not by 2 / 4. */
	op[EMU_V2_PARAM] = EMU_COORD_HALF_PIXEL;
	put_f32(op + EMU_V2_RESIZE_STEP, 1 / 2.2f);
	tap_ok(!run(rt, l, x, y) &&
	       near4(y, (const double[4]){ 1, 13 / 11.0, 18 / 11.0, 2 }, 1e-3),
	       "bilinear resize of rows 1, 2 by scale 2.2 (step 1 / 2.2), half_pixel: 1 1.1818 1.6364 2");
	nvdla_loadable_free(l);
}

/* The function of LUT operation @type (emu.h) in closed form. */
static double lut_ref(uint8_t type, double x)
{
	double e = exp(-x);

	if (type == EMU_OP_SIGMOID)
		return 1 / (1 + e);
	if (type == EMU_OP_TANH)
		return (1 - e * e) / (1 + e * e);
	return x / (1 + e);
}

/*
 * Sigmoid, tanh and SiLU, this stack's functions for a DLA without the
 * SDP's LUT: in fp16 of 0, 0.5, -1, 1.5 within half an fp16 step of the
 * closed forms; in int8 of codes 10, -20, 100, -128 at an input scale
 * each, codes of the closed form at the output scale, rounded to
 * nearest (ties away from zero: nvdla_round_sat(), not used here). Scales
 * such that every quotient is at least 0.08 from a whole or half number.
 */
static void test_lut_ops(struct nvdla_runtime *rt, const void *file,
			 size_t len)
{
	static const struct {
		uint8_t type;
		float in_scale, out_scale;
		const char *name;
	} ops[] = {
		{ EMU_OP_SIGMOID, 1 / 32.0f, 0.01f, "sigmoid" },
		{ EMU_OP_TANH, 0.02f, 1 / 64.0f, "tanh" },
		{ EMU_OP_SILU, 0.05f, 0.04f, "silu" },
	};
	const uint16_t x16[4] = { 0x0000, 0x3800, 0xbc00, 0x3e00 };
	/* codes 10 -20 100 -128 */
	const uint16_t x8[4] = { 0xec0a, 0x8064, 0, 0 };
	static const double xd[4] = { 0, 0.5, -1, 1.5 };
	static const int codes[4] = { 10, -20, 100, -128 };
	struct nvdla_loadable *l = one_task(file, len);
	double ref[4];
	int8_t want[4], got[4];
	uint16_t y[4];
	size_t i;
	int k;

	if (!l) {
		tap_ok(0, "sigmoid, tanh and SiLU on the CPU");
		return;
	}
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		to_v2(l, EMU_V2_FORMAT_FP16, 1.0f, 1.0f);
		blob(l, "task-0-op_list")->data[EMU_OP_TYPE] = ops[i].type;
		for (k = 0; k < 4; k++)
			ref[k] = lut_ref(ops[i].type, xd[k]);
		tap_ok(!run(rt, l, x16, y) && half_near4(y, ref),
		       "fp16 %s of 0 0.5 -1 1.5: %.4f %.4f %.4f %.4f",
		       ops[i].name, ref[0], ref[1], ref[2], ref[3]);
		to_v2(l, EMU_V2_FORMAT_INT8, ops[i].in_scale,
		      ops[i].out_scale);
		blob(l, "task-0-op_list")->data[EMU_OP_TYPE] = ops[i].type;
		for (k = 0; k < 4; k++)
			want[k] = (int8_t)round(lut_ref(ops[i].type, codes[k] *
					(double)ops[i].in_scale) /
					ops[i].out_scale);
		k = run(rt, l, x8, y);
		memcpy(got, y, sizeof(got));
		tap_ok(!k && !memcmp(got, want, sizeof(got)),
		       "int8 %s, scales %g in, %g out: %d %d %d %d (%d %d %d %d)",
		       ops[i].name, ops[i].in_scale, ops[i].out_scale,
		       want[0], want[1], want[2], want[3], got[0], got[1],
		       got[2], got[3]);
	}
	nvdla_loadable_free(l);
}

/* Parameters and shapes of this stack's operations, refused at load. */
static void test_own_refusals(struct nvdla_runtime *rt, const void *file,
			      size_t len)
{
	static const struct {
		uint8_t type;
		float param;
		uint16_t dst[3];	/* w, h, c */
		const char *msg;
	} m[] = {
		{ EMU_OP_LAYERNORM, 0, { 1, 1, 4 },
		  "epsilon not a positive number" },
		{ EMU_OP_LAYERNORM, -1, { 1, 1, 4 },
		  "epsilon not a positive number" },
		{ EMU_OP_LAYERNORM, NAN, { 1, 1, 4 },
		  "epsilon not a positive number" },
		{ EMU_OP_LAYERNORM, INFINITY, { 1, 1, 4 },
		  "epsilon not a positive number" },
		{ EMU_OP_LAYERNORM, 1e-5f, { 1, 1, 2 },
		  "layer normalisation destination not of the source's shape" },
		{ EMU_OP_RESIZE, 4, { 1, 1, 4 },
		  "unknown resize coordinate mapping" },
		{ EMU_OP_RESIZE, 0, { 1, 1, 2 },
		  "resize destination of other channels than its source" },
		{ EMU_OP_SWAP_CH, 0, { 1, 1, 4 },
		  "swap destination not the source with channels and height exchanged" },
		{ EMU_OP_SILU + 1, 0, { 1, 1, 4 }, "unknown operation type" },
	};
	struct nvdla_loadable *l = one_task(file, len);
	uint16_t y[4];
	uint8_t *op;
	size_t i;

	if (!l) {
		tap_ok(0, "this stack's CPU operations refused");
		return;
	}
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		to_v2(l, EMU_V2_FORMAT_FP16, 1.0f, 1.0f);
		op = blob(l, "task-0-op_list")->data;
		op[EMU_OP_TYPE] = m[i].type;
		if (m[i].type == EMU_OP_RESIZE) {
			op[EMU_V2_PARAM] = (uint8_t)m[i].param;
			put_f32(op + EMU_V2_RESIZE_STEP, 1);
			put_f32(op + EMU_V2_RESIZE_STEP + 4, 1);
		} else {
			put_f32(op + EMU_V2_PARAM, m[i].param);
		}
		set_dims(l, 1, m[i].dst[0], m[i].dst[1], m[i].dst[2], 32, 32);
		tap_ok(run(rt, l, (const uint16_t[4]){ 0 }, y) < 0 && !loaded &&
		       strstr(nvdla_runtime_error(rt), m[i].msg),
		       "operation %u refused at load: %s", m[i].type,
		       nvdla_runtime_error(rt));
	}
	for (i = 0; i < 2; i++) {	/* a step of 0, then NaN */
		to_v2(l, EMU_V2_FORMAT_FP16, 1.0f, 1.0f);
		op = blob(l, "task-0-op_list")->data;
		op[EMU_OP_TYPE] = EMU_OP_RESIZE;
		put_f32(op + EMU_V2_RESIZE_STEP, 1);
		put_f32(op + EMU_V2_RESIZE_STEP + 4 * !i, i ? NAN : 0);
		set_dims(l, 1, 1, 1, 4, 32, 32);
		tap_ok(run(rt, l, (const uint16_t[4]){ 0 }, y) < 0 && !loaded &&
		       strstr(nvdla_runtime_error(rt),
			      "resize step not a positive number"),
		       "a resize step of %s refused at load: %s",
		       i ? "NaN" : "0", nvdla_runtime_error(rt));
	}
	nvdla_loadable_free(l);
	l = one_task(file, len);
	if (!l)
		return;
	blob(l, "task-0-op_list")->data[EMU_OP_TYPE] = EMU_OP_LAYERNORM;
	tap_ok(run(rt, l, (const uint16_t[4]){ 0 }, y) < 0 && !loaded &&
	       strstr(nvdla_runtime_error(rt),
		      "this stack's operation in the layout without int8 support"),
	       "layer normalisation in the 2017 layout refused: %s",
	       nvdla_runtime_error(rt));
	nvdla_loadable_free(l);
}

struct mutation {
	const char *blob;
	size_t at;
	uint16_t value;
	const char *msg;
};

static void test_refusals(struct nvdla_runtime *rt, struct nvdla_loadable *l)
{
	static const struct mutation m[] = {
		{ "task-0-op_list", EMU_OP_TYPE, EMU_OP_SILU + 1,
		  "unknown operation type" },
		{ "task-0-op_list", EMU_OP_TYPE, EMU_OP_ERF,
		  "erf in the layout without int8 support" },
		{ "task-0-op_buf_list",
		  EMU_BUF_SIZE + EMU_V1_BUF_WIDTH + EMU_BUF_CHANNEL, 2,
		  "source cube larger than its destination" },
		{ "task-0-addr0", EMU_NET_NUM_OPS, 5,
		  "operation or buffer list shorter than its operations" },
		{ "task-0-addr0", EMU_NET_OP_INDEX, 0xffff,
		  "address index out of range" },
		{ "task-0-op_buf_list", EMU_BUF_INDEX, 200,
		  "address index out of range" },
		{ "task-0-op_buf_list", EMU_V1_BUF_FORMAT, 3,
		  "buffer format not fp16 or int8" },
		{ "task-0-op_buf_list", EMU_BUF_SIZE + EMU_V1_BUF_FORMAT, 0,
		  "buffer format not fp16 or int8" },
		{ "task-0-op_buf_list", EMU_V1_BUF_WIDTH + EMU_BUF_CHANNEL, 0,
		  "empty buffer" },
		{ "task-0-op_buf_list", EMU_BUF_SIZE + EMU_V1_BUF_WIDTH, 0xffff,
		  "buffer cube beyond its memory" },
		{ "task-0-op_buf_list",
		  EMU_BUF_SIZE + EMU_V1_BUF_WIDTH + EMU_BUF_CHANNEL, 17,
		  "buffer cube beyond its memory" },
		{ "task-0-op_buf_list", EMU_V1_BUF_WIDTH + EMU_BUF_HEIGHT,
		  0xffff, "buffer cube beyond its memory" },
	};
	const uint16_t x[4] = { 0x3c00, 0x3c00, 0x3c00, 0x3c00 };
	uint16_t y[4];
	size_t i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		uint8_t *p = blob(l, m[i].blob)->data + m[i].at;
		uint8_t save[2] = { p[0], p[1] };
		int ret;

		put16(p, m[i].value);
		ret = run(rt, l, x, y);
		tap_ok(ret < 0 && strstr(nvdla_runtime_error(rt), m[i].msg) &&
		       !loaded, "%s +%zu = %u refused at load: %s", m[i].blob,
		       m[i].at, m[i].value, nvdla_runtime_error(rt));
		p[0] = save[0];
		p[1] = save[1];
	}
}

/* The whole network against the golden output. */
static bool nn_matches(struct nvdla_runtime *rt, const uint8_t *golden)
{
	struct nvdla_network *net;
	bool same;

	if (nvdla_network_load_file(rt, NN, &net))
		return false;
	same = !nvdla_network_submit(net, 0) &&
	       !memcmp(nvdla_buffer_map(nvdla_network_output(net, 0)),
		       golden + DIMG_HEADER, 20);
	nvdla_network_unload(net);
	return same;
}

static void test_network(struct nvdla_runtime *rt)
{
	struct nvdla_network *conv;
	size_t glen;
	uint8_t *golden = read_all(NN_GOLDEN, &glen);

	tap_ok(golden && glen == DIMG_HEADER + 20 && nn_matches(rt, golden),
	       "NN_L0_0 (fp16 LeNet with CPU power and softmax) equals its golden output");
	tap_ok(!nvdla_network_load_file(rt, CONV, &conv) &&
	       !nvdla_network_submit(conv, 0), "one int8 convolution");
	nvdla_network_unload(conv);
	tap_ok(golden && nn_matches(rt, golden),
	       "NN_L0_0 again, its SDP read DMA on the other register group");
	free(golden);
}

int main(void)
{
	struct nvdla_loadable *l;
	struct nvdla_runtime *rt;
	size_t len;
	void *file;

	test_half();
	file = read_all(NN, &len);
	if (!file) {
		tap_skip("../shared absent", "CPU tasks of NN_L0_0");
		return tap_done();
	}
	if (nvdla_runtime_new("sim:nv_full", &rt, NULL, 0)) {
		tap_ok(0, "in-process runtime");
		return tap_done();
	}
	l = one_task(file, len);
	tap_ok(l != NULL, "NN_L0_0 cut down to its first CPU task");
	if (l) {
		test_ops(rt, l);
		test_refusals(rt, l);
		nvdla_loadable_free(l);
	}
	test_v2(rt, file, len);
	test_own_ops(rt, file, len);
	test_lut_ops(rt, file, len);
	test_own_refusals(rt, file, len);
	test_network(rt);
	nvdla_runtime_del(rt);
	free(file);
	return tap_done();
}
