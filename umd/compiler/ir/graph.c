// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Graphs: appending tensors and nodes, compaction after passes,
 * freeing, and a text dump. Arrays grow by doubling when
 * their count reaches a power of two, so no capacity is stored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"

long nvc_tensor_size(const struct nvc_tensor *t)
{
	return (long)t->n * t->c * t->h * t->w;
}

/* Make room for element @count of an array of @size-byte elements. */
static int grow(void **array, int count, size_t size)
{
	void *p;

	if (count && (count & (count - 1)))
		return 0;
	p = realloc(*array, (count ? 2 * (size_t)count : 1) * size);
	if (!p)
		return -ENOMEM;
	*array = p;
	return 0;
}

int nvc_tensor_add(struct nvc_graph *g, const char *name, int n, int c,
		   int h, int w, const float *data)
{
	struct nvc_tensor *t;
	size_t bytes = (size_t)n * c * h * w * sizeof(float);

	if (grow((void **)&g->tensors, g->num_tensors, sizeof(*t)))
		return -ENOMEM;
	t = &g->tensors[g->num_tensors];
	memset(t, 0, sizeof(*t));
	t->name = strdup(name);
	t->n = n;
	t->c = c;
	t->h = h;
	t->w = w;
	t->producer = -1;
	t->alias_of = -1;
	if (data)
		t->data = malloc(bytes ? bytes : 1);
	if (!t->name || (data && !t->data)) {
		free(t->name);
		free(t->data);
		return -ENOMEM;
	}
	if (data)
		memcpy(t->data, data, bytes);
	return g->num_tensors++;
}

int nvc_tensor_copy(struct nvc_graph *g, int t, const char *what)
{
	char buf[NVC_ERR_LEN];
	const struct nvc_tensor *src = &g->tensors[t];

	snprintf(buf, sizeof(buf), "%s/%s", src->name, what);
	return nvc_tensor_add(g, buf, src->n, src->c, src->h, src->w,
			      src->data);
}

int nvc_tensor_zeros(struct nvc_graph *g, const char *name, int n, int c,
		     int h, int w)
{
	int t = nvc_tensor_add(g, name, n, c, h, w, NULL);

	if (t < 0)
		return t;
	g->tensors[t].data = calloc((size_t)n * c * h * w, sizeof(float));
	return g->tensors[t].data ? t : -ENOMEM;
}

int nvc_node_add(struct nvc_graph *g, const char *name, const char *onnx_op,
		 enum nvc_op op)
{
	struct nvc_node *nd;

	if (grow((void **)&g->nodes, g->num_nodes, sizeof(*nd)))
		return -ENOMEM;
	nd = &g->nodes[g->num_nodes];
	memset(nd, 0, sizeof(*nd));
	nd->name = strdup(name);
	if (!nd->name)
		return -ENOMEM;
	nd->onnx_op = onnx_op;
	nd->op = op;
	nd->act.type = NVC_ACT_NONE;
	nd->act.slope = -1;
	return g->num_nodes++;
}

int nvc_node_insert(struct nvc_graph *g, int at, const char *name,
		    const char *onnx_op, enum nvc_op op)
{
	int last = nvc_node_add(g, name, onnx_op, op), t;
	struct nvc_node nd;

	if (last < 0)
		return last;
	nd = g->nodes[last];
	memmove(&g->nodes[at + 1], &g->nodes[at],
		(size_t)(last - at) * sizeof(nd));
	g->nodes[at] = nd;
	for (t = 0; t < g->num_tensors; t++)
		if (g->tensors[t].producer >= at)
			g->tensors[t].producer++;
	return at;
}

/* Constant tensors a node refers to through its attributes. */
static int node_constants(const struct nvc_node *nd, int **refs)
{
	int n = 0;

	switch (nd->op) {
	case NVC_CONV:
	case NVC_CONV_TRANSPOSE:
		refs[n++] = (int *)&nd->conv.weights;
		refs[n++] = (int *)&nd->conv.bias;
		break;
	case NVC_AFFINE:
		refs[n++] = (int *)&nd->affine.scale;
		refs[n++] = (int *)&nd->affine.shift;
		break;
	default:
		break;
	}
	refs[n++] = (int *)&nd->act.slope;
	return n;
}

