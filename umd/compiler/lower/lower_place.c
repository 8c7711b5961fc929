// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Memory placement, a pass over the lowered IR after the split: each
 * tensor's place (ir.ts[].place) in the order the operations run: its
 * graph memory, a block of the activation pool (lower_mem.c: blocks no
 * later operation reads are given back before each operation), or a
 * view inside the tensor that owns its bytes (lower_views.c); each
 * operation's temporaries after its outputs, kept to the end.
 */
#include "lower_internal.h"

/* The graph input or output @tensor (or an alias of it) is, as a slot. */
static int io_slot(const struct nvc_lower *L, int tensor)
{
	const struct nvc_graph *g = L->g;
	int i;

	for (i = 0; i < g->num_inputs; i++)
		if (g->inputs[i] == tensor)
			return NVC_SLOT_IO + i;
	for (i = 0; i < g->num_outputs; i++)
		if (nvc_resolve(L, g->outputs[i]) == tensor)
			return NVC_SLOT_IO + g->num_inputs + i;
	return -1;
}

/* Give @tensor bytes of its own: its graph memory or a pool block. */
static void place_new(struct nvc_lower *L, int tensor)
{
	const struct nvc_lir_tensor *lt = &L->ir.ts[tensor];
	struct nvc_place *p = &L->ir.ts[tensor].place;

	if (L->image && nvc_is_input(L, tensor)) {	/* pitch-linear pixels */
		p->line = ((uint32_t)lt->w * NVC_IMAGE_COMPS * lt->bpe +
			   NVC_IMAGE_LINE_ALIGN - 1) /
			  NVC_IMAGE_LINE_ALIGN * NVC_IMAGE_LINE_ALIGN;
		p->surf = 0;
		p->size = p->line * (uint32_t)lt->h;
		p->slot = io_slot(L, tensor);
		p->offset = 0;
		return;
	}

	p->line = (uint32_t)lt->w * lt->atom;
	p->surf = p->line * (uint32_t)lt->h;
	p->size = p->surf * nvc_lir_surfaces(lt, lt->c);
	p->slot = lt->of < 0 ? io_slot(L, tensor) : -1;
	p->offset = 0;
	if (p->slot < 0) {
		p->slot = NVC_SLOT_POOL;
		p->offset = nvc_pool_alloc(L, p->size);
	}
}

/*
 * Place the output @tensor of a node before it is written: inside the
 * concatenation it feeds (ir.ts[].root, at its channel offset), else on
 * its own.
 */
static void place_tensor(struct nvc_lower *L, int tensor)
{
	struct nvc_lir_tensor *lt = &L->ir.ts[tensor];
	const struct nvc_graph *g = L->g;
	int root = lt->root, i, k, coff = 0;

	if (lt->place.slot >= 0)
		return;
	if (root < 0) {
		place_new(L, tensor);
		return;
	}
	if (L->ir.ts[root].place.slot < 0)
		place_new(L, root);
	for (i = 0; i < g->num_nodes; i++) {
		const struct nvc_node *n = &g->nodes[i];

		if (n->op != NVC_CONCAT || n->outputs[0] != root)
			continue;
		for (k = 0; k < n->num_inputs && n->inputs[k] != tensor; k++)
			coff += nvc_t(L, n->inputs[k])->c;
	}
	lt->place = L->ir.ts[root].place;
	lt->place.offset += (uint32_t)(coff / (int)lt->epa) * lt->place.surf;
	lt->place.size = lt->place.surf *
			 nvc_lir_surfaces(lt, nvc_t(L, tensor)->c);
}

/*
 * A Split's outputs: views of its input at their channel offsets where
 * those are on an atom (nvc_split_view), else bytes of their own where
 * something reads them.
 */
static void place_split(struct nvc_lower *L, const struct nvc_node *n)
{
	const struct nvc_lir_tensor *in = &L->ir.ts[nvc_resolve(L, n->inputs[0])];
	int k, coff = 0;

	for (k = 0; k < n->num_outputs; k++) {
		int out = n->outputs[k], c = nvc_t(L, out)->c;
		struct nvc_place *p = &L->ir.ts[out].place;

		if (nvc_split_view(L, out)) {
			*p = in->place;
			p->offset += (uint32_t)(coff / (int)in->epa) * p->surf;
			p->size = p->surf * nvc_lir_surfaces(in, c);
		} else if (nvc_split_copied(L, out)) {
			place_tensor(L, out);
		}
		coff += c;
	}
}

/*
 * Operation @op's outputs: in the concatenation they feed, views of a
 * Split's input, else bytes of their own; then its temporaries.
 */
static void place_op(struct nvc_lower *L, const struct nvc_lir_op *op)
{
	int k;

	if (op->kind == NVC_LIR_CONVERT)
		for (k = 0; k < op->num_outputs; k++)
			place_new(L, op->outputs[k]);
	else if (L->g->nodes[op->node].op == NVC_SPLIT)
		place_split(L, &L->g->nodes[op->node]);
	else
		place_tensor(L, op->outputs[0]);
	for (k = 0; k < op->num_temps; k++)
		place_new(L, op->temp + k);
}

int nvc_place(struct nvc_lower *L)
{
	int i, ret = 0;

	for (i = 0; i < L->g->num_inputs; i++)
		place_new(L, L->g->inputs[i]);
	for (i = 0; i < L->ir.num_ops && !ret; i++) {
		ret = nvc_release(L, L->ir.ops[i].node);
		if (!ret)
			place_op(L, &L->ir.ops[i]);
	}
	return ret;
}
