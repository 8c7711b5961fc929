// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Pooling on the PDP from memory: max, average (padding counted in the
 * divisor, as the PDP divides by the kernel's size), global average.
 * int8 values keep their scale through it.
 */
#include <errno.h>

#include "lower_internal.h"

#define PDP_MAX_KERNEL 8
#define PDP_MAX_STRIDE 16
#define PDP_MAX_PAD 7
enum { PDP_POOL_AVG, PDP_POOL_MAX };

int nvc_lower_pool(struct nvc_lower *L, int node)
{
	const struct nvc_node *n = &L->g->nodes[node];
	const struct nvc_pool_attr *a = &n->pool;
	int in = nvc_resolve(L, n->inputs[0]), out = n->outputs[0], op, ret;
	const struct nvc_tensor *ti = nvc_t(L, in), *to = nvc_t(L, out);
	int kh = a->global ? ti->h : a->kh, kw = a->global ? ti->w : a->kw;
	int sy = a->global ? 1 : a->stride[0], sx = a->global ? 1 : a->stride[1];
	int pt = a->global ? 0 : a->pad[0], pl = a->global ? 0 : a->pad[1];
	int pb = (to->h - 1) * sy + kh - ti->h - pt;
	int pr = (to->w - 1) * sx + kw - ti->w - pl;
	struct dla_pdp_op_desc *p;

	if (kh < 1 || kw < 1 || kh > PDP_MAX_KERNEL || kw > PDP_MAX_KERNEL)
		return nvc_fail(L, n, -EOPNOTSUPP,
				"kernel %dx%d: the PDP pools 1x1 to 8x8", kw, kh);
	if (sy < 1 || sx < 1 || sy > PDP_MAX_STRIDE || sx > PDP_MAX_STRIDE)
		return nvc_fail(L, n, -EOPNOTSUPP,
				"stride %dx%d: the PDP steps 1 to 16", sx, sy);
	pb = pb < 0 ? 0 : pb;
	pr = pr < 0 ? 0 : pr;
	if (pt > PDP_MAX_PAD || pl > PDP_MAX_PAD || pb > PDP_MAX_PAD ||
	    pr > PDP_MAX_PAD)
		return nvc_fail(L, n, -EOPNOTSUPP,
				"padding beyond the PDP's 7");
	if (a->type == NVC_POOL_AVG && !a->count_include_pad &&
	    (pt || pl || pb || pr))
		return nvc_fail(L, n, -EOPNOTSUPP,
				"average over padded windows without counting the padding: the PDP divides by the kernel size");
	ret = nvc_place_tensor(L, out);
	if (ret)
		return ret;
	op = nvc_op_new(L, DLA_OP_PDP);
	if (op < 0)
		return op;
	p = &L->ops[op].op.pdp_op;
	*p = (struct dla_pdp_op_desc){
		.split_num = 1,
		.pool_mode = a->type == NVC_POOL_MAX ? PDP_POOL_MAX : PDP_POOL_AVG,
		.pool_width = (uint8_t)(kw - 1), .pool_height = (uint8_t)(kh - 1),
		.stride_x = (uint8_t)sx, .stride_y = (uint8_t)sy,
		.pad_left = (uint8_t)pl, .pad_right = (uint8_t)pr,
		.pad_top = (uint8_t)pt, .pad_bottom = (uint8_t)pb,
		.precision = L->prec,
	};
	L->ops[op].surf.pdp_surface.src_data = nvc_cube(L, in);
	L->ops[op].surf.pdp_surface.dst_data = nvc_cube(L, out);
	nvc_depend_tensor(L, in, op);
	L->ts[out].writer = op;
	return 0;
}
