// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The compiler's back end: small graphs built by hand, one per operation
 * and feature, lowered for each configuration and precision, run on the
 * in-process model through the runtime's API and compared with a plain
 * float computation of the same graph here. Tolerances: fp16 5e-3
 * relative to the output's largest magnitude; int8 4 steps of the
 * output's scale plus 2 % of its range per int8 layer crossed (each
 * rounds once). Refusals are checked for their messages.
 */
#define _GNU_SOURCE	/* memmem */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nvdla/dla_interface.h>
#include <nvdla/runtime.h>

#include "emu.h"
#include "graph.h"
#include "lower.h"
#include "input_map.h"
#include "loadable.h"
#include "../lib/tap.h"

#define MAXT 64
#define MAXN 32

static struct nvc_tensor tensors[MAXT];
static struct nvc_node nodes[MAXN];
static struct nvc_graph G;
static float *vals[MAXT];	/* float reference values, NCHW */
static const char *image_file;	/* image input from this file, or NULL */
/* run(): each node's convolution mode, and which node made what */
static const enum nvc_conv_way *conv_way;
static struct nvc_origins origins;
static unsigned int seed;
static const bool *fp16_nodes;	/* run(), refused(): mixed precision */
static const char *loadables_dir;	/* --write-loadables: fuzzing seeds */
static int loadables_written;

/* G on the heap, where a pass may add tensors and nodes to it. */
static int graph_copy(struct nvc_graph *h)
{
	int i, t;

	memset(h, 0, sizeof(*h));
	for (i = 0; i < G.num_tensors; i++) {
		const struct nvc_tensor *src = &tensors[i];
		char *name;
		float *data;

		t = nvc_tensor_add(h, src->name, src->n, src->c, src->h,
				   src->w, src->data);
		if (t < 0)
			return t;
		name = h->tensors[t].name;
		data = h->tensors[t].data;
		h->tensors[t] = *src;
		h->tensors[t].name = name;
		h->tensors[t].data = data;
	}
	for (i = 0; i < G.num_nodes; i++) {
		char *name;

		t = nvc_node_add(h, nodes[i].name, nodes[i].onnx_op,
				 nodes[i].op);
		if (t < 0)
			return t;
		name = h->nodes[t].name;
		h->nodes[t] = nodes[i];
		h->nodes[t].name = name;
	}
	h->num_inputs = G.num_inputs;
	h->num_outputs = G.num_outputs;
	memcpy(h->inputs, G.inputs, sizeof(G.inputs));
	memcpy(h->outputs, G.outputs, sizeof(G.outputs));
	return 0;
}

/*
 * The graph lowered as the compiler does: its transposed convolutions
 * rewritten (on a copy) and fusion decided (fuse.c).
 */
static int lower(const struct nvc_options *o, void **buf, size_t *len,
		 char *err, size_t errlen)
{
	struct nvc_graph h;
	int ret = graph_copy(&h);

	if (ret)
		snprintf(err, errlen, "out of memory");
	if (!ret)
		ret = nvc_deconv_rewrite(&h, err, errlen);
	if (!ret)
		ret = nvc_lower(&h, o, buf, len, err, errlen);
	nvc_graph_free(&h);
	return ret;
}

static float rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f;
}

static void reset(void)
{
	int i;

	for (i = 0; i < G.num_tensors; i++) {
		free(tensors[i].data);
		free(vals[i]);
		vals[i] = NULL;
	}
	memset(tensors, 0, sizeof(tensors));
	memset(nodes, 0, sizeof(nodes));
	memset(&G, 0, sizeof(G));
	G.tensors = tensors;
	G.nodes = nodes;
	seed = 42;
}

static int tensor(const char *name, int c, int h, int w)
{
	struct nvc_tensor *t = &tensors[G.num_tensors];

	t->name = (char *)name;
	t->n = 1;
	t->c = c;
	t->h = h;
	t->w = w;
	t->producer = -1;
	t->alias_of = -1;
	return G.num_tensors++;
}

static int constant(int n, int c, int h, int w, float amp, float bias)
{
	int t = tensor("const", c, h, w), i, count = n * c * h * w;

	tensors[t].n = n;
	tensors[t].data = malloc(count * sizeof(float));
	for (i = 0; i < count; i++)
		tensors[t].data[i] = bias + amp * rnd();
	return t;
}

static int input(int c, int h, int w)
{
	int t = tensor("in", c, h, w);

	G.inputs[G.num_inputs++] = t;
	return t;
}

static struct nvc_node *node(enum nvc_op op, const char *name, int in, int out)
{
	struct nvc_node *n = &nodes[G.num_nodes];

	n->name = (char *)name;
	n->onnx_op = name;
	n->op = op;
	n->num_inputs = in >= 0;
	n->inputs[0] = in;
	n->num_outputs = 1;
	n->outputs[0] = out;
	tensors[out].producer = G.num_nodes++;
	return n;
}

static int conv(int in, int k, int kh, int stride, int pad, int dil,
		int group, enum nvc_act act)
{
	const struct nvc_tensor *ti = &tensors[in];
	int eh = (kh - 1) * dil + 1;
	int oh = (ti->h + 2 * pad - eh) / stride + 1;
	int ow = (ti->w + 2 * pad - eh) / stride + 1;
	int out = tensor("conv", k, oh, ow);
	struct nvc_node *n = node(NVC_CONV, "Conv", in, out);
	float amp = 1.0f / sqrtf((float)ti->c / group * kh * kh);

	n->conv = (struct nvc_conv_attr){ .kh = kh, .kw = kh,
		.stride = { stride, stride }, .pad = { pad, pad, pad, pad },
		.dilation = { dil, dil }, .group = group };
	n->conv.weights = constant(k, ti->c / group, kh, kh, amp * 1.5f, 0);
	n->conv.bias = constant(1, k, 1, 1, 0.2f, 0);
	n->act.type = act;
	return out;
}

/*
 * A transposed convolution of @in into @k channels, kernel @kh, stride
 * @s, padding @p, output padding @q, dilation @d, @group groups: on
 * height and width, or on the height alone of an input 1 wide (1-D).
 */
static int deconv(int in, int k, int kh, int s, int p, int q, int d,
		  int group, enum nvc_act act)
{
	const struct nvc_tensor *ti = &tensors[in];
	bool one = ti->w == 1;
	int oh = s * (ti->h - 1) + q + d * (kh - 1) + 1 - 2 * p;
	int ow = one ? 1 : s * (ti->w - 1) + q + d * (kh - 1) + 1 - 2 * p;
	int out = tensor("deconv", k, oh, ow), x = !one;
	struct nvc_node *n = node(NVC_CONV_TRANSPOSE, "ConvTranspose", in, out);

	n->conv = (struct nvc_conv_attr){ .kh = kh, .kw = one ? 1 : kh,
		.stride = { s, one ? 1 : s }, .pad = { p, p * x, p, p * x },
		.dilation = { d, one ? 1 : d }, .group = group,
		.out_pad = { q, q * x } };
	n->conv.weights = constant(ti->c, k / group, kh, n->conv.kw,
				   1.0f / sqrtf((float)ti->c / group), 0);
	n->conv.bias = constant(1, k, 1, 1, 0.2f, 0);
	n->act.type = act;
	return out;
}

static int fc(int in, int k, enum nvc_act act)
{
	const struct nvc_tensor *ti = &tensors[in];
	int flat = in, out;
	struct nvc_node *n;

	if (ti->h * ti->w > 1) {
		flat = tensor("flat", ti->c * ti->h * ti->w, 1, 1);
		tensors[flat].alias_of = in;
		node(NVC_RESHAPE, "Flatten", in, flat);
	}
	out = tensor("fc", k, 1, 1);
	n = node(NVC_CONV, "Gemm", flat, out);
	n->conv = (struct nvc_conv_attr){ .kh = 1, .kw = 1, .stride = { 1, 1 },
		.dilation = { 1, 1 }, .group = 1 };
	n->conv.weights = constant(k, tensors[flat].c, 1, 1,
				   1.5f / sqrtf(tensors[flat].c), 0);
	n->conv.bias = constant(1, k, 1, 1, 0.1f, 0);
	n->act.type = act;
	return out;
}

static int pool(int in, enum nvc_pool type, int k, int stride, int global)
{
	const struct nvc_tensor *ti = &tensors[in];
	int oh = global ? 1 : (ti->h - k) / stride + 1;
	int ow = global ? 1 : (ti->w - k) / stride + 1;
	int out = tensor("pool", ti->c, oh, ow);
	struct nvc_node *n = node(NVC_POOL, "Pool", in, out);

	n->pool = (struct nvc_pool_attr){ .type = type, .kh = k, .kw = k,
		.stride = { stride, stride }, .global = global,
		.count_include_pad = 1 };
	return out;
}

static int unary(enum nvc_op op, int in, const char *name)
{
	const struct nvc_tensor *ti = &tensors[in];
	int out = tensor(name, ti->c, ti->h, ti->w);

	node(op, name, in, out);
	return out;
}

static int binary(enum nvc_op op, int a, int b, const char *name)
{
	int out = unary(op, a, name);
	struct nvc_node *n = &nodes[G.num_nodes - 1];

	n->num_inputs = 2;
	n->inputs[1] = b;
	if (op == NVC_CONCAT)
		tensors[out].c += tensors[b].c;
	return out;
}

static void output(int t)
{
	G.outputs[G.num_outputs++] = t;
}

/* ---- the float reference ---- */

static float act_f(const struct nvc_activation *a, float v, int c)
{
	switch (a->type) {
	case NVC_ACT_RELU:
		return v > 0 ? v : 0;
	case NVC_ACT_CLIP:
		return fminf(fmaxf(v, a->min), a->max);
	case NVC_ACT_LEAKY:
		return v > 0 ? v : v * a->alpha;
	case NVC_ACT_PRELU:
		return v > 0 ? v : v * tensors[a->slope].data[c];
	case NVC_ACT_SIGMOID:
		return 1 / (1 + expf(-v));
	case NVC_ACT_TANH:
		return tanhf(v);
	default:
		return v;
	}
}

static float at(int t, int c, int y, int x)
{
	const struct nvc_tensor *p = &tensors[t];

	return vals[t][((size_t)c * p->h + y) * p->w + x];
}

static void ref_conv(const struct nvc_node *n, float *o)
{
	const struct nvc_conv_attr *a = &n->conv;
	const struct nvc_tensor *ti = &tensors[n->inputs[0]];
	const struct nvc_tensor *to = &tensors[n->outputs[0]];
	const float *w = tensors[a->weights].data;
	int cg = ti->c / a->group, kg = to->c / a->group, k, y, x, c, r, s;
	int in = n->inputs[0];

	for (k = 0; k < to->c; k++)
		for (y = 0; y < to->h; y++)
			for (x = 0; x < to->w; x++) {
				double sum = a->bias >= 0 ? tensors[a->bias].data[k] : 0;

				for (c = 0; c < cg; c++)
					for (r = 0; r < a->kh; r++)
						for (s = 0; s < a->kw; s++) {
							int iy = y * a->stride[0] + r * a->dilation[0] - a->pad[0];
							int ix = x * a->stride[1] + s * a->dilation[1] - a->pad[1];

							if (iy < 0 || ix < 0 || iy >= ti->h || ix >= ti->w)
								continue;
							sum += at(in, (k / kg) * cg + c, iy, ix) *
							       w[(((size_t)k * cg + c) * a->kh + r) * a->kw + s];
						}
				o[((size_t)k * to->h + y) * to->w + x] =
					act_f(&n->act, (float)sum, k);
			}
}

/*
 * A transposed convolution as ONNX defines it: input pixel (y, x) of
 * channel c adds its value times tap (r, s) of kernel (c, k) to output
 * (y sy + r dy - pad top, x sx + s dx - pad left) of channel k of c's
 * group.
 */
static void ref_deconv(const struct nvc_node *n, float *o)
{
	const struct nvc_conv_attr *a = &n->conv;
	const struct nvc_tensor *ti = &tensors[n->inputs[0]];
	const struct nvc_tensor *to = &tensors[n->outputs[0]];
	const float *w = tensors[a->weights].data;
	int cg = ti->c / a->group, kg = to->c / a->group, in = n->inputs[0];
	size_t plane = (size_t)to->h * to->w, i;
	double *sum = calloc(to->c * plane, sizeof(double));
	int c, k, y, x, r, s, oy, ox;

	for (i = 0; a->bias >= 0 && i < to->c * plane; i++)
		sum[i] = tensors[a->bias].data[i / plane];
	for (c = 0; c < ti->c; c++)
		for (k = 0; k < kg; k++)
			for (y = 0; y < ti->h; y++)
				for (x = 0; x < ti->w; x++)
					for (r = 0; r < a->kh; r++)
						for (s = 0; s < a->kw; s++) {
							oy = y * a->stride[0] + r * a->dilation[0] - a->pad[0];
							ox = x * a->stride[1] + s * a->dilation[1] - a->pad[1];
							if (oy < 0 || ox < 0 || oy >= to->h || ox >= to->w)
								continue;
							sum[((c / cg * kg + k) * (size_t)to->h + oy) * to->w + ox] +=
								at(in, c, y, x) *
								w[(((size_t)c * kg + k) * a->kh + r) * a->kw + s];
						}
	for (i = 0; i < to->c * plane; i++)
		o[i] = act_f(&n->act, (float)sum[i], (int)(i / plane));
	free(sum);
}

/* Where output pixel @o of @m samples an input of @n by step @s. */
static double ref_sample(int coord, int o, int n, int m, double s)
{
	double x;

	switch (coord) {
	case EMU_COORD_ALIGN_CORNERS:
		x = m > 1 ? (double)o * (n - 1) / (m - 1) : 0;
		break;
	case EMU_COORD_ASYMMETRIC:
		x = o * s;
		break;
	case EMU_COORD_PYTORCH_HALF_PIXEL:
		x = m > 1 ? (o + 0.5) * s - 0.5 : 0;
		break;
	default:
		x = (o + 0.5) * s - 0.5;
		break;
	}
	return fmin(fmax(x, 0), n - 1);
}

