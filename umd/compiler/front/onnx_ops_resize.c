// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Resize and Upsample (opsets 7 to 9), nearest neighbour by whole factors
 * of height and width (the 2x upsampling of YOLO-style necks): a transposed convolution whose kernel
 * is its stride, sy x sx, with weights 1 from each channel to itself and
 * 0 across channels, which the back end lowers like any such
 * ConvTranspose (exact: each output is one input times 1). Mode linear
 * (bilinear) of height and width by 2 with half-pixel or asymmetric
 * coordinates is that, Pad edge and a depthwise convolution (linear_x2);
 * by other scales or sizes, or aligning corners, a CPU task
 * (NVC_CPU_RESIZE), with --cpu-fallback.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"
#include "onnx.h"

/*
 * Upsample, and Resize before opset 11: scales in input 1, asymmetric
 * coordinates rounded down by default.
 */
static bool resize_before_11(const struct nvc_loader *l)
{
	return l->opset < 11 || !strcmp(l->op, "Upsample");
}

/* The whole factors of height and width from 4 scales @v into @f. */
static int scale_factors(struct nvc_loader *l, const float *v, long n,
			 int64_t *f)
{
	int i;

	if (n != 4 || v[0] != 1 || v[1] != 1)
		return nvc_node_error(l, -EINVAL,
				      "the scales must be 4 values, 1 for batch and channels");
	for (i = 0; i < 2; i++) {
		/* In range before the conversion (NaN fails too). */
		if (!(v[2 + i] >= 1 && v[2 + i] <= 16) ||
		    v[2 + i] != floorf(v[2 + i]))
			return nvc_node_error(l, -EINVAL,
					      "scale %g is not a whole factor from 1 to 16",
					      v[2 + i]);
		f[i] = (int64_t)v[2 + i];
	}
	return 0;
}

/*
 * The whole factors of height and width into @f: from the scales (the
 * attribute of Upsample before opset 9, else input 1 of Upsample and of
 * Resize before opset 11, input 2 from then) or the sizes (input 3).
 */
static int factors(struct nvc_loader *l, const struct nvc_value *x,
		   int64_t *f)
{
	int si = resize_before_11(l) ? 1 : 2, i;
	const Onnx__AttributeProto *a = nvc_attr(l, "scales");
	struct nvc_value *v;
	int ret;

	if (a)
		return scale_factors(l, a->floats, (long)a->n_floats, f);
	if (nvc_input_present(l, si) &&
	    nvc_value_find(l, l->node->input[si])->count) {
		ret = nvc_input_float(l, si, &v);
		return ret ? ret : scale_factors(l, v->f, v->count, f);
	}
	ret = nvc_input_int64(l, 3, &v);
	if (ret)
		return ret;
	if (v->count != 4 || v->i[0] != 1 || v->i[1] != x->dims[1])
		return nvc_node_error(l, -EINVAL,
				      "the sizes must be 4 values keeping batch and channels");
	for (i = 0; i < 2; i++) {
		f[i] = v->i[2 + i] / x->dims[2 + i];
		if (v->i[2 + i] % x->dims[2 + i] || f[i] < 1 || f[i] > 16)
			return nvc_node_error(l, -EINVAL,
					      "size %lld is not a whole factor from 1 to 16 of %lld",
					      (long long)v->i[2 + i],
					      (long long)x->dims[2 + i]);
	}
	return 0;
}

/*
 * The bilinear output's plane from scales or sizes (input 1, 2 or 3),
 * and the input pixels per output pixel: 1 / scale as ONNX (and torch's
 * scale_factor) samples, or n / m from sizes.
 */
