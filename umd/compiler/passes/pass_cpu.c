// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The SDP's LUT activations as CPU functions, for a target without the
 * SDP's Y stage (nv_small): each Sigmoid and Tanh becomes an NVC_CPU
 * node, and a Sigmoid whose sole reader multiplies it by its own input
 * (SiLU, x sigmoid(x)) one node with that product, one CPU task instead
 * of a CPU task and an int8 rounding of the sigmoid before the product.
 * Before nvc_passes(), which would fuse the activations into their
 * producers.
 */
#include <errno.h>
#include <stdlib.h>

#include "compiler.h"
#include "graph.h"

/*
 * The node multiplying Sigmoid node @i's output by its input, that
 * output's only use, or -1.
 */
static int silu_mul(const struct nvc_graph *g, int i)
{
	const struct nvc_node *sg = &g->nodes[i];
	int x = sg->inputs[0], mul;

	if (sg->act.type != NVC_ACT_SIGMOID)
		return -1;
	mul = nvc_sole_reader(g, sg->outputs[0]);
	if (mul < 0)
		return -1;
	sg = &g->nodes[mul];
	if (sg->op != NVC_ELTWISE || sg->eltwise != NVC_ELT_MUL ||
	    sg->act.type != NVC_ACT_NONE || sg->num_inputs != 2 ||
	    sg->inputs[0] == sg->inputs[1] ||
	    (sg->inputs[0] != x && sg->inputs[1] != x))
		return -1;
	return mul;
}

static void cpu_node(struct nvc_node *nd, enum nvc_cpu_fn fn)
{
	nd->op = NVC_CPU;
	nd->cpu = fn;
	nd->act = (struct nvc_activation){ .type = NVC_ACT_NONE, .slope = -1 };
}

int nvc_cpu_activations(struct nvc_graph *g, char *err, size_t errlen)
{
	char *dead = calloc(g->num_nodes + 1, 1);
	int i, mul, ret = 0, x, fused = 0;

	if (!dead)
		return nvc_error(err, errlen, -ENOMEM, "out of memory");
	for (i = 0; i < g->num_nodes; i++) {
		struct nvc_node *nd = &g->nodes[i];

		if (nd->op != NVC_ACT || (nd->act.type != NVC_ACT_SIGMOID &&
					  nd->act.type != NVC_ACT_TANH))
			continue;
		mul = silu_mul(g, i);
		if (mul < 0) {
			cpu_node(nd, nd->act.type == NVC_ACT_TANH ?
				 NVC_CPU_TANH : NVC_CPU_SIGMOID);
			continue;
		}
		x = nd->inputs[0];
		dead[i] = 1;
		fused++;
		nd = &g->nodes[mul];
		cpu_node(nd, NVC_CPU_SILU);
		nd->onnx_op = "Sigmoid, Mul: SiLU";
		nd->num_inputs = 1;
		nd->inputs[0] = x;
		nd->inputs[1] = 0;
	}
	if (fused)
		ret = nvc_graph_compact(g, dead);
	free(dead);
	return ret ? nvc_error(err, errlen, ret, "out of memory") : 0;
}