/* Bilinear: pixel (y, x) of channel c of @n's output. */
static float ref_resize(const struct nvc_node *n, int c, int y, int x)
{
	const struct nvc_tensor *ti = &tensors[n->inputs[0]];
	const struct nvc_tensor *to = &tensors[n->outputs[0]];
	double sy = ref_sample(n->cpu_coord, y, ti->h, to->h, n->cpu_step[0]);
	double sx = ref_sample(n->cpu_coord, x, ti->w, to->w, n->cpu_step[1]);
	int y0 = (int)sy, x0 = (int)sx, in = n->inputs[0];
	int y1 = y0 + 1 < ti->h ? y0 + 1 : y0, x1 = x0 + 1 < ti->w ? x0 + 1 : x0;
	double fy = sy - y0, fx = sx - x0;

	return (float)((at(in, c, y0, x0) * (1 - fx) + at(in, c, y0, x1) * fx) *
		       (1 - fy) +
		       (at(in, c, y1, x0) * (1 - fx) + at(in, c, y1, x1) * fx) * fy);
}

/* Layer normalisation over the channels at (y, x) into @o. */
static void ref_layernorm(const struct nvc_node *n, float *o, int y, int x)
{
	const struct nvc_tensor *t = &tensors[n->inputs[0]];
	double mean = 0, var = 0, d;
	int c, in = n->inputs[0];

	for (c = 0; c < t->c; c++)
		mean += at(in, c, y, x) / t->c;
	for (c = 0; c < t->c; c++) {
		d = at(in, c, y, x) - mean;
		var += d * d / t->c;
	}
	for (c = 0; c < t->c; c++)
		o[((size_t)c * t->h + y) * t->w + x] =
			(float)((at(in, c, y, x) - mean) / sqrt(var + n->cpu_eps));
}

/* The CPU's functions (enum nvc_cpu_fn). */
static void ref_cpu(const struct nvc_node *n, float *o)
{
	const struct nvc_tensor *to = &tensors[n->outputs[0]];
	int in = n->inputs[0], c, y, x;
	float *d;

	for (c = 0; c < to->c; c++)
		for (y = 0; y < to->h; y++)
			for (x = 0; x < to->w; x++) {
				d = &o[((size_t)c * to->h + y) * to->w + x];
				switch (n->cpu) {
				case NVC_CPU_ERF:
					*d = erff(at(in, c, y, x));
					break;
				case NVC_CPU_SWAP_CH:
					*d = at(in, y, c, x);
					break;
				case NVC_CPU_LAYERNORM:
					if (!c)
						ref_layernorm(n, o, y, x);
					break;
				case NVC_CPU_RESIZE:
					*d = ref_resize(n, c, y, x);
					break;
				case NVC_CPU_SIGMOID:
					*d = 1 / (1 + expf(-at(in, c, y, x)));
					break;
				case NVC_CPU_TANH:
					*d = tanhf(at(in, c, y, x));
					break;
				case NVC_CPU_SILU:
					*d = at(in, c, y, x) /
					     (1 + expf(-at(in, c, y, x)));
					break;
				}
			}
}

/* The input row (@i 0) or column (1) of Pad output row or column @o. */
static int ref_pad(const struct nvc_node *n, int o, int i, int size)
{
	int r = o - n->pad.pad[i];

	if (n->pad.mode == NVC_PAD_EDGE)
		return r < 0 ? 0 : r >= size ? size - 1 : r;
	return r < 0 ? -r : r >= size ? 2 * size - 2 - r : r;
}

static void ref_node(const struct nvc_node *n)
{
	const struct nvc_tensor *to = &tensors[n->outputs[0]];
	const struct nvc_tensor *ti = &tensors[n->inputs[0]];
	size_t size = (size_t)to->c * to->h * to->w, i;
	float *o = calloc(size, sizeof(float)), m = -INFINITY, sum = 0;
	int in = n->inputs[0], c, y, x, r, s;

	vals[n->outputs[0]] = o;
	switch (n->op) {
	case NVC_CONV:
		ref_conv(n, o);
		return;
	case NVC_RESHAPE:
		memcpy(o, vals[in], size * sizeof(float));
		return;
	case NVC_CONV_TRANSPOSE:
		ref_deconv(n, o);
		return;
	case NVC_AFFINE:
		for (i = 0; i < size; i++) {
			c = (int)(i / ((size_t)to->h * to->w));
			o[i] = act_f(&n->act, vals[in][i] *
				     (n->affine.scale >= 0 ? tensors[n->affine.scale].data[c] : 1) +
				     (n->affine.shift >= 0 ? tensors[n->affine.shift].data[c] : 0), c);
		}
		return;
	case NVC_ACT:
		for (i = 0; i < size; i++)
			o[i] = act_f(&n->act, vals[in][i],
				     (int)(i / ((size_t)to->h * to->w)));
		return;
	case NVC_ELTWISE:
		for (i = 0; i < size; i++) {
			bool chan = tensors[n->inputs[1]].h * tensors[n->inputs[1]].w == 1;
			float a = vals[in][i], b = vals[n->inputs[1]][chan ?
				i / ((size_t)to->h * to->w) : i];

			o[i] = act_f(&n->act, n->eltwise == NVC_ELT_ADD ? a + b :
				     n->eltwise == NVC_ELT_MUL ? a * b : fmaxf(a, b),
				     (int)(i / ((size_t)to->h * to->w)));
		}
		return;
	case NVC_CONCAT:
		memcpy(o, vals[in], (size_t)ti->c * to->h * to->w * sizeof(float));
		memcpy(o + (size_t)ti->c * to->h * to->w, vals[n->inputs[1]],
		       (size - (size_t)ti->c * to->h * to->w) * sizeof(float));
		return;
	case NVC_LRN:
		for (c = 0; c < to->c; c++)
			for (i = 0; i < (size_t)to->h * to->w; i++) {
				double sq = 0;

				for (r = c - (n->lrn.size - 1) / 2;
				     r <= c + n->lrn.size / 2; r++)
					if (r >= 0 && r < to->c)
						sq += vals[in][r * (size_t)to->h * to->w + i] *
						      vals[in][r * (size_t)to->h * to->w + i];
				o[c * (size_t)to->h * to->w + i] =
					vals[in][c * (size_t)to->h * to->w + i] *
					pow(n->lrn.bias + n->lrn.alpha / n->lrn.size * sq,
					    -n->lrn.beta);
			}
		return;
	case NVC_SPLIT:
		for (i = 0, r = 0; (int)i < n->num_outputs; i++) {
			const struct nvc_tensor *t = &tensors[n->outputs[i]];
			size_t part = (size_t)t->c * t->h * t->w;

			free(vals[n->outputs[i]]);
			vals[n->outputs[i]] = malloc(part * sizeof(float));
			memcpy(vals[n->outputs[i]], vals[in] + r, part * sizeof(float));
			r += (int)part;
		}
		return;
	case NVC_CPU:
		ref_cpu(n, o);
		return;
	case NVC_PAD:
		for (c = 0; c < to->c; c++)
			for (y = 0; y < to->h; y++)
				for (x = 0; x < to->w; x++)
					o[((size_t)c * to->h + y) * to->w + x] =
						at(in, c, ref_pad(n, y, 0, ti->h),
						   ref_pad(n, x, 1, ti->w));
		return;
	case NVC_SOFTMAX:
		for (i = 0; i < size; i++)
			m = fmaxf(m, vals[in][i]);
		for (i = 0; i < size; i++)
			sum += (o[i] = expf(vals[in][i] - m));
		for (i = 0; i < size; i++)
			o[i] /= sum;
		return;
	case NVC_POOL:
		for (c = 0; c < to->c; c++)
			for (y = 0; y < to->h; y++)
				for (x = 0; x < to->w; x++) {
					int kh = n->pool.global ? ti->h : n->pool.kh;
					int kw = n->pool.global ? ti->w : n->pool.kw;
					float v = n->pool.type == NVC_POOL_MAX ? -INFINITY : 0;

					for (r = 0; r < kh; r++)
						for (s = 0; s < kw; s++) {
							float e = at(in, c, y * n->pool.stride[0] + r,
								     x * n->pool.stride[1] + s);

							v = n->pool.type == NVC_POOL_MAX ? fmaxf(v, e) : v + e;
						}
					if (n->pool.type == NVC_POOL_AVG)
						v /= kh * kw;
					o[((size_t)c * to->h + y) * to->w + x] = v;
				}
		return;
	default:
		return;
	}
}

/* Pixel (x, y) of component c of the test image: any 8-bit value. */
static int pixel(int c, int y, int x)
{
	return (x * 37 + y * 11 + c * 101) % 256;
}

/*
 * A PPM of G's input size (or, with @write false, only its values as the
 * runtime reads it: x = pixel / 255, colour as B, G, R).
 */
static bool image_input(const char *path, bool write)
{
	const struct nvc_tensor *t = &tensors[G.inputs[0]];
	FILE *f = write ? fopen(path, "wb") : NULL;
	int x, y, c;

	if (write && !f)
		return false;
	if (f)
		fprintf(f, "P6\n%d %d\n255\n", t->w, t->h);
	for (y = 0; y < t->h; y++)
		for (x = 0; x < t->w; x++)
			for (c = 0; c < 3; c++) {
				if (f)
					fputc(pixel(c, y, x), f);
				else
					vals[G.inputs[0]][((size_t)(2 - c) * t->h + y) *
							  t->w + x] = pixel(c, y, x) / 255.0f;
			}
	return !f || !fclose(f);
}

/* Inputs random in [-1, 1] (or the image); every tensor's range. */
static void reference(void)
{
	int i, in = G.inputs[0];
	size_t n = (size_t)tensors[in].c * tensors[in].h * tensors[in].w, k;

	for (i = 0; i < G.num_tensors; i++) {
		free(vals[i]);
		vals[i] = NULL;
	}
	vals[in] = malloc(n * sizeof(float));
	for (k = 0; k < n; k++)
		vals[in][k] = rnd();
	if (image_file)
		image_input(image_file, false);
	for (i = 0; i < G.num_nodes; i++)
		ref_node(&nodes[i]);
	for (i = 0; i < G.num_tensors; i++) {
		struct nvc_tensor *t = &tensors[i];

		if (!vals[i])
			continue;
		n = (size_t)t->c * t->h * t->w;
		t->min = INFINITY;
		t->max = -INFINITY;
		for (k = 0; k < n; k++) {
			t->min = fminf(t->min, vals[i][k]);
			t->max = fmaxf(t->max, vals[i][k]);
		}
		t->calibrated = 1;
	}
}

/* ---- running a loadable ---- */

/* fp16 of a normal @f (rounded half up; tiny values flush to 0). */
static uint16_t half(float f)
{
	union { float f; uint32_t u; } v = { f };
	uint32_t e = (v.u >> 23 & 0xff), m = v.u & 0x7fffff;
	int ex = (int)e - 127 + 15;

	if (ex <= 0)
		return (uint16_t)(v.u >> 16 & 0x8000);
	/* A carry out of the mantissa steps the exponent. */
	return (uint16_t)((v.u >> 16 & 0x8000) |
			  (((uint32_t)ex << 10) + ((m + 0x1000) >> 13)));
}

static size_t offset_of(const struct nvdla_tensor_desc *d, int c, int y, int x)
{
	uint32_t bpe = d->stride[0], atom = d->pixel_format ==
		       NVDLA_TENSOR_FEATURE_X8 ? 8 : 32, epa = atom / bpe;

	return (size_t)(c / epa) * d->stride[2] + (size_t)y * d->stride[1] +
	       (size_t)x * atom + (c % epa) * bpe;
}

/* The int8 scale the compiler gives @t (softmax: probabilities). */
static float scale_of(int t)
{
	float m = fmaxf(fabsf(tensors[t].min), fabsf(tensors[t].max));

	if (tensors[t].producer >= 0 &&
	    nodes[tensors[t].producer].op == NVC_SOFTMAX)
		return 1.0f / 127;
	return m > 0 ? m / 127 : 1.0f / 127;
}

/* The loadable @buf as the next fuzzing seed in loadables_dir. */
static void write_loadable(const void *buf, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu%03d.nvdla", loadables_dir,
		 loadables_written++);
	f = fopen(path, "wb");
	if (f) {
		fwrite(buf, 1, len, f);
		fclose(f);
	}
}

/* Compile, run, compare; returns the max abs error, or -1 on failure. */
static double run(const char *config, enum nvc_precision prec, double *range,
		  char *why, size_t whylen)
{
	/* CPU functions allowed: refused() checks them without. */
	struct nvc_options o = { .config = config, .precision = prec,
		.input_format = image_file ? NVC_INPUT_IMAGE : NVC_INPUT_FEATURE,
		.cpu_fallback = true,
		.conv_way = conv_way, .origins = &origins,
		.fp16_nodes = fp16_nodes };
	struct nvdla_image_options io = { .normalize = 255 };
	struct nvdla_tensor_desc di, dout;
	struct nvdla_runtime *rt = NULL;
	struct nvdla_network *net = NULL;
	char err[256], dev[32];
	int in = G.inputs[0], out = G.outputs[0], c, y, x;
	double maxerr = -1, top = 0;
	float *got = NULL;
	void *buf = NULL;
	size_t len;
	uint8_t *p;

	if (lower(&o, &buf, &len, err, sizeof(err))) {
		snprintf(why, whylen, "compile: %s", err);
		return -1;
	}
	if (loadables_dir)
		write_loadable(buf, len);
	snprintf(dev, sizeof(dev), "sim:%s", config);
	if (nvdla_runtime_new(dev, &rt, err, sizeof(err)) ||
	    nvdla_network_load(rt, buf, len, &net)) {
		snprintf(why, whylen, "load: %s", rt ? nvdla_runtime_error(rt) : err);
		goto out;
	}
	nvdla_network_input_desc(net, 0, &di);
	nvdla_network_output_desc(net, 0, &dout);
	p = nvdla_buffer_map(nvdla_network_input(net, 0));
	if (image_file && nvdla_network_set_image(net, 0, image_file, &io)) {
		snprintf(why, whylen, "image: %s", nvdla_runtime_error(rt));
		goto out;
	}
	for (c = 0; !image_file && c < di.c; c++)
		for (y = 0; y < di.h; y++)
			for (x = 0; x < di.w; x++) {
				float v = at(in, c, y, x);
				size_t off = offset_of(&di, c, y, x);

				if (di.data_type == NVDLA_DATA_TYPE_HALF) {
					uint16_t h = half(v);

					p[off] = h & 0xff;
					p[off + 1] = h >> 8;
				} else {
					p[off] = (uint8_t)(int8_t)lrintf(
						fmaxf(fminf(v / scale_of(in), 127), -128));
				}
			}
	if (nvdla_network_submit(net, 0)) {
		snprintf(why, whylen, "run: %s", nvdla_runtime_error(rt));
		goto out;
	}
	/* The runtime turns int8 codes into real numbers (tensor-scales). */
	got = calloc((size_t)dout.c * dout.h * dout.w, sizeof(float));
	if (!got || nvdla_network_output_values(net, 0, got,
						(size_t)dout.c * dout.h * dout.w)) {
		snprintf(why, whylen, "output: %s", nvdla_runtime_error(rt));
		goto out;
	}
	maxerr = 0;
	for (c = 0; c < dout.c; c++)
		for (y = 0; y < dout.h; y++)
			for (x = 0; x < dout.w; x++) {
				float ref = at(out, c, y, x);

				maxerr = fmax(maxerr, fabs(got[((size_t)c * dout.h + y) *
							       dout.w + x] - ref));
				top = fmax(top, fabs(ref));
			}
	*range = top;
out:
	free(got);
	nvdla_network_unload(net);
	nvdla_runtime_del(rt);
	free(buf);
	return maxerr;
}

