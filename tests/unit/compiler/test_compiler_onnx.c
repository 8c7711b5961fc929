// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The compiler's front end on ONNX models built in memory: shapes, every
 * refusal and its message, each pass (the executor gives the same values
 * before and after), the executor against hand-computed values, the
 * calibration statistics on data with known answers, and the executor
 * against the float64 references of the ONNX corpus networks
 * (../shared/conformance/onnx). With --write-models DIR it also leaves
 * every model it builds in DIR, the seeds of the fuzz_onnx target.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib.h"
#include "emu.h"
#include "compiler.h"
#include "exec.h"
#include "../lib/onnx_build.h"
#include "../lib/onnx_cases.h"
#include "../lib/tap.h"

#define CORPUS "../shared/conformance/onnx"

static char err[512];
static const char *models_dir;	/* --write-models: fuzzing seeds */
static int models_written;

static void write_model(const uint8_t *buf, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/model%03d.onnx", models_dir,
		 models_written++);
	f = fopen(path, "wb");
	if (f) {
		fwrite(buf, 1, len, f);
		fclose(f);
	}
}

/* Load @m (freed) into @g; returns nvc_onnx_load's result, message in err. */
static int load(Onnx__ModelProto *m, struct nvc_graph *g)
{
	size_t len;
	uint8_t *buf = ob_pack(m, &len);
	int ret;

	err[0] = 0;
	if (models_dir)
		write_model(buf, len);
	ret = nvc_onnx_load(buf, len, g, err, sizeof(err));
	free(buf);
	return ret;
}

/* @m must be refused with a message containing @msg. */
static void refused(Onnx__ModelProto *m, const char *msg, const char *what)
{
	struct nvc_graph g;
	int ret = load(m, &g);

	if (!ret)
		nvc_graph_free(&g);
	if (!tap_ok(ret < 0 && strstr(err, msg), "refused: %s", what))
		printf("# got %d '%s', want '%s'\n", ret, err, msg);
}

static int tensor_named(const struct nvc_graph *g, const char *name)
{
	int i;

	for (i = 0; i < g->num_tensors; i++)
		if (!strcmp(g->tensors[i].name, name))
			return i;
	return -1;
}

static int shape_is(const struct nvc_graph *g, const char *name, int c, int h,
		    int w)
{
	int t = tensor_named(g, name);

	if (t < 0)
		return 0;
	return g->tensors[t].c == c && g->tensors[t].h == h && g->tensors[t].w == w;
}

/* Output 0 of @g on @in: a copy of its values (free it), NULL on error. */
static float *run(const struct nvc_graph *g, const float *in)
{
	float **v = calloc(g->num_tensors, sizeof(*v)), *out = NULL;
	const float *ins[1] = { in };
	long n;

	if (nvc_exec(g, ins, v, err, sizeof(err)) == 0) {
		n = nvc_tensor_size(&g->tensors[g->outputs[0]]);
		out = malloc(n * sizeof(*out));
		memcpy(out, v[g->outputs[0]], n * sizeof(*out));
		nvc_exec_free(g, v);
	}
	free(v);
	return out;
}

static double max_diff(const float *a, const float *b, long n)
{
	double m = 0;
	long i;

	for (i = 0; i < n; i++)
		m = fmax(m, fabs((double)a[i] - b[i]));
	return m;
}

/* Deterministic values in [-1, 1). */
static void fill(float *v, long n, unsigned int seed)
{
	long i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = (float)((seed >> 8) & 0xffff) / 32768.0f - 1;
	}
}

static void init_random(Onnx__ModelProto *m, const char *name, int rank,
			const int64_t *dims, unsigned int seed)
{
	long n = ob_count(rank, dims);
	float *v = malloc(n * sizeof(*v));

	fill(v, n, seed);
	ob_init(m, name, rank, dims, v);
	free(v);
}

/*
 * @m loaded, run on a random input, passed, run again: the same values,
 * and @nodes nodes left. Returns the graph for more checks (free it).
 */
static int pass_keeps_values(Onnx__ModelProto *m, int nodes, const char *what,
			     struct nvc_graph *g)
{
	float *in, *before, *after;
	long n;
	int ok;

	if (load(m, g)) {
		tap_ok(0, "%s: %s", what, err);
		return 0;
	}
	n = nvc_tensor_size(&g->tensors[g->inputs[0]]);
	in = malloc(n * sizeof(*in));
	fill(in, n, 7);
	before = run(g, in);
	after = nvc_passes(g, NULL, err, sizeof(err)) ? NULL : run(g, in);
	ok = before && after && g->num_nodes == nodes &&
	     max_diff(before, after,
		      nvc_tensor_size(&g->tensors[g->outputs[0]])) < 1e-5;
	if (!tap_ok(ok, "%s: %d nodes, same values", what, nodes))
		printf("# %d nodes, %s\n", g->num_nodes, err);
	free(in);
	free(before);
	free(after);
	return ok;
}

static void test_conv_shapes(void)
{
	int64_t wd[4] = { 4, 3, 3, 3 }, dw[4] = { 6, 1, 3, 3 };
	Onnx__ModelProto *m = ob_model(13);
	Onnx__NodeProto *n;
	struct nvc_graph g;
	int t, ok;

	ob_input(m, "x", 3, 10, 10);
	init_random(m, "w", 4, wd, 1);
	n = ob_node(m, "Conv", "c1", "x,w", "y1");
	ob_ints(n, "strides", 2, 2, 2);
	ob_ints(n, "pads", 4, 1, 1, 1, 1);
	n = ob_node(m, "Conv", "c2", "x,w", "y2");
	ob_ints(n, "dilations", 2, 2, 3);
	n = ob_node(m, "Conv", "c3", "x,w", "y3");
	ob_string(n, "auto_pad", "SAME_UPPER");
	ob_ints(n, "strides", 2, 2, 2);
	n = ob_node(m, "Conv", "c4", "x,w", "y4");
	ob_string(n, "auto_pad", "SAME_LOWER");
	ob_ints(n, "strides", 2, 2, 2);
	ob_input(m, "z", 6, 5, 5);
	init_random(m, "dw", 4, dw, 2);
	n = ob_node(m, "Conv", "c5", "z,dw", "y5");
	ob_int(n, "group", 6);
	ob_output(m, "y1");
	ob_output(m, "y2");
	ob_output(m, "y3");
	ob_output(m, "y4");
	ob_output(m, "y5");
	if (!tap_ok(load(m, &g) == 0, "convolutions load: %s", err))
		return;
	tap_ok(shape_is(&g, "y1", 4, 5, 5), "conv stride 2 pad 1: 4x5x5");
	tap_ok(shape_is(&g, "y2", 4, 6, 4), "conv dilation 2,3: 4x6x4");
	tap_ok(shape_is(&g, "y3", 4, 5, 5), "conv SAME_UPPER stride 2: 4x5x5");
	t = g.tensors[tensor_named(&g, "y3")].producer;
	ok = t >= 0 && g.nodes[t].conv.pad[0] == 0 && g.nodes[t].conv.pad[2] == 1;
	tap_ok(ok, "SAME_UPPER puts the odd padding at the end (0, 1)");
	t = g.tensors[tensor_named(&g, "y4")].producer;
	ok = t >= 0 && g.nodes[t].conv.pad[0] == 1 && g.nodes[t].conv.pad[2] == 0;
	tap_ok(ok, "SAME_LOWER puts it at the start (1, 0)");
	t = g.tensors[tensor_named(&g, "y5")].producer;
	tap_ok(shape_is(&g, "y5", 6, 3, 3) && g.nodes[t].conv.group == 6,
	       "depthwise conv: group 6, 6x3x3");
	nvc_graph_free(&g);
}

static void test_window_shapes(void)
{
	int64_t wd[4] = { 2, 3, 3, 3 };
	Onnx__ModelProto *m = ob_model(13);
	Onnx__NodeProto *n;
	struct nvc_graph g;

	ob_input(m, "x", 2, 6, 5);
	n = ob_node(m, "MaxPool", "p1", "x", "y1");
	ob_ints(n, "kernel_shape", 2, 3, 3);
	ob_ints(n, "strides", 2, 2, 2);
	n = ob_node(m, "MaxPool", "p2", "x", "y2");
	ob_ints(n, "kernel_shape", 2, 3, 3);
	ob_ints(n, "strides", 2, 2, 2);
	ob_int(n, "ceil_mode", 1);
	n = ob_node(m, "AveragePool", "p3", "x", "y3");
	ob_ints(n, "kernel_shape", 2, 2, 2);
	ob_ints(n, "strides", 2, 2, 2);
	ob_ints(n, "pads", 4, 1, 1, 1, 1);
	ob_int(n, "ceil_mode", 1);
	ob_node(m, "GlobalAveragePool", "p4", "x", "y4");
	init_random(m, "w", 4, wd, 3);
	n = ob_node(m, "ConvTranspose", "t1", "x,w", "y5");
	ob_ints(n, "strides", 2, 2, 2);
	ob_ints(n, "pads", 4, 1, 1, 1, 1);
	ob_ints(n, "output_padding", 2, 1, 1);
	ob_output(m, "y1");
	ob_output(m, "y2");
	ob_output(m, "y3");
	ob_output(m, "y4");
	ob_output(m, "y5");
	if (!tap_ok(load(m, &g) == 0, "pools and a transposed conv load: %s", err))
		return;
	tap_ok(shape_is(&g, "y1", 2, 2, 2), "max pool 3/2 floor: 2x2");
	tap_ok(shape_is(&g, "y2", 2, 3, 2), "max pool 3/2 ceil: 3x2");
	tap_ok(shape_is(&g, "y3", 2, 4, 3),
	       "ceil mode drops a window starting in the tail padding: 4x3");
	tap_ok(shape_is(&g, "y4", 2, 1, 1), "global average pool: 2x1x1");
	tap_ok(shape_is(&g, "y5", 3, 12, 10),
	       "conv transpose stride 2 pad 1 output_padding 1: 3x12x10");
	nvc_graph_free(&g);
}

static void test_shape_ops(void)
{
	int64_t shape[2] = { 1, -1 }, shape0[4] = { 0, 0, 3, -1 };
	int64_t axes[1] = { 2 }, bd[2] = { 4, 24 };
	Onnx__ModelProto *m = ob_model(13);
	Onnx__NodeProto *n;
	struct nvc_graph g;
	int t;

	ob_input(m, "x", 2, 4, 3);
	ob_init_i64(m, "s", 2, shape);
	ob_init_i64(m, "s0", 4, shape0);
	ob_init_i64(m, "ax", 1, axes);
	ob_node(m, "Reshape", "r1", "x,s", "flat");
	ob_node(m, "Reshape", "r2", "x,s0", "r2");
	ob_node(m, "Flatten", "f", "x", "f");
	n = ob_node(m, "Transpose", "t", "flat", "tr");
	ob_ints(n, "perm", 2, 0, 1);
	ob_node(m, "Unsqueeze", "u", "flat,ax", "u");
	init_random(m, "b", 2, bd, 4);
	n = ob_node(m, "Gemm", "fc", "f,b", "fc");
	ob_int(n, "transB", 1);
	n = ob_node(m, "Concat", "cat", "x,x", "cat");
	ob_int(n, "axis", 1);
	n = ob_node(m, "Split", "split", "cat", "s1,s2");
	ob_int(n, "axis", 1);
	ob_output(m, "tr");
	ob_output(m, "r2");
	ob_output(m, "u");
	ob_output(m, "fc");
	ob_output(m, "s1");
	ob_output(m, "s2");
	if (!tap_ok(load(m, &g) == 0, "shape operators load: %s", err))
		return;
	t = tensor_named(&g, "flat");
	tap_ok(shape_is(&g, "flat", 24, 1, 1) && g.tensors[t].alias_of == 0,
	       "Reshape [1, -1]: 24x1x1, an alias of the input");
	tap_ok(shape_is(&g, "r2", 2, 3, 4), "Reshape [0, 0, 3, -1]: 2x3x4");
	tap_ok(shape_is(&g, "f", 24, 1, 1), "Flatten: 24x1x1");
	tap_ok(shape_is(&g, "tr", 24, 1, 1), "Transpose that moves no data");
	tap_ok(shape_is(&g, "u", 24, 1, 1), "Unsqueeze axis 2 (an input from opset 13)");
	tap_ok(shape_is(&g, "fc", 4, 1, 1), "Gemm transB: 4 outputs");
	tap_ok(shape_is(&g, "cat", 4, 4, 3), "Concat on channels: 4x4x3");
	tap_ok(shape_is(&g, "s1", 2, 4, 3) && shape_is(&g, "s2", 2, 4, 3),
	       "Split in equal parts: 2x4x3 twice");
	nvc_graph_free(&g);
}

/* x.view(x.size(0), -1) as exporters write it for a dynamic batch. */
static void test_shape_arith(void)
{
	int64_t zero[1] = { 0 }, minus1[1] = { -1 };
	Onnx__ModelProto *m = ob_model(13);
	Onnx__NodeProto *n;
	struct nvc_graph g;
	int ok;

	ob_input(m, "x", 2, 3, 4);
	m->graph->input[0]->type->tensor_type->shape->dim[0]->value_case =
		ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
	m->graph->input[0]->type->tensor_type->shape->dim[0]->dim_param = strdup("N");
	ob_init_i64(m, "zero", 1, zero);
	ob_init_i64(m, "minus1", 1, minus1);
	ob_node(m, "Shape", "shape", "x", "shape");
	n = ob_node(m, "Constant", "index", "", "index");
	ob_int(n, "value_int", 0);
	n = ob_node(m, "Gather", "gather", "shape,index", "batch");
	ob_int(n, "axis", 0);
	ob_node(m, "Unsqueeze", "unsq", "batch,zero", "batch1");
	n = ob_node(m, "Concat", "cat", "batch1,minus1", "newshape");
	ob_int(n, "axis", 0);
	ob_node(m, "Reshape", "view", "x,newshape", "y");
	ob_output(m, "y");
	ok = load(m, &g) == 0;
	tap_ok(ok && g.num_nodes == 1 && shape_is(&g, "y", 24, 1, 1),
	       "Shape, Gather, Unsqueeze, Concat computed while loading: Reshape to 24x1x1 %s",
	       err);
	if (ok)
		nvc_graph_free(&g);
	m = ob_model(13);
	ob_input(m, "x", 2, 3, 4);
	ob_init_i64(m, "zero", 1, zero);
	ob_node(m, "Gather", "gather", "x,zero", "y");
	ob_output(m, "y");
	refused(m, "node 'gather' (Gather): input 'x' is not an INT64 constant",
		"Gather on a computed tensor");
}

/*
 * @a and @b loaded: output 0 the same on one random input, and @a with
 * @nodes nodes. Frees both models.
 */
