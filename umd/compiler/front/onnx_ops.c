// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The operator table, and the mappings of the operators with a window:
 * Conv, ConvTranspose, Gemm and MatMul (a 1x1 convolution on C x 1 x 1),
 * the pools, LRN, and BatchNormalization (an affine per channel). Conv,
 * ConvTranspose, MaxPool, AveragePool and the global pools also take 1-D
 * data [1, C, L]
 * (rank 3), which is the graph's C x L x 1: a window of L x 1.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

#define MAX_WINDOW 65536	/* kernel, stride, dilation, padding */

/*
 * Window attributes as read, for both spatial axes; @one: of 1-D data,
 * whose attributes hold the first axis alone (the second: 1, no padding).
 */
struct window {
	int64_t k[2], stride[2], dil[2], pad[4], out[2];
	char auto_pad[16];
	int ceil;
	int one;
};

/*
 * @count values of attribute @name (2, or 4 for pads: top, left, bottom,
 * right), @def when absent. Of 1-D data the attribute holds those of the
 * first axis alone (pads: begin, end); the second's are @flat.
 */
static int ints2(struct nvc_loader *l, const struct window *w,
		 const char *name, int64_t def, int64_t lo, int64_t flat,
		 int64_t *v, int count)
{
	int64_t a[4];
	int n, i, ret, want = w->one ? count / 2 : count;

	ret = nvc_attr_ints(l, name, 4, a, &n);
	if (ret)
		return ret;
	if (n && n != want)
		return nvc_node_error(l, -EINVAL,
				      "attribute '%s' needs %d values for %d-D data (has %d)",
				      name, want, w->one ? 1 : 2, n);
	for (i = 0; i < count; i++) {
		if (w->one)
			v[i] = i % 2 ? flat : n ? a[i / 2] : def;
		else
			v[i] = n ? a[i] : def;
		if (v[i] < lo || v[i] > MAX_WINDOW)
			return nvc_node_error(l, -EINVAL,
					      "attribute '%s' value %lld is out of range (%lld to %d)",
					      name, (long long)v[i], (long long)lo,
					      MAX_WINDOW);
	}
	return 0;
}

/* Strides, dilations, pads and auto_pad; the kernel is set by the caller. */
static int window_attrs(struct nvc_loader *l, struct window *w)
{
	int ret;

	ret = ints2(l, w, "strides", 1, 1, 1, w->stride, 2);
	if (!ret)
		ret = ints2(l, w, "dilations", 1, 1, 1, w->dil, 2);
	if (!ret)
		ret = ints2(l, w, "pads", 0, 0, 0, w->pad, 4);
	if (!ret)
		ret = nvc_attr_string(l, "auto_pad", "NOTSET", w->auto_pad,
				      sizeof(w->auto_pad));
	if (ret)
		return ret;
	if (strcmp(w->auto_pad, "NOTSET") && strcmp(w->auto_pad, "VALID") &&
	    strcmp(w->auto_pad, "SAME_UPPER") && strcmp(w->auto_pad, "SAME_LOWER"))
		return nvc_node_error(l, -EINVAL, "auto_pad '%s' is not supported",
				      w->auto_pad);
	if (strcmp(w->auto_pad, "NOTSET") && nvc_attr(l, "pads"))
		return nvc_node_error(l, -EINVAL,
				      "auto_pad %s together with pads", w->auto_pad);
	return 0;
}

