// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * QuantizeLinear and DequantizeLinear, as quantizers write them (QDQ
 * models): on constants computed while loading (the weights and biases
 * become the float values their codes stand for), and on an activation
 * tensor as a pair that leaves the float tensor as it is and sets its
 * int8 range from the pair's scale s: [-127 s, 127 s], whose scale the
 * back end takes (max |x| / 127). Only symmetric int8 activations (zero
 * point 0, one scale for the tensor) map exactly onto the hardware's
 * scales; the others are refused.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

struct qparams {
	struct nvc_value *scale, *zero;	/* zero: NULL when absent */
	int type;			/* of the codes */
	int64_t axis;
};

static int qparams(struct nvc_loader *l, struct qparams *q)
{
	static const char *const known[] = { "axis", NULL };
	int ret;

	ret = nvc_node_check(l, 2, 3, known);
	if (!ret)
		ret = nvc_attr_int(l, "axis", 1, &q->axis);
	if (!ret)
		ret = nvc_input_float(l, 1, &q->scale);
	if (ret)
		return ret;
	q->zero = NULL;
	q->type = ONNX__TENSOR_PROTO__DATA_TYPE__UINT8;	/* when absent */
	if (!nvc_input_present(l, 2))
		return 0;
	l->take_quant = 1;
	ret = nvc_input_float(l, 2, &q->zero);
	l->take_quant = 0;
	if (ret)
		return ret;
	if (!q->zero->quant_type || q->zero->count != q->scale->count)
		return nvc_node_error(l, -EINVAL,
				      "the zero point '%s' is not an integer constant of the scale's %ld elements",
				      q->zero->name, q->scale->count);
	q->type = q->zero->quant_type;
	return 0;
}

/* Index into the scale of element @i of @x: per tensor or along the axis. */
static int qindex(struct nvc_loader *l, const struct qparams *q,
		  const struct nvc_value *x, long *inner, long *n)
{
	int64_t axis = q->axis < 0 ? q->axis + x->rank : q->axis;
	int k;

	*inner = 1;
	*n = 1;
	if (q->scale->count == 1)
		return 0;
	if (axis < 0 || axis >= x->rank || x->dims[axis] != q->scale->count)
		return nvc_node_error(l, -EINVAL,
				      "%ld scales do not match axis %lld of '%s'",
				      q->scale->count, (long long)q->axis, x->name);
	for (k = axis + 1; k < x->rank; k++)
		*inner *= x->dims[k];
	*n = q->scale->count;
	return 0;
}

/* Constant @x quantized (@quant) or dequantized into a new constant. */
static int fold(struct nvc_loader *l, const struct qparams *q,
		const struct nvc_value *x, int quant)
{
	struct nvc_value *y = nvc_value_new(l, l->node->output[0]);
	float lo = q->type == ONNX__TENSOR_PROTO__DATA_TYPE__INT8 ? -128 : 0;
	float hi = q->type == ONNX__TENSOR_PROTO__DATA_TYPE__INT8 ? 127 : 255;
	long inner, n, i;
	int ret;

	if (!y)
		return -EINVAL;
	ret = qindex(l, q, x, &inner, &n);
	if (ret)
		return ret;
	y->kind = VAL_FLOAT;
	y->rank = x->rank;
	memcpy(y->dims, x->dims, sizeof(y->dims));
	y->count = x->count;
	y->quant_type = quant ? q->type : 0;
	y->f = malloc(x->count ? x->count * sizeof(float) : 1);
	if (!y->f)
		return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	for (i = 0; i < x->count; i++) {
		long c = i / inner % n;
		float s = q->scale->f[c], z = q->zero ? q->zero->f[c] : 0;

		y->f[i] = quant ? fminf(fmaxf(rintf(x->f[i] / s) + z, lo), hi) :
			  (x->f[i] - z) * s;
	}
	return 0;
}

