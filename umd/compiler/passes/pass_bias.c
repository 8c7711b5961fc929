// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Empirical bias correction (Nagel et al. 2019, section 4.2): int8
 * weights W + e (the back end's codes, quant_weights.c) make a
 * convolution compute conv(x, W) + conv(x, e), and the mean of
 * conv(x, e) over the data shifts each output channel: most in layers
 * with few weights a kernel (depthwise), whose errors do not average
 * out. Over the calibration images, with each convolution's float input
 * x, that mean per output channel (over the plane and the images) is
 * measured and subtracted from the bias.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "quality.h"

#define MAX(a, b) ((a) > (b) ? (a) : (b))

struct bias {
	struct nvc_graph *g;
	double **sum;		/* per node (convolutions): per output channel */
	float *err_w;		/* the weights' rounding error, largest layer */
	float *y;		/* conv(x, e), largest output */
	int images;
	char *err;
	size_t errlen;
};

static bool corrected(const struct nvc_node *nd)
{
	return nd->op == NVC_CONV;
}

/* e = codes x scales - W for the weights of @nd, into @e. */
static void rounding_error(const struct nvc_graph *g,
			   const struct nvc_node *nd, float *e)
{
	const struct nvc_tensor *w = &g->tensors[nd->conv.weights];
	size_t per = (size_t)w->c * w->h * w->w, i;
	float *ws = e + (size_t)w->n * per;	/* room after the errors */
	int k;

	nvc_weight_absmax(w->data, w->n, per, ws);
	nvc_weight_scales(ws, w->n);
	for (k = 0; k < w->n; k++)
		for (i = 0; i < per; i++) {
			float v = w->data[k * per + i];

			e[k * per + i] = nvc_weight_code(v, ws[k]) * ws[k] - v;
		}
}

/* conv(x, e) of node @j on this image, its plane means added to sum. */
static int measure(struct bias *b, int j, float *const *values)
{
	struct nvc_graph *g = b->g;
	struct nvc_node nd = g->nodes[j];
	struct nvc_tensor *w = &g->tensors[nd.conv.weights];
	const struct nvc_tensor *out = &g->tensors[nd.outputs[0]];
	long hw = (long)out->h * out->w, i;
	float *keep = w->data;
	int k, ret;

	rounding_error(g, &nd, b->err_w);
	nd.conv.bias = -1;
	w->data = b->err_w;
	ret = nvc_exec_conv(g, &nd, values[nd.inputs[0]], b->y);
	w->data = keep;
	if (ret)
		return nvc_error(b->err, b->errlen, -ENOMEM, "out of memory");
	for (k = 0; k < out->c; k++) {
		double s = 0;

		for (i = 0; i < hw; i++)
			s += b->y[k * hw + i];
		b->sum[j][k] += s / hw;
	}
	return 0;
}

static int each_image(void *ctx, float *const *values)
{
	struct bias *b = ctx;
	int j, ret;

	for (j = 0; j < b->g->num_nodes; j++) {
		if (!corrected(&b->g->nodes[j]))
			continue;
		ret = measure(b, j, values);
		if (ret)
			return ret;
	}
	b->images++;
	return 0;
}

/* Buffers for the largest layer: weights (and scales), output. */
static int buffers(struct bias *b)
{
	const struct nvc_graph *g = b->g;
	size_t wmax = 0, ymax = 0;
	int j;

	b->sum = calloc(g->num_nodes, sizeof(*b->sum));
	if (!b->sum)
		return -ENOMEM;
	for (j = 0; j < g->num_nodes; j++) {
		const struct nvc_node *nd = &g->nodes[j];
		const struct nvc_tensor *o, *w;

		if (!corrected(nd))
			continue;
		o = &g->tensors[nd->outputs[0]];
		w = &g->tensors[nd->conv.weights];
		b->sum[j] = calloc(o->c, sizeof(double));
		if (!b->sum[j])
			return -ENOMEM;
		wmax = MAX(wmax, (size_t)nvc_tensor_size(w) + w->n);
		ymax = MAX(ymax, (size_t)nvc_tensor_size(o));
	}
	b->err_w = malloc((wmax ? wmax : 1) * sizeof(float));
	b->y = malloc((ymax ? ymax : 1) * sizeof(float));
	return b->err_w && b->y ? 0 : -ENOMEM;
}

/* Each measured convolution's bias, minus its mean error, as a new tensor. */
static int apply(struct bias *b)
{
	struct nvc_graph *g = b->g;
	char *dead;
	int j, k, t;

	for (j = 0; j < g->num_nodes; j++) {
		struct nvc_node *nd = &g->nodes[j];
		int n = g->tensors[nd->outputs[0]].c, old = nd->conv.bias;

		if (!b->sum[j])
			continue;
		t = nvc_tensor_zeros(g, nd->name, 1, n, 1, 1);
		if (t < 0)
			return t;
		for (k = 0; k < n; k++)
			g->tensors[t].data[k] = (old >= 0 ? g->tensors[old].data[k] : 0) -
						(float)(b->sum[j][k] / b->images);
		nd->conv.bias = t;
	}
	/* Drop the biases no node reads any more. */
	dead = calloc(g->num_nodes ? g->num_nodes : 1, 1);
	if (!dead)
		return -ENOMEM;
	j = nvc_graph_compact(g, dead);
	free(dead);
	return j;
}

int nvc_bias_correct(struct nvc_graph *g, const char *dir,
		     const struct nvc_calib_options *o, char *err,
		     size_t errlen)
{
	struct bias b = { .g = g, .err = err, .errlen = errlen };
	int j, ret;

	ret = buffers(&b);
	if (ret)
		ret = nvc_error(err, errlen, ret, "out of memory");
	if (!ret)
		ret = nvc_calib_each(g, dir, o, each_image, &b, err, errlen);
	if (!ret && b.images) {
		ret = apply(&b);
		if (ret)
			nvc_error(err, errlen, ret, "out of memory");
	}
	for (j = 0; b.sum && j < g->num_nodes; j++)
		free(b.sum[j]);
	free(b.sum);
	free(b.err_w);
	free(b.y);
	return ret;
}