/* Output size of a window sliding over @in (pads resolved for auto_pad). */
static int window_out(struct nvc_loader *l, struct window *w, const int64_t *in)
{
	int i;

	for (i = 0; i < 2; i++) {
		int64_t ext = w->dil[i] * (w->k[i] - 1) + 1, span, total;

		if (!strcmp(w->auto_pad, "VALID")) {
			w->pad[i] = w->pad[i + 2] = 0;
		} else if (strncmp(w->auto_pad, "SAME", 4) == 0) {
			int64_t out = (in[i] + w->stride[i] - 1) / w->stride[i];

			total = (out - 1) * w->stride[i] + ext - in[i];
			total = total > 0 ? total : 0;
			w->pad[i] = w->auto_pad[5] == 'U' ? total / 2 :
				    total - total / 2;
			w->pad[i + 2] = total - w->pad[i];
		}
		span = in[i] + w->pad[i] + w->pad[i + 2] - ext;
		if (span < 0)
			return nvc_node_error(l, -EINVAL,
					      "the window (%lld) is larger than the padded input (%lld)",
					      (long long)ext,
					      (long long)(in[i] + w->pad[i] + w->pad[i + 2]));
		w->out[i] = (w->ceil ? span + w->stride[i] - 1 : span) /
			    w->stride[i] + 1;
		/* The last window must start inside the input or its head pad. */
		if (w->ceil && (w->out[i] - 1) * w->stride[i] >= in[i] + w->pad[i])
			w->out[i]--;
	}
	return 0;
}

/* The plane of @x (height, width; 1-D data: length, 1) into @in. */
static const int64_t *plane(const struct nvc_value *x, int64_t *in)
{
	in[0] = x->dims[2];
	in[1] = x->rank > 3 ? x->dims[3] : 1;
	return in;
}

/* An activation of 1-D (N, C, L) or 2-D (N, C, H, W) data. */
static int act_plane(struct nvc_loader *l, int i, struct nvc_value **x)
{
	int ret = nvc_input_act(l, i, x);

	if (!ret && (*x)->rank != 4 && (*x)->rank != 3)
		return nvc_node_error(l, -EINVAL,
				      "input '%s' has rank %d; only 1-D (N, C, L) and 2-D (N, C, H, W) data is supported",
				      (*x)->name, (*x)->rank);
	return ret;
}

/* Optional bias input @i of @k values into a constant tensor, else -1. */
static int bias_tensor(struct nvc_loader *l, int i, int64_t k, int *t)
{
	struct nvc_value *b;
	int ret;

	*t = -1;
	ret = nvc_input_float_opt(l, i, &b);
	if (ret || !b)
		return ret;
	if (b->rank != 1 || b->count != k)
		return nvc_node_error(l, -EINVAL, "bias '%s' does not hold %lld values",
				      b->name, (long long)k);
	*t = nvc_const_tensor(l, "bias", 1, k, 1, 1, b->f);
	return *t < 0 ? *t : 0;
}

/* The kernel from the weights, checked against kernel_shape. */
static int kernel(struct nvc_loader *l, const struct nvc_value *wv,
		  struct window *w)
{
	int ret;

	int64_t kw;

	if (wv->rank != (w->one ? 3 : 4))
		return nvc_node_error(l, -EINVAL,
				      "weights '%s' have rank %d (%d expected)",
				      wv->name, wv->rank, w->one ? 3 : 4);
	kw = w->one ? 1 : wv->dims[3];
	ret = ints2(l, w, "kernel_shape", 0, 0, 1, w->k, 2);
	if (ret)
		return ret;
	if (nvc_attr(l, "kernel_shape") &&
	    (w->k[0] != wv->dims[2] || w->k[1] != kw))
		return nvc_node_error(l, -EINVAL,
				      "kernel_shape does not match the weights");
	w->k[0] = wv->dims[2];
	w->k[1] = kw;
	if (!w->k[0] || !w->k[1] || w->k[0] > MAX_WINDOW || w->k[1] > MAX_WINDOW)
		return nvc_node_error(l, -EINVAL, "empty or oversized kernel");
	return 0;
}

/*
 * The inputs and attributes Conv and ConvTranspose share (@known: the
 * op's); with @pad, the padding of a Pad before it (Conv folds it).
 */
static int conv_inputs(struct nvc_loader *l, const char *const *known,
		       struct nvc_value **x, struct nvc_value **wv,
		       struct window *w, int64_t *group, int64_t *pad)
{
	int ret;

