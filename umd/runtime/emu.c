// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * CPU tasks of compiler-made loadables ("EMU1"): power (y = (shift +
 * scale * x)^power) and softmax, run between DLA tasks with the same host
 * float arithmetic as NVIDIA's emulator so that outputs match its goldens:
 * C float, expf/powf, fp16 results rounded to nearest with ties away from
 * zero, int8 ones truncated; and this stack's erf, channel-height swap,
 * layer normalisation, bilinear resize, sigmoid, tanh and SiLU (emu.h)
 * with the same fp16 rounding, their int8 results rounded to nearest as
 * the hardware's are. Every descriptor and buffer extent is checked when
 * the network is loaded and again before anything is written.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "le_bytes.h"
#include "runtime_internal.h"

/* Where one task address points and how many bytes follow it. */
struct emu_addr {
	uint8_t *p;
	uint64_t avail;
	uint64_t declared;	/* what the loadable's memory entry holds */
	uint16_t mem;		/* its memory entry */
};

struct emu_buf {
	uint8_t *p;
	uint64_t avail;
	uint16_t format;
	uint32_t w, h, c, line, surf;
	uint32_t bpe, per_atom;
	bool fp16;
};

struct emu_op {
	uint8_t type;
	float in_scale, out_scale, power, scale, shift;
	float eps;		/* LAYERNORM */
	uint8_t coord;		/* RESIZE: enum emu_coord */
	float step[2];		/* RESIZE: height, width */
	struct emu_buf src, dst;
};

struct emu_task {
	struct nvdla_network *net;
	const struct nvdla_run *run;	/* whose buffers, or NULL */
	const struct nvdla_lbl_task *lt;
	bool v2;		/* layout with int8 support */
	bool *data;		/* per memory: its operations' buffers are there */
};

