// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Transposed convolutions whose kernel is their stride (a Resize by
 * whole factors): each output phase (j, i) a 1x1 convolution of the
 * input. With a RUBIK, one convolution computes every phase into an
 * intermediate cube that the RUBIK contracts into the output (its own
 * operation, lower_rubik.c); without,
 * each phase's convolution runs once per input row (once over the column
 * of an input 1 wide), its SDP writing its pixels in place.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/pixel_formats.h>

#include "lower_internal.h"

/*
 * A transposed convolution whose kernel is its stride: each output phase
 * (j, i) is a 1x1 convolution, its kernels in the phase's surfaces of the
 * intermediate cube (the RUBIK's contract order); padding kernels zero.
 * Its weights' shape the quantisation pass checked.
 */
int nvc_deconv_dense(struct nvc_lower *L, const struct nvc_node *n,
		     struct nvc_conv_shape *cs)
{
	const struct nvc_graph *g = L->g;
	const struct nvc_conv_attr *a = &n->conv;
	const struct nvc_tensor *wt = &g->tensors[a->weights];
	int kout = nvc_t(L, n->outputs[0])->c, sx = a->stride[1];
	int phase = cs->k / (a->stride[0] * sx), m, c;

	cs->w = calloc((size_t)cs->k * cs->c, sizeof(float));
	cs->bias = calloc(cs->k, sizeof(float));
	if (!cs->w || !cs->bias)
		return -ENOMEM;
	for (m = 0; m < cs->k; m++) {
		int p = m / phase, k = m % phase, j = p / sx, i = p % sx;

		if (k >= kout)
			continue;
		for (c = 0; c < cs->c; c++)
			cs->w[(size_t)m * cs->c + c] =
				wt->data[(((size_t)c * kout + k) * a->kh + j) *
					 a->kw + i];
		cs->bias[m] = a->bias >= 0 ? g->tensors[a->bias].data[k] : 0;
	}
	return 0;
}

/*
 * Without a RUBIK, the input pixels one operation of a phase covers: a
 * row, or where the input is 1 wide (1-D data) its whole column, so that
 * the SDP writes no 1x1 cube (NVIDIA's C model asserts that a 1x1 cube's
 * surfaces are packed, an atom apart, which the output's are not). And
 * the operations a phase takes: a row each, or one.
 */
static int deconv_len(const struct nvc_tensor *ti)
{
	return ti->w > 1 ? ti->w : ti->h;
}

static int deconv_runs(const struct nvc_tensor *ti)
{
	return ti->w > 1 ? ti->h : 1;
}

/*
 * Phase (j, i) of a transposed convolution without a RUBIK, for input row
 * @h (or the column of an input 1 wide): a 1x1 convolution over its
 * pixels seen as a cube 1 wide (pixels an atom apart), its SDP writing
 * each result sx atoms apart in output row h * sy + j from column i (or
 * sy rows apart in column i from row j). *@sdp: the SDP, programmed like
 * @proto unless that is -1.
 */
static int deconv_row(struct nvc_lower *L, const struct nvc_node *n,
		      const struct nvc_conv_shape *cs,
		      const struct nvc_lir_conv *pc, uint32_t woff,
		      uint32_t wsize, int out, int j, int i, int h, int *sdp)
{
	const struct nvc_tensor *ti = nvc_t(L, cs->in);
	uint32_t eps = nvc_feature_eps(L, ti->c, 1);
	struct dla_data_cube src = nvc_cube(L, cs->in), dst = nvc_cube(L, out);
	uint16_t len = (uint16_t)deconv_len(ti);
	struct dla_conv_op_desc *p;
	uint32_t at;
	int conv;

	src.offset += (uint32_t)h * src.line_stride;
	src.size -= (uint32_t)h * src.line_stride;
	src.width = 1;
	src.height = len;
	src.line_stride = L->t.atom;
	at = (uint32_t)(h * n->conv.stride[0] + j) * dst.line_stride +
	     (uint32_t)i * L->t.atom;
	dst.offset += at;
	dst.size -= at;
	dst.width = 1;
	dst.height = len;
	dst.line_stride = ti->w > 1 ?
			  (uint32_t)n->conv.stride[1] * L->t.atom :
			  (uint32_t)n->conv.stride[0] * dst.line_stride;
	if (len == 1)	/* one surface: the split checked */
		dst.surf_stride = L->t.atom;
	conv = nvc_op_new(L, DLA_OP_CONV);
	*sdp = conv < 0 ? conv : nvc_op_new(L, DLA_OP_SDP);
	if (*sdp < 0)
		return *sdp;
	p = &L->ops[conv].op.conv_op;
	*p = (struct dla_conv_op_desc){
		.entry_per_slice = (uint16_t)eps, .data_format = NVDLA_DATA_FORMAT_FEATURE,
		.fetch_grain = 1, .batch = 1, .data_bank = (uint8_t)pc->dbank,
		.weight_bank = (uint8_t)pc->wbank, .release = len,
		.input_width_csc = 1, .input_height_csc = len,
		.input_channel_csc = (uint16_t)ti->c, .kernel_width_csc = 1,
		.kernel_height_csc = 1, .kernel_channel_csc = (uint16_t)cs->c,
		.input_width_cmac = 1, .input_height_cmac = len,
		.bytes_per_kernel = (uint32_t)cs->c * L->bpe,
		.conv_stride_x = 1, .conv_stride_y = 1, .dilation_x = 1,
		.dilation_y = 1, .in_precision = L->prec,
		.out_precision = L->prec, .in_cvt = { .scale = 1 },
		.out_cvt = { .scale = 1, .enable = 1 },
	};
	L->ops[conv].surf.conv_surface.weight_data =
		nvc_const_cube(woff, wsize, 1, 1, cs->c);
	L->ops[conv].surf.conv_surface.src_data = src;
	L->ops[conv].surf.conv_surface.dst_data = dst;
	L->ops[conv].surf.conv_surface.dst_data.type = DLA_MEM_HW;
	L->ops[conv].surf.conv_surface.dst_data.address = -1;
	L->ops[conv].surf.conv_surface.dst_data.offset = 0;
	nvc_sdp_init(L, &L->ops[*sdp]);
	L->ops[*sdp].surf.sdp_surface.src_data =
		L->ops[conv].surf.conv_surface.dst_data;
	L->ops[*sdp].surf.sdp_surface.dst_data = dst;
	nvc_fuse(L, conv, *sdp);
	nvc_depend_tensor(L, cs->in, conv);
	nvc_written_place(L, &(struct nvc_place){ .slot = dst.address,
		.offset = dst.offset, .line = dst.line_stride,
		.surf = dst.surf_stride, .size = dst.size }, *sdp);
	return 0;
}

