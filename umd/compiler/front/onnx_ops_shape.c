// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Operators on the shape: Reshape, Flatten, Identity, Dropout, Squeeze,
 * Unsqueeze and Transpose where the bytes stay as they are (a reshape
 * aliasing its input), Concat, Split and Slice along channels, and
 * Constant.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

int nvc_alias(struct nvc_loader *l, struct nvc_value *x, int rank,
	      const int64_t *dims)
{
	struct nvc_value *y;
	int ret, k;

	if (rank < 0 || rank > NVC_MAX_RANK)
		return nvc_node_error(l, -EINVAL,
				      "the result has rank %d (at most %d)", rank,
				      NVC_MAX_RANK);
	if (nvc_dims_count(rank, dims) != nvc_dims_count(x->rank, x->dims))
		return nvc_node_error(l, -EINVAL,
				      "the new shape does not hold the %ld elements of '%s'",
				      nvc_dims_count(x->rank, x->dims), x->name);
	ret = nvc_output_act(l, 0, rank, dims, &y);
	if (ret)
		return ret;
	l->g->tensors[y->tensor].alias_of = x->tensor;
	k = nvc_node_new(l, NVC_RESHAPE, 1, &x->tensor, 1, &y->tensor);
	return k < 0 ? k : 0;
}

/* Axes from attribute @name (before @opset_input) or input 1. */
static int axes(struct nvc_loader *l, int opset_input, int64_t *v, int *n)
{
	struct nvc_value *a;
	int ret;

	if (l->opset < opset_input)
		return nvc_attr_ints(l, "axes", NVC_MAX_RANK, v, n);
	*n = 0;
	if (!nvc_input_present(l, 1))
		return 0;
	ret = nvc_input_int64(l, 1, &a);
	if (ret)
		return ret;
	if (a->count > NVC_MAX_RANK)
		return nvc_node_error(l, -EINVAL, "too many axes");
	memcpy(v, a->i, a->count * sizeof(*v));
	*n = a->count;
	return 0;
}

/* @axis within [-rank, rank) into [0, rank). */
static int axis_norm(struct nvc_loader *l, int64_t *axis, int rank)
{
	if (*axis < -rank || *axis >= rank)
		return nvc_node_error(l, -EINVAL, "axis %lld is out of range",
				      (long long)*axis);
	if (*axis < 0)
		*axis += rank;
	return 0;
}

int nvc_op_reshape(struct nvc_loader *l)
{
	static const char *const known[] = { "allowzero", NULL };
	int64_t dims[NVC_MAX_RANK + 1], xd[NVC_MAX_RANK + 1];
	int64_t known_count = 1, zero;
	struct nvc_value *x, *s, plain;
	int ret, i, xr, infer = -1;

	ret = nvc_node_check(l, 2, 2, known);
	if (!ret)
		ret = nvc_attr_int(l, "allowzero", 0, &zero);
	if (!ret) {
		l->take_view = 1;
		ret = nvc_input_any(l, 0, &x);
		l->take_view = 0;
	}
	if (!ret)
		ret = nvc_input_int64(l, 1, &s);
	if (ret)
		return ret;
	/* Rank 5 only for the view of a channel shuffle. */
	if (s->count > NVC_MAX_RANK + (x->kind == VAL_ACT))
		return nvc_node_error(l, -EINVAL, "the shape has rank %ld (at most %d)",
				      s->count, NVC_MAX_RANK);
	xr = nvc_value_dims(x, xd);
	for (i = 0; i < s->count; i++) {
		dims[i] = s->i[i];
		if (dims[i] == 0 && !zero) {
			if (i >= xr)
				return nvc_node_error(l, -EINVAL,
						      "dimension %d copies a dimension the input lacks", i);
			dims[i] = xd[i];
		}
		if (dims[i] == -1 && infer < 0) {
			infer = i;
			continue;
		}
		if (dims[i] < 1 || dims[i] > NVC_MAX_ELEMENTS)
			return nvc_node_error(l, -EINVAL, "dimension %d is %lld", i,
					      (long long)dims[i]);
		known_count *= dims[i];
		if (known_count > NVC_MAX_ELEMENTS)
			return nvc_node_error(l, -EINVAL, "the shape is too large");
	}
	if (infer >= 0)
		dims[infer] = nvc_dims_count(xr, xd) / known_count;
	if (x->kind != VAL_ACT) {
		if (nvc_dims_count(s->count, dims) != x->count)
			return nvc_node_error(l, -EINVAL,
					      "the new shape does not hold the %ld elements of '%s'",
					      x->count, x->name);
		return nvc_const_reshape(l, x, s->count, dims);
	}
	if (s->count > NVC_MAX_RANK)
		return nvc_view_begin(l, x, dims);
	if (x->view_node && x->view_swapped)
		return nvc_view_end(l, x, s->count, dims);
	plain = *x;		/* a view in its first order: the tensor itself */
	plain.view_node = NULL;
	return nvc_alias(l, &plain, s->count, dims);
}

