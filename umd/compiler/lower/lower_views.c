// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Views, the first of the back end's placement decisions: which tensors
 * live inside another's bytes. An input of a concatenation whose inputs
 * all start on an atom of channels is written in place by its producer
 * when that ends in an SDP (ts[].root); a Split output that starts on an
 * atom is a view of the Split's input, any other that is read a copy of
 * its channels. Reshapes alias their input (ir.h).
 */
#include <stdbool.h>

#include "lower_internal.h"

/* Nodes that end in an SDP, which can write any scale anywhere. */
static bool rescales(const struct nvc_graph *g, int tensor)
{
	int p = g->tensors[tensor].producer;

	if (p < 0)
		return false;
	switch (g->nodes[p].op) {
	case NVC_CONV:
	case NVC_AFFINE:
	case NVC_ACT:
	case NVC_ELTWISE:
		return true;
	default:
		return false;
	}
}

static bool is_output(const struct nvc_lower *L, int tensor)
{
	int i;

	for (i = 0; i < L->g->num_outputs; i++)
		if (nvc_resolve(L, L->g->outputs[i]) == tensor)
			return true;
	return false;
}

void nvc_views(struct nvc_lower *L)
{
	const struct nvc_graph *g = L->g;
	int i, k;

	for (i = 0; i < g->num_nodes; i++) {
		const struct nvc_node *n = &g->nodes[i];

		if (n->op != NVC_CONCAT)
			continue;
		if (!nvc_lir_concat_aligned(g, n,
					    L->ir.ts[n->outputs[0]].epa))
			continue;	/* assembled by convolutions */
		for (k = 0; k < n->num_inputs; k++) {
			int in = n->inputs[k];

			if (rescales(g, in) && L->ir.ts[in].root < 0 &&
			    L->ir.ts[in].prec == L->ir.ts[n->outputs[0]].prec &&
			    g->tensors[in].alias_of < 0 && !is_output(L, in) &&
			    !g->tensors[n->outputs[0]].data)
				L->ir.ts[in].root = n->outputs[0];
		}
	}
}

bool nvc_split_view(const struct nvc_lower *L, int tensor)
{
	const struct nvc_graph *g = L->g;
	int p = g->tensors[tensor].producer, k, coff = 0;
	const struct nvc_node *n;

	if (p < 0 || g->nodes[p].op != NVC_SPLIT)
		return false;
	n = &g->nodes[p];
	for (k = 0; n->outputs[k] != tensor; k++)
		coff += g->tensors[n->outputs[k]].c;
	for (k = 0; k < g->num_outputs; k++)
		if (g->outputs[k] == tensor)
			return false;
	return coff % (int)L->ir.ts[n->inputs[0]].epa == 0;
}

/* Whether a node reads @tensor. */
static bool read(const struct nvc_graph *g, int tensor)
{
	int i, k;

	for (i = 0; i < g->num_nodes; i++)
		for (k = 0; k < g->nodes[i].num_inputs; k++)
			if (g->nodes[i].inputs[k] == tensor)
				return true;
	return false;
}

bool nvc_split_copied(const struct nvc_lower *L, int tensor)
{
	return !nvc_split_view(L, tensor) &&
	       (read(L->g, tensor) || nvc_graph_output(L->g, tensor));
}
