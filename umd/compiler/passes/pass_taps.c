// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Kernel rows and columns that read only padding, for every output, add
 * nothing. A convolution padded beyond what the hardware pads loses those
 * at its edges, and its padding with them: DeepLabv3's atrous pooling
 * (dilation and padding 36 over a map smaller than 36) keeps its centre
 * tap alone. Any other convolution keeps its kernel, so that what the
 * hardware computes as it is stays as it was.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"

/*
 * Whether tap @t of an axis reads the input (@in values) for some output
 * (@out values): o s - @before + t d in [0, in) for an o in [0, out).
 */
static bool tap_live(int t, int in, int out, int s, int d, int before)
{
	long lo = (long)t * d - before;
	long o = lo < 0 ? (-lo + s - 1) / s : 0;

	return o < out && lo + o * s < in;
}

/*
 * The live taps of axis @i (0 rows, 1 columns) of node @n from *@a to
 * *@b; false where the trim is not worth or not possible (no padding
 * beyond the hardware's on the axis, no tap live, or a padding it would
 * make negative).
 */
static bool axis_trim(const struct nvc_graph *g, const struct nvc_node *n,
		      int i, int *a, int *b)
{
	const struct nvc_conv_attr *c = &n->conv;
	const struct nvc_tensor *x = &g->tensors[n->inputs[0]];
	const struct nvc_tensor *y = &g->tensors[n->outputs[0]];
	int k = i ? c->kw : c->kh, in = i ? x->w : x->h, out = i ? y->w : y->h;
	int s = c->stride[i], d = c->dilation[i];
	int before = c->pad[i], after = c->pad[i + 2];

	if (before <= NVC_CONV_PAD_MAX && after <= NVC_CONV_PAD_MAX)
		return false;
	for (*a = 0; *a < k && !tap_live(*a, in, out, s, d, before); ++*a)
		;
	for (*b = k - 1; *b >= *a && !tap_live(*b, in, out, s, d, before); --*b)
		;
	return *a <= *b && before - *a * d >= 0 &&
	       after - (k - 1 - *b) * d >= 0 && (*a || *b < k - 1);
}

/* Node @j's kernel cut to rows @r0..@r1 and columns @c0..@c1. */
static int trim(struct nvc_graph *g, int j, int r0, int r1, int c0, int c1)
{
	struct nvc_conv_attr *c = &g->nodes[j].conv;
	const struct nvc_tensor *w = &g->tensors[c->weights];
	int kh = r1 - r0 + 1, kw = c1 - c0 + 1, n = w->n * w->c, t, p, r;
	char name[NVC_ERR_LEN];
	float *data;

	data = malloc((size_t)n * kh * kw * sizeof(*data));
	if (!data)
		return -ENOMEM;
	for (p = 0; p < n; p++)
		for (r = 0; r < kh; r++)
			memcpy(data + ((size_t)p * kh + r) * kw,
			       w->data + ((size_t)p * c->kh + r0 + r) * c->kw + c0,
			       (size_t)kw * sizeof(*data));
	snprintf(name, sizeof(name), "%s/taps", g->nodes[j].name);
	t = nvc_tensor_add(g, name, w->n, w->c, kh, kw, data);
	free(data);
	if (t < 0)
		return t;
	c->weights = t;
	c->pad[0] -= r0 * c->dilation[0];
	c->pad[2] -= (c->kh - 1 - r1) * c->dilation[0];
	c->pad[1] -= c0 * c->dilation[1];
	c->pad[3] -= (c->kw - 1 - c1) * c->dilation[1];
	c->kh = kh;
	c->kw = kw;
	/* One tap has no spacing: 36 is beyond the hardware's dilation. */
	if (kh == 1)
		c->dilation[0] = 1;
	if (kw == 1)
		c->dilation[1] = 1;
	return 0;
}

int nvc_trim_taps(struct nvc_graph *g, char *err, size_t errlen)
{
	int j, r0, r1, c0, c1, ret;
	bool rows, cols;

	for (j = 0; j < g->num_nodes; j++) {
		const struct nvc_node *n = &g->nodes[j];

		if (n->op != NVC_CONV || !g->tensors[n->conv.weights].data)
			continue;
		rows = axis_trim(g, n, 0, &r0, &r1);
		cols = axis_trim(g, n, 1, &c0, &c1);
		if (!rows && !cols)
			continue;
		ret = trim(g, j, rows ? r0 : 0, rows ? r1 : n->conv.kh - 1,
			   cols ? c0 : 0, cols ? c1 : n->conv.kw - 1);
		if (ret)
			return nvc_error(err, errlen, ret, "out of memory");
	}
	return 0;
}
