// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The split, a pass over the lowered IR before placement: each operation
 * that one descriptor of its engine cannot compute cut into what the
 * hardware runs (ops[].convs), with the temporary tensors that carry
 * values between the pieces (ops[].temp). A convolution into hardware
 * convolutions that fit the convolution buffer (lower_conv_split.c); the
 * copies of concatenations and Splits off the atoms into 1x1
 * convolutions; a global pooling over more than 8x8 into PDP passes
 * (lower_pdp.c). In the order the operations run: a convolution's banks
 * depend on the weight banks of the one before.
 */
#include "lower_internal.h"

/*
 * A concatenation off the atoms: each input embedded into a cube of all
 * the channels, adding the ones before; every cube but the last (the
 * output) a temporary.
 */
static int split_concat(struct nvc_lower *L, struct nvc_lir_op *op)
{
	const struct nvc_node *n = &L->g->nodes[op->node];
	const struct nvc_tensor *to = nvc_t(L, n->outputs[0]);
	int k, ret = 0;

	for (k = 0; k < n->num_inputs && !ret; k++)
		ret = nvc_copy_split(L, n, n->inputs[k], to->c, k);
	for (k = 0; k + 1 < n->num_inputs && ret >= 0; k++)
		ret = nvc_lir_temp_add(&L->ir, op, to->w, to->h, to->c,
				       op->prec, L->t.atom);
	return ret < 0 ? ret : 0;
}

/* A Split's outputs that are copies (nvc_split_copied), one a copy. */
static int split_split(struct nvc_lower *L, const struct nvc_lir_op *op)
{
	const struct nvc_node *n = &L->g->nodes[op->node];
	int in = nvc_resolve(L, n->inputs[0]), k, ret = 0;

	for (k = 0; k < n->num_outputs && !ret; k++)
		if (nvc_split_copied(L, n->outputs[k]))
			ret = nvc_copy_split(L, n, in,
					     nvc_t(L, n->outputs[k])->c, k);
	return ret;
}

static int split_op(struct nvc_lower *L, struct nvc_lir_op *op)
{
	if (op->kind == NVC_LIR_CONVERT || op->kind == NVC_LIR_RUBIK)
		return 0;
	switch (L->g->nodes[op->node].op) {
	case NVC_CONV:
	case NVC_CONV_TRANSPOSE:
		return nvc_conv_split(L, op);
	case NVC_CONCAT:
		return op->kind == NVC_LIR_CONV ? split_concat(L, op) : 0;
	case NVC_SPLIT:
		return split_split(L, op);
	case NVC_POOL:
		return nvc_pool_split(L, op);
	default:
		return 0;
	}
}

uint32_t nvc_wbank_floor(const struct nvc_lower *L)
{
	int i;

	for (i = (int)(L->op - L->ir.ops); i >= 0; i--)
		if (L->ir.ops[i].num_convs)
			return L->ir.ops[i].convs[L->ir.ops[i].num_convs - 1].wbank;
	return 0;
}

int nvc_split(struct nvc_lower *L)
{
	int i, ret = 0;

	for (i = 0; i < L->ir.num_ops && !ret; i++) {
		nvc_op_begin(L, &L->ir.ops[i]);
		ret = split_op(L, &L->ir.ops[i]);
	}
	return ret;
}