	ret = nvc_node_check(l, 2, 3, known);
	if (!ret)
		ret = pad ? nvc_input_padded(l, x, pad) : act_plane(l, 0, x);
	if (!ret)
		ret = nvc_input_float(l, 1, wv);
	w->one = !ret && (*x)->rank == 3;
	if (!ret)
		ret = kernel(l, *wv, w);
	if (!ret)
		ret = window_attrs(l, w);
	if (!ret)
		ret = nvc_attr_int(l, "group", 1, group);
	return ret;
}

/*
 * The node of a Conv or ConvTranspose (@op) with output @dims, the bias
 * (optional input 2) holding dims[1] values: its index, or an error.
 */
static int conv_node(struct nvc_loader *l, enum nvc_op op, struct nvc_value *x,
		     const struct nvc_value *wv, const struct window *w,
		     int64_t group, const int64_t *dims)
{
	struct nvc_conv_attr *c;
	int ret, k, i, wt, bt;

	ret = bias_tensor(l, 2, dims[1], &bt);
	if (ret)
		return ret;
	wt = nvc_const_tensor(l, "weights", wv->dims[0], wv->dims[1], w->k[0],
			      w->k[1], wv->f);
	if (wt < 0)
		return wt;
	k = nvc_unary_node(l, op, x, x->rank, dims);
	if (k < 0)
		return k;
	c = &l->g->nodes[k].conv;
	c->kh = w->k[0];
	c->kw = w->k[1];
	for (i = 0; i < 2; i++) {
		c->stride[i] = w->stride[i];
		c->dilation[i] = w->dil[i];
	}
	for (i = 0; i < 4; i++)
		c->pad[i] = w->pad[i];
	c->group = group;
	c->weights = wt;
	c->bias = bt;
	return k;
}

int nvc_op_conv(struct nvc_loader *l)
{
	static const char *const known[] = { "auto_pad", "dilations", "group",
		"kernel_shape", "pads", "strides", NULL };
	struct window w = { 0 };
	struct nvc_value *x, *wv;
	int64_t group, dims[4], pad[4], in[2];
	int ret, k, i;

	ret = conv_inputs(l, known, &x, &wv, &w, &group, pad);
	if (ret)
		return ret;
	if (group < 1 || x->dims[1] % group || wv->dims[1] * group != x->dims[1] ||
	    wv->dims[0] % group)
		return nvc_node_error(l, -EINVAL,
				      "group %lld does not divide %lld input channels into weights of %lld x %lld",
				      (long long)group, (long long)x->dims[1],
				      (long long)wv->dims[0], (long long)wv->dims[1]);
	ret = window_out(l, &w, plane(x, in));
	if (ret)
		return ret;
	dims[0] = 1;
	dims[1] = wv->dims[0];
	dims[2] = w.out[0];
	dims[3] = w.out[1];
	for (i = 0; i < 4; i++)
		w.pad[i] += pad[i];
	k = conv_node(l, NVC_CONV, x, wv, &w, group, dims);
	return k < 0 ? k : 0;
}

/*
 * ConvTranspose pads from output_shape, as the operator defines them: its
 * spatial sizes, alone or after N and C (1-D data: one, the second axis
 * keeping its size).
 */
static int transpose_output_shape(struct nvc_loader *l, struct window *w,
				  const int64_t *in, const int64_t *out_pad)
{
	int64_t shape[4], total;
	int axes = w->one ? 1 : 2;
	int n, i, ret;

	ret = nvc_attr_ints(l, "output_shape", 4, shape, &n);
	if (ret || !n)
		return ret;
	if (n != axes && n != axes + 2)
		return nvc_node_error(l, -EINVAL, "output_shape needs %d value%s",
				      axes, axes > 1 ? "s" : "");
	for (i = 0; i < axes; i++) {
		total = w->stride[i] * (in[i] - 1) + out_pad[i] +
			(w->k[i] - 1) * w->dil[i] + 1 - shape[n - axes + i];
		if (total < 0 || total > MAX_WINDOW)
			return nvc_node_error(l, -EINVAL,
					      "output_shape %lld cannot be reached",
					      (long long)shape[n - axes + i]);
		w->pad[i] = !strcmp(w->auto_pad, "SAME_UPPER") ? total / 2 :
			    total - total / 2;
		w->pad[i + 2] = total - w->pad[i];
	}
	return 0;
}