static const char *const configs[] = { "nv_full", "nv_large", "nv_small" };

/*
 * What nv_small's refusal of the graph in G says, or NULL where it runs
 * it: it has no SDP Y stage (no LUT), and its hardware would pass the
 * values through.
 */
static const char *small_refuses;

static bool refused(const char *config, enum nvc_precision prec,
		    const char *want);

/* The graph in G, compiled for every configuration and precision. */
static void check(const char *what, int layers)
{
	int i, p;

	reference();
	for (i = 0; i < 3; i++)
		for (p = 0; p < 2; p++) {
			enum nvc_precision prec = p ? NVC_INT8 : NVC_FP16;
			double range = 0, err, tol;
			char why[300] = "";

			if (prec == NVC_FP16 && strcmp(configs[i], "nv_full"))
				continue;
			if (small_refuses && !strcmp(configs[i], "nv_small")) {
				tap_ok(refused(configs[i], prec, small_refuses),
				       "%s on nv_small int8: refused, %s",
				       what, small_refuses);
				continue;
			}

			err = run(configs[i], prec, &range, why, sizeof(why));
			tol = prec == NVC_FP16 ? 5e-3 * range :
			      4 * scale_of(G.outputs[0]) + 0.02 * layers * range;
			if (!tap_ok(err >= 0 && err <= tol,
				    "%s on %s %s: max error %.4g (range %.3g, tolerance %.3g)",
				    what, configs[i], p ? "int8" : "fp16", err,
				    range, tol))
				printf("# %s\n", why);
		}
}

/*
 * Winograd mode asked for every convolution (nv_full, fp16): taken by the
 * 3x3 ones of stride 1 whose output is whole 4x4 tiles (40 kernels: two
 * groups of 16 and one of 8; 20 channels: padded to 32), the others
 * direct; every output within the fp16 tolerance. int8 stays direct.
 */
static void test_winograd(void)
{
	static const enum nvc_conv_way all[MAXN] = {
		[0 ... MAXN - 1] = NVC_CONV_WINOGRAD };
	double range = 0, err;
	char why[300] = "";
	int t;

	reset();
	t = input(20, 8, 12);
	t = conv(t, 40, 3, 1, 1, 1, 1, NVC_ACT_RELU);	/* 12x8: Winograd */
	t = conv(t, 16, 3, 1, 0, 1, 1, NVC_ACT_NONE);	/* 10x6: direct */
	t = conv(t, 8, 3, 1, 4, 1, 1, NVC_ACT_RELU);	/* 16x12: Winograd */
	t = conv(t, 8, 3, 2, 1, 1, 1, NVC_ACT_NONE);	/* stride 2: direct */
	output(t);
	reference();
	conv_way = all;
	err = run("nv_full", NVC_FP16, &range, why, sizeof(why));
	if (!tap_ok(err >= 0 && err <= 5e-3 * range && origins.winograd &&
		    origins.winograd[0] && !origins.winograd[1] &&
		    origins.winograd[2] && !origins.winograd[3],
		    "Winograd asked of 4 convolutions on nv_full fp16: the 2 that can take it (%d %d %d %d), max error %.4g (range %.3g)",
		    origins.winograd && origins.winograd[0],
		    origins.winograd && origins.winograd[1],
		    origins.winograd && origins.winograd[2],
		    origins.winograd && origins.winograd[3], err, range))
		printf("# %s\n", why);
	err = run("nv_full", NVC_INT8, &range, why, sizeof(why));
	tap_ok(err >= 0 && origins.winograd && !origins.winograd[0] &&
	       !origins.winograd[2],
	       "Winograd asked on nv_full int8: direct (fp16 only), it runs (max error %.4g)",
	       err);
	err = run("nv_large", NVC_INT8, &range, why, sizeof(why));
	tap_ok(err >= 0 && origins.winograd && !origins.winograd[0],
	       "Winograd asked on nv_large: direct (no Winograd mode there)");
	conv_way = NULL;
	nvc_origins_free(&origins);
}

static void test_lenet(void)
{
	int t;

	reset();
	t = input(1, 28, 28);
	t = conv(t, 20, 5, 1, 0, 1, 1, NVC_ACT_NONE);
	t = pool(t, NVC_POOL_MAX, 2, 2, 0);
	t = conv(t, 50, 5, 1, 0, 1, 1, NVC_ACT_NONE);
	t = pool(t, NVC_POOL_MAX, 2, 2, 0);
	t = fc(t, 500, NVC_ACT_RELU);
	t = fc(t, 10, NVC_ACT_NONE);
	t = unary(NVC_SOFTMAX, t, "Softmax");
	output(t);
	check("LeNet (conv, max pool, fc, relu, softmax)", 4);
}

/* Convolutions: padding, stride, dilation, groups, depthwise; affine. */
static void test_convs(void)
{
	struct nvc_node *n;
	int t, a;

	reset();
	t = input(3, 17, 15);
	t = conv(t, 8, 3, 1, 1, 1, 1, NVC_ACT_RELU);
	t = conv(t, 16, 3, 2, 1, 1, 1, NVC_ACT_NONE);
	t = conv(t, 16, 3, 1, 2, 2, 4, NVC_ACT_RELU);
	t = conv(t, 16, 3, 1, 1, 1, 16, NVC_ACT_NONE);
	a = unary(NVC_AFFINE, t, "BatchNormalization");
	n = &nodes[G.num_nodes - 1];
	n->affine.scale = constant(1, 16, 1, 1, 0.5f, 1.0f);
	n->affine.shift = constant(1, 16, 1, 1, 0.3f, 0);
	n->act.type = NVC_ACT_RELU;
	output(a);
	check("conv pad/stride/dilation/groups/depthwise, then an affine", 5);
}

