// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Convolutions (and fully connected layers, 1x1 or over a whole flattened
 * cube) in direct mode, each streaming into an SDP that adds the bias,
 * rescales, applies a following element-wise operation (where fuse.c
 * decided so) and activation; a BatchNormalization-like affine after it
 * is in its weights and bias already (passes.c). Grouped convolutions run in blocks of whole groups
 * that start on an atom of input and of output channels: each block a
 * convolution over its own surfaces of the input, its weights dense
 * within the block (zero across its groups), so that a depthwise layer's
 * weights grow by the atom's channels, not by its own. A layer with no
 * block smaller than itself runs as one dense convolution. A layer whose
 * kernels do not fit the convolution buffer over all its input channels
 * runs in chunks of them, each adding the partial sums before (int8:
 * lower_psum.c).
 *
 * int8: weights at the scale of their kernel (lower_quant.c); the SDP
 * multiplies each channel's accumulator by s_in * s_w[k] / s_c.
 * A transposed convolution's own operations are in lower_deconv.c; its
 * 1x1 convolution into the RUBIK's input is one of these.
 *
 * Here: the convolution as the hardware sees it, and its descriptors as
 * the split cut it (lower_conv_split.c), with its weights and bias
 * (lower_conv_weights.c).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/pixel_formats.h>

#include "lower_internal.h"
#include "quality.h"

/*
 * The kernel over the input as it is in memory: a fully connected layer
 * on a flattened cube is a convolution with the cube's width and height.
 */
static int conv_shape(struct nvc_lower *L, const struct nvc_node *n,
		      struct nvc_conv_shape *cs)
{
	const struct nvc_tensor *ti = nvc_t(L, n->inputs[0]);
	const struct nvc_tensor *tr;

	cs->in = nvc_resolve(L, n->inputs[0]);
	cs->image = L->image && nvc_is_input(L, cs->in);
	tr = nvc_t(L, cs->in);
	cs->k = nvc_t(L, n->outputs[0])->c;
	cs->c = ti->c;
	cs->r = n->conv.kh;
	cs->s = n->conv.kw;
	if (n->op == NVC_CONV_TRANSPOSE) {
		/* A 1x1 convolution into every output phase's surfaces. */
		cs->k = n->conv.stride[0] * n->conv.stride[1] *
			(int)(nvc_surfaces(L, cs->k) * L->epa);
		cs->r = 1;
		cs->s = 1;
	}
	if (tr->c == ti->c && tr->h == ti->h && tr->w == ti->w)
		return 0;
	if (cs->r == 1 && cs->s == 1 && ti->h == 1 && ti->w == 1 &&
	    ti->c == tr->c * tr->h * tr->w && n->conv.group == 1 &&
	    n->conv.stride[0] == 1 && n->conv.stride[1] == 1 &&
	    !n->conv.pad[0] && !n->conv.pad[1] && !n->conv.pad[2] &&
	    !n->conv.pad[3]) {
		cs->c = tr->c;
		cs->r = tr->h;
		cs->s = tr->w;
		return 0;
	}
	return nvc_fail(L, n, -EOPNOTSUPP,
			"input '%s' is a reshape of a %dx%dx%d cube that the feature layout cannot alias",
			ti->name, tr->c, tr->h, tr->w);
}

/* Channels of the input the convolution reads. */
static int conv_in_channels(const struct nvc_lower *L,
			    const struct nvc_conv_shape *cs)
{
	return cs->slice ? cs->c : nvc_t(L, cs->in)->c;
}

/*
 * Entries of the convolution buffer one input line takes: atoms of
 * channels, or pixels with the left and right padding.
 */
uint32_t nvc_conv_eps(const struct nvc_lower *L, const struct nvc_node *n,
		      const struct nvc_conv_shape *cs)
{
	const struct nvc_tensor *ti = nvc_t(L, cs->in);
	uint32_t entry = L->t.cbuf->atomic_c * L->bpe;

	if (cs->image)
		return ((ti->w + n->conv.pad[1] + n->conv.pad[3]) *
			NVC_IMAGE_COMPS * L->bpe + entry - 1) / entry;
	return nvc_feature_eps(L, conv_in_channels(L, cs), ti->w);
}