int nvc_op_conv_transpose(struct nvc_loader *l)
{
	static const char *const known[] = { "auto_pad", "dilations", "group",
		"kernel_shape", "output_padding", "output_shape", "pads",
		"strides", NULL };
	struct window w = { 0 };
	struct nvc_value *x, *wv;
	int64_t group, dims[4], out_pad[2], in[2];
	int ret, k, i;

	ret = conv_inputs(l, known, &x, &wv, &w, &group, NULL);
	if (!ret)
		ret = ints2(l, &w, "output_padding", 0, 0, 0, out_pad, 2);
	if (ret)
		return ret;
	if (strcmp(w.auto_pad, "NOTSET") && !nvc_attr(l, "output_shape"))
		return nvc_node_error(l, -EINVAL,
				      "auto_pad %s without output_shape is not supported",
				      w.auto_pad);
	if (group < 1 || wv->dims[0] != x->dims[1] || x->dims[1] % group)
		return nvc_node_error(l, -EINVAL,
				      "group %lld and weights of %lld x %lld do not fit %lld input channels",
				      (long long)group, (long long)wv->dims[0],
				      (long long)wv->dims[1], (long long)x->dims[1]);
	ret = transpose_output_shape(l, &w, plane(x, in), out_pad);
	if (ret)
		return ret;
	dims[0] = 1;
	dims[1] = wv->dims[1] * group;
	for (i = 0; i < 2; i++) {
		if (out_pad[i] >= w.stride[i] && out_pad[i] >= w.dil[i])
			return nvc_node_error(l, -EINVAL,
					      "output_padding %lld is not below the stride or dilation",
					      (long long)out_pad[i]);
		dims[2 + i] = w.stride[i] * (in[i] - 1) + out_pad[i] +
			      w.dil[i] * (w.k[i] - 1) + 1 - w.pad[i] - w.pad[i + 2];
		if (dims[2 + i] < 1)
			return nvc_node_error(l, -EINVAL, "the padding leaves no output");
	}
	k = conv_node(l, NVC_CONV_TRANSPOSE, x, wv, &w, group, dims);
	if (k < 0)
		return k;
	l->g->nodes[k].conv.out_pad[0] = out_pad[0];
	l->g->nodes[k].conv.out_pad[1] = out_pad[1];
	return 0;
}

int nvc_conv1x1_node(struct nvc_loader *l, struct nvc_value *x, int64_t n,
		     const float *w, int bt)
{
	int64_t dims[NVC_MAX_RANK];
	struct nvc_node *nd;
	int k, wt;

	wt = nvc_const_tensor(l, "weights", n, x->dims[1], 1, 1, w);
	if (wt < 0)
		return wt;
	memcpy(dims, x->dims, sizeof(dims));
	dims[1] = n;
	k = nvc_unary_node(l, NVC_CONV, x, x->rank, dims);
	if (k < 0)
		return k;
	nd = &l->g->nodes[k];
	nd->conv.kh = nd->conv.kw = 1;
	nd->conv.stride[0] = nd->conv.stride[1] = 1;
	nd->conv.dilation[0] = nd->conv.dilation[1] = 1;
	nd->conv.group = 1;
	nd->conv.weights = wt;
	nd->conv.bias = bt;
	return 0;
}

/* Input 0 as [1, K] and input 1 as a K-row matrix (transposed: N x K). */
static int matrix_inputs(struct nvc_loader *l, int trans_b,
			 struct nvc_value **x, struct nvc_value **b)
{
	int ret = nvc_input_act(l, 0, x);

	if (!ret)
		ret = nvc_input_float(l, 1, b);
	if (ret)
		return ret;
	if ((*x)->rank != 2)
		return nvc_node_error(l, -EINVAL,
				      "input '%s' has rank %d; only [1, K] inputs are supported",
				      (*x)->name, (*x)->rank);
	if ((*b)->rank != 2 || (*b)->dims[trans_b ? 1 : 0] != (*x)->dims[1] ||
	    !(*b)->count)
		return nvc_node_error(l, -EINVAL,
				      "weights '%s' do not match %lld inputs",
				      (*b)->name, (long long)(*x)->dims[1]);
	return 0;
}

