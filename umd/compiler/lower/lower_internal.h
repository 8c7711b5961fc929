/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The back end's shared state (lower/ and emit/ only), one part a
 * concern: the target (target.h), the lowered IR (lir.h: the hardware
 * operations and what each tensor became), the memory (mem.h: constants,
 * pool), the dependency edges of the task being built, and the tasks.
 */
#ifndef __NVDLA_COMPILER_LOWER_INTERNAL_H__
#define __NVDLA_COMPILER_LOWER_INTERNAL_H__

#include <stdbool.h>
#include <stdint.h>

#include <nvdla/dla_interface.h>

#include "builder.h"
#include "lir.h"
#include "lower.h"
#include "mem.h"
#include "target.h"

#define NVC_MAX_LUTS 64	/* per task; equal tables are shared */

/*
 * What an operation of the task being built does, in the order they were
 * made: for the dependency ordering pass (lower_order.c).
 */
enum nvc_access_kind {
	NVC_ACC_OP,	/* operation @op is made */
	NVC_ACC_EDGE,	/* @op waits for operation @other */
	NVC_ACC_READ,	/* @op reads @place */
	NVC_ACC_WRITE,	/* @op writes @place */
	NVC_ACC_WRITER,	/* @op is the last writer of tensor @other at @place */
	NVC_ACC_FUSE,	/* @op is the fused tail of operation @other */
};

struct nvc_access {
	enum nvc_access_kind kind;
	int op, other;
	struct nvc_place place;
};

struct nvc_deps {
	struct nvc_access *acc;
	int n, cap;
};

struct nvc_lower {
	const struct nvc_graph *g;
	const struct nvc_options *o;
	struct nvc_target t;
	bool image;		/* graph inputs are pitch-linear pixels */
	struct nvc_lir ir;
	/* the operation being lowered and its precision */
	struct nvc_lir_op *op;
	uint8_t prec;		/* DLA_PRECISION_* */
	uint32_t bpe;		/* bytes per element */
	uint32_t epa;		/* elements per atom */
	struct nvc_consts consts;	/* memory */
	struct nvc_act_pool pool;
	struct nvc_deps deps;	/* what the task's operations access */
	bool oom;		/* a read or a block could not be recorded */
	/* the DLA task being built */
	struct nvdla_build_op *ops;
	int nops, opcap;
	struct dla_lut_param luts[NVC_MAX_LUTS];
	int nluts;
	struct nvdla_builder b;
	int num_tasks;
	/* finished tasks, emitted once the data memories exist */
	struct nvc_task *tasks;
	int node;		/* the node being lowered */
	char *err;
	size_t errlen;
};

struct nvc_task {
	bool emu;
	struct nvdla_build_op *ops;
	int nops;
	struct dla_lut_param luts[NVC_MAX_LUTS];
	int nluts;
	uint8_t emu_net[6], emu_ops[24], emu_bufs[512];
};

