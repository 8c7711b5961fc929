// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * A graph's consistency, whoever built it: indices in range, sizes
 * bounded, every node's inputs computed before it, and every operator's
 * output shape the one its attributes give. The executor runs only
 * graphs that pass, so that no shape can take it outside a buffer.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "emu.h"
#include "graph.h"

struct check {
	const struct nvc_graph *g;
	const struct nvc_node *nd;
	char *err;
	size_t errlen;
};

static int fail(struct check *k, const char *why)
{
	if (k->nd)
		return nvc_error(k->err, k->errlen, -EINVAL,
				 "node '%s' (%s): %s", k->nd->name,
				 k->nd->onnx_op ? k->nd->onnx_op : "", why);
	return nvc_error(k->err, k->errlen, -EINVAL, "graph: %s", why);
}

static int tensor_ok(const struct nvc_tensor *t)
{
	long n = 1;
	int d[4] = { t->n, t->c, t->h, t->w }, i;

	for (i = 0; i < 4; i++) {
		if (d[i] < 1 || d[i] > NVC_MAX_DIM)
			return 0;
		n *= d[i];
		if (n > NVC_MAX_ELEMENTS)
			return 0;
	}
	return t->data || t->n == 1;
}

/* Constant @t, absent (-1) if @optional, of @count elements (0: any). */
static int constant(struct check *k, int t, int optional, long count)
{
	if (t == -1 && optional)
		return 1;
	return t >= 0 && t < k->g->num_tensors && k->g->tensors[t].data &&
	       (!count || nvc_tensor_size(&k->g->tensors[t]) == count);
}

static int same_shape(const struct nvc_tensor *a, const struct nvc_tensor *b)
{
	return a->c == b->c && a->h == b->h && a->w == b->w;
}

/* Output size of a window: -1 if the window is larger than the input. */
static long window_out(long in, long k, long dil, long stride, long p0,
		       long p1, int ceil)
{
	long span = in + p0 + p1 - (dil * (k - 1) + 1), out;

	if (span < 0)
		return -1;
	out = (ceil ? span + stride - 1 : span) / stride + 1;
	if (ceil && (out - 1) * stride >= in + p0)
		out--;
	return out;
}

static int window_attrs_ok(const int *stride, const int *dil, const int *pad,
			   int kh, int kw)
{
	int i;

	for (i = 0; i < 2; i++)
		if (stride[i] < 1 || stride[i] > NVC_MAX_DIM || dil[i] < 1 ||
		    dil[i] > NVC_MAX_DIM)
			return 0;
	for (i = 0; i < 4; i++)
		if (pad[i] < 0 || pad[i] > NVC_MAX_DIM)
			return 0;
	return kh >= 1 && kw >= 1 && kh <= NVC_MAX_DIM && kw <= NVC_MAX_DIM;
}

static int check_conv(struct check *k, const struct nvc_tensor *in,
		      const struct nvc_tensor *out)
{
	const struct nvc_conv_attr *a = &k->nd->conv;
	const struct nvc_tensor *w;
	int transpose = k->nd->op == NVC_CONV_TRANSPOSE, i;
	long o[2];

	if (!window_attrs_ok(a->stride, a->dilation, a->pad, a->kh, a->kw) ||
	    a->group < 1 || in->c % a->group || out->c % a->group)
		return fail(k, "bad window or group");
	if (!constant(k, a->weights, 0, 0) || !constant(k, a->bias, 1, out->c))
		return fail(k, "bad weights or bias");
	w = &k->g->tensors[a->weights];
	if (w->n != (transpose ? in->c : out->c) ||
	    w->c != (transpose ? out->c : in->c) / a->group ||
	    w->h != a->kh || w->w != a->kw)
		return fail(k, "weights do not match the channels and kernel");
	for (i = 0; i < 2; i++) {
		int k2 = i ? a->kw : a->kh, size = i ? in->w : in->h;

		if (transpose) {
			if (a->out_pad[i] < 0 || a->out_pad[i] > NVC_MAX_DIM)
				return fail(k, "bad output padding");
			o[i] = (long)a->stride[i] * (size - 1) + a->out_pad[i] +
			       (long)a->dilation[i] * (k2 - 1) + 1 - a->pad[i] -
			       a->pad[i + 2];
		} else {
			o[i] = window_out(size, k2, a->dilation[i], a->stride[i],
					  a->pad[i], a->pad[i + 2], 0);
		}
	}
	if (o[0] != out->h || o[1] != out->w)
		return fail(k, "the output size does not follow from the window");
	return 0;
}