static void same_values(Onnx__ModelProto *a, Onnx__ModelProto *b, int nodes,
			const char *what)
{
	struct nvc_graph ga = { 0 }, gb = { 0 };
	float *in = NULL, *ya = NULL, *yb = NULL;
	int ok = 0;
	long n;

	if (load(a, &ga) || load(b, &gb))
		goto out;
	n = nvc_tensor_size(&ga.tensors[ga.inputs[0]]);
	in = malloc(n * sizeof(*in));
	fill(in, n, 11);
	ya = run(&ga, in);
	yb = run(&gb, in);
	n = nvc_tensor_size(&ga.tensors[ga.outputs[0]]);
	ok = ya && yb && ga.num_nodes == nodes &&
	     n == nvc_tensor_size(&gb.tensors[gb.outputs[0]]) &&
	     max_diff(ya, yb, n) < 1e-6;
out:
	if (!tap_ok(ok, "%s: %d nodes, the values of the graph without them",
		    what, nodes))
		printf("# %d nodes, %s\n", ga.num_nodes, err);
	if (ga.num_tensors)
		nvc_graph_free(&ga);
	if (gb.num_tensors)
		nvc_graph_free(&gb);
	free(in);
	free(ya);
	free(yb);
}

/* Conv, Relu, Conv; with @ident, Identity on the weights and tensors. */
static Onnx__ModelProto *identity_model(int ident)
{
	int64_t wd[4] = { 3, 2, 3, 3 }, bd[1] = { 3 }, w2d[4] = { 2, 3, 1, 1 };
	Onnx__ModelProto *m = ob_model(13);

	ob_input(m, "x", 2, 5, 5);
	init_random(m, "w", 4, wd, 1);
	init_random(m, "b", 1, bd, 2);
	init_random(m, "w2", 4, w2d, 3);
	if (ident) {
		ob_node(m, "Identity", "iw", "w", "wi");
		ob_node(m, "Identity", "ib", "b", "bi");
		ob_node(m, "Identity", "iw2", "w2", "w2i");
		ob_node(m, "Conv", "conv", "x,wi,bi", "c");
		ob_node(m, "Identity", "ic", "c", "ci");
		ob_node(m, "Relu", "relu", "ci", "r");
		ob_node(m, "Conv", "conv2", "r,w2i", "c2");
		ob_node(m, "Identity", "out", "c2", "y");
	} else {
		ob_node(m, "Conv", "conv", "x,w,b", "c");
		ob_node(m, "Relu", "relu", "c", "r");
		ob_node(m, "Conv", "conv2", "r,w2", "y");
	}
	ob_output(m, "y");
	return m;
}

/* torch writes Identity on an initializer equal to another one. */
static void test_identity(void)
{
	same_values(identity_model(1), identity_model(0), 4,
		    "Identity on initializers and a tensor removed, a graph output's kept");
}

/*
 * A shape computed from constants as torch writes nn.ZeroPad2d's pads:
 * ConstantOfShape, Concat, Reshape, Transpose, a reversing Slice,
 * Reshape and Cast; here [1, -1] for a Reshape of x.
 */
