// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The lowering step: each graph node that computes something becomes one
 * operation of the engine that computes it, reading and writing the
 * tensors the hardware holds. An element-wise node whose convolution's
 * SDP computes it (fuse.c) is part of that convolution's operation, a
 * Reshape none (its output shares its input's bytes). On a target with a
 * RUBIK, a transposed convolution is two: the convolution into an
 * intermediate cube, and the RUBIK's contraction of it into the output.
 */
#include <errno.h>
#include <stdlib.h>

#include <nvdla/dla_interface.h>

#include "lir.h"

void nvc_lir_precision(struct nvc_lir_tensor *t, uint8_t prec, uint32_t atom)
{
	t->prec = prec;
	t->bpe = prec == DLA_PRECISION_INT8 ? 1 : 2;
	t->atom = atom;
	t->epa = atom / t->bpe;
}

static void tensors(struct nvc_lir *ir, const struct nvc_graph *g,
		    uint8_t prec, uint32_t atom)
{
	int i;

	for (i = 0; i < g->num_tensors; i++) {
		struct nvc_lir_tensor *t = &ir->ts[i];

		t->w = g->tensors[i].w;
		t->h = g->tensors[i].h;
		t->c = g->tensors[i].c;
		nvc_lir_precision(t, prec, atom);
		t->scale = 1.0f;
		t->root = -1;
		t->place.slot = -1;
		t->twin = -1;
		t->of = -1;
	}
}

bool nvc_lir_concat_aligned(const struct nvc_graph *g,
			    const struct nvc_node *n, uint32_t epa)
{
	int k, coff = 0;

	for (k = 0; k < n->num_inputs; k++) {
		if (coff % (int)epa)
			return false;
		coff += g->tensors[n->inputs[k]].c;
	}
	return true;
}

/* The engine of node @n, or -1 when it has no operation of its own. */
static int kind_of(const struct nvc_graph *g, const struct nvc_node *n,
		   uint32_t epa)
{
	switch (n->op) {
	case NVC_CONV:
	case NVC_CONV_TRANSPOSE:
	case NVC_SPLIT:
		return NVC_LIR_CONV;
	case NVC_CONCAT:
		return nvc_lir_concat_aligned(g, n, epa) ? NVC_LIR_SDP :
		       NVC_LIR_CONV;
	case NVC_AFFINE:
	case NVC_ACT:
	case NVC_ELTWISE:
	case NVC_PAD:
		return NVC_LIR_SDP;
	case NVC_POOL:
		return NVC_LIR_PDP;
	case NVC_LRN:
		return NVC_LIR_CDP;
	case NVC_SOFTMAX:
	case NVC_CPU:
		return NVC_LIR_CPU;
	case NVC_RESHAPE:
		return -1;
	}
	return -2;
}

/* Input @k of node @n is no activation tensor. */
static bool not_activation(const struct nvc_graph *g, const struct nvc_node *n,
			   int k)
{
	int t = n->inputs[k];

	return t < 0 || t >= g->num_tensors || g->tensors[t].data;
}

/* Convolution @op's SDP computes element-wise node @elt too. */
static void fuse(struct nvc_lir_op *op, const struct nvc_graph *g, int elt)
{
	const struct nvc_node *e = &g->nodes[elt];
	int k;

	op->fused = elt;
	for (k = 0; k < e->num_inputs; k++)
		if (e->inputs[k] != op->outputs[0])
			op->inputs[op->num_inputs++] = e->inputs[k];
	op->outputs[0] = e->outputs[0];
}

static void op_of(struct nvc_lir_op *op, const struct nvc_graph *g, int node,
		  int kind, uint8_t prec)
{
	const struct nvc_node *n = &g->nodes[node];
	int k;

	op->kind = kind;
	op->prec = prec;
	op->node = node;
	op->fused = -1;
	op->num_inputs = n->num_inputs;
	op->num_outputs = n->num_outputs;
	for (k = 0; k < n->num_inputs; k++)
		op->inputs[k] = n->inputs[k];
	for (k = 0; k < n->num_outputs; k++)
		op->outputs[k] = n->outputs[k];
	if (n->op == NVC_CONV || n->op == NVC_CONV_TRANSPOSE) {
		int elt = nvc_fused_eltwise(g, node);

		if (elt >= 0)
			fuse(op, g, elt);
	}
}

int nvc_lir_build(struct nvc_lir *ir, const struct nvc_graph *g,
		  uint8_t prec, uint32_t atom, struct nvc_lir_refusal *why)
{
	uint32_t epa = atom / (prec == DLA_PRECISION_FP16 ? 2 : 1);
	int i, k, kind;

	ir->ts = calloc(g->num_tensors ? g->num_tensors : 1, sizeof(*ir->ts));
	ir->ops = calloc(g->num_nodes ? g->num_nodes : 1, sizeof(*ir->ops));
	if (!ir->ts || !ir->ops)
		return -ENOMEM;
	ir->num_tensors = g->num_tensors;
	tensors(ir, g, prec, atom);
	for (i = 0; i < g->num_nodes; i++) {
		const struct nvc_node *n = &g->nodes[i];

		if (n->sdp_fused)
			continue;	/* in its convolution's operation */
		*why = (struct nvc_lir_refusal){ .node = i };
		for (k = 0; k < n->num_inputs; k++)
			if (not_activation(g, n, k)) {
				why->input = k;
				return -EOPNOTSUPP;
			}
		kind = kind_of(g, n, epa);
		if (kind == -2)
			return -EINVAL;
		if (kind >= 0)
			op_of(&ir->ops[ir->num_ops++], g, i, kind, prec);
	}
	return 0;
}

int nvc_lir_resolve(const struct nvc_graph *g, int t)
{
	int hops = 0;

	while (g->tensors[t].alias_of >= 0 && hops++ < g->num_tensors)
		t = g->tensors[t].alias_of;
	return t;
}

/*
 * New tensor @t of @ir: what transposed convolution @op writes for the
 * RUBIK, each output phase's kernels (padded to whole atoms) in turn over
 * the input's pixels.
 */
static void contracted(struct nvc_lir *ir, const struct nvc_graph *g,
		       const struct nvc_lir_op *op, int t, uint32_t atom)
{
	const struct nvc_node *n = &g->nodes[op->node];
	const struct nvc_tensor *in = &g->tensors[nvc_lir_resolve(g,
							n->inputs[0])];
	struct nvc_lir_tensor *mid = &ir->ts[t];
	int kout = g->tensors[n->outputs[0]].c;

	*mid = (struct nvc_lir_tensor){ .w = in->w, .h = in->h,
		.scale = 1.0f, .root = -1, .place.slot = -1, .twin = -1,
		.of = -1 };
	nvc_lir_precision(mid, op->prec, atom);
	mid->c = n->conv.stride[0] * n->conv.stride[1] *
		 (int)(nvc_lir_surfaces(mid, kout) * mid->epa);
}

int nvc_lir_contract(struct nvc_lir *ir, const struct nvc_graph *g,
		     uint32_t atom)
{
	struct nvc_lir_tensor *ts;
	struct nvc_lir_op *ops;
	int i, m = 0, n = 0;

	for (i = 0; i < ir->num_ops; i++)
		n += ir->ops[i].kind == NVC_LIR_CONV &&
		     g->nodes[ir->ops[i].node].op == NVC_CONV_TRANSPOSE;
	if (!n)
		return 0;
	ops = calloc(ir->num_ops + n, sizeof(*ops));
	ts = realloc(ir->ts, (ir->num_tensors + n) * sizeof(*ts));
	if (ts)
		ir->ts = ts;
	if (!ops || !ts) {
		free(ops);
		return -ENOMEM;
	}
	for (i = 0; i < ir->num_ops; i++) {
		struct nvc_lir_op *op = &ops[m++];
		int t = ir->num_tensors;

		*op = ir->ops[i];
		if (op->kind != NVC_LIR_CONV ||
		    g->nodes[op->node].op != NVC_CONV_TRANSPOSE)
			continue;
		contracted(ir, g, op, t, atom);
		ops[m++] = (struct nvc_lir_op){ .kind = NVC_LIR_RUBIK,
			.prec = op->prec, .node = op->node, .fused = -1,
			.num_inputs = 1, .inputs = { t }, .num_outputs = 1,
			.outputs = { op->outputs[0] } };
		op->outputs[0] = t;
		ir->num_tensors++;
	}
	free(ir->ops);
	ir->ops = ops;
	ir->num_ops = m;
	return 0;
}

void nvc_lir_free(struct nvc_lir *ir)
{
	int i;

	for (i = 0; ir->ops && i < ir->num_ops; i++) {
		free(ir->ops[i].convs);
		free(ir->ops[i].wscale);
	}
	free(ir->ts);
	free(ir->ops);
}

int nvc_lir_conv_add(struct nvc_lir_op *op, const struct nvc_lir_conv *c)
{
	if (op->num_convs == op->cap_convs) {
		int cap = op->cap_convs * 2 + 4;
		struct nvc_lir_conv *p = realloc(op->convs, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		op->convs = p;
		op->cap_convs = cap;
	}
	op->convs[op->num_convs++] = *c;
	return 0;
}

const struct nvc_lir_conv *nvc_lir_convs_of(const struct nvc_lir_op *op,
					    int copy, int *n)
{
	int i = 0;

	while (i < op->num_convs && op->convs[i].copy != copy)
		i++;
	for (*n = 0; i + *n < op->num_convs &&
		     op->convs[i + *n].copy == copy; (*n)++)
		;
	return op->convs + i;
}

int nvc_lir_temp_add(struct nvc_lir *ir, struct nvc_lir_op *op, int w, int h,
		     int c, uint8_t prec, uint32_t atom)
{
	struct nvc_lir_tensor *ts = realloc(ir->ts, (ir->num_tensors + 1) *
					    sizeof(*ts));
	int t = ir->num_tensors;

	if (!ts)
		return -ENOMEM;
	ir->ts = ts;
	ts[t] = (struct nvc_lir_tensor){ .w = w, .h = h, .c = c,
		.scale = 1.0f, .root = -1, .place.slot = -1, .twin = -1,
		.of = -1, .temp = true };
	nvc_lir_precision(&ts[t], prec, atom);
	if (!op->num_temps)
		op->temp = t;
	op->num_temps++;
	ir->num_tensors++;
	return t;
}