static float rdf32(const uint8_t *p)
{
	uint32_t u = rd32(p);
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

float nvdla_half_to_float(uint16_t h)
{
	int exp = h >> 10 & 0x1f;
	float m = h & 0x3ff, v;

	if (exp == 0x1f)
		v = m ? NAN : INFINITY;
	else if (exp)
		v = ldexpf(1024 + m, exp - 25);
	else
		v = ldexpf(m, -24);
	return h & 0x8000 ? -v : v;
}

/*
 * fp16 of @f rounded to nearest, ties away from zero: the rounding of the
 * half-precision library NVIDIA's emulator uses.
 */
uint16_t nvdla_emu_half(float f)
{
	uint32_t x, sign, mant, m;
	int32_t e;

	memcpy(&x, &f, sizeof(x));
	sign = x >> 16 & 0x8000;
	mant = x & 0x7fffff;
	e = (int32_t)(x >> 23 & 0xff) - 127 + 15;
	if ((x & 0x7f800000) == 0x7f800000)
		return sign | 0x7c00 | mant >> 13;	/* infinity, NaN */
	if (e >= 31)
		return sign | 0x7c00;
	if (e >= 1)	/* a carry out of the mantissa steps the exponent */
		return sign | (((uint32_t)e << 10 | mant >> 13) +
			       (mant >> 12 & 1));
	if (e < -10)
		return sign;
	m = mant | 0x800000;
	return sign | ((m >> (14 - e)) + (m >> (13 - e) & 1));
}

static int emu_error(const struct emu_task *t, int err, const char *what)
{
	return nvdla_rt_error(t->net->rt, err, "task %u (CPU): %s", t->lt->id,
			      what);
}

/* Resolve task address @index; the memory must be in system memory. */
static int emu_address(const struct emu_task *t, int32_t index,
		       struct emu_addr *a)
{
	const struct nvdla_network *net = t->net;
	const struct nvdla_lbl_address *la;
	const struct nvdla_lbl_memory *mem;
	struct nvdla_buffer *buf;
	uint16_t m;

	if (index < 0 || (uint32_t)index >= t->lt->num_addresses)
		return emu_error(t, -EINVAL, "address index out of range");
	la = &net->l->addresses[t->lt->address_list[index]];
	mem = nvdla_loadable_memory(net->l, la->mem_id);
	m = mem - net->l->memories;
	buf = nvdla_net_memory(net, t->run, m);
	if (!buf)
		return emu_error(t, -EOPNOTSUPP,
				 "a buffer is not in system memory");
	/*
	 * The loadable check keeps the offset inside the memory, and a
	 * buffer is never smaller than its memory.
	 */
	a->p = (uint8_t *)nvdla_buffer_map(buf) + la->offset;
	a->avail = nvdla_buffer_size(buf) - la->offset;
	a->declared = mem->size - la->offset;
	a->mem = m;
	return 0;
}

/* Byte offset of element (w, h, c) in the feature layout. */
static uint64_t emu_offset(const struct emu_buf *b, uint32_t w, uint32_t h,
			   uint32_t c)
{
	return (uint64_t)(c / b->per_atom) * b->surf + (uint64_t)h * b->line +
	       (uint64_t)w * b->per_atom * b->bpe + (c % b->per_atom) * b->bpe;
}

/* Bytes from the start to the end of the cube's furthest element. */
static uint64_t emu_extent(const struct emu_buf *b)
{
	uint32_t c = b->c - 1, w = b->w - 1, h = b->h - 1;
	uint64_t last = emu_offset(b, w, h, c), prev;

	if (c >= b->per_atom) {	/* the full atom before has a later lane */
		prev = emu_offset(b, w, h, c - c % b->per_atom - 1);
		last = prev > last ? prev : last;
	}
	return last + b->bpe;
}

/* Element size and lanes per atom (32 bytes, or 8 for INT8_8). */
static int emu_format(const struct emu_task *t, struct emu_buf *b)
{
	uint32_t atom = 32;

	if (b->format == (t->v2 ? EMU_V2_FORMAT_FP16 : EMU_V1_FORMAT_FP16))
		b->fp16 = true;
	else if (t->v2 && b->format == EMU_V2_FORMAT_INT8_8)
		atom = 8;
	else if (!t->v2 || b->format != EMU_V2_FORMAT_INT8)
		return emu_error(t, -EOPNOTSUPP,
				 "buffer format not fp16 or int8");
	b->bpe = b->fp16 ? 2 : 1;
	b->per_atom = atom / b->bpe;
	return 0;
}

/* Decode buffer descriptor @d and check its whole cube fits its buffer. */
static int emu_buffer(const struct emu_task *t, const uint8_t *d,
		      struct emu_buf *b)
{
	const uint8_t *dims = d + (t->v2 ? EMU_V2_BUF_WIDTH : EMU_V1_BUF_WIDTH);
	uint32_t off = t->v2 ? rd32(d + EMU_V2_BUF_OFFSET) : 0;
	uint64_t elems;
	struct emu_addr a;
	int ret;

	memset(b, 0, sizeof(*b));
	ret = emu_address(t, (int16_t)rd16(d + EMU_BUF_INDEX), &a);
	if (ret)
		return ret;
	if (t->data)
		t->data[a.mem] = true;
	if (off > a.avail)
		return emu_error(t, -EINVAL, "buffer offset beyond its memory");
	b->p = a.p + off;
	b->avail = a.avail - off;
	b->format = rd16(d + (t->v2 ? EMU_V2_BUF_FORMAT : EMU_V1_BUF_FORMAT));
	b->w = rd16(dims);
	b->h = rd16(dims + EMU_BUF_HEIGHT);
	b->c = rd16(dims + EMU_BUF_CHANNEL);
	b->line = rd32(dims + EMU_BUF_LINE_STRIDE);
	b->surf = rd32(dims + EMU_BUF_SURF_STRIDE);
	ret = emu_format(t, b);
	if (ret)
		return ret;
	elems = (uint64_t)b->w * b->h * b->c;
	if (!elems)
		return emu_error(t, -EINVAL, "empty buffer");
	/* A cube never has more elements than bytes: no endless loops. */
	if (elems * b->bpe > b->avail || emu_extent(b) > b->avail)
		return emu_error(t, -EINVAL, "buffer cube beyond its memory");
	return 0;
}

/* This stack's operations' parameters (emu.h), in the 2019 layout only. */
static int emu_decode_own(const struct emu_task *t, const uint8_t *o,
			  struct emu_op *op)
{
	if (!t->v2)
		return emu_error(t, -EOPNOTSUPP,
				 "this stack's operation in the layout without int8 support");
	if (op->type == EMU_OP_LAYERNORM) {
		op->eps = rdf32(o + EMU_V2_PARAM);
		if (!(op->eps > 0) || isinf(op->eps))
			return emu_error(t, -EINVAL,
					 "layer normalisation epsilon not a positive number");
	}
	if (op->type == EMU_OP_RESIZE) {
		op->coord = o[EMU_V2_PARAM];
		if (op->coord >= EMU_COORD_COUNT)
			return emu_error(t, -EINVAL,
					 "unknown resize coordinate mapping");
		op->step[0] = rdf32(o + EMU_V2_RESIZE_STEP);
		op->step[1] = rdf32(o + EMU_V2_RESIZE_STEP + 4);
		if (!(op->step[0] > 0) || isinf(op->step[0]) ||
		    !(op->step[1] > 0) || isinf(op->step[1]))
			return emu_error(t, -EINVAL,
					 "resize step not a positive number");
	}
	return 0;
}

/* The destination cube each operation needs for its source's. */
static int emu_shapes(const struct emu_task *t, const struct emu_op *op)
{
	const struct emu_buf *s = &op->src, *d = &op->dst;

	switch (op->type) {
	case EMU_OP_SOFTMAX:
		/* Reads and writes C contiguous elements: within the cube. */
		if (s->c > d->c)
			return emu_error(t, -EINVAL,
					 "softmax source wider than its destination");
		return 0;
	case EMU_OP_SWAP_CH:
		if (d->c != s->h || d->h != s->c || d->w != s->w)
			return emu_error(t, -EINVAL,
					 "swap destination not the source with channels and height exchanged");
		return 0;
	case EMU_OP_LAYERNORM:
		if (d->c != s->c || d->h != s->h || d->w != s->w)
			return emu_error(t, -EINVAL,
					 "layer normalisation destination not of the source's shape");
		return 0;
	case EMU_OP_RESIZE:
		if (d->c != s->c)
			return emu_error(t, -EINVAL,
					 "resize destination of other channels than its source");
		return 0;
	default:	/* element-wise: every source element has its place */
		if (s->w > d->w || s->h > d->h || s->c > d->c)
			return emu_error(t, -EINVAL,
					 "source cube larger than its destination");
		return 0;
	}
}

static int emu_decode_op(const struct emu_task *t, const uint8_t *o,
			 const uint8_t *bufs, struct emu_op *op)
{
	int ret = 0;

	op->type = o[EMU_OP_TYPE];
	op->in_scale = t->v2 ? rdf32(o + EMU_V2_IN_SCALE) : 1.0f;
	op->out_scale = t->v2 ? rdf32(o + EMU_V2_OUT_SCALE) : 1.0f;
	if (op->type == EMU_OP_POWER) {
		const uint8_t *p = o + (t->v2 ? EMU_V2_POWER : EMU_V1_POWER);

		op->power = rdf32(p);
		op->scale = rdf32(p + 4);
		op->shift = rdf32(p + 8);
	} else if (op->type == EMU_OP_ERF && !t->v2) {
		return emu_error(t, -EOPNOTSUPP,
				 "erf in the layout without int8 support");
	} else if (op->type >= EMU_OP_SWAP_CH && op->type <= EMU_OP_SILU) {
		ret = emu_decode_own(t, o, op);
	} else if (op->type != EMU_OP_SOFTMAX && op->type != EMU_OP_ERF) {
		return emu_error(t, -EOPNOTSUPP, "unknown operation type");
	}
	if (!ret)
		ret = emu_buffer(t, bufs, &op->src);
	if (!ret)
		ret = emu_buffer(t, bufs + EMU_BUF_SIZE, &op->dst);
	if (ret)
		return ret;
	/*
	 * An int8 softmax may write fp16 probabilities (nvdla_compile does
	 * for a network's output: int8 steps would make most of them 0).
	 */
	if (op->src.format != op->dst.format &&
	    !(op->type == EMU_OP_SOFTMAX && op->dst.fp16))
		return emu_error(t, -EOPNOTSUPP,
				 "source and destination formats differ");
	return emu_shapes(t, op);
}

static float emu_load(const struct emu_buf *b, uint64_t at, float in_scale)
{
	if (b->fp16)
		return nvdla_half_to_float(rd16(b->p + at));
	return (float)(int8_t)b->p[at] * in_scale;
}

/*
 * Float to int8: for NVIDIA's operations as its emulator's saturate()
 * (clamp, then truncate), for this stack's as the hardware (emu.h).
 */
static int8_t emu_int8(const struct emu_op *op, float y)
{
	if (op->type >= EMU_OP_OWN_FIRST)
		return (int8_t)nvdla_round_sat(y, -128, 127);
	if (isnan(y))
		return 0;
	return (int8_t)fmaxf(fminf(y, 127.0f), -128.0f);
}

/* Result @y of @op into its destination at byte @at. */
static void emu_store(const struct emu_op *op, uint64_t at, float y)
{
	const struct emu_buf *b = &op->dst;

	if (b->fp16) {
		uint16_t h = nvdla_emu_half(y);

		b->p[at] = h & 0xff;
		b->p[at + 1] = h >> 8;
	} else {
		b->p[at] = (uint8_t)emu_int8(op, y / op->out_scale);
	}
}

/* Element-wise operation @op's function of @x. */
static float emu_function(const struct emu_op *op, float x)
{
	switch (op->type) {
	case EMU_OP_ERF:
		return erff(x);
	case EMU_OP_SIGMOID:
		return 1.0f / (1.0f + expf(-x));
	case EMU_OP_TANH:
		return tanhf(x);
	case EMU_OP_SILU:
		return x / (1.0f + expf(-x));
	default:
		return powf(op->shift + op->scale * x, op->power);
	}
}

/* Power, erf and the like, element by element over the source's cube. */
static void emu_elementwise(const struct emu_op *op)
{
	uint32_t w, h, c;

	for (c = 0; c < op->src.c; c++)
		for (h = 0; h < op->src.h; h++)
			for (w = 0; w < op->src.w; w++) {
				float x = emu_load(&op->src,
						   emu_offset(&op->src, w, h, c),
						   op->in_scale);

				emu_store(op, emu_offset(&op->dst, w, h, c),
					  emu_function(op, x));
			}
}

/* An int8 input goes through fp16 first, as in the emulator. */
static float emu_softmax_in(const struct emu_op *op, uint32_t i)
{
	float x = emu_load(&op->src, (uint64_t)i * op->src.bpe, op->in_scale);

	return op->src.fp16 ? x : nvdla_half_to_float(nvdla_emu_half(x));
}

/* Over the first C contiguous elements (the emulator assumes 1x1). */
static void emu_softmax(const struct emu_op *op)
{
	float maxval = -INFINITY, sum = 0.0f, y;
	uint32_t i;

	for (i = 0; i < op->src.c; i++)
		if (emu_softmax_in(op, i) > maxval)
			maxval = emu_softmax_in(op, i);
	for (i = 0; i < op->src.c; i++)
		sum += expf(emu_softmax_in(op, i) - maxval);
	for (i = 0; i < op->src.c; i++) {
		y = expf(emu_softmax_in(op, i) - maxval) / sum;
		if (!op->dst.fp16)
			y = nvdla_half_to_float(nvdla_emu_half(y));
		emu_store(op, (uint64_t)i * op->dst.bpe, y);
	}
}

static float emu_at(const struct emu_op *op, uint32_t w, uint32_t h,
		    uint32_t c)
{
	return emu_load(&op->src, emu_offset(&op->src, w, h, c), op->in_scale);
}

static void emu_put(const struct emu_op *op, uint32_t w, uint32_t h,
		    uint32_t c, float y)
{
	emu_store(op, emu_offset(&op->dst, w, h, c), y);
}

/* Element (w, h, c) of the source to (w, c, h) of the destination. */
static void emu_swap_ch(const struct emu_op *op)
{
	uint32_t w, h, c;

	for (c = 0; c < op->src.c; c++)
		for (h = 0; h < op->src.h; h++)
			for (w = 0; w < op->src.w; w++)
				emu_put(op, w, c, h, emu_at(op, w, h, c));
}

/* (x - mean) / sqrt(var + eps) over the channels of each position. */
static void emu_layernorm(const struct emu_op *op)
{
	uint32_t w, h, c, n = op->src.c;
	double sum, sq, d;
	float mean, inv;

	for (h = 0; h < op->src.h; h++)
		for (w = 0; w < op->src.w; w++) {
			for (sum = 0, c = 0; c < n; c++)
				sum += emu_at(op, w, h, c);
			mean = (float)(sum / n);
			for (sq = 0, c = 0; c < n; c++) {
				d = emu_at(op, w, h, c) - mean;
				sq += d * d;
			}
			inv = 1.0f / sqrtf((float)(sq / n) + op->eps);
			for (c = 0; c < n; c++)
				emu_put(op, w, h, c,
					(emu_at(op, w, h, c) - mean) * inv);
		}
}

/*
 * Where output pixel @o of @m samples the input of @n pixels by step @s,
 * clamped to it: the first of the two pixels in *@i0, the second's
 * weight in *@f.
 */
static void emu_sample(uint8_t coord, uint32_t o, uint32_t n, uint32_t m,
		       float s, uint32_t *i0, float *f)
{
	float x;

	switch (coord) {
	case EMU_COORD_ALIGN_CORNERS:
		x = m > 1 ? (float)o * (n - 1) / (m - 1) : 0;
		break;
	case EMU_COORD_ASYMMETRIC:
		x = o * s;
		break;
	case EMU_COORD_PYTORCH_HALF_PIXEL:
		x = m > 1 ? (o + 0.5f) * s - 0.5f : 0;
		break;
	default:
		x = (o + 0.5f) * s - 0.5f;
		break;
	}
	x = fminf(fmaxf(x, 0), n - 1);
	*i0 = (uint32_t)x;
	*f = x - *i0;
}

/* Bilinear: each output the weighted mean of its four input pixels. */
static void emu_resize(const struct emu_op *op)
{
	const struct emu_buf *s = &op->src, *d = &op->dst;
	uint32_t w, h, c, x0, y0, x1, y1;
	float fx, fy, top, bottom;

	for (h = 0; h < d->h; h++) {
		emu_sample(op->coord, h, s->h, d->h, op->step[0], &y0, &fy);
		y1 = y0 + 1 < s->h ? y0 + 1 : y0;
		for (w = 0; w < d->w; w++) {
			emu_sample(op->coord, w, s->w, d->w, op->step[1], &x0,
				   &fx);
			x1 = x0 + 1 < s->w ? x0 + 1 : x0;
			for (c = 0; c < d->c; c++) {
				top = emu_at(op, x0, y0, c) * (1 - fx) +
				      emu_at(op, x1, y0, c) * fx;
				bottom = emu_at(op, x0, y1, c) * (1 - fx) +
					 emu_at(op, x1, y1, c) * fx;
				emu_put(op, w, h, c, top * (1 - fy) + bottom * fy);
			}
		}
	}
}

/* Decode every operation; on success *@ops holds @n of them. */
static int emu_decode(struct emu_task *t, struct emu_op **ops, uint16_t *n)
{
	struct emu_addr nd, ol, bl;
	uint64_t op_size;
	uint16_t i;
	int ret;

	ret = emu_address(t, 0, &nd);
	if (ret)
		return ret;
	if (nd.avail < EMU_NET_SIZE)
		return emu_error(t, -EINVAL, "network descriptor truncated");
	*n = rd16(nd.p + EMU_NET_NUM_OPS);
	ret = emu_address(t, (int16_t)rd16(nd.p + EMU_NET_OP_INDEX), &ol);
	if (!ret)
		ret = emu_address(t, (int16_t)rd16(nd.p + EMU_NET_BUF_INDEX),
				  &bl);
	if (ret)
		return ret;
	t->v2 = ol.declared >= (uint64_t)*n * EMU_OP_SIZE_V2;
	op_size = t->v2 ? EMU_OP_SIZE_V2 : EMU_OP_SIZE_V1;
	if (ol.avail < *n * op_size || ol.declared < *n * op_size ||
	    bl.avail < (uint64_t)*n * EMU_BUF_PAIR_SIZE)
		return emu_error(t, -EINVAL,
				 "operation or buffer list shorter than its operations");
	*ops = calloc(*n ? *n : 1, sizeof(**ops));
	if (!*ops)
		return emu_error(t, -ENOMEM, "out of memory");
	for (i = 0; i < *n && !ret; i++)
		ret = emu_decode_op(t, ol.p + i * op_size,
				    bl.p + (uint64_t)i * EMU_BUF_PAIR_SIZE,
				    &(*ops)[i]);
	if (ret)
		free(*ops);
	return ret;
}

int nvdla_emu_run(struct nvdla_network *net, const struct nvdla_run *run,
		  const struct nvdla_lbl_task *lt)
{
	struct emu_task t = { .net = net, .run = run, .lt = lt };
	struct emu_op *ops = NULL;
	uint16_t n = 0, i;
	int ret;

	ret = emu_decode(&t, &ops, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		if (ops[i].type == EMU_OP_SOFTMAX)
			emu_softmax(&ops[i]);
		else if (ops[i].type == EMU_OP_SWAP_CH)
			emu_swap_ch(&ops[i]);
		else if (ops[i].type == EMU_OP_LAYERNORM)
			emu_layernorm(&ops[i]);
		else if (ops[i].type == EMU_OP_RESIZE)
			emu_resize(&ops[i]);
		else
			emu_elementwise(&ops[i]);
	}
	free(ops);
	return 0;
}

int nvdla_emu_memories(struct nvdla_network *net,
		       const struct nvdla_lbl_task *lt, bool *mem)
{
	struct emu_task t = { .net = net, .lt = lt, .data = mem };
	struct emu_op *ops = NULL;
	uint16_t n = 0;
	int ret;

	ret = emu_decode(&t, &ops, &n);
	if (!ret)
		free(ops);
	return ret;
}

int nvdla_emu_check(struct nvdla_network *net)
{
	uint32_t n;
	int ret = 0;

	for (n = 0; n < net->num_tasks && !ret; n++)
		if (net->tasks[n].src->interface == NVDLA_LBL_IF_EMU1)
			ret = nvdla_emu_memories(net, net->tasks[n].src, NULL);
	return ret;
}