static void tensor_free(struct nvc_tensor *t)
{
	free(t->name);
	free(t->data);
}

int nvc_graph_compact(struct nvc_graph *g, const char *dead)
{
	int *map, i, j, k, n, *refs[3];

	map = calloc(g->num_tensors ? g->num_tensors : 1, sizeof(*map));
	if (!map)
		return -ENOMEM;
	for (i = 0; i < g->num_inputs; i++)
		map[g->inputs[i]] = 1;
	for (i = 0; i < g->num_outputs; i++)
		map[g->outputs[i]] = 1;
	for (i = k = 0; i < g->num_nodes; i++) {
		struct nvc_node *nd = &g->nodes[i];

		if (dead[i]) {
			free(nd->name);
			continue;
		}
		for (j = 0; j < nd->num_inputs; j++)
			map[nd->inputs[j]] = 1;
		for (j = 0; j < nd->num_outputs; j++)
			map[nd->outputs[j]] = 1;
		n = node_constants(nd, refs);
		for (j = 0; j < n; j++)
			if (*refs[j] >= 0)
				map[*refs[j]] = 1;
		g->nodes[k++] = *nd;
	}
	g->num_nodes = k;
	/* Alias targets stay with their aliases. */
	for (i = g->num_tensors - 1; i >= 0; i--)
		if (map[i] && g->tensors[i].alias_of >= 0)
			map[g->tensors[i].alias_of] = 1;
	for (i = k = 0; i < g->num_tensors; i++) {
		if (!map[i]) {
			tensor_free(&g->tensors[i]);
			map[i] = -1;
			continue;
		}
		g->tensors[k] = g->tensors[i];
		map[i] = k++;
	}
	g->num_tensors = k;
	for (i = 0; i < g->num_tensors; i++) {
		struct nvc_tensor *t = &g->tensors[i];

		if (t->alias_of >= 0)
			t->alias_of = map[t->alias_of];
	}
	for (i = 0; i < g->num_nodes; i++) {
		struct nvc_node *nd = &g->nodes[i];

		for (j = 0; j < nd->num_inputs; j++)
			nd->inputs[j] = map[nd->inputs[j]];
		for (j = 0; j < nd->num_outputs; j++) {
			nd->outputs[j] = map[nd->outputs[j]];
			g->tensors[nd->outputs[j]].producer = i;
		}
		n = node_constants(nd, refs);
		for (j = 0; j < n; j++)
			if (*refs[j] >= 0)
				*refs[j] = map[*refs[j]];
	}
	for (i = 0; i < g->num_inputs; i++)
		g->inputs[i] = map[g->inputs[i]];
	for (i = 0; i < g->num_outputs; i++)
		g->outputs[i] = map[g->outputs[i]];
	free(map);
	return 0;
}

void nvc_graph_free(struct nvc_graph *g)
{
	int i;

	for (i = 0; i < g->num_tensors; i++)
		tensor_free(&g->tensors[i]);
	for (i = 0; i < g->num_nodes; i++)
		free(g->nodes[i].name);
	free(g->tensors);
	free(g->nodes);
	memset(g, 0, sizeof(*g));
}

static const char *const op_names[] = {
	[NVC_CONV] = "conv", [NVC_CONV_TRANSPOSE] = "conv_transpose",
	[NVC_AFFINE] = "affine", [NVC_ACT] = "act", [NVC_ELTWISE] = "eltwise",
	[NVC_POOL] = "pool", [NVC_LRN] = "lrn", [NVC_CONCAT] = "concat",
	[NVC_SPLIT] = "split", [NVC_RESHAPE] = "reshape",
	[NVC_SOFTMAX] = "softmax", [NVC_CPU] = "cpu", [NVC_PAD] = "pad",
};

static const char *const act_names[] = {
	[NVC_ACT_NONE] = "none", [NVC_ACT_RELU] = "relu",
	[NVC_ACT_CLIP] = "clip", [NVC_ACT_LEAKY] = "leaky",
	[NVC_ACT_PRELU] = "prelu", [NVC_ACT_SIGMOID] = "sigmoid",
	[NVC_ACT_TANH] = "tanh",
};

