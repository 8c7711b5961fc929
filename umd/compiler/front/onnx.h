/* SPDX-License-Identifier: MIT */
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The ONNX loader's state, shared by the model reader (onnx_load.c),
 * attribute and input access (onnx_attr.c) and the operator mappings
 * (onnx_ops*.c). Every named ONNX value is a constant (float, or int64
 * for shapes and axes) or an activation tensor of the graph with its
 * ONNX shape (batch 1 first).
 */
#ifndef __NVDLA_COMPILER_ONNX_H__
#define __NVDLA_COMPILER_ONNX_H__

#include <stdint.h>

#include "graph.h"
#include "onnx.pb-c.h"

#define NVC_MAX_RANK 4

enum nvc_value_kind { VAL_ACT, VAL_FLOAT, VAL_INT64 };

struct nvc_value {
	const char *name;		/* the model's string */
	enum nvc_value_kind kind;
	int rank;
	int64_t dims[NVC_MAX_RANK];
	int tensor;			/* VAL_ACT: graph tensor */
	long count;			/* constants: elements */
	float *f;			/* VAL_FLOAT data */
	int64_t *i;			/* VAL_INT64 data */
	/*
	 * A zero Pad's output, waiting to be folded into the convolution or
	 * average pooling that reads it: the node, and the rows and columns
	 * (top, left, bottom, right) it adds around tensor's plane (dims
	 * are the padded ones).
	 */
	const char *pad_node;
	int64_t pad[4];
	/*
	 * A channel shuffle under way: tensor's channels as the rank-5 view
	 * [1, groups, C / groups, H, W] made by Reshape node view_node (dims
	 * keep the tensor's 4), or, view_swapped, as [1, C / groups, groups,
	 * H, W] after the Transpose that swaps axes 1 and 2. Read only by
	 * that Transpose and the Reshape back to rank 4.
	 */
	const char *view_node;
	int64_t view_groups;
	int view_swapped;
	/*
	 * Integer codes, read only by DequantizeLinear: a constant of ONNX
	 * type quant_type (INT8, UINT8 or INT32; 0 for none) holding the
	 * codes as floats, or the int8 output of a QuantizeLinear of
	 * activation tensor at scale qscale (onnx_ops_qdq.c).
	 */
	int quant_type;
	float qscale;
	/*
	 * A [1, T, D] tensor in token layout: its graph tensor is D x T x 1
	 * (D the channels, as MatMul over the last axis reads it) while dims
	 * keep the ONNX shape; twin: 1 + the tensor holding the other layout
	 * of the value, once one was made (onnx_ops_tokens.c). Likewise the
	 * channels-last view [1, H, W, C] of a C x H x W tensor, which a
	 * Transpose (0, 2, 3, 1) makes and (0, 3, 1, 2) ends.
	 */
	int tokens;
	int twin;
};

struct nvc_loader {
	struct nvc_graph *g;
	int opset;
	struct nvc_value *values;
	int num_values, cap_values;
	int *hash;			/* open addressing: value index + 1 */
	unsigned int hash_mask;
	const Onnx__GraphProto *gp;	/* the model's graph */
	const Onnx__NodeProto *node;	/* being mapped, for messages */
	const char *node_name;
	const char *op;			/* its op_type, a static string */
	int take_pad;			/* it folds a Pad of its input 0 */
	int take_view;			/* it reads a channel-group view */
	int take_quant;			/* it reads integer codes */
	int take_tokens;		/* it reads token-layout tensors */
	int in_tokens;			/* it read one: its output is one */
	char *skip;			/* nodes mapped by a pattern, or NULL */
	char *err;
	size_t errlen;
};