/*
 * The kernel runs with stride 1 and no padding: a fully connected layer
 * over a flattened cube, or the 1x1 half of a transposed convolution.
 */
bool nvc_conv_plain(const struct nvc_lower *L, const struct nvc_node *n,
		    const struct nvc_conv_shape *cs)
{
	const struct nvc_tensor *ti = nvc_t(L, cs->in);

	return (cs->r == ti->h && cs->s == ti->w && cs->r != n->conv.kh) ||
	       n->op == NVC_CONV_TRANSPOSE;
}

/* Rows of the input and output one operation covers, and its padding. */
struct conv_band {
	int iy0, ih, oy0, oh, pt, pb;
};

static struct conv_band conv_band(const struct nvc_lower *L,
				  const struct nvc_node *n,
				  const struct nvc_conv_shape *cs, int oy0,
				  int rows)
{
	const struct nvc_tensor *ti = nvc_t(L, cs->in);
	bool one = nvc_conv_plain(L, n, cs);
	int sy = one ? 1 : n->conv.stride[0], pt = one ? 0 : n->conv.pad[0];
	int ekh = (cs->r - 1) * (one ? 1 : n->conv.dilation[0]) + 1;
	struct conv_band b = { .oy0 = oy0 };
	int top, bottom;

	b.oh = cs->ho - oy0 < rows ? cs->ho - oy0 : rows;
	top = oy0 * sy - pt;
	bottom = (oy0 + b.oh - 1) * sy - pt + ekh;	/* one past */
	b.iy0 = top < 0 ? 0 : top;
	b.pt = top < 0 ? -top : 0;
	b.pb = bottom > ti->h ? bottom - ti->h : 0;
	b.ih = (bottom > ti->h ? ti->h : bottom) - b.iy0;
	return b;
}

/* Rows [@y0, @y0 + @h) of @c (its size: to the end of @c). */
static struct dla_data_cube cube_rows(struct dla_data_cube c, int y0, int h)
{
	c.offset += (uint32_t)y0 * c.line_stride;
	c.size -= (uint32_t)y0 * c.line_stride;
	c.height = (uint16_t)h;
	return c;
}

/* Channels [@c0, @c0 + @n) of @c (@c0 on an atom; its size: to the end). */
static struct dla_data_cube cube_channels(const struct nvc_lower *L,
					  struct dla_data_cube c, int c0, int n)
{
	uint32_t skip = (uint32_t)(c0 / (int)L->epa) * c.surf_stride;

	c.offset += skip;
	c.size -= skip;
	c.channel = (uint16_t)n;
	return c;
}

