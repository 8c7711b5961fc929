// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The channel shuffle as torch writes it (ShuffleNet's channel_shuffle):
 * Reshape [1, C, H, W] -> [1, g, C/g, H, W], Transpose (0, 2, 1, 3, 4),
 * Reshape -> [1, C, H, W]. The rank-5 steps are views of the tensor
 * (no node); the last Reshape becomes a 1x1 convolution whose weights
 * pick, for output channel j = a g + b, input channel b C/g + a: a
 * permutation the convolution pipeline runs exactly (fp16: one product by
 * 1 and zeros; int8: one weight code per channel).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

int nvc_value_dims(const struct nvc_value *x, int64_t *dims)
{
	int64_t g = x->view_groups;

	if (!x->view_node) {
		memcpy(dims, x->dims, x->rank * sizeof(*dims));
		return x->rank;
	}
	dims[0] = 1;
	dims[1] = x->view_swapped ? x->dims[1] / g : g;
	dims[2] = x->view_swapped ? g : x->dims[1] / g;
	dims[3] = x->dims[2];
	dims[4] = x->dims[3];
	return NVC_MAX_RANK + 1;
}

int nvc_view_begin(struct nvc_loader *l, struct nvc_value *x,
		   const int64_t *dims)
{
	struct nvc_value *y;

	if (x->view_node || x->rank != NVC_MAX_RANK || dims[0] != 1 ||
	    dims[1] * dims[2] != x->dims[1] || dims[3] != x->dims[2] ||
	    dims[4] != x->dims[3])
		return nvc_node_error(l, -EINVAL,
				      "the shape has rank 5; only [1, g, C/g, H, W] of a [1, C, H, W] tensor (a channel shuffle's view) is supported");
	y = nvc_value_new(l, l->node->output[0]);
	if (!y)
		return -EINVAL;
	*y = *x;
	y->name = l->node->output[0];
	y->view_node = l->node_name;
	y->view_groups = dims[1];
	y->view_swapped = 0;
	return 0;
}

int nvc_view_transpose(struct nvc_loader *l, struct nvc_value *x, int n,
		       const int64_t *perm)
{
	static const int64_t swap[] = { 0, 2, 1, 3, 4 };
	struct nvc_value *y;

	if (n != NVC_MAX_RANK + 1 || memcmp(perm, swap, sizeof(swap)))
		return nvc_node_error(l, -EINVAL,
				      "input '%s' is a rank-5 view of channel groups; only the permutation (0, 2, 1, 3, 4) of a channel shuffle is supported",
				      x->name);
	y = nvc_value_new(l, l->node->output[0]);
	if (!y)
		return -EINVAL;
	*y = *x;
	y->name = l->node->output[0];
	y->view_swapped = !x->view_swapped;
	return 0;
}

/* Weights of the shuffle of @c channels in @g groups: @c x @c, one-hot. */
static float *shuffle_weights(int64_t c, int64_t g)
{
	float *w = calloc((size_t)(c * c), sizeof(*w));
	int64_t j;

	if (!w)
		return NULL;
	for (j = 0; j < c; j++)
		w[j * c + (j % g) * (c / g) + j / g] = 1.0f;
	return w;
}

int nvc_view_end(struct nvc_loader *l, struct nvc_value *x, int rank,
		 const int64_t *dims)
{
	struct nvc_value plain = *x;
	float *w;
	int ret;

	if (rank != NVC_MAX_RANK || memcmp(dims, x->dims, sizeof(x->dims)))
		return nvc_node_error(l, -EINVAL,
				      "input '%s' is a rank-5 view of channel groups; only a Reshape back to its [1, C, H, W] is supported",
				      x->name);
	if (x->dims[1] * x->dims[1] > NVC_MAX_ELEMENTS)
		return nvc_node_error(l, -EINVAL,
				      "a shuffle of %lld channels needs too many weights",
				      (long long)x->dims[1]);
	plain.view_node = NULL;
	w = shuffle_weights(x->dims[1], x->view_groups);
	if (!w)
		return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	ret = nvc_conv1x1_node(l, &plain, x->dims[1], w, -1);
	free(w);
	return ret;
}
