// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * nvdla_exec_bench MODEL.onnx: the compiler's float executor on the
 * convolutions of a model (what calibration spends its time on), each
 * run on the values one execution of the model gives it, by the
 * plane-by-plane reference kernel and by the blocked kernel with one
 * thread, GMAC/s of CPU time (what a core does, whatever else the
 * machine runs), and with one thread per online CPU, GMAC/s of wall time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "compiler.h"
#include "exec.h"

typedef int (*conv_fn)(const struct nvc_graph *g, const struct nvc_node *nd,
		       const float *x, float *y);

static double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double macs(const struct nvc_graph *g, const struct nvc_node *nd)
{
	const struct nvc_tensor *in = &g->tensors[nd->inputs[0]];

	return (double)nvc_tensor_size(&g->tensors[nd->outputs[0]]) *
	       in->c / nd->conv.group * nd->conv.kh * nd->conv.kw;
}

/*
 * GMAC/s of @fn over every convolution of @g by @clock, or -1 when out
 * of memory.
 */
static double rate(const struct nvc_graph *g, float **values, conv_fn fn,
		   clockid_t clock)
{
	double t = 0, n = 0, t0;
	int i;

	for (i = 0; i < g->num_nodes; i++) {
		const struct nvc_node *nd = &g->nodes[i];

		if (nd->op != NVC_CONV)
			continue;
		t0 = now(clock);
		if (fn(g, nd, values[nd->inputs[0]], values[nd->outputs[0]]))
			return -1;
		t += now(clock) - t0;
		n += macs(g, nd);
	}
	return t > 0 ? n / t / 1e9 : 0;
}

int main(int argc, char **argv)
{
	char err[NVC_ERR_LEN * 2];
	struct nvc_graph g;
	float **values, *in;
	const float *ins[1];
	long n, i;
	int cpus = sysconf(_SC_NPROCESSORS_ONLN);
	double ref, one, all;

	if (argc != 2) {
		fprintf(stderr, "usage: nvdla_exec_bench MODEL.onnx\n");
		return 2;
	}
	if (nvc_onnx_load_file(argv[1], &g, err, sizeof(err)) ||
	    nvc_passes(&g, NULL, err, sizeof(err))) {
		fprintf(stderr, "nvdla_exec_bench: %s: %s\n", argv[1], err);
		return 1;
	}
	n = nvc_tensor_size(&g.tensors[g.inputs[0]]);
	in = malloc(n * sizeof(*in));
	values = calloc(g.num_tensors, sizeof(*values));
	if (!in || !values)
		return 1;
	for (i = 0; i < n; i++)
		in[i] = (float)(i % 251) / 251;
	ins[0] = in;
	if (nvc_exec(&g, ins, values, err, sizeof(err))) {
		fprintf(stderr, "nvdla_exec_bench: %s: %s\n", argv[1], err);
		return 1;
	}
	ref = rate(&g, values, nvc_exec_conv_ref, CLOCK_PROCESS_CPUTIME_ID);
	nvc_exec_set_jobs(1);
	one = rate(&g, values, nvc_exec_conv, CLOCK_PROCESS_CPUTIME_ID);
	nvc_exec_set_jobs(0);
	all = rate(&g, values, nvc_exec_conv, CLOCK_MONOTONIC);
	printf("float executor, convolutions of %s: one thread %.2f GMAC/s plane by plane (reference), %.2f blocked (CPU time); %.2f GMAC/s blocked on %d threads (wall)\n",
	       argv[1], ref, one, all, cpus);
	nvc_exec_free(&g, values);
	free(values);
	free(in);
	nvc_graph_free(&g);
	return ref < 0 || one < 0 || all < 0;
}
