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
struct chain {
	int h, w;		/* the plane after the pass */
	int ky, kx, py, px;	/* its window and padding */
	double div, plane;
	bool avg, last, to_out;		/* the pass writes the output */
};

static struct chain chain_start(const struct nvc_node *n,
				const struct nvc_tensor *ti)
{
	return (struct chain){ .h = ti->h, .w = ti->w, .div = 1,
		.plane = (double)ti->h * ti->w,
		.avg = n->pool.type == NVC_POOL_AVG };
}

/* The next pass of @c. */
static void chain_next(struct chain *c)
{
	c->ky = chain_axis(c->h, &c->py);
	c->kx = chain_axis(c->w, &c->px);
	c->div *= (double)c->ky * c->kx;
	c->h = (c->h + c->py) / c->ky;
	c->w = (c->w + c->px) / c->kx;
	c->last = c->h == 1 && c->w == 1;
	c->to_out = c->last && !(c->avg && c->div != c->plane);
}

static int pool_global_chain(struct nvc_lower *L, const struct nvc_lir_op *lop,
			     int in, int out)
{
	const struct nvc_node *n = &L->g->nodes[lop->node];
	const struct nvc_tensor *ti = nvc_t(L, in);
	struct chain c = chain_start(n, ti);
	struct dla_data_cube src = nvc_cube(L, in), dst;
	int prev = -1, op = -1, temp = lop->temp;

	while (!c.last) {
		chain_next(&c);
		dst = nvc_cube(L, c.to_out ? out : temp);
		op = nvc_op_new(L, DLA_OP_PDP);
		if (op < 0)
			return op;
		L->ops[op].op.pdp_op = (struct dla_pdp_op_desc){
			.split_num = 1,
			.pool_mode = c.avg ? PDP_POOL_AVG : PDP_POOL_MAX,
			.pool_width = (uint8_t)(c.kx - 1),
			.pool_height = (uint8_t)(c.ky - 1),
			.stride_x = (uint8_t)c.kx, .stride_y = (uint8_t)c.ky,
			.pad_right = (uint8_t)c.px, .pad_bottom = (uint8_t)c.py,
			.precision = L->prec };
		L->ops[op].surf.pdp_surface.src_data = src;
		L->ops[op].surf.pdp_surface.dst_data = dst;
		if (prev < 0)
			nvc_depend_tensor(L, in, op);
		else
			nvc_depend(L, prev, op);
		if (!c.to_out)
			nvc_written_place(L, &L->ir.ts[temp++].place, op);
		src = dst;
		prev = op;
	}
	if (!c.to_out) {
		op = nvc_sdp_scale(L, n, &src, L->ir.ts[in].scale, out,
				   c.div / c.plane);
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

/* A global pooling with a window larger than the PDP's: chained passes. */
static bool chained(const struct nvc_pool_attr *a,
		    const struct nvc_tensor *ti, const struct nvc_tensor *to)
{
	int kh = a->global ? ti->h : a->kh, kw = a->global ? ti->w : a->kw;

	return whole_plane(a, ti, to) &&
	       (kh > PDP_MAX_KERNEL || kw > PDP_MAX_KERNEL);
}

int nvc_pool_split(struct nvc_lower *L, struct nvc_lir_op *op)
{
	const struct nvc_node *n = &L->g->nodes[op->node];
	const struct nvc_tensor *ti = nvc_t(L, nvc_resolve(L, n->inputs[0]));
	struct chain c = chain_start(n, ti);
	int t = 0;

	if (!chained(&n->pool, ti, nvc_t(L, n->outputs[0])))
		return 0;
	while (!c.last && t >= 0) {
		chain_next(&c);
		if (!c.to_out)
			t = nvc_lir_temp_add(&L->ir, op, c.w, c.h, ti->c,
					     op->prec, L->t.atom);
	}
	return t < 0 ? t : 0;
}

int nvc_lower_pool(struct nvc_lower *L, const struct nvc_lir_op *op)
{
	const struct nvc_node *n = &L->g->nodes[op->node];
	const struct nvc_pool_attr *a = &n->pool;
	int in = nvc_resolve(L, n->inputs[0]), out = n->outputs[0], hw;
	const struct nvc_tensor *ti = nvc_t(L, in), *to = nvc_t(L, out);
	int kh = a->global ? ti->h : a->kh, kw = a->global ? ti->w : a->kw;
	int sy = a->global ? 1 : a->stride[0], sx = a->global ? 1 : a->stride[1];
	int pt = a->global ? 0 : a->pad[0], pl = a->global ? 0 : a->pad[1];
	int pb = (to->h - 1) * sy + kh - ti->h - pt;
	int pr = (to->w - 1) * sx + kw - ti->w - pl;
	struct dla_pdp_op_desc *p;

	if (chained(a, ti, to))
		return pool_global_chain(L, op, in, out);
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
	hw = nvc_op_new(L, DLA_OP_PDP);
	if (hw < 0)
		return hw;
	p = &L->ops[hw].op.pdp_op;
	*p = (struct dla_pdp_op_desc){
		.split_num = 1,
		.pool_mode = a->type == NVC_POOL_MAX ? PDP_POOL_MAX : PDP_POOL_AVG,
		.pool_width = (uint8_t)(kw - 1), .pool_height = (uint8_t)(kh - 1),
		.stride_x = (uint8_t)sx, .stride_y = (uint8_t)sy,
		.pad_left = (uint8_t)pl, .pad_right = (uint8_t)pr,
		.pad_top = (uint8_t)pt, .pad_bottom = (uint8_t)pb,
		.precision = L->prec,
	};
	L->ops[hw].surf.pdp_surface.src_data = nvc_cube(L, in);
	L->ops[hw].surf.pdp_surface.dst_data = nvc_cube(L, out);
	nvc_depend_tensor(L, in, hw);
	nvc_written(L, out, hw);
	return 0;
}
