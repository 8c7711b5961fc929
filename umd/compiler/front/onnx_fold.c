// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Operators on constants, computed while loading: exporters write
 * padding amounts and shapes as small subgraphs of constants (torch 1.13
 * writes nn.ZeroPad2d at opset 13 as ConstantOfShape, Concat, Reshape,
 * Slice, Transpose and Cast into a Pad). Elements are moved as bytes, so
 * one function serves FLOAT and INT64 data.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

static size_t elem_size(const struct nvc_value *v)
{
	return v->kind == VAL_INT64 ? sizeof(int64_t) : sizeof(float);
}

static void *elem_data(const struct nvc_value *v)
{
	return v->kind == VAL_INT64 ? (void *)v->i : (void *)v->f;
}

/* A new constant of @kind and @rank/@dims for output 0, its data zeroed. */
static int const_new(struct nvc_loader *l, enum nvc_value_kind kind, int rank,
		     const int64_t *dims, struct nvc_value **out)
{
	long n = nvc_dims_count(rank, dims);
	struct nvc_value *v;

	if (rank > NVC_MAX_RANK || n < 0)
		return nvc_node_error(l, -EINVAL,
				      "the constant result has rank %d or more than %ld elements",
				      rank, NVC_MAX_ELEMENTS);
	v = nvc_value_new(l, l->node->output[0]);
	if (!v)
		return -EINVAL;
	v->kind = kind;
	v->rank = rank;
	if (rank)
		memcpy(v->dims, dims, rank * sizeof(*dims));
	v->count = n;
	if (kind == VAL_INT64)
		v->i = calloc(n + 1, sizeof(*v->i));
	else
		v->f = calloc(n + 1, sizeof(*v->f));
	if (!elem_data(v))
		return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	*out = v;
	return 0;
}

/* Row-major strides of @rank/@dims. */
static void strides(int rank, const int64_t *dims, int64_t *st)
{
	int i;

	for (i = rank - 1; i >= 0; i--)
		st[i] = i == rank - 1 ? 1 : st[i + 1] * dims[i + 1];
}

/*
 * Copy into @y (every element, row-major) the element of @x at
 * sum(index[d] * step[d]) + @base over @x's strides: slices and transposes.
 */
static void gather_elems(const struct nvc_value *x, struct nvc_value *y,
			 const int64_t *step, int64_t base)
{
	size_t es = elem_size(x);
	int64_t idx[NVC_MAX_RANK] = { 0 };
	char *dst = elem_data(y);
	const char *src = elem_data(x);
	long k;
	int d;

	for (k = 0; k < y->count; k++) {
		int64_t at = base;

		for (d = 0; d < y->rank; d++)
			at += idx[d] * step[d];
		memcpy(dst + k * es, src + at * es, es);
		for (d = y->rank - 1; d >= 0 && ++idx[d] == y->dims[d]; d--)
			idx[d] = 0;
	}
}

int nvc_const_transpose(struct nvc_loader *l, struct nvc_value *x,
			const int64_t *perm)
{
	int64_t st[NVC_MAX_RANK], step[NVC_MAX_RANK], dims[NVC_MAX_RANK];
	struct nvc_value *y;
	int ret, i;

	strides(x->rank, x->dims, st);
	for (i = 0; i < x->rank; i++) {
		dims[i] = x->dims[perm[i]];
		step[i] = st[perm[i]];
	}
	ret = const_new(l, x->kind, x->rank, dims, &y);
	if (!ret)
		gather_elems(x, y, step, 0);
	return ret;
}

