/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The compiler's front end: ONNX models into the graph of ir.h, the
 * passes that simplify it for the back end, a float32 executor of the
 * graph (the reference for --exec and the engine of calibration) and the
 * calibration of activation ranges for int8.
 *
 * Every function returns 0 or a negative errno with a message in @err
 * (@errlen bytes) naming the node, its operator and why.
 */
#ifndef __NVDLA_COMPILER_COMPILER_H__
#define __NVDLA_COMPILER_COMPILER_H__

#include <stddef.h>
#include <stdio.h>

#include "ir.h"
#include "message.h"

/* Bounds on what a model may ask for, whatever its file says. */
#define NVC_MAX_NODES		65536
#define NVC_MAX_DIM		(1 << 24)
#define NVC_MAX_ELEMENTS	(1L << 28)	/* per tensor */
#define NVC_MAX_MODEL_BYTES	(1L << 31)

/* Format a message into @err; returns @code (the runtime's formatter). */
#define nvc_error nvdla_message

/* Parse ONNX model bytes into @g (free it with nvc_graph_free). */
int nvc_onnx_load(const void *buf, size_t len, struct nvc_graph *g,
		  char *err, size_t errlen);
/* The same from a file; messages start with its path. */
int nvc_onnx_load_file(const char *path, struct nvc_graph *g, char *err,
		       size_t errlen);

struct dla_hw_config;

/*
 * Fold affine chains and affines into convolutions, fuse activations into
 * their producer (as far as target @hw's SDP can compute them together;
 * NULL: a target with every stage), let consumers of reshapes read the
 * original tensor where that is the same computation, and drop what
 * nothing uses.
 */
int nvc_passes(struct nvc_graph *g, const struct dla_hw_config *hw,
	       char *err, size_t errlen);

/*
 * Convolutions padded beyond the hardware (NVC_CONV_PAD_MAX) lose the
 * kernel rows and columns at their edges that read only padding, and
 * that padding (pass_taps.c); nvc_passes() runs it first.
 */
int nvc_trim_taps(struct nvc_graph *g, char *err, size_t errlen);

/*
 * For a target without the SDP's Y stage (its LUT), with --cpu-fallback,
 * before nvc_passes(): Sigmoid and Tanh become CPU functions, and x times
 * sigmoid(x) one CPU function (SiLU) (pass_cpu.c).
 */
int nvc_cpu_activations(struct nvc_graph *g, char *err, size_t errlen);

/*
 * Before lowering, after calibration and the executor's reference (which
 * compute each ConvTranspose as it is): every transposed convolution the
 * back end does not compute as it is (kernel = stride, one group, no
 * padding or dilation) rewritten into what it computes: a zero insertion
 * (a transposed convolution, kernel = stride, weights 1 from each channel
 * to itself) and a convolution of stride 1 with the kernel flipped
 * (pass_deconv.c). Node indices from the first rewritten node on change;
 * fusion is decided again.
 */
int nvc_deconv_rewrite(struct nvc_graph *g, char *err, size_t errlen);

/*
 * Check @g is consistent (indices, sizes, order, every output shape the
 * one its operator gives): what the executor and back end may rely on.
 */
int nvc_graph_check(const struct nvc_graph *g, char *err, size_t errlen);

/* Elements of tensor @t (n*c*h*w). */
long nvc_tensor_size(const struct nvc_tensor *t);

/*
 * Run @g in float32 on @inputs (one array per graph input, NCHW). On
 * success @values[t] holds every activation tensor t's values (NULL for
 * constants); free them with nvc_exec_free().
 */
int nvc_exec(const struct nvc_graph *g, const float *const *inputs,
	     float **values, char *err, size_t errlen);
void nvc_exec_free(const struct nvc_graph *g, float **values);

/* Text form of the graph, one line per tensor and node. */
void nvc_graph_dump(const struct nvc_graph *g, FILE *f);

#endif /* __NVDLA_COMPILER_COMPILER_H__ */
