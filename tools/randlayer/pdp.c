// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_randlayer: PDP layers (max, min or average; kernels 1 to 8,
 * strides, padding and padding values).
 */
#include <stdio.h>

#include "randlayer.h"

static const char *const pool_names[] = { "avg", "max", "min" };

void pdp_layer(struct layer *l)
{
	struct dla_pdp_op_desc *p = &l->ops[0].op.pdp_op;
	uint32_t prec = rnd_precision(), bpe = bpe_of(prec);
	uint32_t kw = rnd_range(1, 8), kh = rnd_range(1, 8);
	uint32_t sx = rnd_range(1, kw), sy = rnd_range(1, kh);
	uint32_t pl = rnd(kw), pr = rnd(kw), pt = rnd(kh), pb = rnd(kh);
	uint32_t w = rnd_range(kw, 30), h = rnd_range(kh, 20), i;
	uint32_t ow = (w + pl + pr - kw) / sx + 1;
	uint32_t oh = (h + pt + pb - kh) / sy + 1;

	nvdla_build_op_init(&l->ops[0], DLA_OP_PDP);
	l->in = cube_of(w, h, rnd_range(1, 70), bpe);
	l->out = cube_of(ow, oh, l->in.c, bpe);
	l->out_precision = prec;
	add_data(l, rnd_cube(&l->in, prec), l->in.size);
	*p = (struct dla_pdp_op_desc){
		.partial_in_width_first = w, .partial_width_first = ow,
		.split_num = 1, .pool_mode = rnd(3), .pool_width = kw - 1,
		.pool_height = kh - 1, .stride_x = sx, .stride_y = sy,
		.pad_left = pl, .pad_right = pr, .pad_top = pt,
		.pad_bottom = pb, .precision = prec,
	};
	for (i = 0; i < DLA_PDP_PAD_VALUES; i++)
		p->padding_value[i] = prec == DLA_PRECISION_FP16 ? 0 :
				      rnd_operand(prec, bpe * 8);
	l->ops[0].surf.pdp_surface.src_data = dla_cube(&l->in, data_index(l, 0));
	snprintf(l->desc, sizeof(l->desc),
		 "pdp %s %s %ux%ux%u kernel %ux%u stride %ux%u pad %u,%u,%u,%u",
		 precision_names[prec], pool_names[p->pool_mode], w, h,
		 l->in.c, kw, kh, sx, sy, pl, pr, pt, pb);
}