static void conv_op(struct nvc_lower *L, int op, const struct nvc_node *n,
		    const struct nvc_conv_shape *cs, uint32_t woff,
		    uint32_t wsize, const struct dla_data_cube *dst,
		    const struct conv_band *b, uint32_t dbank, uint32_t wbank)
{
	struct dla_conv_op_desc *p = &L->ops[op].op.conv_op;
	struct dla_conv_surface_desc *s = &L->ops[op].surf.conv_surface;
	const struct nvc_tensor *ti = nvc_t(L, cs->in);
	bool one = nvc_conv_plain(L, n, cs);

	*p = (struct dla_conv_op_desc){
		.entry_per_slice = (uint16_t)nvc_conv_eps(L, n, cs),
		.data_format = cs->image ? nvc_image_format(L->prec) : NVDLA_DATA_FORMAT_FEATURE,
		.fetch_grain = 1, .batch = 1, .data_bank = (uint8_t)dbank,
		.weight_bank = (uint8_t)wbank, .release = (uint16_t)b->ih,
		.input_width_csc = (uint16_t)ti->w,
		.input_height_csc = (uint16_t)b->ih,
		.input_channel_csc = (uint16_t)(cs->image ? NVC_IMAGE_COMPS :
						 conv_in_channels(L, cs)),
		.kernel_width_csc = (uint16_t)cs->s,
		.kernel_height_csc = (uint16_t)cs->r,
		.kernel_channel_csc = (uint16_t)cs->c,
		.input_width_cmac = (uint16_t)cs->wo,
		.input_height_cmac = (uint16_t)b->oh,
		.bytes_per_kernel = (uint32_t)cs->r * cs->s * cs->c * L->bpe,
		.conv_stride_x = (uint8_t)(one ? 1 : n->conv.stride[1]),
		.conv_stride_y = (uint8_t)(one ? 1 : n->conv.stride[0]),
		.pad_y_top = (uint8_t)b->pt,
		.pad_x_left = (uint8_t)(one ? 0 : n->conv.pad[1]),
		.pad_y_bottom = (uint8_t)b->pb,
		.pad_x_right = (uint8_t)(one ? 0 : n->conv.pad[3]),
		.dilation_x = (uint8_t)(one ? 1 : n->conv.dilation[1]),
		.dilation_y = (uint8_t)(one ? 1 : n->conv.dilation[0]),
		.in_precision = L->prec, .out_precision = L->prec,
		.in_cvt = { .scale = 1 },
		.out_cvt = { .scale = 1, .enable = 1 },
	};
	s->weight_data = nvc_const_cube(woff, wsize, cs->s, cs->r, cs->c);
	s->src_data = nvc_cube(L, cs->in);
	if (cs->slice)
		s->src_data = cube_channels(L, s->src_data, cs->c0, cs->c);
	s->src_data = cube_rows(s->src_data, b->iy0, b->ih);
	if (cs->image)
		s->src_data.channel = NVC_IMAGE_COMPS;
	s->dst_data = cube_rows(*dst, b->oy0, b->oh);
	s->dst_data.type = DLA_MEM_HW;
	s->dst_data.address = -1;
	s->dst_data.offset = 0;
}

static int conv_check(struct nvc_lower *L, const struct nvc_node *n)
{
	const struct nvc_conv_attr *a = &n->conv;
	/* made of a ConvTranspose by nvc_deconv_rewrite() */
	bool transposed = n->op == NVC_CONV && n->onnx_op &&
			  !strcmp(n->onnx_op, "ConvTranspose");
	int i;

	if (n->op == NVC_CONV_TRANSPOSE && !nvc_deconv_as_is(a))
		return nvc_fail(L, n, -EOPNOTSUPP,
				"transposed convolution with a kernel other than its stride, padding, groups or dilation: nvc_deconv_rewrite() makes it a zero insertion and a convolution first");
	if (a->group < 1 || nvc_t(L, n->inputs[0])->c % a->group ||
	    nvc_t(L, n->outputs[0])->c % a->group)
		return nvc_fail(L, n, -EINVAL, "%d groups do not divide the channels",
				a->group);
	for (i = 0; i < 4; i++)
		if (a->pad[i] < 0 || a->pad[i] > NVC_CONV_PAD_MAX)
			return nvc_fail(L, n, -EOPNOTSUPP,
					"padding %d%s: the hardware pads 0 to %d",
					a->pad[i], transposed ?
					" (the transposed convolution's, made of stride 1: dilation x (kernel - 1) - its own padding)" :
					"", NVC_CONV_PAD_MAX);
	for (i = 0; i < 2; i++)
		if (a->stride[i] < 1 || a->stride[i] > 8 ||
		    a->dilation[i] < 1 || a->dilation[i] > 32)
			return nvc_fail(L, n, -EOPNOTSUPP,
					"stride %d or dilation %d beyond the hardware's 1-8 and 1-32",
					a->stride[i], a->dilation[i]);
	return 0;
}

static struct nvc_place cube_place(const struct dla_data_cube *c)
{
	return (struct nvc_place){ .slot = c->address, .offset = c->offset,
		.line = c->line_stride, .surf = c->surf_stride,
		.size = c->size };
}

/*
 * One band of the convolution and its SDP, the SDP programmed like
 * @proto's (or, for the first band, as @operand and @last say).
 */
