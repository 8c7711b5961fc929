// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * ONNX models into graphs: the model and its operator set, initializers
 * and Constant data, graph inputs and outputs, and the nodes mapped in
 * topological order (Kahn's algorithm: a model need not list them in
 * order). Names are looked up in one hash table sized from the model.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"
#include "runtime_internal.h"

#define OPSET_MIN 7
#define OPSET_MAX 17

static const char *str(const char *s)
{
	return s ? s : "";
}

/* FNV-1a. */
static unsigned int name_hash(const char *s)
{
	unsigned int h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

struct nvc_value *nvc_value_find(struct nvc_loader *l, const char *name)
{
	unsigned int h = name_hash(name) & l->hash_mask;

	for (; l->hash[h]; h = (h + 1) & l->hash_mask)
		if (!strcmp(l->values[l->hash[h] - 1].name, name))
			return &l->values[l->hash[h] - 1];
	return NULL;
}

struct nvc_value *nvc_value_new(struct nvc_loader *l, const char *name)
{
	unsigned int h = name_hash(name) & l->hash_mask;
	struct nvc_value *v;

	if (!*name) {
		nvc_error(l->err, l->errlen, -EINVAL, "a value has an empty name");
		return NULL;
	}
	if (nvc_value_find(l, name)) {
		nvc_error(l->err, l->errlen, -EINVAL,
			  "value '%s' is defined twice", name);
		return NULL;
	}
	if (l->num_values >= l->cap_values) {
		nvc_error(l->err, l->errlen, -EINVAL, "too many values");
		return NULL;
	}
	while (l->hash[h])
		h = (h + 1) & l->hash_mask;
	l->hash[h] = l->num_values + 1;
	v = &l->values[l->num_values++];
	memset(v, 0, sizeof(*v));
	v->name = name;
	v->tensor = -1;
	return v;
}

long nvc_dims_count(int rank, const int64_t *dims)
{
	long n = 1;
	int i;

	for (i = 0; i < rank; i++) {
		if (dims[i] < 0 || dims[i] > NVC_MAX_ELEMENTS)
			return -1;
		n *= dims[i];
		if (n > NVC_MAX_ELEMENTS)
			return -1;
	}
	return n;
}

static const char *dtype_name(int t)
{
	static const char *const names[] = {
		"UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16",
		"INT32", "INT64", "STRING", "BOOL", "FLOAT16", "DOUBLE",
		"UINT32", "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16",
	};

	return t >= 0 && t < (int)(sizeof(names) / sizeof(names[0])) ?
	       names[t] : "unknown";
}

/*
 * Integer codes (INT8, UINT8, INT32: int32_data, or raw little-endian
 * bytes) into @v as floats, exact for every code.
 */
static int code_value(struct nvc_loader *l, const Onnx__TensorProto *tp,
		      struct nvc_value *v)
{
	int esize = tp->data_type == ONNX__TENSOR_PROTO__DATA_TYPE__INT32 ? 4 : 1;
	const uint8_t *raw = tp->raw_data.data;
	long i;

	if (tp->has_raw_data ? tp->raw_data.len != (size_t)v->count * esize :
	    tp->n_int32_data != (size_t)v->count)
		return nvc_error(l->err, l->errlen, -EINVAL,
				 "tensor '%s': its data does not hold the %ld elements of its shape",
				 v->name, v->count);
	v->kind = VAL_FLOAT;
	v->quant_type = tp->data_type;
	v->f = malloc(v->count ? v->count * sizeof(float) : 1);
	if (!v->f)
		return -ENOMEM;
	for (i = 0; i < v->count; i++) {
		if (!tp->has_raw_data)
			v->f[i] = tp->int32_data[i];
		else if (esize == 4)
			v->f[i] = (int32_t)((uint32_t)raw[4 * i] |
					    (uint32_t)raw[4 * i + 1] << 8 |
					    (uint32_t)raw[4 * i + 2] << 16 |
					    (uint32_t)raw[4 * i + 3] << 24);
		else if (tp->data_type == ONNX__TENSOR_PROTO__DATA_TYPE__INT8)
			v->f[i] = (int8_t)raw[i];
		else
			v->f[i] = raw[i];
	}
	return 0;
}

/* The data of @tp into constant value @v (its name set by the caller). */
int nvc_tensor_value(struct nvc_loader *l, const Onnx__TensorProto *tp,
		     struct nvc_value *v)
{
	const char *name = v->name;
	size_t esize;
	long n;

	if (tp->n_dims > NVC_MAX_RANK)
		return nvc_error(l->err, l->errlen, -EINVAL,
				 "tensor '%s': rank %zu is not supported (at most %d)",
				 name, tp->n_dims, NVC_MAX_RANK);
	if ((tp->has_data_location &&
	     tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL) ||
	    tp->n_external_data || tp->segment)
		return nvc_error(l->err, l->errlen, -EINVAL,
				 "tensor '%s': external or segmented data is not supported",
				 name);
	v->rank = tp->n_dims;
	if (tp->n_dims)
		memcpy(v->dims, tp->dims, tp->n_dims * sizeof(*tp->dims));
	n = nvc_dims_count(v->rank, v->dims);
	if (n < 0)
		return nvc_error(l->err, l->errlen, -EINVAL,
				 "tensor '%s': negative dimension or more than %ld elements",
				 name, NVC_MAX_ELEMENTS);
	v->count = n;
	switch (tp->data_type) {
	case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT:
		v->kind = VAL_FLOAT;
		esize = sizeof(float);
		if (!tp->has_raw_data && tp->n_float_data != (size_t)n)
			goto size;
		v->f = malloc(n ? n * esize : 1);
		if (!v->f)
			return -ENOMEM;
		if (!tp->has_raw_data && n)
			memcpy(v->f, tp->float_data, n * esize);
		break;
	case ONNX__TENSOR_PROTO__DATA_TYPE__INT64:
		v->kind = VAL_INT64;
		esize = sizeof(int64_t);
		if (!tp->has_raw_data && tp->n_int64_data != (size_t)n)
			goto size;
		v->i = malloc(n ? n * esize : 1);
		if (!v->i)
			return -ENOMEM;
		if (!tp->has_raw_data && n)
			memcpy(v->i, tp->int64_data, n * esize);
		break;
	case ONNX__TENSOR_PROTO__DATA_TYPE__INT8:
	case ONNX__TENSOR_PROTO__DATA_TYPE__UINT8:
	case ONNX__TENSOR_PROTO__DATA_TYPE__INT32:
		return code_value(l, tp, v);
	default:
		return nvc_error(l->err, l->errlen, -EINVAL,
				 "tensor '%s': data type %s is not supported (FLOAT, INT64 for shapes and axes, INT8, UINT8 and INT32 for DequantizeLinear)",
				 name, dtype_name(tp->data_type));
	}
	if (tp->has_raw_data) {
		/* Little-endian in the file, as on every host we build for. */
		if (tp->raw_data.len != n * esize)
			goto size;
		if (n)
			memcpy(v->kind == VAL_FLOAT ? (void *)v->f : (void *)v->i,
			       tp->raw_data.data, n * esize);
	}
	return 0;
size:
	return nvc_error(l->err, l->errlen, -EINVAL,
			 "tensor '%s': its data does not hold the %ld elements of its shape",
			 name, n);
}

static int load_initializers(struct nvc_loader *l, const Onnx__GraphProto *gp)
{
	size_t i;
	int ret;

	if (gp->n_sparse_initializer)
		return nvc_error(l->err, l->errlen, -EINVAL,
				 "sparse initializers are not supported");
	for (i = 0; i < gp->n_initializer; i++) {
		struct nvc_value *v = nvc_value_new(l, str(gp->initializer[i]->name));

		if (!v)
			return -EINVAL;
		ret = nvc_tensor_value(l, gp->initializer[i], v);
		if (ret)
			return ret;
	}
	return 0;
}

/* A graph input's shape: batch 1 (or symbolic) and fixed other sizes. */
static int input_shape(struct nvc_loader *l, const Onnx__ValueInfoProto *vi,
		       struct nvc_value *v)
{
	const Onnx__TypeProto *tp = vi->type;
	const Onnx__TensorShapeProto *sp;
	size_t i;

	if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
	    !tp->tensor_type || tp->tensor_type->elem_type !=
	    ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT)
		return nvc_error(l->err, l->errlen, -EINVAL,
				 "input '%s' is not a FLOAT tensor", v->name);
	sp = tp->tensor_type->shape;
	if (!sp || sp->n_dim < 2 || sp->n_dim > NVC_MAX_RANK)
		return nvc_error(l->err, l->errlen, -EINVAL,
				 "input '%s': needs a shape of rank 2 to 4", v->name);
	v->rank = sp->n_dim;
	for (i = 0; i < sp->n_dim; i++) {
		const Onnx__TensorShapeProto__Dimension *d = sp->dim[i];

		if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
		    d->dim_value > 0 && d->dim_value <= NVC_MAX_DIM)
			v->dims[i] = d->dim_value;
		else if (i == 0)
			v->dims[i] = 1;		/* symbolic batch: run one */
		else
			return nvc_error(l->err, l->errlen, -EINVAL,
					 "input '%s': dimension %zu is not a fixed size up to %d",
					 v->name, i, NVC_MAX_DIM);
	}
	return 0;
}

