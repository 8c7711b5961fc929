// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Conversions between precisions (mixed precision, lir_mixed.c), as SDP
 * passes reading memory, each from the precision it reads to the next
 * (the firmware derives the processing precision from the two; docs/
 * model.md, "SDP precision conversions"): the SDP converts int8 <->
 * int16 <-> fp16, never int8 <-> fp16.
 *   int8 q at scale s -> int16 q -> fp16 q (exact: |q| <= 128) -> fp16
 *   q * s: the output converter cannot multiply by a fraction, so the
 *   last pass does, in the Y stage by s as an fp32 register operand (one
 *   rounding, to fp16, of the exact value; an fp16 operand would add
 *   s's own rounding to every value).
 *   fp16 x -> int16 round(x / s) (Y multiplying by 1 / s, then the
 *   rounding to fp16 and to an integer of the fp16-to-int16 output)
 *   -> int8, saturated: q = x / s rounded. Scaling by 2^k / s and
 *   shifting k off in the second pass would gain nothing: the value is
 *   rounded to fp16's 11 bits before it is rounded to an integer.
 */
#include <errno.h>

#include "lower_internal.h"

/*
 * A pass of @op from its tensor @in into its tensor @out, the SDP in
 * @in's precision with every stage bypassed: the index, or -ENOMEM.
 */
static int cvt_pass(struct nvc_lower *L, int in, int out)
{
	const struct nvc_lir_tensor *ti = &L->ir.ts[in], *to = &L->ir.ts[out];
	int op = nvc_op_new(L, DLA_OP_SDP);
	struct dla_sdp_op_desc *p;

	if (op < 0)
		return op;
	p = &L->ops[op].op.sdp_op;
	p->src_precision = ti->prec;
	p->dst_precision = to->prec;
	p->lut_index = -1;
	p->batch_num = 1;
	p->out_cvt = (struct dla_cvt_param){ .scale = 1,
		.enable = ti->prec != DLA_PRECISION_FP16 };
	L->ops[op].surf.sdp_surface.src_data =
		nvc_cube_at(L, &ti->place, ti->w, ti->h, ti->c);
	L->ops[op].surf.sdp_surface.dst_data =
		nvc_cube_at(L, &to->place, to->w, to->h, to->c);
	nvc_depend_at(L, &ti->place, op);
	nvc_written(L, out, op);
	return op;
}

/* The fp16 pass @op multiplies by @v (Y, an fp32 register operand). */
static void cvt_mul(struct nvc_lower *L, int op, float v)
{
	L->ops[op].op.sdp_op.y_op = (struct dla_sdp_op){ .enable = 1,
		.type = SDP_TYPE_MUL, .mode = SDP_MODE_PER_LAYER,
		.precision = DLA_PRECISION_FP16,
		.mul_operand = nvc_f32_bits(v) };
}

int nvc_lower_convert(struct nvc_lower *L, const struct nvc_lir_op *op)
{
	int in = op->inputs[0], k, hw = -1;

	for (k = 0; k < op->num_outputs; k++) {
		hw = cvt_pass(L, k ? op->outputs[k - 1] : in, op->outputs[k]);
		if (hw < 0)
			return hw;
	}
	if (op->prec == DLA_PRECISION_FP16)
		cvt_mul(L, hw, L->ir.ts[in].scale);
	else	/* the first pass rounds to int16, the second saturates */
		cvt_mul(L, hw - 1, 1.0f / L->ir.ts[op->outputs[1]].scale);
	return 0;
}