static int conv_band_ops(struct nvc_lower *L, const struct nvc_node *n,
			 const struct nvc_conv_shape *cs, uint32_t woff,
			 uint32_t wsize, const struct dla_data_cube *dst,
			 const struct conv_band *b, uint32_t dbank,
			 uint32_t wbank, int *sdp)
{
	int conv = nvc_op_new(L, DLA_OP_CONV);
	struct dla_sdp_surface_desc *ss;
	struct nvc_place w;

	*sdp = conv < 0 ? conv : nvc_op_new(L, DLA_OP_SDP);
	if (*sdp < 0)
		return *sdp;
	conv_op(L, conv, n, cs, woff, wsize, dst, b, dbank, wbank);
	nvc_sdp_init(L, &L->ops[*sdp]);
	ss = &L->ops[*sdp].surf.sdp_surface;
	ss->src_data = L->ops[conv].surf.conv_surface.dst_data;
	ss->dst_data = cube_rows(*dst, b->oy0, b->oh);
	nvc_fuse(L, conv, *sdp);
	nvc_depend_tensor(L, cs->in, conv);
	/* Its SDP writes: after the reads of what was there before. */
	w = cube_place(&ss->dst_data);
	w.size = (uint32_t)(b->oh - 1) * w.line + ss->dst_data.width * L->t.atom +
		 (nvc_surfaces(L, ss->dst_data.channel) - 1) * w.surf;
	nvc_written_place(L, &w, *sdp);
	return 0;
}

struct nvc_wino_layer nvc_conv_wino_layer(const struct nvc_lower *L,
					  const struct nvc_conv_shape *cs)
{
	const struct nvc_tensor *ti = nvc_t(L, cs->in);

	return (struct nvc_wino_layer){ .k = cs->k, .c = cs->c, .w = ti->w,
		.h = ti->h, .wo = cs->wo, .ho = cs->ho };
}

/*
 * The convolution @cs (attributes of @n, int8 weight scales @ws) into
 * @dst and its SDP with the element-wise @operand (or NULL) and
 * activation @act, at output scale @s_out, in the bands of rows and with
 * the banks the split gave it (@pc): *@sdp is the last SDP's index.
 */
static int conv_emit_part(struct nvc_lower *L, const struct nvc_node *n,
			  const struct nvc_node *last,
			  const struct nvc_conv_shape *cs,
			  const struct nvc_lir_conv *pc, const float *ws,
			  const struct dla_data_cube *dst,
			  const struct nvc_operand *operand,
			  enum nvc_eltwise elt, float s_out, int *sdp)
{
	struct dla_sdp_op_desc proto = { 0 };
	struct conv_band b;
	struct nvc_wino_layer wl = nvc_conv_wino_layer(L, cs);
	uint32_t woff, wsize;
	int oy0, first = -1, ret;
	float s_c;

	if (cs->wino)
		ret = nvc_wino_weights(L, &wl, cs->w, &woff, &wsize);
	else
		ret = nvc_conv_weights(L, cs, ws, &woff, &wsize);
	for (oy0 = 0; !ret && oy0 < cs->ho; oy0 += pc->rows) {
		b = conv_band(L, n, cs, oy0, pc->rows);
		ret = conv_band_ops(L, n, cs, woff, wsize, dst, &b, pc->dbank,
				    pc->wbank, sdp);
		if (ret)
			break;
		if (cs->wino)
			nvc_wino_op(L, *sdp - 1, *sdp, n, &wl, woff, wsize);
		if (first < 0) {
			first = *sdp;
			ret = nvc_sdp_tail(L, last, &L->ops[*sdp], operand, elt,
					   &last->act, s_out, &s_c);
			if (!ret)
				ret = nvc_conv_x1(L, *sdp, cs, ws, s_c);
			if (cs->part)
				nvc_sdp_prelu_channels(&L->ops[*sdp], cs->k0,
						       cs->k);
			proto = L->ops[*sdp].op.sdp_op;
		} else {
			L->ops[*sdp].op.sdp_op = proto;
			L->ops[*sdp].surf.sdp_surface.x1_data =
				L->ops[first].surf.sdp_surface.x1_data;
			L->ops[*sdp].surf.sdp_surface.y_data =
				L->ops[first].surf.sdp_surface.y_data;
		}
		if (!ret && operand) {
			L->ops[*sdp].surf.sdp_surface.x2_data =
				cube_rows(operand->cube, b.oy0, b.oh);
			nvc_depend_place(L, &L->ops[*sdp].surf.sdp_surface.x2_data,
					 *sdp);
		} else if (!ret && first != *sdp) {
			L->ops[*sdp].surf.sdp_surface.x2_data =
				L->ops[first].surf.sdp_surface.x2_data;
		}
	}
	return ret;
}