/* Pooling, standalone SDP operations, element-wise add, concat. */
static void test_sdp_pool(void)
{
	struct nvc_node *n;
	int x, a, b, s, c, t;

	reset();
	x = input(16, 8, 8);
	a = conv(x, 32, 1, 1, 0, 1, 1, NVC_ACT_NONE);
	b = conv(x, 32, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	s = binary(NVC_ELTWISE, a, b, "Add");
	nodes[G.num_nodes - 1].eltwise = NVC_ELT_ADD;
	nodes[G.num_nodes - 1].act.type = NVC_ACT_RELU;
	t = pool(s, NVC_POOL_AVG, 2, 2, 0);
	c = conv(t, 32, 3, 1, 1, 1, 1, NVC_ACT_RELU);
	t = binary(NVC_CONCAT, c, t, "Concat");
	t = pool(t, NVC_POOL_MAX, 3, 1, 0);
	t = unary(NVC_AFFINE, t, "Mul");
	n = &nodes[G.num_nodes - 1];
	n->affine.scale = constant(1, 64, 1, 1, 0.5f, 1.0f);
	n->affine.shift = -1;
	t = pool(t, NVC_POOL_AVG, 0, 1, 1);
	output(t);
	check("add+relu, avg/max/global pool, concat, standalone affine", 6);

	reset();
	x = input(16, 6, 6);
	a = conv(x, 16, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	s = binary(NVC_ELTWISE, a, x, "Add");
	nodes[G.num_nodes - 1].eltwise = NVC_ELT_ADD;
	nodes[G.num_nodes - 1].act.type = NVC_ACT_PRELU;
	nodes[G.num_nodes - 1].act.slope = constant(1, 16, 1, 1, 0.2f, 0.1f);
	a = binary(NVC_ELTWISE, s, x, "Mul");
	nodes[G.num_nodes - 1].eltwise = NVC_ELT_MUL;
	output(a);
	small_refuses = "PReLU after an element-wise operation needs the SDP's Y stage, which nv_small has not";
	check("conv + add + PRelu (Y stage), element-wise mul", 3);
	small_refuses = NULL;

	reset();
	x = input(16, 6, 6);
	a = conv(x, 16, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	s = binary(NVC_ELTWISE, a, x, "Mul");
	nodes[G.num_nodes - 1].eltwise = NVC_ELT_MUL;
	nodes[G.num_nodes - 1].act.type = NVC_ACT_RELU;
	output(s);
	check("conv * x + relu fused", 2);
}

/* Activations alone and after a convolution (LUT, slopes, clip). */
static void test_acts(void)
{
	static const enum nvc_act acts[] = { NVC_ACT_SIGMOID, NVC_ACT_TANH,
		NVC_ACT_LEAKY, NVC_ACT_CLIP, NVC_ACT_PRELU, NVC_ACT_CLIP };
	static const char *const names[] = { "Sigmoid", "Tanh", "LeakyRelu",
		"Clip", "PRelu", "Clip(-0.3)" };
	/*
	 * nv_small: LeakyRelu, Clip's upper bound and PRelu in X2; Clip's
	 * upper bound where X2 holds its lower by the output's saturation
	 */
	static const char *const small[] = {
		"Sigmoid (the SDP's LUT) needs the SDP's Y stage, which nv_small has not; it runs as a CPU task with --cpu-fallback",
		"Tanh (the SDP's LUT) needs the SDP's Y stage, which nv_small has not; it runs as a CPU task with --cpu-fallback",
		NULL, NULL, NULL, NULL };
	char what[80];
	size_t i;
	int t;

	for (i = 0; i < sizeof(acts) / sizeof(acts[0]); i++) {
		reset();
		t = input(8, 6, 6);
		t = conv(t, 16, 3, 1, 1, 1, 1, acts[i]);
		nodes[G.num_nodes - 1].act.alpha = 0.1f;
		nodes[G.num_nodes - 1].act.max = 0.5f;
		nodes[G.num_nodes - 1].act.min = i == 5 ? -0.3f : 0;
		nodes[G.num_nodes - 1].act.slope = constant(1, 16, 1, 1, 0.3f, 0.2f);
		t = unary(NVC_ACT, t, names[i]);
		nodes[G.num_nodes - 1].act = nodes[G.num_nodes - 2].act;
		output(t);
		snprintf(what, sizeof(what), "%s fused and alone", names[i]);
		small_refuses = small[i];
		check(what, 2);
	}
	small_refuses = NULL;
}

/*
 * HardSigmoid, HardSwish and SiLU as the front end writes them: an
 * affine clipped to [0, 1], or a Sigmoid, times the tensor it reads.
 * The slope is 1 (not ONNX's 1/6) so that the convolution's range of
 * about +-1 reaches both bounds of the clip.
 */
static void test_hard_acts(void)
{
	static const char *const names[] = { "HardSigmoid", "HardSwish",
		"SiLU" };
	struct nvc_node *n;
	char what[80];
	int i, x, a, s;

	for (i = 0; i < 3; i++) {
		reset();
		x = input(8, 6, 6);
		a = conv(x, 16, 3, 1, 1, 1, 1, NVC_ACT_NONE);
		s = unary(i < 2 ? NVC_AFFINE : NVC_ACT, a, names[i]);
		n = &nodes[G.num_nodes - 1];
		if (i < 2) {
			n->affine.scale = constant(1, 16, 1, 1, 0, 1);
			n->affine.shift = constant(1, 16, 1, 1, 0, 0.5f);
			n->act = (struct nvc_activation){ .type = NVC_ACT_CLIP,
				.min = 0, .max = 1, .slope = -1 };
		} else {
			n->act.type = NVC_ACT_SIGMOID;
		}
		if (i > 0) {
			s = binary(NVC_ELTWISE, a, s, "Mul");
			nodes[G.num_nodes - 1].eltwise = NVC_ELT_MUL;
		}
		output(s);
		snprintf(what, sizeof(what), "%s after a convolution", names[i]);
		small_refuses = i < 2 ? NULL :
			"Sigmoid (the SDP's LUT) needs the SDP's Y stage, which nv_small has not";
		check(what, 2 + (i > 0));
	}
	small_refuses = NULL;
}

/*
 * nv_small (no Y stage) computes Clip's upper bound where X2 is busy,
 * after an element-wise sum and after HardSwish's affine, by the output
 * converter's saturation: the values nv_large's Y computes (the same
 * max error), within the tolerance; refused, naming the codes, where
 * the output's scale puts the bound at 63.5 codes.
 */
static void test_clip_no_y(void)
{
	static const char *const names[] = {
		"Clip(0, 0.5) after an element-wise sum",
		"HardSwish's clip after its affine" };
	static const char *const msg[] = {
		"Clip's upper bound 0.5 at 63.5 codes of the output's scale",
		"Clip's upper bound 1 at 63.5 codes of the output's scale" };
	struct nvc_activation clip = { .type = NVC_ACT_CLIP, .min = 0,
				       .slope = -1 };
	double range = 0, large, small, tol;
	char why[300] = "";
	struct nvc_node *n;
	int i, x, a, s, c;

	for (i = 0; i < 2; i++) {
		reset();
		x = input(8, 6, 6);
		a = conv(x, 16, 3, 1, 1, 1, 1, NVC_ACT_NONE);
		c = i ? unary(NVC_AFFINE, a, "HardSwish") :
		    binary(NVC_ELTWISE, a, conv(x, 16, 1, 1, 0, 1, 1,
						NVC_ACT_NONE), "Add");
		n = &nodes[G.num_nodes - 1];
		n->act = clip;
		n->act.max = i ? 1 : 0.5f;
		n->eltwise = NVC_ELT_ADD;
		if (i) {
			n->affine.scale = constant(1, 16, 1, 1, 0, 1);
			n->affine.shift = constant(1, 16, 1, 1, 0, 0.5f);
		}
		s = i ? binary(NVC_ELTWISE, a, c, "Mul") : c;
		nodes[G.num_nodes - 1].eltwise = i ? NVC_ELT_MUL : NVC_ELT_ADD;
		output(s);
		reference();
		large = run("nv_large", NVC_INT8, &range, why, sizeof(why));
		small = run("nv_small", NVC_INT8, &range, why, sizeof(why));
		tol = 4 * scale_of(G.outputs[0]) + 0.02 * 3 * range;
		if (!tap_ok(small >= 0 && small == large && small <= tol,
			    "%s on nv_small int8: max error %.4g, nv_large's %.4g (tolerance %.3g)",
			    names[i], small, large, tol))
			printf("# %s\n", why);
		tensors[c].max = 2 * n->act.max;
		tap_ok(refused("nv_small", NVC_INT8, msg[i]),
		       "%s on nv_small, its output's range twice the bound: refused, %s",
		       names[i], msg[i]);
	}
}

/*
 * Global pooling over planes no single PDP window covers: 13x13 (prime:
 * windows padded, the average corrected by an SDP scale), 112x112 in
 * passes dividing it, 17x11; and a pooling whose kernel is the plane.
 * After a ReLU, as in networks (the average of values of both signs is
 * near 0, below the input's int8 steps that every pass rounds to).
 */
static void test_global_pool(void)
{
	static const int sizes[][2] = { { 13, 13 }, { 112, 112 }, { 17, 11 } };
	char what[80];
	size_t i;
	int p, t;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (p = 0; p < 2; p++) {
			reset();
			t = input(16, sizes[i][0], sizes[i][1]);
			t = conv(t, 16, 1, 1, 0, 1, 1, NVC_ACT_RELU);
			t = pool(t, p ? NVC_POOL_MAX : NVC_POOL_AVG, 0, 1, 1);
			output(t);
			snprintf(what, sizeof(what), "global %s pooling over %dx%d",
				 p ? "max" : "average", sizes[i][1], sizes[i][0]);
			check(what, 2);
		}
	reset();
	t = input(16, 13, 13);
	t = conv(t, 16, 1, 1, 0, 1, 1, NVC_ACT_RELU);
	t = pool(t, NVC_POOL_AVG, 13, 13, 0);
	output(t);
	check("AveragePool with a 13x13 kernel over 13x13", 2);
}

/*
 * Squeeze and excitation: a convolution's output times (or plus) a
 * computed C x 1 x 1 tensor, its global average through a fully
 * connected layer and a Sigmoid, read per channel by the SDP.
 */
static void test_per_channel(void)
{
	int i, x, a, s;

	for (i = 0; i < 2; i++) {
		reset();
		x = input(8, 6, 6);
		a = conv(x, 24, 3, 1, 1, 1, 1, NVC_ACT_RELU);
		s = pool(a, NVC_POOL_AVG, 0, 1, 1);
		s = fc(s, 24, NVC_ACT_SIGMOID);
		s = binary(NVC_ELTWISE, a, s, i ? "Add" : "Mul");
		nodes[G.num_nodes - 1].eltwise = i ? NVC_ELT_ADD : NVC_ELT_MUL;
		output(s);
		small_refuses = "Sigmoid (the SDP's LUT) needs the SDP's Y stage, which nv_small has not";
		check(i ? "a tensor plus a computed per-channel one" :
		      "squeeze and excitation: a tensor times a computed per-channel one",
		      4);
	}
	small_refuses = NULL;
}

/* LRN on the CDP, after a convolution as in AlexNet. */
static void test_lrn(void)
{
	int t;

	reset();
	t = input(8, 7, 7);
	t = conv(t, 24, 3, 1, 1, 1, 1, NVC_ACT_RELU);
	t = unary(NVC_LRN, t, "LRN");
	nodes[G.num_nodes - 1].lrn = (struct nvc_lrn_attr){ .size = 5,
		.alpha = 1e-1f, .beta = 0.75f, .bias = 1.0f };
	output(t);
	check("LRN (size 5) after conv+relu", 2);
}

/* Compile G; true if refused with a message containing @want. */
static bool refused(const char *config, enum nvc_precision prec,
		    const char *want)
{
	struct nvc_options o = { .config = config, .precision = prec,
		.input_format = image_file ? NVC_INPUT_IMAGE : NVC_INPUT_FEATURE,
		.fp16_nodes = fp16_nodes };
	char err[256] = "";
	void *buf = NULL;
	size_t len;
	int ret = lower(&o, &buf, &len, err, sizeof(err));

	free(buf);
	if (!ret || !strstr(err, want))
		printf("# got %d: '%s'\n", ret, err);
	return ret && strstr(err, want);
}

/*
 * G: a @c x @h x @w input through convolutions of @k0 and then @k1
 * kernels, @kh x @kh, stride 1, padded to keep the size.
 */
static void two_convs(int c, int h, int w, int k0, int k1, int kh)
{
	int t;

	reset();
	t = input(c, h, w);
	t = conv(t, k0, kh, 1, kh / 2, 1, 1, NVC_ACT_NONE);
	t = conv(t, k1, kh, 1, kh / 2, 1, 1, NVC_ACT_NONE);
	output(t);
}

/*
 * The ConvTranspose the hardware cannot compute: a stride beyond 8 (its
 * zero insertion's), a dilation that pads its convolution of stride 1
 * beyond 31 (3 x 3 kernel, dilation 16: 32).
 */
static void test_deconv_refusals(void)
{
	int t;

	reset();
	t = input(8, 4, 5);
	output(deconv(t, 8, 3, 9, 1, 0, 1, 1, NVC_ACT_NONE));
	reference();
	tap_ok(refused("nv_full", NVC_FP16,
		       "node 'ConvTranspose/zeros' (ConvTranspose): stride 9 or dilation 1 beyond the hardware's 1-8 and 1-32"),
	       "ConvTranspose stride 9 refused naming its zero insertion and the limit");
	reset();
	t = input(8, 4, 5);
	output(deconv(t, 8, 3, 1, 0, 0, 16, 1, NVC_ACT_NONE));
	reference();
	tap_ok(refused("nv_small", NVC_INT8,
		       "node 'ConvTranspose' (ConvTranspose): padding 32 (the transposed convolution's, made of stride 1: dilation x (kernel - 1) - its own padding): the hardware pads 0 to 31"),
	       "ConvTranspose dilation 16 refused naming its padding and the limit");
}

static void test_refusals(void)
{
	struct nvc_node *n;
	int t;

	reset();
	t = input(4, 5, 5);
	t = conv(t, 8, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	output(t);
	tap_ok(refused("nv_small", NVC_FP16, "fp16: nv_small computes in int8 only"),
	       "fp16 on nv_small refused");
	tap_ok(refused("nv_huge", NVC_FP16, "unknown configuration 'nv_huge'"),
	       "unknown configuration refused");
	tap_ok(refused("nv_full", NVC_INT8, "tensor 'in' has no calibrated range"),
	       "int8 without calibration refused");
	reference();
	n = &nodes[0];
	n->conv.pad[0] = 40;
	tap_ok(refused("nv_full", NVC_FP16, "padding 40"),
	       "padding beyond 31 refused");
	n->conv.pad[0] = 1;
	t = unary(NVC_SOFTMAX, t, "Softmax");
	G.outputs[0] = t;
	reference();
	tap_ok(refused("nv_full", NVC_FP16, "takes 1x1xC"),
	       "softmax over a 5x5 cube refused");
	nodes[G.num_nodes - 1].inputs[0] = nodes[0].conv.weights;
	tap_ok(refused("nv_full", NVC_FP16,
		       "node 'Softmax' (Softmax): input 0 is a constant"),
	       "a constant as a layer's input refused");
}

/* A PGM of @w x @h pixels 0, 8, 16, ... (mod 128). */
static bool write_pgm(const char *path, int w, int h)
{
	FILE *f = fopen(path, "wb");
	int i;

	if (!f)
		return false;
	fprintf(f, "P5\n%d %d\n255\n", w, h);
	for (i = 0; i < w * h; i++)
		fputc((i * 8) % 128, f);
	return !fclose(f);
}

/*
 * The tensor-scales blob: an int8 input filled from pixels with mean and
 * normalize at its own scale, the output read as real numbers, and a
 * malformed blob refused.
 */
static void test_scales(void)
{
	struct nvc_options o = { .config = "nv_small", .precision = NVC_INT8 };
	struct nvdla_image_options io = { .mean = { 10, 10, 10, 10 },
					  .normalize = 255 };
	char path[] = "/tmp/nvc-scales-XXXXXX", err[256];
	struct nvdla_runtime *rt = NULL;
	struct nvdla_network *net = NULL;
	struct nvc_node *n;
	float got[16], worst = 0;
	uint8_t *p;
	void *buf = NULL;
	size_t len, i;
	int t, fd = mkstemp(path);

	reset();
	t = input(1, 4, 4);
	tensors[t].min = -0.1f;
	tensors[t].max = 0.5f;
	tensors[t].calibrated = 1;
	t = unary(NVC_AFFINE, t, "Mul");
	n = &nodes[0];
	n->affine.scale = constant(1, 1, 1, 1, 0, 2.0f);
	n->affine.shift = -1;
	tensors[t].min = -0.2f;
	tensors[t].max = 1.0f;
	tensors[t].calibrated = 1;
	output(t);
	if (fd < 0 || !write_pgm(path, 4, 4) ||
	    lower(&o, &buf, &len, err, sizeof(err)) ||
	    nvdla_runtime_new("sim:nv_small", &rt, err, sizeof(err)) ||
	    nvdla_network_load(rt, buf, len, &net) ||
	    nvdla_network_set_image(net, 0, path, &io) ||
	    nvdla_network_submit(net, 0) ||
	    nvdla_network_output_values(net, 0, got, 16)) {
		tap_ok(false, "int8 image input and real outputs: %s",
		       rt ? nvdla_runtime_error(rt) : err);
		goto out;
	}
	for (i = 0; i < 16; i++)
		worst = fmaxf(worst, fabsf(got[i] -
					   2 * ((int)(i * 8 % 128) - 10) / 255.0f));
	/* Input step 0.5/127 doubled, output step 1/127: within 3 steps. */
	tap_ok(worst < 3.0f / 127, "int8 image input at its scale, real outputs: max error %.4f",
	       worst);
	nvdla_network_unload(net);
	net = NULL;
	p = memmem(buf, len, "NVSC", 4);
	if (p)
		p[0] = 'X';
	tap_ok(p && nvdla_network_load(rt, buf, len, &net) &&
	       strstr(nvdla_runtime_error(rt), "tensor-scales"),
	       "malformed tensor-scales refused: %s", nvdla_runtime_error(rt));
out:
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	nvdla_network_unload(net);
	nvdla_runtime_del(rt);
	free(buf);
}

/*
 * The input-mapping blob: the pixel mapping given to the compiler read
 * back by the runtime, none when the compiler is given none, and a
 * malformed blob refused.
 */
static void test_input_map(void)
{
	struct nvc_options o = { .config = "nv_full", .precision = NVC_FP16,
				 .mean = { 104, 117, 123 }, .normalize = 58 };
	struct nvdla_image_options got = { .normalize = 0 };
	struct nvdla_runtime *rt = NULL;
	struct nvdla_network *net = NULL;
	void *buf = NULL;
	char err[256];
	uint8_t *p;
	size_t len;
	int ret, t;

	reset();
	t = input(3, 4, 4);
	t = conv(t, 8, 1, 1, 0, 1, 1, NVC_ACT_NONE);
	output(t);
	if (lower(&o, &buf, &len, err, sizeof(err)) ||
	    nvdla_runtime_new("sim:nv_full", &rt, err, sizeof(err)) ||
	    nvdla_network_load(rt, buf, len, &net)) {
		tap_ok(false, "input mapping: %s", rt ? nvdla_runtime_error(rt) : err);
		goto out;
	}
	ret = nvdla_network_input_mapping(net, 0, &got);
	tap_ok(ret == 1 && got.mean[0] == 104 && got.mean[1] == 117 &&
	       got.mean[2] == 123 && got.normalize == 58,
	       "the loadable records the input mapping: (p - %g,%g,%g) / %g",
	       got.mean[0], got.mean[1], got.mean[2], got.normalize);
	nvdla_network_unload(net);
	net = NULL;
	p = memmem(buf, len, "NVIM", 4);
	if (p)
		memset(p + NVDLA_BLOB_TABLE_HEADER + NVDLA_INPUT_MAP_NORM, 0, 4);
	tap_ok(p && nvdla_network_load(rt, buf, len, &net) &&
	       strstr(nvdla_runtime_error(rt),
		      "input-mapping entry 0: bind id 0, order 0, normalize 0"),
	       "an input mapping dividing by 0 refused: %s",
	       nvdla_runtime_error(rt));
	free(buf);
	buf = NULL;
	o.normalize = 0;
	ret = lower(&o, &buf, &len, err, sizeof(err)) ||
	      nvdla_network_load(rt, buf, len, &net);
	tap_ok(!ret && nvdla_network_input_mapping(net, 0, &got) == 0,
	       "no mapping given to the compiler, none recorded");
out:
	if (net)
		nvdla_network_unload(net);
	if (rt)
		nvdla_runtime_del(rt);
	free(buf);
}

/*
 * ConvTranspose (kernel = stride): a 1x1 convolution and the RUBIK on
 * nv_full, per-row convolutions written in place elsewhere.
 */
static void test_deconv(void)
{
	struct nvc_node *n;
	int t, out;

	reset();
	t = input(8, 5, 6);
	t = conv(t, 24, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	out = tensor("up", 20, 10, 12);
	n = node(NVC_CONV_TRANSPOSE, "ConvTranspose", t, out);
	n->conv = (struct nvc_conv_attr){ .kh = 2, .kw = 2, .stride = { 2, 2 },
		.dilation = { 1, 1 }, .group = 1 };
	n->conv.weights = constant(24, 20, 2, 2, 0.3f, 0);
	n->conv.bias = constant(1, 20, 1, 1, 0.1f, 0);
	n->act.type = NVC_ACT_RELU;
	output(out);
	check("ConvTranspose 2x2 stride 2 (RUBIK / rows in place)", 2);
}

/* Whether the last loadable run() made has an operation of node @node. */
static bool made_by(int node)
{
	int i;

	for (i = 0; i < origins.n; i++)
		if (origins.node[i] == node)
			return true;
	return false;
}

/*
 * Every other ConvTranspose, as nvc_deconv_rewrite() makes it: after a
 * convolution, against the definition (ref_deconv). Zero insertion and
 * a convolution of stride 1 (kernel 4, stride 2, padding 1 as in U-Net
 * and GAN decoders; kernel 3 with output padding 1; two groups, with an
 * element-wise Add its SDP computes; dilation 2; a padding beyond the
 * kernel: a zero tap); of stride 1, the convolution alone; kernels that
 * zero-extend to the stride; 1-D data.
 */
static void test_deconvs(void)
{
	static const struct {
		const char *what;
		int c, h, w, k, kh, s, p, q, d, group;
	} cases[] = {
		{ "kernel 4 stride 2 padding 1", 16, 5, 7, 12, 4, 2, 1, 0, 1, 1 },
		{ "kernel 3 stride 2 padding 1 output padding 1",
		  16, 5, 7, 12, 3, 2, 1, 1, 1, 1 },
		{ "kernel 4 stride 2 padding 1, 2 groups",
		  16, 5, 7, 12, 4, 2, 1, 0, 1, 2 },
		{ "kernel 3 stride 2 padding 1 dilation 2",
		  16, 5, 7, 12, 3, 2, 1, 0, 2, 1 },
		{ "kernel 2 stride 2 padding 1 (a zero tap after)",
		  16, 5, 7, 12, 2, 2, 1, 0, 1, 1 },
		{ "kernel 3 stride 1 padding 1, 4 groups",
		  16, 6, 7, 12, 3, 1, 1, 0, 1, 4 },
		{ "kernel 3 stride 1 padding 0", 16, 6, 7, 12, 3, 1, 0, 0, 1, 1 },
		{ "kernel 1 stride 2 output padding 1 (extended to the stride)",
		  16, 5, 7, 12, 1, 2, 0, 1, 1, 1 },
		{ "kernel 2 dilation 2 stride 3 (extended to the stride)",
		  16, 5, 7, 12, 2, 3, 0, 0, 2, 1 },
		{ "1-D: kernel 4 stride 2 padding 1", 16, 20, 1, 12, 4, 2, 1, 0, 1, 1 },
		{ "1-D: kernel 3 stride 1 padding 2", 16, 20, 1, 12, 3, 1, 2, 0, 1, 1 },
		{ "1-D: one pixel, kernel 4 stride 2 padding 1",
		  8, 1, 1, 12, 4, 2, 1, 0, 1, 1 },
	};
	char what[160];
	size_t i;
	int t, u, x;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reset();
		t = input(8, cases[i].h, cases[i].w);
		x = t = conv(t, cases[i].c, cases[i].w > 1 ? 3 : 1, 1,
			     cases[i].w > 1, 1, 1, NVC_ACT_RELU);
		if (cases[i].group == 2) {	/* the Add's other operand */
			t = conv(t, cases[i].k, 1, 1, 0, 1, 1, NVC_ACT_NONE);
			t = deconv(t, cases[i].k, 2, 2, 0, 0, 1, 1,
				   NVC_ACT_NONE);
		}
		u = deconv(x, cases[i].k, cases[i].kh, cases[i].s, cases[i].p,
			   cases[i].q, cases[i].d, cases[i].group,
			   cases[i].group == 2 ? NVC_ACT_NONE : NVC_ACT_RELU);
		if (cases[i].group == 2) {
			u = binary(NVC_ELTWISE, u, t, "Add");
			nodes[G.num_nodes - 1].eltwise = NVC_ELT_ADD;
		}
		output(u);
		snprintf(what, sizeof(what), "ConvTranspose %s, %dx%d to %dx%d",
			 cases[i].what, tensors[x].h, tensors[x].w,
			 tensors[u].h, tensors[u].w);
		check(what, cases[i].group == 2 ? 3 : 2);
		if (cases[i].group == 2)
			tap_ok(origins.n && !made_by(G.num_nodes),
			       "%s: the Add (node %d after the zero insertion) in the convolution's SDP, no operation of its own",
			       what, G.num_nodes);
	}
}

/*
 * int8 operands of different scales: x + 0.5 x must be 1.5 x (the
 * official compiler adds the codes: 0.667 x); a concatenation at a
 * channel offset off the atoms (12), assembled by convolutions.
 */
static void test_scales_mix(void)
{
	struct nvc_node *n;
	int x, h, s, c, p;

	reset();
	x = input(12, 6, 6);
	h = unary(NVC_AFFINE, x, "Mul");
	n = &nodes[G.num_nodes - 1];
	n->affine.scale = constant(1, 12, 1, 1, 0, 0.5f);
	n->affine.shift = -1;
	s = binary(NVC_ELTWISE, x, h, "Add");
	nodes[G.num_nodes - 1].eltwise = NVC_ELT_ADD;
	output(s);
	check("x + 0.5 x (standalone, operand scales 2:1)", 2);

	reset();
	x = input(8, 6, 6);
	c = conv(x, 12, 3, 1, 1, 1, 1, NVC_ACT_RELU);
	p = pool(conv(x, 20, 1, 1, 0, 1, 1, NVC_ACT_NONE), NVC_POOL_MAX, 1, 1, 0);
	s = binary(NVC_CONCAT, c, p, "Concat");
	s = binary(NVC_CONCAT, s, x, "Concat");
	output(s);
	check("concat at channel offsets 12 and 32 (identity convolutions)", 3);
}

/*
 * G compiled for @config in @prec and parsed, or NULL with the reason as a
 * TAP comment. *@buf holds the loadable's bytes: free it after the result.
 */
static struct nvdla_loadable *lowered(const char *config,
				      enum nvc_precision prec, void **buf)
{
	struct nvc_options o = { .config = config, .precision = prec };
	struct nvdla_loadable *l = NULL;
	char err[256];
	size_t len;

	*buf = NULL;
	if (lower(&o, buf, &len, err, sizeof(err)) ||
	    nvdla_loadable_parse(*buf, len, &l, err, sizeof(err))) {
		printf("# %s: %s\n", config, err);
		return NULL;
	}
	return l;
}

/* The largest memory that is neither bound nor filled: the pool. */
static uint64_t pool_size(const char *config, enum nvc_precision prec)
{
	void *buf;
	struct nvdla_loadable *l = lowered(config, prec, &buf);
	uint64_t top = 0;
	uint32_t m;

	if (l)
		for (m = 0; m < l->num_memories; m++)
			if (l->memories[m].flags == NVDLA_LBL_MEM_ALLOC &&
			    l->memories[m].size > top)
				top = l->memories[m].size;
	nvdla_loadable_free(l);
	free(buf);
	return top;
}

/* A chain of 8 convolutions reuses the pool: 2 cubes live at a time. */
static void test_reuse(void)
{
	uint64_t cube = 16 * 16 * 32 * 2, bytes;
	int t, i;

	reset();
	t = input(32, 16, 16);
	for (i = 0; i < 8; i++)
		t = conv(t, 32, 3, 1, 1, 1, 1, NVC_ACT_RELU);
	t = pool(t, NVC_POOL_AVG, 0, 1, 1);
	output(t);
	check("8 convolutions in a chain, memory reused", 9);
	bytes = pool_size("nv_full", NVC_FP16);
	tap_ok(bytes && bytes <= 2 * cube,
	       "chain of 8 fp16 16x16x32 cubes in a pool of %llu bytes (2 cubes: %llu)",
	       (unsigned long long)bytes, (unsigned long long)(2 * cube));
}

/*
 * A transposed convolution's intermediate cube (the RUBIK's input on
 * nv_full) is freed once its RUBIK has read it: after an 8x8x32
 * convolution, a ConvTranspose into 16x16x32 and three convolutions
 * over that, the pool holds two 16x16x32 cubes and the first
 * convolution's; kept to the end, the cube takes one more.
 */
static void test_rubik_reuse(void)
{
	uint64_t cube = 16 * 16 * 32 * 2, first = 8 * 8 * 32 * 2, bytes;
	int t, i;

	reset();
	t = input(32, 8, 8);
	t = conv(t, 32, 3, 1, 1, 1, 1, NVC_ACT_RELU);
	t = deconv(t, 32, 2, 2, 0, 0, 1, 1, NVC_ACT_RELU);
	for (i = 0; i < 3; i++)
		t = conv(t, 32, 3, 1, 1, 1, 1, NVC_ACT_RELU);
	t = pool(t, NVC_POOL_AVG, 0, 1, 1);
	output(t);
	check("ConvTranspose between convolutions, memory reused", 6);
	bytes = pool_size("nv_full", NVC_FP16);
	tap_ok(bytes && bytes <= 2 * cube + first,
	       "RUBIK's input freed once read: fp16 pool of %llu bytes (2 16x16x32 cubes and an 8x8x32 one: %llu)",
	       (unsigned long long)bytes,
	       (unsigned long long)(2 * cube + first));
}

/* Operations of @type in G's loadable for @config (int8). */
static int count_ops(const char *config, uint8_t type)
{
	void *buf;
	struct nvdla_loadable *l = lowered(config, NVC_INT8, &buf);
	const struct nvdla_lbl_blob *g;
	int count = -1;
	uint32_t i;

	if (l && (g = nvdla_loadable_blob(l, "task-0-dep_graph"))) {
		count = 0;
		for (i = 0; i + sizeof(struct dla_common_op_desc) <= g->data_len;
		     i += sizeof(struct dla_common_op_desc))
			count += ((const struct dla_common_op_desc *)
				  (g->data + i))->op_type == type;
	}
	nvdla_loadable_free(l);
	free(buf);
	return count;
}

/*
 * The data and weight banks of the convolutions in G's nv_small int8
 * loadable, in order, into @banks (at most @max pairs): their number, or
 * -1 where it does not compile.
 */
static int conv_banks(uint8_t (*banks)[2], int max)
{
	void *buf;
	struct nvdla_loadable *l = lowered("nv_small", NVC_INT8, &buf);
	const struct nvdla_lbl_blob *g = NULL, *o = NULL;
	const union dla_operation_container *op;
	const struct dla_common_op_desc *d;
	int n = -1;
	uint32_t i;

	if (l) {
		g = nvdla_loadable_blob(l, "task-0-dep_graph");
		o = nvdla_loadable_blob(l, "task-0-op_list");
	}
	for (i = 0; g && o && (i + 1) * sizeof(*d) <= g->data_len &&
	     (i + 1) * sizeof(*op) <= o->data_len; i++) {
		d = (const void *)(g->data + i * sizeof(*d));
		op = (const void *)(o->data + i * sizeof(*op));
		n += !i;
		if (d->op_type != DLA_OP_CONV || n >= max)
			continue;
		banks[n][0] = op->conv_op.data_bank;
		banks[n++][1] = op->conv_op.weight_bank;
	}
	nvdla_loadable_free(l);
	free(buf);
	return n;
}

/*
 * Convolutions in G's nv_small int8 loadable with the data banks of the
 * convolution before (lower_banks.c), or -1.
 */
static int equal_data_banks(void)
{
	uint8_t banks[256][2];
	int n = conv_banks(banks, 256), equal = 0, i;

	for (i = 1; i < n; i++)
		equal += banks[i][0] == banks[i - 1][0];
	return n < 0 ? -1 : equal;
}

/* Weight banks of the last convolution in G's nv_small int8 loadable. */
static int last_weight_banks(void)
{
	uint8_t banks[256][2];
	int n = conv_banks(banks, 256);

	return n > 0 ? banks[n - 1][1] : -1;
}

/*
 * nv_small int8: 18 weight banks for 256 kernels of 3x3x32, then 3 rows
 * of 25,600 bytes (19 banks) that fit beside the next layer's own 5
 * weight banks but not beside the 18 it would inherit: the floor gives
 * way (the weight banks shrink) and the values are right.
 */
static void test_bank_floor(void)
{
	int banks;

	two_convs(32, 3, 100, 256, 8, 3);
	check("3 rows that do not fit beside the weight banks before", 2);
	banks = last_weight_banks();
	tap_ok(banks > 0 && banks < 18,
	       "nv_small: the second convolution in %d weight banks, fewer than the first's 18",
	       banks);
}

/*
 * Two 1x1 convolutions over 124x128x8 on nv_small: the input fills 31 of
 * the 32 banks, a kernel group the last, so the second cannot take a data
 * bank more than the first; both keep 31 and the values are right.
 */
static void test_banks_full(void)
{
	int t;

	two_convs(8, 124, 128, 8, 8, 1);
	check("two 1x1 convolutions over 124x128x8", 2);
	t = equal_data_banks();
	tap_ok(t == 1, "nv_small: the buffer full, %d convolution with the data banks of the one before (1)",
	       t);
}

/*
 * An input larger than the convolution buffer: split into bands of
 * rows (stride 2 and padding at the band edges), results unchanged; no
 * two bands in a row with the same data banks.
 */
static void test_cbuf_split(void)
{
	int x, t, a, n;

	reset();
	x = input(16, 96, 96);
	/* Its operand, the input, ends where its memory ends. */
	t = binary(NVC_ELTWISE, conv(x, 16, 1, 1, 0, 1, 1, NVC_ACT_NONE), x,
		   "Add");
	nodes[G.num_nodes - 1].eltwise = NVC_ELT_ADD;
	a = conv(t, 16, 3, 2, 1, 1, 1, NVC_ACT_RELU);
	t = conv(t, 16, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	t = pool(t, NVC_POOL_MAX, 2, 2, 0);
	t = binary(NVC_ELTWISE, a, t, "Add");
	output(t);
	check("96x96x32 input split across the convolution buffer (with element-wise operands)", 4);
	n = count_ops("nv_small", DLA_OP_CONV);
	tap_ok(n > 3, "nv_small: %d convolution operations for 3 layers", n);
	a = equal_data_banks();
	tap_ok(a == 0, "nv_small: %d of them with the data banks of the one before (0)",
	       a);
}

/* Pixels into the first convolution (pre-extended kernel rows). */
/*
 * The graph in G in int8 on nv_full with every other convolution in fp16
 * (mixed precision), starting with the first and with the second: within
 * int8's tolerance.
 */
static void check_mixed(const char *what, int layers)
{
	bool fp16[MAXN] = { false };
	int i, first, k;

	reference();
	for (first = 0; first < 2; first++) {
		double range = 0, err, tol;
		char why[300] = "";

		for (i = 0, k = 0; i < G.num_nodes; i++)
			if (nodes[i].op == NVC_CONV)
				fp16[i] = k++ % 2 == first;
		fp16_nodes = fp16;
		err = run("nv_full", NVC_INT8, &range, why, sizeof(why));
		fp16_nodes = NULL;
		tol = 4 * scale_of(G.outputs[0]) + 0.02 * layers * range;
		if (!tap_ok(err >= 0 && err <= tol,
			    "%s, mixed: convolutions %s in fp16: max error %.4g (range %.3g, tolerance %.3g)",
			    what, first ? "2, 4, ..." : "1, 3, ...", err, range,
			    tol))
			printf("# %s\n", why);
	}
}

/*
 * Mixed precision: an image input read by an fp16 and an int8 convolution
 * is refused (the convolution reading pixels converts them).
 */
static void image_mixed_refused(void)
{
	bool fp16[MAXN] = { true };
	int t, a;

	reset();
	t = input(3, 13, 18);
	a = conv(t, 8, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	t = conv(t, 8, 1, 1, 0, 1, 1, NVC_ACT_NONE);
	t = binary(NVC_ELTWISE, a, t, "Add");
	nodes[G.num_nodes - 1].eltwise = NVC_ELT_ADD;
	output(t);
	fp16_nodes = fp16;
	tap_ok(refused("nv_full", NVC_INT8,
		       "node 'Conv' (Conv): reads the image input in another precision than its first reader"),
	       "mixed precision: an image input read in fp16 and int8 refused");
	fp16_nodes = NULL;
}

static void test_image(void)
{
	char path[] = "/tmp/nvc-image-XXXXXX";
	int fd = mkstemp(path), t;

	reset();
	t = input(3, 13, 18);
	t = conv(t, 8, 3, 2, 1, 1, 1, NVC_ACT_RELU);
	t = conv(t, 4, 1, 1, 0, 1, 1, NVC_ACT_NONE);
	output(t);
	if (fd < 0 || !image_input(path, true)) {
		tap_ok(false, "image input: cannot write %s", path);
	} else {
		image_file = path;
		check("image input (A8B8G8R8 / A16B16G16R16_F) into conv 3x3 stride 2", 2);
		check_mixed("image input", 2);
		image_mixed_refused();
		image_file = NULL;
	}
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
}

/*
 * Mixed precision: tensors read in both precisions (converted once), an
 * element-wise sum of an int8 and an fp16 convolution, pooling after it,
 * a concatenation of an int8 and an fp16 input, a softmax; a split read
 * by convolutions in both. Refused off nv_full and for fp16 networks.
 */
static void test_mixed(void)
{
	struct nvc_node *n;
	int x, a, b, s, c, t;
	bool fp16[MAXN] = { true };

	reset();
	x = input(16, 8, 8);
	a = conv(x, 32, 1, 1, 0, 1, 1, NVC_ACT_NONE);
	b = conv(x, 32, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	s = binary(NVC_ELTWISE, a, b, "Add");
	nodes[G.num_nodes - 1].eltwise = NVC_ELT_ADD;
	nodes[G.num_nodes - 1].act.type = NVC_ACT_RELU;
	t = pool(s, NVC_POOL_AVG, 2, 2, 0);
	c = conv(t, 32, 3, 1, 1, 1, 1, NVC_ACT_RELU);
	t = binary(NVC_CONCAT, c, t, "Concat");
	t = pool(t, NVC_POOL_MAX, 3, 1, 0);
	t = pool(t, NVC_POOL_AVG, 0, 1, 1);
	t = conv(t, 10, 1, 1, 0, 1, 1, NVC_ACT_NONE);
	output(t);
	check_mixed("add, pools, concat of a convolution and a pooling", 5);
	t = unary(NVC_SOFTMAX, t, "Softmax");
	output(t);
	check_mixed("and a softmax", 5);

	reset();
	x = input(16, 7, 7);
	t = conv(x, 64, 3, 1, 1, 1, 1, NVC_ACT_RELU);
	a = tensor("split0", 32, 7, 7);
	b = tensor("split1", 32, 7, 7);
	n = node(NVC_SPLIT, "Split", t, a);
	n->num_outputs = 2;
	n->outputs[1] = b;
	tensors[b].producer = G.num_nodes - 1;
	a = conv(a, 16, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	b = conv(b, 16, 1, 1, 0, 1, 1, NVC_ACT_NONE);
	t = binary(NVC_CONCAT, a, b, "Concat");
	output(t);
	check_mixed("split, convolutions, concat", 3);

	fp16_nodes = fp16;
	tap_ok(refused("nv_small", NVC_INT8,
		       "mixed precision keeps layers in fp16: nv_small computes in int8 only (nv_full has fp16)"),
	       "mixed precision on nv_small refused");
	tap_ok(refused("nv_large", NVC_INT8,
		       "mixed precision keeps layers in fp16: nv_large computes in int8 only"),
	       "mixed precision on nv_large refused");
	tap_ok(refused("nv_full", NVC_FP16,
		       "mixed precision keeps layers of an int8 network in fp16: this one is fp16 already"),
	       "mixed precision of an fp16 network refused");
	fp16_nodes = NULL;
}

/* Split by layout: its outputs are views of its input's surfaces. */
static void test_split(void)
{
	struct nvc_node *n;
	int x, a, b, t;

	reset();
	x = input(16, 7, 7);
	t = conv(x, 64, 3, 1, 1, 1, 1, NVC_ACT_RELU);
	a = tensor("split0", 32, 7, 7);
	b = tensor("split1", 32, 7, 7);
	n = node(NVC_SPLIT, "Split", t, a);
	n->num_outputs = 2;
	n->outputs[1] = b;
	tensors[b].producer = G.num_nodes - 1;
	a = conv(a, 16, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	b = conv(b, 16, 1, 1, 0, 1, 1, NVC_ACT_NONE);
	t = binary(NVC_CONCAT, a, b, "Concat");
	output(t);
	check("split into views at channel 32, convolutions, concat", 3);
}

/*
 * Resize nearest by 2 in height and 3 in width between convolutions, as
 * the front end writes it: a transposed convolution, kernel = stride,
 * weights 1 from each channel to itself, no bias.
 */
static void test_upsample(void)
{
	int x, t, up, c, r;
	struct nvc_node *n;
	float *w;

	reset();
	x = input(8, 5, 6);
	t = conv(x, 24, 3, 1, 1, 1, 1, NVC_ACT_LEAKY);
	nodes[G.num_nodes - 1].act.alpha = 0.1f;
	up = tensor("up", 24, 10, 18);
	n = node(NVC_CONV_TRANSPOSE, "Resize", t, up);
	n->conv = (struct nvc_conv_attr){ .kh = 2, .kw = 3,
		.stride = { 2, 3 }, .dilation = { 1, 1 }, .group = 1,
		.weights = constant(24, 24, 2, 3, 0, 0), .bias = -1 };
	w = tensors[n->conv.weights].data;
	for (c = 0; c < 24; c++)
		for (r = 0; r < 6; r++)
			w[((size_t)c * 24 + c) * 6 + r] = 1;
	output(conv(up, 8, 3, 1, 1, 1, 1, NVC_ACT_NONE));
	check("Resize nearest by 2x3 between convolutions", 3);
}

static int pad(int in, enum nvc_pad_mode mode, int t, int l, int b, int r)
{
	const struct nvc_tensor *ti = &tensors[in];
	int out = tensor("pad", ti->c, ti->h + t + b, ti->w + l + r);
	struct nvc_node *n = node(NVC_PAD, "Pad", in, out);

	n->pad = (struct nvc_pad_attr){ .mode = mode, .pad = { t, l, b, r } };
	return out;
}

/*
 * The SDP operations of G's loadable for @config copying one pixel: into
 * *@packed those whose source and destination surface stride is one
 * atom of @atom bytes and that copy an atom of channels at most (NVIDIA's
 * C model reads and writes a 1x1 cube packed). Their number, or -1.
 */
static int pixel_copies(const char *config, enum nvc_precision prec,
			uint32_t atom, int *packed)
{
	const union dla_surface_container *sf;
	const struct nvdla_lbl_blob *g, *sb;
	uint32_t i, n, epa = prec == NVC_FP16 ? atom / 2 : atom;
	void *buf;
	struct nvdla_loadable *l = lowered(config, prec, &buf);
	int count = 0;

	*packed = 0;
	g = l ? nvdla_loadable_blob(l, "task-0-dep_graph") : NULL;
	sb = l ? nvdla_loadable_blob(l, "task-0-surf_list") : NULL;
	if (!g || !sb) {
		nvdla_loadable_free(l);
		free(buf);
		return -1;
	}
	n = g->data_len / sizeof(struct dla_common_op_desc);
	for (i = 0; i < n; i++) {
		const struct dla_data_cube *src, *dst;

		sf = (const void *)(sb->data + i * sizeof(*sf));
		src = &sf->sdp_surface.src_data;
		dst = &sf->sdp_surface.dst_data;
		if (((const struct dla_common_op_desc *)g->data)[i].op_type !=
		    DLA_OP_SDP || src->type != DLA_MEM_MC ||
		    src->width != 1 || src->height != 1)
			continue;
		count++;
		*packed += src->surf_stride == atom && dst->surf_stride == atom &&
			   src->channel <= epa && dst->channel == src->channel;
	}
	nvdla_loadable_free(l);
	free(buf);
	return count;
}

/*
 * Pad with the edge's values and their mirror, SDP copies: reflect on
 * the input, edge between convolutions (24 channels: atoms of 8 and 16
 * channels whole and part), and edge as the output (exact copies).
 */
static void test_pad(void)
{
	int t, n, packed;

	reset();
	t = input(3, 6, 7);
	t = pad(t, NVC_PAD_REFLECT, 2, 1, 1, 3);
	t = conv(t, 24, 3, 1, 0, 1, 1, NVC_ACT_RELU);
	t = pad(t, NVC_PAD_EDGE, 1, 2, 1, 2);
	output(conv(t, 8, 3, 1, 0, 1, 1, NVC_ACT_NONE));
	check("Pad reflect (2,1,1,3) on the input, edge (1,2,1,2) between convolutions", 2);
	reset();
	t = input(8, 5, 6);
	t = conv(t, 20, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	output(pad(t, NVC_PAD_REFLECT, 4, 0, 2, 5));
	check("Pad reflect (4,0,2,5) as the output", 1);
	/* 6 x 5 corner pixels of 20 channels: atoms of 8 and of 16. */
	n = pixel_copies("nv_small", NVC_INT8, 8, &packed);
	tap_ok(n == 90 && packed == n,
	       "Pad on nv_small int8: %d corner copies of a pixel (90: 3 atoms each), %d packed",
	       n, packed);
	n = pixel_copies("nv_full", NVC_FP16, 32, &packed);
	tap_ok(n == 60 && packed == n,
	       "Pad on nv_full fp16: %d corner copies of a pixel (60: 2 atoms each), %d packed",
	       n, packed);
}

/*
 * GELU as torch exports it around the CPU's Erf, between convolutions:
 * DLA task, CPU task, DLA task; refused without --cpu-fallback.
 */
static void test_cpu_fallback(void)
{
	int x, t, e;

	reset();
	x = input(8, 5, 6);
	t = conv(x, 24, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	e = unary(NVC_CPU, t, "Erf");
	nodes[G.num_nodes - 1].cpu = NVC_CPU_ERF;
	output(conv(binary(NVC_ELTWISE, t, e, "Mul"), 8, 3, 1, 1, 1, 1,
		    NVC_ACT_NONE));
	nodes[G.num_nodes - 2].eltwise = NVC_ELT_MUL;
	check("x times erf(x) between convolutions, erf on the CPU", 4);
	tap_ok(refused("nv_full", NVC_FP16,
		       "node 'Erf' (Erf): the DLA does not compute it; it runs as a CPU task with --cpu-fallback"),
	       "Erf refused without --cpu-fallback");
}

/*
 * nv_small's SDP has no LUT: with --cpu-fallback Sigmoid, Tanh and SiLU
 * (x sigmoid(x), one CPU function) run as CPU tasks between its
 * convolutions (nvc_cpu_activations() makes them), on every
 * configuration; the LUT's Sigmoid refused without the flag there,
 * after a convolution and after an element-wise sum, naming it.
 */
static void test_cpu_lut(void)
{
	static const enum nvc_cpu_fn fn[] = { NVC_CPU_SIGMOID, NVC_CPU_TANH,
		NVC_CPU_SILU };
	static const char *const names[] = { "Sigmoid", "Tanh", "SiLU" };
	char what[80];
	size_t i;
	int t;

	for (i = 0; i < sizeof(fn) / sizeof(fn[0]); i++) {
		reset();
		t = input(8, 5, 6);
		t = conv(t, 24, 3, 1, 1, 1, 1, NVC_ACT_NONE);
		t = unary(NVC_CPU, t, names[i]);
		nodes[G.num_nodes - 1].cpu = fn[i];
		output(conv(t, 8, 3, 1, 1, 1, 1, NVC_ACT_NONE));
		snprintf(what, sizeof(what),
			 "%s on the CPU between convolutions", names[i]);
		check(what, 3);
	}
	reset();
	t = input(8, 5, 6);
	output(conv(t, 24, 3, 1, 1, 1, 1, NVC_ACT_SIGMOID));
	reference();
	tap_ok(refused("nv_small", NVC_INT8,
		       "Sigmoid (the SDP's LUT) needs the SDP's Y stage, which nv_small has not; it runs as a CPU task with --cpu-fallback"),
	       "Sigmoid on nv_small refused without --cpu-fallback, naming it");
	reset();
	t = input(8, 5, 6);
	t = binary(NVC_ELTWISE, conv(t, 24, 3, 1, 1, 1, 1, NVC_ACT_NONE),
		   conv(t, 24, 1, 1, 0, 1, 1, NVC_ACT_NONE), "Add");
	nodes[G.num_nodes - 1].eltwise = NVC_ELT_ADD;
	nodes[G.num_nodes - 1].act.type = NVC_ACT_SIGMOID;
	output(t);
	reference();
	tap_ok(refused("nv_small", NVC_INT8,
		       "Sigmoid (the SDP's LUT) needs the SDP's Y stage, which nv_small has not; it runs as a CPU task with --cpu-fallback"),
	       "Sigmoid after an element-wise sum on nv_small refused without --cpu-fallback, naming it");
}

/* A CPU node of function @fn from @in into a new c x h x w tensor. */
static int cpu_node(enum nvc_cpu_fn fn, const char *name, int in, int c,
		    int h, int w)
{
	int out = tensor(name, c, h, w);

	node(NVC_CPU, name, in, out)->cpu = fn;
	return out;
}

/* [1, T, D] (T x D x 1) into the token layout D x T x 1, and back. */
static int swap(int in)
{
	const struct nvc_tensor *t = &tensors[in];

	return cpu_node(NVC_CPU_SWAP_CH, "Transpose", in, t->h, t->c, t->w);
}

/* A layer normalisation over the channels of @in, then its scale, shift. */
static int layernorm(int in)
{
	const struct nvc_tensor *t = &tensors[in];
	struct nvc_node *n;
	int x;

	x = cpu_node(NVC_CPU_LAYERNORM, "LayerNormalization", in, t->c,
		     t->h, t->w);
	nodes[G.num_nodes - 1].cpu_eps = 1e-5f;
	x = unary(NVC_AFFINE, x, "LayerNormalization");
	n = &nodes[G.num_nodes - 1];
	n->affine.scale = constant(1, tensors[x].c, 1, 1, 0.5f, 1.0f);
	n->affine.shift = constant(1, tensors[x].c, 1, 1, 0.3f, 0);
	return x;
}

/*
 * The token layout's channel-height swap as the front end writes it,
 * with T and D on and off the atoms (8, 16 and 32 channels): alone (the
 * network's first and last task, a CPU task reading the input and
 * writing the output), around a MatMul (1x1 convolution, D the
 * channels), and around a layer normalisation with its affine.
 */
static void test_tokens(void)
{
	static const int td[][3] = {	/* T, D, MatMul's N */
		{ 5, 20, 12 }, { 37, 19, 33 }, { 1, 9, 5 }, { 32, 16, 64 },
	};
	char what[100];
	size_t i;
	int t;

	for (i = 0; i < sizeof(td) / sizeof(td[0]); i++) {
		reset();
		output(swap(input(td[i][0], td[i][1], 1)));
		snprintf(what, sizeof(what),
			 "[1, %d, %d] channel-height swap alone", td[i][0],
			 td[i][1]);
		check(what, 1);

		reset();
		t = swap(input(td[i][0], td[i][1], 1));
		t = conv(t, td[i][2], 1, 1, 0, 1, 1, NVC_ACT_NONE);
		output(swap(t));
		snprintf(what, sizeof(what),
			 "[1, %d, %d] swap, MatMul to %d, swap", td[i][0],
			 td[i][1], td[i][2]);
		check(what, 2);

		reset();
		t = swap(input(td[i][0], td[i][1], 1));
		t = conv(layernorm(t), td[i][2], 1, 1, 0, 1, 1, NVC_ACT_RELU);
		output(swap(layernorm(t)));
		snprintf(what, sizeof(what),
			 "[1, %d, %d] swap, LayerNorm, MatMul to %d, LayerNorm, swap",
			 td[i][0], td[i][1], td[i][2]);
		check(what, 5);
	}
	tap_ok(refused("nv_full", NVC_FP16,
		       "node 'Transpose' (Transpose): the DLA does not compute it; it runs as a CPU task with --cpu-fallback"),
	       "the token layout's swap refused without --cpu-fallback");
	reset();
	output(layernorm(input(45, 1, 1)));
	check("[1, 45] LayerNorm (the network's first task) and its affine", 2);
}

/*
 * Bilinear Resize (ONNX mode linear) on the CPU, each coordinate mapping:
 * between convolutions, up and down by scales (1.6, 0.7) whose outputs
 * are not whole (the step 1 / scale, not the sizes' ratio); and alone
 * (the network's only task) to a single row, from sizes.
 */
static void test_resize_linear(void)
{
	static const char *const names[EMU_COORD_COUNT] = {
		"half_pixel", "pytorch_half_pixel", "align_corners",
		"asymmetric" };
	char what[100];
	int i, t;

	for (i = 0; i < EMU_COORD_COUNT; i++) {
		reset();
		t = conv(input(5, 7, 9), 19, 3, 1, 1, 1, 1, NVC_ACT_RELU);
		t = cpu_node(NVC_CPU_RESIZE, "Resize", t, 19, 11, 6);
		nodes[G.num_nodes - 1].cpu_coord = i;
		/* ONNX scales 1.6 and 0.7: steps not 7 / 11 and 9 / 6 */
		nodes[G.num_nodes - 1].cpu_step[0] = 1 / 1.6f;
		nodes[G.num_nodes - 1].cpu_step[1] = 1 / 0.7f;
		output(conv(t, 7, 3, 1, 1, 1, 1, NVC_ACT_NONE));
		snprintf(what, sizeof(what),
			 "Resize linear (%s) 9x7 by 0.7x1.6 to 6x11 between convolutions",
			 names[i]);
		check(what, 3);

		reset();
		t = cpu_node(NVC_CPU_RESIZE, "Resize", input(3, 4, 5), 3, 1, 13);
		nodes[G.num_nodes - 1].cpu_coord = i;
		nodes[G.num_nodes - 1].cpu_step[0] = 4.0f;	/* sizes */
		nodes[G.num_nodes - 1].cpu_step[1] = 5 / 13.0f;
		output(t);
		snprintf(what, sizeof(what), "Resize linear (%s) 5x4 to 13x1 alone",
			 names[i]);
		check(what, 1);
	}
}

/* A Split of @in into parts of @c[0..n) channels: part @k's tensor. */
static int split_at(int in, int n, const int *c, int k)
{
	struct nvc_node *s;
	int i;

	s = node(NVC_SPLIT, "Split", in, tensor("part", c[0], tensors[in].h,
						  tensors[in].w));
	for (i = 1; i < n; i++) {
		s->outputs[i] = tensor("part", c[i], tensors[in].h,
				       tensors[in].w);
		tensors[s->outputs[i]].producer = G.num_nodes - 1;
	}
	s->num_outputs = n;
	return s->outputs[k];
}

/*
 * ShuffleNet's channel shuffle of @in in @g groups, as the front end
 * writes it: a 1x1 convolution whose weights pick output channel
 * j = a g + b from input channel b C/g + a.
 */
static int shuffle(int in, int g)
{
	int c = tensors[in].c, j, out = conv(in, c, 1, 1, 0, 1, 1,
					      NVC_ACT_NONE);
	struct nvc_node *n = &nodes[G.num_nodes - 1];
	float *w = tensors[n->conv.weights].data;

	memset(w, 0, (size_t)c * c * sizeof(*w));
	memset(tensors[n->conv.bias].data, 0, c * sizeof(float));
	for (j = 0; j < c; j++)
		w[j * c + (j % g) * (c / g) + j / g] = 1;
	return out;
}

/*
 * A ShuffleNet unit at channel offsets off the atoms: a Split of 40
 * channels in halves (20: off every atom), a convolution of the second,
 * the Concat of both, the channel shuffle, a Slice of channels 4 to 24
 * (a Split whose first and last parts nothing reads) into a
 * convolution; and a Split part off the atoms as the graph output.
 */
static void test_shuffle_unit(void)
{
	static const int halves[2] = { 20, 20 }, slice[3] = { 4, 20, 16 };
	int x, t, a, b;

	reset();
	x = input(16, 6, 6);
	t = conv(x, 40, 3, 1, 1, 1, 1, NVC_ACT_RELU);
	a = split_at(t, 2, halves, 0);
	b = nodes[G.num_nodes - 1].outputs[1];
	b = conv(b, 20, 1, 1, 0, 1, 1, NVC_ACT_RELU);
	t = shuffle(binary(NVC_CONCAT, a, b, "Concat"), 2);
	t = conv(split_at(t, 3, slice, 1), 16, 1, 1, 0, 1, 1, NVC_ACT_NONE);
	output(t);
	check("split, concat and channel shuffle off the atoms, a slice of channels 4 to 24", 5);
	reset();
	x = input(16, 6, 6);
	t = conv(x, 40, 3, 1, 1, 1, 1, NVC_ACT_RELU);
	output(split_at(t, 2, halves, 1));
	check("a split part at channel 20 as the graph output", 2);
}

/*
 * A near-dead output channel (|w| ~ 1e-38, bias 0.5) beside live ones:
 * its scale must not push the shared shifts so far that the other
 * channels' biases round to 0.
 */
static void test_dead_channel(void)
{
	struct nvc_node *n;
	int t, i, per;

	reset();
	t = input(8, 6, 6);
	t = conv(t, 16, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	n = &nodes[G.num_nodes - 1];
	per = 8 * 3 * 3;
	for (i = 0; i < per; i++)
		tensors[n->conv.weights].data[i] *= 1e-38f;
	tensors[n->conv.bias].data[0] = 0.5f;
	for (i = 1; i < 16; i++)
		tensors[n->conv.bias].data[i] = 0.3f * (i % 3) - 0.3f;
	output(t);
	check("conv with a dead channel (|w| ~ 1e-38) and biases", 1);
}

/*
 * Memories a driver without CMA can give (4 MiB): fp16 weights of 8.4 MB
 * and two live 2.4 MB cubes are spread over several memories, each at
 * most 4 MiB, and the network still computes the same.
 */
static void test_memories(void)
{
	struct nvdla_loadable *l;
	int t, weights = 0, pools = 0;
	uint64_t top = 0;
	void *buf;
	uint32_t m;

	reset();
	t = input(64, 96, 96);
	t = conv(t, 128, 1, 1, 0, 1, 1, NVC_ACT_RELU);
	t = conv(t, 128, 1, 1, 0, 1, 1, NVC_ACT_RELU);
	t = pool(t, NVC_POOL_MAX, 3, 3, 0);
	t = pool(t, NVC_POOL_AVG, 0, 1, 1);
	t = fc(t, 1024, NVC_ACT_RELU);
	t = fc(t, 2048, NVC_ACT_RELU);
	t = fc(t, 1024, NVC_ACT_RELU);
	t = fc(t, 10, NVC_ACT_NONE);
	output(t);
	check("weights and pool over 4 MiB", 7);
	l = lowered("nv_full", NVC_FP16, &buf);
	for (m = 0; l && m < l->num_memories; m++) {
		const struct nvdla_lbl_memory *mem = &l->memories[m];

		if (mem->flags & (NVDLA_LBL_MEM_INPUT | NVDLA_LBL_MEM_OUTPUT))
			continue;
		weights += mem->num_contents && mem->size > 4096;
		pools += mem->flags == NVDLA_LBL_MEM_ALLOC;
		top = mem->size > top ? mem->size : top;
	}
	tap_ok(l && weights >= 3 && pools >= 2 && top <= 4u << 20,
	       "fp16: weights in %d memories, the pool in %d, the largest %llu bytes (at most 4 MiB)",
	       weights, pools, (unsigned long long)top);
	nvdla_loadable_free(l);
	free(buf);
}

/* The largest memory of G's loadable that is not an input or output. */
static uint64_t largest_memory(const char *config, enum nvc_precision prec)
{
	void *buf;
	struct nvdla_loadable *l = lowered(config, prec, &buf);
	uint64_t top = l ? 0 : UINT64_MAX;
	uint32_t m;

	for (m = 0; l && m < l->num_memories; m++)
		if (!(l->memories[m].flags &
		      (NVDLA_LBL_MEM_INPUT | NVDLA_LBL_MEM_OUTPUT)) &&
		    l->memories[m].size > top)
			top = l->memories[m].size;
	nvdla_loadable_free(l);
	free(buf);
	return top;
}

/* Bytes of G's loadable's memories filled from it (weights, tables). */
static uint64_t filled_bytes(const char *config, enum nvc_precision prec)
{
	void *buf;
	struct nvdla_loadable *l = lowered(config, prec, &buf);
	uint64_t sum = l ? 0 : UINT64_MAX;
	uint32_t m;

	for (m = 0; l && m < l->num_memories; m++)
		if (l->memories[m].num_contents)
			sum += l->memories[m].size;
	nvdla_loadable_free(l);
	free(buf);
	return sum;
}

/*
 * Grouped convolutions in blocks of whole groups on atoms of channels:
 * depthwise (72 channels: a last block short of an atom) with PReLU,
 * depthwise times 2 with stride, groups 8 channels wide with an
 * element-wise add; four depthwise layers of 512 channels and a global
 * pool (on nv_small over 255 operations read the place the pool writes:
 * it waits for the last of each engine, within an operation's 8-bit
 * count of events); and a 3x3 depthwise layer
 * of 512 channels whose weights stay within an atom's channels per
 * kernel (dense: 4.7 MB).
 */
static void test_group_blocks(void)
{
	int x, t, d, i, p;

	reset();
	x = input(72, 9, 9);
	t = conv(x, 72, 3, 1, 1, 1, 72, NVC_ACT_PRELU);
	nodes[G.num_nodes - 1].act.slope = constant(1, 72, 1, 1, 0.2f, 0.1f);
	t = conv(t, 144, 3, 2, 1, 1, 72, NVC_ACT_RELU);
	d = conv(t, 144, 3, 1, 1, 1, 18, NVC_ACT_NONE);
	t = binary(NVC_ELTWISE, d, t, "Add");
	nodes[G.num_nodes - 1].eltwise = NVC_ELT_ADD;
	output(t);
	check("depthwise 72, depthwise x2 stride 2, groups of 8 + add", 3);

	/* On nv_small 64 blocks a layer read cubes a global pool overwrites. */
	reset();
	x = input(16, 16, 16);
	t = x;
	for (i = 0; i < 4; i++) {
		t = conv(t, 512, 1, 1, 0, 1, 1, NVC_ACT_RELU);
		t = conv(t, 512, 3, 1, 1, 1, 512, NVC_ACT_RELU);
	}
	t = pool(t, NVC_POOL_AVG, 16, 1, 1);
	t = fc(t, 16, NVC_ACT_NONE);
	output(t);
	check("4 x (1x1, 3x3 depthwise) over 512 channels, global pool, fc", 10);

	reset();
	x = input(512, 6, 6);
	t = conv(x, 512, 3, 1, 1, 1, 512, NVC_ACT_RELU);
	output(t);
	check("depthwise 3x3 over 512 channels", 1);
	for (i = 0; i < 3; i++)
		for (p = 0; p < 2; p++) {
			enum nvc_precision prec = p ? NVC_INT8 : NVC_FP16;
			uint64_t bytes, most = 512ull * 9 * 64;	/* 64 bytes a channel */

			if (prec == NVC_FP16 && strcmp(configs[i], "nv_full"))
				continue;
			bytes = filled_bytes(configs[i], prec);
			tap_ok(bytes <= most,
			       "depthwise 512 on %s %s: %llu bytes filled (at most %llu)",
			       configs[i], p ? "int8" : "fp16",
			       (unsigned long long)bytes,
			       (unsigned long long)most);
		}
}

/* G on nv_full in fp16 against the float computation (0.5 % of the range). */
static void check_fp16(const char *what)
{
	double range = 0, err;
	char why[300] = "";

	reference();
	err = run("nv_full", NVC_FP16, &range, why, sizeof(why));
	if (!tap_ok(err >= 0 && err <= 5e-3 * range,
		    "%s on nv_full fp16: max error %.4g (range %.3g, tolerance %.3g)",
		    what, err, range, 5e-3 * range))
		printf("# %s\n", why);
}

/*
 * Convolutions whose kernels do not fit the buffer over all their input
 * channels: a fully connected layer over a 512x7x7 cube (vgg's first:
 * 16 fp16 kernels take 784 KB of nv_full's 512 KB; 32 int8 ones 784 KB
 * of nv_large's 512 KB, 8 of them 196 KB of nv_small's 128 KB), in
 * chunks of the channels adding the partial sums (int8: in int16 on
 * nv_full, int8 elsewhere), with ReLU, in fp16 and in int8 on every
 * configuration; padded 3x3 ones over 2048 channels (24 fp16 kernels:
 * 864 KB) with a fused Add in fp16 and 32 kernels alone in fp16 and int8
 * (576 KB; nv_small: 8 take 144 KB), their partial sums 5x5 (int8: in
 * int8); a fused Mul refused.
 */
static void test_fc_chunks(void)
{
	int x, a, b, t;

	reset();
	x = input(512, 7, 7);
	t = conv(x, 40, 7, 1, 0, 1, 1, NVC_ACT_RELU);
	output(t);
	check("7x7 over 512x7x7 -> 40 in chunks of input channels + relu", 1);

	reset();
	x = input(2048, 5, 5);
	b = conv(x, 24, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	a = conv(x, 24, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	t = binary(NVC_ELTWISE, a, b, "Add");
	nodes[G.num_nodes - 1].eltwise = NVC_ELT_ADD;
	nodes[G.num_nodes - 1].act.type = NVC_ACT_RELU;
	output(t);
	check_fp16("two 3x3 over 2048 channels in chunks, the second + add + relu");
	nodes[G.num_nodes - 1].name = "Mul";
	nodes[G.num_nodes - 1].onnx_op = "Mul";
	nodes[G.num_nodes - 1].eltwise = NVC_ELT_MUL;
	tap_ok(refused("nv_full", NVC_FP16,
		       "node 'Conv' (Conv): its kernels over 2048 input channels do not fit the convolution buffer, and split into chunks of the channels it cannot multiply by 'Mul'"),
	       "3x3 over 2048 channels in chunks with a fused Mul refused");

	reset();
	x = input(2048, 5, 5);
	t = conv(x, 32, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	output(t);
	check("3x3 of 32 kernels over 2048x5x5 in chunks of input channels", 1);
}

/* Every memory of G's loadable within 4 MiB, on every target. */
static void check_memories(const char *what)
{
	int i, p;

	for (i = 0; i < 3; i++)
		for (p = 0; p < 2; p++) {
			enum nvc_precision prec = p ? NVC_INT8 : NVC_FP16;
			uint64_t top;

			if (prec == NVC_FP16 && strcmp(configs[i], "nv_full"))
				continue;
			top = largest_memory(configs[i], prec);
			tap_ok(top <= 4u << 20,
			       "%s on %s %s: largest memory %llu bytes (at most 4 MiB)",
			       what, configs[i], p ? "int8" : "fp16",
			       (unsigned long long)top);
		}
}

/*
 * Weights over 4 MiB in one layer: the convolution runs in parts over
 * ranges of output channels, each with its own weights, bias, scales,
 * element-wise operand and PReLU slopes.
 */
static void test_conv_parts(void)
{
	int x, t, n;

	reset();
	x = input(512, 4, 4);
	t = conv(x, 512, 3, 1, 1, 1, 1, NVC_ACT_NONE);	/* fp16: 4.7 MB */
	t = binary(NVC_ELTWISE, t, x, "Add");
	nodes[G.num_nodes - 1].eltwise = NVC_ELT_ADD;
	nodes[G.num_nodes - 1].act.type = NVC_ACT_RELU;
	output(t);
	check("conv 3x3 512 -> 512 (4.7 MB in fp16) + add + relu", 2);
	check_memories("conv 3x3 512 -> 512 + add");

	reset();
	x = input(704, 4, 3);
	t = conv(x, 704, 3, 1, 1, 1, 1, NVC_ACT_PRELU);	/* int8: 4.5 MB */
	nodes[G.num_nodes - 1].act.slope = constant(1, 704, 1, 1, 0.2f, 0.1f);
	t = conv(t, 704, 3, 1, 1, 1, 1, NVC_ACT_NONE);
	t = binary(NVC_ELTWISE, t, x, "Add");
	nodes[G.num_nodes - 1].eltwise = NVC_ELT_ADD;
	nodes[G.num_nodes - 1].act.type = NVC_ACT_RELU;	/* PReLU: Y */
	output(t);
	check("conv 3x3 704 -> 704 (4.5 MB in int8) + PRelu, again + add + relu", 3);
	check_memories("2 conv 3x3 704 -> 704, add");
	n = count_ops("nv_small", DLA_OP_CONV);
	tap_ok(n == 4, "nv_small int8: %d convolution operations for 2 layers in 2 parts (4)",
	       n);
}

/* Per-channel SDP operands of an atom of 8 channels, @elem bytes each. */
static bool operand_strides_ok(const struct dla_data_cube *d,
			       const struct dla_sdp_op *x)
{
	uint32_t elem = x->type == SDP_TYPE_BOTH ? 4 : 2;

	return !x->enable || x->type == SDP_TYPE_NONE ||
	       x->mode != SDP_MODE_PER_KERNEL ||
	       (d->line_stride == 8 * elem && d->surf_stride == 8 * elem);
}

/*
 * What NVIDIA's C model and RTL need of the descriptors (nv_small): a
 * convolution's weight bytes its kernels' in whole 8-byte entries of the
 * convolution buffer (the CSC releases no more, so the next change of
 * weight banks would wait forever), and
 * per-channel SDP operands one atom of channels a surface stride apart
 * (stride 0 reads the first atom's operands for every surface); and the
 * RTL never given fewer weight banks than the layer before (its CDMA then
 * stops fetching weights).
 */
static void test_hw_layout(void)
{
	const union dla_operation_container *op;
	const union dla_surface_container *sf;
	const struct nvdla_lbl_blob *g, *ob, *sb;
	struct nvdla_loadable *l;
	void *buf;
	int t, convs = 0, sdps = 0, bad = 0, fewer = 0, wbank = 0;
	uint32_t i, n;

	reset();
	t = input(1, 16, 16);
	t = conv(t, 5, 3, 1, 1, 1, 1, NVC_ACT_RELU);	/* 45 bytes */
	t = conv(t, 20, 3, 1, 1, 1, 1, NVC_ACT_RELU);
	t = conv(t, 64, 3, 1, 1, 1, 1, NVC_ACT_RELU);	/* 3 weight banks */
	t = conv(t, 8, 1, 1, 0, 1, 1, NVC_ACT_RELU);	/* 1 would do */
	t = fc(t, 10, NVC_ACT_NONE);
	output(t);
	reference();	/* calibrated ranges */
	l = lowered("nv_small", NVC_INT8, &buf);
	g = l ? nvdla_loadable_blob(l, "task-0-dep_graph") : NULL;
	ob = l ? nvdla_loadable_blob(l, "task-0-op_list") : NULL;
	sb = l ? nvdla_loadable_blob(l, "task-0-surf_list") : NULL;
	n = g && ob && sb ? g->data_len / sizeof(struct dla_common_op_desc) : 0;
	for (i = 0; i < n; i++) {
		op = (const void *)(ob->data + i * sizeof(*op));
		sf = (const void *)(sb->data + i * sizeof(*sf));
		switch (((const struct dla_common_op_desc *)g->data)[i].op_type) {
		case DLA_OP_CONV:
			convs++;
			fewer += op->conv_op.weight_bank < wbank;
			wbank = op->conv_op.weight_bank;
			bad += sf->conv_surface.weight_data.size !=
			       (op->conv_op.bytes_per_kernel *
				sf->conv_surface.dst_data.channel + 7) / 8 * 8;
			break;
		case DLA_OP_SDP:
			sdps++;
			bad += !operand_strides_ok(&sf->sdp_surface.x1_data,
						   &op->sdp_op.x1_op) ||
			       !operand_strides_ok(&sf->sdp_surface.x2_data,
						   &op->sdp_op.x2_op) ||
			       !operand_strides_ok(&sf->sdp_surface.y_data,
						   &op->sdp_op.y_op);
			break;
		}
	}
	tap_ok(convs == 5 && sdps == 5 && !bad,
	       "nv_small int8: %d convolutions' weight bytes, %d SDPs' operand strides as the hardware reads them (%d wrong)",
	       convs, sdps, bad);
	tap_ok(convs == 5 && !fewer,
	       "nv_small int8: no convolution has fewer weight banks than the one before (%d do)",
	       fewer);
	nvdla_loadable_free(l);
	free(buf);
}

/*
 * Without a RUBIK (nv_small), a transposed convolution of an input 1
 * wide (1-D) runs each phase over its whole column: the zero insertion
 * of 20 rows in 2 operations, not 40; its SDP writes a 1x1 cube (an input
 * of one pixel) only with its surfaces an atom apart, as NVIDIA's C
 * model asserts. One of more than an atom of channels is refused.
 */
static void test_deconv_columns(void)
{
	static const int rows[] = { 20, 1 };
	const union dla_surface_container *sf;
	const struct nvdla_lbl_blob *g, *sb;
	const struct dla_data_cube *d;
	struct nvdla_loadable *l;
	int k, t, sdps, bad;
	uint32_t i, n;
	void *buf;

	for (k = 0; k < 2; k++) {
		reset();
		t = input(8, rows[k], 1);
		output(deconv(t, 8, 4, 2, 1, 0, 1, 1, NVC_ACT_NONE));
		reference();
		l = lowered("nv_small", NVC_INT8, &buf);
		g = l ? nvdla_loadable_blob(l, "task-0-dep_graph") : NULL;
		sb = l ? nvdla_loadable_blob(l, "task-0-surf_list") : NULL;
		n = g && sb ? g->data_len / sizeof(struct dla_common_op_desc) : 0;
		for (i = 0, sdps = 0, bad = 0; i < n; i++) {
			if (((const struct dla_common_op_desc *)g->data)[i].op_type !=
			    DLA_OP_SDP)
				continue;
			sf = (const void *)(sb->data + i * sizeof(*sf));
			d = &sf->sdp_surface.dst_data;
			sdps++;
			bad += d->width == 1 && d->height == 1 &&
			       d->surf_stride != 8;
		}
		tap_ok(n && sdps == 3 && !bad,
		       "ConvTranspose of %d x 1 x 8 on nv_small: the zero insertion's 2 phases and the convolution in %d SDP operations (3), %d writing a 1x1 cube with its surfaces not packed",
		       rows[k], sdps, bad);
		nvdla_loadable_free(l);
		free(buf);
	}
	reset();
	t = input(16, 1, 1);
	output(deconv(t, 8, 4, 2, 1, 0, 1, 1, NVC_ACT_NONE));
	reference();
	tap_ok(refused("nv_small", NVC_INT8,
		       "node 'ConvTranspose/zeros' (ConvTranspose): a 1x1 input into 16 channels without a RUBIK: its SDP would write 1x1 cubes of 2 surfaces, which it writes only packed"),
	       "ConvTranspose of one pixel of 16 channels on nv_small refused naming the rule");
}

/*
 * Usage: test_compiler_lower [BUILD] | --write-loadables DIR (the tests
 * of CPU tasks only, their loadables left in DIR as fuzzing seeds).
 */
int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write-loadables")) {
		loadables_dir = argv[2];
		test_cpu_fallback();
		test_cpu_lut();
		test_tokens();
		test_resize_linear();
		reset();
		return tap_done();
	}
	test_hw_layout();
	test_deconv_columns();
	test_conv_parts();
	test_group_blocks();
	test_fc_chunks();
	test_dead_channel();
	test_memories();
	test_split();
	test_mixed();
	test_shuffle_unit();
	test_upsample();
	test_pad();
	test_cpu_fallback();
	test_cpu_lut();
	test_tokens();
	test_resize_linear();
	test_image();
	test_cbuf_split();
	test_banks_full();
	test_bank_floor();
	test_reuse();
	test_rubik_reuse();
	test_scales_mix();
	test_deconv();
	test_deconvs();
	test_deconv_refusals();
	test_refusals();
	test_scales();
	test_input_map();
	test_hard_acts();
	test_clip_no_y();
	test_global_pool();
	test_per_channel();
	test_lrn();
	test_acts();
	test_winograd();
	test_lenet();
	test_convs();
	test_sdp_pool();
	reset();
	nvc_origins_free(&origins);
	return tap_done();
}