/* N x K weights from @b (K x N unless @trans_b), times @alpha. */
static float *fc_weights(const struct nvc_value *b, int trans_b, float alpha)
{
	int64_t n = b->dims[trans_b ? 0 : 1], kk = b->dims[trans_b ? 1 : 0];
	float *w = malloc(n * kk * sizeof(*w));
	int64_t i, j;

	if (!w)
		return NULL;
	for (i = 0; i < n; i++)
		for (j = 0; j < kk; j++)
			w[i * kk + j] = alpha * (trans_b ? b->f[i * kk + j] :
						 b->f[j * n + i]);
	return w;
}

int nvc_op_gemm(struct nvc_loader *l)
{
	static const char *const known[] = { "alpha", "beta", "transA",
		"transB", NULL };
	struct nvc_value *x, *b, *c;
	int64_t trans_a, trans_b, n, i;
	float alpha, beta, *w, *bias = NULL;
	int ret, bt = -1;

	ret = nvc_node_check(l, 2, 3, known);
	if (!ret)
		ret = nvc_attr_int(l, "transA", 0, &trans_a);
	if (!ret)
		ret = nvc_attr_int(l, "transB", 0, &trans_b);
	if (!ret)
		ret = nvc_attr_float(l, "alpha", 1, &alpha);
	if (!ret)
		ret = nvc_attr_float(l, "beta", 1, &beta);
	if (ret)
		return ret;
	if (trans_a)
		return nvc_node_error(l, -EINVAL, "transA is not supported");
	trans_b = !!trans_b;
	ret = matrix_inputs(l, trans_b, &x, &b);
	if (ret)
		return ret;
	n = b->dims[trans_b ? 0 : 1];
	ret = nvc_input_float_opt(l, 2, &c);
	if (ret)
		return ret;
	if (c) {
		if (c->count != 1 && c->count != n)
			return nvc_node_error(l, -EINVAL,
					      "C '%s' is neither a scalar nor %lld values",
					      c->name, (long long)n);
		bias = malloc(n * sizeof(*bias));
		if (!bias)
			return -ENOMEM;
		for (i = 0; i < n; i++)
			bias[i] = beta * c->f[c->count == 1 ? 0 : i];
		bt = nvc_const_tensor(l, "bias", 1, n, 1, 1, bias);
		free(bias);
		if (bt < 0)
			return bt;
	}
	w = fc_weights(b, trans_b, alpha);
	if (!w)
		return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	ret = nvc_conv1x1_node(l, x, n, w, bt);
	free(w);
	return ret;
}

int nvc_op_matmul(struct nvc_loader *l)
{
	static const char *const known[] = { NULL };
	struct nvc_value *x, *b;
	float *w;
	int ret;

	ret = nvc_node_check(l, 2, 2, known);
	if (!ret)
		ret = nvc_input_act(l, 0, &x);
	if (!ret)
		ret = x->rank == 3 || x->tokens ? nvc_input_float(l, 1, &b) :
		      matrix_inputs(l, 0, &x, &b);
	if (ret)
		return ret;
	if ((x->rank == 3 || x->tokens) &&
	    (b->rank != 2 || b->dims[0] != x->dims[x->rank - 1] || !b->count))
		return nvc_node_error(l, -EINVAL,
				      "weights '%s' do not match %lld inputs",
				      b->name, (long long)x->dims[x->rank - 1]);
	w = fc_weights(b, 0, 1);
	if (!w)
		return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	ret = x->rank == 3 || x->tokens ? nvc_tokens_matmul(l, x, b->dims[1], w) :
	      nvc_conv1x1_node(l, x, b->dims[1], w, -1);
	free(w);
	return ret;
}

/*
 * A Pad's zeros before an average pooling are values it counts: its
 * padding, counted. A maximum would take them, unlike its own padding.
 */
