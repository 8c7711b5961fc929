// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Element-wise operators: activations, arithmetic with a constant (an
 * affine per channel) or between two tensors of one shape, Max,
 * Softmax over channels, and Erf (for the CPU).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

static int act_node(struct nvc_loader *l, struct nvc_value *x,
		    const struct nvc_activation *act)
{
	int k;

	k = nvc_unary_node(l, NVC_ACT, x, x->rank, x->dims);
	if (k < 0)
		return k;
	l->g->nodes[k].act = *act;
	return 0;
}

int nvc_op_activation(struct nvc_loader *l)
{
	static const char *const none[] = { NULL };
	static const char *const leaky[] = { "alpha", NULL };
	struct nvc_activation act = { .slope = -1 };
	struct nvc_value *x;
	int ret;

	ret = nvc_node_check(l, 1, 1, strcmp(l->op, "LeakyRelu") ? none : leaky);
	if (!ret)
		ret = nvc_attr_float(l, "alpha", 0.01f, &act.alpha);
	if (!ret)
		ret = nvc_input_act(l, 0, &x);
	if (ret)
		return ret;
	if (!strcmp(l->op, "Relu")) {
		act.type = NVC_ACT_RELU;
		act.max = INFINITY;
	} else if (!strcmp(l->op, "LeakyRelu")) {
		act.type = NVC_ACT_LEAKY;
	} else if (!strcmp(l->op, "Sigmoid")) {
		act.type = NVC_ACT_SIGMOID;
	} else {
		act.type = NVC_ACT_TANH;
	}
	return act_node(l, x, &act);
}

/*
 * clip(alpha x + beta, 0, 1) of @x into tensor @out: an affine with a
 * clip, which the SDP computes (and a convolution before it takes in).
 */
static int hard_sigmoid_node(struct nvc_loader *l, struct nvc_value *x,
			     float alpha, float beta, int out)
{
	struct nvc_node *nd;
	int c = l->g->tensors[x->tensor].c, i, st, ht, k;
	float *v = malloc(2 * c * sizeof(*v));

	if (!v)
		return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	for (i = 0; i < c; i++) {
		v[i] = alpha;
		v[c + i] = beta;
	}
	st = nvc_const_tensor(l, "scale", 1, c, 1, 1, v);
	ht = st < 0 ? st : nvc_const_tensor(l, "shift", 1, c, 1, 1, v + c);
	free(v);
	if (ht < 0)
		return ht;
	k = nvc_node_new(l, NVC_AFFINE, 1, &x->tensor, 1, &out);
	if (k < 0)
		return k;
	nd = &l->g->nodes[k];
	nd->affine.scale = st;
	nd->affine.shift = ht;
	nd->act = (struct nvc_activation){ .type = NVC_ACT_CLIP, .min = 0,
					   .max = 1, .slope = -1 };
	return 0;
}

/*
 * HardSigmoid, and HardSwish: x times its hard sigmoid (alpha 1/6,
 * beta 1/2), an element-wise product.
 */
int nvc_op_hard(struct nvc_loader *l)
{
	static const char *const none[] = { NULL };
	static const char *const hsig[] = { "alpha", "beta", NULL };
	int swish = !strcmp(l->op, "HardSwish"), in[2], k, ret;
	struct nvc_value *x, *y;
	float alpha, beta;
	char name[NVC_ERR_LEN];

	ret = nvc_node_check(l, 1, 1, swish ? none : hsig);
	if (!ret)
		ret = nvc_attr_float(l, "alpha", swish ? 1 / 6.0f : 0.2f, &alpha);
	if (!ret)
		ret = nvc_attr_float(l, "beta", 0.5f, &beta);
	if (!ret)
		ret = nvc_input_act(l, 0, &x);
	if (!ret)
		ret = nvc_output_act(l, 0, x->rank, x->dims, &y);
	if (ret)
		return ret;
	if (!swish)
		return hard_sigmoid_node(l, x, alpha, beta, y->tensor);
	snprintf(name, sizeof(name), "%s/hard_sigmoid", l->node_name);
	in[0] = x->tensor;
	in[1] = nvc_tensor_add(l->g, name, 1, l->g->tensors[x->tensor].c,
			       l->g->tensors[x->tensor].h,
			       l->g->tensors[x->tensor].w, NULL);
	if (in[1] < 0)
		return nvc_error(l->err, l->errlen, in[1], "out of memory");
	ret = hard_sigmoid_node(l, x, alpha, beta, in[1]);
	if (ret)
		return ret;
	k = nvc_node_new(l, NVC_ELTWISE, 2, in, 1, &y->tensor);
	if (k < 0)
		return k;
	l->g->nodes[k].eltwise = NVC_ELT_MUL;
	return 0;
}