int nvc_const_concat(struct nvc_loader *l, int64_t axis)
{
	struct nvc_value *x[NVC_MAX_INPUTS], *y;
	int64_t dims[NVC_MAX_RANK], outer = 1, at = 0;
	size_t n = l->node->n_input, i, es;
	int ret, d;

	if (!n || n > NVC_MAX_INPUTS)
		return nvc_node_error(l, -EINVAL,
				      "%zu constants are concatenated (1 to %d)",
				      n, NVC_MAX_INPUTS);
	for (i = 0; i < n; i++) {
		ret = nvc_input_any(l, i, &x[i]);
		if (ret)
			return ret;
		if (x[i]->kind != x[0]->kind || x[i]->rank != x[0]->rank)
			return nvc_node_error(l, -EINVAL,
					      "'%s' and '%s' differ in type or rank",
					      x[0]->name, x[i]->name);
	}
	if (axis < -x[0]->rank || axis >= x[0]->rank)
		return nvc_node_error(l, -EINVAL, "axis %lld is out of range",
				      (long long)axis);
	axis += axis < 0 ? x[0]->rank : 0;
	memcpy(dims, x[0]->dims, sizeof(dims));
	dims[axis] = 0;
	for (i = 0; i < n; i++) {
		for (d = 0; d < x[0]->rank; d++)
			if (d != axis && x[i]->dims[d] != x[0]->dims[d])
				return nvc_node_error(l, -EINVAL,
						      "'%s' and '%s' differ beyond axis %lld",
						      x[0]->name, x[i]->name,
						      (long long)axis);
		dims[axis] += x[i]->dims[axis];
	}
	ret = const_new(l, x[0]->kind, x[0]->rank, dims, &y);
	if (ret)
		return ret;
	es = elem_size(y);
	for (d = 0; d < axis; d++)
		outer *= dims[d];
	/* Each input's block of every outer index, one after the other. */
	for (i = 0; i < n; i++) {
		int64_t inner = x[i]->count / (outer ? outer : 1), o;

		for (o = 0; o < outer; o++)
			memcpy((char *)elem_data(y) + (o * (y->count / outer) + at) * es,
			       (char *)elem_data(x[i]) + o * inner * es, inner * es);
		at += inner;
	}
	return 0;
}

/* One axis of a Slice: its start, its step and how many elements. */
static int64_t slice_axis(int64_t dim, int64_t start, int64_t end,
			  int64_t step, int64_t *first)
{
	start += start < 0 ? dim : 0;
	end += end < 0 ? dim : 0;
	if (step > 0) {
		start = start < 0 ? 0 : start > dim ? dim : start;
		end = end < 0 ? 0 : end > dim ? dim : end;
	} else {
		start = start < 0 ? 0 : start > dim - 1 ? dim - 1 : start;
		end = end < -1 ? -1 : end > dim - 1 ? dim - 1 : end;
	}
	*first = start;
	if ((step > 0 && end <= start) || (step < 0 && end >= start))
		return 0;
	return step > 0 ? (end - start + step - 1) / step :
			  (start - end - step - 1) / -step;
}

/*
 * A slice of activation @x to @dims from @first: along channels only, in
 * steps of 1 (@sp), as a Split.
 */
static int slice_act(struct nvc_loader *l, struct nvc_value *x,
		     const int64_t *dims, const int64_t *first,
		     const int64_t *sp)
{
	int i;

	for (i = 0; i < x->rank; i++)
		if (i != 1 && dims[i] != x->dims[i])
			return nvc_node_error(l, -EINVAL,
					      "only a slice of a computed tensor along channels is supported (axis %d changes)",
					      i);
	if (x->rank < 2 || sp[1] != 1 || !dims[1])
		return nvc_node_error(l, -EINVAL,
				      "only a slice of a computed tensor in steps of 1 that keeps channels is supported");
	return nvc_slice_channels(l, x, first[1], dims[1]);
}

/*
 * Slice (opset 10 on: starts, ends, axes and steps as inputs) of a
 * constant, or of a computed tensor along channels.
 */