/*
 * The convolution @cs as conv_emit_part says, its kernels at scales @ws,
 * in the parts over consecutive ranges of output channels the split gave
 * it (@pc, @npc: more than one where its weights exceed a memory): each
 * part has its own weights, writes its channels of @dst and adds the
 * same channels of @operand, with the matching bias and scales.
 */
static int conv_emit(struct nvc_lower *L, const struct nvc_node *n,
		     const struct nvc_node *last,
		     const struct nvc_conv_shape *cs,
		     const struct nvc_lir_conv *pc, int npc, const float *ws,
		     const struct dla_data_cube *dst,
		     const struct nvc_operand *operand, enum nvc_eltwise elt,
		     float s_out, int *sdp)
{
	size_t per = (size_t)cs->c * cs->r * cs->s;
	struct nvc_conv_shape part = *cs;
	struct dla_data_cube pdst;
	struct nvc_operand pop;
	int i, k0, ret = 0;

	for (i = 0; !ret && i < npc; i++) {
		k0 = pc[i].k0;
		part.k = pc[i].k;
		part.part = part.k != cs->k;
		part.k0 = k0;
		part.w = cs->w + (size_t)k0 * per;
		part.bias = cs->bias + k0;
		pdst = part.part ? cube_channels(L, *dst, k0, part.k) : *dst;
		if (operand) {
			pop = *operand;
			if (part.part)
				pop.cube = cube_channels(L, pop.cube, k0, part.k);
		}
		ret = conv_emit_part(L, n, last, &part, &pc[i], ws + k0, &pdst,
				     operand ? &pop : NULL, elt, s_out, sdp);
	}
	return ret;
}

/*
 * A grouped convolution in the blocks of whole groups the split gave it
 * (@pc, @npc), as conv_emit says: each block reads its input channels,
 * writes its output channels of @dst and adds the same channels of
 * @operand.
 */
static int conv_emit_groups(struct nvc_lower *L, const struct nvc_node *n,
			    const struct nvc_node *last,
			    const struct nvc_conv_shape *cs,
			    const struct nvc_lir_conv *pc, int npc,
			    const float *ws, const struct dla_data_cube *dst,
			    const struct nvc_operand *operand,
			    enum nvc_eltwise elt, float s_out, int *sdp)
{
	struct nvc_conv_shape part = *cs;
	struct dla_data_cube pdst;
	struct nvc_operand pop;
	int i, ret = 0;

	for (i = 0; !ret && i < npc; i++) {
		part.k0 = pc[i].k0;
		part.k = pc[i].k;
		part.c0 = pc[i].c0;
		part.c = pc[i].c;
		part.part = true;
		part.slice = true;
		ret = nvc_conv_dense(L, n, &part);
		pdst = cube_channels(L, *dst, part.k0, part.k);
		if (operand) {
			pop = *operand;
			pop.cube = cube_channels(L, pop.cube, part.k0, part.k);
		}
		if (!ret)
			ret = conv_emit_part(L, n, last, &part, &pc[i],
					     ws + part.k0, &pdst,
					     operand ? &pop : NULL, elt, s_out,
					     sdp);
		free(part.w);
		free(part.bias);
	}
	return ret;
}

/* The hardware convolutions from @pc on over the same input channels. */
static int same_chunk(const struct nvc_lir_conv *pc, int npc)
{
	int i;

	for (i = 1; i < npc && pc[i].c0 == pc[0].c0; i++)
		;
	return i;
}

/*
 * A convolution in the chunks of input channels the split gave it (@pc,
 * @npc), each a convolution over its own surfaces of the input whose SDP
 * adds the partial sums of the chunks before (the operation's two
 * temporaries taking turns; int8: lower_psum.c): the first chunk adds
 * the bias and the element-wise @operand (an Add), the last applies the
 * activation and writes @dst.
 */