int nvc_op_flatten(struct nvc_loader *l)
{
	static const char *const known[] = { "axis", NULL };
	struct nvc_value *x;
	int64_t axis, dims[2] = { 1, 1 };
	int ret, i;

	ret = nvc_node_check(l, 1, 1, known);
	if (!ret)
		ret = nvc_attr_int(l, "axis", 1, &axis);
	if (!ret)
		ret = nvc_input_act(l, 0, &x);
	if (!ret && axis != x->rank)
		ret = axis_norm(l, &axis, x->rank);
	if (ret)
		return ret;
	for (i = 0; i < x->rank; i++)
		dims[i >= axis] *= x->dims[i];
	return nvc_alias(l, x, 2, dims);
}

/*
 * Identity and Dropout: the output names the input's value, a constant's
 * data or a computed tensor, with no node; a graph output keeps a reshape
 * node so that it has its own tensor and name.
 */
int nvc_op_identity(struct nvc_loader *l)
{
	static const char *const none[] = { NULL };
	static const char *const dropout[] = { "ratio", "seed", NULL };
	int drop = !strcmp(l->op, "Dropout");
	struct nvc_value *x;
	int ret;

	ret = nvc_node_check(l, 1, drop && l->opset >= 12 ? 3 : 1,
			     drop ? dropout : none);
	if (!ret && nvc_input_present(l, 2))
		ret = nvc_node_error(l, -EINVAL, "training_mode is not supported");
	if (!ret)
		ret = nvc_input_any(l, 0, &x);
	if (ret)
		return ret;
	return nvc_pass_through(l, x);
}

int nvc_pass_through(struct nvc_loader *l, struct nvc_value *x)
{
	struct nvc_value *y;

	if (x->kind != VAL_ACT)
		return nvc_const_reshape(l, x, x->rank, x->dims);
	if (nvc_is_graph_output(l, l->node->output[0]))
		return nvc_alias(l, x, x->rank, x->dims);
	y = nvc_value_new(l, l->node->output[0]);
	if (!y)
		return -EINVAL;
	y->kind = VAL_ACT;
	y->rank = x->rank;
	memcpy(y->dims, x->dims, sizeof(y->dims));
	y->tensor = x->tensor;
	return 0;
}

/* Squeeze and Unsqueeze: axes from the attribute, or input 1 from opset 13. */
int nvc_op_squeeze(struct nvc_loader *l)
{
	static const char *const old[] = { "axes", NULL };
	static const char *const none[] = { NULL };
	int unsqueeze = !strcmp(l->op, "Unsqueeze");
	int64_t a[NVC_MAX_RANK], dims[NVC_MAX_RANK];
	char mark[2 * NVC_MAX_RANK] = { 0 };
	struct nvc_value *x;
	int ret, n, i, j, rank;

	ret = nvc_node_check(l, 1, l->opset < 13 ? 1 : 2,
			     l->opset < 13 ? old : none);
	if (!ret)
		ret = axes(l, 13, a, &n);
	if (!ret)
		ret = nvc_input_any(l, 0, &x);
	if (ret)
		return ret;
	rank = unsqueeze ? x->rank + n : x->rank;
	if (unsqueeze && !n)
		return nvc_node_error(l, -EINVAL, "axes are missing");
	if (rank > NVC_MAX_RANK)
		return nvc_node_error(l, -EINVAL, "the result has rank %d (at most %d)",
				      rank, NVC_MAX_RANK);
	for (i = 0; i < n; i++) {
		ret = axis_norm(l, &a[i], rank);
		if (ret)
			return ret;
		if (mark[a[i]]++ || (!unsqueeze && x->dims[a[i]] != 1))
			return nvc_node_error(l, -EINVAL,
					      "axis %lld is repeated or not of size 1",
					      (long long)a[i]);
	}
	for (i = j = 0; i < rank; i++) {
		if (unsqueeze)
			dims[i] = mark[i] ? 1 : x->dims[j++];
		else if (!(n ? mark[i] : x->dims[i] == 1))
			dims[j++] = x->dims[i];
	}
	if (x->kind != VAL_ACT)
		return nvc_const_reshape(l, x, unsqueeze ? rank : j, dims);
	return nvc_alias(l, x, unsqueeze ? rank : j, dims);
}