static int load_inputs(struct nvc_loader *l, const Onnx__GraphProto *gp)
{
	struct nvc_graph *g = l->g;
	size_t i;
	int c, h, w, t, ret;

	for (i = 0; i < gp->n_input; i++) {
		const char *name = str(gp->input[i]->name);
		struct nvc_value *v;

		if (nvc_value_find(l, name))
			continue;	/* an initializer listed as input */
		if (g->num_inputs == NVC_MAX_INPUTS)
			return nvc_error(l->err, l->errlen, -EINVAL,
					 "more than %d graph inputs", NVC_MAX_INPUTS);
		v = nvc_value_new(l, name);
		if (!v)
			return -EINVAL;
		v->kind = VAL_ACT;
		ret = input_shape(l, gp->input[i], v);
		if (!ret)
			ret = nvc_shape_nchw(l, "input", v->rank, v->dims,
					     &c, &h, &w);
		if (ret)
			return ret;
		t = nvc_tensor_add(g, name, 1, c, h, w, NULL);
		if (t < 0)
			return t;
		v->tensor = t;
		g->inputs[g->num_inputs++] = t;
	}
	if (!g->num_inputs)
		return nvc_error(l->err, l->errlen, -EINVAL, "the graph has no input");
	return 0;
}

static int load_outputs(struct nvc_loader *l, const Onnx__GraphProto *gp)
{
	struct nvc_graph *g = l->g;
	int ret, t = -1;
	size_t i;

	if (!gp->n_output || gp->n_output > NVC_MAX_OUTPUTS)
		return nvc_error(l->err, l->errlen, -EINVAL,
				 "the graph has %zu outputs (1 to %d)",
				 gp->n_output, NVC_MAX_OUTPUTS);
	for (i = 0; i < gp->n_output; i++) {
		const char *name = str(gp->output[i]->name);
		struct nvc_value *v = nvc_value_find(l, name);

		if (!v || v->kind != VAL_ACT)
			return nvc_error(l->err, l->errlen, -EINVAL,
					 "output '%s' is %s", name,
					 v ? "a constant" : "not computed by any node");
		if (v->pad_node)
			return nvc_error(l->err, l->errlen, -EINVAL,
					 "output '%s' is the zero padding of Pad node '%s', which is folded only into a convolution or an average pooling",
					 name, v->pad_node);
		if (v->view_node)
			return nvc_error(l->err, l->errlen, -EINVAL,
					 "output '%s' is the rank-5 view of channel groups of Reshape node '%s'",
					 name, v->view_node);
		ret = v->tokens ? nvc_tokens_output(l, v, &t) : 0;
		if (ret)
			return ret;
		g->outputs[g->num_outputs++] = v->tokens ? t : v->tensor;
	}
	return 0;
}

