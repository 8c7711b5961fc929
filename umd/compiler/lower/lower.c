// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The back end's entry point, its phases in order: the target and
 * precision checked (setup), the lowering step (lir/lir.c: the graph's
 * hardware operations and their tensors, lir_mixed.c: mixed precision,
 * then the RUBIK's contractions), then the passes over the
 * whole lowered IR: the views decided (lower_views.c), the split for the
 * convolution buffer and the operations' temporaries (lower_split.c),
 * quantisation (lower_quant.c: tensors' and weights' scales), liveness
 * (lower_mem.c) and memory placement (lower_place.c); then the walk over
 * the operations, each into descriptors from what the passes decided,
 * the work cut into DLA tasks around CPU tasks, each task's operations
 * ordered when it closes (lower_deps.c); then emission (emit/emit.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower_internal.h"

int nvc_fail(struct nvc_lower *L, const struct nvc_node *n, int err,
	     const char *fmt, ...)
{
	char why[NVC_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (n)
		snprintf(L->err, L->errlen, "node '%s' (%s): %s", n->name,
			 n->onnx_op ? n->onnx_op : "?", why);
	else
		snprintf(L->err, L->errlen, "%s", why);
	return err;
}

/*
 * Inputs at channel offsets off the atoms: each embedded by a 1x1
 * identity convolution into a cube of all channels, adding the ones
 * before (the operation's temporaries, at the output's scale).
 */
static int concat_embedded(struct nvc_lower *L, const struct nvc_lir_op *lop)
{
	const struct nvc_node *n = &L->g->nodes[lop->node];
	int out = n->outputs[0], k, j, coff = 0, op = -1;
	const struct nvc_tensor *to = nvc_t(L, out);
	struct nvc_operand prev;
	int *map = malloc(to->c * sizeof(*map));

	if (!map)
		return -ENOMEM;
	for (k = 0; k < n->num_inputs; k++) {
		struct dla_data_cube dst = nvc_cube(L, out);
		int c = nvc_t(L, n->inputs[k])->c;

		if (k + 1 < n->num_inputs)
			dst = nvc_cube(L, lop->temp + k);
		for (j = 0; j < to->c; j++)
			map[j] = j >= coff && j < coff + c ? j - coff : -1;
		op = nvc_conv_select(L, n, n->inputs[k], map, to->c, k,
				     lop->wscale + k * to->c,
				     k ? &prev : NULL, op, &dst,
				     L->ir.ts[out].scale);
		if (op < 0)
			break;
		prev = (struct nvc_operand){ .cube = dst,
					     .scale = L->ir.ts[out].scale };
		coff += c;
	}
	free(map);
	if (op < 0)
		return op;
	nvc_written(L, out, op);
	return 0;
}

/*
 * Inputs not written in place are copied into the concatenation by the
 * SDP; off the atoms (a convolution's operation), embedded.
 */
static int lower_concat(struct nvc_lower *L, const struct nvc_lir_op *op)
{
	const struct nvc_node *n = &L->g->nodes[op->node];
	int out = n->outputs[0], k, ret = 0, coff = 0;

	if (op->kind == NVC_LIR_CONV)
		return concat_embedded(L, op);
	for (k = 0; k < n->num_inputs && !ret; k++) {
		int in = n->inputs[k];
		struct nvc_place dst = L->ir.ts[out].place;

		dst.offset += (uint32_t)(coff / (int)L->ir.ts[out].epa) *
			      dst.surf;
		dst.size = dst.surf * nvc_surfaces(L, nvc_t(L, in)->c);
		coff += nvc_t(L, in)->c;
		if (L->ir.ts[in].root == out)
			continue;
		ret = nvc_sdp_copy(L, n, in, &dst, L->ir.ts[out].scale);
		if (ret >= 0) {
			nvc_written_place(L, &dst, ret);
			nvc_writer(L, out, ret);
			ret = 0;
		}
	}
	return ret;
}

/*
 * Outputs are views of the input (lower_place.c), or copies by a 1x1
 * convolution that picks their channels (nvc_split_copied).
 */
static int lower_split(struct nvc_lower *L, int node)
{
	const struct nvc_node *n = &L->g->nodes[node];
	int in = nvc_resolve(L, n->inputs[0]), k, j, coff = 0, op = 0;
	int *map = malloc(nvc_t(L, in)->c * sizeof(*map));

	if (!map)
		return -ENOMEM;
	for (k = 0; k < n->num_outputs && op >= 0; k++) {
		int out = n->outputs[k], c = nvc_t(L, out)->c;
		struct dla_data_cube dst;

		if (nvc_split_copied(L, out)) {
			for (j = 0; j < c; j++)
				map[j] = coff + j;
			dst = nvc_cube(L, out);
			op = nvc_conv_select(L, n, in, map, c, k,
					     L->op->wscale + coff, NULL, -1,
					     &dst, L->ir.ts[out].scale);
			if (op >= 0)
				nvc_written(L, out, op);
		}
		coff += c;
	}
	free(map);
	return op < 0 ? op : 0;
}

void nvc_op_begin(struct nvc_lower *L, struct nvc_lir_op *op)
{
	L->op = op;
	L->node = op->node;
	L->prec = op->prec;
	L->bpe = op->prec == DLA_PRECISION_FP16 ? 2 : 1;
	L->epa = L->t.atom / L->bpe;
}

/* Operation @op in descriptors, at its precision. */
static int lower_op(struct nvc_lower *L, struct nvc_lir_op *op)
{
	const struct nvc_node *n = &L->g->nodes[op->node];

	nvc_op_begin(L, op);
	if (op->kind == NVC_LIR_CONVERT)
		return nvc_lower_convert(L, op);
	if (op->kind == NVC_LIR_RUBIK)
		return nvc_lower_rubik(L, op);
	switch (n->op) {
	case NVC_CONV:
	case NVC_CONV_TRANSPOSE:
		return nvc_lower_conv(L, op);
	case NVC_AFFINE:
	case NVC_ACT:
	case NVC_ELTWISE:
		return nvc_lower_sdp_node(L, op->node);
	case NVC_POOL:
		return nvc_lower_pool(L, op);
	case NVC_LRN:
		return nvc_lower_lrn(L, op->node);
	case NVC_CONCAT:
		return lower_concat(L, op);
	case NVC_PAD:
		return nvc_lower_pad(L, op->node);
	case NVC_SPLIT:
		return lower_split(L, op->node);
	default:	/* NVC_SOFTMAX, NVC_CPU */
		return nvc_lower_cpu(L, op->node);
	}
}

/* Whether the options keep any layer in fp16 (--mixed-precision). */
static bool mixed(const struct nvc_lower *L)
{
	int i;

	for (i = 0; L->o->fp16_nodes && i < L->g->num_nodes; i++)
		if (L->o->fp16_nodes[i])
			return true;
	return false;
}

/*
 * The lowering step (and mixed precision, then the RUBIK's operations),
 * its refusals named.
 */
static int lir_build(struct nvc_lower *L, uint8_t prec)
{
	struct nvc_lir_refusal why;
	const struct nvc_node *n;
	int ret = nvc_lir_build(&L->ir, L->g, prec, L->t.atom, &why);

	n = &L->g->nodes[why.node];
	if (ret == -EOPNOTSUPP)
		return nvc_fail(L, n, ret,
				"input %d is a constant or no tensor: only activations flow between layers",
				why.input);
	if (ret == -EINVAL)
		return nvc_fail(L, n, ret, "unknown operation %d", n->op);
	if (!ret && mixed(L))
		ret = nvc_lir_mixed(&L->ir, L->g, L->o->fp16_nodes, L->t.atom,
				    L->image, &why);
	if (ret == -EINVAL)
		return nvc_fail(L, &L->g->nodes[why.node], ret,
				"reads the image input in another precision than its first reader: the convolution reading pixels converts them, into one precision (mixed precision)");
	if (!ret && L->t.hw->rubik)
		ret = nvc_lir_contract(&L->ir, L->g, L->t.atom);
	return ret;
}

/* Image input feeds convolutions only, at most 4 channels of it. */
static int check_image_input(struct nvc_lower *L, int tensor)
{
	const struct nvc_graph *g = L->g;
	int i, k;

	if (g->tensors[tensor].c > NVC_IMAGE_COMPS)
		return nvc_fail(L, NULL, -EOPNOTSUPP,
				"image input '%s' has %d channels: pixels have at most %d",
				g->tensors[tensor].name, g->tensors[tensor].c,
				NVC_IMAGE_COMPS);
	for (i = 0; i < g->num_nodes; i++)
		for (k = 0; k < g->nodes[i].num_inputs; k++)
			if (g->nodes[i].inputs[k] == tensor &&
			    g->nodes[i].op != NVC_CONV)
				return nvc_fail(L, &g->nodes[i], -EOPNOTSUPP,
						"reads the image input: only convolutions read pixels (use the feature input format)");
	return 0;
}

static int setup(struct nvc_lower *L)
{
	const struct nvc_graph *g = L->g;
	uint8_t prec;
	int i;

	if (nvc_target_get(L->o->config, &L->t))
		return nvc_fail(L, NULL, -EINVAL,
				"unknown configuration '%s' (nv_full, nv_large or nv_small)",
				L->o->config ? L->o->config : "");
	if (L->o->precision == NVC_FP16 && !nvc_target_fp16(&L->t))
		return nvc_fail(L, NULL, -EOPNOTSUPP,
				"fp16: %s computes in int8 only", L->o->config);
	if (mixed(L) && L->o->precision != NVC_INT8)
		return nvc_fail(L, NULL, -EINVAL,
				"mixed precision keeps layers of an int8 network in fp16: this one is fp16 already");
	if (mixed(L) && !nvc_target_fp16(&L->t))
		return nvc_fail(L, NULL, -EOPNOTSUPP,
				"mixed precision keeps layers in fp16: %s computes in int8 only (nv_full has fp16)",
				L->o->config);
	L->image = L->o->input_format == NVC_INPUT_IMAGE;
	if (g->num_inputs < 1 || g->num_outputs < 1 ||
	    g->num_inputs > NVC_MAX_INPUTS || g->num_outputs > NVC_MAX_OUTPUTS)
		return nvc_fail(L, NULL, -EINVAL, "%d inputs and %d outputs",
				g->num_inputs, g->num_outputs);
	prec = L->o->precision == NVC_FP16 ? DLA_PRECISION_FP16 :
	       DLA_PRECISION_INT8;
	for (i = 0; L->image && i < g->num_inputs; i++)
		if (check_image_input(L, g->inputs[i]))
			return -EOPNOTSUPP;
	for (i = 0; i < g->num_tensors; i++) {
		const struct nvc_tensor *t = &g->tensors[i];

		if (!t->data && (t->n != 1 || t->c < 1 || t->h < 1 ||
				 t->w < 1 || t->c > 8192 || t->h > 8192 ||
				 t->w > 8192))
			return nvc_fail(L, NULL, -EOPNOTSUPP,
					"tensor '%s' is %dx%dx%dx%d: one batch of at most 8192 in each dimension",
					t->name, t->n, t->c, t->h, t->w);
	}
	return lir_build(L, prec);
}

static void cleanup(struct nvc_lower *L)
{
	int i;

	for (i = 0; i < L->num_tasks; i++)
		free(L->tasks[i].ops);
	free(L->tasks);
	free(L->ops);
	nvc_lir_free(&L->ir);
	free(L->consts.data);
	free(L->consts.chunks.start);
	free(L->pool.chunks.start);
	free(L->pool.last_use);
	free(L->pool.freed);
	free(L->pool.free);
	free(L->deps.acc);
	nvdla_builder_fini(&L->b);
}

int nvc_lower(const struct nvc_graph *g, const struct nvc_options *o,
	      void **buf, size_t *len, char *err, size_t errlen)
{
	struct nvc_lower L = { .g = g, .o = o, .err = err, .errlen = errlen };
	int i, ret;

	*buf = NULL;
	*len = 0;
	if (o->origins) {
		nvc_origins_free(o->origins);
		o->origins->winograd = calloc(g->num_nodes ? g->num_nodes : 1,
					      sizeof(bool));
		o->origins->split = calloc(g->num_nodes ? g->num_nodes : 1,
					   sizeof(bool));
		if (!o->origins->winograd || !o->origins->split)
			o->origins->oom = true;
	}
	if (errlen)
		err[0] = 0;
	nvdla_builder_init(&L.b);
	ret = setup(&L);
	if (!ret)
		nvc_views(&L);
	if (!ret)
		ret = nvc_split(&L);
	if (!ret)
		ret = nvc_scales(&L);
	if (!ret)
		ret = nvc_liveness(&L);
	if (!ret)
		ret = nvc_place(&L);
	for (i = 0; !ret && i < L.ir.num_ops; i++)
		ret = lower_op(&L, &L.ir.ops[i]);
	if (!ret && (L.oom || (o->origins && o->origins->oom)))
		ret = -ENOMEM;
	if (!ret)
		ret = nvc_task_close(&L);
	if (!ret)
		ret = nvc_emit(&L, buf, len);
	if (ret && errlen && !err[0])
		snprintf(err, errlen, "%s", ret == -ENOMEM ? "out of memory" :
			 "cannot write the loadable");
	cleanup(&L);
	return ret;
}