static int linear_plane(struct nvc_loader *l, const struct nvc_value *x,
			int64_t *hw, float *step)
{
	int si = resize_before_11(l) ? 1 : 2, i;
	const Onnx__AttributeProto *a = nvc_attr(l, "scales");
	struct nvc_value *v;
	const float *f = NULL;
	float size;
	int ret;

	if (a && a->n_floats == 4)
		f = a->floats;
	else if (!a && nvc_input_present(l, si) &&
		 nvc_value_find(l, l->node->input[si])->count) {
		ret = nvc_input_float(l, si, &v);
		if (ret)
			return ret;
		f = v->count == 4 ? v->f : NULL;
	}
	if (a || f) {
		if (!f || f[0] != 1 || f[1] != 1)
			return nvc_node_error(l, -EINVAL,
					      "the scales must be 4 values, 1 for batch and channels");
		for (i = 0; i < 2; i++) {
			/* In range before it is converted (NaN is not). */
			size = floorf(x->dims[2 + i] * f[2 + i]);
			if (!(size >= 1 && size <= NVC_MAX_DIM))
				return nvc_node_error(l, -EINVAL,
						      "scale %g of %lld pixels gives an output size out of range",
						      f[2 + i],
						      (long long)x->dims[2 + i]);
			hw[i] = (int64_t)size;
			step[i] = 1 / f[2 + i];
		}
	} else {
		ret = nvc_input_int64(l, 3, &v);
		if (ret)
			return ret;
		if (v->count != 4 || v->i[0] != 1 || v->i[1] != x->dims[1])
			return nvc_node_error(l, -EINVAL,
					      "the sizes must be 4 values keeping batch and channels");
		hw[0] = v->i[2];
		hw[1] = v->i[3];
	}
	for (i = 0; i < 2; i++) {
		if (hw[i] < 1 || hw[i] > NVC_MAX_DIM)
			return nvc_node_error(l, -EINVAL,
					      "output size %lld is out of range",
					      (long long)hw[i]);
		if (!a && !f)
			step[i] = (float)x->dims[2 + i] / hw[i];
	}
	return 0;
}

/* The coordinate mapping of a bilinear resize (emu.h's enum emu_coord). */
static int linear_coord(struct nvc_loader *l, const char *coord)
{
	static const char *const names[EMU_COORD_COUNT] = {
		[EMU_COORD_HALF_PIXEL] = "half_pixel",
		[EMU_COORD_PYTORCH_HALF_PIXEL] = "pytorch_half_pixel",
		[EMU_COORD_ALIGN_CORNERS] = "align_corners",
		[EMU_COORD_ASYMMETRIC] = "asymmetric",
	};
	int i;

	for (i = 0; i < EMU_COORD_COUNT; i++)
		if (!strcmp(coord, names[i]))
			return i;
	return nvc_node_error(l, -EINVAL,
			      "mode 'linear' with coordinate_transformation_mode '%s' is not supported (half_pixel, pytorch_half_pixel, align_corners, asymmetric)",
			      coord);
}

/*
 * The weights of a nearest resize by whole factors @f of @c channels: 1
 * from each channel to itself for each of the f[0] x f[1] phases. The
 * constant's index, or a negative errno.
 */
static int nearest_weights(struct nvc_loader *l, int64_t c, const int64_t *f)
{
	float *w;
	int64_t i;
	int wt;

	if (c * c * f[0] * f[1] > NVC_MAX_ELEMENTS)
		return nvc_node_error(l, -EINVAL, "the resized tensor is too large");
	w = calloc((size_t)(c * c * f[0] * f[1]), sizeof(*w));
	if (!w)
		return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	for (i = 0; i < c * f[0] * f[1]; i++)
		w[(i / (f[0] * f[1])) * (c + 1) * f[0] * f[1] +
		  i % (f[0] * f[1])] = 1;
	wt = nvc_const_tensor(l, "weights", c, c, f[0], f[1], w);
	free(w);
	return wt;
}

/* @nd: the transposed convolution of a nearest resize by @f. */
static void nearest_attr(struct nvc_node *nd, const int64_t *f, int wt)
{
	nd->conv = (struct nvc_conv_attr){ .kh = f[0], .kw = f[1],
		.stride = { f[0], f[1] }, .dilation = { 1, 1 }, .group = 1,
		.weights = wt, .bias = -1 };
}

/* A tensor of @c x @h x @w named after the node and @what, or -errno. */
static int inner_tensor(struct nvc_loader *l, const char *what, int c, int h,
			int w)
{
	char name[NVC_ERR_LEN];
	int t;

	snprintf(name, sizeof(name), "%s/%s", l->node_name, what);
	t = nvc_tensor_add(l->g, name, 1, c, h, w, NULL);
	return t < 0 ? nvc_error(l->err, l->errlen, t, "out of memory") : t;
}