int nvc_is_graph_output(const struct nvc_loader *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->gp->n_output; i++)
		if (!strcmp(str(l->gp->output[i]->name), name))
			return 1;
	return 0;
}

static const struct {
	const char *name;
	int (*map)(struct nvc_loader *l);
} ops[] = {
	{ "Conv", nvc_op_conv },
	{ "ConvTranspose", nvc_op_conv_transpose },
	{ "Gemm", nvc_op_gemm },
	{ "MatMul", nvc_op_matmul },
	{ "MaxPool", nvc_op_maxpool },
	{ "AveragePool", nvc_op_avgpool },
	{ "GlobalAveragePool", nvc_op_global_pool },
	{ "GlobalMaxPool", nvc_op_global_pool },
	{ "ReduceMean", nvc_op_reduce },
	{ "ReduceMax", nvc_op_reduce },
	{ "LRN", nvc_op_lrn },
	{ "BatchNormalization", nvc_op_batchnorm },
	{ "Relu", nvc_op_activation },
	{ "LeakyRelu", nvc_op_activation },
	{ "Sigmoid", nvc_op_activation },
	{ "Tanh", nvc_op_activation },
	{ "PRelu", nvc_op_prelu },
	{ "HardSigmoid", nvc_op_hard },
	{ "HardSwish", nvc_op_hard },
	{ "Clip", nvc_op_clip },
	{ "Add", nvc_op_arith },
	{ "Sub", nvc_op_arith },
	{ "Mul", nvc_op_arith },
	{ "Div", nvc_op_arith },
	{ "Max", nvc_op_max },
	{ "Softmax", nvc_op_softmax },
	{ "Erf", nvc_op_erf },
	{ "LayerNormalization", nvc_op_layernorm },
	{ "Reshape", nvc_op_reshape },
	{ "Flatten", nvc_op_flatten },
	{ "Identity", nvc_op_identity },
	{ "QuantizeLinear", nvc_op_quantize },
	{ "DequantizeLinear", nvc_op_dequantize },
	{ "Dropout", nvc_op_identity },
	{ "Squeeze", nvc_op_squeeze },
	{ "Unsqueeze", nvc_op_squeeze },
	{ "Transpose", nvc_op_transpose },
	{ "Concat", nvc_op_concat },
	{ "Split", nvc_op_split },
	{ "Constant", nvc_op_constant },
	{ "Shape", nvc_op_shape },
	{ "Gather", nvc_op_gather },
	{ "Slice", nvc_op_slice },
	{ "Cast", nvc_op_cast },
	{ "ConstantOfShape", nvc_op_constant_of_shape },
	{ "Pad", nvc_op_pad },
	{ "Resize", nvc_op_resize },
	{ "Upsample", nvc_op_resize },
};