static void test_const_fold(void)
{
	int64_t one[1] = { 1 }, row[2] = { 1, 2 }, flat[1] = { -1 };
	int64_t start[1] = { -1 }, end[1] = { INT64_MIN }, ax[1] = { 0 };
	int64_t step[1] = { -1 }, minus1 = -1, d1 = 1;
	Onnx__ModelProto *m = ob_model(13);
	Onnx__AttributeProto *a;
	Onnx__NodeProto *n;
	struct nvc_graph g;
	int ok;

	ob_input(m, "x", 2, 3, 4);
	ob_init_i64(m, "one", 1, one);
	ob_init_i64(m, "row", 2, row);
	ob_init_i64(m, "flat", 1, flat);
	ob_init_i64(m, "start", 1, start);
	ob_init_i64(m, "end", 1, end);
	ob_init_i64(m, "ax", 1, ax);
	ob_init_i64(m, "step", 1, step);
	n = ob_node(m, "ConstantOfShape", "cos", "one", "m1");
	a = ob_attr(n, "value", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
	a->t = ob_tensor("v", ONNX__TENSOR_PROTO__DATA_TYPE__INT64, 1, &d1);
	a->t->n_int64_data = 1;
	a->t->int64_data = malloc(sizeof(int64_t));
	a->t->int64_data[0] = minus1;
	n = ob_node(m, "Concat", "cat", "m1,one", "pair");
	ob_int(n, "axis", 0);
	ob_node(m, "Reshape", "r1", "pair,row", "mat");
	n = ob_node(m, "Transpose", "t", "mat", "col");
	ob_ints(n, "perm", 2, 1, 0);
	ob_node(m, "Slice", "rev", "col,start,end,ax,step", "rcol");
	ob_node(m, "Reshape", "r2", "rcol,flat", "list");
	n = ob_node(m, "Cast", "tof", "list", "listf");
	ob_int(n, "to", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	n = ob_node(m, "Cast", "toi", "listf", "shape");
	ob_int(n, "to", ONNX__TENSOR_PROTO__DATA_TYPE__INT64);
	ob_node(m, "Reshape", "view", "x,shape", "y");
	ob_output(m, "y");
	ok = load(m, &g) == 0;
	tap_ok(ok && g.num_nodes == 1 && shape_is(&g, "y", 24, 1, 1),
	       "ConstantOfShape, Concat, Reshape, Transpose, Slice, Cast computed while loading: [1, -1] %s",
	       err);
	if (ok)
		nvc_graph_free(&g);
	m = ob_model(13);
	ob_input(m, "x", 2, 3, 4);
	ob_init_i64(m, "s", 2, (int64_t[]){ 2, -2 });
	ob_init_i64(m, "two", 1, (int64_t[]){ 2 });
	ob_node(m, "Div", "half", "s,two", "shape");
	ob_node(m, "Reshape", "view", "x,shape", "y");
	ob_output(m, "y");
	ok = load(m, &g) == 0;
	tap_ok(ok && g.num_nodes == 1 && shape_is(&g, "y", 24, 1, 1),
	       "Div of integer constants, broadcast, while loading: [2, -2] / [2] is [1, -1] %s",
	       err);
	if (ok)
		nvc_graph_free(&g);
}

static void test_order(void)
{
	Onnx__ModelProto *m = ob_model(13);
	struct nvc_graph g;
	int ok;

	ob_input(m, "x", 2, 2, 2);
	ob_node(m, "Sigmoid", "last", "b", "y");
	ob_node(m, "Relu", "first", "x", "a");
	ob_node(m, "Tanh", "middle", "a", "b");
	ob_output(m, "y");
	ok = load(m, &g) == 0;
	ok = ok && g.num_nodes == 3 && !strcmp(g.nodes[0].name, "first") &&
	     !strcmp(g.nodes[2].name, "last");
	tap_ok(ok, "nodes listed out of order are mapped producers first: %s", err);
	if (ok)
		nvc_graph_free(&g);
}

/* One-node model on x (1x2x4x4) with the node's output y as output. */
static Onnx__ModelProto *one_node(int opset, const char *op, const char *in,
				  Onnx__NodeProto **n)
{
	Onnx__ModelProto *m = ob_model(opset);

	ob_input(m, "x", 2, 4, 4);
	*n = ob_node(m, op, "n1", in, "y");
	ob_output(m, "y");
	return m;
}

static void test_refusals_ops(void)
{
	int64_t w[4] = { 3, 1, 1, 1 }, hw[4] = { 1, 1, 4, 1 }, one[1] = { 1 };
	float zero[2] = { 0, 1 };
	Onnx__ModelProto *m;
	Onnx__NodeProto *n;

	m = one_node(13, "Einsum", "x", &n);
	refused(m, "node 'n1' (Einsum): operator is not supported", "unknown operator");
	m = one_node(13, "Relu", "x", &n);
	ob_int(n, "foo", 1);
	refused(m, "node 'n1' (Relu): attribute 'foo' is not supported",
		"unknown attribute");
	m = one_node(13, "Conv", "x,w", &n);
	init_random(m, "w", 4, w, 1);
	refused(m, "group 1 does not divide 2 input channels", "conv weights not matching");
	m = one_node(13, "Conv", "x,w", &n);
	w[1] = 2;
	init_random(m, "w", 4, w, 1);
	ob_string(n, "auto_pad", "SAME_UPPER");
	ob_ints(n, "pads", 4, 1, 1, 1, 1);
	refused(m, "auto_pad SAME_UPPER together with pads", "auto_pad with pads");
	m = one_node(13, "ConvTranspose", "x,w", &n);
	init_random(m, "w", 4, w, 1);
	ob_string(n, "auto_pad", "SAME_UPPER");
	refused(m, "auto_pad SAME_UPPER without output_shape", "conv transpose auto_pad");
	m = one_node(13, "MaxPool", "x", &n);
	ob_ints(n, "kernel_shape", 2, 2, 2);
	ob_ints(n, "dilations", 2, 2, 2);
	refused(m, "dilations are not supported", "dilated pooling");
	m = ob_model(13);
	ob_input(m, "x", 2, 4, 4);
	n = ob_node(m, "MaxPool", "n1", "x", "y,idx");
	ob_ints(n, "kernel_shape", 2, 2, 2);
	ob_output(m, "y");
	refused(m, "output 1 ('idx') is not supported", "MaxPool indices");
	m = one_node(13, "AveragePool", "x", &n);
	refused(m, "kernel_shape is missing", "pool without kernel");
	m = one_node(13, "Softmax", "x", &n);
	refused(m, "only a softmax over channels is supported", "softmax over width");
	m = one_node(13, "Sub", "x,x", &n);
	refused(m, "between two computed tensors only Add, Mul and Max",
		"Sub of two tensors");
	m = one_node(13, "Mul", "x,c", &n);
	init_random(m, "c", 4, hw, 2);
	refused(m, "constant 'c' varies along axis 2", "constant varying along height");
	m = one_node(13, "Div", "x,c", &n);
	ob_init(m, "c", 1, one, zero);
	refused(m, "divides by zero", "division by zero");
	m = one_node(13, "Div", "c,x", &n);
	ob_init(m, "c", 1, one, zero + 1);
	refused(m, "dividing a constant by a tensor is not supported", "constant / tensor");
	m = one_node(13, "Gemm", "x,c", &n);
	ob_int(n, "transA", 1);
	init_random(m, "c", 2, w + 2, 3);
	refused(m, "transA is not supported", "Gemm transA");
	m = one_node(13, "Transpose", "x", &n);
	ob_ints(n, "perm", 4, 0, 3, 2, 1);
	refused(m, "the permutation moves data", "a transpose that moves data");
	m = one_node(13, "Transpose", "x", &n);
	ob_ints(n, "perm", 4, 0, 2, 3, 1);
	refused(m, "is a channels-last [1, H, W, C] view",
		"a channels-last view as the output");
	m = one_node(13, "Concat", "x,x", &n);
	ob_int(n, "axis", 2);
	refused(m, "only a concatenation along channels is supported", "concat on height");
	m = one_node(13, "Split", "x", &n);
	ob_int(n, "axis", 3);
	refused(m, "only a split along channels is supported", "split on width");
	m = one_node(13, "BatchNormalization", "x,p,p,p,p", &n);
	one[0] = 2;
	ob_init(m, "p", 1, one, zero);
	ob_int(n, "training_mode", 1);
	refused(m, "only inference with spatial statistics", "BN training mode");
	m = one_node(13, "Max", "x,y0", &n);
	ob_node(m, "MaxPool", "p", "x", "y0");
	refused(m, "node 'p' (MaxPool): kernel_shape is missing", "refusal names the failing node");
}

/* Refusals of one-node models, each with its message. */
static const struct onnx_case refusals[] = {
	{ 13, "QuantizeLinear", "x,s", 0, 2, 4, 4, "s:c:0.1", NULL,
	  "node 'n1' (QuantizeLinear): UINT8 (no zero point) activations are not supported: int8 with zero point 0 (symmetric)" },
	{ 13, "QuantizeLinear", "x,s,z", 0, 2, 4, 4, "s:c:0.1;z:q:3", NULL,
	  "zero point 3: int8 activations need zero point 0 (symmetric)" },
	{ 13, "QuantizeLinear", "x,s,z", 0, 2, 4, 4, "s:f:2;z:q:0,0", NULL,
	  "2 scales for an activation: one a tensor" },
	{ 13, "QuantizeLinear", "x,s,z", 0, 2, 4, 4, "s:c:-1;z:q:0", NULL,
	  "scale -1 is not positive" },
	{ 13, "QuantizeLinear", "x,s,z", 0, 2, 4, 4, "s:c:0.1;z:q:0", NULL,
	  "its int8 codes are a graph output: outputs are FLOAT" },
	{ 13, "QuantizeLinear", "a,s,z", 0, 2, 4, 4, "a:i:1,2;s:c:0.1;z:q:0", NULL,
	  "input 'a' is not FLOAT" },
	{ 13, "QuantizeLinear", "x,s,z", 0, 2, 4, 4, "s:c:0.1;z:c:0", NULL,
	  "the zero point 'z' is not an integer constant of the scale's 1 elements" },
	{ 13, "QuantizeLinear", "w,s,z", 0, 2, 4, 4, "w:f:2;s:c:0.1;z:n:0", NULL,
	  "an INT32 zero point: QuantizeLinear writes INT8 or UINT8" },
	{ 13, "DequantizeLinear", "x,s", 0, 2, 4, 4, "s:c:0.1", NULL,
	  "input 'x' is not integer codes (an INT8, UINT8 or INT32 constant, or a QuantizeLinear's output)" },
	{ 13, "DequantizeLinear", "w,s,z", 0, 2, 4, 4, "w:q:1,2,3;s:f:2;z:q:0,0", "axis=i:0",
	  "2 scales do not match axis 0 of 'w'" },
	{ 13, "Mul", "x,w", 0, 2, 4, 4, "w:q:3", NULL,
	  "input 'w' holds integer codes (an integer constant), read only by DequantizeLinear" },
	{ 13, "Conv", "x,w", 0, 2, 4, 4, "w:f:3,2,2,2", "kernel_shape=is:3,3",
	  "node 'n1' (Conv): kernel_shape does not match the weights" },
	{ 13, "Conv", "x,w", 0, 2, 4, 4, "w:f:1,2,5,5", NULL,
	  "the window (5) is larger than the padded input (4)" },
	{ 13, "Conv", "x,w,b", 0, 2, 4, 4, "w:f:3,2,1,1;b:f:2", NULL,
	  "bias 'b' does not hold 3 values" },
	{ 13, "Conv", "x,w", 0, 2, 4, 4, "w:f:3,2,1,1", "strides=is:0,1",
	  "attribute 'strides' value 0 is out of range (1 to 65536)" },
	{ 13, "Conv", "x,w", 0, 2, 4, 4, "w:f:3,2,1,1", "pads=is:1,1",
	  "attribute 'pads' needs 4 values for 2-D data (has 2)" },
	{ 13, "Conv", "x,w", 0, 2, 4, 4, "w:f:3,2,1,1", "kernel_shape=is:1,1,1,1,1",
	  "attribute 'kernel_shape' has 5 values (at most 4)" },
	{ 13, "Conv", "x,w", 0, 2, 4, 4, "w:f:3,2,1,1", "auto_pad=s:FOO",
	  "auto_pad 'FOO' is not supported" },
	{ 13, "Conv", "x,w", 0, 2, 4, 4, "w:f:3,2,1,1", "auto_pad=i:1",
	  "attribute 'auto_pad' is not a string" },
	{ 13, "Conv", "x,w", 0, 2, 4, 4, "w:f:3,2,1,1", "group=f:1",
	  "attribute 'group' is not an integer" },
	{ 13, "Conv", "x,w", 0, 2, 4, 4, "w:f:3,2,1", NULL,
	  "weights 'w' have rank 3 (4 expected)" },
	{ 13, "Conv", "x,w", 0, 2, 0, 0, "w:f:3,2,1,1", NULL,
	  "input 'x' has rank 2; only 1-D (N, C, L) and 2-D (N, C, H, W) data is supported" },
	{ 13, "Conv", "w,w", 0, 2, 4, 4, "w:f:3,2,1,1", NULL,
	  "input 'w' is not a tensor computed by the graph" },
	{ 13, "Conv", "x,x", 0, 2, 4, 4, NULL, NULL,
	  "input 'x' is not a FLOAT constant" },
	{ 13, "Conv", "x,", 0, 2, 4, 4, NULL, NULL, "input 1 is missing" },
	{ 13, "ConvTranspose", "x,w", 0, 2, 4, 4, "w:f:3,1,1,1", NULL,
	  "group 1 and weights of 3 x 1 do not fit 2 input channels" },
	{ 13, "ConvTranspose", "x,w", 0, 2, 4, 4, "w:f:2,1,1,1",
	  "output_padding=is:2,2", "output_padding 2 is not below the stride or dilation" },
	{ 13, "ConvTranspose", "x,w", 0, 2, 4, 4, "w:f:2,1,3,3",
	  "output_shape=is:100,100", "output_shape 100 cannot be reached" },
	{ 13, "Gemm", "x,b", 0, 2, 4, 4, "b:f:2,2", NULL,
	  "input 'x' has rank 4; only [1, K] inputs are supported" },
	{ 13, "Gemm", "x,b", 0, 2, 0, 0, "b:f:3,3", NULL,
	  "weights 'b' do not match 2 inputs" },
	{ 13, "Gemm", "x,b,c", 0, 2, 0, 0, "b:f:2,3;c:f:2", NULL,
	  "C 'c' is neither a scalar nor 3 values" },
	{ 13, "Gemm", "x,b", 0, 2, 0, 0, "b:f:2,3", "alpha=i:1",
	  "attribute 'alpha' is not a float" },
	{ 13, "MaxPool", "x", 0, 2, 4, 4, NULL, "kernel_shape=is:2,2;pads=is:2,0,0,0",
	  "padding 2 is not smaller than the kernel" },
	{ 13, "AveragePool", "x", 0, 2, 4, 4, NULL,
	  "kernel_shape=is:2,2;auto_pad=s:SAME_UPPER;pads=is:1,1,1,1",
	  "auto_pad SAME_UPPER together with pads" },
	{ 13, "LRN", "x", 0, 2, 4, 4, NULL, "size=i:0", "size 0 is out of range" },
	{ 13, "ReduceMean", "x", 0, 2, 4, 4, NULL, "axes=is:1",
	  "only a reduction over height and width (axes 2 and 3) is supported" },
	{ 13, "BatchNormalization", "x,p,p,p,p", 0, 2, 4, 4, "p:f:3", NULL,
	  "'p' does not hold 2 values" },
	{ 13, "BatchNormalization", "x,p,p,p,v", 0, 2, 4, 4, "p:f:2;v:i:0", NULL,
	  "input 'v' is not a FLOAT constant" },
	{ 13, "BatchNormalization", "x,p,p,p,v", 0, 1, 4, 4, "p:f:1;v:c:-1", NULL,
	  "variance plus epsilon of channel 0 is not positive" },
	{ 13, "Clip", "x,lo", 0, 2, 4, 4, "lo:f:2", NULL, "bound 'lo' is not a scalar" },
	{ 13, "Clip", "x,lo,hi", 0, 2, 4, 4, "lo:c:1;hi:c:0", NULL,
	  "min 1 is above max 0" },
	{ 10, "Clip", "x,lo", 0, 2, 4, 4, "lo:c:1", NULL, "has 2 inputs (1 to 1)" },
	{ 13, "PRelu", "x,s", 0, 2, 4, 4, "s:f:1,4,1", NULL,
	  "slope 's' varies along axis 2; only scalars and per-channel values are supported" },
	{ 13, "Relu", "x,x", 0, 2, 4, 4, NULL, NULL, "has 2 inputs (1 to 1)" },
	{ 13, "Relu", "x", "", 2, 4, 4, NULL, NULL, "has no output" },
	{ 13, "Add", "x,k", 0, 2, 4, 4, "k:i:1", NULL, "INT64 operands are not supported" },
	{ 13, "Div", "a,b", 0, 2, 4, 4, "a:c:1;b:c:0", NULL,
	  "node 'n1' (Div): divides by zero (element 0 of 'b')" },
	{ 13, "Add", "a,b", 0, 2, 4, 4, "a:c:1;b:i:1", NULL,
	  "'a' and 'b' differ in type" },
	{ 13, "Mul", "a,b", 0, 2, 4, 4, "a:f:2;b:f:3", NULL,
	  "'a' and 'b' do not broadcast" },
	{ 13, "Add", "x,z", 0, 2, 4, 4, NULL, NULL,
	  "'x' and 'z' differ in shape; broadcasting between tensors is not supported" },
	{ 13, "Mul", "x,c", 0, 2, 4, 4, "c:f:0", NULL, "constant 'c' is empty" },
	{ 13, "Mul", "x,c", 0, 2, 0, 0, "c:f:1,2,1", NULL,
	  "constant 'c' has a higher rank than the tensor" },
	{ 13, "Mul", "x,c", 0, 2, 4, 4, "c:f:1,1,1,1,1", NULL,
	  "tensor 'c': rank 5 is not supported (at most 4)" },
	{ 13, "Mul", "x,c", 0, 2, 4, 4, "c:d:1", NULL,
	  "tensor 'c': data type DOUBLE is not supported" },
	{ 13, "Max", "x,x,x", 0, 2, 4, 4, NULL, NULL, "has 3 inputs (2 to 2)" },
	{ 13, "Softmax", "x", 0, 2, 4, 4, NULL, "axis=i:7", "axis 7 is out of range" },
	{ 11, "Softmax", "x", 0, 2, 4, 4, NULL, NULL,
	  "only a softmax over channels is supported" },
	{ 13, "Reshape", "x,k", 0, 2, 4, 4, "k:i:1,1,1,1,32", NULL,
	  "the shape has rank 5; only [1, g, C/g, H, W] of a [1, C, H, W] tensor (a channel shuffle's view) is supported" },
	{ 13, "Reshape", "x,k", 0, 2, 4, 4, "k:i:1,1,1,1,1,32", NULL,
	  "the shape has rank 6 (at most 4)" },
	{ 13, "Reshape", "x,k", 0, 2, 0, 0, "k:i:1,0,0", NULL,
	  "dimension 2 copies a dimension the input lacks" },
	{ 13, "Reshape", "x,k", 0, 2, 4, 4, "k:i:1,3,-1", NULL,
	  "the new shape does not hold the 32 elements of 'x'" },
	{ 13, "Reshape", "x,k", 0, 2, 4, 4, "k:i:1,-2,16", NULL, "dimension 1 is -2" },
	{ 13, "Reshape", "x,k", 0, 2, 4, 4, "k:i:2,-1", NULL,
	  "output shape: only batch 1 tensors of rank 2 to 4" },
	{ 13, "Reshape", "x,w", 0, 2, 4, 4, "w:f:2", NULL,
	  "input 'w' is not an INT64 constant" },
	{ 13, "Flatten", "x", 0, 2, 4, 4, NULL, "axis=i:5", "axis 5 is out of range" },
	{ 13, "Dropout", "x,r,t", 0, 2, 4, 4, "r:c:0.5;t:c:1", NULL,
	  "training_mode is not supported" },
	{ 11, "Squeeze", "x", 0, 2, 4, 4, NULL, "axes=is:1",
	  "axis 1 is repeated or not of size 1" },
	{ 13, "Squeeze", "x", 0, 2, 4, 4, NULL, NULL,
	  "output shape: only batch 1 tensors of rank 2 to 4" },
	{ 13, "Unsqueeze", "x", 0, 2, 4, 4, NULL, NULL, "axes are missing" },
	{ 11, "Unsqueeze", "x", 0, 2, 4, 4, NULL, "axes=is:0",
	  "the result has rank 5 (at most 4)" },
	{ 13, "Transpose", "x", 0, 2, 4, 4, NULL, "perm=is:0,1",
	  "perm has 2 axes for rank 4" },
	{ 13, "Transpose", "x", 0, 2, 4, 4, NULL, "perm=is:0,0,1,2",
	  "perm is not a permutation" },
	{ 13, "Concat", "x,x", 0, 2, 4, 4, NULL, NULL, "axis is missing" },
	{ 13, "Concat", "x,z", 0, 2, 4, 4, NULL, "axis=i:1",
	  "'x' and 'z' differ beyond the channels" },
	{ 13, "Concat", "a,b", 0, 2, 4, 4, "a:i:1;b:i:1", "axis=i:1",
	  "axis 1 is out of range" },
	{ 13, "Concat", "a,b", 0, 2, 4, 4, "a:i:1;b:f:1", "axis=i:0",
	  "'a' and 'b' differ in type or rank" },
	{ 13, "Slice", "x,s,e,a", 0, 2, 4, 4, "s:i:0;e:i:2;a:i:2", NULL,
	  "node 'n1' (Slice): only a slice of a computed tensor along channels is supported (axis 2 changes)" },
	{ 13, "Slice", "x,s,e,a,p", 0, 2, 4, 4, "s:i:0;e:i:2;a:i:1;p:i:2", NULL,
	  "only a slice of a computed tensor in steps of 1 that keeps channels is supported" },
	{ 13, "Slice", "x,s,e,a", 0, 2, 4, 4, "s:i:1;e:i:1;a:i:1", NULL,
	  "only a slice of a computed tensor in steps of 1 that keeps channels is supported" },
	{ 9, "Slice", "x", 0, 2, 4, 4, NULL, NULL,
	  "Slice before opset 10 is not supported" },
	{ 13, "Slice", "a,s,e", 0, 2, 4, 4, "a:i:1,2;s:i:0,0;e:i:1", NULL,
	  "starts, ends, axes and steps differ in length" },
	{ 13, "Pad", "x,p", 0, 2, 4, 4, "p:i:0,0,1,1,0,0,1,1", "mode=s:wrap",
	  "node 'n1' (Pad): only modes 'edge', 'reflect' and 'constant' with the value 0 are supported (mode 'wrap', value 0)" },
	{ 13, "Pad", "x,p,v", 0, 2, 4, 4, "p:i:0,0,1,1,0,0,1,1;v:c:1", NULL,
	  "only modes 'edge', 'reflect' and 'constant' with the value 0 are supported (mode 'constant', value 1)" },
	{ 13, "Pad", "x,p", 0, 2, 4, 4, "p:i:0,0,0,1,0,0,0,4", "mode=s:reflect",
	  "node 'n1' (Pad): mode 'reflect' pads 1 and 4 of a width of 4: each must be smaller than it" },
	{ 13, "Pad", "x,p", 0, 2, 4, 4, "p:i:0,1,0,0,0,0,0,0", NULL,
	  "only a padding of height and width is supported" },
	{ 13, "Pad", "x,p", 0, 2, 4, 4, "p:i:0,0,-1,0,0,0,0,0", NULL,
	  "pad -1 is negative or too large" },
	{ 13, "Pad", "x,p", 0, 2, 4, 4, "p:i:0,0,1,1", NULL,
	  "pads has 4 values (8 for rank 4)" },
	{ 13, "Sub", "x,z", 0, 2, 1, 1, NULL, NULL,
	  "between two computed tensors only Add, Mul and Max are supported" },
	{ 13, "Max", "z,x", 0, 2, 1, 1, NULL, NULL,
	  "broadcasting between tensors is not supported" },
	{ 14, "HardSwish", "x", 0, 2, 4, 4, NULL, "alpha=f:0.5",
	  "node 'n1' (HardSwish): attribute 'alpha' is not supported" },
	{ 13, "Cast", "x", 0, 2, 4, 4, NULL, "to=i:1",
	  "node 'n1' (Cast): only a cast of a constant is supported" },
	{ 13, "Cast", "a", 0, 2, 4, 4, "a:i:1", "to=i:6",
	  "a cast to type 6 is not supported (FLOAT or INT64)" },
	{ 13, "Cast", "a", 0, 2, 4, 4, "a:c:1e30", "to=i:7",
	  "node 'n1' (Cast): 1e+30 does not fit INT64" },
	{ 13, "ConstantOfShape", "a", 0, 2, 4, 4, "a:i:1,1,1,1,1", NULL,
	  "the shape is not a list of up to 4 sizes" },
	{ 11, "Split", "x", "y,y2", 2, 4, 4, NULL, "axis=i:1;split=is:1,2",
	  "the parts do not add up to 2 channels in 2 outputs" },
	{ 13, "Split", "x", "y,y2,y3", 2, 4, 4, NULL, "axis=i:1",
	  "2 channels do not split into 3 equal parts" },
	{ 13, "Split", "x", "y,", 2, 4, 4, NULL, "axis=i:1", "output 1 has no name" },
	{ 13, "Constant", "", 0, 2, 4, 4, NULL, "value_int=i:1;value_float=f:1",
	  "needs exactly one value attribute" },
	{ 13, "Constant", "", 0, 2, 4, 4, NULL, "sparse_value=i:1",
	  "attribute 'sparse_value' is not supported" },
	{ 13, "Gather", "d,i", 0, 2, 4, 4, "d:i:1,2;i:i:0", "axis=i:1",
	  "only a gather of up to 4 values from a list of integers is supported" },
	{ 13, "Gather", "d,i", 0, 2, 4, 4, "d:i:1,2;i:i:5", NULL,
	  "index 5 is out of range" },
	{ 13, "Shape", "x", 0, 2, 4, 4, NULL, "begin=i:1",
	  "attribute 'begin' is not supported" },
};

/* x through QuantizeLinear (scale @s1) and DequantizeLinear (@s2) into @y. */
static void qdq_pair(Onnx__ModelProto *m, const char *name, float s1, float s2,
		     const char *y)
{
	char q[32], dq[32], codes[32], sa[32], sb[32], z[32], in[96];

	snprintf(q, sizeof(q), "%s_q", name);
	snprintf(dq, sizeof(dq), "%s_dq", name);
	snprintf(codes, sizeof(codes), "%s_codes", name);
	snprintf(sa, sizeof(sa), "%s_s1", name);
	snprintf(sb, sizeof(sb), "%s_s2", name);
	snprintf(z, sizeof(z), "%s_z:q:0", name);
	ob_init(m, sa, 0, NULL, &s1);
	ob_init(m, sb, 0, NULL, &s2);
	oc_init(m, z);
	snprintf(in, sizeof(in), "x,%s,%s_z", sa, name);
	ob_node(m, "QuantizeLinear", q, in, codes);
	snprintf(in, sizeof(in), "%s,%s,%s_z", codes, sb, name);
	ob_node(m, "DequantizeLinear", dq, in, y);
}

/*
 * Weights as torch's QAT export writes them, a float constant through
 * QuantizeLinear and DequantizeLinear, computed while loading: rounded
 * half to even, saturated at 127 and -128, per channel along axis 0.
 */
static void test_qdq_constants(void)
{
	static const float w[4] = { 0.5f, 1.25f, 0.125f, -40 }, s[2] = { 0.5f, 0.25f };
	/* codes 1, 2 (2.5 to even); 0 (0.5 to even), -128 (-160 saturated) */
	static const float want[4] = { 0.5f, 1, 0, -32 };
	Onnx__ModelProto *m = ob_model(13);
	struct nvc_graph g;
	float x[2] = { 1, 10 }, *y = NULL;
	char z[] = "z:q:0,0";

	ob_input(m, "x", 2, 1, 1);
	ob_init(m, "w", 4, (int64_t[]){ 2, 2, 1, 1 }, w);
	ob_init(m, "s", 1, (int64_t[]){ 2 }, s);
	oc_init(m, z);
	ob_int(ob_node(m, "QuantizeLinear", "q", "w,s,z", "wq"), "axis", 0);
	ob_int(ob_node(m, "DequantizeLinear", "dq", "wq,s,z", "wf"), "axis", 0);
	ob_node(m, "Conv", "conv", "x,wf", "y");
	ob_output(m, "y");
	if (!load(m, &g)) {
		y = run(&g, x);
		nvc_graph_free(&g);
	}
	tap_ok(y && y[0] == want[0] * x[0] + want[1] * x[1] &&
	       y[1] == want[2] * x[0] + want[3] * x[1],
	       "QuantizeLinear and DequantizeLinear of float weights: per channel, half to even, saturated (%g %g) %s",
	       y ? y[0] : 0, y ? y[1] : 0, err);
	free(y);
}

/*
 * A QDQ pair sets its tensor's range [-127 s, 127 s], a graph output's
 * too; refused: pairs of two scales, a tensor quantized at two.
 */
static void test_qdq_pairs(void)
{
	Onnx__ModelProto *m = ob_model(13);
	struct nvc_graph g;
	int x;

	ob_input(m, "x", 2, 4, 4);
	qdq_pair(m, "a", 0.5f, 0.5f, "y");
	ob_output(m, "y");
	if (!load(m, &g)) {
		x = tensor_named(&g, "x");
		tap_ok(g.tensors[x].calibrated == NVC_RANGE_QDQ &&
		       g.tensors[x].min == -63.5f && g.tensors[x].max == 63.5f,
		       "a QDQ pair at scale 0.5 sets its tensor's range [-63.5, 63.5]");
		nvc_graph_free(&g);
	} else {
		tap_ok(0, "a QDQ pair loads: %s", err);
	}
	m = ob_model(13);
	ob_input(m, "x", 2, 4, 4);
	qdq_pair(m, "a", 0.5f, 0.25f, "y");
	ob_output(m, "y");
	refused(m, "node 'a_dq' (DequantizeLinear): scale 0.25 differs from its QuantizeLinear's 0.5",
		"a QDQ pair of two scales");
	m = ob_model(13);
	ob_input(m, "x", 2, 4, 4);
	qdq_pair(m, "a", 0.5f, 0.5f, "y1");
	qdq_pair(m, "b", 0.25f, 0.25f, "y");
	ob_output(m, "y");
	refused(m, "node 'b_dq' (DequantizeLinear): tensor 'x' is quantized at scale 0.5 and at 0.25",
		"a tensor quantized at two scales");
}

static void test_refusal_table(void)
{
	size_t i;

	for (i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		const struct onnx_case *c = &refusals[i];
		char what[256];

		snprintf(what, sizeof(what), "%s (opset %d): %s", c->op,
			 c->opset, c->msg);
		refused(oc_model(c), c->msg, what);
	}
}

static void test_refusals_model(void)
{
	int64_t one[1] = { 1 };
	float v = 1;
	Onnx__ModelProto *m;
	Onnx__NodeProto *n;
	Onnx__TensorProto *t;
	char name[16];
	int i;
	struct nvc_graph g;
	uint8_t junk[16] = { 0xff, 0xff, 0xff, 0x01, 0x12 };

	tap_ok(nvc_onnx_load(junk, sizeof(junk), &g, err, sizeof(err)) < 0 &&
	       strstr(err, "not an ONNX model"), "refused: bytes that are not a model");
	refused(one_node(18, "Relu", "x", &n), "opset 18 is not supported (7 to 17)",
		"opset 18");
	refused(one_node(6, "Relu", "x", &n), "opset 6 is not supported", "opset 6");
	m = one_node(13, "Relu", "x", &n);
	m->graph->input[0]->type->tensor_type->shape->dim[0]->dim_value = 2;
	refused(m, "input: only batch 1", "batch 2");
	m = one_node(13, "Relu", "nothere", &n);
	refused(m, "node 'n1' (Relu): input 'nothere' is not defined", "undefined input");
	m = one_node(13, "Relu", "b", &n);
	ob_node(m, "Relu", "n2", "y", "b");
	refused(m, "the graph has a cycle", "a cycle");
	m = one_node(13, "Relu", "x", &n);
	ob_node(m, "Sum", "n2", "y,y,y,y", "");
	refused(m, "node 'n2' (Sum): operator is not supported",
		"a node without outputs reading another's four times");
	m = one_node(13, "Relu", "x", &n);
	ob_init(m, "c", 1, one, &v);
	ob_output(m, "c");
	refused(m, "output 'c' is a constant", "constant output");
	m = one_node(13, "Mul", "x,d", &n);
	ob_init(m, "d", 1, one, &v)->data_type = ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE;
	refused(m, "tensor 'd': data type DOUBLE is not supported", "DOUBLE initializer");
	m = one_node(13, "Mul", "x,d", &n);
	ob_init(m, "d", 1, one, &v)->n_float_data = 0;
	refused(m, "tensor 'd': its data does not hold the 1 elements", "short data");
	m = one_node(13, "Relu", "x", &n);
	n->domain = strdup("com.microsoft");
	refused(m, "domain 'com.microsoft' is not supported", "foreign domain");
	m = one_node(13, "Relu", "x", &n);
	ob_node(m, "Relu", "n2", "x", "y");
	refused(m, "value 'y' is defined twice", "a name defined twice");
	m = one_node(13, "Relu", "x", &n);
	for (i = 0; i < NVC_MAX_INPUTS; i++) {
		snprintf(name, sizeof(name), "in%d", i);
		ob_input(m, name, 1, 1, 1);
	}
	refused(m, "more than 8 graph inputs", "nine inputs");
	m = ob_model(13);
	ob_output(m, "y");
	refused(m, "the graph has no input", "no input");
	m = ob_model(13);
	GROW(m->graph->input, 0);
	m->graph->input[m->graph->n_input++] = ob_value_info("x", 1, one);
	ob_node(m, "Relu", "n1", "x", "y");
	ob_output(m, "y");
	refused(m, "input 'x': needs a shape of rank 2 to 4", "an input of rank 1");
	m = one_node(13, "Relu", "x", &n);
	m->graph->input[0]->type->tensor_type->shape->dim[2]->value_case =
		ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE__NOT_SET;
	refused(m, "input 'x': dimension 2 is not a fixed size", "an input of unknown height");
	m = one_node(13, "Relu", "x", &n);
	m->graph->input[0]->type->tensor_type->elem_type =
		ONNX__TENSOR_PROTO__DATA_TYPE__UINT8;
	refused(m, "input 'x' is not a FLOAT tensor", "a UINT8 input");
	m = one_node(13, "Relu", "x", &n);
	ob_output(m, "q");
	refused(m, "output 'q' is not computed by any node", "an output nothing computes");
	m = one_node(13, "Relu", "x", &n);
	for (i = 0; i < NVC_MAX_OUTPUTS; i++)
		ob_output(m, "y");
	refused(m, "the graph has 9 outputs (1 to 8)", "nine outputs");
	m = ob_model(13);
	onnx__graph_proto__free_unpacked(m->graph, NULL);
	m->graph = NULL;
	refused(m, "the model has no graph", "no graph");
	m = one_node(13, "Mul", "x,d", &n);
	ob_init(m, "d", 1, one, &v)->has_data_location = 1;
	m->graph->initializer[0]->data_location =
		ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
	refused(m, "tensor 'd': external or segmented data is not supported",
		"external data");
	m = one_node(13, "Mul", "x,d", &n);
	t = ob_init(m, "d", 1, one, &v);
	t->n_float_data = 0;
	t->has_raw_data = 1;
	t->raw_data.len = 3;
	t->raw_data.data = (uint8_t *)strdup("abc");
	refused(m, "tensor 'd': its data does not hold the 1 elements", "short raw data");
	m = one_node(13, "Mul", "x,d", &n);
	t = ob_init(m, "d", 1, one, &v);
	t->dims[0] = -1;
	refused(m, "tensor 'd': negative dimension", "a negative dimension");
	m = one_node(13, "Mul", "x,d", &n);
	m->graph->n_sparse_initializer = 1;
	m->graph->sparse_initializer = calloc(1, sizeof(*m->graph->sparse_initializer));
	m->graph->sparse_initializer[0] = OB_NEW(Onnx__SparseTensorProto,
						 onnx__sparse_tensor_proto__init);
	refused(m, "sparse initializers are not supported", "a sparse initializer");
}

static void test_pass_affine_conv(void)
{
	int64_t wd[4] = { 4, 2, 3, 3 }, c4[1] = { 4 }, cc[3] = { 4, 1, 1 };
	Onnx__ModelProto *m = ob_model(13);
	Onnx__NodeProto *n;
	struct nvc_graph g;
	float var[4] = { 1, 2, 0.5f, 4 };

	ob_input(m, "x", 2, 6, 6);
	init_random(m, "w", 4, wd, 1);
	init_random(m, "b", 1, c4, 2);
	init_random(m, "gamma", 1, c4, 3);
	init_random(m, "beta", 1, c4, 4);
	init_random(m, "mean", 1, c4, 5);
	ob_init(m, "var", 1, c4, var);
	init_random(m, "s", 3, cc, 6);
	init_random(m, "t", 3, cc, 7);
	n = ob_node(m, "Conv", "conv", "x,w,b", "c");
	ob_ints(n, "pads", 4, 1, 1, 1, 1);
	ob_node(m, "BatchNormalization", "bn", "c,gamma,beta,mean,var", "bn");
	ob_node(m, "Mul", "mul", "bn,s", "mul");
	ob_node(m, "Sub", "sub", "mul,t", "sub");
	ob_node(m, "Relu", "relu", "sub", "y");
	ob_output(m, "y");
	if (pass_keeps_values(m, 1, "Conv, BN, Mul, Sub, Relu fold into one conv", &g)) {
		tap_ok(g.nodes[0].op == NVC_CONV && g.nodes[0].act.type == NVC_ACT_RELU &&
		       g.nodes[0].outputs[0] == g.outputs[0],
		       "the conv carries the Relu and writes the graph output");
		nvc_graph_free(&g);
	}
}

static void test_pass_transpose_fold(void)
{
	int64_t wd[4] = { 4, 3, 2, 2 }, c6[3] = { 6, 1, 1 };
	Onnx__ModelProto *m = ob_model(13);
	Onnx__NodeProto *n;
	struct nvc_graph g;

	ob_input(m, "x", 4, 3, 3);
	init_random(m, "w", 4, wd, 8);
	init_random(m, "s", 3, c6, 9);
	init_random(m, "t", 3, c6, 10);
	n = ob_node(m, "ConvTranspose", "up", "x,w", "u");
	ob_int(n, "group", 2);
	ob_ints(n, "strides", 2, 2, 2);
	ob_node(m, "Mul", "mul", "u,s", "mul");
	ob_node(m, "Add", "add", "mul,t", "y");
	ob_output(m, "y");
	if (pass_keeps_values(m, 1, "grouped ConvTranspose absorbs Mul and Add", &g))
		nvc_graph_free(&g);
}

static void test_pass_affine_chain(void)
{
	int64_t c3[3] = { 2, 1, 1 }, wd[4] = { 2, 2, 1, 1 };
	Onnx__ModelProto *m = ob_model(13);
	Onnx__NodeProto *n;
	struct nvc_graph g;

	ob_input(m, "x", 2, 4, 4);
	init_random(m, "s", 3, c3, 20);
	init_random(m, "t", 3, c3, 21);
	init_random(m, "w", 4, wd, 22);
	init_random(m, "slope", 3, c3, 23);
	n = ob_node(m, "MaxPool", "pool", "x", "p");
	ob_ints(n, "kernel_shape", 2, 2, 2);
	ob_node(m, "Mul", "mul", "p,s", "mul");
	ob_node(m, "Div", "div", "mul,s", "div");
	ob_node(m, "Add", "add", "div,t", "add");
	ob_node(m, "Sigmoid", "sig", "add", "sig");
	ob_node(m, "Conv", "conv", "sig,w", "c");
	ob_node(m, "PRelu", "prelu", "c,slope", "y");
	ob_output(m, "y");
	if (pass_keeps_values(m, 3, "Mul, Div, Add after a pool: one affine with the Sigmoid", &g)) {
		tap_ok(g.nodes[1].op == NVC_AFFINE &&
		       g.nodes[1].act.type == NVC_ACT_SIGMOID &&
		       g.nodes[2].act.type == NVC_ACT_PRELU &&
		       g.tensors[g.nodes[2].act.slope].c == 2,
		       "the affine carries the Sigmoid, the conv the PReLU and its slope");
		nvc_graph_free(&g);
	}
}

static void test_pass_no_fold(void)
{
	int64_t wd[4] = { 2, 2, 1, 1 };
	Onnx__ModelProto *m = ob_model(13);
	struct nvc_graph g;

	ob_input(m, "x", 2, 3, 3);
	init_random(m, "w", 4, wd, 11);
	ob_node(m, "Conv", "conv", "x,w", "c");
	ob_node(m, "Relu", "relu", "c", "r");
	ob_node(m, "Add", "add", "c,r", "y");	/* c has two readers */
	ob_node(m, "Sigmoid", "sig", "y", "z");
	ob_output(m, "y");			/* y is an output */
	ob_output(m, "z");
	if (pass_keeps_values(m, 4, "no fusion into a tensor with other readers", &g)) {
		tap_ok(g.nodes[0].act.type == NVC_ACT_NONE &&
		       g.nodes[2].act.type == NVC_ACT_NONE,
		       "the conv and the add keep no activation");
		nvc_graph_free(&g);
	}
}

static void test_pass_flatten_dead(void)
{
	int64_t wd[4] = { 3, 2, 3, 3 }, fd[2] = { 5, 12 }, k5[1] = { 5 };
	Onnx__ModelProto *m = ob_model(13);
	Onnx__NodeProto *n;
	struct nvc_graph g;

	ob_input(m, "x", 2, 4, 4);
	init_random(m, "w", 4, wd, 12);
	init_random(m, "f", 2, fd, 13);
	init_random(m, "fb", 1, k5, 14);
	ob_node(m, "Conv", "conv", "x,w", "c");
	ob_node(m, "Tanh", "unused", "c", "dead");
	ob_node(m, "Flatten", "flat", "c", "flat");
	n = ob_node(m, "Gemm", "fc", "flat,f,fb", "fc");
	ob_int(n, "transB", 1);
	ob_node(m, "Dropout", "drop", "fc", "y");
	ob_output(m, "y");
	if (pass_keeps_values(m, 2, "Flatten, Gemm: a conv over the plane; dead nodes gone", &g)) {
		const struct nvc_node *fc = &g.nodes[1];

		tap_ok(fc->op == NVC_CONV && fc->conv.kh == 2 && fc->conv.kw == 2 &&
		       fc->inputs[0] == g.nodes[0].outputs[0],
		       "the fully connected layer reads the conv output with a 2x2 kernel");
		nvc_graph_free(&g);
	}
}

/*
 * A ShuffleNet unit: the shuffle of 6 channels, a Slice of each half, a
 * convolution of the second, the Concat of the first and it. The passes
 * make the first Slice a selection of x and fold the second into the
 * convolution's weights; the shuffle, read by nothing, goes.
 */
static void test_pass_selections(void)
{
	int64_t v5[5] = { 1, 2, 3, 1, 2 }, v4[4] = { 1, -1, 1, 2 };
	int64_t wd[4] = { 4, 3, 1, 1 }, s0[1] = { 0 }, s3[1] = { 3 };
	int64_t s6[1] = { 6 }, a1[1] = { 1 };
	Onnx__ModelProto *m = ob_model(13);
	Onnx__NodeProto *n;
	struct nvc_graph g;

	ob_input(m, "x", 6, 1, 2);
	ob_init_i64(m, "v5", 5, v5);
	ob_init_i64(m, "v4", 4, v4);
	ob_init_i64(m, "s0", 1, s0);
	ob_init_i64(m, "s3", 1, s3);
	ob_init_i64(m, "s6", 1, s6);
	ob_init_i64(m, "a1", 1, a1);
	init_random(m, "w", 4, wd, 21);
	ob_node(m, "Reshape", "view", "x,v5", "g");
	n = ob_node(m, "Transpose", "swap", "g", "t");
	ob_ints(n, "perm", 5, 0, 2, 1, 3, 4);
	ob_node(m, "Reshape", "shuffle", "t,v4", "sh");
	ob_node(m, "Slice", "first", "sh,s0,s3,a1", "h1");
	ob_node(m, "Slice", "second", "sh,s3,s6,a1", "h2");
	ob_node(m, "Conv", "conv", "h2,w", "c");
	n = ob_node(m, "Concat", "cat", "h1,c", "y");
	ob_int(n, "axis", 1);
	ob_output(m, "y");
	if (pass_keeps_values(m, 3, "channel shuffle and Slices folded into selections and a conv", &g)) {
		tap_ok(g.nodes[0].op == NVC_CONV && g.nodes[0].inputs[0] == g.inputs[0] &&
		       g.nodes[1].op == NVC_CONV && g.nodes[1].inputs[0] == g.inputs[0] &&
		       g.tensors[g.nodes[1].conv.weights].c == 6,
		       "the first half picked from x, the convolution reading x with 6-channel weights");
		nvc_graph_free(&g);
	}
}

/* x through a one-node model: the output values, or NULL. */
static float *run_one(Onnx__ModelProto *m, const float *x, struct nvc_graph *g)
{
	float *y;

	if (load(m, g))
		return NULL;
	y = run(g, x);
	return y;
}

static void expect(Onnx__ModelProto *m, const float *x, const float *want,
		   long n, const char *what)
{
	struct nvc_graph g;
	float *y = run_one(m, x, &g);
	int ok = y && nvc_tensor_size(&g.tensors[g.outputs[0]]) == n &&
		 max_diff(y, want, n) < 1e-6;
	long i;

	if (!tap_ok(ok, "executor: %s", what)) {
		printf("# %s\n#", err);
		for (i = 0; y && i < n; i++)
			printf(" %g", y[i]);
		printf("\n");
	}
	if (y || g.num_tensors)
		nvc_graph_free(&g);
	free(y);
}

static Onnx__ModelProto *model_x(int c, int h, int w, const char *op,
				 const char *in, Onnx__NodeProto **n)
{
	Onnx__ModelProto *m = ob_model(13);

	ob_input(m, "x", c, h, w);
	*n = ob_node(m, op, "n", in, "y");
	ob_output(m, "y");
	return m;
}

/*
 * The blocked, threaded convolution against the plane-by-plane reference:
 * the same bits, on shapes with tails of every block (output channels,
 * pixels, more taps than one block), strides, asymmetric padding,
 * dilation, groups, and with 1 and 3 threads.
 */
static void test_exec_conv_blocked(void)
{
	static const struct {
		int c, h, w, k, kh, kw, sy, sx, pad[4], dy, dx, group, bias;
	} cases[] = {
		{ 3, 17, 19, 5, 3, 3, 1, 1, { 1, 1, 1, 1 }, 1, 1, 1, 1 },
		{ 64, 9, 9, 7, 3, 3, 2, 2, { 0, 1, 2, 1 }, 1, 1, 1, 1 },
		{ 8, 12, 10, 8, 5, 3, 1, 1, { 2, 1, 2, 1 }, 2, 1, 4, 1 },
		{ 6, 11, 13, 6, 3, 3, 2, 2, { 1, 1, 1, 1 }, 1, 1, 6, 0 },
		{ 300, 2, 3, 9, 1, 1, 1, 1, { 0, 0, 0, 0 }, 1, 1, 1, 1 },
		{ 40, 1, 1, 10, 1, 1, 1, 1, { 0, 0, 0, 0 }, 1, 1, 1, 0 },
	};
	struct nvc_tensor t[4] = { { .name = "x" }, { .name = "y" },
				   { .name = "w" }, { .name = "b" } };
	struct nvc_node nd = { .name = "conv", .op = NVC_CONV, .num_inputs = 1,
			       .num_outputs = 1, .inputs = { 0 }, .outputs = { 1 } };
	struct nvc_graph g = { .num_tensors = 4, .tensors = t, .num_nodes = 1,
			       .nodes = &nd };
	uint32_t seed = 7;
	size_t i;
	int jobs;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nvc_conv_attr *a = &nd.conv;
		long nx, ny, nw, j;
		float *x, *w, *b, *want, *got;
		int ok = 1;

		*a = (struct nvc_conv_attr){
			.kh = cases[i].kh, .kw = cases[i].kw,
			.stride = { cases[i].sy, cases[i].sx },
			.dilation = { cases[i].dy, cases[i].dx },
			.group = cases[i].group, .weights = 2,
			.bias = cases[i].bias ? 3 : -1,
		};
		memcpy(a->pad, cases[i].pad, sizeof(a->pad));
		t[0].n = t[1].n = 1;
		t[0].c = cases[i].c;
		t[0].h = cases[i].h;
		t[0].w = cases[i].w;
		t[1].c = cases[i].k;
		t[1].h = (t[0].h + a->pad[0] + a->pad[2] - a->dilation[0] * (a->kh - 1) - 1) /
			 a->stride[0] + 1;
		t[1].w = (t[0].w + a->pad[1] + a->pad[3] - a->dilation[1] * (a->kw - 1) - 1) /
			 a->stride[1] + 1;
		nx = nvc_tensor_size(&t[0]);
		ny = nvc_tensor_size(&t[1]);
		nw = (long)t[1].c * t[0].c / a->group * a->kh * a->kw;
		x = malloc(nx * sizeof(*x));
		w = malloc(nw * sizeof(*w));
		b = malloc(t[1].c * sizeof(*b));
		want = malloc(ny * sizeof(*want));
		got = malloc(ny * sizeof(*got));
		for (j = 0; j < nx; j++)
			x[j] = (float)((seed = seed * 1103515245u + 12345u) >> 8) / (1 << 23) - 1;
		for (j = 0; j < nw; j++)
			w[j] = (float)((seed = seed * 1103515245u + 12345u) >> 8) / (1 << 24) - 0.5f;
		for (j = 0; j < t[1].c; j++)
			b[j] = j * 0.25f - 1;
		t[2].data = w;
		t[3].data = b;
		ok = !nvc_exec_conv_ref(&g, &nd, x, want);
		for (jobs = 1; jobs <= 3; jobs += 2) {
			nvc_exec_set_jobs(jobs);
			memset(got, 0xff, ny * sizeof(*got));
			ok = ok && !nvc_exec_conv(&g, &nd, x, got) &&
			     !memcmp(got, want, ny * sizeof(*got));
		}
		nvc_exec_set_jobs(0);
		tap_ok(ok, "blocked convolution %dx%dx%d, %d of %dx%d, stride %d, group %d: the reference's bits with 1 and 3 threads",
		       t[0].c, t[0].h, t[0].w, t[1].c, a->kh, a->kw, a->stride[0],
		       a->group);
		free(x);
		free(w);
		free(b);
		free(want);
		free(got);
	}
}

static void test_exec_values(void)
{
	static const float x9[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	static const float x4[4] = { 1, 2, 3, 4 };
	static const float ones[4] = { 1, 1, 1, 1 };
	int64_t k22[4] = { 1, 1, 2, 2 }, b22[2] = { 2, 2 }, n1[1] = { 1 };
	Onnx__ModelProto *m;
	Onnx__NodeProto *n;

	m = model_x(1, 3, 3, "Conv", "x,w", &n);
	ob_init(m, "w", 4, k22, ones);
	expect(m, x9, (float[]){ 12, 16, 24, 28 }, 4, "2x2 conv of ones");
	m = model_x(1, 3, 3, "Conv", "x,w2", &n);
	ob_init(m, "w", 4, k22, ones);
	ob_init(m, "two", 1, n1, (float[]){ 2 });
	ob_node(m, "Mul", "wmul", "w,two", "w2");
	expect(m, x9, (float[]){ 24, 32, 48, 56 }, 4,
	       "conv whose weights are computed from constants while loading (Mul)");
	m = model_x(1, 3, 3, "Conv", "x,w", &n);
	ob_init(m, "w", 4, k22, ones);
	ob_ints(n, "dilations", 2, 2, 2);
	ob_ints(n, "pads", 4, 1, 1, 0, 0);
	expect(m, x9, (float[]){ 5, 10, 10, 20 }, 4, "dilated, padded conv");
	m = model_x(1, 2, 2, "ConvTranspose", "x,w", &n);
	ob_init(m, "w", 4, k22, ones);
	expect(m, x4, (float[]){ 1, 3, 2, 4, 10, 6, 3, 7, 4 }, 9,
	       "transposed conv, stride 1");
	m = model_x(1, 2, 2, "AveragePool", "x", &n);
	ob_ints(n, "kernel_shape", 2, 2, 2);
	ob_ints(n, "pads", 4, 1, 1, 0, 0);
	ob_int(n, "count_include_pad", 1);
	expect(m, x4, (float[]){ 0.25f, 0.75f, 1, 2.5f }, 4,
	       "average pool counting the padding");
	m = model_x(1, 2, 2, "AveragePool", "x", &n);
	ob_ints(n, "kernel_shape", 2, 2, 2);
	ob_ints(n, "pads", 4, 1, 1, 0, 0);
	expect(m, x4, (float[]){ 1, 1.5f, 2, 2.5f }, 4,
	       "average pool without the padding");
	m = model_x(1, 1, 3, "MaxPool", "x", &n);
	ob_ints(n, "kernel_shape", 2, 1, 2);
	ob_ints(n, "strides", 2, 1, 2);
	ob_int(n, "ceil_mode", 1);
	expect(m, (float[]){ 1, 5, 3 }, (float[]){ 5, 3 }, 2,
	       "max pool in ceil mode: a last, partial window");
	m = model_x(3, 1, 1, "LRN", "x", &n);
	ob_int(n, "size", 3);
	ob_float(n, "alpha", 3);
	ob_float(n, "beta", 1);
	expect(m, (float[]){ 1, 2, 3 }, (float[]){ 1 / 6.0f, 2 / 15.0f, 3 / 14.0f },
	       3, "LRN across 3 channels");
	m = model_x(3, 1, 1, "Softmax", "x", &n);
	ob_int(n, "axis", 1);
	expect(m, (float[]){ 0, logf(2), logf(3) },
	       (float[]){ 1 / 6.0f, 2 / 6.0f, 3 / 6.0f }, 3, "softmax over channels");
	m = model_x(2, 0, 0, "Gemm", "x,b,c", &n);
	ob_init(m, "b", 2, b22, x4);
	ob_init(m, "c", 1, n1, ones);
	ob_float(n, "alpha", 2);
	expect(m, (float[]){ 1, 2 }, (float[]){ 15, 21 }, 2,
	       "Gemm: alpha x B + C (B not transposed)");
	m = model_x(2, 0, 0, "MatMul", "x,b", &n);
	ob_init(m, "b", 2, b22, x4);
	expect(m, (float[]){ 1, 2 }, (float[]){ 7, 10 }, 2, "MatMul");
	m = model_x(2, 1, 1, "Sub", "c,x", &n);
	ob_init(m, "c", 1, n1, (float[]){ 10 });
	expect(m, (float[]){ 1, 2 }, (float[]){ 9, 8 }, 2, "constant minus tensor");
	m = model_x(2, 1, 2, "Clip", "x,lo,hi", &n);
	ob_init(m, "lo", 0, n1, (float[]){ -1 });
	ob_init(m, "hi", 0, n1, (float[]){ 2 });
	expect(m, (float[]){ -3, 0.5f, 3, 2 }, (float[]){ -1, 0.5f, 2, 2 }, 4,
	       "Clip with bounds as inputs");
	m = model_x(2, 1, 2, "PRelu", "x,s", &n);
	ob_init(m, "s", 3, (int64_t[]){ 2, 1, 1 }, (float[]){ 0.5f, 2 });
	expect(m, (float[]){ -2, 2, -2, 2 }, (float[]){ -1, 2, -4, 2 }, 4,
	       "PRelu per channel");
	m = model_x(1, 1, 2, "LeakyRelu", "x", &n);
	ob_float(n, "alpha", 0.25f);
	expect(m, (float[]){ -4, 4 }, (float[]){ -1, 4 }, 2, "LeakyRelu");
	m = model_x(2, 1, 2, "ReduceMean", "x", &n);
	ob_ints(n, "axes", 2, 2, -1);
	ob_int(n, "keepdims", 0);
	expect(m, (float[]){ 1, 3, 5, 7 }, (float[]){ 2, 6 }, 2,
	       "ReduceMean over height and width, not keeping them");
	m = model_x(2, 1, 2, "ReduceMax", "x", &n);
	ob_ints(n, "axes", 2, 3, 2);
	expect(m, (float[]){ 1, 3, 5, 7 }, (float[]){ 3, 7 }, 2,
	       "ReduceMax over height and width");
	m = model_x(1, 1, 4, "HardSigmoid", "x", &n);
	expect(m, (float[]){ -4, -1, 1, 4 }, (float[]){ 0, 0.3f, 0.7f, 1 }, 4,
	       "HardSigmoid (alpha 0.2, beta 0.5)");
	m = model_x(1, 1, 4, "HardSwish", "x", &n);
	expect(m, (float[]){ -4, -1.5f, 1.5f, 4 },
	       (float[]){ 0, -0.375f, 1.125f, 4 }, 4, "HardSwish");
	m = model_x(2, 1, 2, "Mul", "x,s", &n);
	ob_node(m, "GlobalMaxPool", "gmax", "x", "s");
	expect(m, (float[]){ 1, 2, -3, 4 }, (float[]){ 2, 4, -12, 16 }, 4,
	       "Mul of a tensor by its per-channel maximum (computed, C x 1 x 1)");
	m = model_x(1, 1, 2, "Max", "x,x", &n);
	expect(m, (float[]){ -4, 4 }, (float[]){ -4, 4 }, 2, "Max of a tensor and itself");
	m = model_x(1, 2, 2, "Erf", "x", &n);
	expect(m, (float[]){ 0, 0.5f, -1, 2 },
	       (float[]){ 0, 0.52049988f, -0.84270079f, 0.99532227f }, 4,
	       "Erf (a CPU function)");
}

/* x, Pad by @pads (ONNX order, 8 values), then @op reading @in ("xp"...). */
static Onnx__ModelProto *pad_model(const int64_t *pads, const char *op,
				   const char *in, Onnx__NodeProto **n)
{
	Onnx__ModelProto *m = ob_model(13);

	ob_input(m, "x", 1, 2, 2);
	ob_init_i64(m, "p", 8, pads);
	ob_node(m, "Pad", "pad", "x,p", "xp");
	*n = ob_node(m, op, "n", in, "y");
	ob_output(m, "y");
	return m;
}

/*
 * A zero Pad folded into the convolution or average pooling after it
 * (torch writes one before every AvgPool2d, counted as its padding), and
 * refused before anything else.
 */
static void test_pad(void)
{
	static const float x4[4] = { 1, 2, 3, 4 }, ones[4] = { 1, 1, 1, 1 };
	int64_t tl[8] = { 0, 0, 1, 1, 0, 0, 0, 0 };
	int64_t br[8] = { 0, 0, 0, 0, 0, 0, 1, 1 };
	int64_t k22[4] = { 1, 1, 2, 2 };
	Onnx__ModelProto *m;
	Onnx__NodeProto *n;

	m = pad_model(tl, "Conv", "xp,w", &n);
	ob_init(m, "w", 4, k22, ones);
	expect(m, x4, (float[]){ 1, 3, 4, 10 }, 4,
	       "Pad (top, left) folded into a 2x2 conv of ones");
	m = pad_model(br, "AveragePool", "xp", &n);
	ob_ints(n, "kernel_shape", 2, 2, 2);
	expect(m, x4, (float[]){ 2.5f, 1.5f, 1.75f, 1 }, 4,
	       "Pad (bottom, right) folded into an average pool that counts it");
	m = pad_model(br, "MaxPool", "xp", &n);
	ob_ints(n, "kernel_shape", 2, 2, 2);
	refused(m, "node 'n' (MaxPool): a zero Pad before MaxPool is not folded (its zeros can be the maximum)",
		"Pad before MaxPool");
	m = pad_model(br, "AveragePool", "xp", &n);
	ob_ints(n, "kernel_shape", 2, 2, 2);
	ob_ints(n, "pads", 4, 1, 1, 0, 0);
	refused(m, "node 'n' (AveragePool): the padding of a Pad before it is counted, its own (count_include_pad 0) is not",
		"Pad before an average pool that does not count its own padding");
	m = pad_model(br, "Relu", "xp", &n);
	refused(m, "node 'n' (Relu): input 'xp' is the zero padding of Pad node 'pad', which is folded only into a convolution or an average pooling",
		"Pad read by a Relu");
	m = ob_model(13);
	ob_input(m, "x", 1, 2, 2);
	ob_init_i64(m, "p", 8, br);
	ob_node(m, "Pad", "pad", "x,p", "y");
	ob_output(m, "y");
	refused(m, "output 'y' is the zero padding of Pad node 'pad'",
		"Pad as a graph output");
}

/*
 * x (6 channels of 1x2) through Reshape [1, 2, 3, 1, 2], Transpose
 * @perm and Reshape [1, -1, 1, 2] into y, as torch writes ShuffleNet's
 * channel shuffle (@perm "" leaves the Transpose out; @last other than
 * Reshape reads the transposed view alone).
 */
static Onnx__ModelProto *shuffle_model(const char *perm, const char *last)
{
	int64_t v5[5] = { 1, 2, 3, 1, 2 }, v4[4] = { 1, -1, 1, 2 };
	Onnx__ModelProto *m = ob_model(13);
	Onnx__NodeProto *n;

	ob_input(m, "x", 6, 1, 2);
	ob_init_i64(m, "v5", 5, v5);
	ob_init_i64(m, "v4", 4, v4);
	ob_node(m, "Reshape", "view", "x,v5", "g");
	if (*perm) {
		n = ob_node(m, "Transpose", "swap", "g", "t");
		ob_ints(n, "perm", 5, perm[0] - '0', perm[1] - '0',
			perm[2] - '0', perm[3] - '0', perm[4] - '0');
	}
	ob_node(m, last, "back", !strcmp(last, "Reshape") ?
		(*perm ? "t,v4" : "g,v4") : "t", "y");
	ob_output(m, "y");
	return m;
}

/*
 * The channel shuffle becomes a 1x1 convolution picking channels
 * 0, 3, 1, 4, 2, 5; Slice along channels a Split; the rank-5 views are
 * refused anywhere else.
 */
static void test_shuffle(void)
{
	static const float x[12] = { 0, 1, 10, 11, 20, 21, 30, 31, 40, 41,
				     50, 51 };
	int64_t s1[1] = { 1 }, e1[1] = { -2 }, a1[1] = { 1 };
	Onnx__ModelProto *m;
	Onnx__NodeProto *n;
	struct nvc_graph g;

	expect(shuffle_model("02134", "Reshape"), x,
	       (float[]){ 0, 1, 30, 31, 10, 11, 40, 41, 20, 21, 50, 51 }, 12,
	       "channel shuffle of 6 channels in 2 groups");
	if (tap_ok(load(shuffle_model("02134", "Reshape"), &g) == 0,
		   "channel shuffle loads: %s", err)) {
		tap_ok(g.num_nodes == 1 && g.nodes[0].op == NVC_CONV &&
		       g.nodes[0].conv.kh == 1 && g.nodes[0].conv.group == 1,
		       "the shuffle is one 1x1 convolution");
		nvc_graph_free(&g);
	}
	expect(shuffle_model("", "Reshape"), x, x, 12,
	       "a view of channel groups reshaped back unchanged");
	m = model_x(6, 1, 2, "Slice", "x,s,e,a", &n);
	ob_init_i64(m, "s", 1, s1);
	ob_init_i64(m, "e", 1, e1);
	ob_init_i64(m, "a", 1, a1);
	expect(m, x, (float[]){ 10, 11, 20, 21, 30, 31 }, 6,
	       "Slice of channels 1 to 4 of a computed tensor");
	refused(shuffle_model("01243", "Reshape"),
		"node 'swap' (Transpose): input 'g' is a rank-5 view of channel groups; only the permutation (0, 2, 1, 3, 4) of a channel shuffle is supported",
		"Transpose of a channel-group view other than the shuffle's");
	refused(shuffle_model("02134", "Relu"),
		"node 'back' (Relu): input 't' is the rank-5 view of channel groups of Reshape node 'view', read only by a channel shuffle's Transpose (0, 2, 1, 3, 4) and Reshape back to rank 4",
		"a channel-group view read by a Relu");
	m = shuffle_model("02134", "Reshape");
	ob_output(m, "t");
	refused(m, "output 't' is the rank-5 view of channel groups of Reshape node 'view'",
		"a channel-group view as a graph output");
	m = ob_model(13);
	ob_input(m, "x", 16386, 1, 1);
	ob_init_i64(m, "v5", 5, (int64_t[]){ 1, 2, 8193, 1, 1 });
	ob_init_i64(m, "v4", 4, (int64_t[]){ 1, -1, 1, 1 });
	ob_node(m, "Reshape", "view", "x,v5", "g");
	n = ob_node(m, "Transpose", "swap", "g", "t");
	ob_ints(n, "perm", 5, 0, 2, 1, 3, 4);
	ob_node(m, "Reshape", "back", "t,v4", "y");
	ob_output(m, "y");
	refused(m, "node 'back' (Reshape): a shuffle of 16386 channels needs too many weights",
		"a shuffle whose C x C weights exceed 2^28");
	m = shuffle_model("02134", "Reshape");
	ob_init_i64(m, "v3", 4, (int64_t[]){ 1, 3, 2, 2 });
	ob_node(m, "Reshape", "other", "t,v3", "z");
	refused(m, "node 'other' (Reshape): input 't' is a rank-5 view of channel groups; only a Reshape back to its [1, C, H, W] is supported",
		"a shuffled view reshaped to another shape");
}

/*
 * x (1 channel of 2x2) through Resize by @scales (4 values) or to @sizes
 * (when @scales is NULL), with @mode, coordinates @coord and rounding
 * @near (NULL: the attribute's default).
 */
static Onnx__ModelProto *resize_model(const float *scales,
				      const int64_t *sizes, const char *mode,
				      const char *coord, const char *near)
{
	int64_t d0[1] = { 0 }, d4[1] = { 4 };
	Onnx__ModelProto *m;
	Onnx__NodeProto *n;

	m = model_x(1, 2, 2, "Resize", scales ? "x,roi,s" : "x,,,sz", &n);
	if (scales) {
		ob_init(m, "roi", 1, d0, NULL);
		ob_init(m, "s", 1, d4, scales);
	} else {
		ob_init_i64(m, "sz", 4, sizes);
	}
	ob_string(n, "mode", mode);
	if (coord)
		ob_string(n, "coordinate_transformation_mode", coord);
	if (near)
		ob_string(n, "nearest_mode", near);
	return m;
}

/* x (1 channel of 2x2) through Upsample at @opset by 1, 1, 2, 3. */
static Onnx__ModelProto *upsample_model(int opset)
{
	static const float s23[4] = { 1, 1, 2, 3 };
	Onnx__ModelProto *m = ob_model(opset);
	Onnx__AttributeProto *a;
	Onnx__NodeProto *n;
	int64_t d4[1] = { 4 };

	ob_input(m, "x", 1, 2, 2);
	n = ob_node(m, "Upsample", "up", opset < 9 ? "x" : "x,s", "y");
	if (opset < 9) {
		a = ob_attr(n, "scales", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS);
		a->floats = malloc(sizeof(s23));
		memcpy(a->floats, s23, sizeof(s23));
		a->n_floats = 4;
	} else {
		ob_init(m, "s", 1, d4, s23);
	}
	ob_string(n, "mode", "nearest");
	ob_output(m, "y");
	return m;
}

/*
 * Resize nearest by whole factors, from scales or sizes, as torch writes
 * nn.Upsample (asymmetric, floor) or with half-pixel coordinates: a
 * transposed convolution; refused otherwise, with the reason.
 */
/*
 * Resize linear by 2 of 1 + x + 2 y on 2x2: nearest, Pad edge and a
 * depthwise convolution (the DLA's), sampled at half-pixel coordinates
 * (0, 0.25, 0.75, 1 after clamping; sizes 4x4) or asymmetric ones (0,
 * 0.5, 1, 1).
 */
static void resize_linear_x2(void)
{
	static const float x4[4] = { 1, 2, 3, 4 }, s2[4] = { 1, 1, 2, 2 };
	static const float hp[4] = { 0, 0.25f, 0.75f, 1 }, as[4] = { 0, 0.5f, 1, 1 };
	static const int64_t z44[4] = { 1, 1, 4, 4 };
	float want_hp[16], want_as[16];
	struct nvc_graph g;
	int i;

	for (i = 0; i < 16; i++) {
		want_hp[i] = 1 + hp[i % 4] + 2 * hp[i / 4];
		want_as[i] = 1 + as[i % 4] + 2 * as[i / 4];
	}
	expect(resize_model(NULL, z44, "linear", NULL, NULL), x4, want_hp, 16,
	       "Resize linear to 4x4 (sizes, half_pixel) on the DLA's terms");
	expect(resize_model(s2, NULL, "linear", "asymmetric", NULL), x4,
	       want_as, 16, "Resize linear by 2 (asymmetric) on the DLA's terms");
	if (tap_ok(load(resize_model(s2, NULL, "linear", "pytorch_half_pixel",
				     NULL), &g) == 0,
		   "Resize linear by 2 loads: %s", err)) {
		tap_ok(g.num_nodes == 3 && g.nodes[0].op == NVC_CONV_TRANSPOSE &&
		       g.nodes[1].op == NVC_PAD &&
		       g.nodes[1].pad.mode == NVC_PAD_EDGE &&
		       g.nodes[2].op == NVC_CONV && g.nodes[2].conv.kh == 3 &&
		       g.nodes[2].conv.group == 1,
		       "Resize linear by 2: nearest, Pad edge, a depthwise 3x3 convolution");
		nvc_graph_free(&g);
	}
}

static void test_resize(void)
{
	static const float x4[4] = { 1, 2, 3, 4 };
	static const float x2x3[24] = { 1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2,
					3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4 };
	static const float s23[4] = { 1, 1, 2, 3 }, s15[4] = { 1, 1, 1.5f, 2 };
	static const float sc[4] = { 1, 2, 2, 2 }, big[4] = { 1, 1, 2.29e20f, 2 };
	static const int64_t z46[4] = { 1, 1, 4, 6 }, z35[4] = { 1, 1, 3, 4 };
	static const int64_t zc[4] = { 1, 2, 4, 4 };
	struct nvc_graph g;

	expect(resize_model(s23, NULL, "nearest", "asymmetric", "floor"), x4,
	       x2x3, 24, "Resize nearest by 2x3 (scales, asymmetric, floor)");
	expect(resize_model(NULL, z46, "nearest", NULL, NULL), x4, x2x3, 24,
	       "Resize nearest to 4x6 (sizes, half_pixel, round_prefer_floor)");
	if (tap_ok(load(resize_model(s23, NULL, "nearest", NULL, NULL), &g) == 0,
		   "Resize loads: %s", err)) {
		tap_ok(g.num_nodes == 1 && g.nodes[0].op == NVC_CONV_TRANSPOSE &&
		       g.nodes[0].conv.kh == 2 && g.nodes[0].conv.stride[1] == 3,
		       "Resize is a transposed convolution, kernel 2x3 = stride");
		nvc_graph_free(&g);
	}
	expect(upsample_model(7), x4, x2x3, 24,
	       "Upsample nearest by 2x3 (opset 7: the scales attribute)");
	expect(upsample_model(9), x4, x2x3, 24,
	       "Upsample nearest by 2x3 (opset 9: the scales input)");
	refused(upsample_model(10),
		"node 'up' (Upsample): Upsample is deprecated from opset 10 (Resize replaces it)",
		"Upsample at opset 10");
	if (tap_ok(load(resize_model(s23, NULL, "linear", NULL, NULL), &g) == 0,
		   "Resize linear loads: %s", err)) {
		tap_ok(g.num_nodes == 1 && g.nodes[0].op == NVC_CPU &&
		       g.nodes[0].cpu == NVC_CPU_RESIZE &&
		       g.nodes[0].cpu_coord == EMU_COORD_HALF_PIXEL &&
		       g.tensors[g.outputs[0]].h == 2 * g.tensors[g.inputs[0]].h &&
		       g.tensors[g.outputs[0]].w == 3 * g.tensors[g.inputs[0]].w,
		       "Resize linear is a CPU bilinear resize by 2x3, half_pixel");
		nvc_graph_free(&g);
	}
	resize_linear_x2();
	/* Rows sampled at (o + 0.5) / 1.25 - 0.5: 0 and 0.7, not 0 and 1. */
	expect(resize_model((const float[]){ 1, 1, 1.25f, 1 }, NULL, "linear",
			    NULL, NULL), x4, (const float[]){ 1, 2, 2.4f, 3.4f },
	       4, "Resize linear by 1.25 (2 rows): sampled by 1 / scale as ONNX does");
	refused(resize_model(big, NULL, "linear", NULL, NULL),
		"node 'n' (Resize): scale 2.29e+20 of 2 pixels gives an output size out of range",
		"Resize linear by a scale beyond any size (found by fuzz_onnx)");
	refused(resize_model((const float[]){ 1, 1, 0.25f, 1 }, NULL, "linear",
			     NULL, NULL),
		"node 'n' (Resize): scale 0.25 of 2 pixels gives an output size out of range",
		"Resize linear to no rows");
	refused(resize_model(s23, NULL, "cubic", NULL, NULL),
		"node 'n' (Resize): only modes 'nearest' and 'linear' (opset 11 on) are supported (mode 'cubic')",
		"Resize cubic");
	refused(resize_model(s23, NULL, "linear", "tf_crop_and_resize", NULL),
		"node 'n' (Resize): mode 'linear' with coordinate_transformation_mode 'tf_crop_and_resize' is not supported",
		"Resize linear with tf_crop_and_resize");
	refused(resize_model(s23, NULL, "nearest", "align_corners", NULL),
		"coordinate_transformation_mode 'align_corners' with nearest_mode 'round_prefer_floor' is not supported (asymmetric with floor, or half_pixel with rounding)",
		"Resize nearest with align_corners");
	refused(resize_model(s23, NULL, "nearest", "asymmetric", NULL),
		"coordinate_transformation_mode 'asymmetric' with nearest_mode 'round_prefer_floor' is not supported",
		"Resize nearest, asymmetric and rounded");
	refused(resize_model(s15, NULL, "nearest", NULL, NULL),
		"scale 1.5 is not a whole factor from 1 to 16", "Resize by 1.5");
	refused(resize_model(big, NULL, "nearest", NULL, NULL),
		"scale 2.29e+20 is not a whole factor from 1 to 16",
		"Resize by a scale beyond any integer (found by fuzz_onnx)");
	refused(resize_model(sc, NULL, "nearest", NULL, NULL),
		"the scales must be 4 values, 1 for batch and channels",
		"Resize of the channels");
	refused(resize_model(NULL, z35, "nearest", NULL, NULL),
		"size 3 is not a whole factor from 1 to 16 of 2",
		"Resize to 3 rows from 2");
	refused(resize_model(NULL, zc, "nearest", NULL, NULL),
		"the sizes must be 4 values keeping batch and channels",
		"Resize to other channels");
}

#define TT 3	/* tokens */
#define TD 4	/* their width */
#define TN 5	/* the MatMul's */

/*
 * Tokens x [1, TT, TD] at @opset through MatMul by w [TD, TN] into "h";
 * the caller adds what reads "h" and writes "y".
 */
static Onnx__ModelProto *tokens_model(int opset)
{
	static const int64_t xd[3] = { 1, TT, TD }, wd[2] = { TD, TN };
	Onnx__ModelProto *m = ob_model(opset);
	Onnx__GraphProto *g = m->graph;

	GROW(g->input, g->n_input);
	g->input[g->n_input++] = ob_value_info("x", 3, xd);
	init_random(m, "w", 2, wd, 11);
	ob_node(m, "MatMul", "mm", "x,w", "h");
	ob_output(m, "y");
	return m;
}

/* tokens_model() then LayerNormalization (opset 17) of "h" by @axis, @eps. */
static Onnx__ModelProto *layernorm_model(int axis, float eps, int scales)
{
	static const int64_t nd[1] = { TN };
	Onnx__ModelProto *m = tokens_model(17);
	Onnx__NodeProto *n;
	int64_t sd[1] = { scales };

	init_random(m, "g", 1, sd, 12);
	init_random(m, "b", 1, nd, 13);
	n = ob_node(m, "LayerNormalization", "ln", "h,g,b", "y");
	ob_int(n, "axis", axis);
	ob_float(n, "epsilon", eps);
	return m;
}

/* torch's opset-13 layer normalisation of "h", then * g + b. */
static Onnx__ModelProto *layernorm_pattern(void)
{
	static const int64_t nd[1] = { TN };
	Onnx__ModelProto *m = tokens_model(13);
	Onnx__NodeProto *n;

	init_random(m, "g", 1, nd, 12);
	init_random(m, "b", 1, nd, 13);
	ob_init(m, "two", 0, NULL, (float[]){ 2 });
	ob_init(m, "eps", 0, NULL, (float[]){ 1e-5f });
	n = ob_node(m, "ReduceMean", "mean", "h", "mu");
	ob_ints(n, "axes", 1, -1);
	ob_node(m, "Sub", "sub", "h,mu", "d");
	ob_node(m, "Pow", "pow", "d,two", "sq");
	n = ob_node(m, "ReduceMean", "var", "sq", "v");
	ob_ints(n, "axes", 1, -1);
	ob_node(m, "Add", "add", "v,eps", "ve");
	ob_node(m, "Sqrt", "sqrt", "ve", "sd");
	ob_node(m, "Div", "div", "d,sd", "nrm");
	ob_node(m, "Mul", "mul", "nrm,g", "ng");
	ob_node(m, "Add", "shift", "ng,b", "y");
	return m;
}

/* The CPU functions of @g's nodes in order, as letters (e.g. "S.LAS"). */
static void cpu_path(const struct nvc_graph *g, char *path)
{
	static const char fn[] = { [NVC_CPU_ERF] = 'E', [NVC_CPU_SWAP_CH] = 'S',
		[NVC_CPU_LAYERNORM] = 'L', [NVC_CPU_RESIZE] = 'R' };
	int i;

	for (i = 0; i < g->num_nodes; i++)
		path[i] = g->nodes[i].op == NVC_CPU ? fn[g->nodes[i].cpu] :
			  g->nodes[i].op == NVC_AFFINE ? 'A' : '.';
	path[i] = 0;
}

/*
 * [1, T, D] tokens through MatMul and a layer normalisation (the opset-17
 * node and torch's opset-13 pattern): the token layout between two
 * channel-height swaps, the normalisation a CPU node and its scale and
 * shift an affine (the pattern's Mul and Add two, which the passes fold); the executor against a computation here. Refusals of
 * the normalisations the CPU task does not compute.
 */
static void test_tokens(void)
{
	static const int64_t nd[1] = { TN };
	float x[TT * TD], w[TD * TN], gam[TN], bet[TN], want[TT * TN], *y;
	double h[TN], mean, var;
	Onnx__ModelProto *m;
	Onnx__NodeProto *n;
	struct nvc_graph g;
	char path[NVC_MAX_INPUTS * 4];
	int t, k, d, pass;

	fill(x, TT * TD, 5);
	fill(w, TD * TN, 11);
	fill(gam, TN, 12);
	fill(bet, TN, 13);
	for (t = 0; t < TT; t++) {
		for (mean = 0, k = 0; k < TN; k++) {
			for (h[k] = 0, d = 0; d < TD; d++)
				h[k] += (double)x[t * TD + d] * w[d * TN + k];
			mean += h[k] / TN;
		}
		for (var = 0, k = 0; k < TN; k++)
			var += (h[k] - mean) * (h[k] - mean) / TN;
		for (k = 0; k < TN; k++)
			want[t * TN + k] = (float)((h[k] - mean) /
						   sqrt(var + 1e-5) * gam[k] + bet[k]);
	}
	for (pass = 0; pass < 2; pass++) {
		m = pass ? layernorm_pattern() : layernorm_model(-1, 1e-5f, TN);
		y = run_one(m, x, &g);
		if (!tap_ok(y != NULL, "tokens, MatMul, layer normalisation (%s) load and run: %s",
			    pass ? "opset 13 pattern" : "opset 17", err))
			continue;
		cpu_path(&g, path);
		tap_ok(!strcmp(path, pass ? "S.LAAS" : "S.LAS") &&
		       shape_is(&g, "x", TT, TD, 1) && shape_is(&g, "y", TT, TN, 1),
		       "%s: swap, MatMul, layer normalisation, affine, swap (%s); input %dx%dx1 and output %dx%dx1 in ONNX order",
		       pass ? "opset 13 pattern" : "opset 17", path, TT, TD, TT, TN);
		tap_ok(max_diff(y, want, TT * TN) < 2e-5,
		       "executor: tokens' layer normalisation (%s) within 2e-5 (%.2g)",
		       pass ? "opset 13 pattern" : "opset 17",
		       max_diff(y, want, TT * TN));
		free(y);
		nvc_graph_free(&g);
	}
	refused(layernorm_model(1, 1e-5f, TN),
		"node 'ln' (LayerNormalization): only a normalisation over the last axis of [1, T, D], [1, C] or [1, H, W, C] after a Transpose (0, 2, 3, 1) is supported (axis 1 of rank 3)",
		"LayerNormalization over the tokens");
	refused(layernorm_model(-1, 0, TN),
		"node 'ln' (LayerNormalization): epsilon 0 is not positive",
		"LayerNormalization with epsilon 0");
	refused(layernorm_model(-1, 1e-5f, TN - 1),
		"node 'ln' (LayerNormalization): scale or bias does not hold 5 values",
		"LayerNormalization with a scale of 4 values over 5");
	m = layernorm_pattern();
	free(m->graph->node[3]->op_type);	/* the Pow: no op_type */
	m->graph->node[3]->op_type = NULL;
	refused(m, "node 'mean' (ReduceMean): a mean over the last axis is supported only as the start of a layer normalisation",
		"torch's layer normalisation with a node of no op_type in it (found by fuzz_onnx)");
	m = layernorm_pattern();
	free(m->graph->node[3]->op_type);	/* two Div read x - mean */
	m->graph->node[3]->op_type = strdup("Div");
	refused(m, "node 'mean' (ReduceMean): a mean over the last axis is supported only as the start of a layer normalisation",
		"torch's layer normalisation with a Div for its Pow (found by fuzz_onnx)");
	m = tokens_model(13);
	init_random(m, "g", 1, nd, 12);
	n = ob_node(m, "ReduceMean", "mean", "h", "mu");
	ob_ints(n, "axes", 1, -1);
	ob_node(m, "Sub", "sub", "h,mu", "y");
	refused(m, "node 'mean' (ReduceMean): a mean over the last axis is supported only as the start of a layer normalisation",
		"a mean over the tokens' last axis that is no layer normalisation");
}

/* Concat of 20 inputs: parts of up to NVC_MAX_INPUTS first. */
static void test_concat_many(void)
{
	char in[128] = "";
	float want[40];
	Onnx__ModelProto *m;
	Onnx__NodeProto *n;
	int i;

	for (i = 0; i < 20; i++) {
		strcat(in, i ? ",x" : "x");
		want[2 * i] = 1;
		want[2 * i + 1] = 2;
	}
	m = model_x(1, 1, 2, "Concat", in, &n);
	ob_int(n, "axis", 1);
	expect(m, (float[]){ 1, 2 }, want, 40, "Concat of 20 inputs");
}

static void test_stats(void)
{
	uint64_t hist[NVC_CALIB_BINS] = { 0 };
	double sigma = NVC_CALIB_BINS / 64.0, th;
	unsigned int seed = 1;
	int i;

	for (i = 0; i < 100; i++)
		hist[i] = 1;
	tap_ok(nvc_calib_percentile(hist, 100, 100, 90) == 90 &&
	       nvc_calib_percentile(hist, 100, 100, 100) == 100 &&
	       nvc_calib_percentile(hist, 100, 100, 0.5) == 1,
	       "percentile of 1..100: 90th is 90, 100th 100, 0.5th 1");
	for (i = 0; i < NVC_CALIB_BINS; i++)
		hist[i] = 10;
	tap_ok(nvc_calib_entropy(hist, NVC_CALIB_BINS, 8) == 8,
	       "entropy of a uniform histogram keeps the whole range");
	memset(hist, 0, sizeof(hist));
	for (i = 0; i < 10; i++)
		hist[i * i] = 1;
	tap_ok(nvc_calib_entropy(hist, NVC_CALIB_BINS, 8) == 8,
	       "entropy of 10 values keeps the whole range");
	/* |N(0, sigma)| in bins of 1, and a few far outliers. */
	memset(hist, 0, sizeof(hist));
	for (i = 0; i < 200000; i++) {
		double u1, u2, z;

		seed = seed * 1103515245u + 12345u;
		u1 = ((seed >> 8) + 1.0) / 16777218.0;
		seed = seed * 1103515245u + 12345u;
		u2 = (seed >> 8) / 16777216.0;
		z = fabs(sqrt(-2 * log(u1)) * cos(2 * M_PI * u2)) * sigma;
		hist[z < NVC_CALIB_BINS ? (int)z : NVC_CALIB_BINS - 1]++;
	}
	hist[NVC_CALIB_BINS - 1] += 3;
	th = nvc_calib_entropy(hist, NVC_CALIB_BINS, NVC_CALIB_BINS);
	tap_ok(th > 2 * sigma && th < 8 * sigma,
	       "entropy of a normal with outliers at 64 sigma: %.2f sigma", th / sigma);
	th = nvc_calib_percentile(hist, NVC_CALIB_BINS, NVC_CALIB_BINS, 95);
	tap_ok(fabs(th / sigma - 1.96) < 0.05,
	       "95th percentile of |N(0, s)|: %.3f s (1.960)", th / sigma);
}

/* A .npy file: format version @ver, header @h (padded), then @n bytes. */
static void write_npy(const char *path, int ver, const char *h,
		      const void *data, size_t n)
{
	unsigned char pre[12] = { 0x93, 'N', 'U', 'M', 'P', 'Y', ver, 0 };
	size_t len = strlen(h), pre_len = ver > 1 ? 12 : 10;
	FILE *f = fopen(path, "wb");

	memset(pre + 8, 0, 4);
	pre[8] = len;
	pre[9] = len >> 8;
	fwrite(pre, 1, pre_len, f);
	fwrite(h, 1, len, f);
	if (n)
		fwrite(data, 1, n, f);
	fclose(f);
}

static int write_pgm(const char *path, const uint8_t *pix)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return -1;
	fprintf(f, "P5\n2 2\n255\n");
	fwrite(pix, 1, 4, f);
	return fclose(f);
}

static void test_calibrate(void)
{
	static const uint8_t a[4] = { 0, 51, 102, 255 }, b[4] = { 0, 0, 0, 153 };
	char dir[] = "/tmp/nvc-calib-XXXXXX", path[64], note[NVC_ERR_LEN] = "";
	struct nvc_calib_options o = { .method = NVC_CALIB_MINMAX,
				       .pixels = { .normalize = 255 } };
	Onnx__ModelProto *m = ob_model(13);
	struct nvc_graph g;
	int ok, x, y;

	ob_input(m, "x", 1, 2, 2);
	ob_node(m, "Mul", "neg", "x,c", "y");
	ob_init(m, "c", 0, NULL, (float[]){ -2 });
	ob_output(m, "y");
	if (!mkdtemp(dir) || load(m, &g)) {
		tap_ok(0, "calibration set up: %s", err);
		return;
	}
	snprintf(path, sizeof(path), "%s/a.pgm", dir);
	write_pgm(path, a);
	snprintf(path, sizeof(path), "%s/b.pgm", dir);
	write_pgm(path, b);
	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	fclose(fopen(path, "w"));
	x = tensor_named(&g, "x");
	y = tensor_named(&g, "y");
	ok = nvc_calibrate(&g, dir, &o, err, sizeof(err)) == 0;
	ok = ok && g.tensors[x].calibrated && g.tensors[x].min == 0 &&
	     g.tensors[x].max == 1 && g.tensors[y].min == -2 && g.tensors[y].max == 0;
	tap_ok(ok, "min/max calibration over two images: x [0, 1], -2x [-2, 0] %s", err);
	o.method = NVC_CALIB_PERCENTILE;
	o.percentile = 60;
	ok = nvc_calibrate(&g, dir, &o, err, sizeof(err)) == 0;
	tap_ok(ok && g.tensors[y].min > -0.41f && g.tensors[y].min < -0.39f &&
	       g.tensors[x].max == 1,
	       "60th percentile of |-2x| over both images: %g (-0.4); the input keeps [0, 1]",
	       g.tensors[y].min);
	o.pixels.mean[0] = 51;
	o.pixels.normalize = 51;
	o.method = NVC_CALIB_MINMAX;
	ok = nvc_calibrate(&g, dir, &o, err, sizeof(err)) == 0;
	tap_ok(ok && g.tensors[x].min == -1 && g.tensors[x].max == 4 &&
	       g.tensors[y].min == -8 && g.tensors[y].max == 2,
	       "mean 51, normalize 51: x in [-1, 4], -2x in [-8, 2]");
	snprintf(path, sizeof(path), "%s/c.npy", dir);
	write_npy(path, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 2, 2), }",
		  (float[]){ -1, 0.5f, 2, 0 }, 16);
	o.note = note;
	o.note_len = sizeof(note);
	ok = nvc_calibrate(&g, dir, &o, err, sizeof(err)) == 0;
	tap_ok(ok && g.tensors[x].min == -1 && g.tensors[x].max == 4 &&
	       strstr(note, ": calibrating on its 2 images; its 1 .npy arrays are left out"),
	       "a directory of images and .npy arrays: the images, and a note saying so: %s",
	       note);
	note[0] = 0;
	snprintf(path, sizeof(path), "%s/a.pgm", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/b.pgm", dir);
	unlink(path);
	ok = nvc_calibrate(&g, dir, &o, err, sizeof(err)) == 0;
	tap_ok(ok && g.tensors[x].min == -1 && g.tensors[x].max == 2 &&
	       g.tensors[y].min == -4 && g.tensors[y].max == 2 && !note[0],
	       "calibration over a .npy array: x as measured [-1, 2], -2x [-4, 2] %s",
	       err);
	snprintf(path, sizeof(path), "%s/c.npy", dir);
	unlink(path);
	tap_ok(nvc_calibrate(&g, dir, &o, err, sizeof(err)) == -ENOENT &&
	       strstr(err, "no .pgm, .ppm, .png or .jpg images and no .npy arrays"),
	       "a directory without images or arrays is refused");
	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	unlink(path);
	rmdir(dir);
	nvc_graph_free(&g);
}