/*
 * Bilinear by 2 of height and width on the DLA, exact up to rounding:
 * nearest by 2, Pad edge, then a depthwise convolution without padding.
 * Half-pixel coordinates sample 3/4 of a pixel and 1/4 of its neighbour
 * on each side: padded by 1 all round, weights [1, 2, 1] / 4 each way.
 * Asymmetric ones sample each pixel, then halfway to the next: padded by
 * 1 after, weights [1, 1] / 2 each way. Clamping at the borders is the
 * edge padding's repeat.
 */
static int linear_x2(struct nvc_loader *l, struct nvc_value *x, int coord,
		     const int64_t *dims)
{
	static const int64_t two[2] = { 2, 2 };
	static const float half[] = { 1, 2, 1 }, asym[] = { 1, 1 };
	bool hp = coord != EMU_COORD_ASYMMETRIC;
	int c = dims[1], h = dims[2], w = dims[3], kk = hp ? 3 : 2;
	const float *k1 = hp ? half : asym;
	float sum = hp ? 16 : 4, *wd;
	int in[1], t[2], wt, k, i, ret;
	struct nvc_value *y;
	struct nvc_node *nd;

	wt = nearest_weights(l, c, two);
	if (wt < 0)
		return wt;
	ret = nvc_output_act(l, 0, 4, dims, &y);
	if (ret)
		return ret;
	t[0] = inner_tensor(l, "nearest", c, h, w);
	t[1] = t[0] < 0 ? t[0] :
	       inner_tensor(l, "edge", c, h + kk - 1, w + kk - 1);
	if (t[1] < 0)
		return t[1];
	k = nvc_node_new(l, NVC_CONV_TRANSPOSE, 1, &x->tensor, 1, &t[0]);
	if (k < 0)
		return k;
	nearest_attr(&l->g->nodes[k], two, wt);
	in[0] = t[0];
	k = nvc_node_new(l, NVC_PAD, 1, in, 1, &t[1]);
	if (k < 0)
		return k;
	l->g->nodes[k].pad = (struct nvc_pad_attr){ .mode = NVC_PAD_EDGE,
		.pad = { hp, hp, 1, 1 } };
	wd = malloc((size_t)c * kk * kk * sizeof(*wd));
	if (!wd)
		return nvc_error(l->err, l->errlen, -ENOMEM, "out of memory");
	for (i = 0; i < c * kk * kk; i++)
		wd[i] = k1[i / kk % kk] * k1[i % kk] / sum;
	wt = nvc_const_tensor(l, "smooth", c, 1, kk, kk, wd);
	free(wd);
	if (wt < 0)
		return wt;
	k = nvc_node_new(l, NVC_CONV, 1, &t[1], 1, &y->tensor);
	if (k < 0)
		return k;
	nd = &l->g->nodes[k];
	nd->conv = (struct nvc_conv_attr){ .kh = kk, .kw = kk,
		.stride = { 1, 1 }, .dilation = { 1, 1 }, .group = c,
		.weights = wt, .bias = -1 };
	return 0;
}

/*
 * Mode linear: by 2 of height and width with half-pixel or asymmetric
 * coordinates on the DLA (linear_x2), else a bilinear resize on the CPU.
 */
static int resize_linear(struct nvc_loader *l, const char *coord)
{
	struct nvc_value *x;
	int64_t dims[4], v;
	float step[2];
	int ret, k, c;

	ret = nvc_attr_int(l, "exclude_outside", 0, &v);
	if (!ret && v)
		ret = nvc_node_error(l, -EINVAL, "exclude_outside is not supported");
	if (!ret)
		ret = nvc_input_act4(l, 0, &x);
	if (ret)
		return ret;
	c = linear_coord(l, coord);
	if (c < 0)
		return c;
	memcpy(dims, x->dims, sizeof(dims));
	ret = linear_plane(l, x, dims + 2, step);
	if (!ret && nvc_dims_count(4, dims) < 0)
		ret = nvc_node_error(l, -EINVAL, "the resized tensor is too large");
	if (ret)
		return ret;
	if (dims[2] == 2 * x->dims[2] && dims[3] == 2 * x->dims[3] &&
	    step[0] == 0.5f && step[1] == 0.5f && c != EMU_COORD_ALIGN_CORNERS)
		return linear_x2(l, x, c, dims);
	k = nvc_unary_node(l, NVC_CPU, x, 4, dims);
	if (k < 0)
		return k;
	l->g->nodes[k].cpu = NVC_CPU_RESIZE;
	l->g->nodes[k].cpu_coord = c;
	memcpy(l->g->nodes[k].cpu_step, step, sizeof(step));
	return 0;
}

