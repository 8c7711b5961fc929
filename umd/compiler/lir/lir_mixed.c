// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Mixed precision over the lowered IR of an int8 network: the chosen
 * convolutions in fp16, the precision of every other operation and
 * tensor following from them, and a conversion operation wherever a
 * tensor is read in another precision than it was written in. The
 * hardware converts only on the SDP and never int8 <-> fp16 directly,
 * so a conversion writes int16 first (lower_cvt.c): int8 -> int16 ->
 * fp16 codes -> fp16 values, and fp16 -> int16 -> int8.
 */
#include <errno.h>
#include <stdlib.h>

#include <nvdla/dla_interface.h>

#include "lir.h"

/* The precision operation @op computes in, its inputs' set before. */
static uint8_t op_precision(const struct nvc_lir *ir, const struct nvc_graph *g,
			    const struct nvc_lir_op *op, const bool *fp16)
{
	enum nvc_op gop = g->nodes[op->node].op;

	if (gop == NVC_CONV || gop == NVC_CONV_TRANSPOSE)
		return fp16[op->node] ? DLA_PRECISION_FP16 : DLA_PRECISION_INT8;
	return ir->ts[nvc_lir_resolve(g, op->inputs[0])].prec;
}

/* Whether operation @op reads tensor @t (resolved), as its input *@k. */
static bool reads(const struct nvc_graph *g, const struct nvc_lir_op *op,
		  int t, int *k)
{
	for (*k = 0; *k < op->num_inputs; (*k)++)
		if (nvc_lir_resolve(g, op->inputs[*k]) == t)
			return true;
	return false;
}

/*
 * Graph input @t in the precision of its first reader; an image input
 * read in two is refused (pixels are converted by the convolution that
 * reads them, not by the SDP).
 */
static int input_precision(struct nvc_lir *ir, const struct nvc_graph *g,
			   const bool *fp16, uint32_t atom, bool image, int t,
			   struct nvc_lir_refusal *why)
{
	bool first = true;
	uint8_t prec;
	int j, k;

	for (j = 0; j < ir->num_ops; j++) {
		if (!reads(g, &ir->ops[j], t, &k))
			continue;
		prec = op_precision(ir, g, &ir->ops[j], fp16);
		if (first) {
			nvc_lir_precision(&ir->ts[t], prec, atom);
		} else if (image && prec != ir->ts[t].prec) {
			why->node = ir->ops[j].node;
			why->input = k;
			return -EINVAL;
		}
		first = false;
	}
	return 0;
}

/* The other of int8 and fp16. */
static uint8_t other(uint8_t prec)
{
	return prec == DLA_PRECISION_INT8 ? DLA_PRECISION_FP16 :
	       DLA_PRECISION_INT8;
}

/* Every operation's precision, and its outputs' (a Reshape's: its input's). */
static void op_precisions(struct nvc_lir *ir, const struct nvc_graph *g,
			  const bool *fp16, uint32_t atom)
{
	int i, k;

	for (i = 0; i < ir->num_ops; i++) {
		struct nvc_lir_op *op = &ir->ops[i];
		const struct nvc_node *n = &g->nodes[op->node];

		op->prec = op_precision(ir, g, op, fp16);
		for (k = 0; k < op->num_outputs; k++)
			nvc_lir_precision(&ir->ts[op->outputs[k]], op->prec,
					  atom);
		if (n->op == NVC_CONCAT)
			op->kind = nvc_lir_concat_aligned(g, n,
					ir->ts[op->outputs[0]].epa) ?
				   NVC_LIR_SDP : NVC_LIR_CONV;
		/* a fused node's input, no tensor of the hardware's */
		if (op->fused >= 0)
			nvc_lir_precision(&ir->ts[n->outputs[0]], op->prec,
					  atom);
	}
	for (i = 0; i < g->num_tensors; i++)
		if (g->tensors[i].alias_of >= 0)
			nvc_lir_precision(&ir->ts[i],
					  ir->ts[nvc_lir_resolve(g, i)].prec,
					  atom);
}