int nvc_op_transpose(struct nvc_loader *l)
{
	static const char *const known[] = { "perm", NULL };
	int64_t perm[NVC_MAX_RANK + 1], dims[NVC_MAX_RANK];
	char seen[NVC_MAX_RANK] = { 0 };
	struct nvc_value *x;
	int ret, n, i, last = -1;

	ret = nvc_node_check(l, 1, 1, known);
	if (!ret)
		ret = nvc_attr_ints(l, "perm", NVC_MAX_RANK + 1, perm, &n);
	if (!ret) {
		l->take_view = 1;
		ret = nvc_input_any(l, 0, &x);
		l->take_view = 0;
	}
	if (ret)
		return ret;
	if (x->view_node)
		return nvc_view_transpose(l, x, n, perm);
	ret = nvc_channels_last(l, x, n, perm);
	if (ret <= 0)
		return ret;
	if (x->tokens)
		return nvc_node_error(l, -EINVAL,
				      "input '%s' is in token layout; only a channels-last view's Transpose (0, 3, 1, 2) back is supported",
				      x->name);
	if (n && n != x->rank)
		return nvc_node_error(l, -EINVAL, "perm has %d axes for rank %d",
				      n, x->rank);
	for (i = 0; i < x->rank; i++) {
		int64_t p = n ? perm[i] : x->rank - 1 - i;

		if (p < 0 || p >= x->rank || seen[p]++)
			return nvc_node_error(l, -EINVAL, "perm is not a permutation");
		dims[i] = x->dims[p];
		perm[i] = p;
		if (x->kind != VAL_ACT)
			continue;
		/* The data stays put if axes longer than 1 keep their order. */
		if (x->dims[p] == 1)
			continue;
		if (p < last)
			return nvc_node_error(l, -EINVAL,
					      "the permutation moves data; only transposes that keep the bytes are supported");
		last = p;
	}
	if (x->kind != VAL_ACT)
		return nvc_const_transpose(l, x, perm);
	return nvc_alias(l, x, x->rank, dims);
}

/*
 * Tensors @in[0..n) concatenated along channels into a new tensor of
 * their plane (a part of a concatenation of more than NVC_MAX_INPUTS):
 * its index, or an error.
 */
static int concat_part(struct nvc_loader *l, const int *in, int n)
{
	const struct nvc_tensor *t0 = &l->g->tensors[in[0]];
	char name[NVC_ERR_LEN];
	int t, i, c = 0, k;

	for (i = 0; i < n; i++)
		c += l->g->tensors[in[i]].c;
	snprintf(name, sizeof(name), "%s/part%d", l->node_name,
		 l->g->num_tensors);
	t = nvc_tensor_add(l->g, name, 1, c, t0->h, t0->w, NULL);
	if (t < 0)
		return nvc_error(l->err, l->errlen, t, "out of memory");
	k = nvc_node_new(l, NVC_CONCAT, n, in, 1, &t);
	return k < 0 ? k : t;
}

/*
 * The node of a concatenation of @n tensors into @out: more than
 * NVC_MAX_INPUTS are concatenated by parts of up to that many first.
 */
static int concat_nodes(struct nvc_loader *l, int *in, int n, int out)
{
	int i, m, t, k;

	while (n > NVC_MAX_INPUTS) {
		for (i = m = 0; i < n; i += NVC_MAX_INPUTS) {
			int len = n - i < NVC_MAX_INPUTS ? n - i : NVC_MAX_INPUTS;

			t = len > 1 ? concat_part(l, in + i, len) : in[i];
			if (t < 0)
				return t;
			in[m++] = t;
		}
		n = m;
	}
	k = nvc_node_new(l, NVC_CONCAT, n, in, 1, &out);
	return k < 0 ? k : 0;
}

