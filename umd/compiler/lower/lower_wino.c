// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Winograd convolutions (configurations with Winograd mode, fp16): a 3x3
 * kernel of stride 1 computed as F(2x2, 3x3), each 4x4 input tile the CSC
 * transforms giving 2x2 outputs. The compiler transforms the weights
 * (G g G^T); the CDMA pads the input on the right and bottom to whole
 * tiles, and the layer's output takes whole tiles of 4x4 outputs, the
 * C model's SDP taking 4 rows at a time. The whole input sits in the
 * convolution buffer (no bands of rows) and the weights in one memory.
 */
#include <errno.h>
#include <stdlib.h>

#include "lower_internal.h"

#define WINO_TILE 4	/* input tile side */
#define WINO_OUT 4	/* the output's width and height in multiples */
#define WINO_BLOCK 4	/* channels per weight block */

/* The tile grid over an output @o wide: @o + 2, rounded up to tiles. */
static uint32_t wino_extent(int o)
{
	return ((uint32_t)o + 2 + WINO_TILE - 1) / WINO_TILE * WINO_TILE;
}

/* Input channels as the CSC takes them: whole atoms. */
static uint32_t wino_channels(const struct nvc_lower *L, int c)
{
	return ((uint32_t)c + L->epa - 1) / L->epa * L->epa;
}

bool nvc_wino_able(const struct nvc_lower *L, const struct nvc_node *n,
		   const struct nvc_wino_layer *w)
{
	const struct nvc_conv_attr *a = &n->conv;
	uint32_t ce = wino_channels(L, w->c), bpk = WINO_TILE * WINO_TILE * ce * L->bpe;
	uint32_t kpg = L->t.cbuf->atomic_k / L->bpe, we = wino_extent(w->wo);
	uint32_t he = wino_extent(w->ho), wmin, dbank;

	if (!L->t.hw->winograd || L->prec != DLA_PRECISION_FP16 ||
	    n->op != NVC_CONV || a->kh != 3 || a->kw != 3 || a->group != 1 ||
	    a->stride[0] != 1 || a->stride[1] != 1 || a->dilation[0] != 1 ||
	    a->dilation[1] != 1 || w->wo % WINO_OUT || w->ho % WINO_OUT ||
	    we < (uint32_t)(w->w + a->pad[1]) || he < (uint32_t)(w->h + a->pad[0]) ||
	    (uint64_t)w->k * bpk > NVC_MEM_MAX)
		return false;
	wmin = nvc_banks(L, (uint64_t)(w->k < (int)kpg ? w->k : (int)kpg) * bpk);
	if (nvc_wbank_floor(L) > wmin)
		wmin = nvc_wbank_floor(L);
	dbank = nvc_banks(L, (uint64_t)we * ce * L->bpe * he);
	return dbank + wmin <= L->t.cbuf->banks;
}

/* Weight (k, c, tile position) in the Winograd layout, in elements. */
static uint64_t wino_index(const struct nvc_lower *L, int k_all, uint32_t ce,
			   int k, int c, int pos)
{
	uint32_t kpg = L->t.cbuf->atomic_k / L->bpe, group = k / kpg;
	uint32_t in_group = kpg, cube = WINO_TILE * WINO_TILE * WINO_BLOCK;

	if (k_all - group * kpg < kpg)
		in_group = k_all - group * kpg;
	return (uint64_t)group * kpg * WINO_TILE * WINO_TILE * ce +
	       (uint64_t)(c / WINO_BLOCK) * in_group * cube +
	       (uint64_t)(k % kpg) * cube + pos * WINO_BLOCK + c % WINO_BLOCK;
}

/* U = G g G^T of one 3x3 kernel @g (row major) into @u (4x4). */
static void wino_transform(const float *g, double *u)
{
	static const double G[WINO_TILE][3] = {
		{ 1, 0, 0 }, { 0.5, 0.5, 0.5 }, { 0.5, -0.5, 0.5 }, { 0, 0, 1 },
	};
	double t[WINO_TILE][3];
	int i, j, m;

	for (i = 0; i < WINO_TILE; i++)
		for (j = 0; j < 3; j++) {
			t[i][j] = 0;
			for (m = 0; m < 3; m++)
				t[i][j] += G[i][m] * g[m * 3 + j];
		}
	for (i = 0; i < WINO_TILE; i++)
		for (j = 0; j < WINO_TILE; j++) {
			u[i * WINO_TILE + j] = 0;
			for (m = 0; m < 3; m++)
				u[i * WINO_TILE + j] += t[i][m] * G[j][m];
		}
}

