/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The back end: lowers a graph (ir.h) that has been through the passes
 * into a loadable for one hardware configuration, written with the
 * runtime's own loadable writer.
 */
#ifndef __NVDLA_COMPILER_LOWER_H__
#define __NVDLA_COMPILER_LOWER_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir.h"

enum nvc_precision { NVC_FP16, NVC_INT8 };
enum nvc_input_format { NVC_INPUT_FEATURE, NVC_INPUT_IMAGE };

/*
 * Which node of the graph made each hardware operation of a loadable, in
 * the order the operations were made (each engine runs its own in that
 * order, task after task), and which convolutions could have been
 * computed the other way (Winograd or direct).
 */
struct nvc_origins {
	uint8_t *type;		/* DLA_OP_* */
	int *node;
	int n, cap;
	bool oom;
	bool *winograd;		/* per node: its convolution in Winograd mode */
	bool *split;		/* per node: the weight banks could be fewer */
};

/* Per node: how its convolution is computed (a choice where it has one). */
enum nvc_conv_way { NVC_CONV_DIRECT, NVC_CONV_WINOGRAD };
/*
 * Per node: its convolution's weight banks hold all its weights (where
 * they fit) or the least, one group of kernels, the rest streaming.
 */
enum nvc_wbank_split { NVC_WBANK_ALL, NVC_WBANK_LEAST };

struct nvc_options {
	const char *config;		/* "nv_full", "nv_large", "nv_small" */
	enum nvc_precision precision;
	enum nvc_input_format input_format;
	/*
	 * The pixel mapping the inputs were compiled for, (p - mean[c]) /
	 * normalize (B, G, R), recorded for the runtime; normalize 0: none.
	 */
	float mean[3];
	float normalize;
	/*
	 * Functions the DLA has not (NVC_CPU: enum nvc_cpu_fn) run as CPU
	 * tasks of the runtime; refused without.
	 */
	bool cpu_fallback;
	/*
	 * Per node (NULL: direct everywhere): Winograd where the node's
	 * convolution can take it (nvc_can_winograd).
	 */
	const enum nvc_conv_way *conv_way;
	/* Per node (NULL: all the weights everywhere they fit). */
	const enum nvc_wbank_split *wbank_split;
	/*
	 * Per node (NULL: none), int8 on a target with fp16 (mixed
	 * precision): the convolution, and the element-wise node its SDP
	 * computes, in fp16 (lir_mixed.c).
	 */
	const bool *fp16_nodes;
	/* Filled by nvc_lower() when not NULL; nvc_origins_free() it. */
	struct nvc_origins *origins;
};

void nvc_origins_free(struct nvc_origins *o);

/*
 * Compile @g for @o into a new loadable (*@buf, *@len; free() it).
 * int8 needs every activation tensor calibrated. Returns 0, or a negative
 * errno with a message naming the node, its operator and why in @err.
 */
int nvc_lower(const struct nvc_graph *g, const struct nvc_options *o,
	      void **buf, size_t *len, char *err, size_t errlen);

#endif /* __NVDLA_COMPILER_LOWER_H__ */
