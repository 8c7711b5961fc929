// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_randlayer: CDP layers (LRN of 3 to 9 channels, random LUT tables,
 * slopes and priorities, input and output converters).
 */
#include <stdio.h>

#include "randlayer.h"

void cdp_layer(struct layer *l)
{
	struct dla_cdp_op_desc *p = &l->ops[0].op.cdp_op;
	uint32_t prec = rnd_precision(), bpe = bpe_of(prec);
	bool int_ = prec != DLA_PRECISION_FP16;

	nvdla_build_op_init(&l->ops[0], DLA_OP_CDP);
	l->has_lut = true;
	rnd_lut(&l->lut, prec, false);
	l->in = cube_of(rnd_range(1, 12), rnd_range(1, 8), rnd_range(1, 70),
			bpe);
	l->out = l->in;
	l->out_precision = prec;
	add_data(l, rnd_cube(&l->in, prec), l->in.size);
	p->in_precision = prec;
	p->out_precision = prec;
	p->lut_index = 0;
	p->local_size = 3 + 2 * rnd(4);
	p->bypass_sqsum = rnd(6) == 0;
	p->bypass_out_mul = rnd(6) == 0;
	p->in_cvt = (struct dla_cvt_param){ .scale = 1, .enable = 1 };
	p->out_cvt = (struct dla_cvt_param){ .scale = 1, .enable = 1 };
	if (int_) {
		p->in_cvt = (struct dla_cvt_param){ .scale = rnd_range(1, 64),
			.truncate = rnd(6), .enable = 1,
			.offset = rnd_range(-8, 8) };
		p->out_cvt = (struct dla_cvt_param){
			.scale = rnd_range(1, 300), .truncate = rnd(24),
			.enable = 1, .offset = rnd_range(-100, 100) };
	}
	l->ops[0].surf.cdp_surface.src_data = dla_cube(&l->in, data_index(l, 0));
	snprintf(l->desc, sizeof(l->desc),
		 "cdp %s %ux%ux%u lrn%u sqsum%s mul%s lut(method %u, le %llu..%llu, lo %llu..%llu, prio %u%u%u)",
		 precision_names[prec], l->in.w, l->in.h, l->in.c,
		 p->local_size, p->bypass_sqsum ? "-bypass" : "",
		 p->bypass_out_mul ? "-bypass" : "", l->lut.method,
		 (unsigned long long)l->lut.linear_exp_start,
		 (unsigned long long)l->lut.linear_exp_end,
		 (unsigned long long)l->lut.linear_only_start,
		 (unsigned long long)l->lut.linear_only_end,
		 l->lut.hybrid_priority, l->lut.underflow_priority,
		 l->lut.overflow_priority);
}
