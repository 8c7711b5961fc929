// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Cross-layer equalization (Nagel et al., "Data-Free Quantization Through
 * Weight Equalization and Bias Correction", 2019). For convolutions A and
 * B where B alone reads A's output through an activation f with
 * f(x / s) = f(x) / s for s > 0 (and maybe a pooling, likewise),
 * dividing A's output channel c (its kernel and bias) by s_c and
 * multiplying what B reads of channel c by s_c computes the same. With
 * s_c = sqrt(r1_c / r2_c), r1_c the largest |weight| of A's kernel c and
 * r2_c that of B's weights on channel c, both become sqrt(r1_c r2_c):
 * A's output channels, one per-tensor int8 scale, come to similar
 * ranges, and so do B's input channels within each of its kernels (one
 * scale per kernel). Chains (B the A of the next pair) are swept until
 * the scales settle. From calibration data, the channel's largest
 * |value| takes r1_c's place.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "quality.h"

#define SWEEPS 64		/* at most, over all pairs */
#define SETTLED 1e-4		/* largest |log s| of a sweep that ends it */

struct pair {
	int a, b;		/* node indices */
};

/* Whether @a commutes with positive per-channel scaling (in @mode). */
static bool homogeneous(const struct nvc_activation *a,
			enum nvc_equalize mode)
{
	switch (a->type) {
	case NVC_ACT_NONE:
	case NVC_ACT_RELU:
	case NVC_ACT_LEAKY:
	case NVC_ACT_PRELU:
		return true;
	case NVC_ACT_CLIP:
		return mode == NVC_EQ_RELU6 && a->min == 0;
	default:
		return false;
	}
}

/*
 * The node that alone reads what convolution @a computes, past a pooling
 * that alone reads it (max and average commute with positive scaling
 * too), or -1.
 */
static int consumer(const struct nvc_graph *g, int a, enum nvc_equalize mode)
{
	int r = nvc_sole_reader(g, g->nodes[a].outputs[0]);

	if (r >= 0 && g->nodes[r].op == NVC_POOL &&
	    g->nodes[r].num_outputs == 1 && homogeneous(&g->nodes[r].act, mode))
		r = nvc_sole_reader(g, g->nodes[r].outputs[0]);
	return r;
}

static bool pair_ok(const struct nvc_graph *g, int a, int b,
		    enum nvc_equalize mode)
{
	const struct nvc_node *na = &g->nodes[a], *nb = &g->nodes[b];

	return na->op == NVC_CONV && nb->op == NVC_CONV &&
	       homogeneous(&na->act, mode);
}

/* Which input channels of B's kernel k are channel c: per group. */
struct bview {
	int cpg, kpg;		/* input channels, kernels a group */
	size_t taps, per;	/* kh x kw; values a kernel */
};

static struct bview bview(const struct nvc_graph *g, const struct nvc_node *b)
{
	const struct nvc_tensor *w = &g->tensors[b->conv.weights];
	struct bview v = { .cpg = w->c, .kpg = w->n / b->conv.group };

	v.taps = (size_t)w->h * w->w;
	v.per = v.taps * w->c;
	return v;
}

/* Largest |weight| of B on its input channel @c. */
static float b_range(const struct nvc_graph *g, const struct nvc_node *b,
		     int c)
{
	struct bview v = bview(g, b);
	const float *w = g->tensors[b->conv.weights].data;
	int grp = c / v.cpg, k;
	size_t i;
	float r = 0;

	for (k = grp * v.kpg; k < (grp + 1) * v.kpg; k++)
		for (i = 0; i < v.taps; i++)
			r = fmaxf(r, fabsf(w[k * v.per + (c % v.cpg) * v.taps + i]));
	return r;
}

static void b_scale(struct nvc_graph *g, const struct nvc_node *b, int c,
		    float s)
{
	struct bview v = bview(g, b);
	float *w = g->tensors[b->conv.weights].data;
	int grp = c / v.cpg, k;
	size_t i;

	for (k = grp * v.kpg; k < (grp + 1) * v.kpg; k++)
		for (i = 0; i < v.taps; i++)
			w[k * v.per + (c % v.cpg) * v.taps + i] *= s;
}