int nvc_op_concat(struct nvc_loader *l)
{
	static const char *const known[] = { "axis", NULL };
	struct nvc_value *x, *y;
	int64_t axis, dims[NVC_MAX_RANK];
	int *in, ret, i, j, n = l->node->n_input;

	ret = nvc_node_check(l, 1, NVC_MAX_NODES, known);
	if (!ret && !nvc_attr(l, "axis"))
		ret = nvc_node_error(l, -EINVAL, "axis is missing");
	if (!ret)
		ret = nvc_attr_int(l, "axis", 1, &axis);
	if (!ret)
		ret = nvc_input_any(l, 0, &x);
	if (!ret && x->kind != VAL_ACT)
		return nvc_const_concat(l, axis);
	if (!ret)
		ret = axis_norm(l, &axis, x->rank);
	if (ret)
		return ret;
	if (axis != 1)
		return nvc_node_error(l, -EINVAL,
				      "only a concatenation along channels is supported");
	in = malloc(n * sizeof(*in));
	if (!in)
		return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	memcpy(dims, x->dims, sizeof(dims));
	dims[1] = 0;
	for (i = 0; !ret && i < n; i++) {
		struct nvc_value *xi;

		ret = nvc_input_act(l, i, &xi);
		for (j = 0; !ret && j < x->rank; j++)
			if (xi->rank != x->rank ||
			    (j != 1 && xi->dims[j] != x->dims[j]))
				ret = nvc_node_error(l, -EINVAL,
						     "'%s' and '%s' differ beyond the channels",
						     x->name, xi->name);
		if (!ret) {
			dims[1] += xi->dims[1];
			in[i] = xi->tensor;
		}
	}
	if (!ret)
		ret = nvc_output_act(l, 0, x->rank, dims, &y);
	if (!ret)
		ret = concat_nodes(l, in, n, y->tensor);
	free(in);
	return ret;
}

/* Split sizes: the attribute (before opset 13), input 1, or equal parts. */
static int split_sizes(struct nvc_loader *l, const struct nvc_value *x,
		       int n, int64_t *size)
{
	struct nvc_value *s;
	int64_t sum = 0;
	int ret, i, k;

	if (l->opset < 13) {
		ret = nvc_attr_ints(l, "split", NVC_MAX_OUTPUTS, size, &k);
	} else {
		k = 0;
		ret = 0;
		if (nvc_input_present(l, 1)) {
			ret = nvc_input_int64(l, 1, &s);
			if (!ret && s->count > NVC_MAX_OUTPUTS)
				ret = nvc_node_error(l, -EINVAL, "too many parts");
			if (!ret) {
				k = s->count;
				memcpy(size, s->i, k * sizeof(*size));
			}
		}
	}
	if (ret)
		return ret;
	if (!k && x->dims[1] % n)
		return nvc_node_error(l, -EINVAL,
				      "%lld channels do not split into %d equal parts",
				      (long long)x->dims[1], n);
	for (i = 0; i < n; i++) {
		if (!k)
			size[i] = x->dims[1] / n;
		if (size[i] < 1 || size[i] > x->dims[1])
			return nvc_node_error(l, -EINVAL, "part %d is empty or too large", i);
		sum += size[i];
	}
	if ((k && k != n) || sum != x->dims[1])
		return nvc_node_error(l, -EINVAL,
				      "the parts do not add up to %lld channels in %d outputs",
				      (long long)x->dims[1], n);
	return 0;
}

int nvc_op_split(struct nvc_loader *l)
{
	static const char *const old[] = { "axis", "split", NULL };
	static const char *const known[] = { "axis", NULL };
	const Onnx__NodeProto *nd = l->node;
	int64_t axis, size[NVC_MAX_OUTPUTS], dims[NVC_MAX_RANK];
	int n = nd->n_output, out[NVC_MAX_OUTPUTS], ret, i, k;
	struct nvc_value *x, *y;

	if (n < 1 || n > NVC_MAX_OUTPUTS || nd->n_input < 1 || nd->n_input > 2)
		return nvc_node_error(l, -EINVAL,
				      "has %zu inputs and %d outputs (1 to 2, 1 to %d)",
				      nd->n_input, n, NVC_MAX_OUTPUTS);
	ret = nvc_attr_check(l, l->opset < 13 ? old : known);
	if (!ret)
		ret = nvc_attr_int(l, "axis", 0, &axis);
	if (!ret)
		ret = nvc_input_act(l, 0, &x);
	if (!ret)
		ret = axis_norm(l, &axis, x->rank);
	if (ret)
		return ret;
	if (axis != 1)
		return nvc_node_error(l, -EINVAL,
				      "only a split along channels is supported");
	ret = split_sizes(l, x, n, size);
	if (ret)
		return ret;
	memcpy(dims, x->dims, sizeof(dims));
	for (i = 0; i < n; i++) {
		if (!nd->output[i] || !*nd->output[i])
			return nvc_node_error(l, -EINVAL, "output %d has no name", i);
		dims[1] = size[i];
		ret = nvc_output_act(l, i, x->rank, dims, &y);
		if (ret)
			return ret;
		out[i] = y->tensor;
	}
	k = nvc_node_new(l, NVC_SPLIT, 1, &x->tensor, n, out);
	return k < 0 ? k : 0;
}