static int check_pool(struct check *k, const struct nvc_tensor *in,
		      const struct nvc_tensor *out)
{
	const struct nvc_pool_attr *p = &k->nd->pool;
	static const int one[2] = { 1, 1 };
	int i;

	if (!window_attrs_ok(p->stride, one, p->pad, p->kh, p->kw) ||
	    in->c != out->c || (unsigned int)p->type > NVC_POOL_AVG)
		return fail(k, "bad window");
	for (i = 0; i < 2; i++)
		if (p->pad[i] >= (i ? p->kw : p->kh) ||
		    p->pad[i + 2] >= (i ? p->kw : p->kh))
			return fail(k, "padding not smaller than the kernel");
	if (out->h != window_out(in->h, p->kh, 1, p->stride[0], p->pad[0],
				 p->pad[2], p->ceil_mode) ||
	    out->w != window_out(in->w, p->kw, 1, p->stride[1], p->pad[1],
				 p->pad[3], p->ceil_mode))
		return fail(k, "the output size does not follow from the window");
	return 0;
}

static int check_channels(struct check *k, const int *t, int n,
			  const struct nvc_tensor *whole)
{
	long c = 0;
	int i;

	for (i = 0; i < n; i++) {
		const struct nvc_tensor *p = &k->g->tensors[t[i]];

		if (p->h != whole->h || p->w != whole->w)
			return fail(k, "parts differ in height or width");
		c += p->c;
	}
	if (c != whole->c)
		return fail(k, "the parts' channels do not add up");
	return 0;
}

/* Pads >= 0 (reflect: smaller than the size), adding up to the output. */
static int check_pad(struct check *k, const struct nvc_tensor *in,
		     const struct nvc_tensor *out)
{
	const struct nvc_pad_attr *p = &k->nd->pad;
	int i;

	if ((unsigned int)p->mode > NVC_PAD_REFLECT)
		return fail(k, "unknown padding mode");
	for (i = 0; i < 4; i++)
		if (p->pad[i] < 0 || p->pad[i] > NVC_MAX_DIM ||
		    (p->mode == NVC_PAD_REFLECT &&
		     p->pad[i] >= (i % 2 ? in->w : in->h)))
			return fail(k, "bad pad");
	if (out->c != in->c || out->h != in->h + p->pad[0] + p->pad[2] ||
	    out->w != in->w + p->pad[1] + p->pad[3])
		return fail(k, "the output size does not follow from the pads");
	return 0;
}

static int check_cpu(struct check *k, const struct nvc_tensor *in,
		     const struct nvc_tensor *out)
{
	const struct nvc_node *nd = k->nd;

	switch (nd->cpu) {
	case NVC_CPU_ERF:
	case NVC_CPU_SIGMOID:
	case NVC_CPU_TANH:
	case NVC_CPU_SILU:
		break;
	case NVC_CPU_SWAP_CH:
		if (out->c != in->h || out->h != in->c || out->w != in->w)
			return fail(k, "the swap's output is not its input with channels and height exchanged");
		return 0;
	case NVC_CPU_LAYERNORM:
		if (!(nd->cpu_eps > 0) || isinf(nd->cpu_eps))
			return fail(k, "bad epsilon");
		break;
	case NVC_CPU_RESIZE:
		if ((unsigned int)nd->cpu_coord >= EMU_COORD_COUNT ||
		    out->c != in->c || !(nd->cpu_step[0] > 0) ||
		    !(nd->cpu_step[1] > 0) || isinf(nd->cpu_step[0]) ||
		    isinf(nd->cpu_step[1]))
			return fail(k, "bad resize");
		return 0;
	default:
		return fail(k, "unknown CPU function");
	}
	if (!same_shape(in, out))
		return fail(k, "input and output differ in shape");
	return 0;
}