/* Kernel @c of A: its largest |weight|, or its weights and bias / @s. */
static float a_range(const struct nvc_graph *g, const struct nvc_node *a,
		     int c)
{
	const struct nvc_tensor *w = &g->tensors[a->conv.weights];
	size_t per = (size_t)w->c * w->h * w->w, i;
	float r = 0;

	for (i = 0; i < per; i++)
		r = fmaxf(r, fabsf(w->data[c * per + i]));
	return r;
}

static void a_scale(struct nvc_graph *g, const struct nvc_node *a, int c,
		    float s)
{
	struct nvc_tensor *w = &g->tensors[a->conv.weights];
	size_t per = (size_t)w->c * w->h * w->w, i;

	for (i = 0; i < per; i++)
		w->data[c * per + i] /= s;
	if (a->conv.bias >= 0)
		g->tensors[a->conv.bias].data[c] /= s;
}

/* One sweep over pair @p: the largest |log s| it applied. */
static double equalize_pair(struct nvc_graph *g, const struct pair *p)
{
	const struct nvc_node *a = &g->nodes[p->a], *b = &g->nodes[p->b];
	int c, n = g->tensors[a->outputs[0]].c;
	double most = 0;

	for (c = 0; c < n; c++) {
		float r1 = a_range(g, a, c), r2 = b_range(g, b, c), s;

		if (!(r1 > 0) || !(r2 > 0))
			continue;
		s = sqrtf(r1 / r2);
		if (!isfinite(s) || s == 0)
			continue;
		a_scale(g, a, c, s);
		b_scale(g, b, c, s);
		most = fmax(most, fabs(log(s)));
	}
	return most;
}

/*
 * Constant @*t of node @nd as a tensor of its own (torch shares equal
 * initializers, such as zero biases, between layers): a copy if any
 * other reference to it exists.
 */
static int own(struct nvc_graph *g, int *t, int refs)
{
	int k;

	if (*t < 0 || refs <= 1)
		return 0;
	k = nvc_tensor_copy(g, *t, "equalized");
	if (k < 0)
		return k;
	*t = k;
	return 0;
}

static int count_refs(const struct nvc_graph *g, int t)
{
	int i, n = 0;

	for (i = 0; i < g->num_nodes; i++) {
		const struct nvc_node *nd = &g->nodes[i];

		if (nd->op == NVC_CONV || nd->op == NVC_CONV_TRANSPOSE)
			n += (nd->conv.weights == t) + (nd->conv.bias == t);
		else if (nd->op == NVC_AFFINE)
			n += (nd->affine.scale == t) + (nd->affine.shift == t);
		n += nd->act.type == NVC_ACT_PRELU && nd->act.slope == t;
	}
	return n;
}

/* Give every constant the pairs rewrite a tensor of its own. */
static int own_constants(struct nvc_graph *g, const struct pair *pairs,
			 int n)
{
	int i, ret = 0;

	for (i = 0; i < n && !ret; i++) {
		struct nvc_conv_attr *a = &g->nodes[pairs[i].a].conv;
		struct nvc_conv_attr *b = &g->nodes[pairs[i].b].conv;

		ret = own(g, &a->weights, count_refs(g, a->weights));
		if (!ret)
			ret = own(g, &a->bias, count_refs(g, a->bias));
		if (!ret)
			ret = own(g, &b->weights, count_refs(g, b->weights));
	}
	return ret;
}

/* The equalized pairs' Clip(0, M) become ReLU (NVC_EQ_RELU6). */
static void clips_to_relu(struct nvc_graph *g, const struct pair *pairs,
			  int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct nvc_activation *act = &g->nodes[pairs[i].a].act;

		if (act->type == NVC_ACT_CLIP) {
			act->type = NVC_ACT_RELU;
			act->max = INFINITY;
		}
	}
}