static void test_npy(void)
{
	const struct {
		const char *what, *header;
		int ver;
		const void *data;
		size_t len;
		const char *err;	/* NULL: reads 1.5, -2, 3 */
	} cases[] = {
		{ "float32 of (1, 3, 1, 1)", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 1, 1), }",
		  1, (float[]){ 1.5f, -2, 3 }, 12, NULL },
		{ "float32 of (3,) without the batch, version 2", "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
		  2, (float[]){ 1.5f, -2, 3 }, 12, NULL },
		{ "float16", "{'descr': '<f2', 'fortran_order': False, 'shape': (1, 3, 1, 1), }",
		  1, (uint16_t[]){ 0x3e00, 0xc000, 0x4200 }, 6, NULL },
		{ "float32 of (1, 4, 1, 1) refused", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4, 1, 1), }",
		  1, (float[]){ 1, 2, 3, 4 }, 16,
		  ".npy shape (1, 4, 1, 1) is not that of input 'in' (1, 3, 1, 1: batch 1 optional)" },
		{ "bad magic refused", NULL, 1, NULL, 0, "not a .npy file (bad magic)" },
		{ "version 4 refused", "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
		  4, (float[]){ 1.5f, -2, 3 }, 12, ".npy format version 4 is not supported (1 to 3)" },
		{ "float64 refused", "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }",
		  1, (double[]){ 1.5, -2, 3 }, 24,
		  ".npy dtype '<f8' is not supported: float32, float16 (little-endian), uint8 or int8" },
		{ "big-endian float32 refused", "{'descr': '>f4', 'fortran_order': False, 'shape': (3,), }",
		  1, (float[]){ 1.5f, -2, 3 }, 12, ".npy dtype '>f4' is not supported" },
		{ "Fortran order refused", "{'descr': '<f4', 'fortran_order': True, 'shape': (3,), }",
		  1, (float[]){ 1.5f, -2, 3 }, 12, ".npy array in Fortran order" },
		{ "truncated data refused", "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
		  1, (float[]){ 1.5f, -2 }, 8, ".npy data truncated: 8 of 12 bytes" },
		{ "trailing bytes refused", "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
		  1, (float[]){ 1.5f, -2, 3, 4 }, 16, ".npy file has bytes past its array" },
		{ "header without a shape refused", "{'descr': '<f4', 'fortran_order': False, }",
		  1, (float[]){ 1.5f, -2, 3 }, 12, ".npy header has no 'shape'" },
		{ "header without a dtype refused", "{'fortran_order': False, 'shape': (3,), }",
		  1, (float[]){ 1.5f, -2, 3 }, 12, ".npy header has no 'descr'" },
		{ "header without an order refused", "{'descr': '<f4', 'shape': (3,), }",
		  1, (float[]){ 1.5f, -2, 3 }, 12, ".npy header has no 'fortran_order'" },
		{ "malformed shape refused", "{'descr': '<f4', 'fortran_order': False, 'shape': (3, x), }",
		  1, (float[]){ 1.5f, -2, 3 }, 12, ".npy header's 'shape' is malformed" },
		{ "shape of rank 5 refused", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 1, 1, 1), }",
		  1, (float[]){ 1.5f, -2, 3 }, 12, ".npy array of more than 4 dimensions" },
		{ "truncated header refused", "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
		  0, NULL, 0, ".npy header truncated" },
		{ "header of 5000 bytes refused", NULL, 1, NULL, 5000,
		  ".npy header longer than 4096 bytes" },
	};
	struct nvc_tensor t = { .name = "in", .n = 1, .c = 3, .h = 1, .w = 1 };
	char path[] = "/tmp/nvc-npy-XXXXXX";
	float out[3];
	size_t i;
	int ret;

	close(mkstemp(path));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i].header && !cases[i].ver) {	/* length past the file */
			write_npy(path, 1, cases[i].header, NULL, 0);
			if (truncate(path, 10 + strlen(cases[i].header) - 1))
				perror(path);
		} else if (cases[i].header) {
			write_npy(path, cases[i].ver, cases[i].header,
				  cases[i].data, cases[i].len);
		} else if (cases[i].len) {	/* a header length of len */
			FILE *f = fopen(path, "wb");

			fwrite("\x93NUMPY\x01\x00", 1, 8, f);
			fputc(cases[i].len & 0xff, f);
			fputc(cases[i].len >> 8, f);
			fclose(f);
		} else {
			FILE *f = fopen(path, "wb");

			fputs("P5\n1 3\n255\nabc", f);
			fclose(f);
		}
		memset(out, 0, sizeof(out));
		err[0] = 0;
		ret = nvc_npy_read(path, &t, out, err, sizeof(err));
		if (!cases[i].err)
			tap_ok(!ret && out[0] == 1.5f && out[1] == -2 && out[2] == 3,
			       ".npy %s read %s", cases[i].what, err);
		else
			tap_ok(ret == -EINVAL && strstr(err, cases[i].err),
			       ".npy %s: %s", cases[i].what, err);
	}
	write_npy(path, 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (1, 3), }",
		  (uint8_t[]){ 200, 0, 7 }, 3);
	tap_ok(!nvc_npy_read(path, &t, out, err, sizeof(err)) &&
	       out[0] == 200 && out[1] == 0 && out[2] == 7,
	       ".npy uint8 of (1, 3) read as its values");
	write_npy(path, 1, "{'descr': '|i1', 'fortran_order': False, 'shape': (3, 1), }",
		  (int8_t[]){ -128, 5, 127 }, 3);
	tap_ok(!nvc_npy_read(path, &t, out, err, sizeof(err)) &&
	       out[0] == -128 && out[1] == 5 && out[2] == 127,
	       ".npy int8 of (3, 1) read as its values");
	unlink(path);
}

