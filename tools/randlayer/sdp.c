// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_randlayer: SDP layers from memory. X1 and X2 (ALU, MUL, ReLU,
 * PReLU with per-layer, per-channel or per-element operands), the output
 * converter, and where the configuration has the Y stage, its LUT; half
 * of them, where the configuration has int16, convert the precision
 * (nvdla/sdp_precision.h).
 */
#include <stdio.h>

#include <nvdla/sdp_precision.h>

#include "randlayer.h"

uint32_t sdp_rnd_dst(uint32_t prec, bool flying)
{
	uint32_t to[DLA_PRECISION_FP16], n = 0, d, proc;

	if (target->int8_only || rnd(2))
		return prec;
	for (d = DLA_PRECISION_INT8; d <= DLA_PRECISION_FP16; d++) {
		proc = nvdla_sdp_proc_precision(prec, d);
		if (d != prec && nvdla_sdp_conversion_ok(prec, proc, d) &&
		    (!flying || proc == prec))
			to[n++] = d;
	}
	return to[rnd(n)];
}

struct cube sdp_cube(uint32_t w, uint32_t h, uint32_t c, uint32_t prec,
		     uint32_t proc)
{
	struct cube q = cube_of(w, h, c, bpe_of(prec));

	q.size = nvdla_sdp_surfaces(c, target->atom, proc, q.bpe) * q.surf;
	return q;
}

/*
 * X1 or X2: a random ALU/MUL stage whose operands, of @precision, come
 * from @data, in groups of @lanes (the processing's) per element.
 */
static void sdp_stage(struct layer *l, struct dla_sdp_op *o,
		      struct dla_data_cube *data, uint32_t precision,
		      uint32_t lanes, const char *name, char *desc, size_t len)
{
	static const char *const types[] = { "none", "mul", "add", "both" };
	static const char *const modes[] = { "layer", "channel", "element" };
	uint32_t bpe = bpe_of(precision), per;
	bool int_ = precision != DLA_PRECISION_FP16;

	o->enable = 1;
	o->type = rnd_range(SDP_TYPE_MUL, SDP_TYPE_BOTH);
	o->alu_type = rnd_range(SDP_ALU_MAX, SDP_ALU_SUM);
	o->mode = rnd_range(SDP_MODE_PER_LAYER, SDP_MODE_PER_POINT);
	o->act = rnd(3) == 0 ? SDP_ACT_RELU :
		 rnd(4) == 0 ? SDP_ACT_PRELU : SDP_ACT_NONE;
	if (o->act == SDP_ACT_PRELU && o->type == SDP_TYPE_ADD)
		o->act = SDP_ACT_NONE;	/* PReLU multiplies */
	o->precision = precision;
	o->shift_value = int_ ? rnd(8) : 0;
	o->truncate = int_ ? rnd(12) : 0;
	o->alu_operand = rnd_operand(precision, bpe * 8);
	o->mul_operand = rnd_operand(precision, bpe * 8);
	per = o->type == SDP_TYPE_BOTH ? 2 : 1;
	if (o->mode != SDP_MODE_PER_LAYER) {
		/* per element: the processing's lanes, @per operands each */
		struct cube q = { l->in.w, l->in.h, l->in.c, bpe * per,
				  l->in.w * lanes * bpe * per, 0, 0 };

		q.surf = q.h * q.line;
		q.size = div_up(q.c, lanes) * q.surf;
		if (o->mode == SDP_MODE_PER_KERNEL) {
			/*
			 * per channel: packed, whole groups, a group apart
			 * (the C models' stride for a 1x1 cube's operands)
			 */
			q.size = div_up(div_up(l->in.c, lanes) * lanes * bpe *
					per, 32) * 32;
			q.w = q.h = 1;
			q.line = q.surf = lanes * bpe * per;
		}
		*data = dla_cube(&q, data_index(l, l->num_data));
		add_data(l, rnd_lanes(&q, precision, o->mode ==
				      SDP_MODE_PER_KERNEL ? q.size / q.bpe :
				      lanes, per), q.size);
	}
	snprintf(desc, len, " %s:%s/%s/alu%u/act%u/sh%u/tr%u", name,
		 types[o->type], modes[o->mode], o->alu_type, o->act,
		 o->shift_value, o->truncate);
}

/*
 * The SDP's input cube of @prec from memory and its output of @dst, of
 * the same shape, as far as the SDP reads and writes them; the lanes of
 * its processing.
 */
