/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * ONNX models built in memory with protobuf-c for the compiler's tests:
 * every field malloc'ed, so that the generated free function releases
 * the whole model.
 */
#ifndef __NVDLA_TESTS_ONNX_BUILD_H__
#define __NVDLA_TESTS_ONNX_BUILD_H__

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb-c.h"

#define GROW(arr, n) (arr = realloc(arr, ((n) + 1) * sizeof(*(arr))))

static inline void *ob_new(size_t size, void (*init)(void *))
{
	void *p = calloc(1, size);

	init(p);
	return p;
}

#define OB_NEW(type, init) \
	((type *)ob_new(sizeof(type), (void (*)(void *))init))

static inline Onnx__ModelProto *ob_model(int opset)
{
	Onnx__ModelProto *m = OB_NEW(Onnx__ModelProto, onnx__model_proto__init);
	Onnx__OperatorSetIdProto *o = OB_NEW(Onnx__OperatorSetIdProto,
					     onnx__operator_set_id_proto__init);

	m->has_ir_version = 1;
	m->ir_version = 8;
	o->domain = strdup("");
	o->has_version = 1;
	o->version = opset;
	m->opset_import = malloc(sizeof(*m->opset_import));
	m->opset_import[0] = o;
	m->n_opset_import = 1;
	m->graph = OB_NEW(Onnx__GraphProto, onnx__graph_proto__init);
	m->graph->name = strdup("test");
	return m;
}

static inline Onnx__ValueInfoProto *ob_value_info(const char *name, int rank,
						  const int64_t *dims)
{
	Onnx__ValueInfoProto *v = OB_NEW(Onnx__ValueInfoProto,
					 onnx__value_info_proto__init);
	Onnx__TypeProto *t = OB_NEW(Onnx__TypeProto, onnx__type_proto__init);
	Onnx__TypeProto__Tensor *tt = OB_NEW(Onnx__TypeProto__Tensor,
					     onnx__type_proto__tensor__init);
	int i;

	v->name = strdup(name);
	v->type = t;
	t->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
	t->tensor_type = tt;
	tt->has_elem_type = 1;
	tt->elem_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
	if (rank < 0)
		return v;
	tt->shape = OB_NEW(Onnx__TensorShapeProto, onnx__tensor_shape_proto__init);
	tt->shape->n_dim = rank;
	tt->shape->dim = calloc(rank + 1, sizeof(*tt->shape->dim));
	for (i = 0; i < rank; i++) {
		Onnx__TensorShapeProto__Dimension *d =
			OB_NEW(Onnx__TensorShapeProto__Dimension,
			       onnx__tensor_shape_proto__dimension__init);

		d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
		d->dim_value = dims[i];
		tt->shape->dim[i] = d;
	}
	return v;
}

/* Graph input @name of NCHW shape (rank 4) or [1, c] (h = w = 0). */
static inline void ob_input(Onnx__ModelProto *m, const char *name, int c,
			    int h, int w)
{
	Onnx__GraphProto *g = m->graph;
	int64_t dims[4] = { 1, c, h, w };

	GROW(g->input, g->n_input);
	g->input[g->n_input++] = ob_value_info(name, h ? 4 : 2, dims);
}

static inline void ob_output(Onnx__ModelProto *m, const char *name)
{
	Onnx__GraphProto *g = m->graph;

	GROW(g->output, g->n_output);
	g->output[g->n_output++] = ob_value_info(name, -1, NULL);
}

static inline Onnx__TensorProto *ob_tensor(const char *name, int type,
					   int rank, const int64_t *dims)
{
	Onnx__TensorProto *t = OB_NEW(Onnx__TensorProto, onnx__tensor_proto__init);

	t->name = strdup(name);
	t->has_data_type = 1;
	t->data_type = type;
	t->n_dims = rank;
	t->dims = malloc((rank + 1) * sizeof(*t->dims));
	if (rank)
		memcpy(t->dims, dims, rank * sizeof(*dims));
	return t;
}

static inline long ob_count(int rank, const int64_t *dims)
{
	long n = 1;
	int i;

	for (i = 0; i < rank; i++)
		n *= dims[i];
	return n;
}

