// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Graph passes, in order: chains of affines (BatchNormalization, Mul and
 * Add by constants) into one; an affine into the convolution before it;
 * activations into the node that computes their input; channel
 * selections (a shuffle, the one read part of a Split of it) into what
 * reads them; convolutions reading a reshape read the original tensor
 * where that is the same computation (a fully connected layer after
 * Flatten becomes a convolution with the whole plane as kernel), and a
 * reshape to the same shape is absorbed by its producer; then what
 * nothing reads is dropped, and the element-wise operations the SDP of a
 * convolution computes are marked (fuse.c).
 * A node is folded into its producer only when it is the producer's sole
 * reader and the tensor between them is not a graph output (a selection
 * folds into each of its readers instead).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/firmware.h>

#include "graph.h"

struct pass {
	struct nvc_graph *g;
	char *dead;		/* per node */
	int *readers;		/* per tensor: live nodes reading it, +1 if output */
	bool sdp_y;		/* the target's SDP has Y */
	char *err;
	size_t errlen;
};

static void count_readers(struct pass *p)
{
	struct nvc_graph *g = p->g;
	int i, j;

	memset(p->readers, 0, g->num_tensors * sizeof(*p->readers));
	for (i = 0; i < g->num_outputs; i++)
		p->readers[g->outputs[i]]++;
	for (i = 0; i < g->num_nodes; i++)
		for (j = 0; !p->dead[i] && j < g->nodes[i].num_inputs; j++)
			p->readers[g->nodes[i].inputs[j]]++;
}

/* The producer of node @j's input, if @j is its sole reader, else NULL. */
static struct nvc_node *sole_producer(struct pass *p, int j)
{
	struct nvc_graph *g = p->g;
	int t = g->nodes[j].inputs[0], i = g->tensors[t].producer;

	if (i < 0 || p->dead[i] || p->readers[t] != 1 ||
	    g->nodes[i].num_outputs != 1 || g->nodes[j].num_inputs != 1)
		return NULL;
	return &g->nodes[i];
}

/* Node @j's output becomes the output of @prod, which absorbed @j. */
static void absorb(struct pass *p, struct nvc_node *prod, int j)
{
	struct nvc_node *nd = &p->g->nodes[j];

	prod->outputs[0] = nd->outputs[0];
	p->g->tensors[nd->outputs[0]].producer = prod - p->g->nodes;
	if (nd->act.type != NVC_ACT_NONE)
		prod->act = nd->act;
	p->dead[j] = 1;
}

static float affine_value(const struct nvc_graph *g, int t, int c, float def)
{
	return t >= 0 ? g->tensors[t].data[c] : def;
}

/* A new per-channel constant of @c values named after @name and @what. */
static int vector(struct pass *p, const char *name, const char *what, int c,
		  float **data)
{
	char buf[NVC_ERR_LEN];
	int t;

	snprintf(buf, sizeof(buf), "%s/%s", name, what);
	t = nvc_tensor_zeros(p->g, buf, 1, c, 1, 1);
	if (t < 0)
		return nvc_error(p->err, p->errlen, t, "out of memory");
	*data = p->g->tensors[t].data;
	return t;
}

/* y = (x * s1 + h1) * s2 + h2 as one affine in node @j. */
static int merge_affines(struct pass *p, struct nvc_node *first, int j)
{
	struct nvc_graph *g = p->g;
	struct nvc_node *nd = &g->nodes[j];
	int c = g->tensors[nd->outputs[0]].c, st, ht, k;
	float *s, *h;

	st = vector(p, nd->name, "scale", c, &s);
	if (st < 0)
		return st;
	ht = vector(p, nd->name, "shift", c, &h);
	if (ht < 0)
		return ht;
	nd = &g->nodes[j];
	for (k = 0; k < c; k++) {
		float s2 = affine_value(g, nd->affine.scale, k, 1);

		s[k] = affine_value(g, first->affine.scale, k, 1) * s2;
		h[k] = affine_value(g, first->affine.shift, k, 0) * s2 +
		       affine_value(g, nd->affine.shift, k, 0);
	}
	first->affine.scale = st;
	first->affine.shift = ht;
	absorb(p, first, j);
	return 0;
}

/* A copy of constant @t with a new name: the caller rewrites its data. */
static int copy_constant(struct pass *p, int t, const char *what)
{
	int k = nvc_tensor_copy(p->g, t, what);

	if (k < 0)
		return nvc_error(p->err, p->errlen, k, "out of memory");
	return k;
}

