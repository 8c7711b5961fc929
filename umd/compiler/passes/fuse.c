// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Fusion, decided once for the back end: what a node's SDP computes
 * besides its own work. An activation is absorbed by the node computing
 * its input where that node's SDP has a stage left for it (passes.c asks
 * nvc_fuses_activation()); an element-wise operation after a convolution
 * is marked (nvc_node.sdp_fused) to run in that convolution's SDP, which
 * reads its other operand from memory. The lowering reads the marks; it
 * decides nothing of its own.
 */
#include <math.h>

#include "ir.h"

/*
 * Whether int8 tensor @t may get a scale other than its own range's: a
 * concatenation written in place gives its inputs its own, a QDQ model
 * its scales.
 */
static bool scale_elsewhere(const struct nvc_graph *g, int t)
{
	int i, k;

	if (g->tensors[t].calibrated == NVC_RANGE_QDQ)
		return true;
	for (i = 0; i < g->num_nodes; i++)
		for (k = 0; k < g->nodes[i].num_inputs; k++)
			if (g->nodes[i].op == NVC_CONCAT &&
			    g->nodes[i].inputs[k] == t)
				return true;
	return false;
}

/*
 * Whether the SDP computes activation node @a after an operation that
 * takes X1 and X2 (an element-wise operation's operand, an affine's
 * shift), with Y where @sdp_y. ReLU is X2's own; Clip's upper bound is
 * Y's ALU, or without Y the int8 output converter's saturation, which
 * needs the output's scale to be the range [0, max] of a Clip from 0; a
 * slope (LeakyRelu, PRelu) needs Y's multiplier; a finite lower bound
 * other than 0 one more ALU, which no target has left. A LUT activation
 * (Sigmoid, Tanh) is Y's, and refused or a CPU task where there is none.
 */
static bool act_after_x2(const struct nvc_graph *g, const struct nvc_node *a,
			 bool sdp_y)
{
	const struct nvc_activation *act = &a->act;

	switch (act->type) {
	case NVC_ACT_CLIP:
		if (sdp_y)
			return act->min == 0.0f || act->min == -INFINITY;
		return act->min == 0.0f && !scale_elsewhere(g, a->outputs[0]);
	case NVC_ACT_LEAKY:
	case NVC_ACT_PRELU:
		return sdp_y;
	default:
		return true;
	}
}

bool nvc_fuses_activation(const struct nvc_graph *g,
			  const struct nvc_node *prod,
			  const struct nvc_node *a, bool sdp_y)
{
	if (prod->act.type != NVC_ACT_NONE)
		return false;
	if (prod->op == NVC_CONV || prod->op == NVC_CONV_TRANSPOSE)
		return true;
	return (prod->op == NVC_AFFINE || prod->op == NVC_ELTWISE) &&
	       act_after_x2(g, a, sdp_y);
}

/* The node reading @tensor if exactly one input of one node does, or -1. */
static int sole_reader(const struct nvc_graph *g, int tensor)
{
	int i, k, count = 0, last = -1;

	for (i = 0; i < g->num_nodes; i++)
		for (k = 0; k < g->nodes[i].num_inputs; k++)
			if (g->nodes[i].inputs[k] == tensor) {
				count++;
				last = i;
			}
	return count == 1 ? last : -1;
}

/*
 * Whether convolution @conv's SDP can compute element-wise node @elt, the
 * sole reader of its output: the other operand must exist before the
 * convolution runs, which computes the whole output; its SDP adds or
 * multiplies (no maximum), and takes a per-channel operand only as
 * input 1.
 */
static bool elt_fuses(const struct nvc_graph *g, int conv, int elt)
{
	const struct nvc_node *e = &g->nodes[elt];
	int a = e->inputs[0], b = e->inputs[1];
	int other = a == g->nodes[conv].outputs[0] ? b : a;

	return a != b && g->tensors[other].producer < conv &&
	       e->eltwise != NVC_ELT_MAX &&
	       !(nvc_per_channel(g, e) && other == a);
}

int nvc_fused_eltwise(const struct nvc_graph *g, int conv)
{
	int out = g->nodes[conv].outputs[0], elt = sole_reader(g, out);
	const struct nvc_node *e = elt >= 0 ? &g->nodes[elt] : NULL;

	return e && e->sdp_fused && e->inputs[e->sdp_fused - 1] == out ?
	       elt : -1;
}

void nvc_decide_fusion(struct nvc_graph *g)
{
	int i;

	for (i = 0; i < g->num_nodes; i++)
		g->nodes[i].sdp_fused = 0;
	for (i = 0; i < g->num_nodes; i++) {
		const struct nvc_node *n = &g->nodes[i];
		int out = n->outputs[0], next;

		if (n->op != NVC_CONV || n->act.type != NVC_ACT_NONE ||
		    nvc_graph_output(g, out))
			continue;
		next = sole_reader(g, out);
		if (next >= 0 && g->nodes[next].op == NVC_ELTWISE &&
		    elt_fuses(g, i, next))
			g->nodes[next].sdp_fused =
				1 + (g->nodes[next].inputs[1] == out);
	}
}