int nvc_op_prelu(struct nvc_loader *l)
{
	static const char *const known[] = { NULL };
	struct nvc_activation act = { .type = NVC_ACT_PRELU };
	struct nvc_value *x, *s;
	float *slope;
	int ret, c;

	ret = nvc_node_check(l, 2, 2, known);
	if (!ret)
		ret = nvc_input_act(l, 0, &x);
	if (!ret)
		ret = nvc_input_float(l, 1, &s);
	if (ret)
		return ret;
	c = x->dims[1];
	slope = malloc(c * sizeof(*slope));
	if (!slope)
		return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	ret = nvc_channel_vector(l, "slope", s, x, c, slope);
	if (!ret) {
		act.slope = nvc_const_tensor(l, "slope", 1, c, 1, 1, slope);
		ret = act.slope < 0 ? act.slope : act_node(l, x, &act);
	}
	free(slope);
	return ret;
}

/* Clip's bound input @i (opset 11+): absent, or a FLOAT scalar. */
static int clip_bound(struct nvc_loader *l, int i, float *v)
{
	struct nvc_value *b;
	int ret;

	ret = nvc_input_float_opt(l, i, &b);
	if (ret || !b)
		return ret;
	if (b->count != 1)
		return nvc_node_error(l, -EINVAL, "bound '%s' is not a scalar",
				      b->name);
	*v = b->f[0];
	return 0;
}

int nvc_op_clip(struct nvc_loader *l)
{
	static const char *const old[] = { "min", "max", NULL };
	static const char *const none[] = { NULL };
	struct nvc_activation act = { .type = NVC_ACT_CLIP, .slope = -1 };
	struct nvc_value *x;
	int ret;

	act.min = -INFINITY;
	act.max = INFINITY;
	ret = nvc_node_check(l, 1, l->opset < 11 ? 1 : 3,
			     l->opset < 11 ? old : none);
	if (!ret && l->opset < 11)
		ret = nvc_attr_float(l, "min", -INFINITY, &act.min);
	if (!ret && l->opset < 11)
		ret = nvc_attr_float(l, "max", INFINITY, &act.max);
	if (!ret)
		ret = clip_bound(l, 1, &act.min);
	if (!ret)
		ret = clip_bound(l, 2, &act.max);
	if (!ret)
		ret = nvc_input_act(l, 0, &x);
	if (ret)
		return ret;
	if (act.max >= FLT_MAX)
		act.max = INFINITY;
	if (act.min <= -FLT_MAX)
		act.min = -INFINITY;
	if (!(act.min <= act.max))
		return nvc_node_error(l, -EINVAL, "min %g is above max %g",
				      act.min, act.max);
	if (act.min == 0 && act.max == INFINITY)
		act.type = NVC_ACT_RELU;
	return act_node(l, x, &act);
}

/* @b holds one value per channel of @a: [1, C, 1, 1] against [1, C, H, W]. */
static bool per_channel(const struct nvc_value *a, const struct nvc_value *b)
{
	return a->rank == 4 && b->rank == 4 && !a->tokens && !b->tokens &&
	       b->dims[1] == a->dims[1] && b->dims[2] == 1 && b->dims[3] == 1;
}

static int same_shape(struct nvc_loader *l, const struct nvc_value *a,
		      const struct nvc_value *b)
{
	if (a->rank == 4 && a->tokens != b->tokens)
		return nvc_node_error(l, -EINVAL,
				      "'%s' and '%s' differ in layout: one is a channels-last view (after a Transpose (0, 2, 3, 1)), the other is not",
				      a->name, b->name);
	if (a->rank != b->rank ||
	    memcmp(a->dims, b->dims, a->rank * sizeof(*a->dims)))
		return nvc_node_error(l, -EINVAL,
				      "'%s' and '%s' differ in shape; broadcasting between tensors is not supported",
				      a->name, b->name);
	return 0;
}

static int eltwise(struct nvc_loader *l, struct nvc_value *a,
		   struct nvc_value *b, enum nvc_eltwise op)
{
	struct nvc_value *y;
	int in[2] = { a->tensor, b->tensor };
	int ret, k, i;

	ret = per_channel(a, b) && op != NVC_ELT_MAX ? 0 : same_shape(l, a, b);
	/* One in token layout: both (a MatMul's output and a residual). */
	for (i = 0; !ret && l->in_tokens && i < 2; i++) {
		in[i] = nvc_tokens_tensor(l, i ? b : a);
		ret = in[i] < 0 ? in[i] : 0;
	}
	if (!ret)
		ret = nvc_output_act(l, 0, a->rank, a->dims, &y);
	if (ret)
		return ret;
	k = nvc_node_new(l, NVC_ELTWISE, 2, in, 1, &y->tensor);
	if (k < 0)
		return k;
	l->g->nodes[k].eltwise = op;
	return 0;
}

/* Add/Sub/Mul/Div of tensor @x and constant @v (@v first if @swapped). */
static int arith_const(struct nvc_loader *l, struct nvc_value *x,
		       struct nvc_value *v, int swapped)
{
	const char *op = l->op;
	int c = l->g->tensors[x->tensor].c, i, ret;
	float *vec, *scale = NULL, *shift = NULL;