/* Weights and bias of convolution @conv times the affine of node @j. */
static int fold_into_conv(struct pass *p, struct nvc_node *conv, int j)
{
	struct nvc_graph *g = p->g;
	int kk = g->tensors[conv->outputs[0]].c, wt, bt, c, k, cin;
	long block;
	float *w, *b;

	wt = copy_constant(p, conv->conv.weights, "folded");
	if (wt < 0)
		return wt;
	bt = vector(p, g->nodes[j].name, "bias", kk, &b);
	if (bt < 0)
		return bt;
	w = g->tensors[wt].data;
	block = (long)conv->conv.kh * conv->conv.kw;
	cin = g->tensors[wt].n;
	for (k = 0; k < kk; k++) {
		const struct nvc_node *a = &g->nodes[j];
		float s = affine_value(g, a->affine.scale, k, 1);

		b[k] = affine_value(g, conv->conv.bias, k, 0) * s +
		       affine_value(g, a->affine.shift, k, 0);
		if (conv->op == NVC_CONV) {
			long n = g->tensors[wt].c * block, i;

			for (i = 0; i < n; i++)
				w[k * n + i] *= s;
			continue;
		}
		/*
		 * Transposed: weights C x K/group; output k is column
		 * k % (K/group) of its group's rows.
		 */
		for (c = 0; c < cin; c++) {
			int kg = g->tensors[wt].c, cg = cin / conv->conv.group;
			long i;

			if (c / cg != k / kg)
				continue;
			for (i = 0; i < block; i++)
				w[((long)c * kg + k % kg) * block + i] *= s;
		}
	}
	conv->conv.weights = wt;
	conv->conv.bias = bt;
	absorb(p, conv, j);
	return 0;
}