/* New tensor @n of @ir: a conversion's output of @of in @prec. */
static void new_tensor(struct nvc_lir *ir, int n, int of, uint8_t prec,
		       uint32_t atom)
{
	struct nvc_lir_tensor *t = &ir->ts[n];

	*t = ir->ts[of];
	nvc_lir_precision(t, prec, atom);
	t->scale = 1.0f;
	t->root = -1;
	t->place.slot = -1;
	t->twin = -1;
	t->of = of;
}

/*
 * The conversion of tensor @of into the other precision, in operation
 * @node's place in the order: int16, then fp16 codes and values, or int8.
 */
static void conversion(struct nvc_lir *ir, struct nvc_lir_op *op, int of,
		       int node, uint32_t atom)
{
	uint8_t prec = other(ir->ts[of].prec);
	static const uint8_t to_fp16[] = { DLA_PRECISION_INT16,
		DLA_PRECISION_FP16, DLA_PRECISION_FP16 };
	static const uint8_t to_int8[] = { DLA_PRECISION_INT16,
		DLA_PRECISION_INT8 };
	const uint8_t *steps = prec == DLA_PRECISION_FP16 ? to_fp16 : to_int8;
	int k, n = prec == DLA_PRECISION_FP16 ? 3 : 2;

	*op = (struct nvc_lir_op){ .kind = NVC_LIR_CONVERT, .prec = prec,
				   .node = node, .fused = -1, .num_inputs = 1,
				   .inputs = { of }, .num_outputs = n };
	for (k = 0; k < n; k++) {
		op->outputs[k] = ir->num_tensors++;
		new_tensor(ir, op->outputs[k], of, steps[k], atom);
	}
	ir->ts[of].twin = op->outputs[n - 1];
}

/* Which tensors operations read in another precision: @want[t]. */
static int mark_twins(const struct nvc_lir *ir, const struct nvc_graph *g,
		      bool *want)
{
	int i, k, n = 0;

	for (i = 0; i < ir->num_ops; i++) {
		const struct nvc_lir_op *op = &ir->ops[i];

		for (k = 0; k < op->num_inputs; k++) {
			int t = nvc_lir_resolve(g, op->inputs[k]);

			if (ir->ts[t].prec != op->prec && !want[t]) {
				want[t] = true;
				n++;
			}
		}
	}
	return n;
}

/*
 * The operations with a conversion after the producer of each tensor
 * @want names (graph inputs: before the first).
 */
static int insert_conversions(struct nvc_lir *ir, const struct nvc_graph *g,
			      const bool *want, int n, uint32_t atom)
{
	struct nvc_lir_op *ops = calloc(ir->num_ops + n, sizeof(*ops));
	struct nvc_lir_tensor *ts = realloc(ir->ts, (ir->num_tensors + 3 * n) *
					    sizeof(*ts));
	int i, k, m = 0;

	if (ts)
		ir->ts = ts;
	if (!ops || !ts) {
		free(ops);
		return -ENOMEM;
	}
	for (i = 0; i < g->num_inputs; i++)
		if (want[g->inputs[i]])
			conversion(ir, &ops[m++], g->inputs[i], ir->ops[0].node,
				   atom);
	for (i = 0; i < ir->num_ops; i++) {
		const struct nvc_lir_op *op = &ir->ops[i];

		ops[m++] = *op;
		for (k = 0; k < op->num_outputs; k++) {
			int t = op->outputs[k];

			if (want[t])
				conversion(ir, &ops[m++], t, op->node, atom);
		}
	}
	free(ir->ops);
	ir->ops = ops;
	ir->num_ops = m;
	return 0;
}

int nvc_lir_mixed(struct nvc_lir *ir, const struct nvc_graph *g,
		  const bool *fp16, uint32_t atom, bool image,
		  struct nvc_lir_refusal *why)
{
	bool *want;
	int i, n, ret;

	if (!ir->num_ops)
		return 0;
	for (i = 0; i < g->num_inputs; i++) {
		ret = input_precision(ir, g, fp16, atom, image, g->inputs[i],
				      why);
		if (ret)
			return ret;
	}
	op_precisions(ir, g, fp16, atom);
	want = calloc(g->num_tensors ? g->num_tensors : 1, sizeof(*want));
	if (!want)
		return -ENOMEM;
	n = mark_twins(ir, g, want);
	ret = n ? insert_conversions(ir, g, want, n, atom) : 0;
	free(want);
	return ret;
}