static int check_op(struct check *k)
{
	const struct nvc_node *nd = k->nd;
	const struct nvc_tensor *in = &k->g->tensors[nd->inputs[0]];
	const struct nvc_tensor *out = &k->g->tensors[nd->outputs[0]];
	int ins = nd->num_inputs, outs = nd->num_outputs;

	if (ins != (nd->op == NVC_ELTWISE ? 2 : nd->op == NVC_CONCAT ? ins : 1))
		return fail(k, "wrong number of inputs");
	if (outs != 1 && nd->op != NVC_SPLIT)
		return fail(k, "wrong number of outputs");
	switch (nd->op) {
	case NVC_CONV:
	case NVC_CONV_TRANSPOSE:
		return check_conv(k, in, out);
	case NVC_POOL:
		return check_pool(k, in, out);
	case NVC_PAD:
		return check_pad(k, in, out);
	case NVC_CONCAT:
		return check_channels(k, nd->inputs, ins, out);
	case NVC_SPLIT:
		return check_channels(k, nd->outputs, outs, in);
	case NVC_RESHAPE:
		if (nvc_tensor_size(in) != nvc_tensor_size(out))
			return fail(k, "a reshape changes the element count");
		return 0;
	case NVC_AFFINE:
		if (!constant(k, nd->affine.scale, 1, in->c) ||
		    !constant(k, nd->affine.shift, 1, in->c))
			return fail(k, "bad scale or shift");
		break;
	case NVC_ELTWISE:
		if ((unsigned int)nd->eltwise > NVC_ELT_MAX ||
		    !(same_shape(in, &k->g->tensors[nd->inputs[1]]) ||
		      (nvc_per_channel(k->g, nd) && nd->eltwise != NVC_ELT_MAX)))
			return fail(k, "bad element-wise operation");
		break;
	case NVC_LRN:
		if (nd->lrn.size < 1 || nd->lrn.size > NVC_MAX_DIM)
			return fail(k, "bad size");
		break;
	case NVC_CPU:
		return check_cpu(k, in, out);
	case NVC_ACT:
	case NVC_SOFTMAX:
		break;
	default:
		return fail(k, "unknown operation");
	}
	if (!same_shape(in, out))
		return fail(k, "input and output differ in shape");
	return 0;
}

static int check_act(struct check *k)
{
	const struct nvc_activation *a = &k->nd->act;
	int i;

	if ((unsigned int)a->type > NVC_ACT_TANH)
		return fail(k, "unknown activation");
	if (a->type != NVC_ACT_PRELU)
		return 0;
	for (i = 0; i < k->nd->num_outputs; i++)
		if (!constant(k, a->slope, 0,
			      k->g->tensors[k->nd->outputs[i]].c))
			return fail(k, "bad PReLU slope");
	return 0;
}

/* Index lists of @n tensors that must be activations; @ready marks them. */
static int indices_ok(const struct nvc_graph *g, const int *t, int n, int max)
{
	int i;

	if (n < 1 || n > max)
		return 0;
	for (i = 0; i < n; i++)
		if (t[i] < 0 || t[i] >= g->num_tensors || g->tensors[t[i]].data)
			return 0;
	return 1;
}

static int check_nodes(struct check *k, char *ready)
{
	const struct nvc_graph *g = k->g;
	int i, j, ret;

	for (i = 0; i < g->num_nodes; i++) {
		k->nd = &g->nodes[i];
		if (!indices_ok(g, k->nd->inputs, k->nd->num_inputs, NVC_MAX_INPUTS) ||
		    !indices_ok(g, k->nd->outputs, k->nd->num_outputs, NVC_MAX_OUTPUTS))
			return fail(k, "bad tensor indices");
		for (j = 0; j < k->nd->num_inputs; j++)
			if (!ready[k->nd->inputs[j]])
				return fail(k, "an input is not computed before the node");
		for (j = 0; j < k->nd->num_outputs; j++) {
			if (ready[k->nd->outputs[j]])
				return fail(k, "an output is computed twice");
			ready[k->nd->outputs[j]] = 1;
		}
		ret = check_op(k);
		if (!ret)
			ret = check_act(k);
		if (ret)
			return ret;
	}
	k->nd = NULL;
	return 0;
}

int nvc_graph_check(const struct nvc_graph *g, char *err, size_t errlen)
{
	struct check k = { .g = g, .err = err, .errlen = errlen };
	char *ready;
	int i, ret;

	if (g->num_tensors < 0 || g->num_nodes < 0 ||
	    (g->num_tensors && !g->tensors) || (g->num_nodes && !g->nodes) ||
	    !indices_ok(g, g->inputs, g->num_inputs, NVC_MAX_INPUTS) ||
	    !indices_ok(g, g->outputs, g->num_outputs, NVC_MAX_OUTPUTS))
		return fail(&k, "bad counts, inputs or outputs");
	for (i = 0; i < g->num_tensors; i++) {
		int a = g->tensors[i].alias_of;

		if (!tensor_ok(&g->tensors[i]) || a < -1 || a >= g->num_tensors)
			return fail(&k, "a tensor has a bad shape or alias");
	}
	ready = calloc(g->num_tensors + 1, 1);
	if (!ready)
		return nvc_error(err, errlen, -ENOMEM, "out of memory");
	for (i = 0; i < g->num_inputs; i++)
		ready[g->inputs[i]] = 1;
	ret = check_nodes(&k, ready);
	for (i = 0; !ret && i < g->num_outputs; i++)
		if (!ready[g->outputs[i]])
			ret = fail(&k, "an output is never computed");
	free(ready);
	return ret;
}
