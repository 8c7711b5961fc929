// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * The compiler's performance estimate (estimate.h). The model reports the
 * operations in the order they ran, an operation of engines fed on the
 * fly ("conv+sdp") once; each engine runs its operations in the order the
 * compiler made them, so the k-th reported operation an engine takes
 * part in is the k-th that the compiler made for it, and a reported
 * operation belongs to the node that made its first engine's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvdla/dla_interface.h>

#include "compiler.h"
#include "estimate.h"

/* The estimate's engine names, by DLA_OP_*. */
static const char *const est_engines[] = {
	[DLA_OP_BDMA] = "bdma", [DLA_OP_CONV] = "conv", [DLA_OP_SDP] = "sdp",
	[DLA_OP_PDP] = "pdp", [DLA_OP_CDP] = "cdp", [DLA_OP_RUBIK] = "rubik",
};
#define EST_TYPES (int)(sizeof(est_engines) / sizeof(est_engines[0]))

/* DLA_OP_* of engine name @s (@len characters), or -1. */
static int est_type(const char *s, size_t len)
{
	int t;

	for (t = 0; t < EST_TYPES; t++)
		if (strlen(est_engines[t]) == len &&
		    !strncmp(s, est_engines[t], len))
			return t;
	return -1;
}

/* The node of the @k-th operation of @type that @o made, or -1. */
static int est_node(const struct nvc_origins *o, int type, int k)
{
	int i;

	for (i = 0; i < o->n; i++)
		if (o->type[i] == type && !k--)
			return o->node[i];
	return -1;
}

/* Give @op to its node; @seen counts each engine's operations so far. */
static int est_assign(struct nvc_estimate *e, const struct nvc_origins *o,
		      const struct nvdla_op_estimate *op, int *seen)
{
	const char *s = op->engines;
	int head = -1, node = -1;

	while (*s) {
		size_t len = strcspn(s, "+");
		int t = est_type(s, len);

		if (t < 0)
			return -EPROTO;
		if (head < 0) {
			head = t;
			node = est_node(o, t, seen[t]);
		}
		seen[t]++;
		s += len + (s[len] == '+');
	}
	if (node < 0 || node >= e->num_nodes)
		return -EPROTO;
	e->node[node].cycles += op->cycles;
	e->node[node].ops++;
	if (!e->node[node].bound || op->cycles > e->node[node].longest) {
		e->node[node].longest = op->cycles;
		e->node[node].bound = op->bound;
	}
	return 0;
}

/* Run @net once and give each of its estimated operations to its node. */
static int est_run(struct nvdla_network *net, const struct nvc_origins *o,
		   struct nvc_estimate *e)
{
	int seen[EST_TYPES] = { 0 };
	struct nvdla_op_estimate op;
	unsigned int i;
	int ret = nvdla_network_submit(net, 0);

	if (!ret)
		ret = nvdla_network_estimate(net, &e->run);
	for (i = 0; !ret && i < e->run.num_ops; i++) {
		ret = nvdla_network_op_estimate(net, i, &op);
		if (!ret)
			ret = est_assign(e, o, &op, seen);
	}
	return ret;
}

int nvc_estimate(const void *buf, size_t len, const char *config,
		 const struct nvc_origins *o, int num_nodes,
		 struct nvc_estimate *e, char *err, size_t errlen)
{
	struct nvdla_runtime *rt;
	struct nvdla_network *net;
	char dev[64];
	int ret;

	memset(e, 0, sizeof(*e));
	if (o->oom)
		return nvc_error(err, errlen, -ENOMEM, "out of memory");
	e->node = calloc(num_nodes ? num_nodes : 1, sizeof(*e->node));
	if (!e->node)
		return nvc_error(err, errlen, -ENOMEM, "out of memory");
	e->num_nodes = num_nodes;
	snprintf(dev, sizeof(dev), "sim:%s", config);
	ret = nvdla_runtime_new(dev, &rt, err, errlen);
	if (ret) {
		nvc_estimate_free(e);
		return ret;
	}
	ret = nvdla_runtime_estimate(rt, NULL);
	if (!ret)	/* the times alone: they do not depend on the values */
		ret = nvdla_runtime_estimate_only(rt, 1);
	if (!ret)
		ret = nvdla_network_load(rt, buf, len, &net);
	if (!ret) {
		ret = est_run(net, o, e);
		nvdla_network_unload(net);
	}
	if (ret == -EPROTO)
		nvc_error(err, errlen, ret,
			  "estimate: the model ran operations the compiler did not make");
	else if (ret)
		nvc_error(err, errlen, ret, "estimate: %s",
			  nvdla_runtime_error(rt));
	nvdla_runtime_del(rt);
	if (ret)
		nvc_estimate_free(e);
	return ret;
}

void nvc_estimate_free(struct nvc_estimate *e)
{
	free(e->node);
	e->node = NULL;
	e->num_nodes = 0;
}