int nvc_map_node(struct nvc_loader *l, const char *op)
{
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (!strcmp(op, ops[i].name)) {
			l->op = ops[i].name;
			return ops[i].map(l);
		}
	}
	return -ENOENT;
}

static int map_one(struct nvc_loader *l, const Onnx__NodeProto *n)
{
	const char *domain = str(n->domain);
	size_t i;
	int ret;

	l->node = n;
	l->node_name = *str(n->name) ? n->name :
		       n->n_output ? str(n->output[0]) : "";
	l->take_tokens = nvc_tokens_op(str(n->op_type));
	l->in_tokens = 0;
	if (*domain && strcmp(domain, "ai.onnx"))
		return nvc_node_error(l, -EINVAL, "domain '%s' is not supported",
				      domain);
	for (i = 0; i < n->n_input; i++)
		if (*str(n->input[i]) && !nvc_value_find(l, n->input[i]))
			return nvc_node_error(l, -EINVAL,
					      "input '%s' is not defined",
					      n->input[i]);
	ret = nvc_map_node(l, str(n->op_type));
	if (ret == -ENOENT)
		return nvc_node_error(l, -EINVAL, "operator is not supported");
	return ret;
}

/*
 * Map the nodes producers first. @prod names every node output with its
 * node; a node waits for as many inputs as other nodes produce.
 */