static int pool_fold_pad(struct nvc_loader *l, enum nvc_pool type,
			 struct window *w, const int64_t *pad,
			 int *count_include_pad)
{
	int i, own = 0;

	if (!pad[0] && !pad[1] && !pad[2] && !pad[3])
		return 0;
	if (type == NVC_POOL_MAX)
		return nvc_node_error(l, -EINVAL,
				      "a zero Pad before MaxPool is not folded (its zeros can be the maximum)");
	for (i = 0; i < 4; i++)
		own |= w->pad[i] != 0;
	if (own && !*count_include_pad)
		return nvc_node_error(l, -EINVAL,
				      "the padding of a Pad before it is counted, its own (count_include_pad 0) is not");
	for (i = 0; i < 4; i++)
		w->pad[i] += pad[i];
	*count_include_pad = 1;
	return 0;
}

static int pool(struct nvc_loader *l, enum nvc_pool type, struct window *w,
		struct nvc_value *x, const int64_t *pad, int count_include_pad)
{
	struct nvc_node *nd;
	int64_t dims[4], in[2];
	int ret, k, i;

	ret = window_out(l, w, plane(x, in));
	if (!ret)
		ret = pool_fold_pad(l, type, w, pad, &count_include_pad);
	if (ret)
		return ret;
	if (w->dil[0] != 1 || w->dil[1] != 1)
		return nvc_node_error(l, -EINVAL, "dilations are not supported");
	for (i = 0; i < 2; i++)
		if (w->pad[i] >= w->k[i] || w->pad[i + 2] >= w->k[i])
			return nvc_node_error(l, -EINVAL,
					      "padding %lld is not smaller than the kernel",
					      (long long)w->pad[i]);
	dims[0] = 1;
	dims[1] = x->dims[1];
	dims[2] = w->out[0];
	dims[3] = w->out[1];
	k = nvc_unary_node(l, NVC_POOL, x, x->rank, dims);
	if (k < 0)
		return k;
	nd = &l->g->nodes[k];
	nd->pool.type = type;
	nd->pool.kh = w->k[0];
	nd->pool.kw = w->k[1];
	for (i = 0; i < 2; i++)
		nd->pool.stride[i] = w->stride[i];
	for (i = 0; i < 4; i++)
		nd->pool.pad[i] = w->pad[i];
	nd->pool.ceil_mode = w->ceil;
	nd->pool.count_include_pad = count_include_pad;
	return 0;
}

static int pool_window(struct nvc_loader *l, struct window *w)
{
	int64_t ceil;
	int ret;

	ret = window_attrs(l, w);
	if (!ret)
		ret = nvc_attr_int(l, "ceil_mode", 0, &ceil);
	if (ret)
		return ret;
	if (!nvc_attr(l, "kernel_shape"))
		return nvc_node_error(l, -EINVAL, "kernel_shape is missing");
	w->ceil = !!ceil;
	return ints2(l, w, "kernel_shape", 1, 1, 1, w->k, 2);
}

/*
 * MaxPool and AvgPool: @flag is the one attribute of their own read
 * (storage_order, only checked; count_include_pad, used for averages).
 */
static int pool_op(struct nvc_loader *l, const char *const *known,
		   const char *flag, enum nvc_pool type)
{
	struct window w = { 0 };
	struct nvc_value *x;
	int64_t v, pad[4];
	int ret;

	ret = nvc_attr_check(l, known);
	if (!ret)
		ret = nvc_attr_int(l, flag, 0, &v);
	if (!ret)
		ret = nvc_io_check(l, 1, 1);
	if (!ret)
		ret = nvc_input_padded(l, &x, pad);
	if (ret)
		return ret;
	w.one = x->rank == 3;
	ret = pool_window(l, &w);
	if (ret)
		return ret;
	return pool(l, type, &w, x, pad, type == NVC_POOL_AVG && v);
}

