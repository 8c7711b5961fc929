// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Per-layer int8 error (--report, --mixed-precision): over the
 * calibration inputs, each convolution computed from its float input
 * with the back end's int8 weights (quant_weights.c), its activation
 * applied and its output rounded to its int8 scale, against the float
 * executor's output: the error that computing that layer in fp16 takes
 * away (its input keeps the int8 error of the layer before, which the
 * measure leaves out so that layers are judged one at a time, as
 * PyTorch's numeric suite compares a quantized layer in shadow mode). As a
 * signal-to-noise ratio, 10 log10(sum y^2 / sum (y_int8 - y)^2).
 * Mixed precision keeps the layers of lowest ratio in fp16.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "calib.h"
#include "exec.h"
#include "quality.h"

#define MAX(a, b) ((a) > (b) ? (a) : (b))

struct layer_err {
	struct nvc_graph *g;
	double *signal, *noise;	/* per node */
	float *wq;		/* int8 weights as values, largest layer */
	float *y;		/* the layer's int8 output, largest */
	char *err;
	size_t errlen;
};

bool nvc_layer_measured(const struct nvc_node *n)
{
	return n->op == NVC_CONV;
}

/* The weights of @nd as their int8 codes times their scales, into @wq. */
static void weights_int8(const struct nvc_graph *g, const struct nvc_node *nd,
			 float *wq)
{
	const struct nvc_tensor *w = &g->tensors[nd->conv.weights];
	size_t per = (size_t)w->c * w->h * w->w, i;
	float *ws = wq + (size_t)w->n * per;	/* room after the weights */
	int k;

	nvc_weight_absmax(w->data, w->n, per, ws);
	nvc_weight_scales(ws, w->n);
	for (k = 0; k < w->n; k++)
		for (i = 0; i < per; i++)
			wq[k * per + i] = nvc_weight_code(w->data[k * per + i],
							  ws[k]) * ws[k];
}

/* Node @j on this input: its int8 output's error added up. */
static int measure(struct layer_err *m, int j, float *const *values)
{
	struct nvc_graph *g = m->g;
	const struct nvc_node *nd = &g->nodes[j];
	struct nvc_tensor *w = &g->tensors[nd->conv.weights];
	const struct nvc_tensor *out = &g->tensors[nd->outputs[0]];
	const float *y = values[nd->outputs[0]];
	float s = nvc_act_scale(out), *keep = w->data;
	long n = nvc_tensor_size(out), i;
	int ret;

	weights_int8(g, nd, m->wq);
	w->data = m->wq;
	ret = nvc_exec_conv(g, nd, values[nd->inputs[0]], m->y);
	w->data = keep;
	if (ret)
		return nvc_error(m->err, m->errlen, -ENOMEM, "out of memory");
	nvc_exec_act(g, &nd->act, out, m->y);
	for (i = 0; i < n; i++) {
		double q = fmax(fmin(rint(m->y[i] / s), 127), -128) * s;

		m->signal[j] += (double)y[i] * y[i];
		m->noise[j] += (q - y[i]) * (q - y[i]);
	}
	return 0;
}

static int each_input(void *ctx, float *const *values)
{
	struct layer_err *m = ctx;
	int j, ret;

	for (j = 0; j < m->g->num_nodes; j++) {
		if (!nvc_layer_measured(&m->g->nodes[j]))
			continue;
		ret = measure(m, j, values);
		if (ret)
			return ret;
	}
	return 0;
}

/* Buffers for the largest layer: weights (and scales), output. */
static int buffers(struct layer_err *m)
{
	const struct nvc_graph *g = m->g;
	size_t wmax = 0, ymax = 0;
	int j;

	for (j = 0; j < g->num_nodes; j++) {
		const struct nvc_node *nd = &g->nodes[j];
		const struct nvc_tensor *w, *y;

		if (!nvc_layer_measured(nd))
			continue;
		w = &g->tensors[nd->conv.weights];
		y = &g->tensors[nd->outputs[0]];
		wmax = MAX(wmax, (size_t)nvc_tensor_size(w) + w->n);
		ymax = MAX(ymax, (size_t)nvc_tensor_size(y));
	}
	m->signal = calloc((size_t)j + 1, sizeof(double));
	m->noise = calloc((size_t)j + 1, sizeof(double));
	m->wq = malloc((wmax ? wmax : 1) * sizeof(float));
	m->y = malloc((ymax ? ymax : 1) * sizeof(float));
	return m->signal && m->noise && m->wq && m->y ? 0 : -ENOMEM;
}

int nvc_layer_errors(struct nvc_graph *g, const char *dir,
		     const struct nvc_calib_options *o, double *snr,
		     char *err, size_t errlen)
{
	struct layer_err m = { .g = g, .err = err, .errlen = errlen };
	int j, ret;

	ret = buffers(&m);
	if (ret)
		ret = nvc_error(err, errlen, ret, "out of memory");
	if (!ret)
		ret = nvc_calib_each(g, dir, o, each_input, &m, err, errlen);
	for (j = 0; !ret && j < g->num_nodes; j++)
		snr[j] = !nvc_layer_measured(&g->nodes[j]) ? NAN :
			 m.noise[j] > 0 ? 10 * log10(m.signal[j] / m.noise[j]) :
			 INFINITY;
	free(m.signal);
	free(m.noise);
	free(m.wq);
	free(m.y);
	return ret;
}

int nvc_mixed_count(const struct nvc_graph *g, double percent)
{
	int j, n = 0;

	for (j = 0; j < g->num_nodes; j++)
		n += nvc_layer_measured(&g->nodes[j]);
	return (int)ceil(n * percent / 100 - 1e-9);
}

void nvc_mixed_choose(const struct nvc_graph *g, const double *snr, int n,
		      bool *fp16)
{
	int j, k, worst;

	for (j = 0; j < g->num_nodes; j++)
		fp16[j] = false;
	for (k = 0; k < n; k++) {
		worst = -1;
		for (j = 0; j < g->num_nodes; j++)
			if (nvc_layer_measured(&g->nodes[j]) && !fp16[j] &&
			    (worst < 0 || snr[j] < snr[worst]))
				worst = j;
		if (worst < 0)
			return;
		fp16[worst] = true;
	}
}
