// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * What the operator mappings read and write: the node's attributes (each
 * checked for its type; unknown ones refused), its inputs by kind, and
 * the graph tensors and nodes they create.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

int nvc_node_error(struct nvc_loader *l, int code, const char *fmt, ...)
{
	char msg[NVC_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return nvc_error(l->err, l->errlen, code, "node '%s' (%s): %s",
			 l->node_name, l->node->op_type ? l->node->op_type : "",
			 msg);
}

int nvc_attr_check(struct nvc_loader *l, const char *const *known)
{
	size_t i;
	int k;

	for (i = 0; i < l->node->n_attribute; i++) {
		const char *name = l->node->attribute[i]->name;

		for (k = 0; known[k]; k++)
			if (name && !strcmp(name, known[k]))
				break;
		if (!known[k])
			return nvc_node_error(l, -EINVAL,
					      "attribute '%s' is not supported",
					      name ? name : "");
	}
	return 0;
}

const Onnx__AttributeProto *nvc_attr(struct nvc_loader *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->node->n_attribute; i++)
		if (l->node->attribute[i]->name &&
		    !strcmp(l->node->attribute[i]->name, name))
			return l->node->attribute[i];
	return NULL;
}

static int attr_type(struct nvc_loader *l, const Onnx__AttributeProto *a,
		     Onnx__AttributeProto__AttributeType type, const char *what)
{
	if (a->type != type)
		return nvc_node_error(l, -EINVAL, "attribute '%s' is not %s",
				      a->name, what);
	return 0;
}

int nvc_attr_int(struct nvc_loader *l, const char *name, int64_t def,
		 int64_t *v)
{
	const Onnx__AttributeProto *a = nvc_attr(l, name);

	*v = def;
	if (!a)
		return 0;
	if (attr_type(l, a, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT,
		      "an integer"))
		return -EINVAL;
	*v = a->i;
	return 0;
}

int nvc_attr_float(struct nvc_loader *l, const char *name, float def,
		   float *v)
{
	const Onnx__AttributeProto *a = nvc_attr(l, name);

	*v = def;
	if (!a)
		return 0;
	if (attr_type(l, a, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT,
		      "a float"))
		return -EINVAL;
	*v = a->f;
	return 0;
}

int nvc_attr_ints(struct nvc_loader *l, const char *name, int max,
		  int64_t *v, int *n)
{
	const Onnx__AttributeProto *a = nvc_attr(l, name);

	*n = 0;
	if (!a)
		return 0;
	if (attr_type(l, a, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS,
		      "a list of integers"))
		return -EINVAL;
	if (a->n_ints > (size_t)max)
		return nvc_node_error(l, -EINVAL,
				      "attribute '%s' has %zu values (at most %d)",
				      name, a->n_ints, max);
	if (a->n_ints)
		memcpy(v, a->ints, a->n_ints * sizeof(*v));
	*n = a->n_ints;
	return 0;
}

int nvc_attr_string(struct nvc_loader *l, const char *name, const char *def,
		    char *v, size_t size)
{
	const Onnx__AttributeProto *a = nvc_attr(l, name);

	snprintf(v, size, "%s", def);
	if (!a)
		return 0;
	if (attr_type(l, a, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING,
		      "a string"))
		return -EINVAL;
	if (a->s.len >= size || (a->s.len && memchr(a->s.data, 0, a->s.len)))
		return nvc_node_error(l, -EINVAL, "attribute '%s' is not a valid value",
				      name);
	if (a->s.len)
		memcpy(v, a->s.data, a->s.len);
	v[a->s.len] = 0;
	return 0;
}

int nvc_io_check(struct nvc_loader *l, int min, int max)
{
	const Onnx__NodeProto *n = l->node;
	size_t i;

	if (n->n_input < (size_t)min || n->n_input > (size_t)max)
		return nvc_node_error(l, -EINVAL, "has %zu inputs (%d to %d)",
				      n->n_input, min, max);
	if (n->n_output < 1 || !n->output[0] || !*n->output[0])
		return nvc_node_error(l, -EINVAL, "has no output");
	for (i = 1; i < n->n_output; i++)
		if (n->output[i] && *n->output[i])
			return nvc_node_error(l, -EINVAL,
					      "output %zu ('%s') is not supported (only the first)",
					      i, n->output[i]);
	return 0;
}

