// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The float executor: runs a checked graph node by node in float32
 * (sums in double), keeping every activation tensor's values. It is the
 * reference of nvdla_compile --exec and what calibration measures.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"

static float act_one(const struct nvc_activation *a, const float *slope,
		     int c, float x)
{
	switch (a->type) {
	case NVC_ACT_RELU:
		return x > 0 ? x : 0;
	case NVC_ACT_CLIP:
		return x < a->min ? a->min : x > a->max ? a->max : x;
	case NVC_ACT_LEAKY:
		return x < 0 ? a->alpha * x : x;
	case NVC_ACT_PRELU:
		return x < 0 ? slope[c] * x : x;
	case NVC_ACT_SIGMOID:
		return 1 / (1 + expf(-x));
	case NVC_ACT_TANH:
		return tanhf(x);
	default:
		return x;
	}
}

void nvc_exec_act(const struct nvc_graph *g, const struct nvc_activation *a,
		     const struct nvc_tensor *t, float *v)
{
	const float *slope = a->type == NVC_ACT_PRELU ?
			     g->tensors[a->slope].data : NULL;
	long hw = (long)t->h * t->w, i;
	int c;

	if (a->type == NVC_ACT_NONE)
		return;
	for (c = 0; c < t->c; c++)
		for (i = 0; i < hw; i++)
			v[c * hw + i] = act_one(a, slope, c, v[c * hw + i]);
}

static void exec_affine(const struct nvc_graph *g, const struct nvc_node *nd,
			const float *x, float *y)
{
	const struct nvc_tensor *t = &g->tensors[nd->outputs[0]];
	const float *scale = nd->affine.scale >= 0 ?
			     g->tensors[nd->affine.scale].data : NULL;
	const float *shift = nd->affine.shift >= 0 ?
			     g->tensors[nd->affine.shift].data : NULL;
	long hw = (long)t->h * t->w, i;
	int c;

	for (c = 0; c < t->c; c++)
		for (i = 0; i < hw; i++)
			y[c * hw + i] = x[c * hw + i] * (scale ? scale[c] : 1) +
					(shift ? shift[c] : 0);
}

static void exec_eltwise(const struct nvc_graph *g, const struct nvc_node *nd,
			 const float *a, const float *b, float *y)
{
	const struct nvc_tensor *t = &g->tensors[nd->outputs[0]];
	long n = nvc_tensor_size(t), plane = (long)t->h * t->w, i;
	bool chan = nvc_per_channel(g, nd);

	for (i = 0; i < n; i++) {
		float v = b[chan ? i / plane : i];

		y[i] = nd->eltwise == NVC_ELT_ADD ? a[i] + v :
		       nd->eltwise == NVC_ELT_MUL ? a[i] * v :
		       a[i] > v ? a[i] : v;
	}
}

static void exec_concat(const struct nvc_graph *g, const struct nvc_node *nd,
			float *const *values, float *y)
{
	long off = 0, n;
	int i;

	for (i = 0; i < nd->num_inputs; i++) {
		n = nvc_tensor_size(&g->tensors[nd->inputs[i]]);
		memcpy(y + off, values[nd->inputs[i]], n * sizeof(*y));
		off += n;
	}
}

static void exec_split(const struct nvc_graph *g, const struct nvc_node *nd,
		       const float *x, float *const *values)
{
	long off = 0, n;
	int i;

	for (i = 0; i < nd->num_outputs; i++) {
		n = nvc_tensor_size(&g->tensors[nd->outputs[i]]);
		memcpy(values[nd->outputs[i]], x + off, n * sizeof(*x));
		off += n;
	}
}

static void exec_softmax(const struct nvc_tensor *t, const float *x, float *y)
{
	long hw = (long)t->h * t->w, i;
	int c;

	for (i = 0; i < hw; i++) {
		float max = x[i];
		double sum = 0;

		for (c = 1; c < t->c; c++)
			max = x[c * hw + i] > max ? x[c * hw + i] : max;
		for (c = 0; c < t->c; c++) {
			y[c * hw + i] = expf(x[c * hw + i] - max);
			sum += y[c * hw + i];
		}
		for (c = 0; c < t->c; c++)
			y[c * hw + i] /= sum;
	}
}

/* (x - mean) / sqrt(var + eps) over the channels of each position. */
static void exec_layernorm(const struct nvc_tensor *t, float eps,
			   const float *x, float *y)
{
	long hw = (long)t->h * t->w, i;
	double sum, sq, d;
	int c;

	for (i = 0; i < hw; i++) {
		for (sum = 0, c = 0; c < t->c; c++)
			sum += x[c * hw + i];
		for (sq = 0, c = 0; c < t->c; c++) {
			d = x[c * hw + i] - sum / t->c;
			sq += d * d;
		}
		for (c = 0; c < t->c; c++)
			y[c * hw + i] = (float)((x[c * hw + i] - sum / t->c) /
						sqrt(sq / t->c + eps));
	}
}