/* A float initializer of @rank dims, its values in float_data. */
static inline Onnx__TensorProto *ob_init(Onnx__ModelProto *m, const char *name,
					 int rank, const int64_t *dims,
					 const float *data)
{
	Onnx__GraphProto *g = m->graph;
	Onnx__TensorProto *t = ob_tensor(name, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT,
					 rank, dims);
	long n = ob_count(rank, dims);

	t->n_float_data = n;
	t->float_data = malloc((n + 1) * sizeof(float));
	if (n)
		memcpy(t->float_data, data, n * sizeof(float));
	GROW(g->initializer, g->n_initializer);
	g->initializer[g->n_initializer++] = t;
	return t;
}

static inline void ob_init_i64(Onnx__ModelProto *m, const char *name, int n,
			       const int64_t *v)
{
	Onnx__GraphProto *g = m->graph;
	int64_t dims[1] = { n };
	Onnx__TensorProto *t = ob_tensor(name, ONNX__TENSOR_PROTO__DATA_TYPE__INT64,
					 1, dims);

	t->n_int64_data = n;
	t->int64_data = malloc((n + 1) * sizeof(*v));
	memcpy(t->int64_data, v, n * sizeof(*v));
	GROW(g->initializer, g->n_initializer);
	g->initializer[g->n_initializer++] = t;
}

/* Split "a,b,,c" into strdup'ed names (empty ones kept). */
static inline size_t ob_names(const char *list, char ***out)
{
	size_t n = 0;
	const char *s = list, *e;

	*out = NULL;
	if (!*list)
		return 0;
	for (;;) {
		e = strchr(s, ',');
		GROW(*out, n);
		(*out)[n++] = strndup(s, e ? (size_t)(e - s) : strlen(s));
		if (!e)
			return n;
		s = e + 1;
	}
}

static inline Onnx__NodeProto *ob_node(Onnx__ModelProto *m, const char *op,
				       const char *name, const char *in,
				       const char *out)
{
	Onnx__GraphProto *g = m->graph;
	Onnx__NodeProto *n = OB_NEW(Onnx__NodeProto, onnx__node_proto__init);

	n->op_type = strdup(op);
	n->name = strdup(name);
	n->n_input = ob_names(in, &n->input);
	n->n_output = ob_names(out, &n->output);
	GROW(g->node, g->n_node);
	g->node[g->n_node++] = n;
	return n;
}

static inline Onnx__AttributeProto *ob_attr(Onnx__NodeProto *n,
					    const char *name, int type)
{
	Onnx__AttributeProto *a = OB_NEW(Onnx__AttributeProto,
					 onnx__attribute_proto__init);

	a->name = strdup(name);
	a->has_type = 1;
	a->type = type;
	GROW(n->attribute, n->n_attribute);
	n->attribute[n->n_attribute++] = a;
	return a;
}

static inline void ob_int(Onnx__NodeProto *n, const char *name, int64_t v)
{
	Onnx__AttributeProto *a = ob_attr(n, name,
					  ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);

	a->has_i = 1;
	a->i = v;
}

static inline void ob_float(Onnx__NodeProto *n, const char *name, float v)
{
	Onnx__AttributeProto *a = ob_attr(n, name,
					  ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);

	a->has_f = 1;
	a->f = v;
}

static inline void ob_string(Onnx__NodeProto *n, const char *name,
			     const char *v)
{
	Onnx__AttributeProto *a = ob_attr(n, name,
					  ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);

	a->has_s = 1;
	a->s.len = strlen(v);
	a->s.data = (uint8_t *)strdup(v);
}

/* An INTS attribute of @count values. */
static inline void ob_ints(Onnx__NodeProto *n, const char *name, int count, ...)
{
	Onnx__AttributeProto *a = ob_attr(n, name,
					  ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
	va_list ap;
	int i;

	a->n_ints = count;
	a->ints = malloc((count + 1) * sizeof(*a->ints));
	va_start(ap, count);
	for (i = 0; i < count; i++)
		a->ints[i] = va_arg(ap, int);
	va_end(ap);
}

/* The model as bytes (free them); the model is freed. */
static inline uint8_t *ob_pack(Onnx__ModelProto *m, size_t *len)
{
	uint8_t *buf;

	*len = onnx__model_proto__get_packed_size(m);
	buf = malloc(*len + 1);
	onnx__model_proto__pack(m, buf);
	onnx__model_proto__free_unpacked(m, NULL);
	return buf;
}

#endif /* __NVDLA_TESTS_ONNX_BUILD_H__ */