static int conv_emit_chunks(struct nvc_lower *L, const struct nvc_node *n,
			    const struct nvc_node *last,
			    const struct nvc_conv_shape *cs,
			    const struct nvc_lir_conv *pc, int npc,
			    const float *ws, const struct dla_data_cube *dst,
			    const struct nvc_operand *operand, float s_out,
			    int *sdp)
{
	struct nvc_node mid = *last;
	struct nvc_conv_shape part = *cs;
	struct dla_data_cube sum[2];
	struct nvc_operand prev;
	float s_sum = nvc_psum_scale(L, L->op->temp, s_out);
	int i, j, at, from, in_chunk, prev_sdp = -1, ret = 0;

	mid.act.type = NVC_ACT_NONE;
	for (i = 0; i < 2; i++)
		sum[i] = nvc_psum_cube(L, L->op->temp + i);
	part.slice = true;
	for (at = 0, i = 0; !ret && at < npc; at += in_chunk, i++) {
		bool end;

		in_chunk = same_chunk(pc + at, npc - at);
		end = at + in_chunk == npc;
		part.c0 = pc[at].c0;
		part.c = pc[at].c;
		ret = nvc_conv_dense(L, n, &part);
		if (!ret && i)
			memset(part.bias, 0, (size_t)part.k * sizeof(*part.bias));
		from = L->nops;
		if (!ret)
			ret = conv_emit(L, n, end ? last : &mid, &part, pc + at,
					in_chunk, ws, end ? dst : &sum[i % 2],
					i ? &prev : operand, NVC_ELT_ADD,
					end ? s_out : s_sum, sdp);
		if (!ret)
			nvc_psum_ops(L, L->op->temp, from, !end, i > 0);
		/* The partial sums are no tensor: their reader waits here. */
		for (j = from; !ret && prev_sdp >= 0 && j < L->nops; j++)
			nvc_depend(L, prev_sdp, j);
		prev = (struct nvc_operand){ .cube = sum[i % 2], .scale = s_sum };
		prev_sdp = *sdp;
		free(part.w);
		free(part.bias);
		part.w = NULL;
		part.bias = NULL;
	}
	return ret;
}

/*
 * The convolution of @n (its SDP computing @last, itself or the fused
 * element-wise node) as the hardware sees it before the split: checked,
 * its kernel over the input as it is in memory, its output (a transposed
 * one's 1x1 half: the input's width and height).
 */
int nvc_conv_prepare(struct nvc_lower *L, const struct nvc_node *n,
		     const struct nvc_node *last, struct nvc_conv_shape *cs)
{
	int ret = conv_check(L, n);

	if (!ret)
		ret = conv_shape(L, n, cs);
	if (ret)
		return ret;
	cs->out = last->outputs[0];
	cs->wo = nvc_t(L, cs->out)->w;
	cs->ho = nvc_t(L, cs->out)->h;
	if (n->op == NVC_CONV_TRANSPOSE) {
		cs->wo = nvc_t(L, cs->in)->w;
		cs->ho = nvc_t(L, cs->in)->h;
	}
	return 0;
}

/* Its dense weights, as the split cut it (blocks and chunks: their own). */
static int conv_weights_whole(struct nvc_lower *L, const struct nvc_node *n,
			      const struct nvc_lir_op *op,
			      struct nvc_conv_shape *cs)
{
	int ret = 0;

	if (op->cut == NVC_CUT_PARTS && n->op == NVC_CONV_TRANSPOSE)
		ret = nvc_deconv_dense(L, n, cs);
	else if (op->cut == NVC_CUT_PARTS)
		ret = nvc_conv_dense(L, n, cs);
	if (!ret && cs->image)
		ret = nvc_conv_image_extend(cs);
	return ret;
}