static void test_inputs(void)
{
	struct nvc_tensor t = { .name = "in", .n = 1, .c = 3, .h = 1, .w = 1 };
	struct nvc_pixel_map m = { .mean = { 0, 10, 0 }, .normalize = 10 };
	char path[] = "/tmp/nvc-input-XXXXXX";
	float out[3] = { 0 };
	FILE *f;

	close(mkstemp(path));
	f = fopen(path, "wb");
	fprintf(f, "P6\n1 1\n255\n");
	fwrite("\x0a\x14\x1e", 1, 3, f);	/* R 10, G 20, B 30 */
	fclose(f);
	tap_ok(nvc_image_input(path, &t, &m, out, err, sizeof(err)) == 0 &&
	       out[0] == 3 && out[1] == 1 && out[2] == 1,
	       "a colour pixel feeds B, G, R planes as (p - mean) / normalize");
	t.c = 1;
	tap_ok(nvc_image_input(path, &t, &m, out, err, sizeof(err)) == -EINVAL &&
	       strstr(err, "with 3 channels; input 'in' is 1x1 with 1"),
	       "a colour image for a grey input is refused");
	unlink(path);
}

/* The values of a reference.txt, n of them. */
static int read_reference(const char *path, double *v, long n)
{
	FILE *f = fopen(path, "r");
	long i;

	if (!f)
		return -1;
	for (i = 0; i < n && fscanf(f, "%lf", &v[i]) == 1; i++)
		;
	fclose(f);
	return i == n ? 0 : -1;
}