static int fold_affines(struct pass *p)
{
	struct nvc_graph *g = p->g;
	int j, ret;

	for (j = 0; j < g->num_nodes; j++) {
		struct nvc_node *prod;

		if (p->dead[j] || g->nodes[j].op != NVC_AFFINE)
			continue;
		prod = sole_producer(p, j);
		if (!prod || prod->act.type != NVC_ACT_NONE)
			continue;
		if (prod->op == NVC_AFFINE)
			ret = merge_affines(p, prod, j);
		else if (prod->op == NVC_CONV || prod->op == NVC_CONV_TRANSPOSE)
			ret = fold_into_conv(p, prod, j);
		else
			continue;
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Whether node @i is a channel selection (a channel shuffle, or a copy of
 * channels): a live 1x1 convolution, no bias or activation, each of whose
 * outputs is one input channel times 1. Its picks into @map.
 */
static bool selection(const struct pass *p, int i, int *map)
{
	const struct nvc_graph *g = p->g;
	const struct nvc_node *nd;
	const struct nvc_conv_attr *a;
	const struct nvc_tensor *w;
	long k, c;

	if (i < 0)
		return false;
	nd = &g->nodes[i];
	a = &nd->conv;
	if (p->dead[i] || nd->op != NVC_CONV || a->kh != 1 ||
	    a->kw != 1 || a->stride[0] != 1 || a->stride[1] != 1 ||
	    a->pad[0] || a->pad[1] || a->pad[2] || a->pad[3] ||
	    a->group != 1 || a->bias >= 0 || nd->act.type != NVC_ACT_NONE)
		return false;
	w = &g->tensors[a->weights];
	for (k = 0; k < w->n; k++) {
		map[k] = -1;
		for (c = 0; c < w->c; c++) {
			float v = w->data[k * w->c + c];

			if (v != 0 && (v != 1 || map[k] >= 0))
				return false;
			if (v == 1)
				map[k] = (int)c;
		}
		if (map[k] < 0)
			return false;
	}
	return true;
}

/* A constant of @k x @c x @kh x @kw zeros named after node @j and @what. */
static int weights_new(struct pass *p, int j, const char *what, int k, int c,
		       int kh, int kw)
{
	char buf[NVC_ERR_LEN];
	int t;

	snprintf(buf, sizeof(buf), "%s/%s", p->g->nodes[j].name, what);
	t = nvc_tensor_zeros(p->g, buf, k, c, kh, kw);
	if (t < 0)
		return nvc_error(p->err, p->errlen, t, "out of memory");
	return t;
}

/*
 * A Split of a selection's output of which one part only is read (torch's
 * chunk as a Slice): that part becomes a selection of the selection's
 * input, in the Split's place.
 */
static int split_selection(struct pass *p, int j, int *map)
{
	struct nvc_graph *g = p->g;
	struct nvc_node *nd = &g->nodes[j];
	int in = nd->inputs[0], s = g->tensors[in].producer;
	int k, used = -1, coff = 0, off = 0, c, wt;

	if (p->dead[j] || nd->op != NVC_SPLIT || !selection(p, s, map))
		return 0;
	for (k = 0; k < nd->num_outputs; k++) {
		if (p->readers[nd->outputs[k]]) {
			if (used >= 0)
				return 0;
			used = k;
			off = coff;
		}
		coff += g->tensors[nd->outputs[k]].c;
	}
	if (used < 0)
		return 0;
	c = g->tensors[nd->outputs[used]].c;
	wt = weights_new(p, j, "picks", c, g->tensors[g->nodes[s].inputs[0]].c,
			 1, 1);
	if (wt < 0)
		return wt;
	nd = &g->nodes[j];
	for (k = 0; k < c; k++)
		g->tensors[wt].data[(long)k * g->tensors[wt].c + map[off + k]] = 1;
	nd->op = NVC_CONV;
	nd->inputs[0] = g->nodes[s].inputs[0];
	nd->outputs[0] = nd->outputs[used];
	nd->num_outputs = 1;
	nd->conv = (struct nvc_conv_attr){ .kh = 1, .kw = 1,
		.stride = { 1, 1 }, .dilation = { 1, 1 }, .group = 1,
		.weights = wt, .bias = -1 };
	return 0;
}

/*
 * A convolution (not grouped) reading a selection reads the selection's
 * input instead, its weights summed over the channels each input channel
 * was picked for.
 */
static int conv_selection(struct pass *p, int j, int *map)
{
	struct nvc_graph *g = p->g;
	struct nvc_node *nd = &g->nodes[j];
	int s = g->tensors[nd->inputs[0]].producer, wt, k, c, cin, kk;
	const struct nvc_tensor *w;
	long block, i;

	if (p->dead[j] || nd->op != NVC_CONV || nd->conv.group != 1 ||
	    !selection(p, s, map))
		return 0;
	w = &g->tensors[nd->conv.weights];
	cin = g->tensors[g->nodes[s].inputs[0]].c;
	wt = weights_new(p, j, "picked", w->n, cin, w->h, w->w);
	if (wt < 0)
		return wt;
	w = &g->tensors[g->nodes[j].conv.weights];
	block = (long)w->h * w->w;
	for (kk = 0; kk < w->n; kk++)
		for (c = 0; c < w->c; c++)
			for (i = 0; i < block; i++) {
				k = map[c];
				g->tensors[wt].data[((long)kk * cin + k) * block + i] +=
					w->data[((long)kk * w->c + c) * block + i];
			}
	nd = &g->nodes[j];
	nd->inputs[0] = g->nodes[s].inputs[0];
	nd->conv.weights = wt;
	return 0;
}

/*
 * Channel selections (ShuffleNet's shuffle, then its Slice of a half)
 * folded into what reads them: a read part of a Split becomes a selection
 * of its own, and a convolution takes a selection into its weights; the
 * selections nothing reads any more are dropped later.
 */
static int fold_selections(struct pass *p)
{
	struct nvc_graph *g = p->g;
	int *map, j, ret = 0, n = 1;

	for (j = 0; j < g->num_tensors; j++)
		if (g->tensors[j].c > n)
			n = g->tensors[j].c;
	map = malloc(n * sizeof(*map));
	if (!map)
		return nvc_error(p->err, p->errlen, -ENOMEM, "out of memory");
	for (j = 0; j < g->num_nodes && !ret; j++)
		ret = split_selection(p, j, map);
	for (j = 0; j < g->num_nodes && !ret; j++)
		ret = conv_selection(p, j, map);
	free(map);
	return ret;
}

/* Activations into the SDP operation computing their input. */
static void fuse_activations(struct pass *p)
{
	struct nvc_graph *g = p->g;
	int j;

	for (j = 0; j < g->num_nodes; j++) {
		struct nvc_node *prod;

		if (p->dead[j] || g->nodes[j].op != NVC_ACT)
			continue;
		prod = sole_producer(p, j);
		if (prod && nvc_fuses_activation(g, prod, &g->nodes[j],
						 p->sdp_y))
			absorb(p, prod, j);
	}
}

static int alias_root(const struct nvc_graph *g, int t)
{
	int n = 0;

	while (g->tensors[t].alias_of >= 0 && n++ < g->num_tensors)
		t = g->tensors[t].alias_of;
	return t;
}

/*
 * A 1x1 convolution of a C x 1 x 1 reshape of an H x W plane: the same
 * as a convolution of the plane with an H x W kernel (NCHW order).
 */
static void resolve_flatten(struct nvc_graph *g, struct nvc_node *nd, int r)
{
	const struct nvc_tensor *in = &g->tensors[nd->inputs[0]];
	const struct nvc_tensor *root = &g->tensors[r];
	struct nvc_conv_attr *a = &nd->conv;
	struct nvc_tensor *w = &g->tensors[a->weights];

	if (nd->op != NVC_CONV || a->kh != 1 || a->kw != 1 || a->group != 1 ||
	    a->stride[0] != 1 || a->stride[1] != 1 || a->pad[0] || a->pad[1] ||
	    a->pad[2] || a->pad[3] || in->h != 1 || in->w != 1 ||
	    (long)root->c * root->h * root->w != in->c)
		return;
	w->c = root->c;
	w->h = a->kh = root->h;
	w->w = a->kw = root->w;
	nd->inputs[0] = r;
}

/* A reshape to the same shape (Identity, Dropout) writing a graph output. */
static void absorb_identity(struct pass *p, int j)
{
	struct nvc_graph *g = p->g;
	struct nvc_node *nd = &g->nodes[j], *prod;
	struct nvc_tensor *in = &g->tensors[nd->inputs[0]];
	struct nvc_tensor *out = &g->tensors[nd->outputs[0]];

	if (nd->op != NVC_RESHAPE || in->c != out->c || in->h != out->h ||
	    in->w != out->w)
		return;
	prod = sole_producer(p, j);
	if (!prod)
		return;
	out->alias_of = -1;
	absorb(p, prod, j);
}

static void resolve_reshapes(struct pass *p)
{
	struct nvc_graph *g = p->g;
	int i, j;

	for (i = 0; i < g->num_nodes; i++) {
		struct nvc_node *nd = &g->nodes[i];

		if (!p->dead[i])
			absorb_identity(p, i);

		for (j = 0; !p->dead[i] && j < nd->num_inputs; j++) {
			const struct nvc_tensor *t = &g->tensors[nd->inputs[j]];
			int r = alias_root(g, nd->inputs[j]);
			const struct nvc_tensor *root = &g->tensors[r];

			if (r == nd->inputs[j])
				continue;
			if (root->c == t->c && root->h == t->h && root->w == t->w)
				nd->inputs[j] = r;
			else if (j == 0)
				resolve_flatten(g, nd, r);
		}
	}
}

/* Nodes none of whose outputs is read, last to first. */
static void drop_dead(struct pass *p)
{
	struct nvc_graph *g = p->g;
	int i, j, live;

	for (i = g->num_nodes - 1; i >= 0; i--) {
		const struct nvc_node *nd = &g->nodes[i];

		if (p->dead[i])
			continue;
		for (j = live = 0; j < nd->num_outputs; j++)
			live |= p->readers[nd->outputs[j]] > 0;
		if (live)
			continue;
		p->dead[i] = 1;
		for (j = 0; j < nd->num_inputs; j++)
			p->readers[nd->inputs[j]]--;
	}
}

int nvc_passes(struct nvc_graph *g, const struct dla_hw_config *hw,
	       char *err, size_t errlen)
{
	struct pass p = { .g = g, .sdp_y = !hw || hw->sdp_y, .err = err,
			  .errlen = errlen };
	int ret = -ENOMEM;

	ret = nvc_graph_check(g, err, errlen);
	if (!ret)
		ret = nvc_trim_taps(g, err, errlen);
	if (ret)
		return ret;
	p.dead = calloc(g->num_nodes + 1, 1);
	p.readers = NULL;
	if (!p.dead)
		goto out;
	/* Folding adds tensors: size the reader counts for the most it can. */
	p.readers = calloc(g->num_tensors + 2 * g->num_nodes + 1, sizeof(int));
	if (!p.readers)
		goto out;
	count_readers(&p);
	ret = fold_affines(&p);
	if (ret)
		goto out;
	count_readers(&p);
	fuse_activations(&p);
	count_readers(&p);
	ret = fold_selections(&p);
	if (ret)
		goto out;
	resolve_reshapes(&p);
	count_readers(&p);
	drop_dead(&p);
	ret = nvc_graph_compact(g, p.dead);
	if (!ret)
		ret = nvc_graph_check(g, err, errlen);
	if (!ret)
		nvc_decide_fusion(g);
out:
	if (ret == -ENOMEM)
		nvc_error(err, errlen, ret, "out of memory");
	free(p.dead);
	free(p.readers);
	return ret;
}