int nvc_lower_conv(struct nvc_lower *L, const struct nvc_lir_op *op)
{
	const struct nvc_graph *g = L->g;
	const struct nvc_node *n = &g->nodes[op->node];
	const struct nvc_node *elt = op->fused >= 0 ? &g->nodes[op->fused] :
				     NULL;
	const struct nvc_node *last = elt ? elt : n;
	const struct nvc_lir_conv *pc = op->convs;
	struct nvc_conv_shape cs = { 0 };
	struct dla_data_cube dst;
	struct nvc_operand operand;
	int sdp, other = -1, npc = op->num_convs, ret;

	ret = nvc_conv_prepare(L, n, last, &cs);
	if (!ret)
		ret = conv_weights_whole(L, n, op, &cs);
	if (ret)
		goto out;
	cs.wino = op->wino;
	if (n->op == NVC_CONV_TRANSPOSE && !L->t.hw->rubik) {
		ret = nvc_deconv_rows(L, n, last, &cs, pc, op->wscale, cs.out);
		goto out;
	}
	dst = nvc_cube(L, op->outputs[0]);	/* with a RUBIK: its input */
	if (elt) {
		other = elt->inputs[0] == n->outputs[0] ? elt->inputs[1] :
			elt->inputs[0];
		operand = nvc_operand(L, other);
	}
	if (op->cut == NVC_CUT_CHUNKS)
		ret = conv_emit_chunks(L, n, last, &cs, pc, npc, op->wscale,
				       &dst, elt ? &operand : NULL,
				       L->ir.ts[cs.out].scale, &sdp);
	else if (op->cut == NVC_CUT_GROUPS)
		ret = conv_emit_groups(L, n, last, &cs, pc, npc, op->wscale,
				       &dst, elt ? &operand : NULL,
				       elt ? elt->eltwise : NVC_ELT_ADD,
				       L->ir.ts[cs.out].scale, &sdp);
	else
		ret = conv_emit(L, n, last, &cs, pc, npc, op->wscale, &dst,
				elt ? &operand : NULL,
				elt ? elt->eltwise : NVC_ELT_ADD,
				L->ir.ts[cs.out].scale, &sdp);
	if (ret)
		goto out;
	nvc_writer(L, op->outputs[0], sdp);
out:
	free(cs.w);
	free(cs.bias);
	return ret;
}

/*
 * The 1x1 convolution that moves channels of @in into @k channels (the
 * selecting weights are the caller's): node @one, shape @cs.
 */
void nvc_conv_select_shape(struct nvc_lower *L, const struct nvc_node *n,
			   int in, int k, struct nvc_node *one,
			   struct nvc_conv_shape *cs)
{
	*one = *n;
	one->op = NVC_CONV;
	one->act.type = NVC_ACT_NONE;
	one->conv = (struct nvc_conv_attr){ .kh = 1, .kw = 1,
		.stride = { 1, 1 }, .dilation = { 1, 1 }, .group = 1,
		.weights = -1, .bias = -1 };
	*cs = (struct nvc_conv_shape){ .in = nvc_resolve(L, in), .k = k, .r = 1,
				   .s = 1 };
	cs->c = nvc_t(L, cs->in)->c;
	cs->wo = nvc_t(L, cs->in)->w;
	cs->ho = nvc_t(L, cs->in)->h;
}

int nvc_conv_select(struct nvc_lower *L, const struct nvc_node *n, int in,
		    const int *map, int k, int copy, const float *ws,
		    const struct nvc_operand *prev, int prev_op,
		    const struct dla_data_cube *dst, float s_out)
{
	const struct nvc_lir_conv *pc;
	struct nvc_node one;
	struct nvc_conv_shape cs;
	int j, npc, sdp = -1, ret;

	nvc_conv_select_shape(L, n, in, k, &one, &cs);
	cs.w = calloc((size_t)cs.k * cs.c, sizeof(float));
	cs.bias = calloc(cs.k, sizeof(float));
	ret = cs.w && cs.bias ? 0 : -ENOMEM;
	for (j = 0; !ret && j < k; j++)
		if (map[j] >= 0)
			cs.w[(size_t)j * cs.c + map[j]] = 1.0f;
	pc = nvc_lir_convs_of(L->op, copy, &npc);
	if (!ret)
		ret = conv_emit(L, &one, &one, &cs, pc, npc, ws, dst, prev,
				NVC_ELT_ADD, s_out, &sdp);
	if (!ret && prev)
		nvc_depend(L, prev_op, sdp);
	free(cs.w);
	free(cs.bias);
	return ret ? ret : sdp;
}