static void corpus_case(const char *net, const char *model, const char *ref)
{
	char path[512], npy[512], refp[512];
	struct nvc_graph g;
	float *in = NULL, *out = NULL;
	double *want = NULL, e = 0;
	long n, i;
	int ok = 0;

	snprintf(path, sizeof(path), "%s/%s/%s", CORPUS, net, model);
	snprintf(npy, sizeof(npy), "%s/%s/input.npy", CORPUS, net);
	snprintf(refp, sizeof(refp), "%s/%s/%s", CORPUS, net, ref);
	if (nvc_onnx_load_file(path, &g, err, sizeof(err)))
		goto out;
	if (nvc_passes(&g, NULL, err, sizeof(err)))
		goto free;
	n = nvc_tensor_size(&g.tensors[g.inputs[0]]);
	in = malloc(n * sizeof(*in));
	if (nvc_npy_read(npy, &g.tensors[g.inputs[0]], in, err, sizeof(err)))
		goto free;
	out = run(&g, in);
	n = nvc_tensor_size(&g.tensors[g.outputs[0]]);
	want = malloc(n * sizeof(*want));
	if (!out || read_reference(refp, want, n))
		goto free;
	for (i = 0; i < n; i++)
		e = fmax(e, fabs(want[i] - out[i]));
	ok = e < 1e-4;
free:
	nvc_graph_free(&g);
out:
	tap_ok(ok, "corpus %s: %s max error %.2g (< 1e-4) %s", net, model, e,
	       ok ? "" : err);
	free(in);
	free(out);
	free(want);
}