int nvc_op_maxpool(struct nvc_loader *l)
{
	static const char *const known[] = { "auto_pad", "ceil_mode",
		"dilations", "kernel_shape", "pads", "storage_order", "strides",
		NULL };

	return pool_op(l, known, "storage_order", NVC_POOL_MAX);
}

int nvc_op_avgpool(struct nvc_loader *l)
{
	static const char *const known[] = { "auto_pad", "ceil_mode",
		"count_include_pad", "kernel_shape", "pads", "strides", NULL };

	return pool_op(l, known, "count_include_pad", NVC_POOL_AVG);
}

/* A pool over the whole plane of @x into an output of rank @rank. */
static int global_pool(struct nvc_loader *l, struct nvc_value *x,
		       enum nvc_pool type, int rank)
{
	int64_t dims[4] = { 1, x->dims[1], 1, 1 }, in[2];
	struct nvc_node *nd;
	int k;

	k = nvc_unary_node(l, NVC_POOL, x, rank, dims);
	if (k < 0)
		return k;
	nd = &l->g->nodes[k];
	nd->pool.type = type;
	nd->pool.kh = plane(x, in)[0];
	nd->pool.kw = in[1];
	nd->pool.stride[0] = in[0];
	nd->pool.stride[1] = in[1];
	nd->pool.global = 1;
	return 0;
}

int nvc_op_global_pool(struct nvc_loader *l)
{
	static const char *const known[] = { NULL };
	struct nvc_value *x;
	int ret;

	ret = nvc_node_check(l, 1, 1, known);
	if (!ret)
		ret = nvc_input_act(l, 0, &x);
	if (!ret && x->rank != 3 && x->rank != 4)
		ret = nvc_node_error(l, -EINVAL,
				     "input '%s' has rank %d; only 1-D (N, C, L) and 2-D (N, C, H, W) data is supported",
				     x->name, x->rank);
	if (ret)
		return ret;
	return global_pool(l, x, strcmp(l->op, "GlobalMaxPool") ?
			   NVC_POOL_AVG : NVC_POOL_MAX, x->rank);
}

/* ReduceMean and ReduceMax over height and width: a global pool. */
int nvc_op_reduce(struct nvc_loader *l)
{
	static const char *const known[] = { "axes", "keepdims", NULL };
	int64_t axes[NVC_MAX_RANK], keep;
	struct nvc_value *x;
	int ret, n, i, mask = 0;

	ret = nvc_node_check(l, 1, 1, known);
	if (!ret)
		ret = nvc_attr_ints(l, "axes", NVC_MAX_RANK, axes, &n);
	if (!ret)
		ret = nvc_attr_int(l, "keepdims", 1, &keep);
	if (!ret)
		ret = nvc_input_act(l, 0, &x);
	if (ret)
		return ret;
	/* Over the last axis: the layer normalisation torch writes. */
	if (!strcmp(l->op, "ReduceMean") && n == 1 && keep &&
	    (x->rank == 3 || x->rank == 2 || x->tokens) &&
	    (axes[0] == -1 || axes[0] == x->rank - 1))
		return nvc_layernorm_pattern(l, x);
	if (x->tokens)
		return nvc_node_error(l, -EINVAL,
				      "a mean over a channels-last view is supported only over its last axis, as a layer normalisation");
	if (x->rank != 4)
		return nvc_node_error(l, -EINVAL,
				      "input '%s' has rank %d; only 2-D (N, C, H, W) data is supported",
				      x->name, x->rank);
	for (i = 0; i < n; i++)
		if (axes[i] >= -4 && axes[i] < 4)
			mask |= 1 << (axes[i] < 0 ? axes[i] + 4 : axes[i]);
	if (mask != 0xc || n != 2)
		return nvc_node_error(l, -EINVAL,
				      "only a reduction over height and width (axes 2 and 3) is supported");
	return global_pool(l, x, strcmp(l->op, "ReduceMax") ? NVC_POOL_AVG :
			   NVC_POOL_MAX, keep ? 4 : 2);
}