static int map_nodes(struct nvc_loader *l, const Onnx__GraphProto *gp)
{
	int nn = gp->n_node, *wait, *queue, *first, *next, *edge, ne = 0;
	int head = 0, tail = 0, i, ret = -ENOMEM;
	struct nvc_loader prod = *l;
	size_t j;

	wait = calloc(nn + 1, sizeof(*wait));
	queue = calloc(nn + 1, sizeof(*queue));
	first = calloc(nn + 1, sizeof(*first));
	prod.values = calloc(l->cap_values, sizeof(*prod.values));
	prod.hash = calloc(l->hash_mask + 1, sizeof(*prod.hash));
	prod.num_values = 0;
	next = edge = NULL;
	if (!wait || !queue || !first || !prod.values || !prod.hash)
		goto out;
	for (i = 0; i < nn; i++) {
		ne += gp->node[i]->n_input;	/* at most one edge each */
		for (j = 0; j < gp->node[i]->n_output; j++) {
			struct nvc_value *v;

			if (!*str(gp->node[i]->output[j]))
				continue;
			v = nvc_value_new(&prod, gp->node[i]->output[j]);
			if (!v) {
				ret = -EINVAL;
				goto out;
			}
			v->tensor = i;
		}
	}
	next = calloc(ne + 1, sizeof(*next));
	edge = calloc(ne + 1, sizeof(*edge));
	if (!next || !edge)
		goto out;
	for (i = 0; i < nn; i++)
		first[i] = -1;
	ne = 0;
	for (i = 0; i < nn; i++) {
		for (j = 0; j < gp->node[i]->n_input; j++) {
			const char *in = str(gp->node[i]->input[j]);
			struct nvc_value *p = *in ? nvc_value_find(&prod, in) : NULL;

			if (!p)
				continue;
			wait[i]++;
			edge[ne] = i;		/* p->tensor feeds i */
			next[ne] = first[p->tensor];
			first[p->tensor] = ne++;
		}
		if (!wait[i])
			queue[tail++] = i;
	}
	while (head < tail) {
		int k = queue[head++], e;

		ret = l->skip && l->skip[k] ? 0 : map_one(l, gp->node[k]);
		if (ret)
			goto out;
		for (e = first[k]; e >= 0; e = next[e])
			if (!--wait[edge[e]])
				queue[tail++] = edge[e];
	}
	ret = 0;
	if (tail < nn)
		ret = nvc_error(l->err, l->errlen, -EINVAL,
				"the graph has a cycle (%d nodes never get their inputs)",
				nn - tail);
out:
	free(wait);
	free(queue);
	free(first);
	free(next);
	free(edge);
	free(prod.values);
	free(prod.hash);
	if (ret == -ENOMEM)
		nvc_error(l->err, l->errlen, ret, "out of memory");
	return ret;
}

static int model_opset(struct nvc_loader *l, const Onnx__ModelProto *m)
{
	size_t i;

	l->opset = 0;
	for (i = 0; i < m->n_opset_import; i++) {
		const char *d = str(m->opset_import[i]->domain);

		if (!*d || !strcmp(d, "ai.onnx"))
			l->opset = m->opset_import[i]->version;
	}
	if (l->opset < OPSET_MIN || l->opset > OPSET_MAX)
		return nvc_error(l->err, l->errlen, -EINVAL,
				 "opset %d is not supported (%d to %d)", l->opset,
				 OPSET_MIN, OPSET_MAX);
	return 0;
}

