// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * libFuzzer target: any bytes as an ONNX model through the compiler's
 * front end: the protobuf, the operator mappings and shape inference,
 * the passes and the graph check, then the float executor on graphs small
 * enough to run quickly. Whatever the input, nothing may crash, leak,
 * touch memory it was not given, or hang. Seeds: the models of
 * test_compiler_onnx (--write-models).
 */
#include <stdint.h>
#include <stdlib.h>

#include "compiler.h"

#define MAX_WORK (1L << 22)	/* multiply-adds the executor may spend */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Multiply-adds of @g in the executor, saturating above MAX_WORK. */
static long work(const struct nvc_graph *g)
{
	long total = 0, n, per;
	int i;

	for (i = 0; i < g->num_nodes && total <= MAX_WORK; i++) {
		const struct nvc_node *nd = &g->nodes[i];
		const struct nvc_tensor *in = &g->tensors[nd->inputs[0]];

		n = nvc_tensor_size(&g->tensors[nd->outputs[0]]) +
		    nvc_tensor_size(in);
		per = 1;
		if (nd->op == NVC_CONV || nd->op == NVC_CONV_TRANSPOSE)
			per = (long)nd->conv.kh * nd->conv.kw *
			      g->tensors[nd->conv.weights].c *
			      g->tensors[nd->conv.weights].n;
		else if (nd->op == NVC_POOL)
			per = (long)nd->pool.kh * nd->pool.kw;
		else if (nd->op == NVC_LRN)
			per = nd->lrn.size;
		if (per > MAX_WORK || n > MAX_WORK / per)
			return MAX_WORK + 1;
		total += n * per;
	}
	return total;
}

static void run(const struct nvc_graph *g)
{
	const float *inputs[NVC_MAX_INPUTS];
	float **values = calloc(g->num_tensors, sizeof(*values));
	float *in[NVC_MAX_INPUTS] = { NULL };
	char err[NVC_ERR_LEN];
	long n, j;
	int i;

	for (i = 0; i < g->num_inputs; i++) {
		n = nvc_tensor_size(&g->tensors[g->inputs[i]]);
		in[i] = malloc(n * sizeof(float));
		for (j = 0; in[i] && j < n; j++)
			in[i][j] = (float)(j % 7) - 3;
		inputs[i] = in[i];
		if (!in[i])
			goto out;
	}
	if (values && !nvc_exec(g, inputs, values, err, sizeof(err)))
		nvc_exec_free(g, values);
out:
	for (i = 0; i < g->num_inputs; i++)
		free(in[i]);
	free(values);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[NVC_ERR_LEN];
	struct nvc_graph g;

	if (nvc_onnx_load(data, size, &g, err, sizeof(err)))
		return 0;
	if (!nvc_passes(&g, NULL, err, sizeof(err)) &&
	    !nvc_graph_check(&g, err, sizeof(err)) && work(&g) <= MAX_WORK)
		run(&g);
	nvc_graph_free(&g);
	return 0;
}
