/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_randlayer's shared parts: the configuration the layers are drawn
 * for, the random source, cubes of random data, and the layer being built.
 * Each kind of layer is drawn in the file named after it.
 */
#ifndef __NVDLA_RANDLAYER_H__
#define __NVDLA_RANDLAYER_H__

#include <stdbool.h>
#include <stdint.h>

#include <nvdla/dla_interface.h>
#include <nvdla/pixel_formats.h>

#include "builder.h"

extern const char *const precision_names[];

/*
 * What a configuration offers the layers (its hardware specification,
 * sim/config.c): atom and convolution buffer geometry, the precisions,
 * whether the SDP has its Y stage (element-wise operands and the LUT)
 * and the convolution Winograd mode.
 */
struct target {
	const char *name;
	uint32_t atom;			/* bytes */
	uint32_t atomic_c;		/* elements the MAC takes a pass */
	uint32_t cbuf_banks, bank_entries, bank_bytes;
	uint32_t max_batch;		/* of a convolution */
	bool int8_only, sdp_y, winograd;
};

extern const struct target *target;

void rnd_seed(uint64_t seed);
uint32_t rnd(uint32_t n);
int32_t rnd_range(int32_t lo, int32_t hi);
uint32_t rnd_precision(void);
uint32_t bpe_of(uint32_t precision);
uint32_t div_up(uint32_t a, uint32_t b);
uint16_t fp16_of(float f);
int32_t rnd_operand(uint32_t precision, uint32_t bits);
void rnd_element(uint8_t *p, uint32_t precision);

struct cube {
	uint32_t w, h, c, bpe, line, surf, size;
};

struct cube cube_of(uint32_t w, uint32_t h, uint32_t c, uint32_t bpe);
struct dla_data_cube dla_cube(const struct cube *q, int16_t address);
uint8_t *rnd_lanes(const struct cube *q, uint32_t precision, uint32_t lanes,
		   uint32_t per);
uint8_t *rnd_cube(const struct cube *q, uint32_t precision);
/*
 * @n bytes of random weights of @prec (int8: small, to keep sums in range)
 * in a zeroed buffer of @size.
 */
uint8_t *rnd_weights(uint32_t n, uint32_t size, uint32_t prec);

/*
 * One layer: its operations (a convolution streams into its SDP), LUT,
 * input, weights or operand buffers, output.
 */
struct layer {
	struct nvdla_build_op ops[2];
	uint32_t num_ops;
	struct dla_lut_param lut;
	bool has_lut;
	struct cube in, out;
	uint32_t out_precision;
	uint32_t batches;	/* of a convolution; 0 for one */
	uint8_t *data[3];	/* input, then weights or operand buffers */
	uint32_t size[3];
	uint32_t num_data;
	char desc[320];
};

int16_t data_index(const struct layer *l, uint32_t i);
void add_data(struct layer *l, uint8_t *data, uint32_t size);
void rnd_lut(struct dla_lut_param *lut, uint32_t precision, bool sdp);

void sdp_layer(struct layer *l);
void sdp_lut_layer(struct layer *l);
void pdp_layer(struct layer *l);
void cdp_layer(struct layer *l);
bool conv_layer(struct layer *l);
bool winograd_layer(struct layer *l);
bool batch_layer(struct layer *l);
bool image_layer(struct layer *l);

/*
 * The precision an SDP fed @prec (@flying: by a convolution) writes:
 * @prec, or half the time where the configuration has int16, one the
 * hardware converts it to (nvdla/sdp_precision.h).
 */
uint32_t sdp_rnd_dst(uint32_t prec, bool flying);
/*
 * A @w x @h x @c cube of @prec as far as an SDP processing in @proc
 * reads or writes it: whole groups of the processing's lanes.
 */
struct cube sdp_cube(uint32_t w, uint32_t h, uint32_t c, uint32_t prec,
		     uint32_t proc);

/* The SDP a convolution streams into: it converts to @precision. */
void conv_sdp(struct layer *l, struct nvdla_build_op *conv,
	      struct nvdla_build_op *sdp, uint32_t precision);

#endif /* __NVDLA_RANDLAYER_H__ */