/* Message about the node being mapped: "node 'x' (Op): ..."; returns @code. */
int nvc_node_error(struct nvc_loader *l, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The value named @name, or NULL. */
struct nvc_value *nvc_value_find(struct nvc_loader *l, const char *name);
/* A new value named @name (must not exist yet); NULL with a message. */
struct nvc_value *nvc_value_new(struct nvc_loader *l, const char *name);

/* The data of @tp into constant value @v (named already). */
int nvc_tensor_value(struct nvc_loader *l, const Onnx__TensorProto *tp,
		     struct nvc_value *v);

/* Elements of @rank dims, -1 if beyond NVC_MAX_ELEMENTS or negative. */
long nvc_dims_count(int rank, const int64_t *dims);

/* Attributes of the node being mapped (onnx_attr.c). */
int nvc_attr_check(struct nvc_loader *l, const char *const *known);
const Onnx__AttributeProto *nvc_attr(struct nvc_loader *l, const char *name);
int nvc_attr_int(struct nvc_loader *l, const char *name, int64_t def,
		 int64_t *v);
int nvc_attr_float(struct nvc_loader *l, const char *name, float def,
		   float *v);
/* Up to @max ints into @v, their number in *@n (0 when absent). */
int nvc_attr_ints(struct nvc_loader *l, const char *name, int max,
		  int64_t *v, int *n);
/* A string attribute, @def when absent. */
int nvc_attr_string(struct nvc_loader *l, const char *name, const char *def,
		    char *v, size_t size);

/* Inputs of the node being mapped: present, activation, constants. */
int nvc_input_present(struct nvc_loader *l, int i);
int nvc_input_any(struct nvc_loader *l, int i, struct nvc_value **v);
int nvc_input_act(struct nvc_loader *l, int i, struct nvc_value **v);
/* The same, of rank 4 (N, C, H, W). */
int nvc_input_act4(struct nvc_loader *l, int i, struct nvc_value **v);
int nvc_input_float(struct nvc_loader *l, int i, struct nvc_value **v);
int nvc_input_int64(struct nvc_loader *l, int i, struct nvc_value **v);
/* Optional FLOAT input @i: *@v is NULL when it is absent. */
int nvc_input_float_opt(struct nvc_loader *l, int i, struct nvc_value **v);
/*
 * The node must have between @min and @max inputs and one output (any
 * further ones unnamed: unused).
 */
int nvc_io_check(struct nvc_loader *l, int min, int max);
/* nvc_io_check, then nvc_attr_check against @known. */
int nvc_node_check(struct nvc_loader *l, int min, int max,
		   const char *const *known);

/*
 * A new activation value for output @i of the node with the ONNX shape
 * @rank/@dims (batch 1 first), and its graph tensor.
 */
int nvc_output_act(struct nvc_loader *l, int i, int rank,
		   const int64_t *dims, struct nvc_value **v);
/* A graph node for the node being mapped, reading @in, writing @out. */
int nvc_node_new(struct nvc_loader *l, enum nvc_op op, int num_in, const int *in, int num_out, const int *out);
/*
 * Output 0 of shape @rank/@dims and a node @op reading @x alone that
 * writes it: the node's index, or a negative error.
 */
int nvc_unary_node(struct nvc_loader *l, enum nvc_op op, struct nvc_value *x,
		   int rank, const int64_t *dims);
/* A constant tensor n x c x h x w named after the node and @what. */
int nvc_const_tensor(struct nvc_loader *l, const char *what, int n, int c,
		     int h, int w, const float *data);

/* An ONNX shape as graph dims; -EINVAL with a message if not batch 1. */
int nvc_shape_nchw(struct nvc_loader *l, const char *what, int rank,
		   const int64_t *dims, int *c, int *h, int *w);

/*
 * A per-channel vector of @c values from constant @v broadcast against
 * activation @x (scalar, or varying along the channel axis only), into
 * @out; -EINVAL with a message naming @what otherwise.
 */
int nvc_channel_vector(struct nvc_loader *l, const char *what,
		       const struct nvc_value *v, const struct nvc_value *x,
		       int c, float *out);

/* An affine node on @x (scale and shift per channel; NULL: none). */
int nvc_affine_node(struct nvc_loader *l, struct nvc_value *x,
		    const float *scale, const float *shift);

/* Whether the value named @name is an output of the graph. */
int nvc_is_graph_output(const struct nvc_loader *l, const char *name);

/* Map the node being mapped (onnx_ops*.c); -ENOENT for an unknown op. */
int nvc_map_node(struct nvc_loader *l, const char *op);

/* The mappings, one per ONNX operator family. */
int nvc_op_conv(struct nvc_loader *l);
int nvc_op_conv_transpose(struct nvc_loader *l);
int nvc_op_gemm(struct nvc_loader *l);
int nvc_op_matmul(struct nvc_loader *l);
int nvc_op_maxpool(struct nvc_loader *l);
int nvc_op_avgpool(struct nvc_loader *l);
int nvc_op_global_pool(struct nvc_loader *l);
int nvc_op_reduce(struct nvc_loader *l);
int nvc_op_lrn(struct nvc_loader *l);
int nvc_op_batchnorm(struct nvc_loader *l);
int nvc_op_activation(struct nvc_loader *l);
int nvc_op_prelu(struct nvc_loader *l);
int nvc_op_hard(struct nvc_loader *l);
int nvc_op_clip(struct nvc_loader *l);
int nvc_op_arith(struct nvc_loader *l);
int nvc_op_max(struct nvc_loader *l);
int nvc_op_softmax(struct nvc_loader *l);
int nvc_op_erf(struct nvc_loader *l);
int nvc_op_reshape(struct nvc_loader *l);
int nvc_op_flatten(struct nvc_loader *l);
int nvc_op_identity(struct nvc_loader *l);
int nvc_op_quantize(struct nvc_loader *l);
int nvc_op_dequantize(struct nvc_loader *l);
/*
 * Output 0 of the node being mapped as @x itself: the same constant or
 * tensor (a reshape alias if it is a graph output).
 */
int nvc_pass_through(struct nvc_loader *l, struct nvc_value *x);
int nvc_op_squeeze(struct nvc_loader *l);
int nvc_op_transpose(struct nvc_loader *l);
int nvc_op_concat(struct nvc_loader *l);
int nvc_op_split(struct nvc_loader *l);
int nvc_op_constant(struct nvc_loader *l);
int nvc_op_shape(struct nvc_loader *l);
int nvc_op_gather(struct nvc_loader *l);
/*
 * Constant forms, computed while loading (onnx_ops_const.c, onnx_fold.c):
 * constant @x (FLOAT or INT64) with new dims, or transposed by @perm, as
 * output 0; Concat of constants along @axis; Slice, Cast and
 * ConstantOfShape of constants.
 */
int nvc_const_reshape(struct nvc_loader *l, struct nvc_value *x, int rank,
		      const int64_t *dims);
int nvc_const_transpose(struct nvc_loader *l, struct nvc_value *x,
			const int64_t *perm);
int nvc_const_concat(struct nvc_loader *l, int64_t axis);
int nvc_op_slice(struct nvc_loader *l);
int nvc_op_cast(struct nvc_loader *l);
int nvc_op_constant_of_shape(struct nvc_loader *l);
/* Add, Sub, Mul or Div (the node's operator) of constants, broadcast. */
int nvc_const_arith(struct nvc_loader *l, struct nvc_value *a,
		    struct nvc_value *b);
/*
 * A channel shuffle (onnx_ops_shuffle.c), the steps torch writes for
 * ShuffleNet's: Reshape of @x to the rank-5 view [1, g, C/g, H, W]
 * (@dims), the Transpose of such a view by @perm (@n axes), the Reshape
 * of a transposed view back to rank 4 (@dims: [1, C, H, W]), which
 * becomes a 1x1 convolution whose weights pick each output channel's
 * input channel.
 */
int nvc_view_begin(struct nvc_loader *l, struct nvc_value *x,
		   const int64_t *dims);
int nvc_view_transpose(struct nvc_loader *l, struct nvc_value *x, int n,
		       const int64_t *perm);
int nvc_view_end(struct nvc_loader *l, struct nvc_value *x, int rank,
		 const int64_t *dims);
/* The ONNX shape of @x (5 axes for a view) into @dims; its rank. */
int nvc_value_dims(const struct nvc_value *x, int64_t *dims);
/*
 * A 1x1 convolution of @x by @w (@n x C weights) plus bias tensor @bt (or
 * -1) as output 0, of @x's shape with @n channels.
 */
int nvc_conv1x1_node(struct nvc_loader *l, struct nvc_value *x, int64_t n,
		     const float *w, int bt);
/*
 * Channels [@first, @first + @count) of activation @x as output 0 of a
 * Split node (other parts unnamed): a Slice along channels.
 */
int nvc_slice_channels(struct nvc_loader *l, struct nvc_value *x,
		       int64_t first, int64_t count);
/*
 * Token layout (onnx_ops_tokens.c): whether operator @op reads it; the
 * tensor holding @x in it (a CPU swap of channels and height made once);
 * MatMul of a rank-3 @x by N x K weights @w, a 1x1 convolution on its
 * tokens; LayerNormalization, and ReduceMean over the last axis that
 * begins the pattern torch writes for it before opset 17; and the
 * tensor of a graph output @v in ONNX order.
 */
int nvc_tokens_op(const char *op);
int nvc_tokens_tensor(struct nvc_loader *l, struct nvc_value *x);
int nvc_tokens_matmul(struct nvc_loader *l, struct nvc_value *x, int64_t n,
		      const float *w);
int nvc_op_layernorm(struct nvc_loader *l);
int nvc_layernorm_pattern(struct nvc_loader *l, struct nvc_value *x);
int nvc_tokens_output(struct nvc_loader *l, struct nvc_value *v, int *t);
/* A reshape of @x to @rank/@dims: same elements, same bytes. */
int nvc_alias(struct nvc_loader *l, struct nvc_value *x, int rank,
	      const int64_t *dims);
/*
 * Transpose @perm of @x (rank @n) into or out of the channels-last view:
 * 0 with its output made, 1 when it is neither, or an error.
 */
int nvc_channels_last(struct nvc_loader *l, struct nvc_value *x, int n,
		      const int64_t *perm);
/* Resize and Upsample, nearest by whole factors (onnx_ops_resize.c). */
int nvc_op_resize(struct nvc_loader *l);
/* Pad (onnx_ops_pad.c): a zero padding left for its reader to fold. */
int nvc_op_pad(struct nvc_loader *l);
/*
 * Input 0 of the node being mapped, of rank 4 (or 3: 1-D), with the rows and columns
 * a Pad adds around it into @pad (zeros when none).
 */
int nvc_input_padded(struct nvc_loader *l, struct nvc_value **x,
		     int64_t *pad);

#endif /* __NVDLA_COMPILER_ONNX_H__ */