/*
 * Whether output pixel y of a nearest resize by a whole factor reads
 * input pixel floor(y / f), as the transposed convolution computes: with
 * asymmetric coordinates rounded down, and with half-pixel ones rounded
 * to the nearest (the source y / f + (1 / f - 1) / 2 never ends in .5).
 */
static int mapping(struct nvc_loader *l, int *linear)
{
	char mode[32], coord[32], near[32];
	int ret;

	bool old = resize_before_11(l);

	ret = nvc_attr_string(l, "mode", "nearest", mode, sizeof(mode));
	if (!ret)
		ret = nvc_attr_string(l, "coordinate_transformation_mode",
				      old ? "asymmetric" : "half_pixel",
				      coord, sizeof(coord));
	if (!ret)
		ret = nvc_attr_string(l, "nearest_mode",
				      old ? "floor" : "round_prefer_floor",
				      near, sizeof(near));
	if (ret)
		return ret;
	if (!strcmp(mode, "linear") && !resize_before_11(l)) {
		*linear = 1;
		return resize_linear(l, coord);
	}
	if (strcmp(mode, "nearest"))
		return nvc_node_error(l, -EINVAL,
				      "only modes 'nearest' and 'linear' (opset 11 on) are supported (mode '%s')",
				      mode);
	if (!strcmp(coord, "asymmetric") ? !strcmp(near, "floor") :
	    (!strcmp(coord, "half_pixel") ||
	     !strcmp(coord, "pytorch_half_pixel")) && !strncmp(near, "round_", 6))
		return 0;
	return nvc_node_error(l, -EINVAL,
			      "coordinate_transformation_mode '%s' with nearest_mode '%s' is not supported (asymmetric with floor, or half_pixel with rounding)",
			      coord, near);
}

int nvc_op_resize(struct nvc_loader *l)
{
	static const char *const known[] = { "mode",
		"coordinate_transformation_mode", "nearest_mode",
		"cubic_coeff_a", "exclude_outside", "extrapolation_value",
		NULL };
	int64_t f[2] = { 1, 1 }, dims[4];
	struct nvc_value *x;
	int ret, k, wt, linear = 0;

	static const char *const upsample7[] = { "mode", "scales", NULL };
	static const char *const upsample9[] = { "mode", NULL };
	int up = !strcmp(l->op, "Upsample");

	if (up && l->opset >= 10)
		return nvc_node_error(l, -EINVAL,
				      "Upsample is deprecated from opset 10 (Resize replaces it)");
	ret = up ? nvc_node_check(l, l->opset < 9 ? 1 : 2, l->opset < 9 ? 1 : 2,
				  l->opset < 9 ? upsample7 : upsample9) :
	      nvc_node_check(l, 2, l->opset < 11 ? 2 : 4, known);
	if (!ret && up && l->opset < 9 && !nvc_attr(l, "scales"))
		ret = nvc_node_error(l, -EINVAL, "scales is missing");
	if (!ret)
		ret = mapping(l, &linear);
	if (linear || ret)
		return ret;
	if (!ret)
		ret = nvc_input_act4(l, 0, &x);
	if (!ret)
		ret = factors(l, x, f);
	if (ret)
		return ret;
	memcpy(dims, x->dims, sizeof(dims));
	dims[2] *= f[0];
	dims[3] *= f[1];
	if (dims[2] > NVC_MAX_DIM || dims[3] > NVC_MAX_DIM ||
	    nvc_dims_count(4, dims) < 0)
		return nvc_node_error(l, -EINVAL, "the resized tensor is too large");
	wt = nearest_weights(l, x->dims[1], f);
	if (wt < 0)
		return wt;
	k = nvc_unary_node(l, NVC_CONV_TRANSPOSE, x, 4, dims);
	if (k < 0)
		return k;
	nearest_attr(&l->g->nodes[k], f, wt);
	return 0;
}