int nvc_node_check(struct nvc_loader *l, int min, int max,
		   const char *const *known)
{
	int ret = nvc_io_check(l, min, max);

	return ret ? ret : nvc_attr_check(l, known);
}

int nvc_input_present(struct nvc_loader *l, int i)
{
	return (size_t)i < l->node->n_input && l->node->input[i] &&
	       *l->node->input[i];
}

/*
 * A Pad's output is read only by what folds it, a channel-group view
 * only by the rest of its shuffle, integer codes only by DequantizeLinear.
 */
static int pad_check(struct nvc_loader *l, const struct nvc_value *v)
{
	if (v->view_node && !l->take_view)
		return nvc_node_error(l, -EINVAL,
				      "input '%s' is the rank-5 view of channel groups of Reshape node '%s', read only by a channel shuffle's Transpose (0, 2, 1, 3, 4) and Reshape back to rank 4",
				      v->name, v->view_node);
	if (v->quant_type && !l->take_quant)
		return nvc_node_error(l, -EINVAL,
				      "input '%s' holds integer codes (%s), read only by DequantizeLinear",
				      v->name, v->kind == VAL_ACT ?
				      "the int8 output of a QuantizeLinear" :
				      "an integer constant");
	if (v->tokens && !l->take_tokens)
		return nvc_node_error(l, -EINVAL,
				      "input '%s' is a [1, T, D] tensor in token layout (after a MatMul over its last axis) or a channels-last [1, H, W, C] view (after a Transpose (0, 2, 3, 1)), which only element-wise operators, MatMul, LayerNormalization and the Transpose back read",
				      v->name);
	if (v->kind == VAL_ACT && v->tokens)
		l->in_tokens = 1;
	if (!v->pad_node || l->take_pad)
		return 0;
	return nvc_node_error(l, -EINVAL,
			      "input '%s' is the zero padding of Pad node '%s', which is folded only into a convolution or an average pooling",
			      v->name, v->pad_node);
}

static int input_kind(struct nvc_loader *l, int i, enum nvc_value_kind kind,
		      struct nvc_value **v)
{
	static const char *const what[] = {
		[VAL_ACT] = "a tensor computed by the graph",
		[VAL_FLOAT] = "a FLOAT constant",
		[VAL_INT64] = "an INT64 constant",
	};

	if (!nvc_input_present(l, i))
		return nvc_node_error(l, -EINVAL, "input %d is missing", i);
	*v = nvc_value_find(l, l->node->input[i]);
	if ((*v)->kind != kind)
		return nvc_node_error(l, -EINVAL, "input '%s' is not %s",
				      (*v)->name, what[kind]);
	return pad_check(l, *v);
}

int nvc_input_any(struct nvc_loader *l, int i, struct nvc_value **v)
{
	if (!nvc_input_present(l, i))
		return nvc_node_error(l, -EINVAL, "input %d is missing", i);
	*v = nvc_value_find(l, l->node->input[i]);
	return pad_check(l, *v);
}

int nvc_input_act(struct nvc_loader *l, int i, struct nvc_value **v)
{
	return input_kind(l, i, VAL_ACT, v);
}

int nvc_input_act4(struct nvc_loader *l, int i, struct nvc_value **v)
{
	int ret = nvc_input_act(l, i, v);

	if (!ret && (*v)->rank != 4)
		ret = nvc_node_error(l, -EINVAL, "input '%s' has rank %d (4 expected)",
				     (*v)->name, (*v)->rank);
	return ret;
}

int nvc_input_float(struct nvc_loader *l, int i, struct nvc_value **v)
{
	return input_kind(l, i, VAL_FLOAT, v);
}

int nvc_input_float_opt(struct nvc_loader *l, int i, struct nvc_value **v)
{
	*v = NULL;
	return nvc_input_present(l, i) ? nvc_input_float(l, i, v) : 0;
}

int nvc_input_int64(struct nvc_loader *l, int i, struct nvc_value **v)
{
	return input_kind(l, i, VAL_INT64, v);
}

