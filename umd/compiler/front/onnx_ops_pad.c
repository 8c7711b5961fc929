// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Pad around height and width. Modes edge and reflect are a node of
 * their own (NVC_PAD, SDP copies). The constant zero is no node of its
 * own: its output names the input with the padding, which the
 * convolution or average pooling reading it adds to its own (torch writes
 * a Pad before every AvgPool2d, and nn.ZeroPad2d as one). Any other
 * reader refuses it (onnx_attr.c).
 */
#include <errno.h>
#include <string.h>

#include "onnx.h"

/* pads and the constant: attributes before opset 11, inputs after. */
static int pad_amounts(struct nvc_loader *l, int64_t *pads, float *value)
{
	struct nvc_value *p, *v;
	int ret, n;

	*value = 0;
	if (l->opset < 11) {
		ret = nvc_attr_ints(l, "pads", 8, pads, &n);
		if (!ret)
			ret = nvc_attr_float(l, "value", 0, value);
		if (!ret && n != 8)
			ret = nvc_node_error(l, -EINVAL,
					     "pads has %d values (8 for rank 4)", n);
		return ret;
	}
	ret = nvc_input_int64(l, 1, &p);
	if (!ret)
		ret = nvc_input_float_opt(l, 2, &v);
	if (ret)
		return ret;
	if (p->count != 8)
		return nvc_node_error(l, -EINVAL,
				      "pads has %ld values (8 for rank 4)", p->count);
	memcpy(pads, p->i, 8 * sizeof(*pads));
	if (v && v->count != 1)
		return nvc_node_error(l, -EINVAL,
				      "the constant value is not one number");
	*value = v ? v->f[0] : 0;
	return 0;
}

/* The dims of @x padded by @pads (ONNX order: begins, then ends) into @dims. */
static int padded_dims(struct nvc_loader *l, const struct nvc_value *x,
		       const int64_t *pads, int64_t *dims)
{
	memcpy(dims, x->dims, 4 * sizeof(*dims));
	dims[2] += pads[2] + pads[6];
	dims[3] += pads[3] + pads[7];
	if (nvc_dims_count(4, dims) < 0 || dims[2] > NVC_MAX_DIM ||
	    dims[3] > NVC_MAX_DIM)
		return nvc_node_error(l, -EINVAL, "the padded tensor is too large");
	return 0;
}

/* Mode edge or reflect: a node of its own (NVC_PAD). */
static int pad_node(struct nvc_loader *l, enum nvc_pad_mode mode,
		    const int64_t *pads)
{
	struct nvc_value *x;
	int64_t dims[4];
	int ret, k, i;

	ret = nvc_input_act4(l, 0, &x);
	if (ret)
		return ret;
	for (i = 2; i < 4; i++)
		if (mode == NVC_PAD_REFLECT &&
		    (pads[i] >= x->dims[i] || pads[i + 4] >= x->dims[i]))
			return nvc_node_error(l, -EINVAL,
					      "mode 'reflect' pads %lld and %lld of a %s of %lld: each must be smaller than it",
					      (long long)pads[i],
					      (long long)pads[i + 4],
					      i == 2 ? "height" : "width",
					      (long long)x->dims[i]);
	ret = padded_dims(l, x, pads, dims);
	if (ret)
		return ret;
	k = nvc_unary_node(l, NVC_PAD, x, 4, dims);
	if (k < 0)
		return k;
	l->g->nodes[k].pad = (struct nvc_pad_attr){ .mode = mode,
		.pad = { pads[2], pads[3], pads[6], pads[7] } };
	return 0;
}

int nvc_op_pad(struct nvc_loader *l)
{
	static const char *const old[] = { "mode", "pads", "value", NULL };
	static const char *const known[] = { "mode", NULL };
	struct nvc_value *x, *y;
	int64_t pads[8], dims[4];
	char mode[16];
	float value;
	int ret, i;

	ret = nvc_node_check(l, 1, l->opset < 11 ? 1 : 3,
			     l->opset < 11 ? old : known);
	if (!ret)
		ret = nvc_attr_string(l, "mode", "constant", mode, sizeof(mode));
	if (!ret)
		ret = pad_amounts(l, pads, &value);
	if (ret)
		return ret;
	if (strcmp(mode, "edge") && strcmp(mode, "reflect") &&
	    (strcmp(mode, "constant") || value != 0))
		return nvc_node_error(l, -EINVAL,
				      "only modes 'edge', 'reflect' and 'constant' with the value 0 are supported (mode '%s', value %g)",
				      mode, value);
	if (pads[0] || pads[1] || pads[4] || pads[5])
		return nvc_node_error(l, -EINVAL,
				      "only a padding of height and width is supported (pads of batch and channels %lld, %lld, %lld, %lld)",
				      (long long)pads[0], (long long)pads[1],
				      (long long)pads[4], (long long)pads[5]);
	for (i = 0; i < 8; i++)
		if (pads[i] < 0 || pads[i] > NVC_MAX_DIM)
			return nvc_node_error(l, -EINVAL,
					      "pad %lld is negative or too large",
					      (long long)pads[i]);
	if (strcmp(mode, "constant"))
		return pad_node(l, strcmp(mode, "edge") ? NVC_PAD_REFLECT :
				NVC_PAD_EDGE, pads);
	l->take_pad = 1;
	ret = nvc_input_act4(l, 0, &x);
	l->take_pad = 0;
	if (!ret)
		ret = padded_dims(l, x, pads, dims);
	if (ret)
		return ret;
	y = nvc_value_new(l, l->node->output[0]);
	if (!y)
		return -EINVAL;
	*y = *x;
	y->name = l->node->output[0];
	memcpy(y->dims, dims, sizeof(dims));
	/* No padding: the input itself, for any reader. */
	if (pads[2] || pads[3] || pads[6] || pads[7])
		y->pad_node = l->node_name;
	y->pad[0] += pads[2];
	y->pad[1] += pads[3];
	y->pad[2] += pads[6];
	y->pad[3] += pads[7];
	return 0;
}

int nvc_input_padded(struct nvc_loader *l, struct nvc_value **x, int64_t *pad)
{
	int ret;

	l->take_pad = 1;
	ret = nvc_input_act(l, 0, x);
	l->take_pad = 0;
	if (ret)
		return ret;
	if ((*x)->rank != 4 && (*x)->rank != 3)
		return nvc_node_error(l, -EINVAL,
				      "input '%s' has rank %d; only 1-D (N, C, L) and 2-D (N, C, H, W) data is supported",
				      (*x)->name, (*x)->rank);
	memcpy(pad, (*x)->pad, 4 * sizeof(*pad));
	return 0;
}