/* Per pair, the largest |value| of each channel B reads, over the data. */
struct act_ranges {
	const struct nvc_graph *g;
	const struct pair *pairs;
	int n;
	float **amax;
};

static int gather(void *ctx, float *const *values)
{
	struct act_ranges *r = ctx;
	int i, c;
	long k;

	for (i = 0; i < r->n; i++) {
		int in = r->g->nodes[r->pairs[i].b].inputs[0];
		const struct nvc_tensor *t = &r->g->tensors[in];
		long hw = (long)t->h * t->w;

		for (c = 0; c < t->c; c++)
			for (k = 0; k < hw; k++)
				r->amax[i][c] = fmaxf(r->amax[i][c],
						      fabsf(values[in][c * hw + k]));
	}
	return 0;
}

/*
 * One pass over the pairs with channel ranges from the data: s_c =
 * sqrt(a_c / r2_c) makes the activation's range a_c / s_c and B's
 * weights' r2_c s_c the same. A pair's scaling changes neither what the
 * others measured nor their weights on the channels they scale, so one
 * pass settles.
 */
static int equalize_data(struct nvc_graph *g, const struct pair *pairs,
			 int n, const char *dir,
			 const struct nvc_calib_options *o, char *err,
			 size_t errlen)
{
	struct act_ranges r = { .g = g, .pairs = pairs, .n = n };
	int i, c, ret = 0;

	r.amax = calloc(n ? n : 1, sizeof(*r.amax));
	for (i = 0; r.amax && i < n && !ret; i++) {
		r.amax[i] = calloc(g->tensors[g->nodes[pairs[i].b].inputs[0]].c,
				   sizeof(float));
		ret = r.amax[i] ? 0 : -ENOMEM;
	}
	if (!r.amax || ret)
		ret = nvc_error(err, errlen, -ENOMEM, "out of memory");
	if (!ret)
		ret = nvc_calib_each(g, dir, o, gather, &r, err, errlen);
	for (i = 0; !ret && i < n; i++) {
		const struct nvc_node *a = &g->nodes[pairs[i].a];
		const struct nvc_node *b = &g->nodes[pairs[i].b];

		for (c = 0; c < g->tensors[a->outputs[0]].c; c++) {
			float r2 = b_range(g, b, c), s;

			if (!(r.amax[i][c] > 0) || !(r2 > 0))
				continue;
			s = sqrtf(r.amax[i][c] / r2);
			if (!isfinite(s) || s == 0)
				continue;
			a_scale(g, a, c, s);
			b_scale(g, b, c, s);
		}
	}
	for (i = 0; r.amax && i < n; i++)
		free(r.amax[i]);
	free(r.amax);
	return ret;
}

int nvc_equalize(struct nvc_graph *g, enum nvc_equalize mode,
		 const char *dir, const struct nvc_calib_options *o, char *err,
		 size_t errlen)
{
	struct pair *pairs = calloc(g->num_nodes ? g->num_nodes : 1,
				    sizeof(*pairs));
	int i, b, n = 0, sweep, ret;
	double most = INFINITY;

	if (!pairs)
		return nvc_error(err, errlen, -ENOMEM, "out of memory");
	for (i = 0; mode != NVC_EQ_NONE && i < g->num_nodes; i++) {
		if (g->nodes[i].op != NVC_CONV || g->nodes[i].num_outputs != 1)
			continue;
		b = consumer(g, i, mode);
		if (b >= 0 && pair_ok(g, i, b, mode))
			pairs[n++] = (struct pair){ i, b };
	}
	ret = own_constants(g, pairs, n);
	if (ret) {
		free(pairs);
		return nvc_error(err, errlen, ret, "out of memory");
	}
	clips_to_relu(g, pairs, n);
	if (dir && n) {
		ret = equalize_data(g, pairs, n, dir, o, err, errlen);
		free(pairs);
		return ret ? ret : n;
	}
	for (sweep = 0; sweep < SWEEPS && most > SETTLED; sweep++)
		for (i = 0, most = 0; i < n; i++)
			most = fmax(most, equalize_pair(g, &pairs[i]));
	free(pairs);
	return n;
}