int nvc_shape_nchw(struct nvc_loader *l, const char *what, int rank,
		   const int64_t *dims, int *c, int *h, int *w)
{
	int i;

	if (rank < 2 || rank > NVC_MAX_RANK || dims[0] != 1)
		goto bad;
	for (i = 1; i < rank; i++)
		if (dims[i] < 1 || dims[i] > NVC_MAX_DIM)
			goto bad;
	if (nvc_dims_count(rank, dims) < 0)
		goto bad;
	*c = dims[1];
	*h = rank > 2 ? dims[2] : 1;
	*w = rank > 3 ? dims[3] : 1;
	return 0;
bad:
	if (!l->node)
		return nvc_error(l->err, l->errlen, -EINVAL,
				 "%s: only batch 1 tensors of rank 2 to 4 with sizes 1 to %d are supported",
				 what, NVC_MAX_DIM);
	return nvc_node_error(l, -EINVAL,
			      "%s: only batch 1 tensors of rank 2 to 4 with sizes 1 to %d are supported",
			      what, NVC_MAX_DIM);
}

int nvc_output_act(struct nvc_loader *l, int i, int rank,
		   const int64_t *dims, struct nvc_value **v)
{
	const char *name = l->node->output[i];
	int c, h, w, ret, t;

	ret = nvc_shape_nchw(l, "output shape", rank, dims, &c, &h, &w);
	if (ret)
		return ret;
	if (l->in_tokens && rank == 3) {
		c = dims[2];
		h = dims[1];
	} else if (l->in_tokens && rank == 4) {	/* channels last */
		c = dims[3];
		h = dims[1];
		w = dims[2];
	}
	*v = nvc_value_new(l, name);
	if (!*v)
		return -EINVAL;
	t = nvc_tensor_add(l->g, name, 1, c, h, w, NULL);
	if (t < 0)
		return nvc_error(l->err, l->errlen, t, "out of memory");
	(*v)->kind = VAL_ACT;
	(*v)->tokens = l->in_tokens && (rank == 3 || rank == 4);
	(*v)->rank = rank;
	memcpy((*v)->dims, dims, rank * sizeof(*dims));
	(*v)->tensor = t;
	return 0;
}

int nvc_node_new(struct nvc_loader *l, enum nvc_op op, int num_in, const int *in, int num_out, const int *out)
{
	struct nvc_graph *g = l->g;
	struct nvc_node *nd;
	int k, i;

	k = nvc_node_add(g, l->node_name, l->op, op);
	if (k < 0)
		return nvc_error(l->err, l->errlen, k, "out of memory");
	nd = &g->nodes[k];
	nd->num_inputs = num_in;
	nd->num_outputs = num_out;
	for (i = 0; i < num_in; i++)
		nd->inputs[i] = in[i];
	for (i = 0; i < num_out; i++) {
		nd->outputs[i] = out[i];
		g->tensors[out[i]].producer = k;
	}
	return k;
}

int nvc_unary_node(struct nvc_loader *l, enum nvc_op op, struct nvc_value *x,
		   int rank, const int64_t *dims)
{
	struct nvc_value *y;
	int ret;

	ret = nvc_output_act(l, 0, rank, dims, &y);
	if (ret)
		return ret;
	return nvc_node_new(l, op, 1, &x->tensor, 1, &y->tensor);
}

int nvc_const_tensor(struct nvc_loader *l, const char *what, int n, int c,
		     int h, int w, const float *data)
{
	char name[NVC_ERR_LEN];
	int t;

	snprintf(name, sizeof(name), "%s/%s", l->node_name, what);
	t = nvc_tensor_add(l->g, name, n, c, h, w, data);
	if (t < 0)
		return nvc_error(l->err, l->errlen, t, "out of memory");
	return t;
}

int nvc_channel_vector(struct nvc_loader *l, const char *what,
		       const struct nvc_value *v, const struct nvc_value *x,
		       int c, float *out)
{
	int i, a, per_channel = 0, axis = x->tokens ? x->rank - 1 : 1;

	if (!v->count)
		return nvc_node_error(l, -EINVAL, "%s '%s' is empty", what,
				      v->name);
	if (v->rank > x->rank)
		return nvc_node_error(l, -EINVAL,
				      "%s '%s' has a higher rank than the tensor",
				      what, v->name);
	for (i = 0; i < v->rank; i++) {
		a = x->rank - v->rank + i;	/* numpy broadcasting */
		if (v->dims[i] == 1)
			continue;
		if (a != axis || v->dims[i] != c)
			return nvc_node_error(l, -EINVAL,
					      "%s '%s' varies along axis %d; only scalars and per-channel values are supported",
					      what, v->name, a);
		per_channel = 1;
	}
	for (i = 0; i < c; i++)
		out[i] = v->f[per_channel ? i : 0];
	return 0;
}