static uint32_t sdp_cubes(struct layer *l, struct dla_sdp_op_desc *p,
			  uint32_t prec, uint32_t dst)
{
	uint32_t w = rnd_range(1, 24), h = rnd_range(1, 12);
	uint32_t c = rnd_range(1, 80), proc = nvdla_sdp_proc_precision(prec, dst);

	l->in = sdp_cube(w, h, c, prec, proc);
	l->out = sdp_cube(w, h, c, dst, proc);
	l->out_precision = dst;
	add_data(l, rnd_cube(&l->in, prec), l->in.size);
	p->src_precision = prec;
	p->dst_precision = dst;
	p->lut_index = -1;
	p->out_cvt = (struct dla_cvt_param){ .scale = 1, .enable = 1 };
	if (prec != DLA_PRECISION_FP16)
		p->out_cvt = (struct dla_cvt_param){
			.scale = rnd_range(-300, 300), .truncate = rnd(20),
			.enable = 1, .offset = rnd_range(-1000, 1000) };
	return target->atom / bpe_of(proc);
}

void sdp_layer(struct layer *l)
{
	struct dla_sdp_op_desc *p = &l->ops[0].op.sdp_op;
	struct dla_sdp_surface_desc *s = &l->ops[0].surf.sdp_surface;
	uint32_t prec = rnd_precision(), dst = sdp_rnd_dst(prec, false), lanes;
	char x1[96] = "", x2[96] = "";

	nvdla_build_op_init(&l->ops[0], DLA_OP_SDP);
	lanes = sdp_cubes(l, p, prec, dst);
	if (rnd(4))
		sdp_stage(l, &p->x1_op, &s->x1_data, prec, lanes, "x1", x1,
			  sizeof(x1));
	if (rnd(3) == 0)
		sdp_stage(l, &p->x2_op, &s->x2_data, prec, lanes, "x2", x2,
			  sizeof(x2));
	s->src_data = dla_cube(&l->in, data_index(l, 0));
	snprintf(l->desc, sizeof(l->desc),
		 "sdp %s to %s %ux%ux%u cvt(%d,%u,%d)%s%s",
		 precision_names[prec], precision_names[dst], l->in.w,
		 l->in.h, l->in.c, p->out_cvt.scale, p->out_cvt.truncate,
		 p->out_cvt.offset, x1, x2);
}

/*
 * An SDP whose Y stage looks its values up in a random LUT, after an
 * optional X1 stage and the Y stage's own per-layer ALU and MUL.
 */
void sdp_lut_layer(struct layer *l)
{
	struct dla_sdp_op_desc *p = &l->ops[0].op.sdp_op;
	struct dla_sdp_surface_desc *s = &l->ops[0].surf.sdp_surface;
	struct dla_sdp_op *y = &p->y_op;
	uint32_t prec = rnd_precision(), dst = sdp_rnd_dst(prec, false), lanes;
	char x1[96] = "";

	nvdla_build_op_init(&l->ops[0], DLA_OP_SDP);
	l->has_lut = true;
	rnd_lut(&l->lut, prec, true);
	lanes = sdp_cubes(l, p, prec, dst);
	if (rnd(2))
		sdp_stage(l, &p->x1_op, &s->x1_data, prec, lanes, "x1", x1,
			  sizeof(x1));
	p->lut_index = 0;
	y->enable = 1;
	y->act = SDP_ACT_LUT;
	y->precision = prec;
	y->type = rnd(2) ? SDP_TYPE_NONE : rnd_range(SDP_TYPE_MUL,
						     SDP_TYPE_BOTH);
	y->alu_type = rnd_range(SDP_ALU_MAX, SDP_ALU_SUM);
	y->alu_operand = rnd_operand(prec, bpe_of(prec) * 8);
	y->mul_operand = rnd_operand(prec, bpe_of(prec) * 8);
	y->truncate = prec == DLA_PRECISION_FP16 ? 0 : rnd(8);
	s->src_data = dla_cube(&l->in, data_index(l, 0));
	snprintf(l->desc, sizeof(l->desc),
		 "sdp-lut %s to %s %ux%ux%u cvt(%d,%u,%d)%s y:type%u/alu%u/tr%u lut(method %u, le %#llx..%#llx, lo %#llx..%#llx, info %d/%u, prio %u%u%u)",
		 precision_names[prec], precision_names[dst], l->in.w,
		 l->in.h, l->in.c,
		 p->out_cvt.scale, p->out_cvt.truncate, p->out_cvt.offset, x1,
		 y->type, y->alu_type, y->truncate, l->lut.method,
		 (unsigned long long)l->lut.linear_exp_start,
		 (unsigned long long)l->lut.linear_exp_end,
		 (unsigned long long)l->lut.linear_only_start,
		 (unsigned long long)l->lut.linear_only_end,
		 l->lut.linear_exp_offset.exp_offset,
		 l->lut.linear_only_offset.frac_bits, l->lut.hybrid_priority,
		 l->lut.underflow_priority, l->lut.overflow_priority);
}
