/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The lowered IR, between the graph (ir.h) and the descriptors: the
 * hardware operations a network becomes, in the order they run, with
 * their tensors. The lowering step (lir.c) makes it from the graph; the
 * back end's passes fill it in, each its own part, each over the whole
 * list (lower.c runs them): views (lower_views.c: which tensors live in
 * another's bytes), the split (lower_split.c: the hardware convolutions
 * that fit the convolution buffer, and the temporaries operations need),
 * quantisation (lower_quant.c: each tensor's precision and int8 scale,
 * each kernel's weight scale), memory placement (lower_place.c: each
 * tensor's place). The descriptor walk then reads them and emits, and
 * orders each task's operations by their dependencies when it closes
 * (lower_order.c).
 */
#ifndef __NVDLA_COMPILER_LIR_H__
#define __NVDLA_COMPILER_LIR_H__

#include <stdbool.h>
#include <stdint.h>

#include <nvdla/dla_interface.h>

#include "ir.h"
#include "mem.h"

/* The engine an operation runs on. */
enum nvc_lir_kind {
	NVC_LIR_CONV,	/* convolution into its SDP (a transposed one: into
			 * the RUBIK's input, or row by row); the copies of
			 * concatenations and splits off the atoms
			 */
	NVC_LIR_SDP,	/* element-wise; the copies into a concatenation */
	NVC_LIR_PDP,	/* pooling */
	NVC_LIR_CDP,	/* local response normalisation */
	NVC_LIR_CPU,	/* a CPU task of the runtime */
	NVC_LIR_CONVERT,	/* SDP passes: a tensor into another precision
				 * (lir_mixed.c, lower_cvt.c)
				 */
	NVC_LIR_RUBIK,	/* a transposed convolution's phases contracted
			 * into its output (lower_rubik.c)
			 */
};

/*
 * A tensor as the hardware holds it: shape, precision and layout (feature
 * cubes in atoms of channels), the int8 scale, the tensor whose bytes it
 * shares and, once placed, where its bytes are. Indexed like the graph's
 * tensors, then the outputs of conversions (mixed precision), then the
 * RUBIK's inputs (nvc_lir_contract), then the operations' temporaries
 * (the split), which have no graph tensor.
 */
struct nvc_lir_tensor {
	int w, h, c;
	uint8_t prec;		/* DLA_PRECISION_* of its elements */
	uint32_t bpe;		/* bytes an element */
	uint32_t atom;		/* bytes an atom of channels */
	uint32_t epa;		/* elements (channels) an atom */
	float scale;		/* int8: real value of one step */
	int root;		/* concat output this tensor is a view of, or -1 */
	struct nvc_place place;	/* slot -1: not placed yet */
	/*
	 * Its values in the other precision, for operations computing in
	 * that one: the last output of its conversion, or -1.
	 */
	int twin;
	int of;			/* a conversion's output: what it converts */
	bool temp;		/* an operation's temporary, kept to the end */
};

/*
 * One hardware convolution of a convolution operation, as the split for
 * the convolution buffer cut it (lower_conv_split.c): its kernels and input
 * channels (a part, a block of groups, a chunk; for a transposed
 * convolution without a RUBIK, a phase and input row), the output rows
 * of each of its bands and its banks of the buffer. A copy of channels
 * (a concatenation's input or a Split's output off the atoms, by its
 * index in the node) is a 1x1 convolution of its own.
 */
struct nvc_lir_conv {
	int k0, k;
	int c0, c;
	int rows;
	uint32_t dbank, wbank;
	int copy;
};

/* How the split cut a convolution node's operation. */
enum nvc_lir_cut {
	NVC_CUT_PARTS,	/* whole, in parts over its kernels */
	NVC_CUT_GROUPS,	/* in blocks of whole groups */
	NVC_CUT_CHUNKS,	/* in chunks of input channels (partial sums) */
};

/* A hardware operation of the network, before it is split and emitted. */
struct nvc_lir_op {
	enum nvc_lir_kind kind;
	uint8_t prec;		/* DLA_PRECISION_* it computes in */
	int node;		/* the graph node it computes */
	int fused;		/* element-wise node its SDP computes too, or -1 */
	int num_inputs, num_outputs;
	int inputs[NVC_MAX_INPUTS];	/* tensors it reads */
	int outputs[NVC_MAX_OUTPUTS];	/* tensors it writes */
	/* the split's hardware convolutions, in the order they run */
	struct nvc_lir_conv *convs;
	int num_convs, cap_convs;
	enum nvc_lir_cut cut;
	bool wino;		/* a convolution in Winograd mode */
	/*
	 * The int8 scale of each kernel of its weights (fp16: 1), the
	 * quantisation pass's: a convolution's by output channel, a
	 * transposed one's by phase and channel of its 1x1 half; a
	 * concatenation's copies' (each as many kernels as the output has
	 * channels) copy after copy, a Split's copies' by the input channel
	 * each kernel copies.
	 */
	float *wscale;
	/* its temporaries, tensors temp to temp + num_temps - 1 */
	int temp, num_temps;
};

struct nvc_lir {
	struct nvc_lir_tensor *ts;	/* one a graph tensor */
	int num_tensors;
	struct nvc_lir_op *ops;
	int num_ops;
};

/* Why the lowering step refused a node (nvc_lir_build). */
struct nvc_lir_refusal {
	int node;
	int input;		/* -EOPNOTSUPP: the input that is no activation */
};

/*
 * The lowering step: the operations of @g's nodes in @prec on a target
 * whose feature atom is @atom bytes (a fused element-wise node in its
 * convolution's, a Reshape none), its tensors unplaced. 0; -ENOMEM;
 * -EOPNOTSUPP when a node reads a constant or no tensor (only activations
 * flow between layers), -EINVAL for an operation it does not know, with
 * the node in *@why.
 */
int nvc_lir_build(struct nvc_lir *ir, const struct nvc_graph *g,
		  uint8_t prec, uint32_t atom, struct nvc_lir_refusal *why);
/*
 * Mixed precision: the convolutions @fp16[node] names (with the
 * element-wise node their SDP computes) in fp16 in @ir, built in int8;
 * every other operation in the precision of the tensor it reads first.
 * A tensor read in another precision than its own
 * gets a twin in that one, written by an NVC_LIR_CONVERT operation right
 * after the tensor's producer (or first, for a graph input). A graph
 * input takes the precision of its first reader; an image input must be
 * read in one. 0, -ENOMEM, or -EINVAL with the reader in *@why.
 */
int nvc_lir_mixed(struct nvc_lir *ir, const struct nvc_graph *g,
		  const bool *fp16, uint32_t atom, bool image,
		  struct nvc_lir_refusal *why);

/* The graph tensor whose bytes @t shares (through Reshape aliases). */
int nvc_lir_resolve(const struct nvc_graph *g, int t);
/*
 * On a target with a RUBIK: after each transposed convolution of @ir, an
 * NVC_LIR_RUBIK operation that contracts the intermediate cube the
 * convolution now writes (its phases' kernels, each phase's padded to
 * whole @atom-byte atoms, over the input's pixels) into its output.
 * 0 or -ENOMEM.
 */
int nvc_lir_contract(struct nvc_lir *ir, const struct nvc_graph *g,
		     uint32_t atom);

void nvc_lir_free(struct nvc_lir *ir);
/* Append hardware convolution @c to @op: 0 or -ENOMEM. */
int nvc_lir_conv_add(struct nvc_lir_op *op, const struct nvc_lir_conv *c);
/*
 * The hardware convolutions of @op that copy its channels @copy (the
 * first, their number in *@n).
 */
const struct nvc_lir_conv *nvc_lir_convs_of(const struct nvc_lir_op *op,
					    int copy, int *n);
/*
 * A temporary of @op (ops are given theirs in order), @w x @h x @c in
 * @prec in the layout of @atom-byte atoms: its tensor, or -ENOMEM. It
 * moves ir->ts.
 */
int nvc_lir_temp_add(struct nvc_lir *ir, struct nvc_lir_op *op, int w, int h,
		     int c, uint8_t prec, uint32_t atom);

/*
 * Whether every input of concatenation @n starts on an atom of @epa
 * channels: copied by the SDP or written in place, else assembled by
 * convolutions.
 */
bool nvc_lir_concat_aligned(const struct nvc_graph *g,
			    const struct nvc_node *n, uint32_t epa);

/*
 * Atoms of @c channels in the layout of tensor @t (its surfaces). An
 * int16 tensor (a conversion's) has them in pairs: the SDP processing
 * int8 writes and reads int16 cubes 32 channels, two surfaces, at a time.
 */
static inline uint32_t nvc_lir_surfaces(const struct nvc_lir_tensor *t, int c)
{
	uint32_t n = ((uint32_t)c + t->epa - 1) / t->epa;

	return t->prec == DLA_PRECISION_INT16 ? (n + 1) / 2 * 2 : n;
}

/*
 * Give tensor @t precision @prec (int8, int16 or fp16) in the layout of
 * @atom-byte atoms.
 */
void nvc_lir_precision(struct nvc_lir_tensor *t, uint8_t prec, uint32_t atom);

#endif /* __NVDLA_COMPILER_LIR_H__ */