int nvc_op_slice(struct nvc_loader *l)
{
	static const char *const none[] = { NULL };
	struct nvc_value *x, *s, *e, *a = NULL, *st = NULL, *y;
	int64_t dims[NVC_MAX_RANK], step[NVC_MAX_RANK], first[NVC_MAX_RANK];
	int64_t xst[NVC_MAX_RANK], sp_ax[NVC_MAX_RANK], base = 0;
	int ret, i;

	if (l->opset < 10)
		return nvc_node_error(l, -EINVAL,
				      "Slice before opset 10 is not supported");
	ret = nvc_node_check(l, 3, 5, none);
	if (!ret)
		ret = nvc_input_any(l, 0, &x);
	if (!ret)
		ret = nvc_input_int64(l, 1, &s);
	if (!ret)
		ret = nvc_input_int64(l, 2, &e);
	if (!ret && nvc_input_present(l, 3))
		ret = nvc_input_int64(l, 3, &a);
	if (!ret && nvc_input_present(l, 4))
		ret = nvc_input_int64(l, 4, &st);
	if (ret)
		return ret;
	if (s->count != e->count || (a && a->count != s->count) ||
	    (st && st->count != s->count) || s->count > x->rank)
		return nvc_node_error(l, -EINVAL,
				      "starts, ends, axes and steps differ in length");
	strides(x->rank, x->dims, xst);
	for (i = 0; i < x->rank; i++) {
		dims[i] = x->dims[i];
		step[i] = xst[i];
		first[i] = 0;
		sp_ax[i] = 1;
	}
	for (i = 0; i < s->count; i++) {
		int64_t ax = a ? a->i[i] : i, sp = st ? st->i[i] : 1;

		ax += ax < 0 ? x->rank : 0;
		if (ax < 0 || ax >= x->rank || !sp)
			return nvc_node_error(l, -EINVAL,
					      "axis %lld or step 0 is out of range",
					      (long long)(a ? a->i[i] : i));
		dims[ax] = slice_axis(x->dims[ax], s->i[i], e->i[i], sp,
				      &first[ax]);
		base += first[ax] * xst[ax];
		step[ax] = sp * xst[ax];
		sp_ax[ax] = sp;
	}
	if (x->kind == VAL_ACT)
		return slice_act(l, x, dims, first, sp_ax);
	ret = const_new(l, x->kind, x->rank, dims, &y);
	if (!ret)
		gather_elems(x, y, step, base);
	return ret;
}

/* Cast of a constant to FLOAT or INT64. */
int nvc_op_cast(struct nvc_loader *l)
{
	static const char *const known[] = { "to", NULL };
	struct nvc_value *x, *y;
	int64_t to;
	int ret;
	long k;

	ret = nvc_node_check(l, 1, 1, known);
	if (!ret)
		ret = nvc_attr_int(l, "to", 0, &to);
	if (!ret)
		ret = nvc_input_any(l, 0, &x);
	if (!ret && x->kind == VAL_ACT)
		ret = nvc_node_error(l, -EINVAL,
				     "only a cast of a constant is supported");
	if (!ret && to != ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT &&
	    to != ONNX__TENSOR_PROTO__DATA_TYPE__INT64)
		ret = nvc_node_error(l, -EINVAL,
				     "a cast to type %lld is not supported (FLOAT or INT64)",
				     (long long)to);
	if (ret)
		return ret;
	ret = const_new(l, to == ONNX__TENSOR_PROTO__DATA_TYPE__INT64 ?
			VAL_INT64 : VAL_FLOAT, x->rank, x->dims, &y);
	for (k = 0; !ret && k < x->count; k++) {
		if (y->kind == VAL_FLOAT)
			y->f[k] = x->kind == VAL_INT64 ? (float)x->i[k] : x->f[k];
		else if (x->kind == VAL_INT64)
			y->i[k] = x->i[k];
		else if (!(fabsf(x->f[k]) < 0x1p63f))
			ret = nvc_node_error(l, -EINVAL,
					     "%g does not fit INT64", x->f[k]);
		else
			y->i[k] = (int64_t)x->f[k];
	}
	return ret;
}