int nvc_op_lrn(struct nvc_loader *l)
{
	static const char *const known[] = { "alpha", "beta", "bias", "size",
		NULL };
	struct nvc_value *x;
	struct nvc_node *nd;
	float alpha, beta, bias;
	int64_t size;
	int ret, k;

	ret = nvc_node_check(l, 1, 1, known);
	if (!ret)
		ret = nvc_attr_float(l, "alpha", 1e-4f, &alpha);
	if (!ret)
		ret = nvc_attr_float(l, "beta", 0.75f, &beta);
	if (!ret)
		ret = nvc_attr_float(l, "bias", 1.0f, &bias);
	if (!ret)
		ret = nvc_attr_int(l, "size", 0, &size);
	if (!ret)
		ret = nvc_input_act(l, 0, &x);
	if (ret)
		return ret;
	if (size < 1 || size > MAX_WINDOW)
		return nvc_node_error(l, -EINVAL, "size %lld is out of range",
				      (long long)size);
	k = nvc_unary_node(l, NVC_LRN, x, x->rank, x->dims);
	if (k < 0)
		return k;
	nd = &l->g->nodes[k];
	nd->lrn.size = size;
	nd->lrn.alpha = alpha;
	nd->lrn.beta = beta;
	nd->lrn.bias = bias;
	return 0;
}

/* An affine node on @x: scale and shift of c values each (NULL: none). */
int nvc_affine_node(struct nvc_loader *l, struct nvc_value *x,
		    const float *scale, const float *shift)
{
	struct nvc_node *nd;
	int k, st = -1, ht = -1;
	int c = l->g->tensors[x->tensor].c;

	if (scale) {
		st = nvc_const_tensor(l, "scale", 1, c, 1, 1, scale);
		if (st < 0)
			return st;
	}
	if (shift) {
		ht = nvc_const_tensor(l, "shift", 1, c, 1, 1, shift);
		if (ht < 0)
			return ht;
	}
	k = nvc_unary_node(l, NVC_AFFINE, x, x->rank, x->dims);
	if (k < 0)
		return k;
	nd = &l->g->nodes[k];
	nd->affine.scale = st;
	nd->affine.shift = ht;
	return 0;
}

int nvc_op_batchnorm(struct nvc_loader *l)
{
	static const char *const known[] = { "epsilon", "momentum", "spatial",
		"training_mode", NULL };
	struct nvc_value *x, *p[4];	/* scale, B, mean, var */
	int64_t spatial, training;
	float eps, *scale = NULL, *shift = NULL;
	int ret, i, c;

	ret = nvc_node_check(l, 5, 5, known);
	if (!ret)
		ret = nvc_attr_float(l, "epsilon", 1e-5f, &eps);
	if (!ret)
		ret = nvc_attr_int(l, "spatial", 1, &spatial);
	if (!ret)
		ret = nvc_attr_int(l, "training_mode", 0, &training);
	if (!ret)
		ret = nvc_input_act(l, 0, &x);
	for (i = 0; !ret && i < 4; i++)
		ret = nvc_input_float(l, i + 1, &p[i]);
	if (ret)
		return ret;
	if (spatial != 1 || training)
		return nvc_node_error(l, -EINVAL,
				      "only inference with spatial statistics is supported");
	c = x->dims[1];
	for (i = 0; i < 4; i++)
		if (p[i]->count != c)
			return nvc_node_error(l, -EINVAL,
					      "'%s' does not hold %d values",
					      p[i]->name, c);
	scale = malloc(c * sizeof(*scale));
	shift = malloc(c * sizeof(*shift));
	if (!scale || !shift) {
		ret = nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < c; i++) {
		float var = p[3]->f[i] + eps;

		if (!(var > 0)) {
			ret = nvc_node_error(l, -EINVAL,
					     "variance plus epsilon of channel %d is not positive",
					     i);
			goto out;
		}
		scale[i] = p[0]->f[i] / sqrtf(var);
		shift[i] = p[1]->f[i] - p[2]->f[i] * scale[i];
	}
	ret = nvc_affine_node(l, x, scale, shift);
out:
	free(scale);
	free(shift);
	return ret;
}
