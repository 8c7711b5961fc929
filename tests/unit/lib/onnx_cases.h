/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * One-node ONNX models from one line of text, for the compiler's refusal
 * tests. The node (named n1) reads graph input x (1 x C x H x W, or
 * [1, C] when H is 0) and, with "z", a second input z of 1x2x2x2.
 * Constants: "name:f:dims" (values 0.5, 1, 1.5...), "name:c:value"
 * (one value), "name:i:values" (a list of INT64), "name:d:dims" (DOUBLE),
 * "name:q:values" and "name:n:values" (lists of INT8 and INT32 codes),
 * separated by ';'. Attributes: "name=i:3", "name=f:0.5", "name=s:text",
 * "name=is:1,2,3", separated by ';'.
 */
#ifndef __NVDLA_TESTS_ONNX_CASES_H__
#define __NVDLA_TESTS_ONNX_CASES_H__

#include "onnx_build.h"

struct onnx_case {
	int opset;
	const char *op, *in, *out;	/* out: "y" when NULL */
	int c, h, w;
	const char *inits, *attrs;
	const char *msg;		/* the refusal must contain it */
};

/* "1,2,3" into @v (at most @max); returns the count. */
static inline int oc_list(const char *s, int64_t *v, int max)
{
	char *end;
	int n = 0;

	while (*s && n < max) {
		v[n] = strtoll(s, &end, 10);
		if (end == s)
			break;
		n++;
		if (*end != ',')
			break;
		s = end + 1;
	}
	return n;
}

static inline void oc_init(Onnx__ModelProto *m, char *spec)
{
	char *name = spec, *kind = strchr(spec, ':'), *vals;
	int64_t v[8];
	float f[64];
	int n, i;
	Onnx__TensorProto *t;

	*kind++ = 0;
	vals = kind + 2;
	n = oc_list(vals, v, 8);
	switch (*kind) {
	case 'i':
		ob_init_i64(m, name, n, v);
		break;
	case 'q':
	case 'n':
		t = ob_tensor(name, *kind == 'q' ? ONNX__TENSOR_PROTO__DATA_TYPE__INT8 :
			      ONNX__TENSOR_PROTO__DATA_TYPE__INT32, 1,
			      (int64_t[]){ n });
		t->n_int32_data = n;
		t->int32_data = malloc((n + 1) * sizeof(*t->int32_data));
		for (i = 0; i < n; i++)
			t->int32_data[i] = v[i];
		GROW(m->graph->initializer, m->graph->n_initializer);
		m->graph->initializer[m->graph->n_initializer++] = t;
		break;
	case 'c':
		f[0] = strtof(vals, NULL);
		v[0] = 1;
		ob_init(m, name, 1, v, f);
		break;
	default:
		for (i = 0; i < 64; i++)
			f[i] = 0.5f * (i + 1);
		t = ob_init(m, name, n, v, f);
		if (*kind == 'd')
			t->data_type = ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE;
		break;
	}
}

static inline void oc_attr(Onnx__NodeProto *node, char *spec)
{
	char *eq = strchr(spec, '='), *val = eq + 3;
	Onnx__AttributeProto *a;

	*eq = 0;
	if (eq[1] == 'i' && eq[2] == 's') {
		a = ob_attr(node, spec, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
		a->ints = malloc(9 * sizeof(*a->ints));
		a->n_ints = oc_list(eq + 4, a->ints, 8);
	} else if (eq[1] == 'i') {
		ob_int(node, spec, strtoll(val, NULL, 10));
	} else if (eq[1] == 'f') {
		ob_float(node, spec, strtof(val, NULL));
	} else {
		ob_string(node, spec, val);
	}
}

/* Apply @fn to each ';'-separated item of @list (copied). */
static inline void oc_each(const char *list, void (*fn)(void *, char *),
			   void *arg)
{
	char *copy = strdup(list ? list : ""), *s = copy, *e;

	while (*s) {
		e = strchr(s, ';');
		if (e)
			*e = 0;
		fn(arg, s);
		if (!e)
			break;
		s = e + 1;
	}
	free(copy);
}

static inline void oc_init_fn(void *m, char *s)
{
	oc_init(m, s);
}

static inline void oc_attr_fn(void *n, char *s)
{
	oc_attr(n, s);
}

static inline Onnx__ModelProto *oc_model(const struct onnx_case *c)
{
	Onnx__ModelProto *m = ob_model(c->opset);
	Onnx__NodeProto *n;

	ob_input(m, "x", c->c, c->h, c->w);
	if (strstr(c->in, "z"))
		ob_input(m, "z", 2, 2, 2);
	oc_each(c->inits, oc_init_fn, m);
	n = ob_node(m, c->op, "n1", c->in, c->out ? c->out : "y");
	oc_each(c->attrs, oc_attr_fn, n);
	ob_output(m, "y");
	return m;
}

#endif /* __NVDLA_TESTS_ONNX_CASES_H__ */