static void dump_attrs(const struct nvc_node *nd, FILE *f)
{
	const struct nvc_conv_attr *c = &nd->conv;
	const struct nvc_pool_attr *p = &nd->pool;

	switch (nd->op) {
	case NVC_CONV:
	case NVC_CONV_TRANSPOSE:
		fprintf(f, " k=%dx%d stride=%d,%d pad=%d,%d,%d,%d dil=%d,%d group=%d w=%d b=%d",
			c->kh, c->kw, c->stride[0], c->stride[1], c->pad[0],
			c->pad[1], c->pad[2], c->pad[3], c->dilation[0],
			c->dilation[1], c->group, c->weights, c->bias);
		if (nd->op == NVC_CONV_TRANSPOSE)
			fprintf(f, " out_pad=%d,%d", c->out_pad[0], c->out_pad[1]);
		break;
	case NVC_AFFINE:
		fprintf(f, " scale=%d shift=%d", nd->affine.scale,
			nd->affine.shift);
		break;
	case NVC_ELTWISE:
		fprintf(f, " %s", nd->eltwise == NVC_ELT_ADD ? "add" :
			nd->eltwise == NVC_ELT_MUL ? "mul" : "max");
		break;
	case NVC_POOL:
		fprintf(f, " %s k=%dx%d stride=%d,%d pad=%d,%d,%d,%d%s%s%s",
			p->type == NVC_POOL_MAX ? "max" : "avg", p->kh, p->kw,
			p->stride[0], p->stride[1], p->pad[0], p->pad[1],
			p->pad[2], p->pad[3], p->ceil_mode ? " ceil" : "",
			p->count_include_pad ? " count_include_pad" : "",
			p->global ? " global" : "");
		break;
	case NVC_LRN:
		fprintf(f, " size=%d alpha=%g beta=%g bias=%g", nd->lrn.size,
			nd->lrn.alpha, nd->lrn.beta, nd->lrn.bias);
		break;
	case NVC_PAD:
		fprintf(f, " %s pad=%d,%d,%d,%d",
			nd->pad.mode == NVC_PAD_EDGE ? "edge" : "reflect",
			nd->pad.pad[0], nd->pad.pad[1], nd->pad.pad[2],
			nd->pad.pad[3]);
		break;
	default:
		break;
	}
	if (nd->act.type != NVC_ACT_NONE)
		fprintf(f, " act=%s", act_names[nd->act.type]);
	if (nd->act.type == NVC_ACT_CLIP)
		fprintf(f, "(%g,%g)", nd->act.min, nd->act.max);
	if (nd->act.type == NVC_ACT_LEAKY)
		fprintf(f, "(%g)", nd->act.alpha);
	if (nd->act.type == NVC_ACT_PRELU)
		fprintf(f, "(%d)", nd->act.slope);
}

void nvc_graph_dump(const struct nvc_graph *g, FILE *f)
{
	int i, j;

	for (i = 0; i < g->num_tensors; i++) {
		const struct nvc_tensor *t = &g->tensors[i];

		fprintf(f, "tensor %d '%s' %dx%dx%dx%d%s", i, t->name, t->n,
			t->c, t->h, t->w, t->data ? " const" : "");
		if (t->alias_of >= 0)
			fprintf(f, " alias_of=%d", t->alias_of);
		if (t->calibrated)
			fprintf(f, " range=[%g,%g]", t->min, t->max);
		fputc('\n', f);
	}
	for (i = 0; i < g->num_nodes; i++) {
		const struct nvc_node *nd = &g->nodes[i];

		fprintf(f, "node %d '%s' (%s) %s in=", i, nd->name, nd->onnx_op,
			op_names[nd->op]);
		for (j = 0; j < nd->num_inputs; j++)
			fprintf(f, "%s%d", j ? "," : "", nd->inputs[j]);
		fprintf(f, " out=");
		for (j = 0; j < nd->num_outputs; j++)
			fprintf(f, "%s%d", j ? "," : "", nd->outputs[j]);
		dump_attrs(nd, f);
		fputc('\n', f);
	}
	fprintf(f, "inputs=");
	for (i = 0; i < g->num_inputs; i++)
		fprintf(f, "%s%d", i ? "," : "", g->inputs[i]);
	fprintf(f, " outputs=");
	for (i = 0; i < g->num_outputs; i++)
		fprintf(f, "%s%d", i ? "," : "", g->outputs[i]);
	fputc('\n', f);
}
