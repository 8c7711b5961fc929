// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Token layout: a [1, T, D] tensor that MatMul contracts over its last
 * axis (a transformer's tokens) is the graph's D x T x 1, D the channels,
 * so that the MatMul is a 1x1 convolution, its bias and the affines after
 * it per channel, and a layer normalisation over D one over the channels.
 * Graph inputs and outputs keep the ONNX order (T x D x 1): the values
 * between the two layouts go through a CPU task that exchanges channels
 * and height (the DLA moves no data across that boundary), once per
 * tensor. Layer normalisation, as the LayerNormalization node of opset 17
 * or as the ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div torch writes
 * before, is a CPU task too; its scale and shift an affine on the DLA.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

int nvc_tokens_op(const char *op)
{
	static const char *const ops[] = { "Add", "Sub", "Mul", "Div", "Erf",
		"Relu", "LeakyRelu", "Sigmoid", "Tanh", "Clip", "HardSigmoid",
		"HardSwish", "MatMul", "LayerNormalization", "ReduceMean",
		"Transpose", NULL };
	int i;

	for (i = 0; ops[i]; i++)
		if (!strcmp(op, ops[i]))
			return 1;
	return 0;
}

/*
 * A CPU node named @name exchanging the channels and height of tensor
 * @in into a new tensor @out_name: the new tensor, or an error.
 */
static int swap_node(struct nvc_loader *l, const char *name, int in,
		     const char *out_name)
{
	struct nvc_graph *g = l->g;
	struct nvc_node *nd;
	int t, k;

	t = nvc_tensor_add(g, out_name, 1, g->tensors[in].h, g->tensors[in].c,
			   g->tensors[in].w, NULL);
	if (t < 0)
		return nvc_error(l->err, l->errlen, t, "out of memory");
	k = nvc_node_add(g, name, "Transpose", NVC_CPU);
	if (k < 0)
		return nvc_error(l->err, l->errlen, k, "out of memory");
	nd = &g->nodes[k];
	nd->cpu = NVC_CPU_SWAP_CH;
	nd->num_inputs = nd->num_outputs = 1;
	nd->inputs[0] = in;
	nd->outputs[0] = t;
	g->tensors[t].producer = k;
	return t;
}

int nvc_tokens_tensor(struct nvc_loader *l, struct nvc_value *x)
{
	char name[NVC_ERR_LEN];
	int t;

	if (x->tokens || x->rank != 3)
		return x->tensor;
	if (x->twin)
		return x->twin - 1;
	snprintf(name, sizeof(name), "%s/tokens", x->name);
	t = swap_node(l, name, x->tensor, name);
	if (t >= 0)
		x->twin = t + 1;
	return t;
}

int nvc_tokens_output(struct nvc_loader *l, struct nvc_value *v, int *t)
{
	char name[NVC_ERR_LEN];
	struct nvc_tensor *tt = &l->g->tensors[v->tensor];

	if (v->rank == 4)
		return nvc_error(l->err, l->errlen, -EINVAL,
				 "output '%s' is a channels-last [1, H, W, C] view (after a Transpose (0, 2, 3, 1)); only its Transpose (0, 3, 1, 2) back can be an output",
				 v->name);

	/* The output keeps its name; the tensor before it is renamed. */
	snprintf(name, sizeof(name), "%s/tokens", v->name);
	free(tt->name);
	tt->name = strdup(name);
	if (!tt->name)
		return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	*t = swap_node(l, v->name, v->tensor, v->name);
	return *t < 0 ? *t : 0;
}

int nvc_tokens_matmul(struct nvc_loader *l, struct nvc_value *x, int64_t n,
		      const float *w)
{
	int64_t dims[NVC_MAX_RANK];
	struct nvc_value *y;
	struct nvc_node *nd;
	int in, wt, k, ret;

	in = nvc_tokens_tensor(l, x);
	if (in < 0)
		return in;
	wt = nvc_const_tensor(l, "weights", n, x->dims[x->rank - 1], 1, 1, w);
	if (wt < 0)
		return wt;
	l->in_tokens = 1;
	memcpy(dims, x->dims, x->rank * sizeof(*dims));
	dims[x->rank - 1] = n;
	ret = nvc_output_act(l, 0, x->rank, dims, &y);
	if (ret)
		return ret;
	k = nvc_node_new(l, NVC_CONV, 1, &in, 1, &y->tensor);
	if (k < 0)
		return k;
	nd = &l->g->nodes[k];
	nd->conv = (struct nvc_conv_attr){ .kh = 1, .kw = 1,
		.stride = { 1, 1 }, .dilation = { 1, 1 }, .group = 1,
		.weights = wt, .bias = -1 };
	return 0;
}

/*
 * The CPU node normalising @x over its last axis (the channels of its
 * token layout, or of [1, C]) into tensor @out, or a new tensor named
 * after the node when @out is -1: the output tensor, or an error.
 */
static int layernorm_node(struct nvc_loader *l, struct nvc_value *x,
			  float eps, int out)
{
	const char *op = l->op;
	char name[NVC_ERR_LEN];
	int in, k;

	in = nvc_tokens_tensor(l, x);
	if (in < 0)
		return in;
	if (out < 0) {
		snprintf(name, sizeof(name), "%s/normalized", l->node_name);
		out = nvc_tensor_add(l->g, name, 1, l->g->tensors[in].c,
				     l->g->tensors[in].h, l->g->tensors[in].w,
				     NULL);
		if (out < 0)
			return nvc_error(l->err, l->errlen, out, "out of memory");
	}
	l->op = "LayerNormalization";
	k = nvc_node_new(l, NVC_CPU, 1, &in, 1, &out);
	l->op = op;
	if (k < 0)
		return k;
	l->g->nodes[k].cpu = NVC_CPU_LAYERNORM;
	l->g->nodes[k].cpu_eps = eps;
	return out;
}

/*
 * Over the last axis of [1, T, D], [1, C] or a channels-last view;
 * refused otherwise.
 */
static int last_axis_ok(struct nvc_loader *l, const struct nvc_value *x,
			int64_t axis)
{
	if ((x->rank != 2 && x->rank != 3 && !x->tokens) ||
	    (axis != -1 && axis != x->rank - 1))
		return nvc_node_error(l, -EINVAL,
				      "only a normalisation over the last axis of [1, T, D], [1, C] or [1, H, W, C] after a Transpose (0, 2, 3, 1) is supported (axis %lld of rank %d)",
				      (long long)axis, x->rank);
	return 0;
}

int nvc_op_layernorm(struct nvc_loader *l)
{
	static const char *const known[] = { "axis", "epsilon", "stash_type",
		NULL };
	struct nvc_value *x, *s, *b, xn;
	int64_t axis;
	float eps, *shift = NULL;
	int ret, t, c, i;

	ret = nvc_node_check(l, 2, 3, known);
	if (!ret)
		ret = nvc_attr_int(l, "axis", -1, &axis);
	if (!ret)
		ret = nvc_attr_float(l, "epsilon", 1e-5f, &eps);
	if (!ret)
		ret = nvc_input_act(l, 0, &x);
	if (!ret)
		ret = nvc_input_float(l, 1, &s);
	if (!ret)
		ret = nvc_input_float_opt(l, 2, &b);
	if (!ret)
		ret = last_axis_ok(l, x, axis);
	if (ret)
		return ret;
	c = x->dims[x->rank - 1];
	if (!(eps > 0) || isinf(eps))
		return nvc_node_error(l, -EINVAL, "epsilon %g is not positive",
				      eps);
	if (s->count != c || (b && b->count != c))
		return nvc_node_error(l, -EINVAL,
				      "scale or bias does not hold %d values", c);
	t = layernorm_node(l, x, eps, -1);
	if (t < 0)
		return t;
	xn = *x;
	xn.tensor = t;
	xn.tokens = x->rank == 3;
	l->in_tokens = xn.tokens;
	if (b) {
		shift = malloc(c * sizeof(*shift));
		if (!shift)
			return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
		for (i = 0; i < c; i++)
			shift[i] = b->f[i];
	}
	ret = nvc_affine_node(l, &xn, s->f, shift);
	free(shift);
	return ret;
}

/*
 * The nodes of the graph reading value @name into @k (at most @max); their
 * number, max + 1 when more, or when @name is a graph output.
 */
static int readers(const struct nvc_loader *l, const char *name, int *k,
		   int max)
{
	const Onnx__GraphProto *gp = l->gp;
	int n = 0;
	size_t i, j;

	if (nvc_is_graph_output(l, name))
		return max + 1;
	for (i = 0; i < gp->n_node; i++)
		for (j = 0; j < gp->node[i]->n_input; j++)
			if (!strcmp(gp->node[i]->input[j], name)) {
				if (n < max)
					k[n] = (int)i;
				n++;
				break;
			}
	return n;
}

/* Whether node @n is an @op node (a node may have no op_type at all). */
static int is_op(const Onnx__NodeProto *n, const char *op)
{
	return n->op_type && !strcmp(n->op_type, op);
}

/* The one reader of @name if it is an @op node, else -1. */
static int only_reader(const struct nvc_loader *l, const char *name,
		       const char *op)
{
	int k;

	if (readers(l, name, &k, 1) != 1 ||
	    !is_op(l->gp->node[k], op) || !l->gp->node[k]->n_output)
		return -1;
	return k;
}

/* Whether input @i of node @k is the FLOAT scalar constant; its value. */
static int scalar_input(struct nvc_loader *l, int k, size_t i, float *v)
{
	const Onnx__NodeProto *n = l->gp->node[k];
	struct nvc_value *c;

	if (i >= n->n_input)
		return 0;
	c = nvc_value_find(l, n->input[i]);
	if (!c || c->kind != VAL_FLOAT || c->count != 1)
		return 0;
	*v = c->f[0];
	return 1;
}

/* Whether attribute @a is named @name (an attribute may have no name). */
static int attr_is(const Onnx__AttributeProto *a, const char *name)
{
	return a->name && !strcmp(a->name, name);
}

/* Whether node @k is a ReduceMean over the last axis of rank @rank. */
static int mean_last(const struct nvc_loader *l, int k, int rank)
{
	const Onnx__NodeProto *n = l->gp->node[k];
	int axes = 0, keep = 1;
	size_t i;

	for (i = 0; i < n->n_attribute; i++) {
		const Onnx__AttributeProto *a = n->attribute[i];

		if (attr_is(a, "axes") && a->n_ints == 1 &&
		    (a->ints[0] == -1 || a->ints[0] == rank - 1))
			axes = 1;
		else if (attr_is(a, "keepdims"))
			keep = a->i == 1;
		else
			return 0;
	}
	return axes && keep && n->n_input == 1;
}

/*
 * The nodes after ReduceMean (the one mapped) of x - mean, its square's
 * mean plus eps, its root and the quotient, into @k: Sub, Pow, ReduceMean,
 * Add, Sqrt, Div; epsilon into @eps. 0 when they are not that pattern.
 */
static int pattern(struct nvc_loader *l, const struct nvc_value *x,
		   int *k, float *eps)
{
	Onnx__NodeProto *const *nd = l->gp->node;
	int two[2], i;
	float p;

	k[0] = only_reader(l, l->node->output[0], "Sub");
	if (k[0] < 0 || nd[k[0]]->n_input != 2 ||
	    strcmp(nd[k[0]]->input[0], x->name) ||
	    strcmp(nd[k[0]]->input[1], l->node->output[0]) ||
	    readers(l, nd[k[0]]->output[0], two, 2) != 2)
		return 0;
	k[1] = k[5] = -1;
	for (i = 0; i < 2; i++) {	/* Pow(d, 2) and Div(d, s), either order */
		if (is_op(nd[two[i]], "Pow"))
			k[1] = two[i];
		else if (is_op(nd[two[i]], "Div"))
			k[5] = two[i];
		else
			return 0;
	}
	if (k[1] < 0 || k[5] < 0 ||
	    strcmp(nd[k[1]]->input[0], nd[k[0]]->output[0]) ||
	    !scalar_input(l, k[1], 1, &p) || p != 2 ||
	    nd[k[5]]->n_input != 2 ||
	    strcmp(nd[k[5]]->input[0], nd[k[0]]->output[0]))
		return 0;
	k[2] = only_reader(l, nd[k[1]]->output[0], "ReduceMean");
	if (k[2] < 0 || !mean_last(l, k[2], x->rank))
		return 0;
	k[3] = only_reader(l, nd[k[2]]->output[0], "Add");
	if (k[3] < 0 || nd[k[3]]->n_input != 2 ||
	    !scalar_input(l, k[3], strcmp(nd[k[3]]->input[0],
					  nd[k[2]]->output[0]) ? 0 : 1, eps))
		return 0;
	k[4] = only_reader(l, nd[k[3]]->output[0], "Sqrt");
	return k[4] >= 0 && only_reader(l, nd[k[4]]->output[0], "Div") == k[5] &&
	       !strcmp(nd[k[5]]->input[1], nd[k[4]]->output[0]) &&
	       *eps > 0 && !isinf(*eps);
}

int nvc_layernorm_pattern(struct nvc_loader *l, struct nvc_value *x)
{
	const Onnx__NodeProto *div;
	struct nvc_value *y;
	int k[6], i, t;
	float eps;

	if (!pattern(l, x, k, &eps))
		return nvc_node_error(l, -EINVAL,
				      "a mean over the last axis is supported only as the start of a layer normalisation (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div)");
	if (!l->skip) {
		l->skip = calloc(l->gp->n_node, 1);
		if (!l->skip)
			return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	}
	div = l->gp->node[k[5]];
	y = nvc_value_new(l, div->output[0]);
	if (!y)
		return -EINVAL;
	t = layernorm_node(l, x, eps, -1);
	if (t < 0)
		return t;
	/* The quotient names the normalised tensor. */
	y->kind = VAL_ACT;
	y->rank = x->rank;
	memcpy(y->dims, x->dims, x->rank * sizeof(*x->dims));
	y->tensor = t;
	y->tokens = x->rank == 3 || x->tokens;
	free(l->g->tensors[t].name);
	l->g->tensors[t].name = strdup(div->output[0]);
	if (!l->g->tensors[t].name)
		return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	for (i = 0; i < 6; i++)
		l->skip[k[i]] = 1;
	return 0;
}

/* Whether @perm (@n axes) is @want (4 axes). */
static bool perm_is(const int64_t *perm, int n, const int64_t *want)
{
	return n == 4 && !memcmp(perm, want, 4 * sizeof(*perm));
}

int nvc_channels_last(struct nvc_loader *l, struct nvc_value *x, int n,
		      const int64_t *perm)
{
	static const int64_t to_last[4] = { 0, 2, 3, 1 };
	static const int64_t to_first[4] = { 0, 3, 1, 2 };
	const int64_t *d = x->dims;
	int64_t dims[4];

	if (x->kind != VAL_ACT || x->rank != 4)
		return 1;
	if (!x->tokens && perm_is(perm, n, to_last)) {
		dims[0] = 1, dims[1] = d[2], dims[2] = d[3], dims[3] = d[1];
		l->in_tokens = 1;
	} else if (x->tokens && perm_is(perm, n, to_first)) {
		dims[0] = 1, dims[1] = d[3], dims[2] = d[1], dims[3] = d[2];
		l->in_tokens = 0;
	} else {
		return 1;
	}
	return nvc_alias(l, x, 4, dims);
}
