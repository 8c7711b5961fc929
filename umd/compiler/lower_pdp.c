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

/* Largest divisor of @n that the PDP takes as a kernel. */
static int stage_kernel(int n)
{
	int k;

	for (k = PDP_MAX_KERNEL; k > 1; k--)
		if (n % k == 0)
			return k;
	return 1;
}

/*
 * Global pooling over more than 8x8: a first pass with a kernel (and
 * stride) dividing the cube into a temporary cube of at most 8x8, then
 * the global pass over that; averages of equal windows average exactly.
 */
static int pool_global_staged(struct nvc_lower *L, const struct nvc_node *n,
			      int in, int out)
{
	const struct nvc_tensor *ti = nvc_t(L, in);
	int ky = stage_kernel(ti->h), kx = stage_kernel(ti->w), op1, op2;
	int ho = ti->h / ky, wo = ti->w / kx;
	struct nvc_place tmp = { .slot = NVC_SLOT_POOL };
	struct dla_data_cube mid;

	if (ho > PDP_MAX_KERNEL || wo > PDP_MAX_KERNEL)
		return nvc_fail(L, n, -EOPNOTSUPP,
				"global pooling over %dx%d: no two PDP passes of at most 8x8 cover it",
				ti->w, ti->h);
	tmp.line = (uint32_t)wo * L->t.atom;
	tmp.surf = tmp.line * (uint32_t)ho;
	tmp.size = tmp.surf * nvc_surfaces(L, ti->c);
	tmp.offset = nvc_pool_alloc(L, tmp.size);
	mid = nvc_cube_at(L, &tmp, wo, ho, ti->c);
	op1 = nvc_op_new(L, DLA_OP_PDP);
	op2 = op1 < 0 ? op1 : nvc_op_new(L, DLA_OP_PDP);
	if (op2 < 0)
		return op2;
	L->ops[op1].op.pdp_op = (struct dla_pdp_op_desc){
		.split_num = 1, .pool_mode = n->pool.type == NVC_POOL_MAX ? PDP_POOL_MAX :
			     PDP_POOL_AVG,
		.pool_width = (uint8_t)(kx - 1), .pool_height = (uint8_t)(ky - 1),
		.stride_x = (uint8_t)kx, .stride_y = (uint8_t)ky,
		.precision = L->prec };
	L->ops[op1].surf.pdp_surface.src_data = nvc_cube(L, in);
	L->ops[op1].surf.pdp_surface.dst_data = mid;
	nvc_depend_tensor(L, in, op1);
	nvc_written_place(L, &tmp, op1);
	L->ops[op2].op.pdp_op = L->ops[op1].op.pdp_op;
	L->ops[op2].op.pdp_op.pool_width = (uint8_t)(wo - 1);
	L->ops[op2].op.pdp_op.pool_height = (uint8_t)(ho - 1);
	L->ops[op2].op.pdp_op.stride_x = 1;
	L->ops[op2].op.pdp_op.stride_y = 1;
	L->ops[op2].surf.pdp_surface.src_data = mid;
	L->ops[op2].surf.pdp_surface.dst_data = nvc_cube(L, out);
	nvc_depend(L, op1, op2);
	nvc_written(L, out, op2);
	return 0;
}

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

	if (a->global && (kh > PDP_MAX_KERNEL || kw > PDP_MAX_KERNEL)) {
		ret = nvc_place_tensor(L, out);
		return ret ? ret : pool_global_staged(L, n, in, out);
	}
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
	nvc_written(L, out, op);
	return 0;
}