int nvc_wino_weights(struct nvc_lower *L, const struct nvc_wino_layer *w,
		     const float *wt, uint32_t *off, uint32_t *size)
{
	uint32_t ce = wino_channels(L, w->c);
	size_t n = (size_t)w->k * WINO_TILE * WINO_TILE * ce;
	uint8_t *buf = calloc(n, L->bpe);
	double u[WINO_TILE * WINO_TILE];
	int k, c, pos;

	if (!buf)
		return -ENOMEM;
	for (k = 0; k < w->k; k++)
		for (c = 0; c < w->c; c++) {
			wino_transform(wt + ((size_t)k * w->c + c) * 9, u);
			for (pos = 0; pos < WINO_TILE * WINO_TILE; pos++) {
				uint64_t i = wino_index(L, w->k, ce, k, c, pos);
				uint16_t h = nvc_half((float)u[pos]);

				buf[2 * i] = h & 0xff;
				buf[2 * i + 1] = h >> 8;
			}
		}
	*size = (uint32_t)(n * L->bpe);
	*off = nvc_const_add(L, buf, n * L->bpe, 0);
	free(buf);
	return *off == UINT32_MAX ? -ENOMEM : 0;
}

void nvc_wino_banks(struct nvc_lower *L, const struct nvc_wino_layer *w,
		    uint32_t *dbank, uint32_t *wbank)
{
	uint32_t ce = wino_channels(L, w->c), we = wino_extent(w->wo);
	uint32_t he = wino_extent(w->ho), kpg = L->t.cbuf->atomic_k / L->bpe;
	uint32_t eps = we * ce * L->bpe / L->t.cbuf->width;
	uint32_t bpk = WINO_TILE * WINO_TILE * ce * L->bpe;
	uint64_t group = (uint64_t)(w->k < (int)kpg ? w->k : (int)kpg) * bpk;

	*dbank = nvc_banks(L, (uint64_t)eps * L->t.cbuf->width * he);
	*wbank = nvc_conv_wbank(L, *dbank, (uint32_t)((uint64_t)w->k * bpk),
				group);
}

void nvc_wino_op(struct nvc_lower *L, int conv, int sdp,
		 const struct nvc_node *n, const struct nvc_wino_layer *w,
		 uint32_t woff, uint32_t wsize)
{
	struct dla_conv_op_desc *p = &L->ops[conv].op.conv_op;
	struct dla_conv_surface_desc *s = &L->ops[conv].surf.conv_surface;
	uint32_t ce = wino_channels(L, w->c), we = wino_extent(w->wo);
	uint32_t he = wino_extent(w->ho);
	uint32_t eps = we * ce * L->bpe / L->t.cbuf->width;
	uint32_t bpk = WINO_TILE * WINO_TILE * ce * L->bpe;

	p->conv_mode = 1;
	p->entry_per_slice = (uint16_t)eps;
	p->release = (uint16_t)he;
	p->input_width_csc = (uint16_t)we;
	p->input_height_csc = (uint16_t)he;
	p->input_channel_csc = (uint16_t)ce;
	p->kernel_width_csc = WINO_TILE;
	p->kernel_height_csc = WINO_TILE;
	p->kernel_channel_csc = (uint16_t)ce;
	p->bytes_per_kernel = bpk;
	p->pad_x_left = (uint8_t)n->conv.pad[1];
	p->pad_y_top = (uint8_t)n->conv.pad[0];
	p->pad_x_right = (uint8_t)(we - w->w - n->conv.pad[1]);
	p->pad_y_bottom = (uint8_t)(he - w->h - n->conv.pad[0]);
	s->weight_data = nvc_const_cube(woff, wsize, WINO_TILE, WINO_TILE, ce);
	L->ops[sdp].op.sdp_op.conv_mode = 1;
}
