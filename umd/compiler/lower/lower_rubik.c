// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The RUBIK's contraction (NVC_LIR_RUBIK): a transposed convolution whose
 * kernel is its stride wrote each output phase's channels in turn over
 * the input's pixels (lower_deconv.c); the RUBIK moves each phase's
 * pixels to their places in the output. It moves bytes: its input is at
 * its output's scale (lower_quant.c).
 */
#include "lower_internal.h"

int nvc_lower_rubik(struct nvc_lower *L, const struct nvc_lir_op *op)
{
	const struct nvc_node *n = &L->g->nodes[op->node];
	int in = op->inputs[0], out = op->outputs[0];
	int hw = nvc_op_new(L, DLA_OP_RUBIK);

	if (hw < 0)
		return hw;
	L->ops[hw].op.rubik_op = (struct dla_rubik_op_desc){
		.mode = 0, .precision = L->prec,
		.stride_x = (uint8_t)n->conv.stride[1],
		.stride_y = (uint8_t)n->conv.stride[0] };
	L->ops[hw].surf.rubik_surface.src_data = nvc_cube(L, in);
	L->ops[hw].surf.rubik_surface.dst_data = nvc_cube(L, out);
	nvc_depend_tensor(L, in, hw);
	nvc_written(L, out, hw);
	return 0;
}