static void test_corpus(void)
{
	struct dirent **list;
	char model[300];
	int n, i;

	n = scandir(CORPUS, &list, NULL, alphasort);
	if (n < 0) {
		tap_skip("../shared absent", "executor against the ONNX corpus");
		return;
	}
	for (i = 0; i < n; i++) {
		if (list[i]->d_name[0] != '.' && list[i]->d_type == DT_DIR) {
			snprintf(model, sizeof(model), "%s.onnx", list[i]->d_name);
			corpus_case(list[i]->d_name, model, "reference.txt");
			snprintf(model, sizeof(model), "%s_logits.onnx",
				 list[i]->d_name);
			corpus_case(list[i]->d_name, model, "reference_logits.txt");
		}
		free(list[i]);
	}
	free(list);
}

/* Usage: test_compiler_onnx [BUILD] | --write-models DIR (fuzzing seeds). */
int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write-models"))
		models_dir = argv[2];
	test_conv_shapes();
	test_window_shapes();
	test_shape_ops();
	test_shape_arith();
	test_identity();
	test_const_fold();
	test_pad();
	test_order();
	test_refusals_ops();
	test_refusals_model();
	test_refusal_table();
	test_qdq_pairs();
	test_qdq_constants();
	test_pass_affine_conv();
	test_pass_transpose_fold();
	test_pass_affine_chain();
	test_pass_no_fold();
	test_pass_flatten_dead();
	test_pass_selections();
	test_exec_values();
	test_exec_conv_blocked();
	test_concat_many();
	test_shuffle();
	test_resize();
	test_tokens();
	test_stats();
	test_calibrate();
	test_npy();
	test_inputs();
	test_corpus();
	return tap_done();
}
