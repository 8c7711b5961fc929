// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Pad with the edge's values or their mirror (NVC_PAD): SDP copies out
 * of the input into the padded tensor, each reading only the input, so
 * none waits for another: the input whole into the interior, each padded
 * row the input row it repeats (as wide as the input), each padded
 * column the input column (as high as the input), each corner pixel the
 * input pixel. int8 copies keep the input's scale, exactly.
 */
#include "lower_internal.h"

/* The part @w x @h at (@x, @y) of tensor @tensor's cube. */
static struct dla_data_cube part(const struct nvc_lower *L, int tensor,
				 int x, int y, int w, int h)
{
	const struct nvc_lir_tensor *t = &L->ir.ts[nvc_read(L, tensor)];
	struct dla_data_cube c = nvc_cube(L, tensor);

	c.offset += (uint32_t)y * c.line_stride + (uint32_t)x * t->atom;
	c.width = (uint16_t)w;
	c.height = (uint16_t)h;
	c.size = (nvc_lir_surfaces(t, t->c) - 1) * c.surf_stride +
		 (uint32_t)(h - 1) * c.line_stride + (uint32_t)w * t->atom;
	return c;
}

/* The input's @w x @h at (@sx, @sy) into the output at (@dx, @dy). */
static int pad_copy(struct nvc_lower *L, const struct nvc_node *n, int sx,
		    int sy, int dx, int dy, int w, int h)
{
	int in = n->inputs[0], out = n->outputs[0], op;
	struct dla_data_cube src = part(L, in, sx, sy, w, h);
	struct dla_data_cube dst = part(L, out, dx, dy, w, h);

	op = nvc_sdp_copy_cube(L, n, in, &src, &dst, L->ir.ts[out].scale);
	if (op < 0)
		return op;
	nvc_written(L, out, op);
	return 0;
}

/*
 * The output's rows (@rows) or columns @o0 to @o1 - 1 outside the input,
 * @before of them before it: each the @span x 1 (1 x @span) line of the
 * input it repeats, at @at across.
 */
static int pad_lines(struct nvc_lower *L, const struct nvc_node *n,
		     bool rows, int o0, int o1, int at, int span)
{
	const struct nvc_pad_attr *p = &n->pad;
	const struct nvc_tensor *t = nvc_t(L, n->inputs[0]);
	int before = rows ? p->pad[0] : p->pad[1], size = rows ? t->h : t->w;
	int o, s, ret = 0;

	for (o = o0; o < o1 && !ret; o++) {
		s = nvc_pad_source(p->mode, o, before, size);
		ret = rows ? pad_copy(L, n, 0, s, at, o, span, 1) :
			     pad_copy(L, n, s, 0, o, at, 1, span);
	}
	return ret;
}

/* The corner pixels of output rows @r0 to @r1 - 1. */
static int pad_corners(struct nvc_lower *L, const struct nvc_node *n,
		       int r0, int r1)
{
	const struct nvc_pad_attr *p = &n->pad;
	const struct nvc_tensor *t = nvc_t(L, n->inputs[0]);
	int wo = t->w + p->pad[1] + p->pad[3], r, o, ret = 0;

	for (r = r0; r < r1 && !ret; r++)
		for (o = 0; o < wo && !ret; o++) {
			if (o == p->pad[1])
				o += t->w;	/* the row's part of the input */
			if (o < wo)
				ret = pad_copy(L, n,
					       nvc_pad_source(p->mode, o, p->pad[1],
							      t->w),
					       nvc_pad_source(p->mode, r, p->pad[0],
							      t->h),
					       o, r, 1, 1);
		}
	return ret;
}

int nvc_lower_pad(struct nvc_lower *L, int node)
{
	const struct nvc_node *n = &L->g->nodes[node];
	const struct nvc_pad_attr *p = &n->pad;
	const struct nvc_tensor *t = nvc_t(L, n->inputs[0]);
	int ho = t->h + p->pad[0] + p->pad[2];
	int wo = t->w + p->pad[1] + p->pad[3];
	int ret;

	ret = pad_copy(L, n, 0, 0, p->pad[1], p->pad[0], t->w, t->h);
	if (!ret)
		ret = pad_lines(L, n, true, 0, p->pad[0], p->pad[1], t->w);
	if (!ret)
		ret = pad_lines(L, n, true, p->pad[0] + t->h, ho, p->pad[1],
				t->w);
	if (!ret)
		ret = pad_lines(L, n, false, 0, p->pad[1], p->pad[0], t->h);
	if (!ret)
		ret = pad_lines(L, n, false, p->pad[1] + t->w, wo, p->pad[0],
				t->h);
	if (!ret)
		ret = pad_corners(L, n, 0, p->pad[0]);
	if (!ret)
		ret = pad_corners(L, n, p->pad[0] + t->h, ho);
	return ret;
}