	if (swapped && !strcmp(op, "Div"))
		return nvc_node_error(l, -EINVAL,
				      "dividing a constant by a tensor is not supported");
	vec = malloc(2 * c * sizeof(*vec));
	if (!vec)
		return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	ret = nvc_channel_vector(l, "constant", v, x, c, vec);
	if (ret)
		goto out;
	if (!strcmp(op, "Mul")) {
		scale = vec;
	} else if (!strcmp(op, "Div")) {
		scale = vec;
		for (i = 0; i < c; i++) {
			if (vec[i] == 0) {
				ret = nvc_node_error(l, -EINVAL,
						     "divides by zero (channel %d)", i);
				goto out;
			}
			vec[i] = 1 / vec[i];
		}
	} else {
		shift = vec;
		if (!strcmp(op, "Sub") && !swapped)
			for (i = 0; i < c; i++)
				vec[i] = -vec[i];
		if (!strcmp(op, "Sub") && swapped) {
			scale = vec + c;	/* c - x */
			for (i = 0; i < c; i++)
				scale[i] = -1;
		}
	}
	ret = nvc_affine_node(l, x, scale, shift);
out:
	free(vec);
	return ret;
}

int nvc_op_arith(struct nvc_loader *l)
{
	static const char *const known[] = { NULL };
	struct nvc_value *a, *b;
	int ret;

	ret = nvc_node_check(l, 2, 2, known);
	if (!ret)
		ret = nvc_input_any(l, 0, &a);
	if (!ret)
		ret = nvc_input_any(l, 1, &b);
	if (ret)
		return ret;
	if (a->kind != VAL_ACT && b->kind != VAL_ACT)
		return nvc_const_arith(l, a, b);
	if (a->kind == VAL_INT64 || b->kind == VAL_INT64)
		return nvc_node_error(l, -EINVAL, "INT64 operands are not supported");
	if (a->kind == VAL_ACT && b->kind == VAL_ACT) {
		/* Per channel: the C x 1 x 1 operand second (Add, Mul commute). */
		if (per_channel(b, a) && !per_channel(a, b)) {
			struct nvc_value *t = a;

			a = b;
			b = t;
		}
		if (per_channel(a, b) && strcmp(l->op, "Add") && strcmp(l->op, "Mul"))
			return nvc_node_error(l, -EINVAL,
					      "between two computed tensors only Add, Mul and Max are supported");
		if (!strcmp(l->op, "Add"))
			return eltwise(l, a, b, NVC_ELT_ADD);
		if (!strcmp(l->op, "Mul"))
			return eltwise(l, a, b, NVC_ELT_MUL);
		return nvc_node_error(l, -EINVAL,
				      "between two computed tensors only Add, Mul and Max are supported");
	}
	if (a->kind == VAL_ACT)
		return arith_const(l, a, b, 0);
	return arith_const(l, b, a, 1);
}

int nvc_op_max(struct nvc_loader *l)
{
	static const char *const known[] = { NULL };
	struct nvc_value *a, *b;
	int ret;

	ret = nvc_node_check(l, 2, 2, known);
	if (!ret)
		ret = nvc_input_act(l, 0, &a);
	if (!ret)
		ret = nvc_input_act(l, 1, &b);
	if (ret)
		return ret;
	return eltwise(l, a, b, NVC_ELT_MAX);
}

int nvc_op_softmax(struct nvc_loader *l)
{
	static const char *const known[] = { "axis", NULL };
	struct nvc_value *x;
	int64_t axis, rest = 1;
	int ret, k, i;

	ret = nvc_node_check(l, 1, 1, known);
	if (!ret)
		ret = nvc_attr_int(l, "axis", l->opset < 13 ? 1 : -1, &axis);
	if (!ret)
		ret = nvc_input_act(l, 0, &x);
	if (ret)
		return ret;
	if (axis < -x->rank || axis >= x->rank)
		return nvc_node_error(l, -EINVAL, "axis %lld is out of range",
				      (long long)axis);
	if (axis < 0)
		axis += x->rank;
	/* Before opset 13 the axis flattens everything after it in. */
	for (i = 2; l->opset < 13 && i < x->rank; i++)
		rest *= x->dims[i];
	if (axis != 1 || rest != 1)
		return nvc_node_error(l, -EINVAL,
				      "only a softmax over channels is supported");
	k = nvc_unary_node(l, NVC_SOFTMAX, x, x->rank, x->dims);
	return k < 0 ? k : 0;
}

/* Erf: a function only the CPU computes (NVC_CPU), element-wise. */
int nvc_op_erf(struct nvc_loader *l)
{
	static const char *const none[] = { NULL };
	struct nvc_value *x;
	int ret, k;

	ret = nvc_node_check(l, 1, 1, none);
	if (!ret)
		ret = nvc_input_act(l, 0, &x);
	if (ret)
		return ret;
	k = nvc_unary_node(l, NVC_CPU, x, x->rank, x->dims);
	if (k < 0)
		return k;
	l->g->nodes[k].cpu = NVC_CPU_ERF;
	return 0;
}
