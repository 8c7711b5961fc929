/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The compiler's graph: what the ONNX front end produces and the back end
 * lowers. Tensors are 4-D NCHW float32 (batch 1); constants carry their
 * data. Nodes are kept in topological order. Passes rewrite the graph in
 * place (BatchNormalization and constant Mul/Add become NVC_AFFINE, Relu
 * after a conv becomes its activation, Reshape/Flatten become aliases).
 *
 * Contract between umd/compiler/front/ (and passes/, exec/, calib/) and
 * umd/compiler/lower/ (the back end). Add fields
 * at the end of a struct; never change the meaning of one.
 */
#ifndef __NVDLA_COMPILER_IR_H__
#define __NVDLA_COMPILER_IR_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NVC_MAX_INPUTS	8	/* Concat fan-in and the like */
#define NVC_MAX_OUTPUTS	8	/* Split fan-out */
#define NVC_ERR_LEN	256

enum nvc_op {
	NVC_CONV,		/* also Gemm/MatMul as a 1x1 conv on C x 1 x 1 */
	NVC_CONV_TRANSPOSE,
	NVC_AFFINE,		/* y = x * scale[c] + shift[c] (BN, Mul/Add by const) */
	NVC_ACT,		/* activation alone (see enum nvc_act) */
	NVC_ELTWISE,		/* two tensors of one shape: add, mul, max; or
				 * add, mul of C x H x W and C x 1 x 1 (input 1)
				 */
	NVC_POOL,		/* max / average, incl. global average */
	NVC_LRN,
	NVC_CONCAT,		/* along channels */
	NVC_SPLIT,		/* along channels */
	NVC_RESHAPE,		/* Flatten/Reshape/Identity/Dropout: same bytes */
	NVC_SOFTMAX,		/* over channels; a CPU task */
	NVC_CPU,		/* an element-wise function the DLA has not
				 * (enum nvc_cpu_fn): a CPU task, with
				 * --cpu-fallback only
				 */
	NVC_PAD,		/* height and width padded with the edge's
				 * values or their mirror (struct nvc_pad_attr)
				 */
};

/*
 * ERF element-wise; SWAP_CH: the output is the input with channels and
 * height exchanged (a [1, T, D] tensor between C = T, H = D and the token
 * layout C = D, H = T that MatMul over its last axis reads); LAYERNORM:
 * (x - mean) / sqrt(var + cpu_eps) over the channels at each position;
 * RESIZE: bilinear, each plane to the output's (cpu_coord: emu.h's enum
 * emu_coord; cpu_step). SIGMOID, TANH and SILU (x sigmoid(x))
 * element-wise: the SDP's LUT activations on a target without its Y
 * stage (nvc_cpu_activations()).
 */
enum nvc_cpu_fn {
	NVC_CPU_ERF, NVC_CPU_SWAP_CH, NVC_CPU_LAYERNORM, NVC_CPU_RESIZE,
	NVC_CPU_SIGMOID, NVC_CPU_TANH, NVC_CPU_SILU,
};

enum nvc_act {
	NVC_ACT_NONE,
	NVC_ACT_RELU,		/* Relu, or Clip with min 0 and max */
	NVC_ACT_CLIP,		/* min, max */
	NVC_ACT_LEAKY,		/* alpha */
	NVC_ACT_PRELU,		/* per-channel slope tensor */
	NVC_ACT_SIGMOID,
	NVC_ACT_TANH,
};

/*
 * Pad's border: EDGE repeats the first or last row (column); REFLECT
 * mirrors the rows after the first (before the last) without repeating
 * it, so a pad is smaller than the size.
 */
enum nvc_pad_mode { NVC_PAD_EDGE, NVC_PAD_REFLECT };

enum nvc_eltwise { NVC_ELT_ADD, NVC_ELT_MUL, NVC_ELT_MAX };
enum nvc_pool { NVC_POOL_MAX, NVC_POOL_AVG };

struct nvc_activation {
	enum nvc_act type;
	float min, max;		/* CLIP (RELU: 0, +inf) */
	float alpha;		/* LEAKY */
	int slope;		/* PRELU: constant tensor index, C values */
};

enum { NVC_RANGE_NONE, NVC_RANGE_MEASURED, NVC_RANGE_QDQ };

struct nvc_tensor {
	char *name;
	int n, c, h, w;		/* n is 1 */
	float *data;		/* constants only, n*c*h*w values, NCHW */
	int producer;		/* node index, -1 for inputs and constants */
	int alias_of;		/* NVC_RESHAPE output: tensor it shares, else -1 */
	/*
	 * int8: the range chosen for the tensor's scale, calibrated
	 * (NVC_RANGE_MEASURED) or from a QDQ model's scale (NVC_RANGE_QDQ).
	 */
	int calibrated;
	float min, max;
};

/* The most a convolution pads on a side: the CDMA's padding fields. */
#define NVC_CONV_PAD_MAX 31

struct nvc_conv_attr {
	int kh, kw;
	int stride[2];		/* y, x */
	int pad[4];		/* top, left, bottom, right */
	int dilation[2];	/* y, x */
	int group;
	int weights;		/* tensor: K x C/group x kh x kw (transpose: C x K/group x kh x kw) */
	int bias;		/* tensor of K values, or -1 */
	int out_pad[2];		/* ConvTranspose output_padding */
};