/* ConstantOfShape: a constant of the shape input 0 gives, one value. */
int nvc_op_constant_of_shape(struct nvc_loader *l)
{
	static const char *const known[] = { "value", NULL };
	const Onnx__AttributeProto *a;
	struct nvc_value *s, fill = { .name = "value" }, *y;
	int ret;
	long k;

	ret = nvc_node_check(l, 1, 1, known);
	if (!ret)
		ret = nvc_input_int64(l, 0, &s);
	if (ret)
		return ret;
	if (s->rank != 1 || s->count > NVC_MAX_RANK)
		return nvc_node_error(l, -EINVAL,
				      "the shape is not a list of up to %d sizes",
				      NVC_MAX_RANK);
	a = nvc_attr(l, "value");
	if (a && a->t) {
		ret = nvc_tensor_value(l, a->t, &fill);
		if (!ret && fill.count != 1)
			ret = nvc_node_error(l, -EINVAL,
					     "value has %ld elements (one)",
					     fill.count);
	}
	if (!ret)
		ret = const_new(l, a && a->t ? fill.kind : VAL_FLOAT,
				s->count, s->i, &y);
	for (k = 0; !ret && a && a->t && k < y->count; k++)
		memcpy((char *)elem_data(y) + k * elem_size(y),
		       elem_data(&fill), elem_size(y));
	free(fill.f);
	free(fill.i);
	return ret;
}

/*
 * Strides of @v's elements for an index of @rank dims, @v aligned to the
 * right and broadcast (stride 0) along its dims of 1 and those it lacks.
 */
static void broadcast_strides(const struct nvc_value *v, int rank,
			     int64_t *st)
{
	int64_t own[NVC_MAX_RANK];
	int d, k;

	strides(v->rank, v->dims, own);
	for (d = 0; d < rank; d++) {
		k = d - (rank - v->rank);
		st[d] = k < 0 || v->dims[k] == 1 ? 0 : own[k];
	}
}

/* One element of Add, Sub, Mul or Div (@op), in float and in integers. */
static float arith_f(const char *op, float a, float b)
{
	return op[0] == 'A' ? a + b : op[0] == 'S' ? a - b :
	       op[0] == 'M' ? a * b : a / b;
}

static int64_t arith_i(const char *op, int64_t a, int64_t b)
{
	return op[0] == 'A' ? a + b : op[0] == 'S' ? a - b :
	       op[0] == 'M' ? a * b : a / b;
}

int nvc_const_arith(struct nvc_loader *l, struct nvc_value *a,
		    struct nvc_value *b)
{
	int64_t dims[NVC_MAX_RANK], sa[NVC_MAX_RANK], sb[NVC_MAX_RANK];
	int64_t idx[NVC_MAX_RANK] = { 0 };
	int rank = a->rank > b->rank ? a->rank : b->rank, d, ret;
	struct nvc_value *y;
	long k;

	if (a->kind != b->kind)
		return nvc_node_error(l, -EINVAL,
				      "'%s' and '%s' differ in type", a->name,
				      b->name);
	for (d = 0; d < rank; d++) {
		int ka = d - (rank - a->rank), kb = d - (rank - b->rank);
		int64_t da = ka < 0 ? 1 : a->dims[ka], db = kb < 0 ? 1 : b->dims[kb];

		if (da != db && da != 1 && db != 1)
			return nvc_node_error(l, -EINVAL,
					      "'%s' and '%s' do not broadcast",
					      a->name, b->name);
		dims[d] = da == 1 ? db : da;
	}
	broadcast_strides(a, rank, sa);
	broadcast_strides(b, rank, sb);
	ret = const_new(l, a->kind, rank, dims, &y);
	for (k = 0; !ret && k < y->count; k++) {
		int64_t ia = 0, ib = 0;

		for (d = 0; d < rank; d++) {
			ia += idx[d] * sa[d];
			ib += idx[d] * sb[d];
		}
		if (l->op[0] == 'D' &&
		    (y->kind == VAL_INT64 ? b->i[ib] == 0 : b->f[ib] == 0))
			return nvc_node_error(l, -EINVAL,
					      "divides by zero (element %lld of '%s')",
					      (long long)ib, b->name);
		if (y->kind == VAL_INT64)
			y->i[k] = arith_i(l->op, a->i[ia], b->i[ib]);
		else
			y->f[k] = arith_f(l->op, a->f[ia], b->f[ib]);
		for (d = rank - 1; d >= 0 && ++idx[d] == dims[d]; d--)
			idx[d] = 0;
	}
	return ret;
}

