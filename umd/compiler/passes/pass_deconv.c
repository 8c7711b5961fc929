// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Transposed convolutions for the back end, which computes one only when
 * its kernel is its stride, in one group, without padding or dilation
 * (lower_deconv.c). Of 1-D data each axis below is its length alone. Any
 * other one, y[o] = sum over i, t with o = s i + d t - p of x[i] w[t]
 * (stride s, dilation d, padding p before and p' after, output padding
 * q, kernel k), becomes:
 * - in one group without padding, where d (k - 1) + 1 + q = s: itself
 *   with its kernel zero-extended to the stride (its taps d apart);
 * - else, of stride 1, a convolution of x with the kernel flipped, its
 *   channel axes swapped in each group, dilation d and padding
 *   d (k - 1) - p before and d (k - 1) - p' + q after;
 * - else the zero insertion z[s i] = x[i], 0 between (s H x s W): a
 *   transposed convolution whose kernel is its stride, weight 1 from
 *   each channel to itself at tap (0, 0) and 0 elsewhere, exact in fp16
 *   and int8 (z keeps x's range), then that convolution of z, its
 *   padding after less the s - 1 zeros z ends with.
 * A padding that comes out negative (p beyond d (k - 1)) takes zero taps
 * added to the kernel on its side, each adding d to it: the output size
 * stays that of the ConvTranspose. The zero insertion makes the
 * convolution multiply s^2 times as many values as a decomposition into
 * s^2 output phases would, most of them zeros; the back end computes it
 * as it computes any convolution.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "graph.h"

/* Whether @a with its kernel zero-extended to the stride computes it. */
static bool extends_to_stride(const struct nvc_conv_attr *a)
{
	int i, k;

	if (a->group != 1 || a->pad[0] || a->pad[1] || a->pad[2] || a->pad[3])
		return false;
	for (i = 0; i < 2; i++) {
		k = i ? a->kw : a->kh;
		if (a->dilation[i] * (k - 1) + 1 + a->out_pad[i] != a->stride[i])
			return false;
	}
	return true;
}

/* A constant of zeros named "NODE/@what": its index, or -ENOMEM. */
static int zeros(struct nvc_graph *g, int node, const char *what, int n,
		 int c, int h, int w)
{
	char name[NVC_ERR_LEN];

	snprintf(name, sizeof(name), "%s/%s", g->nodes[node].name, what);
	return nvc_tensor_zeros(g, name, n, c, h, w);
}

/* Node @i, its kernel zero-extended to its stride. */
static int extend_to_stride(struct nvc_graph *g, int i)
{
	struct nvc_conv_attr *a = &g->nodes[i].conv;
	int sy = a->stride[0], sx = a->stride[1], t, m, r, s;
	const struct nvc_tensor *w = &g->tensors[a->weights];

	t = zeros(g, i, "extended", w->n, w->c, sy, sx);
	if (t < 0)
		return t;
	w = &g->tensors[a->weights];	/* the tensors may have moved */
	for (m = 0; m < w->n * w->c; m++)
		for (r = 0; r < a->kh; r++)
			for (s = 0; s < a->kw; s++)
				g->tensors[t].data[((size_t)m * sy +
						    r * a->dilation[0]) * sx +
						   s * a->dilation[1]] =
					w->data[((size_t)m * a->kh + r) * a->kw + s];
	*a = (struct nvc_conv_attr){ .kh = sy, .kw = sx, .stride = { sy, sx },
		.dilation = { 1, 1 }, .group = 1, .weights = t,
		.bias = a->bias };
	return 0;
}

/*
 * The stride-1 convolution's window on each axis: kernel, zero taps
 * before the flipped one, padding.
 */
struct flipped {
	int k[2], lead[2], pad[4];
};

static struct flipped flipped(const struct nvc_conv_attr *a)
{
	struct flipped f;
	int i, k, d, lo, hi, elo, ehi;

	for (i = 0; i < 2; i++) {
		k = i ? a->kw : a->kh;
		d = a->dilation[i];
		lo = d * (k - 1) - a->pad[i];
		hi = d * (k - 1) - a->pad[i + 2] + a->out_pad[i] -
		     (a->stride[i] - 1);
		elo = lo < 0 ? (-lo + d - 1) / d : 0;
		ehi = hi < 0 ? (-hi + d - 1) / d : 0;
		f.k[i] = k + elo + ehi;
		f.lead[i] = elo;
		f.pad[i] = lo + elo * d;
		f.pad[i + 2] = hi + ehi * d;
	}
	return f;
}

/*
 * Node @i, reading @in (its input, or the zero insertion of it): the
 * convolution of stride 1 with the kernel flipped, its channel axes
 * swapped in each group (C x K/group x kh x kw into K x C/group x
 * kh' x kw').
 */
static int flip(struct nvc_graph *g, int i, int in)
{
	struct nvc_conv_attr *a = &g->nodes[i].conv;
	const struct flipped f = flipped(a);
	const struct nvc_tensor *w = &g->tensors[a->weights];
	int kg = w->c, cg = w->n / a->group, t, k, c, r, s;
	float *d;

	t = zeros(g, i, "flipped", kg * a->group, cg, f.k[0], f.k[1]);
	if (t < 0)
		return t;
	w = &g->tensors[a->weights];	/* the tensors may have moved */
	d = g->tensors[t].data;
	for (k = 0; k < kg * a->group; k++)
		for (c = 0; c < cg; c++)
			for (r = 0; r < a->kh; r++)
				for (s = 0; s < a->kw; s++)
					d[(((size_t)k * cg + c) * f.k[0] +
					   f.lead[0] + a->kh - 1 - r) * f.k[1] +
					  f.lead[1] + a->kw - 1 - s] =
						w->data[((((size_t)k / kg * cg + c) *
							   kg + k % kg) * a->kh + r) *
							a->kw + s];
	g->nodes[i].op = NVC_CONV;
	g->nodes[i].inputs[0] = in;
	*a = (struct nvc_conv_attr){ .kh = f.k[0], .kw = f.k[1],
		.stride = { 1, 1 }, .dilation = { a->dilation[0], a->dilation[1] },
		.pad = { f.pad[0], f.pad[1], f.pad[2], f.pad[3] },
		.group = a->group, .weights = t, .bias = a->bias };
	return 0;
}

/* The range int8 gives tensor @t: its own, or that of what it aliases. */
static const struct nvc_tensor *range_of(const struct nvc_graph *g, int t)
{
	int n = 0;

	while (!g->tensors[t].calibrated && g->tensors[t].alias_of >= 0 &&
	       n++ < g->num_tensors)
		t = g->tensors[t].alias_of;
	return &g->tensors[t];
}

/*
 * Before node @i, the zero insertion of its input by its stride, into a
 * new tensor at the input's range: its index, or -ENOMEM. Node @i moves
 * to @i + 1.
 */
static int zero_insertion(struct nvc_graph *g, int i)
{
	int x = g->nodes[i].inputs[0], sy = g->nodes[i].conv.stride[0];
	int sx = g->nodes[i].conv.stride[1], c = g->tensors[x].c;
	const struct nvc_tensor *r;
	struct nvc_node *nd;
	char name[NVC_ERR_LEN];
	int z, w, k;

	snprintf(name, sizeof(name), "%s/zeros", g->nodes[i].name);
	z = nvc_tensor_add(g, name, 1, c, g->tensors[x].h * sy,
			   g->tensors[x].w * sx, NULL);
	w = z < 0 ? z : zeros(g, i, "insert", c, c, sy, sx);
	if (w < 0)
		return w;
	for (k = 0; k < c; k++)
		g->tensors[w].data[((size_t)k * c + k) * sy * sx] = 1;
	r = range_of(g, x);
	g->tensors[z].calibrated = r->calibrated;
	g->tensors[z].min = r->min;
	g->tensors[z].max = r->max;
	k = nvc_node_insert(g, i, name, g->nodes[i].onnx_op,
			    NVC_CONV_TRANSPOSE);
	if (k < 0)
		return k;
	nd = &g->nodes[i];
	nd->num_inputs = 1;
	nd->inputs[0] = x;
	nd->num_outputs = 1;
	nd->outputs[0] = z;
	nd->conv = (struct nvc_conv_attr){ .kh = sy, .kw = sx,
		.stride = { sy, sx }, .dilation = { 1, 1 }, .group = 1,
		.weights = w, .bias = -1 };
	g->tensors[z].producer = i;
	return z;
}

static int rewrite(struct nvc_graph *g, int *i)
{
	const struct nvc_conv_attr *a = &g->nodes[*i].conv;
	int z;

	if (extends_to_stride(a))
		return extend_to_stride(g, *i);
	if (a->stride[0] == 1 && a->stride[1] == 1)
		return flip(g, *i, g->nodes[*i].inputs[0]);
	z = zero_insertion(g, *i);
	if (z < 0)
		return z;
	return flip(g, ++*i, z);
}

int nvc_deconv_rewrite(struct nvc_graph *g, char *err, size_t errlen)
{
	int i, ret, n = 0;

	for (i = 0; i < g->num_nodes; i++) {
		if (g->nodes[i].op != NVC_CONV_TRANSPOSE ||
		    nvc_deconv_as_is(&g->nodes[i].conv))
			continue;
		ret = rewrite(g, &i);
		if (ret)
			return nvc_error(err, errlen, ret, "out of memory");
		n++;
	}
	nvc_decide_fusion(g);
	/* What it made: each output the size graph_check's formula gives. */
	return n ? nvc_graph_check(g, err, errlen) : 0;
}