/* An unnamed part of @c channels of @x's plane, for a Slice's Split. */
static int slice_rest(struct nvc_loader *l, const struct nvc_value *x,
		      int64_t c, const char *what)
{
	const struct nvc_tensor *t = &l->g->tensors[x->tensor];
	char name[NVC_ERR_LEN];
	int k;

	snprintf(name, sizeof(name), "%s/%s", l->node_name, what);
	k = nvc_tensor_add(l->g, name, 1, (int)c, t->h, t->w, NULL);
	return k < 0 ? nvc_error(l->err, l->errlen, k, "out of memory") : k;
}

int nvc_slice_channels(struct nvc_loader *l, struct nvc_value *x,
		       int64_t first, int64_t count)
{
	int64_t dims[NVC_MAX_RANK], after = x->dims[1] - first - count;
	int out[3], n = 0, ret, k;
	struct nvc_value *y;

	if (first > 0) {
		out[n] = slice_rest(l, x, first, "before");
		if (out[n++] < 0)
			return out[n - 1];
	}
	memcpy(dims, x->dims, sizeof(dims));
	dims[1] = count;
	ret = nvc_output_act(l, 0, x->rank, dims, &y);
	if (ret)
		return ret;
	out[n++] = y->tensor;
	if (after > 0) {
		out[n] = slice_rest(l, x, after, "after");
		if (out[n++] < 0)
			return out[n - 1];
	}
	k = nvc_node_new(l, NVC_SPLIT, 1, &x->tensor, n, out);
	return k < 0 ? k : 0;
}

/* Constant: a tensor, or a float, floats, int or ints attribute. */
int nvc_op_constant(struct nvc_loader *l)
{
	static const char *const known[] = { "value", "value_float",
		"value_floats", "value_int", "value_ints", NULL };
	const Onnx__AttributeProto *a;
	struct nvc_value *v;
	int ret;

	ret = nvc_node_check(l, 0, 0, known);
	if (ret)
		return ret;
	if (l->node->n_attribute != 1)
		return nvc_node_error(l, -EINVAL, "needs exactly one value attribute");
	a = l->node->attribute[0];
	v = nvc_value_new(l, l->node->output[0]);
	if (!v)
		return -EINVAL;
	switch (a->type) {
	case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR:
		if (!a->t)
			break;
		return nvc_tensor_value(l, a->t, v);
	case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT:
	case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS:
		v->kind = VAL_FLOAT;
		v->count = a->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT ?
			   1 : (long)a->n_floats;
		v->rank = a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT;
		v->dims[0] = v->count;
		v->f = malloc((v->count + 1) * sizeof(*v->f));
		if (!v->f)
			return -ENOMEM;
		if (v->count)
			memcpy(v->f, v->rank ? a->floats : &a->f,
			       v->count * sizeof(*v->f));
		return 0;
	case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT:
	case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS:
		v->kind = VAL_INT64;
		v->count = a->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT ?
			   1 : (long)a->n_ints;
		v->rank = a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
		v->dims[0] = v->count;
		v->i = malloc((v->count + 1) * sizeof(*v->i));
		if (!v->i)
			return -ENOMEM;
		if (v->count)
			memcpy(v->i, v->rank ? a->ints : &a->i,
			       v->count * sizeof(*v->i));
		return 0;
	default:
		break;
	}
	return nvc_node_error(l, -EINVAL, "attribute '%s' is not a value",
			      a->name ? a->name : "");
}