struct nvc_affine_attr {
	int scale;		/* tensor of C values, or -1 (1.0) */
	int shift;		/* tensor of C values, or -1 (0.0) */
};

struct nvc_pool_attr {
	enum nvc_pool type;
	int kh, kw;
	int stride[2];
	int pad[4];
	int count_include_pad;
	int ceil_mode;
	int global;
};

struct nvc_pad_attr {
	enum nvc_pad_mode mode;
	int pad[4];		/* top, left, bottom, right */
};

struct nvc_lrn_attr {
	int size;
	float alpha, beta, bias;
};

struct nvc_node {
	char *name;		/* ONNX node name (or its first output's name) */
	const char *onnx_op;	/* ONNX op_type, for messages */
	enum nvc_op op;
	int num_inputs, num_outputs;
	int inputs[NVC_MAX_INPUTS];	/* tensor indices (activations only) */
	int outputs[NVC_MAX_OUTPUTS];
	struct nvc_activation act;	/* fused output activation */
	union {
		struct nvc_conv_attr conv;
		struct nvc_affine_attr affine;
		struct nvc_pool_attr pool;
		struct nvc_lrn_attr lrn;
		struct nvc_pad_attr pad;
		enum nvc_eltwise eltwise;
		enum nvc_cpu_fn cpu;
	};
	/*
	 * NVC_ELTWISE: 1 + which input of it the convolution whose SDP
	 * computes it writes (its sole reader); 0: computed on its own
	 * (nvc_decide_fusion()).
	 */
	int sdp_fused;
	/*
	 * NVC_CPU: LAYERNORM's epsilon, RESIZE's coordinate mapping and step
	 * (input pixels per output pixel of height, width: 1 / scale).
	 */
	float cpu_eps;
	int cpu_coord;
	float cpu_step[2];
};

struct nvc_graph {
	int num_tensors, num_nodes;
	struct nvc_tensor *tensors;
	struct nvc_node *nodes;
	int num_inputs, num_outputs;
	int inputs[NVC_MAX_INPUTS];	/* graph inputs: tensor indices */
	int outputs[NVC_MAX_OUTPUTS];
};

void nvc_graph_free(struct nvc_graph *g);

/*
 * Whether element-wise node @n takes input 1 per channel: C x 1 x 1
 * against input 0 of C x H x W with a plane larger than 1x1 (the
 * squeeze-and-excitation product).
 */
static inline bool nvc_per_channel(const struct nvc_graph *g,
				   const struct nvc_node *n)
{
	const struct nvc_tensor *a, *b;

	if (n->op != NVC_ELTWISE || n->num_inputs != 2)
		return false;
	a = &g->tensors[n->inputs[0]];
	b = &g->tensors[n->inputs[1]];
	return b->c == a->c && b->h == 1 && b->w == 1 && (a->h > 1 || a->w > 1);
}

/*
 * Whether the back end computes transposed convolution @a as it is: its
 * kernel is its stride, one group, no padding or dilation (other ones
 * nvc_deconv_rewrite() rewrites first).
 */
static inline bool nvc_deconv_as_is(const struct nvc_conv_attr *a)
{
	return a->kh == a->stride[0] && a->kw == a->stride[1] &&
	       a->group == 1 && a->dilation[0] == 1 && a->dilation[1] == 1 &&
	       !a->out_pad[0] && !a->out_pad[1] && !a->pad[0] && !a->pad[1] &&
	       !a->pad[2] && !a->pad[3];
}

/* Whether @tensor is an output of @g. */
static inline bool nvc_graph_output(const struct nvc_graph *g, int tensor)
{
	int i;

	for (i = 0; i < g->num_outputs; i++)
		if (g->outputs[i] == tensor)
			return true;
	return false;
}

/* The only node reading tensor @t, or -1 (none, several, an output). */
static inline int nvc_sole_reader(const struct nvc_graph *g, int t)
{
	int i, j, r = -1;

	if (nvc_graph_output(g, t))
		return -1;
	for (i = 0; i < g->num_nodes; i++)
		for (j = 0; j < g->nodes[i].num_inputs; j++)
			if (g->nodes[i].inputs[j] == t) {
				if (r >= 0)
					return -1;
				r = i;
			}
	return r;
}

/*
 * The input row (column) that row @o of a Pad's output copies, @before
 * rows (columns) padded before the input's @size.
 */
static inline int nvc_pad_source(enum nvc_pad_mode mode, int o, int before,
				 int size)
{
	int i = o - before;

	if (i < 0)
		return mode == NVC_PAD_EDGE ? 0 : -i;
	if (i >= size)
		return mode == NVC_PAD_EDGE ? size - 1 : 2 * (size - 1) - i;
	return i;
}

/*
 * Fusion (fuse.c), the one place it is decided: whether node @prod
 * absorbs the activation reading its output, and (the last of the
 * passes) which element-wise nodes the SDP of the convolution before
 * them computes (nvc_node.sdp_fused).
 */
bool nvc_fuses_activation(const struct nvc_graph *g,
			  const struct nvc_node *prod,
			  const struct nvc_node *act, bool sdp_y);
void nvc_decide_fusion(struct nvc_graph *g);
/* The element-wise node convolution @conv's SDP computes, or -1. */
int nvc_fused_eltwise(const struct nvc_graph *g, int conv);

#endif /* __NVDLA_COMPILER_IR_H__ */
