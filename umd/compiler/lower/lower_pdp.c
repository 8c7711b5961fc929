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
 * The window of one axis of size @n in a pass of a global pooling: the
 * whole axis up to 8, else the largest divisor up to 8, else the window
 * up to 8 that needs the fewest *@pad zeros after (a maximum ignores
 * them; an average counts them, corrected at the end by a factor that
 * amplifies the passes' rounding: the smaller the better).
 */
static int chain_axis(int n, int *pad)
{
	int k = n <= PDP_MAX_KERNEL ? n : stage_kernel(n), best = 0, j;

	*pad = 0;
	if (k > 1 || n == 1)
		return k;
	for (j = PDP_MAX_KERNEL; j > 1; j--) {
		int p = (j - n % j) % j;

		if (!best || p < *pad) {
			best = j;
			*pad = p;
		}
	}
	return best;
}

/*
 * Global pooling over more than 8x8: PDP passes of windows of at most
 * 8x8 tiling the plane (padded at the end where no divisor does), each
 * into a temporary cube, until one value a channel is left. An average
 * over padding divided by the windows' sizes is then brought to the
 * plane's by an SDP scale (the padding counts zeros).
 */
static int pool_global_chain(struct nvc_lower *L, const struct nvc_node *n,
			     int in, int out)
{
	const struct nvc_tensor *ti = nvc_t(L, in);
	int h = ti->h, w = ti->w, prev = -1, op = -1, ky, kx, py, px;
	double div = 1, plane = (double)ti->h * ti->w;
	bool avg = n->pool.type == NVC_POOL_AVG, last = false, to_out = false;
	struct dla_data_cube src = nvc_cube(L, in), dst;
	struct nvc_place tmp;

	while (!last) {
		ky = chain_axis(h, &py);
		kx = chain_axis(w, &px);
		div *= (double)ky * kx;
		h = (h + py) / ky;
		w = (w + px) / kx;
		last = h == 1 && w == 1;
		to_out = last && !(avg && div != plane);
		dst = to_out ? nvc_cube(L, out) :
			       nvc_scratch(L, w, h, ti->c, &tmp);
		op = nvc_op_new(L, DLA_OP_PDP);
		if (op < 0)
			return op;
		L->ops[op].op.pdp_op = (struct dla_pdp_op_desc){
			.split_num = 1,
			.pool_mode = avg ? PDP_POOL_AVG : PDP_POOL_MAX,
			.pool_width = (uint8_t)(kx - 1),
			.pool_height = (uint8_t)(ky - 1),
			.stride_x = (uint8_t)kx, .stride_y = (uint8_t)ky,
			.pad_right = (uint8_t)px, .pad_bottom = (uint8_t)py,
			.precision = L->prec };
		L->ops[op].surf.pdp_surface.src_data = src;
		L->ops[op].surf.pdp_surface.dst_data = dst;
		if (prev < 0)
			nvc_depend_tensor(L, in, op);
		else
			nvc_depend(L, prev, op);
		if (!to_out)
			nvc_written_place(L, &tmp, op);
		src = dst;
		prev = op;
	}
	if (!to_out) {
		op = nvc_sdp_scale(L, n, &src, L->ir.ts[in].scale, out,
				   div / plane);
		if (op < 0)
			return op;
		nvc_depend(L, prev, op);
	}
	nvc_written(L, out, op);
	return 0;
}

/* A window over the whole plane of @ti and nothing else: a global pooling. */
static bool whole_plane(const struct nvc_pool_attr *a,
			const struct nvc_tensor *ti, const struct nvc_tensor *to)
{
	if (a->global)
		return true;
	return a->kh == ti->h && a->kw == ti->w && to->h == 1 && to->w == 1 &&
	       !a->pad[0] && !a->pad[1] && !a->pad[2] && !a->pad[3];
}

int nvc_lower_pool(struct nvc_lower *L, int node)
{
	const struct nvc_node *n = &L->g->nodes[node];
	const struct nvc_pool_attr *a = &n->pool;
	int in = nvc_resolve(L, n->inputs[0]), out = n->outputs[0], op;
	const struct nvc_tensor *ti = nvc_t(L, in), *to = nvc_t(L, out);
	int kh = a->global ? ti->h : a->kh, kw = a->global ? ti->w : a->kw;
	int sy = a->global ? 1 : a->stride[0], sx = a->global ? 1 : a->stride[1];
	int pt = a->global ? 0 : a->pad[0], pl = a->global ? 0 : a->pad[1];
	int pb = (to->h - 1) * sy + kh - ti->h - pt;
	int pr = (to->w - 1) * sx + kw - ti->w - pl;
	struct dla_pdp_op_desc *p;

	if (whole_plane(a, ti, to) &&
	    (kh > PDP_MAX_KERNEL || kw > PDP_MAX_KERNEL)) {
		return pool_global_chain(L, n, in, out);
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