/* An activation's scale: one, positive, int8 with zero point 0. */
static int act_scale(struct nvc_loader *l, const struct qparams *q)
{
	if (q->type != ONNX__TENSOR_PROTO__DATA_TYPE__INT8)
		return nvc_node_error(l, -EINVAL,
				      "%s activations are not supported: int8 with zero point 0 (symmetric)",
				      q->zero ? "UINT8" : "UINT8 (no zero point)");
	if (q->scale->count != 1)
		return nvc_node_error(l, -EINVAL,
				      "%ld scales for an activation: one a tensor",
				      q->scale->count);
	if (q->zero->f[0] != 0)
		return nvc_node_error(l, -EINVAL,
				      "zero point %g: int8 activations need zero point 0 (symmetric)",
				      q->zero->f[0]);
	if (!(q->scale->f[0] > 0) || isinf(q->scale->f[0]))
		return nvc_node_error(l, -EINVAL, "scale %g is not positive",
				      q->scale->f[0]);
	return 0;
}

int nvc_op_quantize(struct nvc_loader *l)
{
	struct nvc_value *x, *y;
	struct qparams q;
	int ret;

	ret = qparams(l, &q);
	if (!ret)
		ret = nvc_input_any(l, 0, &x);
	if (ret)
		return ret;
	if (q.type == ONNX__TENSOR_PROTO__DATA_TYPE__INT32)
		return nvc_node_error(l, -EINVAL,
				      "an INT32 zero point: QuantizeLinear writes INT8 or UINT8");
	if (x->kind == VAL_FLOAT)
		return fold(l, &q, x, 1);
	if (x->kind != VAL_ACT)
		return nvc_node_error(l, -EINVAL, "input '%s' is not FLOAT",
				      x->name);
	ret = act_scale(l, &q);
	if (!ret && nvc_is_graph_output(l, l->node->output[0]))
		ret = nvc_node_error(l, -EINVAL,
				     "its int8 codes are a graph output: outputs are FLOAT");
	if (ret)
		return ret;
	y = nvc_value_new(l, l->node->output[0]);
	if (!y)
		return -EINVAL;
	*y = (struct nvc_value){ .name = y->name, .kind = VAL_ACT,
				 .rank = x->rank, .tensor = x->tensor,
				 .quant_type = q.type, .qscale = q.scale->f[0] };
	memcpy(y->dims, x->dims, sizeof(y->dims));
	return 0;
}

/* Tensor @i's range [-127 s, 127 s], once. */
static int set_range(struct nvc_loader *l, int i, float s)
{
	struct nvc_tensor *t = &l->g->tensors[i];

	if (t->calibrated && t->max != 127 * s)
		return nvc_node_error(l, -EINVAL,
				      "tensor '%s' is quantized at scale %g and at %g",
				      t->name, t->max / 127, s);
	t->calibrated = NVC_RANGE_QDQ;
	t->min = -127 * s;
	t->max = 127 * s;
	return 0;
}

int nvc_op_dequantize(struct nvc_loader *l)
{
	struct nvc_value *x;
	struct qparams q;
	float s;
	int ret;

	ret = qparams(l, &q);
	if (ret)
		return ret;
	l->take_quant = 1;
	ret = nvc_input_any(l, 0, &x);
	l->take_quant = 0;
	if (ret)
		return ret;
	if (!x->quant_type)
		return nvc_node_error(l, -EINVAL,
				      "input '%s' is not integer codes (an INT8, UINT8 or INT32 constant, or a QuantizeLinear's output)",
				      x->name);
	if (x->kind == VAL_FLOAT)
		return fold(l, &q, x, 0);
	ret = act_scale(l, &q);
	if (ret)
		return ret;
	s = q.scale->f[0];
	if (s != x->qscale)
		return nvc_node_error(l, -EINVAL,
				      "scale %g differs from its QuantizeLinear's %g",
				      s, x->qscale);
	ret = set_range(l, x->tensor, s);
	if (!ret)
		ret = nvc_pass_through(l, x);
	if (ret)
		return ret;
	/* A graph output is a reshape alias the passes may make the tensor. */
	return set_range(l, nvc_value_find(l, l->node->output[0])->tensor, s);
}