/*
 * A transposed convolution (kernel = stride) where there is no RUBIK:
 * each output phase's 1x1 convolution once per input row (once, of an
 * input 1 wide), written in place (sx x sy x H operations).
 */
int nvc_deconv_rows(struct nvc_lower *L, const struct nvc_node *n,
		    const struct nvc_node *last,
		    const struct nvc_conv_shape *mid,
		    const struct nvc_lir_conv *pc, const float *wscale,
		    int out)
{
	int sx = n->conv.stride[1], sy = n->conv.stride[0];
	int phase = mid->k / (sx * sy), kout = nvc_t(L, out)->c;
	struct nvc_conv_shape cs = *mid;
	struct dla_sdp_op_desc proto;
	struct dla_data_cube x1;
	uint32_t woff, wsize;
	int j, i, h, k, sdp = -1, first, ret = 0;
	const float *ws;
	float s_c;

	cs.k = kout;
	cs.w = calloc((size_t)kout * cs.c, sizeof(float));
	cs.bias = calloc(kout, sizeof(float));
	if (!cs.w || !cs.bias)
		ret = -ENOMEM;
	for (j = 0; !ret && j < sy; j++) {
		for (i = 0; !ret && i < sx; i++) {
			int m0 = (j * sx + i) * phase;

			for (k = 0; k < kout; k++) {
				memcpy(cs.w + (size_t)k * cs.c,
				       mid->w + (size_t)(m0 + k) * cs.c,
				       cs.c * sizeof(float));
				cs.bias[k] = mid->bias[m0 + k];
			}
			ws = wscale + m0;
			ret = nvc_conv_weights(L, &cs, ws, &woff, &wsize);
			for (h = 0, first = -1;
			     !ret && h < deconv_runs(nvc_t(L, cs.in)); h++) {
				ret = deconv_row(L, n, &cs, pc++, woff, wsize, out,
						 j, i, h, &sdp);
				if (ret)
					break;
				if (first < 0) {
					first = sdp;
					ret = nvc_sdp_tail(L, last, &L->ops[sdp], NULL,
							   NVC_ELT_ADD, &last->act,
							   L->ir.ts[out].scale, &s_c);
					if (!ret)
						ret = nvc_conv_x1(L, sdp, &cs, ws, s_c);
					proto = L->ops[sdp].op.sdp_op;
					x1 = L->ops[sdp].surf.sdp_surface.x1_data;
				} else {
					L->ops[sdp].op.sdp_op = proto;
					L->ops[sdp].surf.sdp_surface.x1_data = x1;
				}
			}
		}
	}
	if (!ret)
		nvc_writer(L, out, sdp);
	free(cs.w);
	free(cs.bias);
	return ret;
}

/* A transposed convolution without a RUBIK: a phase and row a time. */
int nvc_deconv_split(struct nvc_lower *L, const struct nvc_node *n,
		     const struct nvc_conv_shape *mid, int out)
{
	const struct nvc_tensor *ti = nvc_t(L, mid->in);
	int sx = n->conv.stride[1], sy = n->conv.stride[0], p, h, ret = 0;
	uint32_t eps = nvc_feature_eps(L, ti->c, 1), wsize;
	struct nvc_conv_shape cs = *mid;
	struct nvc_lir_conv pc = { .c = mid->c, .rows = 1 };

	cs.k = nvc_t(L, out)->c;
	if (deconv_len(ti) == 1 && nvc_surfaces(L, cs.k) > 1)
		return nvc_fail(L, n, -EOPNOTSUPP,
				"a 1x1 input into %d channels without a RUBIK: its SDP would write 1x1 cubes of %u surfaces, which it writes only packed, an atom apart (NVIDIA's C model)",
				cs.k, nvc_surfaces(L, cs.k));
	wsize = nvc_conv_wsize(L, &cs);
	pc.k = cs.k;
	pc.dbank = nvc_banks(L, (uint64_t)eps * L->t.cbuf->width *
			     deconv_len(ti));
	for (p = 0; !ret && p < sx * sy; p++)
		for (h = 0; !ret && h < deconv_runs(ti); h++) {
			pc.k0 = p * (mid->k / (sx * sy));
			pc.wbank = nvc_conv_wbank(L, pc.dbank, wsize, wsize);
			ret = nvc_lir_conv_add(L->op, &pc);
		}
	return ret;
}
