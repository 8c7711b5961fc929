// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Pad with the edge's values or their mirror (NVC_PAD): SDP copies out
 * of the input into the padded tensor, each reading only the input (none
 * reads what another wrote): the input whole into the interior, each padded
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

/* Copy @src, of @n's input, into @dst, of its output, at its scale. */
static int pad_cube(struct nvc_lower *L, const struct nvc_node *n,
		    const struct dla_data_cube *src,
		    const struct dla_data_cube *dst)
{
	int out = n->outputs[0], op;

	op = nvc_sdp_copy_cube(L, n, n->inputs[0], src, dst,
			       L->ir.ts[out].scale);
	if (op < 0)
		return op;
	nvc_written(L, out, op);
	return 0;
}

/*
 * The input's @w x @h at (@sx, @sy) into the output at (@dx, @dy). The
 * SDP reads and writes a 1x1 cube's atoms packed, a surface stride of
 * one atom (NVIDIA's C model asserts it): a pixel is copied an atom of
 * channels at a time.
 */
static int pad_copy(struct nvc_lower *L, const struct nvc_node *n, int sx,
		    int sy, int dx, int dy, int w, int h)
{
	const struct nvc_lir_tensor *t = &L->ir.ts[nvc_read(L, n->inputs[0])];
	struct dla_data_cube src = part(L, n->inputs[0], sx, sy, w, h);
	struct dla_data_cube dst = part(L, n->outputs[0], dx, dy, w, h);
	struct dla_data_cube s1 = src, d1 = dst;
	int c, ret = 0;

	if (w > 1 || h > 1)
		return pad_cube(L, n, &src, &dst);
	for (c = 0; c < t->c && !ret; c += (int)t->epa) {
		s1.offset = src.offset + c / t->epa * src.surf_stride;
		d1.offset = dst.offset + c / t->epa * dst.surf_stride;
		s1.channel = d1.channel = (uint16_t)(t->c - c < (int)t->epa ?
						     t->c - c : (int)t->epa);
		s1.surf_stride = s1.size = d1.surf_stride = d1.size = t->atom;
		ret = pad_cube(L, n, &s1, &d1);
	}
	return ret;
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
	int wo = t->w + p->pad[1] + p->pad[3], r, o, sx, sy, ret = 0;

	for (r = r0; r < r1 && !ret; r++) {
		sy = nvc_pad_source(p->mode, r, p->pad[0], t->h);
		for (o = 0; o < wo && !ret; o++) {
			if (o >= p->pad[1] && o < p->pad[1] + t->w)
				continue;	/* the input's row */
			sx = nvc_pad_source(p->mode, o, p->pad[1], t->w);
			ret = pad_copy(L, n, sx, sy, o, r, 1, 1);
		}
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