/* Errors: a message naming the node, its operator and why. */
int nvc_fail(struct nvc_lower *L, const struct nvc_node *n, int err,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Image input (--input-format image): 4 components a pixel, A8B8G8R8 in
 * int8, A16B16G16R16_F in fp16, lines on 32 bytes.
 */
#define NVC_IMAGE_COMPS 4
#define NVC_IMAGE_LINE_ALIGN 32
uint8_t nvc_image_format(uint8_t prec);
bool nvc_is_input(const struct nvc_lower *L, int tensor);

/* lower_views.c: the concatenations written in place (ir.ts[].root). */
void nvc_views(struct nvc_lower *L);
/*
 * Whether Split output @tensor is a view of the Split's input: it starts
 * on an atom and is no graph output (else a copy of its channels).
 */
bool nvc_split_view(const struct nvc_lower *L, int tensor);
/* Whether it is a copy: no view, and read or a graph output. */
bool nvc_split_copied(const struct nvc_lower *L, int tensor);

/* lower.c: the state of operation @op's precision, for a pass over it. */
void nvc_op_begin(struct nvc_lower *L, struct nvc_lir_op *op);

/*
 * lower_split.c, the split: each operation's hardware convolutions and
 * temporaries (ir.ops[].convs, .temp).
 */
int nvc_split(struct nvc_lower *L);
/*
 * The weight banks of the last hardware convolution the split made, up
 * to the operation being split: the least the next one takes.
 */
uint32_t nvc_wbank_floor(const struct nvc_lower *L);

/*
 * lower_place.c, memory placement: each tensor's place, given back to
 * the pool after its last reader (after nvc_liveness).
 */
int nvc_place(struct nvc_lower *L);

/* lower_mem.c: cubes, constants, the pool and liveness. */
const struct nvc_tensor *nvc_t(const struct nvc_lower *L, int tensor);
int nvc_resolve(const struct nvc_lower *L, int tensor);
/*
 * The tensor an operation in the precision being lowered reads for
 * @tensor: its twin where it has one in that precision (mixed
 * precision), else the tensor whose bytes it shares.
 */
int nvc_read(const struct nvc_lower *L, int tensor);
/* Atoms of @c channels in the precision of the operation being lowered. */
uint32_t nvc_surfaces(const struct nvc_lower *L, int c);
struct dla_data_cube nvc_cube(const struct nvc_lower *L, int tensor);
struct dla_data_cube nvc_cube_at(const struct nvc_lower *L,
				 const struct nvc_place *p, int w, int h, int c);
uint32_t nvc_const_add(struct nvc_lower *L, const void *data, uint64_t size,
		       uint32_t align);
struct dla_data_cube nvc_const_cube(uint32_t offset, uint32_t size,
				    int w, int h, int c);
/* Liveness: which tensor owns each one's bytes, when each is last read. */
int nvc_liveness(struct nvc_lower *L);
/* Before node @node: give back the pool blocks no later node reads. */
int nvc_release(struct nvc_lower *L, int node);
/* A pool block of @size bytes: reused if one is free, else new. */
uint32_t nvc_pool_alloc(struct nvc_lower *L, uint64_t size);

/*
 * lower_deps.c: operations and what they access (their dependency edges
 * come from it when the task closes), the tasks.
 */
int nvc_op_new(struct nvc_lower *L, uint8_t type);
/* @to waits for @from. */
void nvc_depend(struct nvc_lower *L, int from, int to);
/* @op reads @tensor (@p, the bytes of cube @c). */
void nvc_depend_tensor(struct nvc_lower *L, int tensor, int op);
void nvc_depend_at(struct nvc_lower *L, const struct nvc_place *p, int op);
void nvc_depend_place(struct nvc_lower *L, const struct dla_data_cube *c,
		      int op);
/* @op writes @tensor (or @place): after the reads of what was there. */
void nvc_written(struct nvc_lower *L, int tensor, int op);
void nvc_written_place(struct nvc_lower *L, const struct nvc_place *place,
		       int op);
/* @op is the last to write @tensor (whose readers wait for it). */
void nvc_writer(struct nvc_lower *L, int tensor, int op);
void nvc_fuse(struct nvc_lower *L, int head, int tail);
/* End the task being built: its operations ordered, then kept. */
int nvc_task_close(struct nvc_lower *L);
int nvc_task_push(struct nvc_lower *L, const struct nvc_task *t);
/* lower_order.c: the dependency ordering pass over the task being built. */
int nvc_order(struct nvc_lower *L);
/*
 * lower_banks.c: no two convolutions in a row of the task being built
 * with the same data banks where a bank can be added.
 */
void nvc_conv_banks_differ(struct nvc_lower *L);

/* emit/emit.c: the loadable of the finished tasks, into *@buf. */
int nvc_emit(struct nvc_lower *L, void **buf, size_t *len);

/* lower_chunk.c: the constants and the pool cut into memories. */
int nvc_chunk_fit(struct nvc_chunks *c, uint64_t off, uint64_t size);
bool nvc_chunk_crosses(const struct nvc_chunks *c, uint64_t off,
		       uint64_t size);
int nvc_chunk_index(const struct nvc_chunks *c, uint64_t off);
uint64_t nvc_chunk_size(const struct nvc_chunks *c, int i, uint64_t total);
int nvc_chunk_slot(const struct nvc_lower *L, int slot, uint32_t *offset);

/*
 * lower_quant.c, the quantisation pass (after the split): each tensor's
 * precision and int8 scale, each operation's weight scales
 * (ir.ops[].wscale); and fixed-point factors.
 */
int nvc_scales(struct nvc_lower *L);
uint16_t nvc_half(float f);
/* fp32 bit pattern (the Y stage's register operands in fp16 mode). */
int32_t nvc_f32_bits(float f);
void nvc_fixed(double v, int bits, int16_t *m, uint8_t *shift);
int nvc_shift_for(double maxabs, int bits);

/* lower_cvt.c: conversion @op (NVC_LIR_CONVERT) as its SDP passes. */
int nvc_lower_convert(struct nvc_lower *L, const struct nvc_lir_op *op);
/* lower_rubik.c: contraction @op (NVC_LIR_RUBIK), a RUBIK operation. */
int nvc_lower_rubik(struct nvc_lower *L, const struct nvc_lir_op *op);

/* lower_sdp.c */
int nvc_lower_sdp_node(struct nvc_lower *L, int node);
int nvc_sdp_copy(struct nvc_lower *L, const struct nvc_node *n, int from,
		 const struct nvc_place *dst, float s_dst);
/*
 * Copy cube @src, a part of tensor @from, into cube @dst (of the same
 * size) at scale @s_dst: the operation's index, or a negative errno.
 */
int nvc_sdp_copy_cube(struct nvc_lower *L, const struct nvc_node *n,
		      int from, const struct dla_data_cube *src,
		      const struct dla_data_cube *dst, float s_dst);
/* lower_pad.c: Pad node @node as SDP copies out of its input. */
int nvc_lower_pad(struct nvc_lower *L, int node);
/*
 * Cube @src (int8 at scale @s_src) times @v into tensor @out: the SDP
 * operation's index, or a negative errno (its dependencies are the
 * caller's).
 */
int nvc_sdp_scale(struct nvc_lower *L, const struct nvc_node *n,
		  const struct dla_data_cube *src, float s_src, int out,
		  double v);
void nvc_sdp_init(struct nvc_lower *L, struct nvdla_build_op *op);
int nvc_sdp_x1(struct nvc_lower *L, struct nvdla_build_op *op,
	       const int16_t *alu, const int16_t *mul, int c, uint8_t ashift,
	       uint8_t mshift);
/*
 * A per-channel PReLU's slopes (one int16 each) in @op cut to channels
 * [@c0, @c0 + @n): for an operation writing only those of its layer.
 */
void nvc_sdp_prelu_channels(struct nvdla_build_op *op, int c0, int n);
/* An SDP operand read from memory: its cube and (int8) scale. */
struct nvc_operand {
	struct dla_data_cube cube;
	float scale;
};

struct nvc_operand nvc_operand(const struct nvc_lower *L, int tensor);
int nvc_sdp_tail(struct nvc_lower *L, const struct nvc_node *n,
		 struct nvdla_build_op *op, const struct nvc_operand *elt_other,
		 enum nvc_eltwise elt, const struct nvc_activation *act,
		 float s_out, float *s_c);

/*
 * lower_emu.c: whether @tensor is the probabilities of an int8 softmax
 * that only graph outputs are: the CPU task writes them in fp16 (the
 * feature layout of NVC_FP16_ATOM bytes), where int8 steps of 1/127
 * would make most of them 0.
 */
#define NVC_FP16_ATOM 32
bool nvc_softmax_fp16(const struct nvc_lower *L, int tensor);

/*
 * lower_conv.c (descriptors), lower_conv_split.c (the split),
 * lower_conv_weights.c (weights, bias), lower_deconv.c, lower_pdp.c,
 * lower_cdp.c, lower_emu.c
 */
/*
 * A hardware convolution before the split cut it: its dense kernels
 * (k x c x r x s), the tensors it reads and writes, its output's size.
 */
struct nvc_conv_shape {
	int k, c, r, s;		/* dense kernels */
	bool image;		/* over pixels: kernel rows pre-extended */
	int in, out;		/* input (resolved) and output tensors */
	int wo, ho;
	float *w, *bias;	/* k x c x r x s, k */
	bool part;		/* kernels k0 to k0 + k of a larger layer */
	int k0;
	bool slice;		/* reads input channels c0 to c0 + c only */
	int c0;
	bool wino;		/* in Winograd mode (lower_wino.c) */
	int copy;		/* a copy's channels (nvc_lir_conv) */
};
/*
 * The split of convolution operation @op (its SDP computing its fused
 * element-wise node too): how it is cut, its hardware convolutions, its
 * temporaries; Winograd mode where the options ask and it can.
 */
int nvc_conv_split(struct nvc_lower *L, struct nvc_lir_op *op);
/* Convolution operation @op in descriptors, as the split cut it. */
int nvc_lower_conv(struct nvc_lower *L, const struct nvc_lir_op *op);
/*
 * The split of a copy of channels of @in into @k channels by a 1x1
 * convolution of node @n: copy @copy of the operation being split.
 */
int nvc_copy_split(struct nvc_lower *L, const struct nvc_node *n, int in,
		   int k, int copy);
/*
 * Copy @copy of the operation being lowered: channels of @in moved by a
 * 1x1 convolution into the @k channels of @dst, channel j taking input
 * channel @map[j] (zero where negative) with weight scale @ws[j], its
 * SDP adding @prev (written by operation @prev_op; NULL: none) at scale
 * @s_out: concatenations and splits off the atoms. The SDP's index, or a
 * negative errno.
 */
int nvc_conv_select(struct nvc_lower *L, const struct nvc_node *n, int in,
		    const int *map, int k, int copy, const float *ws,
		    const struct nvc_operand *prev, int prev_op,
		    const struct dla_data_cube *dst, float s_out);
/*
 * The convolution of @n (its SDP computing @last, itself or the fused
 * element-wise node) as the hardware sees it before the split, checked
 * (lower_conv.c).
 */
int nvc_conv_prepare(struct nvc_lower *L, const struct nvc_node *n,
		     const struct nvc_node *last, struct nvc_conv_shape *cs);
/* Entries of the convolution buffer one input line of @cs takes. */
uint32_t nvc_conv_eps(const struct nvc_lower *L, const struct nvc_node *n,
		      const struct nvc_conv_shape *cs);
/* Whether @cs runs with stride 1 and no padding (a 1x1 or FC half). */
bool nvc_conv_plain(const struct nvc_lower *L, const struct nvc_node *n,
		    const struct nvc_conv_shape *cs);
/*
 * The 1x1 convolution of node @n that moves channels of @in into @k
 * channels: node @one, shape @cs (the selecting weights are the
 * caller's).
 */
void nvc_conv_select_shape(struct nvc_lower *L, const struct nvc_node *n,
			   int in, int k, struct nvc_node *one,
			   struct nvc_conv_shape *cs);
/*
 * lower_conv_weights.c: @n's dense weights and bias as @cs cuts them
 * (kernels k0 on, input channels c0 on), into @cs->w and @cs->bias.
 */
int nvc_conv_dense(struct nvc_lower *L, const struct nvc_node *n,
		   struct nvc_conv_shape *cs);
/* The kernel's shape after the pre-extension for pixel input. */
void nvc_conv_image_shape(struct nvc_conv_shape *cs);
/* @cs's weights pre-extended for pixel input. */
int nvc_conv_image_extend(struct nvc_conv_shape *cs);
/* Bytes of @cs's weights: whole convolution-buffer entries. */
uint32_t nvc_conv_wsize(const struct nvc_lower *L,
			const struct nvc_conv_shape *cs);
/*
 * @cs's weights in the direct layout at the processing precision (int8:
 * kernel k at scale @ws[k]), into the constants at *@off.
 */
int nvc_conv_weights(struct nvc_lower *L, const struct nvc_conv_shape *cs,
		     const float *ws, uint32_t *off, uint32_t *size);
/* X1 of the convolution's SDP @sdp: bias, and (int8) into scale @s_c. */
int nvc_conv_x1(struct nvc_lower *L, int sdp,
		const struct nvc_conv_shape *cs, const float *ws, float s_c);
/*
 * Entries of the convolution buffer a line @w pixels wide of @channels
 * channels of a feature cube takes.
 */
uint32_t nvc_feature_eps(const struct nvc_lower *L, int channels,
			 uint32_t w);
/*
 * lower_psum.c: an int8 convolution's partial sums over chunks of input
 * channels (fp16: as they are). The precision of its temporaries for an
 * operation in @prec of shape @cs; the partial sums' scale in temporary
 * @temp for output scale @s_out; @temp's cube as a chunk's SDP reads it
 * (and, made so by nvc_psum_ops, writes it); the SDP operations from
 * @from on made to write @temp (@writes) and to read it in X2 (@reads).
 */
uint8_t nvc_psum_prec(const struct nvc_lower *L, uint8_t prec,
		      const struct nvc_conv_shape *cs);
float nvc_psum_scale(const struct nvc_lower *L, int temp, float s_out);
struct dla_data_cube nvc_psum_cube(const struct nvc_lower *L, int temp);
void nvc_psum_ops(struct nvc_lower *L, int temp, int from, bool writes,
		  bool reads);
/*
 * lower_deconv.c: a transposed convolution whose kernel is its stride,
 * a 1x1 convolution into each output phase. Its dense weights and bias
 * (@cs->k kernels: the phases' in turn, each padded to whole atoms).
 */
int nvc_deconv_dense(struct nvc_lower *L, const struct nvc_node *n,
		     struct nvc_conv_shape *cs);
/* Without: the split, a phase and input row a time. */
int nvc_deconv_split(struct nvc_lower *L, const struct nvc_node *n,
		     const struct nvc_conv_shape *mid, int out);
/*
 * Without: the operations, each phase's 1x1 convolution once per input
 * row (once over the column of an input 1 wide; @pc the split's), its
 * SDP (@last's tail, kernels at scales @wscale) writing its pixels in
 * place in @out.
 */
int nvc_deconv_rows(struct nvc_lower *L, const struct nvc_node *n,
		    const struct nvc_node *last,
		    const struct nvc_conv_shape *mid,
		    const struct nvc_lir_conv *pc, const float *wscale,
		    int out);
/* Pooling @op's temporaries: the passes of a chained global pooling. */
int nvc_pool_split(struct nvc_lower *L, struct nvc_lir_op *op);
int nvc_lower_pool(struct nvc_lower *L, const struct nvc_lir_op *op);
int nvc_lower_lrn(struct nvc_lower *L, int node);
/* Softmax, and with --cpu-fallback an NVC_CPU function: a CPU task. */
int nvc_lower_cpu(struct nvc_lower *L, int node);
/* A CPU task's buffers moved to the memories holding them (emission). */
void nvc_emu_fix(const struct nvc_lower *L, struct nvc_task *t);

/*
 * lower_wino.c: a 3x3 convolution of @k kernels over a @w x @h x @c input
 * into @wo x @ho in Winograd mode.
 */
struct nvc_wino_layer {
	int k, c, w, h, wo, ho;
};

/* Whether the target, the node and the convolution buffer allow it. */
bool nvc_wino_able(const struct nvc_lower *L, const struct nvc_node *n,
		   const struct nvc_wino_layer *w);
/* The weights @wt (k x c x 3 x 3) transformed, into the constants. */
int nvc_wino_weights(struct nvc_lower *L, const struct nvc_wino_layer *w,
		     const float *wt, uint32_t *off, uint32_t *size);
/*
 * Its banks of the convolution buffer (the split's; weight banks as
 * nvc_conv_wbank() gives them).
 */
void nvc_wino_banks(struct nvc_lower *L, const struct nvc_wino_layer *w,
		    uint32_t *dbank, uint32_t *wbank);
/*
 * Direct convolution @conv (its banks given) and its SDP @sdp made
 * Winograd.
 */
void nvc_wino_op(struct nvc_lower *L, int conv, int sdp,
		 const struct nvc_node *n, const struct nvc_wino_layer *w,
		 uint32_t woff, uint32_t wsize);
/* Convolution @cs as a Winograd layer (lower_conv.c). */
struct nvc_wino_layer nvc_conv_wino_layer(const struct nvc_lower *L,
					  const struct nvc_conv_shape *cs);
/* Banks of @bytes in the convolution buffer (lower_conv_split.c). */
uint32_t nvc_banks(const struct nvc_lower *L, uint64_t bytes);
/*
 * Weight banks for a convolution of @wsize bytes of weights, @group bytes
 * a group of kernels, after @dbank data banks (lower_conv_split.c): as the
 * node's split says, never fewer than the last convolution's.
 */
uint32_t nvc_conv_wbank(struct nvc_lower *L, uint32_t dbank, uint32_t wsize,
			uint64_t group);

/* lower_lut.c */
int nvc_lut_dedup(struct nvc_lower *L);
struct dla_lut_param *nvc_lut_new(struct nvc_lower *L,
				  const struct nvc_node *n, uint64_t start,
				  uint64_t end, int le_sel, int lo_sel);
int nvc_lut_add(struct nvc_lower *L, const struct nvc_node *n,
		enum nvc_act act, float in_scale, float out_scale);

#endif /* __NVDLA_COMPILER_LOWER_INTERNAL_H__ */
