// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The int8 quality tools (umd/compiler/pass_*.c, docs/compiler.md) on
 * graphs built here: cross-layer equalization keeps the float values and
 * balances the weight ranges of a pair whose one channel is 100 times
 * the others, and lowers its int8 error; bias correction removes the
 * mean error of weights that all round the same way; an int8 softmax
 * output keeps its small probabilities (fp16). The int8 builds are
 * calibrated on random images, run on the in-process model and compared
 * with the float executor.
 */
#define _GNU_SOURCE	/* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nvdla/runtime.h>

#include "calib.h"
#include "graph.h"
#include "lower.h"
#include "quality.h"
#include "../lib/tap.h"

#define SIDE 8
#define IMAGES 4

static char dir[] = "/tmp/nvc-quality-XXXXXX";
static const struct nvc_calib_options calib = {
	.method = NVC_CALIB_MINMAX, .pixels = { .normalize = 255 },
};
static unsigned int seed = 1;

static float rnd(void)		/* uniform in [-1, 1) */
{
	seed = seed * 1103515245u + 12345u;
	return (float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f;
}

/* IMAGES colour images of random pixels, SIDE x SIDE, in dir. */
static int write_images(void)
{
	char path[64];
	int i, j;

	if (!mkdtemp(dir))
		return -1;
	for (i = 0; i < IMAGES; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%d.ppm", dir, i);
		f = fopen(path, "wb");
		if (!f)
			return -1;
		fprintf(f, "P6\n%d %d\n255\n", SIDE, SIDE);
		for (j = 0; j < SIDE * SIDE * 3; j++)
			fputc((int)((rnd() + 1) * 127.5f), f);
		fclose(f);
	}
	return 0;
}

static void remove_images(void)
{
	char path[64];
	int i;

	for (i = 0; i < IMAGES; i++) {
		snprintf(path, sizeof(path), "%s/%d.ppm", dir, i);
		unlink(path);
	}
	rmdir(dir);
}

/* A convolution of @in: @k kernels @r x @r, padding @pad, random weights. */
static int conv(struct nvc_graph *g, const char *name, int in, int k, int r,
		int pad, enum nvc_act act)
{
	const struct nvc_tensor *ti = &g->tensors[in];
	int c = ti->c, h = ti->h + 2 * pad - r + 1, w = ti->w + 2 * pad - r + 1;
	float *wv = malloc(sizeof(float) * k * c * r * r);
	float *bv = malloc(sizeof(float) * k);
	int n, t, wt, bt, i;
	struct nvc_node *nd;
	char buf[64];

	for (i = 0; i < k * c * r * r; i++)
		wv[i] = rnd() / r;
	for (i = 0; i < k; i++)
		bv[i] = rnd() * 0.1f;
	snprintf(buf, sizeof(buf), "%s/w", name);
	wt = nvc_tensor_add(g, buf, k, c, r, r, wv);
	snprintf(buf, sizeof(buf), "%s/b", name);
	bt = nvc_tensor_add(g, buf, 1, k, 1, 1, bv);
	t = nvc_tensor_add(g, name, 1, k, h, w, NULL);
	n = nvc_node_add(g, name, "Conv", NVC_CONV);
	free(wv);
	free(bv);
	nd = &g->nodes[n];
	nd->num_inputs = nd->num_outputs = 1;
	nd->inputs[0] = in;
	nd->outputs[0] = t;
	nd->act.type = act;
	nd->act.max = INFINITY;
	nd->conv = (struct nvc_conv_attr){
		.kh = r, .kw = r, .stride = { 1, 1 },
		.pad = { pad, pad, pad, pad }, .dilation = { 1, 1 },
		.group = 1, .weights = wt, .bias = bt,
	};
	g->tensors[t].producer = n;
	return t;
}

static int input(struct nvc_graph *g)
{
	memset(g, 0, sizeof(*g));
	g->num_inputs = 1;
	g->inputs[0] = nvc_tensor_add(g, "data", 1, 3, SIDE, SIDE, NULL);
	return g->inputs[0];
}

static void output(struct nvc_graph *g, int t)
{
	g->num_outputs = 1;
	g->outputs[0] = t;
}

/* Output 0 of @g in float for image 0 of dir into @y (@n values). */
static int exec(const struct nvc_graph *g, float *x, float *y, long n)
{
	float **v = calloc(g->num_tensors, sizeof(*v));
	const float *in[1] = { x };
	char err[NVC_ERR_LEN], path[64];
	int ret;

	snprintf(path, sizeof(path), "%s/0.ppm", dir);
	ret = nvc_image_input(path, &g->tensors[g->inputs[0]], &calib.pixels,
			      x, err, sizeof(err));
	if (!ret)
		ret = nvc_exec(g, in, v, err, sizeof(err));
	if (!ret)
		memcpy(y, v[g->outputs[0]], n * sizeof(*y));
	if (ret)
		fprintf(stderr, "# exec: %s\n", err);
	nvc_exec_free(g, v);
	free(v);
	return ret;
}

/*
 * @g calibrated on dir, compiled in int8 for @config and run on input @x:
 * output 0's @n values into @y; its description into @d.
 */
static int run_int8(struct nvc_graph *g, const char *config, const float *x,
		    float *y, long n, struct nvdla_tensor_desc *d)
{
	struct nvc_options o = { .config = config, .precision = NVC_INT8 };
	struct nvdla_runtime *rt = NULL;
	struct nvdla_network *net = NULL;
	char err[NVC_ERR_LEN], dev[32];
	void *buf = NULL;
	size_t len;
	int ret;

	ret = nvc_calibrate(g, dir, &calib, err, sizeof(err));
	if (!ret)
		ret = nvc_lower(g, &o, &buf, &len, err, sizeof(err));
	snprintf(dev, sizeof(dev), "sim:%s", config);
	if (!ret)
		ret = nvdla_runtime_new(dev, &rt, err, sizeof(err));
	if (!ret)
		ret = nvdla_network_load(rt, buf, len, &net);
	if (!ret)
		ret = nvdla_network_set_input_values(
			net, 0, x, nvc_tensor_size(&g->tensors[g->inputs[0]]));
	if (!ret)
		ret = nvdla_network_submit(net, 0);
	if (!ret)
		ret = nvdla_network_output_values(net, 0, y, n);
	if (!ret)
		ret = nvdla_network_output_desc(net, 0, d);
	if (ret)
		fprintf(stderr, "# %s: %s\n", config, rt ? nvdla_runtime_error(rt) : err);
	if (rt)
		nvdla_runtime_del(rt);
	free(buf);
	return ret;
}

/* Kernel @k's largest |weight| of conv @nd, and input channel @c's. */
static float out_range(const struct nvc_graph *g, int node, int k)
{
	const struct nvc_tensor *w = &g->tensors[g->nodes[node].conv.weights];
	long per = (long)w->c * w->h * w->w, i;
	float r = 0;

	for (i = 0; i < per; i++)
		r = fmaxf(r, fabsf(w->data[k * per + i]));
	return r;
}

static float in_range(const struct nvc_graph *g, int node, int c)
{
	const struct nvc_tensor *w = &g->tensors[g->nodes[node].conv.weights];
	long taps = (long)w->h * w->w, i;
	float r = 0;
	int k;

	for (k = 0; k < w->n; k++)
		for (i = 0; i < taps; i++)
			r = fmaxf(r, fabsf(w->data[(k * w->c + c) * taps + i]));
	return r;
}

/*
 * input -> A (3 -> 8, 3x3, ReLU) -> B (8 -> 8, 3x3): A's channel 0 times
 * 100 and B's weights on it / 100, the same function as before.
 */
static void unbalanced(struct nvc_graph *g, enum nvc_act act)
{
	int a = conv(g, "a", input(g), 8, 3, 1, act), i, k;
	struct nvc_tensor *wa, *wb;

	output(g, conv(g, "b", a, 8, 3, 1, NVC_ACT_NONE));
	wa = &g->tensors[g->nodes[0].conv.weights];
	wb = &g->tensors[g->nodes[1].conv.weights];
	for (i = 0; i < 3 * 9; i++)
		wa->data[i] *= 100;
	g->tensors[g->nodes[0].conv.bias].data[0] *= 100;
	for (k = 0; k < 8; k++)
		for (i = 0; i < 9; i++)
			wb->data[k * 8 * 9 + i] /= 100;
}

/* Largest |a - b| and, in @top, largest |b|. */
static double max_diff(const float *a, const float *b, long n, double *top)
{
	double d = 0, t = 0;
	long i;

	/* An fmax reduction here crashes arm64 gcc 12's vectorizer (ICE). */
	for (i = 0; i < n; i++) {
		double e = fabs((double)a[i] - b[i]), m = fabs((double)b[i]);

		if (e > d)
			d = e;
		if (m > t)
			t = m;
	}
	*top = t;
	return d;
}

/* A's kernel ranges: their spread, and how far each is from B's on it. */
static double spread(const struct nvc_graph *g, double *apart)
{
	double lo = INFINITY, hi = 0;
	int c;

	*apart = 0;
	for (c = 0; c < 8; c++) {
		double r1 = out_range(g, 0, c), r2 = in_range(g, 1, c);

		lo = fmin(lo, r1);
		hi = fmax(hi, r1);
		*apart = fmax(*apart, fabs(r1 - r2) / r1);
	}
	return hi / lo;
}

/*
 * The unbalanced pair equalized by weight ranges, or with @data (the
 * calibration images) by the channels' activation ranges: the float
 * outputs the same, the int8 error at most half.
 */
static void test_equalize(const char *data, const char *how)
{
	struct nvc_graph g, q;
	long n = 8 * SIDE * SIDE;
	float x[3 * SIDE * SIDE], before[8 * SIDE * SIDE], after[8 * SIDE * SIDE];
	float y0[8 * SIDE * SIDE], y1[8 * SIDE * SIDE];
	struct nvdla_tensor_desc d;
	double top, e0, e1, ratio, apart;
	char err[NVC_ERR_LEN];
	int pairs;

	unbalanced(&g, NVC_ACT_RELU);
	unbalanced(&q, NVC_ACT_RELU);
	ratio = spread(&g, &apart);
	exec(&g, x, before, n);
	pairs = nvc_equalize(&g, NVC_EQ_EXACT, data, &calib, err, sizeof(err));
	exec(&g, x, after, n);
	e0 = max_diff(after, before, n, &top);
	tap_ok(pairs == 1 && e0 < 1e-5 * top,
	       "%s: one pair (%d), the float outputs the same (%.3g of %.3g)",
	       how, pairs, e0, top);
	if (!data) {
		tap_ok(ratio >= 50, "unbalanced pair: A's largest kernel range %.3g times its smallest",
		       ratio);
		ratio = spread(&g, &apart);
		tap_ok(apart < 1e-4 && ratio < 10,
		       "%s: each channel's range the same in A and B (%.2g apart), A's within %.3g of each other",
		       how, apart, ratio);
	}
	if (run_int8(&q, "nv_large", x, y0, n, &d) || run_int8(&g, "nv_large", x, y1, n, &d)) {
		tap_ok(0, "int8 builds");
	} else {
		e0 = max_diff(y0, before, n, &top);
		e1 = max_diff(y1, before, n, &top);
		tap_ok(e1 < e0 / 2, "%s: int8 on nv_large, max error %.4f without, %.4f with (of %.3f)",
		       how, e0, e1, top);
	}
	nvc_graph_free(&g);
	nvc_graph_free(&q);
}

/* Clip(0, 6) commutes with no scaling: left alone unless asked. */
static void test_equalize_relu6(void)
{
	struct nvc_graph g;
	char err[NVC_ERR_LEN];
	int pairs;

	unbalanced(&g, NVC_ACT_CLIP);
	g.nodes[0].act.min = 0;
	g.nodes[0].act.max = 6;
	pairs = nvc_equalize(&g, NVC_EQ_EXACT, NULL, NULL, err, sizeof(err));
	tap_ok(pairs == 0 && g.nodes[0].act.type == NVC_ACT_CLIP,
	       "ReLU6 between: no pair equalized (%d)", pairs);
	pairs = nvc_equalize(&g, NVC_EQ_RELU6, NULL, NULL, err, sizeof(err));
	tap_ok(pairs == 1 && g.nodes[0].act.type == NVC_ACT_RELU,
	       "ReLU6 between, relu6 mode: equalized, the clip a ReLU (%d)", pairs);
	nvc_graph_free(&g);
}

/*
 * A 3x3 convolution whose weights but one per kernel lie 0.45 of an int8
 * step above a multiple of it: all round down, so on positive inputs the
 * output is shifted by about -0.45 step x (the inputs' sum).
 */
static void test_bias_correct(void)
{
	struct nvc_graph g, ref;
	long n = 8 * SIDE * SIDE, i, per = 3 * 9;
	float x[3 * SIDE * SIDE], want[8 * SIDE * SIDE], y0[8 * SIDE * SIDE],
	      y1[8 * SIDE * SIDE];
	struct nvdla_tensor_desc d;
	double m0 = 0, m1 = 0;
	char err[NVC_ERR_LEN];
	int k, ret;

	for (k = 0; k < 2; k++) {
		struct nvc_graph *p = k ? &ref : &g;
		struct nvc_tensor *w;

		seed = 7;
		output(p, conv(p, "c", input(p), 8, 3, 1, NVC_ACT_NONE));
		w = &p->tensors[p->nodes[0].conv.weights];
		for (i = 0; i < 8 * per; i++) {
			float step = 1.0f / 127;

			w->data[i] = i % per ? (floorf(fabsf(w->data[i]) * 20) + 0.45f) * step :
				     1.0f;
		}
	}
	exec(&ref, x, want, n);
	ret = run_int8(&ref, "nv_large", x, y0, n, &d);
	ret = ret ? ret : nvc_bias_correct(&g, dir, &calib, err, sizeof(err));
	ret = ret ? ret : run_int8(&g, "nv_large", x, y1, n, &d);
	for (i = 0; !ret && i < n; i++) {
		m0 += (y0[i] - want[i]) / n;
		m1 += (y1[i] - want[i]) / n;
	}
	tap_ok(!ret && fabs(m1) < fabs(m0) / 4,
	       "bias correction: mean int8 error %.5f without, %.5f with", m0, m1);
	nvc_graph_free(&g);
	nvc_graph_free(&ref);
}

/* 1x1 logits of 100 classes (standard deviation about 3), then Softmax. */
static void test_softmax(const char *config)
{
	struct nvc_graph g;
	int c, t, n, zeros = 0, small = 0;
	float x[3 * SIDE * SIDE], want[100], y[100];
	struct nvdla_tensor_desc d;
	double err = 0;

	seed = 3;
	c = conv(&g, "fc", input(&g), 100, SIDE, 0, NVC_ACT_NONE);
	for (t = 0; t < 100 * 3 * SIDE * SIDE; t++)
		g.tensors[g.nodes[0].conv.weights].data[t] *= 3;
	t = nvc_tensor_add(&g, "prob", 1, 100, 1, 1, NULL);
	n = nvc_node_add(&g, "sm", "Softmax", NVC_SOFTMAX);
	g.nodes[n].num_inputs = g.nodes[n].num_outputs = 1;
	g.nodes[n].inputs[0] = c;
	g.nodes[n].outputs[0] = t;
	g.tensors[t].producer = n;
	output(&g, t);
	exec(&g, x, want, 100);
	if (run_int8(&g, config, x, y, 100, &d)) {
		tap_ok(0, "%s: softmax in int8", config);
		nvc_graph_free(&g);
		return;
	}
	for (c = 0; c < 100; c++) {
		double e = fabs((double)y[c] - want[c]) / want[c];

		zeros += y[c] == 0;
		small += want[c] < 1.0f / 254;
		if (e > err)	/* not fmax: see max_diff() */
			err = e;
	}
	tap_ok(d.data_type == NVDLA_DATA_TYPE_HALF && zeros == 0 && small > 10 &&
	       err < 0.1,
	       "%s: int8 softmax output in fp16: %d probabilities under half an int8 step, %d zero, relative error at most %.4f",
	       config, small, zeros, err);
	nvc_graph_free(&g);
}

int main(void)
{
	if (write_images()) {
		tap_ok(0, "calibration images in %s", dir);
		return tap_done();
	}
	test_equalize(NULL, "equalized by weight ranges");
	test_equalize(dir, "equalized by activation ranges");
	test_equalize_relu6();
	test_bias_correct();
	test_softmax("nv_large");
	test_softmax("nv_small");
	remove_images();
	return tap_done();
}
