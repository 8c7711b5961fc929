// SPDX-License-Identifier: MIT
/* Copyright (C) 2026 The open NVDLA stack authors */
/*
 * Whole-task validation, on the task's copied descriptors (snapshot.c):
 * the network descriptor, every node of the dependency graph, the
 * per-type operation chains and every operation's own descriptors.
 */
#include "engine.h"
#include "processors.h"

/* Type @t is not one this device runs: say why. */
static int dla_reject_type(struct dla_engine *engine, unsigned int t)
{
	if (t >= DLA_OP_NUM || !dla_processor_ops[t])
		return dla_reject(engine, "operation type %u invalid", t);
	return dla_reject(engine, "%s: %s has no such engine",
			  dla_processor_ops[t]->name, engine->config->name);
}

int dla_validate_network(struct dla_engine *engine)
{
	const struct dla_network_desc *net = &engine->task->network;
	int t;

	if (!net->num_operations)
		return dla_reject(engine, "network has no operations");
	if (!net->num_rois)
		return dla_reject(engine, "network has no region of interest");
	/* Bounds the work and memory of every check over the whole task. */
	if ((u32)net->num_rois * net->num_operations > DLA_MAX_RUNS)
		return dla_reject(engine, "%u operations in %u regions: over %u runs",
				  net->num_operations, net->num_rois,
				  DLA_MAX_RUNS);
	if (net->dynamic_roi)
		return dla_reject(engine, "dynamic regions of interest unsupported");
	if (dla_stat_validate(engine))
		return -EINVAL;

	for (t = 0; t < DLA_OP_NUM; t++) {
		s16 head = net->op_head[t];

		if (head == -1)
			continue;
		if (head < 0 || head >= net->num_operations)
			return dla_reject(engine, "op_head[%d] = %d out of range",
					  t, head);
		if (!dla_processor_available(engine, t))
			return dla_reject_type(engine, t);
	}
	return 0;
}

/* A link from an operation of type @type to @c. */
static int dla_validate_link(struct dla_engine *engine, u8 type,
			     const struct dla_consumer *c, const char *what)
{
	if (c->index == -1)
		return 0;
	if (c->index < 0 || c->index >= engine->task->network.num_operations)
		return dla_reject(engine, "%s %d out of range", what, c->index);
	/* DLA_EVENT_NONE links without a dependency: never signalled. */
	if (c->event > DLA_EVENT_CDMA_DT_DONE)
		return dla_reject(engine, "%s event %u invalid", what,
				  c->event);
	/* Only the convolution pipeline has a CDMA to raise them. */
	if (c->event >= DLA_EVENT_CDMA_WT_DONE && type != DLA_OP_CONV)
		return dla_reject(engine, "%s event %u: a %s raises no CDMA event",
				  what, c->event, dla_processor_ops[type]->name);
	return 0;
}

/*
 * Node @op of region @roi; @first is the same node of region 0, which
 * every region must agree with on the type and on the next operation of
 * that type, since the scheduler runs one order for all regions.
 */
static int dla_validate_node(struct dla_engine *engine,
			     const struct dla_common_op_desc *desc,
			     const struct dla_common_op_desc *first, u16 roi)
{
	int ret, k;

	if (roi && (desc->op_type != first->op_type ||
		    desc->consumers[desc->op_type].index !=
		    first->consumers[first->op_type].index))
		return dla_reject(engine,
				  "region %u: type or order differs from region 0",
				  roi);
	if (desc->op_type >= DLA_OP_NUM ||
	    !dla_processor_available(engine, desc->op_type))
		return dla_reject_type(engine, desc->op_type);
	for (k = 0; k < DLA_OP_NUM; k++) {
		ret = dla_validate_link(engine, desc->op_type,
					&desc->consumers[k], "consumer");
		if (ret)
			return ret;
	}
	return dla_validate_link(engine, desc->op_type, &desc->fused_parent,
				 "fused parent");
}

/*
 * Follow each type's chain from op_head through consumers[type]: every
 * operation must be reached exactly once, by the chain of its own type,
 * or the task could never complete.
 */
static int dla_validate_chains(struct dla_engine *engine)
{
	const struct dla_network_desc *net = &engine->task->network;
	const struct dla_common_op_desc *desc;
	u32 reached = 0;
	int t;

	for (t = 0; t < DLA_OP_NUM; t++) {
		s16 op = net->op_head[t];

		while (op != -1) {
			if (++reached > net->num_operations)
				return dla_reject(engine,
						  "type %d chain loops", t);
			desc = &engine->task->graph[op];
			if (desc->op_type != t)
				return dla_reject(engine,
						  "op %d of type %u in the type %d chain",
						  op, desc->op_type, t);
			op = desc->consumers[t].index;
		}
	}
	if (reached != net->num_operations)
		return dla_reject(engine, "%u of %u operations unreachable",
				  net->num_operations - reached,
				  net->num_operations);
	return 0;
}

/* Operation @op in every region of interest. */
static int dla_validate_op(struct dla_engine *engine, u16 op)
{
	const struct dla_checked_task *task = engine->task;
	const struct dla_common_op_desc *first = &task->graph[op], *desc;
	u32 elem;
	u16 roi;
	int ret = 0;

	for (roi = 0; roi < task->network.num_rois && !ret; roi++) {
		elem = dla_op_elem(engine, roi, op);
		desc = &task->graph[elem];
		ret = dla_validate_node(engine, desc, first, roi);
		if (!ret)
			ret = dla_processor_ops[desc->op_type]->validate(engine,
					&task->ops[elem], &task->surfs[elem]);
	}
	return ret;
}

int dla_validate_task(struct dla_engine *engine)
{
	u16 op;
	int ret;

	for (op = 0; op < engine->task->network.num_operations; op++) {
		engine->log_op = op;	/* messages name the operation */
		ret = dla_validate_op(engine, op);
		engine->log_op = -1;
		if (ret)
			return ret;
	}
	ret = dla_validate_chains(engine);
	return ret ? ret : dla_cbuf_validate_stale(engine);
}
