// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/* nvdla_randlayer: the random source and cubes of random data. */
#include <stdlib.h>
#include <string.h>

#include "randlayer.h"

const char *const precision_names[] = { "int8", "int16", "fp16" };

static uint64_t rng;

void rnd_seed(uint64_t seed)
{
	rng = seed * 0x9e3779b97f4a7c15ull + 1;
	rnd(1);
}

uint32_t rnd(uint32_t n)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return n ? (uint32_t)(rng >> 33) % n : 0;
}

int32_t rnd_range(int32_t lo, int32_t hi)
{
	return lo + (int32_t)rnd(hi - lo + 1);
}

/* int8, int16 or fp16 where the configuration has them; one draw each. */
uint32_t rnd_precision(void)
{
	uint32_t p = rnd(3);

	return target->int8_only ? DLA_PRECISION_INT8 : p;
}

uint32_t bpe_of(uint32_t precision)
{
	return precision == DLA_PRECISION_INT8 ? 1 : 2;
}

uint32_t div_up(uint32_t a, uint32_t b)
{
	return (a + b - 1) / b;
}

/* The fp16 bits of @f (round to nearest even; |f| well inside the range). */
uint16_t fp16_of(float f)
{
	uint32_t b, sign, exp, man;

	memcpy(&b, &f, 4);
	sign = b >> 16 & 0x8000;
	if (f == 0.0f)
		return sign;
	exp = (b >> 23 & 0xff) - 127 + 15;
	man = b & 0x7fffff;
	if ((int32_t)exp <= 0)
		return sign;	/* tiny values flushed; never generated */
	man = (man + 0xfff + (man >> 13 & 1)) >> 13;
	return sign | ((exp << 10) + man);
}

/* A value of @precision fit for a register operand. */
int32_t rnd_operand(uint32_t precision, uint32_t bits)
{
	if (precision == DLA_PRECISION_FP16)
		return fp16_of((float)rnd_range(-2048, 2048) / 512.0f);
	return rnd_range(-(1 << (bits - 1)), (1 << (bits - 1)) - 1);
}

/* An element of @precision: int8/int16 in full range, fp16 in [-4, 4]. */
void rnd_element(uint8_t *p, uint32_t precision)
{
	uint16_t h;

	switch (precision) {
	case DLA_PRECISION_INT8:
		p[0] = rnd(256);
		break;
	case DLA_PRECISION_INT16:
		h = rnd(65536);
		memcpy(p, &h, 2);
		break;
	default:
		h = fp16_of((float)rnd_range(-4096, 4096) / 1024.0f);
		memcpy(p, &h, 2);
	}
}

struct cube cube_of(uint32_t w, uint32_t h, uint32_t c, uint32_t bpe)
{
	struct cube q = { w, h, c, bpe, w * target->atom,
			  h * w * target->atom, 0 };

	q.size = div_up(c * bpe, target->atom) * q.surf;
	return q;
}

struct dla_data_cube dla_cube(const struct cube *q, int16_t address)
{
	return (struct dla_data_cube){
		.type = DLA_MEM_MC, .address = address, .size = q->size,
		.width = q->w, .height = q->h, .channel = q->c,
		.line_stride = q->line, .surf_stride = q->surf,
	};
}

/*
 * Random elements of @precision, @q->bpe / @per bytes each, for the @q->c
 * channels of a cube of @lanes channels an atom; the padding lanes zero,
 * as NVIDIA's compiler leaves them (the model reads padding lanes as 0;
 * the hardware computes on what memory holds there: docs/recording.md).
 */
uint8_t *rnd_lanes(const struct cube *q, uint32_t precision, uint32_t lanes,
		   uint32_t per)
{
	uint8_t *p = calloc(1, q->size);
	uint32_t ebytes = q->bpe / per, i;

	for (i = 0; p && i + ebytes <= q->size; i += ebytes) {
		uint32_t lane = i % q->line % (lanes * q->bpe) / q->bpe;
		uint32_t surface = i / q->surf;

		if (surface * lanes + lane < q->c)
			rnd_element(p + i, precision);
	}
	return p;
}

uint8_t *rnd_cube(const struct cube *q, uint32_t precision)
{
	return rnd_lanes(q, precision, target->atom / q->bpe, 1);
}

/* The address index of data buffer @i: after the descriptors (and LUTs). */
int16_t data_index(const struct layer *l, uint32_t i)
{
	return (l->has_lut ? 5 : 4) + i;
}

void add_data(struct layer *l, uint8_t *data, uint32_t size)
{
	l->data[l->num_data] = data;
	l->size[l->num_data] = size;
	l->num_data++;
}
