// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Shape arithmetic on constants, as exporters write it for a dynamic
 * batch (x.view(x.size(0), -1): Shape, Gather, Unsqueeze, Concat into a
 * Reshape): computed while loading, so that the Reshape sees a constant.
 * The batch is 1, so a shape is known once its tensor's is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

/* A new INT64 constant for output 0: @count values of @rank/@dims. */
static int const_int64(struct nvc_loader *l, int rank, const int64_t *dims,
		       const int64_t *data, long count)
{
	struct nvc_value *v = nvc_value_new(l, l->node->output[0]);

	if (!v)
		return -EINVAL;
	v->kind = VAL_INT64;
	v->rank = rank;
	if (rank)
		memcpy(v->dims, dims, rank * sizeof(*dims));
	v->count = count;
	v->i = malloc((count + 1) * sizeof(*v->i));
	if (!v->i)
		return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	if (count)
		memcpy(v->i, data, count * sizeof(*data));
	return 0;
}

int nvc_op_shape(struct nvc_loader *l)
{
	static const char *const known[] = { "start", "end", NULL };
	struct nvc_value *x;
	int64_t start, end, n;
	int ret;

	ret = nvc_node_check(l, 1, 1, known);
	if (!ret)
		ret = nvc_attr_int(l, "start", 0, &start);
	if (!ret)
		ret = nvc_attr_int(l, "end", NVC_MAX_RANK, &end);
	if (!ret)
		ret = nvc_input_any(l, 0, &x);
	if (ret)
		return ret;
	/* Clamped to the rank, as the operator defines it. */
	start += start < 0 ? x->rank : 0;
	end += end < 0 ? x->rank : 0;
	start = start < 0 ? 0 : start > x->rank ? x->rank : start;
	end = end < start ? start : end > x->rank ? x->rank : end;
	n = end - start;
	return const_int64(l, 1, &n, x->dims + start, n);
}

int nvc_op_gather(struct nvc_loader *l)
{
	static const char *const known[] = { "axis", NULL };
	struct nvc_value *d, *ix;
	int64_t axis, out[NVC_MAX_RANK];
	int ret, i;

	ret = nvc_node_check(l, 2, 2, known);
	if (!ret)
		ret = nvc_attr_int(l, "axis", 0, &axis);
	if (!ret)
		ret = nvc_input_int64(l, 0, &d);
	if (!ret)
		ret = nvc_input_int64(l, 1, &ix);
	if (ret)
		return ret;
	if (d->rank != 1 || axis != 0 || ix->rank > 1 || ix->count > NVC_MAX_RANK)
		return nvc_node_error(l, -EINVAL,
				      "only a gather of up to %d values from a list of integers is supported",
				      NVC_MAX_RANK);
	for (i = 0; i < ix->count; i++) {
		int64_t k = ix->i[i] < 0 ? ix->i[i] + d->count : ix->i[i];

		if (k < 0 || k >= d->count)
			return nvc_node_error(l, -EINVAL, "index %lld is out of range",
					      (long long)ix->i[i]);
		out[i] = d->i[k];
	}
	return const_int64(l, ix->rank, ix->dims, out, ix->count);
}

int nvc_const_reshape(struct nvc_loader *l, struct nvc_value *x, int rank,
		      const int64_t *dims)
{
	struct nvc_value *v;

	if (x->kind == VAL_INT64)
		return const_int64(l, rank, dims, x->i, x->count);
	v = nvc_value_new(l, l->node->output[0]);
	if (!v)
		return -EINVAL;
	v->kind = VAL_FLOAT;
	v->rank = rank;
	if (rank)
		memcpy(v->dims, dims, rank * sizeof(*dims));
	v->count = x->count;
	v->f = malloc((x->count + 1) * sizeof(*v->f));
	if (!v->f)
		return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	if (x->count)
		memcpy(v->f, x->f, x->count * sizeof(*v->f));
	return 0;
}