/* Values a graph can name: initializers, inputs, node outputs. */
static int value_capacity(const Onnx__GraphProto *gp, unsigned int *mask)
{
	size_t n = gp->n_initializer + gp->n_input, i;

	if (gp->n_node > NVC_MAX_NODES)
		return -1;
	for (i = 0; i < gp->n_node; i++)
		n += gp->node[i]->n_output;
	if (n > 8 * (size_t)NVC_MAX_NODES)
		return -1;
	*mask = 1;
	while (*mask < 2 * n + 1)
		*mask <<= 1;
	(*mask)--;
	return n;
}

static void loader_free(struct nvc_loader *l)
{
	int i;

	for (i = 0; i < l->num_values; i++) {
		free(l->values[i].f);
		free(l->values[i].i);
	}
	free(l->values);
	free(l->hash);
	free(l->skip);
}

static int load_graph(struct nvc_loader *l, const Onnx__ModelProto *m)
{
	const Onnx__GraphProto *gp = m->graph;
	int ret, cap;

	if (!gp)
		return nvc_error(l->err, l->errlen, -EINVAL, "the model has no graph");
	l->gp = gp;
	ret = model_opset(l, m);
	if (ret)
		return ret;
	cap = value_capacity(gp, &l->hash_mask);
	if (cap < 0)
		return nvc_error(l->err, l->errlen, -EINVAL,
				 "more than %d nodes", NVC_MAX_NODES);
	l->cap_values = cap;
	l->values = calloc(cap + 1, sizeof(*l->values));
	l->hash = calloc(l->hash_mask + 1, sizeof(*l->hash));
	if (!l->values || !l->hash)
		return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	ret = load_initializers(l, gp);
	if (!ret)
		ret = load_inputs(l, gp);
	if (!ret)
		ret = map_nodes(l, gp);
	if (!ret)
		ret = load_outputs(l, gp);
	return ret;
}

int nvc_onnx_load(const void *buf, size_t len, struct nvc_graph *g,
		  char *err, size_t errlen)
{
	struct nvc_loader l = { .g = g, .err = err, .errlen = errlen };
	Onnx__ModelProto *m;
	int ret;

	memset(g, 0, sizeof(*g));
	m = onnx__model_proto__unpack(NULL, len, buf);
	if (!m)
		return nvc_error(err, errlen, -EINVAL,
				 "not an ONNX model (the protobuf does not parse)");
	ret = load_graph(&l, m);
	loader_free(&l);
	onnx__model_proto__free_unpacked(m, NULL);
	if (ret)
		nvc_graph_free(g);
	return ret;
}

int nvc_onnx_load_file(const char *path, struct nvc_graph *g, char *err,
		       size_t errlen)
{
	struct nvdla_runtime rt = { 0 };	/* for the runtime's file checks */
	char *buf = NULL, msg[NVC_ERR_LEN * 2];
	uint64_t size;
	FILE *f;
	int ret;

	memset(g, 0, sizeof(*g));
	ret = nvdla_rt_open_file(&rt, path, &f, &size);
	if (ret)
		return nvc_error(err, errlen, ret, "%s", rt.error);
	if (size > NVC_MAX_MODEL_BYTES) {
		ret = nvc_error(err, errlen, -EFBIG, "%s: larger than %ld bytes",
				path, NVC_MAX_MODEL_BYTES);
		goto out;
	}
	buf = malloc(size ? size : 1);
	if (!buf) {
		ret = nvc_error(err, errlen, -ENOMEM, "%s: out of memory", path);
		goto out;
	}
	if (fread(buf, 1, size, f) != size) {
		ret = nvc_error(err, errlen, -EIO, "%s: read error", path);
		goto out;
	}
	ret = nvc_onnx_load(buf, size, g, msg, sizeof(msg));
	if (ret)
		nvc_error(err, errlen, ret, "%s: %s", path, msg);
out:
	free(buf);
	fclose(f);
	return ret;
}