static void exec_pad(const struct nvc_graph *g, const struct nvc_node *nd,
		     const float *x, float *y)
{
	const struct nvc_tensor *ti = &g->tensors[nd->inputs[0]];
	const struct nvc_tensor *t = &g->tensors[nd->outputs[0]];
	const struct nvc_pad_attr *p = &nd->pad;
	long c, h, w;

	for (c = 0; c < t->c; c++)
		for (h = 0; h < t->h; h++) {
			long r = nvc_pad_source(p->mode, h, p->pad[0], ti->h);

			for (w = 0; w < t->w; w++)
				y[(c * t->h + h) * t->w + w] =
					x[(c * ti->h + r) * ti->w +
					  nvc_pad_source(p->mode, w, p->pad[1],
							 ti->w)];
		}
}

/* The CPU's functions (enum nvc_cpu_fn; RESIZE: exec_window.c). */
static void exec_cpu(const struct nvc_graph *g, const struct nvc_node *nd,
		     const float *x, float *y)
{
	const struct nvc_tensor *ti = &g->tensors[nd->inputs[0]];
	const struct nvc_tensor *t = &g->tensors[nd->outputs[0]];
	const struct nvc_activation lut = { .type = nd->cpu == NVC_CPU_TANH ?
		NVC_ACT_TANH : NVC_ACT_SIGMOID };
	long i, c, h;

	switch (nd->cpu) {
	case NVC_CPU_ERF:
		for (i = 0; i < nvc_tensor_size(t); i++)
			y[i] = erff(x[i]);
		break;
	case NVC_CPU_SIGMOID:
	case NVC_CPU_TANH:
	case NVC_CPU_SILU:
		for (i = 0; i < nvc_tensor_size(t); i++)
			y[i] = act_one(&lut, NULL, 0, x[i]) *
			       (nd->cpu == NVC_CPU_SILU ? x[i] : 1);
		break;
	case NVC_CPU_SWAP_CH:
		for (c = 0; c < ti->c; c++)
			for (h = 0; h < ti->h; h++)
				for (i = 0; i < ti->w; i++)
					y[(h * ti->c + c) * ti->w + i] =
						x[(c * ti->h + h) * ti->w + i];
		break;
	case NVC_CPU_LAYERNORM:
		exec_layernorm(t, nd->cpu_eps, x, y);
		break;
	case NVC_CPU_RESIZE:
		nvc_exec_resize(ti, t, nd->cpu_coord, nd->cpu_step, x, y);
		break;
	}
}

/* Node @nd from and into @values; -1 when out of memory. */
static int exec_node(const struct nvc_graph *g, const struct nvc_node *nd,
		     float **values)
{
	const float *x = values[nd->inputs[0]];
	const struct nvc_tensor *out = &g->tensors[nd->outputs[0]];
	float *y = values[nd->outputs[0]];
	int i;

	switch (nd->op) {
	case NVC_CONV:
		if (nvc_exec_conv(g, nd, x, y))
			return -1;
		break;
	case NVC_CONV_TRANSPOSE:
		nvc_exec_conv_transpose(g, nd, x, y);
		break;
	case NVC_AFFINE:
		exec_affine(g, nd, x, y);
		break;
	case NVC_ELTWISE:
		exec_eltwise(g, nd, x, values[nd->inputs[1]], y);
		break;
	case NVC_POOL:
		nvc_exec_pool(g, nd, x, y);
		break;
	case NVC_LRN:
		nvc_exec_lrn(g, nd, x, y);
		break;
	case NVC_CONCAT:
		exec_concat(g, nd, values, y);
		break;
	case NVC_PAD:
		exec_pad(g, nd, x, y);
		break;
	case NVC_SPLIT:
		exec_split(g, nd, x, values);
		break;
	case NVC_SOFTMAX:
		exec_softmax(out, x, y);
		break;
	case NVC_CPU:
		exec_cpu(g, nd, x, y);
		break;
	case NVC_ACT:
	case NVC_RESHAPE:
		memcpy(y, x, nvc_tensor_size(out) * sizeof(*y));
		break;
	}
	for (i = 0; i < nd->num_outputs; i++)
		nvc_exec_act(g, &nd->act, &g->tensors[nd->outputs[i]],
			 values[nd->outputs[i]]);
	return 0;
}

void nvc_exec_free(const struct nvc_graph *g, float **values)
{
	int i;

	for (i = 0; i < g->num_tensors; i++) {
		free(values[i]);
		values[i] = NULL;
	}
}

int nvc_exec(const struct nvc_graph *g, const float *const *inputs,
	     float **values, char *err, size_t errlen)
{
	int i, ret;

	ret = nvc_graph_check(g, err, errlen);
	if (ret)
		return ret;
	memset(values, 0, g->num_tensors * sizeof(*values));
	for (i = 0; i < g->num_tensors; i++) {
		const struct nvc_tensor *t = &g->tensors[i];

		if (t->data)
			continue;
		values[i] = calloc(nvc_tensor_size(t), sizeof(float));
		if (!values[i])
			goto nomem;
	}
	for (i = 0; i < g->num_inputs; i++)
		memcpy(values[g->inputs[i]], inputs[i],
		       nvc_tensor_size(&g->tensors[g->inputs[i]]) * sizeof(float));
	for (i = 0; i < g->num_nodes; i++)
		if (exec_node(g, &g->nodes[i], values))
			goto nomem;
	return 0;
nomem:
	nvc_exec_free(g, values);
	return nvc_error(err, errlen, -ENOMEM, "out of memory");
}
